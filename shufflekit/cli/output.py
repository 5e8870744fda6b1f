"""Shared output helpers for the command line: JSON or an indented plain-text table."""
from __future__ import annotations

import json
import sys
from typing import Any


def emit(payload: Any, fmt: str, table: str | None = None, out=None) -> None:
    out = out or sys.stdout
    if fmt == "json":
        out.write(json.dumps(payload, indent=2, default=str) + "\n")
    else:
        out.write((table if table is not None else generic_table(payload)) + "\n")


def generic_table(payload: Any, indent: str = "") -> str:
    lines = []
    if isinstance(payload, dict):
        for k, v in payload.items():
            if isinstance(v, (dict, list)) and v and not all(isinstance(x, (int, float, str)) for x in
                                                          (v if isinstance(v, list) else [])):
                lines.append(f"{indent}{k}:")
                lines.append(generic_table(v, indent + "  "))
            else:
                lines.append(f"{indent}{k}: {v}")
    elif isinstance(payload, list):
        for item in payload:
            lines.append(generic_table(item, indent + "- "))
    else:
        lines.append(f"{indent}{payload}")
    return "\n".join(lines)
