"""Benchmarks of the continuous randomizers and the multi-message protocols: the certified upper
epsilon at delta = 1e-6 (the default method of each: blanket-fft through the lattice engine,
multi-blanket for the protocols) and, beside it, the clone-numeric bound where it applies
(an eps0-only upper bound), at n = 1e4 and 1e6 (1e4 only with ``--quick``).

No certified lower bound is registered for these mechanisms (the Theorem 5 lower bound needs a
finite output alphabet), so the ``lower`` column is empty.

``run(quick)`` returns rows ``{benchmark, target, seconds, peak_mb, result, ok}``; run alone it
prints the table of the note (``python benchmarks/bench_randomizers.py``).
"""

from __future__ import annotations

import math

from measure import timed

from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant

DELTA = 1e-6
CASES = (
    ("laplace", dict(eps0=2)),
    ("piecewise", dict(eps0=2)),
    ("laplace-metric", dict(eps0=2, distance=1)),
    ("planar-laplace", dict(eps0=2)),
    ("balls-into-bins", dict(bins=64, special=4)),
    ("mixdump", dict(bins=16, f=0.25)),
    ("cheu", dict(f=0.1)),
    ("balcer", dict(p=0.1)),
)


def measure(name: str, kw: dict, n: int) -> dict:
    mech = make(name, **kw)
    acc = accountant(mech, n)
    b, sec, _ = timed(lambda: acc.get_epsilon(DELTA), memory=False)
    row = {
        "mechanism": name,
        "params": kw,
        "n": n,
        "method": acc.method,
        "upper": b.hi,
        "seconds": sec,
        "eps0": float(mech.eps0()),
    }
    try:
        c = accountant(mech, n, method="clone-numeric")
        cb, csec, _ = timed(lambda: c.get_epsilon(DELTA), memory=False)
        row["clone_numeric"], row["clone_seconds"] = cb.hi, csec
    except Exception:  # noqa: BLE001 - clone-numeric needs a finite eps0
        row["clone_numeric"] = None
    return row


def run(quick: bool) -> list[dict]:
    rows = []
    for n in (10_000,) if quick else (10_000, 1_000_000):
        for name, kw in CASES:
            r = measure(name, kw, n)
            ok = r["upper"] < r["eps0"] or not math.isfinite(r["eps0"])
            rows.append(
                {
                    "benchmark": f"{name} {kw} n={n}",
                    "target": "upper < eps0, certified",
                    "seconds": r["seconds"],
                    "peak_mb": float("nan"),
                    "result": f"{r['method']} {r['upper']:.6g}"
                    + (f"; clone-numeric {r['clone_numeric']:.6g}" if r["clone_numeric"] else ""),
                    "ok": ok,
                }
            )
    return rows


if __name__ == "__main__":
    import sys

    quick = "--quick" in sys.argv
    print("| mechanism | parameters | n | method | upper eps (delta 1e-6) | s | clone-numeric |")
    print("|---|---|---|---|---|---|---|")
    for n in (10_000,) if quick else (10_000, 1_000_000):
        for name, kw in CASES:
            r = measure(name, kw, n)
            cn = "-" if r["clone_numeric"] is None else f"{r['clone_numeric']:.6g}"
            print(
                f"| {name} | {kw} | {n:g} | {r['method']} | {r['upper']:.6g} | "
                f"{r['seconds']:.2f} | {cn} |",
                flush=True,
            )
