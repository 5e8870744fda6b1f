"""The ``check-expansion`` command: check your own asymptotic expansion, term by term.

Exit status 0 when every check confirms the claim, 1 when a term is refuted or undecided,
2 on bad input.  Expression options accept plain arithmetic only (numbers, variables,
+ - * / ** and elementary functions), so their text can never run code.
"""

from __future__ import annotations

import argparse

from shufflekit.cli.arguments import (
    EXPRESSION_FUNCTIONS,
    MAX_EXPRESSION_DEGREE,
    expression,
    identifier,
    integer,
    real,
)
from shufflekit.cli.output import add_output_arguments, emit
from shufflekit.errors import InvalidParameter

NAME = "check-expansion"
HELP = "check a claimed asymptotic expansion (symbolic, fitted order, certified bound)"

MIN_DPS, MAX_DPS = 15, 2000
MAX_POINTS = 200
MAX_BUDGET = 10**6
#: the library names f "f"; on the command line it is --function
OPTION_OF = {"f": "function", "inverse_of": "inverse-of", "certify_range": "certify-range"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "claimed",
        type=expression("claimed"),
        help="the claimed sum of terms, e.g. 'chi**2 + 9/2 - 145/12*chi**-2'; every "
        "expression option takes numbers, variables, + - * / ** ^ ( ) and "
        + ", ".join(sorted(EXPRESSION_FUNCTIONS - {"Integer", "abs"})),
    )
    p.add_argument(
        "--var", type=identifier("var"), default="x", help="the variable of the expansion (a name)"
    )
    p.add_argument(
        "--at", default="oo", choices=["oo", "0"], help="expansion as var -> oo or var -> 0+"
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--function",
        type=expression("function"),
        help="f as an expression in --var (required unless --inverse-of)",
    )
    src.add_argument(
        "--inverse-of",
        dest="inverse_of",
        type=expression("inverse-of"),
        help="reversion: g(u) with var = g(u); the claim is about --quantity as a function of var",
    )
    p.add_argument(
        "--of",
        type=identifier("of"),
        help="the variable u of --inverse-of (a name; required with --inverse-of)",
    )
    p.add_argument(
        "--quantity",
        type=expression("quantity"),
        help="q(u), the quantity expanded in a reversion (default: u)",
    )
    p.add_argument(
        "--order",
        type=expression("order"),
        help="exponent p of the claimed O(var^p), a rational such as 3 or -5/2 with "
        f"|p| <= {MAX_EXPRESSION_DEGREE} (default: next derived exponent); every "
        f"expression is of degree at most {MAX_EXPRESSION_DEGREE} in its "
        "variables (x**1000000 is refused), so every series stays short",
    )
    p.add_argument(
        "--dps",
        type=integer("dps", MIN_DPS, MAX_DPS),
        default=50,
        help=f"decimal digits of every numeric evaluation, integer in [{MIN_DPS}, {MAX_DPS}]",
    )
    p.add_argument(
        "--grid",
        nargs=2,
        type=real("grid", 0, 1e300, lo_open=True),
        metavar=("LO", "HI"),
        help="range 0 < LO < HI of the geometric grid for the fitted slopes "
        "(default: a decade range near the limit)",
    )
    p.add_argument(
        "--points",
        type=integer("points", 3, MAX_POINTS),
        default=8,
        help=f"grid points, integer in [3, {MAX_POINTS}]",
    )
    p.add_argument(
        "--certify-range",
        nargs=2,
        type=real("certify-range", 0, 1e300, lo_open=True),
        metavar=("X0", "X1"),
        help="finite range 0 < X0 < X1 of the certified remainder bound (default: "
        "first decade of the grid)",
    )
    p.add_argument("--no-certify", action="store_true", help="skip the certified remainder bound")
    p.add_argument(
        "--budget",
        type=integer("budget", 1, MAX_BUDGET),
        default=10000,
        help=f"box budget of each certified extremum, integer in [1, {MAX_BUDGET}]",
    )
    add_output_arguments(p, ("table", "json", "csv", "latex"))


def check_pairs(args: argparse.Namespace) -> None:
    for name in ("grid", "certify_range"):
        pair = getattr(args, name)
        if pair is not None and not pair[0] < pair[1]:
            flag = name.replace("_", "-")
            raise InvalidParameter(flag, " ".join(f"{v:g}" for v in pair), "two numbers LO < HI")
    if args.inverse_of is not None and args.of is None:
        raise InvalidParameter("of", None, "a variable name (required with --inverse-of)")
    if args.order is not None:
        check_order(args.order)


def check_order(text: str) -> float:
    """The value of ``--order``: a number with ``|p| <= MAX_EXPRESSION_DEGREE``."""
    import sympy

    allowed = f"a number p with |p| <= {MAX_EXPRESSION_DEGREE}, such as 3 or -5/2"
    try:
        value = sympy.sympify(text.replace("^", "**"), rational=True)
        p = float(value) if value.is_number and value.is_real else None
    except (sympy.SympifyError, TypeError, ValueError, ArithmeticError):
        p = None
    if p is None or not abs(p) <= MAX_EXPRESSION_DEGREE:
        raise InvalidParameter("order", text, allowed)
    return p


def run(args: argparse.Namespace) -> int:
    from shufflekit.verify.expansion import check_expansion

    check_pairs(args)
    try:
        report = check_expansion(
            args.function,
            args.claimed,
            args.var,
            at=args.at,
            order=args.order,
            inverse_of=args.inverse_of,
            of=args.of,
            quantity=args.quantity,
            dps=args.dps,
            grid=tuple(args.grid) if args.grid else None,
            points=args.points,
            certify_range=(tuple(args.certify_range) if args.certify_range else None),
            certify=not args.no_certify,
            budget=args.budget,
        )
    except InvalidParameter as exc:  # the library's parameter names -> option names
        if exc.name in OPTION_OF:
            raise InvalidParameter(OPTION_OF[exc.name], exc.value, exc.allowed, exc.why) from None
        raise
    if args.format == "latex":
        emit(report.as_dict(), "table", report.latex(), output=args.output)
    else:
        payload = report.as_dict()
        emit(payload, args.format, report.table(), output=args.output, records=payload["terms"])
    return 0 if report.verdict == "confirmed" else 1
