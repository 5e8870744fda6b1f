"""Budget tests of :mod:`shufflekit.numeric.methods.blanket_fft`: the lattice remainder, the
periodisation, the left-out frequencies and the float errors of the Fourier evaluation.

References: exact enumeration of the multinomial law of the lattice sum (``Fraction`` or
50-digit mpmath), characteristic functions summed directly at 50 digits, and the proven
formula of the module docstring (item 4) evaluated independently.  Each case is small
(n <= 12, periods of at most 512) and chosen so that the term it guards is not negligible.
"""

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from flint import ctx

from shufflekit.numeric.methods import blanket_fft as B
from shufflekit.numeric.methods.blanket_fft import (
    ARB_PREC,
    UNIT,
    LatticeLaw,
    lattice_delta,
    lattice_expectation,
    lattice_law,
    modulus_bounds,
    root_table,
)


@pytest.fixture(autouse=True)
def arb_precision():
    """The internal functions run at the precision lattice_delta sets (ARB_PREC bits)."""
    old = ctx.prec
    ctx.prec = ARB_PREC
    yield
    ctx.prec = old


def phi_abs(k, q, omega: int, N: int) -> mp.mpf:
    """|sum_j q_j e^{-2 pi i omega k_j / N}| of the exact float weights (50 digits)."""
    with mp.workdps(50):
        return abs(
            mp.fsum(mp.mpf(qj) * mp.expjpi(-mp.mpf(2 * omega * kj) / N) for kj, qj in zip(k, q))
        )


def lattice_pmf(k, q, n: int) -> dict:
    """Exact law of K = k_{J_1} + ... + k_{J_n} (weights as given, 50 digits)."""
    with mp.workdps(50):
        p = {0: mp.mpf(1)}
        for _ in range(n):
            new: dict = {}
            for v, w in p.items():
                for kj, qj in zip(k, q):
                    new[v + kj] = new.get(v + kj, mp.mpf(0)) + w * mp.mpf(qj)
            p = new
    return p


# ------------------------------------------------------- the left-out frequencies (tail)
TAIL_LAW = LatticeLaw((-2, 0, 3), (0.3, 0.4, 0.3), (Fraction(0),) * 3, 1.0)


def test_left_out_frequencies_are_bounded_by_the_tail():
    """modulus_bounds drops the frequencies with |phi|^n <= e^floor and bounds their sum by
    count * e^floor.  With floor 0.01 above n log min|phi| the dropped ones sit just below
    the threshold, so their exact sum is almost the whole tail term (a tenth would miss)."""
    N, n = 64, 10
    k, q = TAIL_LAW.k, TAIL_LAW.q
    mods = [phi_abs(k, q, w, N) for w in range(N // 2 + 1)]
    floor = float(n * mp.log(min(mods))) + 0.01
    omega, y, tail = modulus_bounds(TAIL_LAW, np.array(q), np.zeros(3), N, n, floor)
    dropped = sorted(set(range(N // 2 + 1)) - {int(w) for w in omega})
    assert dropped
    with mp.workdps(50):
        exact = mp.fsum(mods[w] ** n for w in dropped)
        assert exact <= tail
        # e^{-0.01} of the tail at least for the smallest one; 0.5: the others are lower
        assert exact >= tail / 10
        for w, yw in zip(omega, y):  # kept frequencies: y >= n log|phi|
            assert n * mp.log(mods[int(w)]) <= yw


# ------------------------------------------------------- the float error e of phi
def phi_error_formula(qf: np.ndarray, qerr: np.ndarray, ew: float) -> mp.mpf:
    """The proven bound e on |phi_hat - phi| (module docstring, item 4: Arb-rounded roots with
    product error ew, weights with error qerr, Higham Lemma 3.5 / eq. (3.5) for the inner
    product of r terms), padded by the stated 1 %; 50 digits."""
    with mp.workdps(50):
        u, r = mp.mpf(UNIT), len(qf)
        g = (r + 2) * u / (1 - (r + 2) * u)
        q, qe, w = [mp.mpf(float(x)) for x in qf], [mp.mpf(float(x)) for x in qerr], mp.mpf(ew)
        eC = [qj * (w + u * (1 + w)) + ej for qj, ej in zip(q, qe)]
        cabs = [qj * (1 + w) * (1 + u) for qj in q]
        e = mp.fsum((1 + w) * c + w * (qj + ej) for c, qj, ej in zip(eC, q, qe)) + mp.sqrt(
            2
        ) * g * mp.fsum((1 + w) * (ca + c) for ca, c in zip(cabs, eC))
        return e * mp.mpf("1.01")


@pytest.mark.parametrize("qerr_scale", [0.0, 1e-10])
def test_float_error_of_phi_is_the_proven_bound(qerr_scale):
    """Three equal weights on k = 0, 1, 2 make phi vanish at omega = N/3 (N = 96): there the
    bound y must come from the error term e alone, so exp(y/n) must be at least the proven
    e (a worst case, about 20 u; the computed |phi_hat| there is a few u at most).  With a
    weight error of 1e-10 the term qerr dominates e, and the exact |phi(0)| = 1 must still
    be covered with weights taken 1e-10 low."""
    N, n = 96, 4
    q = np.full(3, 1 / 3) * (1 - qerr_scale)
    qerr = np.full(3, qerr_scale / 3 + UNIT)
    law = LatticeLaw((0, 1, 2), tuple(q), (Fraction(0),) * 3, 1.0)
    omega, y, _ = modulus_bounds(law, q, qerr, N, n, -1e4)
    ys = dict(zip((int(w) for w in omega), y))
    e = phi_error_formula(q, qerr, root_table(N).err)
    with mp.workdps(50):
        assert mp.exp(mp.mpf(ys[N // 3]) / n) >= e * (1 - mp.mpf(1e-12))
        # y(0) bounds n log|phi(0)| of the exact weights (sum 1)
        assert ys[0] >= 0.0


def test_root_table_error_covers_every_root():
    """|W_hat(m) - e^{2 pi i m/N}| <= err for every m (N = 4096, 50-digit reference); the
    largest error is above a tenth of the bound (Higham's sqrt(2) gamma_2 for the product and
    the seed errors are attained to about a third)."""
    N = 4096
    tab = root_table(N)
    m = np.arange(N)
    w = tab(m)
    with mp.workdps(50):
        worst = max(
            abs(mp.mpc(float(x.real), float(x.imag)) - mp.expjpi(mp.mpf(2 * int(j)) / N))
            for j, x in zip(m, w)
        )
    assert worst <= tab.err
    assert worst >= tab.err / 10


# ------------------------------------------------------- the lattice remainder (shift c)
G = [Fraction(-1.3), Fraction(0.7), Fraction(2.1)]
Q = [0.4, 0.35, 0.25]


def exact_positive_part(g, q, n: int) -> Fraction:
    """E[(G_1 + ... + G_n)_+] of the exact law, by multinomial enumeration (Fractions)."""
    total = Fraction(0)
    fq = [Fraction(x) for x in q]
    for combo in itertools.combinations_with_replacement(range(len(g)), n):
        counts = [combo.count(j) for j in range(len(g))]
        s = sum(c * gj for c, gj in zip(counts, g))
        if s > 0:
            mult = math.factorial(n)
            for c in counts:
                mult //= math.factorial(c)
            w = Fraction(mult)
            for c, qj in zip(counts, fq):
                w *= qj**c
            total += w * s
    return total


def test_rounding_shift_term_is_needed():
    """Atoms rounded up to the unit grid (gaps 0.3, 0.3, 0.9), shift c = n max d = 5.4: then
    E[(lK - c)_+] <= E[S_+] (the shift over-corrects), and only the Chernoff term of step 1
    brings the bound back above the exact value; more than a tenth of it is needed."""
    n = 6
    law = lattice_law(G, Q, 1.0, up=True)
    c = float(n * max(law.d))
    val, _, _ = lattice_expectation(law, n, 0.3, 512, shifts=[c], upper=True, eta=0.0)
    exact = exact_positive_part(G, Q, n) / n
    assert val.lower() >= float(exact)
    chern = B._chernoff_shift(law.d, law.q, n, c) / n
    short = exact - Fraction(float((val - chern).upper()))
    assert short > 0 and short >= Fraction(float(chern.upper())) / 10


# ------------------------------------------------------- left-out frequencies in Parseval
def exact_periodised(law: LatticeLaw, n: int, t: float, N: int, c: float) -> mp.mpf:
    """(1/n) M^n E_Q[sum_m h(K + mN)], h(v) = (lv - c)_+ e^{-tlv}: the number the Fourier sum
    computes, from the exact law of K (50 digits; the sum over m truncated where e^{-tlmN}
    is below 1e-60)."""
    with mp.workdps(50):
        l, tl = mp.mpf(law.l), mp.mpf(t) * law.l
        M = mp.fsum(mp.mpf(qj) * mp.exp(tl * kj) for kj, qj in zip(law.k, law.q))
        pmf = lattice_pmf(
            law.k, [mp.mpf(qj) * mp.exp(tl * kj) / M for kj, qj in zip(law.k, law.q)], n
        )
        span = int(140 / (tl * N)) + 2
        tot = mp.mpf(0)
        for K, w in pmf.items():
            for m in range(-span, span + 1):
                v = K + m * N
                if l * v > c:
                    tot += w * (l * v - c) * mp.exp(-tl * v)
        return M**n * tot / n


def test_left_out_frequencies_in_the_parseval_sum_are_in_the_ball():
    """n = 26 on a period N = 128 (65 frequencies): the first 48 are summed in Arb and the
    rest bounded by 2 rest H(0); the exact periodised value must lie in the ball, which
    without that bound has an Arb radius of 1e-38 relative while the rest is far larger.
    Of 372 laws, sizes, tilts and periods tried, this one leaves the largest rest against
    its bound: 0.16 of it (the bound takes |H(omega)| <= H(0) and no cancellation between
    frequencies); the test asserts 0.12, above the tenth a shrunk bound would leave."""
    n, t, N = 26, 0.5, 128
    law = LatticeLaw((-1, 2), (0.7, 0.3), (Fraction(0),) * 2, 1.0)
    val, _, nf = lattice_expectation(law, n, t, N, shifts=[0.0], upper=True, eta=0.0)
    assert nf < N // 2 + 1  # some frequencies were left out
    exact = exact_periodised(law, n, t, N, 0.0)
    with mp.workdps(50):
        mid, rad = mp.mpf(val.mid().str(45, radius=False)), mp.mpf(float(val.rad()))
        dev = abs(exact - mid)
        assert dev <= rad
        assert dev > 1e-15 * exact  # the rest is not negligible
        assert dev >= 0.12 * rad


# ------------------------------------------------------- periodisation (lower end)
def test_wrapped_copies_are_subtracted():
    """Lower end: atoms k = -1 (0.95), 2 (0.05), n = 4, tl = 0.5, period N = 12 (just above
    the support width): the wrapped copies h(K + mN) add about 0.07 to the periodised sum;
    their bound (2/(e t)) e^{-tl(a+N)/2} / (1 - e^{-tlN/2}) must be subtracted, and its
    tenth would leave the result above the exact E[(lK)_+]/n."""
    n, t, N = 4, 0.5, 12
    law = LatticeLaw((-1, 2), (0.95, 0.05), (Fraction(0),) * 2, 1.0)
    val, _, _ = lattice_expectation(law, n, t, N, shifts=[0.0], upper=False, eta=0.0)
    pmf = lattice_pmf(law.k, law.q, n)
    with mp.workdps(50):
        exact = mp.fsum(w * K for K, w in pmf.items() if K > 0) / n
        assert mp.mpf(float(val.upper())) <= exact
        tl = mp.mpf(t) * law.l
        a = n * min(law.k)
        wrap = 2 / (mp.e * t) * mp.exp(-tl * (a + N) / 2) / (1 - mp.exp(-tl * N / 2))
        M = mp.fsum(mp.mpf(qj) * mp.exp(tl * kj) for kj, qj in zip(law.k, law.q))
        periodised = exact_periodised(law, n, t, N, 0.0)
        wrapped = periodised - exact  # M^n E_Q[sum_{m>=1} h(K+mN)] / n
        assert 0 < wrapped <= M**n * wrap / n
        assert wrapped >= M**n * wrap / n / 10


# ------------------------------------------------------- float weights (eta)
def test_weight_error_factor_covers_perturbed_weights():
    """Float weights 0.1 / 0.9 on atoms +1 / -1 stated to a relative 1e-4: the exact law may
    put 0.1 (1 + 1e-4) on +1, which raises E[S_+] for n = 10 by 5.6e-4 relatively (S > 0
    needs six +1's); the factor (1 + eta)^n = 1 + 1e-3 covers it, a tenth of eta would not."""
    n, rho = 10, 1e-4
    ev = lattice_delta([1.0, -1.0], [0.1, 0.9], n, l=1.0, prob_rel_err=rho)
    q1 = Fraction(0.1) * (1 + Fraction(rho))
    exact = exact_positive_part([Fraction(1), Fraction(-1)], [q1, 1 - q1], n) / n
    plain = exact_positive_part([Fraction(1), Fraction(-1)], [0.1, 0.9], n) / n
    assert ev.value.lower() >= float(exact)
    assert exact >= plain * (1 + 5 * Fraction(rho))  # > (1 + rho/10)^n - 1 = 1e-4


# ------------------------------------------------------- direct convolution round-off
def test_direct_path_is_widened_by_the_proven_factor():
    """The direct path (n <= 32, upper end) returns a ball of upper bounds on the exact
    E[(lK)_+]/n, at least (1 + gamma_{2r})^n above it (the factor of the docstring; the
    actual float error is far below it, so a factor shrunk tenfold is caught only this way:
    the ball would sit within 0.1 n gamma_{2r} of the exact value)."""
    n = 10
    law = lattice_law([Fraction(1), Fraction(-1)], [0.1, 0.9], 1.0, up=True)
    ball = B.direct_expectation(law, n, True, 0.0)
    exact = exact_positive_part([Fraction(1), Fraction(-1)], [0.1, 0.9], n) / n
    r = len(law.k)
    g = Fraction(2 * r) * Fraction(UNIT) / (1 - 2 * r * Fraction(UNIT))
    # half the first-order factor n gamma_{2r}: the float value may sit below the exact one
    # by its own error, at most a few u (far less than n gamma_{2r} / 2 = 20 u)
    assert Fraction(float(ball.lower())) >= exact * (1 + n * g / 2)
