"""Dominating pair from an upper profile: certified hull, domination between grid points."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import Accountant, accountant
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.composition.dominating_pair import (
    DEFAULT_GRID,
    check_grid,
    dominating_pair,
    hull_pmf,
)
from shufflekit.numeric.methods.gaussian import gdp_delta_mp

MU = 0.7


def gauss(e, mu=MU):
    return float(gdp_delta_mp(e, mu, 30))


def local_rr_delta(e, eps0):
    """Exact curve of local binary RR: max(0, p - e^eps (1 - p)), p = e^eps0 / (1 + e^eps0)."""
    p = math.exp(eps0) / (1 + math.exp(eps0))
    return max(0.0, p - math.exp(e) * (1 - p))


def test_grid_is_a_power_of_two_at_most_the_request():
    assert check_grid(1e-3) == 2.0**-10
    assert check_grid(0.25) == 0.25
    with pytest.raises(InvalidParameter, match="grid"):
        check_grid(0.0)
    with pytest.raises(InvalidParameter, match="grid"):
        check_grid(float("nan"))


def test_masses_form_a_probability_law():
    grid = 2.0**-5
    vals = [gauss(i * grid) for i in range(200)]
    pmf = hull_pmf(vals, grid)
    assert np.all(pmf.probs >= 0)
    # total P-mass is h(0) = 1 exactly; float conversion error is within the l1 budget
    assert abs(pmf.probs.sum() + pmf.infinity_mass - 1.0) <= pmf.error + 1e-15 * pmf.probs.size
    assert pmf.error < 1e-13  # Arb at 80 bits: only float conversion remains


@settings(max_examples=60)
@given(st.floats(0.0, 6.0))
def test_hull_dominates_the_true_curve_between_grid_points(e):
    """Coarse grid (1/8) so chords are long: the pair's curve must stay above the convex truth."""
    grid = 2.0**-3
    vals = [gauss(i * grid) for i in range(80)]  # exact values (30 digits) as 'upper' values
    pmf = hull_pmf([v * (1 + 1e-20) for v in vals], grid)
    assert pmf.delta(e)[2] >= gauss(e)


def test_between_grid_points_is_a_real_check():
    """Evaluating the upper values at the next grid point (step interpolation) would be wrong:
    the truth at a midpoint exceeds it, so the domination above is not automatic."""
    grid = 2.0**-3
    mid = 2.5 * grid
    assert gauss(mid) > gauss(3 * grid) * 1.01
    pmf = hull_pmf([gauss(i * grid) * (1 + 1e-20) for i in range(80)], grid)
    # and the chord in e^eps is close to the truth (relative slack of a convex chord on a
    # step of 1/8: below 1%; a slack of this size shows the hull is not absurdly loose)
    assert gauss(mid) <= pmf.delta(mid)[2] <= gauss(mid) * 1.01


@settings(max_examples=30)
@given(st.lists(st.floats(0.0, 2.0), min_size=60, max_size=60), st.floats(0.0, 5.0))
def test_noisy_non_convex_upper_values_still_dominate(noise, e):
    """Upper values with arbitrary non-negative relative slack (not convex, not monotone)."""
    grid = 2.0**-3
    vals = [min(1.0, gauss(i * grid) * (1 + r) + 1e-18) for i, r in enumerate(noise)]
    pmf = hull_pmf(vals, grid)
    assert np.all(pmf.probs >= 0)
    assert pmf.delta(e)[2] >= gauss(e)


@pytest.mark.parametrize("eps0", [0.5, 1.0, 2.0])
def test_local_rr_pair_reproduces_the_exact_curve(eps0):
    """n = 1: the blanket bound is the exact local curve; the pair dominates it everywhere and
    is within the blanket's error budget of it when eps0 lies on the grid (atoms at +-eps0)."""
    acc = accountant(make("rr", eps0=eps0), 1, method="blanket")
    dp = dominating_pair(acc, grid=2.0**-6)
    for e in np.linspace(0, eps0 * 1.2, 37):
        exact = local_rr_delta(e, eps0)
        got = dp.delta(float(e))
        assert got >= exact
        # the blanket's own certified enclosure width at the neighbouring grid points, plus
        # 1e-13 for the hull conversion
        width = max(acc.get_delta(float(x)).width for x in (e, max(e - 2.0**-6, 0.0)))
        assert got - exact <= width + 1e-13


def test_shuffled_pair_dominates_the_accountant_at_and_between_grid_points():
    acc = accountant(make("krr", k=4, eps0=2), 2000, method="blanket")
    dp = dominating_pair(acc, grid=2.0**-7)
    for e in [0.0, 0.05, 0.0512, 0.1, 0.13, 0.3]:
        assert dp.delta(e) >= acc.get_delta(e).hi * (1 - 1e-12) - 1e-300


class LowerOnly(Accountant):
    method, kind, adjacency, n, mechanism = "fake-lower", Kind.LOWER, "replace-one", 1, None

    def get_delta(self, epsilon):
        return self._bound("delta", epsilon, 0.0, 0.0)


def test_refuses_a_lower_profile():
    with pytest.raises(CannotCertify, match="upper"):
        dominating_pair(LowerOnly(), grid=DEFAULT_GRID)


def test_refuses_values_that_are_not_a_profile():
    with pytest.raises(InvalidParameter, match="upper"):
        hull_pmf([0.5, float("nan")], 0.25)
    with pytest.raises(InvalidParameter, match="upper"):
        hull_pmf([0.5, -0.1], 0.25)


def test_vertices_on_a_subset_of_the_grid_still_dominate():
    grid = 2.0**-4
    idx = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
    pmf = hull_pmf([gauss(i * grid) * (1 + 1e-20) for i in idx], grid, indices=idx)
    for e in np.linspace(0, 89 * grid, 301):
        assert pmf.delta(float(e))[2] >= gauss(float(e))
    with pytest.raises(InvalidParameter, match="indices"):
        hull_pmf([0.5, 0.1], grid, indices=[1, 2])


class FlooredGaussian(Accountant):
    """An upper profile with an error floor above the tail level: it never reaches ``tail``."""

    method, kind, adjacency, n, mechanism = "floored", Kind.UPPER, "replace-one", 1, None
    calls = 0

    def get_delta(self, epsilon):
        FlooredGaussian.calls += 1
        return self._bound("delta", epsilon, 0.0, max(gauss(epsilon), 1e-13))


def test_a_profile_that_never_reaches_the_tail_costs_a_bounded_number_of_evaluations():
    from shufflekit.numeric.composition.dominating_pair import FLAT_SPAN, MAX_COARSE, profile_points

    FlooredGaussian.calls = 0
    grid = 2.0**-6
    idx, vals, _ = profile_points(FlooredGaussian(), grid, 1e-20)
    dense = int(np.searchsorted(-vals, -1e-13 * (1 + 1e-9)))  # points above the floor
    # the floor is detected after FLAT_SPAN flat points, then MAX_COARSE strided ones
    assert FlooredGaussian.calls == len(idx) <= dense + FLAT_SPAN + MAX_COARSE + 2
    pmf = dominating_pair(FlooredGaussian(), grid=grid).pmf
    assert pmf.infinity_mass == pytest.approx(1e-13, rel=1e-12)  # the floor, kept as mass at inf
    for e in (0.1, 3.0, 20.0):
        assert pmf.delta(e)[2] >= gauss(e)


# ------------------------------------------------------------- adaptive knots, directed pairs
class Gaussian(Accountant):
    """The exact mu-GDP curve as an upper profile (mpmath at 30 digits, rounded up a little)."""

    method, kind, adjacency, n, mechanism = "gauss", Kind.UPPER, "replace-one", 1, None

    def get_delta(self, epsilon):
        v = gauss(epsilon, 1.0) * (1 + 1e-15)
        return self._bound("delta", epsilon, 0.0, min(1.0, v))


def test_chord_excess_bounds_the_excess_of_a_convex_curve():
    """For exact values of a convex curve, the estimate is at least the chord's true excess."""
    from shufflekit.numeric.composition.dominating_pair import chord_excess

    h = lambda a: gauss(math.log(a), 1.0)  # noqa: E731
    for i, w in [(0.2, 0.05), (1.0, 0.2), (2.5, 0.3), (4.0, 0.5)]:
        a = [math.exp(i + k * w) for k in (-1, 0, 1, 2)]
        p = [(x, h(x)) for x in a]
        gap, _ = chord_excess(*p)
        xs = np.linspace(a[1], a[2], 201)
        chord = p[1][1] + (p[2][1] - p[1][1]) * (xs - a[1]) / (a[2] - a[1])
        true = max(c - h(float(x)) for c, x in zip(chord, xs, strict=True))
        assert true <= gap * (1 + 1e-9) + 1e-300
        assert gap <= 20 * true + 1e-300  # and not hopelessly loose


def test_adaptive_knots_dominate_with_fewer_points():
    grid = 2.0**-8
    fine = dominating_pair(Gaussian(), grid=grid)
    coarse = dominating_pair(Gaussian(), grid=grid, knots="adaptive")
    assert coarse.indices.size < 0.8 * fine.indices.size  # measured: 1543 against 2024
    for e in np.linspace(0, 9, 181):
        assert coarse.pmf.delta(float(e))[2] >= gauss(float(e), 1.0)
    # chords within the tolerance of the curve where it matters (relative 5e-4 of the value)
    for e in (0.5, 1.7, 3.3):
        assert coarse.pmf.delta(e)[2] <= fine.pmf.delta(e)[2] * (1 + 2e-3)
    with pytest.raises(InvalidParameter, match="knots"):
        dominating_pair(Gaussian(), knots="sparse")


def test_directed_laws_dominate_their_own_order():
    """A Poisson-subsampled Gaussian under zero-out: the forward law's curve is above the
    forward curve, the reverse law's above the reverse one, at and between grid points."""
    from shufflekit.numeric.composition.dominating_pair import directed_pair
    from shufflekit.numeric.composition.dp_events import NoiseCurveAccountant, NoiseEvent

    ev = NoiseEvent("gaussian", 1.0, 0.2)
    f = NoiseCurveAccountant(ev, "zero-out", "forward")
    r = NoiseCurveAccountant(ev, "zero-out", "reverse")
    lf, lr = directed_pair(f, r, grid=2.0**-6)
    for e in np.linspace(0, 3, 97):
        e = float(e)
        assert lf.delta(e)[2] >= f.get_delta(e).hi
        assert lr.delta(e)[2] >= r.get_delta(e).hi
    assert lf.delta(0.3)[2] > lr.delta(0.3)[2]  # the orders differ
