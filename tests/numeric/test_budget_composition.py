"""Budget tests of :mod:`shufflekit.numeric.composition.fixed`: every term of the l1 budget of a
convolution of loss laws, of a trimmed law and of an exact pair's law.

The exact law a computed :class:`PrivacyLossPmf` stands for is built in rational arithmetic
(``Fraction``): exact cells and the exact infinity mass :math:`1 - (1-\\pi_a)(1-\\pi_b)`.  Each
case makes one budget term the dominant part of the exact error, so that the term set to 0
or divided by 10 no longer covers it.
"""

from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from shufflekit.numeric.bound import Kind
from shufflekit.numeric.composition.dominating_pair import PrivacyLossPmf
from shufflekit.numeric.composition.fixed import convolve, pair_loss_pmf, trim
from shufflekit.numeric.kernels import radix2_fft as fft
from tests.numeric.exact_convolution import exact_conv

GRID = 1 / 8


def law(cells, inf=0.0, error=0.0, kind=Kind.UPPER) -> PrivacyLossPmf:
    return PrivacyLossPmf(GRID, 0, np.asarray(cells, dtype=float), inf, error, kind)


def distance(c: PrivacyLossPmf, cells: list, inf: Fraction) -> Fraction:
    """Exact l1 distance of a computed law (cells at offset 0 and the infinity cell) from the
    exact one."""
    full = [Fraction(0)] * max(len(cells), c.offset + c.probs.size)
    for i, x in enumerate(c.probs):
        full[c.offset + i] = Fraction(float(x))
    ref = list(cells) + [Fraction(0)] * (len(full) - len(cells))
    return sum((abs(x - r) for x, r in zip(full, ref)), Fraction(0)) + abs(
        Fraction(c.infinity_mass) - inf
    )


A_CELLS = [0.25, 0.125, 0.25, 0.0625]  # mass 0.6875, infinity 0.3125 (exact floats)
B_CELLS = [0.375, 0.1875, 0.0625]  # mass 0.625, infinity 0.375


def test_infinite_mass_covers_the_exact_union():
    """pa + pb >= 1 - (1-pa)(1-pb); max(pa, pb) (0.375) is far below the exact 0.5703."""
    a, b = law(A_CELLS, 0.3125), law(B_CELLS, 0.375)
    c = convolve(a, b)
    exact = 1 - (1 - Fraction(0.3125)) * (1 - Fraction(0.375))
    assert Fraction(c.infinity_mass) >= exact
    assert exact > Fraction(0.375) * Fraction(3, 2)  # max(pa, pb) would miss it by 1/3


def test_gap_of_the_infinite_mass_is_in_the_budget():
    """Cells exact up to FFT round-off, infinity cell high by pa*pb = 0.117: the budget must
    hold that gap (a tenth of it would not)."""
    a, b = law(A_CELLS, 0.3125), law(B_CELLS, 0.375)
    c = convolve(a, b)
    exact_inf = 1 - (1 - Fraction(0.3125)) * (1 - Fraction(0.375))
    d = distance(c, exact_conv(A_CELLS, B_CELLS), exact_inf)
    assert d <= Fraction(c.error)
    # the gap pa*pb is the whole error but for the FFT round-off (below 1e-15)
    assert d >= Fraction(0.3125) * Fraction(0.375)


@pytest.mark.parametrize("which", ["a", "b"])
def test_propagated_input_error_is_in_the_budget(which):
    """One input law is high by e = 1/64 in one cell (its recorded error): the composed
    cells are then high by e times the other law's mass (0.625 or 0.6875), well above a
    tenth of the propagated term.  No infinite mass, so nothing else is large."""
    e = 1 / 64
    exact_a, exact_b = list(A_CELLS), list(B_CELLS)
    stored_a, stored_b = list(A_CELLS), list(B_CELLS)
    if which == "a":
        stored_a[1] += e
    else:
        stored_b[1] += e
    a = law(stored_a, error=e if which == "a" else 0.0)
    b = law(stored_b, error=e if which == "b" else 0.0)
    c = convolve(a, b)
    d = distance(c, exact_conv(exact_a, exact_b), Fraction(0))
    assert d <= Fraction(c.error)
    other = sum(B_CELLS) if which == "a" else sum(A_CELLS)
    assert d >= Fraction(e) * Fraction(other) * Fraction(99, 100)  # 1 %: the FFT round-off


def test_budget_contains_the_fft_bound_of_the_convolution():
    """The FFT round-off term is a worst case that no input attains within 10x (see the
    radix-2 budget tests), so here the composition's budget is checked against the proven
    bound of the same convolution: it must contain it."""
    rng = np.random.default_rng(3)
    xa, xb = rng.random(80), rng.random(70)
    xa, xb = xa / xa.sum(), xb / xb.sum()
    c = convolve(law(xa), law(xb))
    _, e_fft = fft.fft_convolve(xa, xb)
    assert c.error >= e_fft


def lossy_tail(s: float) -> list:
    """Seven cells whose float sum drops six of them: [s, s u, ..., s u] (sum s, exact
    s (1 + 6u))."""
    return [s] + [s * 2.0**-53] * 6


def trimmed_case():
    """A law of 64 cells with a lower and an upper tail of seven cells each that sum with a
    loss of 6u of their mass s, and the cut (1.5 s) that removes exactly those tails."""
    s = 2.0**-20
    body = [s] + [1 / 64] * 48 + [s]  # the first kept cell is s: kept[0] = 2s after
    cells = lossy_tail(s) + body + lossy_tail(s)
    return cells, 1.5 * s


def test_trimmed_tails_round_off_is_in_the_budget():
    """The exact law after the trim: lower tail merged into the first kept cell, upper tail
    moved to infinity (exact sums).  The float sums lose 6u of each tail's mass; the
    budget terms (lo + 4) u kept[0] and (m + 4) u (moved + new_inf) are 11 u times about
    twice that mass, so a tenth of them (2.2 u) would not cover 6 u."""
    cells, cut = trimmed_case()
    pmf = law(cells)
    t = trim(pmf, cut)
    lo, hi = 7, len(cells) - 7
    assert t.offset == lo and t.offset + t.probs.size == hi
    exact = [Fraction(x) for x in cells]
    ref = [Fraction(0)] * lo + [sum(exact[: lo + 1], Fraction(0))] + exact[lo + 1 : hi]
    d = distance(t, ref, sum(exact[hi:], Fraction(0)))
    assert d <= Fraction(t.error)
    assert d >= 12 * Fraction(2.0**-20) * Fraction(2.0**-53) * Fraction(9, 10)


def test_lower_tail_merge_alone_is_in_the_budget():
    """Only a lossy lower tail is cut (the upper cells are all above the cut): the merge
    term (lo + 4) u kept[0] = 22 u s alone must cover the loss 6 u s."""
    s = 2.0**-20
    cells = lossy_tail(s) + [s] + [1 / 64] * 57
    t = trim(law(cells), 1.5 * s)
    lo, hi = t.offset, t.offset + t.probs.size
    assert (lo, hi, t.infinity_mass) == (7, len(cells), 0.0)
    exact = [Fraction(x) for x in cells]
    ref = [Fraction(0)] * lo + [sum(exact[: lo + 1], Fraction(0))] + exact[lo + 1 :]
    d = distance(t, ref, Fraction(0))
    assert d <= Fraction(t.error)
    assert d >= 6 * Fraction(s) * Fraction(2.0**-53) * Fraction(9, 10)


def test_upper_tail_move_is_in_the_budget():
    """Only a lossy upper tail is moved (cut just above its mass s (1 + 6u), first cell
    s (1 + 10u) kept): the merge term is then 4 u s, below the loss 6 u s, so the move term
    (m + 4) u (moved + new_inf) is needed.  It is needed to 0.09 of its size only: the merge
    term, at least 4 u times a cell above the cut, covers most of any such loss."""
    s = 2.0**-20
    first = s * (1 + 10 * 2.0**-53)
    cells = [first] + [1 / 64] * 56 + lossy_tail(s)
    t = trim(law(cells), s * (1 + 8 * 2.0**-53))
    lo, hi = t.offset, t.offset + t.probs.size
    assert (lo, hi) == (0, len(cells) - 7)
    exact = [Fraction(x) for x in cells]
    d = distance(t, exact[:hi], sum(exact[hi:], Fraction(0)))
    assert d <= Fraction(t.error)
    assert d >= 6 * Fraction(s) * Fraction(2.0**-53) * Fraction(9, 10)
    assert d > 4 * Fraction(first) * Fraction(2.0**-53) * (1 + Fraction(1, 10**6))


REL = 1e-6  # stated relative error of the pair's masses: large, so its terms dominate


def pair_case():
    """Exact masses p, q (floats taken as exact) with the loss of the first outcome half a
    REL below the grid point 3 grid, and the stored masses off by the stated relative
    error in the direction that raises that loss by 2 REL."""
    grid = 2.0**-10
    with mp.workdps(40):
        p1 = 0.5
        q1 = float(mp.mpf(p1) * mp.exp(-(3 * mp.mpf(grid) - mp.mpf(REL) / 2)))
    p, q = np.array([p1, 0.5]), np.array([q1, 1 - q1])
    stored_p, stored_q = p * (1 + REL), q * (1 - REL)
    return grid, p, q, stored_p, stored_q


def exact_loss(p: float, q: float) -> mp.mpf:
    with mp.workdps(40):
        return mp.log(mp.mpf(p)) - mp.log(mp.mpf(q))


def test_pair_losses_stay_below_the_exact_losses():
    """A lower law needs every cell at or below its exact loss.  The stored masses raise the
    first loss above the grid point 3 grid (exact loss 3 grid - REL/2); the shift 4 REL
    brings it back, a tenth of it (0.4 REL) would not (1.5 REL above the exact loss)."""
    grid, p, q, sp, sq = pair_case()
    pmf = pair_loss_pmf(sp, sq, grid, rel_err=REL)
    top = (pmf.offset + int(np.nonzero(pmf.probs)[0][-1])) * grid  # the first outcome's cell
    assert float(np.log(sp[0]) - np.log(sq[0])) > 3 * grid  # the raised float loss
    assert top <= exact_loss(p[0], q[0]) < 3 * grid
    low = (pmf.offset + int(np.nonzero(pmf.probs)[0][0])) * grid  # the second outcome's
    assert low <= exact_loss(p[1], q[1])


def test_pair_mass_error_is_in_the_budget():
    """The stored masses are high by REL relatively: the l1 distance of the stored cells from
    the exact masses is REL times the finite mass, a tenth of the budget term would miss it."""
    grid, p, q, sp, sq = pair_case()
    pmf = pair_loss_pmf(sp, sq, grid, rel_err=REL)
    d = sum((abs(Fraction(float(x)) - Fraction(float(y))) for x, y in zip(sp, p)), Fraction(0))
    assert d <= Fraction(pmf.error)
    assert d >= Fraction(REL) * Fraction(9, 10)
