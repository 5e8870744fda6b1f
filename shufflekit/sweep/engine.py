"""Running a sweep: cached points first, the rest serially or on a Dask cluster.

``workers=1`` (and no scheduler) computes in this process, with the BLAS/OpenMP pools held to
one thread, as in each Dask worker (the nanny starts workers with ``OPENBLAS_NUM_THREADS=1``
and its siblings): one worker is one core on both paths.  Otherwise the points go to
``dask.distributed``: a ``LocalCluster`` of ``workers`` single-threaded processes (default: one
per core), or the existing cluster at ``scheduler`` (``tcp://host:port``) with no code change.
Each worker is warmed once (imports, method registry) by a worker plugin.  The work is sent as
planned by :func:`shufflekit.sweep.schedule.plan_batches`: points that share an accountant go
together (one set-up), except curves too large for one worker's share, and the most expensive
batches first, so cheap points fill the gaps at the end.  Rows reach the sink in spec order
(``index`` 0, 1, 2, ...): a row that finishes before the ones ahead of it waits in memory
(:class:`InOrder`) and goes out as soon as they have; a failing point is a row with
``status = "error"``; an interrupt (Ctrl-C) cancels what is left and passes on every finished
row, still in spec order, with gaps where points did not finish.  Every finished point is in the
cache as soon as it finishes, whatever its place in the order.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from threadpoolctl import threadpool_limits
from tqdm import tqdm

from shufflekit.errors import InvalidParameter
from shufflekit.sweep.cache import PointCache
from shufflekit.sweep.schedule import plan_batches
from shufflekit.sweep.spec import Task
from shufflekit.sweep.task import compute, compute_group, task_key

RowSink = Callable[[dict], None]


@dataclass(frozen=True)
class SweepSummary:
    """What a run did: points taken from the cache, computed, failed; wall-clock seconds.

    ``startup`` is the part of ``seconds`` spent before the first point could start on a
    cluster (starting a local cluster or connecting, warming the workers), ``teardown`` the
    part spent closing it; both are 0 on the serial path.
    """

    total: int
    cached: int
    computed: int
    errors: int
    seconds: float
    workers: int
    scheduler: str | None
    startup: float = 0.0
    teardown: float = 0.0

    def as_dict(self) -> dict:
        return dict(self.__dict__)


#: Dask settings for the local cluster (an existing cluster keeps its own):
#: - a worker takes its next batch only when it is free (saturation 1.0 instead of 1.1, which
#:   queues a second batch on a busy worker), so the planned order holds to the end;
#: - no ``MALLOC_TRIM_THRESHOLD_`` (the nanny sets 65536 by default): any fixed threshold turns
#:   off glibc's adaptive mmap threshold, so every large array is a fresh mmap and its pages
#:   fault in again; measured on the benchmark's heavy curves, 7-12x the page faults and about
#:   3 s of extra system time in 18 s of work; the 2-worker benchmark took 51 s with it and 43 s
#:   without, back to back on an idle machine.  The serial path runs with glibc's defaults too;
#: - worker processes forked from a fork server where the platform has one: about 1 s less to
#:   start two workers and 1 s less to close them than with ``spawn`` on this machine.
#: How long to try reaching an existing scheduler (``--scheduler``) before calling it bad input.
CONNECT_TIMEOUT = "10s"

LOCAL_CLUSTER_CONFIG = {
    "distributed.scheduler.worker-saturation": 1.0,
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.worker.multiprocessing-method": "forkserver"
    if "forkserver" in multiprocessing.get_all_start_methods()
    else "spawn",
}


class InOrder:
    """A sink that passes rows on in the order of their ``index`` (0, 1, 2, ...).

    A row whose predecessors have not all arrived is held back; :meth:`flush` passes on every
    held row in index order (after an interruption, with gaps)."""

    def __init__(self, sink: RowSink, start: int = 0):
        self.sink, self.next, self.held = sink, start, {}

    def __call__(self, row: dict) -> None:
        self.held[row["index"]] = row
        while self.next in self.held:
            self.sink(self.held.pop(self.next))
            self.next += 1

    def flush(self) -> None:
        for index in sorted(self.held):
            self.sink(self.held.pop(index))
            self.next = index + 1


def on_terminal() -> bool:
    """True when standard error is a terminal (progress bars are drawn only there)."""
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def _run_serial(todo: list[tuple[int, Task]], sink: RowSink, bar) -> None:
    with threadpool_limits(limits=1):  # one core, like one Dask worker
        for index, task in todo:
            sink(compute(task, index))
            bar.update()


def _run_dask(
    todo: list[tuple[int, Task]], sink: RowSink, bar, workers: int, scheduler: str | None
) -> tuple[float, float]:
    """Compute ``todo`` on Dask; returns (start-up seconds, teardown seconds)."""
    import dask
    from distributed import Client, LocalCluster, as_completed

    from shufflekit.sweep.worker_setup import WarmUp

    t0 = time.perf_counter()
    cluster = None
    if scheduler is None:
        with dask.config.set(LOCAL_CLUSTER_CONFIG):
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InvalidParameter(
                "scheduler",
                scheduler,
                "the address of a running Dask scheduler (tcp://host:port)",
                str(exc),
            ) from None
    futures = []
    t2 = None
    try:
        client.register_plugin(WarmUp())
        t1 = time.perf_counter()
        if scheduler is not None:  # an existing cluster: plan for the threads it has
            workers = sum(client.nthreads().values()) or workers
        batches = plan_batches(todo, workers)
        futures = [
            client.submit(compute_group, batch, pure=False, priority=len(batches) - rank)
            for rank, batch in enumerate(batches)
        ]
        for fut in as_completed(futures):
            for row in fut.result():
                sink(row)
                bar.update()
        t2 = time.perf_counter()
    finally:
        for f in futures:
            if not f.done():
                f.cancel()
        client.close()
        if cluster is not None:
            cluster.close()
    t3 = time.perf_counter()
    return t1 - t0, (t3 - t2) if t2 is not None else 0.0


def check_workers(requested: int | None) -> int | None:
    """``requested`` if it is ``None`` or an integer >= 1."""
    if requested is not None and (
        isinstance(requested, bool) or not isinstance(requested, int) or requested < 1
    ):
        raise InvalidParameter("workers", requested, "range [1, inf) (integer)")
    return requested


def local_workers(requested: int | None, cores: int | None = None) -> tuple[int, str | None]:
    """The number of local worker processes, at most one per core, and a note when
    ``requested`` was more than that (``cores`` defaults to :func:`os.cpu_count`).

    Each worker is one single-threaded process: more of them than cores only share the cores
    and multiply the memory, and a local cluster much larger than the machine fails to start."""
    check_workers(requested)
    cores = max(1, cores or os.cpu_count() or 1)
    if requested is None:
        return cores, None
    if requested > cores:
        return cores, (
            f"--workers {requested} is more than the {cores} core(s) of this machine; using {cores}"
        )
    return requested, None


def run_tasks(
    tasks: Iterable[Task],
    sink: RowSink,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    cache: PointCache | None = None,
    progress: bool = True,
) -> SweepSummary:
    """Compute every task (cache first), passing each finished row to ``sink`` in spec order;
    a local cluster has at most one worker per core (:func:`local_workers`).  The progress bar
    is drawn when ``progress`` is true and standard error is a terminal."""
    t0 = time.perf_counter()
    tasks = list(tasks)
    if scheduler is None:
        workers = local_workers(workers)[0]  # at most one per core
    else:  # an existing cluster keeps its own size
        workers = check_workers(workers) or (os.cpu_count() or 1)
    cache = cache or PointCache(root=None, enabled=False)  # type: ignore[arg-type]
    ordered = InOrder(sink)
    todo, cached = [], 0
    errors = 0

    def store(row: dict) -> None:
        nonlocal errors
        errors += row.get("status") != "ok"
        cache.put(row)
        ordered(row)

    bar = None
    startup = teardown = 0.0
    try:
        for index, task in enumerate(tasks):
            hit = cache.get(task_key(task))
            if hit is not None:
                ordered({**hit, "index": index, "cached": True})
                cached += 1
            else:
                todo.append((index, task))
        bar = tqdm(
            total=len(todo),
            desc="sweep",
            unit="pt",
            file=sys.stderr,
            disable=not (progress and todo and on_terminal()),
            leave=False,
        )
        if scheduler is None and (workers == 1 or len(todo) <= 1):
            _run_serial(todo, store, bar)
        elif todo:
            startup, teardown = _run_dask(todo, store, bar, workers, scheduler)
    finally:
        if bar is not None:
            bar.close()
        ordered.flush()
    return SweepSummary(
        total=len(tasks),
        cached=cached,
        computed=len(todo),
        errors=errors,
        seconds=time.perf_counter() - t0,
        workers=1 if scheduler is None and workers == 1 else workers,
        scheduler=scheduler,
        startup=startup,
        teardown=teardown,
    )
