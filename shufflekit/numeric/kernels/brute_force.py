r"""The reference: shuffled privacy profiles by exhaustive enumeration of output histograms.

For ``n`` users holding inputs :math:`x_1,\dots,x_n` of a finite randomizer :math:`R`, the
shuffled output is the histogram :math:`H = \sum_i e_{Y_i}`, :math:`Y_i\sim R_{x_i}`
independently.  Its law is the convolution of the users' categorical laws, and for two
datasets :math:`D, D'` the hockey-stick divergence is

.. math::
    \delta_{D\|D'}(\varepsilon) = \sum_h \big(P_D(h) - e^\varepsilon P_{D'}(h)\big)_+ .

:func:`worst_case_delta` maximises it over *every* neighbouring pair of datasets of the
relation: ``replace-one`` (:math:`D=(x,\text{rest})`, :math:`D'=(x',\text{rest})`, both orders,
``rest`` any multiset of :math:`n-1` inputs) or ``zero-out`` (:math:`x` against the null input
:math:`\bot` whose law is the blanket :math:`\omega`, both orders; the other users may also hold
:math:`\bot`).  This is the definition itself, with no theorem in between, so it is the
reference every accountant is tested against (small ``n`` and alphabets only: the work grows
like the number of multisets times the number of histograms).

Precision and certificate.  The matrix entries are evaluated by sympy to 30 digits and
rounded to the nearest float (relative error :math:`\le u_{64}(1+10^{-14})`).  Histogram laws
are computed in extended precision (``numpy.longdouble``, unit round-off :math:`u`, which is
:math:`2^{-64}` on x86-64) by sums of products of non-negative numbers, so after :math:`t`
users each probability carries a relative error at most :math:`\gamma_{2t+2}` with
:math:`\gamma_k = ku/(1-ku)` (Higham, *Accuracy and Stability*, Lemma 3.1) plus the input
error.  :math:`e^\varepsilon` comes from an Arb ball.  The positive parts are then bounded from
above (largest :math:`P_D`, smallest :math:`e^\varepsilon P_{D'}`) and below (the reverse), every
rounding of those last steps inflated explicitly, so :func:`worst_case_delta` returns an
interval :math:`[\mathrm{lo}, \mathrm{hi}]` that contains the exact worst-case divergence.

The same enumeration serves matrices given as floats (:func:`worst_shuffled_delta`,
:func:`rows_delta`: the floats are taken as the exact entries), and two more references live
here: :func:`sequence_laws` (exact rational laws of the fixed-composition histograms of Shvets 2026,
Sec. 4, by enumerating every output sequence) and :func:`multinomial_positive_part` (the blanket
expectation :math:`\tfrac1n\mathbb{E}[(\sum_j N_j g_j)_+]` by enumerating every count vector).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np
import sympy as sp
from flint import arb, ctx

from shufflekit.errors import InvalidParameter
from shufflekit.numeric.kernels.directed_rounding import float_down, float_up
from shufflekit.validation import check_epsilon, check_n

FLOAT = np.longdouble
U = float(np.finfo(FLOAT).eps) / 2  # unit round-off of the working type
U64 = 2.0**-53
MAX_HISTOGRAMS = 200_000
BOT = "⊥"


def gamma_k(k: int) -> float:
    r""":math:`\gamma_k = ku/(1-ku)`, rounded up generously (one extra ulp of margin)."""
    return k * U / (1 - k * U) * (1 + 1e-12)


@dataclass(frozen=True)
class Enclosure:
    """``[lo, hi]`` contains the exact worst-case divergence; ``pair`` attains ``hi``."""

    lo: float
    hi: float
    pair: tuple = ()


# ----------------------------------------------------------------------------- matrix
def float_rows(mech) -> tuple[np.ndarray, list, float]:
    """(matrix with outputs expanded by multiplicity, input labels incl. ⊥, relative error).

    The last row is the null input ⊥ (the blanket :math:`\\omega = c/\\gamma`).
    """
    mult = [int(sp.Integer(m)) if sp.sympify(m).is_integer else None for m in mech.multiplicity]
    if any(m is None for m in mult):
        raise InvalidParameter(
            "multiplicity", mech.multiplicity, "integers (the brute force expands lumped outputs)"
        )
    rows = [list(mech.probs[i]) for i in range(len(mech.inputs))]
    floor = [min(sp.N(r[j], 30) for r in rows) for j in range(len(rows[0]))]
    gamma = sum(m * c for m, c in zip(mult, floor))
    rows.append([c / gamma for c in floor])  # omega at 30 digits (the error budget covers it)
    P = np.array(
        [[float(sp.N(p, 30)) for p, m in zip(r, mult) for _ in range(m)] for r in rows], dtype=FLOAT
    )
    return P, list(mech.inputs) + [BOT], 2 * U64


@lru_cache(maxsize=64)
def _index_maps(t: int, k: int) -> tuple[np.ndarray, ...]:
    """For histograms of total t (lexicographic list), the index of h + e_y in total t + 1."""

    def comps(total):
        return [c for c in itertools.product(range(total + 1), repeat=k) if sum(c) == total]

    here, nxt = comps(t), comps(t + 1)
    where = {h: i for i, h in enumerate(nxt)}
    return tuple(
        np.array([where[h[:y] + (h[y] + 1,) + h[y + 1 :]] for h in here], dtype=np.int64)
        for y in range(k)
    )


def add_user(law: np.ndarray, t: int, row: np.ndarray) -> np.ndarray:
    """Law of the histogram after one more user reporting from ``row`` (total t -> t + 1)."""
    maps = _index_maps(t, len(row))
    out = np.zeros(math.comb(t + 1 + len(row) - 1, len(row) - 1), dtype=FLOAT)
    for y, idx in enumerate(maps):
        if row[y] != 0:
            out[idx] += law * row[y]
    return out


def hockey_stick(p: np.ndarray, q: np.ndarray, epsilon: float, rel: float) -> tuple[float, float]:
    r"""Enclosure of :math:`\sum_h (p_h - e^\varepsilon q_h)_+` when every entry of ``p`` and
    ``q`` is within relative ``rel`` of the exact value."""
    ctx.prec = 128
    E = arb(epsilon).exp()
    e_lo, e_hi = FLOAT(float_down(E)) * (1 - 4 * U), FLOAT(float_up(E)) * (1 + 4 * U)
    g = rel + 4 * U  # covers the roundings of the scalings below
    up = np.maximum(p * (1 + g) - e_lo * q * (1 - g), 0)
    lo = np.maximum(p * (1 - g) - e_hi * q * (1 + g), 0)
    N = p.size
    # terms carry one rounding of the subtraction; the sum of N non-negative terms gamma_N
    hi = float(up.sum() * (1 + U) * (1 + gamma_k(N)) * (1 + 4 * U))
    low = float(lo.sum() * (1 - U) * (1 - gamma_k(N)) * (1 - 4 * U))
    return math.nextafter(max(low, 0.0), -math.inf) if low > 0 else 0.0, math.nextafter(
        min(hi, 1.0), math.inf
    ) if hi < 1 else 1.0


def _rest_laws(P: np.ndarray, others: Sequence[int], size: int):
    """Yield (multiset, law) for every multiset of ``size`` rows from ``others`` (DFS)."""

    def dfs(start, chosen, law):
        if len(chosen) == size:
            yield tuple(chosen), law
            return
        t = len(chosen)
        for j in range(start, len(others)):
            yield from dfs(j, chosen + [others[j]], add_user(law, t, P[others[j]]))

    yield from dfs(0, [], np.ones(1, dtype=FLOAT))


def neighbour_rows(n_inputs: int, adjacency: str) -> tuple[list[tuple[int, int]], list[int]]:
    """(ordered pairs of differing rows, rows the other users may hold) for ``adjacency``."""
    bot = n_inputs
    if adjacency == "replace-one":
        return [(a, b) for a in range(n_inputs) for b in range(n_inputs) if a != b], list(
            range(n_inputs)
        )
    if adjacency == "zero-out":
        return [(a, bot) for a in range(n_inputs)] + [(bot, a) for a in range(n_inputs)], list(
            range(n_inputs + 1)
        )
    raise InvalidParameter("adjacency", adjacency, "one of replace-one, zero-out")


def worst_over_rows(
    P: np.ndarray,
    n: int,
    eps: Sequence[float],
    diff: Sequence[tuple[int, int]],
    others: Sequence[int],
    rel: float,
    labels: Sequence | None = None,
) -> list[Enclosure]:
    """Enclosures, at each epsilon of ``eps``, of the largest divergence between the datasets
    ``(a, rest)`` and ``(b, rest)`` over the ordered row pairs ``diff`` and every multiset
    ``rest`` of ``n - 1`` rows from ``others``; every entry of a histogram law is within
    relative ``rel`` of the exact value."""
    labels = list(range(P.shape[0])) if labels is None else labels
    best = [Enclosure(0.0, 0.0) for _ in eps]
    for rest, law in _rest_laws(P, others, n - 1):
        ends = {}
        for a, b in diff:
            for r in (a, b):
                if r not in ends:
                    ends[r] = add_user(law, n - 1, P[r])
            for i, e in enumerate(eps):
                lo, hi = hockey_stick(ends[a], ends[b], e, rel)
                cur = best[i]
                if hi > cur.hi or lo > cur.lo:
                    best[i] = Enclosure(
                        max(lo, cur.lo),
                        max(hi, cur.hi),
                        (labels[a], labels[b], tuple(labels[r] for r in rest))
                        if hi > cur.hi
                        else cur.pair,
                    )
    return best


def worst_case_delta(
    mech: Any,
    n: int,
    epsilons: Sequence[float] | float,
    adjacency: str = "replace-one",
    *,
    pairs: Sequence[tuple] | None = None,
) -> list[Enclosure] | Enclosure:
    r"""Enclosure of :math:`\max_{D\simeq D'}\delta_{D\|D'}(\varepsilon)` over all neighbouring
    datasets of ``n`` users (the definition, enumerated).

    ``pairs`` restricts the differing users to the given (input, input) label pairs (``"⊥"``
    for the null input), e.g. to check a method that covers named pairs only.
    """
    n = check_n(n)
    single = not isinstance(epsilons, (list, tuple, np.ndarray))
    eps = [check_epsilon(e) for e in ([epsilons] if single else epsilons)]
    P, labels, rel0 = float_rows(mech)
    k_in = len(mech.inputs)
    diff, others = neighbour_rows(k_in, adjacency)
    if pairs is not None:
        diff = [(labels.index(a), labels.index(b)) for a, b in pairs]
    n_hist = math.comb(n + P.shape[1] - 1, P.shape[1] - 1)
    if n_hist * math.comb(n - 1 + len(others) - 1, len(others) - 1) > 50 * MAX_HISTOGRAMS:
        raise InvalidParameter(
            "n", n, f"a size the enumeration can afford ({n_hist} histograms per dataset)"
        )
    rel = rel0 * n * (1 + 1e-12) + gamma_k(2 * n + 2)  # input error (n factors) + convolution
    best = worst_over_rows(P, n, eps, diff, others, rel, labels)
    return best[0] if single else best


def law_of_rows(rows: Sequence[Sequence[float]]) -> np.ndarray:
    """Law of the histogram of independent reports, user ``t`` drawn from ``rows[t]``
    (lexicographic order of the histograms, as :func:`add_user`)."""
    law = np.ones(1, dtype=FLOAT)
    for t, row in enumerate(rows):
        law = add_user(law, t, np.asarray(row, dtype=FLOAT))
    return law


def rows_delta(
    rows_a: Sequence[Sequence[float]],
    rows_b: Sequence[Sequence[float]],
    epsilon: float,
    rel_input: float = 0.0,
) -> Enclosure:
    r"""Enclosure of :math:`\sum_h (P_A(h) - e^\varepsilon P_B(h))_+` between the datasets whose
    users report from ``rows_a`` and ``rows_b`` (entries within relative ``rel_input`` of the
    exact ones; 0 takes the floats as exact)."""
    if len(rows_a) != len(rows_b) or not len(rows_a):
        raise InvalidParameter(
            "datasets", (len(rows_a), len(rows_b)), "two non-empty datasets of the same size"
        )
    n = len(rows_a)
    lo, hi = hockey_stick(
        law_of_rows(rows_a),
        law_of_rows(rows_b),
        check_epsilon(epsilon),
        rel_input * n * (1 + 1e-12) + gamma_k(2 * n + 2),
    )
    return Enclosure(lo, hi)


def dataset_delta(mech: Any, data_a: Sequence, data_b: Sequence, epsilon: float) -> Enclosure:
    """Enclosure of the divergence between two given datasets (labels, ``"⊥"`` allowed)."""
    P, labels, rel0 = float_rows(mech)
    if len(data_a) != len(data_b) or not data_a:
        raise InvalidParameter(
            "datasets", (len(data_a), len(data_b)), "two non-empty datasets of the same size"
        )
    enc = rows_delta(
        [P[labels.index(x)] for x in data_a], [P[labels.index(x)] for x in data_b], epsilon, rel0
    )
    return Enclosure(enc.lo, enc.hi, (tuple(data_a), tuple(data_b)))


def worst_shuffled_delta(P: Sequence[Sequence[float]], n: int, epsilon: float) -> Enclosure:
    """Enclosure of the worst replace-one divergence of ``n`` users for the float matrix ``P``
    (rows = inputs, entries taken as exact): :func:`worst_over_rows` over every ordered pair of
    distinct rows and every multiset of the other ``n - 1`` inputs."""
    n = check_n(n)
    M = np.asarray(P, dtype=FLOAT)
    k = M.shape[0]
    diff = [(a, b) for a in range(k) for b in range(k) if a != b]
    return worst_over_rows(
        M, n, [check_epsilon(epsilon)], diff, list(range(k)), gamma_k(2 * n + 2)
    )[0]


# ----------------------------------------------------------------------------- other references
@cache
def sequence_laws(W0: tuple, W1: tuple, n: int, k: int):
    r"""Exact laws of the shuffled histogram by enumerating all :math:`|\mathcal Y|^n` output
    sequences (Shvets 2026, Sec. 4).

    User 0 is the changed user, users 1..k hold 1, the rest 0.  Returns
    :math:`P = T_{n,k}`, :math:`Q = T_{n,k+1}` and :math:`E_P[r(Y_*) 1\{N = h\}]` with
    :math:`r = W_1/W_0 - 1`, as dicts over histograms ``h``, in exact rationals (the given
    floats are read as the exact binary rationals they are).
    """
    w0 = [sp.Rational(x) for x in W0]
    w1 = [sp.Rational(x) for x in W1]
    m = len(w0)
    r = [w1[i] / w0[i] - 1 for i in range(m)]
    P, Q, R = {}, {}, {}
    for seq in itertools.product(range(m), repeat=n):
        others = sp.Mul(*[w1[y] for y in seq[1 : k + 1]]) * sp.Mul(*[w0[y] for y in seq[k + 1 :]])
        h = tuple(seq.count(y) for y in range(m))
        P[h] = P.get(h, 0) + w0[seq[0]] * others
        Q[h] = Q.get(h, 0) + w1[seq[0]] * others
        R[h] = R.get(h, 0) + w0[seq[0]] * others * r[seq[0]]
    return P, Q, R


def multinomial_positive_part(g: Sequence[float], q: Sequence[float], n: int) -> float:
    r""":math:`\tfrac1n\mathbb{E}[(\sum_j N_j g_j)_+]` for :math:`N \sim \mathrm{Multinomial}(n, q)`,
    by enumerating every count vector (tiny ``n`` only; float, relative round-off of a sum of at
    most a few hundred non-negative terms)."""
    total = 0.0
    for counts in itertools.product(range(n + 1), repeat=len(g)):
        if sum(counts) != n:
            continue
        logp = math.lgamma(n + 1)
        for c, p in zip(counts, q):
            if c and p == 0:
                logp = -math.inf
                break
            logp += c * math.log(p) - math.lgamma(c + 1) if c else 0.0
        if logp > -math.inf:
            total += math.exp(logp) * max(sum(c * a for c, a in zip(counts, g)), 0.0)
    return total / n


# ----------------------------------------------------------------------------- subsampling
def participant_law(rows: Sequence[Sequence[Any]], q: Any) -> dict[tuple, Any]:
    r"""Exact law of the shuffled output when each user independently takes part with
    probability ``q`` and then reports from its row: the histogram of the participants'
    reports (its total is random; non-participants leave no trace).  Entries and ``q`` are
    exact numbers (``Fraction`` or sympy ``Rational``); the law is exact."""
    k = len(rows[0])
    law: dict[tuple, Any] = {(0,) * k: 1}
    for row in rows:
        new: dict[tuple, Any] = {}
        for h, p in law.items():
            new[h] = new.get(h, 0) + p * (1 - q)
            for y, r in enumerate(row):
                if r:
                    h2 = h[:y] + (h[y] + 1,) + h[y + 1 :]
                    new[h2] = new.get(h2, 0) + p * q * r
        law = new
    return law


def subsampled_worst_case(
    matrix: Sequence[Sequence[Any]], n: int, q: Any, epsilon: float, dps: int = 50
) -> Any:
    r"""The worst replace-one divergence of ``n`` users under Poisson subsampling at rate
    ``q`` before the shuffle (:func:`participant_law`), from the definition: every ordered pair
    of distinct inputs for the changed user and every multiset of the other ``n - 1`` inputs;
    an mpmath number at ``dps`` digits (the laws are exact, :math:`e^\varepsilon` at ``dps``)."""
    import mpmath

    n = check_n(n)
    k = len(matrix)
    best = mpmath.mpf(0)
    with mpmath.workdps(dps):
        alpha = mpmath.exp(mpmath.mpf(check_epsilon(epsilon)))
        for rest in itertools.combinations_with_replacement(range(k), n - 1):
            laws = {
                x: participant_law([matrix[x], *(matrix[r] for r in rest)], q) for x in range(k)
            }
            for a in range(k):
                for b in range(k):
                    if a == b:
                        continue
                    P, Q = laws[a], laws[b]
                    d = mpmath.fsum(max(_mp(P[h]) - alpha * _mp(Q.get(h, 0)), 0) for h in P)
                    best = max(best, d)
    return best


def _mp(x: Any) -> Any:
    """An exact rational (``Fraction``, sympy ``Rational``, ``int``) as an mpmath number at the
    working precision."""
    import mpmath

    num = getattr(x, "numerator", None)
    if num is None:  # sympy Rational
        num, den = int(x.p), int(x.q)
    else:
        num, den = int(x.numerator), int(x.denominator)
    return mpmath.mpf(num) / den
