"""The papers shufflekit derives, evaluates and checks, each cited here once.

Docstrings, reports and the command line cite results by authors and year, e.g.
``Takagi-Liew 2026, Thm 4.1``; :data:`PAPERS` maps each paper's key (the prefix of its claim
ids, ``"000"`` .. ``"003"``) to its short citation, title, authors and arXiv identifier, and
:func:`cite` expands a key to the full reference.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    """One source paper: ``short`` is how the toolkit cites it (authors and year)."""

    key: str
    short: str
    title: str
    authors: str
    arxiv: str | None = None
    venue: str = ""

    def text(self) -> str:
        """``Authors, "Title", venue (arXiv:XXXX.XXXXX)``."""
        venue = f", {self.venue}" if self.venue else ""
        tail = f" (arXiv:{self.arxiv})" if self.arxiv else ""
        return f'{self.authors}, "{self.title}"{venue}{tail}'


PAPERS: dict[str, Reference] = {
    r.key: r
    for r in (
        Reference(
            "000",
            "Takagi-Liew 2026",
            "Shuffling-Aware Optimization for Private Vector Mean Estimation",
            "Takagi and Liew",
            arxiv="2604.28032",
        ),
        Reference(
            "001",
            "Shvets 2026",
            "Fixed-Composition Shuffle Asymptotics in the Full-Support Gaussian Regime",
            "Shvets",
            arxiv="2602.09029",
        ),
        Reference(
            "002",
            "Su-Cheng-Wang 2026",
            "Decomposition-Based Optimal Bounds for Privacy Amplification via Shuffling",
            "Su, Cheng and Wang",
            arxiv="2504.07414",
            venue="IEEE S&P 2026",
        ),
        Reference(
            "004",
            "Wang et al. 2024",
            "Privacy Amplification via Shuffling: Unified, Simplified, and Tightened",
            "Wang, Peng, Li, Wen, Li, Yu, Wang and Yang",
            arxiv="2304.05007",
            venue="VLDB 2024",
        ),
        Reference(
            "003",
            "the Shvets summary",
            "Universal Shuffle Asymptotics: Sharp Privacy Analysis in the Gaussian Regime",
            "Shvets",
            venue="a summary of the series",
        ),
    )
}


def cite(key: str) -> str:
    """Full reference text of paper ``key`` (``"000"`` .. ``"003"``, the prefix of its claim ids).

    >>> cite("001")
    'Shvets, "Fixed-Composition Shuffle Asymptotics in the Full-Support Gaussian Regime" (arXiv:2602.09029)'
    """
    from shufflekit.errors import InvalidParameter

    k = str(key).zfill(3)
    if k not in PAPERS:
        raise InvalidParameter("paper", key, "one of " + ", ".join(PAPERS))
    return PAPERS[k].text()
