"""Heterogeneous populations: the blanket decomposition with heterogeneous blankets against the
definition enumerated at small n, the homogeneous limit, the groups' results around it."""

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
import sympy as sp

import shufflekit as sk
from shufflekit.errors import InvalidParameter
from shufflekit.numeric.kernels import brute_force as BF
from shufflekit.numeric.methods.population import (
    Group,
    PopulationAccountant,
    binomial_window,
    count_law,
)

RR1, RR2 = sk.make("rr", eps0=1), sk.make("rr", eps0=2)


def finite(rows):
    return sk.make("finite", matrix=[[sp.Rational(x) for x in r] for r in rows])


def float_rows(rows):
    return [[float(Fraction(x)) for x in r] for r in rows]


def worst_population(groups, eps, adjacency="replace-one"):
    """The definition: every changed user (its group), every ordered pair of its inputs (or an
    input and its group's null input, whose law is the blanket), every dataset of the others."""
    best = 0.0
    users = [(g, rows) for g, (rows, n) in enumerate(groups) for _ in range(n)]
    for i, (_, rows) in enumerate(users):
        others = [r for j, (_, r) in enumerate(users) if j != i]
        mats = [np.array(float_rows(r)) for r in others]
        own = np.array(float_rows(rows))
        choices = [range(m.shape[0]) for m in mats]
        null = own.min(axis=0) / own.min(axis=0).sum()
        if adjacency == "replace-one":
            pairs = [(own[a], own[b]) for a in range(len(own)) for b in range(len(own)) if a != b]
        else:
            pairs = [(own[a], null) for a in range(len(own))] + [
                (null, own[a]) for a in range(len(own))
            ]
        for data in itertools.product(*choices):
            rest = [m[x] for m, x in zip(mats, data, strict=True)]
            for a, b in pairs:
                enc = BF.rows_delta([a, *rest], [b, *rest], eps)
                best = max(best, enc.lo)
    return best


A = [["2/3", "1/6", "1/6"], ["1/6", "2/3", "1/6"], ["1/6", "1/6", "2/3"]]  # 3-RR, eps0 = log 4
B = [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]  # 3-RR, eps0 = log 2
C = [["1/2", "1/3", "1/6"], ["1/5", "3/5", "1/5"]]  # an irregular 2x3 matrix


@pytest.mark.parametrize("adjacency", ["replace-one", "zero-out"])
@pytest.mark.parametrize(
    "groups", [[(A, 2), (B, 2)], [(A, 1), (C, 3)], [(C, 2), (B, 1)]], ids=["AB", "AC", "CB"]
)
def test_the_bound_is_above_the_definition(groups, adjacency):
    acc = sk.accountant([(finite(rows), n) for rows, n in groups], adjacency=adjacency)
    assert isinstance(acc, PopulationAccountant)
    for eps in (0.0, 0.2, 0.7):
        ref = worst_population(groups, eps, adjacency)
        b = acc.get_delta(eps)
        assert b.kind is sk.Kind.UPPER and b.hi >= ref, (eps, b, ref)


def test_coinciding_groups_equal_the_homogeneous_result():
    m = sk.make("krr", k=10, eps0=4)
    pop = sk.accountant([(m, 5_000), (m, 5_000)])
    hom = sk.accountant(m, n=10_000)
    assert pop.get_epsilon(1e-6).hi == hom.get_epsilon(1e-6).hi
    same = sk.accountant([(m, 100), (sk.make("krr", k=10, eps0=4), 200), (m, 700)])
    assert same.get_delta(0.5).hi == sk.accountant(m, 1000).get_delta(0.5).hi


@pytest.mark.parametrize("eps", [0.2, 0.5])
def test_the_heterogeneous_evaluation_is_tight_on_a_homogeneous_population(eps):
    """Forced through the heterogeneous path (two groups of one mechanism), the bound is above
    the homogeneous one and within 2% of it at these points (measured 0.03-0.5%; the slack is
    the knots' resolution of h_m)."""
    pop = PopulationAccountant([Group(RR1, 500), Group(RR1, 500)])
    hom = sk.accountant(RR1, 1000).get_delta(eps).hi
    got = pop.get_delta(eps).hi
    assert hom <= got <= hom * 1.02


def test_the_result_lies_between_the_groups_results():
    mixed = sk.accountant([(RR1, 500), (RR2, 500)])
    for eps in (0.2, 0.5, 1.0):
        lo, hi = (sk.accountant(m, 1000).get_delta(eps).hi for m in (RR1, RR2))
        assert lo < mixed.get_delta(eps).hi < hi
    k1, k2 = sk.make("krr", k=6, eps0=1), sk.make("krr", k=6, eps0=3)
    mixed = sk.accountant([(k1, 300), (k2, 300)])
    d1, d2 = (sk.accountant(m, 600).get_delta(0.4).hi for m in (k1, k2))
    assert d1 < mixed.get_delta(0.4).hi < d2


def test_blanket_weights_are_the_largest_share_of_omega_rounded_down():
    pop = PopulationAccountant([Group(RR1, 2), Group(RR2, 2)])
    g1, g2 = 2 / (1 + math.e), 2 / (1 + math.e**2)
    assert g1 * (1 - 1e-11) <= pop.blanket_weight(0, 1) <= g1  # uniform blankets: gamma_h
    assert g2 * (1 - 1e-11) <= pop.blanket_weight(1, 0) <= g2
    other = PopulationAccountant([Group(finite(A), 1), Group(finite(C), 1)])
    # omega_A is uniform (1/3 each); C's floor is (1/5, 1/3, 1/6): gamma_{C|A} = 3 * 1/6 = 1/2
    assert 0.5 * (1 - 1e-11) <= other.blanket_weight(1, 0) <= 0.5


@pytest.mark.parametrize("N, p", [(1, 0.3), (40, 0.02), (500, 0.5), (3000, 0.9)])
def test_binomial_windows_enclose_the_pmf(N, p):
    start, up, tail = binomial_window(N, p)
    with mp.workdps(40):
        exact = [
            mp.binomial(N, k) * mp.mpf(p) ** k * (1 - mp.mpf(p)) ** (N - k) for k in range(N + 1)
        ]
        inside = mp.fsum(exact[start : start + up.size])
        assert all(
            exact[start + i] <= up[i] <= exact[start + i] * (1 + 1e-12) for i in range(up.size)
        )
        assert 1 - inside <= tail + 1e-40 and tail <= 1e-290


def test_count_laws_are_upper_enclosures():
    law = count_law([(30, 0.2), (20, 0.7)])
    with mp.workdps(40):
        a = [mp.binomial(30, k) * mp.mpf(0.2) ** k * mp.mpf(0.8) ** (30 - k) for k in range(31)]
        b = [mp.binomial(20, k) * mp.mpf(0.7) ** k * mp.mpf(0.3) ** (20 - k) for k in range(21)]
        conv = [
            mp.fsum(a[i] * b[m - i] for i in range(max(0, m - 20), min(30, m) + 1))
            for m in range(51)
        ]
    for i, v in enumerate(law.upper):
        assert v >= conv[law.start + i]
    assert law.tail <= 1e-280 and law.error < 1e-290


def test_bad_populations():
    with pytest.raises(InvalidParameter, match="finite"):
        sk.accountant([(RR1, 10), (sk.make("gaussian-local", sigma0=1), 10)])
    with pytest.raises(InvalidParameter, match="lumped"):
        sk.accountant([(sk.make("krr", k=50, eps0=1), 10), (sk.make("krr", k=50, eps0=2), 10)])
    with pytest.raises(InvalidParameter, match="population"):
        sk.accountant([(RR1, 10), (RR2, 10)], n=20)
    with pytest.raises(InvalidParameter, match="blanket"):
        sk.accountant([(RR1, 10), (RR2, 10)], method="hoeffding")
    with pytest.raises(InvalidParameter, match="n"):
        sk.accountant([(RR1, 0), (RR2, 10)])
    with pytest.raises(InvalidParameter, match="did you mean 'eps0'"):
        sk.accountant([{"name": "rr", "epz0": 1, "n": 10}, {"name": "rr", "eps0": 2, "n": 10}])
    with pytest.raises(InvalidParameter, match="n"):
        sk.accountant(RR1)
    ok = sk.accountant([{"name": "rr", "eps0": 1, "n": 10}, {"name": "rr", "eps0": 2, "n": 10}])
    assert ok.n == 20 and "PopulationAccountant" in repr(ok) and "rr(eps0=2" in repr(ok)


def test_subsampled_populations():
    base = sk.accountant([(RR1, 300), (RR2, 300)])
    sub = sk.accountant([(RR1, 300), (RR2, 300)], sampling_rate=0.5)
    assert sub.get_delta(0.3).hi < base.get_delta(0.3).hi
