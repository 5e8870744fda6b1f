"""The exceptions shufflekit raises, in one place.

``InvalidParameter`` is bad input (a ``ValueError``: the command line exits with status 2).
``CannotCertify`` is *not* bad input: the input is valid but the method cannot produce a
certified answer for it (the command line exits with status 3).
"""

from __future__ import annotations

from typing import Any


class ShufflekitError(Exception):
    """Base class of every error shufflekit raises on purpose."""


class InvalidParameter(ShufflekitError, ValueError):
    """A parameter is outside its allowed range.

    The message names the parameter, its value and the allowed range, e.g.
    ``delta=2.0 is not allowed; allowed range (0, 1)``.
    """

    def __init__(self, name: str, value: Any, allowed: str, why: str | None = None):
        self.name, self.value, self.allowed, self.why = name, value, allowed, why
        text = f"{name}={value!r} is not allowed; allowed {allowed}"
        if why:
            text += f" ({why})"
        super().__init__(text)


class UnsupportedMethod(InvalidParameter):
    """The requested accounting method does not apply to this mechanism or relation."""

    def __init__(self, method: str, allowed: str, why: str | None = None):
        super().__init__("method", method, allowed, why)


class CannotCertify(ShufflekitError):
    """Valid input, but the method cannot certify the requested target."""
