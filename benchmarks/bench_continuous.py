"""Benchmarks of the continuous (BMG) blanket accountant and the central Gaussian profile.

``run(quick)`` returns rows ``{benchmark, target, seconds, peak_mb, result, ok}``.
"""
from __future__ import annotations

import time
import tracemalloc

import mpmath as mp

from shufflekit.mechanisms import make
from shufflekit.numeric import continuous, gaussian


def _measure(fn):
    """Wall time of a plain call, then peak traced memory of a second call (tracemalloc slows
    Python-level code, so the two are measured separately)."""
    t0 = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - t0
    tracemalloc.start()
    try:
        fn()
        _cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return out, seconds, peak / 2 ** 20


def run(quick: bool) -> list[dict]:
    rows = []
    mech = make("bmg", gamma=0.95, sigma0=4.6)

    # eps at delta = 1e-5, n = 1e4, to 4 significant digits in <= 10 s
    eps, sec, mb = _measure(lambda: continuous.bmg_epsilon(mech, 10 ** 4, 1e-5, rel_tol=1e-6))
    finer = continuous.bmg_epsilon(mech, 10 ** 4, 1e-5, rel_tol=1e-6, resolution=200)
    digits_ok = abs(eps - finer) / finer < 5e-5
    rows.append({"benchmark": "BMG(0.95, 4.6) eps at delta=1e-5, n=1e4", "target": "<= 10 s, 4 sig. digits",
                 "seconds": sec, "peak_mb": mb,
                 "result": f"eps={eps:.6g} (lattice sd/200: {finer:.6g})", "ok": sec <= 10 and digits_ok})

    # delta at one eps for large n
    for n in ([10 ** 5] if quick else [10 ** 5, 10 ** 6]):
        e = 1e-4 * (10 ** 4 / n) ** 0.5 * 1.2
        res, sec, mb = _measure(lambda: continuous.bmg_delta(mech, n, e))
        rows.append({"benchmark": f"BMG(0.95, 4.6) delta at eps={e:.3g}, n={n:.0e}", "target": "works",
                     "seconds": sec, "peak_mb": mb,
                     "result": f"delta<={res.delta:.6g} (budget {res.error:.2g}, fft {res.parts['fft_size']}, "
                               f"{res.parts['precision']})", "ok": res.delta > 0})
    if not quick:
        # (at delta = 1e-5 the answer is eps = 0: delta(0) ~ 4.5e-6 for n = 1e6)
        eps6, sec, mb = _measure(lambda: continuous.bmg_epsilon(mech, 10 ** 6, 1e-7, rel_tol=1e-6))
        rows.append({"benchmark": "BMG(0.95, 4.6) eps at delta=1e-7, n=1e6", "target": "works",
                     "seconds": sec, "peak_mb": mb, "result": f"eps={eps6:.6g}", "ok": eps6 > 0})

    # central Gaussian at extreme precision
    d, sec, mb = _measure(lambda: gaussian.gdp_delta_mp(40.0, 0.5, 50))
    rows.append({"benchmark": "GDP delta(40; mu=0.5) at 50 digits", "target": "< 0.1 s",
                 "seconds": sec, "peak_mb": mb, "result": mp.nstr(d, 7), "ok": sec < 0.1})
    return rows


if __name__ == "__main__":
    import sys

    for row in run("--quick" in sys.argv):
        print(f"{row['benchmark']:<50} {row['seconds']:8.2f}s {row['peak_mb']:8.1f} MB  "
              f"{'ok ' if row['ok'] else 'BAD'}  {row['result']}  [{row['target']}]")
