"""Theorem 5 lower bound: the parts the enumeration tests do not reach (distinct triples at
small eps0, a triple out of reach, the upper end of the reported enclosure, large eps0)."""

from __future__ import annotations

import pytest

from shufflekit.errors import CannotCertify
from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.kernels import brute_force as BF
from shufflekit.numeric.methods import lower
from shufflekit.numeric.methods.lower import (
    LowerAccountant,
    best_triple,
    lower_delta,
    theorem5_laws,
)


@pytest.mark.parametrize("k, eps0", [(3, 0.5), (5, 0.3), (5, 2.0)])
def test_the_three_roles_of_z_stay_distinct_triples_at_small_eps0(k, eps0):
    # z = x0, z = x1, z distinct: their ratios differ by less than 1 when eps0 is small
    assert len(theorem5_laws(make("krr", k=k, eps0=eps0))) == 3


@pytest.mark.parametrize("reachable", [0, 1])
def test_a_triple_out_of_reach_counts_as_the_trivial_bound(monkeypatch, reachable):
    triples = theorem5_laws(make("krr", k=3, eps0=1))
    real = lower.lower_of_law
    kept = triples[0].law if reachable else None

    def only_the_first(law, epsilon, n):
        if law is kept:
            return real(law, epsilon, n)
        raise CannotCertify("too many cells")

    monkeypatch.setattr(lower, "lower_of_law", only_the_first)
    skipped: list[str] = []
    v, err, _ = best_triple(triples, 0.5, 10, skipped=skipped)
    assert len(skipped) == len(triples) - reachable
    if reachable:
        # exact: the maximum over the one reachable triple is that triple's value
        assert (v, err) == real(kept, 0.5, 10)
    else:
        assert (v, err) == (0.0, 0.0)


@pytest.mark.parametrize("eps, n", [(0.1, 5), (1.0, 8)])
def test_the_reported_enclosure_contains_the_enumerated_value(eps, n):
    mech = make("krr", k=3, eps0=2)
    _, _, tr = lower_delta(mech, eps, n)
    b = accountant(mech, n, method="lower").get_delta(eps)
    brute = BF.dataset_delta(mech, [tr.x0] + [tr.z] * (n - 1), [tr.x1] + [tr.z] * (n - 1), eps)
    # both are enclosures of the same exact number, so they intersect
    assert b.lo <= brute.hi and brute.lo <= b.hi <= 1.0
    # the Arb enclosure of an exact sum at these n is tight to far better than 1e-9
    assert b.hi - b.lo <= 1e-9


@pytest.mark.parametrize("eps0, n", [(10.0, 2), (12.0, 3)])
def test_the_lower_epsilon_is_found_above_eight(eps0, n):
    acc = LowerAccountant.of(make("rr", eps0=eps0), n)
    eps = acc.epsilon(1e-6)
    assert acc.delta(eps)[0] > 1e-6
    # at n <= 3 the Theorem 5 epsilon at 1e-6 is within 1e-5 of eps0 (computed: eps0 - 1.1e-6)
    assert eps > eps0 - 1e-5
