"""Composition of loss laws: the infinite-loss mass of both kinds on arbitrary floats, the
refusal of a composition too long for one transform, the epsilon past which delta is 0, the
message of an unknown key and the enclosure of the central Gaussian."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.composition.dominating_pair import PrivacyLossPmf
from shufflekit.numeric.composition.fixed import (
    ComposedAccountant,
    Round,
    composed_accountant,
    convolve,
    round_accountant,
)
from shufflekit.numeric.kernels.radix2_fft import MAX_FFT
from shufflekit.numeric.methods.gaussian import gdp_delta_mp, mu_of

GRID = 1 / 8
UNIT = Fraction(1, 2**53)
# pairs of infinite masses with full 53-bit mantissas, so that pa + pb rounds
MASSES = np.random.default_rng(7).uniform(1e-6, 0.4, size=(200, 2))


def law(inf, kind, cells=(0.25, 0.5)) -> PrivacyLossPmf:
    return PrivacyLossPmf(GRID, 0, np.asarray(cells, dtype=float), float(inf), 0.0, kind)


def test_upper_infinite_mass_is_not_below_the_exact_sum():
    for pa, pb in MASSES:
        c = convolve(law(pa, Kind.UPPER), law(pb, Kind.UPPER))
        # exact: pa + pb >= 1 - (1 - pa)(1 - pb) is the bound the upper law keeps
        assert Fraction(c.infinity_mass) >= Fraction(pa) + Fraction(pb)


def test_lower_infinite_mass_is_below_and_close_to_the_exact_union():
    for pa, pb in MASSES:
        c = convolve(law(pa, Kind.LOWER), law(pb, Kind.LOWER))
        exact = 1 - (1 - Fraction(pa)) * (1 - Fraction(pb))
        assert Fraction(c.infinity_mass) <= exact
        # three roundings and the 8u pull-down: within 16u of the exact union
        assert Fraction(c.infinity_mass) >= exact * (1 - 16 * UNIT)


@pytest.mark.parametrize("short", [1, 8])
def test_a_composition_longer_than_one_transform_is_refused_with_the_remedy(short):
    a = law(0.0, Kind.UPPER, cells=np.full(short, 1.0 / short))
    b = law(0.0, Kind.UPPER, cells=np.zeros(MAX_FFT - short + 2))  # short + b - 1 > MAX_FFT
    with pytest.raises(CannotCertify, match="coarser grid"):
        convolve(a, b)


@pytest.mark.parametrize("inf, finite", [(0.0, True), (1e-9, False)])
def test_eps_max_is_the_largest_loss_only_without_infinite_mass(inf, finite):
    pmf = law(inf, Kind.UPPER, cells=(0.25, 0.5, 0.25 - inf))
    acc = ComposedAccountant(
        [pmf], kind=Kind.UPPER, method="blanket", n=10, mechanism=None, rounds=1
    )
    # exact: the largest loss is 2 grid steps of 1/8
    assert acc.eps_max == (pmf.max_loss if finite else math.inf)
    assert (acc.eps_max == 0.25) is finite


def test_an_unknown_key_names_the_allowed_ones():
    with pytest.raises(InvalidParameter) as info:
        composed_accountant({"name": "central-gaussian", "sigmaa": 1.0}, 1, 2)
    assert "name, sigma, noise_multiplier" in str(info.value)
    assert "did you mean 'sigma'" in str(info.value)


def central_round(sigma: float):
    """The accountant a schedule gives a central Gaussian round named by its description."""
    return round_accountant(Round({"name": "central-gaussian", "sigma": sigma}, 1))


@pytest.mark.parametrize("sigma, eps", [(1.0, 0.5), (0.5, 3.0), (1.0, 40.0)])
def test_central_gaussian_enclosure_contains_the_50_digit_value(sigma, eps):
    b = central_round(sigma).get_delta(eps)
    ref = gdp_delta_mp(eps, mu_of(sigma, 1), 50)
    assert b.method == "exact" and b.kind is Kind.EXACT
    assert b.lo <= ref <= b.hi
    # the Arb ball has relative radius at most 1e-15 (gdp_delta_arb's stopping rule), and each
    # end is rounded outward to float once (one ulp, 2^-52 relative, or the smallest subnormal)
    assert b.hi - b.lo <= (2e-15 + 2**-51) * float(ref) + 2 * 5e-324


# a relative widening by 1e-25 done in floats is a no-op (1 - 1e-25 == 1.0): the lower end of
# the former 30-digit evaluation was the nearest float, above the exact delta at these epsilons
@pytest.mark.parametrize("eps", [0.1, 0.6, 0.7])
def test_central_gaussian_lower_end_is_not_above_the_exact_value(eps):
    assert central_round(1.0).get_delta(eps).lo <= gdp_delta_mp(eps, mu_of(1.0, 1), 50)
