r"""Symbols and random examples shared by Su-Cheng-Wang 2026 claims."""

from __future__ import annotations

import numpy as np

from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.symbolic import gparv as GP

w, v = GP.w, GP.v

u = w**2  # e^{eps0}


def random_mechanisms(count: int, seed: int = 2, max_in: int = 3, max_out: int = 4):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        k, m = int(rng.integers(2, max_in + 1)), int(rng.integers(2, max_out + 1))
        rows = rng.uniform(0.02, 1.0, size=(k, m))
        rows /= rows.sum(axis=1, keepdims=True)
        out.append(FiniteMechanism.from_matrix(rows))
    return out
