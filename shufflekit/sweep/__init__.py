"""Sweeps: grids of certified accountant calls from a TOML spec, on Dask, cached.

``shufflekit sweep SPEC -o out.csv`` (see :mod:`shufflekit.sweep.spec` for the spec format)::

    from shufflekit.sweep import load_spec, run_sweep
    summary = run_sweep(load_spec("examples/sweeps/figure2.toml"), "out.csv", workers=2)
"""

from __future__ import annotations

from pathlib import Path

from shufflekit.sweep.cache import PointCache, default_cache_dir
from shufflekit.sweep.engine import SweepSummary, run_tasks
from shufflekit.sweep.output import RowWriter, columns_for
from shufflekit.sweep.spec import Spec, Task, load_spec, parse_spec
from shufflekit.sweep.task import compute, task_key


def run_sweep(
    spec: Spec,
    output: str | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    use_cache: bool = True,
    cache_dir: str | Path | None = None,
    fmt: str | None = None,
    progress: bool = True,
) -> tuple[SweepSummary, list[dict]]:
    """Run ``spec``, streaming rows to ``output`` (CSV/JSON/JSONL/Parquet by extension).

    Rows are written in spec order (``row["index"]`` 0, 1, 2, ...); returns the summary and the
    rows, in the same order.  The progress bar is drawn when ``progress`` is true and standard
    error is a terminal.
    """
    cache = PointCache(Path(cache_dir) if cache_dir else default_cache_dir(), enabled=use_cache)
    with RowWriter(output, columns_for(spec.param_names), fmt) as writer:
        summary = run_tasks(
            spec.tasks,
            writer.write,
            workers=workers,
            scheduler=scheduler,
            cache=cache,
            progress=progress,
        )
    return summary, sorted(writer.rows, key=lambda r: r["index"])


__all__ = [
    "PointCache",
    "RowWriter",
    "Spec",
    "SweepSummary",
    "Task",
    "columns_for",
    "compute",
    "default_cache_dir",
    "load_spec",
    "parse_spec",
    "run_sweep",
    "run_tasks",
    "task_key",
]
