r"""Check a user's asymptotic expansion: symbolically, numerically, and with a certified bound.

A claim is :math:`f(x) = \sum_{j=1}^{K} c_j\, x^{e_j} (\log x)^{k_j} + O(x^{p})` as
:math:`x\to\infty` (or :math:`x \to 0^+`), with rational exponents :math:`e_j` and optional
integer log powers :math:`k_j`.  :func:`check_expansion` reports, term by term:

* **symbolic** (when :math:`f` is a sympy expression, or is defined implicitly by a sympy
  relation): the coefficient our own expansion of :math:`f` gives at that monomial
  (:mod:`shufflekit.symbolic.series`; with log terms, successive limits
  :math:`c_j = \lim (f - S_{j-1})/(x^{e_j}\log^{k_j} x)`), and any term of the true expansion
  the claim skips;
* **numeric** (always): the log-log slope of :math:`|f - S_j|` fitted on a geometric grid at
  ``dps`` digits.  If :math:`c_j` is right the remainder decays like the next term; if it is
  wrong it decays like the :math:`j`-th term itself, and the slope says so;
* **certified** (when :math:`f` can be evaluated in ball arithmetic): a constant :math:`C`
  with :math:`|f(x) - S_K(x)| \le C\,|x^{p}|` for every :math:`x` in ``[x0, x1]``, from a
  certified maximum of :math:`|f - S_K|/|x^p|` (:mod:`shufflekit.verify.box`).  The range is
  finite: nothing is claimed beyond ``x1``.

Reversions: ``inverse_of=g, of=u, quantity=q`` means :math:`f(x) = q(u)` where :math:`g(u) = x`
(e.g. :math:`\sigma_0^2` as a function of :math:`\chi = V(\sigma_0)^{-1/2}`, Takagi-Liew 2026, Prop. 4.2).
Symbolically :math:`g` is expanded, reverted order by order and composed with :math:`q`;
numerically :math:`g(u) = x` is solved by a root finder at ``dps`` digits; the certified bound
is computed in the variable :math:`u`, where everything is explicit, after proving
:math:`g' \ne 0` on the range (so the branch is unique).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath as mp
import sympy as sp
from flint import ctx as flint_ctx

from shufflekit.errors import InvalidParameter
from shufflekit.symbolic.series import Series, series_eval
from shufflekit.verify.box import (
    arb_function,
    arb_taylor,
    ball_of_rational,
    check_expr_on_box,
    enclose_extremum,
    exact,
)

VERDICT_ORDER = {"refuted": 0, "imprecise": 1, "confirmed": 2}


# ----------------------------------------------------------------------------- claims
@dataclass(frozen=True)
class Term:
    r"""One term :math:`c\,x^{e}(\log x)^{k}` of a claimed expansion."""

    coefficient: sp.Expr
    exponent: sp.Rational
    log_power: int = 0

    def monomial(self, x: sp.Symbol) -> sp.Expr:
        return x**self.exponent * sp.log(x) ** self.log_power

    def expr(self, x: sp.Symbol) -> sp.Expr:
        return self.coefficient * self.monomial(x)

    def label(self, x: sp.Symbol) -> str:
        return sp.sstr(self.monomial(x))


def parse_terms(claimed: sp.Expr | str, var: sp.Symbol) -> list[Term]:
    r"""Split a claimed sum into :class:`Term` s (coefficients free of ``var``)."""
    expr = (
        sp.expand(sp.sympify(claimed, locals={str(var): var}, rational=True))
        if isinstance(claimed, str)
        else sp.expand(sp.sympify(claimed))
    )
    terms: dict = {}
    for part in sp.Add.make_args(expr):
        k = 0
        rest = sp.Integer(1)
        for factor in sp.Mul.make_args(part):
            base, ex = factor.as_base_exp()
            if isinstance(base, sp.log) and base.args[0] == var and ex.is_Integer and ex > 0:
                k += int(ex)
            else:
                rest *= factor
        coeff, e = rest.as_coeff_exponent(var)
        if coeff.has(var) or not e.is_Rational:
            raise InvalidParameter(
                "claimed",
                sp.sstr(part),
                f"terms c*{var}**e*log({var})**k, e rational",
                "this term is not a monomial in the variable",
            )
        key = (sp.Rational(e), k)
        terms[key] = terms.get(key, 0) + coeff
    return [
        Term(sp.nsimplify(c) if c.is_Float else c, e, k) for (e, k), c in terms.items() if c != 0
    ]


def dominance_key(at_infinity: bool) -> Callable[[Term], tuple]:
    """Sort terms from the largest to the smallest as x -> oo (or x -> 0)."""
    if at_infinity:
        return lambda t: (-t.exponent, -t.log_power)
    return lambda t: (t.exponent, -t.log_power)


# ------------------------------------------------------------------------ the report
@dataclass(frozen=True)
class TermReport:
    term: Term
    derived: sp.Expr | None
    symbolic: str  # confirmed / refuted / not-symbolic
    slope: float | None  # fitted slope of |f - S_j| (S_j ends with this term)
    expected_slope: float | None  # the exponent the remainder should decay at
    numeric: str  # confirmed / refuted / imprecise


@dataclass(frozen=True)
class CertifiedBound:
    constant: float
    order: sp.Rational
    x0: float
    x1: float
    boxes: int
    note: str = ""


@dataclass(frozen=True)
class ExpansionReport:
    var: sp.Symbol
    at: str
    terms: tuple[TermReport, ...]
    missing: tuple[Term, ...]
    order: sp.Rational | None
    last_slope: float | None
    dps: int
    grid: tuple[float, float]
    certified: CertifiedBound | None
    verdict: str
    notes: tuple[str, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict:
        x = self.var
        return {
            "variable": str(x),
            "at": self.at,
            "verdict": self.verdict,
            "dps": self.dps,
            "grid": list(self.grid),
            "order": None if self.order is None else str(self.order),
            "terms": [
                {
                    "term": r.term.label(x),
                    "exponent": str(r.term.exponent),
                    "log_power": r.term.log_power,
                    "claimed": sp.sstr(r.term.coefficient),
                    "derived": None if r.derived is None else sp.sstr(r.derived),
                    "symbolic": r.symbolic,
                    "fitted_slope": r.slope,
                    "expected_slope": r.expected_slope,
                    "numeric": r.numeric,
                }
                for r in self.terms
            ],
            "missing_terms": [
                {"term": t.label(x), "coefficient": sp.sstr(t.coefficient)} for t in self.missing
            ],
            "remainder_fitted_slope": self.last_slope,
            "certified": None
            if self.certified is None
            else {
                "bound": f"|f - S_K| <= C {x}^{self.certified.order}",
                "C": self.certified.constant,
                "order": str(self.certified.order),
                "range": [self.certified.x0, self.certified.x1],
                "boxes": self.certified.boxes,
                "note": self.certified.note,
            },
            "notes": list(self.notes),
        }

    def table(self) -> str:
        x = self.var
        head = f"expansion as {x} -> {self.at}: {self.verdict}"
        rows = [("term", "claimed", "derived", "symbolic", "slope after", "expected", "numeric")]
        for r in self.terms:
            rows.append(
                (
                    r.term.label(x),
                    sp.sstr(r.term.coefficient),
                    "-" if r.derived is None else sp.sstr(r.derived),
                    r.symbolic,
                    "-" if r.slope is None else f"{r.slope:.4f}",
                    "-" if r.expected_slope is None else f"{r.expected_slope:g}",
                    r.numeric,
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = [head] + [
            "  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows
        ]
        for t in self.missing:
            lines.append(
                f"  missing term: {sp.sstr(t.coefficient)}*{t.label(x)} (in the derived expansion, "
                f"not in the claim)"
            )
        if self.certified is not None:
            c = self.certified
            lines.append(
                f"  certified: |f - S_K| <= {c.constant:.6g} * {x}^({c.order}) for {x} in "
                f"[{c.x0:g}, {c.x1:g}] ({c.boxes} boxes){'; ' + c.note if c.note else ''}"
            )
        slope = "-" if self.last_slope is None else f"{self.last_slope:.4f}"
        lines.append(
            f"  remainder fitted slope {slope} on the half of {x} in [{self.grid[0]:g}, "
            f"{self.grid[1]:g}] nearest the limit, at {self.dps} digits"
        )
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)

    def latex(self) -> str:
        x = sp.latex(self.var)
        rows = [
            r"\begin{tabular}{lllll}",
            r"term & claimed & derived & symbolic & numeric \\ \hline",
        ]
        for r in self.terms:
            rows.append(
                f"${sp.latex(r.term.monomial(self.var))}$ & ${sp.latex(r.term.coefficient)}$ & "
                f"{'--' if r.derived is None else '$' + sp.latex(r.derived) + '$'} & {r.symbolic} & "
                f"{r.numeric} \\\\"
            )
        rows.append(r"\end{tabular}")
        if self.certified is not None:
            c = self.certified
            rows.append(
                rf"$|f - S_K| \le {c.constant:.6g}\,{x}^{{{sp.latex(c.order)}}}$ for "
                rf"${x}\in[{c.x0:g}, {c.x1:g}]$."
            )
        return "\n".join(rows)


# ---------------------------------------------------------------- symbolic expansion
def _small(var: sp.Symbol, at_infinity: bool) -> tuple[sp.Symbol, sp.Expr]:
    z = sp.Symbol("z_", positive=True)
    return z, (1 / z if at_infinity else z)


def series_of(expr: sp.Expr, z: sp.Symbol, order) -> Series:
    """``expr`` as a series in ``z -> 0+`` (expression-tree evaluator, then sympy's series)."""
    try:
        return series_eval(expr, z, order)
    except (ValueError, TypeError, NotImplementedError):
        return Series.from_expr(expr, z, order)


def derived_expansion(
    f: sp.Expr, var: sp.Symbol, at_infinity: bool, upto, inverse: tuple | None = None
) -> Series:
    r"""The true expansion of ``f`` (or of the reversion) to beyond exponent ``upto`` (in ``var``).

    Returned as a series in :math:`z` (:math:`z = 1/x` at infinity, :math:`z = x` at 0).
    """
    z, x_of_z = _small(var, at_infinity)
    need = -sp.Rational(upto) if at_infinity else sp.Rational(upto)  # exponent in z to exceed
    for extra in (2, 4, 8):
        order = need + extra
        if inverse is None:
            ser = series_of(f.subs(var, x_of_z), z, order)
        else:
            g, u, q, u_at_infinity = inverse
            s, u_of_s = _small(u, u_at_infinity)
            gz = g.subs(u, u_of_s)
            # small output variable w(s) = 1/g (x -> oo) or g (x -> 0), a series with positive lead
            w_s = series_of(1 / gz if at_infinity else gz, s, order + 4)
            s_w = w_s.revert(var=z)
            q_s = series_of(q.subs(u, u_of_s), s, order + 4)
            ser = q_s.compose(s_w)
        if ser.order is None or any(e > need for e, _ in ser.terms):
            return ser
    return ser


def coefficient_by_limits(
    f: sp.Expr, var: sp.Symbol, at, terms: Sequence[Term]
) -> list[sp.Expr | None]:
    r"""Coefficients by successive limits (used when the claim has log terms)."""
    out = []
    partial = sp.Integer(0)
    for t in terms:
        try:
            c = sp.limit((f - partial) / t.monomial(var), var, at)
        except (NotImplementedError, ValueError):
            c = None
        out.append(c if c is not None and c.is_finite else None)
        partial += t.expr(var)  # the claimed S_j: a wrong c_j makes later limits infinite
    return out


# ------------------------------------------------------------------- numeric checks
def fitted_slope(xs: Sequence, ys: Sequence) -> float | None:
    pts = [(math.log(float(x)), float(mp.log(abs(y)))) for x, y in zip(xs, ys) if y != 0]
    if len(pts) < 3:
        return None
    mx = sum(a for a, _ in pts) / len(pts)
    my = sum(b for _, b in pts) / len(pts)
    sxx = sum((a - mx) ** 2 for a, _ in pts)
    return sum((a - mx) * (b - my) for a, b in pts) / sxx


def numeric_function(f, var, inverse, dps: int, guess: Callable | None) -> Callable:
    """An mpmath evaluator of ``f`` (explicit, callable, or by solving ``g(u) = x``)."""
    if inverse is None:
        if callable(f) and not isinstance(f, sp.Basic):
            return f
        return sp.lambdify(var, f, "mpmath")
    g, u, q, _ = inverse
    gn = sp.lambdify(u, g, "mpmath")
    qn = sp.lambdify(u, q, "mpmath")

    def solve(x):
        start = guess(x) if guess is not None else x
        root = mp.findroot(lambda v: gn(v) - x, start, tol=mp.mpf(10) ** (-dps + 5))
        return qn(root)

    return solve


def default_grid(at_infinity: bool) -> tuple[float, float]:
    return (20.0, 2000.0) if at_infinity else (5e-4, 5e-2)


# ------------------------------------------------------------------------ the check
def check_expansion(
    f: sp.Expr | Callable | str | None,
    claimed: sp.Expr | str,
    var: sp.Symbol | str,
    *,
    at: Any = sp.oo,
    order: Any = None,
    inverse_of: sp.Expr | str | None = None,
    of: sp.Symbol | str | None = None,
    quantity: sp.Expr | str | None = None,
    dps: int = 50,
    grid: tuple[float, float] | None = None,
    points: int = 8,
    certify_range: tuple[Any, Any] | None = None,
    certify: bool = True,
    budget: int = 10000,
) -> ExpansionReport:
    r"""Check ``claimed`` as the expansion of ``f`` as ``var -> at`` (``oo`` or ``0``).

    ``f``: a sympy expression (or string) in ``var``, or an mpmath-evaluable callable (numeric
    checks only).  For a reversion pass ``inverse_of=g`` (an expression in ``of``) and
    optionally ``quantity=q`` (default ``of``): then :math:`f(x) = q(u)` with :math:`g(u) = x`.
    ``order``: the exponent :math:`p` of the claimed :math:`O(x^p)` (default: the next exponent
    of the derived expansion, else none).  ``dps``: mpmath digits for every numeric evaluation.
    ``grid``: ``(lo, hi)`` of the geometric fitting grid.  ``certify_range``: ``(x0, x1)`` for
    the certified bound (default: the first decade of the fitting grid, ``(lo, 10 lo)``);
    ``certify=False`` skips it; ``budget`` caps its boxes.
    """
    if isinstance(var, str):
        var = sp.Symbol(var, positive=True)
    at_s = (
        sp.sympify(at)
        if not isinstance(at, str)
        else (sp.oo if at.strip() in ("oo", "inf", "infinity") else sp.sympify(at))
    )
    if at_s not in (sp.oo, sp.Integer(0)):
        raise InvalidParameter("at", at, "oo or 0")
    at_infinity = at_s == sp.oo
    if not isinstance(dps, int) or dps < 15 or dps > 2000:
        raise InvalidParameter("dps", dps, "an integer in [15, 2000]")
    if points < 3:
        raise InvalidParameter("points", points, "an integer >= 3")
    terms = sorted(parse_terms(claimed, var), key=dominance_key(at_infinity))
    if not terms:
        raise InvalidParameter("claimed", claimed, "a nonzero sum of terms")
    loc = {str(var): var}
    inverse = None
    if inverse_of is not None:
        if of is None:
            raise InvalidParameter("of", of, "the variable of inverse_of")
        u = sp.Symbol(of, positive=True) if isinstance(of, str) else of
        loc[str(u)] = u
        g = sp.sympify(inverse_of, locals=loc, rational=True)
        q = u if quantity is None else sp.sympify(quantity, locals=loc, rational=True)
        target = sp.oo if at_infinity else 0
        u_at_infinity = sp.limit(g, u, sp.oo) == target
        if not u_at_infinity and sp.limit(g, u, 0, "+") != target:
            raise InvalidParameter(
                "inverse_of", sp.sstr(g), f"g({u}) -> {target} as {u} -> oo or 0+"
            )
        inverse = (g, u, q, u_at_infinity)
        f_sym = None
    elif isinstance(f, str):
        f_sym = sp.sympify(f, locals=loc, rational=True)
    elif isinstance(f, sp.Basic):
        f_sym = sp.sympify(f)
    elif callable(f):
        f_sym = None
    else:
        raise InvalidParameter("f", f, "a sympy expression, a string, or a callable")
    if f_sym is not None and f_sym.free_symbols - {var}:
        raise InvalidParameter("f", sp.sstr(f_sym), f"an expression in {var} only")

    notes: list[str] = []
    order_r = None if order is None else sp.Rational(exact(order))
    symbolic = f_sym is not None or inverse is not None
    derived: list = [None] * len(terms)
    missing: list[Term] = []
    true_series = None
    if symbolic:
        has_logs = any(t.log_power for t in terms)
        last = terms[-1].exponent if order_r is None else order_r
        if not has_logs:
            try:
                true_series = derived_expansion(f_sym, var, at_infinity, last, inverse)
            except (ValueError, TypeError, NotImplementedError) as exc:
                notes.append(f"series expansion failed ({exc}); coefficients by successive limits")
        if true_series is None:
            if inverse is not None:
                notes.append("symbolic coefficients of this reversion not computed")
            else:
                derived = coefficient_by_limits(f_sym, var, at_s, terms)
        else:
            z_exp = (lambda e: -e) if at_infinity else (lambda e: e)
            derived = [sp.simplify(true_series.coefficient(z_exp(t.exponent))) for t in terms]
            claimed_exps = {t.exponent for t in terms}
            lo_e = terms[-1].exponent
            for e_z, c in true_series.terms:
                e = z_exp(e_z)
                beyond = (e < lo_e) if at_infinity else (e > lo_e)
                if e not in claimed_exps and not beyond:
                    missing.append(Term(c, e, 0))
            if order_r is None:
                nxt = [
                    z_exp(e_z)
                    for e_z, _ in true_series.terms
                    if ((z_exp(e_z) < lo_e) if at_infinity else (z_exp(e_z) > lo_e))
                ]
                if nxt:
                    order_r = nxt[0]
    sym_verdicts = []
    for t, d in zip(terms, derived):
        if not symbolic:
            sym_verdicts.append("not-symbolic")
        elif d is None:
            sym_verdicts.append("undetermined")
        else:
            sym_verdicts.append("confirmed" if sp.simplify(d - t.coefficient) == 0 else "refuted")

    # ---- numeric: fitted slope of |f - S_j| at dps digits
    lo, hi = grid if grid is not None else default_grid(at_infinity)
    if not (0 < lo < hi):
        raise InvalidParameter("grid", (lo, hi), "0 < lo < hi")
    guess = _root_guess(inverse, var, at_infinity) if inverse is not None else None
    with mp.workdps(dps):
        fn = numeric_function(f_sym if f_sym is not None else f, var, inverse, dps, guess)
        xs = [mp.mpf(lo) * (mp.mpf(hi) / lo) ** (mp.mpf(i) / (points - 1)) for i in range(points)]
        fx = [fn(x) for x in xs]
        # a remainder below 10^-(dps-10) |f| is rounding noise at this precision, not a value
        noise = [mp.mpf(10) ** (-(dps - 10)) * max(1, abs(v)) for v in fx]
        near = slice(points // 2, points) if at_infinity else slice(0, (points + 1) // 2)
        slopes, zero_after, near_slope = [], [], None
        partial = [mp.mpf(0)] * points
        for t in terms:
            c = mp.mpf(sp.N(t.coefficient, dps + 5)) if t.coefficient.is_number else None
            if c is None:
                raise InvalidParameter("claimed", sp.sstr(t.coefficient), "numeric coefficients")
            partial = [
                p + c * mp.power(x, mp.mpf(t.exponent.p) / t.exponent.q) * mp.log(x) ** t.log_power
                for p, x in zip(partial, xs)
            ]
            rem = [a - b if abs(a - b) > eps else 0 for a, b, eps in zip(fx, partial, noise)]
            zero_after.append(all(r == 0 for r in rem))
            slopes.append(fitted_slope(xs, rem))
        near_slope = fitted_slope(xs[near], rem[near])
    num_verdicts, expected = [], []
    for j, t in enumerate(terms):
        nxt = terms[j + 1].exponent if j + 1 < len(terms) else order_r
        e = float(t.exponent)
        expected.append(None if nxt is None else float(nxt))
        s = slopes[j]
        if s is None:
            num_verdicts.append("confirmed" if zero_after[j] else "imprecise")
            continue
        # decays faster than the term itself: a wrong c_j leaves a remainder ~ x^{e_j}
        gap = (abs(float(nxt) - e) if nxt is not None else 1.0) / 2
        faster = (s < e - gap) if at_infinity else (s > e + gap)
        num_verdicts.append("confirmed" if faster else "refuted")
    last_slope = near_slope
    if zero_after[-1]:
        notes.append(f"f - S_K is below the rounding level at every grid point at {dps} digits")
    if order_r is not None and last_slope is not None:
        # the local slope over the decade nearest the limit: the next-order corrections of a
        # pure power move it by much less than 0.1 there; a log factor moves it by
        # 1/|log x| >= 0.13 on the default grids, so 0.1 separates O(x^p) from O(x^p log x)
        ok = (
            (last_slope <= float(order_r) + 0.1)
            if at_infinity
            else (last_slope >= float(order_r) - 0.1)
        )
        if not ok:
            notes.append(
                f"remainder slope {last_slope:.3f} near the limit is not the claimed order {order_r} "
                f"(tolerance 0.1)"
            )
            num_verdicts[-1] = "refuted" if num_verdicts[-1] == "confirmed" else num_verdicts[-1]

    # ---- certified bound on a finite range
    cert = None
    if not certify:
        pass
    elif order_r is None:
        notes.append("no certified bound: give the order p of the claimed O(x^p)")
    elif f_sym is None and inverse is None:
        notes.append("no certified bound: a callable cannot be evaluated in ball arithmetic")
    elif any(t.log_power for t in terms):
        notes.append("no certified bound for claims with log terms")
    else:
        x0, x1 = certify_range if certify_range is not None else (lo, 10 * lo)
        try:
            cert = certified_bound(f_sym, terms, var, order_r, x0, x1, inverse, budget, guess, dps)
        except InvalidParameter as exc:
            notes.append(f"no certified bound: {exc}")

    verdicts = [v for v in sym_verdicts if v in VERDICT_ORDER] + num_verdicts
    if missing:
        verdicts.append("refuted")
    verdict = min(verdicts, key=lambda v: VERDICT_ORDER[v])
    if "undetermined" in sym_verdicts and verdict == "confirmed":
        verdict = "imprecise"
    rows = tuple(
        TermReport(t, d, sv, s, ex, nv)
        for t, d, sv, s, ex, nv in zip(terms, derived, sym_verdicts, slopes, expected, num_verdicts)
    )
    return ExpansionReport(
        var,
        "oo" if at_infinity else "0",
        rows,
        tuple(missing),
        order_r,
        last_slope,
        dps,
        (float(lo), float(hi)),
        cert,
        verdict,
        tuple(notes),
    )


def _root_guess(inverse, var, at_infinity) -> Callable:
    r"""Starting point for :math:`g(u) = x`: the leading term of :math:`g` inverted."""
    g, u, q, u_at_inf = inverse
    s, u_of_s = _small(u, u_at_inf)
    gz = g.subs(u, u_of_s)
    try:
        lead = series_of(1 / gz if at_infinity else gz, s, 6)
        e0f, c0f = float(lead.leading_exponent), float(lead.leading_coefficient)
    except (ValueError, TypeError, NotImplementedError):
        return lambda x: x  # no leading term: start the root finder at x itself

    def guess(x):
        w = 1 / x if at_infinity else x
        sv = (w / c0f) ** (1 / e0f)
        return 1 / sv if u_at_inf else sv

    return guess


def certified_bound(
    f_sym, terms, var, p, x0, x1, inverse, budget, guess, dps, taylor_order: int = 3
) -> CertifiedBound:
    r"""Certified :math:`C = \max |f - S_K|/|x^p|` over ``[x0, x1]`` (upper end of the enclosure)."""
    x0, x1 = exact(x0), exact(x1)
    if not 0 < x0 < x1:
        raise InvalidParameter("certify_range", (str(x0), str(x1)), "0 < x0 < x1")
    S = sp.Add(*[t.expr(var) for t in terms])
    note = ""
    if inverse is None:
        h = (f_sym - S) / var**p
        v, rng = var, (x0, x1)
    else:
        g, u, q, _ = inverse
        h = (q - S.subs(var, g)) / g**p
        with mp.workdps(dps):
            r0 = mp.findroot(
                lambda t: sp.lambdify(u, g, "mpmath")(t) - mp.mpf(x0.numerator) / x0.denominator,
                guess(mp.mpf(x0.numerator) / x0.denominator),
            )
            r1 = mp.findroot(
                lambda t: sp.lambdify(u, g, "mpmath")(t) - mp.mpf(x1.numerator) / x1.denominator,
                guess(mp.mpf(x1.numerator) / x1.denominator),
            )
        ua, ub = sorted([exact(mp.nstr(r0, 20)), exact(mp.nstr(r1, 20))])
        # widen by a relative 1e-12 and check in balls that g([ua, ub]) covers [x0, x1]
        ua, ub = ua * (1 - exact("1e-12")), ub * (1 + exact("1e-12"))
        gf = arb_function(g, [u])
        old = flint_ctx.prec
        flint_ctx.prec = 128
        try:
            ga, gb = gf(ball_of_rational(ua)), gf(ball_of_rational(ub))
        finally:
            flint_ctx.prec = old
        lo_b, hi_b = (ga, gb) if bool(ga < gb) else (gb, ga)
        if not (bool(lo_b <= ball_of_rational(x0)) and bool(hi_b >= ball_of_rational(x1))):
            raise InvalidParameter(
                "certify_range", (str(x0), str(x1)), "a range covered by the solved u-range"
            )
        mono = check_expr_on_box(
            sp.diff(g, u) if bool(ga < gb) else -sp.diff(g, u),
            {u: (ua, ub)},
            strict=True,
            budget=budget,
            centered=True,
            what=f"dg/d{u}",
        )
        if mono.verdict != "confirmed":
            raise InvalidParameter(
                "inverse_of", sp.sstr(g), "a function monotone on the range", mono.evidence
            )
        note = (
            f"computed in {u} in [{float(ua):.8g}, {float(ub):.8g}] where g is proved monotone "
            f"({mono.values.get('boxes')} boxes) and covers the range"
        )
        v, rng = u, (ua, ub)
    fa = arb_function(h, [v])
    tay = arb_taylor(h, v, taylor_order)
    # C only needs to be an upper bound: stop at 1% of the extremum (plus 1e-12 absolute)
    hi = enclose_extremum(
        fa, {str(v): rng}, kind="max", tol=1e-12, rel_tol=1e-2, budget=budget, taylor=tay
    )
    lo = enclose_extremum(
        fa, {str(v): rng}, kind="min", tol=1e-12, rel_tol=1e-2, budget=budget, taylor=tay
    )
    if not (hi.hi.is_finite() and lo.lo.is_finite()):
        raise InvalidParameter(
            "certify_range", (str(x0), str(x1)), "a range where f - S_K is finite"
        )
    c = max(float(hi.hi.upper()), float(-lo.lo.lower()))
    c = math.nextafter(c, math.inf)  # the float of the arb upper end, rounded outward
    state = (
        ""
        if (hi.converged and lo.converged)
        else "enclosure not at tolerance (budget); C is still an upper bound"
    )
    return CertifiedBound(
        c, p, float(x0), float(x1), hi.boxes + lo.boxes, "; ".join(x for x in (note, state) if x)
    )
