r"""Asymptotic expansions in one small variable with rational exponents.

A :class:`Series` is a finite sum :math:`\sum_e c_e x^e + O(x^{\rho})` with
rational exponents :math:`e < \rho`, exact (sympy) coefficients and a small
variable :math:`x \to 0^+`.  An expansion at infinity in a large variable
:math:`\chi` is stored in :math:`x = 1/\chi` and printed in :math:`\chi`
(``at_infinity=chi``).

All operations work on a common grid of exponents: with :math:`q` the least
common denominator of the exponents, :math:`t = x^{1/q}` turns the series into
:math:`x^{e_0}` times a power series in :math:`t`, and the classical truncated
power-series algorithms apply:

* product: truncated Cauchy product;
* power :math:`f^p` (any exponent :math:`p`, including :math:`-1`): the J.C.P.
  Miller recurrence :math:`g_k = \frac{1}{k a_0}\sum_{j=1}^{k}((p+1)j-k)\,a_j g_{k-j}`;
* composition :math:`f(g(y))`: powers of :math:`g` summed term by term;
* reversion of :math:`T = t + a_2 t^2 + \dots`: the coefficient :math:`b_k` of
  :math:`t = T + b_2 T^2 + \dots` is fixed order by order by requiring the
  :math:`T^k` coefficient of :math:`T(t(T))` to vanish (a triangular system,
  solved one unknown at a time; never a joint ``solve``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import reduce
from math import gcd
from typing import Any

import sympy as sp

Coeff = Any


def _rat(e: Any) -> sp.Rational:
    r = sp.nsimplify(e) if not isinstance(e, sp.Basic) else e
    r = sp.Rational(r) if not isinstance(r, sp.Rational) else r
    return r


def _lcm(values: Iterable[int]) -> int:
    return reduce(lambda a, b: a * b // gcd(a, b), values, 1)


def _is_monomial(den: sp.Expr) -> bool:
    factors = den.args if den.is_Mul else (den,)
    return all(
        f.is_Number
        or f.is_Symbol
        or (f.is_Pow and (f.base.is_Symbol or f.base.is_Number))
        or not f.free_symbols
        for f in factors
    )


def _clean(c: Coeff) -> Coeff:
    """Canonical form of a coefficient: rationals as they are; expanded when every term has a
    monomial denominator (Laurent polynomials in the parameters); one cancelled fraction when
    a denominator is a non-monomial polynomial (expanding sums of such fractions blows up)."""
    c = sp.sympify(c)
    if c.is_Rational:
        return c
    e = sp.expand(c)
    for term in sp.Add.make_args(e):
        den = term.as_numer_denom()[1]
        if den.free_symbols and not _is_monomial(den):
            syms = e.free_symbols
            return sp.cancel(e) if e.is_rational_function(*syms) else e
    return e


def _is_zero(c: Coeff) -> bool:
    c = sp.sympify(c)
    if c.is_Rational:
        return c == 0
    if c == 0 or sp.expand(c) == 0:
        return True
    if c.is_number:
        return c.equals(0) is True
    # a nonzero value at a generic rational point proves the coefficient is not zero
    point = {
        s: sp.Rational(7919 + 31 * i, 1009 + 7 * i)
        for i, s in enumerate(sorted(c.free_symbols, key=str))
    }
    try:
        v = c.xreplace(point)
        if v.is_Rational and v != 0:
            return False
    except (ZeroDivisionError, TypeError):
        pass
    return sp.cancel(sp.together(c)) == 0


# ------------------------------------------------------ truncated power series
def ps_mul(a: list, b: list, n: int) -> list:
    """Cauchy product of two coefficient lists, truncated to ``n`` terms."""
    out = [sp.Integer(0)] * n
    for i, ai in enumerate(a[:n]):
        if ai == 0:
            continue
        for j, bj in enumerate(b[: n - i]):
            if bj == 0:
                continue
            out[i + j] += ai * bj
    return [_clean(c) for c in out]


def ps_pow(a: list, p: Any, n: int) -> list:
    r""":math:`(\sum_k a_k t^k)^p` to ``n`` terms (``a[0] != 0``), Miller's recurrence."""
    a = list(a) + [sp.Integer(0)] * max(0, n - len(a))
    a0 = sp.sympify(a[0])
    if _is_zero(a0):
        raise ValueError("ps_pow needs a nonzero constant term")
    p = sp.sympify(p)
    g = [a0**p] + [sp.Integer(0)] * (n - 1)
    for k in range(1, n):
        s = sp.Integer(0)
        for j in range(1, k + 1):
            if a[j] == 0:
                continue
            s += ((p + 1) * j - k) * a[j] * g[k - j]
        g[k] = _clean(s / (k * a0))
    return [_clean(c) for c in g]


def ps_compose(f: list, g: list, n: int) -> list:
    r""":math:`f(g(t))` to ``n`` terms for a power series ``g`` with ``g[0] == 0``."""
    if g and not _is_zero(g[0]):
        raise ValueError("ps_compose needs g(0) = 0")
    out = [sp.Integer(0)] * n
    power = [sp.Integer(1)] + [sp.Integer(0)] * (n - 1)
    for k, fk in enumerate(f[:n]):
        if k > 0:
            power = ps_mul(power, g, n)
        if fk == 0:
            continue
        for i in range(n):
            out[i] += fk * power[i]
    return [_clean(c) for c in out]


def ps_revert(a: list, n: int) -> list:
    r"""Reversion of :math:`T = t + a_2 t^2 + \dots` (``a[0] == 0``, ``a[1] == 1``).

    Returns :math:`b` with :math:`t = T + b_2T^2 + \dots` to ``n`` terms.  Order by order:
    the :math:`T^k` coefficient of :math:`a(b(T))` is :math:`b_k + \sum_{j\ge2} a_j [T^k] b^j`,
    and :math:`[T^k] b^j = \sum_i b_i [T^{k-i}] b^{j-1}` only involves :math:`b_1..b_{k-1}`, so
    each :math:`b_k` solves one linear equation; the power tables grow by one column per
    order (:math:`O(n^3)` products in all).
    """
    if not (_is_zero(a[0]) and _is_zero(sp.sympify(a[1]) - 1)):
        raise ValueError("ps_revert needs a[0] = 0 and a[1] = 1")
    a = list(a) + [sp.Integer(0)] * max(0, n - len(a))
    b = [sp.Integer(0), sp.Integer(1)] + [sp.Integer(0)] * max(0, n - 2)
    # P[j][m] = [T^m] b(T)^j for j >= 1, filled column by column
    P = [None, [sp.Integer(0), sp.Integer(1)]]
    for k in range(2, n):
        P.append([sp.Integer(0)] * k)  # row for j = k, columns 0..k-1 are 0
        total = sp.Integer(0)
        for j in range(2, k + 1):
            s = sp.Integer(0)
            prev = P[j - 1]
            for i in range(1, k - j + 2):
                if b[i] != 0 and prev[k - i] != 0:
                    s += b[i] * prev[k - i]
            s = _clean(s)
            P[j].append(s)
            if a[j] != 0 and s != 0:
                total += a[j] * s
        b[k] = _clean(-total)
        P[1].append(b[k])
    return b[:n]


# ------------------------------------------------------------------- Series
@dataclass(frozen=True)
class Series:
    r"""A truncated asymptotic expansion :math:`\sum_e c_e x^e + O(x^{\text{order}})`.

    ``terms``: ``{Rational exponent: exact coefficient}`` (zero coefficients dropped);
    ``var``: the small variable :math:`x`; ``order``: exponent of the order term
    (``None`` means the sum is exact); ``at_infinity``: when set to a symbol
    :math:`\chi`, :math:`x` stands for :math:`1/\chi` in printing and ``as_dict``.
    """

    terms: tuple  # ((Rational, coeff), ...) sorted by increasing exponent
    var: sp.Symbol
    order: Any = None
    at_infinity: Any = None

    # ------------------------------------------------------------ build
    @staticmethod
    def make(
        terms: Mapping | Iterable, var: sp.Symbol, order: Any = None, at_infinity: Any = None
    ) -> Series:
        items = terms.items() if isinstance(terms, Mapping) else terms
        acc: dict = {}
        for e, c in items:
            e = _rat(e)
            acc[e] = acc.get(e, sp.Integer(0)) + sp.sympify(c)
        order = None if order is None else _rat(order)
        kept = []
        for e in sorted(acc):
            if order is not None and e >= order:
                continue
            c = _clean(acc[e])
            if not _is_zero(c):
                kept.append((e, c))
        return Series(tuple(kept), var, order, at_infinity)

    @staticmethod
    def from_expr(
        expr: sp.Expr, var: sp.Symbol, order: Any, *, q: int | None = None, at_infinity: Any = None
    ) -> Series:
        r"""Expand ``expr`` as :math:`x = \text{var} \to 0^+` up to :math:`O(x^{\text{order}})`.

        Fractional powers of ``var`` are handled by :math:`x = t^q` (``q`` is read
        off the exponents of ``var`` in ``expr`` unless given), which makes the
        expansion a Laurent series in :math:`t` that sympy can compute.
        """
        order = _rat(order)
        expr = sp.sympify(expr)
        if q is None:
            dens = [
                sp.Rational(p.exp).q
                for p in expr.atoms(sp.Pow)
                if p.base == var and p.exp.is_Rational
            ]
            q = _lcm(dens + [order.q])
        t = sp.Dummy("t", positive=True)
        et = expr.xreplace({var: t**q})
        n = int(order * q)
        ser = sp.series(et, t, 0, n).removeO()
        ser = sp.expand(ser)
        terms: dict = {}
        for term in sp.Add.make_args(ser):
            c, k = term.as_coeff_exponent(t)
            if c.has(t):
                raise ValueError(f"could not split term {term} into coefficient * power of {var}")
            terms[sp.Rational(k) / q] = terms.get(sp.Rational(k) / q, 0) + c
        return Series.make(terms, var, order, at_infinity)

    @staticmethod
    def monomial(coeff: Coeff, exponent: Any, var: sp.Symbol, at_infinity: Any = None) -> Series:
        return Series.make({exponent: coeff}, var, None, at_infinity)

    # ---------------------------------------------------------- basics
    def as_mapping(self) -> dict:
        return dict(self.terms)

    @property
    def leading_exponent(self) -> sp.Rational:
        if not self.terms:
            raise ValueError("the series has no known terms (only an order term)")
        return self.terms[0][0]

    @property
    def leading_coefficient(self) -> Coeff:
        if not self.terms:
            raise ValueError("the series has no known terms (only an order term)")
        return self.terms[0][1]

    def coefficient(self, exponent: Any) -> Coeff:
        e = _rat(exponent)
        if self.order is not None and e >= self.order:
            raise ValueError(f"exponent {e} is beyond the order term O(x^{self.order})")
        return dict(self.terms).get(e, sp.Integer(0))

    def coefficient_in(self, exponent: Any) -> Coeff:
        """Coefficient of ``at_infinity**exponent`` (i.e. of ``var**(-exponent)``)."""
        return self.coefficient(-_rat(exponent) if self.at_infinity is not None else exponent)

    def _with(self, terms, order) -> Series:
        return Series.make(terms, self.var, order, self.at_infinity)

    def truncate(self, n_terms: int) -> Series:
        """Keep the first ``n_terms`` terms; the order term moves to the next exponent."""
        if n_terms >= len(self.terms):
            return self
        return self._with(self.terms[:n_terms], self.terms[n_terms][0])

    def expr(self) -> sp.Expr:
        """The truncated sum as a sympy expression in ``var`` (no order term)."""
        return sp.Add(*[c * self.var**e for e, c in self.terms])

    def expr_in(self) -> sp.Expr:
        """The truncated sum in the display variable (``at_infinity``) if any."""
        if self.at_infinity is None:
            return self.expr()
        return sp.Add(*[c * self.at_infinity ** (-e) for e, c in self.terms])

    def subs(self, values: Mapping) -> Series:
        """Substitute parameter values into the coefficients."""
        return self._with([(e, sp.sympify(c).subs(values)) for e, c in self.terms], self.order)

    def map_coefficients(self, fn: Callable[[Coeff], Coeff]) -> Series:
        return self._with([(e, fn(c)) for e, c in self.terms], self.order)

    # ------------------------------------------------------- grid form
    def _grid(self, q: int, n: int | None = None):
        """``(e0, [a_0, ...])`` with ``self = x^e0 * sum a_k x^(k/q)`` and the
        number of known coefficients (up to the order term)."""
        e0 = self.leading_exponent
        if self.order is None:
            last = self.terms[-1][0]
            count = int((last - e0) * q) + 1
            if n is not None:
                count = max(count, n)
        else:
            count = int(sp.ceiling((self.order - e0) * q))
        coeffs = [sp.Integer(0)] * count
        for e, c in self.terms:
            k = (e - e0) * q
            if k.q != 1:
                raise ValueError(f"exponent {e} is not on the grid 1/{q}")
            if int(k) < count:
                coeffs[int(k)] = c
        return e0, coeffs

    def _denominator(self, *others: Series) -> int:
        exps = [e for s in (self,) + others for e, _ in s.terms]
        exps += [s.order for s in (self,) + others if s.order is not None]
        return _lcm([sp.Rational(e).q for e in exps])

    def _from_grid(self, e0, coeffs, q: int, order) -> Series:
        return self._with([(e0 + sp.Rational(k, q), c) for k, c in enumerate(coeffs)], order)

    def _check_var(self, other: Series) -> None:
        if other.var != self.var:
            raise ValueError(f"series in different variables: {self.var} and {other.var}")

    # ------------------------------------------------------ arithmetic
    def __add__(self, other) -> Series:
        if not isinstance(other, Series):
            other = Series.make({0: other}, self.var, None, self.at_infinity)
        self._check_var(other)
        orders = [o for o in (self.order, other.order) if o is not None]
        return self._with(list(self.terms) + list(other.terms), min(orders) if orders else None)

    __radd__ = __add__

    def __neg__(self) -> Series:
        return self._with([(e, -c) for e, c in self.terms], self.order)

    def __sub__(self, other) -> Series:
        return self + (-other if isinstance(other, Series) else -sp.sympify(other))

    def __rsub__(self, other) -> Series:
        return (-self) + other

    def __mul__(self, other) -> Series:
        if not isinstance(other, Series):
            c = sp.sympify(other)
            return self._with([(e, c * v) for e, v in self.terms], self.order)
        self._check_var(other)
        if not self.terms or not other.terms:
            raise ValueError("cannot multiply a series without known terms")
        order = None
        cands = []
        if self.order is not None:
            cands.append(self.order + other.leading_exponent)
        if other.order is not None:
            cands.append(other.order + self.leading_exponent)
        order = min(cands) if cands else None
        terms = {}
        for e1, c1 in self.terms:
            for e2, c2 in other.terms:
                if order is not None and e1 + e2 >= order:
                    continue
                terms[e1 + e2] = terms.get(e1 + e2, 0) + c1 * c2
        return self._with(terms, order)

    __rmul__ = __mul__

    def __truediv__(self, other) -> Series:
        if isinstance(other, Series):
            return self * other.inverse()
        return self * (sp.Integer(1) / sp.sympify(other))

    def __rtruediv__(self, other) -> Series:
        return self.inverse() * other

    def __pow__(self, p) -> Series:
        return self.power(p)

    def rescale(self, k: Any, var: sp.Symbol | None = None, at_infinity: Any = None) -> Series:
        r"""Substitute :math:`x = z^k` (:math:`k > 0`): every exponent is multiplied by ``k``.

        E.g. a series in :math:`w = \chi^{-2}` becomes a series in :math:`z = \chi^{-1}` with ``k=2``.
        """
        k = _rat(k)
        if k <= 0:
            raise ValueError(f"k={k} is not allowed; allowed range (0, inf)")
        return Series.make(
            [(e * k, c) for e, c in self.terms],
            var if var is not None else self.var,
            None if self.order is None else self.order * k,
            at_infinity if at_infinity is not None else self.at_infinity,
        )

    def with_display(self, at_infinity: Any) -> Series:
        """Same series, printed in the large variable ``at_infinity`` (``var = 1/at_infinity``)."""
        return Series(self.terms, self.var, self.order, at_infinity)

    def shift(self, exponent: Any) -> Series:
        """Multiply by ``var**exponent``."""
        k = _rat(exponent)
        return self._with(
            [(e + k, c) for e, c in self.terms], None if self.order is None else self.order + k
        )

    def power(self, p: Any, n_terms: int | None = None) -> Series:
        r""":math:`s^p` for rational or symbolic ``p`` (leading coefficient to the power ``p``).

        An exact (finite) series raised to a non-natural power gets ``n_terms``
        terms (default: 10) and an order term.
        """
        p = sp.sympify(p)
        q = self._denominator()
        e0 = self.leading_exponent
        if self.order is None:
            if p.is_Integer and p >= 0:
                out = Series.make({0: 1}, self.var, None, self.at_infinity)
                for _ in range(int(p)):
                    out = out * self
                return out
            n = n_terms or 10
            _, a = self._grid(q, n)
            a = a[:n]
        else:
            _, a = self._grid(q)
            n = len(a)
        g = ps_pow(a, p, n)
        new_e0 = e0 * p
        if not (new_e0.is_Rational):
            raise ValueError(f"power {p} gives a non-rational exponent {new_e0}")
        return self._from_grid(new_e0, g, q, new_e0 + sp.Rational(n, q))

    def inverse(self, n_terms: int | None = None) -> Series:
        """:math:`1/s`, by the power recurrence with exponent -1."""
        return self.power(-1, n_terms)

    def compose(self, inner: Series) -> Series:
        r"""Substitute :math:`x = \text{inner}(y)` into ``self`` (``inner`` tends to 0).

        Each term :math:`c_e x^e` becomes :math:`c_e\,\text{inner}^e`; the order term
        :math:`O(x^\rho)` becomes :math:`O(y^{\rho e_1})` with :math:`e_1` the leading
        exponent of ``inner``.
        """
        e1 = inner.leading_exponent
        if e1 <= 0:
            raise ValueError(f"inner series must tend to 0 (leading exponent {e1} > 0 needed)")
        n_guess = 12
        if inner.order is None:
            # an exact inner series: keep as many terms as self's accuracy allows
            target = None if self.order is None else self.order * e1
        else:
            target = None
        pieces = []
        for e, c in self.terms:
            if inner.order is None and target is not None:
                q = inner._denominator()
                n = int(sp.ceiling((target - e * e1) * q)) + 1
                pw = (
                    inner.power(e, n_terms=max(n, 1))
                    if not (e.is_Integer and e >= 0)
                    else inner.power(e)
                )
            else:
                pw = inner.power(e, n_terms=n_guess)
            pieces.append(pw * c)
        out = pieces[0] if pieces else Series.make({}, inner.var, None, inner.at_infinity)
        for pc in pieces[1:]:
            out = out + pc
        if self.order is not None:
            out = out + Series.make({}, inner.var, self.order * e1, inner.at_infinity)
        return Series.make(out.terms, inner.var, out.order, inner.at_infinity)

    def revert(self, var: sp.Symbol | None = None, at_infinity: Any = None) -> Series:
        r"""Solve :math:`y = s(x)` for :math:`x` as a series in :math:`y` (:math:`y \to 0`).

        Needs a positive leading exponent :math:`e_0` and an order term.  With
        :math:`s = c\,x^{e_0}(1 + \sum_{k\ge1} a_k t^k)`, :math:`t = x^{1/q}`, put
        :math:`T = (y/c)^{1/(e_0 q)} = t\,(1+\dots)^{1/(e_0 q)}`, revert this power
        series order by order (:func:`ps_revert`) and return :math:`x = t^q`.
        ``var`` is the new small variable (default: a symbol ``y``).
        """
        if self.order is None:
            raise ValueError("revert needs a series with an order term")
        e0 = self.leading_exponent
        if e0 <= 0:
            raise ValueError(f"revert needs a positive leading exponent, got {e0}")
        c = self.leading_coefficient
        q = self._denominator()
        _, a = self._grid(q)
        n = len(a)
        unit = [_clean(ak / c) for ak in a]  # 1 + a_1 t + ...
        root = ps_pow(unit, sp.Integer(1) / (e0 * q), n)  # (1+...)^{1/(e0 q)}
        T_of_t = [sp.Integer(0)] + root[:n]  # T = t * root
        t_of_T = ps_revert(T_of_t, n + 1)  # t = T + b_2 T^2 + ...
        x_of_T = ps_pow(t_of_T[1:], q, n)  # x = t^q = T^q (1 + ...)^q
        # T = (y/c)^{1/(e0 q)}: x = sum_k x_k T^{q+k} = sum_k x_k c^{-(q+k)/(e0 q)} y^{(q+k)/(e0 q)}
        y = var if var is not None else sp.Symbol("y", positive=True)
        terms = {}
        for k, xk in enumerate(x_of_T):
            ex = sp.Rational(q + k, 1) / (e0 * q)
            terms[ex] = xk * c ** (-ex)
        order = sp.Rational(q + n, 1) / (e0 * q)
        return Series.make(terms, y, order, at_infinity)

    # ---------------------------------------------------- evaluation/print
    def __call__(self, value: Any) -> Any:
        """Value of the truncated sum at ``var = value`` (exact if ``value`` is)."""
        return sum((c * sp.sympify(value) ** e for e, c in self.terms), sp.Integer(0))

    def _display(self):
        if self.at_infinity is not None:
            return (
                [(-e, c) for e, c in self.terms],
                self.at_infinity,
                (None if self.order is None else -self.order),
            )
        return list(self.terms), self.var, self.order

    def latex(self, name: str | None = None) -> str:
        r"""LaTeX of the expansion, terms sorted by magnitude (largest first)."""
        terms, v, order = self._display()
        vs = name or sp.latex(v)
        parts = []
        for e, c in terms:
            mono = "" if e == 0 else (vs if e == 1 else f"{vs}^{{{sp.latex(e)}}}")
            cl = sp.latex(c)
            if mono == "":
                body = cl
            elif c == 1:
                body = mono
            elif c == -1:
                body = "-" + mono
            elif isinstance(c, sp.Add):
                body = rf"\left({cl}\right) {mono}"
            else:
                body = f"{cl} {mono}"
            parts.append(body)
        if order is not None:
            parts.append(rf"O\!\left({vs}^{{{sp.latex(order)}}}\right)" if order != 0 else "O(1)")
        if not parts:
            return "0"
        out = parts[0]
        for p in parts[1:]:
            out += (" - " + p[1:].lstrip()) if p.startswith("-") else (" + " + p)
        return out

    def text(self) -> str:
        terms, v, order = self._display()
        parts = [f"({sp.sstr(c)})*{v}**({e})" if e != 0 else f"({sp.sstr(c)})" for e, c in terms]
        if order is not None:
            parts.append(f"O({v}**({order}))")
        return " + ".join(parts) if parts else "0"

    def as_dict(self) -> dict:
        """JSON-ready: ``{"variable", "order", "terms": [{"exponent": "p/q", "coefficient": "..."}]}``."""
        terms, v, order = self._display()
        return {
            "variable": str(v),
            "order": None if order is None else str(order),
            "terms": [
                {"exponent": str(sp.Rational(e)), "coefficient": sp.sstr(c)} for e, c in terms
            ],
        }

    def __repr__(self) -> str:
        return f"Series({self.text()})"


# ------------------------------------------------------- expression evaluator
def series_eval(expr: sp.Expr, var: sp.Symbol, order: Any, *, slack: int = 4) -> Series:
    r"""Expand ``expr`` as ``var`` :math:`\to 0^+` by evaluating its expression tree with
    :class:`Series` arithmetic (sums, products, rational powers, ``log`` and ``exp``).

    Faster than ``sympy.series`` when the coefficients carry other symbols.  Each
    product is computed with ``slack`` extra orders so cancellations of leading
    terms do not lose accuracy; the result is truncated at ``order``.
    """
    order = _rat(order)
    work = order + slack

    def ev(e: sp.Expr) -> Series:
        if not e.has(var):
            return Series.make({0: e}, var, work)
        if e == var:
            return Series.make({1: 1}, var, work)
        if e.is_Add:
            out = Series.make({}, var, work)
            for arg in e.args:
                out = out + ev(arg)
            return out
        if e.is_Mul:
            out = Series.make({0: 1}, var, None)
            for arg in e.args:
                out = out * ev(arg)
            return Series.make(out.terms, var, out.order if out.order is not None else work)
        if e.is_Pow:
            base, ex = e.args
            if ex.has(var):
                return ev(sp.exp(ex * sp.log(base)))
            sb = ev(base)
            if ex.is_Integer and ex >= 0:
                return sb.power(ex)
            return sb.power(ex, n_terms=int(work * 4) + 4)
        if isinstance(e, sp.log):
            sb = ev(e.args[0])
            e0, c0 = sb.leading_exponent, sb.leading_coefficient
            if e0 != 0:
                raise ValueError(f"log of a series with leading exponent {e0} has a log term")
            rest = (sb * (1 / c0)) - 1
            const = Series.make({0: sp.log(c0)}, var, None)
            if not rest.terms:
                return Series.make(const.terms, var, rest.order)
            s = sp.Symbol("s_", positive=True)
            n = int(sp.ceiling(work / rest.leading_exponent)) + 1
            log1p = Series.make(
                {k: sp.Integer(-1) ** (k + 1) / k for k in range(1, n + 1)}, s, n + 1
            )
            return const + log1p.compose(rest)
        if isinstance(e, sp.exp):
            sb = ev(e.args[0])
            const = sp.Add(*[c for ex_, c in sb.terms if ex_ == 0])
            if sb.terms and sb.leading_exponent < 0:
                raise ValueError("exp of a series with a negative leading exponent")
            rest = sb - const
            if not rest.terms:
                return Series.make({0: sp.exp(const)}, var, rest.order)
            s = sp.Symbol("s_", positive=True)
            n = int(sp.ceiling(work / rest.leading_exponent)) + 1
            expo = Series.make({k: 1 / sp.factorial(k) for k in range(0, n + 1)}, s, n + 1)
            return expo.compose(rest) * sp.exp(const)
        raise ValueError(f"series_eval cannot expand {type(e).__name__}: {e}")

    res = ev(sp.sympify(expr))
    ordr = order if res.order is None else min(order, res.order)
    return Series.make(res.terms, var, ordr)
