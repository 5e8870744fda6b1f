"""Sweeps on Dask: a 200-point grid with 1 and 2 workers (target: speed-up >= 1.7x on 2 cores).

The grid: 10-RR and RAPPOR (k = 4) at eps0 in {1, 2, 4, 8}, n in 10^3 .. 10^7 (5 log-spaced
values), delta in 10^-6 .. 10^-12 (5 log-spaced values): 2 x 4 x 5 x 5 = 200 certified
epsilon(delta) points, no cache.  The 2-worker time includes starting the local cluster and
closing it (the headline speed-up is wall clock to wall clock); the start-up and teardown are
also reported on their own.  Both paths use one core per worker (the serial path holds the
BLAS pools to one thread, as the Dask nanny does for each worker).

Rows report, for the 2-worker run: the busy seconds (sum of the points' own ``seconds``), the
longest point (no schedule can finish before it), the lower bound on the computing time
max(busy / 2, longest point) and the parallel efficiency busy / (2 x computing wall); and the
scaling model: points per second per worker from the 1-worker run, so a cluster of W workers
runs a grid of P such points in about start-up + P / (W * rate) seconds.

The machine is shared, so each run also reports the load: the cores used on average during the
run by processes outside the benchmark's own process tree (sampled from ``/proc``).  Other
processes on the two cores slow the 2-worker run more than the 1-worker run.
"""

from __future__ import annotations

import os
import threading
import time

from shufflekit.sweep import parse_spec, run_sweep

METHOD = {"krr": "blanket-fft", "rappor": "blanket-fft"}


def grid(quick: bool) -> dict:
    n = {"logspace": [3, 7, 5]} if not quick else {"logspace": [3, 5, 3]}
    delta = {"geomspace": [1e-6, 1e-12, 5]} if not quick else {"geomspace": [1e-6, 1e-12, 3]}
    eps0 = [1.0, 2.0, 4.0, 8.0] if not quick else [1.0, 4.0]
    return {
        "grid": [
            {
                "mechanism": "krr",
                "k": 10,
                "eps0": eps0,
                "n": n,
                "delta": delta,
                "method": METHOD["krr"],
            },
            {
                "mechanism": "rappor",
                "k": 4,
                "eps0": eps0,
                "n": n,
                "delta": delta,
                "method": METHOD["rappor"],
            },
        ]
    }


class OtherLoad:
    """CPU seconds used by processes outside this benchmark's process tree (its Dask workers
    are in the tree) while it runs: ``/proc/<pid>/stat`` sampled every ``period`` seconds.
    Linux only; elsewhere :meth:`cores` is None."""

    def __init__(self, period: float = 0.25):
        self.period, self.seen, self.start = period, {}, {}
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    @staticmethod
    def table() -> dict[int, tuple[int, float]]:
        tick = os.sysconf("SC_CLK_TCK")
        out = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as fh:
                        fields = fh.read().rsplit(")", 1)[1].split()
                except (OSError, IndexError):
                    continue
                out[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
        return out

    def sample(self) -> None:
        table = self.table()
        me = os.getpid()
        for pid, (ppid, cpu) in table.items():
            chain, p = set(), pid
            while p not in (0, 1, me) and p in table and p not in chain:
                chain.add(p)
                p = table[p][0]
            if p != me and pid != me:
                self.seen[pid] = cpu

    def loop(self) -> None:
        while not self.stop_event.wait(self.period):
            self.sample()

    def __enter__(self) -> OtherLoad:
        self.t0 = time.perf_counter()
        if os.path.isdir("/proc"):
            self.start = {pid: cpu for pid, (_, cpu) in self.table().items()}
            self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self.t0
        if self.thread.is_alive():
            self.stop_event.set()
            self.thread.join()
            self.sample()

    def cores(self) -> float | None:
        """Average number of cores other processes used during the run."""
        if not self.start:
            return None
        used = sum(cpu - self.start.get(pid, 0.0) for pid, cpu in self.seen.items())
        return used / self.wall


def row(
    name: str, result: str, seconds: float | None = None, target: str = "reported", ok: bool = True
) -> dict:
    return {
        "benchmark": name,
        "target": target,
        "seconds": seconds,
        "peak_mb": None,
        "result": result,
        "ok": ok,
    }


def run(quick: bool) -> list[dict]:
    spec = parse_spec(grid(quick))
    total = len(spec.tasks)
    rows, summaries, points = [], {}, {}
    for workers in (1, 2):
        with OtherLoad() as load:
            summary, out = run_sweep(
                spec, os.devnull, workers=workers, use_cache=False, progress=False, fmt="csv"
            )
        summaries[workers], points[workers] = summary, out
        busy = sum(r["seconds"] for r in out)
        rows.append(
            row(
                f"sweep: {total} points, {workers} worker(s)",
                f"{summary.errors} errors; busy {busy:.1f} s; start-up "
                f"{summary.startup:.2f} s, teardown {summary.teardown:.2f} s; "
                f"other processes {load.cores():.2f} cores",
                summary.seconds,
            )
        )
    one, two = summaries[1], summaries[2]
    busy2 = sum(r["seconds"] for r in points[2])
    longest = max(r["seconds"] for r in points[2])
    computing = two.seconds - two.startup - two.teardown
    bound = max(busy2 / 2, longest)
    rows.append(
        row(
            "sweep: 2 workers, where the time goes",
            f"computing {computing:.1f} s >= max(busy/2 = {busy2 / 2:.1f}, longest point "
            f"{longest:.1f}) = {bound:.1f} s; efficiency {busy2 / (2 * computing):.0%}; "
            f"fixed {two.startup + two.teardown:.2f} s",
        )
    )
    rate = total / one.seconds
    rows.append(
        row(
            "sweep: scaling model (1-worker rate)",
            f"{rate:.2f} points/s/worker; W workers: {two.startup:.1f} + "
            f"{total} / (W x {rate:.2f}) s",
        )
    )
    rows.append(
        row(
            f"sweep: speed-up without start-up/teardown ({total} points)",
            f"{one.seconds / computing:.2f}x",
        )
    )
    speedup = one.seconds / two.seconds
    rows.append(
        row(
            f"sweep: speed-up 2 workers vs 1 ({total} points)",
            f"{speedup:.2f}x",
            target=">= 1.7x",
            ok=speedup >= 1.7 or quick,
        )
    )
    return rows
