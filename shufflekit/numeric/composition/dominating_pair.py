r"""From a certified upper privacy profile to a dominating pair of distributions.

Notation.  For distributions :math:`P, Q` and :math:`\alpha \ge 0` the hockey-stick curve is
:math:`h_{P\|Q}(\alpha) = \sum_o (P(o) - \alpha Q(o))_+`, so :math:`\delta(\varepsilon) =
h(e^{\varepsilon})`.  A pair :math:`(P, Q)` *dominates* a mechanism :math:`M` when
:math:`h_{M(D)\|M(D')}(\alpha) \le h_{P\|Q}(\alpha)` for every :math:`\alpha \ge 0` and every
ordered neighbouring pair :math:`(D, D')` (Zhu, Dong and Wang 2022, Def. 7).  If each round
of an adaptive composition is dominated by :math:`(P_t, Q_t)`, the product pair
:math:`(\prod P_t, \prod Q_t)` dominates the composition (same paper, Thm 10); that is what
:mod:`shufflekit.numeric.composition.fixed` uses.

Facts about a single hockey-stick curve (any pair; Zhu, Dong and Wang 2022, Sec. 3):
(i) :math:`h` is convex and non-increasing on :math:`[0, \infty)`;
(ii) :math:`h(0) = 1` and :math:`h(\alpha) \ge 1 - \alpha`;
(iii) :math:`h_{P\|Q}(\alpha) = 1 - \alpha + \alpha\,h_{Q\|P}(1/\alpha)` for :math:`\alpha > 0`
(from :math:`(p - \alpha q)_+ = p - \alpha q + \alpha(q - p/\alpha)_+`).

**The construction** (connect-the-dots of Doroshenko, Ghazi, Kamath, Kumar and Manurangsi
2022, applied to certified upper values).  Let :math:`\bar\delta` bound the shuffled curve
from above for *both* orders of every neighbouring pair (the profiles of shufflekit are
maxima over ordered pairs, so a symmetric relation gives this), evaluated at grid points
:math:`\varepsilon_i = i\Delta`, :math:`i \in I`, with :math:`\Delta` a power of two (so
:math:`i\Delta` is exact in float64) and :math:`0 \in I` (every index while the curve is
above :data:`DENSE_FLOOR`, then doubling strides; below, :math:`i = 0..m` runs over
:math:`I`).

1. Monotone repair: :math:`D_i = \max_{j \ge i} \bar\delta(\varepsilon_j)`.  Since the true
   curve is non-increasing, :math:`D_i \ge \bar\delta(\varepsilon_i)` is still an upper value.
2. Values on :math:`\alpha_i = e^{i\Delta}`, :math:`i = -m..m`:
   :math:`u_i = D_i` for :math:`i \ge 0` and :math:`u_{-i} = 1 - \alpha_{-i} + \alpha_{-i} D_i`
   (fact (iii)), plus the point :math:`(0, 1)` (fact (ii), exact).
   Each :math:`u_i \ge h_{M(D)\|M(D')}(\alpha_i)` for every ordered pair.
3. :math:`\bar h` = the lower convex hull of these points, continued flat at level
   :math:`D_m` to the right of :math:`\alpha_m`.

**Theorem.**  :math:`\bar h \ge h_{M(D)\|M(D')}` on all of :math:`[0, \infty)`, including
between grid points, and :math:`\bar h` is the hockey-stick curve of the pair whose privacy
loss :math:`\log(P/Q)` under :math:`P` has atoms
:math:`p_j = \alpha_j q_j` at :math:`\ell_j = \log\alpha_j` (the hull vertices), with
:math:`q_j = s_j^+ - s_j^-` the jump of the slope of :math:`\bar h` at vertex :math:`j`, and
:math:`P`-mass :math:`D_m` at :math:`\ell = +\infty`.

*Proof, between grid points.*  Let :math:`h` be the true curve of one ordered pair.  Every
segment of the hull joins two points :math:`(a, u_a), (b, u_b)` with
:math:`u_a \ge h(a)`, :math:`u_b \ge h(b)`.  For :math:`\alpha = (1-t)a + tb`, convexity of
:math:`h` (fact (i)) gives :math:`h(\alpha) \le (1-t)h(a) + t\,h(b) \le (1-t)u_a + t\,u_b =
\bar h(\alpha)`.  Right of :math:`\alpha_m`, :math:`h(\alpha) \le h(\alpha_m) \le D_m` by
monotonicity.  The hull uses a *subset* of the points, which is allowed because the argument
holds for any chord between two upper points; this is why non-convex upper values
(a profile with a slack error budget) cause no harm: the offending points are skipped.
*Proof, the pair.*  Writing :math:`\bar h(\alpha) = D_m + \sum_j q_j(\alpha_j - \alpha)_+`
(a convex piecewise-linear function with final slope 0), the discrete pair
:math:`P(\ell_j) = p_j, Q(\ell_j) = q_j`, :math:`P(+\infty) = D_m`, plus :math:`Q`-mass
:math:`1 + s_0` on an atom with :math:`P = 0`, has exactly this curve; its masses are
non-negative (convexity: :math:`q_j \ge 0`; the first slope :math:`s_0 \ge -1` because
:math:`u_i \ge 1 - \alpha_i`) and :math:`\sum p_j + D_m = \bar h(0) = 1`. :math:`\square`

**Arithmetic.**  The hull is built in Arb: a vertex is kept only when the slopes on its two
sides are *certainly* increasing (otherwise it is dropped, which the theorem allows), so the
computed vertex set is provably convex; :math:`q_j, p_j` are Arb balls, converted to floats
with the conversion error (radius plus one ulp each) recorded as an :math:`\ell_1` budget
:attr:`PrivacyLossPmf.error` between the float masses and the exact dominating law.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from flint import arb, ctx

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.accountant import Accountant, mechanism_key
from shufflekit.numeric.bound import Kind, round_up
from shufflekit.numeric.kernels.directed_rounding import float_down, float_up
from shufflekit.validation import check_real

#: default loss grid: 2^-10 (about 1e-3), a power of two so that i * grid is exact
DEFAULT_GRID = 2.0**-10
#: stop evaluating the profile once the (repaired) upper delta is at most this; the rest of the
#: curve is bounded by this value and becomes mass at an infinite privacy loss
DEFAULT_TAIL = 1e-20
#: evaluate the profile at every grid point while it is above this level (or for at most
#: MAX_DENSE points); beyond it, at most MAX_COARSE more points with doubling strides
#: (vertices on a subset of the grid are allowed by the theorem), then the last value is
#: kept as mass at infinite loss: the number of evaluations is bounded, never a hang
DENSE_FLOOR = 1e-14
#: ... or once a value below 1e-9 has not halved over this many points (an error floor)
FLAT_SPAN = 32
MAX_DENSE = 20_000
MAX_COARSE = 8
UNIT = 2.0**-53


def check_grid(grid: Any) -> float:
    r"""The loss grid :math:`\Delta`, rounded *down* to a power of two (so :math:`i\Delta` is
    exact)."""
    g = check_real("grid", grid, 0.0, 1.0, lo_open=True)
    return 2.0 ** math.floor(math.log2(g))


@dataclass(frozen=True)
class PrivacyLossPmf:
    r"""The law of the privacy loss :math:`L = \log(P/Q)` under :math:`P`, on the grid
    :math:`k\Delta`.

    ``probs[i]`` is the mass at loss :math:`(\text{offset} + i)\Delta`; ``infinity_mass`` is
    :math:`P(Q = 0)` (loss :math:`+\infty`).  ``error`` bounds the :math:`\ell_1` distance
    between (``probs``, ``infinity_mass``) and the exact masses of the law it stands for
    (round-off; the infinity cell counts as one more cell), and ``kind``
    says how that law relates to the mechanism: ``upper`` (its curve dominates, after moving
    mass only upwards) or ``lower`` (its curve is below the mechanism's).

    :math:`\delta(\varepsilon) = P(L = \infty) + \mathbb{E}_P[(1 - e^{\varepsilon - L})_+]`
    (the hockey-stick curve written as an expectation under :math:`P`).
    """

    grid: float
    offset: int
    probs: np.ndarray = field(repr=False)
    infinity_mass: float
    error: float
    kind: Kind
    rounds: int = 1
    certificate: str = ""

    @property
    def losses(self) -> np.ndarray:
        return (self.offset + np.arange(self.probs.size)) * self.grid

    @property
    def max_loss(self) -> float:
        return (self.offset + self.probs.size - 1) * self.grid

    def delta(self, epsilon: float) -> tuple[float, float, float]:
        r"""``(value, lo, hi)``: the computed :math:`\delta(\varepsilon)` of this law and an
        enclosure of the exact law's value (round-off of the masses and of the sum included)."""
        kmin = math.floor(epsilon / self.grid) + 1 - self.offset  # first index with loss > eps
        kmin = max(kmin, 0)
        tail = self.probs[kmin:]
        if tail.size:
            w = -np.expm1(epsilon - (self.offset + kmin + np.arange(tail.size)) * self.grid)
            s = float(np.dot(tail, w))
        else:
            s = 0.0
        value = self.infinity_mass + s
        # each weight has relative error <= 4u (expm1 and the subtraction of exact grid values
        # from epsilon: one rounding), the dot product of n non-negative terms <= n u
        slack = (tail.size + 8) * UNIT * value * 1.01 + self.error
        return value, max(0.0, value - slack), min(1.0, round_up(value + slack))


def profile_points(
    acc: Accountant,
    grid: float,
    tail: float,
    *,
    knots: str = "grid",
    tolerance: float | None = None,
    floor: float | None = None,
    negligible: Callable[[int, float], bool] | None = None,
) -> tuple[np.ndarray, np.ndarray, list]:
    r"""Upper values :math:`\bar\delta(i\Delta)` at grid indices :math:`0 = i_0 < i_1 < \dots`
    (any subset of the grid serves the module theorem), until a value is ``<= tail``,
    :math:`i\Delta \ge` ``acc.eps_max`` (where delta is 0), or the reach is exhausted (the
    last value then stays as mass at infinite loss).  Returns the indices, the values and the
    bounds.

    ``knots="grid"`` (default): every index while the value is above :data:`DENSE_FLOOR` and
    still falling (at most :data:`MAX_DENSE` of them), then :data:`MAX_COARSE` doubling strides.

    ``knots="adaptive"``: the reach by doubling indices, then a refinement that
    evaluates the midpoint of every interval whose chord may stand more than ``tolerance``
    (default :data:`KNOT_TOLERANCE`) times the curve's value (at least :data:`DENSE_FLOOR`)
    above the curve.  The estimate of that excess uses convexity in :math:`\alpha =
    e^\varepsilon`: the curve lies above the extensions of the neighbouring chords and above
    0 (:func:`chord_excess`).  ``floor`` (default :data:`DENSE_FLOOR`) replaces that minimum;
    ``negligible(index, value)`` marks intervals (by their right end) never worth splitting.
    It only decides where to evaluate; the certificate is the hull's, whatever points are
    chosen.  Measured: a smooth curve (a Gaussian event, noise
    multiplier 2) needs 1462 points instead of 3015 at tolerance 5e-4, composed over 1000
    rounds 5e-5 (relative) above the grid's epsilon; a shuffled k-RR round (k = 10, eps0 = 4,
    n = 1e4) needs about as many points as the grid, its curve being steep at grid scale."""
    kind = Kind(acc.kind)
    if kind not in (Kind.UPPER, Kind.EXACT):
        raise CannotCertify(
            f"method {acc.method} gives {kind} bounds; a dominating pair needs an "
            "upper (or exact) profile"
        )
    if getattr(acc, "pairs", "all") != "all":
        raise CannotCertify(
            f"method {acc.method} bounds only the pair {acc.pairs!r}; a "
            "dominating pair needs a bound over all neighbouring pairs"
        )
    if knots not in ("adaptive", "grid"):
        raise InvalidParameter("knots", knots, "one of adaptive, grid")
    tol = KNOT_TOLERANCE if tolerance is None else check_real("tolerance", tolerance, 0.0, 1.0)
    eps_max = float(getattr(acc, "eps_max", math.inf))
    # eps_max is a float near the local eps0 (a few ulps off at worst): delta = 0 is used only
    # a relative 1e-12 past it; in between, P <= e^{eps0} Q gives
    # delta(eps) <= 1 - e^{eps - eps0} <= eps0 - eps, bounded by the margin itself
    margin = 1e-12 * eps_max if math.isfinite(eps_max) else 0.0
    seen: dict[int, tuple[float, Any]] = {}
    bar = _progress(acc)

    def value(i: int) -> float:
        """The (cached) upper value at index i; 0 beyond eps_max."""
        if i not in seen:
            e = i * grid
            if e >= eps_max + margin:
                seen[i] = (0.0, None)  # every report is eps0-DP: delta(eps) = 0 for eps >= eps0
            else:
                b = acc.get_delta(e)
                if e >= eps_max - margin:
                    b = b.with_(hi=max(b.hi, round_up(2 * margin)))
                seen[i] = (min(1.0, float(b.hi)), b)
                bar.update(1)
        return seen[i][0]

    def final(i: int) -> bool:
        return i * grid >= eps_max + margin or value(i) <= tail

    try:
        if knots == "grid":
            _grid_knots(value, final)
        else:
            _adaptive_knots(
                value,
                final,
                grid,
                tol,
                lambda: list(seen),
                DENSE_FLOOR if floor is None else floor,
                negligible,
            )
    finally:
        bar.close()
    idx = sorted(seen)
    vals = [seen[i][0] for i in idx]
    bounds = [seen[i][1] for i in idx]
    return np.asarray(idx, dtype=np.int64), np.asarray(vals), bounds


#: relative excess of a chord over the curve above which the adaptive knots split an interval
KNOT_TOLERANCE = 5e-4
#: the adaptive reach doubles indices up to this one (the largest the grid knots can reach)
MAX_INDEX = MAX_DENSE << MAX_COARSE


def _grid_knots(value: Callable[[int], float], final: Callable[[int], bool]) -> None:
    """Every index while the value is above DENSE_FLOOR, then doubling strides."""
    vals: list[float] = []
    i, stride, coarse = 0, 1, 0
    while True:
        v = value(i)
        vals.append(v)
        if final(i):
            break
        flat = v <= 1e-9 and len(vals) > FLAT_SPAN and v >= 0.5 * vals[-1 - FLAT_SPAN]
        if v <= DENSE_FLOOR or flat or len(vals) >= MAX_DENSE:
            if coarse >= MAX_COARSE:
                break  # the last value stays as mass at infinite loss
            stride, coarse = stride * 2, coarse + 1
        i += stride


def _adaptive_knots(
    value: Callable[[int], float],
    final: Callable[[int], bool],
    grid: float,
    tol: float,
    known: Callable[[], list[int]],
    floor: float = DENSE_FLOOR,
    negligible: Callable[[int, float], bool] | None = None,
) -> None:
    """The reach by doubling indices, then midpoints where :func:`chord_excess` is too large."""
    value(0)
    last = 0
    i = 1
    while True:
        if final(i) or i >= MAX_INDEX:
            last = i
            break
        i *= 2
    # a few evenly spaced knots, so the first estimates see the curve's shape
    step = max(1, last // 16)
    for j in range(step, last, step):
        value(j)
    while len(known()) < MAX_DENSE:
        idx = sorted(k for k in known() if k <= last)
        pts = [(math.exp(k * grid), value(k)) for k in idx]
        # the mirrored point (fact (iii)) stands left of alpha = 1 for the first interval
        a1 = 1.0 / pts[1][0] if len(pts) > 1 else 0.5
        left = (a1, 1.0 - a1 + a1 * pts[1][1]) if len(pts) > 1 else None
        splits = []
        for k in range(len(idx) - 1):
            if idx[k + 1] - idx[k] < 2:
                continue
            p0 = pts[k - 1] if k > 0 else left
            p3 = pts[k + 2] if k + 2 < len(pts) else None
            if negligible is not None and negligible(idx[k + 1], pts[k][1]):
                continue
            gap, level = chord_excess(p0, pts[k], pts[k + 1], p3)
            if gap > tol * max(level, floor):
                splits.append((idx[k] + idx[k + 1]) // 2)
        if not splits:
            return
        for j in splits[: max(1, MAX_DENSE - len(known()))]:
            value(j)


def chord_excess(
    p0: tuple[float, float] | None,
    p1: tuple[float, float],
    p2: tuple[float, float],
    p3: tuple[float, float] | None,
) -> tuple[float, float]:
    r"""``(gap, level)``: how far the chord from ``p1`` to ``p2`` (points :math:`(\alpha, h)`)
    can stand above a convex curve through the four points, and the chord's value there.  The
    curve lies above the line through ``p0, p1`` right of ``p1``, above the line through
    ``p2, p3`` left of ``p2``, and above 0; the chord minus the largest of these is concave and
    piecewise linear, so its maximum is at a crossing of two of them (or an end)."""
    (a1, v1), (a2, v2) = p1, p2
    sc = (v2 - v1) / (a2 - a1)
    lines = [(0.0, 0.0)]
    if p0 is not None and p0[0] < a1:
        s = (v1 - p0[1]) / (a1 - p0[0])
        lines.append((s, v1 - s * a1))
    if p3 is not None and p3[0] > a2:
        s = (p3[1] - v2) / (p3[0] - a2)
        lines.append((s, v2 - s * a2))
    cands = [a1, a2]
    for j in range(len(lines)):
        for k in range(j + 1, len(lines)):
            (s1, b1), (s2, b2) = lines[j], lines[k]
            if s1 != s2:
                x = (b2 - b1) / (s1 - s2)
                if a1 < x < a2:
                    cands.append(x)
    best, level = 0.0, v2
    for x in cands:
        chord = v1 + sc * (x - a1)
        gap = chord - max(s * x + b for s, b in lines)
        if gap > best:
            best, level = gap, chord
    return best, level


def _progress(acc: Accountant):
    """A progress counter on standard error when it is a terminal (shown after one second)."""
    import sys

    from tqdm import tqdm

    show = bool(getattr(sys.stderr, "isatty", lambda: False)())
    return tqdm(
        desc=f"dominating pair ({acc.method})",
        unit="pt",
        file=sys.stderr,
        disable=not show,
        delay=1.0,
        leave=False,
    )


def hull_pmf(
    upper: np.ndarray,
    grid: float,
    *,
    indices: np.ndarray | None = None,
    reverse: np.ndarray | None = None,
    certificate: str = "",
    vertices: list | None = None,
) -> PrivacyLossPmf:
    r"""The dominating loss law of the module theorem from upper values ``upper[j]`` at
    :math:`\varepsilon = i_j\Delta` (``grid`` = :math:`\Delta`, a power of two), where
    ``indices`` :math:`i_0 = 0 < i_1 < \dots` default to :math:`0, 1, 2, \dots` (any subset
    of the grid is allowed: the theorem only uses chords between evaluated points).

    ``reverse`` (same length), when given, bounds the *reverse* order only
    (:math:`h_{Q\|P}`), and ``upper`` the order :math:`P\|Q` only: the result then dominates
    that one ordered pair (a directed pair, as for a single known neighbouring pair), not the
    mechanism.  By default both orders are bounded by ``upper`` (the symmetric case).

    ``vertices``, when a list, receives ``(grid index, P-mass)`` of every hull vertex with its
    mass as the exact Arb ball (before the conversion to floats), and ``(None, D_m)`` for the
    mass at an infinite loss."""
    u = np.asarray(upper, dtype=float)
    r = u if reverse is None else np.asarray(reverse, dtype=float)
    for name, x in (("upper", u), ("reverse", r)):
        if x.ndim != 1 or x.size < 1 or np.any(~np.isfinite(x)) or np.any(x < 0):
            raise InvalidParameter(name, "array", "finite values in [0, 1]")
    if r.size != u.size:
        raise InvalidParameter("reverse", r.size, f"the length of upper ({u.size})")
    ix = np.arange(u.size, dtype=np.int64) if indices is None else np.asarray(indices, np.int64)
    if ix.shape != u.shape or ix[0] != 0 or np.any(np.diff(ix) <= 0):
        raise InvalidParameter(
            "indices", "array", "increasing grid indices starting at 0, one per value"
        )
    u = np.minimum(u, 1.0)
    D = np.maximum.accumulate(u[::-1])[::-1]  # step 1: monotone repair (upwards)
    R = np.maximum.accumulate(np.minimum(r, 1.0)[::-1])[::-1]
    m = D.size - 1
    old = ctx.prec
    ctx.prec = 80
    try:
        # step 2: points (alpha, value) in Arb, sorted by alpha: (0, 1), then the mirrored
        # indices -i_m .. -i_1 and i_0 .. i_m
        pts: list[tuple[int | None, Any, Any]] = [(None, arb(0), arb(1))]
        for j in range(-m, m + 1):
            i = int(ix[abs(j)]) * (1 if j >= 0 else -1)
            a = arb(i * grid).exp()
            v = arb(D[j]) if j >= 0 else 1 - a + a * arb(R[-j])  # fact (iii), as an Arb ball
            pts.append((i, a, v))
        # step 3: lower convex hull (monotone chain); keep a vertex only if certainly convex
        hull: list[tuple[int | None, Any, Any]] = []
        for p in pts:
            while len(hull) >= 2:
                (_, a0, v0), (_, a1, v1) = hull[-2], hull[-1]
                s_left = (v1 - v0) / (a1 - a0)
                s_right = (p[2] - v1) / (p[1] - a1)
                if s_right > s_left:  # certainly a convex turn: keep hull[-1]
                    break
                hull.pop()  # dropping a point is always allowed
            hull.append(p)
        # the final level D_m: the last point has value D_m exactly (alpha_m); flat afterwards
        slopes = [
            (hull[j + 1][2] - hull[j][2]) / (hull[j + 1][1] - hull[j][1])
            for j in range(len(hull) - 1)
        ] + [arb(0)]
        idx, probs, err = [], [], 0.0
        for j in range(1, len(hull)):
            q = slopes[j] - slopes[j - 1]
            p = hull[j][1] * q
            if vertices is not None:
                vertices.append((hull[j][0], p))
            lo, hi = float_down(p), float_up(p)
            mid = max(0.0, 0.5 * (lo + hi))
            idx.append(hull[j][0])
            probs.append(mid)
            err += (hi - lo) * 0.5 + 2 * UNIT * abs(mid) + 2 * UNIT * max(abs(lo), abs(hi))
        if not slopes[0] >= -1 - 1e-15:
            raise CannotCertify(
                "the profile's values are below 1 - e^eps at some grid point; "
                "they cannot be upper bounds"
            )
    finally:
        ctx.prec = old
    if vertices is not None:
        vertices.append((None, arb(float(D[-1]))))
    off = min(idx)
    dense = np.zeros(max(idx) - off + 1)
    dense[np.asarray(idx) - off] = probs
    return PrivacyLossPmf(
        grid, off, dense, float(D[-1]), round_up(err * 1.01), Kind.UPPER, 1, certificate
    )


@dataclass(frozen=True)
class DominatingPair:
    r"""The dominating pair of one accountant: its loss law, the profile values it rests on."""

    pmf: PrivacyLossPmf
    upper: np.ndarray = field(repr=False)
    indices: np.ndarray = field(repr=False, default=None)
    method: str = ""
    mechanism: Any = None
    n: int = 0
    seconds: float = 0.0

    def delta(self, epsilon: float) -> float:
        r"""The pair's own curve :math:`\bar h(e^{\varepsilon})` (upper end of its enclosure)."""
        return self.pmf.delta(epsilon)[2]


def dominating_pair(
    acc: Accountant,
    *,
    grid: float = DEFAULT_GRID,
    tail: float = DEFAULT_TAIL,
    knots: str = "grid",
) -> DominatingPair:
    r"""The certified dominating pair of ``acc`` (module theorem): evaluate its upper profile on
    :math:`i\Delta` (:func:`profile_points`, ``knots`` as there) until it is ``<= tail`` (or
    zero beyond ``acc.eps_max``), then take the connect-the-dots hull.  A progress counter is
    shown on a terminal when this takes more than a second."""
    grid = check_grid(grid)
    tail = check_real("tail", tail, 0.0, 1.0, lo_open=True, hi_open=True)
    t0 = time.perf_counter()
    idx, vals, _ = profile_points(acc, grid, tail, knots=knots)
    cert = (
        f"connect-the-dots hull (Arb) of the {acc.method} upper profile on a grid of "
        f"{grid:g}; {getattr(acc, 'certificate', '')}"
    )
    pmf = hull_pmf(vals, grid, indices=idx, certificate=cert)
    return DominatingPair(
        pmf, vals, idx, acc.method, acc.mechanism, acc.n, time.perf_counter() - t0
    )


def pair_curve(pmf: PrivacyLossPmf) -> Callable[[float], float]:
    """The hockey-stick curve of the pair as a function of epsilon (upper end)."""
    return lambda e: pmf.delta(e)[2]


# ======================================================================== directed pairs
class _Larger(Accountant):
    """The larger of two curves, evaluated at the same points (keeps both values)."""

    kind = Kind.UPPER

    def __init__(self, a: Accountant, b: Accountant):
        self.a, self.b = a, b
        self.method, self.adjacency, self.n = a.method, a.adjacency, a.n
        self.mechanism, self.certificate = a.mechanism, a.certificate
        self.eps_max = max(float(a.eps_max), float(b.eps_max))
        self.values: dict[float, tuple[float, float]] = {}

    def get_delta(self, epsilon: float):
        x, y = self.a.get_delta(epsilon), self.b.get_delta(epsilon)
        self.values[epsilon] = (min(1.0, float(x.hi)), min(1.0, float(y.hi)))
        return x if x.hi >= y.hi else y


def directed_pair(
    forward: Accountant,
    reverse: Accountant,
    *,
    grid: float = DEFAULT_GRID,
    tail: float = DEFAULT_TAIL,
) -> tuple[PrivacyLossPmf, PrivacyLossPmf]:
    r"""The dominating loss laws of the two orders of one pair whose curves differ:
    ``forward`` bounds :math:`h_{P\|Q}` and ``reverse`` bounds :math:`h_{Q\|P}` (upper or exact
    profiles).  Both are evaluated at the same grid points (those :func:`profile_points` picks
    for the larger curve), and each law is the module theorem's hull with the other curve as
    its mirrored side (``hull_pmf(..., reverse=...)``): the first law dominates the order
    :math:`P\|Q`, the second the order :math:`Q\|P`."""
    grid = check_grid(grid)
    tail = check_real("tail", tail, 0.0, 1.0, lo_open=True, hi_open=True)
    both = _Larger(forward, reverse)
    idx, _, _ = profile_points(both, grid, tail)
    f = np.array([both.values.get(i * grid, (0.0, 0.0))[0] for i in idx])
    r = np.array([both.values.get(i * grid, (0.0, 0.0))[1] for i in idx])
    cert = (
        f"connect-the-dots hull (Arb) of both orders on a grid of {grid:g}; {forward.certificate}"
    )
    return (
        hull_pmf(f, grid, indices=idx, reverse=r, certificate=cert),
        hull_pmf(r, grid, indices=idx, reverse=f, certificate=cert),
    )


# ======================================================================== the cache
#: dominating pairs kept across calls (a key names the round completely: mechanism, n,
#: method, relation, options, grid and tail); the oldest is dropped beyond this many
CACHE_SIZE = 64
_CACHE: dict[Any, DominatingPair] = {}


def cached_dominating_pair(
    acc: Accountant,
    *,
    grid: float = DEFAULT_GRID,
    tail: float = DEFAULT_TAIL,
    key: Any = None,
    build: Callable[..., DominatingPair] | None = None,
) -> DominatingPair:
    """:func:`dominating_pair` of ``acc`` (or ``build``, called the same way), kept for later
    calls under ``key`` (a hashable description of everything the pair depends on besides
    ``grid`` and ``tail``; ``None``: :func:`accountant_key` of ``acc``, or no caching when that
    is ``None``)."""
    build = dominating_pair if build is None else build
    key = accountant_key(acc) if key is None else key
    if key is None:
        return build(acc, grid=grid, tail=tail)
    full = (key, check_grid(grid), float(tail))
    hit = _CACHE.pop(full, None)
    if hit is None:
        hit = build(acc, grid=grid, tail=tail)
        hit.pmf.probs.flags.writeable = False  # shared by every later composition
    _CACHE[full] = hit  # most recent last
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    return hit


def clear_cache() -> None:
    """Forget every cached dominating pair."""
    _CACHE.clear()


def accountant_key(acc: Accountant) -> Any:
    """A cache key for the accountants whose pair depends on nothing else than their class,
    method, relation, n and mechanism (and options they record as ``options``); ``None``
    otherwise."""
    options = getattr(acc, "options", None)
    if options is None:
        return None
    return (
        type(acc).__qualname__,
        acc.method,
        acc.adjacency,
        acc.n,
        mechanism_key(acc.mechanism),
        tuple(sorted((str(k), repr(v)) for k, v in dict(options).items())),
    )
