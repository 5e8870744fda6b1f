r"""One-dimensional continuous randomizers given piece by piece, and what they derive.

A mechanism of this kind names a neighbouring pair :math:`(x, x')`, the floor
:math:`c(y) = \min_z R_z(y)` over its input domain (the maximal blanket of Balle et al. 2019 and
Su-Cheng-Wang 2026, Sec. 3.2) and a list of :class:`SymbolicPiece` s: intervals of the output
line on which :math:`R_x`, :math:`R_{x'}` and :math:`c` are given by one analytic expression
(no :math:`|\cdot|` or :math:`\max` left).  From these sympy derives

* the blanket mass :math:`\gamma = \int c` and density :math:`\omega = c/\gamma`;
* the likelihood ratios :math:`\alpha = R_x/c`, :math:`\beta = R_{x'}/c` on each piece and how
  they move (``point``, ``alpha``, ``beta``; :func:`shape_of`);
* the cumulative functions :math:`\Omega(t) = \omega((t_0, t])`,
  :math:`F_x(t) = R_x((t_0,t])/\gamma`, :math:`F_{x'}(t)` on each piece (the CDF evaluations of the
  lattice engine);
* :math:`\chi_{lo}^2 = \gamma/\mathrm{Var}_\omega[\alpha_0]`, :math:`\alpha_0 = R_x/(\gamma\omega)`
  for the zero-out pair :math:`(x,\perp)` (Takagi-Liew 2026, Def. 2.4).

The numeric layer evaluates them in Arb (:func:`numeric_pieces`) and hands them to the certified
lattice engine :mod:`shufflekit.numeric.kernels.ratio_lattice`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import sympy as sp

from shufflekit.mechanisms.protocol import ContinuousBlanket, Describable

y = sp.Symbol("y", real=True)


@dataclass(frozen=True)
class SymbolicPiece:
    """``[t0, t1]`` (sympy, may be infinite) with the densities valid on it."""

    t0: Any
    t1: Any
    r_x: sp.Expr
    r_xp: sp.Expr
    floor: sp.Expr


def resolve_abs(expr: sp.Expr, at: Any) -> sp.Expr:
    """``expr`` with every ``Abs`` and ``Max``/``Min`` replaced by the branch it takes at the
    interior point ``at`` (valid on the whole piece when no argument changes sign there)."""

    def branch_abs(arg):
        return arg if sp.sign(arg.subs(y, at)) >= 0 else -arg

    def branch_max(*args):
        vals = [a.subs(y, at) for a in args]
        return args[max(range(len(args)), key=lambda i: vals[i])]

    def branch_min(*args):
        vals = [a.subs(y, at) for a in args]
        return args[min(range(len(args)), key=lambda i: vals[i])]

    out = expr.replace(sp.Abs, branch_abs)
    out = out.replace(sp.Max, branch_max).replace(sp.Min, branch_min)
    return out


def integrate_exponentials(expr: sp.Expr, lo: Any, hi: Any) -> sp.Expr:
    r""":math:`\int_{lo}^{hi}` ``expr`` :math:`dy` for ``expr`` a sum of terms
    :math:`c\,e^{ky + m}` (:math:`c, k, m` free of :math:`y`), by the antiderivative
    :math:`(c/k)e^{ky+m}` (:math:`cy\,e^m` when :math:`k = 0`); infinite limits are taken where the
    term vanishes.  Anything else goes to ``sympy.integrate``."""
    total = sp.S(0)
    for term in sp.Add.make_args(sp.expand(sp.powsimp(expr))):
        if term == 0:
            continue
        coeff, rest = term.as_independent(y, as_Add=False)
        if rest == 1:
            k, m = sp.S(0), sp.S(0)
        elif isinstance(rest, sp.exp):
            arg = sp.expand(rest.args[0])
            k, m = arg.coeff(y, 1), arg.coeff(y, 0)
            if sp.expand(k * y + m - arg) != 0 or k.has(y):
                return sp.integrate(expr, (y, lo, hi))
        else:
            return sp.integrate(expr, (y, lo, hi))

        def value(at, k=k, m=m, coeff=coeff):
            if at in (sp.oo, -sp.oo):
                if k == 0 and coeff != 0:
                    raise ValueError("a constant term does not vanish at an infinite limit")
                sgn = sp.sign(k) * (1 if at == sp.oo else -1)
                if sgn.is_negative:
                    return sp.S(0)
                raise ValueError("an exponential term grows at an infinite limit")
            if k == 0:
                return coeff * at * sp.exp(m)
            return coeff / k * sp.exp(k * at + m)

        total += value(hi) - value(lo)
    return total


def interior_point(t0: Any, t1: Any) -> Any:
    if t0 == -sp.oo:
        return t1 - 1
    if t1 == sp.oo:
        return t0 + 1
    return (t0 + t1) / 2


def shape_of(alpha: sp.Expr, beta: sp.Expr) -> str:
    """``point`` (both constant), ``alpha`` (only alpha varies), ``beta`` (only beta varies)."""
    va, vb = alpha.has(y), beta.has(y)
    if not va and not vb:
        return "point"
    if va and not vb:
        return "alpha"
    if vb and not va:
        return "beta"
    raise NotImplementedError("both ratios vary on one piece: split it further")


@dataclass(frozen=True)
class DerivedPiece:
    """A piece with everything the numeric layer needs, as sympy expressions in ``y``."""

    t0: Any
    t1: Any
    shape: str
    alpha: sp.Expr
    beta: sp.Expr
    omega_cdf: sp.Expr  # omega((t0, y])
    fx_cdf: sp.Expr  # R_x((t0, y]) / gamma
    fxp_cdf: sp.Expr  # R_x'((t0, y]) / gamma
    totals: tuple = ()  # the three cumulative functions at t1 (the piece's masses)


class PiecewiseMechanism(Describable):
    r"""Base of the one-dimensional continuous randomizers (module docstring).

    Subclasses define ``name``, ``params``, ``eps0()``, ``pair`` (the accounted pair, a
    2-tuple of inputs), ``floor_expr()`` (:math:`c(y)`, may contain ``Abs``/``Max``),
    ``density(x)`` (:math:`R_x(y)`) and ``breakpoints()`` (sorted sympy points where a branch
    changes), and ``pairs_note`` (which pairs the accounted ones cover, and why)."""

    name: str = ""
    pairs_note: str = ""

    # ---------------------------------------------------------------- definitions
    def floor_expr(self) -> sp.Expr:  # pragma: no cover - abstract
        raise NotImplementedError

    def density(self, x: Any) -> sp.Expr:  # pragma: no cover - abstract
        raise NotImplementedError

    def breakpoints(self) -> list:  # pragma: no cover - abstract
        raise NotImplementedError

    def eps0(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def pair(self) -> tuple:  # pragma: no cover - abstract
        raise NotImplementedError

    # ---------------------------------------------------------------- derived
    def symbolic_pieces(self) -> list[SymbolicPiece]:
        pts = [-sp.oo, *self.breakpoints(), sp.oo]
        x, xp = self.pair
        out = []
        for t0, t1 in zip(pts, pts[1:], strict=False):
            at = interior_point(t0, t1)
            out.append(
                SymbolicPiece(
                    t0,
                    t1,
                    resolve_abs(self.density(x), at),
                    resolve_abs(self.density(xp), at),
                    resolve_abs(self.floor_expr(), at),
                )
            )
        return out

    @cached_property
    def gamma(self) -> Any:
        r""":math:`\gamma = \int c(y)\,dy` (sympy, piece by piece)."""
        total = sum(
            (integrate_exponentials(p.floor, p.t0, p.t1) for p in self.symbolic_pieces()),
            sp.S(0),
        )
        return sp.simplify(total)

    @cached_property
    def derived_pieces(self) -> list[DerivedPiece]:
        """The pieces of the accounted pair with ratios, shapes and cumulative functions."""
        g = self.gamma
        out = []
        for p in self.symbolic_pieces():
            if p.floor == 0:
                continue
            alpha = sp.simplify(p.r_x / p.floor)
            beta = sp.simplify(p.r_xp / p.floor)

            def cum(expr, p=p):
                return sp.powsimp(integrate_exponentials(expr, p.t0, y))

            dens = (p.floor / g, p.r_x / g, p.r_xp / g)
            totals = tuple(sp.powsimp(integrate_exponentials(d, p.t0, p.t1)) for d in dens)

            out.append(
                DerivedPiece(
                    p.t0,
                    p.t1,
                    shape_of(alpha, beta),
                    alpha,
                    beta,
                    cum(p.floor / g),
                    cum(p.r_x / g),
                    cum(p.r_xp / g),
                    totals,
                )
            )
        return out

    def blanket_density(self) -> sp.Expr:
        r""":math:`\omega(y) = c(y)/\gamma`."""
        return self.floor_expr() / self.gamma

    def blanket(self) -> ContinuousBlanket:
        """The maximal blanket: mass gamma and density omega = floor / gamma."""
        return ContinuousBlanket(gamma=self.gamma, density=self.blanket_density())

    def variance_alpha0(self) -> Any:
        r""":math:`\mathrm{Var}_\omega[R_x/\omega] = \int R_x^2/\omega - 1` for the first input
        of the pair (sympy, piece by piece)."""
        g = self.gamma
        total = sp.S(0)
        for p in self.symbolic_pieces():
            if p.floor == 0:
                continue
            total += integrate_exponentials(p.r_x**2 * g / p.floor, p.t0, p.t1)
        return sp.simplify(total - 1)

    def chi_lo(self) -> Any:
        r""":math:`\chi_{lo} = \sqrt{\gamma/\mathrm{Var}_\omega[R_x/\omega]}` at the accounted
        input :math:`x` (Takagi-Liew 2026, Def. 2.4)."""
        return sp.simplify(sp.sqrt(self.gamma / self.variance_alpha0()))

    def chi_up(self) -> None:
        """None: the index of Takagi-Liew 2026 with a reference input is not derived here."""
        return None

    def gparv(self, epsilon: Any, pair: tuple | None = None) -> PiecewiseLaw:
        """The amplification variable of the accounted pair, piece by piece (sympy)."""
        from shufflekit.mechanisms.parameters import check_law_epsilon

        eps = check_law_epsilon(epsilon)
        return PiecewiseLaw(tuple(self.derived_pieces), eps, self.pair, self.gamma, self.pairs_note)

    def latex(self) -> dict[str, str]:
        """LaTeX of the derived quantities (blanket, ratios per piece, eps0, chi_lo)."""
        out = {
            "gamma": sp.latex(self.gamma),
            "omega": sp.latex(sp.simplify(self.blanket_density())),
            "eps0": sp.latex(self.eps0()),
            "chi_lo": sp.latex(self.chi_lo()),
        }
        for i, p in enumerate(self.derived_pieces):
            rng = rf"y \in [{sp.latex(p.t0)}, {sp.latex(p.t1)}]"
            out[f"piece_{i}"] = (
                rf"{rng}:\ \alpha = {sp.latex(p.alpha)},\ \beta = {sp.latex(p.beta)}"
            )
        return out

    def describe(self, *, epsilon: Any = 0, adjacency: str | None = None) -> dict:
        """JSON-ready description (the shared one plus the LaTeX of the derived quantities)."""
        from shufflekit.mechanisms.describe import describe

        out = describe(self, epsilon=epsilon, adjacency="zero-out")
        try:
            out["latex"] = self.latex()
        except (TypeError, ValueError) as exc:  # pragma: no cover - symbolic corner cases
            out["latex"] = {"note": str(exc)}
        out["pairs"] = self.pairs_note
        return out

    def numeric_eps0(self) -> float:
        """The local eps0 as a float rounded up (what the blanket methods cap epsilon with)."""
        import mpmath

        from shufflekit.numeric.kernels.directed_rounding import float_up

        with mpmath.workdps(40):
            return float_up(mpmath.mpf(sp.N(self.eps0(), 40))) * (1 + 2.0**-50)


@dataclass(frozen=True)
class PiecewiseLaw:
    r"""The amplification variable :math:`G = \alpha - e^\varepsilon\beta` of one pair, piece by
    piece, under the blanket :math:`\omega` (zero with probability :math:`1-\gamma`)."""

    pieces: tuple
    epsilon: Any
    pair: tuple
    gamma: Any
    note: str = ""

    def as_dict(self) -> dict:
        e = sp.exp(self.epsilon)
        return {
            "family": "piecewise",
            "pair": [str(v) for v in self.pair],
            "gamma": sp.sstr(self.gamma),
            "note": self.note,
            "pieces": [
                {
                    "range": [sp.sstr(p.t0), sp.sstr(p.t1)],
                    "shape": p.shape,
                    "alpha": sp.sstr(p.alpha),
                    "beta": sp.sstr(p.beta),
                    "G": sp.sstr(sp.simplify(p.alpha - e * p.beta)),
                    "omega_mass": sp.sstr(sp.simplify(p.totals[0])),
                }
                for p in self.pieces
            ],
        }
