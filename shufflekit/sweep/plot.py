"""A quick picture of a sweep: the bound against one varying column, one line per curve."""
from __future__ import annotations

from collections import defaultdict
from typing import Sequence

from shufflekit.errors import InvalidParameter

#: Columns that identify a curve (besides the mechanism parameters) or are outputs.
_OUTPUTS = ("index", "epsilon", "delta", "bound", "lo", "hi", "error", "pairs", "note",
            "certificate", "seconds", "status", "message", "cached", "version", "key",
            "quantity")


def default_x(rows: Sequence[dict]) -> str:
    """The input column with the most distinct values (``n`` or ``target`` usually)."""
    cands = [k for k in rows[0] if k not in _OUTPUTS]
    return max(cands, key=lambda k: len({str(r.get(k)) for r in rows}))


def plot_rows(rows: Sequence[dict], path: str, x: str | None = None) -> str:
    """Save a log-log plot of the bound (epsilon or delta) against ``x``; returns ``x``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in rows if r.get("status") == "ok"]
    if not ok:
        raise InvalidParameter("plot", path, "a sweep with at least one successful point")
    x = x or default_x(ok)
    if x not in ok[0]:
        raise InvalidParameter("plot-x", x, "one of " + ", ".join(k for k in ok[0] if k not in _OUTPUTS))
    curves: dict[tuple, list[tuple[float, float]]] = defaultdict(list)
    for r in ok:
        label = tuple((k, r[k]) for k in r if k not in _OUTPUTS and k != x)
        y = r["epsilon"] if r["quantity"] == "epsilon" else r["delta"]
        curves[label].append((float(r[x]), float(y)))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for label, pts in sorted(curves.items(), key=lambda kv: str(kv[0])):
        pts.sort()
        text = ", ".join(f"{k}={v}" for k, v in label if v is not None)
        ax.loglog([p[0] for p in pts], [max(p[1], 1e-300) for p in pts], marker="o", ms=3,
                  label=text)
    ax.set_xlabel(x)
    ax.set_ylabel("epsilon" if ok[0]["quantity"] == "epsilon" else "delta")
    if len(curves) <= 12:
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return x
