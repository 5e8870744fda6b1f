r"""Exact finite-n accounting of shuffled histograms of a binary-input channel.

Setting (Shvets 2026, Sec. 2 and 8).  A channel :math:`W_0, W_1` on a finite alphabet
of size :math:`d`; :math:`n` users, of whom the :math:`n-1` "others" hold :math:`k`
ones and :math:`n-1-k` zeros, and one changed user holds 0 (law :math:`P`) or 1
(law :math:`Q`).  The shuffler reveals only the histogram :math:`N`, so

.. math::
    P = T_{n,k},\qquad Q = T_{n,k+1},\qquad
    P(N) = \sum_y W_0(y)\,S(N-e_y),\quad Q(N) = \sum_y W_1(y)\,S(N-e_y)

(Shvets 2026, Lemma 4.2) with :math:`S = T_{n-1,k}` the histogram law of the others.  The
exact likelihood ratio is :math:`L_{n,k} = Q/P = 1 + \mathbb{E}[r(Y_\star)\mid N]`
(Lemma 4.2; :math:`L:=0` off :math:`\operatorname{supp}P`), and the directed
hockey-stick curves are the finite positive-part sums of Prop. 8.1,

.. math::
    \delta_{Q\|P}(\varepsilon) = \sum_N (Q(N) - e^{\varepsilon}P(N))_+,\qquad
    \delta_{P\|Q}(\varepsilon) = \sum_N (P(N) - e^{\varepsilon}Q(N))_+ ,

which include the singular mass (:math:`Q(P=0)`, resp. :math:`P(Q=0)`) automatically.

Numerics (said once, used everywhere below).
* From 4 symbols on, :func:`shuffled_pair` writes :math:`T_{n,k}` as a multinomial of the averaged channel
  (log space, ``gammaln``) times the law of a count of binomial labels
  (:func:`label_count_laws`); the label law is a convolution of binomial pmfs, all
  terms non-negative, so each entry keeps a relative error of order
  :math:`(k+2)\times 10^{-16}`; no cancellation.  Only the valid histograms are stored
  (:math:`C(n+d-1, d-1)` of them), never the dense cube.  With 2 or 3 symbols the dense
  cube is small and the dynamic program of Shvets 2026, Sec. 8.3 (:func:`others_law`,
  :func:`add_user`, :func:`add_users`; non-negative updates, same error order) is faster.  Entries below the float64 range (about 1e-308) are flushed to
  zero; the lost mass is reported as :attr:`HistogramPair.lost_mass` (it is below 1e-290
  in every benchmarked case).
* The binary-output canonical pair uses **log-space binomial** pmfs
  (``scipy.stats.binom.logpmf``, Loader's saddle-point form), O(n) terms.
* Accuracy: every reported delta, JSD and KL is exact up to a relative error of about
  1e-13 plus an absolute error below 1e-290 (the flushed tails); targets
  :math:`\delta < 10^{-250}` are refused for that reason.
* The JSD integrand :math:`D(L)` is evaluated through
  :math:`D = \tfrac{1+L}{4}\{2t\,\operatorname{artanh} t + \log(1-t^2)\}`,
  :math:`t = (L-1)/(L+1)`, which has no first-order cancellation near :math:`L=1`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from scipy.special import gammaln
from scipy.stats import binom

from shufflekit.numeric.methods.gaussian import gdp_delta
from shufflekit.validation import check_delta, check_epsilon, check_n

ROW_TOLERANCE = 1e-9
MAX_STATES = 60_000_000  # dense histogram cube cells (float64): about 0.5 GB per array
MAX_WORK = 2e10  # cells x DP steps: about a minute on one core
MIN_DELTA = 1e-250  # below this the flushed tails (atoms under ~1e-308) could matter


# ----------------------------------------------------------------- validation
def check_channel(w0: Sequence[float], w1: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    r"""Validate a binary-input channel; return float arrays ``(W0, W1)``.

    Both rows must have the same length ``d >= 2``, finite entries in [0, 1] and sum
    to 1 (within 1e-9, then renormalised); ``W0`` must have full support (Shvets 2026,
    Sec. 2.3: :math:`\delta_\star = \min_y W_0(y) > 0`, so that :math:`Q \ll P`).
    """
    out = []
    for name, w in (("w0", w0), ("w1", w1)):
        try:
            arr = np.asarray([float(x) for x in w], dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{name}={w!r} is not a list of numbers") from None
        if arr.ndim != 1 or arr.size < 2:
            raise ValueError(
                f"{name}={arr.tolist()} is not allowed; need at least 2 output symbols"
            )
        if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
            raise ValueError(f"{name}={arr.tolist()} is not allowed; entries must lie in [0, 1]")
        s = float(arr.sum())
        if abs(s - 1.0) > ROW_TOLERANCE:
            raise ValueError(
                f"{name}={arr.tolist()} sums to {s!r}; allowed: sum = 1 (within {ROW_TOLERANCE:g})"
            )
        out.append(arr / s)
    if out[0].size != out[1].size:
        raise ValueError(f"w0 has {out[0].size} symbols but w1 has {out[1].size}; they must match")
    if np.any(out[0] <= 0):
        raise ValueError(
            f"w0={out[0].tolist()} is not allowed; W0 must have full support (all entries > 0)"
        )
    return out[0], out[1]


def check_k(k: Any, n: int) -> int:
    if isinstance(k, bool) or not float(k).is_integer() or not 0 <= int(k) <= n - 1:
        raise ValueError(f"k={k!r} is not allowed; allowed range [0, {n - 1}] (integer, k <= n-1)")
    return int(k)


def check_m(m: Any) -> int:
    if isinstance(m, bool) or not float(m).is_integer() or int(m) < 1:
        raise ValueError(f"m={m!r} is not allowed; allowed range [1, inf) (integer)")
    return int(m)


# ------------------------------------------------------------ histogram cubes
def _cube_shape(total: int, d: int) -> tuple[int, ...]:
    return (total + 1,) * (d - 1)


def _check_size(total: int, d: int) -> None:
    cells = (total + 1) ** (d - 1)
    if cells > MAX_STATES:
        raise ValueError(
            f"n={total} with d={d} symbols needs {cells} histogram cells; "
            f"allowed at most {MAX_STATES} (reduce n or the alphabet)"
        )


def multinomial_cube(total: int, w: np.ndarray, size: int | None = None) -> np.ndarray:
    r"""Multinomial pmf :math:`\frac{m!}{\prod_y a_y!}\prod_y w(y)^{a_y}` on a dense cube.

    Axis ``y`` (for ``y < d-1``) holds :math:`a_y`; the last count is implicit,
    :math:`a_{d-1} = m - \sum_{y<d-1} a_y`.  Evaluated in log space (``gammaln``) and
    exponentiated once.  ``size`` pads the cube to ``size+1`` cells per axis.
    """
    d = w.size
    size = total if size is None else size
    grids = np.meshgrid(*[np.arange(total + 1)] * (d - 1), indexing="ij", sparse=True)
    last = total - sum(grids)
    ok = last >= 0
    lastc = np.where(ok, last, 0)
    with np.errstate(divide="ignore"):
        logw = np.log(w)
    lp = gammaln(total + 1) - gammaln(lastc + 1)
    # a zero weight has log -inf: 0 * -inf is the intended 0, selected by np.where
    with np.errstate(invalid="ignore"):
        for y, g in enumerate(grids):
            lp = (
                lp
                - gammaln(g + 1)
                + (np.where(g > 0, g * logw[y], 0.0) if w[y] == 0 else g * logw[y])
            )
        lp = lp + (
            np.where(lastc > 0, lastc * logw[d - 1], 0.0) if w[d - 1] == 0 else lastc * logw[d - 1]
        )
    cube = np.where(ok, np.exp(lp), 0.0)
    if size == total:
        return cube
    out = np.zeros(_cube_shape(size, d))
    out[tuple(slice(0, total + 1) for _ in range(d - 1))] = cube
    return out


def add_user(h: np.ndarray, w: np.ndarray) -> np.ndarray:
    r"""One DP step :math:`H'(a) = \sum_y w(y)\,H(a - e_y)` on a dense cube (Shvets 2026, Sec. 8.3).

    The implicit last symbol keeps the cube index; symbol ``y < d-1`` shifts axis ``y``.
    Cells of the cube beyond its edge must be zero (the caller sizes the cube to the
    final total).
    """
    new = h * w[-1]
    for y in range(h.ndim):
        if w[y] == 0:
            continue
        dst = [slice(None)] * h.ndim
        src = [slice(None)] * h.ndim
        dst[y] = slice(1, None)
        src[y] = slice(None, -1)
        new[tuple(dst)] += w[y] * h[tuple(src)]
    return new


def _valid_mask(total: int, d: int) -> np.ndarray:
    grids = np.meshgrid(*[np.arange(total + 1)] * (d - 1), indexing="ij", sparse=True)
    return (total - sum(grids)) >= 0


def cube_histograms(total: int, d: int) -> np.ndarray:
    """All histograms of ``total`` items over ``d`` symbols, in the flattening order used here."""
    idx = np.argwhere(_valid_mask(total, d)) if d > 1 else np.zeros((1, 0), dtype=int)
    last = total - idx.sum(axis=1, keepdims=True)
    return np.hstack([idx, last]).astype(np.int64)


def others_law(w0: np.ndarray, w1: np.ndarray, n: int, k: int) -> np.ndarray:
    r"""Cube of :math:`S = T_{n-1,k}`: :math:`n-1-k` draws from :math:`W_0` and :math:`k` from
    :math:`W_1`, padded to total ``n`` (log-space multinomial of the larger group, DP for the rest)."""
    zeros, ones = n - 1 - k, k
    big_w, small_w, big, small = (w0, w1, zeros, ones) if zeros >= ones else (w1, w0, ones, zeros)
    s = multinomial_cube(big, big_w, size=n)
    return add_users(s, small_w, small, big)


def add_users(h: np.ndarray, w: np.ndarray, steps: int, start: int) -> np.ndarray:
    r"""``steps`` DP steps of :func:`add_user` on a cube whose current total is ``start``.

    Same recurrence, on the C-ordered flat buffer: a shift along axis ``y`` is a shift
    of the flat index by that axis' stride, so every update is a contiguous in-place
    ufunc over the prefix of the buffer that can hold the current total (cells beyond
    it are zero).  No wrap-around occurs because coordinate ``n`` (the cube edge) is
    only reached at total ``n``.
    """
    shape = h.shape
    nd = h.ndim
    size = shape[0]
    a = h.reshape(-1).copy()
    b = np.zeros_like(a)
    tmp = np.empty_like(a)
    strides = [size ** (nd - 1 - y) for y in range(nd)]
    span = sum(strides)
    for j in range(steps):
        m = start + j + 1
        length = min(a.size, m * span + 1)
        A, B = a[:length], b[:length]
        np.multiply(A, w[-1], out=B)
        for y in range(nd):
            o = strides[y]
            if w[y] == 0 or o >= length:
                continue
            t = tmp[: length - o]
            np.multiply(A[: length - o], w[y], out=t)
            np.add(B[o:], t, out=B[o:])
        a, b = b, a
    return a.reshape(shape)


# ---------------------------------------------------------------- the pair
def _jsd_integrand(L: np.ndarray) -> np.ndarray:
    r""":math:`D(\ell) = \tfrac12\ell\log\ell - \tfrac12(1+\ell)\log\tfrac{1+\ell}{2}` (Shvets 2026, Lemma 6.1),
    cancellation-free near :math:`\ell = 1` via :math:`t = (\ell-1)/(\ell+1)`."""
    L = np.asarray(L, dtype=float)
    out = np.empty_like(L)
    t = (L - 1.0) / (L + 1.0)
    near = np.abs(t) < 0.5
    tn = t[near]
    out[near] = (1.0 + L[near]) / 4.0 * (2.0 * tn * np.arctanh(tn) + np.log1p(-tn * tn))
    far = ~near
    Lf = L[far]
    with np.errstate(divide="ignore", invalid="ignore"):
        val = 0.5 * (
            np.where(Lf > 0, Lf * np.log(np.where(Lf > 0, 2 * Lf / (1 + Lf), 1.0)), 0.0)
            + np.log(2.0 / (1.0 + Lf))
        )
    out[far] = val
    return out


CHUNK = 1 << 20  # atoms per pass of the streaming sums (bounded temporaries)


def _chunks(size: int):
    for start in range(0, size, CHUNK):
        yield slice(start, min(size, start + CHUNK))


def hockey_stick(a: np.ndarray, b: np.ndarray, epsilon: float) -> float:
    r""":math:`\sum_N (a(N) - e^{\varepsilon} b(N))_+` (Shvets 2026, Prop. 8.1), singular mass included."""
    e = math.exp(epsilon)
    total = math.fsum(float(np.sum(np.maximum(a[c] - e * b[c], 0.0))) for c in _chunks(a.size))
    return float(min(1.0, total))


def _active_sums(a: np.ndarray, b: np.ndarray, x: float) -> tuple[float, float, int]:
    """``(sum a, sum b, count)`` over the atoms with ``b > 0`` and ``a > x b`` (streamed)."""
    sa, sb, count = [], [], 0
    for c in _chunks(a.size):
        ac, bc = a[c], b[c]
        on = (bc > 0) & (ac > x * bc)
        sa.append(float(np.sum(ac[on])))
        sb.append(float(np.sum(bc[on])))
        count += int(np.count_nonzero(on))
    return math.fsum(sa), math.fsum(sb), count


def directed_epsilon(a: np.ndarray, b: np.ndarray, delta: float) -> float:
    r"""Smallest :math:`\varepsilon \ge 0` with :math:`\sum (a - e^{\varepsilon} b)_+ \le \delta`.

    The curve is a decreasing, piecewise-linear function of :math:`x = e^{\varepsilon}`
    with kinks at the ratios :math:`a/b`; the atoms are sorted by ratio, the segment
    holding the root is located from cumulative sums, and the root is solved on it
    exactly: :math:`x = (\text{sing} + A_j - \delta)/B_j`, then rounded up by the float64
    error budget of the masses (so the returned epsilon is never below the exact root
    by more than round-off; relative excess about 1e-14 * mass / delta).  Returns ``inf`` when the
    singular mass :math:`a(b=0)` already exceeds ``delta``.
    """
    sing = math.fsum(float(np.sum(a[c][b[c] == 0])) for c in _chunks(a.size))
    if sing > delta:
        return math.inf
    if hockey_stick(a, b, 0.0) <= delta:
        return 0.0
    root = _newton_root(a, b, sing, delta)
    if root is not None:
        return root
    return _sorted_root(a, b, sing, delta)


NEWTON_STEPS = 200


def _newton_root(a: np.ndarray, b: np.ndarray, sing: float, delta: float) -> float | None:
    r"""Root of :math:`f(x) = \text{sing} + \sum_{b>0}(a - x b)_+ = \delta` by Newton steps
    from :math:`x = 1`, streaming over the atoms (no sort, bounded memory).

    :math:`f` is convex, decreasing and piecewise linear, so the tangent at :math:`x_i`
    (slope :math:`-B_i`, :math:`B_i` the mass of :math:`b` on the active atoms
    :math:`a > x_i b`) lies below it: every step stays at or left of the root, and when
    the active set no longer changes, :math:`f` is linear up to the root and the step
    lands on it exactly.  Rounded up as in :func:`directed_epsilon`.  ``None`` if
    :data:`NEWTON_STEPS` do not settle (the caller then sorts).
    """
    x = 1.0
    A, Bsum, count = _active_sums(a, b, x)
    for _ in range(NEWTON_STEPS):
        if Bsum <= 0:
            break
        x_new = max(x, (sing + A - delta) / Bsum)
        A2, B2, count2 = _active_sums(a, b, x_new)
        if count2 == count:
            x, A, Bsum = x_new, A2, B2
            break
        x, A, Bsum, count = x_new, A2, B2, count2
    else:
        return None
    if Bsum <= 0:
        return max(0.0, math.log(x)) if x > 0 else 0.0
    x = (sing + A - delta) / Bsum
    x += 64 * np.finfo(float).eps * (sing + A + x * Bsum) / Bsum
    return max(0.0, math.log(x)) if x > 0 else 0.0


def _sorted_root(a: np.ndarray, b: np.ndarray, sing: float, delta: float) -> float:
    """The root located by sorting the atoms by ratio (see :func:`directed_epsilon`)."""
    mask = b > 0
    aa, bb = a[mask], b[mask]
    ratio = aa / bb
    order = np.argsort(-ratio, kind="stable")
    ratio, aa, bb = ratio[order], aa[order], bb[order]
    cum_a = np.concatenate([[0.0], np.cumsum(aa)])
    cum_b = np.concatenate([[0.0], np.cumsum(bb)])
    # value at x = ratio[j] uses the atoms strictly before j
    g = sing + cum_a[:-1] - ratio * cum_b[:-1]
    j = int(np.searchsorted(g, delta, side="right"))  # first j with g_j > delta
    if j >= ratio.size:  # all kinks still above delta: root below the smallest ratio
        j = ratio.size
    x = (sing + cum_a[j] - delta) / cum_b[j]
    # round up: the float value of the curve near the root carries an absolute error of
    # about 64 ulp of the masses involved; moving x by that over the slope cum_b keeps
    # the returned epsilon on the safe side of the exact root
    x += 64 * np.finfo(float).eps * (sing + cum_a[j] + x * cum_b[j]) / cum_b[j]
    if j < ratio.size:
        x = max(x, float(ratio[j]))
    return max(0.0, math.log(x)) if x > 0 else 0.0


def _check_resolvable_delta(delta: Any) -> float:
    d = check_delta(delta)
    if d < MIN_DELTA:
        raise ValueError(
            f"delta={delta!r} is not allowed; allowed range [{MIN_DELTA:g}, 1): smaller targets "
            f"depend on histogram probabilities below the float64 range"
        )
    return d


@dataclass(frozen=True)
class HistogramPair:
    r"""The neighbouring histogram laws :math:`P = T_{n,k}`, :math:`Q = T_{n,k+1}` on all histograms.

    ``p`` and ``q`` are flat arrays over the histograms listed by :meth:`histograms`.
    """

    w0: np.ndarray
    w1: np.ndarray
    n: int
    k: int
    p: np.ndarray = field(repr=False)
    q: np.ndarray = field(repr=False)
    total: int = -1  # items per histogram (n, or n*m for multi-message)

    @property
    def lost_mass(self) -> float:
        """Mass flushed to zero by float64 underflow, ``max(1 - sum p, 1 - sum q)`` (>= 0)."""
        return max(0.0, 1.0 - float(np.sum(self.p)), 1.0 - float(np.sum(self.q)))

    def histograms(self) -> np.ndarray:
        """Histogram of each atom (rows, last column = last symbol)."""
        return cube_histograms(self.total if self.total >= 0 else self.n, self.w0.size)

    @cached_property
    def likelihood_ratio(self) -> np.ndarray:
        r"""Exact :math:`L_{n,k}(N) = Q(N)/P(N)` on :math:`\operatorname{supp} P`, 0 elsewhere (Lemma 4.2)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(self.p > 0, self.q / np.where(self.p > 0, self.p, 1.0), 0.0)

    def delta_qp(self, epsilon: float) -> float:
        r""":math:`\delta_{Q\|P}(\varepsilon) = \mathbb{E}_P(L-e^\varepsilon)_+ + Q(P=0)`."""
        return hockey_stick(self.q, self.p, check_epsilon(epsilon))

    def delta_pq(self, epsilon: float) -> float:
        r""":math:`\delta_{P\|Q}(\varepsilon) = \mathbb{E}_P(1-e^\varepsilon L)_+` (includes :math:`P(Q=0)`)."""
        return hockey_stick(self.p, self.q, check_epsilon(epsilon))

    def delta(self, epsilon: float) -> float:
        """Two-sided curve: the larger of the two directed curves."""
        return max(self.delta_qp(epsilon), self.delta_pq(epsilon))

    def epsilon_qp(self, delta: float) -> float:
        """Smallest eps with delta_Q||P(eps) <= delta (rounded up by the float64 budget)."""
        return directed_epsilon(self.q, self.p, _check_resolvable_delta(delta))

    def epsilon_pq(self, delta: float) -> float:
        """Smallest eps with delta_P||Q(eps) <= delta (rounded up by the float64 budget)."""
        return directed_epsilon(self.p, self.q, _check_resolvable_delta(delta))

    def epsilon(self, delta: float) -> float:
        """Smallest eps with both directed curves <= delta (two-sided)."""
        return max(self.epsilon_qp(delta), self.epsilon_pq(delta))

    def jsd(self) -> float:
        r""":math:`\mathrm{JSD}(P\|Q) = \mathbb{E}_P[D(L)] + \tfrac12\log 2\cdot Q(P=0)` (Shvets 2026, Lemma 6.1)."""
        parts, singular = [], []
        for c in _chunks(self.p.size):  # streamed: bounded temporaries
            p, q = self.p[c], self.q[c]
            sup = p > 0
            parts.append(float(np.sum(p[sup] * _jsd_integrand(q[sup] / p[sup]))))
            singular.append(float(np.sum(q[~sup])))
        return math.fsum(parts) + 0.5 * math.log(2.0) * math.fsum(singular)

    def kl_pq(self) -> float:
        r""":math:`\mathrm{KL}(P\|Q) = \mathbb{E}_P[L-1-\log L] + Q(P=0)` (``inf`` if :math:`P \not\ll Q`)."""
        sup = self.p > 0
        L = self.likelihood_ratio[sup]
        if np.any(L == 0):
            return math.inf
        u = L - 1.0
        return float(np.sum(self.p[sup] * (u - np.log1p(u)))) + float(np.sum(self.q[~sup]))

    def kl_qp(self) -> float:
        r""":math:`\mathrm{KL}(Q\|P) = \mathbb{E}_P[L\log L - (L-1)] - Q(P=0)` (``inf`` if :math:`Q \not\ll P`)."""
        sup = self.p > 0
        if np.sum(self.q[~sup]) > 0:
            return math.inf
        L = self.likelihood_ratio[sup]
        with np.errstate(divide="ignore", invalid="ignore"):
            llogl = np.where(L > 0, L * np.log(np.where(L > 0, L, 1.0)), 0.0)
        return float(np.sum(self.p[sup] * (llogl - (L - 1.0))))

    def chi2_qp(self) -> float:
        r""":math:`\chi^2(Q\|P) = \mathbb{E}_P[(L-1)^2]` (``inf`` if :math:`Q \not\ll P`)."""
        sup = self.p > 0
        if np.sum(self.q[~sup]) > 0:
            return math.inf
        return float(np.sum(self.p[sup] * (self.likelihood_ratio[sup] - 1.0) ** 2))


def _resolved(
    w0: np.ndarray,
    w1: np.ndarray,
    n: int,
    k: int,
    p: np.ndarray,
    q: np.ndarray,
    hist: np.ndarray | None,
    total: int,
    m: int = 1,
) -> HistogramPair:
    r"""Build the pair after removing float64 underflow artefacts.

    The exact supports are known in closed form (W0 has full support): with
    :math:`c(N)` the number of items on symbols where :math:`W_1 = 0`,
    :math:`\operatorname{supp}P = \{c \le \text{total}-k\cdot m\}` and
    :math:`\operatorname{supp}Q = \{c \le \text{total}-(k+1)m\}` (the changed user's
    messages must avoid those symbols under Q).  An atom inside a support whose
    computed probability underflowed to 0 would fake a singular mass; when the other
    law is also negligible there (below 1e-290) the atom is set to zero in both laws
    and counted in :attr:`HistogramPair.lost_mass`.  (If the other law is not
    negligible, the underflowed value is zero to within 1e-308 and is kept as 0.)
    """
    zero_cols = np.flatnonzero(w1 == 0)
    if zero_cols.size and hist is None:
        hist = cube_histograms(total, w0.size)
    c = hist[:, zero_cols].sum(axis=1) if zero_cols.size else np.zeros(p.size, dtype=np.int64)
    p_struct = c <= total - k * m
    q_struct = c <= total - (k + 1) * m
    tiny = 1e-290
    bad = ((p_struct & (p == 0)) | (q_struct & (q == 0))) & (p < tiny) & (q < tiny)
    if np.any(bad):
        p = np.where(bad, 0.0, p)
        q = np.where(bad, 0.0, q)
    return HistogramPair(w0, w1, n, k, p, q, total=total)


def shuffled_pair(w0: Sequence[float], w1: Sequence[float], n: int, k: int = 0) -> HistogramPair:
    r"""Exact laws :math:`T_{n,k}` and :math:`T_{n,k+1}` of a channel on a finite alphabet.

    With ``d <= 3`` symbols by the dynamic program of Shvets 2026, Sec. 8.3 on the dense
    :math:`(n+1)^{d-1}` cube (:math:`\min(k, n-1-k)` steps; the cube is small); with
    ``d >= 4`` by :func:`label_count_laws` (no dense cube).  Cost of the latter: :math:`O(C(n+d-1, d-1)\cdot\min(k+2, n-k+1))` multiply-adds in matrix products
    and :math:`O(C(n+d-1,d-1))` memory (the valid histograms only); e.g. d = 4, n = 300 is
    4.6 M histograms.
    """
    w0a, w1a = check_channel(w0, w1)
    n = check_n(n)
    k = check_k(k, n)
    d = w0a.size
    _check_size(n, d)
    if d <= 3:
        work = float((n + 1) ** (d - 1)) * min(k, n - 1 - k)
    else:
        work = float(math.comb(n + d - 1, d - 1)) * (min(k + 2, n - k + 1) + 1)
    if work > MAX_WORK:
        raise ValueError(
            f"n={n}, k={k} with d={d} symbols needs about {work:.2g} multiply-adds; allowed at "
            f"most {MAX_WORK:.0g} (reduce n or the alphabet)"
        )
    if d <= 3:  # the dense cube is small: the dynamic program is the faster route
        s = others_law(w0a, w1a, n, k)
        mask = _valid_mask(n, d)
        p = add_user(s, w0a)[mask]
        q = add_user(s, w1a)[mask]
    else:
        p, q = label_count_laws(w0a, w1a, n, k)
    return _resolved(w0a, w1a, n, k, p, q, None, n)


def _single_threaded_blas():
    """A context in which BLAS uses one thread: the products here are small, and on a
    shared machine OpenBLAS worker threads spin instead of helping."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional; the result is the same
        from contextlib import nullcontext

        return nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def label_count_laws(
    w0: np.ndarray, w1: np.ndarray, n: int, k: int
) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`T_{n,k}` and :math:`T_{n,k+1}` on the valid histograms (flat, C order of the cube).

    Let every one of :math:`n` users draw a fair label :math:`L\in\{0,1\}` and report
    :math:`Y\sim W_L`.  Conditioned on exactly :math:`k` ones among the labels, the set of
    users labelled 1 is uniform, so the histogram has law :math:`T_{n,k}`.  Given the
    histogram :math:`N`, the labels are independent with
    :math:`P(L=1\mid Y=y) = \pi_y = W_1(y)/(W_0(y)+W_1(y))`, hence

    .. math::
        T_{n,k}(N) = \frac{\mathrm{Mult}(N;\,n,\,\bar W)\;
        \Pr\big[\textstyle\sum_y \mathrm{Bin}(N_y, \pi_y) = k\big]}{\binom{n}{k}2^{-n}},
        \qquad \bar W = (W_0+W_1)/2

    (the same as the convolution of Shvets 2026, Sec. 8.3, without the dynamic program).
    The multinomial and the binomial weight are in log space; the label-count law is a
    convolution of binomial pmfs (all terms non-negative, relative error about
    :math:`(k+2)\cdot 10^{-16}`), split into a prefix (symbols :math:`0..d-3`) and a
    suffix (the last two symbols) and combined by one matrix product per prefix total.
    Counts above :math:`n/2` are taken on the 0-labels instead (degree
    :math:`\min(k+2, n-k+1)`).
    """
    d = w0.size
    wbar = (w0 + w1) / 2  # > 0: W0 has full support (check_channel)
    pi, rest = w1 / (2 * wbar), w0 / (2 * wbar)  # P(L = 1 | Y = y), P(L = 0 | Y = y)
    counts = (k, k + 1)
    if k + 1 > n - k:  # count the 0-labels: n-k and n-k-1 of them
        pi, rest, counts = rest, pi, (n - k, n - k - 1)
    deg = max(counts) + 1  # coefficients 0..deg-1 of the label-count law
    nn = np.arange(n + 1)
    # B[y][N, j] = P(Bin(N, pi_y) = j), j < deg
    B = [_binomial_table(n, deg, float(pi[y]), float(rest[y])) for y in range(d)]
    logw = np.log(wbar)
    lfact = gammaln(nn + 1.0)

    with _single_threaded_blas():
        sums, poly, logpre = _prefix_laws(n, d, deg, B, logw, lfact)
    runs = n - sums + 1
    offsets = np.concatenate([[0], np.cumsum(runs)])
    out_p = np.zeros(int(offsets[-1]))
    out_q = np.zeros(int(offsets[-1]))
    norm = [
        gammaln(n + 1.0) - gammaln(c + 1.0) - gammaln(n - c + 1.0) - n * math.log(2.0)
        for c in (k, k + 1)
    ]
    order = np.argsort(sums, kind="stable")
    bounds = np.searchsorted(sums[order], np.arange(n + 2))
    with _single_threaded_blas():
        _combine(
            n,
            counts,
            norm,
            sums,
            poly,
            logpre,
            order,
            bounds,
            offsets,
            B,
            logw,
            lfact,
            out_p,
            out_q,
        )
    return out_p, out_q


def _binomial_table(n: int, deg: int, p: float, q: float | None = None) -> np.ndarray:
    """``T[N, j] = P(Bin(N, p) = j)`` for ``N <= n``, ``j < deg`` (point masses at p = 0, 1).

    ``q`` is ``1 - p`` formed without cancellation (it may be far below the spacing of floats
    near 1, e.g. 1.6e-58 when ``p`` rounds to 1)."""
    q = 1.0 - p if q is None else q
    N, j = np.arange(n + 1)[:, None], np.arange(deg)[None, :]
    if p > 1e-200 and q > 1e-16:
        return binom.pmf(j, N, p)
    if p > 0.0 and q > 0.0:  # extreme p or q (scipy's pmf loses q or overflows): log space
        with np.errstate(divide="ignore", invalid="ignore"):
            lp = (
                gammaln(N + 1.0)
                - gammaln(j + 1.0)
                - gammaln(np.maximum(N - j, 0) + 1.0)
                + j * math.log(p)
                + (N - j) * math.log(q)
            )
        # cells with j > N are not in the support (their lp is meaningless): exp only where valid
        return np.exp(np.where(j <= N, lp, -np.inf))
    T = np.zeros((n + 1, deg))
    if p <= 0.0:
        T[:, 0] = 1.0
    else:
        m = min(n + 1, deg)
        T[np.arange(m), np.arange(m)] = 1.0
    return T


def _prefix_laws(n, d, deg, B, logw, lfact):
    """Prefixes over symbols ``0..d-3`` in lexicographic order: their totals, label-count
    laws (truncated to ``deg`` coefficients) and log multinomial weights."""
    sums = np.zeros(1, dtype=np.int64)
    poly = np.zeros((1, deg))
    poly[0, 0] = 1.0
    logpre = np.zeros(1)
    for y in range(d - 2):
        runs = n - sums + 1
        offsets = np.concatenate([[0], np.cumsum(runs)])
        total = int(offsets[-1])
        new_sums = np.empty(total, dtype=np.int64)
        new_poly = np.empty((total, deg))
        new_log = np.empty(total)
        for v in range(n + 1):
            rows = np.flatnonzero(sums <= n - v)
            if rows.size == 0:
                break
            target = offsets[rows] + v
            new_poly[target] = poly[rows] @ _toeplitz(B[y][v])
            new_sums[target] = sums[rows] + v
            new_log[target] = logpre[rows] - lfact[v] + v * logw[y]
        sums, poly, logpre = new_sums, new_poly, new_log
    return sums, poly, logpre


TABLE_BYTES = 96 * 2**20  # suffix-law table size up to which the blocked products are used


def _combine(
    n, counts, norm, sums, poly, logpre, order, bounds, offsets, B, logw, lfact, out_p, out_q
) -> None:
    """Fill ``out_p``/``out_q`` (blocked matrix products when the table of suffix laws fits
    in :data:`TABLE_BYTES`, else streamed dot products)."""
    deg = poly.shape[1]
    if (n + 1) * (n + 2) // 2 * deg * 8 <= TABLE_BYTES:
        _combine_table(
            n,
            counts,
            norm,
            sums,
            poly,
            logpre,
            order,
            bounds,
            offsets,
            B,
            logw,
            lfact,
            out_p,
            out_q,
        )
    else:
        _combine_streamed(
            n,
            counts,
            norm,
            sums,
            poly,
            logpre,
            order,
            bounds,
            offsets,
            B,
            logw,
            lfact,
            out_p,
            out_q,
        )


def _combine_table(
    n, counts, norm, sums, poly, logpre, order, bounds, offsets, B, logw, lfact, out_p, out_q
) -> None:
    """For each prefix total ``s``, the block of histograms whose last two counts sum to
    ``n - s`` is one matrix product of prefix laws and (reversed) suffix laws."""
    d = len(B)
    a, b = d - 2, d - 1
    deg = poly.shape[1]
    # suffix laws for (N_a, N_b) = (i, j): row off[i] + j of ``table`` (one product per i)
    off = np.concatenate([[0], np.cumsum(n + 1 - np.arange(n + 1))])
    table = np.empty((int(off[-1]), deg))
    for i in range(n + 1):
        table[off[i] : off[i + 1]] = B[b][: n + 1 - i] @ _toeplitz(B[a][i])
    for s in range(n + 1):
        rows = order[bounds[s] : bounds[s + 1]]
        if rows.size == 0:
            continue
        t = n - s
        i = np.arange(t + 1)
        suffix = table[off[i] + t - i]  # (t+1, deg)
        logsuf = -lfact[i] - lfact[t - i] + i * logw[a] + (t - i) * logw[b]
        logm = lfact[n] + logpre[rows][:, None] + logsuf[None, :]
        idx = offsets[rows][:, None] + i[None, :]
        pre = poly[rows]
        for out, c, lz in ((out_p, counts[0], norm[0]), (out_q, counts[1], norm[1])):
            if c < 0:
                continue
            # coefficient c of prefix * suffix: sum_m prefix[m] * suffix[c - m]
            # (contiguous operands, so that the product runs in BLAS)
            lab = np.ascontiguousarray(pre[:, : c + 1]) @ np.ascontiguousarray(suffix[:, c::-1].T)
            with np.errstate(divide="ignore"):
                out[idx] = np.exp(logm - lz + np.log(lab))


def _combine_streamed(
    n, counts, norm, sums, poly, logpre, order, bounds, offsets, B, logw, lfact, out_p, out_q
) -> None:
    """Fill ``out_p``/``out_q``, one count ``i`` of the second-to-last symbol at a time: the
    suffix laws of ``(i, j)`` for every ``j`` are one matrix product, and each histogram's
    label probability is the dot product of its prefix law with the reversed suffix law
    (streamed over blocks of prefixes, so temporaries stay bounded)."""
    d = len(B)
    a, b = d - 2, d - 1
    block = 8192
    for i in range(n + 1):
        suffix = B[b][: n + 1 - i] @ _toeplitz(B[a][i])  # (n+1-i, deg): j = 0..n-i
        live = order[: bounds[n - i + 1]]  # prefixes with sum <= n-i
        for start in range(0, live.size, block):
            rows = live[start : start + block]
            j = n - i - sums[rows]
            logm = lfact[n] + logpre[rows] - lfact[i] - lfact[j] + i * logw[a] + j * logw[b]
            idx = offsets[rows] + i
            pre, suf = poly[rows], suffix[j]
            for out, c, lz in ((out_p, counts[0], norm[0]), (out_q, counts[1], norm[1])):
                if c < 0:
                    continue
                # coefficient c of prefix * suffix: sum_m prefix[m] * suffix[c - m]
                lab = np.einsum("rm,rm->r", pre[:, : c + 1], suf[:, c::-1])
                with np.errstate(divide="ignore"):
                    out[idx] = np.exp(logm - lz + np.log(lab))


def _toeplitz(pmf: np.ndarray) -> np.ndarray:
    """Upper-triangular Toeplitz matrix ``T[i, j] = pmf[j - i]``: ``row @ T`` is the
    convolution of ``row`` with ``pmf`` truncated to ``len(pmf)`` coefficients."""
    deg = pmf.size
    T = np.zeros((deg, deg))
    for i in range(deg):
        T[i, i:] = pmf[: deg - i]
    return T


def canonical_pair(w0: Sequence[float], w1: Sequence[float], n: int) -> HistogramPair:
    r"""Canonical pair :math:`(T_{n,0}, T_{n,1})` in closed form (Shvets 2026, Lemma 4.1):
    :math:`P = \mathrm{Mult}(n, W_0)` (log space) and
    :math:`L_{n,0}(N) = \frac1n\sum_y N_y W_1(y)/W_0(y)`, :math:`Q = P\,L_{n,0}`."""
    w0a, w1a = check_channel(w0, w1)
    n = check_n(n)
    d = w0a.size
    _check_size(n, d)
    mask = _valid_mask(n, d)
    p = multinomial_cube(n, w0a)[mask]
    hist = cube_histograms(n, d)
    L = hist @ (w1a / w0a) / n
    return _resolved(w0a, w1a, n, 0, p, p * L, hist, n)


def binary_pair(p0: float, p1: float, n: int, k: int = 0) -> HistogramPair:
    r"""Binary output (Shvets 2026, Sec. 8.1): :math:`W_b = (1-p_b, p_b)`; atoms :math:`K = N_1 = 0..n`.

    For :math:`k = 0` the canonical closed form
    :math:`L_{n,0}(K) = \frac{n-K}{n}\frac{1-p_1}{1-p_0} + \frac Kn\frac{p_1}{p_0}` with
    log-space binomial :math:`P(K)` (O(n) terms, any n up to 1e8).  For :math:`k \ge 1` the
    generic DP (O(n min(k, n-1-k)) operations).  Atom ``i`` is the histogram
    :math:`(N_1, N_0) = (i, n-i)`.
    """
    for name, val in (("p0", p0), ("p1", p1)):
        v = float(val)
        if math.isnan(v) or not 0 <= v <= 1:
            raise ValueError(f"{name}={val!r} is not allowed; allowed range [0, 1]")
    p0, p1 = float(p0), float(p1)
    if not 0 < p0 < 1:
        raise ValueError(f"p0={p0!r} is not allowed; allowed range (0, 1) (W0 needs full support)")
    n = check_n(n)
    k = check_k(k, n)
    w0, w1 = np.array([p0, 1 - p0]), np.array([p1, 1 - p1])
    if k > 0:
        return shuffled_pair(w0, w1, n, k)
    K = np.arange(n + 1)
    P = np.exp(binom.logpmf(K, n, p0))
    L = (n - K) / n * ((1 - p1) / (1 - p0)) + K / n * (p1 / p0)
    hist = np.stack([K, n - K], axis=1)
    return _resolved(w0, w1, n, 0, P, P * L, hist, n)


# ---------------------------------------------------------- multi-message
def multi_message_likelihood_ratio(hist: np.ndarray, w: np.ndarray, n: int, m: int) -> np.ndarray:
    r"""Exact unbundled canonical likelihood ratio (Shvets 2026, Sec. 9.1),

    .. math:: L^{(m)}_{n,0}(N) = \binom{nm}{m}^{-1}\sum_{\sum m_y = m}\prod_y \binom{N_y}{m_y} w(y)^{m_y}
              = \binom{nm}{m}^{-1} [x^m] \prod_y (1 + w(y)\,x)^{N_y},

    computed by truncated polynomial multiplication in float64 (all terms non-negative).
    """
    hist = np.asarray(hist, dtype=np.int64)
    j = np.arange(m + 1)
    poly = np.zeros((hist.shape[0], m + 1))
    poly[:, 0] = 1.0
    for y in range(hist.shape[1]):
        Ny = hist[:, y : y + 1]
        # C(N_y, j) w^j, zero for j > N_y
        with np.errstate(divide="ignore"):
            logc = gammaln(Ny + 1) - gammaln(j + 1) - gammaln(np.maximum(Ny - j, 0) + 1)
        coef = np.where(j <= Ny, np.exp(logc) * (w[y] ** j), 0.0)
        new = np.zeros_like(poly)
        for a in range(m + 1):
            new[:, a:] += poly[:, [a]] * coef[:, : m + 1 - a]
        poly = new
    return poly[:, m] / math.comb(n * m, m)


def multi_message_pair(w0: Sequence[float], w1: Sequence[float], n: int, m: int) -> HistogramPair:
    r"""Unbundled m-message canonical pair on message histograms of total :math:`nm`:
    :math:`P = \mathrm{Mult}(nm, W_0)`, :math:`Q = P\,L^{(m)}_{n,0}` (Shvets 2026, Sec. 9.1)."""
    w0a, w1a = check_channel(w0, w1)
    n = check_n(n)
    m = check_m(m)
    d = w0a.size
    total = n * m
    _check_size(total, d)
    mask = _valid_mask(total, d)
    p = multinomial_cube(total, w0a)[mask]
    hist = cube_histograms(total, d)
    L = multi_message_likelihood_ratio(hist, w1a / w0a, n, m)
    return _resolved(w0a, w1a, n, 0, p, p * L, hist, total, m=m)


# ------------------------------------------------------------------ report
def channel_constants(w0: np.ndarray, w1: np.ndarray, pi: float) -> dict:
    r"""Floating-point :math:`I_\pi`, :math:`I^{\rm mix}_\pi`, :math:`\chi^2(W_1\|W_0)` (Shvets 2026, Sec. 3).

    :math:`I_\pi = v^\top\Sigma_\pi^+ v` by a bordered solve
    :math:`\begin{pmatrix}\Sigma_\pi & \mathbf 1\\ \mathbf 1^\top & 0\end{pmatrix}\binom{x}{\lambda} = \binom{v}{0}`
    (the pseudo-inverse restricted to sum-zero vectors, never a generic pinv).
    """
    v = w1 - w0
    sig0 = np.diag(w0) - np.outer(w0, w0)
    sig1 = np.diag(w1) - np.outer(w1, w1)
    sig = (1 - pi) * sig0 + pi * sig1
    d = v.size
    border = np.zeros((d + 1, d + 1))
    border[:d, :d] = sig
    border[:d, d] = 1.0
    border[d, :d] = 1.0
    rhs = np.concatenate([v, [0.0]])
    x = np.linalg.solve(border, rhs)[:d]
    i_pi = float(v @ x)
    f = w0 + pi * v
    with np.errstate(divide="ignore", invalid="ignore"):
        i_mix = float(np.sum(np.where(f > 0, v * v / np.where(f > 0, f, 1.0), 0.0)))
    chi2 = float(np.sum(v * v / w0))
    return {"I_pi": i_pi, "I_mix": i_mix, "chi2": chi2}


#: The keys of :func:`report` and what they are (printed by ``shufflekit histogram --help``).
REPORT_FIELDS: tuple[tuple[str, str], ...] = (
    ("w0, w1", "the channel: output laws of input 0 and input 1"),
    ("n", "number of users"),
    ("ones_among_others", "how many of the other n - 1 users hold input 1 (k)"),
    ("pi", "k / n"),
    ("i_pi", "fixed-composition Fisher constant I_pi (Shvets 2026, Sec. 3)"),
    ("i_mix", "i.i.d.-mixture Fisher constant I_pi^mix"),
    ("chi2", "chi^2(W1 || W0)"),
    ("mu_fixed_composition", "GDP parameter sqrt(i_pi / n)"),
    ("mu_mixture", "GDP parameter sqrt(i_mix / n)"),
    ("lost_mass", "probability flushed below the float64 range (exact laws only)"),
    (
        "p_mass_where_q_is_zero",
        "P(Q = 0): mass of P where Q vanishes (P: the changed user holds 0, Q: it holds 1)",
    ),
    ("jsd", "exact Jensen-Shannon divergence JSD(P, Q) (with --jsd)"),
    ("jsd_times_8n", "8 n JSD, to compare with i_pi (with --jsd)"),
    ("i_pi_over_8n", "i_pi / (8 n) (with --jsd)"),
    ("epsilons[].delta_q_vs_p", "delta_{Q||P}(eps) = sum_N (Q(N) - e^eps P(N))_+"),
    ("epsilons[].delta_p_vs_q", "delta_{P||Q}(eps) = sum_N (P(N) - e^eps Q(N))_+"),
    ("epsilons[].gdp_fixed_composition", "mu-GDP delta at eps, mu = mu_fixed_composition"),
    ("epsilons[].gdp_mixture", "mu-GDP delta at eps, mu = mu_mixture"),
    (
        "deltas[].epsilon_q_vs_p",
        "smallest eps with delta_q_vs_p(eps) <= delta (null + note "
        "when the singular mass exceeds delta)",
    ),
    ("deltas[].epsilon_p_vs_q", "smallest eps with delta_p_vs_q(eps) <= delta (likewise)"),
    ("deltas[].epsilon_two_sided", "the larger of the two"),
)


def report(
    w0: Sequence[float],
    w1: Sequence[float],
    n: int,
    k: int = 0,
    jsd: bool = False,
    epsilons: Sequence[float] | None = None,
    deltas: Sequence[float] | None = None,
) -> dict:
    r"""Everything the ``shufflekit histogram`` command prints, as a dict (keys: :data:`REPORT_FIELDS`).

    Constants at :math:`\pi = k/n`; both directed deltas at each epsilon; GDP values
    :math:`\delta_{\rm GDP}(\varepsilon;\mu)` (Shvets 2026, eq. (9);
    :func:`shufflekit.numeric.methods.gaussian.gdp_delta`) with :math:`\mu = \sqrt{I_\pi/n}` (fixed
    composition) and :math:`\sqrt{I^{\rm mix}_\pi/n}` (mixture); the directed and two-sided
    epsilons for each delta (``inf`` where the singular mass exceeds delta).
    """
    w0a, w1a = check_channel(w0, w1)
    n = check_n(n)
    k = check_k(k, n)
    eps_list = [check_epsilon(e) for e in (epsilons or [])]
    delta_list = [check_delta(d) for d in (deltas or [])]
    pi = k / n
    consts = channel_constants(w0a, w1a, pi)
    mu_fc = math.sqrt(consts["I_pi"] / n)
    mu_mix = math.sqrt(consts["I_mix"] / n)
    out: dict[str, Any] = {
        "w0": [float(x) for x in w0a],
        "w1": [float(x) for x in w1a],
        "n": n,
        "ones_among_others": k,
        "pi": pi,
        "i_pi": consts["I_pi"],
        "i_mix": consts["I_mix"],
        "chi2": consts["chi2"],
        "mu_fixed_composition": mu_fc,
        "mu_mixture": mu_mix,
    }
    need_exact = jsd or eps_list or delta_list
    if need_exact:
        if w0a.size == 2 and k == 0:
            pair = binary_pair(w0a[0], w1a[0], n, 0)
        else:
            pair = shuffled_pair(w0a, w1a, n, k)
        out["lost_mass"] = pair.lost_mass
        out["p_mass_where_q_is_zero"] = float(np.sum(pair.p[pair.q == 0]))
        if jsd:
            val = pair.jsd()
            out["jsd"] = val
            out["jsd_times_8n"] = 8 * n * val
            out["i_pi_over_8n"] = consts["I_pi"] / (8 * n)
        out["epsilons"] = [
            {
                "epsilon": e,
                "delta_q_vs_p": pair.delta_qp(e),
                "delta_p_vs_q": pair.delta_pq(e),
                "gdp_fixed_composition": gdp_delta(e, mu_fc) if mu_fc > 0 else 0.0,
                "gdp_mixture": gdp_delta(e, mu_mix) if mu_mix > 0 else 0.0,
            }
            for e in eps_list
        ]
        out["deltas"] = [
            {
                "delta": d,
                "epsilon_q_vs_p": pair.epsilon_qp(d),
                "epsilon_p_vs_q": pair.epsilon_pq(d),
                "epsilon_two_sided": pair.epsilon(d),
            }
            for d in delta_list
        ]
    return out
