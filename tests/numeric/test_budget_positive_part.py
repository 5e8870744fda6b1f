"""Budget tests of :mod:`shufflekit.numeric.kernels.positive_part`: the anchored-row growth of the
recurrence error, the Bernstein settling bound and the absolute tail budget of a deep
window.

References: mpmath at 50 digits (the growth and the Bernstein integral) and exact
enumeration of the multinomial law (``Fraction``) for the enclosure.
"""

from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from shufflekit.numeric.kernels.positive_part import (
    bernstein_excess,
    expected_positive_part,
    growth,
)
from tests.numeric.test_budget_blanket_fft import exact_positive_part

U = 2.0**-53


@pytest.mark.parametrize(
    "steps, per_step", [(1, 3 * U), (1000, 4 * U), (10**6, 1e-10), (10, 9.9e-5)]
)
def test_growth_bounds_the_compounded_error(steps, per_step):
    """(1 + a)^d - 1 <= growth(d, a), and growth is within 0.1 % of it (x e^x against
    e^x - 1 at x <= 1e-3), so neither a dropped factor nor a tenth of it holds."""
    with mp.workdps(50):
        exact = (1 + mp.mpf(per_step)) ** steps - 1
        g = mp.mpf(growth(steps, per_step))
        assert exact <= g <= exact * (1 + mp.mpf(2e-3))


def bernstein_f(x, V, b):
    return x * x / (2 * (V + b * x / 3))


@pytest.mark.parametrize(
    "u, V, b", [(0.5, 1.0, 0.1), (3.0, 1.0, 1.0), (30.0, 4.0, 2.0), (1e-3, 1e-6, 1e-4)]
)
def test_bernstein_excess_bounds_the_tail_integral(u, V, b):
    """e^{-f(u)} / f'(u) >= int_u^inf e^{-f} (f convex increasing); the integral is at least a
    tenth of the bound on these cases (the ratio tends to 1 as f'(u) grows)."""
    with mp.workdps(50):
        integral = mp.quad(
            lambda x: mp.exp(-bernstein_f(x, V, b)), [u, u + 10 * mp.sqrt(V) + 10 * b, mp.inf]
        )
        bound = mp.mpf(float(bernstein_excess(np.array([u]), np.array([V]), np.array([b]))[0]))
        assert integral <= bound
        assert integral >= bound / 10


def test_bernstein_excess_bounds_a_binomial_shortfall():
    """The use of the bound: S = sum of n centred Bernoulli(p) variables shifted by D has
    E[(S)_-] <= bernstein_excess(D, n p (1-p), 1); exact by the binomial law (Fractions).
    At D near one standard deviation the exact shortfall is above a tenth of the bound."""
    n, p = 60, Fraction(1, 4)
    V = n * p * (1 - p)
    D = Fraction(3)  # 0.89 sd
    from math import comb

    short = sum(
        comb(n, k) * p**k * (1 - p) ** (n - k) * max(Fraction(0), -(D + k - n * p))
        for k in range(n + 1)
    )
    bound = float(bernstein_excess(np.array([float(D)]), np.array([float(V)]), np.array([1.0]))[0])
    assert short <= Fraction(bound)
    assert short >= Fraction(bound) / 10


def test_deep_window_tail_budget_is_needed():
    """A shallow window (bits = 4) on n = 30 users of +-1 (0.3 / 0.7): the deep side of the
    window is cut early and its absolute tail budget is 2.5 % of the value.  The enclosure
    holds the exact value, and without the budget (or with a tenth of it) the upper end
    would fall below the exact value (it is needed to 45 % of its size)."""
    g, q, n = [1.0, -1.0], [0.3, 0.7], 30
    exact = exact_positive_part([Fraction(1), Fraction(-1)], q, n)
    res = expected_positive_part(g, g, q, 0.0, n, bits=4)
    lo, hi, bud = (Fraction(float(x)) for x in (res.lo.lower(), res.hi.upper(), res.budget.upper()))
    assert lo <= exact <= hi
    assert bud > 0
    assert exact - (hi - bud) >= bud / 10
