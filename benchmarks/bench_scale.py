"""Large alphabets and orders: speed and memory targets.

* k-RR, RAPPOR, OUE, BLH and Hadamard response at k = 1000 and 10^4: build the lumped
  view and describe it (what ``shufflekit mechanism`` prints; target <= 5 s each), and
  the default accountant's eps at delta = 1e-6 (k-RR at n = 10^6; the frequency oracles,
  whose GPARV laws have four atoms, at n = 10^3 because the exact-sum method grows with
  the number of atoms; target <= 5 s);
* the two command lines of the issue, timed end to end (interpreter start included);
* exact fixed-composition accounting, 4 symbols, n = 300, k = 90: pair + JSD + two-sided
  eps at 1e-5 (target <= 5 s and <= 200 MB, tracemalloc peak);
* ``series ID --order K`` at the largest order each id accepts (target <= 60 s; one
  fresh process per id; ``--quick`` uses the default order instead).
"""

from __future__ import annotations

import subprocess
import sys
import time

from bench_histogram import four_symbol_case
from measure import timed

from shufflekit.mechanisms import make
from shufflekit.mechanisms.describe import describe
from shufflekit.numeric.accountant import accountant
from shufflekit.symbolic.results import SERIES_IDS, TERMS, TermsRange

FAMILIES = ("krr", "rappor", "oue", "blh", "hr")


def _cli(*args: str, timeout: float = 120.0) -> tuple[float, str]:
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "shufflekit.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return time.perf_counter() - t0, (out.stdout.strip().splitlines() or [out.stderr.strip()])[-1]


def _series_seconds(result_id: str, order: int, timeout: float = 90.0) -> str | float:
    code = (
        "import time; from shufflekit.symbolic.results import series_payload; "
        f"t = time.perf_counter(); series_payload({result_id!r}, {order}); "
        "print(time.perf_counter() - t)"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return f"> {timeout:g}"
    return float(out.stdout.strip()) if out.returncode == 0 else out.stderr.strip().splitlines()[-1]


def run(quick: bool) -> list[dict]:
    rows = []
    for k in (1000, 10_000):
        for name in FAMILIES:
            payload, sec, mb = timed(lambda: describe(make(name, k=k, eps0=4)), memory=False)
            rows.append(
                {
                    "benchmark": f"scale: mechanism {name} k={k} eps0=4 (lumped build + describe)",
                    "target": "<= 5 s",
                    "seconds": sec,
                    "peak_mb": mb,
                    "result": f"gamma={payload['gamma']['float']:.6g} chi_lo={payload['chi_lo']['float']:.6g}",
                    "ok": sec <= 5.0,
                }
            )
            n = 10**6 if name == "krr" else 10**3
            bound, sec, mb = timed(
                lambda: accountant(make(name, k=k, eps0=4), n).get_epsilon(1e-6), memory=False
            )
            rows.append(
                {
                    "benchmark": f"scale: profile {name} k={k} n={n:g} delta=1e-6 ({bound.method})",
                    "target": "<= 5 s",
                    "seconds": sec,
                    "peak_mb": mb,
                    "result": f"eps <= {bound.hi:.6g}",
                    "ok": sec <= 5.0,
                }
            )
    for args in (
        ("mechanism", "krr", "--k", "10000", "--eps0", "4"),
        ("profile", "krr", "--k", "10000", "--eps0", "4", "--n", "1000000", "--delta", "1e-6"),
    ):
        sec, last = _cli(*args)
        rows.append(
            {
                "benchmark": "scale: cli " + " ".join(args),
                "target": "<= 5 s (incl. start-up)",
                "seconds": sec,
                "peak_mb": float("nan"),
                "result": last[:60],
                "ok": sec <= 5.0,
            }
        )

    n4, k4, four = four_symbol_case(quick)
    (jsd, eps), sec, mb = timed(four)
    rows.append(
        {
            "benchmark": f"scale: histogram 4 symbols n={n4} k={k4} (pair + JSD + eps(1e-5))",
            "target": "<= 5 s, <= 200 MB",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"8n JSD = {8 * n4 * jsd:.6f}, eps = {eps:.6f}",
            "ok": sec <= 5.0 and mb <= 200,
        }
    )

    for result_id in SERIES_IDS:
        order = 4 if quick else TERMS.get(result_id, TermsRange()).hi
        sec = _series_seconds(result_id, order)
        ok = isinstance(sec, float) and sec <= 60.0
        rows.append(
            {
                "benchmark": f"scale: series {result_id} --order {order}",
                "target": "<= 60 s",
                "seconds": sec if isinstance(sec, float) else float("nan"),
                "peak_mb": float("nan"),
                "result": "" if isinstance(sec, float) else str(sec)[:60],
                "ok": ok,
            }
        )
    return rows
