r"""The contract every registered accountant of finite mechanisms inherits.

For random finite mechanisms (2-4 inputs, 2-5 outputs, eps0 < 10) and small ``n``, every
method that applies is checked against the exhaustive enumeration of
:mod:`shufflekit.numeric.kernels.brute_force` (the definition of the shuffled divergence, worst case
over all neighbouring datasets, both orders of each pair):

* ``upper``/``exact``: the reported ``hi`` is not below the enumerated enclosure's ``lo``;
* ``lower``/``exact``: the reported ``lo`` is not above the enumerated enclosure's ``hi``;
* ``heuristic`` with named pairs: an upper bound for those pairs at least;
* every delta is a number in [0, 1]; delta is non-increasing in epsilon and epsilon in delta
  (comparisons between enclosures, so no tolerance is involved);
* ``get_epsilon(get_delta(e))`` returns an epsilon consistent with ``e``.

All comparisons are between rigorous enclosures: a failure is a real violation.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shufflekit.numeric.accountant import accountant, methods
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.kernels import brute_force as BF
from shufflekit.numeric.kernels.gparv_law import numeric_eps0

from .strategies import finite_mechanisms

FINITE_METHODS = (
    "blanket",
    "blanket-fft",
    "lower",
    "clone",
    "clone-numeric",
    "stronger-clone",
    "hoeffding",
    "bennett",
    "chernoff",
    "variation-ratio",
    "variation-ratio-lower",
    "stronger-clone-numeric",
)


def test_every_registered_finite_method_is_in_the_suite():
    """A new finite method must be added to this suite (it cannot silently skip the contract)."""
    from shufflekit.mechanisms import make

    finite = {m.name for m in methods(make("krr", k=3, eps0=1))}
    assert finite <= set(FINITE_METHODS), finite - set(FINITE_METHODS)


def canonical_enclosure(mech, n, eps):
    """Largest divergence over the canonical pairs (x1, x0..x0) vs (x0..x0), both orders."""
    best = BF.Enclosure(0.0, 0.0)
    for a in mech.inputs:
        for b in mech.inputs:
            if a == b:
                continue
            d = BF.dataset_delta(mech, [b] + [a] * (n - 1), [a] * n, eps)
            r = BF.dataset_delta(mech, [a] * n, [b] + [a] * (n - 1), eps)
            best = BF.Enclosure(max(best.lo, d.lo, r.lo), max(best.hi, d.hi, r.hi))
    return best


def check_against_reference(acc, ref, canonical=None):
    """The contract's core: the bound's direction against the reference enclosure."""
    b = acc.get_delta(ref_eps := ref[0])
    ref = ref[1]
    assert 0.0 <= b.lo <= b.hi <= 1.0 and not math.isnan(b.lo)
    if b.kind in (Kind.UPPER, Kind.EXACT):
        assert b.hi >= ref.lo, (acc.method, acc.adjacency, ref_eps, b, ref)
    if b.kind in (Kind.LOWER, Kind.EXACT):
        assert b.lo <= ref.hi, (acc.method, acc.adjacency, ref_eps, b, ref)
    if b.kind is Kind.HEURISTIC and canonical is not None:
        assert b.pairs != "all"
        assert b.hi >= canonical.lo, (acc.method, ref_eps, b, canonical)
    return b


def run_contract(mech, n, eps_fracs, *, inversions: bool = True):
    e0 = numeric_eps0(mech)
    eps = sorted({round(f * e0, 12) for f in eps_fracs})
    for adjacency in ("replace-one", "zero-out"):
        refs = BF.worst_case_delta(mech, n, eps, adjacency)
        for info in methods(mech):
            if adjacency not in info.adjacencies:
                continue
            acc = accountant(mech, n, method=info.name, adjacency=adjacency)
            assert acc.adjacency == adjacency and acc.kind is info.kind
            bounds = []
            for e, ref in zip(eps, refs):
                canon = canonical_enclosure(mech, n, e) if info.kind is Kind.HEURISTIC else None
                bounds.append(check_against_reference(acc, (e, ref), canon))
            # monotone in epsilon: the method's value at a larger epsilon is not larger
            # (methods that declare otherwise are checked for validity of inversion only)
            for a, b in zip(bounds, bounds[1:]):
                assert a.hi >= b.lo or not acc.monotone, (info.name, adjacency, a, b)
            if not inversions or info.kind is Kind.HEURISTIC:
                continue
            if not acc.monotone:
                mid = bounds[len(bounds) // 2]
                if 1e-300 < mid.hi < 1.0:
                    inv = acc.get_epsilon(mid.hi)
                    assert acc.get_delta(inv.hi).hi <= mid.hi or inv.note, (info.name, inv, mid)
                continue
            # epsilon(delta) is non-increasing in delta and consistent with delta(epsilon)
            mid = bounds[len(bounds) // 2]
            target = mid.hi if info.kind is not Kind.LOWER else mid.lo
            if 1e-300 < target < 1.0:
                inv = acc.get_epsilon(target)
                assert 0.0 <= inv.lo <= inv.hi
                if info.kind is Kind.UPPER:
                    # mid.at is a valid epsilon for this delta, so the smallest found is not larger
                    assert inv.lo <= mid.at * (1 + 1e-6) + 1e-12, (info.name, inv, mid)
                else:
                    # delta(e) >= target fails only above e: the lower epsilon is at most e
                    assert inv.value <= mid.at * (1 + 1e-6) + 1e-12, (info.name, inv, mid)
                inv2 = acc.get_epsilon(min(1.0 - 1e-12, target * 10))
                assert inv2.value <= inv.value * (1 + 1e-6) + 1e-12 or (
                    info.kind is Kind.UPPER and inv2.note
                ), (info.name, inv, inv2)


EPS_FRACS = st.lists(st.floats(0.0, 1.2), min_size=2, max_size=3)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mech=finite_mechanisms(), n=st.integers(1, 5), fracs=EPS_FRACS)
def test_contract_random_finite_mechanisms(mech, n, fracs):
    run_contract(mech, n, fracs + [0.0])


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mech=finite_mechanisms(max_inputs=3, max_outputs=4), n=st.integers(2, 9), fracs=EPS_FRACS)
def test_contract_random_finite_mechanisms_more_examples(mech, n, fracs):
    run_contract(mech, n, fracs, inversions=False)


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mech=finite_mechanisms(max_inputs=2, max_outputs=3), n=st.integers(10, 12), fracs=EPS_FRACS)
def test_contract_up_to_twelve_users(mech, n, fracs):
    run_contract(mech, n, fracs, inversions=False)
