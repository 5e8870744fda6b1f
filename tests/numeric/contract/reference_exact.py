r"""Two more references in Arb, from the exact matrix: the local bound and tiny-``n`` enumeration.

*Local bound* (:func:`local_upper_bound`).  The shuffled view is a post-processing of the tuple
of local reports, and two neighbouring datasets differ in one user's report law only, so (data
processing, and the divergence of product laws that differ in one factor)

.. math::
    \delta_{\mathrm{shuffled}}(\varepsilon) \le \max_{x \simeq x'} \sum_y
    \big(R_x(y) - e^\varepsilon R_{x'}(y)\big)_+

for every ``n``, over the ordered pairs of the relation (``zero-out``: an input against
:math:`\bot`, whose law is the blanket :math:`\omega`, both orders).  It is a proven *upper*
bound on the truth at any ``n`` (and equal to it at ``n = 1``), so no proven lower bound may
exceed it; at :math:`\varepsilon \ge \varepsilon_0` it is 0.

*Enumeration* (:func:`enumerated_worst_case`).  For tiny ``n`` the worst case over every
neighbouring pair of datasets is summed histogram by histogram in Arb from the exact matrix
(no float anywhere), to check the float enumeration of :mod:`shufflekit.numeric.kernels.brute_force`
where its entries span ``e^-100 .. 1``.
"""

from __future__ import annotations

import itertools

from flint import arb, ctx

from .reference_binary import BOT, PREC, Ref, _exact_min, to_arb


def exact_rows(mech) -> tuple[list, list]:
    """(rows of Arb balls, labels): the inputs, then :math:`\\bot` with the blanket law if it
    exists; lumped outputs are expanded by their multiplicity."""
    mult = [int(m) for m in mech.multiplicity]
    P = [[to_arb(v) for v in row] for row in mech.probs]
    floor = [
        _exact_min([P[i][j] for i in range(len(P))], [mech.probs[i][j] for i in range(len(P))])
        for j in range(len(mult))
    ]
    gamma = sum((m * c for m, c in zip(mult, floor)), arb(0))
    rows = [list(r) for r in P]
    labels = list(mech.inputs)
    if gamma > 0:
        rows.append([c / gamma for c in floor])
        labels.append(BOT)
    expand = [[v for v, m in zip(r, mult) for _ in range(m)] for r in rows]
    return expand, labels


def _pairs(labels, adjacency: str) -> list[tuple[int, int]]:
    k = len([u for u in labels if u != BOT])
    if adjacency == "replace-one":
        return [(a, b) for a in range(k) for b in range(k) if a != b]
    if BOT not in labels:
        raise ValueError("no blanket: the null input is undefined")
    bot = labels.index(BOT)
    return [(a, bot) for a in range(k)] + [(bot, a) for a in range(k)]


def _pos_sum(p, q, E) -> tuple[arb, arb]:
    """Enclosure (lo, hi) of sum_i (p_i - E q_i)_+."""
    lo, hi = arb(0), arb(0)
    for a, b in zip(p, q):
        t = a - E * b
        if t > 0:
            lo += t.lower()
        if not t <= 0:
            hi += t.upper()
    return lo.lower(), hi.upper()


def local_upper_bound(mech, epsilon: float, adjacency: str = "replace-one") -> Ref:
    """Enclosure of the local divergence, a proven upper bound on the shuffled one (any n)."""
    old = ctx.prec
    ctx.prec = PREC
    try:
        rows, labels = exact_rows(mech)
        E = arb(float(epsilon)).exp()
        best = None
        for a, b in _pairs(labels, adjacency):
            lo, hi = _pos_sum(rows[a], rows[b], E)
            if best is None or hi > best.hi or (not hi < best.hi and lo > best.lo):
                best = Ref(lo, hi, (labels[a], labels[b]))
        return best
    finally:
        ctx.prec = old


def _law(rows, users) -> dict:
    m = len(rows[0])
    law = {(0,) * m: arb(1)}
    for r in users:
        new: dict = {}
        for h, p in law.items():
            for y in range(m):
                if rows[r][y] == 0:
                    continue
                h2 = h[:y] + (h[y] + 1,) + h[y + 1 :]
                new[h2] = new.get(h2, arb(0)) + p * rows[r][y]
        law = new
    return law


def enumerated_worst_case(mech, n: int, epsilon: float, adjacency: str = "replace-one") -> Ref:
    """Enclosure of the worst-case shuffled divergence over every neighbouring pair of datasets
    of ``n`` users (every multiset of the other users), in Arb: tiny ``n`` and alphabets only."""
    old = ctx.prec
    ctx.prec = PREC
    try:
        rows, labels = exact_rows(mech)
        E = arb(float(epsilon)).exp()
        k = len(mech.inputs)
        others = list(range(len(labels))) if adjacency == "zero-out" else list(range(k))
        best = Ref(arb(0), arb(0), ())
        for rest in itertools.combinations_with_replacement(others, n - 1):
            laws = {}
            for a, b in _pairs(labels, adjacency):
                for r in (a, b):
                    if r not in laws:
                        laws[r] = _law(rows, [r, *rest])
                P, Q = laws[a], laws[b]
                keys = list(P)
                lo, hi = _pos_sum([P[h] for h in keys], [Q.get(h, arb(0)) for h in keys], E)
                if hi > best.hi or lo > best.lo:
                    lo2 = lo if lo > best.lo else best.lo
                    hi2 = hi if hi > best.hi else best.hi
                    best = Ref(lo2, hi2, (labels[a], labels[b], tuple(labels[r] for r in rest)))
        return best
    finally:
        ctx.prec = old
