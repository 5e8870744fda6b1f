"""Running a sweep: cached points first, the rest serially or on a Dask cluster.

``workers=1`` (and no scheduler) computes in this process.  Otherwise the points go to
``dask.distributed``: a ``LocalCluster`` of ``workers`` single-threaded processes (default: one
per core), or the existing cluster at ``scheduler`` (``tcp://host:port``) with no code change.
Points that share an accountant (same mechanism, parameters, n, method) are sent to a worker
together, so its set-up is paid once per group.  Rows are written as they finish, in
completion order (``index`` gives the spec order); a failing
point is a row with ``status = "error"``; an interrupt (Ctrl-C) cancels what is left and keeps
every finished row on disk.
"""
from __future__ import annotations

import logging
import os
import sys
import time
from dataclasses import dataclass
from typing import Callable, Iterable

from tqdm import tqdm

from shufflekit.errors import InvalidParameter
from shufflekit.sweep.cache import PointCache
from shufflekit.sweep.spec import Task
from shufflekit.sweep.task import compute, compute_group, curve_key, task_key

RowSink = Callable[[dict], None]


@dataclass(frozen=True)
class SweepSummary:
    """What a run did: points taken from the cache, computed, failed; wall-clock seconds."""

    total: int
    cached: int
    computed: int
    errors: int
    seconds: float
    workers: int
    scheduler: str | None

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _run_serial(todo: list[tuple[int, Task]], sink: RowSink, bar) -> None:
    for index, task in todo:
        sink(compute(task, index))
        bar.update()


def curve_groups(todo: list[tuple[int, Task]], workers: int) -> list[list[tuple[int, Task]]]:
    """Split the points into groups that share an accountant (one set-up per group), cut so
    there are at least four groups per worker to balance the load."""
    groups: dict[tuple, list[tuple[int, Task]]] = {}
    for index, task in todo:
        groups.setdefault(curve_key(task), []).append((index, task))
    size = max(1, -(-len(todo) // (4 * workers)))
    return [g[i:i + size] for g in groups.values() for i in range(0, len(g), size)]


def _run_dask(todo: list[tuple[int, Task]], sink: RowSink, bar, workers: int,
              scheduler: str | None) -> None:
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidParameter("scheduler", scheduler, "the address of a running Dask "
                                   "scheduler (tcp://host:port)", str(exc)) from None
    futures = []
    try:
        futures = [client.submit(compute_group, group, pure=False)
                   for group in curve_groups(todo, workers)]
        for fut in as_completed(futures):
            for row in fut.result():
                sink(row)
                bar.update()
    finally:
        for f in futures:
            if not f.done():
                f.cancel()
        client.close()
        if cluster is not None:
            cluster.close()


def run_tasks(tasks: Iterable[Task], sink: RowSink, *, workers: int | None = None,
              scheduler: str | None = None, cache: PointCache | None = None,
              progress: bool = True) -> SweepSummary:
    """Compute every task (cache first), passing each finished row to ``sink``."""
    t0 = time.perf_counter()
    tasks = list(tasks)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise InvalidParameter("workers", workers, "range [1, inf) (integer)")
    workers = workers or (os.cpu_count() or 1)
    cache = cache or PointCache(root=None, enabled=False)  # type: ignore[arg-type]
    todo, cached = [], 0
    for index, task in enumerate(tasks):
        hit = cache.get(task_key(task))
        if hit is not None:
            sink({**hit, "index": index, "cached": True})
            cached += 1
        else:
            todo.append((index, task))
    errors = 0

    def store(row: dict) -> None:
        nonlocal errors
        errors += row.get("status") != "ok"
        cache.put(row)
        sink(row)

    bar = tqdm(total=len(todo), desc="sweep", unit="pt", file=sys.stderr,
               disable=not progress or not todo, leave=False)
    try:
        if scheduler is None and (workers == 1 or len(todo) <= 1):
            _run_serial(todo, store, bar)
        elif todo:
            _run_dask(todo, store, bar, workers, scheduler)
    finally:
        bar.close()
    return SweepSummary(total=len(tasks), cached=cached, computed=len(todo), errors=errors,
                        seconds=time.perf_counter() - t0,
                        workers=1 if scheduler is None and workers == 1 else workers,
                        scheduler=scheduler)
