"""The ``sweep`` command: run a TOML grid of accountant calls, cached, serially or on Dask.

A thin handler over :mod:`shufflekit.sweep`.  CSV, JSON Lines and Parquet rows are streamed to
``-o FILE`` (or CSV to standard output) in spec order, each as soon as it and the rows before
it have finished, so an interrupted sweep keeps every finished row;
``json`` and ``table`` are written at the end through the shared output model (standard JSON:
``null`` plus ``<key>_note`` for a non-finite number).  Each JSON point starts with the keys of
``profile``'s points, in the same order, followed by the sweep's inputs and status.

The spec is checked whole before anything runs (keys, ranges, and the number of points,
counted before the grid is expanded, also for ``--dry-run``).  A sweep in which some points
failed still writes every row, prints how many failed, and exits with status
:data:`EXIT_FAILED_POINTS` (4).
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from shufflekit.cli.arguments import arg_type, integer
from shufflekit.cli.output import add_output_arguments, check_output, columns, emit
from shufflekit.errors import InvalidParameter

NAME = "sweep"
HELP = "run a grid of certified accountant calls from a TOML spec (Dask, cached)"

FORMATS = ("csv", "json", "jsonl", "parquet", "table")
STREAMED = ("csv", "jsonl", "parquet")
#: keys of a profile point (Bound.point), in its order; sweep points start with these
POINT_KEYS = (
    "epsilon",
    "delta",
    "bound",
    "error",
    "quantity",
    "lo",
    "hi",
    "method",
    "adjacency",
    "pairs",
    "certificate",
    "note",
    "seconds",
)
TABLE_COLUMNS = (
    "n",
    "quantity",
    "target",
    "epsilon",
    "delta",
    "bound",
    "method",
    "status",
    "cached",
)
PLOT_SUFFIXES = (".png", ".pdf", ".svg", ".eps", ".ps", ".jpg", ".jpeg", ".tif", ".tiff", ".webp")
MAX_WORKERS = 1024
#: exit status of a sweep that finished with failed points (rows with status "error")
EXIT_FAILED_POINTS = 4


def scheduler_address(text: str) -> str:
    """A Dask scheduler address ``protocol://host[:port]``."""
    if not re.fullmatch(r"(tcp|tls|inproc|ucx|ws|wss)://[A-Za-z0-9.\-_\[\]:]+", text):
        raise InvalidParameter(
            "scheduler",
            text,
            "a Dask scheduler address protocol://host:port, e.g. tcp://10.0.0.5:8786",
        )
    return text


def cache_directory(text: str) -> str:
    """A directory the cache can live in: an existing one, or a new one in an existing one."""
    allowed = "a writable directory (existing, or new inside an existing one)"
    if not text.strip():
        raise InvalidParameter("cache-dir", text, allowed, "empty")
    path = os.path.abspath(text)
    if os.path.exists(path) and not os.path.isdir(path):
        raise InvalidParameter("cache-dir", text, allowed, "is a file")
    where = path if os.path.isdir(path) else os.path.dirname(path)
    if not os.path.isdir(where):
        raise InvalidParameter("cache-dir", text, allowed, f"no directory {where}")
    if not os.access(where, os.W_OK):
        raise InvalidParameter("cache-dir", text, allowed, "permission denied")
    return text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", help="TOML spec file (see shufflekit.sweep.spec for the format)")
    add_output_arguments(p, FORMATS, by_extension=True)
    p.add_argument(
        "--workers",
        type=integer("workers", 1, MAX_WORKERS),
        default=None,
        help=f"worker processes of the local Dask cluster, integer in [1, "
        f"{MAX_WORKERS}], at most one per core: more than the cores of this "
        "machine is lowered to their number, with a note (default: one per "
        "core); 1 computes serially in this process",
    )
    p.add_argument(
        "--scheduler",
        type=arg_type(scheduler_address, "scheduler"),
        default=None,
        metavar="ADDRESS",
        help="address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 "
        "(default: start a local cluster)",
    )
    p.add_argument("--no-cache", action="store_true", help="recompute every point")
    p.add_argument(
        "--cache-dir",
        type=arg_type(cache_directory, "cache-dir"),
        default=None,
        metavar="DIR",
        help="cache directory (default: $SHUFFLEKIT_CACHE or ~/.cache/shufflekit/sweeps)",
    )
    p.add_argument(
        "--plot",
        default=None,
        metavar="FILE",
        help="also save a plot of the bound against the most varied column, one "
        "curve per mechanism setting and method, each named in the legend "
        f"(FILE ending in {', '.join(PLOT_SUFFIXES)})",
    )
    p.add_argument(
        "--plot-x",
        default=None,
        metavar="COLUMN",
        help="x column of the plot: n, target or a numeric parameter of the spec "
        "(default: the most varied one)",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print the number of points and the cache hits, compute nothing",
    )
    p.epilog = (
        f"{p.epilog or ''}; a sweep with failed points still writes every row (status "
        f"'error' and the message) and exits {EXIT_FAILED_POINTS}"
    )


def output_format(args: argparse.Namespace) -> str:
    """The format: --format, else the extension of -o FILE, else csv."""
    from shufflekit.sweep.output import format_of

    if args.format is not None:
        return args.format
    return format_of(args.output)


def check_plot(args: argparse.Namespace, spec) -> None:
    """Fail before computing if the plot file or its x column cannot work."""
    if args.plot is not None:
        check_output(args.plot, "plot")
        if not args.plot.lower().endswith(PLOT_SUFFIXES):
            raise InvalidParameter(
                "plot", args.plot, "a file ending in " + ", ".join(PLOT_SUFFIXES)
            )
    if args.plot_x is not None:
        allowed = (
            "n",
            "target",
            *(
                k
                for k in spec.param_names
                if all(
                    isinstance(v, (int, float)) and not isinstance(v, bool)
                    for t in spec.tasks
                    for name, v in t.params
                    if name == k
                )
            ),
        )
        if args.plot_x not in allowed:
            raise InvalidParameter("plot-x", args.plot_x, "one of " + ", ".join(allowed))
        if args.plot is None:
            print("shufflekit sweep: note: --plot-x without --plot; ignored", file=sys.stderr)


def point(row: dict) -> dict:
    """A sweep row as a point: profile's point keys first, then the inputs and the status."""
    return {
        **{k: row.get(k) for k in POINT_KEYS},
        **{k: v for k, v in row.items() if k not in POINT_KEYS},
    }


def run(args: argparse.Namespace) -> int:
    from shufflekit.sweep import (
        PointCache,
        RowWriter,
        columns_for,
        default_cache_dir,
        load_spec,
        run_tasks,
        task_key,
    )
    from shufflekit.sweep.engine import local_workers

    if args.output == "-":
        args.output = None
    fmt = output_format(args)
    spec = load_spec(args.spec)
    check_plot(args, spec)
    if args.scheduler is None:
        args.workers, note = local_workers(args.workers)
        if note:
            print(f"shufflekit sweep: note: {note}", file=sys.stderr)
    cache = PointCache(
        default_cache_dir()
        if args.cache_dir is None
        else __import__("pathlib").Path(args.cache_dir),
        enabled=not args.no_cache,
    )
    if args.dry_run:
        hits = sum(cache.get(task_key(t)) is not None for t in spec.tasks)
        counts = {"points": len(spec.tasks), "cached": hits, "to_compute": len(spec.tasks) - hits}
        emit(
            counts,
            "json" if fmt == "json" else "table",
            f"{counts['points']} points, {hits} cached, {counts['to_compute']} to compute",
            output=args.output,
        )
        return 0
    streamed = fmt in STREAMED
    writer = RowWriter(
        args.output if streamed else os.devnull,
        columns_for(spec.param_names),
        fmt if streamed else "csv",
    )
    try:
        with writer:
            summary = run_tasks(
                spec.tasks,
                writer.write,
                workers=args.workers,
                scheduler=args.scheduler,
                cache=cache,
            )
    except KeyboardInterrupt:
        where = (
            "" if args.output is None or not streamed else f" (finished rows are in {args.output})"
        )
        print(f"shufflekit sweep: interrupted{where}", file=sys.stderr)
        return 130
    rows = sorted(writer.rows, key=lambda r: r["index"])
    if not streamed:
        points = [point(r) for r in rows]
        payload = {
            "spec": args.spec,
            "title": getattr(spec, "title", None),
            "summary": {
                "points": summary.total,
                "cached": summary.cached,
                "computed": summary.computed,
                "errors": summary.errors,
                "seconds": round(summary.seconds, 3),
            },
            "points": points,
        }
        shown = [
            {k: p.get(k) for k in ("mechanism", *spec.param_names, *TABLE_COLUMNS)} for p in points
        ]
        emit(payload, fmt, columns(shown), output=args.output, records=points)
    if args.plot:
        from shufflekit.sweep.plot import plot_rows

        x = plot_rows(rows, args.plot, args.plot_x, title=getattr(spec, "title", None) or None)
        print(f"plot of the bound against {x}: {args.plot}", file=sys.stderr)
    print(
        f"shufflekit sweep: {summary.total} points ({summary.cached} cached, "
        f"{summary.computed} computed, {summary.errors} errors) in {summary.seconds:.1f} s "
        f"on {summary.scheduler or f'{summary.workers} worker(s)'}",
        file=sys.stderr,
    )
    if summary.errors:
        print(
            f"shufflekit sweep: {summary.errors} of {summary.total} points failed (rows with "
            f"status 'error'; the message column says why); exit status {EXIT_FAILED_POINTS}",
            file=sys.stderr,
        )
        return EXIT_FAILED_POINTS
    return 0
