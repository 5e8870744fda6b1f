"""Writing sweep rows as they arrive: CSV, JSON Lines, JSON or Parquet (by file extension).

Rows come in spec order (see :class:`shufflekit.sweep.engine.InOrder`).  CSV and JSON Lines are
written and flushed row by row, so an interrupted sweep leaves every finished row on disk; JSON is closed properly on interruption; Parquet is written on close
(it needs pyarrow).  Non-finite floats are written as empty CSV cells / JSON ``null``.
"""

from __future__ import annotations

import csv
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from shufflekit.errors import InvalidParameter
from shufflekit.sweep.task import RESULT_COLUMNS

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".json": "json", ".parquet": "parquet"}


def columns_for(param_names: Sequence[str]) -> list[str]:
    """Column order: mechanism, its parameters (sorted), then the result columns."""
    return ["mechanism", *param_names, *RESULT_COLUMNS]


def format_of(path: str | None, fmt: str | None = None) -> str:
    if fmt:
        if fmt not in FORMATS.values():
            raise InvalidParameter(
                "format", fmt, "one of " + ", ".join(sorted(set(FORMATS.values())))
            )
        return fmt
    if path is None or path == "-":
        return "csv"
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InvalidParameter("output", path, "a file ending in " + ", ".join(FORMATS))
    return FORMATS[suffix]


def _finite(v):
    return None if isinstance(v, float) and not math.isfinite(v) else v


class RowWriter:
    """Context manager writing rows to ``path`` (``None`` or ``-``: standard output, CSV)."""

    def __init__(self, path: str | None, columns: Sequence[str], fmt: str | None = None):
        self.path, self.columns, self.fmt = path, list(columns), format_of(path, fmt)
        self.rows: list[dict] = []
        self._fh: IO[str] | None = None
        self._first = True

    def __enter__(self) -> RowWriter:
        if self.fmt == "parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise InvalidParameter(
                    "output", self.path, "csv/json/jsonl (Parquet needs pyarrow)"
                ) from None
            return self
        if self.path in (None, "-"):
            self._fh = sys.stdout
        else:
            try:
                self._fh = open(self.path, "w", newline="")
            except OSError as exc:
                raise InvalidParameter(
                    "output", self.path, "a writable file path", exc.strerror
                ) from None
        if self.fmt == "csv":
            self._csv = csv.DictWriter(self._fh, fieldnames=self.columns, extrasaction="ignore")
            self._csv.writeheader()
        elif self.fmt == "json":
            self._fh.write("[")
        self._fh.flush()
        return self

    def write(self, row: dict) -> None:
        self.rows.append(row)
        if self.fmt == "csv":
            self._csv.writerow(
                {k: ("" if _finite(row.get(k)) is None else row.get(k)) for k in self.columns}
            )
        elif self.fmt in ("jsonl", "json"):
            text = json.dumps(
                {k: _finite(row.get(k)) for k in self.columns}, default=str, allow_nan=False
            )
            if self.fmt == "json":
                text = ("\n " if self._first else ",\n ") + text
            else:
                text += "\n"
            self._fh.write(text)
            self._first = False
        if self._fh is not None:
            self._fh.flush()

    def __exit__(self, *exc) -> None:
        if self.fmt == "json" and self._fh is not None:
            self._fh.write("\n]\n")
        if self.fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pylist(
                [{k: _finite(r.get(k)) for k in self.columns} for r in self.rows]
            )
            pq.write_table(table, self.path)
        if self._fh is not None and self._fh is not sys.stdout:
            self._fh.close()
