"""The ``sweep`` command: run a TOML grid of accountant calls, cached, serially or on Dask."""
from __future__ import annotations

import argparse
import sys

NAME = "sweep"
HELP = "run a grid of certified accountant calls from a TOML spec (Dask, cached)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", help="TOML spec file (see shufflekit.sweep.spec for the format)")
    p.add_argument("-o", "--output", default="-",
                   help="output file; the extension picks the format: .csv, .jsonl, .json, "
                        ".parquet (default: CSV on standard output)")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes of the local Dask cluster (default: one per core); "
                        "1 computes serially in this process")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 "
                        "(default: start a local cluster)")
    p.add_argument("--no-cache", action="store_true", help="recompute every point")
    p.add_argument("--cache-dir", default=None,
                   help="cache directory (default: $SHUFFLEKIT_CACHE or ~/.cache/shufflekit/sweeps)")
    p.add_argument("--plot", default=None, metavar="FILE",
                   help="also save a plot of the bound against the most varied column")
    p.add_argument("--plot-x", default=None, metavar="COLUMN", help="x column of the plot")
    p.add_argument("--dry-run", action="store_true",
                   help="print the number of points and the cache hits, compute nothing")


def run(args: argparse.Namespace) -> int:
    from shufflekit.errors import InvalidParameter
    from shufflekit.sweep import PointCache, default_cache_dir, load_spec, run_sweep, task_key

    if args.workers is not None and args.workers < 1:
        raise InvalidParameter("workers", args.workers, "range [1, inf) (integer)")
    spec = load_spec(args.spec)
    if args.dry_run:
        cache = PointCache(default_cache_dir() if args.cache_dir is None else __import__("pathlib").Path(args.cache_dir),
                           enabled=not args.no_cache)
        hits = sum(cache.get(task_key(t)) is not None for t in spec.tasks)
        print(f"{len(spec.tasks)} points, {hits} cached, {len(spec.tasks) - hits} to compute")
        return 0
    try:
        summary, rows = run_sweep(spec, args.output, workers=args.workers,
                                  scheduler=args.scheduler, use_cache=not args.no_cache,
                                  cache_dir=args.cache_dir)
    except KeyboardInterrupt:
        where = "" if args.output == "-" else f" (finished rows are in {args.output})"
        print(f"shufflekit sweep: interrupted{where}", file=sys.stderr)
        return 130
    if args.plot:
        from shufflekit.sweep.plot import plot_rows

        x = plot_rows(rows, args.plot, args.plot_x)
        print(f"plot of the bound against {x}: {args.plot}", file=sys.stderr)
    print(f"shufflekit sweep: {summary.total} points ({summary.cached} cached, "
          f"{summary.computed} computed, {summary.errors} errors) in {summary.seconds:.1f} s "
          f"on {summary.scheduler or f'{summary.workers} worker(s)'}", file=sys.stderr)
    return 0
