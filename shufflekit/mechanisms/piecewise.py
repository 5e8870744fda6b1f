r"""The piecewise mechanism of Wang, Xiao, Yang, Zhao, Hui, Shin, Shin and Yu 2019 (ICDE,
"Collecting and Analyzing Multidimensional Data with Local Differential Privacy", Algorithm 2).

An input :math:`t\in[-1, 1]` is reported as :math:`Y\in[-C, C]`,
:math:`C = (e^{\varepsilon_0/2}+1)/(e^{\varepsilon_0/2}-1)`, with density

.. math::
    R_t(y) = \begin{cases} p & y\in[\ell(t), r(t)]\\
    p\,e^{-\varepsilon_0} & y\in[-C,C]\setminus[\ell(t),r(t)] \end{cases},\qquad p =
    \frac{e^{\varepsilon_0} - e^{\varepsilon_0/2}}{2e^{\varepsilon_0/2}+2},

:math:`\ell(t) = \tfrac{C+1}2t - \tfrac{C-1}2`, :math:`r(t) = \ell(t) + C - 1`.  (The two
parameters are fixed by total mass one and by the unbiasedness :math:`E[Y] = t`; sympy checks
both in the tests.)

**Blanket** (sympy): every :math:`y\in[-C, C]` lies outside the high interval of :math:`t = 1` or
of :math:`t = -1` (they are :math:`[-C, -1]` and :math:`[1, C]`), so
:math:`c(y) = p\,e^{-\varepsilon_0}` on :math:`[-C,C]`, :math:`\gamma = 2Cp\,e^{-\varepsilon_0}
= e^{-\varepsilon_0/2}` and :math:`\omega` is uniform on :math:`[-C, C]`.

**Worst pair** (proof).  For a pair :math:`(t, t')` the ratios take four values,
:math:`(e^{\varepsilon_0}, 1)` on :math:`H_t\setminus H_{t'}`, :math:`(1, e^{\varepsilon_0})` on
:math:`H_{t'}\setminus H_t`, :math:`(e^{\varepsilon_0}, e^{\varepsilon_0})` on the overlap and
:math:`(1, 1)` elsewhere, with :math:`|H_t| = C - 1` always.  Shrinking the overlap by :math:`d`
moves mass :math:`d/2C` from each of :math:`G = e^{\varepsilon_0}(1-E)` and :math:`G = 1 - E` to
:math:`e^{\varepsilon_0} - E` and :math:`1 - Ee^{\varepsilon_0}` (:math:`E = e^\varepsilon \ge 1`):
the same sum, and the new pair brackets the old one, a mean-preserving spread for every
:math:`\varepsilon`.  So the blanket bound grows as the overlap shrinks, and the pair
:math:`(-1, 1)` (disjoint high intervals) is the worst of all pairs; the zero-out pairs
:math:`(t, \perp)` all have the same law.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from shufflekit.mechanisms.continuous import PiecewiseMechanism, y
from shufflekit.mechanisms.parameters import as_param
from shufflekit.mechanisms.protocol import ParamMap

MAX_EPS0 = 100


def piecewise_constants(eps0: Any) -> tuple[Any, Any]:
    r""":math:`(C, p)` of the piecewise mechanism at :math:`\varepsilon_0`."""
    h = sp.exp(eps0 / 2)
    return (h + 1) / (h - 1), (sp.exp(eps0) - h) / (2 * h + 2)


@dataclass(frozen=True, eq=False)
class PiecewiseMechanismWang(PiecewiseMechanism):
    r"""The piecewise mechanism on :math:`[-1, 1]` (module docstring)."""

    eps0_value: Any
    name: str = "piecewise"
    pairs_note: str = "all replace-one pairs (the worst is (-1, 1), proven by a spread argument)"

    def __post_init__(self):
        object.__setattr__(
            self,
            "eps0_value",
            as_param(self.eps0_value, "eps0", low=0, high=MAX_EPS0, low_open=True),
        )

    @property
    def params(self) -> ParamMap:
        return ParamMap(eps0=self.eps0_value)

    @property
    def pair(self) -> tuple:
        return (sp.S(-1), sp.S(1))

    @property
    def C(self) -> Any:
        return piecewise_constants(self.eps0_value)[0]

    def interval(self, t: Any) -> tuple[Any, Any]:
        """The high-density interval ``[l(t), r(t)]``."""
        c = self.C
        lo = (c + 1) / 2 * t - (c - 1) / 2
        return lo, lo + c - 1

    def density(self, x: Any) -> sp.Expr:
        c, p = piecewise_constants(self.eps0_value)
        lo, hi = self.interval(x)
        low = p * sp.exp(-self.eps0_value)
        return sp.Piecewise((0, y < -c), (low, y < lo), (p, y <= hi), (low, y <= c), (0, True))

    def floor_expr(self) -> sp.Expr:
        c, p = piecewise_constants(self.eps0_value)
        return sp.Piecewise((0, y < -c), (p * sp.exp(-self.eps0_value), y <= c), (0, True))

    def breakpoints(self) -> list:
        c = self.C
        return [-c, sp.S(-1), sp.S(1), c]

    def symbolic_pieces(self):
        """Pieces between the breakpoints, with every Piecewise resolved at an interior point."""
        from shufflekit.mechanisms.continuous import SymbolicPiece, interior_point

        pts = [-sp.oo, *self.breakpoints(), sp.oo]
        x, xp = self.pair
        e = self.eps0_value
        # the order -C < -1 < 1 < C of the breakpoints holds for every eps0 > 0 (C - 1 =
        # 2/(e^{eps0/2} - 1) > 0), so a symbolic eps0 takes its branches at eps0 = 1
        probe = {s: 1 for s in e.free_symbols} if isinstance(e, sp.Basic) else {}
        out = []
        for t0, t1 in zip(pts, pts[1:], strict=False):
            at = interior_point(t0, t1)

            def branch(expr, at=at):
                for val, cond in expr.args:
                    if bool(cond.subs(y, at).subs(probe)):
                        return val
                return sp.S(0)

            out.append(
                SymbolicPiece(
                    t0,
                    t1,
                    branch(self.density(x)),
                    branch(self.density(xp)),
                    branch(self.floor_expr()),
                )
            )
        return out

    def eps0(self) -> Any:
        """The local eps0: the ratio of the two density levels, p / (p e^-eps0)."""
        return self.eps0_value


def piecewise(eps0: Any) -> PiecewiseMechanismWang:
    """The piecewise mechanism of Wang et al. 2019 at local ``eps0``."""
    return PiecewiseMechanismWang(eps0)
