r"""Exact shuffled divergences of binary mechanisms, enclosed in Arb (a reference for any ``n``).

A mechanism with two inputs and two outputs reports "one" with probability :math:`a_x` on input
:math:`x`.  The shuffled view of ``n`` reports is the number of ones, so for the datasets
:math:`D = (u, z, \dots, z)` and :math:`D' = (v, z, \dots, z)` (``n - 1`` copies of ``z``)

.. math::
    N = Y + S,\qquad Y \sim \mathrm{Bern}(a_u)\ \text{or}\ \mathrm{Bern}(a_v),\qquad
    S \sim \mathrm{Bin}(M, r),\ M = n - 1,\ r = a_z,

and with :math:`B(k) = P(S = k)`, :math:`E = e^\varepsilon`,

.. math::
    \delta_{D\|D'}(\varepsilon) = \sum_{k=0}^{n} T(k),\qquad
    T(k) = \big(\alpha B(k-1) + \beta B(k)\big)_+,\qquad
    \alpha = a_u - E a_v,\ \beta = (1 - a_u) - E (1 - a_v).

Since :math:`\alpha + \beta = 1 - E \le 0`, at most one of them is positive.  If
:math:`\alpha > 0 > \beta`, :math:`T(k) > 0` exactly when :math:`\rho(k) = B(k-1)/B(k) =
\frac{k}{M - k + 1}\cdot\frac{1 - r}{r}` exceeds :math:`-\beta/\alpha`; :math:`\rho` increases
with ``k``, so the positive terms form one upper run :math:`k \ge k^*`.  The case
:math:`\alpha < 0 < \beta` is the same after counting zeros instead of ones
(:math:`a \mapsto 1 - a`, :math:`r \mapsto 1 - r`, a bijection of the view).

The enclosure (:func:`pair_delta`):

* the run starts at a ``k`` where the sign of :math:`\alpha\rho(k-1) + \beta` is *proven*
  negative in Arb (then every smaller ``k`` contributes 0, by the monotonicity of
  :math:`\rho`);
* :math:`B` is anchored once by ``lgamma`` in Arb and advanced by the exact ratio
  :math:`B(k+1)/B(k) = \frac{M-k}{k+1}\cdot\frac{r}{1-r}` (ball arithmetic: every rounding is
  in the radius); each term enters as its positive part, a term whose sign is not proven
  enters as :math:`[0, \text{upper end}]`;
* the run is cut at a ``U`` past the mode of :math:`S` once the rest is negligible, and the
  rest is bounded by the geometric series :math:`\sum_{k > U} T(k) \le \alpha \sum_{j \ge U}
  B(j) \le \alpha B(U) / (1 - q_U)`, :math:`q_U = B(U+1)/B(U) < 1` (the ratio decreases in
  ``k``), which is added to the upper end.

Nothing here uses the package's code: the mechanism's probabilities are read from its sympy
matrix by :func:`to_arb` (exact rationals, ``E``, ``exp`` of a rational, sums, products and
integer powers), so a value of ``1e-1360`` or a probability of ``e^{-100}`` is no problem.

The zero-out relation pairs an input with the null input :math:`\bot`, whose law is the blanket
:math:`\omega = c/\gamma`, :math:`c(y) = \min_x R_x(y)` (the definition the package and its
brute force use); :func:`reference` covers that too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import sympy as sp
from flint import arb, ctx, fmpq

BOT = "⊥"
#: working precision in bits: the anchor ``lgamma(n)`` is about 2e10 at n = 1e9, so 256 bits
#: leave more than 200 bits for the value; cancellation in a term near the start of the run
#: only widens that (small) term
PREC = 256
#: the run is cut when the geometric bound on the rest is below this fraction of the sum
#: (it is added to the upper end, so the enclosure stays rigorous; this only sets its width)
TAIL_FRACTION = arb(2) ** -60
#: terms summed at most (the rest is then bounded, not dropped); 4e6 covers n = 1e9 near the
#: centre of the binomial (the run is about 10 standard deviations, 1.4e5 terms)
MAX_TERMS = 4_000_000


# ----------------------------------------------------------------------------- sympy -> Arb
def to_arb(x: Any) -> arb:
    """A ball containing the exact value of the sympy number ``x`` (closed forms only)."""
    x = sp.sympify(x)
    if x.is_Integer or x.is_Rational:
        return arb(fmpq(int(x.p), int(x.q)))
    if x is sp.E:
        return arb(1).exp()
    if isinstance(x, sp.exp):
        return to_arb(x.args[0]).exp()
    if x.is_Add:
        out = arb(0)
        for t in x.args:
            out += to_arb(t)
        return out
    if x.is_Mul:
        out = arb(1)
        for t in x.args:
            out *= to_arb(t)
        return out
    if x.is_Pow:
        base, ex = x.args
        if base is sp.E:
            return to_arb(ex).exp()
        if ex.is_Integer:
            b = to_arb(base)
            return b ** int(ex) if int(ex) >= 0 else 1 / b ** (-int(ex))
        return (to_arb(ex) * to_arb(base).log()).exp()
    if isinstance(x, sp.log):
        return to_arb(x.args[0]).log()
    raise TypeError(f"no exact Arb evaluation of {x!r}")


def pos(x: arb) -> tuple[arb, arb]:
    """(lower, upper) ends of the positive part of the ball ``x``, as exact points."""
    return (x.lower() if x > 0 else arb(0)), (x.upper() if not x <= 0 else arb(0))


@dataclass(frozen=True)
class Ref:
    """``[lo, hi]`` (exact Arb points) contains the exact divergence; ``pair`` names it."""

    lo: arb
    hi: arb
    pair: tuple = ()

    def __post_init__(self):
        assert self.lo <= self.hi or self.lo.overlaps(self.hi), (self.lo, self.hi)

    def __str__(self) -> str:
        return f"[{self.lo.str(5, radius=False)}, {self.hi.str(5, radius=False)}] {self.pair}"


def ref_max(refs) -> Ref:
    """Enclosure of the largest of several exact values (each enclosed by one ``Ref``)."""
    refs = list(refs)
    lo = max((r.lo for r in refs), key=lambda v: v.mid())
    hi = max((r.hi for r in refs), key=lambda v: v.mid())
    best = max(refs, key=lambda r: r.hi.mid())
    return Ref(lo, hi, best.pair)


# ----------------------------------------------------------------------------- one pair
def _direct(alpha: arb, beta: arb) -> tuple[arb, arb]:
    """S deterministic: the view takes two values, delta = alpha_+ + beta_+."""
    (al, ah), (bl, bh) = pos(alpha), pos(beta)
    return (al + bl).lower(), (ah + bh).upper()


def _log_binom_pmf(M: int, k: int, r: arb) -> arb:
    return (
        arb(M + 1).lgamma()
        - arb(k + 1).lgamma()
        - arb(M - k + 1).lgamma()
        + k * r.log()
        + (M - k) * (1 - r).log()
    )


def _upper_run(alpha: arb, beta: arb, r: arb, M: int) -> tuple[arb, arb]:
    r"""Enclosure of :math:`\sum_k (\alpha B(k-1) + \beta B(k))_+`, :math:`\alpha > 0 > \beta`
    proven, :math:`0 < r < 1`, :math:`M \ge 1`."""
    c = r / (1 - r)
    n = M + 1

    def rho(k: int) -> arb:  # B(k-1)/B(k), k in [1, M]
        return arb(k) / arb(M - k + 1) / c

    def negative_before(k: int) -> bool:  # every term below k is proven 0
        if k <= 0:
            return True
        if k - 1 == 0:  # T(0) = beta_+ B(0), beta < 0
            return True
        if k - 1 > M:  # B(k-1) = 0 for k - 1 > M
            return True
        return bool(alpha * rho(k - 1) + beta < 0)

    # a start from floats, then proven (moved down until the sign below it is certain)
    rs = float(-beta.mid() / alpha.mid())
    rf = float(r.mid())
    try:
        guess = n * rs * rf / ((1 - rf) + rs * rf)
        start = int(min(max(math.floor(guess) - 2, 0), n))
    except (OverflowError, ValueError, ZeroDivisionError):
        start = n
    step = 2
    while not negative_before(start):
        start = max(start - step, 0)
        step *= 2
    # B(start - 1), B(start) by one lgamma anchor
    if start == 0:
        b_prev, b_cur = arb(0), (M * (1 - r).log()).exp()
    elif start > M:
        b_prev, b_cur = _log_binom_pmf(M, M, r).exp(), arb(0)
    else:
        b_prev = _log_binom_pmf(M, start - 1, r).exp()
        b_cur = _log_binom_pmf(M, start, r).exp()

    def rest(k: int, b_k: arb) -> arb:
        """Bound on the terms after k: sum_{k' > k} T(k') <= alpha * sum_{j >= k} B(j)."""
        if k > M:
            return arb(0)
        if k == M:
            return alpha * b_k
        q = arb(M - k) / (k + 1) * c  # B(j+1)/B(j) <= q for every j >= k
        return alpha * b_k / (1 - q) if q < 1 else alpha  # else P(S >= k) <= 1

    certain = arb(0)  # sum of terms proven positive (balls)
    unsure = arb(0)  # upper ends of terms whose sign is not proven
    tail = arb(0)
    k, terms = start, 0
    while True:
        t = alpha * b_prev + beta * b_cur
        if t > 0:
            certain += t
        elif not t <= 0:
            unsure += t.upper()
        terms += 1
        if k == n:  # every term summed
            tail = arb(0)
            break
        if terms % 32 == 0 or terms >= MAX_TERMS:
            tail = rest(k, b_cur)
            if terms >= MAX_TERMS or tail.upper() <= TAIL_FRACTION * certain.lower():
                break
        b_next = b_cur * (M - k) / (k + 1) * c if k < M else arb(0)
        b_prev, b_cur = b_cur, b_next
        k += 1
    lo = certain.lower() if certain > 0 else arb(0)
    return lo, (certain + unsure + tail).upper()


def pair_delta(a_u: arb, a_v: arb, r: arb, n: int, epsilon: float) -> tuple[arb, arb]:
    r"""Enclosure ``(lo, hi)`` of :math:`\delta_{D\|D'}(\varepsilon)` for
    :math:`D = (u, z^{n-1})`, :math:`D' = (v, z^{n-1})`; ``a_u``, ``a_v``, ``r = a_z`` are the
    probabilities of "one" (Arb balls)."""
    old = ctx.prec
    ctx.prec = PREC
    try:
        E = arb(epsilon).exp()
        alpha = a_u - E * a_v
        beta = (1 - a_u) - E * (1 - a_v)
        M = n - 1
        if alpha <= 0 and beta <= 0:
            return arb(0), arb(0)
        if M == 0 or r <= 0 or r >= 1:  # deterministic rest
            return _direct(alpha, beta)
        if alpha > 0 and beta < 0:
            return _upper_run(alpha, beta, r, M)
        if alpha < 0 and beta > 0:  # count zeros instead
            return _upper_run(beta, alpha, 1 - r, M)
        # a sign not proven (e.g. epsilon = eps0 exactly, where alpha = 0): T(k) <= alpha_+
        # B(k-1) + beta_+ B(k) and the B sum to at most one
        return arb(0), (pos(alpha)[1] + pos(beta)[1]).upper()
    finally:
        ctx.prec = old


# ----------------------------------------------------------------------------- mechanisms
def _exact_min(values, exprs) -> arb:
    """The smallest of exact numbers given as balls; when two balls overlap, sympy orders the
    exact expressions (equal ones are interchangeable)."""
    best, best_e = values[0], exprs[0]
    for v, e in zip(values[1:], exprs[1:]):
        if v < best:
            best, best_e = v, e
        elif not v >= best:
            diff = sp.simplify(sp.sympify(e) - sp.sympify(best_e))
            if diff != 0 and bool(diff < 0):
                best, best_e = v, e
    return best


def one_probabilities(mech, column: int) -> dict:
    r"""For each input label and for :math:`\bot`: the probability that the report falls in
    output class ``column`` (``multiplicity`` outputs of the class together).

    :math:`\bot` has the blanket law :math:`\omega = c/\gamma`, :math:`c(y) = \min_x R_x(y)`,
    :math:`\gamma = \sum_y m_y c(y)`; it is left out when :math:`\gamma = 0`."""
    old = ctx.prec
    ctx.prec = PREC
    try:
        mult = [to_arb(m) for m in mech.multiplicity]
        P = [[to_arb(v) for v in row] for row in mech.probs]
        for row in P:  # the matrix really is stochastic
            total = sum((m * v for m, v in zip(mult, row)), arb(0))
            assert total.overlaps(arb(1)), (mech.probs, total)
        floor = [
            _exact_min([P[i][j] for i in range(len(P))], [mech.probs[i][j] for i in range(len(P))])
            for j in range(len(mult))
        ]
        gamma = sum((m * c for m, c in zip(mult, floor)), arb(0))
        out = {u: mult[column] * P[i][column] for i, u in enumerate(mech.inputs)}
        if gamma > 0:
            out[BOT] = mult[column] * floor[column] / gamma
        return out
    finally:
        ctx.prec = old


def is_binary(mech) -> bool:
    """Two inputs and two outputs, no lumped outputs: the view is the count of one output."""
    return (
        len(mech.inputs) == 2
        and len(mech.probs[0]) == 2
        and all(sp.sympify(m) == 1 for m in mech.multiplicity)
    )


def family(inputs, adjacency: str, *, canonical: bool = False, rests: str = "all") -> list:
    r"""The dataset pairs ``(u, v, z)``: :math:`(u, z^{n-1})` vs :math:`(v, z^{n-1})`.

    ``replace-one``: :math:`u \ne v` inputs and ``z`` any input (``rests="ends"``: only
    :math:`z \in \{u, v\}`; ``canonical``: only ``z = v``); ``zero-out``: one of ``u, v`` is
    :math:`\bot` and ``z`` any input or :math:`\bot` (``rests="ends"``: ``z`` the input or
    :math:`\bot`)."""
    inputs = list(inputs)
    out = []
    if adjacency == "replace-one":
        for u in inputs:
            for v in inputs:
                if u == v:
                    continue
                zs = [v] if canonical else ([u, v] if rests == "ends" else inputs)
                out += [(u, v, z) for z in zs]
    elif adjacency == "zero-out":
        for u in inputs:
            for z in [u, BOT] if rests == "ends" else inputs + [BOT]:
                out += [(u, BOT, z), (BOT, u, z)]
    else:
        raise ValueError(adjacency)
    return out


_CACHE: dict[tuple, Ref] = {}


def _family_max(ones: dict, pairs, n: int, epsilon: float) -> Ref:
    refs, seen = [], {}
    for u, v, z in pairs:
        key = tuple((x.mid().man_exp(), x.rad().man_exp()) for x in (ones[u], ones[v], ones[z]))
        if key not in seen:
            lo, hi = pair_delta(ones[u], ones[v], ones[z], n, epsilon)
            seen[key] = Ref(lo, hi, (u, v, z))
        refs.append(seen[key])
    return ref_max(refs)


def _cached(key, compute) -> Ref:
    if key not in _CACHE:
        if len(_CACHE) > 4096:
            _CACHE.clear()
        _CACHE[key] = compute()
    return _CACHE[key]


def _mech_key(mech) -> tuple:
    return (
        tuple(mech.inputs),
        tuple(str(m) for m in mech.multiplicity),
        tuple(tuple(str(v) for v in row) for row in mech.probs),
    )


def reference(
    mech, n: int, epsilon: float, adjacency: str = "replace-one", *, canonical: bool = False
) -> Ref:
    r"""Enclosure of the largest exact divergence of a *binary* mechanism over the dataset
    pairs :func:`family` (both orders):

    * ``replace-one``: for a binary mechanism these are exactly the pairs of the Theorem 5
      lower bound, so the ``hi`` end is at least that bound's true value; ``canonical``
      keeps the pairs :math:`(u, v^{n-1})` vs :math:`(v^n)` a heuristic method names;
    * ``zero-out``: one side holds :math:`\bot` (law :math:`\omega`).

    Each is a pair of neighbouring datasets, so ``lo`` is a proven lower bound on the
    mechanism's worst case."""
    if not is_binary(mech):
        raise ValueError("not a binary mechanism")
    n, epsilon = int(n), float(epsilon)

    def compute():
        ones = one_probabilities(mech, 0)
        if adjacency == "zero-out" and BOT not in ones:
            raise ValueError("no blanket: the null input is undefined")
        return _family_max(ones, family(mech.inputs, adjacency, canonical=canonical), n, epsilon)

    return _cached(("exact", _mech_key(mech), n, epsilon, adjacency, canonical), compute)


def merged_lower_bound(mech, n: int, epsilon: float, adjacency: str = "replace-one") -> Ref:
    r"""A proven lower bound (``lo``) on the worst case of *any* finite mechanism.

    Reporting only whether the output lies in one class ``y`` is a post-processing of each
    report, and the count of such reports a post-processing of the shuffled view, so the
    divergence of the merged (binary) view of two datasets is at most that of the full view
    (data processing).  The merged view of :math:`(u, z^{n-1})` vs :math:`(v, z^{n-1})` is the
    binary case above; the maximum is over every output class and the pairs of
    :func:`family` with ``rests="ends"`` (``z`` one of the differing inputs).  For a binary
    mechanism this is :func:`reference` restricted to those pairs."""
    n, epsilon = int(n), float(epsilon)

    def compute():
        refs = []
        for col in range(len(mech.probs[0])):
            ones = one_probabilities(mech, col)
            if adjacency == "zero-out" and BOT not in ones:
                continue
            refs.append(_family_max(ones, family(mech.inputs, adjacency, rests="ends"), n, epsilon))
        return ref_max(refs) if refs else Ref(arb(0), arb(1), ())

    return _cached(("merged", _mech_key(mech), n, epsilon, adjacency), compute)
