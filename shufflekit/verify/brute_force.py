r"""Brute-force references: exact laws by enumerating every output sequence or histogram."""
from __future__ import annotations

import itertools
import math
from functools import lru_cache

import sympy as sp


@lru_cache(maxsize=None)
def sequence_laws(W0: tuple, W1: tuple, n: int, k: int):
    r"""Exact laws of the shuffled histogram by enumerating all |Y|^n output sequences.

    User 0 is the changed user, users 1..k hold 1, the rest 0 (seed 001, Sec. 4).  Returns
    P = T_{n,k}, Q = T_{n,k+1} and E_P[r(Y_*) 1{N = h}] with r = W1/W0 - 1, as dicts over
    histograms h, in exact rationals.
    """
    w0 = [sp.Rational(x) for x in W0]
    w1 = [sp.Rational(x) for x in W1]
    m = len(w0)
    r = [w1[i] / w0[i] - 1 for i in range(m)]
    P, Q, R = {}, {}, {}
    for seq in itertools.product(range(m), repeat=n):
        # user 0 is the changed user; users 1..k hold 1, the rest 0
        others = sp.Mul(*[w1[y] for y in seq[1:k + 1]]) * sp.Mul(*[w0[y] for y in seq[k + 1:]])
        h = tuple(seq.count(y) for y in range(m))
        P[h] = P.get(h, 0) + w0[seq[0]] * others
        Q[h] = Q.get(h, 0) + w1[seq[0]] * others
        R[h] = R.get(h, 0) + w0[seq[0]] * others * r[seq[0]]
    return P, Q, R


def histogram_law(rows):
    """Law of the histogram of independent outputs, user i drawn from ``rows[i]`` (float)."""
    law = {tuple([0] * len(rows[0])): 1.0}
    for r in rows:
        new = {}
        for h, p in law.items():
            for y, q in enumerate(r):
                h2 = h[:y] + (h[y] + 1,) + h[y + 1:]
                new[h2] = new.get(h2, 0.0) + p * q
        law = new
    return law


def hockey_stick(p, q, eps):
    """sum_h (p(h) - e^eps q(h))_+ for laws given as dicts."""
    e = math.exp(eps)
    return sum(max(val - e * q.get(h, 0.0), 0.0) for h, val in p.items())


def worst_shuffled_delta(P, n, eps):
    """max over neighbouring datasets (all multisets of the other n-1 inputs) of the shuffled hockey-stick."""
    k = len(P)
    best = 0.0
    for rest in itertools.combinations_with_replacement(range(k), n - 1):
        for a in range(k):
            for b in range(k):
                if a != b:
                    best = max(best, hockey_stick(histogram_law([P[a]] + [P[z] for z in rest]),
                                             histogram_law([P[b]] + [P[z] for z in rest]), eps))
    return best


def multinomial_positive_part(g, q, n):
    """E (sum_j N_j g_j)_+ / n for N ~ Multinomial(n, q), by enumerating all count vectors."""
    total = 0.0
    for counts in itertools.product(range(n + 1), repeat=len(g)):
        if sum(counts) != n:
            continue
        lp = math.lgamma(n + 1) + sum(c * math.log(p) - math.lgamma(c + 1) for c, p in zip(counts, q)
                                      if c)
        total += math.exp(lp) * max(sum(c * a for c, a in zip(counts, g)), 0.0)
    return total / n
