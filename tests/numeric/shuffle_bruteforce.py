"""Brute-force shuffled hockey-stick divergences by enumerating output histograms."""
from __future__ import annotations

import itertools
import math

import numpy as np


def histogram_law(rows: list[np.ndarray]) -> dict[tuple, float]:
    """Law of the output histogram when user i reports from ``rows[i]``."""
    law = {tuple([0] * len(rows[0])): 1.0}
    for r in rows:
        new: dict[tuple, float] = {}
        for h, p in law.items():
            for y, q in enumerate(r):
                if q == 0:
                    continue
                h2 = list(h)
                h2[y] += 1
                h2 = tuple(h2)
                new[h2] = new.get(h2, 0.0) + p * q
        law = new
    return law


def hockey_stick(p: dict, q: dict, epsilon: float) -> float:
    e = math.exp(epsilon)
    return sum(max(v - e * q.get(h, 0.0), 0.0) for h, v in p.items())


def shuffled_delta(P: np.ndarray, x0: int, x1: int, rest: tuple, epsilon: float) -> float:
    a = histogram_law([P[x0]] + [P[z] for z in rest])
    b = histogram_law([P[x1]] + [P[z] for z in rest])
    return hockey_stick(a, b, epsilon)


def worst_shuffled_delta(P: np.ndarray, n: int, epsilon: float) -> float:
    """max over neighbouring datasets (replace-one) of the shuffled divergence."""
    k = len(P)
    best = 0.0
    for rest in itertools.combinations_with_replacement(range(k), n - 1):
        for x0 in range(k):
            for x1 in range(k):
                if x0 != x1:
                    best = max(best, shuffled_delta(P, x0, x1, rest, epsilon))
    return best
