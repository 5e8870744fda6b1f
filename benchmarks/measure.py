"""Timing and peak memory of one benchmark call (shared by the ``bench_*`` modules)."""

from __future__ import annotations

import time
import tracemalloc


def timed(fn, memory: bool = True):
    """Time ``fn()`` untraced; with ``memory`` call it again under tracemalloc for the peak (MB).

    Returns ``(result, seconds, peak_mb)``; ``peak_mb`` is NaN without ``memory``.
    """
    t0 = time.perf_counter()
    out = fn()
    sec = time.perf_counter() - t0
    mb = float("nan")
    if memory:
        tracemalloc.start()
        fn()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        mb = peak / 2**20
    return out, sec, mb
