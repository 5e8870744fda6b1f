"""One output model for every command: aligned tables, standard JSON, CSV for curves, ``-o``.

* ``table``: key/value blocks with aligned keys, and lists of records as aligned columns;
* ``json``: standard JSON (RFC 8259): a non-finite number becomes ``null`` and, in a record,
  a sibling ``<key>_note`` says why (``"infinite"``, ``"not a number"``);
* ``csv``: the records of a curve (one row per point), header first.

``-o FILE`` writes any of them to a file; a path that cannot be written is reported as bad input
(:class:`~shufflekit.errors.InvalidParameter`), never as a traceback.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import enum
import io
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

from shufflekit.errors import InvalidParameter


def add_output_arguments(
    p: argparse.ArgumentParser,
    formats: Sequence[str] = ("table", "json"),
    default: str | None = None,
    *,
    by_extension: bool = False,
) -> None:
    """``--format`` (choices ``formats``) and ``-o/--output FILE``; with ``by_extension`` the
    format defaults to ``None`` (the command picks it from FILE's extension, else the first)."""
    if by_extension:
        p.add_argument(
            "--format",
            default=None,
            choices=list(formats),
            help=f"output format (default: from the extension of FILE, "
            f"{formats[0]} on standard output)",
        )
    else:
        default = default or formats[0]
        p.add_argument(
            "--format",
            default=default,
            choices=list(formats),
            help=f"output format (default: {default})",
        )
    p.add_argument(
        "-o",
        "--output",
        default=None,
        metavar="FILE",
        help="write the output to FILE instead of standard output",
    )


def plain(value: Any) -> Any:
    """``value`` with sympy numbers, enums, dataclasses, tuples and numpy scalars made plain."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value
    try:  # numpy / mpmath / sympy numbers
        import numbers

        if isinstance(value, numbers.Integral):
            return int(value)
        f = float(value)
        return f
    except (TypeError, ValueError, OverflowError):
        return str(value)


def finite_json(value: Any) -> Any:
    """``value`` with every non-finite float replaced by ``None`` (+ a ``<key>_note`` in records)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(v, float) and not math.isfinite(v):
                out[k] = None
                if f"{k}_note" not in value:
                    out[f"{k}_note"] = (
                        "not a number"
                        if math.isnan(v)
                        else ("infinite" if v > 0 else "minus infinity")
                    )
            else:
                out[k] = finite_json(v)
        return out
    if isinstance(value, list):
        return [finite_json(v) for v in value]
    return value


def to_json(payload: Any) -> str:
    """Standard JSON text of ``payload`` (no NaN or Infinity)."""
    return json.dumps(finite_json(plain(payload)), indent=2, allow_nan=False)


def cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(
            "(" + cell(v) + ")" if isinstance(v, (list, tuple)) else cell(v) for v in value
        )
    if isinstance(value, dict):
        return "; ".join(f"{k}={cell(v)}" for k, v in value.items())
    return str(value)


def columns(records: Sequence[dict], keys: Sequence[str] | None = None) -> str:
    """Records as an aligned table (numbers right-aligned, text left-aligned)."""
    if not records:
        return "(none)"
    keys = list(keys or dict.fromkeys(k for r in records for k in r))
    grid = [[cell(r.get(k)) for k in keys] for r in records]
    widths = [max(len(k), *(len(row[i]) for row in grid)) for i, k in enumerate(keys)]
    numeric = [
        all(isinstance(r.get(k), (int, float)) or r.get(k) is None for r in records) for k in keys
    ]

    def line(cells):
        return "  ".join(
            c.rjust(w) if num else c.ljust(w) for c, w, num in zip(cells, widths, numeric)
        ).rstrip()

    return "\n".join([line(keys), line(["-" * w for w in widths]), *map(line, grid)])


def is_records(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, dict) for v in value)
        and all(
            not isinstance(x, (dict, list))
            or (isinstance(x, list) and all(not isinstance(y, (dict, list)) for y in x))
            for v in value
            for x in v.values()
        )
    )


def table(payload: Any, indent: str = "") -> str:
    """An aligned plain-text rendering of a JSON-like payload."""
    payload = plain(payload)
    if is_records(payload):
        return "\n".join(indent + ln for ln in columns(payload).split("\n"))
    if not isinstance(payload, dict):
        return indent + cell(payload)
    scalars = {
        k: v
        for k, v in payload.items()
        if not isinstance(v, (dict, list))
        or (isinstance(v, list) and not any(isinstance(x, (dict, list)) for x in v))
    }
    width = max((len(k) for k in scalars), default=0)
    lines = []
    for k, v in payload.items():
        if k in scalars:
            lines.append(f"{indent}{k.ljust(width)}  {cell(v)}")
        elif isinstance(v, dict) and all(not isinstance(x, (dict, list)) for x in v.values()):
            lines.append(f"{indent}{k}:")
            lines.append(table(v, indent + "  "))
        else:
            lines.append(f"{indent}{k}:")
            lines.append(table(v, indent + "  ") if v else f"{indent}  (none)")
    return "\n".join(lines)


def to_csv(records: Sequence[dict]) -> str:
    """Records as CSV (header from the union of keys, in first-seen order)."""
    records = [finite_json(plain(r)) for r in records]
    keys = list(dict.fromkeys(k for r in records for k in r))
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
    w.writeheader()
    for r in records:
        w.writerow(
            {
                k: (
                    ""
                    if r.get(k) is None
                    else cell(r.get(k))
                    if isinstance(r.get(k), (dict, list))
                    else r.get(k)
                )
                for k in keys
            }
        )
    return buf.getvalue().rstrip("\n")


def curve_head(mechanism: Any, n: Any, **more: Any) -> dict:
    """The columns that name a curve, for the front of every CSV row: ``mechanism``, each of its
    parameters (as numbers where they are numbers), ``n``, then ``more`` (e.g. ``rounds``).

    ``mechanism`` is a payload's description: ``{"name": ..., "params": {...}}``, a flat
    ``{"name": ..., key: value, ...}``, ``{"schedule": [rounds]}`` (one ``schedule`` column
    describing the rounds), ``{"groups": [groups]}`` (one ``population`` column) or a name."""
    from shufflekit.cli.mechanism import as_number

    if not isinstance(mechanism, dict):
        return {"mechanism": None if mechanism is None else str(mechanism), "n": n, **more}
    if "schedule" in mechanism:
        rounds = []
        for r in mechanism["schedule"]:
            params = ", ".join(f"{k}={v}" for k, v in (r.get("params") or {}).items())
            rounds.append(f"{r.get('name')}({params}) n={r.get('n')} x{r.get('rounds', 1)}")
        return {"mechanism": "schedule", "schedule": "; ".join(rounds), "n": n, **more}
    if "groups" in mechanism:  # a population: users holding different randomizers
        groups = []
        for g in mechanism["groups"]:
            params = ", ".join(f"{k}={v}" for k, v in (g.get("params") or {}).items())
            groups.append(f"{g.get('name')}({params}) n={g.get('n')}")
        return {"mechanism": "population", "population": "; ".join(groups), "n": n, **more}
    params = mechanism.get("params")
    if not isinstance(params, dict):
        params = {k: v for k, v in mechanism.items() if k != "name"}
    head = {"mechanism": mechanism.get("name")}
    for k, v in params.items():
        head[k if k not in ("mechanism", "n", *more) else f"param_{k}"] = (
            v if isinstance(v, (int, float)) and not isinstance(v, bool) else as_number(v)
        )
    return {**head, "n": n, **more}


def labelled(records: Sequence[dict], head: dict) -> list[dict]:
    """``records`` with the columns of ``head`` in front (a record's own key of the same name
    keeps its value)."""
    return [{**head, **r} for r in records]


def check_output(output: str | None, name: str = "output") -> None:
    """Fail early (before any computation) if ``output`` (option ``name``) cannot be written."""
    import os

    if output is None:
        return
    allowed = "a writable file path"
    if not output.strip():
        raise InvalidParameter(name, output, allowed, "empty")
    if os.path.isdir(output):
        raise InvalidParameter(name, output, allowed, "is a directory")
    parent = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(parent):
        raise InvalidParameter(name, output, allowed, f"no directory {parent}")
    if not os.access(parent, os.W_OK) or (
        os.path.exists(output) and not os.access(output, os.W_OK)
    ):
        raise InvalidParameter(name, output, allowed, "permission denied")


def write(text: str, output: str | None) -> None:
    """Write ``text`` (plus a newline) to ``output`` or standard output."""
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text if text.endswith("\n") else text + "\n")
    except OSError as exc:
        raise InvalidParameter(
            "output", output, "a writable file path", exc.strerror or type(exc).__name__
        ) from None
    print(f"wrote {output}", file=sys.stderr)


def emit(
    payload: Any,
    fmt: str,
    table_text: str | None = None,
    *,
    output: str | None = None,
    records: Sequence[dict] | None = None,
) -> None:
    """Render ``payload`` as ``fmt`` (``table``, ``json``, ``csv`` of ``records``) and write it."""
    if fmt == "json":
        text = to_json(payload)
    elif fmt == "csv":
        text = to_csv(records if records is not None else payload.get("points", []))
    else:
        text = table_text if table_text is not None else table(payload)
    write(text, output)
