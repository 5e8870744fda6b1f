"""Blanket-bound speed targets and a plain Algorithm 4 for comparison.

Targets (10-RR, eps0 = 4): epsilon at delta = 1e-6 for n = 10^6 to 6 significant
digits in <= 2 s; a 100-point delta(eps) curve in <= 5 s; n = 10^7 (time, peak
memory).  The plain implementation of seed 002, Algorithm 4 uses
l = (e^eps0 - 1)/1200 on the same task.
"""
from __future__ import annotations

import math
import time

import numpy as np

from measure import timed


def _timed(fn, memory: bool = False):
    return timed(fn, memory)


def run(quick: bool) -> list[dict]:
    from scipy.optimize import brentq

    from shufflekit.mechanisms import make
    from shufflekit.numeric.blanket import BlanketAccountant
    from shufflekit.numeric.blanket_fft import blanket_delta_plain_fft, default_grid
    from shufflekit.numeric.gparv_law import gparv_numeric

    mech = make("krr", k=10, eps0=4)
    rows = []
    n = 10**6
    acc = BlanketAccountant.of(mech, n)
    eps, sec, mb = _timed(lambda: acc.epsilon(1e-6), memory=True)
    ref = acc.epsilon(1e-6, rel_tol=1e-11)
    digits_ok = abs(eps - ref) <= 5e-7 * ref
    rows.append(dict(benchmark="10-RR eps0=4 n=1e6: eps at delta=1e-6", target="<= 2 s, 6 digits",
                     seconds=sec, peak_mb=mb, result=f"eps={eps:.6g} (ref {ref:.9g})",
                     ok=bool(sec <= 2.0 and digits_ok)))
    grid = np.linspace(0.005, 0.2, 100)
    prof, sec, mb = _timed(lambda: acc.profile(grid), memory=True)
    rows.append(dict(benchmark="10-RR eps0=4 n=1e6: 100-point curve", target="<= 5 s",
                     seconds=sec, peak_mb=mb,
                     result=f"delta(0.02)={prof.points[6].delta:.4g}", ok=bool(sec <= 5.0)))
    n7 = 10**6 if quick else 10**7
    acc7 = BlanketAccountant.of(mech, n7)
    e7, sec, mb = _timed(lambda: acc7.epsilon(1e-6), memory=True)
    rows.append(dict(benchmark=f"10-RR eps0=4 n={n7:.0e}: eps at delta=1e-6", target="works",
                     seconds=sec, peak_mb=mb, result=f"eps={e7:.6g}", ok=True))

    # plain Algorithm 4 on the same task (smaller n in quick mode)
    npl = 10**5 if quick else n
    accp = BlanketAccountant.of(mech, npl)
    ours, t_ours, _ = _timed(lambda: accp.epsilon(1e-6))
    l = default_grid(4.0)

    def plain_delta(e):
        g, q = gparv_numeric(mech, e)
        return blanket_delta_plain_fft(g, q, npl, l=l)

    def plain_eps():
        return brentq(lambda e: math.log(max(plain_delta(e), 1e-300)) - math.log(1e-6),
                      1e-4, 1.0, rtol=1e-8)

    pe, t_plain, _ = _timed(plain_eps, memory=False)
    _, _, mb = _timed(lambda: plain_delta(pe), memory=True)   # peak of one plain evaluation
    d_plain_at_ours = plain_delta(ours)
    d_ours, err_ours = accp.delta(ours)
    rows.append(dict(benchmark=f"plain Algorithm 4 (l=(e^4-1)/1200) n={npl:.0e}",
                     target="compare", seconds=t_plain, peak_mb=mb,
                     result=(f"eps_plain={pe:.6g} vs eps_exact={ours:.6g} "
                             f"(rel {abs(pe - ours) / ours:.2e}); speed ratio {t_plain / t_ours:.1f}x; "
                             f"delta at eps_exact: plain {d_plain_at_ours:.4g}, exact {d_ours:.6g}"
                             f" +- {err_ours:.1e}"),
                     ok=True))
    return rows


def _table(rows: list[dict]) -> str:
    head = f"{'benchmark':<48} {'target':<18} {'seconds':>8} {'peak MB':>8} ok  result"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['benchmark']:<48} {r['target']:<18} {r['seconds']:>8.3f} "
                     f"{r['peak_mb']:>8.1f} {'yes' if r['ok'] else 'NO ':<3} {r['result']}")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    print(_table(run(quick="--quick" in sys.argv)))
