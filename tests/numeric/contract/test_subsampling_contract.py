r"""Poisson subsampling before the shuffle, against the definition.

The reference (:func:`shufflekit.numeric.kernels.brute_force.subsampled_worst_case`) builds the
exact law of the participants' histogram (each user takes part with probability q, the others
leave no trace) for every replace-one neighbouring pair of datasets of ``n <= 4`` users, with
rational matrices and rational q, and takes the largest hockey-stick divergence at 50 digits.
Every registered method that applies to the subsampled randomizer
(:mod:`shufflekit.mechanisms.subsampled`) must bound it from its side, and the theorem of that
module says more: the exact divergence of the shuffled randomizer equals the reference.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

import shufflekit as sk
from shufflekit.errors import InvalidParameter
from shufflekit.mechanisms.subsampled import NO_REPORT, subsampled
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.kernels import brute_force as BF

MATRICES = {
    "rr-3/4": [["3/4", "1/4"], ["1/4", "3/4"]],
    "3x3": [["1/2", "1/4", "1/4"], ["1/6", "1/2", "1/3"], ["1/5", "1/5", "3/5"]],
    "2x3-zero": [["2/3", "1/3", "0"], ["1/6", "1/3", "1/2"]],
}
CASES = [
    ("rr-3/4", 3, "1/10"),
    ("rr-3/4", 4, "1/2"),
    ("3x3", 3, "1/3"),
    ("3x3", 2, "9/10"),
    ("2x3-zero", 3, "1/4"),
]


def rational(rows):
    return [[Fraction(x) for x in r] for r in rows]


def mechanism(rows):
    return sk.make("finite", matrix=[[sp.Rational(x) for x in r] for r in rows])


@pytest.mark.parametrize("name, n, q", CASES)
def test_methods_bound_the_subsampled_definition(name, n, q):
    rows = MATRICES[name]
    mech = mechanism(rows)
    sub = subsampled(mech, q)
    for info in sk.methods(sub):
        if info.kind not in (Kind.UPPER, Kind.LOWER, Kind.EXACT):
            continue
        try:
            acc = sk.accountant(mech, n, method=info.name, sampling_rate=q)
        except (InvalidParameter, ValueError):  # a method may decline this n or matrix
            continue
        for eps in (0.0, 0.1, 0.6):
            ref = BF.subsampled_worst_case(rational(rows), n, Fraction(q), eps)
            b = acc.get_delta(eps)
            if b.kind in (Kind.UPPER, Kind.EXACT):
                assert b.hi >= ref * (1 - 1e-12) - 1e-300, (info.name, eps, b, ref)
            if b.kind in (Kind.LOWER, Kind.EXACT):
                assert b.lo <= ref * (1 + 1e-12) + 1e-300, (info.name, eps, b, ref)


@pytest.mark.parametrize("name, n, q", CASES)
def test_the_theorem_the_shuffled_randomizer_has_the_same_divergence(name, n, q):
    """The exhaustive enclosure of the shuffled R^q (brute_force.worst_case_delta, which knows
    nothing of subsampling) contains the participants' reference at every epsilon."""
    rows = MATRICES[name]
    sub = subsampled(mechanism(rows), q)
    for eps in (0.0, 0.2, 1.0):
        ref = BF.subsampled_worst_case(rational(rows), n, Fraction(q), eps)
        enc = BF.worst_case_delta(sub, n, eps)
        assert enc.lo - 1e-15 <= float(ref) <= enc.hi + 1e-15
        assert enc.hi - enc.lo <= 1e-12  # a tight enclosure: the check has teeth


def test_subsampling_lowers_the_bound_and_q_one_changes_nothing():
    m = sk.make("krr", k=4, eps0=2)
    full = sk.accountant(m, 500).get_epsilon(1e-6).hi
    assert sk.accountant(m, 500, sampling_rate=1).get_epsilon(1e-6).hi == full
    eps = [sk.accountant(m, 500, sampling_rate=q).get_epsilon(1e-6).hi for q in (0.9, 0.5, 0.1)]
    assert full > eps[0] > eps[1] > eps[2] > 0


def test_the_blanket_of_the_subsampled_randomizer():
    """Derived from the matrix: gamma_q = 1 - q + q gamma, eps0 unchanged, a null column."""
    e0, t = sp.symbols("epsilon_0 t", positive=True)
    q = 1 / (1 + t)  # a rate in (0, 1) whose sign questions sympy can decide
    rr = sk.make("rr", eps0=e0)
    s = subsampled(rr, q)
    assert sp.simplify(s.gamma - (1 - q + q * rr.gamma)) == 0
    m = sk.make("krr", k=2000, eps0=3)  # a lumped view: the floor is carried along
    s = subsampled(m, "1/5")
    assert s.outputs[-1] == NO_REPORT and s.is_lumped
    assert sp.simplify(s.gamma - (sp.Rational(4, 5) + m.gamma / 5)) == 0
    assert sp.simplify(s.eps0() - 3) == 0


def test_bad_rates_and_relations():
    m = sk.make("rr", eps0=1)
    for bad in (0, -0.1, 1.5, "abc", float("nan")):
        with pytest.raises(InvalidParameter, match="sampling_rate"):
            sk.accountant(m, 100, sampling_rate=bad)
    with pytest.raises(InvalidParameter, match="replace-one"):
        sk.accountant(m, 100, adjacency="zero-out", sampling_rate=0.5)
    with pytest.raises(InvalidParameter, match="finite"):
        sk.accountant(sk.make("gaussian-local", sigma0=1), 100, sampling_rate=0.5)
    with pytest.raises(InvalidParameter, match="subsampled already"):
        subsampled(subsampled(m, 0.5), 0.5)
