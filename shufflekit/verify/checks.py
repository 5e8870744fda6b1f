r"""Shared check kinds: the machinery every catalog module uses.

Each function compares something *we* derived or computed with what a paper
prints and returns an :class:`~shufflekit.verify.claims.Outcome`.  What it compares
against (the ``printed`` value, the claimed order, the direction of an inequality) is
declared through :func:`shufflekit.verify.mutation.printed`, so the mutation harness can
corrupt it and see the verdict change.

* :func:`exact_identity`     -- two sympy expressions are identical (simplify to 0).
* :func:`numeric_agreement`  -- two numbers agree to a relative tolerance.
* :func:`printed_digits`     -- a computed value rounds to a table cell as printed.
* :func:`remainder_order`    -- exact minus truncated series shrinks at the claimed
                                order (fitted log-log slope on a geometric grid).
* :func:`sandwich`           -- lower <= exact <= upper on every point.
* :func:`inequality_holds`   -- a property holds on every listed example.
* :func:`series_coefficients` -- coefficients of a derived series equal the printed ones.
* :func:`all_confirmed`      -- several sub-checks, confirmed only when each one is.
* :func:`joined`             -- two sub-checks in sequence (the first failure wins).
* :func:`property_holds`     -- a property holds on examples drawn by hypothesis
                                (derandomised unless ``ctx.thorough``; the failing
                                example is shrunk and reported).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import sympy as sp

from shufflekit.verify import mutation as M
from shufflekit.verify.claims import Outcome, confirmed, imprecise, refuted

Number = Any


def exact_identity(
    derived: sp.Expr, printed: sp.Expr, *, what: str = "", on_mismatch: str = "refuted"
) -> Outcome:
    """Confirm when ``derived - printed`` simplifies to zero.

    ``on_mismatch`` chooses the verdict of a disagreement (``refuted`` for a wrong
    formula, ``imprecise`` for e.g. a wrong higher-order coefficient).
    """
    derived = sp.sympify(derived)
    printed = sp.sympify(M.printed(printed, what or "printed expression"))
    diff = sp.simplify(sp.expand(derived - printed))
    label = f"{what}: " if what else ""
    if diff == 0:
        return confirmed(
            f"{label}derived {sp.sstr(derived)} equals the printed value",
            derived=sp.sstr(derived),
            printed=sp.sstr(printed),
        )
    make = refuted if on_mismatch == "refuted" else imprecise
    return make(
        f"{label}derived {sp.sstr(derived)}, paper prints {sp.sstr(printed)} "
        f"(difference {sp.sstr(diff)})",
        derived=sp.sstr(derived),
        printed=sp.sstr(printed),
        difference=sp.sstr(diff),
    )


def relative_error(a: Number, b: Number) -> float:
    a, b = float(a), float(b)
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


def numeric_agreement(
    computed: Number, printed: Number, *, rel_tol: float, what: str = "", why: str = ""
) -> Outcome:
    """Confirm when ``|computed - printed| <= rel_tol * max(|.|)``.

    ``why`` must say why the tolerance has that size; it is kept in the evidence.
    """
    printed = M.printed(printed, what or "printed number")
    err = relative_error(computed, printed)
    label = f"{what}: " if what else ""
    msg = (
        f"{label}computed {float(computed):.10g}, printed {float(printed):.10g}, "
        f"relative gap {err:.3g} (tolerance {rel_tol:g}{'; ' + why if why else ''})"
    )
    vals = dict(computed=float(computed), printed=float(printed), rel_gap=err, rel_tol=rel_tol)
    return confirmed(msg, **vals) if err <= rel_tol else refuted(msg, **vals)


def round_like(value: Number, printed: str) -> str:
    """Round ``value`` to the number of decimals (or significant digits in
    scientific notation) shown in the string ``printed``; return it as a string
    formatted like ``printed``.

    ``"0.105"`` -> 3 decimals; ``"8.96e-3"`` -> 3 significant digits; ``"20.0%"`` ->
    one decimal of a percentage (``value`` is then a fraction, e.g. 0.2).
    """
    s = printed.strip()
    pct = s.endswith("%")
    if pct:
        s = s[:-1]
        value = float(value) * 100
    if "e" in s.lower():
        mant = s.lower().split("e")[0]
        digits = len(mant.replace("-", "").replace(".", "").lstrip("0")) or 1
        out = f"{float(value):.{digits - 1}e}"
        m, e = out.split("e")
        return f"{m}e{int(e)}" + ("%" if pct else "")
    decimals = len(s.split(".")[1]) if "." in s else 0
    q = Decimal(1).scaleb(-decimals)
    out = str(Decimal(repr(float(value))).quantize(q, rounding=ROUND_HALF_UP))
    return out + ("%" if pct else "")


def _parse_printed(printed: str) -> float:
    s = printed.strip()
    if s.endswith("%"):
        return float(s[:-1]) / 100
    return float(s)


def printed_digits(computed: Number, printed: str, *, what: str = "") -> Outcome:
    """Confirm when ``computed`` rounds to the printed table cell.

    A cell that is off by one unit in the last printed digit is ``imprecise``
    (a rounding or truncation slip); anything further is ``refuted``.
    """
    printed = M.printed(printed, what or "printed cell")
    ours = round_like(computed, printed)
    label = f"{what}: " if what else ""
    vals = dict(computed=float(computed), printed=printed, rounded=ours)
    if _parse_printed(ours) == _parse_printed(printed):
        return confirmed(f"{label}{float(computed):.8g} rounds to printed {printed}", **vals)
    # one unit in the last place?
    s = printed.strip().rstrip("%")
    if "e" in s.lower():
        mant = s.lower().split("e")[0]
        exp = int(s.lower().split("e")[1])
        dec = len(mant.split(".")[1]) if "." in mant else 0
        ulp = 10.0 ** (exp - dec)
    else:
        dec = len(s.split(".")[1]) if "." in s else 0
        ulp = 10.0 ** (-dec)
    if printed.strip().endswith("%"):
        ulp /= 100
    gap = abs(_parse_printed(ours) - _parse_printed(printed))
    if gap <= ulp * 1.0000001:
        return imprecise(
            f"{label}{float(computed):.8g} rounds to {ours}, paper prints {printed} "
            f"(one unit in the last digit)",
            **vals,
        )
    return refuted(f"{label}{float(computed):.8g} rounds to {ours}, paper prints {printed}", **vals)


def fitted_slope(xs: Sequence[Number], ys: Sequence[Number]) -> float:
    """Least-squares slope of log|y| against log x."""
    lx = [math.log(float(x)) for x in xs]
    ly = [math.log(abs(float(y))) for y in ys]
    n = len(lx)
    mx, my = sum(lx) / n, sum(ly) / n
    sxx = sum((a - mx) ** 2 for a in lx)
    sxy = sum((a - mx) * (b - my) for a, b in zip(lx, ly))
    return sxy / sxx


def remainder_order(
    remainder: Callable[[Number], Number],
    grid: Sequence[Number],
    claimed_slope: float,
    *,
    tol: float = 0.05,
    what: str = "",
) -> Outcome:
    """Fit the log-log slope of ``|remainder(x)|`` over a geometric ``grid``.

    ``remainder(x)`` must be the exact value minus the truncated expansion,
    evaluated at high precision.  The claim "remainder = O(x^p)" is confirmed when
    the fitted slope is within ``tol`` of ``claimed_slope`` (or steeper in the
    direction of faster decay, which means the claimed order is conservative
    but true; that is reported in the evidence).
    """
    increasing = float(grid[-1]) > float(grid[0])
    claimed_slope = M.printed(
        claimed_slope,
        f"{what or 'remainder'}: claimed order",
        mutant=M.stronger_order("inf" if increasing else "zero"),
    )
    ys = [remainder(x) for x in grid]
    slope = fitted_slope(grid, ys)
    label = f"{what}: " if what else ""
    msg = (
        f"{label}fitted slope {slope:.4f} over x in [{float(grid[0]):.3g}, "
        f"{float(grid[-1]):.3g}] (claimed {claimed_slope:g}, tolerance {tol:g})"
    )
    vals = dict(
        slope=slope,
        claimed=claimed_slope,
        grid=[float(x) for x in grid],
        remainders=[float(abs(y)) for y in ys],
    )
    if abs(slope - claimed_slope) <= tol:
        return confirmed(msg, **vals)
    faster = slope < claimed_slope if increasing else slope > claimed_slope
    if faster:
        return confirmed(msg + "; the remainder decays faster than claimed", **vals)
    return refuted(msg + "; the remainder decays slower than claimed", **vals)


def sandwich(points: Iterable[tuple[Any, Number, Number, Number]], *, what: str = "") -> Outcome:
    """Confirm ``lower <= exact <= upper`` for each ``(label, lower, exact, upper)``."""
    holds = M.printed(True, f"{what or 'sandwich'}: lower <= exact <= upper")
    bad = []
    n = 0
    for label, lo, ex, up in points:
        n += 1
        if (float(lo) <= float(ex) <= float(up)) != holds:
            bad.append((label, float(lo), float(ex), float(up)))
    prefix = f"{what}: " if what else ""
    if bad:
        return refuted(
            f"{prefix}{len(bad)} of {n} points break lower <= exact <= upper; first: {bad[0]}",
            violations=bad[:10],
        )
    return confirmed(f"{prefix}lower <= exact <= upper at all {n} points", points=n)


def inequality_holds(
    examples: Iterable[Any], predicate: Callable[[Any], bool], *, what: str = ""
) -> Outcome:
    """Confirm that ``predicate`` holds on every example; report the first failure."""
    holds = M.printed(True, f"{what}: holds on every example")
    n = 0
    for ex in examples:
        n += 1
        if bool(predicate(ex)) != holds:
            return refuted(f"{what}: counterexample {ex!r}", counterexample=repr(ex), checked=n)
    return confirmed(f"{what}: holds on all {n} examples", checked=n)


def property_holds(strategy, predicate: Callable[[Any], bool], ctx, *, what: str = "") -> Outcome:
    """Run ``predicate`` on ``ctx.examples`` examples drawn by hypothesis from ``strategy``.

    The quick/full profiles are derandomised (reproducible verdicts); ``--thorough``
    draws fresh random examples.  A counterexample is shrunk by hypothesis and
    returned in the evidence.
    """
    from hypothesis import HealthCheck, given, settings

    holds = M.printed(True, f"{what}: holds on every example")
    seen: list = []
    failing: list = []

    @settings(
        max_examples=ctx.examples,
        derandomize=not ctx.thorough,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )
    @given(strategy)
    def _run(example):
        seen.append(1)
        if bool(predicate(example)) != holds:
            failing.append(example)
            raise AssertionError(what)

    try:
        _run()
    except AssertionError:
        ex = failing[-1]
        return refuted(f"{what}: counterexample {ex!r}", counterexample=repr(ex), checked=len(seen))
    return confirmed(f"{what}: holds on {len(seen)} hypothesis examples", checked=len(seen))


def series_coefficients(series, exps: Sequence[Any], printed: Sequence[Any], what: str) -> Outcome:
    """Confirm that the coefficients of ``series`` at the exponents ``exps`` equal ``printed``.

    ``series`` is a :class:`~shufflekit.symbolic.series.Series` (``coefficient_in(e)``).
    """
    printed = [
        M.printed(pv, f"{what}: coefficient at exponent {e}") for e, pv in zip(exps, printed)
    ]
    derived = [sp.simplify(series.coefficient_in(e)) for e in exps]
    bad = [e for e, dv, pv in zip(exps, derived, printed) if sp.simplify(dv - pv) != 0]
    if bad:
        return refuted(
            f"{what}: derived coefficients {derived} differ from printed {list(printed)} "
            f"at exponents {bad}",
            derived=[str(v) for v in derived],
            printed=[str(v) for v in printed],
        )
    return confirmed(
        f"{what}: derived coefficients {derived} equal the printed ones",
        derived=[str(v) for v in derived],
    )


def all_confirmed(outcomes: Iterable[Outcome], what: str) -> Outcome:
    """The first sub-check that is not confirmed, or one confirmation naming them all."""
    outcomes = list(outcomes)
    bad = [o for o in outcomes if o.verdict != "confirmed"]
    if bad:
        return bad[0]
    return confirmed(f"{what}: all {len(outcomes)} sub-checks confirmed")


def joined(first: Outcome, second: Outcome) -> Outcome:
    """Confirmed when both are (evidence and values merged); else the first failure."""
    if first.verdict == "confirmed" and second.verdict == "confirmed":
        return confirmed(
            first.evidence + "; " + second.evidence, **{**first.values, **second.values}
        )
    return second if first.verdict == "confirmed" else first


def decide(
    condition: bool, evidence: str, *, statement: str, otherwise: str = "refuted", **values: Any
) -> Outcome:
    """The verdict of a check whose computation ends in one yes/no ``condition``.

    ``statement`` names what the paper asserts (declared to the mutation harness, which
    negates it); confirmed when the computed ``condition`` agrees with it, otherwise the
    ``otherwise`` verdict (``refuted`` or ``imprecise``).  Use it instead of
    ``confirmed(...) if ok else refuted(...)`` so the verdict visibly follows the computation.
    """
    claimed = M.printed(True, statement)
    if bool(condition) == claimed:
        return confirmed(evidence, **values)
    return (imprecise if otherwise == "imprecise" else refuted)(evidence, **values)
