r"""Certified blanket bound for the shuffled blanket-mixed Gaussian (Takagi-Liew 2026, App. C).

Lemma 5.3 of Balle et al., as used in Takagi-Liew 2026 (App. C): for an ordered neighbouring pair
:math:`(x, x')` and blanket :math:`R_{BG}` of mass :math:`\gamma`,

.. math::
    \delta(\varepsilon) \le \frac{1}{n\gamma}E\Big[\Big(\sum_{i=1}^{n} B_iL_i\Big)_+\Big],\quad
    B_i \sim \mathrm{Bern}(\gamma),\ L_i \sim \ell_\varepsilon(Y),\ Y \sim R_{BG},\quad
    \ell_\varepsilon = (R_x - e^\varepsilon R_{x'})/R_{BG}.

For BMG with :math:`W = e^{sZ - s^2/2}`, :math:`s = \|x\|/\sigma_0`, both orders of the zero-out pair
give an affine-lognormal :math:`L` (:mod:`~shufflekit.numeric.kernels.lognormal_lattice`):

* :math:`(x, \perp)`: :math:`L = \gamma + (1-\gamma)W - e^\varepsilon` (heavy right tail);
* :math:`(\perp, x)`: :math:`L = 1 - e^\varepsilon(\gamma + (1-\gamma)W)` (bounded above).

No proof is known here that one order dominates: at :math:`\varepsilon = 0` they are mirror
images with equal bounds; for :math:`\varepsilon > 0` the reversed order has the larger variance
(by :math:`e^{2\varepsilon}`) and the forward order the heavy right tail.  In every well-resolved
case computed (:math:`\sigma_0 \ge 3`, :math:`n \le 10^5`) the forward order was the larger, but
that is an observation, so :func:`bmg_delta` evaluates **both** and reports the larger.  In both, the
lognormal factor :math:`W` is mean one and grows in convex order with :math:`s` (martingale step),
and :math:`L` is affine in :math:`W`, so the bound is non-decreasing in :math:`\|x\|` and in
:math:`1/\sigma_0`: the worst input is on the unit sphere and more noise never hurts.

Each direction's bound is also capped by the single-report hockey-stick divergence
:math:`E[(L)_+] = D_{e^\varepsilon}(R_x\|R_{x'})` (post-processing: the shuffled output is a function
of one report and independent others), in closed form in Arb; this is what keeps the answer
finite and monotone when :math:`\sigma_0` is so small that no lattice can resolve :math:`L`.

How :math:`E[(\sum B_iL_i)_+]` is bounded (:func:`blanket_delta`); **the certificate covers every
step**:

1. *Lattice law of* :math:`X = BL` (:func:`~shufflekit.numeric.kernels.lognormal_lattice.discretise`):
   truncation excess above :math:`T_{hi}` added; lower clamp safe; convex split (mean-preserving
   spread); Arb masses with an :math:`\ell_1` error bound.
2. *Powers with re-gridding.*  :math:`S_n` is built left to right over the bits of :math:`n`
   (:math:`S_{2m} = S_m + S_m'`, :math:`S_{m+1} = S_m + X`).  After each convolution
   (:func:`~shufflekit.numeric.kernels.radix2_fft.convolve`, proven :math:`\ell_1` round-off bound, or
   Arb polynomial products for the first sums, whose errors are amplified most; no wrap-around:
   the transform covers the whole support) the law may be

   * *spread onto the lattice* :math:`2h` (odd points split half-half: mean-preserving, so
     convex order, upper bound kept);
   * *clamped*: mass below :math:`W_{lo}` moved up (pointwise larger: safe), mass above
     :math:`W_{hi}` moved down, which costs at most :math:`E[(S_m - W_{hi})_+]` per copy of
     :math:`S_m` in the final sum (:math:`(u+v)_+` is 1-Lipschitz); there are at most
     :math:`\lfloor n/m\rfloor` copies; the moved excess is read off the computed array plus its
     :math:`\ell_1` error times the largest distance, and added.

   Replacing one independent summand at a time (hybrid argument) shows the final computed law
   gives an upper bound once these terms are added.
3. *Round-off.*  Parameters are rounded towards a larger :math:`L` (or their rounding is bounded,
   :func:`float_law`; :math:`\gamma` likewise).  Errors are carried as an :math:`\ell_1` bound: a convolution of computed laws with
   errors :math:`e_1, e_2` has error at most :math:`e_{fft} + e_1(1+e_2) + e_2`; spreads, clamps
   and clipping of negative entries never increase it (sums of two or three floats add
   :math:`2u` per unit mass, included).  At the end :math:`|\sum_k (kh)_+ (\hat p_k - p_k)| \le
   e\max_k(kh)_+`, and the float sum itself is inflated by :math:`\gamma_K`.

Discretisation is the only approximation that is not a proven inequality in the wrong direction:
it makes the bound *larger*.  Its size is governed by ``resolution`` (lattice step
:math:`\mathrm{sd}(X)/\text{resolution}` for :math:`X`) and ``level_resolution`` (the sum is kept
at :math:`\ge` that many steps per standard deviation): the relative variance inflation is at
most :math:`1/(4\,\text{resolution}^2) + \lceil\log_4 n\rceil/(4\,\text{level\_resolution}^2)`
while the arrays stay below ``max_points`` (beyond it the lattice is coarsened further: still
certified, looser).

Limits.  The round-off term grows like :math:`n u` times the width of the support (the
:math:`\ell_1` error doubles with each squaring) and the clamp terms like the number of steps
times ``budget``: about :math:`10^{-12}`-:math:`10^{-10}` in :math:`\delta` for BMG(0.95, 4.6) up to
:math:`n = 10^9`, but for heavy tails (:math:`\sigma_0 \lesssim 2`) with a long support they can
dominate a tiny :math:`\delta`; there the arrays also hit ``max_points`` and the lattice is
coarsened, so the (still certified) bound is loose and moves by up to ~20% between lattices.
``parts`` of each result lists every term.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import mpmath as mp
import numpy as np

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.kernels import radix2_fft as fft
from shufflekit.numeric.kernels.directed_rounding import float_up
from shufflekit.numeric.kernels.lognormal_lattice import (
    AffineLognormal,
    discretise,
    truncation_points,
)
from shufflekit.validation import check_delta, check_epsilon, check_n

if TYPE_CHECKING:
    from shufflekit.numeric.accountant import PrivacyProfile
from shufflekit.numeric.accountant import Accountant, invert_delta, register
from shufflekit.numeric.bound import Bound, Kind

U = fft.UNIT
#: largest array kept between convolutions (the lattice is coarsened beyond it)
MAX_POINTS = 1 << 13
#: largest lattice of the single-report law (Arb evaluations; coarser lattice beyond it)
MAX_LATTICE = 1 << 14
#: default truncation / clamp budget, in delta units per step (about 40-120 steps: the
#: certified bound is at most ~1e-13 above the computed sum on their account)
BUDGET = 1e-15


@dataclass(frozen=True)
class BlanketResult:
    """A certified upper bound ``delta`` and the sum ``error`` of its certificate terms."""

    delta: float
    error: float
    parts: dict = field(default_factory=dict)


@dataclass(frozen=True)
class GridLaw:
    """Computed law on ``h * (k0 + arange(len(p)))`` with an l1 error bound and summand count."""

    h: float
    k0: int
    p: np.ndarray
    l1: float
    m: int


def spread_to_double(g: GridLaw) -> GridLaw:
    r"""Mean-preserving spread onto the lattice :math:`2h` (odd points split half-half)."""
    k = g.k0 + np.arange(len(g.p))
    lo = k // 2  # floor
    k0 = int(lo[0])
    size = int((k[-1] + 1) // 2) - k0 + 1
    out = np.zeros(size)
    even = (k % 2) == 0
    np.add.at(out, lo[even] - k0, g.p[even])
    half = 0.5 * g.p[~even]
    np.add.at(out, lo[~even] - k0, half)
    np.add.at(out, lo[~even] + 1 - k0, half)
    mass = float(np.sum(g.p))
    return GridLaw(2 * g.h, k0, out, g.l1 + 3 * U * mass, g.m)


def clamp(g: GridLaw, budget: float) -> tuple[GridLaw, float]:
    r"""Clamp to :math:`[W_{lo}, W_{hi}]` with tails :math:`\le` ``budget`` (in units of the variable);
    returns the law and a proven bound on :math:`E[(S_m - W_{hi})_+]` for the exact law."""
    p = g.p
    n = len(p)
    if n < 3:
        return g, 0.0
    idx = np.arange(n, dtype=float)
    # upper: T(j) = h * sum_{i>j} (i - j) p_i  from right-cumulative sums
    rc_mass = np.concatenate([np.cumsum(p[::-1])[::-1][1:], [0.0]])  # sum_{i>j} p_i
    rc_first = np.concatenate([np.cumsum((idx * p)[::-1])[::-1][1:], [0.0]])
    tail = g.h * (rc_first - idx * rc_mass)
    ok = np.nonzero(tail <= budget)[0]
    j_hi = int(ok[0]) if len(ok) else n - 1
    # lower: sum_{i<j} (j - i) p_i
    lc_mass = np.concatenate([[0.0], np.cumsum(p)[:-1]])
    lc_first = np.concatenate([[0.0], np.cumsum(idx * p)[:-1]])
    short = g.h * (idx * lc_mass - lc_first)
    ok = np.nonzero(short <= budget)[0]
    j_lo = int(ok[-1]) if len(ok) else 0
    j_lo = min(j_lo, j_hi)
    if j_lo == 0 and j_hi == n - 1:
        return g, 0.0
    above = p[j_hi + 1 :]
    dist = g.h * np.arange(1, len(above) + 1)
    moved = float(np.dot(dist, above)) * (1 + 2 * len(above) * U)
    moved += g.l1 * g.h * (n - 1 - j_hi)
    out = p[j_lo : j_hi + 1].copy()
    below = float(np.sum(p[:j_lo]))
    up = float(np.sum(above))
    out[0] += below
    out[-1] += up
    # a float sum of K non-negative terms is within gamma_{K-1} of the exact sum; one more
    # rounding when it is added to the edge entry
    l1 = g.l1 + 2 * n * U * (below + up) + U * (out[0] + out[-1])
    return GridLaw(g.h, g.k0 + j_lo, out, l1, g.m), moved


#: convolutions producing sums of at most this many summands are done in Arb: their round-off
#: is multiplied by up to n/m in the final law, so they are the ones worth making exact
ARB_SUMMANDS = 16


def convolve_arb(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, float]:
    r"""``(c, e)``: :math:`c \approx a * b` from Arb polynomial multiplication and
    :math:`e \ge \|c - a*b\|_1` (ball radii plus one rounding of each midpoint)."""
    import flint

    pa = flint.arb_poly(a.tolist())
    prod = pa * pa if a is b else pa * flint.arb_poly(b.tolist())
    coeffs = prod.coeffs()
    c = np.array([float(x.mid()) for x in coeffs])
    rad = sum(float(x.rad()) for x in coeffs)
    out = np.zeros(len(a) + len(b) - 1)
    out[: len(c)] = c
    return out, (rad + U * float(np.sum(np.abs(c)))) * (1 + 1e-10)


def _convolve(a: GridLaw, b: GridLaw) -> GridLaw:
    if a.m + b.m <= ARB_SUMMANDS and len(a.p) + len(b.p) <= 1 << 13:
        c, e = convolve_arb(a.p, b.p)
    else:
        c, e = fft.convolve(a.p, b.p)
    c = np.maximum(c, 0.0)
    l1 = e + a.l1 * (1 + b.l1) + b.l1
    return GridLaw(a.h, a.k0 + b.k0, c, l1, a.m + b.m)


def blanket_delta(
    law: AffineLognormal,
    gamma: float,
    n: int,
    *,
    resolution: float = 32.0,
    level_resolution: float = 48.0,
    budget: float = BUDGET,
    max_points: int = MAX_POINTS,
) -> BlanketResult:
    r"""Certified upper bound on :math:`\frac{1}{n\gamma}E[(\sum_{i\le n} B_iL_i)_+]` (see the module
    docstring for what the certificate covers)."""
    n = check_n(n)
    gamma = float(gamma)
    if math.isnan(gamma) or not 0 < gamma <= 1:
        raise InvalidParameter("gamma", gamma, "(0, 1]")
    for name, v in (("resolution", resolution), ("level_resolution", level_resolution)):
        if not (v > 0 and math.isfinite(v)):
            raise InvalidParameter(name, v, "(0, inf)")
    t0 = time.perf_counter()
    if law.degenerate:
        v = law.mean()
        return BlanketResult(min(max(v, 0.0), 1.0), 0.0, {"degenerate": True})
    var_l = law.variance()
    mean_l = law.mean()
    if not (var_l < 1e300 and abs(mean_l) < 1e150 and abs(law.a) < 1e150):
        # no lattice resolves this law in float64; the caller's single-report bound applies
        return BlanketResult(1.0, 0.0, {"trivial": "the law of L overflows float64"})
    sd_x = math.sqrt(gamma * var_l + gamma * (1 - gamma) * mean_l**2)
    h = sd_x / resolution
    t_lo, t_hi = truncation_points(law, budget, h)
    if (t_hi - t_lo) / h > MAX_LATTICE:
        h = (t_hi - t_lo) / MAX_LATTICE
    lat = discretise(law, h, t_lo, t_hi)
    kmin, kmax = min(lat.k0, 0), max(lat.k1, 0)
    px = np.zeros(kmax - kmin + 1)
    px[lat.k0 - kmin : lat.k1 - kmin + 1] = gamma * lat.p
    px[-kmin] += 1.0 - gamma
    base = GridLaw(h, kmin, px, gamma * lat.l1_error + 4 * U, 1)
    x_at = {h: base}

    def x_on(hh: float) -> GridLaw:
        if hh not in x_at:
            x_at[hh] = spread_to_double(x_on(hh / 2))
        return x_at[hh]

    def settle(g: GridLaw, final: bool) -> tuple[GridLaw, float]:
        moved = 0.0
        if not final:
            g, tail = clamp(g, budget * g.m * gamma)
            moved = tail * (n // g.m) / (n * gamma)
        while (
            math.sqrt(g.m) * sd_x / (2 * g.h) >= level_resolution or len(g.p) > max_points
        ) and len(g.p) > 2:
            g = spread_to_double(g)
        return g, moved

    g = base
    clamp_terms = 0.0
    bits = bin(n)[3:]
    for i, bit in enumerate(bits):
        last_sq = i == len(bits) - 1 and bit == "0"
        g, mv = settle(_convolve(g, g), last_sq)
        clamp_terms += mv
        if bit == "1":
            g, mv = settle(_convolve(g, x_on(g.h)), i == len(bits) - 1)
            clamp_terms += mv
    k = g.k0 + np.arange(len(g.p))
    pos = k > 0
    # products k*h*p_k carry two roundings each, the sum gamma_K more
    body = float(np.dot(k[pos] * g.h, g.p[pos])) * (1 + fft.gamma(len(g.p) + 2))
    l1_term = g.l1 * max(float(k[-1]) * g.h, 0.0)
    ng = n * gamma
    # gamma is used as a float: moving it by |d gamma| <= u gamma moves E[S_+] by at most
    # n |d gamma| E|L| (couple the Bernoullis) and 1/(n gamma) by a factor 1 + u
    e_abs = abs(law.a) + abs(law.b) * math.exp(law.m + law.s**2 / 2)
    gamma_term = 2 * U * (e_abs + body / ng)
    error = l1_term / ng + clamp_terms + lat.excess + gamma_term
    # the last few float operations (two divisions, four additions) round by at most 8u
    delta = min((body / ng + error) * (1 + 8 * U), 1.0)
    parts = {
        "fft_sum": body / ng,
        "roundoff": l1_term / ng,
        "clamp": clamp_terms,
        "truncation": lat.excess,
        "gamma_rounding": gamma_term,
        "h0": h,
        "h_final": g.h,
        "points_final": len(g.p),
        "lattice_points": len(lat.p),
        "seconds": time.perf_counter() - t0,
    }
    return BlanketResult(float(delta), float(min(error, delta)), parts)


# ============================================================================ BMG
def check_gamma(gamma: Any) -> float:
    """The blanket mass as a float in (0, 1] (the blanket bound needs gamma > 0)."""
    try:
        g = float(gamma)
    except (TypeError, ValueError):
        raise InvalidParameter("gamma", gamma, "(0, 1]") from None
    if math.isnan(g) or not 0 < g <= 1:
        raise InvalidParameter(
            "gamma",
            gamma,
            "(0, 1]",
            "the Gaussian local randomizer has no blanket (gamma = 0): use "
            "the gaussian-local-asymptotic method",
        )
    return g


@lru_cache(maxsize=64)
def worst_radius(mech: Any) -> tuple[float, str]:
    r"""Radius :math:`\|x\|` of the worst input, with the reason (both pair orders).

    Checks on the mechanism's own symbolic law that :math:`\ell_\varepsilon = a + b e^{sZ+m}` has a
    mean-one lognormal factor (:math:`m = -s^2/2`), :math:`s` increasing in :math:`r` and
    :math:`a, b` free of :math:`r`: then :math:`L` (and the reversed :math:`L`, affine in the same
    factor) grows in convex order with :math:`r`, and the worst case is :math:`r = 1`."""
    import sympy as sp

    r = sp.Symbol("r", positive=True)
    e = sp.Symbol("e", nonnegative=True)
    law = mech.amplification_law(e, r=r)
    mean_one = sp.simplify(law.m + law.s**2 / 2) == 0
    increasing = sp.simplify(sp.diff(law.s, r)).is_positive
    free = not (law.a.has(r) or law.b.has(r))
    if mean_one and increasing and free:
        return 1.0, "convex order: mean-one lognormal factor with slope increasing in r"
    return float("nan"), "no convex-order argument"


@lru_cache(maxsize=64)
def law_functions(mech: Any):
    """mpmath functions of (eps, r) for (a, b, s, m) of the (x, bot) law of ``mech``."""
    import sympy as sp

    rs = sp.Symbol("r", positive=True)
    es = sp.Symbol("e", nonnegative=True)
    law = mech.amplification_law(es, r=rs)
    return tuple(sp.lambdify((es, rs), x, modules="mpmath") for x in (law.a, law.b, law.s, law.m))


def pair_laws(fns, epsilon: float, r: float) -> dict[str, tuple]:
    r"""mpmath parameters :math:`(a, b, s, m)` of both orders at :math:`(\varepsilon, r)`.

    From :math:`\ell^{fwd} = R_x/R_{BG} - e^\varepsilon = a + bW`: :math:`R_x/R_{BG} = a + e^\varepsilon + bW`,
    so :math:`\ell^{rev} = 1 - e^\varepsilon R_x/R_{BG} = (1 - e^\varepsilon(a + e^\varepsilon)) - e^\varepsilon b W`."""
    with mp.workdps(40):
        e = mp.mpf(epsilon)
        a, b, s, m = (f(e, mp.mpf(r)) for f in fns)
        ee = mp.exp(e)
        return {"(x, bot)": (a, b, s, m), "(bot, x)": (1 - ee * (a + ee), -ee * b, s, m)}


def local_delta(params: tuple) -> float:
    r""":math:`E[L_+]` in Arb for :math:`L = a + b e^{sZ+m}` (the single-report divergence), upper end."""
    import flint
    from flint import arb

    old = flint.ctx.prec
    flint.ctx.prec = 128
    try:
        # the parameters come from mpmath at 40 digits: a ball of relative radius 1e-35 covers them
        a, b, s, m = (arb(mp.nstr(v, 45)) * arb(1, 1e-35) for v in params)
        sqrt2 = arb(2).sqrt()
        phi = lambda x: (-x / sqrt2).erfc() / 2  # noqa: E731
        scale = abs(b) * (m + s * s / 2).exp()
        fa, fb = float(params[0]), float(params[1])  # signs decide the branch
        if fb == 0:
            val = arb(max(float_up(a), 0.0))  # L = a
        elif fb > 0:
            if fa >= 0:
                val = abs(a) + scale  # L_+ <= |a| + bW
            else:
                z = ((-a / b).log() - m) / s  # L > 0 <=> Z > z
                val = scale * phi(s - z) + a * phi(-z)
        else:
            if fa <= 0:  # L < a <= 0 up to the ball of a
                return max(float_up(a), 0.0)
            z = ((a / -b).log() - m) / s  # L > 0 <=> Z < z
            val = a * phi(z) - scale * phi(z - s)
        hi = float_up(val)
        return min(max(hi, 0.0), 1.0) if math.isfinite(hi) else 1.0
    finally:
        flint.ctx.prec = old


def float_law(params: tuple) -> tuple[AffineLognormal | None, float]:
    r"""The float64 law used by :func:`blanket_delta` and the :math:`\delta` it may lose to rounding.

    :math:`a` and :math:`b` are rounded up and :math:`m` towards a larger :math:`bW`, so :math:`L`
    only grows pointwise (safe).  :math:`s` is rounded to nearest; moving it by :math:`\Delta`
    moves :math:`L` by at most :math:`|b|\Delta|Z|e^{(s+\Delta)|Z| + m}` in expectation
    :math:`\le |b|\Delta(s + \Delta + 1)e^{m + (s+\Delta)^2/2}\cdot 2`, and :math:`\delta` by at
    most that (the bound is 1-Lipschitz in each summand).  None when a parameter overflows."""
    a, b, s, m = params
    vals = [float(v) for v in params]
    if not all(math.isfinite(v) for v in vals) or vals[2] <= 0 or vals[1] == 0:
        return None, 0.0
    up = math.inf
    fa = math.nextafter(vals[0], up)
    fb = math.nextafter(vals[1], up)
    fm = math.nextafter(vals[3], up if vals[1] > 0 else -up)
    fs = vals[2]
    with mp.workdps(40):
        d = abs(mp.mpf(fs) - s)
        term = abs(b) * d * (s + d + 1) * mp.exp(m + (s + d) ** 2 / 2) * 2
    return AffineLognormal(fa, fb, fs, fm), float(term) * (1 + 1e-6)


ORDERS = ("(x, bot)", "(bot, x)")


def bmg_delta_pairs(
    fns,
    gamma: float,
    n: int,
    epsilon: float,
    r: float = 1.0,
    *,
    orders: tuple[str, ...] = ORDERS,
    **kw: Any,
) -> dict[str, BlanketResult]:
    """Certified bounds of the pair ``orders`` (each the smaller of the blanket and the local
    bound); only the maximum over both orders is a bound for the zero-out relation."""
    out = {}
    for name, params in pair_laws(fns, epsilon, r).items():
        if name not in orders:
            continue
        local = local_delta(params)
        law, rounding = float_law(params)
        res = None
        if law is not None and local > 0:
            res = blanket_delta(law, gamma, n, **kw)
            if rounding > 0:
                res = BlanketResult(
                    min(res.delta + rounding, 1.0),
                    res.error + rounding,
                    dict(res.parts, parameter_rounding=rounding),
                )
        if res is None or local <= res.delta:
            out[name] = BlanketResult(local, 0.0, {"method": "single-report divergence (Arb)"})
        else:
            out[name] = res
    return out


def bmg_delta(
    mech: Any, n: int, epsilon: float, *, radius: float | None = None, **kw: Any
) -> BlanketResult:
    r"""Certified :math:`\delta(\varepsilon)` of the shuffled BMG, worst over both orders of the
    zero-out pair (Takagi-Liew 2026, App. C)."""
    n = check_n(n)
    epsilon = check_epsilon(epsilon)
    gamma = check_gamma(mech.gamma)
    if radius is None:
        radius, _why = worst_radius(mech)
        if math.isnan(radius):
            raise CannotCertify(
                "no convex-order argument locates the worst input of this mechanism"
            )
    pairs = bmg_delta_pairs(law_functions(mech), gamma, n, epsilon, radius, **kw)
    worst = max(pairs, key=lambda k: pairs[k].delta)
    res = pairs[worst]
    parts = dict(res.parts, pair=worst, **{f"delta {k}": v.delta for k, v in pairs.items()})
    return BlanketResult(res.delta, res.error, parts)


# ============================================================================ accountant

CERTIFICATE = (
    "Takagi-Liew 2026 App. C (Balle et al. Lemma 5.3), both orders of the zero-out pair, worst "
    "|x| = 1 by convex order; capped by the single-report divergence (Arb); lattice law "
    "in Arb (truncation excess added, convex split), re-gridding by mean-preserving "
    "spreads, clamp excess added, radix-2 FFT round-off by Higham Thm 24.2"
)
PAIRS = "all: (x, bot) and (bot, x) with |x| <= 1"


def is_bmg(mech: Any) -> bool | str:
    """True for a blanket-mixed Gaussian with blanket mass in (0, 1]."""
    if getattr(mech, "name", None) != "bmg":
        return "bmg-blanket applies to the blanket-mixed Gaussian (bmg) only"
    try:
        check_gamma(mech.gamma)
    except InvalidParameter as exc:
        return str(exc)
    return True


class BMGBlanketAccountant(Accountant):
    r"""Certified upper bound for the shuffled BMG (Takagi-Liew 2026, App. C); see the module docstring."""

    kind = Kind.UPPER
    certificate = CERTIFICATE
    pairs = PAIRS

    def __init__(
        self,
        mech: Any,
        n: int,
        *,
        adjacency: str = "zero-out",
        method: str = "bmg-blanket",
        resolution: float = 32.0,
        level_resolution: float = 48.0,
        budget: float = BUDGET,
    ):
        self.method, self.mechanism, self.n, self.adjacency = method, mech, check_n(n), adjacency
        self.gamma = check_gamma(mech.gamma)
        self.options = {
            "resolution": float(resolution),
            "level_resolution": float(level_resolution),
            "budget": float(budget),
        }
        radius, why = worst_radius(mech)
        if math.isnan(radius):
            raise CannotCertify(f"bmg-blanket cannot locate the worst input: {why}")
        self.radius = radius
        self.eps_max = math.inf
        self._cache: dict[float, Bound] = {}

    def get_delta(self, epsilon: float) -> Bound:
        epsilon = check_epsilon(epsilon)
        if epsilon in self._cache:
            return self._cache[epsilon]
        t0 = time.perf_counter()
        pairs = bmg_delta_pairs(
            law_functions(self.mechanism), self.gamma, self.n, epsilon, self.radius, **self.options
        )
        worst = max(pairs, key=lambda k: pairs[k].delta)
        res = pairs[worst]
        note = f"worst order {worst}; " + ", ".join(f"{k}: {v.delta:.6g}" for k, v in pairs.items())
        b = self._bound(
            "delta",
            epsilon,
            max(res.delta - res.error, 0.0),
            res.delta,
            seconds=time.perf_counter() - t0,
            note=note,
        )
        self._cache[epsilon] = b
        return b

    def epsilon_guess(self, delta: float) -> float:
        r"""A starting point for the inversion: the template :math:`f_{n,\varepsilon}(\chi_{lo})` with
        :math:`\chi_{lo}^{-2} = \mathrm{Var}[\ell_0]/\gamma` read off the law at :math:`\varepsilon = 0`
        (lognormal variance :math:`b^2e^{2m+s^2}(e^{s^2}-1)`; Takagi-Liew 2026, Def. 2.5)."""
        from shufflekit.numeric.methods import shuffle_template

        try:
            with mp.workdps(30):
                a, b, s, m = (
                    f(mp.mpf(0), mp.mpf(self.radius)) for f in law_functions(self.mechanism)
                )
                var = b**2 * mp.exp(2 * m + s**2) * mp.expm1(s**2)
                chi = float(mp.sqrt(self.gamma / var)) if var > 0 else math.inf
            if not (0 < chi < math.inf):
                return 1e-3
            return max(shuffle_template.template_epsilon(self.n, delta, chi), 1e-12)
        except (ValueError, ArithmeticError):
            return 1e-3

    def get_epsilon(self, delta: float, *, rel_tol: float = 1e-6) -> Bound:
        """Smallest certified epsilon (the shared inversion, started at the template's epsilon)."""
        from shufflekit.validation import check_delta

        delta = check_delta(delta)
        return invert_delta(self, delta, rel_tol=rel_tol, eps_start=self.epsilon_guess(delta))


@register(
    "bmg-blanket",
    kind=Kind.UPPER,
    supports=is_bmg,
    adjacencies=("zero-out",),
    options=("resolution", "level_resolution", "budget"),
    default_for=lambda m, n: getattr(m, "name", None) == "bmg",
    summary="certified blanket bound of Takagi-Liew 2026 App. C for BMG, both pair orders",
)
def bmg_blanket_accountant(mech, n, *, adjacency="zero-out", **options):
    return BMGBlanketAccountant(mech, n, adjacency=adjacency, **options)


def bmg_epsilon(mech: Any, n: int, delta: float, *, rel_tol: float = 1e-6, **kw: Any) -> float:
    r"""Smallest certified :math:`\varepsilon` with :math:`\delta_{bound}(\varepsilon) \le \delta` for the
    shuffled BMG (method ``bmg-blanket``); raises :class:`CannotCertify` if not reached."""
    n = check_n(n)
    delta = check_delta(delta)
    acc = BMGBlanketAccountant(mech, n, **kw)
    b = acc.get_epsilon(delta, rel_tol=rel_tol)
    return b.hi


def bmg_profile(
    mech: Any,
    n: int,
    epsilons: Sequence[float] | None = None,
    deltas: Sequence[float] | None = None,
    **kw: Any,
) -> PrivacyProfile:
    """Certified profile of the shuffled BMG (method ``bmg-blanket``): one
    :class:`~shufflekit.numeric.bound.Bound` per epsilon and per delta."""
    n = check_n(n)
    check_gamma(mech.gamma)
    return BMGBlanketAccountant(mech, n, **kw).profile(epsilons=epsilons, deltas=deltas)
