r"""A derived result with its provenance: the :class:`Derivation` record.

A derivation carries the sympy result (an expression or a :class:`Series`), the
symbols it depends on, the assumptions under which it holds, the paper and
equation it reproduces, and the intermediate steps (each a short description
with the sympy expression obtained at that step).  ``latex()`` renders the
steps as an ``align*`` environment that compiles in a plain ``article``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

import sympy as sp

from shufflekit.symbolic.series import Series


def _latex_of(value: Any, name: str | None = None) -> str:
    if isinstance(value, Series):
        return value.latex(name)
    if isinstance(value, sp.Basic):
        return sp.latex(value)
    if isinstance(value, bool):
        return r"\text{true}" if value else r"\text{false}"
    return sp.latex(sp.sympify(value))


def _escape_text(text: str) -> str:
    out = text
    for ch, rep in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"),
                    ("#", r"\#"), ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"),
                    ("^", r"\textasciicircum{}")):
        out = out.replace(ch, rep)
    return out


@dataclass(frozen=True)
class Derivation:
    r"""One derived result.

    ``id``          catalogue key, e.g. ``"bmg.chi-lo"``.
    ``title``       one line of plain text.
    ``result``      sympy expression or :class:`Series`.
    ``variables``   the free symbols the result depends on.
    ``assumptions`` plain-text conditions (``"sigma0 > 0"``, ``"chi -> oo"``).
    ``source``      paper and equation, e.g. ``"seed 000, Thm 4.1 / App. A.6"``.
    ``steps``       ``((description, expr), ...)`` in the order they were derived.
    ``lhs``         LaTeX of the left-hand side of the result (e.g. ``\chi_{lo}^2``).
    """

    id: str
    title: str
    result: Any
    variables: tuple = ()
    assumptions: tuple = ()
    source: str = ""
    steps: tuple = ()
    lhs: str = ""
    notes: str = ""
    extras: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_series(self) -> bool:
        return isinstance(self.result, Series)

    def subs(self, values: Mapping) -> "Derivation":
        """Substitute values for symbols in the result and in every step."""
        def sub(v):
            if isinstance(v, Series):
                return v.subs(values)
            if isinstance(v, sp.Basic):
                return v.subs(values)
            return v
        return replace(self, result=sub(self.result),
                       steps=tuple((d, sub(e)) for d, e in self.steps),
                       variables=tuple(v for v in self.variables if v not in values))

    def latex(self) -> str:
        """A LaTeX fragment: title, source, assumptions and an ``align*`` of the steps."""
        lines = [rf"\paragraph{{{_escape_text(self.id)}: {_escape_text(self.title)}}}",
                 rf"Source: {_escape_text(self.source)}."]
        if self.assumptions:
            lines.append("Assumptions: " + "; ".join(_escape_text(a) for a in self.assumptions) + ".")
        lines.append(r"\begin{align*}")
        rows = []
        for desc, expr in self.steps:
            rows.append(rf"&{_latex_of(expr)} && \text{{{_escape_text(desc)}}}")
        lhs = self.lhs or r"\text{result}"
        rows.append(rf"{lhs} &= {_latex_of(self.result)} && \text{{result}}")
        lines.append(" \\\\\n".join(rows))
        lines.append(r"\end{align*}")
        if self.notes:
            lines.append(_escape_text(self.notes))
        return "\n".join(lines)

    def as_dict(self) -> dict:
        res = self.result.as_dict() if isinstance(self.result, Series) else sp.sstr(self.result)
        return {"id": self.id, "title": self.title, "source": self.source,
                "assumptions": list(self.assumptions),
                "variables": [str(v) for v in self.variables], "result": res}
