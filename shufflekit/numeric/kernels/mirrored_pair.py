r"""Exact hockey-stick divergence of a mirrored report hidden among symmetric clones.

The stronger clone of Feldman-McMillan-Talwar 2023 and the variation-ratio reduction of Wang et
al. 2024 both end in the same two-level binomial sum.  The differing user reports ``0`` with
probability :math:`u` and ``1`` with probability :math:`v` under :math:`x^0` (``1`` with
probability :math:`u` and ``0`` with probability :math:`v` under :math:`x^1`), and a symbol of
its own (its *left-over*) with probability :math:`\lambda = 1-u-v`; each of the :math:`n-1`
other users reports ``0`` and ``1`` with probability :math:`s` each and a symbol of its own
otherwise.  Two views of the shuffled reports are used:

* **left-over visible**: :math:`(A, B, L)`, the counts of ``0`` and ``1`` and whether the
  differing user's left-over symbol is present (the view is sufficient when every symbol other
  than ``0``/``1`` is distinct);
* **left-over merged**: :math:`(A, B)` only, the left-over counted with the other users'
  symbols.

With :math:`C\sim\mathrm{Bin}(n-1, 2s)` the others' count of ``0``/``1``,
:math:`X\mid C\sim\mathrm{Bin}(C, 1/2)` their ``0``s, :math:`E = e^\varepsilon \ge 1`, and the
points :math:`(a, c+1-a)` where the differing user's ``0``/``1`` joins :math:`c` others, the
divergence :math:`D_E(P\|Q) = \sum (P - EQ)_+` is (both orders are equal by the mirror symmetry)

.. math::
    D = \sum_{c=0}^{n-1}\ \sum_{a\ge a_0(c)}^{c+1}
        \Pr[C=c,\ X=a-1]\ \frac{N_c(a)}{a},\qquad
    N_c(a) = K a - M(c+1) - \Lambda(n-1-c),

    K = (u-v)(1+E),\quad M = Eu - v,\quad
    \Lambda = \begin{cases} 0 & \text{visible}\\
    \lambda (E-1)\, s/(1-2s) & \text{merged,}\end{cases}

where :math:`a_0(c)` is the least :math:`a` with :math:`N_c(a) > 0` (the term at :math:`(a, c+1-a)`
is :math:`\Pr[C=c, X=a-1]\,N_c(a)/a`, and :math:`N_c(a)/a` increases with :math:`a`, so the positive
terms are exactly those from :math:`a_0` on; the points with the left-over present, or with no
``0``/``1`` from the differing user, have :math:`P - EQ \le 0`).

**Evaluation.**  For an upper bound, :math:`K` is rounded up and :math:`M, \Lambda` down to floats
(exact dyadic numbers), so :math:`a_0` and :math:`N_c(a_0)` are computed exactly and
:math:`N_c \ge` the true numerator (terms where the rounded :math:`N_c \le 0` are certainly not
positive); for a lower bound the directions swap and only the terms from the rounded threshold
on are summed (a partial sum of positive parts).  The anchors :math:`\Pr[C=c, X=a_0-1]` are Arb
balls (log-gamma, then the exact ratio of neighbouring multinomial terms, re-anchored every
:data:`REANCHOR` steps); the inner sums :math:`\sum_j R_j N_c(a_0+j)/(a_0+j)`,
:math:`R_j = \prod_{i<j}(c-a_0+1-i)/(a_0+i)`, run in float64 over all :math:`c` at once: every
term is positive and carries at most :math:`2j+6` roundings plus one per block of
:data:`JBLOCK`, the sum :math:`J` more, so the
relative error is at most :math:`\gamma_{4J+8}` (:math:`\gamma_m = mu/(1-mu)`).  The inner tail
after :math:`J` terms is at most :math:`K R_J/(1-r_J)` (:math:`N_c(a)/a \le K`; the ratios
:math:`r_j = (c-a_0+1-j)/(a_0+j)` decrease).  Outside the window of :math:`c`: below it each
:math:`c` contributes at most :math:`K\Pr[C=c]`; above it (visible view) at most
:math:`d_{c_{hi}}\Pr[C=c]` with :math:`d_c` the conditional divergence given :math:`C=c`, which
does not increase with :math:`c` (one more clone is a post-processing: add an independent fair
bit); the binomial tails are bounded by their geometric ratio in Arb.  The window widens until
each tail is below :data:`REL_TAIL` of the value; terms that reach the subnormal range
are covered by an absolute allowance of :math:`K\,2^{-1070}` each.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from flint import arb, ctx

from shufflekit.errors import CannotCertify
from shufflekit.numeric.kernels.directed_rounding import float_down, float_up

PREC = 128  # Arb working precision (bits)
U = 2.0**-53  # float64 unit round-off
REL_TAIL = 2.0**-54  # tails (inner and outer) are summed until below this fraction of the value
SIGMAS = 8.0  # first window of c: the mean plus or minus this many standard deviations
MAX_WINDOW = 400_000  # most values of c evaluated for one divergence (about 10 s of Arb work)
MAX_WORK = 100_000_000  # most inner float terms (values of c times inner terms) for one divergence
CHUNK = 4_096  # values of c whose inner sums run at once
REANCHOR = 512  # anchors by the ratio recurrence between two log-gamma evaluations


def _gamma(m: int) -> float:
    """:math:`\\gamma_m = mu/(1-mu)` rounded up a little (the bound on m roundings)."""
    return m * U / (1 - m * U) * (1 + 1e-12)


def _ball(x) -> arb:
    return x if isinstance(x, arb) else arb(x)


class _Params:
    """The rounded coefficients of :math:`N_c` and the Arb law of the clones."""

    def __init__(self, u, v, s, n: int, epsilon: float, merged: bool, upper: bool):
        u, v, s = _ball(u), _ball(v), _ball(s)
        E = arb(epsilon).exp()
        self.n, self.upper, self.merged = n, upper, merged
        K = (u - v) * (1 + E)
        M = E * u - v
        if merged:
            lam = 1 - u - v
            Lam = lam * (E - 1) * s / (1 - 2 * s)
        else:
            Lam = arb(0)
        if upper:
            self.K, self.M, self.L = float_up(K), max(float_down(M), 0.0), max(float_down(Lam), 0.0)
            # one exact point s <= the true s: fewer clones can only raise the visible divergence
            self.s = arb(max(float_down(s), 0.0))
        else:
            self.K, self.M, self.L = float_down(K), float_up(M), float_up(Lam)
            self.s = s
        # the three coefficients as integers times one power of two (exact thresholds)
        parts = [Fraction(x) for x in (self.K, self.M, self.L)]
        shift = max(
            (x.denominator.bit_length() - 1 for x in parts if x != 0),
            default=0,
        )
        self.shift = shift
        self.Ki, self.Mi, self.Li = (int(x * (1 << shift)) for x in parts)
        self.lg: dict[int, arb] = {}
        s = self.s
        self.degenerate = None  # C is certain: 0 (s = 0) or n - 1 (2s = 1)
        if s == 0:
            self.degenerate = 0
        elif 2 * s == 1:
            self.degenerate = n - 1
        else:
            self.log_s = s.log()
            self.log_2s = (2 * s).log()
            self.log_rest = (-2 * s).log1p()
            self.kappa = s / (1 - 2 * s)
        self.lg_n = arb(n).lgamma()

    # -------------------------------------------------------------- the law of the clones
    def weight(self, c: int) -> arb:
        r""":math:`\Pr[C = c]`."""
        if self.degenerate is not None:
            return arb(1 if c == self.degenerate else 0)
        n = self.n
        return (
            self.lg_n
            - self.lgamma(c + 1)
            - self.lgamma(n - c)
            + c * self.log_2s
            + (n - 1 - c) * self.log_rest
        ).exp()

    def anchor(self, c: int, k: int) -> arb:
        r""":math:`\Pr[C = c, X = k]` (multinomial: ``k`` zeros, ``c - k`` ones)."""
        if self.degenerate is not None:
            if c != self.degenerate:
                return arb(0)
            return (
                arb(c + 1).lgamma()
                - arb(k + 1).lgamma()
                - arb(c - k + 1).lgamma()
                - c * arb(2).log()
            ).exp()
        n = self.n
        return (
            self.lg_n
            - self.lgamma(k + 1)
            - self.lgamma(c - k + 1)
            - self.lgamma(n - c)
            + c * self.log_s
            + (n - 1 - c) * self.log_rest
        ).exp()

    def next_anchor(self, A: arb | None, c: int, k: int, k_prev: int | None, steps: int) -> arb:
        r""":math:`\Pr[C=c, X=k]` from the anchor ``A`` of :math:`(c-1, k_{prev})` by the exact
        ratio of the two multinomial terms (two Arb products), or afresh by log-gamma (first
        value, every :data:`REANCHOR` steps, or when :math:`k` moved by more than one)."""
        if A is None or steps >= REANCHOR or self.degenerate is not None or k_prev is None:
            return self.anchor(c, k)
        m = c - 1  # the anchor's clone count
        rest = self.n - 1 - m
        if k == k_prev:
            return A * self.kappa * rest / (m + 1 - k_prev)
        if k == k_prev + 1:
            return A * self.kappa * rest / (k_prev + 1)
        if k == k_prev - 1:
            return A * self.kappa * (rest * k_prev) / ((m + 2 - k_prev) * (m + 1 - k_prev))
        return self.anchor(c, k)

    def lower_tail(self, c_lo: int) -> arb:
        r"""An upper bound on :math:`\Pr[C < c_{lo}]` (geometric ratio below the mode)."""
        if c_lo <= 0:
            return arb(0)
        if self.degenerate is not None:
            return arb(1 if self.degenerate < c_lo else 0)
        s2 = 2 * self.s
        t = arb(c_lo) * (1 - s2) / ((self.n - c_lo) * s2)
        if not t < 1:
            return arb(1)
        return self.weight(c_lo) * t / (1 - t)

    def upper_tail(self, c_hi: int) -> arb:
        r"""An upper bound on :math:`\Pr[C > c_{hi}]` (geometric ratio above the mode)."""
        n = self.n
        if c_hi >= n - 1:
            return arb(0)
        if self.degenerate is not None:
            return arb(1 if self.degenerate > c_hi else 0)
        s2 = 2 * self.s
        t = arb(n - 1 - c_hi) * s2 / ((c_hi + 1) * (1 - s2))
        if not t < 1:
            return arb(1)
        return self.weight(c_hi) * t / (1 - t)

    # ------------------------------------------------------------------- thresholds
    def lgamma(self, m: int) -> arb:
        """``log((m-1)!)``, remembered (neighbouring clone counts share most arguments)."""
        hit = self.lg.get(m)
        if hit is None:
            hit = self.lg[m] = arb(m).lgamma()
        return hit

    def threshold(self, c: int) -> tuple[int, int]:
        r"""``(a0, N)``: the least ``a >= 1`` with :math:`N_c(a) > 0` and
        :math:`N_c(a_0) = N\,2^{-\mathrm{shift}}` (exact integer arithmetic)."""
        m = self.Mi * (c + 1) + self.Li * (self.n - 1 - c)
        a0 = max(1, m // self.Ki + 1)
        return a0, self.Ki * a0 - m

    def numerator(self, value: int) -> float:
        r"""A float within two roundings of :math:`N\,2^{-\mathrm{shift}}` (the integer is cut
        to 64 bits first when it is long), moved to the safe side where it would leave the
        normal range."""
        cut = max(value.bit_length() - 64, 0)
        f = math.ldexp(float(value >> cut), cut - self.shift)
        if f < 2.0**-1000:
            return 2.0**-1000 if self.upper else 0.0
        return f


JBLOCK = 128  # inner terms evaluated at once per value of c


def _inner_sums(c: np.ndarray, a0: np.ndarray, n0: np.ndarray, K: float, upper: bool):
    r"""Per ``c``: ``(S, J, tail)`` with :math:`S = \sum_{j<J} R_j N_c(a_0+j)/(a_0+j)` in floats
    (relative error at most :math:`\gamma_{4J+8}`: :math:`R_j` is a running product of
    :math:`j` rounded ratios, carried across blocks of :data:`JBLOCK` terms by one more
    product each) and ``tail`` a float bound on the rest (upper bounds only; 0 when the terms
    end at :math:`a = c+1`).  Terms are taken in blocks of :data:`JBLOCK` until the bound on the
    rest, :math:`K R_J/(1-r_J)`, is below :data:`REL_TAIL` of the sum."""
    size = len(c)
    S = np.zeros(size)
    J = np.zeros(size, dtype=np.int64)
    tail = np.zeros(size)
    R = np.ones(size)
    cf = c.astype(float)
    live = np.nonzero(a0 <= c + 1)[0]
    jj = np.arange(JBLOCK, dtype=float)
    j0 = 0
    while live.size:
        cl = cf[live][:, None]
        a = a0[live].astype(float)[:, None] + (j0 + jj)[None, :]
        ratio = np.maximum(cl - a + 1, 0.0) / a  # b_c(a)/b_c(a-1); 0 past a = c + 1
        cp = np.cumprod(ratio, axis=1)
        Rb = np.empty_like(cp)
        Rb[:, 0] = R[live]
        Rb[:, 1:] = R[live][:, None] * cp[:, :-1]
        terms = Rb * ((n0[live][:, None] + (j0 + jj)[None, :] * K) / a)
        S[live] += terms.sum(axis=1)
        J[live] += JBLOCK
        R_next = R[live] * cp[:, -1]
        R[live] = R_next
        a_next = a[:, -1] + 1
        c_live = cf[live]
        gap = 2 * a_next + 1 - c_live  # (1 - r) (a_next + 1), an integer: no cancellation
        more = a_next <= c_live + 1
        ok = gap > 0
        bound = np.where(ok, K * R_next / (np.where(ok, gap, 1.0) / (a_next + 1)), np.inf)
        under = (R_next == 0.0) & more  # underflow with terms left: each at most K 2^-1074
        bound = np.where(under, K * 2.0**-1074 * (c_live + 2), bound)
        fin = ~more | (ok & (bound <= REL_TAIL * S[live]))
        if upper:
            tail[live[fin]] = np.where(more[fin], bound[fin], 0.0)
        live = live[~fin]
        j0 += JBLOCK
    return S, J, tail


def mirrored_divergence(
    u, v, s, n: int, epsilon: float, *, merged: bool = False, upper: bool = True
) -> float:
    r"""The divergence :math:`D_{e^\varepsilon}` of the module docstring, certified.

    ``u >= v`` are the differing user's probabilities of its two mirrored reports, ``s`` each
    other user's probability of each of them (numbers or Arb balls); ``merged`` selects the view
    with the left-over merged into the other users' symbols.  ``upper=True`` returns a float
    :math:`\ge` the divergence (left-over visible only: its window argument uses that the
    divergence given :math:`C=c` does not increase with :math:`c`), ``upper=False`` a float
    :math:`\le` it.  Raises :class:`~shufflekit.errors.CannotCertify` when the window of
    :math:`c` would exceed :data:`MAX_WINDOW` values or the inner sums :data:`MAX_WORK` terms.
    """
    if upper and merged:
        raise ValueError("upper bounds are evaluated for the visible left-over only")
    if not (isinstance(epsilon, (int, float)) and epsilon >= 0 and math.isfinite(epsilon)):
        raise ValueError(f"epsilon={epsilon!r} is not allowed; allowed range [0, inf)")
    with ctx.workprec(PREC):
        P = _Params(u, v, s, n, float(epsilon), merged, upper)
        if P.K <= 0 or P.K <= P.M:
            # u = v, or E >= u/v (every N_c(a) <= 0 for a <= c + 1): the divergence is 0
            # (for a lower bound: not provably positive)
            return 0.0
        if not upper and not (P.s > 0 and 2 * P.s < 1):
            return 0.0
        if P.degenerate is not None:
            lo = hi = P.degenerate
        else:
            s2 = float(2 * P.s.mid())
            mean = (n - 1) * s2
            sd = math.sqrt(max(mean * (1 - s2), 0.0)) + 1.0
            lo = max(0, math.floor(mean - SIGMAS * sd))
            hi = min(n - 1, math.ceil(mean + SIGMAS * sd))
        total = arb(0)
        done: dict[int, arb] = {}  # c -> an upper bound on its inner sum times its anchor
        work = [0]

        def run(span: range) -> arb:
            part = arb(0)
            cs = list(span)
            if len(done) + len(cs) > MAX_WINDOW:
                raise CannotCertify(
                    f"the clone sum at n={n} needs more than {MAX_WINDOW} values of the clone "
                    "count; beyond this size the method declines"
                )
            for start in range(0, len(cs), CHUNK):
                block = cs[start : start + CHUNK]
                thr = [P.threshold(c) for c in block]
                c_arr = np.array(block, dtype=np.int64)
                a0 = np.array([t[0] for t in thr], dtype=np.int64)
                n0 = np.array([P.numerator(t[1]) for t in thr])  # exact value, rounded once
                # the terms a Gaussian-like inner sum needs, estimated before the work is done
                span = np.maximum(c_arr + 2 - a0, 0)
                est = int(np.minimum(span, 12 * np.sqrt(c_arr + 1.0) + JBLOCK).sum())
                if work[0] + est > MAX_WORK:
                    raise CannotCertify(
                        f"the clone sum at n={n} needs more than {MAX_WORK:.0e} inner terms; "
                        "beyond this size the method declines"
                    )
                S, J, tail = _inner_sums(c_arr, a0, n0, P.K, upper)
                work[0] += int(J.sum())
                if work[0] > 2 * MAX_WORK:
                    raise CannotCertify(
                        f"the clone sum at n={n} needs more than {MAX_WORK:.0e} inner terms; "
                        "beyond this size the method declines"
                    )
                A, k_prev, steps = None, None, 0
                for i, c in enumerate(block):
                    k = int(a0[i]) - 1
                    if k > c:
                        done[c] = arb(0)
                        A = None
                        continue
                    A = P.next_anchor(A, c, k, k_prev, steps)
                    steps = 0 if steps >= REANCHOR or A is None else steps + 1
                    k_prev = k
                    g = arb(_gamma(4 * int(J[i]) + 8))
                    # terms that met the subnormal range: an absolute allowance per term
                    slack = arb(P.K) * arb(2.0**-1070) * (c + 2)
                    if upper:
                        val = (arb(S[i]) + arb(tail[i]) + slack) * (1 + g)
                        part += A * val
                    else:
                        val = arb(S[i]) * (1 - g) - slack
                        if val > 0:
                            part += arb(max(float_down(A), 0.0)) * val
                    done[c] = A * val
            return part

        total += run(range(lo, hi + 1))
        Kb = arb(P.K)

        def widen(new_range: range) -> bool:
            """Add ``new_range`` to the sum; a lower bound stops (keeps its partial sum) where
            an upper bound would decline."""
            nonlocal total
            if not upper and len(done) + len(new_range) > MAX_WINDOW:
                return False
            total += run(new_range)
            return True

        sd_step = max(16, (hi - lo) // 8)  # about two standard deviations
        step = sd_step
        while lo > 0 and not (Kb * P.lower_tail(lo) <= REL_TAIL * total.lower()):
            new = max(0, lo - step)
            if not widen(range(new, lo)):
                break
            lo, step = new, step + sd_step
        step = sd_step
        t_hi = arb(0)
        while hi < n - 1:
            w = P.weight(hi)
            # the divergence given C = hi bounds every larger C (visible view); K in general
            d_hi = done[hi] / w if (upper and w > 0) else Kb
            t_hi = d_hi * P.upper_tail(hi)
            if t_hi <= REL_TAIL * total.lower():
                break
            new = min(n - 1, hi + step)
            if not widen(range(hi + 1, new + 1)):
                break
            hi, step = new, step + sd_step
        else:
            t_hi = arb(0)
        if not upper:
            return max(float_down(total), 0.0)
        total += Kb * P.lower_tail(lo) + t_hi
        return min(float_up(total), 1.0)
