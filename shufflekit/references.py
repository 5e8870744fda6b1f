"""The papers shufflekit derives, evaluates and checks, each cited here once.

Module docstrings cite results as ``seed NNN, Thm/Sec/App ...``; :data:`SEEDS` maps each seed to
its title, authors and (where it has one) arXiv identifier, so a citation can be expanded to a
full reference with :func:`cite`.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    """One source paper."""

    seed: str
    title: str
    authors: str
    arxiv: str | None = None
    note: str = ""

    def text(self) -> str:
        """``Authors, "Title" (arXiv:XXXX.XXXXX)``."""
        tail = f" (arXiv:{self.arxiv})" if self.arxiv else ""
        return f'{self.authors}, "{self.title}"{tail}'


SEEDS: dict[str, Reference] = {
    "000": Reference("000", "Shuffling-Aware Optimization for Private Vector Mean Estimation",
                     "Takagi and Liew"),
    "001": Reference("001", "Fixed-Composition Shuffle Asymptotics in the Full-Support Gaussian "
                     "Regime", "Shvets", arxiv="2602.09029"),
    "002": Reference("002", "Decomposition-Based Optimal Bounds for Privacy Amplification via "
                     "Shuffling", "Su, Cheng and Wang"),
    "003": Reference("003", "Universal Shuffle Asymptotics: Sharp Privacy Analysis in the Gaussian "
                     "Regime", "Shvets", note="a summary of the series"),
}


def cite(seed: str) -> str:
    """Full reference text of seed ``seed`` (``"000"`` .. ``"003"``)."""
    from shufflekit.errors import InvalidParameter

    key = str(seed).zfill(3)
    if key not in SEEDS:
        raise InvalidParameter("seed", seed, "one of " + ", ".join(SEEDS))
    return SEEDS[key].text()
