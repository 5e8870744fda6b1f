"""Exact sums: the rounding constants and edge bounds the end-to-end tests cannot resolve,
checked exactly (Fraction) or against a 40-digit reference."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from flint import arb

from shufflekit.numeric.kernels.positive_part import (
    Param,
    U,
    _chunk_tables,
    binomial_row,
    gamma_n,
    rows_for,
)


@pytest.mark.parametrize("k", [1, 4, 10, 1000, 10**6, 10**9])
def test_gamma_n_is_the_higham_constant_rounded_up(k):
    exact = k * Fraction(U) / (1 - k * Fraction(U))
    assert Fraction(gamma_n(k)) >= exact
    # documented: rounded up by a relative 1e-10; 2e-10 leaves room for the float evaluation
    assert Fraction(gamma_n(k)) <= exact * (1 + Fraction(2, 10**10))


@pytest.mark.parametrize("m, rho, bits", [(2000, 0.3, 60), (5000, 0.5, 120)])
def test_edge_ratios_bound_the_exact_binomial_ratios(m, rho, bits):
    row = binomial_row(m, Param.of(arb(rho)), bits, bits)
    assert 0 < row.lo and row.hi < m  # both edges inside: both ratios are used
    r = Fraction(rho)  # arb(rho) is the float rho exactly
    below = Fraction(row.lo) * (1 - r) / ((m - row.lo + 1) * r)  # P(lo - 1) / P(lo)
    above = Fraction(m - row.hi) * r / ((row.hi + 1) * (1 - r))  # P(hi + 1) / P(hi)
    for got, exact in ((row.r_lo, below), (row.r_hi, above)):
        assert Fraction(got) >= exact
        # documented: rounded up by a relative 1e-12 over a few float roundings
        assert Fraction(got) <= exact * (1 + Fraction(1, 10**11))


@pytest.mark.parametrize("m, rho, bits", [(2000, 0.3, 60), (5000, 0.5, 120)])
def test_chunk_edge_bounds_cover_the_exact_binomial_tails(m, rho, bits):
    rows = rows_for(arb(rho), bits, bits)
    row = rows.meta(m)
    tb = _chunk_tables(rows, [row])
    with mpmath.workdps(40):
        r = mpmath.mpf(rho)

        def pmf(k):
            return mpmath.binomial(m, k) * r**k * (1 - r) ** (m - k)

        scale = mpmath.mpf(2) ** -row.E  # the rows are stored scaled by 2^-E
        below = sum(pmf(k) for k in range(row.lo)) * scale  # P(W < lo)
        moment = sum((row.lo - k) * pmf(k) for k in range(row.lo)) * scale  # E[(lo - W)_+]
        above = sum(pmf(k) for k in range(row.hi + 1, m + 1)) * scale  # P(W > hi)
        for got, exact in ((tb["t_lo"][0], below), (tb["m_lo"][0], moment), (tb["t_hi"][0], above)):
            assert got >= exact
            # geometric bounds from the edge ratio: measured 1.005 to 1.026 times the tail
            assert got <= 1.1 * exact
