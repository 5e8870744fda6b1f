"""The GPARV law of matrices with an entry within a few units of round-off of 1.

For :math:`R_x(y) = 1 - 2^{-57}` the float matrix holds 1.0, so :math:`1-\\mathrm{fl}(\\gamma)`
is 0 while the exact zero mass is :math:`2^{-57}`, and the worst case of the blanket sum of
Balle et al. (2019), Lemma 5.3 (every user but one drawing the zero atom) scales with a power of
it.  These cases check the zero mass against exact rational arithmetic, the class merge against
ratios of very different size, and the certified blanket value of each pair against the exact
multinomial sum of its law (mpmath at 100 digits).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from shufflekit.mechanisms import make
from shufflekit.mechanisms.composition import joint
from shufflekit.mechanisms.finite import BOT, FiniteMechanism
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.kernels.gparv_law import UNIT, merge_classes, ratio_laws
from shufflekit.numeric.methods.blanket import law_enclosure

from .contract.edge_matrices import E0_NEAR_ONE, NEAR_ONE, WIDE_3X3

R = sp.Rational
TINY_TAIL = [[R(2**121, 2**121 + 3), R(3, 2**121 + 3)], [R(2**82, 2**82 + 1), R(1, 2**82 + 1)]]


def exact_zero_mass(rows) -> Fraction:
    """1 - sum_y min_x R_x(y), in rationals."""
    cols = zip(*[[Fraction(int(v.p), int(v.q)) for v in row] for row in rows])
    return 1 - sum(min(c) for c in cols)


def exact_law(rows, pair):
    """(alpha, beta, weight) of the pair's GPARV law as Fractions (None: the blanket row)."""
    P = [[Fraction(int(v.p), int(v.q)) for v in row] for row in rows]
    floor = [min(c) for c in zip(*P)]
    gamma = sum(floor)
    out = []
    for j, c in enumerate(floor):
        if c == 0:
            continue
        a = P[pair[0]][j] / c if pair[0] is not None else 1 / gamma
        b = P[pair[1]][j] / c if pair[1] is not None else 1 / gamma
        out.append((a, b, c))
    return out, 1 - gamma


def exact_blanket_value(rows, pair, epsilon: float, n: int) -> mpmath.mpf:
    r""":math:`\tfrac1n\mathbb{E}[(\sum_i G_i)_+]` of the pair's exact law, every count vector
    summed at 100 digits (the float epsilon taken as exact)."""
    law, zero = exact_law(rows, pair)
    with mpmath.workdps(100):
        e = mpmath.exp(mpmath.mpf(epsilon))
        atoms = [
            mpmath.mpf(a.numerator) / a.denominator - e * mpmath.mpf(b.numerator) / b.denominator
            for a, b, _ in law
        ] + [mpmath.mpf(0)]
        probs = [mpmath.mpf(c.numerator) / c.denominator for _, _, c in law] + [
            mpmath.mpf(zero.numerator) / zero.denominator
        ]
        total = mpmath.mpf(0)
        r = len(atoms)
        for cut in itertools.combinations(range(n + r - 1), r - 1):  # stars and bars
            counts = np.diff((-1,) + cut + (n + r - 1,)) - 1
            s = mpmath.fsum(int(k) * g for k, g in zip(counts, atoms))
            if s <= 0:
                continue
            coef = mpmath.factorial(n)
            for k in counts:
                coef /= mpmath.factorial(int(k))
            term = coef * s
            for k, p in zip(counts, probs):
                term *= p ** int(k)
            total += term
        return total / n


# ------------------------------------------------------------------ the zero mass
@pytest.mark.parametrize(
    "rows",
    [
        NEAR_ONE,
        WIDE_3X3,
        TINY_TAIL,
        [[R(1, 2), R(1, 2)], [R(1, 2) + R(1, 2**141), R(1, 2) - R(1, 2**141)]],
    ],
    ids=["near-one", "wide-3x3", "tiny-tail", "rows-equal-to-2^-141"],
)
def test_zero_mass_is_the_exact_one_rounded(rows):
    """The float zero mass of every law is the exact 1 - gamma correctly rounded: relative
    error at most u, and ``zero_err`` (u here) covers it.  (The float 1 - fl(gamma) is 0 for
    all four: the exact masses are 2^-57, 8.5e-22, 2.1e-25 and 2^-141.)"""
    mech = FiniteMechanism.from_matrix(rows)
    exact = exact_zero_mass(rows)
    assert exact > 0
    for law in ratio_laws(mech):
        assert abs(Fraction(law.zero_mass) - exact) <= Fraction(law.zero_err) * exact
        assert law.zero_err <= UNIT


@pytest.mark.parametrize("eps0", [R(1, 10**6), R(1, 10**300), 30])
def test_zero_mass_of_irrational_entries_is_resolved_by_the_ladder(eps0):
    """Binary RR: 1 - gamma = (e^eps0 - 1)/(e^eps0 + 1).  At eps0 = 1e-300 the 60-digit
    entries are both 1/2 and the ladder has to climb to 400 digits; the value must still be
    within the reported relative error (u plus the ladder's 1e-40 or less)."""
    from shufflekit.numeric.kernels.gparv_law import zero_mass_of

    mech = make("rr", eps0=eps0)
    z, err = zero_mass_of(mech)
    with mpmath.workdps(700):
        e = mpmath.exp(mpmath.mpf(sp.N(eps0, 650)))
        exact = (e - 1) / (e + 1)
        assert abs(mpmath.mpf(z) - exact) <= mpmath.mpf(err) * exact
    assert err <= 2 * UNIT


def test_zero_mass_of_a_joint_composition_is_one_minus_the_product():
    """1 - gamma_1 gamma_2 for two near-one components: 2^-57 + 2^-60 - 2^-117 (float gamma
    products give 0)."""
    a = FiniteMechanism.from_matrix(NEAR_ONE)
    b = FiniteMechanism.from_matrix(
        [[1 - R(1, 2**60), R(1, 2**60)], [1 - R(1, 2**100), R(1, 2**100)]]
    )
    exact = 1 - (1 - exact_zero_mass(NEAR_ONE)) * (1 - Fraction(1, 2**60) + Fraction(1, 2**100))
    for law in ratio_laws(joint([a, b])):
        assert abs(Fraction(law.zero_mass) - exact) <= Fraction(law.zero_err) * exact
        assert law.zero_err <= 4 * UNIT


# ------------------------------------------------------------------ the class merge
@pytest.mark.parametrize(
    "alpha, beta",
    [
        # the zero-out law of WIDE_3X3: ratio 86 and 1e17 both below 1e-12 of the largest, 7e33
        ([85.68, 9.6e16, 6.9e33], [257.0625, 257.0625, 257.0625]),
        # a Theorem 5 style law: betas 1e-34 and 1e-17 both far below the largest, 3
        ([1.0, 1.0, 1.0], [1.44e-34, 1.04e-17, 3.0]),
        ([3e-13, 4e-13, 1.0], [1.0, 1.0, 1.0]),
    ],
)
def test_classes_far_apart_are_not_merged(alpha, beta):
    """Ratios that differ by a factor 4/3 or more stay separate classes, however small they
    are against the array's largest value (a merge keyed on 12 digits of the largest value
    lumped them and raised the law's value, and its lower end, far above the truth)."""
    out = merge_classes(np.array(alpha), np.array(beta), np.array([0.25, 0.25, 0.5]))
    assert out.shape == (3, 3)


# ------------------------------------------------------------------ the certified values
CASES = [
    (NEAR_ONE, "replace-one", 6, 42.0),
    (NEAR_ONE, "replace-one", 6, E0_NEAR_ONE * (1 - 1e-9)),
    (NEAR_ONE, "replace-one", 3, 1e-12),
    (WIDE_3X3, "zero-out", 2, 0.0),
    (WIDE_3X3, "zero-out", 2, 40.0),
    (WIDE_3X3, "replace-one", 2, 5.0),
    (TINY_TAIL, "replace-one", 13, 25.93412772726157),
]


def _pair_index(mech, label):
    return tuple(None if x == BOT else list(mech.inputs).index(x) for x in label)


@pytest.mark.parametrize("rows, adjacency, n, eps", CASES)
def test_blanket_enclosure_contains_the_exact_value_of_every_pair(rows, adjacency, n, eps):
    """lo <= exact <= hi for the blanket value of every pair sharing a law (no tolerance: the
    enclosure is certified, and the 100-digit reference is exact to far below its width).
    The old float zero mass gave hi = 3.9e-89 where the value is 8.3e-71 (near-one, eps 42),
    and the old merge gave lo = 3.7e14 (wide 3x3, zero-out, eps 0)."""
    mech = FiniteMechanism.from_matrix(rows)
    for law in ratio_laws(mech, adjacency):
        lo, hi = law_enclosure(law, eps, n)
        assert lo <= hi
        for label in law.pairs:
            exact = exact_blanket_value(rows, _pair_index(mech, label), eps, n)
            assert lo <= exact <= hi, (label, lo, float(exact), hi)
            if exact > 0:
                assert hi > 0


@pytest.mark.parametrize("rows, adjacency, n, eps", CASES)
@pytest.mark.parametrize("method", ["blanket", "blanket-fft"])
def test_accountant_upper_bound_is_not_below_the_worst_pair(rows, adjacency, n, eps, method):
    """The accountants' hi is at least the largest exact blanket value over the pairs, and
    positive where that is (the lattice answered 0.0 for a value of 3.3e-329, and 1.2e-201 for
    4.8e-111 at the near-one matrix near eps0)."""
    mech = FiniteMechanism.from_matrix(rows)
    if eps >= float(mech.eps0()):
        pytest.skip("epsilon at or above eps0: delta is 0")
    b = accountant(mech, n, method=method, adjacency=adjacency).get_delta(eps)
    worst = max(
        exact_blanket_value(rows, _pair_index(mech, label), eps, n)
        for law in ratio_laws(mech, adjacency)
        for label in law.pairs
    )
    assert b.lo <= b.hi
    assert b.hi >= worst
    if worst > 0:
        assert b.hi > 0
