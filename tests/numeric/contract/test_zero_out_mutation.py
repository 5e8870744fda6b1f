r"""Mutation test: the zero-out contract fails when either direction of a pair is dropped.

Zero-out neighbours are :math:`(x, \bot)` *and* :math:`(\bot, x)`; the two directions give
different GPARV laws for asymmetric mechanisms.  An accountant that keeps only one of them
must be caught by the contract check of :mod:`test_finite_contract`.
"""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from shufflekit.mechanisms.finite import BOT, FiniteMechanism
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.kernels import brute_force as BF
from shufflekit.numeric.kernels.gparv_law import numeric_eps0

from .test_finite_contract import check_against_reference

WEIGHTS = ([[106, 134, 5], [21, 116, 133]], [[122, 60], [39, 116]])


def mechanism(weights):
    return FiniteMechanism.from_matrix([[sp.Rational(v, sum(r)) for v in r] for r in weights])


def one_direction(acc, keep_side: int):
    """The blanket accountant with only the pairs whose ``keep_side`` entry is ⊥."""
    inner = acc._inner
    laws = tuple(law for law in inner.laws if all(p[keep_side] == BOT for p in law.pairs))
    assert 0 < len(laws) < len(inner.laws)
    acc._inner = dataclasses.replace(inner, laws=laws)
    return acc


def contract_holds(acc, mech, n, fracs) -> bool:
    e0 = numeric_eps0(mech)
    eps = [f * e0 for f in fracs]
    try:
        for e, ref in zip(eps, BF.worst_case_delta(mech, n, eps, "zero-out")):
            check_against_reference(acc, (e, ref))
    except AssertionError:
        return False
    return True


FRACS = (0.1, 0.3, 0.6)


@pytest.mark.parametrize("weights", WEIGHTS)
def test_full_zero_out_accountant_passes(weights):
    mech = mechanism(weights)
    assert contract_holds(
        accountant(mech, 4, method="blanket", adjacency="zero-out"), mech, 4, FRACS
    )


@pytest.mark.parametrize("drop", ["(x, ⊥)", "(⊥, x)"])
def test_dropping_either_direction_is_caught(drop):
    keep_side = 0 if drop == "(x, ⊥)" else 1  # keep the pairs with ⊥ on that side
    caught = []
    for weights in WEIGHTS:
        mech = mechanism(weights)
        acc = one_direction(accountant(mech, 4, method="blanket", adjacency="zero-out"), keep_side)
        caught.append(not contract_holds(acc, mech, 4, FRACS))
    assert any(caught), f"dropping {drop} went unnoticed"
