"""Figure conventions shared by the notebooks: the paper style, quick mode, saving.

``QUICK`` is true when the environment variable ``SHUFFLEKIT_QUICK`` is set (CI
lowers grid resolution with it); the default reproduces the papers' resolution.
Figures go to ``notebooks/figures`` unless ``SHUFFLEKIT_FIGURES`` names another folder.
"""

from __future__ import annotations

import os
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import shufflekit  # noqa: E402

QUICK = os.environ.get("SHUFFLEKIT_QUICK", "") not in ("", "0", "false", "False")
STYLE = pathlib.Path(shufflekit.__file__).with_name("paper.mplstyle")
FIGURES = pathlib.Path(
    os.environ.get("SHUFFLEKIT_FIGURES", pathlib.Path(__file__).resolve().parent / "figures")
)

plt.style.use(str(STYLE))


def save(fig, name: str) -> list[pathlib.Path]:
    """Save ``fig`` as ``figures/NAME.pdf`` and ``figures/NAME.png``; return the paths."""
    FIGURES.mkdir(exist_ok=True)
    paths = [FIGURES / f"{name}.pdf", FIGURES / f"{name}.png"]
    for p in paths:
        fig.savefig(p)
    return paths


def show(text: str) -> None:
    """Render Markdown ``text`` inside Jupyter; print it as plain text when run as a script."""
    try:
        from IPython import get_ipython
        from IPython.display import Markdown, display
    except ImportError:
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(Markdown(text))
    else:
        print(text, end="\n\n")
