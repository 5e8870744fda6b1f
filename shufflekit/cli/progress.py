"""A progress indicator for any single computation that runs longer than about 2 seconds.

Commands that loop over points show a tqdm bar of their own; :func:`busy` covers the rest: after
``after`` seconds it shows an elapsed-time indicator on standard error (only when standard error
is a terminal, so pipes and logs stay clean) until the computation ends.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator


@contextlib.contextmanager
def busy(label: str, *, after: float = 2.0, enabled: bool = True) -> Iterator[None]:
    """Show ``label ... Ns`` on a terminal's stderr while the block runs past ``after`` seconds."""
    if not enabled or not getattr(sys.stderr, "isatty", lambda: False)():
        yield
        return
    stop = threading.Event()

    def spin() -> None:
        if stop.wait(after):
            return
        from tqdm import tqdm

        with tqdm(
            desc=label,
            unit="s",
            file=sys.stderr,
            leave=False,
            bar_format="{desc}: {elapsed} elapsed",
        ) as bar:
            t0 = time.monotonic()
            while not stop.wait(0.5):
                bar.n = int(time.monotonic() - t0)
                bar.refresh()

    worker = threading.Thread(target=spin, daemon=True)
    worker.start()
    try:
        yield
    finally:
        stop.set()
        worker.join(timeout=1.0)
