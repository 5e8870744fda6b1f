"""The variation-ratio bound (corrected) beside the blanket bound and the lower bounds.

For every finite randomizer of ``shufflekit list mechanisms``: the certified epsilon at
delta = 1e-6 for n = 1e4 and 1e6 from ``variation-ratio`` (upper), ``stronger-clone-numeric``
(upper, where the erratum's class admits the mechanism), ``blanket`` (upper),
``variation-ratio-lower`` and ``lower`` (lower bounds), with the seconds each took.

Usage: ``python benchmarks/bench_variation_ratio.py [--quick] [--n 10000 1000000]`` prints a
Markdown table; ``run(quick)`` gives the rows to ``benchmarks/run.py``.
"""

from __future__ import annotations

import argparse
import sys
import time

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant, methods

DELTA = 1e-6
MECHANISMS = [
    ("rr", {"eps0": 2}),
    ("krr", {"k": 10, "eps0": 4}),
    ("krr", {"k": 16, "eps0": 2}),
    ("rappor", {"k": 16, "eps0": 2}),
    ("oue", {"k": 16, "eps0": 2}),
    ("blh", {"k": 16, "eps0": 2}),
    ("hr", {"k": 16, "eps0": 2}),
    ("joint-krr", {"k": 3, "eps0": 2, "m": 2}),
]
METHODS = (
    "variation-ratio",
    "stronger-clone-numeric",
    "blanket",
    "variation-ratio-lower",
    "lower",
)


def cell(mech, n: int, method: str, timeout: float | None = None) -> tuple[str, float | None]:
    """``(epsilon text, seconds)``: the safe end of the method's epsilon at DELTA (in a child
    process stopped after ``timeout`` seconds when one is given)."""
    names = {m.name for m in methods(mech)}
    if method not in names:
        return "n/a", None
    if timeout is not None:
        return _cell_with_timeout(mech, n, method, timeout)
    t0 = time.perf_counter()
    try:
        b = accountant(mech, n, method=method).get_epsilon(DELTA)
    except (CannotCertify, InvalidParameter) as exc:
        return f"declined ({type(exc).__name__})", time.perf_counter() - t0
    value = b.hi if b.kind.value == "upper" else b.lo
    return f"{value:.6f}", time.perf_counter() - t0


def _child(queue, mech, n, method):
    queue.put(cell(mech, n, method))


def _cell_with_timeout(mech, n, method, timeout):
    import multiprocessing as mp

    queue = mp.get_context("fork").Queue()
    proc = mp.get_context("fork").Process(target=_child, args=(queue, mech, n, method))
    t0 = time.perf_counter()
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.terminate()  # the child this call started
        proc.join()
        return f"> {timeout:.0f} s", time.perf_counter() - t0
    return queue.get()


def table(ns, mechanisms=MECHANISMS, timeout: float | None = None) -> list[dict]:
    rows = []
    for name, params in mechanisms:
        mech = make(name, **params)
        label = name + "(" + ", ".join(f"{k}={v}" for k, v in params.items()) + ")"
        for n in ns:
            row = {"mechanism": label, "n": n}
            for method in METHODS:
                value, seconds = cell(mech, n, method, timeout)
                row[method] = value
                row[method + " s"] = seconds
                print(f"  {label} n={n} {method}: {value} ({seconds})", file=sys.stderr)
            rows.append(row)
    return rows


def markdown(rows) -> str:
    head = ["mechanism", "n"] + [m for m in METHODS]
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
    ]
    for r in rows:
        cells = [r["mechanism"], f"{r['n']:.0e}"]
        for m in METHODS:
            s = r[m + " s"]
            cells.append(r[m] if s is None else f"{r[m]} ({s:.2f} s)")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def run(quick: bool) -> list[dict]:
    """Rows for ``benchmarks/run.py``: the variation-ratio epsilon against the blanket's."""
    ns = (10_000,) if quick else (10_000, 1_000_000)
    out = []
    for r in table(ns, MECHANISMS[:3] if quick else MECHANISMS):
        vr, bl = r["variation-ratio"], r["blanket"]
        out.append(
            {
                "benchmark": "variation-ratio",
                "target": f"{r['mechanism']} n={r['n']:.0e}",
                "seconds": r["variation-ratio s"],
                "result": f"vr {vr} / blanket {bl} / lower {r['lower']}",
                "ok": True,
            }
        )
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="n = 1e4 and three mechanisms")
    parser.add_argument("--n", type=int, nargs="*", default=None, help="numbers of users")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per cell")
    parser.add_argument("--only", default=None, help="comma-separated mechanism names")
    args = parser.parse_args(argv)
    ns = args.n or ((10_000,) if args.quick else (10_000, 1_000_000))
    mechs = MECHANISMS[:3] if args.quick else MECHANISMS
    if args.only:
        keep = set(args.only.split(","))
        mechs = [m for m in mechs if m[0] in keep]
    rows = table(ns, mechs, args.timeout)
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
