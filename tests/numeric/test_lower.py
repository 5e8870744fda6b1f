"""Su-Cheng-Wang Theorem 5 lower bound: exact for x_2 = ... = x_n."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from shufflekit.mechanisms import make
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.numeric.kernels import brute_force as BF
from shufflekit.numeric.methods.lower import (
    LowerAccountant,
    lower_delta,
    lower_of_law,
    theorem5_laws,
)
from shufflekit.verify.strategies import enumeration_cases


@given(case=enumeration_cases())
@settings(max_examples=40, deadline=None)
def test_theorem5_equals_histogram_enumeration(case):
    mech, n, eps = case
    for tr in theorem5_laws(mech):
        brute = BF.dataset_delta(mech, [tr.x0] + [tr.z] * (n - 1), [tr.x1] + [tr.z] * (n - 1), eps)
        low, err = lower_of_law(tr.law, eps, n)
        # [low, low + err] and [brute.lo, brute.hi] both enclose the same number
        assert low <= brute.hi
        assert brute.lo <= low + err


def test_worst_triple_found_for_krr():
    mech = make("krr", k=5, eps0=2)
    v, err, tr = lower_delta(mech, 0.3, 40)
    # the maximiser has a reference input distinct from both differing inputs or equal to x0
    per = [(lower_of_law(t.law, 0.3, 40)[0], t) for t in theorem5_laws(mech)]
    assert v == max(p for p, _ in per)
    assert len(theorem5_laws(mech)) == 3  # z = x0, z = x1, z distinct (by symmetry)


def test_lower_epsilon_direction():
    acc = LowerAccountant.of(make("rr", eps0=1), 1000)
    eps = acc.epsilon(1e-5)
    assert acc.delta(eps)[0] > 1e-5  # the true epsilon is at least this
    # Shvets 2026 Table 6: exact boundary-pair epsilon 0.105 at n = 1000
    assert round(eps, 3) == 0.105


def test_bad_inputs():
    acc = LowerAccountant.of(make("krr", k=3, eps0=1), 10)
    with pytest.raises(ValueError, match="epsilon"):
        acc.delta(-1.0)
    with pytest.raises(ValueError, match="delta"):
        acc.epsilon(2.0)
    with pytest.raises(ValueError, match="n="):
        LowerAccountant.of(make("krr", k=3, eps0=1), 0)
    with pytest.raises(ValueError, match="reference"):
        theorem5_laws(FiniteMechanism.from_matrix([[1.0, 0.0], [0.0, 1.0]]))
