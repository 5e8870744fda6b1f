"""A picture of a sweep a reader can follow: the bound against one varying column, one line per
curve, in the style of the notebooks' figures (``shufflekit/paper.mplstyle``).

A curve is every successful row that agrees on everything but the x column: the mechanism and
its parameters, n, the method, the adjacency and (unless it is the x column) the target.  Its
legend entry names them, e.g. ``krr (k=10, eps0=1), n=10000: blanket``.  The answer is the
y axis, ``delta`` on a log scale or ``epsilon`` (on a log scale when it spans a decade or
more); a sweep that asks for both gets one panel for each.  When x is the target, its axis is
named by what the target is (``epsilon`` for delta(epsilon) queries, ``delta``, on a log scale,
for epsilon(delta) ones).

Curves are told apart by colour and by line style with a marker: the palette of the paper
style (7 colours) goes to whichever of method or mechanism setting has more distinct values,
the line styles and markers to the other, and no two curves share a colour, line style and
marker, so a 24-curve grid (Figure 2 of Su-Cheng-Wang 2026: 4 settings times up to 7 methods) stays
readable.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shufflekit.errors import InvalidParameter

#: Columns that are outputs of a point (not inputs that could name a curve or be the x axis).
_OUTPUTS = (
    "index",
    "epsilon",
    "delta",
    "bound",
    "lo",
    "hi",
    "error",
    "pairs",
    "note",
    "certificate",
    "seconds",
    "status",
    "message",
    "cached",
    "version",
    "key",
    "quantity",
)
#: Input columns that are not mechanism parameters.
_INPUTS = ("mechanism", "n", "method", "adjacency", "target")

#: The paper style shipped with the package (the notebooks use it too).
STYLE = Path(__file__).resolve().parents[1] / "paper.mplstyle"
#: The palette of the paper style, in its order (Wong 2011, safe for colour-blind readers).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 2)))
MARKERS = ("o", "s", "^", "v", "D", "x", "+", "*", "<", ">")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def param_names(rows: Sequence[dict]) -> list[str]:
    """The mechanism parameter columns of ``rows`` (in their first-seen order)."""
    return list(dict.fromkeys(k for r in rows for k in r if k not in _OUTPUTS and k not in _INPUTS))


def x_candidates(rows: Sequence[dict]) -> list[str]:
    """Columns that can be the x axis: ``target``, ``n`` and the numeric parameters."""
    params = [
        k
        for k in param_names(rows)
        if all(r.get(k) is None or _is_number(r.get(k)) for r in rows)
        and any(r.get(k) is not None for r in rows)
    ]
    return ["target", "n", *params]


def default_x(rows: Sequence[dict]) -> str:
    """The x column with the most distinct values (``target`` on ties, then ``n``)."""
    cands = x_candidates(rows)
    return max(cands, key=lambda k: len({str(r.get(k)) for r in rows}))


def target_name(quantity: str) -> str:
    """What the target of a query is: an epsilon for delta(epsilon), a delta for epsilon(delta)."""
    return "epsilon" if quantity == "delta" else "delta"


def curve_label(fields: dict, x: str, show_adjacency: bool) -> str:
    """Legend text of a curve: mechanism (parameters), n, target, then the method."""
    params = ", ".join(f"{k}={_text(v)}" for k, v in fields["params"] if k != x)
    head = f"{fields['mechanism']} ({params})" if params else str(fields["mechanism"])
    parts = [head]
    if x != "n":
        parts.append(f"n={_text(fields['n'])}")
    if x != "target":
        parts.append(f"{target_name(fields['quantity'])}={_text(fields['target'])}")
    method = str(fields["method"])
    if show_adjacency and fields.get("adjacency"):
        method += f", {fields['adjacency']}"
    return ", ".join(parts) + ": " + method


def _styles(keys: list[tuple]) -> dict[tuple, dict]:
    """A distinct (colour, line style, marker) for every curve key ``(setting, method)``."""
    settings = list(dict.fromkeys(k[0] for k in keys))
    methods = list(dict.fromkeys(k[1] for k in keys))
    by_method = len(methods) >= len(settings)  # the palette goes to the larger group
    used: set[tuple] = set()
    out = {}
    for key in keys:
        ci = methods.index(key[1]) if by_method else settings.index(key[0])
        si = settings.index(key[0]) if by_method else methods.index(key[1])
        colour = PALETTE[ci % len(PALETTE)]
        ls = LINESTYLES[si % len(LINESTYLES)]
        # past the palette (or the line styles) the marker keeps curves apart
        mi = (si + ci // len(PALETTE) + si // len(LINESTYLES)) % len(MARKERS)
        for shift in range(len(MARKERS)):
            marker = MARKERS[(mi + shift) % len(MARKERS)]
            if (colour, str(ls), marker) not in used:
                break
        used.add((colour, str(ls), marker))
        out[key] = dict(color=colour, ls=ls, marker=marker)
    return out


def _log_scale(values: list[float], span: float = 10.0) -> bool:
    """True when the values are positive and span at least ``span`` (a decade by default)."""
    finite = [v for v in values if math.isfinite(v)]
    return bool(finite) and min(finite) > 0 and max(finite) >= span * min(finite)


def figure(rows: Sequence[dict], x: str | None = None, title: str | None = None):
    """The figure of ``rows`` against ``x`` (default :func:`default_x`); returns ``(fig, x)``.

    Only rows with ``status == "ok"`` are drawn; a value that a log axis cannot show (0 or not
    finite) is left out of its curve.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ok = [r for r in rows if r.get("status") == "ok"]
    if not ok:
        raise InvalidParameter("plot", None, "a sweep with at least one successful point")
    x = x or default_x(ok)
    if x not in x_candidates(ok):
        raise InvalidParameter("plot-x", x, "one of " + ", ".join(x_candidates(ok)))
    names = param_names(ok)
    curves: dict[str, dict[tuple, list[tuple[float, float]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    fields: dict[tuple, dict] = {}
    for r in ok:
        params = tuple((k, r.get(k)) for k in names if r.get(k) is not None)
        setting = (
            r["mechanism"],
            params,
            r["n"] if x != "n" else None,
            r["target"] if x != "target" else None,
            r.get("adjacency"),
        )
        key = (setting, r.get("method"))
        fields[key] = {
            "mechanism": r["mechanism"],
            "params": params,
            "n": r["n"],
            "target": r["target"],
            "quantity": r["quantity"],
            "method": r.get("method"),
            "adjacency": r.get("adjacency"),
        }
        y = r["epsilon"] if r["quantity"] == "epsilon" else r["delta"]
        if r.get(x) is None or y is None:
            continue
        curves[r["quantity"]][key].append((float(r[x]), float(y)))
    answers = [q for q in ("delta", "epsilon") if q in curves]
    show_adjacency = len({f["adjacency"] for f in fields.values()}) > 1
    n_curves = max(len(c) for c in curves.values())
    with plt.style.context(str(STYLE)):
        fig, axes = plt.subplots(
            len(answers),
            1,
            squeeze=False,
            figsize=(5.2, 3.0 * len(answers) + 0.12 * max(0, n_curves - 12)),
        )
        for ax, answer in zip(axes[:, 0], answers):
            keys = sorted(curves[answer], key=lambda k: (str(k[0]), str(k[1])))
            styles = _styles(keys)
            xs_all, ys_all = [], []
            for key in keys:
                pts = sorted(curves[answer][key])
                xs_all += [p[0] for p in pts]
                ys_all += [p[1] for p in pts]
            if x == "target":  # a delta target on a log scale, an epsilon not
                log_x = answer == "epsilon"
            else:  # n, or a parameter spanning two decades
                log_x = x == "n" or _log_scale(xs_all, 100.0)
            log_y = answer == "delta" or _log_scale(ys_all)
            for key in keys:
                pts = sorted(curves[answer][key])
                xs = [p[0] if not log_x or p[0] > 0 else math.nan for p in pts]
                ys = [
                    p[1] if math.isfinite(p[1]) and (not log_y or p[1] > 0) else math.nan
                    for p in pts
                ]
                ax.plot(
                    xs,
                    ys,
                    ms=3,
                    mfc="none",
                    label=curve_label(fields[key], x, show_adjacency),
                    **styles[key],
                )
            ax.set_xscale("log" if log_x else "linear")
            ax.set_yscale("log" if log_y else "linear")
            ax.set_xlabel(target_name(answer) if x == "target" else x)
            ax.set_ylabel(answer)
            ax.legend(
                loc="upper left",
                bbox_to_anchor=(1.02, 1.0),
                borderaxespad=0.0,
                ncol=1 if len(keys) <= 16 else 2,
                frameon=False,
            )
        if title:
            axes[0, 0].set_title(title)
    return fig, x


def plot_rows(
    rows: Sequence[dict], path: str, x: str | None = None, title: str | None = None
) -> str:
    """Save the :func:`figure` of ``rows`` to ``path``; returns the x column."""
    import matplotlib.pyplot as plt

    fig, x = figure(rows, x, title)
    try:
        with plt.style.context(str(STYLE)):
            fig.savefig(path)
    finally:
        plt.close(fig)
    return x
