r"""Shvets 2026, Sec. 8.3: the ranges printed after Table 3 and the binary-output formula."""

from __future__ import annotations

from functools import cache

import numpy as np
import sympy as sp

from shufflekit.symbolic import fixed_composition as F
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.printed import (
    BINARY_FORMULA,
    I_FACTOR,
    I_RANGE,
    TABLE3,
    TABLE3_ROWS_RANGE,
    UNDERESTIMATE_RANGE,
)
from shufflekit.verify.catalog.seed001.running_example import (
    composition_k,
    fisher_at,
    fisher_derivation,
    mixture_fisher_at,
    mixture_fisher_derivation,
    shuffled_pair_at,
)
from shufflekit.verify.claims import claim, confirmed, imprecise, refuted
from shufflekit.verify.mutation import printed


@cache
def _range_scan():
    f = sp.lambdify(F.pi, fisher_derivation().result)
    g = sp.lambdify(F.pi, mixture_fisher_derivation().result)
    grid = np.linspace(0.05, 0.95, 9001)
    vals, mix = f(grid), g(grid)
    ue = 1 - mix / vals
    return float(vals.min()), float(vals.max()), float(ue.min()), float(ue.max())


@claim(
    id="001.sec8.3.I-range",
    paper="001",
    source="Sec. 8.3, after Table 3",
    statement=r"I_\pi \in [1.47, 2.30] \text{ for } \pi\in[0.05,0.95]",
    section="Sec. 8.3",
)
def check_001_sec8_3_I_range(ctx):
    lo, hi, _, _ = _range_scan()
    return checks.all_confirmed(
        [
            checks.printed_digits(lo, I_RANGE[0], what="min I_pi"),
            checks.printed_digits(hi, I_RANGE[1], what="max I_pi"),
        ],
        f"range [{lo:.5f}, {hi:.5f}]",
    )


@claim(
    id="001.sec8.3.I-factor",
    paper="001",
    source="Sec. 8.3, after Table 3",
    statement=r"\max I_\pi/\min I_\pi = 1.56",
    section="Sec. 8.3",
)
def check_001_sec8_3_I_factor(ctx):
    lo, hi, _, _ = _range_scan()
    return checks.printed_digits(hi / lo, I_FACTOR, what="max/min of I_pi on [0.05, 0.95]")


@claim(
    id="001.sec8.3.underestimate-range",
    paper="001",
    source="Sec. 8.3, after Table 3",
    statement=r"1 - I^{\mathrm{mix}}_\pi/I_\pi \in [6.5\%, 31.3\%] \text{ on } [0.05, 0.95]",
    section="Sec. 8.3",
)
def check_001_sec8_3_underestimate_range(ctx):
    _, _, lo, hi = _range_scan()
    return checks.all_confirmed(
        [
            checks.printed_digits(lo, UNDERESTIMATE_RANGE[0], what="min underestimate"),
            checks.printed_digits(hi, UNDERESTIMATE_RANGE[1], what="max underestimate"),
        ],
        f"[{lo:.4%}, {hi:.4%}]",
    )


@claim(
    id="001.sec8.3.table3-rows-range",
    paper="001",
    source="Sec. 8.3, after Table 3",
    statement=r"\text{the four rows of Table 3 show underestimates between 20.0\% and 31.0\%}",
    section="Sec. 8.3",
)
def check_001_sec8_3_table3_rows_range(ctx):
    vals = [1 - mixture_fisher_at(p) / fisher_at(p) for p in TABLE3]
    return checks.all_confirmed(
        [
            checks.printed_digits(min(vals), TABLE3_ROWS_RANGE[0]),
            checks.printed_digits(max(vals), TABLE3_ROWS_RANGE[1]),
        ],
        "min/max over the four rows",
    )


@claim(
    id="001.sec8.3.jsd-not-mixture",
    paper="001",
    source="Sec. 8.3 / Table 4 caption",
    statement=r"8n\,\mathrm{JSD} \to I_\pi,\ \text{not } I^{\mathrm{mix}}_\pi",
    section="Sec. 8.3",
)
def check_001_sec8_3_jsd_not_mixture(ctx):
    n = 400
    v = 8 * n * shuffled_pair_at(n, composition_k(n)).jsd()
    i, im = fisher_at(0.3), mixture_fisher_at(0.3)
    ok = abs(v - i) < 0.01 * i and abs(v - im) > 0.3 * im
    msg = f"8n JSD = {v:.5f} at n={n}; I_pi = {i:.5f}, I_mix = {im:.5f}"
    return checks.decide(ok, msg, statement="8n JSD approaches I_pi, not I_mix")


@claim(
    id="001.sec8.3.binary-formula",
    paper="001",
    source="Sec. 8.3 (binary output)",
    statement=r"I_\pi = \frac{0.09}{0.21 + 0.03\pi}\ \text{(binary output, the composition-independent case)}",
    expected="imprecise",
    section="Sec. 8.3",
    mutation="the binary channel is not stated, so the printed formula is matched to whichever "
    "channel has it and a corrupted formula of the same shape matches another channel; "
    "the composition-independence the paragraph asserts is corrupted and caught",
)
def check_001_sec8_3_binary_formula(ctx):
    """Two computed facts decide the verdict: which binary channels have this I_pi (none:
    refuted), and whether the printed formula depends on pi although the paragraph calls the
    case composition-independent (it does: imprecise; it does not: confirmed)."""
    formula = printed(BINARY_FORMULA, "printed I_pi of the binary case")
    independent = printed(True, "the case is composition-independent")
    sols = F.identify_binary_channel(formula)
    if not sols:
        return refuted(f"no binary channel (W_b = (p_b, 1-p_b)) has I_pi = {sp.sstr(formula)}")
    chans = ", ".join(f"(p0, p1) = ({s['p0']}, {s['p1']})" for s in sols)
    at0, at1 = float(formula.subs(F.pi, 0)), float(formula.subs(F.pi, 1))
    depends = sp.simplify(sp.diff(formula, F.pi)) != 0
    derived_dep = not sols[0]["composition_independent"]
    if depends != derived_dep:
        return refuted(
            f"the formula's pi-dependence ({depends}) disagrees with that derived for the "
            f"channel {chans} ({derived_dep})"
        )
    if depends == independent:
        der = F.binary_output_fisher()
        p0, p1 = der.extras["p0"], der.extras["p1"]
        sym = sp.simplify(der.result.subs(p1, 1 - p0))
        return imprecise(
            f"the formula is I_pi of the binary channel {chans}, which the available text "
            f"does not state; it depends on pi (from {at0:.4f} at pi=0 to {at1:.4f} at pi=1), "
            f"so the case is not composition-independent as the paragraph says; only "
            f"variance-symmetric channels (p1 = 1 - p0, e.g. RR) are: I_pi = {sym}",
            channels=chans,
            at_0=at0,
            at_1=at1,
        )
    return confirmed(
        f"the formula is I_pi of the binary channel {chans}; pi-dependent: {depends}",
        channels=chans,
    )


@claim(
    id="001.sec8.3.binary-symmetric",
    paper="001",
    source="Sec. 8.3 (binary output)",
    statement=r"\text{binary variance-symmetric channels have composition-independent } I_\pi",
    section="Sec. 8.3",
)
def check_001_sec8_3_binary_symmetric(ctx):
    der = F.binary_output_fisher()
    p0, p1 = der.extras["p0"], der.extras["p1"]
    val = sp.simplify(der.result.subs(p1, 1 - p0))
    return checks.exact_identity(
        sp.diff(val, F.pi), 0, what=f"d/dpi of I_pi for p1 = 1 - p0 ({val})"
    )
