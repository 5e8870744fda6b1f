r"""Frequency oracles on ``[k]``: BLH, RAPPOR, OUE and Hadamard response.

Each is written as the process that defines it, and its probability matrix is
computed from that process:

* **BLH** (binary local hashing, Wang et al. 2017): draw a hash
  :math:`H:[k]\to\{0,1\}` uniformly from a family, report :math:`(H, b)` where
  :math:`b = H(x)` with probability :math:`e^{\varepsilon_0}/(e^{\varepsilon_0}+1)`
  and :math:`1-H(x)` otherwise.  ``hash_family="all"`` uses every function
  :math:`[k]\to\{0,1\}`; ``"nonconstant"`` drops the two constant ones.
* **RAPPOR** (basic one-time RAPPOR, Erlingsson et al. 2014): one-hot encode
  :math:`x` and keep each bit with probability :math:`e^{\varepsilon_0/2}/(e^{\varepsilon_0/2}+1)`.
* **OUE** (optimized unary encoding, Wang et al. 2017): one-hot encode, report
  the bit of :math:`x` as 1 with probability 1/2 and every other bit as 1 with
  probability :math:`1/(e^{\varepsilon_0}+1)`.
* **HR** (Hadamard response, Acharya-Sun-Zhang 2019): with :math:`K` the
  smallest power of two above :math:`k`, input :math:`x` owns the set
  :math:`C_x = \{y : H_K[x+1, y] = 1\}` of size :math:`K/2`; report :math:`y\in C_x`
  with probability :math:`2e^{\varepsilon_0}/(K(e^{\varepsilon_0}+1))` and
  :math:`y\notin C_x` with probability :math:`2/(K(e^{\varepsilon_0}+1))`.

The output alphabets grow as :math:`2^k`; these constructors are meant for
``k <= 12``.
"""
from __future__ import annotations

import itertools
from typing import Any

import sympy as sp

from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.mechanisms.parameters import as_param

MAX_K = 12


def _k(k: Any, low: int = 2) -> int:
    k = int(as_param(k, "k", low=low, high=MAX_K, integer=True))
    return k


def _bit_prob(bit: int, one_prob: Any) -> Any:
    return one_prob if bit == 1 else 1 - one_prob


def unary_encoding(k: Any, eps0: Any, *, p_one_true: Any, p_one_other: Any,
                   name: str, params: dict) -> FiniteMechanism:
    """One-hot encoding with independent bit reports (shared by RAPPOR and OUE)."""
    words = list(itertools.product((0, 1), repeat=k))
    cache: dict = {}

    def word_probability(bit: int, ones_other: int) -> Any:
        # product over bits: the bit of x, then the other k-1 bits (ones_other of them are 1)
        key = (bit, ones_other)
        if key not in cache:
            cache[key] = (_bit_prob(bit, p_one_true) * p_one_other ** ones_other
                          * (1 - p_one_other) ** (k - 1 - ones_other))
        return cache[key]

    rows = [[word_probability(w[x], sum(w) - w[x]) for w in words] for x in range(k)]
    return FiniteMechanism.from_matrix(rows, inputs=tuple(range(k)),
                                       outputs=tuple("".join(map(str, w)) for w in words),
                                       name=name, params=params)


def rappor(k: Any, eps0: Any) -> FiniteMechanism:
    """Basic one-time RAPPOR; each bit is kept with probability e^(eps0/2)/(e^(eps0/2)+1)."""
    k = _k(k)
    eps0 = as_param(eps0, "eps0", low=0, low_open=True)
    keep = sp.exp(eps0 / 2) / (sp.exp(eps0 / 2) + 1)
    return unary_encoding(k, eps0, p_one_true=keep, p_one_other=1 - keep, name="rappor",
                          params={"k": k, "eps0": eps0})


def oue(k: Any, eps0: Any) -> FiniteMechanism:
    """Optimized unary encoding: P(bit_x = 1) = 1/2, P(other bit = 1) = 1/(e^eps0+1)."""
    k = _k(k)
    eps0 = as_param(eps0, "eps0", low=0, low_open=True)
    return unary_encoding(k, eps0, p_one_true=sp.Rational(1, 2),
                          p_one_other=1 / (sp.exp(eps0) + 1), name="oue",
                          params={"k": k, "eps0": eps0})


def blh(k: Any, eps0: Any, *, hash_family: str = "all") -> FiniteMechanism:
    """Binary local hashing over a uniformly drawn hash from ``hash_family``."""
    k = _k(k)
    eps0 = as_param(eps0, "eps0", low=0, low_open=True)
    if hash_family not in ("all", "nonconstant"):
        raise ValueError(f"hash_family={hash_family!r} is not allowed; use 'all' or 'nonconstant'")
    hashes = [h for h in itertools.product((0, 1), repeat=k)
              if hash_family == "all" or 0 < sum(h) < k]
    keep = sp.exp(eps0) / (sp.exp(eps0) + 1)
    weight = sp.Rational(1, len(hashes))
    outputs, rows = [], [[] for _ in range(k)]
    for h in hashes:
        for b in (0, 1):
            outputs.append(("".join(map(str, h)), b))
            for x in range(k):
                rows[x].append(weight * (keep if b == h[x] else 1 - keep))
    return FiniteMechanism.from_matrix(rows, inputs=tuple(range(k)), outputs=tuple(outputs),
                                       name="blh", params={"k": k, "eps0": eps0,
                                                           "hash_family": hash_family})


def hadamard_matrix(order: int) -> list[list[int]]:
    """Sylvester's Hadamard matrix of a power-of-two ``order`` (entries +-1)."""
    h = [[1]]
    while len(h) < order:
        h = [row + row for row in h] + [row + [-v for v in row] for row in h]
    return h


def hadamard_response(k: Any, eps0: Any) -> FiniteMechanism:
    """Hadamard response on ``[k]`` with ``K = 2^ceil(log2(k+1))`` outputs."""
    k = _k(k)
    eps0 = as_param(eps0, "eps0", low=0, low_open=True)
    K = 1
    while K < k + 1:
        K *= 2
    H = hadamard_matrix(K)
    hi = 2 * sp.exp(eps0) / (K * (sp.exp(eps0) + 1))
    lo = 2 / (K * (sp.exp(eps0) + 1))
    rows = [[hi if H[x + 1][y] == 1 else lo for y in range(K)] for x in range(k)]
    return FiniteMechanism.from_matrix(rows, inputs=tuple(range(k)), outputs=tuple(range(K)),
                                       name="hr", params={"k": k, "eps0": eps0, "K": K})
