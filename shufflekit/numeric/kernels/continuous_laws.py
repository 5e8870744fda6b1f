r"""GPARV laws of continuous randomizers, through the lattice engine.

A continuous mechanism (:class:`~shufflekit.mechanisms.continuous.PiecewiseMechanism` and the
others that offer ``engine_pieces``) derives, for its accounted pair, the ratios
:math:`\alpha, \beta` and the CDFs of :math:`\omega, R_x, R_{x'}` piece by piece (sympy).  This
module evaluates them in Arb and builds, with
:func:`~shufflekit.numeric.kernels.ratio_lattice.ratio_law`, the epsilon-free
:class:`~shufflekit.numeric.kernels.gparv_law.RatioLaw` s that every finite-law
method consumes (``blanket``, ``blanket-fft``): both orders of the pair for ``replace-one``, the
pair :math:`(x, \perp)` and its reverse for ``zero-out`` (the null input reports the blanket:
:math:`\beta = 1/\gamma`).  For lower bounds it builds the Theorem 5 laws of the *quantized*
experiment (each report replaced by the cell it falls in, a post-processing, so the quantized
divergence is at most the true one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from shufflekit.numeric.kernels.ratio_lattice import PREC, Piece, U, arb_function, ratio_law

#: cells per continuous piece of the epsilon-free law (the blanket methods): the law's variance
#: is inflated by at most (cell width)^2 / 4 per unit mass
CELLS = 48
#: cells per continuous piece of the quantized experiment (the lower bound)
LOWER_CELLS = 12


def is_continuous(mech: Any) -> bool:
    """True for a mechanism whose GPARV laws come from the lattice engine."""
    return hasattr(mech, "engine_pieces") or hasattr(mech, "derived_pieces")


@dataclass(frozen=True)
class ArbPiece:
    """A derived piece evaluated in Arb: ``moments(ta, tb) -> (P, A, B)`` of the forward pair
    and the ratios at a point (the piece's end points are taken exactly, whatever float names
    them)."""

    t0: float
    t1: float
    shape: str
    moments: Any
    alpha: Any
    beta: Any
    label: str


def _arb_piece(dp, label: str) -> ArbPiece:
    import sympy as sp
    from flint import acb, arb

    var = getattr(dp, "variable", None)
    if var is None:
        from shufflekit.mechanisms.continuous import y as var

    def fn(expr):
        return arb_function(sp.sympify(expr), (var,))

    def const(expr):
        return arb_function(sp.sympify(expr), ())

    t0f, t1f = float(dp.t0), float(dp.t1)
    ends = {}
    if math.isfinite(t0f):
        ends[t0f] = const(dp.t0)()
    if math.isfinite(t1f):
        ends[t1f] = const(dp.t1)()

    def exact(t):
        return ends.get(t, arb(t)) if t is not None else None

    def ratio(expr):
        if sp.sympify(expr).has(var):
            f = fn(expr)
            return lambda t: f(exact(t))
        c = const(expr)
        return lambda t: c()

    alpha, beta = ratio(dp.alpha), ratio(dp.beta)
    if getattr(dp, "density", None) is None:  # closed-form cumulative functions
        cdf = tuple(fn(c) for c in (dp.omega_cdf, dp.fx_cdf, dp.fxp_cdf))
        totals = tuple(const(c)() for c in dp.totals)

        def cum(t):
            if t == t0f:
                return arb(0), arb(0), arb(0)
            if t == t1f:
                return totals
            ta = arb(t)
            return tuple(f(ta) for f in cdf)

        def moments(ta, tb):
            a, b = cum(ta), cum(tb)
            return tuple(b[i] - a[i] for i in range(3))

    else:  # closed-form blanket CDF, first moments by rigorous quadrature (acb.integral)
        om = fn(dp.omega_cdf)
        ga = arb_function_complex(sp.sympify(dp.alpha * dp.density), var)
        gb = arb_function_complex(sp.sympify(dp.beta * dp.density), var)

        def moments(ta, tb):
            a, b = exact(ta), exact(tb)
            P = om(b) - om(a)
            A = acb.integral(lambda z, _an: ga(z), acb(a), acb(b)).real
            B = acb.integral(lambda z, _an: gb(z), acb(a), acb(b)).real
            return P, A, B

    return ArbPiece(t0f, t1f, dp.shape, moments, alpha, beta, label)


def arb_function_complex(expr, var):
    """``expr`` (sympy, analytic in ``var``) as a function of an acb argument (for quadrature)."""
    import sympy as sp
    from flint import acb

    # special-function constants (Bessel K at the mechanism's parameters) evaluated once in Arb
    consts = sorted(expr.atoms(sp.besselk), key=sp.default_sort_key)
    names = [sp.Dummy(f"k{i}") for i in range(len(consts))]
    values = [acb(arb_function(c, ())()) for c in consts]
    expr = expr.subs(dict(zip(consts, names, strict=True)))
    ns = {
        "mpf": acb,
        "exp": lambda x: acb(x).exp(),
        "sin": lambda x: acb(x).sin(),
        "cos": lambda x: acb(x).cos(),
        "sqrt": lambda x: acb(x).sqrt(),
        "log": lambda x: acb(x).log(),
        "besselk": lambda nu, x: acb(x).bessel_k(acb(nu)),
        "pi": acb.pi(),
        "E": acb(1).exp(),
        "e": acb(1).exp(),
    }
    f = sp.lambdify((var, *names), expr, modules=[ns, "mpmath"])
    return lambda z: acb(f(z, *values))


def engine_piece(ap: ArbPiece, order: str, gamma) -> Piece:
    """The engine's :class:`Piece` of one order: ``fwd`` (x, x'), ``rev`` (x', x), ``x-bot``
    (x, null), ``bot-x`` (null, x)."""
    inv_g = 1 / gamma

    def moments(ta, tb):
        P, A, B = ap.moments(ta, tb)
        if order == "fwd":
            return P, A, B
        if order == "rev":
            return P, B, A
        if order == "x-bot":
            return P, A, P * inv_g
        return P, P * inv_g, A  # bot-x

    def ratios(t):
        tt = None if math.isinf(t) else t  # infinite ends: point pieces (constant ratios) only
        al, be = ap.alpha(tt), ap.beta(tt)
        if order == "fwd":
            return al, be
        if order == "rev":
            return be, al
        if order == "x-bot":
            return al, inv_g
        return inv_g, al

    shape = ap.shape
    if order == "rev":
        shape = {"alpha": "beta", "beta": "alpha"}.get(shape, shape)
    elif order in ("x-bot", "bot-x"):
        # alpha of the pair's first input varies on alpha segments and on arcs
        varies = shape in ("alpha", "convex", "concave")
        if order == "x-bot":
            shape = "alpha" if varies else "point"
        else:
            shape = "beta" if varies else "point"
    return Piece(ap.t0, ap.t1, shape, moments, ratios, None, ap.label)


def _cuts_for(ap: ArbPiece, cells: int):
    if ap.shape == "point" or not (math.isfinite(ap.t0) and math.isfinite(ap.t1)):
        return None
    return lambda k: [ap.t0 + (ap.t1 - ap.t0) * i / k for i in range(1, k)]


@lru_cache(maxsize=32)
def _arb_pieces(mech) -> tuple:
    from flint import ctx

    with ctx.workprec(PREC):
        out = []
        for i, dp in enumerate(mech.derived_pieces):
            if getattr(dp, "totals", ()) and _is_zero(dp.totals[0]):
                continue
            out.append(_arb_piece(dp, f"piece {i}"))
        return tuple(out)


def _is_zero(expr) -> bool:
    import sympy as sp

    return sp.sympify(expr) == 0


def _gamma_arb(mech):
    import sympy as sp
    from flint import ctx

    with ctx.workprec(PREC):
        return arb_function(sp.sympify(mech.gamma), ())()


ORDERS = {"replace-one": ("fwd", "rev"), "zero-out": ("x-bot", "bot-x")}


@lru_cache(maxsize=32)
def ratio_laws_of(mech, adjacency: str = "replace-one", cells: int | None = None) -> list:
    """The epsilon-free RatioLaws of ``mech`` for ``adjacency`` (module docstring)."""
    from flint import ctx

    cells = CELLS if cells is None else cells
    if hasattr(mech, "engine_pieces"):
        return list(mech.engine_pieces(adjacency, cells))
    x, xp = (str(v) for v in mech.pair)
    labels = {
        "fwd": (x, xp),
        "rev": (xp, x),
        "x-bot": (x, "⊥"),
        "bot-x": ("⊥", x),
    }
    out = []
    with ctx.workprec(PREC):
        g = _gamma_arb(mech)
        for order in ORDERS[adjacency]:
            pieces = []
            for ap in _arb_pieces(mech):
                pc = engine_piece(ap, order, g)
                cuts = _cuts_for(ap, cells)
                pieces.append(Piece(pc.t0, pc.t1, pc.shape, pc.moments, pc.ratios, cuts, pc.label))
            out.append(ratio_law(pieces, g, (labels[order],), cells=cells))
    return out


@lru_cache(maxsize=32)
def quantized_rows(mech, cells: int | None = None) -> tuple[np.ndarray, ...]:
    r"""Float rows :math:`(R_x(C), R_{x'}(C), \omega(C))` over the cells :math:`C` of the accounted
    pair's pieces (a post-processing of the outputs), each entry correctly rounded from Arb
    (relative radius checked below one unit of round-off)."""
    from flint import ctx

    cells = LOWER_CELLS if cells is None else cells
    rows: list[list[float]] = [[], [], []]
    with ctx.workprec(PREC):
        g = _gamma_arb(mech)
        for ap in _arb_pieces(mech):
            pc = engine_piece(ap, "fwd", g)
            cuts = _cuts_for(ap, cells)
            inner = [] if cuts is None else cuts(cells)
            edges = [ap.t0, *inner, ap.t1]
            for ta, tb in zip(edges, edges[1:], strict=False):
                P, A, B = pc.moments(ta, tb)
                for r, v in zip(rows, (A * g, B * g, P), strict=True):
                    mid = float(v.mid())
                    if not (v > 0) or float(v.rad()) > U * mid:
                        from shufflekit.errors import CannotCertify

                        raise CannotCertify(f"a quantized cell probability {v} is not resolved")
                    r.append(mid)
    return tuple(np.array(r) for r in rows)
