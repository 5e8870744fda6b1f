"""The box check kind proves true inequalities, refutes false ones with a certified point,
and says "undecided" when its budget runs out; the claims proved on boxes can fail."""

from fractions import Fraction

import pytest
import sympy as sp
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.errors import InvalidParameter
from shufflekit.verify import box as B
from shufflekit.verify.claims import REGISTRY, CheckContext, load_catalog

x, y = sp.symbols("x y", positive=True)


def test_proves_a_true_inequality_and_counts_boxes():
    res = B.prove_expr_nonnegative(
        x**2 - x + sp.Rational(1, 4) + sp.Rational(1, 100), {x: (0, 3)}, strict=True
    )
    assert res.status == "proved"
    assert res.proved_boxes >= 1 and res.boxes >= res.proved_boxes
    # the certified lower end is a lower bound of the true minimum 1/100
    assert res.min_lower <= 0.01


def test_refutes_with_a_certified_counterexample():
    res = B.prove_expr_nonnegative(
        x**2 - x + sp.Rational(1, 4) - sp.Rational(1, 10**6), {x: (0, 3)}
    )
    assert res.status == "counterexample"
    point = res.counterexample["x"]
    value = point**2 - point + Fraction(1, 4) - Fraction(1, 10**6)
    assert value < 0  # exact rational arithmetic agrees with the ball


def test_budget_exhaustion_is_undecided_not_confirmed():
    # (x - 1)^2 >= 0 touches zero at x = 1: no enclosure around 1 has a positive lower end
    res = B.prove_expr_nonnegative((x - 1) ** 2, {x: (0, 3)}, strict=True, budget=50)
    assert res.status == "undecided"
    out = B.box_outcome(res)
    assert out.verdict == "imprecise" and "budget" in out.evidence


def test_two_dimensional_box_and_mean_value_form():
    # x y - x - y + 1 = (x - 1)(y - 1) >= 0 on [0, 1]^2 ... and < 0 across x = 1
    f = (x - 1) * (y - 1) + sp.Rational(1, 1000)
    assert (
        B.prove_expr_nonnegative(f, {x: (0, "0.9"), y: (0, "0.9")}, centered=True).status
        == "proved"
    )
    assert B.prove_expr_nonnegative(f, {x: (0, 2), y: (0, "0.5")}).status == "counterexample"


def test_positive_beyond_root():
    out = B.check_positive_beyond_root(sp.log(x), x, 1, 2, 50)
    assert out.verdict == "confirmed"
    wrong_root = B.check_positive_beyond_root(sp.log(x) + sp.Rational(1, 10), x, 1, 2, 50)
    assert wrong_root.verdict == "refuted"


def test_ball_of_interval_encloses_both_ends():
    a, b = Fraction(1, 3), Fraction(7, 5)
    ball = B.ball_of_interval(a, b)
    assert ball.contains(B.ball_of_rational(a)) and ball.contains(B.ball_of_rational(b))
    assert bool(B.ball_of_interval(Fraction(0), Fraction(1)).lower() >= 0)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    st.fractions(min_value=-5, max_value=5), st.fractions(min_value=Fraction(1, 100), max_value=3)
)
def test_compiled_expression_encloses_the_exact_value(c, w):
    expr = (
        sp.exp(x) * sp.erfc(x)
        - sp.sqrt(x + 1) / (x**2 + 1)
        + sp.Rational(3, 7) * x ** sp.Rational(2, 3)
    )
    f = B.arb_function(expr, [x])
    lo, hi = abs(c) + Fraction(1, 10), abs(c) + Fraction(1, 10) + w
    ball = f(B.ball_of_interval(lo, hi))
    for q in (lo, (lo + hi) / 2, hi):
        exact = sp.N(expr.subs(x, sp.Rational(q.numerator, q.denominator)), 40)
        # a 30-digit decimal of the exact value (its own conversion ball) must meet the enclosure
        assert ball.overlaps(arb(str(exact)[:30]))


def test_extremum_encloses_the_true_minimum():
    f = B.arb_function((x - sp.Rational(1, 3)) ** 2 + 2, [x])
    ext = B.enclose_extremum(f, {"x": (0, 1)}, kind="min", tol=1e-10)
    assert ext.converged
    assert bool(ext.lo.lower() <= 2) and bool(ext.hi.upper() >= 2)
    assert float(ext.hi.upper() - ext.lo.lower()) < 1e-8  # the requested tolerance, plus rounding
    mx = B.enclose_extremum(f, {"x": (0, 1)}, kind="max", tol=1e-10)
    truth = Fraction(4, 9) + 2  # attained at x = 1
    assert bool(mx.lo.lower() <= B.ball_of_rational(truth)) and bool(
        mx.hi.upper() >= B.ball_of_rational(truth)
    )


def test_enclosure_rounding():
    assert B.enclosure_rounds_to(arb("1.4729"), arb("1.4731"), "1.47") is True
    assert B.enclosure_rounds_to(arb("1.4829"), arb("1.4831"), "1.47") is False
    assert B.enclosure_rounds_to(arb("1.4749"), arb("1.4751"), "1.47") is None
    assert B.enclosure_rounds_to(arb("0.0653"), arb("0.0654"), "6.5%") is True


def test_taylor_form_beats_cancellation():
    # sqrt(x^2 + 1) - x ~ 1/(2x): heavy cancellation at large x
    expr = sp.sqrt(x**2 + 1) - x - 1 / (2 * x) + 1 / (8 * x**3) - 1 / (16 * x**5)
    f = B.arb_function(expr, [x])
    b = B.Box.of({"x": (100, 101)})
    naive = B.enclose(f, b)
    taylor = B.enclose(f, b, taylor=B.arb_taylor(expr, x, 3))
    assert float(taylor.rad()) < float(naive.rad()) * 1e-3


def test_bad_input_names_the_parameter():
    with pytest.raises(InvalidParameter, match="expression"):
        B.arb_function(sp.gamma(x), [x])
    with pytest.raises(InvalidParameter, match="expression"):
        B.arb_function(x + y, [x])
    with pytest.raises(InvalidParameter, match="budget"):
        B.prove_nonnegative(lambda v: v, {"x": (0, 1)}, budget=0)
    with pytest.raises(InvalidParameter):
        B.Box.of({"x": (2, 1)})


# ------------------------------------------------------------------ the registered claims
BOX_IDS = sorted(c.id for c in load_catalog() if c.id.endswith(".box"))


def test_at_least_ten_claims_are_proved_on_boxes():
    assert len(BOX_IDS) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", BOX_IDS)
def test_box_claims_confirm(claim_id):
    res = REGISTRY.get(claim_id).run(CheckContext(quick=True))
    assert res.outcome.verdict == "confirmed", res.outcome.evidence
    assert res.outcome.values.get("boxes", 0) > 0 or "boxes" in res.outcome.evidence


def test_printed_range_end_mutated_is_refuted():
    from shufflekit.verify.catalog import proved_on_boxes as P

    ctx = CheckContext(quick=True)
    ext = P.extremum(P.fisher_expr(), "min", ctx)
    assert P.rounds(ext, "1.47", "min").verdict == "confirmed"
    assert P.rounds(ext, "1.48", "min").verdict == "refuted"
    assert P.rounds(ext, "1.46", "min").verdict == "refuted"


@pytest.mark.parametrize(
    "key,claim_id,wrong",
    [
        ("I_min", "001.sec8.3.I-range.box", "1.48"),
        ("I_max", "001.sec8.3.I-range.box", "2.29"),
        ("I_factor", "001.sec8.3.I-factor.box", "1.57"),
        ("under_min", "001.sec8.3.underestimate-range.box", "6.6%"),
        ("under_max", "001.sec8.3.underestimate-range.box", "31.2%"),
    ],
)
def test_mutated_printed_value_flips_the_registered_claim(monkeypatch, key, claim_id, wrong):
    from shufflekit.verify.catalog import proved_on_boxes as P

    monkeypatch.setitem(P.PRINTED, key, wrong)
    assert REGISTRY.get(claim_id).run(CheckContext(quick=True)).outcome.verdict == "refuted"


def test_wrong_truncation_coefficient_is_refuted_on_the_box():
    # the Gaussian-local series chi^2 = sigma0^2 - 9/2 + 145/12 sigma0^-2 - ...: with 9/2 -> 4
    # the claimed lower bound S_2 exceeds chi^2 on the whole range, a certified counterexample
    from shufflekit.symbolic import gaussian_local as GL

    V = sp.factor(GL.variance().result)
    s = GL.sigma0
    out = B.check_expr_on_box(
        1 / V - (s**2 - 4), {s: (1, 20)}, strict=True, centered=True, budget=2000
    )
    assert out.verdict == "refuted" and "counterexample" in out.values


# ------------------------------------------------------------------ mutation of the box claims
REFINEMENTS = {
    "000.prop4.2.inverse-truncation.box",
    "000.eqA.1.mills-truncation.box",
    "000.prop3.6.rr-truncation.box",
    "000.appA.6.u-small.box",
}


def test_our_sharpenings_are_marked_as_refinements():
    kinds = {i: REGISTRY.get(i).kind for i in BOX_IDS}
    assert {i for i, k in kinds.items() if k == "refinement"} == REFINEMENTS
    # a refinement says so in its source, and only a refinement does
    assert all(("(refinement)" in REGISTRY.get(i).source) == (i in REFINEMENTS) for i in BOX_IDS)


@pytest.mark.parametrize("claim_id", ["000.def2.4.chi-order-rr.box", "001.prop3.4.convex.box"])
def test_the_opposite_inequality_is_refuted_with_a_certified_point(claim_id):
    from shufflekit.verify.mutation import mutate_claim

    rec = mutate_claim(REGISTRY.get(claim_id), CheckContext(quick=True))
    assert rec.status == "killed" and rec.baseline == "confirmed"
    flipped = [m for m in rec.mutants if m.site.name.startswith("direction")]
    assert flipped and all(m.verdict == "refuted" and "(certified)" in m.evidence for m in flipped)


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", BOX_IDS)
def test_every_corruption_of_a_box_claim_changes_its_verdict(claim_id):
    """Each declared value (printed decimal, bound, direction) corrupted -> refuted; the one
    explained survivor is the slack bound 1/2 of u (its maximum is 1/4)."""
    from shufflekit.verify.mutation import mutate_claim

    rec = mutate_claim(REGISTRY.get(claim_id), CheckContext(quick=True))
    assert rec.baseline == "confirmed" and rec.sites >= 1
    survivors = [m.site.name for m in rec.mutants if not m.killed]
    if claim_id == "000.appA.6.u-small.box":
        assert survivors == ["upper bound 1/2"] and rec.status == "not-checkable"
    else:
        assert rec.status == "killed", rec.reason
    assert all(m.verdict == "refuted" for m in rec.mutants if m.killed)
