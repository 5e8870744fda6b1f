r"""A derived result with its provenance: the :class:`Derivation` record.

A derivation carries the sympy result (an expression or a :class:`Series`), the
symbols it depends on, the assumptions under which it holds, the paper and
equation it reproduces, and the intermediate steps (each a short description
with the sympy expression obtained at that step).  ``latex()`` renders the
steps as an ``align*`` environment that compiles in a plain ``article``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import sympy as sp

from shufflekit.symbolic.latex_text import escape_text, text_to_latex
from shufflekit.symbolic.series import Series


def _latex_of(value: Any, name: str | None = None) -> str:
    if isinstance(value, Series):
        return value.latex(name)
    if isinstance(value, sp.Basic):
        return sp.latex(value)
    if isinstance(value, bool):
        return r"\text{true}" if value else r"\text{false}"
    return sp.latex(sp.sympify(value))


#: estimated width (in characters of a 10pt formula) above which a sum is broken into lines
LINE_CHARS = 72


def visible_width(tex: str) -> int:
    """A rough width of a LaTeX formula: commands count as one character, braces as none, and a
    fraction as its wider part."""
    t = re.sub(r"\\(?:left|right|displaystyle|mathsf|mathrm|operatorname)\b|\\[!,;]", "", tex)
    while True:
        m = re.search(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", t)
        if m is None:
            break
        t = t[: m.start()] + max(m.group(1), m.group(2), key=len) + t[m.end() :]
    t = re.sub(r"\\[A-Za-z]+", "x", t)
    return len(re.sub(r"[{}]", "", t))


def split_terms(tex: str) -> list[str]:
    """``tex`` cut at its top-level `` + `` and `` - `` (outside braces and \\left...\\right);
    each later piece keeps its sign."""
    pieces, depth, start, i = [], 0, 0, 0
    while i < len(tex):
        if tex.startswith(r"\left", i):
            depth += 1
            i += 5
            continue
        if tex.startswith(r"\right", i):
            depth -= 1
            i += 6
            continue
        ch = tex[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0 and tex.startswith((" + ", " - "), i) and i > start:
            pieces.append(tex[start:i].strip())
            start = i + 1
            i += 3
            continue
        i += 1
    pieces.append(tex[start:].strip())
    return [p for p in pieces if p]


def broken_lines(tex: str, first: str = "", width: int = LINE_CHARS) -> list[str]:
    """``first`` + ``tex`` as display lines of at most about ``width`` characters each
    (continuation lines indented), cut only between top-level terms."""
    lines, current = [], first + tex.split(" ")[0][:0]
    current = first
    for piece in split_terms(tex):
        cand = (current + " " + piece).strip() if current.strip() else (current + piece)
        if current.strip() and current != first and visible_width(cand) > width:
            lines.append(current)
            current = r"\quad " + piece
        elif (
            current == first
            and first
            and visible_width(first + piece) > width
            and visible_width(piece) > width // 2
        ):
            lines.append(first.rstrip())
            current = r"\quad " + piece
        else:
            current = cand if current.strip() else current + piece
    lines.append(current)
    return [ln for ln in lines if ln.strip()]


@dataclass(frozen=True)
class Derivation:
    r"""One derived result.

    ``id``          catalogue key, e.g. ``"bmg.chi-lo"``.
    ``title``       one line of plain text.
    ``result``      sympy expression or :class:`Series`.
    ``variables``   the free symbols the result depends on.
    ``assumptions`` plain-text conditions (``"sigma0 > 0"``, ``"chi -> oo"``).
    ``source``      paper and equation, e.g. ``"Takagi-Liew 2026, Thm 4.1 / App. A.6"``.
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

    def subs(self, values: Mapping) -> Derivation:
        """Substitute values for symbols in the result and in every step."""

        def sub(v):
            if isinstance(v, Series):
                return v.subs(values)
            if isinstance(v, sp.Basic):
                return v.subs(values)
            return v

        return replace(
            self,
            result=sub(self.result),
            steps=tuple((d, sub(e)) for d, e in self.steps),
            variables=tuple(v for v in self.variables if v not in values),
        )

    def latex(self, *, fit: bool = False) -> str:
        r"""A LaTeX fragment: title, source, assumptions, then an ``align*`` with each step's
        description (``\intertext``) and formula, and the result.

        Long sums are broken between terms into lines of about :data:`LINE_CHARS` characters.
        With ``fit`` every line is wrapped in ``\fiteq{...}``, which the standalone document
        defines to shrink a line only when it is still wider than the text.
        """
        wrap = (lambda t: rf"\fiteq{{{t}}}") if fit else (lambda t: t)  # noqa: E731
        lines = [
            rf"\paragraph{{{escape_text(self.id)}: {text_to_latex(self.title)}}}",
            rf"Source: {escape_text(self.source)}.",
        ]
        if self.assumptions:
            lines.append(
                "Assumptions: " + "; ".join(text_to_latex(a) for a in self.assumptions) + "."
            )
        lines.append(r"\begin{align*}")
        rows = []
        for desc, expr in self.steps:
            body = " \\\\\n".join("&" + wrap(ln) for ln in broken_lines(_latex_of(expr)))
            rows.append(rf"\intertext{{{text_to_latex(desc)}:}}" + "\n" + body)
        lhs = self.lhs or r"\text{result}"
        body = " \\\\\n".join(
            "&" + wrap(ln) for ln in broken_lines(_latex_of(self.result), first=lhs + " = ")
        )
        rows.append(r"\intertext{Result:}" + "\n" + body)
        lines.append(" \\\\\n".join(rows))
        lines.append(r"\end{align*}")
        if self.notes:
            lines.append(text_to_latex(self.notes))
        return "\n".join(lines)

    def as_dict(self) -> dict:
        res = self.result.as_dict() if isinstance(self.result, Series) else sp.sstr(self.result)
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "assumptions": list(self.assumptions),
            "variables": [str(v) for v in self.variables],
            "result": res,
        }
