"""Sweeps on Dask: a 200-point grid with 1 and 2 workers (target: speed-up >= 1.7x on 2 cores).

The grid: 10-RR and RAPPOR (k = 4) at eps0 in {1, 2, 4, 8}, n in 10^3 .. 10^7 (5 log-spaced
values), delta in 10^-6 .. 10^-12 (5 log-spaced values): 2 x 4 x 5 x 5 = 200 certified
epsilon(delta) points, no cache.  The 2-worker time includes starting the local cluster.
The scaling model printed with it is tasks per second per worker, so a cluster of W workers
runs the grid in about total / (W * rate) seconds plus its start-up.
"""
from __future__ import annotations

import os

from shufflekit.sweep import parse_spec, run_sweep

METHOD = {"krr": "blanket-fft", "rappor": "blanket-fft"}


def grid(quick: bool) -> dict:
    n = {"logspace": [3, 7, 5]} if not quick else {"logspace": [3, 5, 3]}
    delta = {"geomspace": [1e-6, 1e-12, 5]} if not quick else {"geomspace": [1e-6, 1e-12, 3]}
    eps0 = [1.0, 2.0, 4.0, 8.0] if not quick else [1.0, 4.0]
    return {"grid": [{"mechanism": "krr", "k": 10, "eps0": eps0, "n": n, "delta": delta,
                      "method": METHOD["krr"]},
                     {"mechanism": "rappor", "k": 4, "eps0": eps0, "n": n, "delta": delta,
                      "method": METHOD["rappor"]}]}


def run(quick: bool) -> list[dict]:
    spec = parse_spec(grid(quick))
    total = len(spec.tasks)
    rows, times = [], {}
    for workers in (1, 2):
        summary, _ = run_sweep(spec, os.devnull, workers=workers, use_cache=False,
                               progress=False, fmt="csv")
        times[workers] = summary.seconds
        rows.append({"benchmark": f"sweep: {total} points, {workers} worker(s)",
                     "target": "reported", "seconds": summary.seconds, "peak_mb": None,
                     "result": f"{summary.errors} errors; {total / summary.seconds / workers:.2f} "
                               "points/s/worker", "ok": True})
    speedup = times[1] / times[2]
    rows.append({"benchmark": f"sweep: speed-up 2 workers vs 1 ({total} points)",
                 "target": ">= 1.7x", "seconds": None, "peak_mb": None,
                 "result": f"{speedup:.2f}x", "ok": speedup >= 1.7 or quick})
    return rows
