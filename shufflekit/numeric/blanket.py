r"""Certified blanket bound :math:`\delta(\varepsilon) = \tfrac1n\mathbb{E}[(G_1+\dots+G_n)_+]`.

Seed 002, Thm 4 (Balle et al., Lemma 5.3, restated): for a finite local randomizer
with maximal blanket :math:`c(y) = \min_x R_x(y)`, :math:`\gamma = \sum_y c(y)`, and a
neighbouring pair :math:`(x, x')`, the shuffled hockey-stick divergence is at most

.. math::
    \delta_B(\varepsilon) = \frac1n\,\mathbb{E}\Big[\Big(\sum_{i=1}^n G_i\Big)_+\Big],\qquad
    G = \begin{cases} \alpha(y) - e^{\varepsilon}\beta(y) & \text{w.p. } c(y)\\
                      0 & \text{w.p. } 1-\gamma\end{cases}

with :math:`\alpha = R_x/c`, :math:`\beta = R_{x'}/c` (the GPARV of seed 002, Def. 5.1).
The pair :math:`(\alpha,\beta)` and its weights do not depend on :math:`\varepsilon`;
:class:`RatioLaw` stores them once per distinct neighbouring pair, and
:func:`gparv_numeric` turns them into float atoms for any :math:`\varepsilon`.

Two evaluation methods, both returning ``(value, error)`` where ``value`` is a
**certified upper bound** on :math:`\delta_B` and ``[value - error, value]`` contains
:math:`\delta_B`:

``exact`` (:func:`blanket_delta_exact`)
    The counts of the non-zero atoms are multinomial.  All but the last two atoms are
    enumerated (conditional binomials), the last-but-one by a window plus closed-form
    *linear* sums, and the last in closed form:
    :math:`\mathbb{E}[(x + cN)_+] = x F_m(J) + c\,m\rho\,F_{m-1}(J-1)`,
    :math:`J = \lfloor x/|c|\rfloor`, :math:`N\sim\mathrm{Bin}(m,\rho)`, :math:`c<0`
    (from :math:`j\,\mathrm{pmf}_m(j) = m\rho\,\mathrm{pmf}_{m-1}(j-1)`).  Tails are
    dropped only where Bernstein's inequality
    :math:`P(|N-\mathbb{E}N|\ge t)\le e^{-t^2/(2(\sigma^2+t/3))}` bounds them by
    :math:`e^{-60}`; every dropped piece is bounded and added to the budget, as is a
    relative round-off of :data:`SPECIAL_REL_ERR` per binomial cdf/pmf value
    (Boost incomplete beta through ``scipy.stats.binom``; checked against mpmath in the
    tests).  For k-RR (three non-zero atoms) this is a sum over two binomial counts.

``fft`` (:func:`blanket_delta_fft`, seed 002, Algorithm 4, made safe)
    Atoms are rounded **up** to the grid :math:`l\mathbb{Z}` (after a margin covering
    their floating error), so the discretised sum dominates the true one pointwise.
    The n-fold law is computed on a circular grid covering
    :math:`\mathbb{E}K \pm t` (Bernstein radius); mass outside wraps around (only
    increasing the computed positive part) and the part above the window is bounded.
    FFT round-off is bounded with Higham's bound for the Cooley-Tukey FFT
    (Accuracy and Stability, Thm 24.2) propagated through the n-th power; the
    discretisation loss :math:`l\,n\,P(\bar S>0)` is reported in ``error``.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import stats

from shufflekit.numeric.profile import (CannotCertify, PrivacyProfile, ProfilePoint, check_delta,
                                        check_epsilon, check_n)

LOG_TAIL = 60.0                 # tails dropped only below e^-60 (Bernstein)
SPECIAL_REL_ERR = 1e-9          # budgeted relative error of one binomial pmf/cdf value
                                # (Boost via scipy: worst seen 1.3e-11 against mpmath)
UNIT = 2.0 ** -53               # float64 unit round-off
MAX_EXACT_CELLS = 30_000_000    # beyond this the exact method refuses (use fft)
MAX_FFT_GRID = 1 << 25


# ============================================================ the GPARV, numerically
@dataclass(frozen=True)
class RatioLaw:
    r"""Epsilon-free description of a GPARV: :math:`G = \alpha - e^\varepsilon\beta`
    with probability ``weight`` (one entry per merged output class), and 0 with
    probability :math:`1-\gamma`.  ``pairs`` lists the neighbouring pairs sharing it."""

    alpha: np.ndarray
    beta: np.ndarray
    weight: np.ndarray
    gamma: float
    pairs: tuple

    def gparv(self, epsilon: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Float atoms, probabilities and an absolute error margin per atom."""
        e = math.exp(epsilon)
        atoms = self.alpha - e * self.beta
        margin = 8 * UNIT * (np.abs(self.alpha) + e * np.abs(self.beta)) + 1e-300
        return atoms, self.weight.copy(), margin

    @property
    def zero_mass(self) -> float:
        return max(0.0, 1.0 - self.gamma)


_NUMPY_CACHE: dict[int, tuple] = {}


def _to_numpy(mech) -> tuple[np.ndarray, np.ndarray]:
    """``mech.to_numpy()``, cached per mechanism object (sympy evaluation is slow for 2^k outputs)."""
    hit = _NUMPY_CACHE.get(id(mech))
    if hit is not None and hit[0] is mech:
        return hit[1]
    arrays = mech.to_numpy()
    if len(_NUMPY_CACHE) > 64:
        _NUMPY_CACHE.clear()
    _NUMPY_CACHE[id(mech)] = (mech, arrays)   # the reference keeps the id valid
    return arrays


def _float_rows(mech) -> tuple[np.ndarray, np.ndarray, list]:
    P, mult = _to_numpy(mech)
    return P, mult, list(mech.inputs)


def _component_triples(P: np.ndarray, mult: np.ndarray, ia, ib) -> np.ndarray:
    """(alpha, beta, weight) of one finite mechanism; ``ia``/``ib`` are row indices or
    ``None`` for the null input (whose row is the blanket omega)."""
    floor = P.min(axis=0)
    gamma = float(np.dot(mult, floor))
    if gamma <= 0:
        raise ValueError("the mechanism has blanket mass gamma=0; the blanket bound needs "
                         "gamma in (0, 1] (it is not eps0-LDP for any finite eps0)")
    keep = floor > 0
    for i in (ia, ib):
        if i is not None and np.any(P[i, ~keep] > 0):
            raise ValueError("an output has positive probability under one input and zero "
                             "under another: the mechanism is not eps0-LDP, so its GPARV is "
                             "unbounded and the blanket bound does not apply")
    ra = P[ia, keep] / floor[keep] if ia is not None else np.full(keep.sum(), 1.0 / gamma)
    rb = P[ib, keep] / floor[keep] if ib is not None else np.full(keep.sum(), 1.0 / gamma)
    return _merge(ra, rb, mult[keep] * floor[keep])


def _merge(alpha, beta, weight) -> np.ndarray:
    """Merge classes whose (alpha, beta) agree to 12 significant digits, keeping the
    largest alpha and smallest beta of a class (this can only raise G: safe side)."""
    key = np.stack([np.round(alpha, 12 - int(np.floor(np.log10(max(np.max(np.abs(alpha)), 1e-300))))),
                    np.round(beta, 12 - int(np.floor(np.log10(max(np.max(np.abs(beta)), 1e-300)))))],
                   axis=1)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    out = np.zeros((len(uniq), 3))
    out[:, 0] = -np.inf
    out[:, 1] = np.inf
    np.maximum.at(out[:, 0], inv, alpha)
    np.minimum.at(out[:, 1], inv, beta)
    np.add.at(out[:, 2], inv, weight)
    return out


def ratio_laws(mech, adjacency: str = "replace-one") -> list[RatioLaw]:
    r"""The distinct GPARV laws of ``mech`` over all neighbouring pairs (float).

    Works for :class:`~shufflekit.mechanisms.finite.FiniteMechanism` (from
    ``to_numpy()``) and for joint compositions, whose blanket and ratios factorise
    (seed 002, Sec. 6): :math:`\alpha = \prod_i\alpha_i`, :math:`\beta=\prod_i\beta_i`,
    weight :math:`\prod_i c_i`.  For a joint composition the worst case also
    considers pairs that agree in some coordinates (any two input vectors are
    neighbours).
    """
    from shufflekit.mechanisms.finite import check_adjacency

    check_adjacency(adjacency)
    comps = list(getattr(mech, "components", None) or [mech])
    per_comp = []
    for comp in comps:
        P, mult, inputs = _float_rows(comp)
        k = len(inputs)
        if adjacency == "zero-out":
            idx_pairs = [(i, None) for i in range(k)] + [(None, i) for i in range(k)]
        else:
            idx_pairs = [(i, j) for i in range(k) for j in range(k) if i != j]
            if len(comps) > 1:
                idx_pairs += [(i, i) for i in range(k)]
        laws: list[tuple[np.ndarray, list]] = []
        for ia, ib in idx_pairs:
            t = _component_triples(P, mult, ia, ib)
            label = (inputs[ia] if ia is not None else "⊥", inputs[ib] if ib is not None else "⊥")
            for known, prs in laws:
                if known.shape == t.shape and np.allclose(known, t, rtol=1e-12, atol=0):
                    prs.append(label)
                    break
            else:
                laws.append((t, [label]))
        per_comp.append(laws)
    gammas = []
    for comp in comps:
        P, mult, _ = _float_rows(comp)
        gammas.append(float(np.dot(mult, P.min(axis=0))))
    gamma = float(np.prod(gammas))
    out = []
    import itertools
    for combo in itertools.product(*per_comp):
        if len(comps) > 1 and adjacency == "replace-one" and all(
                all(a == b for a, b in prs) for _, prs in combo):
            continue  # identical inputs in every coordinate: not a neighbouring pair
        t = np.array([[1.0, 1.0, 1.0]])
        for tc, _ in combo:
            t = np.stack([np.outer(t[:, 0], tc[:, 0]).ravel(), np.outer(t[:, 1], tc[:, 1]).ravel(),
                          np.outer(t[:, 2], tc[:, 2]).ravel()], axis=1)
            t = _merge(t[:, 0], t[:, 1], t[:, 2])
        if len(comps) > 1:   # one representative pair: (x_1..x_m), (x'_1..x'_m)
            reps = [prs[0] for _, prs in combo]
            pairs = ((tuple(a for a, _ in reps), tuple(b for _, b in reps)),)
        else:
            pairs = tuple(combo[0][1])
        out.append(RatioLaw(t[:, 0], t[:, 1], t[:, 2], gamma, pairs))
    return out


def numeric_eps0(mech) -> float:
    r"""Local :math:`\varepsilon_0 = \max_{x,x',y}\log(R_x(y)/R_{x'}(y))` from the float matrix,
    rounded up by a relative 1e-12 (so bounds that grow with it stay safe); ``inf`` if
    some output has probability 0 under one input and not under another.  Joint
    compositions add their components' values (seed 002, Thm 1 of Sec. 6)."""
    comps = list(getattr(mech, "components", None) or [mech])
    total = 0.0
    for comp in comps:
        P, _ = _to_numpy(comp)
        hi, lo = P.max(axis=0), P.min(axis=0)
        used = hi > 0
        if np.any(lo[used] <= 0):
            return math.inf
        total += float(np.max(np.log(hi[used]) - np.log(lo[used]))) if used.any() else 0.0
    return total * (1 + 1e-12) + 1e-15


def gparv_numeric(mech, epsilon: float, pair: tuple | None = None,
                  adjacency: str = "replace-one") -> tuple[np.ndarray, np.ndarray]:
    r"""Float GPARV law (atoms, probabilities; the zero atom included) of ``pair``.

    Computed from ``mech.to_numpy()`` (seed 002, Def. 5.1); ``pair=None`` returns the
    law of the first distinct class (all classes for symmetric mechanisms).
    """
    epsilon = check_epsilon(epsilon)
    if pair is None:
        law = ratio_laws(mech, adjacency)[0]
    else:
        law = _law_of_pair(mech, pair)
    atoms, probs, _ = law.gparv(epsilon)
    return np.append(atoms, 0.0), np.append(probs, law.zero_mass)


def _law_of_pair(mech, pair) -> RatioLaw:
    from shufflekit.mechanisms.finite import BOT

    if getattr(mech, "components", None):
        raise ValueError("pass pair=None for joint compositions (the worst pair is searched)")
    P, mult, inputs = _float_rows(mech)

    def idx(x):
        if x == BOT:
            return None
        if x not in inputs:
            raise ValueError(f"pair element {x!r} is not an input; allowed: {inputs} or ⊥")
        return inputs.index(x)

    if pair[0] == pair[1]:
        raise ValueError(f"pair={pair!r} is not a neighbouring pair (the inputs are equal)")
    t = _component_triples(P, mult, idx(pair[0]), idx(pair[1]))
    return RatioLaw(t[:, 0], t[:, 1], t[:, 2], float(np.dot(mult, P.min(axis=0))), (tuple(pair),))


def _atoms(law: RatioLaw, epsilon: float):
    g, q, margin = law.gparv(epsilon)
    nz = q > 0
    return g[nz], q[nz], margin[nz], law.zero_mass


# ============================================================ exact method
def _radius(var):
    """Bernstein radius t with exp(-t^2 / (2 (var + t/3))) = exp(-LOG_TAIL)."""
    L = LOG_TAIL
    return L / 3 + np.sqrt(L * L / 9 + 2 * L * np.asarray(var, dtype=float))


def _inner(x, m, rho, c):
    r""":math:`\mathbb{E}[(x + cN)_+]`, :math:`N\sim\mathrm{Bin}(m,\rho)`, :math:`c<0`,
    with its floating error budget.

    Uses :math:`F_{m-1}(J-1) = F_m(J) - (1-\rho)\,\mathrm{pmf}_{m-1}(J)` (condition on the
    last trial), so one cdf and one pmf per cell.
    """
    ac = -c
    J = np.floor(np.where(x > 0, x, 0.0) / ac)
    full = J >= m
    Jc = np.minimum(J, m)
    F = stats.binom.cdf(Jc, m, rho)
    mm1 = np.maximum(m - 1, 0)
    pm1 = np.where(full, 0.0, stats.binom.pmf(Jc, mm1, rho))
    F1 = np.maximum(F - (1 - rho) * pm1, 0.0)
    t1 = x * F
    t2 = c * m * rho * F1
    val = np.where(full, x + c * m * rho, t1 + t2)
    err = np.where(full, 4 * UNIT * (np.abs(x) + ac * m * rho),
                   2 * SPECIAL_REL_ERR * (np.abs(t1) + ac * m * rho * (F + (1 - rho) * pm1)))
    pos = x > 0
    return np.where(pos, val, 0.0), np.where(pos, err, 0.0)


def blanket_delta_exact(atoms: Sequence[float], probs: Sequence[float], n: int, *,
                        zero_mass: float | None = None,
                        margins: Sequence[float] | None = None) -> tuple[float, float]:
    r"""Certified :math:`\tfrac1n\mathbb{E}[(\sum_i G_i)_+]` for a finite law of G.

    ``atoms``/``probs`` are the non-zero atoms (a zero atom may be included; it is
    folded into ``zero_mass``).  Returns ``(value, error)``: ``value`` is an upper
    bound and ``value - error`` a lower bound of the exact expectation.  Atom
    ``margins`` (absolute floating errors) are added to the atoms before use, so the
    value stays an upper bound for the law they approximate.
    """
    n = check_n(n)
    g = np.asarray(atoms, dtype=float)
    q = np.asarray(probs, dtype=float)
    mg = np.zeros_like(g) if margins is None else np.asarray(margins, dtype=float)
    if g.shape != q.shape or np.any(q < 0) or not np.all(np.isfinite(g)):
        raise ValueError("atoms and probabilities must be finite arrays of the same length "
                         "with probabilities >= 0")
    keep = (g != 0) & (q > 0)
    if zero_mass is None:
        q0 = max(0.0, 1.0 - float(q[keep].sum()))
    else:
        q0 = float(zero_mass) + float(q[(g == 0) & (q > 0)].sum())
    # atoms computed as exactly 0 may be +-margin in truth: S moves by at most n * zshift
    mz = mg[(g == 0) & (q > 0)]
    zshift = float(mz.max()) if mz.size else 0.0
    g_lo, g_hi = g[keep] - mg[keep], g[keep] + mg[keep]   # interval of each atom
    q = q[keep]
    if g_hi.size == 0 or g_hi.max() <= 0:
        return zshift, 2 * zshift
    g = g_hi   # upper atoms: the value is an upper bound
    neg = np.where(g < 0)[0]
    if neg.size == 0:  # S >= 0 always: E[S_+] = E[S]
        v = float(np.dot(q, g))
        return v + 1e-15 * abs(v) + zshift, 2e-15 * abs(v) + float(np.dot(q, g_hi - g_lo)) + 2 * zshift
    pos = np.where(g >= 0)[0]
    negs = neg[np.argsort(q[neg], kind="stable")]
    order = np.concatenate([pos, negs])
    g, q, spread = g[order], q[order], (g_hi - g_lo)[order]
    r = len(g)
    tail_from = np.cumsum(q[::-1])[::-1]          # sum_{i >= j} q_i
    rho = q / (q0 + tail_from)
    rho = np.minimum(rho, 1.0)
    gpos = float(max(g.max(), 0.0))
    eL = math.exp(-LOG_TAIL)

    x = np.zeros(1)
    m = np.array([n], dtype=np.int64)
    w = np.ones(1)
    err = 0.0
    # levels 0 .. r-3: full enumeration over Bernstein windows
    for j in range(r - 2):
        mean, var = m * rho[j], m * rho[j] * (1 - rho[j])
        t = _radius(var)
        lo = np.maximum(0, np.ceil(mean - t)).astype(np.int64)
        hi = np.minimum(m, np.floor(mean + t)).astype(np.int64)
        err += float(np.sum(w * 2 * eL * (np.maximum(x, 0) + gpos * m)))
        widths = hi - lo + 1
        total = int(widths.sum())
        if total * max(1, r - 2 - j) > MAX_EXACT_CELLS:
            raise CannotCertify(f"the exact blanket method needs about {total} states at n={n} "
                                f"for a GPARV with {r} non-zero atoms; use the fft method")
        idx = np.repeat(np.arange(len(x)), widths)
        start = np.repeat(np.cumsum(widths) - widths, widths)
        val = lo[idx] + (np.arange(total) - start)
        pmf = stats.binom.pmf(val, m[idx], rho[j])
        x = x[idx] + g[j] * val
        m = m[idx] - val
        w = w[idx] * pmf
        # drop states whose whole possible contribution is negligible
        bound = w * (np.maximum(x, 0) + gpos * m)
        small = bound < 1e-60
        err += float(bound[small].sum())
        x, m, w = x[~small], m[~small], w[~small]

    c, rc = g[r - 1], rho[r - 1]
    ac = -c
    if r == 1:
        val, e = _inner(x, m, rc, c)
        total = float(np.sum(w * val))
        err += float(np.sum(w * e))
    else:
        b, rb = g[r - 2], rho[r - 2]
        total = 0.0
        # closed-form atom variance is largest at v = 0
        tc = _radius(m * rc * (1 - rc)) * (1 + 1e-9)
        D0 = x + c * rc * m
        s = b - c * rc
        big = ac * tc
        vmean, vvar = m * rb, m * rb * (1 - rb)
        tv = _radius(vvar)
        vlo_w = np.maximum(0, np.ceil(vmean - tv))
        vhi_w = np.minimum(m, np.floor(vmean + tv))
        if s < 0:
            lin_hi = np.floor((D0 - big) / (-s))      # linear for v <= lin_hi
            neg_lo = np.ceil((D0 + big) / (-s))       # negligible for v >= neg_lo
            lin_hi = np.clip(lin_hi, -1, m)
            neg_lo = np.clip(neg_lo, 0, m + 1)
            ex_lo, ex_hi = lin_hi + 1, neg_lo - 1
            P_lin = np.where(lin_hi >= 0, stats.binom.cdf(lin_hi, m, rb), 0.0)
            E_lin = np.where(lin_hi >= 1, m * rb * stats.binom.cdf(lin_hi - 1, np.maximum(m - 1, 0), rb), 0.0)
        elif s > 0:
            lin_lo = np.ceil((big - D0) / s)           # linear for v >= lin_lo
            neg_hi = np.floor((-big - D0) / s)         # negligible for v <= neg_hi
            lin_lo = np.clip(lin_lo, 0, m + 1)
            neg_hi = np.clip(neg_hi, -1, m)
            ex_lo, ex_hi = neg_hi + 1, lin_lo - 1
            P_lin = np.where(lin_lo <= m, stats.binom.sf(lin_lo - 1, m, rb), 0.0)
            E_lin = np.where(lin_lo <= m, m * rb * stats.binom.sf(lin_lo - 2, np.maximum(m - 1, 0), rb), 0.0)
        else:
            all_lin = D0 >= big
            all_neg = D0 <= -big
            ex_lo = np.where(all_lin | all_neg, 1, 0).astype(float)
            ex_hi = np.where(all_lin | all_neg, 0, m).astype(float)
            P_lin = np.where(all_lin, 1.0, 0.0)
            E_lin = np.where(all_lin, m * rb, 0.0)
        lin_val = D0 * P_lin + s * E_lin
        total += float(np.sum(w * lin_val))
        err += float(np.sum(w * (2 * SPECIAL_REL_ERR * (np.abs(D0 * P_lin) + np.abs(s * E_lin))
                                 + ac * m * eL * P_lin)))
        # negligible region: E[(x + cN)_+] <= x_+ e^-L
        err += float(np.sum(w * (np.maximum(x, 0) + max(b, 0.0) * m) * eL))
        # exact window, intersected with the v-window (its outside is a dropped tail)
        lo = np.maximum(ex_lo, vlo_w)
        hi = np.minimum(ex_hi, vhi_w)
        outside = (ex_lo < vlo_w) | (ex_hi > vhi_w)
        err += float(np.sum(np.where(outside, w * 2 * eL * (np.maximum(x, 0) + gpos * m), 0.0)))
        widths = np.maximum(hi - lo + 1, 0).astype(np.int64)
        cells = int(widths.sum())
        if cells > MAX_EXACT_CELLS:
            raise CannotCertify(f"the exact blanket method needs {cells} cells at n={n}; "
                                "use the fft method")
        if cells:
            idx = np.repeat(np.arange(len(x)), widths)
            start = np.repeat(np.cumsum(widths) - widths, widths)
            v = lo[idx] + (np.arange(cells) - start)
            pmf = stats.binom.pmf(v, m[idx], rb)
            val, e = _inner(x[idx] + b * v, m[idx] - v, rc, c)
            contrib = w[idx] * pmf
            total += float(np.sum(contrib * val))
            err += float(np.sum(contrib * (e + SPECIAL_REL_ERR * val)))
    # relative round-off of the pmf factors (one per level) and of the summation
    err += (r * SPECIAL_REL_ERR + 1e-14) * abs(total)
    # a lower bound uses the lower atoms: S_lo >= S_hi - sum_j N_j spread_j
    spread_cost = float(np.dot(q, spread)) * n
    value = (total + err) / n + zshift
    return value, (2 * err + spread_cost) / n + 2 * zshift


# ============================================================ FFT method
def _fft_error(N: int, n: int, l: float, top: int, p_norm2: float) -> float:
    r"""Bound on :math:`\sum_{v=1}^{top} v\,l\,|\hat f_v - f_v|` for the n-fold pmf by FFT.

    Higham (Accuracy and Stability, Thm 24.2): the computed DFT satisfies
    :math:`\|\hat y - y\|_2 \le \eta\|y\|_2`, :math:`\eta = \log_2 N\,(\mu + \gamma_4(\sqrt2+\mu))`,
    with :math:`\|y\|_2 = \sqrt N\|p\|_2`.  Raising to the n-th power multiplies each
    coefficient error by at most :math:`nG`, :math:`G = (1+\max|\Delta|)^{n}`, and adds a
    relative :math:`(n\pi+10)u`; the inverse DFT divides 2-norms by :math:`\sqrt N` and adds
    :math:`\eta` times the result's norm (at most 1).  Cauchy-Schwarz over the positive
    cells then gives the bound.
    """
    lg = math.log2(max(N, 2))
    eta = lg * (UNIT + 4 * UNIT / (1 - 4 * UNIT) * (math.sqrt(2) + UNIT)) * 1.01
    d_max = eta * math.sqrt(N) * p_norm2          # any single coefficient error
    grow = math.exp(min(n * math.log1p(d_max), 700.0))
    err2 = n * grow * eta * p_norm2 + (n * math.pi + 10) * UNIT * grow + eta * grow
    s2 = math.sqrt(top * (top + 1) * (2 * top + 1) / 6.0) if top > 0 else 0.0
    return l * s2 * err2


def default_grid(eps0: float) -> float:
    """The paper's discretisation interval l = (e^eps0 - 1)/1200 (seed 002, Sec. 7)."""
    return (math.exp(eps0) - 1) / 1200


def blanket_delta_fft(atoms: Sequence[float], probs: Sequence[float], n: int, *, l: float,
                      zero_mass: float | None = None,
                      margins: Sequence[float] | None = None) -> tuple[float, float]:
    r"""Certified FFT evaluation of :math:`\tfrac1n\mathbb{E}[(\sum G_i)_+]` on the grid ``l``
    (seed 002, Algorithm 4 with safe rounding and an error budget).

    Returns ``(value, error)``: ``value`` upper-bounds the exact expectation and
    ``value - error`` lower-bounds it (the error covers discretisation, wrap-around,
    truncation and FFT round-off).
    """
    n = check_n(n)
    l = float(l)
    if not (l > 0 and math.isfinite(l)):
        raise ValueError(f"l={l!r} is not allowed; allowed range (0, inf)")
    g = np.asarray(atoms, dtype=float)
    q = np.asarray(probs, dtype=float)
    mg = np.zeros_like(g) if margins is None else np.asarray(margins, dtype=float)
    keep = (g != 0) & (q > 0)
    if zero_mass is None:
        q0 = max(0.0, 1.0 - float(q[keep].sum()))
    else:
        q0 = float(zero_mass) + float(q[(g == 0) & (q > 0)].sum())
    mz = mg[(g == 0) & (q > 0)]
    zshift = float(mz.max()) if mz.size else 0.0   # see blanket_delta_exact
    g, q, mg = g[keep], q[keep], mg[keep]
    if g.size == 0 or (g + mg).max() <= 0:
        return zshift, 2 * zshift
    k = np.ceil((g + mg) / l * (1 + 4 * UNIT) + 4 * UNIT).astype(np.int64)   # rounded UP
    k_all = np.append(k, 0)
    q_all = np.append(q, q0)
    q_all = q_all / q_all.sum()
    kmin, kmax = int(k_all.min()), int(k_all.max())
    mu = n * float(np.dot(q_all, k_all))
    var = n * float(np.dot(q_all, (k_all - np.dot(q_all, k_all)) ** 2))
    rng = kmax - kmin
    L = LOG_TAIL
    t = L * rng / 3 + math.sqrt((L * rng / 3) ** 2 + 2 * L * var)   # Bernstein, range rng
    eL = math.exp(-L)
    top = int(math.floor(mu + t))
    if top <= 0:   # the whole positive part is in the dropped tail
        bound = n * kmax * l * eL
        return bound / n + zshift, bound / n + 2 * zshift
    lo = int(math.ceil(mu - t))
    lo = min(lo, 0)
    lo = max(lo, n * kmin)
    span = top - lo + 1
    N = 1
    while N < span:
        N *= 2
    if N > MAX_FFT_GRID:
        raise CannotCertify(f"the FFT grid would need {N} points (n={n}, l={l:g}); "
                            "use a coarser l or the exact method")
    p = np.zeros(N)
    np.add.at(p, (k_all - kmin) % N, q_all)
    phi = np.fft.rfft(p)
    pmf = np.fft.irfft(phi ** n, N)
    # index i holds values v = i + n*kmin (mod N); pick v in [lo, lo + N)
    base = (lo - n * kmin) % N
    vals = lo + np.arange(N)
    pm = np.roll(pmf, -base)
    posmask = vals > 0
    pos_part = float(np.sum(vals[posmask] * pm[posmask])) * l
    ppos = float(np.sum(pm[posmask]))
    fft_err = _fft_error(N, n, l, max(top, int(vals[-1]), 0), float(np.sqrt(np.sum(p * p))))
    above = n * max(kmax, 0) * l * eL            # E[S 1{S > window top}]
    upper = pos_part + fft_err + above + 1e-13 * abs(pos_part)
    # lower side: aliasing added <= 2e^-L mass; discretisation <= l * n * P(S_bar > 0)
    p_pos_up = min(1.0, ppos + fft_err / l + 2 * eL)
    disc = l * n * p_pos_up + float(np.dot(q, mg)) * n
    lower = pos_part - fft_err - 2 * eL * max(lo + N, 0) * l - disc - 1e-13 * abs(pos_part)
    return upper / n + zshift, (upper - max(lower, 0.0)) / n + 2 * zshift


def blanket_delta_plain_fft(atoms: Sequence[float], probs: Sequence[float], n: int, *,
                            l: float, width_sd: float = 12.0) -> float:
    r"""A plain implementation of seed 002, Algorithm 4 (for benchmarks only).

    Rounds atoms up to :math:`l\mathbb{Z}`, convolves n-fold with one FFT on a grid of
    :math:`\pm` ``width_sd`` standard deviations around the mean and integrates the
    positive part.  No error accounting; not certified.
    """
    g = np.asarray(atoms, dtype=float)
    q = np.asarray(probs, dtype=float)
    k = np.ceil(g / l).astype(np.int64)
    kmin = int(k.min())
    mu = n * float(np.dot(q, k))
    sd = math.sqrt(n * float(np.dot(q, (k - np.dot(q, k)) ** 2)))
    lo = int(mu - width_sd * sd)
    hi = int(mu + width_sd * sd) + 1
    N = 1
    while N < hi - lo + 1:
        N *= 2
    p = np.zeros(N)
    np.add.at(p, (k - kmin) % N, q)
    pmf = np.fft.irfft(np.fft.rfft(p) ** n, N)
    base = (lo - n * kmin) % N
    vals = lo + np.arange(N)
    pm = np.roll(pmf, -base)
    m = vals > 0
    return float(np.sum(vals[m] * pm[m])) * l / n


# ============================================================ mechanism level
METHODS = ("exact", "fft")


@dataclass(frozen=True)
class BlanketAccountant:
    """Blanket bound of one mechanism: the worst GPARV law over neighbouring pairs."""

    laws: tuple
    n: int
    method: str = "exact"
    l: float | None = None
    eps0: float = math.inf
    mechanism: dict | None = None

    @classmethod
    def of(cls, mech, n: int, *, method: str = "exact", adjacency: str = "replace-one",
           pair: tuple | None = None, l: float | None = None) -> "BlanketAccountant":
        n = check_n(n)
        if method not in METHODS:
            raise ValueError(f"method={method!r} is not allowed; use one of {', '.join(METHODS)}")
        laws = (_law_of_pair(mech, pair),) if pair is not None else tuple(ratio_laws(mech, adjacency))
        e0 = numeric_eps0(mech)
        if not math.isfinite(e0):
            raise ValueError(f"{getattr(mech, 'name', 'mechanism')} is not eps0-LDP for a finite "
                             "eps0; the blanket bound needs bounded likelihood ratios")
        if method == "fft" and l is None:
            l = default_grid(e0)
        return cls(laws=laws, n=n, method=method, l=l, eps0=e0,
                   mechanism=describe_mechanism(mech))

    def delta(self, epsilon: float) -> tuple[float, float]:
        """(certified upper bound on delta_B(eps), error) maximised over the laws."""
        epsilon = check_epsilon(epsilon)
        best = (0.0, 0.0)
        for law in self.laws:
            g, q, mg, q0 = _atoms(law, epsilon)
            if self.method == "exact":
                v = blanket_delta_exact(g, q, self.n, zero_mass=q0, margins=mg)
            else:
                v = blanket_delta_fft(g, q, self.n, l=self.l, zero_mass=q0, margins=mg)
            if v[0] > best[0]:
                best = v
        return best

    def point(self, epsilon: float) -> ProfilePoint:
        t0 = time.perf_counter()
        d, e = self.delta(epsilon)
        return ProfilePoint(float(epsilon), min(d, 1.0), "upper", e, time.perf_counter() - t0)

    def profile(self, epsilons: Sequence[float], *, progress: bool = False) -> PrivacyProfile:
        from tqdm import tqdm
        import sys

        pts = [self.point(check_epsilon(e)) for e in
               tqdm(list(epsilons), desc=f"blanket-{self.method}", unit="eps", file=sys.stderr,
                    disable=not progress, leave=False)]
        return PrivacyProfile(method=f"blanket-{self.method}", bound="upper", points=tuple(pts),
                              n=self.n, mechanism=self.mechanism or {})

    def epsilon(self, delta: float, *, rel_tol: float = 1e-8) -> float:
        """Certified epsilon: the returned point has upper bound <= delta."""
        return certified_epsilon(lambda e: self.delta(e)[0], delta, eps_max=self.eps0,
                                 rel_tol=rel_tol)


def certified_epsilon(delta_up, delta: float, *, eps_max: float, rel_tol: float = 1e-8) -> float:
    r"""Smallest grid-free :math:`\varepsilon` found with ``delta_up(eps) <= delta``.

    Brent's method on :math:`\log\delta_{up}(\varepsilon) - \log\delta`, then a final
    check at the returned point, so the answer is valid even where the computed bound
    is not exactly monotone.  Raises :class:`CannotCertify` when not even
    :math:`\varepsilon_{max}` reaches ``delta``.
    """
    from scipy.optimize import brentq

    delta = check_delta(delta)
    d0 = delta_up(0.0)
    if d0 <= delta:
        return 0.0
    if not math.isfinite(eps_max):
        raise ValueError("eps_max must be finite (the local eps0 of the mechanism)")
    # At eps = eps0 the shuffled mechanism is eps0-DP (each report is), so the true delta
    # is 0 there: eps_max is a valid (trivial) end of the bracket without evaluation.
    lo, hi, verified = 0.0, eps_max, False
    while hi > 1e-12:
        mid = hi / 4 if lo == 0.0 else 0.5 * (lo + hi)
        if delta_up(mid) > delta:
            lo = mid
            break
        hi, verified = mid, True
    else:
        return hi

    def f(e):
        if e >= eps_max and not verified:
            return math.log(1e-320) - math.log(delta)
        return math.log(max(delta_up(e), 1e-320)) - math.log(delta)

    root = brentq(f, lo, hi, xtol=1e-15, rtol=rel_tol / 4, maxiter=200)
    for step in (1 + rel_tol / 2, 1 + rel_tol, 1 + 4 * rel_tol, 1 + 1e-6, 1 + 1e-4):
        e = root * step
        if e < hi and delta_up(e) <= delta:
            return e
    if verified:
        return hi
    raise CannotCertify(f"delta={delta:g} cannot be certified below the trivial epsilon=eps0="
                        f"{eps_max:g} by this method (its bound or error budget stays above delta)")


def describe_mechanism(mech) -> dict:
    out = {"name": getattr(mech, "name", type(mech).__name__)}
    params = getattr(mech, "params", None) or {}
    for k, v in params.items():
        try:
            out[k] = float(v)
        except (TypeError, ValueError):
            out[k] = str(v)
    if "eps0" not in out:
        try:
            out["eps0"] = numeric_eps0(mech)
        except Exception:  # noqa: BLE001 - description only
            pass
    return out


def blanket_profile(mech, n: int, epsilons: Sequence[float], *, method: str = "exact",
                    adjacency: str = "replace-one", pair: tuple | None = None,
                    l: float | None = None, progress: bool = False) -> PrivacyProfile:
    """Blanket upper bound delta_B(eps) at ``epsilons`` (seed 002, Thm 4)."""
    return BlanketAccountant.of(mech, n, method=method, adjacency=adjacency, pair=pair,
                                l=l).profile(epsilons, progress=progress)


def blanket_epsilon(mech, n: int, delta: float, *, method: str = "exact",
                    adjacency: str = "replace-one", l: float | None = None,
                    rel_tol: float = 1e-8) -> float:
    """Certified epsilon at ``delta`` from the blanket bound."""
    check_delta(delta)
    return BlanketAccountant.of(mech, n, method=method, adjacency=adjacency,
                                l=l).epsilon(delta, rel_tol=rel_tol)
