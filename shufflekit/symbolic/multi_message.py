r"""Bundled versus unbundled multi-message shuffling (Shvets 2026, Sec. 9; the Shvets summary, Sec. 3.3).

Each user applies the channel :math:`m` times independently; :math:`w = W_1/W_0`,
:math:`\mathbb{E}_{W_0}w = 1`, :math:`\mathbb{E}_{W_0}w^2 = 1+\chi^2`.

* **Bundled** (the shuffler permutes users' :math:`m`-tuples): the per-user channel is
  :math:`W_b^{\otimes m}` with product likelihood ratio :math:`\prod_j w(Y_j)`, so its
  :math:`\chi^2` is :math:`\mathbb{E}\prod_j w(Y_j)^2 - 1 = (1+\chi^2)^m - 1`
  (Sec. 9.3), and the canonical shuffled :math:`\chi^2` is exactly that over :math:`n`.
* **Unbundled** (all :math:`nm` messages permuted): the exact canonical likelihood ratio is
  the average of the product ratio over :math:`m`-subsets of message positions (Sec. 9.1),
  :math:`L^{(m)} = \binom{nm}{m}^{-1}e_m(w(Y_1),\dots,w(Y_{nm}))`.  Its exact
  :math:`\chi^2` is :math:`\mathbb{E}(1+\chi^2)^J - 1` with :math:`J` hypergeometric
  (the overlap of two independent :math:`m`-subsets), whose leading term is
  :math:`m\chi^2/n` (Sec. 9.2).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import sympy as sp

from shufflekit.symbolic.derivation import Derivation
from shufflekit.symbolic.fixed_composition import as_channel
from shufflekit.symbols import chi2, n


def _check_m(m: int) -> int:
    if isinstance(m, bool) or int(m) != m or int(m) < 1:
        raise ValueError(f"m={m!r} is not allowed; allowed range [1, inf) (integer)")
    return int(m)


@cache
def bundled_chi2(m: int, d: int = 2) -> Derivation:
    r"""Derive :math:`\chi^2(W_1^{\otimes m}\|W_0^{\otimes m})` from the product likelihood ratio.

    Sum :math:`W_0^{\otimes m}(y)\,(\prod_j w(y_j))^2` over all :math:`d^m` output sequences of a
    generic channel (:math:`p_i = W_0(i)`, :math:`w_i = W_1(i)/W_0(i)`), subtract 1, then eliminate
    :math:`p_{d-1}` with the definition :math:`\chi^2 = \sum_i p_i w_i^2 - 1` (Shvets 2026, Sec. 9.3).
    Every channel symbol must cancel; the result is :math:`(1+\chi^2)^m - 1` as a polynomial in
    :math:`\chi^2`, found here, not typed.
    """
    m = _check_m(m)
    p = sp.symbols(f"p0:{d}", positive=True)  # W0
    w = sp.symbols(f"w0:{d}", positive=True)  # likelihood ratios W1/W0
    total = 0
    for seq in itertools.product(range(d), repeat=m):
        prob = sp.Mul(*[p[i] for i in seq])
        ratio = sp.Mul(*[w[i] for i in seq])
        total += prob * ratio**2
    bundled = sp.expand(total) - 1
    last = (1 + chi2 - sum(p[i] * w[i] ** 2 for i in range(d - 1))) / w[d - 1] ** 2
    result = sp.expand(bundled.subs(p[d - 1], last))
    leftover = result.free_symbols - {chi2}
    if leftover:
        raise ArithmeticError(
            f"bundled chi^2 for m={m} still depends on {sorted(map(str, leftover))}"
        )
    return Derivation(
        id=f"multi-message.bundled-chi2.m{m}",
        title=f"bundled chi-square for m = {m}",
        result=result,
        variables=(chi2,),
        assumptions=("chi^2 = E_{W0} w^2 - 1", f"generic channel on {d} symbols"),
        source="Shvets 2026, Sec. 9.3; the Shvets summary, Sec. 3.3",
        steps=(
            ("E_{W0^m} prod_j w(Y_j)^2 - 1 (sum over sequences)", bundled),
            ("with p_last eliminated through chi^2", result),
        ),
        lhs=rf"\chi^2(W_1^{{\otimes {m}}}\|W_0^{{\otimes {m}}})",
    )


def overlap_counts(N: int, m: int) -> list[int]:
    """Number of m-subsets T of {0, ..., N-1} with |T n {0, ..., m-1}| = j, for j = 0..m: a scan
    over the positions keeping, for every (|T so far|, overlap so far), how many partial subsets
    reach it (each position is either left out or put in T)."""
    ways = {(0, 0): 1}
    for pos in range(N):
        step: dict = {}
        for (size, overlap), count in ways.items():
            step[(size, overlap)] = step.get((size, overlap), 0) + count
            if size < m:
                key = (size + 1, overlap + (pos < m))
                step[key] = step.get(key, 0) + count
        ways = step
    return [ways.get((m, j), 0) for j in range(m + 1)]


@cache
def overlap_weights(m: int) -> Derivation:
    r"""Law of the overlap :math:`J = |S\cap T|` of two independent uniform :math:`m`-subsets of the
    :math:`nm` message positions, as rational functions of :math:`n` (Shvets 2026, Sec. 9.2).

    Derived by counting: positions are exchangeable, so fix :math:`S = \{0,\dots,m-1\}` and
    count every :math:`m`-subset :math:`T` by its overlap (:func:`overlap_counts`) for
    :math:`n = 1,\dots,2m+1`; each weight is then the degree-:math:`(m, m)` rational interpolant
    in :math:`n`, confirmed at two further values of :math:`n`.
    """
    from sympy.polys.polyfuncs import rational_interpolate

    m = _check_m(m)
    points = list(range(1, 2 * m + 4))
    table = []
    for nn in points:
        counts = overlap_counts(nn * m, m)
        total = sum(counts)
        table.append([sp.Rational(c, total) for c in counts])
    fit, held_out = points[: 2 * m + 1], points[2 * m + 1 :]
    weights = []
    for j in range(m + 1):
        f = sp.factor(rational_interpolate([(x, table[i][j]) for i, x in enumerate(fit)], m, X=n))
        for i, x in enumerate(points):
            if x in held_out and f.subs(n, x) != table[i][j]:
                raise ArithmeticError(
                    f"overlap weight j={j} is not a degree-{m} rational function of n"
                )
        weights.append(f)
    return Derivation(
        id=f"multi-message.overlap-weights.m{m}",
        title=f"overlap law of two m-subsets, m = {m}",
        result=sp.Matrix(weights),
        variables=(n,),
        assumptions=("positions exchangeable",),
        source="Shvets 2026, Sec. 9.2",
        steps=(("counted at n = 1..%d, interpolated in n" % (2 * m + 1), sp.Matrix(weights)),),
        lhs=r"\mathbb{P}(|S\cap T| = j)",
    )


@cache
def unbundled_chi2(m: int) -> Derivation:
    r"""Exact :math:`\chi^2(T^{(m)}_{n,1}\|T^{(m)}_{n,0}) = \sum_j \frac{\binom mj\binom{nm-m}{m-j}}{\binom{nm}{m}}(1+\chi^2)^j - 1`
    from :math:`\mathbb{E}_P[L^{(m)2}]` (pairs of :math:`m`-subsets overlapping in :math:`j` positions),
    and its leading :math:`1/n` coefficient (the unbundled Fisher constant)."""
    m = _check_m(m)
    weights = list(overlap_weights(m).result)
    # E_P[prod_{i in S} w(Y_i) prod_{i in T} w(Y_i)] = (E w^2)^{|S n T|} (E w)^{|S ^ T|} = (1 + chi^2)^J
    exact = sp.simplify(sum(weights[j] * (1 + chi2) ** j for j in range(m + 1)) - 1)
    x = sp.Symbol("x", positive=True)
    ser = sp.series(exact.subs(n, 1 / x), x, 0, 3).removeO()
    lead = sp.factor(ser.coeff(x, 1))
    second = sp.factor(ser.coeff(x, 2))
    return Derivation(
        id=f"multi-message.unbundled-chi2.m{m}",
        title=f"unbundled shuffled chi-square for m = {m}",
        result=exact,
        variables=(n, chi2),
        assumptions=("canonical pair", f"m = {m} messages per user"),
        source="Shvets 2026, Sec. 9.1-9.2",
        steps=(
            ("overlap weights P(J = j) (derived by counting)", sp.Matrix(weights)),
            ("E_P[L^2] - 1", exact),
            ("coefficient of 1/n", lead),
            ("coefficient of 1/n^2", second),
        ),
        lhs=r"\chi^2(T^{(m)}_{n,1}\|T^{(m)}_{n,0})",
        extras={"lead": lead, "second": second},
    )


@cache
def bundled_shuffled_chi2(m: int) -> Derivation:
    r"""Canonical bundled pair: :math:`L = \frac1n\sum_i\prod_j w(Y_{ij})`, so
    :math:`\chi^2 = \operatorname{Var}(\prod_j w)/n = ((1+\chi^2)^m-1)/n` exactly."""
    m = _check_m(m)
    per_user = bundled_chi2(m).result
    exact = per_user / n
    return Derivation(
        id=f"multi-message.bundled-shuffled-chi2.m{m}",
        title=f"bundled shuffled chi-square for m = {m}",
        result=exact,
        variables=(n, chi2),
        source="Shvets 2026, Sec. 9.3",
        steps=(
            ("Var of the bundle likelihood ratio", per_user),
            ("divided by n (mean of n i.i.d.)", exact),
        ),
        lhs=r"\chi^2(T^{\rm bun}_{n,1}\|T^{\rm bun}_{n,0})",
    )


@cache
def bundled_minus_unbundled(m: int) -> Derivation:
    r""":math:`(1+\chi^2)^m - 1 - m\chi^2 = \sum_{j\ge2}\binom mj\chi^{2j}` (positive for :math:`m\ge2`, :math:`\chi^2>0`)."""
    m = _check_m(m)
    gap = sp.expand(bundled_chi2(m).result - unbundled_chi2(m).extras["lead"])
    poly = sp.Poly(gap, chi2)
    coeffs = poly.all_coeffs()[::-1]
    all_nonneg = all(c >= 0 for c in coeffs)
    return Derivation(
        id=f"multi-message.gap.m{m}",
        title=f"bundled minus unbundled constant, m = {m}",
        result=gap,
        variables=(chi2,),
        assumptions=("chi^2 > 0",),
        source="the Shvets summary, Sec. 3.3",
        steps=(("(1+chi^2)^m - 1 - m chi^2", gap),),
        lhs=r"(1+\chi^2)^m - 1 - m\chi^2",
        extras={
            "coefficients": coeffs,
            "all_nonnegative": all_nonneg,
            "positive": bool(all_nonneg and any(c > 0 for c in coeffs)),
        },
    )


# ------------------------------------------------------ exact likelihood ratio
def unbundled_likelihood_ratio(
    w0: Sequence, w1: Sequence, n_users: int, m: int, hist: Sequence[int]
) -> sp.Rational:
    r"""Exact :math:`L^{(m)}_{n,0}(N) = \binom{nm}{m}^{-1}\sum_{\sum m_y = m}\prod_y\binom{N_y}{m_y}w(y)^{m_y}`
    (Shvets 2026, Sec. 9.1) in exact rational arithmetic."""
    W0, W1 = as_channel(w0, w1)
    m = _check_m(m)
    d = W0.shape[0]
    hist = [int(h) for h in hist]
    if len(hist) != d or any(h < 0 for h in hist) or sum(hist) != n_users * m:
        raise ValueError(
            f"hist={hist} is not allowed; need {d} non-negative counts summing to n*m = {n_users * m}"
        )
    w = [W1[i] / W0[i] for i in range(d)]
    total = sp.Integer(0)
    for ms in itertools.product(*[range(min(h, m) + 1) for h in hist]):
        if sum(ms) != m:
            continue
        total += sp.Mul(*[sp.binomial(hist[i], ms[i]) * w[i] ** ms[i] for i in range(d)])
    return sp.nsimplify(total / sp.binomial(n_users * m, m))


def brute_force_likelihood_ratio(
    w0: Sequence, w1: Sequence, n_users: int, m: int, hist: Sequence[int]
) -> sp.Rational:
    r""":math:`Q(N)/P(N)` by enumerating every message sequence of the :math:`nm` messages (the first
    :math:`m` are the changed user's) with histogram :math:`N`; exact rationals; tiny cases only."""
    W0, W1 = as_channel(w0, w1)
    d = W0.shape[0]
    total = n_users * m
    if d**total > 200_000:
        raise ValueError(
            f"n*m={total} with d={d} symbols is too large for enumeration (d^(nm) <= 200000)"
        )
    target = tuple(int(h) for h in hist)
    P = Q = sp.Integer(0)
    for seq in itertools.product(range(d), repeat=total):
        if tuple(seq.count(y) for y in range(d)) != target:
            continue
        p = sp.Mul(*[W0[y] for y in seq])
        q = sp.Mul(*[W1[y] for y in seq[:m]]) * sp.Mul(*[W0[y] for y in seq[m:]])
        P += p
        Q += q
    if P == 0:
        raise ValueError(f"hist={list(target)} has probability 0 under the null")
    return sp.nsimplify(Q / P)


def derivations(m: int = 2) -> list[Derivation]:
    """Every derivation of this module for ``m`` messages per user."""
    return [
        bundled_chi2(m),
        overlap_weights(m),
        bundled_shuffled_chi2(m),
        unbundled_chi2(m),
        bundled_minus_unbundled(m),
    ]
