r"""The Laplace mechanism on a bounded interval, and its metric-privacy reading.

**Laplace** (Dwork, McSherry, Nissim and Smith 2006): an input :math:`x\in[0, W]` is reported as
:math:`Y = x + \mathrm{Lap}(1/\varepsilon_0)`, density

.. math:: R_x(y) = \frac{\varepsilon_0}{2}e^{-\varepsilon_0|y - x|}.

``laplace`` takes :math:`W = 1` (inputs in :math:`[0,1]`, sensitivity 1, scale
:math:`1/\varepsilon_0`), so it is :math:`\varepsilon_0`-LDP:
:math:`\log R_x/R_{x'} \le \varepsilon_0|x - x'| \le \varepsilon_0`.

``laplace-metric`` is the same mechanism read as a metric-LDP randomizer on the real line
(Andrés, Bordenabe, Chatzikokolakis and Palamidessi 2013; Chatzikokolakis et al. 2013):
:math:`\log R_x/R_{x'} \le \varepsilon_0 d(x,x')`.  A shuffle guarantee needs the users' inputs in
a bounded set (a far-away input hides nothing); here they lie in a segment of length
:math:`W` = ``distance`` and the neighbouring pairs replace one input by one at distance
``distance`` (its end points), so the local :math:`\varepsilon_0` of the pair is
:math:`\varepsilon_0\cdot` ``distance``.

**Blanket** (derived by sympy from the floor): :math:`\max_{z\in[0,W]}|y - z| =
\max(|y|, |y - W|)` (a convex function of :math:`z` peaks at an end), so
:math:`c(y) = \frac{\varepsilon_0}2 e^{-\varepsilon_0\max(|y|,|y-W|)}`,
:math:`\gamma = e^{-\varepsilon_0W/2}` and :math:`\omega = \mathrm{Lap}(W/2, 1/\varepsilon_0)`.

**The accounted pair** is :math:`(0, W)` (and its reverse, the same law mirrored):
:math:`(\alpha,\beta) = (e^{\varepsilon_0W}, 1)` on :math:`y\le0`,
:math:`(e^{\varepsilon_0(W-2y)}, 1)` on :math:`[0, W/2]`, :math:`(1, e^{\varepsilon_0(2y-W)})` on
:math:`[W/2, W]`, :math:`(1, e^{\varepsilon_0W})` on :math:`y\ge W`.  For ``laplace-metric`` it
is the only pair at distance ``distance`` up to reflection.  For ``laplace`` the pairs
:math:`(x, x')` with :math:`|x - x'| < 1` are not proven to be dominated by it (the tests compare
a grid of pairs on both sides of the midpoint; all were below): the bounds name the pairs they
cover.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from shufflekit.mechanisms.continuous import PiecewiseMechanism, y
from shufflekit.mechanisms.parameters import as_param
from shufflekit.mechanisms.protocol import ParamMap

#: largest eps0 * width accepted (the blanket mass e^{-eps0 W / 2} stays a normal float)
MAX_LOCAL_EPS0 = 100


@dataclass(frozen=True, eq=False)
class LaplaceInterval(PiecewiseMechanism):
    r""":math:`Y = x + \mathrm{Lap}(1/\varepsilon_0)` for :math:`x\in[0, W]` (module docstring)."""

    eps0_rate: Any
    width: Any = 1
    name: str = "laplace"

    def __post_init__(self):
        object.__setattr__(
            self, "eps0_rate", as_param(self.eps0_rate, "eps0", low=0, low_open=True)
        )
        object.__setattr__(self, "width", as_param(self.width, "distance", low=0, low_open=True))
        local = self.eps0_rate * self.width
        if not (isinstance(local, sp.Basic) and local.free_symbols):
            as_param(local, "eps0 * distance", low=0, high=MAX_LOCAL_EPS0, low_open=True)

    @property
    def params(self) -> ParamMap:
        if self.name == "laplace-metric":
            return ParamMap(eps0=self.eps0_rate, distance=self.width)
        return ParamMap(eps0=self.eps0_rate)

    @property
    def pairs_note(self) -> str:  # type: ignore[override]
        if self.name == "laplace-metric":
            return (
                f"replace-one pairs at distance {self.width} in a segment of that length "
                "(its end points: every such pair, up to reflection)"
            )
        return (
            "replace-one pairs (0, 1) and (1, 0) (the extreme inputs; interior pairs are not "
            "proven dominated)"
        )

    @property
    def pair(self) -> tuple:
        return (sp.S(0), self.width)

    @property
    def blanket_input(self) -> Any:
        """The input whose output law is the blanket: omega = Lap(W/2, 1/eps0) = R_{W/2}."""
        return self.width / 2

    def density(self, x: Any) -> sp.Expr:
        e = self.eps0_rate
        return e / 2 * sp.exp(-e * sp.Abs(y - x))

    def floor_expr(self) -> sp.Expr:
        e = self.eps0_rate
        return e / 2 * sp.exp(-e * sp.Max(sp.Abs(y), sp.Abs(y - self.width)))

    def breakpoints(self) -> list:
        return [sp.S(0), self.width / 2, self.width]

    def eps0(self) -> Any:
        r"""Local :math:`\varepsilon_0` = the largest log ratio, read off the accounted pair on
        :math:`y \le 0` (where it is :math:`\varepsilon_0 W`, the triangle-inequality bound)."""
        first = self.derived_pieces[0]
        return sp.simplify(sp.log(first.alpha / first.beta))


def laplace(eps0: Any) -> LaplaceInterval:
    """The Laplace mechanism on [0, 1] with scale 1/eps0."""
    return LaplaceInterval(eps0, 1, name="laplace")


def laplace_metric(eps0: Any, distance: Any = 1) -> LaplaceInterval:
    """The metric-LDP Laplace mechanism, pairs at distance ``distance``."""
    return LaplaceInterval(eps0, distance, name="laplace-metric")
