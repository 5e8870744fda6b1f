r"""Heterogeneous populations: users holding different finite randomizers, shuffled together.

``shufflekit.accountant([(R_a, n_a), (R_b, n_b), ...])`` bounds the shuffled profile of a
population in which ``n_h`` users hold the randomizer :math:`R^h` (different mechanisms, or one
mechanism at different privacy levels), worst case over the changed user's group, its
neighbouring pair and the other users' inputs.

**Theorem (blanket decomposition with heterogeneous blankets).**  Let every user's randomizer
be finite on one output set :math:`\mathcal Y` (a mechanism gives probability 0 to the outputs
it lacks).  Fix the changed user, of group :math:`g`, with inputs :math:`x, x'` (replace-one; for
zero-out :math:`x'` is the null input, whose law is :math:`\omega`), and let
:math:`\omega = c_g/\gamma_g` be its group's blanket (:math:`c_g(y) = \min_z R^g_z(y)`,
:math:`\gamma_g = \sum_y c_g(y)`, Su-Cheng-Wang 2026, Sec. 3.2).  For every other user
:math:`j`, of group :math:`h`, let

.. math::
    \gamma_{h|g} = \min_{y:\,\omega(y) > 0}\ \min_z \frac{R^h_z(y)}{\omega(y)} \in [0, 1]

(the largest weight of :math:`\omega` inside every row of :math:`R^h`; :math:`\gamma_{g|g} =
\gamma_g`), and :math:`M = \sum_{j} B_j` over the other users, :math:`B_j \sim
\mathrm{Bernoulli}(\gamma_{h(j)|g})` independent.  Then for every :math:`\varepsilon \ge 0`
and every such pair of datasets

.. math::
    \delta(\varepsilon) \le \mathbb{E}[h_M(\varepsilon)],\qquad
    h_m(\varepsilon) = \frac{\gamma_g}{m+1}\,
        \mathbb{E}\Big[\Big(\sum_{i=1}^{m+1} G(Z_i)\Big)_+\Big],\quad Z_i \sim \omega
        \text{ i.i.d.},

with :math:`G = \alpha - e^\varepsilon\beta`, :math:`\alpha = R^g_x/c_g`, :math:`\beta =
R^g_{x'}/c_g` (the GPARV of Su-Cheng-Wang 2026, Def. 5.1, without its zero atom).
:math:`h_m` is non-increasing in :math:`m`, so the bound is non-increasing in every
:math:`\gamma_{h|g}`.

*Proof.*  (i) :math:`R^h_z = \gamma_{h|g}\,\omega + (1 - \gamma_{h|g})L^h_z` with
:math:`L^h_z = (R^h_z - \gamma_{h|g}\omega)/(1 - \gamma_{h|g})` a distribution (non-negative by
the definition of :math:`\gamma_{h|g}`), so user :math:`j` can report by drawing :math:`B_j`,
then from :math:`\omega` if :math:`B_j = 1` and from :math:`L^h_{z_j}` otherwise.  (ii) Given
:math:`B = (B_j)` (independent of the data), the reports of the users with :math:`B_j = 0`
have the same law in both datasets and are independent of the rest: the shuffled output is a
post-processing of the multiset :math:`W` of the :math:`m = \sum_j B_j` blanket reports and
the changed user's report, and by joint convexity of the hockey-stick divergence over the law
of :math:`B`, :math:`\delta \le \mathbb{E}_B[\delta_W]`, where :math:`\delta_W` depends on
:math:`B` through :math:`m` only.  (iii) The symmetrised sample of :math:`m` reports from
:math:`\omega` and one from :math:`R^g_x` has density :math:`\frac1{m+1}\sum_i
R^g_x(z_i)/\omega(z_i)` with respect to :math:`\omega^{\otimes(m+1)}`, and likewise for
:math:`x'`; with :math:`R^g_x/\omega = \gamma_g\alpha` this gives :math:`\delta_W = h_m`
(Balle et al. 2019, Lemma 5.3; Su-Cheng-Wang 2026, Thm 4).  (iv) The sample for :math:`m+1` is
the sample for :math:`m` plus an independent report from :math:`\omega`, a post-processing:
:math:`h_{m+1} \le h_m`. :math:`\square`

*The homogeneous case.*  One group: :math:`M \sim \mathrm{Bin}(n-1, \gamma)` and
:math:`\binom{n-1}m\gamma^{m+1}(1-\gamma)^{n-1-m}/(m+1) = \binom n{m+1}\gamma^{m+1}
(1-\gamma)^{n-m-1}/n` turn :math:`\mathbb{E}[h_M]` into Su-Cheng-Wang's
:math:`\frac1n\mathbb{E}[(\sum_{i=1}^n G_i)_+]` (with the zero atom of mass
:math:`1-\gamma`); groups holding the same mechanism are merged and the homogeneous accountant
answers, so a population of one mechanism gives exactly the homogeneous result.  When the
blankets nest (e.g. one output alphabet, uniform blankets: k-RR, binary RR at different
:math:`\varepsilon_0`), a changed user of the least private group sees more blanket than in
its own homogeneous population and one of the most private group less, so the result lies
between the groups' homogeneous results for the total population.

**Evaluation (certified).**  :math:`M` is a sum of binomials :math:`\mathrm{Bin}(n_h,
\gamma_{h|g})` (:math:`n_g - 1` for the changed user's group); each :math:`\gamma_{h|g}` is
rounded *down* (a smaller :math:`M` in the stochastic order only raises the bound) and each
binomial pmf is enclosed in Arb on a window around its mode (recurrence from the exact
log-gamma value; beyond the window a geometric tail bound, the ratio of consecutive terms
being monotone), its upper ends convolved by direct sums with a proven relative error per
cell (:func:`count_law`).  :math:`h_m` is evaluated at knots :math:`m_0 < m_1 <
\dots` by the exact sums of :mod:`shufflekit.numeric.kernels.positive_part` (the upper end of
an Arb-backed enclosure, :math:`\gamma_g` rounded up); by monotonicity :math:`h_m \le
H_i = \min_{j \le i} h^{\rm up}_{m_j}` on :math:`[m_i, m_{i+1})`, and :math:`h \le 1` below
:math:`m_0` and on the tails, so

.. math::
    \mathbb{E}[h_M] \le \sum_i H_i\,\bar P(m_i \le M < m_{i+1}) + e_{\rm underflow} + \sum_h t_h .

Knots are added where a bin's share of this sum could shrink most (at most
:data:`MAX_KNOTS` per curve point).  Every term is an upper bound, whatever the knots.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from flint import arb, ctx

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.accountant import Accountant, describe, mechanism_key
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.numeric.kernels.directed_rounding import float_up
from shufflekit.numeric.kernels.gparv_law import (
    RatioLaw,
    blanket_floor,
    float_matrix,
    numeric_eps0,
    ratio_laws,
)
from shufflekit.numeric.kernels.radix2_fft import sum_up
from shufflekit.numeric.methods.blanket import UNIT, atom_interval, expectation_enclosure
from shufflekit.validation import MAX_N, check, check_epsilon

#: largest number of h_m evaluations (exact sums) per changed-user law and epsilon
MAX_KNOTS = 128
#: a bin is split while its share of the bound could shrink by more than this fraction
KNOT_SLACK = 5e-5
#: binomial pmf entries below this are left to the tail bound (float64 keeps them normal)
PMF_FLOOR = 1e-300
#: widest binomial window (entries) before the evaluation is refused
MAX_WINDOW = 4_000_000
#: relative margin by which the float blanket weights are rounded toward the safe side
#: (each float entry is within 2^-52 of the exact one; a handful of operations follow)
WEIGHT_MARGIN = 1e-12


@dataclass(frozen=True)
class Group:
    """``n`` users holding ``mechanism``."""

    mechanism: Any
    n: int


# ============================================================================ the count law
@dataclass(frozen=True)
class CountLaw:
    r"""An upper enclosure of the law of :math:`M`: ``upper[i]`` bounds
    :math:`P(M = \text{start} + i)` up to an :math:`\ell_1` error ``error``; ``tail`` bounds
    :math:`P(M` outside the window).  An empty population of others is :math:`M = 0`."""

    start: int
    upper: np.ndarray
    error: float
    tail: float

    @property
    def stop(self) -> int:
        return self.start + self.upper.size - 1


def binomial_window(N: int, p: float) -> tuple[int, np.ndarray, float]:
    r"""``(start, upper, tail)`` for :math:`\mathrm{Bin}(N, p)` (``p`` an exact float): upper
    float ends of the Arb-enclosed pmf on the window where it is at least
    :data:`PMF_FLOOR`, and a bound on the mass outside."""
    if N == 0 or p == 0.0:
        return 0, np.ones(1), 0.0
    if p == 1.0:
        return N, np.ones(1), 0.0
    with ctx.workprec(160):
        P = arb(p)
        rho = P / (1 - P)
        k0 = min(N, int(math.floor((N + 1) * p)))
        log_mode = (
            arb(N + 1).lgamma()
            - arb(k0 + 1).lgamma()
            - arb(N - k0 + 1).lgamma()
            + k0 * P.log()
            + (N - k0) * (1 - P).log()
        )
        mode = log_mode.exp()
        right, k, v = [], k0, mode
        while True:
            right.append(v)
            if k == N or (v.upper() < PMF_FLOOR and k > k0):
                break
            v = v * (N - k) / (k + 1) * rho
            k += 1
        k_hi = k
        left, k, v = [], k0, mode
        while k > 0:
            v = v * k / ((N - k + 1) * rho)
            k -= 1
            left.append(v)
            if v.upper() < PMF_FLOOR:
                break
        k_lo = k
        if len(left) + len(right) > MAX_WINDOW:
            raise CannotCertify(f"the count law Bin({N}, {p:g}) needs a window wider than 4e6")
        balls = left[::-1] + right
        tail = arb(0)
        if k_hi < N:  # ratio of consecutive terms beyond k_hi is below r (decreasing in k)
            r = arb(N - k_hi) / (k_hi + 1) * rho
            tail += right[-1] * r / (1 - r) if r < 1 else arb(1)
        if k_lo > 0:
            r = arb(k_lo) / ((N - k_lo + 1) * rho)
            tail += balls[0] * r / (1 - r) if r < 1 else arb(1)
        upper = np.array([float_up(b) for b in balls])
        return k_lo, upper, min(1.0, float_up(tail))


def count_law(parts: Sequence[tuple[int, float]]) -> CountLaw:
    r"""The :class:`CountLaw` of :math:`\sum_h \mathrm{Bin}(N_h, p_h)` (independent): upper
    windows convolved by direct sums, tails added.

    Each cell of a direct convolution of non-negative vectors is a sum of at most :math:`K`
    non-negative products, so it is within a *relative* :math:`\gamma_K` of the exact cell
    plus :math:`4K\lambda` for underflow (Higham Sec. 3.1; :math:`\lambda = 2^{-1022}`);
    the cells are scaled up by that factor and the underflow terms kept in ``error``.  A
    relative bound, not an :math:`\ell_1` one: the low counts, where :math:`h_m` is largest,
    carry tiny masses that an absolute budget would swamp."""
    start, vec, err, tail = 0, np.ones(1), 0.0, 0.0
    for N, p in parts:
        s, w, t = binomial_window(N, p)
        K = min(vec.size, w.size)
        c = np.convolve(vec, w)
        grow = 1 + 1.01 * K * UNIT / (1 - K * UNIT) + 2 * UNIT
        c = c * grow  # one more rounding, covered by the 2u
        # (v + d) * w with ||d||_1 <= err adds err * ||w||_1; underflow adds 4 K L lambda
        err = float_up(arb(err) * arb(sum_up(w)) + arb(4 * K * c.size) * arb(2.0**-1022))
        vec, start, tail = c, start + s, tail + t
    return CountLaw(start, vec, err, min(1.0, float_up(arb(tail))))


# ============================================================================ the accountant
class PopulationAccountant(Accountant):
    r"""Upper bound of the module theorem for a population of groups (at least two distinct
    mechanisms): the worst changed user over every group, pair and the others' inputs.
    ``method`` is ``blanket`` (exact sums for :math:`h_m`)."""

    kind = Kind.UPPER
    method = "blanket"
    certificate = (
        "blanket decomposition with heterogeneous blankets (shufflekit.numeric.methods."
        "population; Su-Cheng-Wang 2026 Thm 4 per count); exact sums with Arb anchors, Arb "
        "binomial windows, direct convolution with a proven relative error per cell"
    )

    def __init__(self, groups: Sequence[Group], adjacency: str = "replace-one"):
        self.groups = tuple(groups)
        self.adjacency = adjacency
        self.n = sum(g.n for g in self.groups)
        self.eps_max = max(numeric_eps0(g.mechanism) for g in self.groups)
        self._floors, self._gammas = self._blankets()
        self._laws = [ratio_laws(g.mechanism, adjacency) for g in self.groups]
        self._counts = [self._count_law(i) for i in range(len(self.groups))]

    @property
    def mechanism(self) -> dict:  # type: ignore[override]
        """The population: each group's mechanism and size."""
        return {
            "name": "population",
            "groups": [{**describe(g.mechanism), "n": g.n} for g in self.groups],
        }

    def __repr__(self) -> str:
        """Method, relation and the groups, e.g. ``<PopulationAccountant method='blanket'
        adjacency='replace-one' groups=[rr(eps0=1) x 500, rr(eps0=2) x 500]>``."""
        parts = []
        for g in self.groups:
            d = describe(g.mechanism)
            params = ", ".join(f"{k}={v}" for k, v in dict(d.get("params", {})).items())
            parts.append(f"{d.get('name')}({params}) x {g.n}")
        return (
            f"<PopulationAccountant method={self.method!r} adjacency={self.adjacency!r} "
            f"groups=[{', '.join(parts)}]>"
        )

    # --------------------------------------------------------------- blankets
    def _blankets(self) -> tuple[list[dict], list[float]]:
        """Per group: its floor c(y) by output label (floats) and its float blanket mass."""
        floors, gammas = [], []
        for g in self.groups:
            mech = g.mechanism
            _, mult = float_matrix(mech)
            c = blanket_floor(mech)
            floors.append({y: float(c[j]) for j, y in enumerate(mech.outputs)})
            gammas.append(float(np.dot(mult, c)))
        return floors, gammas

    def blanket_weight(self, h: int, g: int) -> float:
        r"""A lower bound on :math:`\gamma_{h|g}` (module theorem), rounded down."""
        cg, ch = self._floors[g], self._floors[h]
        if h == g:
            return max(0.0, self._gammas[g] * (1 - WEIGHT_MARGIN))
        ratios = [ch.get(y, 0.0) / c for y, c in cg.items() if c > 0]
        if not ratios:
            return 0.0
        value = self._gammas[g] * min(ratios)
        return min(1.0, max(0.0, value * (1 - WEIGHT_MARGIN)))

    def _count_law(self, g: int) -> CountLaw:
        parts = []
        for h, grp in enumerate(self.groups):
            N = grp.n - 1 if h == g else grp.n
            p = self.blanket_weight(h, g)
            if N > 0 and p > 0:
                parts.append((N, p))
        return count_law(parts)

    # ------------------------------------------------------------------- h_m
    def _h(self, g: int, law: RatioLaw, epsilon: float, m: int) -> float:
        r"""Upper value of :math:`h_m(\varepsilon) = \gamma_g\,\mathbb{E}[(\sum_{i\le m+1}
        G(Z_i))_+]/(m+1)`, :math:`Z_i \sim \omega`, for the changed user's law ``law``.

        The float weights are within a relative :math:`\epsilon_w = 5(K+1)u` of the exact
        ones (:mod:`shufflekit.numeric.methods.blanket`); normalised by their float sum (at
        most :math:`K` roundings, one more for the division) each probability of
        :math:`\omega` is within :math:`\eta = (2\epsilon_w + (K+3)u)/(1 - \epsilon_w -
        (K+2)u)` of the exact one, which the exact sums apply outward as
        :math:`(1\pm\eta)^{m+1}`; :math:`\gamma_g` is the float sum rounded up."""
        g_lo, g_hi = atom_interval(law.alpha, law.beta, epsilon)
        w = np.asarray(law.weight, dtype=float)
        K = max(len(w), 2)
        total = float(np.sum(w))
        omega = w / total
        ew = 5 * (K + 1) * UNIT
        eta = (2 * ew + (K + 3) * UNIT) / (1 - ew - (K + 2) * UNIT) * (1 + 1e-9)
        _, hi = expectation_enclosure(g_lo, g_hi, omega, 0.0, m + 1, eta)
        gam = total * (1 + ew + (K + 4) * UNIT)
        return min(1.0, float_up(arb(hi) * arb(gam)))

    def law_bound(self, g: int, law: RatioLaw, epsilon: float) -> float:
        """The module theorem's certified upper bound for one changed-user law of group ``g``."""
        cl = self._counts[g]
        lo_m, hi_m = cl.start, cl.stop
        cache: dict[int, float] = {}

        def H(m: int) -> float:
            if m not in cache:
                cache[m] = self._h(g, law, epsilon, m)
            return cache[m]

        cum = np.concatenate(([0.0], np.cumsum(cl.upper)))
        total = cum[-1]
        # first knots: the window's ends and quantiles of the count law
        knots = {lo_m, hi_m}
        for qq in (1e-12, 1e-8, 1e-5, 1e-3, 0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 0.98, 0.999):
            knots.add(lo_m + int(np.searchsorted(cum[1:], qq * total)))
        while True:
            ks = sorted(k for k in knots if lo_m <= k <= hi_m)
            Hs = np.minimum.accumulate([H(k) for k in ks])  # monotone repair, upwards-safe
            edges = [k - lo_m for k in ks] + [cl.upper.size]
            masses = np.array([cum[b] - cum[a] for a, b in zip(edges[:-1], edges[1:], strict=True)])
            terms = masses * Hs
            bound = float(np.sum(terms))
            if len(cache) >= MAX_KNOTS:
                break
            drops = masses * (Hs - np.append(Hs[1:], 0.0))
            widths = np.diff(edges)
            drops[widths < 2] = 0.0
            j = int(np.argmax(drops))
            if drops[j] <= KNOT_SLACK * bound:
                break
            knots.add(ks[j] + int(widths[j] // 2))
        # summation of the float terms: each term one rounding, n terms (Higham Sec. 4.2)
        s = bound * (1 + (len(ks) + 4) * UNIT) * (1 + 2 * UNIT)
        return min(1.0, float_up(arb(s) + arb(cl.error) + arb(cl.tail)))

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        e = check_epsilon(epsilon)
        if e >= self.eps_max:
            return self._bound("delta", e, 0.0, 0.0, note="epsilon >= eps0: delta = 0")
        best, where = 0.0, ""
        for g, laws in enumerate(self._laws):
            for law in laws:
                v = self.law_bound(g, law, e)
                if v >= best:
                    best = v
                    name = describe(self.groups[g].mechanism).get("name")
                    where = f"changed user in group {g} ({name}), pair {law.pairs[0]}"
        return self._bound(
            "delta", e, 0.0, best, seconds=time.perf_counter() - t0, note=f"worst: {where}"
        )


# ============================================================================ building
def is_population(obj: Any) -> bool:
    """Whether ``obj`` is a population: a list or tuple of (mechanism, n) pairs."""
    return (
        isinstance(obj, (list, tuple))
        and len(obj) > 0
        and all(
            (isinstance(x, (list, tuple)) and len(x) == 2) or isinstance(x, (Group, Mapping))
            for x in obj
        )
    )


def groups_of(population: Sequence[Any]) -> list[Group]:
    """The checked groups of a population (pairs, :class:`Group` s or mappings
    ``{"name": ..., "n": ..., <parameters>}``); groups holding the same mechanism merged."""
    from shufflekit.validation import check_accountant_inputs

    out: list[Group] = []
    for i, item in enumerate(population):
        if isinstance(item, Group):
            mech, n = item.mechanism, item.n
        elif isinstance(item, Mapping):
            mech, n = named_group(item)
        else:
            mech, n = item
        n = check_accountant_inputs(mech, n)
        if not callable(getattr(mech, "to_numpy", None)) and callable(
            getattr(mech, "to_finite", None)
        ):
            mech = mech.to_finite()
        if not callable(getattr(mech, "to_numpy", None)):
            raise InvalidParameter(
                f"population[{i}]",
                getattr(mech, "name", type(mech).__name__),
                "a finite mechanism (a probability matrix)",
            )
        out.append(Group(mech, n))
    merged: dict[Any, Group] = {}
    for grp in out:
        key = mechanism_key(grp.mechanism)
        old = merged.get(key)
        merged[key] = grp if old is None else Group(old.mechanism, old.n + grp.n)
    groups = list(merged.values())
    total = sum(g.n for g in groups)
    check("n", total)  # the whole population within the documented range
    if len(groups) > 1:
        for g in groups:
            if getattr(g.mechanism, "is_lumped", False):
                raise InvalidParameter(
                    "population",
                    describe(g.mechanism).get("name"),
                    "groups of mechanisms given by their full matrices",
                    "a lumped view's output classes do not line up across mechanisms",
                )
            _, mult = float_matrix(g.mechanism)
            if np.any(mult != 1):
                raise InvalidParameter(
                    "population",
                    describe(g.mechanism).get("name"),
                    "groups of mechanisms without output multiplicities",
                )
    return groups


#: keys of a population group given as a mapping (``--population``)
GROUP_KEYS = ("name", "n")


def named_group(item: Mapping[str, Any]) -> tuple[Any, int]:
    """A group ``{"name": ..., "n": ..., <mechanism parameters>}``: the mechanism and n, every
    key checked (an unknown key is an error naming the nearest one)."""
    import difflib

    from shufflekit.mechanisms import MECHANISMS, make
    from shufflekit.validation import DOMAINS, check_matrix

    name = item.get("name")
    spec = MECHANISMS.get(name) if isinstance(name, str) else None
    if spec is None:
        raise InvalidParameter(
            "population name", name, "a mechanism name (see `shufflekit list mechanisms`)"
        )
    allowed = (*GROUP_KEYS, *spec.required, *spec.optional)
    for key in item:
        if key not in allowed:
            near = difflib.get_close_matches(str(key), allowed, n=1)
            raise InvalidParameter(
                "population key",
                key,
                "one of " + ", ".join(allowed),
                "unknown key" + (f"; did you mean {near[0]!r}?" if near else ""),
            )
    if "n" not in item:
        raise InvalidParameter("population n", None, "a value in every group")
    params = {}
    for key, value in item.items():
        if key in GROUP_KEYS:
            continue
        if key == "matrix":
            params[key] = check_matrix(value, "population matrix")
        elif key in DOMAINS:
            params[key] = DOMAINS[key].check(f"population {key}", value)
        else:
            params[key] = value
    return make(name, **params), check("n", item["n"])


def population_accountant(
    population: Sequence[Any],
    *,
    method: str | None = None,
    adjacency: str | None = None,
    sampling_rate: Any = None,
    **options: Any,
) -> Accountant:
    """The accountant of a population (module docstring): the homogeneous accountant when
    every group holds the same mechanism, else :class:`PopulationAccountant`."""
    from shufflekit.numeric.accountant import accountant, subsampled_mechanism

    groups = groups_of(population)
    if sampling_rate is not None:
        groups = [
            Group(subsampled_mechanism(g.mechanism, sampling_rate, adjacency), g.n) for g in groups
        ]
    if len(groups) == 1:
        return accountant(groups[0].mechanism, groups[0].n, method, adjacency, **options)
    if method not in (None, "blanket") or options:
        raise InvalidParameter(
            "method",
            method if method not in (None, "blanket") else next(iter(options)),
            "blanket without options for a population of different mechanisms",
            "the heterogeneous blanket theorem is evaluated by exact sums",
        )
    adj = str(adjacency) if adjacency is not None else "replace-one"
    check("adjacency", adj)
    if sum(g.n for g in groups) > MAX_N:
        raise InvalidParameter("n", sum(g.n for g in groups), f"at most {MAX_N} users in all")
    return PopulationAccountant(groups, adj)
