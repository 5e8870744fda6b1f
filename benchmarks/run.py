"""Run every benchmark (``benchmarks/bench_*.py``) and print one table.

Usage: ``python benchmarks/run.py [--quick]``.  Each module exposes
``run(quick: bool) -> list[dict]`` with rows ``benchmark, target, seconds,
peak_mb, result, ok``.

Mutation testing of the certified modules is a separate command,
``python -m benchmarks.mutation`` (see ``benchmarks/mutation.py``).
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller problem sizes")
    parser.add_argument("--only", default=None, help="substring of a benchmark module name")
    args = parser.parse_args(argv)
    here = pathlib.Path(__file__).parent
    sys.path.insert(0, str(here))  # the bench modules share measure.py
    rows = []
    for path in sorted(here.glob("bench_*.py")):
        if args.only and args.only not in path.stem:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"running {path.stem} ...", file=sys.stderr)
        rows.extend(module.run(args.quick))
    cols = ["benchmark", "target", "seconds", "peak_mb", "result", "ok"]
    widths = {c: max(len(c), *(len(_fmt(r.get(c))) for r in rows)) for c in cols} if rows else {}
    print(" | ".join(c.ljust(widths.get(c, len(c))) for c in cols))
    print("-|-".join("-" * widths.get(c, len(c)) for c in cols))
    for r in rows:
        print(" | ".join(_fmt(r.get(c)).ljust(widths[c]) for c in cols))
    return 0 if all(r.get("ok", True) for r in rows) else 1


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return "" if v is None else str(v)


if __name__ == "__main__":
    sys.exit(main())
