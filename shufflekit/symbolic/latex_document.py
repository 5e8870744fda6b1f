r"""LaTeX output of derived results: fragments and a standalone ``article``.

The document needs only ``amsmath`` and ``amssymb`` (in ``texlive-latex-base``
plus ``texlive-latex-recommended``/``amsfonts``), so it compiles with a plain
``pdflatex``.
"""
from __future__ import annotations

from typing import Iterable

from shufflekit.symbolic.results import get

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage[margin=0.8in]{geometry}
\usepackage{amsmath}
\usepackage{amssymb}
\allowdisplaybreaks
\setlength{\parindent}{0pt}
\title{Derived results (shufflekit)}
\date{}
\begin{document}
\maketitle
\small
"""


def fragments(ids: Iterable[str]) -> str:
    """The LaTeX fragments of the results ``ids``, separated by blank lines."""
    return "\n\n".join(get(i).latex() for i in ids) + "\n"


def document(ids: Iterable[str]) -> str:
    """A standalone article containing the results ``ids``."""
    return PREAMBLE + fragments(ids) + "\n\\end{document}\n"
