r"""LaTeX output of derived results: fragments and a standalone ``article``.

The document needs only ``amsmath`` and ``amssymb`` (in ``texlive-latex-base``
plus ``texlive-latex-recommended``/``amsfonts``), so it compiles with a plain
``pdflatex``.
"""

from __future__ import annotations

from collections.abc import Iterable

from shufflekit.symbolic.results import get

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage[margin=0.8in]{geometry}
\usepackage{amsmath}
\usepackage{amssymb}
\usepackage{graphicx}
% \fiteq{formula}: the formula in display style, shrunk only if wider than the text
\newsavebox{\fitbox}
\newcommand{\fiteq}[1]{\sbox{\fitbox}{$\displaystyle #1$}%
  \ifdim\wd\fitbox>0.9\linewidth\resizebox{0.9\linewidth}{!}{\usebox{\fitbox}}%
  \else\usebox{\fitbox}\fi}
\allowdisplaybreaks
\setlength{\parindent}{0pt}
\title{Derived results (shufflekit)}
\date{}
\begin{document}
\maketitle
\small
"""


def fragments(ids: Iterable[str], *, fit: bool = False) -> str:
    """The LaTeX fragments of the results ``ids``, separated by blank lines (``fit``: lines
    wrapped in ``\\fiteq``, defined in :data:`PREAMBLE`)."""
    return "\n\n".join(get(i).latex(fit=fit) for i in ids) + "\n"


def document(ids: Iterable[str]) -> str:
    """A standalone article containing the results ``ids`` (no line wider than the text)."""
    return PREAMBLE + fragments(ids, fit=True) + "\n\\end{document}\n"
