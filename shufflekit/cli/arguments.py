"""Shared argument types and options of the command line.

Every option type validates its text with :mod:`shufflekit.validation` (or the mechanism
parameter check) and, when the text is not allowed, argparse prints one line naming the option,
the value and the allowed range, and the command exits with status 2.
"""
from __future__ import annotations

import argparse
import math
from tokenize import TokenError
from typing import Any, Callable

from shufflekit.errors import InvalidParameter
from shufflekit.validation import check_delta, check_epsilon, check_int, check_real

#: upper limits of integer options whose cost grows with them (documented in --help)
MAX_N = 10 ** 12
MAX_D = 10 ** 6
MAX_K = 10 ** 6
MAX_EPS0 = 100


def arg_type(check: Callable[[str], Any], metavar: str) -> Callable[[str], Any]:
    """An argparse ``type`` from a validation function raising InvalidParameter."""

    def parse(text: str) -> Any:
        try:
            return check(text)
        except InvalidParameter as exc:       # show the text as typed: n=0, eps0=abc
            plain = isinstance(text, str) and text.isprintable() and text == text.strip() and text
            shown = (text if plain else repr(text)) if exc.value == text else repr(exc.value)
            msg = f"{exc.name}={shown} is not allowed; allowed {exc.allowed}"
            raise argparse.ArgumentTypeError(msg + (f" ({exc.why})" if exc.why else "")) from None
        except (ArithmeticError, RecursionError, MemoryError) as exc:   # never a traceback
            raise argparse.ArgumentTypeError(f"{metavar}={text!r} is not a number "
                                             f"({type(exc).__name__})") from None

    parse.__name__ = metavar
    return parse


def real(name: str, lo: float = -math.inf, hi: float = math.inf, *, lo_open: bool = False,
         hi_open: bool = False) -> Callable[[str], float]:
    """A real number in the interval (ends open or closed as given)."""
    return arg_type(lambda t: check_real(name, t, lo, hi, lo_open=lo_open, hi_open=hi_open), name)


def integer(name: str, lo: int, hi: int) -> Callable[[str], int]:
    """An integer in ``[lo, hi]`` (``1e6`` is accepted as 1000000)."""
    return arg_type(lambda t: check_int(name, t, lo, hi), name)


def exact(name: str, lo: float | None = None, hi: float | None = None, *, lo_open: bool = False,
          hi_open: bool = False, integral: bool = False) -> Callable[[str], str]:
    """A number kept as text so it stays exact (``0.6``, ``1/3``, ``log(3)``), range-checked."""
    from shufflekit.mechanisms.parameters import as_param

    def check(text: str) -> str:
        as_param(text, name, low=lo, high=hi, low_open=lo_open, high_open=hi_open,
                 integer=integral)
        return text.strip()

    return arg_type(check, name)


epsilon_type = arg_type(check_epsilon, "epsilon")
delta_type = arg_type(check_delta, "delta")
n_type = integer("n", 1, MAX_N)


def numbers(name: str, text: str, lo: float = -math.inf, hi: float = math.inf) -> list[float]:
    """A comma-separated list of real numbers; an empty entry is an error, not skipped."""
    parts = text.split(",")
    if not text.strip():
        raise InvalidParameter(name, text, "a comma-separated list of numbers", "empty")
    out = []
    for i, part in enumerate(parts):
        if not part.strip():
            raise InvalidParameter(name, text, "a comma-separated list of numbers",
                                   f"entry {i + 1} is empty")
        out.append(check_real(f"{name}[{i + 1}]", part.strip(), lo, hi))
    return out


def matrix(text: str) -> list[list[float]]:
    """Rows separated by ';', entries by ',' (e.g. ``0.7,0.3;0.2,0.8``); no empty entry or row."""
    rows = text.split(";")
    out = []
    for i, row in enumerate(rows):
        if not row.strip():
            raise InvalidParameter("matrix", text, "rows 'a,b,...' separated by ';'",
                                   f"row {i + 1} is empty")
        out.append(numbers(f"matrix row {i + 1}", row, 0.0, 1.0))
    return out


MECHANISM_HELP = ("mechanism: rr, krr, blh, rappor, oue, hr, joint-krr, privunit, gaussian-local, "
                  "bmg, finite (see `shufflekit list mechanisms`)")


def add_mechanism_arguments(p: argparse.ArgumentParser, *, extra_names: tuple[str, ...] = ()
                            ) -> None:
    """The mechanism name and its parameters (each checked against its documented range)."""
    p.add_argument("name", help=MECHANISM_HELP + (f"; also {', '.join(extra_names)}"
                                                  if extra_names else ""))
    p.add_argument("--k", type=integer("k", 2, MAX_K), default=None,
                   help="alphabet size, integer >= 2 (krr, blh, rappor, oue, hr, joint-krr); "
                        "no default")
    p.add_argument("--m", type=integer("m", 1, 4), default=None,
                   help="number of jointly composed k-RR copies, integer in [1, 4] (joint-krr)")
    p.add_argument("--eps0", type=exact("eps0", 0, MAX_EPS0, lo_open=True), default=None,
                   help=f"local epsilon eps0 in (0, {MAX_EPS0}] (nats; exact text such as 1/2 "
                        "or log(3) is kept exact; e^eps0 must fit a float for the numeric "
                        "accountants); no default")
    p.add_argument("--p", type=exact("p", 0, 1, lo_open=True, hi_open=True), default=None,
                   help="rr: keep probability in [1/2, 1) (instead of --eps0); privunit: cap "
                        "probability in (0, 1)")
    p.add_argument("--theta", type=exact("theta", -1, 1), default=None,
                   help="PrivUnit cap threshold in [-1, 1] ((-1, 1) when d >= 2)")
    p.add_argument("--d", type=integer("d", 1, MAX_D), default=None,
                   help=f"dimension, integer in [1, {MAX_D}] (privunit: required; "
                        "gaussian-local, bmg: default 1)")
    p.add_argument("--gamma", type=exact("gamma", 0, 1, lo_open=True), default=None,
                   help="blanket mass of bmg, in (0, 1]")
    p.add_argument("--sigma0", type=exact("sigma0", 0, None, lo_open=True), default=None,
                   help="per-report Gaussian standard deviation sigma0 > 0 (gaussian-local, bmg; "
                        "in units of the input norm bound 1)")
    p.add_argument("--matrix", type=arg_type(matrix, "matrix"), default=None,
                   help="finite mechanism: rows (one per input) separated by ';', probabilities "
                        "by ',', each row summing to 1, e.g. '0.7,0.3;0.2,0.8'")
    p.add_argument("--hash-family", default="all", choices=["all", "nonconstant"],
                   help="BLH hash family (default: all)")
    p.add_argument("--adjacency", default=None, choices=["replace-one", "zero-out"],
                   help="neighbouring relation (default: the method's first, replace-one for "
                        "finite mechanisms; continuous mechanisms use zero-out)")


def add_sigma_arguments(p: argparse.ArgumentParser) -> None:
    """``--sigma`` (per-user) or ``--noise-multiplier`` (dp_accounting style) of central-gaussian."""
    sig = p.add_mutually_exclusive_group()
    sig.add_argument("--sigma", type=real("sigma", SIGMA_MIN, SIGMA_MAX), default=None,
                     help="central-gaussian: the PER-USER sigma of GM(sigma) (seed 000): the "
                          "released mean carries noise N(0, sigma^2/n); this is NOT a noise "
                          f"multiplier (see --noise-multiplier); in [{SIGMA_MIN:g}, {SIGMA_MAX:g}]")
    sig.add_argument("--noise-multiplier", type=real("noise-multiplier", SIGMA_MIN, 1e12),
                     default=None,
                     help="central-gaussian: dp_accounting-style noise multiplier z = noise sd / "
                          "sensitivity (sensitivity 1/n), i.e. --sigma z/sqrt(n); "
                          f"in [{SIGMA_MIN:g}, 1e+12]")


#: range of the per-user sigma of central-gaussian
SIGMA_MIN, SIGMA_MAX = 1e-8, 1e8


def central_gaussian_sigma(sigma: float | None, noise_multiplier: float | None, n: int) -> float:
    r"""The per-user :math:`\sigma` of :math:`\mathsf{GM}(\sigma)` (seed 000, Sec. 5) from
    ``--sigma`` or from a noise multiplier :math:`z` (noise sd over sensitivity :math:`1/n`):
    :math:`\sigma = z/\sqrt n`, so the released mean carries noise
    :math:`N(0, \sigma^2/n) = N(0, (z/n)^2)`."""
    if sigma is None and noise_multiplier is None:
        raise InvalidParameter("sigma", None, "range (0, inf): give --sigma (per-user) or "
                               "--noise-multiplier")
    if sigma is not None:
        return sigma
    return check_real("sigma = noise-multiplier/sqrt(n)", noise_multiplier / math.sqrt(n),
                      SIGMA_MIN, SIGMA_MAX)


def build_mechanism(args: argparse.Namespace):
    """The mechanism named by ``args.name`` from the parsed options."""
    from shufflekit.mechanisms import make

    return make(args.name, k=args.k, m=getattr(args, "m", None), eps0=args.eps0, p=args.p,
                theta=args.theta, d=args.d, gamma=args.gamma, sigma0=args.sigma0,
                matrix=args.matrix, hash_family=args.hash_family if args.name == "blh" else None)


MECHANISM_OPTIONS = ("k", "m", "eps0", "p", "theta", "d", "gamma", "sigma0", "matrix")


def unused_mechanism_options(args: argparse.Namespace) -> list[str]:
    """Notes naming each given mechanism option that the named mechanism does not use."""
    from shufflekit.mechanisms import MECHANISMS

    spec = MECHANISMS.get(args.name)
    if spec is None:
        return []
    used = set(spec.required) | set(spec.optional)
    return [f"--{o} does not apply to {args.name}; ignored" for o in MECHANISM_OPTIONS
            if getattr(args, o, None) is not None and o not in used]


#: functions and constants an expression option may use (everything else that Python or sympy
#: would resolve to an object is refused, so the text can never run code)
EXPRESSION_FUNCTIONS = frozenset(
    "exp log sqrt sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh erf erfc erfinv "
    "gamma loggamma factorial binomial LambertW Abs abs pi E oo Rational Integer".split())
#: largest exponent of a power of numbers (10**10**10 would never finish)
MAX_NUMERIC_EXPONENT = 10 ** 4
MAX_EXPRESSION_CHARS = 500
FLOAT_LITERAL = r"\d*\.\d+(?:[eE][-+]?\d+)?|\d+\.(?:[eE][-+]?\d+)?"


def identifier(name: str) -> Callable[[str], str]:
    """A variable name: a letter, then letters, digits or '_' (not a Python keyword)."""
    import keyword
    import re

    def check(text: str) -> str:
        if (not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,30}", text) or keyword.iskeyword(text)
                or "__" in text):
            raise InvalidParameter(name, text, "a variable name: a letter, then letters, "
                                   "digits or _ (at most 31 characters)")
        return text

    return arg_type(check, name)


def check_expression(name: str, text: str) -> str:
    """``text`` if it is a plain arithmetic expression: numbers, variable names, + - * / ** ^ ( ),
    and the functions of :data:`EXPRESSION_FUNCTIONS`; its powers of numbers stay small."""
    import builtins
    import keyword
    import re

    import sympy

    allowed = ("an arithmetic expression of numbers, variables, + - * / ** ( ) and elementary "
               "functions (exp, log, sqrt, sin, erf, gamma, ...; listed in --help)")
    if not text.strip():
        raise InvalidParameter(name, text, allowed, "empty")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise InvalidParameter(name, text[:40] + "...", allowed,
                               f"longer than {MAX_EXPRESSION_CHARS} characters")
    if not re.fullmatch(r"[A-Za-z0-9_ +\-*/^().,]*", text) or "__" in text:
        raise InvalidParameter(name, text, allowed, "a character outside the expression syntax")
    if "." in re.sub(FLOAT_LITERAL, "0", text):
        raise InvalidParameter(name, text, allowed, "'.' outside a decimal number")
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", re.sub(FLOAT_LITERAL, "0", text)):
        known = hasattr(builtins, word) or hasattr(sympy, word) or keyword.iskeyword(word)
        if known and word not in EXPRESSION_FUNCTIONS:
            raise InvalidParameter(name, text, allowed, f"{word!r} is not allowed")
    try:
        expr = sympy.parse_expr(text.replace("^", "**"), evaluate=False)
    except (SyntaxError, TypeError, ValueError, AttributeError, TokenError) as exc:
        raise InvalidParameter(name, text, allowed, f"not an expression ({type(exc).__name__})"
                               ) from None
    if not isinstance(expr, sympy.Basic):
        raise InvalidParameter(name, text, allowed, "not an expression")
    for power in expr.atoms(sympy.Pow):
        if power.base.is_number and power.exp.is_number:
            with sympy.evaluate(True):
                size = abs(complex(sympy.N(power.exp, 15)))
            if not size <= MAX_NUMERIC_EXPONENT:
                raise InvalidParameter(name, text, allowed, "a power of numbers with an exponent "
                                       f"above {MAX_NUMERIC_EXPONENT}")
    return text.strip()


def expression(name: str) -> Callable[[str], str]:
    """An argparse type for :func:`check_expression` (the text is kept; the library parses it)."""
    return arg_type(lambda t: check_expression(name, t), name)
