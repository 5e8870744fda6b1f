r"""Inequalities proved on parameter boxes by interval branch-and-bound (Arb balls).

A *box* is a product of closed intervals with exact rational ends, one per parameter.
To prove :math:`f(p) \ge 0` (or :math:`> 0`) for every :math:`p` in a box:

1. evaluate :math:`f` on the whole box in ball arithmetic (python-flint ``arb``): each
   parameter enters as the ball enclosing its interval, so the result encloses
   :math:`\{f(p) : p \in \text{box}\}`;
2. if the lower end of that ball is :math:`\ge 0` (:math:`> 0` for a strict claim) the box
   is proved;
3. otherwise evaluate :math:`f` at the box's midpoint (an exact rational point); if that
   ball lies entirely below zero (on or below zero for a strict claim) the point is a
   *certified counterexample*;
4. otherwise bisect the box along its widest side and treat both halves.

The search stops when every box is proved (verdict ``confirmed``, with the number of boxes),
when a counterexample is found (``refuted``, with the point and the ball of :math:`f` there),
or when the box budget runs out (``imprecise``: undecided, the largest undecided box is
reported).  Every step is a rigorous enclosure; nothing is sampled.

:func:`arb_function` turns a sympy expression into such an evaluator: it compiles the
expression tree into flint ball operations, with rationals entered exactly (``fmpq``), so no
binary rounding of a constant escapes the enclosure.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp
from flint import arb, fmpq
from flint import ctx as flint_ctx

from shufflekit.errors import InvalidParameter
from shufflekit.verify.claims import Outcome, confirmed, imprecise, refuted

ArbFunction = Callable[..., arb]


# ----------------------------------------------------------------------------- boxes
def exact(value) -> Fraction:
    """``value`` as an exact fraction (strings such as ``"0.05"`` are read in decimal)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, sp.Rational):
        return Fraction(int(value.p), int(value.q))
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(str(value))


@dataclass(frozen=True)
class Box:
    """A product of closed intervals :math:`\\prod_i [lo_i, hi_i]` with rational ends."""

    names: tuple[str, ...]
    lo: tuple[Fraction, ...]
    hi: tuple[Fraction, ...]

    @staticmethod
    def of(ranges: Mapping[str, tuple]) -> Box:
        """``Box.of({"gamma": ("0.05", "0.99"), ...})``; ends are read exactly."""
        names, los, his = [], [], []
        for name, (a, b) in ranges.items():
            a, b = exact(a), exact(b)
            if not a <= b:
                raise InvalidParameter(name, (str(a), str(b)), "lo <= hi", "an empty interval")
            names.append(name)
            los.append(a)
            his.append(b)
        return Box(tuple(names), tuple(los), tuple(his))

    def widths(self) -> tuple[Fraction, ...]:
        return tuple(b - a for a, b in zip(self.lo, self.hi))

    def midpoint(self) -> tuple[Fraction, ...]:
        return tuple((a + b) / 2 for a, b in zip(self.lo, self.hi))

    def bisect(self) -> tuple[Box, Box]:
        """Split along the widest side (relative to nothing: plain width)."""
        w = self.widths()
        i = max(range(len(w)), key=lambda j: w[j])
        m = (self.lo[i] + self.hi[i]) / 2
        left = Box(self.names, self.lo, self.hi[:i] + (m,) + self.hi[i + 1 :])
        right = Box(self.names, self.lo[:i] + (m,) + self.lo[i + 1 :], self.hi)
        return left, right

    def balls(self) -> tuple[arb, ...]:
        """One arb ball per side, enclosing the closed interval."""
        return tuple(ball_of_interval(a, b) for a, b in zip(self.lo, self.hi))

    def describe(self) -> str:
        return ", ".join(
            f"{n} in [{float(a):.6g}, {float(b):.6g}]"
            for n, a, b in zip(self.names, self.lo, self.hi)
        )

    def as_dict(self) -> dict:
        return {n: [str(a), str(b)] for n, a, b in zip(self.names, self.lo, self.hi)}


def ball_of_rational(q: Fraction) -> arb:
    """The arb ball enclosing the rational ``q`` (exact when ``q`` is dyadic)."""
    return arb(fmpq(q.numerator, q.denominator))


def ball_of_interval(lo: Fraction, hi: Fraction) -> arb:
    """A ball containing :math:`[lo, hi]` (the union of the balls of both ends)."""
    a = ball_of_rational(lo)
    if lo == hi:
        return a
    ball = a.union(ball_of_rational(hi))
    # outward rounding of the union may dip below 0; a box side starting at >= 0 stays >= 0
    return ball.nonnegative_part() if lo >= 0 else ball


# ------------------------------------------------------------------- branch and bound
@dataclass(frozen=True)
class BoxResult:
    """What the search established.

    ``status``: ``"proved"``, ``"counterexample"`` or ``"undecided"``;
    ``boxes``: number of boxes evaluated; ``proved_boxes``: leaves proved;
    ``counterexample``: the exact point (name -> Fraction) with ``value`` the ball of f there;
    ``undecided``: the widest box left when the budget ran out; ``min_lower``: the smallest
    certified lower end over the proved leaves (a certified lower bound of f on the box).
    """

    status: str
    box: Box
    boxes: int
    proved_boxes: int = 0
    counterexample: Mapping[str, Fraction] | None = None
    value: str = ""
    undecided: Box | None = None
    min_lower: float | None = None
    strict: bool = False
    extra: Mapping[str, object] = field(default_factory=dict)

    def summary(self, what: str = "f") -> str:
        rel = ">" if self.strict else ">="
        if self.status == "proved":
            low = (
                f"; min over boxes of the certified lower end {self.min_lower:.6g}"
                if self.min_lower is not None
                else ""
            )
            return (
                f"{what} {rel} 0 proved on {self.box.describe()} "
                f"with {self.proved_boxes} boxes ({self.boxes} evaluated){low}"
            )
        if self.status == "counterexample":
            pt = ", ".join(f"{k}={v}" for k, v in self.counterexample.items())
            return f"{what} {rel} 0 fails at {pt}: {what} in {self.value} (certified)"
        return (
            f"{what} {rel} 0 undecided: box budget of {self.boxes} exhausted; an undecided box "
            f"is {self.undecided.describe()}"
        )


def _lower_ok(v: arb, strict: bool) -> bool:
    return bool(v > 0) if strict else bool(v >= 0)


def _is_counterexample(v: arb, strict: bool) -> bool:
    return bool(v <= 0) if strict else bool(v < 0)


def _intersect(a: arb, b: arb) -> arb:
    if not a.is_finite():
        return b
    if not b.is_finite():
        return a
    return a.intersection(b)


def taylor_form(derivatives: Sequence[ArbFunction], b: Box) -> arb:
    r"""One-variable Taylor form of order :math:`n` = ``len(derivatives) - 1``:

    :math:`f(X) \subset \sum_{k<n} f^{(k)}(m)\,(X-m)^k/k! + f^{(n)}(X)\,(X-m)^n/n!`
    (Taylor's theorem with the Lagrange remainder; :math:`m` the midpoint).  Its width shrinks
    like :math:`w^{n+1}` times the overestimate of :math:`f^{(n)}(X)`, so severe cancellation
    between large terms is beaten with far fewer boxes than the mean-value form (:math:`n=1`).
    """
    if len(b.names) != 1:
        raise InvalidParameter("taylor", len(b.names), "a one-variable box")
    (m,) = b.midpoint()
    mb = ball_of_rational(m)
    (X,) = b.balls()
    dx = X - mb
    out = arb(0)
    fact = 1
    power = arb(1)
    n = len(derivatives) - 1
    for k, d in enumerate(derivatives):
        if k > 0:
            fact *= k
            power = power * dx
        value = d(X) if k == n else d(mb)
        out = out + value * power / fact
    return out


def enclose(
    f: ArbFunction,
    b: Box,
    gradient: Sequence[ArbFunction] | None = None,
    taylor: Sequence[ArbFunction] | None = None,
) -> arb:
    r"""A ball containing :math:`\{f(p): p \in b\}`.

    Without ``gradient``: the natural interval extension :math:`f(B)`.  With the partial
    derivatives: also the mean-value form :math:`f(m) + \sum_i \partial_i f(B)\,(B_i - m_i)`
    (:math:`m` the midpoint; valid by the mean value theorem on the convex box), and the
    intersection of both.  The mean-value form shrinks quadratically with the box, which
    tames cancellation between large terms.  ``taylor`` (one variable: ``[f, f', ..., f^(n)]``)
    uses :func:`taylor_form` instead.
    """
    balls = b.balls()
    v = f(*balls)
    if taylor is not None:
        return _intersect(v, taylor_form(taylor, b))
    if gradient is None:
        return v
    mid = b.midpoint()
    mv = f(*(ball_of_rational(q) for q in mid))
    for g, ball, q, lo, hi in zip(gradient, balls, mid, b.lo, b.hi):
        if lo == hi:
            continue
        mv = mv + g(*balls) * (ball - ball_of_rational(q))
    if not v.is_finite():
        return mv
    if not mv.is_finite():
        return v
    return v.intersection(mv)


def prove_nonnegative(
    f: ArbFunction,
    box: Box | Mapping[str, tuple],
    *,
    strict: bool = False,
    budget: int = 20000,
    prec: int = 96,
    gradient: Sequence[ArbFunction] | None = None,
    taylor: Sequence[ArbFunction] | None = None,
) -> BoxResult:
    r"""Prove :math:`f \ge 0` (``strict``: :math:`f > 0`) on ``box`` by branch-and-bound.

    ``f`` takes one arb ball per box side (in ``box.names`` order) and returns an arb ball
    enclosing the range of the function over those balls; ``gradient`` (optional) gives its
    partial derivatives in the same form, enabling the mean-value form (:func:`enclose`).
    ``budget`` caps the number of box evaluations; ``prec`` is the working precision in bits.
    Boxes are processed widest first so an exhausted budget reports the least resolved region.
    """
    if not isinstance(box, Box):
        box = Box.of(box)
    if budget < 1:
        raise InvalidParameter("budget", budget, "an integer >= 1")
    old = flint_ctx.prec
    flint_ctx.prec = prec
    try:
        heap: list = [(-max(box.widths(), default=0), 0, box)]
        count = 0
        proved = 0
        tie = 1
        min_lower = None
        while heap:
            if count >= budget:
                return BoxResult(
                    "undecided", box, count, proved, undecided=heap[0][2], strict=strict
                )
            _, _, b = heapq.heappop(heap)
            count += 1
            v = enclose(f, b, gradient, taylor)
            if v.is_finite() and _lower_ok(v, strict):
                proved += 1
                lower = float(v.lower())
                min_lower = lower if min_lower is None else min(min_lower, lower)
                continue
            mid = b.midpoint()
            vm = f(*(ball_of_rational(q) for q in mid))
            if vm.is_finite() and _is_counterexample(vm, strict):
                return BoxResult(
                    "counterexample",
                    box,
                    count,
                    proved,
                    counterexample=dict(zip(b.names, mid)),
                    value=vm.str(10, radius=True),
                    strict=strict,
                )
            if all(w == 0 for w in b.widths()):
                return BoxResult("undecided", box, count, proved, undecided=b, strict=strict)
            for half in b.bisect():
                heapq.heappush(heap, (-max(half.widths()), tie, half))
                tie += 1
        return BoxResult("proved", box, count, proved, min_lower=min_lower, strict=strict)
    finally:
        flint_ctx.prec = old


def box_outcome(
    result: BoxResult, *, what: str = "f", on_counterexample: str = "refuted"
) -> Outcome:
    """The claim verdict of a box search: confirmed / refuted (certified point) / imprecise."""
    vals = dict(
        boxes=result.boxes,
        proved_boxes=result.proved_boxes,
        box=result.box.as_dict(),
        status=result.status,
    )
    if result.min_lower is not None:
        vals["min_lower"] = result.min_lower
    if result.status == "proved":
        return confirmed(result.summary(what), **vals)
    if result.status == "counterexample":
        vals["counterexample"] = {k: str(v) for k, v in result.counterexample.items()}
        vals["value"] = result.value
        make = refuted if on_counterexample == "refuted" else imprecise
        return make(result.summary(what), **vals)
    vals["undecided"] = result.undecided.as_dict()
    return imprecise(result.summary(what), **vals)


def check_on_box(
    f: ArbFunction,
    box: Mapping[str, tuple] | Box,
    *,
    what: str = "f",
    strict: bool = False,
    budget: int = 20000,
    prec: int = 96,
) -> Outcome:
    """:func:`prove_nonnegative` followed by :func:`box_outcome` (the check kind)."""
    return box_outcome(
        prove_nonnegative(f, box, strict=strict, budget=budget, prec=prec), what=what
    )


def all_of(outcomes: Sequence[Outcome], summary: str = "") -> Outcome:
    """Combine the outcomes of several box proofs: the weakest verdict wins."""
    order = {"refuted": 0, "imprecise": 1, "not-checkable": 2, "confirmed": 3}
    worst = min(outcomes, key=lambda o: order[o.verdict])
    text = "; ".join(o.evidence for o in outcomes)
    boxes = sum(int(o.values.get("boxes", 0)) for o in outcomes)
    return Outcome(
        worst.verdict,
        (summary + ": " if summary else "") + text,
        {"boxes": boxes, "parts": [dict(o.values) for o in outcomes]},
    )


@dataclass(frozen=True)
class Extremum:
    """A certified enclosure ``[lo, hi]`` (arb balls) of the minimum or maximum of f on a box."""

    kind: str
    lo: arb
    hi: arb
    point: Mapping[str, Fraction]
    boxes: int
    converged: bool

    def describe(self) -> str:
        pt = ", ".join(f"{k}={float(v):.6g}" for k, v in self.point.items())
        state = "" if self.converged else " (budget exhausted: enclosure not at tolerance)"
        return (
            f"{self.kind} in [{float(self.lo.lower()):.8g}, {float(self.hi.upper()):.8g}] "
            f"(attained near {pt}; {self.boxes} boxes){state}"
        )


def enclose_extremum(
    f: ArbFunction,
    box: Box | Mapping[str, tuple],
    *,
    kind: str = "min",
    tol: float = 1e-6,
    rel_tol: float = 0.0,
    budget: int = 20000,
    prec: int = 96,
    gradient: Sequence[ArbFunction] | None = None,
    taylor: Sequence[ArbFunction] | None = None,
) -> Extremum:
    r"""Certified enclosure of :math:`\min_{box} f` (``kind="min"``) or :math:`\max_{box} f`.

    Best-first branch-and-bound: ``U`` is the smallest certified upper end of f at a box
    midpoint seen so far (the minimum is :math:`\le U`); the box with the smallest lower
    end ``L`` of its enclosure bounds the minimum from below (every other box and every
    pruned box has a lower end :math:`\ge L`).  Stops when :math:`U - L \le` ``tol``.
    The maximum is minus the minimum of :math:`-f`.
    """
    if kind not in ("min", "max"):
        raise InvalidParameter("kind", kind, "'min' or 'max'")
    if not isinstance(box, Box):
        box = Box.of(box)
    sign = 1 if kind == "min" else -1
    g = f if sign == 1 else (lambda *xs: -f(*xs))
    grad = (
        gradient
        if (gradient is None or sign == 1)
        else [(lambda *xs, h=h: -h(*xs)) for h in gradient]
    )
    tay = taylor if (taylor is None or sign == 1) else [(lambda *xs, h=h: -h(*xs)) for h in taylor]
    old = flint_ctx.prec
    flint_ctx.prec = prec
    try:
        mid = box.midpoint()
        best = g(*(ball_of_rational(q) for q in mid))
        best_pt = mid
        v = enclose(g, box, grad, tay)
        heap = [(float(v.lower()), 0, box, v)]
        tie, count = 1, 1
        lower = v
        converged = False
        while heap and count < budget:
            _, _, b, v = heapq.heappop(heap)
            lower = v
            if v.is_finite() and float((best - v.lower()).upper()) <= tol + rel_tol * abs(
                float(best.mid())
            ):
                converged = True
                heapq.heappush(heap, (float(v.lower()), tie, b, v))
                break
            for half in b.bisect():
                count += 1
                mh = half.midpoint()
                vm = g(*(ball_of_rational(q) for q in mh))
                if vm.is_finite() and bool(vm.upper() < best.upper()):
                    best, best_pt = vm, mh
                vh = enclose(g, half, grad, tay)
                if vh.is_finite() and bool(vh.lower() > best.upper()):
                    continue  # this half cannot hold the minimum
                heapq.heappush(
                    heap, (float(vh.lower()) if vh.is_finite() else -float("inf"), tie, half, vh)
                )
                tie += 1
        if not converged and heap:
            lower = min(
                (item[3] for item in heap),
                key=lambda a: float(a.lower()) if a.is_finite() else -1e308,
            )
        lo_ball = arb(lower.lower()) if lower.is_finite() else arb.neg_inf()
        lo_ball = lo_ball.min(best)  # the minimum lies in [lower end, best upper end]
        hi_ball = best
        if sign == 1:
            return Extremum(
                "min", lo_ball, hi_ball, dict(zip(box.names, best_pt)), count, converged
            )
        return Extremum("max", -hi_ball, -lo_ball, dict(zip(box.names, best_pt)), count, converged)
    finally:
        flint_ctx.prec = old


def enclosure_rounds_to(lo: arb, hi: arb, printed: str) -> bool | None:
    r"""Does every number in ``[lo, hi]`` round (half up) to the decimal string ``printed``?

    ``True`` when :math:`[lo, hi] \subset [p - h, p + h)` with :math:`h` half a unit of the
    last printed digit; ``False`` when the enclosure lies outside that interval; ``None``
    when it straddles an edge (undecided).  A trailing ``%`` divides by 100.
    """
    text = printed.strip()
    scale = Fraction(1, 100) if text.endswith("%") else Fraction(1)
    text = text.rstrip("%")
    decimals = len(text.split(".")[1]) if "." in text else 0
    p = Fraction(text) * scale
    h = Fraction(1, 2 * 10**decimals) * scale
    a, b = ball_of_rational(p - h), ball_of_rational(p + h)
    if bool(lo.lower() >= a) and bool(hi.upper() < b):
        return True
    if bool(hi.upper() < a) or bool(lo.lower() >= b):
        return False
    return None


# ------------------------------------------------------------- sympy -> arb evaluator
def _const(value: sp.Expr) -> arb:
    if isinstance(value, sp.Rational):
        return arb(fmpq(int(value.p), int(value.q)))
    if value is sp.pi:
        return arb.pi()
    if value is sp.E:
        return arb.const_e()
    if isinstance(value, sp.Float):  # a binary floating-point value: entered exactly
        sign, man, exp, _ = value._mpf_
        out = (
            arb(int(man)) * arb(2) ** int(exp) if exp >= 0 else arb(int(man)) / arb(2) ** int(-exp)
        )
        return -out if sign else out
    raise InvalidParameter(
        "expression", str(value), "rationals, pi, E, floats", "this constant has no ball evaluator"
    )


def _pow(base: arb, ex: sp.Expr, ex_ball: Callable) -> arb:
    if isinstance(ex, sp.Integer):
        k = int(ex)
        return base**k if k >= 0 else 1 / (base ** (-k))
    if ex == sp.Rational(1, 2):
        return base.sqrt()
    if ex == sp.Rational(-1, 2):
        return base.rsqrt()
    if isinstance(ex, sp.Rational) and ex.q > 1:
        root = base.root(int(ex.q))
        k = int(ex.p)
        return root**k if k >= 0 else 1 / (root ** (-k))
    return (ex_ball() * base.log()).exp()


_UNARY = {
    sp.exp: lambda v: v.exp(),
    sp.log: lambda v: v.log(),
    sp.erf: lambda v: v.erf(),
    sp.erfc: lambda v: v.erfc(),
    sp.sin: lambda v: v.sin(),
    sp.cos: lambda v: v.cos(),
    sp.tanh: lambda v: v.tanh(),
    sp.Abs: lambda v: abs(v),
    sp.sinh: lambda v: v.sinh(),
    sp.cosh: lambda v: v.cosh(),
    sp.atan: lambda v: v.atan(),
}


def arb_function(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> ArbFunction:
    r"""Compile ``expr`` into ``f(*balls) -> arb`` (one ball per entry of ``variables``).

    Supported: numbers (rationals exact, ``pi``, ``E``), sums, products, powers (integer,
    rational, or general via :math:`e^{b\log a}`), ``exp``, ``log``, ``erf``, ``erfc``,
    ``sin``, ``cos``, ``sinh``, ``cosh``, ``tanh``, ``atan``, ``Abs``.  Anything else raises
    :class:`~shufflekit.errors.InvalidParameter` naming the unsupported node.
    """
    expr = sp.sympify(expr)
    index = {s: i for i, s in enumerate(variables)}
    free = expr.free_symbols - set(index)
    if free:
        raise InvalidParameter(
            "expression",
            str(expr),
            f"functions of {', '.join(map(str, variables))}",
            f"free symbols {sorted(map(str, free))} have no value",
        )

    def compile_(e: sp.Expr) -> Callable[[Sequence[arb]], arb]:
        if e in index:
            i = index[e]
            return lambda xs: xs[i]
        if e.is_Number or e in (sp.pi, sp.E):
            c = _const(e)
            return lambda xs: c
        if e.is_Add:
            args = list(e.args)
            if sp.Integer(-1) in args and any(isinstance(a, sp.exp) for a in args):
                # exp(u) - 1 is evaluated as expm1(u): no cancellation when u is small
                args.remove(sp.Integer(-1))
                k = next(i for i, a in enumerate(args) if isinstance(a, sp.exp))
                inner = compile_(args.pop(k).args[0])
                rest = [compile_(a) for a in args]
                return lambda xs: sum((p(xs) for p in rest), inner(xs).expm1())
            parts = [compile_(a) for a in e.args]

            def add(xs):
                out = parts[0](xs)
                for p in parts[1:]:
                    out = out + p(xs)
                return out

            return add
        if e.is_Mul:
            parts = [compile_(a) for a in e.args]

            def mul(xs):
                out = parts[0](xs)
                for p in parts[1:]:
                    out = out * p(xs)
                return out

            return mul
        if e.is_Pow:
            base, ex = e.args
            b = compile_(base)
            if ex.free_symbols:
                xe = compile_(ex)
                return lambda xs: (xe(xs) * b(xs).log()).exp()
            if base is sp.E:
                c = compile_(ex)
                return lambda xs: c(xs).exp()
            ex_c = compile_(ex)
            return lambda xs: _pow(b(xs), ex, lambda: ex_c(xs))
        for fn, op in _UNARY.items():
            if isinstance(e, fn):
                inner = compile_(e.args[0])
                return lambda xs, op=op, inner=inner: op(inner(xs))
        raise InvalidParameter(
            "expression",
            str(e),
            "sums, products, powers, exp, log, erf, erfc, sin, cos, sinh, cosh, tanh, atan, Abs",
            "no ball evaluator for this node",
        )

    body = compile_(expr)

    def f(*balls: arb) -> arb:
        return body(balls)

    return f


def check_positive_beyond_root(
    expr: sp.Expr,
    var: sp.Symbol,
    root,
    near,
    far,
    *,
    what: str = "",
    budget: int = 20000,
    prec: int = 96,
) -> Outcome:
    r"""Prove ``expr > 0`` on the half-open range between ``root`` (excluded) and ``far``.

    At a point where ``expr`` vanishes no enclosure can have a positive lower end, so the range
    is split at ``near``: (i) ``expr(root) = 0`` exactly (sympy); (ii) the derivative has the
    sign that makes ``expr`` grow away from ``root`` on ``[root, near]`` (box proof), so
    ``expr > 0`` on ``(root, near]`` by the mean value theorem; (iii) ``expr > 0`` on
    ``[near, far]`` (box proof).  ``far`` may lie on either side of ``root``.
    """
    label = what or sp.sstr(expr)
    at_root = sp.simplify(sp.sympify(expr).subs(var, root))
    if at_root != 0:
        return refuted(
            f"{label} at {var} = {root} is {sp.sstr(at_root)}, not 0", value=sp.sstr(at_root)
        )
    right = exact(far) > exact(root)
    slope = sp.diff(expr, var) if right else -sp.diff(expr, var)
    near_box = {var: (root, near) if right else (near, root)}
    far_box = {var: (near, far) if right else (far, near)}
    parts = [
        check_expr_on_box(
            slope,
            near_box,
            strict=True,
            budget=budget,
            prec=prec,
            centered=True,
            what=f"{'' if right else '-'}d/d{var} of {label}",
        ),
        check_expr_on_box(
            expr, far_box, strict=True, budget=budget, prec=prec, centered=True, what=label
        ),
    ]
    return all_of(parts, f"{label} = 0 at {var} = {root} (exact)")


def arb_taylor(expr: sp.Expr, var: sp.Symbol, order: int) -> list[ArbFunction]:
    """Ball evaluators of ``expr`` and its first ``order`` derivatives in ``var`` (for :func:`taylor_form`)."""
    out, d = [], sp.sympify(expr)
    for _ in range(order + 1):
        out.append(arb_function(d, [var]))
        d = sp.diff(d, var)
    return out


def arb_gradient(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> list[ArbFunction]:
    """Ball evaluators of the partial derivatives of ``expr`` (sympy differentiation)."""
    return [arb_function(sp.diff(expr, s), variables) for s in variables]


def prove_expr_nonnegative(
    expr: sp.Expr,
    ranges: Mapping[sp.Symbol, tuple],
    *,
    strict: bool = False,
    budget: int = 20000,
    prec: int = 96,
    centered: bool = False,
) -> BoxResult:
    """:func:`prove_nonnegative` for a sympy expression over ``{symbol: (lo, hi)}``.

    ``centered`` adds the mean-value form (the gradient comes from sympy).
    """
    syms = list(ranges)
    f = arb_function(expr, syms)
    grad = arb_gradient(expr, syms) if centered else None
    box = Box.of({str(s): ranges[s] for s in syms})
    return prove_nonnegative(f, box, strict=strict, budget=budget, prec=prec, gradient=grad)


def check_expr_on_box(
    expr: sp.Expr,
    ranges: Mapping[sp.Symbol, tuple],
    *,
    what: str = "",
    strict: bool = False,
    budget: int = 20000,
    prec: int = 96,
    centered: bool = False,
) -> Outcome:
    """The check kind for a sympy expression: ``expr >= 0`` (or ``> 0``) on the box."""
    res = prove_expr_nonnegative(
        expr, ranges, strict=strict, budget=budget, prec=prec, centered=centered
    )
    return box_outcome(res, what=what or sp.sstr(expr))
