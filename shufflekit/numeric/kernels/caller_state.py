r"""The caller's arithmetic state stays the caller's, and float code runs with traps on.

Certified code sets python-flint's working precision (``ctx.prec``) where it needs a given
number of bits, and its float fast paths are proven only while no operation overflows, divides
by zero or produces a NaN.  :func:`certified_arithmetic` is the boundary every public numeric
entry point runs inside:

* inside, Arb works at :data:`WORKING_PREC` bits whatever the caller set (results do not
  depend on the caller's precision); python-flint's ``ctx.prec`` and numpy's error state are
  restored on exit, whatever happened inside (``ctx.prec = 300`` before a call is still 300
  after it);
* numpy *raises* ``FloatingPointError`` on overflow, invalid operations and division by zero
  (underflow is ignored: every kernel treats it explicitly, rounding toward the safe side), so a
  fast path that leaves its error model stops instead of returning an unproven number.  Code
  that handles ``inf``/``nan`` deliberately says so with a local ``np.errstate``.

The accountant base class turns such a stop into the trivially valid answer with a note (see
:class:`shufflekit.numeric.accountant.Accountant`), never into a traceback.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np
from flint import ctx

F = TypeVar("F", bound=Callable[..., Any])

#: The Arb working precision (bits) inside the boundary, whatever the caller's is: a result
#: does not depend on what the caller set.
WORKING_PREC = 128


@contextmanager
def certified_arithmetic() -> Iterator[None]:
    """Run the block with numpy traps on; restore ``ctx.prec`` and numpy's state after it."""
    prec = ctx.prec
    ctx.prec = WORKING_PREC
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
            yield
    finally:
        ctx.prec = prec


def keeps_caller_state(func: F) -> F:
    """Decorator form of :func:`certified_arithmetic`."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with certified_arithmetic():
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
