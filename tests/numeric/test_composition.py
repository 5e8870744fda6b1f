"""Composition over rounds: FFT round-off bound, pessimism, exact cases, lower vs upper."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.composition.dominating_pair import PrivacyLossPmf, hull_pmf
from shufflekit.numeric.composition.fixed import (
    Round,
    compose,
    composed_accountant,
    convolve,
    exact_pair_lower,
    self_compose,
    trim,
)
from shufflekit.numeric.methods.gaussian import gdp_epsilon
from shufflekit.numeric.methods.histogram import binary_pair
from tests.numeric.exact_convolution import exact_conv, masses, pmf_error


@settings(max_examples=25, deadline=None)
@given(
    st.lists(masses, min_size=2, max_size=40),
    st.lists(masses, min_size=2, max_size=40),
    st.booleans(),
)
def test_fft_round_off_bound_holds_against_exact_rationals(xa, xb, same):
    """The certified budget of one convolution covers the exact (rational) error."""
    a = np.asarray(xa) / max(sum(xa), 1e-300)
    b = a if same else np.asarray(xb) / max(sum(xb), 1e-300)
    pa = PrivacyLossPmf(1 / 8, 0, a, 0.0, 0.0, Kind.UPPER)
    pb = pa if same else PrivacyLossPmf(1 / 8, 0, b, 0.0, 0.0, Kind.UPPER)
    c = convolve(pa, pb)
    assert pmf_error(c, exact_conv(a, b)) <= Fraction(c.error)
    # and the bound is useful: far below any delta one would report
    assert c.error < 1e-12


def test_local_rr_composition_is_exact():
    """n = 1, eps0 = 1 on the grid: the pair is local RR itself (atoms +-1), so the composed
    curve must equal the binomial formula delta_T(eps) = sum_k C(T,k) p^(T-k) q^k
    (1 - e^(eps - (T-2k)))_+ within the round-off budget, and lie above it."""
    T, eps0 = 7, 1.0
    acc = composed_accountant(make("rr", eps0=eps0), 1, T, method="blanket", grid=2.0**-6)
    one = accountant(make("rr", eps0=eps0), 1, method="blanket")
    ROUND_WIDTH = max(one.get_delta(float(e)).width for e in np.linspace(0, eps0, 65))
    p = math.e / (1 + math.e)
    k = np.arange(T + 1)
    w = binom.pmf(k, T, 1 - p)
    for e in [0.0, 0.5, 1.0, 2.5, 4.0, 6.9]:
        exact = float(np.sum(w * np.maximum(0.0, -np.expm1(e - (T - 2 * k) * eps0))))
        b = acc.get_delta(e)
        assert b.kind is Kind.UPPER
        assert b.hi >= exact
        # each round's certified enclosure has width at most w (measured, about 3e-12): T of
        # them, plus the composition's own reported width (FFT and hull budgets)
        assert b.hi - exact <= T * ROUND_WIDTH + b.width + 1e-13


@pytest.mark.slow
def test_t_fold_gaussian_matches_one_round_of_sigma_over_sqrt_t():
    sigma, T = 4.0, 16  # one round of sigma / sqrt(T) = 1: mu = 1
    acc = composed_accountant({"name": "central-gaussian", "sigma": sigma}, 1, T)
    for d in (1e-5, 1e-8):
        exact = gdp_epsilon(1.0, d)
        up = acc.get_epsilon(d).hi
        # upper side, and within one grid step (the discretisation the output reports)
        assert exact <= up <= exact + acc.grid


def test_binary_rr_upper_above_exact_boundary_pair_done_when():
    """Issue 14: binary RR, eps0 = 1, n = 50, T = 3: the composed upper bound is above the
    exact composition of the boundary pair (numbers printed in the report)."""
    up = composed_accountant(make("rr", eps0=1), 50, 3, method="blanket")
    lo = exact_pair_lower(1.0, 50, 3)
    for d in (1e-3, 1e-6):
        assert up.get_epsilon(d).hi > lo.get_epsilon(d).lo
    for e in (0.2, 0.5, 1.0, 2.0):
        assert up.get_delta(e).hi >= lo.get_delta(e).lo


def test_one_round_exact_pair_matches_the_histogram_accountant():
    """T = 1: the lower loss law reproduces the boundary pair's curve, below it by at most the
    effect of rounding losses down by one grid step."""
    n, grid = 200, 2.0**-12
    pair = binary_pair(1 / (1 + math.e), math.e / (1 + math.e), n)
    lo = exact_pair_lower(1.0, n, 1, grid=grid)
    for e in (0.05, 0.1, 0.3, 0.6):
        exact = pair.delta(e)
        got = lo.get_delta(e).lo
        assert got <= exact
        # losses moved down by less than one step; the certified lower end also subtracts the
        # reported round-off budget (relative 1e-12 of the histogram masses)
        assert got >= pair.delta(e + grid) * (1 - 1e-9) - 2 * lo.error


def test_lower_is_below_upper_for_shuffled_rr():
    up = composed_accountant(make("rr", eps0=2), 300, 10, method="blanket", grid=2.0**-8)
    lo = exact_pair_lower(2.0, 300, 10, grid=2.0**-8)
    for e in np.linspace(0, 3, 13):
        assert lo.get_delta(float(e)).lo <= up.get_delta(float(e)).hi


def test_schedule_equals_identical_rounds():
    mech = make("rr", eps0=1.5)
    a = composed_accountant(mech, 200, 5, method="blanket", grid=2.0**-8)
    b = composed_accountant(
        schedule=[Round(mech, 200, 2, "blanket"), Round(mech, 200, 3, "blanket")], grid=2.0**-8
    )
    for e in (0.1, 0.4, 1.0):
        da, db = a.get_delta(e), b.get_delta(e)
        # same law, different FFT order: equal within the two round-off budgets
        assert abs(da.hi - db.hi) <= da.hi - da.lo + db.hi - db.lo


def test_heterogeneous_rounds_are_between_their_homogeneous_extremes():
    weak, strong = make("rr", eps0=0.5), make("rr", eps0=2.0)
    mixed = composed_accountant(schedule=[Round(weak, 100, 4), Round(strong, 100, 4)], grid=2.0**-8)
    lo_acc = composed_accountant(weak, 100, 8, grid=2.0**-8)
    hi_acc = composed_accountant(strong, 100, 8, grid=2.0**-8)
    d = 1e-6
    assert lo_acc.get_epsilon(d).hi < mixed.get_epsilon(d).hi < hi_acc.get_epsilon(d).hi


def test_trim_moves_the_curve_only_in_the_safe_direction():
    pmf = hull_pmf([float(x) for x in np.exp(-np.arange(200) / 10.0) * 0.3], 2.0**-4)
    big = self_compose(pmf, 8)
    for kind in (Kind.UPPER, Kind.LOWER):
        p = PrivacyLossPmf(
            big.grid,
            big.offset,
            big.probs,
            0.0 if kind is Kind.LOWER else big.infinity_mass,
            big.error,
            kind,
        )
        t = trim(p, cut=1e-6)
        assert t.probs.size < p.probs.size
        for e in (0.0, 1.0, 3.0, 8.0):
            before, after = p.delta(e)[0], t.delta(e)[0]
            if kind is Kind.UPPER:
                assert after >= before - 1e-15
            else:
                assert after <= before + 1e-15


def test_compose_facade_returns_bounds():
    prof = compose(make("rr", eps0=1), 100, 4, epsilons=[0.5], deltas=[1e-6])
    assert [b.quantity for b in prof.bounds] == ["delta", "epsilon"]
    assert all(b.kind is Kind.UPPER for b in prof.bounds)
    assert "4 rounds" in prof.bounds[1].note


def test_bad_input():
    from shufflekit.errors import InvalidParameter

    with pytest.raises(InvalidParameter, match="rounds"):
        composed_accountant(make("rr", eps0=1), 10, 0)
    with pytest.raises(InvalidParameter, match="grid"):
        composed_accountant(make("rr", eps0=1), 10, 2, grid=-1.0)
    with pytest.raises(InvalidParameter):
        compose(make("rr", eps0=1), 10, 2)  # neither epsilons nor deltas


def _pair_curve_pmfs(n, grid, directed):
    pair = binary_pair(1 / (1 + math.e), math.e / (1 + math.e), n)
    # the pair's loss is at most eps0 = 1 in absolute value: delta = 0 from there on; the
    # histogram values are exact to a relative 1e-13, so 1e-9 more makes them upper values
    m = int(1.0 / grid) + 1
    pq = [min(1.0, pair.delta_pq(i * grid) * (1 + 1e-9)) for i in range(m)]
    qp = [min(1.0, pair.delta_qp(i * grid) * (1 + 1e-9)) for i in range(m)]
    if directed:
        return [hull_pmf(pq, grid, reverse=qp), hull_pmf(qp, grid, reverse=pq)]
    return [hull_pmf([max(a, b) for a, b in zip(pq, qp)], grid)]


@pytest.mark.slow
def test_composition_step_is_within_5_percent_of_the_exact_pair():
    """Issue 14's tightness line (binary RR, n = 1e4, T = 100), for the composition step: with
    the exact curves of the boundary pair as per-round profiles (directed, or the symmetric
    maximum an all-pairs profile gives), the composed upper is within 5% (in epsilon at
    delta = 1e-6) of the composed exact-pair lower bound.  The gap of the full pipeline with
    the blanket bound per round is the blanket's own (measured in the benchmark)."""
    from shufflekit.numeric.composition.fixed import ComposedAccountant

    n, T, grid = 10_000, 100, 2.0**-10
    lo = exact_pair_lower(1.0, n, T).get_epsilon(1e-6).lo
    for directed in (True, False):
        pmfs = [self_compose(p, T) for p in _pair_curve_pmfs(n, grid, directed)]
        acc = ComposedAccountant(
            pmfs, kind=Kind.UPPER, method="pair-curve", n=n, mechanism={}, rounds=T
        )
        up = acc.get_epsilon(1e-6).hi
        assert lo <= up <= 1.05 * lo


def test_lower_grid_bias_is_what_the_docstring_says():
    """Rounding losses down on a coarse grid lowers the bound by at most T * grid."""
    fine = exact_pair_lower(1.0, 2000, 20).get_epsilon(1e-6).lo
    coarse = exact_pair_lower(1.0, 2000, 20, grid=2.0**-8).get_epsilon(1e-6).lo
    assert coarse <= fine + 1e-9  # coarser rounding-down is lower ...
    assert fine - coarse <= 20 * 2.0**-8 + 1e-9  # ... by at most T * grid


@settings(max_examples=6)
@given(st.floats(0.5, 3.0), st.integers(2, 150), st.integers(1, 6), st.floats(0.0, 4.0))
def test_certified_lower_never_exceeds_certified_upper(eps0, n, T, e):
    up = composed_accountant(make("rr", eps0=eps0), n, T, method="blanket", grid=2.0**-6)
    lo = exact_pair_lower(eps0, n, T, grid=2.0**-10)
    assert lo.get_delta(e).lo <= up.get_delta(e).hi
