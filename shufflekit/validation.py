"""Validation of user-facing parameters: one place, one message format, one tolerance.

Every check returns the cleaned value or raises :class:`~shufflekit.errors.InvalidParameter`
naming the parameter, its value and the allowed range.  ``nan``, infinities where they are not
allowed, strings that are not numbers and booleans are rejected, never passed on.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from shufflekit.errors import InvalidParameter

#: Relative tolerance used wherever a user-given probability vector must sum to one.
PROBABILITY_SUM_TOL = 1e-9


def _interval(lo: float, hi: float, lo_open: bool, hi_open: bool) -> str:
    left = "(" if lo_open or lo == -math.inf else "["
    right = ")" if hi_open or hi == math.inf else "]"
    fmt = lambda v: "inf" if v == math.inf else "-inf" if v == -math.inf else f"{v:g}"  # noqa: E731
    return f"range {left}{fmt(lo)}, {fmt(hi)}{right}"


def check_real(
    name: str,
    value: Any,
    lo: float = -math.inf,
    hi: float = math.inf,
    *,
    lo_open: bool = False,
    hi_open: bool = False,
    allow_inf: bool = False,
) -> float:
    """``value`` as a float in the interval ``lo .. hi`` (ends open or closed)."""
    allowed = _interval(lo, hi, lo_open, hi_open)
    if isinstance(value, bool):
        raise InvalidParameter(name, value, allowed, "a number, not a boolean")
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidParameter(name, value, allowed, "not a number") from None
    if math.isnan(x) or (math.isinf(x) and not allow_inf):
        raise InvalidParameter(name, value, allowed)
    if x < lo or x > hi or (lo_open and x == lo) or (hi_open and x == hi):
        raise InvalidParameter(name, value, allowed)
    return x


def check_int(name: str, value: Any, lo: int = -(10**18), hi: int = 10**18) -> int:
    """``value`` as an int in ``[lo, hi]``; integral floats such as ``1e6`` are accepted."""
    allowed = f"range [{lo}, {hi}] (integer)" if hi < 10**18 else f"range [{lo}, inf) (integer)"
    if isinstance(value, bool):
        raise InvalidParameter(name, value, allowed, "an integer, not a boolean")
    if isinstance(value, numbers.Integral):
        v = int(value)
    else:
        try:
            x = Fraction(str(value).strip()) if isinstance(value, str) else Fraction(value)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError):
            raise InvalidParameter(name, value, allowed, "not an integer") from None
        if x.denominator != 1:
            raise InvalidParameter(name, value, allowed, "not an integer")
        v = int(x)
    if not lo <= v <= hi:
        raise InvalidParameter(name, value, allowed)
    return v


def check_n(n: Any) -> int:
    """Number of users, an integer >= 1."""
    return check_int("n", n, 1)


def check_epsilon(epsilon: Any) -> float:
    """Privacy parameter epsilon in [0, inf)."""
    return check_real("epsilon", epsilon, 0.0)


def check_delta(delta: Any) -> float:
    """Privacy parameter delta in [MIN_DELTA, 1) = [1e-300, 1)."""
    return check_real("delta", delta, MIN_DELTA, 1.0, hi_open=True)


def check_numbers(name: str, text: str, lo: float = -math.inf, hi: float = math.inf) -> list[float]:
    """A comma-separated list of real numbers in ``[lo, hi]``; an empty entry is an error."""
    allowed = "a comma-separated list of numbers"
    if not isinstance(text, str) or not text.strip():
        raise InvalidParameter(name, text, allowed, "empty")
    out = []
    for i, part in enumerate(text.split(",")):
        if not part.strip():
            raise InvalidParameter(name, text, allowed, f"entry {i + 1} is empty")
        out.append(check_real(f"{name}[{i + 1}]", part.strip(), lo, hi))
    return out


def check_matrix(value: Any, name: str = "matrix") -> list[list[float]]:
    """A stochastic matrix as rows of probabilities: text with rows separated by ';' and entries
    by ',' (``0.7,0.3;0.2,0.8``), or a list of rows of numbers; no empty entry or row."""
    allowed = "rows 'a,b,...' separated by ';' (or a list of rows of numbers)"
    if isinstance(value, (list, tuple)) and value:
        rows = []
        for i, row in enumerate(value):
            if not isinstance(row, (list, tuple)) or not row:
                raise InvalidParameter(name, value, allowed, f"row {i + 1} is not a list")
            rows.append([check_real(f"{name} row {i + 1}", x, 0.0, 1.0) for x in row])
        return rows
    if not isinstance(value, str):
        raise InvalidParameter(name, value, allowed)
    out = []
    for i, row in enumerate(value.split(";")):
        if not row.strip():
            raise InvalidParameter(name, value, allowed, f"row {i + 1} is empty")
        out.append(check_numbers(f"{name} row {i + 1}", row, 0.0, 1.0))
    return out


def check_probability(name: str, p: Any, *, open_ends: bool = False) -> float:
    """A probability in [0, 1] (or (0, 1) with ``open_ends``)."""
    return check_real(name, p, 0.0, 1.0, lo_open=open_ends, hi_open=open_ends)


# ============================================================ the documented domain, one table
#: Largest number of users (CLI ``--n``, sweep ``n``, ``shufflekit.accountant``, ``compose``).
MAX_N = 10**9
#: Largest local epsilon eps0 (e^eps0 must fit a float with room for the numeric accountants).
MAX_EPS0 = 100
#: Largest alphabet size k and dimension d a command or sweep may ask for.
MAX_K = 10**6
MAX_D = 10**6
#: Largest number m of jointly composed k-RR copies.
MAX_M = 4
#: Smallest target delta: every certified method is proven down to 1e-300 (below it float64
#: loses digits to subnormal numbers).
MIN_DELTA = 1e-300
#: Largest number of composed rounds (beyond, the composed loss law outgrows one FFT of
#: MAX_LOSS_CELLS on the finest grid and the answer is the trivial one after minutes: binary RR,
#: eps0 = 1, n = 100 certifies 3e5 rounds in 21 s, refuses 1e6 in 27 s and 1e7 in 74 s).
MAX_ROUNDS = 10**6
#: Range of the per-user sigma of the central Gaussian mechanism, and of a noise multiplier.
SIGMA_MIN, SIGMA_MAX = 1e-8, 1e8
MAX_NOISE_MULTIPLIER = 1e12
#: Largest loss law of one composed round, in grid cells: one FFT of this length (2^23 float64
#: cells, 64 MiB per array; the same number as ``radix2_fft.MAX_FFT``).
MAX_LOSS_CELLS = 2**23
#: Smallest loss grid: the losses of an eps0-LDP round lie in [-eps0, eps0] with eps0 <= MAX_EPS0,
#: i.e. 2 MAX_EPS0 / grid cells, which must fit MAX_LOSS_CELLS: 2^ceil(log2(200 / 2^23)) = 2^-15.
MIN_GRID = 2.0 ** math.ceil(math.log2(2 * MAX_EPS0 / MAX_LOSS_CELLS))
#: The neighbouring relations, and the hash families of binary local hashing.
ADJACENCIES = ("replace-one", "zero-out")
HASH_FAMILIES = ("all", "nonconstant")


@dataclass(frozen=True)
class Domain:
    """The documented range of one parameter: an interval (``integer`` for integers), or a set
    of ``choices``.  ``exact`` parameters (mechanism parameters such as eps0) are checked by
    value and kept as given, so ``"1/3"`` or ``"log(3)"`` stay exact."""

    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False
    integer: bool = False
    exact: bool = False
    choices: tuple[str, ...] = ()

    @property
    def allowed(self) -> str:
        """The range as text: ``range (0, 100]``, ``range [1, 1000000000] (integer)``,
        ``one of all, nonconstant``."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.integer:
            hi = "inf)" if self.hi == math.inf else f"{int(self.hi)}]"
            return f"range [{int(self.lo)}, {hi} (integer)"
        return _interval(self.lo, self.hi, self.lo_open, self.hi_open)

    def check(self, name: str, value: Any) -> Any:
        """``value`` if it is in the domain (integers as ``int``, reals as ``float``, exact
        values and choices unchanged), else :class:`InvalidParameter`."""
        if self.choices:
            if not isinstance(value, str) or value not in self.choices:
                raise InvalidParameter(name, value, self.allowed)
            return value
        if self.integer:
            return check_int(name, value, int(self.lo), int(min(self.hi, 10**18)))
        if self.exact:
            from shufflekit.mechanisms.parameters import as_param

            as_param(
                value,
                name,
                low=_finite(self.lo),
                high=_finite(self.hi),
                low_open=self.lo_open,
                high_open=self.hi_open,
            )
            return value
        return check_real(name, value, self.lo, self.hi, lo_open=self.lo_open, hi_open=self.hi_open)


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


#: The one table of documented ranges: the command line's option types, the keys of sweep
#: specs and compose schedules, and the inputs of ``shufflekit.accountant`` / ``compose`` are
#: all checked against it.
DOMAINS: dict[str, Domain] = {
    "n": Domain(1, MAX_N, integer=True),
    "epsilon": Domain(0.0),
    "delta": Domain(MIN_DELTA, 1.0, hi_open=True),
    "eps0": Domain(0.0, MAX_EPS0, lo_open=True, exact=True),
    "k": Domain(2, MAX_K, integer=True),
    "m": Domain(1, MAX_M, integer=True),
    "p": Domain(0.0, 1.0, lo_open=True, hi_open=True, exact=True),
    "theta": Domain(-1.0, 1.0, exact=True),
    "d": Domain(1, MAX_D, integer=True),
    "gamma": Domain(0.0, 1.0, lo_open=True, exact=True),
    "sigma0": Domain(0.0, lo_open=True, exact=True),
    "hash_family": Domain(choices=HASH_FAMILIES),
    "adjacency": Domain(choices=ADJACENCIES),
    "sigma": Domain(SIGMA_MIN, SIGMA_MAX),
    "noise_multiplier": Domain(SIGMA_MIN, MAX_NOISE_MULTIPLIER),
    "rounds": Domain(1, MAX_ROUNDS, integer=True),
    "grid": Domain(MIN_GRID, 1.0),
    "tail": Domain(0.0, 1.0, lo_open=True, hi_open=True),
    #: each user takes part with this probability before the shuffle (Poisson subsampling)
    "sampling_rate": Domain(0.0, 1.0, lo_open=True, exact=True),
}

#: Mechanism parameters (keys of ``shufflekit.make``) that have a documented range.
MECHANISM_PARAMETERS = ("k", "m", "eps0", "p", "theta", "d", "gamma", "sigma0", "hash_family")

#: Options that exclude each other: at most one of each group may be given, everywhere.
EXCLUSIVE = (("sigma", "noise_multiplier"),)


def check(name: str, value: Any) -> Any:
    """``value`` checked against the documented range ``DOMAINS[name]``."""
    return DOMAINS[name].check(name, value)


def check_exclusive(given: Mapping[str, Any], where: str = "") -> None:
    """At most one option of each group of :data:`EXCLUSIVE` is given (not ``None``)."""
    for group in EXCLUSIVE:
        both = [g for g in group if given.get(g) is not None]
        if len(both) > 1:
            raise InvalidParameter(
                f"{where}{both[0]}/{both[1]}",
                tuple(given[g] for g in both),
                f"one of {' or '.join(group)}",
                "they exclude each other",
            )


def central_gaussian_sigma(sigma: Any, noise_multiplier: Any, n: int) -> float:
    r"""The per-user :math:`\sigma` of :math:`\mathsf{GM}(\sigma)` from exactly one of ``sigma``
    or a noise multiplier :math:`z` (noise sd over sensitivity :math:`1/n`):
    :math:`\sigma = z/\sqrt n`, so the released mean carries noise
    :math:`N(0, \sigma^2/n) = N(0, (z/n)^2)`."""
    check_exclusive({"sigma": sigma, "noise_multiplier": noise_multiplier})
    if sigma is None and noise_multiplier is None:
        raise InvalidParameter(
            "sigma", None, DOMAINS["sigma"].allowed + ": give sigma (per-user) or noise_multiplier"
        )
    if sigma is not None:
        return check("sigma", sigma)
    z = check("noise_multiplier", noise_multiplier)
    return check_real(
        "sigma = noise-multiplier/sqrt(n)", z / math.sqrt(check("n", n)), SIGMA_MIN, SIGMA_MAX
    )


def mechanism_parameters(mechanism: Any) -> list[tuple[str, Any]]:
    """The (name, value) pairs of a mechanism's defining parameters, its components' included
    (a joint composition); only those with a number as value and a documented range."""
    out: list[tuple[str, Any]] = []
    if isinstance(mechanism, Mapping):
        params: Any = mechanism
    else:
        params = getattr(mechanism, "params", None)
        params = params() if callable(params) else params
    params = dict(params) if isinstance(params, Mapping) else {}
    if "eps0" in params:  # randomized response's keep probability p follows from eps0
        params.pop("p", None)
    for key, value in params.items():
        if key in MECHANISM_PARAMETERS and not getattr(value, "free_symbols", None):
            out.append((key, value))
    parts = getattr(mechanism, "components", None) or ()
    for part in parts:
        out += mechanism_parameters(part)
    if parts and callable(getattr(mechanism, "eps0", None)):  # a joint composition's eps0
        out.append(("eps0", mechanism.eps0()))  # is the sum of its parts'
    return out


def check_accountant_inputs(mechanism: Any, n: Any) -> int:
    """``n`` and the mechanism's numeric parameters checked against :data:`DOMAINS` (the same
    ranges as the command line and sweep specs); returns ``n`` as an int.  Symbolic parameters
    and mechanisms without ``params`` pass."""
    named = mechanism_parameters(mechanism)
    for key, value in named:
        check(key, value if DOMAINS[key].choices else _number(value))
    if not any(key == "eps0" for key, _ in named):
        check_matrix_eps0(mechanism)
    return check("n", n)


def check_matrix_eps0(mechanism: Any) -> None:
    r"""A numeric matrix given without an ``eps0`` parameter has its local
    :math:`\varepsilon_0 = \max_{x,x',y}\log(R_x(y)/R_{x'}(y))` in the documented range
    ``(0, MAX_EPS0]``, the same range a named mechanism's ``eps0`` has.  An unbounded ratio
    (an output one input never produces and another does) is not an ``eps0`` at all and is
    left to the methods, which decline it where they need one."""
    import sympy as sp

    from shufflekit.mechanisms.finite import FiniteMechanism

    if not isinstance(mechanism, FiniteMechanism) or mechanism.is_symbolic:
        return
    eps0 = mechanism.eps0()
    if eps0 == sp.oo or eps0 == 0:
        return
    value = float(eps0)
    if value > MAX_EPS0:
        raise InvalidParameter(
            "eps0 (of the matrix)",
            value,
            DOMAINS["eps0"].allowed,
            "the largest log-ratio of two entries of one output column",
        )


def _number(value: Any) -> Any:
    """A sympy number as a float (its range check needs no exact arithmetic), else unchanged."""
    if isinstance(value, (str, bool)) or isinstance(value, numbers.Number):
        return value
    try:
        return float(value)
    except (TypeError, ValueError, OverflowError):
        return value
