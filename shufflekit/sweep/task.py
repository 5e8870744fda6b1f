"""Computing one sweep point: build the mechanism, ask the registered accountant, make a row.

:func:`compute` is what a worker runs; it never raises for a failing point: the row records
``status = "error"`` and the message, so one bad point does not stop a sweep.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
import traceback
from typing import Any

from shufflekit.sweep.spec import Task

#: Columns every row has (mechanism parameters come after ``mechanism``).
RESULT_COLUMNS = (
    "index",
    "n",
    "method",
    "adjacency",
    "quantity",
    "target",
    "epsilon",
    "delta",
    "bound",
    "lo",
    "hi",
    "error",
    "pairs",
    "note",
    "certificate",
    "seconds",
    "status",
    "message",
    "cached",
    "version",
    "key",
)

#: Arithmetic behind the numbers; part of the cache key so a change of precision recomputes.
PRECISION = "float64 with outward-rounded enclosures (Arb where certified)"


def version() -> str:
    from shufflekit import __version__

    return __version__


def task_key(task: Task) -> str:
    """Cache key: a hash of (mechanism, parameters, method, target, version, precision)."""
    payload = {"task": task.as_dict(), "version": version(), "precision": PRECISION}
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@functools.lru_cache(maxsize=64)
def _mechanism(name: str, params: tuple) -> Any:
    from shufflekit.mechanisms import make
    from shufflekit.validation import check_matrix

    kwargs = dict(params)
    if isinstance(kwargs.get("matrix"), str):  # kept as text so the task is hashable
        kwargs["matrix"] = check_matrix(kwargs["matrix"])
    return make(name, **kwargs)


@functools.lru_cache(maxsize=64)
def _accountant(
    name: str,
    params: tuple,
    n: int,
    method: str | None,
    adjacency: str | None,
    options: tuple,
    sampling_rate: Any = None,
) -> Any:
    from shufflekit.numeric.accountant import accountant

    return accountant(
        _mechanism(name, params),
        n,
        method=method,
        adjacency=adjacency,
        sampling_rate=sampling_rate,
        **dict(options),
    )


def base_row(task: Task, key: str, index: int | None = None) -> dict:
    """The input columns of a row, with every result column present (``None`` until computed)."""
    row = dict.fromkeys(RESULT_COLUMNS)
    row.update(
        {
            "index": index,
            "mechanism": task.mechanism,
            **dict(task.params),
            "n": task.n,
            "method": task.method,
            "adjacency": task.adjacency,
            "quantity": task.quantity,
            "target": task.target,
            **({} if task.sampling_rate is None else {"sampling_rate": task.sampling_rate}),
            "version": version(),
            "key": key,
            "cached": False,
        }
    )
    return row


def compute(task: Task, index: int | None = None) -> dict:
    """The row of one point: the :class:`~shufflekit.numeric.bound.Bound` fields and timing.

    Mechanisms and accountants are memoised per process, so the points of one curve share
    the set-up cost.
    """
    key = task_key(task)
    row = base_row(task, key, index)
    t0 = time.perf_counter()
    try:
        acc = _accountant(
            task.mechanism,
            task.params,
            task.n,
            task.method,
            task.adjacency,
            task.options,
            task.sampling_rate,
        )
        b = (
            acc.get_epsilon(task.target)
            if task.quantity == "epsilon"
            else acc.get_delta(task.target)
        )
        row.update(
            method=b.method,
            adjacency=b.adjacency,
            epsilon=b.epsilon,
            delta=b.delta,
            bound=str(b.kind),
            lo=b.lo,
            hi=b.hi,
            error=b.width,
            pairs=b.pairs,
            note=b.note,
            certificate=b.certificate,
            status="ok",
            message="",
        )
    except Exception as exc:  # noqa: BLE001 - a failing point is data, not a crash
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        row.update(status="error", message=last)
    row["seconds"] = round(time.perf_counter() - t0, 6)
    return row


def warm_up() -> None:
    """Import the mechanisms and the numeric layer and fill the method registry, so a fresh
    worker process pays for them once, before its first point."""
    import importlib

    from shufflekit.numeric.accountant import methods

    importlib.import_module("shufflekit.mechanisms")
    methods()


def curve_key(task: Task) -> tuple:
    """Tasks with the same key share one accountant (they differ only in their target)."""
    return (
        task.mechanism,
        task.params,
        task.n,
        task.method,
        task.adjacency,
        task.options,
        task.sampling_rate,
    )


def compute_group(indexed: list[tuple[int, Task]]) -> list[dict]:
    """Rows of several points that share an accountant, computed in one worker call."""
    return [compute(task, index) for index, task in indexed]
