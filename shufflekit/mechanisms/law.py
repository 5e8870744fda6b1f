r"""Probability laws of privacy amplification variables.

:class:`DiscreteLaw` is an exact finite law (atoms and probabilities, sympy or
float valued).  :class:`ContinuousLaw` describes the one-dimensional law of
:math:`\ell_\varepsilon(Y)` for the Gaussian families, where
:math:`\ell_\varepsilon = a + b\,e^{cZ + m} ` with :math:`Z \sim N(0,1)`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp

from shufflekit.mechanisms.ordering import is_zero


@dataclass(frozen=True)
class DiscreteLaw:
    """A finite law: ``P(X = atoms[i]) = probabilities[i]``; equal atoms merged."""

    atoms: tuple
    probabilities: tuple

    @staticmethod
    def from_pairs(pairs: list[tuple[Any, Any]], *, simplify: bool = True) -> DiscreteLaw:
        """Merge atoms that are equal (exactly, for sympy values) and drop zero mass."""
        merged: list[list] = []
        for atom, prob in pairs:
            if is_zero(prob):
                continue
            for slot in merged:
                if is_zero(slot[0] - atom):
                    slot[1] = slot[1] + prob
                    break
            else:
                merged.append([atom, prob])
        if simplify:
            merged = [[_simp(a), _simp(p)] for a, p in merged]
        merged.sort(key=lambda ap: _sort_key(ap[0]))
        return DiscreteLaw(tuple(a for a, _ in merged), tuple(p for _, p in merged))

    def __len__(self) -> int:
        return len(self.atoms)

    def total_mass(self):
        return _simp(sum(self.probabilities))

    def mean(self):
        return _simp(sum(a * p for a, p in zip(self.atoms, self.probabilities)))

    def variance(self):
        m = self.mean()
        return _simp(sum((a - m) ** 2 * p for a, p in zip(self.atoms, self.probabilities)))

    def subs(self, values: Mapping) -> DiscreteLaw:
        return DiscreteLaw.from_pairs(
            [
                (sp.sympify(a).subs(values), sp.sympify(p).subs(values))
                for a, p in zip(self.atoms, self.probabilities)
            ]
        )

    def as_floats(self) -> tuple[list[float], list[float]]:
        return ([float(a) for a in self.atoms], [float(p) for p in self.probabilities])

    def as_dict(self) -> dict:
        return {
            "atoms": [_str(a) for a in self.atoms],
            "probabilities": [_str(p) for p in self.probabilities],
            "atoms_float": _maybe_floats(self.atoms),
            "probabilities_float": _maybe_floats(self.probabilities),
        }


@dataclass(frozen=True)
class ContinuousLaw:
    r"""Law of :math:`\ell_\varepsilon(Y) = a + b\exp(s Z + m)`, :math:`Z\sim N(0,1)`.

    Covers the blanket-mixed Gaussian mechanism against its blanket (Takagi-Liew 2026,
    Appendix C): :math:`a = \gamma - e^\varepsilon`, :math:`b = 1-\gamma`,
    :math:`s = \|x\|/\sigma_0`, :math:`m = -\|x\|^2/(2\sigma_0^2)`.
    """

    a: Any
    b: Any
    s: Any
    m: Any
    description: str

    def as_dict(self) -> dict:
        return {
            "family": "affine-lognormal",
            "description": self.description,
            "formula": "a + b*exp(s*Z + m), Z ~ N(0, 1)",
            "a": _str(self.a),
            "b": _str(self.b),
            "s": _str(self.s),
            "m": _str(self.m),
        }


def _simp(x):
    if isinstance(x, sp.Basic) and any(
        p.exp.is_Integer and abs(int(p.exp)) > 64 for p in x.atoms(sp.Pow)
    ):
        return x  # a large power (lumped alphabets): cancel would expand it term by term
    if isinstance(x, sp.Basic) and x.free_symbols:
        return sp.factor(sp.cancel(x))
    if isinstance(x, sp.Basic) and not x.is_Number:
        return sp.powsimp(sp.cancel(x))
    return x


def _sort_key(a):
    try:
        return (0, float(a))
    except (TypeError, ValueError):
        return (1, sp.default_sort_key(a))


def _str(x) -> str:
    return sp.sstr(x) if isinstance(x, sp.Basic) else repr(x)


def _maybe_floats(xs):
    try:
        return [float(x) for x in xs]
    except (TypeError, ValueError):
        return None
