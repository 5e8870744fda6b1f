r"""Shvets 2026, Table 6: exact epsilon of binary RR against the mechanism-wide bounds."""

from __future__ import annotations

import math
from functools import cache

from shufflekit.mechanisms import make
from shufflekit.numeric.methods import baselines as bl
from shufflekit.numeric.methods import histogram as H
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.printed import (
    BOUND_FACTORS,
    TABLE6,
    TABLE6_BALLE,
    TABLE6_FMT,
    TABLE6_RATIOS,
)
from shufflekit.verify.claims import CheckContext, claim

_T6_BOUNDS = {
    1000: ((0.532, "5.0"), (0.457, "4.3"), (0.442, "4.2")),
    2000: ((0.402, "5.6"), (0.342, "4.8"), (0.301, "4.2")),
    5000: ((0.271, "6.4"), (0.229, "5.4"), (0.183, "4.3")),
    10000: ((0.199, "6.9"), (0.167, "5.8"), (0.126, "4.4")),
}


def printed_bounds() -> dict[int, tuple[float, float, float]]:
    """The three printed mechanism-wide bounds of Table 6 per n (FMT 2021, FMT 2023, Balle)."""
    return {
        n: (float(TABLE6_FMT[n][0]), float(TABLE6_FMT[n][1]), float(TABLE6_BALLE[n]))
        for n in TABLE6
    }


@cache
def _t6_exact(n: int) -> float:
    q = 1 / (1 + math.e)
    return H.binary_pair(q, 1 - q, n, 0).epsilon(1e-5)


for _n, _e in TABLE6.items():

    @claim(
        id=f"001.table6.n{_n}.exact",
        paper="001",
        source=f"Table 6, n = {_n}",
        statement=rf"\varepsilon_{{\mathrm{{exact}}}}(\delta=10^{{-5}}) = {_e}\ (\text{{RR}}, \varepsilon_0=1, (T_{{n,0}},T_{{n,1}}))",
        section="Table 6",
    )
    def check_001_table6_n_exact(ctx, _n=_n, _e=_e):
        return checks.printed_digits(_t6_exact(_n), _e, what=f"two-sided exact eps, n={_n}")


@claim(
    id="001.table6.ratios",
    paper="001",
    source="Table 6 (ratio entries)",
    statement=r"\text{ratios bound}/\varepsilon_{\mathrm{exact}} \text{ as printed (12 cells)}",
    section="Table 6",
)
def check_001_table6_ratios(ctx):
    outs = []
    for n, bounds in printed_bounds().items():
        for bound, printed in zip(bounds, TABLE6_RATIOS[n]):
            outs.append(
                checks.printed_digits(bound / _t6_exact(n), printed, what=f"n={n}, bound {bound}")
            )
    return checks.all_confirmed(outs, "ratios of the printed bounds to our unrounded exact eps")


@claim(
    id="001.sec8.3.factors",
    paper="001",
    source="Sec. 8.3, after Table 6",
    statement=r"\text{mechanism-wide bounds exceed the exact pair by factors } 4.2\text{--}6.9",
    section="Table 6",
)
def check_001_sec8_3_factors(ctx):
    ratios = [b / _t6_exact(n) for n, bounds in printed_bounds().items() for b in bounds]
    return checks.all_confirmed(
        [
            checks.printed_digits(min(ratios), BOUND_FACTORS[0]),
            checks.printed_digits(max(ratios), BOUND_FACTORS[1]),
        ],
        f"factors {min(ratios):.3f}-{max(ratios):.3f}",
    )


for _n, (_f21, _f23) in TABLE6_FMT.items():

    @claim(
        id=f"001.table6.fmt21.n{_n}",
        paper="001",
        source=f"Table 6, FMT (2021), n = {_n}",
        statement=rf"\varepsilon_{{FMT21}}(\varepsilon_0=1,\delta=10^{{-5}},n={_n}) = {_f21}",
        section="Sec. 8.3, Table 6",
    )
    def check_001_table6_fmt21_n(ctx: CheckContext, n=_n, printed=_f21):
        return checks.printed_digits(
            bl.fmt21_epsilon(1.0, n, 1e-5), printed, what="FMT 2021 Thm 3.1 closed form"
        )

    @claim(
        id=f"001.table6.fmt23.n{_n}",
        paper="001",
        source=f"Table 6, FMT (2023), n = {_n}",
        statement=rf"\varepsilon_{{FMT23}}(\varepsilon_0=1,\delta=10^{{-5}},n={_n}) = {_f23}",
        section="Sec. 8.3, Table 6",
    )
    def check_001_table6_fmt23_n(ctx: CheckContext, n=_n, printed=_f23):
        rr = make("rr", eps0=1)
        return checks.printed_digits(
            bl.fmt23_epsilon(1.0, n, 1e-5, rr),
            printed,
            what="FMT 2023 Thm 3.2 (binary RR is in the erratum's class)",
        )
