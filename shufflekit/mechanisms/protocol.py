r"""The contract every local randomizer of shufflekit satisfies.

A mechanism :math:`R` maps an input :math:`x` to a report; shuffling :math:`n` reports amplifies
its local privacy.  Every mechanism class (finite matrices, joint compositions, PrivUnit, the
Gaussian local randomizer, the blanket-mixed Gaussian) offers the same members:

``name``        its registry name (``shufflekit list mechanisms``);
``params``      mapping of its defining parameters (exact sympy numbers or symbols);
``gamma``       blanket mass :math:`\gamma = \int \min_x R_x` (Su-Cheng-Wang 2026, Sec. 3.2);
``blanket()``   the blanket decomposition :math:`R_x = \gamma\omega + (1-\gamma)\mathrm{LO}_x`;
``gparv(epsilon, pair=None)``  law of the amplification variable
                :math:`(R_x - e^{\varepsilon}R_{x'})/(\gamma\omega)` under :math:`\omega`
                (Su-Cheng-Wang 2026, Def. 5.1; Takagi-Liew 2026, App. C), ``None`` without a blanket;
``chi_lo()``, ``chi_up()``  the shuffle indices of Takagi-Liew 2026, Def. 2.4;
``eps0()``      the local :math:`\varepsilon_0` (``oo`` when unbounded);
``summary()``   name and parameters (cheap; accountants record it);
``describe()``  a JSON-ready description with all of the above (``shufflekit mechanism``).

:class:`Adjacency` names the neighbouring relations: ``replace-one`` (two datasets differ in
one user's input) and ``zero-out`` (one user's input is replaced by the null input whose
report follows the blanket, Takagi-Liew 2026, Sec. 2.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol, runtime_checkable


class Adjacency(str, Enum):
    """Neighbouring relation between datasets (compares equal to its string value)."""

    REPLACE_ONE = "replace-one"
    ZERO_OUT = "zero-out"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, value: Any) -> Adjacency:
        """``value`` (an Adjacency or its string) as an :class:`Adjacency`."""
        from shufflekit.errors import InvalidParameter

        try:
            return cls(value)
        except ValueError:
            raise InvalidParameter(
                "adjacency", value, "one of " + ", ".join(a.value for a in cls)
            ) from None


@dataclass(frozen=True)
class ContinuousBlanket:
    r"""Blanket of a continuous mechanism: mass :math:`\gamma` and density :math:`\omega`
    (``None`` when :math:`\gamma = 0`)."""

    gamma: Any
    density: Any = None


class ParamMap(dict):
    """The parameters of a mechanism, read as ``mech.params``.

    Calling it (``mech.params()``) returns the same mapping, so code written when some classes
    exposed ``params`` as a method keeps working.
    """

    def __call__(self) -> ParamMap:
        return self


class Describable:
    """Mixin giving a mechanism class :meth:`summary` and :meth:`describe` from the contract."""

    def summary(self) -> dict:
        """Name and parameters (cheap; see :func:`shufflekit.mechanisms.describe.summary`)."""
        from shufflekit.mechanisms.describe import summary

        return summary(self)

    def describe(self, *, epsilon: Any = 0, adjacency: str | None = None) -> dict:
        """JSON-ready description (see :func:`shufflekit.mechanisms.describe.describe`)."""
        from shufflekit.mechanisms.describe import describe

        return describe(self, epsilon=epsilon, adjacency=adjacency)


@runtime_checkable
class Mechanism(Protocol):
    """What every shufflekit mechanism offers (see the module docstring)."""

    name: str

    @property
    def params(self) -> Mapping[str, Any]: ...

    @property
    def gamma(self) -> Any: ...

    def blanket(self) -> Any: ...

    def gparv(self, epsilon: Any, pair: tuple | None = None) -> Any: ...

    def chi_lo(self) -> Any: ...

    def chi_up(self) -> Any: ...

    def eps0(self) -> Any: ...

    def summary(self) -> dict: ...

    def describe(self, *, epsilon: Any = 0, adjacency: str | None = None) -> dict: ...
