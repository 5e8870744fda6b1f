"""Setting up each Dask worker once for sweeps, when it joins, instead of in its first point.

Registered by the engine with ``Client.register_plugin``: workers that join later get it too.
"""

from __future__ import annotations

from distributed.diagnostics.plugin import WorkerPlugin

from shufflekit.sweep.task import warm_up


class WarmUp(WorkerPlugin):
    """Import the mechanisms and the numeric layer and fill the method registry."""

    name = "shufflekit-sweep-warm-up"

    def setup(self, worker) -> None:
        warm_up()
