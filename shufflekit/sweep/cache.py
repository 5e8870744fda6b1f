"""On-disk cache of sweep points, one JSON file per point, keyed by :func:`task_key`.

Only successful points are stored, so a point that failed is retried on the next run.  The
key contains the shufflekit version and the arithmetic, so an upgrade recomputes everything.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


def default_cache_dir() -> Path:
    """``$SHUFFLEKIT_CACHE`` or ``$XDG_CACHE_HOME/shufflekit/sweeps`` (``~/.cache`` by default)."""
    env = os.environ.get("SHUFFLEKIT_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "shufflekit" / "sweeps"


@dataclass(frozen=True)
class PointCache:
    """A directory of cached rows; ``enabled=False`` turns every lookup into a miss."""

    root: Path
    enabled: bool = True

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        if not self.enabled:
            return None
        try:
            row = json.loads(self._path(key).read_text())
        except (OSError, ValueError):
            return None
        return row if row.get("key") == key and row.get("status") == "ok" else None

    def put(self, row: dict) -> None:
        if not self.enabled or row.get("status") != "ok":
            return
        path = self._path(row["key"])
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(row, default=str))
        tmp.replace(path)  # atomic: a killed sweep never leaves half a file
