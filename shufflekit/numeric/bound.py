r"""The value every accountant returns: a :class:`Bound`, an interval with a direction.

A :class:`Bound` on :math:`\delta(\varepsilon)` (or on :math:`\varepsilon(\delta)`) carries

``lo, hi``     an enclosure of the number the *method* computes, in float64 rounded outward;
``kind``       how that number relates to the true value of the mechanism:

               * ``upper``      the true value is ``<= hi`` (proven);
               * ``lower``      the true value is ``>= lo`` (proven);
               * ``exact``      the true value lies in ``[lo, hi]`` (proven);
               * ``asymptotic`` an approximation without a certificate (e.g. it rests on an
                 open conjecture or drops a remainder of known order only);
               * ``heuristic``  a number with no proven relation to the true value, or one
                 proven only for a named neighbouring pair (``pairs`` says which);
``adjacency``  the neighbouring relation (``replace-one``, ``zero-out``; ``n/a`` where the
               mechanism has a single sensitivity, e.g. the central Gaussian);
``pairs``      ``all`` when the bound holds over all neighbouring pairs of that relation, or
               a description of the one pair it is about;
``certificate`` what the enclosure rests on (the theorem and the arithmetic).

:attr:`Bound.value` is the end that is safe to publish: ``hi`` for an upper bound, ``lo``
for a lower bound, the midpoint otherwise.

Ball arithmetic: :func:`~shufflekit.numeric.kernels.directed_rounding.interval_of_arb` turns a
python-flint ``arb`` ball into the tightest float interval containing it (exact comparisons,
no underflow to the unsafe side), so a value computed in Arb keeps its certificate when it is
reported as floats.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from enum import Enum
from typing import Any, Literal

from shufflekit.errors import InvalidParameter
from shufflekit.numeric.kernels.directed_rounding import (  # noqa: F401
    float_down,
    float_up,
    interval_of_arb,
    round_down,
    round_up,
)


class Kind(str, Enum):
    """What a :class:`Bound` proves about the true value."""

    UPPER = "upper"
    LOWER = "lower"
    EXACT = "exact"
    ASYMPTOTIC = "asymptotic"
    HEURISTIC = "heuristic"

    def __str__(self) -> str:  # "upper", not "Kind.UPPER"
        return self.value


#: The kinds whose numbers are certified enclosures (the others carry no proof).
CERTIFIED_KINDS = (Kind.UPPER, Kind.LOWER, Kind.EXACT)

Quantity = Literal["delta", "epsilon"]


@dataclass(frozen=True)
class Bound:
    r"""An enclosure of :math:`\delta(\varepsilon)` or :math:`\varepsilon(\delta)` with its meaning.

    ``quantity`` is ``"delta"`` (then ``at`` is the epsilon it was evaluated at) or
    ``"epsilon"`` (then ``at`` is the target delta).  See the module docstring for the fields.

    >>> import shufflekit as sk
    >>> b = sk.accountant(sk.make("rr", eps0=1), n=1000, method="hoeffding").get_delta(0.5)
    >>> b.quantity, b.at, b.kind.value, b.method
    ('delta', 0.5, 'upper', 'hoeffding')
    >>> b.lo <= b.hi and float(b) == b.value == b.hi      # the end safe to publish
    True
    """

    quantity: Quantity
    at: float
    lo: float
    hi: float
    kind: Kind
    method: str
    adjacency: str
    pairs: str = "all"
    certificate: str = ""
    note: str = ""
    seconds: float = 0.0

    def __post_init__(self):
        object.__setattr__(self, "kind", Kind(self.kind))
        if self.quantity not in ("delta", "epsilon"):
            raise InvalidParameter("quantity", self.quantity, "one of delta, epsilon")
        if math.isnan(self.lo) or math.isnan(self.hi) or self.lo > self.hi:
            raise ValueError(f"invalid enclosure [{self.lo!r}, {self.hi!r}] for {self.method}")

    # ---------------------------------------------------------------- reading
    @property
    def value(self) -> float:
        """The end that is safe to report: ``hi`` (upper), ``lo`` (lower), else the midpoint."""
        if self.kind is Kind.UPPER:
            return self.hi
        if self.kind is Kind.LOWER:
            return self.lo
        return 0.5 * (self.lo + self.hi)

    @property
    def width(self) -> float:
        return self.hi - self.lo

    @property
    def certified(self) -> bool:
        return self.kind in CERTIFIED_KINDS

    @property
    def epsilon(self) -> float:
        """The epsilon of the point: ``at`` for a delta bound, :attr:`value` for an epsilon bound."""
        return self.at if self.quantity == "delta" else self.value

    @property
    def delta(self) -> float:
        """The delta of the point: ``at`` for an epsilon bound, :attr:`value` for a delta bound."""
        return self.at if self.quantity == "epsilon" else self.value

    def contains(self, x: float) -> bool:
        return self.lo <= x <= self.hi

    def __float__(self) -> float:
        """:attr:`value`, the end that is safe for the kind (``hi`` of an upper bound, ``lo``
        of a lower bound): ``float(b) < 1e-6`` reads as "delta is proven below 1e-6" for an
        upper bound."""
        return self.value

    def _cmp(self, other: Any) -> float:
        if isinstance(other, Bound):
            return other.value
        return float(other)

    def __lt__(self, other: Any) -> bool:
        return self.value < self._cmp(other)

    def __le__(self, other: Any) -> bool:
        return self.value <= self._cmp(other)

    def __gt__(self, other: Any) -> bool:
        return self.value > self._cmp(other)

    def __ge__(self, other: Any) -> bool:
        return self.value >= self._cmp(other)

    # ------------------------------------------------------------- building
    @classmethod
    def from_arb(cls, quantity: Quantity, at: float, ball: Any, **fields: Any) -> Bound:
        """A bound whose enclosure is the Arb ball ``ball`` (rounded outward to floats)."""
        lo, hi = interval_of_arb(ball)
        if quantity == "delta":  # a hockey-stick divergence lies in [0, 1]
            lo, hi = min(max(lo, 0.0), 1.0), min(max(hi, 0.0), 1.0)
        return cls(quantity, float(at), lo, hi, **fields)

    def with_(self, **changes: Any) -> Bound:
        return replace(self, **changes)

    # ------------------------------------------------------------- printing
    def point(self) -> dict:
        """The point shape shared by every command: epsilon, delta, bound, error, lo, hi, ..."""
        return {
            "epsilon": self.epsilon,
            "delta": self.delta,
            "bound": str(self.kind),
            "error": self.width,
            "quantity": self.quantity,
            "lo": self.lo,
            "hi": self.hi,
            "method": self.method,
            "adjacency": self.adjacency,
            "pairs": self.pairs,
            "certificate": self.certificate,
            "note": self.note,
            "seconds": round(self.seconds, 6),
        }

    def as_dict(self) -> dict:
        d = asdict(self)
        d["kind"] = str(self.kind)
        return d

    def __str__(self) -> str:
        sym = "delta" if self.quantity == "delta" else "epsilon"
        arg = "epsilon" if self.quantity == "delta" else "delta"
        text = (
            f"{sym}({arg}={self.at:.6g}) {self.kind}: {self.value:.10g} "
            f"in [{self.lo:.10g}, {self.hi:.10g}]  [{self.method}, {self.adjacency}, "
            f"pairs: {self.pairs}]"
        )
        return text + (f"  note: {self.note}" if self.note else "")
