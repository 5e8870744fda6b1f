r"""Printed values of Wang et al. 2024 (the parameter table of the variation-ratio reduction, as
published with the paper's code), written as functions of :math:`e = e^{\varepsilon_0}`.

Each row gives :math:`(p, \beta, q)` for a randomizer; the sizes are the paper's: ``d`` options
for k-ary randomized response and RAPPOR, hash length ``l`` for local hashing, ``(K, s)`` for
Hadamard response.
"""

from __future__ import annotations

import sympy as sp


def general(e):
    """General eps0-LDP randomizers (and randomized response on {0, 1})."""
    return (e, (e - 1) / (e + 1), e)


def k_rr(e, d):
    """General randomized response on d options."""
    return (e, (e - 1) / (e + d - 1), e)


def rappor(e, d):
    """Binary randomized response (RAPPOR) on d options."""
    h = sp.sqrt(e)
    return (e, (h - 1) / (h + 1), e)


def local_hash(e, l):  # noqa: E741 - the paper's name
    """Local hashing with hash length l."""
    return (e, (e - 1) / (e + l - 1), e)


def hadamard(e, K, s):
    """Hadamard response (K, s)."""
    return (e, s * (e - 1) / 2 / (s * e + K - s), e)


#: the published amplification bound for 10-ary randomized response, eps0 = 4, n = 1e4,
#: delta = 1e-6 (the code's "upper" epsilon)
KRR10_EPSILON = "0.3804588"
