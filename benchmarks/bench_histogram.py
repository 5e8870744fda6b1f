"""Exact fixed-composition accounting (Shvets 2026, Sec. 8): speed targets.

* exact JSD of the 3-symbol channel W0 = (.70,.20,.10), W1 = (.15,.55,.30) at n = 800,
  k = 240 (target <= 2 s);
* binary-output (RR, eps0 = 1) exact two-sided eps at delta = 1e-5, canonical pair,
  n = 10^6 (target <= 2 s);
* a 4-symbol channel at n = 300, k = 90: JSD and two-sided eps at 1e-5 (reported, no target).
"""

from __future__ import annotations

import math
import time
import tracemalloc

from shufflekit.numeric.methods import histogram as H


def _measure(fn):
    tracemalloc.start()
    t0 = time.perf_counter()
    value = fn()
    seconds = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return value, seconds, peak / 2**20


def four_symbol_case(quick: bool):
    """``(n, k, fn)``: the 4-symbol channel W0 = (.4,.3,.2,.1), W1 = (.1,.2,.3,.4) at n = 300
    (150 quick), k = round(0.3 n); ``fn()`` builds the pair and returns its JSD and two-sided
    eps at delta = 1e-5."""
    n4 = 150 if quick else 300
    k4 = round(0.3 * n4)

    def four():
        pair = H.shuffled_pair([0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], n4, k4)
        return pair.jsd(), pair.epsilon(1e-5)

    return n4, k4, four


def run(quick: bool) -> list[dict]:
    rows = []
    n = 800
    val, sec, mb = _measure(
        lambda: H.shuffled_pair([0.70, 0.20, 0.10], [0.15, 0.55, 0.30], n, 240).jsd()
    )
    rows.append(
        {
            "benchmark": "histogram: exact JSD, 3 symbols, n=800, k=240",
            "target": "<= 2 s",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"8n JSD = {8 * n * val:.6f}",
            "ok": sec <= 2.0,
        }
    )
    q = 1 / (1 + math.e)
    val, sec, mb = _measure(lambda: H.binary_pair(q, 1 - q, 10**6, 0).epsilon(1e-5))
    rows.append(
        {
            "benchmark": "histogram: binary RR eps0=1 two-sided eps(1e-5), n=1e6",
            "target": "<= 2 s",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"eps = {val:.6g}",
            "ok": sec <= 2.0,
        }
    )
    n4, k4, four = four_symbol_case(quick)
    (jsd, eps), sec, mb = _measure(four)
    rows.append(
        {
            "benchmark": f"histogram: 4 symbols, n={n4}, k={k4} (JSD + eps(1e-5))",
            "target": "report",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"8n JSD = {8 * n4 * jsd:.5f}, eps = {eps:.5f}",
            "ok": True,
        }
    )
    return rows
