"""Symbolic-layer speed targets.

Target: reverting a 10-term series takes < 1 s (order-by-order triangular
solve).  Also timed: the Gaussian-local reversion sigma0^2(chi) to 8 terms, the
BMG expansion of Thm 4.1 and the optimal-A expansion (cold caches), for the
record.
"""

from __future__ import annotations

from measure import timed


def _timed(fn, memory: bool = True):
    return timed(fn, memory)


def run(quick: bool) -> list[dict]:
    import sympy as sp

    from shufflekit.symbolic.series import Series

    x, y = sp.Symbol("x", positive=True), sp.Symbol("y", positive=True)
    rows = []

    # 10-term series with rational coefficients: y = log(1+x) + x^3 + ... (exact)
    base = Series.from_expr(sp.log(1 + x) + x**3, x, 11)
    rev, sec, mb = _timed(lambda: base.revert(var=y))
    ok = len(rev.terms) >= 9 and base.compose(rev).terms == ((1, 1),)
    rows.append(
        {
            "benchmark": "revert 10-term series (rational)",
            "target": "< 1 s",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"{len(rev.terms)} terms",
            "ok": ok and sec < 1.0,
        }
    )

    # a series whose coefficients are rational functions of a parameter (for the record:
    # the coefficient fractions grow quickly, so this is much slower than the rational case)
    d = sp.Symbol("d", positive=True)
    m = 6
    sym = Series.make({1: 1, **{k: 1 / (d + k) for k in range(2, m + 1)}}, x, m + 1)
    rev2, sec, mb = _timed(lambda: sym.revert(var=y), memory=False)
    rows.append(
        {
            "benchmark": f"revert {m}-term series (coefficients 1/(d+k))",
            "target": "record",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"{len(rev2.terms)} terms",
            "ok": len(rev2.terms) == m,
        }
    )

    from shufflekit.symbolic import gaussian_local as GL

    der, sec, mb = _timed(lambda: GL.sigma2_in_chi.__wrapped__(8), memory=False)
    rows.append(
        {
            "benchmark": "gaussian-local sigma0^2(chi), 8 terms",
            "target": "record",
            "seconds": sec,
            "peak_mb": mb,
            "result": str(der.result.coefficient_in(-4)),
            "ok": True,
        }
    )

    if not quick:
        from shufflekit.symbolic import bmg as B

        der, sec, mb = _timed(lambda: B.err_expansion(4), memory=False)
        rows.append(
            {
                "benchmark": "BMG Thm 4.1 expansion, 4 terms (cold)",
                "target": "record",
                "seconds": sec,
                "peak_mb": mb,
                "result": str(der.extras["relative"].coefficient_in(sp.Rational(-2, 3))),
                "ok": True,
            }
        )
        der, sec, mb = _timed(lambda: B.optimal_expansion.__wrapped__(4), memory=False)
        rows.append(
            {
                "benchmark": "BMG optimal-A expansion, 4 terms",
                "target": "record",
                "seconds": sec,
                "peak_mb": mb,
                "result": str(der.result.coefficient_in(sp.Rational(-2, 3))),
                "ok": True,
            }
        )
    return rows


if __name__ == "__main__":
    for row in run(quick=False):
        print(row)
