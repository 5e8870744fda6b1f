"""The exact sums at the edges of their float range.

* deep binomial windows: every entry of a row is within its proven relative error ``kappa`` of
  the exact pmf (Arb at 300 bits), also 1000-1800 bits below the mode, where a product of the
  ratios alone would pass through the subnormal range;
* atoms of any magnitude: E[(sum G)_+] is homogeneous, so the enclosure for atoms scaled by
  2^s contains 2^s times the enclosure's points for the unscaled atoms (and the large-atom
  case, eps0 = 100, no longer overflows);
* a binomial parameter next to 1 (rho = 1 - 1.8e-35 at eps0 = 80) keeps its complement exact.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from flint import arb, ctx

import shufflekit as sk
from shufflekit.numeric.kernels.positive_part import Param, binomial_row, expected_positive_part


@pytest.mark.parametrize("m, rho, bits", [(6000, 0.5, 1800), (3000, 0.5, 1800), (4000, 0.25, 1500)])
def test_deep_rows_stay_within_their_proven_error(m, rho, bits):
    with ctx.workprec(128):
        row = binomial_row(m, Param.of(arb(rho)), bits, bits)
    assert row.hi - row.lo > 2000  # deep enough to cross the subnormal range of a ratio product
    worst = 0.0
    with ctx.workprec(300):
        for k in range(row.lo, row.hi + 1, 7):
            exact = arb(math.comb(m, k)) * arb(rho) ** k * (1 - arb(rho)) ** (m - k)
            got = arb(float(row.pmf[k - row.lo])) * arb(2) ** row.E
            worst = max(worst, float((abs(got / exact - 1)).upper()))
    assert worst <= row.kappa, (worst, row.kappa)


@pytest.mark.parametrize("shift", [-300, -80, 80, 300])
def test_expectation_is_homogeneous_in_the_atoms(shift):
    g = np.array([1.5, -0.75, 0.25, -2.0])
    q = np.array([0.1, 0.3, 0.2, 0.15])
    base = expected_positive_part(g, g, q, 0.25, 40)
    scaled = expected_positive_part(np.ldexp(g, shift), np.ldexp(g, shift), q, 0.25, 40)
    with ctx.workprec(200):
        f = arb(2) ** shift
        # both are enclosures of the same number times 2^shift: they must overlap
        assert scaled.lo <= base.hi * f and base.lo * f <= scaled.hi
        # and the scaled one is as tight as the unscaled (relative width below 1e-9)
        assert (scaled.hi - scaled.lo) <= 1e-9 * scaled.hi


@pytest.mark.parametrize("eps0", [80, 90, 100])
def test_large_eps0_upper_is_not_below_the_lower_bound(eps0):
    mech = sk.make("rr", eps0=eps0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        up = sk.accountant(mech, n=100).get_delta(0.5)
        lo = sk.accountant(mech, n=100, method="lower").get_delta(0.5)
    assert up.hi >= lo.lo
    # at eps0 >= 80 the reports are nearly deterministic: the changed user is seen, delta ~ 1
    assert lo.lo > 1 - 1e-9 and "error model" not in lo.note and "error model" not in up.note


def test_parameter_next_to_one_keeps_its_complement():
    with ctx.workprec(128):
        q_small = arb(1.8048513878454153e-35)
        rho, comp = 1 / (1 + q_small), q_small / (1 + q_small)
        p = Param.of(rho, comp)
    # what is left is the rounding of each ratio to a float: at most one unit 2^-53
    assert p.inv_ratio_err <= 2.0**-53 and p.ratio_err <= 2.0**-53
    with ctx.workprec(128):
        naive = Param.of(rho)
    assert naive.ratio_err > 1e-6  # the cancellation the complement avoids
