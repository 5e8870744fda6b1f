r"""The certified lattice engine of continuous randomizers: from a mechanism's likelihood ratios
and CDFs (Arb) to a finite law that dominates its amplification variable.

For a neighbouring pair :math:`(x, x')`, a blanket :math:`R_z \ge \gamma\omega` (every input
:math:`z`) and :math:`Y\sim\omega`, the blanket bound (Balle et al. 2019, Lemma 5.3;
Su-Cheng-Wang 2026, Thm 4) is a functional of the law of

.. math::
    G = \alpha(Y) - e^\varepsilon\beta(Y),\qquad \alpha = \frac{R_x}{\gamma\omega},\quad
    \beta = \frac{R_{x'}}{\gamma\omega},

namely :math:`\tfrac1n E[(\sum_i B_iG_i)_+]` with :math:`B_i\sim\mathrm{Bern}(\gamma)`, and that
functional is non-decreasing in the convex order of the law of :math:`G` and pointwise in
:math:`G` (:math:`(\cdot)_+` of a sum is convex and non-decreasing in each summand).

**Input** (what a mechanism supplies, :class:`Piece`).  The output space is cut into pieces, each
parametrised by a real :math:`t\in[t_0,t_1]` (ends may be infinite), on which

* ``moments(ta, tb)`` gives, in Arb, :math:`P = \omega(C)`, :math:`A = E_\omega[\alpha 1_C] =
  R_x(C)/\gamma` and :math:`B = E_\omega[\beta 1_C] = R_{x'}(C)/\gamma` for the cell
  :math:`C = \{t\in[t_a,t_b]\}` (differences of the three CDFs);
* ``ratios(t)`` gives :math:`(\alpha(t), \beta(t))` in Arb (limits at infinite ends);
* ``shape`` says how :math:`(\alpha,\beta)` moves along :math:`t`: ``point`` (constant),
  ``alpha`` (only :math:`\alpha` varies, monotonically), ``beta`` (only :math:`\beta`),
  ``convex`` / ``concave`` (both strictly monotone in opposite directions, :math:`\beta` a convex /
  concave function of :math:`\alpha`, e.g. :math:`\alpha\beta` constant).

**Output, epsilon-free** (:func:`ratio_law`).  Each cell is replaced by a law on two or three
points whose mean is the cell's :math:`(A, B)/P` (a mean-preserving spread *in the plane*):

* ``point``: one atom at the upper corner :math:`(\bar\alpha, \underline\beta)` of the Arb
  enclosure (a pointwise increase of :math:`G`);
* ``alpha`` / ``beta``: the segment's two end points :math:`a_1 < a_2` (outward-rounded floats,
  widened by a relative :data:`MARGIN`), weights :math:`w_2 = (A - a_1P)/(a_2-a_1)`,
  :math:`w_1 = P - w_2`;
* ``convex`` / ``concave``: the curve lies below / above its chord, so inside the triangle of its
  two end points and the corner :math:`(a_1, b_1)` / :math:`(a_2, b_2)` of its box; the weights are
  the barycentric coordinates of :math:`(A, B)` (affine in the mean, so the spread of each point
  aggregates to them).  Both end points are checked in Arb to lie in the widened float triangle.

Every point of the cell is the mean of its kernel, so for *every* :math:`\varepsilon` the law of
:math:`G` on the atoms dominates the cell's law in convex order: the resulting
:class:`~shufflekit.numeric.kernels.gparv_law.RatioLaw` is consumed unchanged by every method of
finite GPARV laws (``blanket``, ``blanket-fft``).  The margins make every weight positive by
a relative :math:`\ge 2^{-45}`; the Arb radii (precision :data:`PREC`) are checked to be below
one unit of round-off of each weight, so each float weight is within :math:`2u` of its exact
value, inside the error the consumers charge.

**Output, per epsilon** (:func:`discretise`).  A scalar law with CDF :math:`F` and partial first
moment :math:`M(x) = E[L1\{L\le x\}]` in Arb (:class:`ScalarLaw`, e.g. the affine-lognormal law of
the blanket-mixed Gaussian) is put on the lattice :math:`h\mathbb Z\cap[T_{lo},T_{hi}]`: mass
above :math:`T_{hi}` is moved down and its excess :math:`E[(L-T_{hi})_+]` returned (added to
:math:`\delta` by the caller), mass below :math:`T_{lo}` moved up (safe), each cell between lattice
points split onto its ends keeping its mean (:func:`two_point_split`, the same primitive as the
``alpha`` segments above).  Cells are unit in the bulk and double in width every 64 cells in the
tails (:func:`edge_indices`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from shufflekit.errors import CannotCertify
from shufflekit.numeric.kernels.directed_rounding import float_down, float_up

U = 2.0**-53
#: working precision (bits) of the cell moments: radii ~2^-240 keep every weight above
#: ~2^-150 to a relative accuracy far below one unit of round-off
PREC = 256
#: relative widening of every float atom beyond the Arb enclosure of its ratio (keeps every
#: barycentric weight positive by a margin the Arb radii cannot eat)
MARGIN = 2.0**-44


# ============================================================ sympy -> Arb
def arb_function(expr: Any, symbols: Sequence[Any]) -> Callable[..., Any]:
    """``expr`` (sympy) as a function of Arb arguments evaluated in Arb (rationals exact)."""
    import sympy as sp
    from flint import arb

    ns = {
        "mpf": arb,
        "exp": lambda x: arb(x).exp(),
        "expm1": lambda x: arb(x).expm1(),
        "log": lambda x: arb(x).log(),
        "sqrt": lambda x: arb(x).sqrt(),
        "sin": lambda x: arb(x).sin(),
        "cos": lambda x: arb(x).cos(),
        "asin": lambda x: arb(x).asin(),
        "erfc": lambda x: arb(x).erfc(),
        "besselk": lambda nu, x: arb(x).bessel_k(arb(nu)),
        "pi": arb.pi(),
        "e": arb(1).exp(),
        "E": arb(1).exp(),
    }
    f = sp.lambdify(tuple(symbols), expr, modules=[ns, "mpmath"])
    return lambda *args: arb(f(*args))


# ============================================================ epsilon-free: pieces -> RatioLaw
SHAPES = ("point", "alpha", "beta", "convex", "concave")


@dataclass(frozen=True)
class Piece:
    r"""One piece of the output space (see the module docstring).

    ``moments(ta, tb) -> (P, A, B)`` and ``ratios(t) -> (alpha, beta)`` return Arb balls;
    ``cuts(k)`` returns ``k - 1`` interior cut points (floats, increasing) for ``k`` cells."""

    t0: float
    t1: float
    shape: str
    moments: Callable[[Any, Any], tuple]
    ratios: Callable[[Any], tuple]
    cuts: Callable[[int], Sequence[float]] | None = None
    label: str = ""

    def __post_init__(self):
        if self.shape not in SHAPES:
            raise ValueError(f"shape {self.shape!r} is not one of {SHAPES}")


def _widen(lo: float, hi: float) -> tuple[float, float]:
    """Floats strictly outside ``[lo, hi]`` (relative :data:`MARGIN`)."""
    a = lo * (1 - MARGIN) if lo > 0 else lo * (1 + MARGIN) - 1e-300
    b = hi * (1 + MARGIN) if hi > 0 else hi * (1 - MARGIN) + 1e-300
    return a, b


def _ends(ratios, ta: float, tb: float):
    """Float hulls ``(lo, hi)`` of alpha and beta over the cell from its two end points (monotone
    pieces; each end rounded outward on its own: an Arb union would widen by its 30-bit radius),
    and the end points as Arb balls."""
    a1, b1 = ratios(ta)
    a2, b2 = ratios(tb)
    hull_a = (min(float_down(a1), float_down(a2)), max(float_up(a1), float_up(a2)))
    hull_b = (min(float_down(b1), float_down(b2)), max(float_up(b1), float_up(b2)))
    return hull_a, hull_b, (a1, b1), (a2, b2)


def two_point_split(P, M, lo, hi):
    r"""Weights ``(w_lo, w_hi)`` of the mean-preserving law on ``{lo, hi}`` with mass ``P``
    and first moment ``M`` (Arb): :math:`w_{hi} = (M - lo\,P)/(hi - lo)`,
    :math:`w_{lo} = P - w_{hi}`."""
    w_hi = (M - lo * P) / (hi - lo)
    return P - w_hi, w_hi


def spread_cell(shape: str, P, A, B, hull_a, hull_b, end0, end1) -> list[tuple[float, float, Any]]:
    """Atoms ``(alpha, beta, weight)`` (float, float, Arb) of one cell (module docstring)."""
    from flint import arb

    a_lo, a_hi = _widen(*hull_a)
    b_lo, b_hi = _widen(*hull_b)
    if shape == "point":
        return [(a_hi, b_lo, P)]
    if shape == "alpha":
        w1, w2 = two_point_split(P, A, arb(a_lo), arb(a_hi))
        return [(a_lo, b_lo, w1), (a_hi, b_lo, w2)]
    if shape == "beta":
        w1, w2 = two_point_split(P, B, arb(b_lo), arb(b_hi))
        # beta is what e^eps multiplies: keep alpha at its top, spread beta
        return [(a_hi, b_lo, w1), (a_hi, b_hi, w2)]
    # convex / concave: the end points of the curve, and a corner of its box
    (p0a, p0b), (p1a, p1b) = end0, end1
    opposite = (p1a - p0a) * (p1b - p0b) < 0
    if not opposite:
        raise CannotCertify("a convex/concave piece must move alpha and beta in opposite ways")
    # vertices: V1 = (a_hi, b_lo) (largest alpha, smallest beta), V2 = (a_lo, b_hi), V3 corner
    if shape == "convex":
        v3 = (a_lo, b_lo)
    else:
        v3 = (a_hi, b_hi)
    verts = [(a_hi, b_lo), (a_lo, b_hi), v3]
    w = barycentric(verts, P, A, B)
    # the curve's end points must lie in the triangle (then the whole convex/concave arc does)
    for pa, pb in ((p0a, p0b), (p1a, p1b)):
        lam = barycentric(verts, arb(1), pa, pb)
        if any(not (x >= 0) for x in lam):
            raise CannotCertify("a curve end point is not proven inside its float triangle")
    return [(verts[i][0], verts[i][1], w[i]) for i in range(3)]


def barycentric(verts, P, A, B) -> list:
    r"""Arb weights :math:`w` with :math:`\sum w_i = P`, :math:`\sum w_i a_i = A`,
    :math:`\sum w_i b_i = B` for three float vertices (Cramer's rule, exact in Arb)."""
    from flint import arb

    (a1, b1), (a2, b2), (a3, b3) = ((arb(a), arb(b)) for a, b in verts)
    det = (a2 - a1) * (b3 - b1) - (a3 - a1) * (b2 - b1)
    ra, rb = A - a1 * P, B - b1 * P
    w2 = (ra * (b3 - b1) - (a3 - a1) * rb) / det
    w3 = ((a2 - a1) * rb - ra * (b2 - b1)) / det
    return [P - w2 - w3, w2, w3]


def uniform_cuts(t0: float, t1: float, k: int) -> list[float]:
    """``k - 1`` equally spaced interior points of a finite ``[t0, t1]``."""
    return [t0 + (t1 - t0) * i / k for i in range(1, k)]


@dataclass(frozen=True)
class CellAtoms:
    """The atoms of :func:`ratio_law` before they become a RatioLaw: float ratios, Arb weights."""

    alpha: np.ndarray
    beta: np.ndarray
    weight: list


def piece_atoms(pieces: Sequence[Piece], cells: int) -> CellAtoms:
    """Spread every cell of every piece (``cells`` per continuous piece) into atoms."""
    from flint import ctx

    alpha: list[float] = []
    beta: list[float] = []
    weight: list = []
    with ctx.workprec(PREC):
        for pc in pieces:
            if pc.shape == "point":
                edges = [pc.t0, pc.t1]
            else:
                inner = (
                    list(pc.cuts(cells))
                    if pc.cuts is not None
                    else uniform_cuts(pc.t0, pc.t1, cells)
                )
                edges = [pc.t0, *inner, pc.t1]
            for ta, tb in zip(edges, edges[1:], strict=False):
                P, A, B = pc.moments(ta, tb)
                if P == 0:
                    continue
                hull_a, hull_b, e0, e1 = _ends(pc.ratios, ta, tb)
                for a, b, w in spread_cell(pc.shape, P, A, B, hull_a, hull_b, e0, e1):
                    alpha.append(a)
                    beta.append(b)
                    weight.append(w)
    return CellAtoms(np.array(alpha), np.array(beta), weight)


def ratio_law(pieces: Sequence[Piece], gamma, pairs: tuple, *, cells: int = 256) -> Any:
    r"""The epsilon-free :class:`~shufflekit.numeric.kernels.gparv_law.RatioLaw` dominating the
    pair's amplification variable (module docstring); ``gamma`` is the blanket mass (Arb)."""
    from flint import arb, ctx

    from shufflekit.numeric.kernels.gparv_law import RatioLaw, merge_classes

    atoms = piece_atoms(pieces, cells)
    with ctx.workprec(PREC):
        g = arb(gamma)
        w_float = np.empty(len(atoms.weight))
        for i, w in enumerate(atoms.weight):
            ww = w * g  # the law's weights are gamma * omega(cell)
            mid = float(ww.mid())
            if not (ww > 0) or float(ww.rad()) > U * mid:
                raise CannotCertify(
                    f"a cell weight {ww} is not resolved to one unit of round-off "
                    f"(precision {PREC})"
                )
            w_float[i] = mid
        zero = 1 - g
        z_mid = float(zero.mid())
        z_err = 0.0
        if z_mid > 0:
            z_err = (float(zero.rad()) / z_mid + U) * (1 + 1e-9)
    t = merge_classes(atoms.alpha, atoms.beta, w_float)
    return RatioLaw(
        t[:, 0], t[:, 1], t[:, 2], float(np.sum(t[:, 2])), pairs, max(z_mid, 0.0), z_err
    )


# ============================================================ per epsilon: scalar law -> lattice
class ScalarLaw(Protocol):
    """A real law with Arb CDF and partial first moment (what :func:`discretise` needs)."""

    @property
    def degenerate(self) -> bool: ...

    def mean(self) -> float: ...

    def quantile_point(self, z: float) -> float: ...

    @property
    def upward(self) -> float: ...

    def cdf_moment_arb(self, x: Any) -> tuple[Any, Any]: ...

    def excess_arb(self, t: float) -> Any: ...

    def shortfall_arb(self, t: float) -> Any: ...


@dataclass(frozen=True)
class LatticeLaw:
    """A law on ``h * (k0 + arange(len(p)))`` with its certified error terms."""

    h: float
    k0: int
    p: np.ndarray
    excess: float  # E[(L - T_hi)_+], upper end of its Arb ball (added to the bound)
    l1_error: float  # ||p - exact lattice law||_1
    shortfall: float  # E[(T_lo - L)_+] (accuracy only: the lower clamp is on the safe side)

    @property
    def k1(self) -> int:
        return self.k0 + len(self.p) - 1


def truncation_points(law: ScalarLaw, budget: float, h: float) -> tuple[float, float]:
    r"""Lattice points :math:`T_{lo} < T_{hi}` with :math:`E[(L-T_{hi})_+] \le` ``budget`` and
    :math:`E[(T_{lo}-L)_+] \le` ``budget`` (float search on the normal quantile scale of
    ``law.quantile_point``, ``+z`` towards the heavy side; the excess used is recomputed in Arb)."""

    def excess_f(t: float) -> float:
        return float_up(law.excess_arb(t))

    def shortfall_f(t: float) -> float:
        return float_up(law.shortfall_arb(t))

    up = law.upward
    z = 0.0
    t_hi = law.quantile_point(up * z)
    while z < 40 and (not math.isfinite(t_hi) or excess_f(t_hi) > budget):
        z += 0.5
        t_hi = law.quantile_point(up * z)
        if not math.isfinite(t_hi):
            z -= 0.5
            t_hi = law.quantile_point(up * z)
            break
    z = 0.0
    t_lo = law.quantile_point(-up * z)
    while z < 40 and shortfall_f(t_lo) > budget:
        z += 0.5
        t_lo = law.quantile_point(-up * z)
        if not math.isfinite(t_lo):
            z -= 0.5
            t_lo = law.quantile_point(-up * z)
            break
    return math.floor(t_lo / h) * h, math.ceil(t_hi / h) * h


def edge_indices(k0: int, k1: int, ka: int, kb: int, run: int = 64) -> list[int]:
    """Cell edges (lattice indices) from ``k0`` to ``k1``: every index in the bulk ``[ka, kb]``,
    then cells whose width doubles every ``run`` cells towards either end."""
    ka, kb = max(k0, min(ka, k1)), min(k1, max(kb, k0))
    edges = list(range(ka, kb + 1))
    step, count, k = 1, 0, kb
    while k < k1:
        k = min(k + step, k1)
        edges.append(k)
        count += 1
        if count % run == 0:
            step *= 2
    step, count, k, left = 1, 0, ka, []
    while k > k0:
        k = max(k - step, k0)
        left.append(k)
        count += 1
        if count % run == 0:
            step *= 2
    return left[::-1] + edges


def discretise(law: ScalarLaw, h: float, t_lo: float, t_hi: float) -> LatticeLaw:
    r"""The certified lattice law of ``law`` on :math:`h\mathbb Z\cap[T_{lo},T_{hi}]` (module
    docstring); ``t_lo`` and ``t_hi`` are rounded outward to the lattice."""
    from flint import ctx

    with ctx.workprec(106):  # masses near F = 1 keep ~1e-32 absolute accuracy
        return _discretise(law, h, t_lo, t_hi)


def _discretise(law: ScalarLaw, h: float, t_lo: float, t_hi: float) -> LatticeLaw:
    from flint import arb

    k0 = math.floor(t_lo / h)
    k1 = max(math.ceil(t_hi / h), k0 + 1)
    if law.degenerate:
        v = law.mean()
        kv = math.floor(v / h)
        w = (v - kv * h) / h
        return LatticeLaw(h, kv, np.array([1 - w, w]), 0.0, 4 * U, 0.0)
    ha = arb(h)
    # unit cells where the law has its bulk (|z| <= 4.5), wider cells (still ending on lattice
    # points, so the split is still a mean-preserving spread onto the lattice) in the tails
    za, zb = law.quantile_point(-4.5), law.quantile_point(4.5)
    xa, xb = min(za, zb), max(za, zb)
    ka = math.floor(xa / h) if math.isfinite(xa) else k0
    kb = math.ceil(xb / h) if math.isfinite(xb) else k1
    edges = edge_indices(k0, k1, ka, kb)
    f_edges, g_edges = [], []
    for k in edges:
        f, g = law.cdf_moment_arb(ha * k)  # the exact lattice point
        f_edges.append(f)
        g_edges.append(g)
    size = k1 - k0 + 1
    pa = {k: arb(0) for k in edges}
    pa[edges[0]] += f_edges[0]  # below T_lo: moved up to T_lo
    for j in range(len(edges) - 1):
        kl, kr = edges[j], edges[j + 1]
        w_lo, w_hi = two_point_split(
            f_edges[j + 1] - f_edges[j], g_edges[j + 1] - g_edges[j], ha * kl, ha * kr
        )
        pa[kl] += w_lo
        pa[kr] += w_hi
    pa[edges[-1]] += 1 - f_edges[-1]  # above T_hi: moved down to T_hi
    p = np.zeros(size)
    rad = 0.0
    for k, ball in pa.items():
        p[k - k0] = float(ball.mid())
        rad += float(ball.rad())
    l1 = rad + U * float(np.sum(np.abs(p)))
    p = np.maximum(p, 0.0)  # exact masses are >= 0: clipping moves closer
    exc = law.excess_arb(k1 * h)
    short = law.shortfall_arb(k0 * h)
    return LatticeLaw(
        h, k0, p, max(float_up(exc), 0.0), l1 * (1 + 1e-10), max(float_up(short), 0.0)
    )
