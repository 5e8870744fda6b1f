"""Exact blanket method: the implicit zero atom, zero probabilities, the width of the
enclosure of one GPARV law and the worst-law enclosure of an asymmetric mechanism."""

from __future__ import annotations

from fractions import Fraction

import pytest

from shufflekit.mechanisms import make
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.numeric.kernels.gparv_law import ratio_laws
from shufflekit.numeric.methods.blanket import BlanketAccountant, blanket_delta_exact, law_enclosure


@pytest.mark.parametrize(
    "atoms, probs, zero",
    [
        ([1.0, -0.5], [0.25, 0.25], 0.5),  # an atom equal to 1 counts as non-zero
        ([2.0, -1.0, 0.0], [0.125, 0.375, 0.25], 0.75),  # a zero atom folds into the zero mass
    ],
)
def test_the_zero_mass_defaults_to_what_the_atoms_leave(atoms, probs, zero):
    implicit = blanket_delta_exact(atoms, probs, 6)
    explicit = blanket_delta_exact(
        [a for a in atoms if a != 0], [p for a, p in zip(atoms, probs) if a != 0], 6, zero_mass=zero
    )
    # exact: the same certified computation on the same law
    assert implicit == explicit


def test_a_zero_probability_atom_is_accepted_and_changes_nothing():
    with_zero = blanket_delta_exact([1.0, -0.5, 2.0], [0.5, 0.5, 0.0], 5)
    # exact: an atom of probability 0 adds no state to the sums
    assert with_zero == blanket_delta_exact([1.0, -0.5], [0.5, 0.5], 5)


@pytest.mark.parametrize("k, eps0, n, eps", [(3, 1.0, 50, 0.3), (10, 3.0, 200, 1.0)])
def test_the_enclosure_of_a_law_is_narrow(k, eps0, n, eps):
    lo, hi = law_enclosure(ratio_laws(make("krr", k=k, eps0=eps0))[0], eps, n)
    assert 0 < lo <= hi
    # measured 2.4e-10 and 1.2e-10 (atom radius 3.6e-12 over n users); 1e-8 leaves room
    assert hi - lo <= 1e-8 * hi


def test_the_worst_law_enclosure_takes_the_largest_end_of_each_side():
    mech = FiniteMechanism.from_matrix(
        [
            [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)],
            [Fraction(1, 8), Fraction(3, 4), Fraction(1, 8)],
            [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)],
        ]
    )
    acc = BlanketAccountant.of(mech, 20)
    per = [law_enclosure(law, 0.2, 20) for law in acc.laws]
    assert max(per)[0] > per[-1][0]  # the last law is not the worst one
    lo, hi, _ = acc.enclosure(0.2)
    # exact: the enclosure is made of the per-law ends
    assert lo == max(p[0] for p in per) and hi == max(p[1] for p in per)
    assert acc.delta(0.2) == (hi, hi - lo)


# ------------------------------------------------------------ the float inputs' error terms
def _exact(x: float) -> Fraction:
    return Fraction(x)


@pytest.mark.parametrize("seed", range(8))
def test_atom_intervals_contain_every_corner_exactly(seed):
    """The intervals of :func:`atom_interval` contain ``alpha' - E beta'`` for every ``alpha'``,
    ``beta'`` within relative ``ATOM_RADIUS`` of the floats and ``E`` in the Arb ball of
    ``e^eps``: checked at the extreme corners in exact rational arithmetic.  Atoms with
    ``beta = 0`` and with ``alpha = 0`` need each half of the float slack on its own."""
    import random

    from flint import arb, ctx

    from shufflekit.numeric.methods.blanket import ATOM_RADIUS, atom_interval

    rng = random.Random(seed)
    alpha = [rng.uniform(0.01, 60.0) * (1 + rng.random() * 1e-6) for _ in range(40)]
    beta = [rng.uniform(0.01, 60.0) for _ in range(40)]
    alpha[:5] = [rng.uniform(1, 50) for _ in range(5)]
    beta[:5] = [0.0] * 5  # outputs the other input never produces
    alpha[5:10] = [0.0] * 5
    eps = rng.uniform(0.0, 5.0)
    g_lo, g_hi = atom_interval(alpha, beta, eps)
    with ctx.workprec(200):
        E = arb(eps).exp()
        e_lo, e_hi = _arb_exact(E.lower()), _arb_exact(E.upper())
    r = _exact(ATOM_RADIUS)
    for a, b, lo, hi in zip(alpha, beta, g_lo, g_hi):
        A, B = _exact(a), _exact(b)
        top = A * (1 + r) - e_lo * B * (1 - r)
        bottom = A * (1 - r) - e_hi * B * (1 + r)
        assert _exact(float(hi)) >= top and _exact(float(lo)) <= bottom


def _arb_exact(end) -> Fraction:
    man, exp = (int(v) for v in end.mid().man_exp())
    return Fraction(man) * Fraction(2) ** exp


def test_the_float_zero_mass_is_within_eta_when_the_blanket_is_almost_everything():
    """At eps0 = 1e-6 the blanket mass is 1 - 5e-7 and ``1 - gamma`` in floats loses about
    20 bits; ``eta`` without a proven zero-mass error must cover that relative error (about
    7e5 units here), which is why it grows with ``gamma / (1 - gamma)``.  The laws of
    ``ratio_laws`` carry the zero mass from the exact entries instead, within their ``zero_err``
    (a unit of round-off)."""
    import mpmath
    import numpy as np
    import sympy as sp

    from shufflekit.numeric.methods.blanket import UNIT, probability_error

    mech = make("rr", eps0=sp.Rational(1, 10**6))
    law = ratio_laws(mech)[0]
    q = np.asarray(law.weight)
    float_zero = max(0.0, 1.0 - law.gamma)
    eta = probability_error(q, float_zero, max(len(q), 2))
    with mpmath.workdps(60):
        exact = 1 - 2 / (1 + mpmath.exp(mpmath.mpf(1) / 10**6))
        rel = abs(mpmath.mpf(float_zero) - exact) / exact
        rel_exact = abs(mpmath.mpf(law.zero_mass) - exact) / exact
    assert rel <= eta
    assert rel > 1000 * UNIT  # the case is one where the cancellation term matters
    # the carried zero mass: correctly rounded (the ladder's 60-digit error is ~1e-52 here)
    assert rel_exact <= law.zero_err <= 2 * UNIT
