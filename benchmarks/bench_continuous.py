"""Benchmarks of the continuous accountants: the certified BMG blanket bound (method
``bmg-blanket``, both orders of the zero-out pair), the BMG design, and the central Gaussian.

``run(quick)`` returns rows ``{benchmark, target, seconds, peak_mb, result, ok}``.
"""

from __future__ import annotations

import math

import mpmath as mp
from measure import timed

from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.design import bmg_design
from shufflekit.numeric.methods import gaussian


def _eps(mech, n, delta, **opts):
    """A fresh accountant each call (so the second, memory-traced call repeats the work)."""
    return accountant(mech, n, method="bmg-blanket", **opts).get_epsilon(delta)


def run(quick: bool) -> list[dict]:
    rows = []
    mech = make("bmg", gamma=0.95, sigma0=4.6)

    # one-time costs of a process: importing every registered method module (shared by all
    # accountants) and deriving BMG's law of l_eps symbolically (cached per mechanism)
    def setup():
        from shufflekit.numeric.accountant import methods
        from shufflekit.numeric.methods.bmg_blanket import law_functions, worst_radius

        methods()
        worst_radius(mech)
        law_functions(mech)
        return True

    _, sec, _ = timed(setup, memory=False)
    rows.append(
        {
            "benchmark": "setup: method registry import + BMG symbolic law",
            "target": "once",
            "seconds": sec,
            "peak_mb": float("nan"),
            "result": "cached afterwards",
            "ok": True,
        }
    )

    # the headline target: eps at delta = 1e-7, n = 1e6 in <= 5 s (was 37-56 s)
    b, sec, mb = timed(lambda: _eps(mech, 10**6, 1e-7))
    fine = _eps(mech, 10**6, 1e-7, resolution=64, level_resolution=96)
    asy = accountant(mech, 10**6, method="bmg-asymptotic").get_epsilon(1e-7)
    rows.append(
        {
            "benchmark": "BMG(0.95, 4.6) eps at delta=1e-7, n=1e6",
            "target": "<= 5 s",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"eps<={b.hi:.6g} (finer lattice {fine.hi:.6g}, ratio "
            f"{b.hi / fine.hi:.5f}; template {asy.value:.6g})",
            "ok": sec <= 5 and b.hi / fine.hi < 1.01,
        }
    )

    b, sec, mb = timed(lambda: _eps(mech, 10**4, 1e-5))
    rows.append(
        {
            "benchmark": "BMG(0.95, 4.6) eps at delta=1e-5, n=1e4",
            "target": "<= 5 s",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"eps<={b.hi:.6g}",
            "ok": sec <= 5,
        }
    )

    # delta at one eps across n: cost grows like log n (one small transform per bit of n)
    for n in [10**5, 10**8] if quick else [10**5, 10**6, 10**8, 10**9]:
        e = 1.5e-4 * math.sqrt(10**4 / n)
        acc = accountant(mech, n, method="bmg-blanket")
        d, sec, mb = timed(lambda: accountant(mech, n, method="bmg-blanket").get_delta(e))
        rows.append(
            {
                "benchmark": f"BMG(0.95, 4.6) delta at eps={e:.3g}, n={n:.0e}",
                "target": "<= 1 s",
                "seconds": sec,
                "peak_mb": mb,
                "result": f"delta<={d.hi:.6g} (certificate terms {d.width:.2g}; {d.note})",
                "ok": sec <= 1 and d.hi > 0,
            }
        )
        del acc

    # more noise, smaller epsilon, sigma0 from 0.01 to 1e6, no overflow
    grid = [0.01, 1.0, 4.6, 1e4, 1e6] if quick else [0.01, 0.1, 1.0, 2.0, 4.6, 20.0, 1e2, 1e4, 1e6]

    def sweep():
        return [_eps(make("bmg", gamma=0.95, sigma0=s), 10**4, 1e-6).hi for s in grid]

    eps, sec, _ = timed(sweep, memory=False)
    mono = all(b <= a * (1 + 1e-6) for a, b in zip(eps, eps[1:]))
    rows.append(
        {
            "benchmark": "BMG(0.95, sigma0) eps at delta=1e-6, n=1e4, sigma0 sweep",
            "target": "monotone, finite",
            "seconds": sec,
            "peak_mb": float("nan"),
            "result": ", ".join(f"{s:g}:{e:.4g}" for s, e in zip(grid, eps)),
            "ok": mono and all(math.isfinite(e) for e in eps),
        }
    )

    # design bmg: <= 10 s per eps at n = 1e4; works at n = 1e9
    for n, eps_t in [(10**4, 0.001)] if quick else [(10**4, 0.001), (10**4, 0.01), (10**9, 1e-5)]:
        des, sec, _ = timed(lambda: bmg_design.design_for_privacy(n, eps_t, 1e-6), memory=False)
        rows.append(
            {
                "benchmark": f"design bmg n={n:.0e}, eps={eps_t:g}, delta=1e-6",
                "target": "<= 10 s" if n <= 10**4 else "works",
                "seconds": sec,
                "peak_mb": float("nan"),
                "result": f"gamma={des.gamma:.5f} sigma0={des.sigma0:.5g} certified delta "
                f"{des.certified_delta:.4g}, RMSE ratio to GM {des.rmse / des.gm_rmse:.4f}",
                "ok": (sec <= 10 or n > 10**4) and des.certified_delta <= 1e-6,
            }
        )

    # central Gaussian at extreme precision
    d, sec, mb = timed(lambda: gaussian.gdp_delta_mp(40.0, 0.5, 50))
    rows.append(
        {
            "benchmark": "GDP delta(40; mu=0.5) at 50 digits",
            "target": "< 0.1 s",
            "seconds": sec,
            "peak_mb": mb,
            "result": mp.nstr(d, 7),
            "ok": sec < 0.1,
        }
    )
    return rows


if __name__ == "__main__":
    import sys

    for row in run("--quick" in sys.argv):
        print(
            f"{row['benchmark']:<58} {row['seconds']:8.2f}s {row['peak_mb']:8.1f} MB  "
            f"{'ok ' if row['ok'] else 'BAD'}  {row['result']}  [{row['target']}]"
        )
