"""Shared argument types and options of the command line.

Every option type validates its text with :mod:`shufflekit.validation` (or the mechanism
parameter check) and, when the text is not allowed, argparse prints one line naming the option,
the value and the allowed range, and the command exits with status 2.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from tokenize import TokenError
from typing import Any

from shufflekit.errors import InvalidParameter
from shufflekit.validation import (
    DOMAINS,
    MAX_D,
    MAX_EPS0,
    MAX_K,
    SIGMA_MAX,  # noqa: F401
    SIGMA_MIN,
    check_int,
    check_matrix,
    check_numbers,
    check_real,
)
from shufflekit.validation import central_gaussian_sigma as _central_gaussian_sigma


def arg_type(check: Callable[[str], Any], metavar: str) -> Callable[[str], Any]:
    """An argparse ``type`` from a validation function raising InvalidParameter."""

    def parse(text: str) -> Any:
        try:
            return check(text)
        except InvalidParameter as exc:  # show the text as typed: n=0, eps0=abc
            plain = isinstance(text, str) and text.isprintable() and text == text.strip() and text
            shown = (text if plain else repr(text)) if exc.value == text else repr(exc.value)
            msg = f"{exc.name}={shown} is not allowed; allowed {exc.allowed}"
            raise argparse.ArgumentTypeError(msg + (f" ({exc.why})" if exc.why else "")) from None
        except (ArithmeticError, RecursionError, MemoryError) as exc:  # never a traceback
            raise argparse.ArgumentTypeError(
                f"{metavar}={text!r} is not a number ({type(exc).__name__})"
            ) from None

    parse.__name__ = metavar
    return parse


def real(
    name: str,
    lo: float = -math.inf,
    hi: float = math.inf,
    *,
    lo_open: bool = False,
    hi_open: bool = False,
) -> Callable[[str], float]:
    """A real number in the interval (ends open or closed as given)."""
    return arg_type(lambda t: check_real(name, t, lo, hi, lo_open=lo_open, hi_open=hi_open), name)


def integer(name: str, lo: int, hi: int) -> Callable[[str], int]:
    """An integer in ``[lo, hi]`` (``1e6`` is accepted as 1000000)."""
    return arg_type(lambda t: check_int(name, t, lo, hi), name)


def domain_type(name: str, shown: str | None = None) -> Callable[[str], Any]:
    """An argparse type for the documented range ``DOMAINS[name]`` of
    :mod:`shufflekit.validation` (the ranges sweep specs, schedules and the Python API use);
    exact parameters keep their text (``1/3``, ``log(3)``)."""
    domain, label = DOMAINS[name], shown or name

    def check(text: str) -> Any:
        value = domain.check(label, text)
        return value.strip() if domain.exact and isinstance(value, str) else value

    return arg_type(check, label)


epsilon_type = domain_type("epsilon")
delta_type = domain_type("delta")
n_type = domain_type("n")


#: comma-separated numbers and ';'-separated matrix rows (parsed in :mod:`shufflekit.validation`)
numbers = check_numbers
matrix = check_matrix


MECHANISM_HELP = (
    "mechanism: rr, krr, blh, rappor, oue, hr, joint-krr, privunit, gaussian-local, "
    "bmg, finite (see `shufflekit list mechanisms`)"
)


def add_mechanism_arguments(
    p: argparse.ArgumentParser,
    *,
    extra_names: tuple[str, ...] = (),
    name_optional: str | None = None,
) -> None:
    """The mechanism name and its parameters (each checked against its documented range);
    ``name_optional`` makes the name optional and says when it may be left out."""
    text = MECHANISM_HELP + (f"; also {', '.join(extra_names)}" if extra_names else "")
    if name_optional:
        p.add_argument("name", nargs="?", default=None, help=f"{text} ({name_optional})")
    else:
        p.add_argument("name", help=text)
    p.add_argument(
        "--k",
        type=domain_type("k"),
        default=None,
        help=f"alphabet size, integer in [2, {MAX_K}] (krr, blh, rappor, oue, hr, "
        "joint-krr); no default",
    )
    p.add_argument(
        "--m",
        type=domain_type("m"),
        default=None,
        help="number of jointly composed k-RR copies, integer in [1, 4] (joint-krr)",
    )
    p.add_argument(
        "--eps0",
        type=domain_type("eps0"),
        default=None,
        help=f"local epsilon eps0 in (0, {MAX_EPS0}] (nats; exact text such as 1/2 "
        "or log(3) is kept exact; e^eps0 must fit a float for the numeric "
        "accountants); no default",
    )
    p.add_argument(
        "--p",
        type=domain_type("p"),
        default=None,
        help="rr: keep probability in [1/2, 1) (instead of --eps0); privunit: cap "
        "probability in (0, 1)",
    )
    p.add_argument(
        "--theta",
        type=domain_type("theta"),
        default=None,
        help="PrivUnit cap threshold in [-1, 1] ((-1, 1) when d >= 2)",
    )
    p.add_argument(
        "--d",
        type=domain_type("d"),
        default=None,
        help=f"dimension, integer in [1, {MAX_D}] (privunit: required; "
        "gaussian-local, bmg: default 1)",
    )
    p.add_argument(
        "--gamma", type=domain_type("gamma"), default=None, help="blanket mass of bmg, in (0, 1]"
    )
    p.add_argument(
        "--sigma0",
        type=domain_type("sigma0"),
        default=None,
        help="per-report Gaussian standard deviation sigma0 > 0 (gaussian-local, bmg; "
        "in units of the input norm bound 1)",
    )
    p.add_argument(
        "--matrix",
        type=arg_type(matrix, "matrix"),
        default=None,
        help="finite mechanism: rows (one per input) separated by ';', probabilities "
        "by ',', each row summing to 1, e.g. '0.7,0.3;0.2,0.8'",
    )
    from shufflekit.mechanisms.parameters import as_param

    for opt, text, rng in (
        (
            "distance",
            "laplace-metric, planar-laplace: distance of the neighbouring inputs (> 0)",
            dict(low=0, low_open=True),
        ),
        ("bins", "balls-into-bins, mixdump, balcer: number of bins (integer >= 2)", dict(low=2)),
        ("special", "balls-into-bins: blanket messages per user (integer in [1, bins - 1])", {}),
        (
            "f",
            "mixdump, cheu: flip probability (mixdump (0, 1], cheu (0, 1/2))",
            dict(low=0, high=1, low_open=True),
        ),
        ("dummies", "mixdump: dummy messages per user (integer >= 0, default 1)", dict(low=0)),
    ):
        integer = opt in ("bins", "special", "dummies")
        rng = {"low": 1, **rng} if opt == "special" else rng
        check = (
            lambda t, o=opt, r=rng, i=integer: as_param(t, o, integer=i, **r)  # noqa: E731
        )
        p.add_argument(f"--{opt}", type=arg_type(check, opt), default=None, help=text)
    p.add_argument(
        "--hash-family",
        default="all",
        choices=list(DOMAINS["hash_family"].choices),
        help="BLH hash family (default: all)",
    )
    p.add_argument(
        "--adjacency",
        default=None,
        choices=list(DOMAINS["adjacency"].choices),
        help="neighbouring relation (default: the method's first, replace-one for "
        "finite mechanisms; continuous mechanisms use zero-out)",
    )


def add_sampling_argument(p: argparse.ArgumentParser) -> None:
    """``--sampling-rate q``: each user takes part with probability q before the shuffle."""
    p.add_argument(
        "--sampling-rate",
        type=domain_type("sampling_rate", "sampling-rate"),
        default=None,
        help="Poisson subsampling before the shuffle: each of the n users takes part with "
        "probability q in (0, 1] and the participants are shuffled (finite mechanisms, "
        "replace-one; exact text such as 1/10 is kept exact); default: everyone takes part",
    )


def add_sigma_arguments(p: argparse.ArgumentParser) -> None:
    """``--sigma`` (per-user) or ``--noise-multiplier`` (dp_accounting style) of central-gaussian."""
    top = DOMAINS["noise_multiplier"].hi
    sig = p.add_mutually_exclusive_group()
    sig.add_argument(
        "--sigma",
        type=domain_type("sigma"),
        default=None,
        help="central-gaussian: the PER-USER sigma of GM(sigma) (Takagi-Liew 2026): the "
        "released mean carries noise N(0, sigma^2/n); this is NOT a noise "
        f"multiplier (see --noise-multiplier); in [{SIGMA_MIN:g}, {SIGMA_MAX:g}]",
    )
    sig.add_argument(
        "--noise-multiplier",
        type=domain_type("noise_multiplier", "noise-multiplier"),
        default=None,
        help="central-gaussian: dp_accounting-style noise multiplier z = noise sd / "
        "sensitivity (sensitivity 1/n), i.e. --sigma z/sqrt(n); "
        f"in [{SIGMA_MIN:g}, {top:g}]",
    )


def central_gaussian_sigma(sigma: float | None, noise_multiplier: float | None, n: int) -> float:
    """The per-user sigma of GM(sigma) from --sigma or --noise-multiplier (exactly one; see
    :func:`shufflekit.validation.central_gaussian_sigma`), named as the options are."""
    try:
        return _central_gaussian_sigma(sigma, noise_multiplier, n)
    except InvalidParameter as exc:
        if exc.name == "sigma" and exc.value is None:
            raise InvalidParameter(
                "sigma",
                None,
                exc.allowed.split(":")[0] + ": give --sigma (per-user) or --noise-multiplier",
            ) from None
        raise


def build_mechanism(args: argparse.Namespace):
    """The mechanism named by ``args.name`` from the parsed options."""
    from shufflekit.mechanisms import make

    return make(
        args.name,
        k=args.k,
        m=getattr(args, "m", None),
        eps0=args.eps0,
        p=args.p,
        theta=args.theta,
        d=args.d,
        gamma=args.gamma,
        sigma0=args.sigma0,
        matrix=args.matrix,
        hash_family=args.hash_family if args.name == "blh" else None,
        **{o: getattr(args, o, None) for o in ("distance", "bins", "special", "f", "dummies")},
    )


MECHANISM_OPTIONS = (
    "k",
    "m",
    "eps0",
    "p",
    "theta",
    "d",
    "gamma",
    "sigma0",
    "matrix",
    "distance",
    "bins",
    "special",
    "f",
    "dummies",
)


def unused_mechanism_options(args: argparse.Namespace) -> list[str]:
    """Notes naming each given mechanism option that the named mechanism does not use."""
    from shufflekit.mechanisms import MECHANISMS

    spec = MECHANISMS.get(args.name)
    if spec is None:
        return []
    used = set(spec.required) | set(spec.optional)
    return [
        f"--{o} does not apply to {args.name}; ignored"
        for o in MECHANISM_OPTIONS
        if getattr(args, o, None) is not None and o not in used
    ]


#: functions and constants an expression option may use (everything else that Python or sympy
#: would resolve to an object is refused, so the text can never run code)
EXPRESSION_FUNCTIONS = frozenset(
    "exp log sqrt sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh erf erfc erfinv "
    "gamma loggamma factorial binomial LambertW Abs abs pi E oo Rational Integer".split()
)
#: largest exponent of a power of numbers (10**10**10 would never finish)
MAX_NUMERIC_EXPONENT = 10**4
MAX_EXPRESSION_CHARS = 500
#: largest degree of an expression in its variables (see :func:`expression_degree`), and so of
#: every series a check expands to: series to order 100 take a few seconds, to order 1000
#: minutes
MAX_EXPRESSION_DEGREE = 100
FLOAT_LITERAL = r"\d*\.\d+(?:[eE][-+]?\d+)?|\d+\.(?:[eE][-+]?\d+)?"


def identifier(name: str) -> Callable[[str], str]:
    """A variable name: a letter, then letters, digits or '_' (not a Python keyword)."""
    import keyword
    import re

    def check(text: str) -> str:
        if (
            not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,30}", text)
            or keyword.iskeyword(text)
            or "__" in text
        ):
            raise InvalidParameter(
                name,
                text,
                "a variable name: a letter, then letters, digits or _ (at most 31 characters)",
            )
        return text

    return arg_type(check, name)


def check_expression(name: str, text: str) -> str:
    """``text`` if it is a plain arithmetic expression: numbers, variable names, + - * / ** ^ ( ),
    and the functions of :data:`EXPRESSION_FUNCTIONS`; its powers of numbers stay small."""
    import builtins
    import keyword
    import re

    import sympy

    allowed = (
        "an arithmetic expression of numbers, variables, + - * / ** ( ) and elementary "
        "functions (exp, log, sqrt, sin, erf, gamma, ...; listed in --help)"
    )
    if not text.strip():
        raise InvalidParameter(name, text, allowed, "empty")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise InvalidParameter(
            name, text[:40] + "...", allowed, f"longer than {MAX_EXPRESSION_CHARS} characters"
        )
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
        raise InvalidParameter(
            name, text, allowed, f"not an expression ({type(exc).__name__})"
        ) from None
    if not isinstance(expr, sympy.Basic):
        raise InvalidParameter(name, text, allowed, "not an expression")
    for power in expr.atoms(sympy.Pow):
        if power.base.is_number and power.exp.is_number:
            with sympy.evaluate(True):
                size = abs(complex(sympy.N(power.exp, 15)))
            if not size <= MAX_NUMERIC_EXPONENT:
                raise InvalidParameter(
                    name,
                    text,
                    allowed,
                    f"a power of numbers with an exponent above {MAX_NUMERIC_EXPONENT}",
                )
    degree = expression_degree(expr)
    if not degree <= MAX_EXPRESSION_DEGREE:
        raise InvalidParameter(
            name,
            text,
            allowed,
            f"of degree {degree:g} in its variables, "
            f"above {MAX_EXPRESSION_DEGREE} (series orders are capped there)",
        )
    return text.strip()


def expression_degree(expr: Any) -> float:
    r"""An upper bound on the largest power of a variable in ``expr`` once expanded:
    a number has degree 0, a variable 1, a sum the largest of its terms', a product the sum of
    its factors', :math:`b^e` with a number :math:`e` the degree of :math:`b` times
    :math:`|e|`, any other power or function the sum of its arguments'.  ``x**1000000`` has
    degree 10^6, ``(1 + x)**3 * x`` degree 4, ``exp(x**2)`` degree 2."""
    import sympy

    if expr.is_number:
        return 0.0
    if isinstance(expr, sympy.Symbol):
        return 1.0
    if isinstance(expr, sympy.Add):
        return max(expression_degree(a) for a in expr.args)
    if isinstance(expr, sympy.Pow) and expr.exp.is_number:
        with sympy.evaluate(True):
            e = abs(complex(sympy.N(expr.exp, 15)))
        base = expression_degree(expr.base)
        return base * e if base else 0.0
    return float(sum(expression_degree(a) for a in expr.args))


def expression(name: str) -> Callable[[str], str]:
    """An argparse type for :func:`check_expression` (the text is kept; the library parses it)."""
    return arg_type(lambda t: check_expression(name, t), name)
