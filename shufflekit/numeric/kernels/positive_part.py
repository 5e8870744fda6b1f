r"""Certified enclosure of :math:`\mathbb{E}[(G_1+\dots+G_n)_+]` for i.i.d. finite :math:`G`.

This is the arithmetic behind the exact blanket bound (Su-Cheng-Wang 2026, Thm 4) and the exact Theorem 5
lower bound: both are :math:`\frac1n\mathbb{E}[(\sum_i G_i)_+]` for a law with atoms
:math:`g_1,\dots,g_r` (probabilities :math:`q_1,\dots,q_r`) and :math:`0` (probability :math:`q_0`).

**Decomposition.**  The counts :math:`(N_1,\dots,N_r)` are multinomial.  Conditioning in turn,
:math:`N_j \mid N_1..N_{j-1} \sim \mathrm{Bin}(m_j, \rho_j)`, :math:`m_j = n - \sum_{i<j}N_i`,
:math:`\rho_j = q_j/(q_0+\sum_{i\ge j}q_i)`.  The *outer* levels (all atoms but one negative atom
:math:`c`) are enumerated over windows; the *inner* atom is summed in closed form: with
:math:`x` the partial sum, :math:`W\sim\mathrm{Bin}(m,\rho)`, :math:`J=\lfloor x/|c|\rfloor`,
:math:`F` the cdf and :math:`F_2(j)=\sum_{i\le j}F(i)`, summation by parts gives

.. math::
    h(x,m) = \mathbb{E}[(x - |c|W)_+] = \sum_{w\le J}\mathrm{pmf}(w)(x-|c|w)
           = (x-|c|J)\,F(J) + |c|\,F_2(J-1),

a sum of non-negative terms (no cancellation).  For *any* integer :math:`K` the same expression
with :math:`K` in place of :math:`J` is :math:`\le h` (it adds negative or drops non-negative
terms), so the maximum over :math:`K \in\{\tilde K-1,\tilde K,\tilde K+1\}` around the computed
:math:`\tilde K` is exact whenever the floating floor is off by at most one (it is, for
:math:`x/|c| < 2^{52}`).  Outside the inner window, :math:`h \ge x - |c|m\rho` (Jensen) and
:math:`h \le x - |c|m\rho + |c|\,m\,P(W>J)` above it, :math:`0 \le h \le x\,P(W\le J)` below it.

**Binomial rows** (:class:`BinomialRow`).  One Arb value per row, the pmf at the mode from the
exact log-gamma (``arb.lgamma``), then the float recurrences
:math:`\mathrm{pmf}(k+1)=\mathrm{pmf}(k)\frac{(m-k)}{(k+1)}\frac{\rho}{1-\rho}` outward.  Each step
is two IEEE roundings plus one for the running product, and the float ratio
:math:`\rho/(1-\rho)` carries the relative error of its Arb ball, so after :math:`d` steps the
relative error is at most :math:`(1+e_0)(1+3u+e_R)^d - 1` (:math:`u=2^{-53}`).  Rows are scaled
by an exact power of two (largest entry near :math:`2^{900}`) so no entry used is subnormal:
entries below :math:`2^{-1000}` end the window.  Tails beyond a window edge :math:`k` are bounded
geometrically: the ratio of consecutive pmf values is monotone, so
:math:`\sum_{j\ge1}\mathrm{pmf}(k\pm j) \le \mathrm{pmf}(k)\,r/(1-r)` and
:math:`\sum_{j\ge1} j\,\mathrm{pmf}(k\pm j)\le\mathrm{pmf}(k)\,r/(1-r)^2`.

**Dropped tails of the outer levels** (upper bound only; the lower bound simply drops them,
all contributions being :math:`\ge 0`).  Order the positive atoms decreasingly, then the
non-positive ones increasingly.  Then :math:`g_j` is at least (positive) or at most
(non-positive) every later atom and 0, and a coupling (turn one later user into a
:math:`g_j`-user) shows :math:`E_k = \mathbb{E}[(S)_+\mid N_j=k,\dots]` is monotone in
:math:`k`, with increments at most :math:`D_j = g_j - \min(0, g_{>j})` (resp.
:math:`\max(0,g_{>j}) - g_j`).  On the side where :math:`E_k` decreases away from the window,
:math:`\sum_{k\,\mathrm{out}}\mathrm{pmf}(k)E_k \le \mathrm{pmf}(\mathrm{edge})\frac{r}{1-r}E_\mathrm{edge}`
(the edge child's weight is multiplied by :math:`1/(1-r)`); on the other side the same plus
:math:`\mathrm{pmf}(\mathrm{edge})\,D_j\,r/(1-r)^2`, an absolute term that sets how deep that
window must go (:func:`expected_positive_part` deepens it until this budget is below
:math:`10^{-10}` of the value, which is what makes deep tails work: the budget is relative to
the answer, not a fixed :math:`e^{-60}`).

**Settled states.**  A state whose remaining users cannot change the sign of the sum is not
expanded further: if even the largest remaining atoms cannot make it positive it contributes
0; if Bernstein's inequality makes the negative part negligible (below :math:`2^{-\mathrm{bits}}`
of the mean) its contribution is the conditional mean plus that proven bound (:func:`_settle`).

**Settled runs** (:func:`_settled_runs`).  At a non-positive level the children of one parent
form a run :math:`k = lo..hi` along which the sum only decreases (coupling), so the dead test at
one :math:`k_d` settles every :math:`k \ge k_d` (contribution 0, not generated) and the linear
test at one :math:`k_\ell` bounds :math:`\mathbb{E}[(S_k)_-]` for every :math:`k\le k_\ell`; the
linear head is then an affine function of :math:`k` summed against the row from its cumulative
tables :math:`\sum\mathrm{pmf}` and :math:`\sum k\,\mathrm{pmf}` with a proven float error.  Only
the children in between are expanded.

**Zero atoms** (:func:`_absorbed`).  An atom whose interval contains 0 and is tiny (the float
image of an exact 0, e.g. :math:`\alpha=\beta` at :math:`\varepsilon=0`) moves into the zero mass
with the additive bound :math:`n q_z \max(|g_{z,lo}|, g_{z,hi})`, when that is below
:data:`ABSORB_REL` of the value.

**Tables.**  Rows and their cumulative tables are built once per binomial parameter and kept in
pooled arrays (:class:`Pool`) across evaluations, so an evaluation gathers by offset.

**Summation.**  Weights are kept as (mantissa, exponent) pairs (``frexp``; exact), so products
of many small factors never underflow; the final sum scales every term to the largest exponent
(terms that underflow there are bounded by :math:`2^{-1074}` each) and sums non-negative floats
(relative error :math:`\gamma_N = Nu/(1-Nu)`, Higham, Lemma 3.1 / eq. (4.4), any order).  Every
relative error is collected in :math:`\kappa` and applied outward at the end; the result is an
Arb ball ``[lo, hi]`` (``lo`` from the lower atoms rounded down, ``hi`` from the upper atoms
rounded up).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
from flint import arb, ctx

from shufflekit.numeric.kernels.directed_rounding import float_down, float_up

U = 2.0**-53
LOG2E = 1.0 / math.log(2.0)
SCALE_BITS = 900  # the largest entry of a row is scaled to about 2^900
FLOOR_BITS = -1000  # entries below 2^-1000 (scaled) end a window
SHALLOW_BITS = 48  # depth of the side whose tail is bounded relative to the value
REL_TARGET = 1e-10  # absolute tail budgets are kept below this fraction of the value
MAX_BITS = 1800  # deepest window (bits below the mode)
MAX_ROW_FLOATS = 200_000_000  # refuse a level whose rows hold more entries (memory guard)
MAX_CELLS = 20_000_000  # refuse beyond this many expanded outer cells in one evaluation
# (a time and memory guard: a live cell costs ~250 bytes through the
# inner level, so ~5 GB; 10-RR's deepest Thm 5 sums at n = 1e6
# expand 3.4 million)
MAX_EXACT_N = 10**8  # beyond, the sums are refused up front (time and memory: n = 1e8
# takes about 40 s and 12 GB for binary RR at delta ~ 1e-20)
TINY_VALUE = 1e-305  # an upper bound below n * 1e-305 (delta < 1e-305) is final


def gamma_n(k: int) -> float:
    r""":math:`\gamma_k = ku/(1-ku)` (rounded up by a relative 1e-10)."""
    return k * U / (1.0 - k * U) * (1 + 1e-10)


def growth(steps: int, per_step: float) -> float:
    r"""Upper bound on :math:`(1+a)^d - 1` for :math:`a = ` ``per_step``, :math:`d = ` ``steps``
    (:math:`(1+a)^d \le e^{ad}` and :math:`e^x - 1 \le x e^x`)."""
    x = steps * per_step
    if x > 1e-3:
        raise ArithmeticError("recurrence too long for the error model")
    return x * math.exp(x) * (1 + 1e-10)


@dataclass(frozen=True)
class Param:
    """A probability :math:`\\rho` as an Arb ball and float ratios with their relative errors."""

    ball: arb
    ratio: float  # rho/(1-rho)
    ratio_err: float
    inv_ratio: float  # (1-rho)/rho
    inv_ratio_err: float
    lo: float  # float interval of rho
    hi: float
    rho: float = 0.0  # rho as a float, and its relative error
    rho_err: float = 0.0
    inv_q: float = 0.0  # 1/(1-rho)
    inv_q_err: float = 0.0

    @classmethod
    def of(cls, ball: arb, comp: arb | None = None) -> Param:
        r"""The parameter :math:`\rho` (ball ``ball``); ``comp`` encloses :math:`1-\rho` when
        it is known without cancellation (default: ``1 - ball``)."""
        ctx.prec = 128
        comp = 1 - ball if comp is None else comp
        r = ball / comp
        ir = comp / ball
        iq = 1 / comp
        rf, irf, iqf, pf = float(r.mid()), float(ir.mid()), float(iq.mid()), float(ball.mid())

        def rel(f, b):
            return float_up(abs(arb(f) - b) / abs(b)) + 1e-30

        lo, hi = float_down(ball), float_up(ball)
        return cls(
            ball,
            rf,
            rel(rf, r),
            irf,
            rel(irf, ir),
            math.nextafter(lo, -1.0),
            math.nextafter(hi, 2.0),
            pf,
            rel(pf, ball),
            iqf,
            rel(iqf, iq),
        )


@dataclass(frozen=True)
class BinomialRow:
    r"""Window ``[lo, hi]`` of the pmf of :math:`\mathrm{Bin}(m,\rho)`, scaled by :math:`2^{-E}`.

    For ``k`` in the window the true pmf lies in ``pmf[k-lo] * 2^E * [1-kappa, 1+kappa]``.
    ``r_lo``/``r_hi`` bound the ratio of consecutive pmf values beyond each edge (``0`` when
    the edge is ``0`` or ``m``).
    """

    m: int
    lo: int
    hi: int
    pmf: np.ndarray | None  # None once the row's tables are pooled (:meth:`Rows.offsets`)
    E: int
    kappa: float
    r_lo: float
    r_hi: float
    first: float  # scaled pmf at the edges lo and hi (kept without the array)
    last: float

    @property
    def size(self) -> int:
        return self.hi - self.lo + 1

    def light(self) -> BinomialRow:
        """The same row without its pmf array (edges and error terms kept)."""
        return replace(self, pmf=None)


def windows(m, rho: float, bits_low: float, bits_high: float):
    """``(mode, lo, hi)`` of the rows ``m`` (arrays) from a normal/Bernstein heuristic (the tails
    are certified afterwards): the windows :func:`binomial_row` builds (never wider, it may cut
    them at the floor) and the memory guard of :func:`_evaluate` counts before building any."""
    m = np.asarray(m, dtype=np.float64)
    mode = np.clip(np.floor((m + 1) * rho), 0, m)
    var = m * rho * (1 - rho)

    def rad(bits):  # Bernstein: P(|N - mean| >= t) <= exp(-t^2 / (2 (var + t/3)))
        L = bits * math.log(2.0)
        return L / 3 + np.sqrt(L * L / 9 + 2 * L * var) + 2

    lo = np.maximum(0.0, np.trunc(mode - rad(bits_low)))
    hi = np.minimum(m, np.ceil(mode + rad(bits_high)))
    return mode.astype(np.int64), lo.astype(np.int64), hi.astype(np.int64)


def binomial_row(m: int, p: Param, bits_low: float, bits_high: float) -> BinomialRow:
    """The certified scaled pmf window of Bin(m, rho) (see the module docstring)."""
    mode, lo, hi = (int(v) for v in windows(m, float(p.ball.mid()), bits_low, bits_high))
    ctx.prec = 128
    rho = p.ball
    logpmf = (
        arb(m + 1).lgamma()
        - arb(mode + 1).lgamma()
        - arb(m - mode + 1).lgamma()
        + (rho.log() * mode if mode else arb(0))
        + ((1 - rho).log() * (m - mode) if m - mode else arb(0))
    )
    E = int(math.floor(float(logpmf.mid()) * LOG2E)) - SCALE_BITS
    anchor = (logpmf - arb(E) * arb(2).log()).exp()
    a = float(anchor.mid())
    e0 = float_up(abs(arb(a) - anchor) / anchor) + U
    # upward ratios (k -> k+1) and downward (k -> k-1), float
    ku = np.arange(mode, hi, dtype=np.float64)  # k = mode .. hi-1
    up = ((m - ku) * p.ratio) / (ku + 1.0)
    kd = np.arange(mode, lo, -1, dtype=np.float64)  # k = mode .. lo+1
    dn = (kd * p.inv_ratio) / (m - kd + 1.0)
    # products from the anchor outward: every kept entry is the running product itself, so no
    # intermediate is subnormal before the floor ends the window (a product of ratios alone
    # would go subnormal long before the scaled entries reach the floor)
    right = np.cumprod(np.concatenate(([a], up)))[1:] if up.size else np.zeros(0)
    left = np.cumprod(np.concatenate(([a], dn)))[1:] if dn.size else np.zeros(0)
    floor = 2.0**FLOOR_BITS
    # end the window where entries fall below 2^-1000 (never subnormal)
    if right.size and right[-1] < floor:
        cut = int(np.argmax(right < floor))
        right = right[:cut]
    if left.size and left[-1] < floor:
        cut = int(np.argmax(left < floor))
        left = left[:cut]
    pmf = np.concatenate([left[::-1], [a], right])
    lo, hi = mode - left.size, mode + right.size
    steps = max(left.size, right.size) + 1
    kappa = e0 + growth(steps, 3 * U + max(p.ratio_err, p.inv_ratio_err)) + 2 * U
    kappa *= 1 + 1e-6
    # ratio bounds beyond the edges (monotone ratios), rounded up by a relative 1e-12
    r_lo = 0.0 if lo == 0 else lo * p.inv_ratio * (1 + p.inv_ratio_err) / (m - lo + 1) * (1 + 1e-12)
    r_hi = 0.0 if hi == m else (m - hi) * p.ratio * (1 + p.ratio_err) / (hi + 1) * (1 + 1e-12)
    return BinomialRow(m, lo, hi, pmf, E, kappa, r_lo, r_hi, float(pmf[0]), float(pmf[-1]))


#: Most pmf floats one family of rows keeps cached (2.5e7 floats, 200 MB): the clone pair at
#: n = 1e6 visits about 2e4 rows of 2e4 entries each, 3 GB if every row were kept.
CACHE_FLOATS = 25_000_000


@dataclass
class Rows:
    """A cache of rows of one binomial parameter at one pair of depths."""

    p: Param
    bits_low: float
    bits_high: float
    cache: dict
    pools: dict = field(default_factory=dict)
    #: floats held by the pmf arrays of ``cache`` (bounded by :data:`CACHE_FLOATS`)
    held: int = 0

    def meta(self, m: int) -> BinomialRow:
        """The row of ``Bin(m, rho)``, possibly without its pmf array (edges, errors, size)."""
        row = self.cache.get(m)
        return row if row is not None else self.get(m)

    def get(self, m: int) -> BinomialRow:
        """The row of ``Bin(m, rho)`` with its pmf array (rebuilt if it was dropped)."""
        row = self.cache.get(m)
        if row is None or row.pmf is None:
            row = binomial_row(int(m), self.p, self.bits_low, self.bits_high)
            size = row.hi - row.lo + 1
            if len(self.cache) > 200_000 or self.held + size > CACHE_FLOATS:
                self.cache.clear()
                self.held = 0
            self.cache[m] = row
            self.held += size
        return row

    def pool(self, kind: str) -> Pool:
        """The family's pool of per-row tables of one kind (``inner``: :math:`F, F_2`;
        ``outer``: pmf; ``anchor``: pmf, :math:`F`, :math:`F_2`; see :func:`row_tables`)."""
        hit = self.pools.get(kind)
        if hit is None:
            hit = self.pools[kind] = Pool({"inner": 2, "outer": 1}.get(kind, 3))
        return hit

    def offsets(self, kind: str, ms) -> tuple[np.ndarray, list]:
        """Offsets of the rows ``ms`` in the pool ``kind`` and its arrays.

        Tables are written once, in place, into the pool; the row then keeps only its edges
        (:meth:`BinomialRow.light`), the tables being all later evaluations read."""
        pool = self.pool(kind)
        ms = [int(m) for m in ms]
        missing = [m for m in dict.fromkeys(ms) if m not in pool.off]
        need = sum(self.meta(m).size for m in missing)
        if pool.length + need > pool.capacity():
            pool.clear()
            missing = list(dict.fromkeys(ms))
            need = sum(self.meta(m).size for m in missing)
        release_pools(keep=pool, need=(pool.length + need) * pool.width)
        pool.reserve(need)
        for m in missing:
            row = self.get(m)
            off = pool.length
            row_tables(row, kind, [a[off : off + row.size] for a in pool.arrays])
            pool.off[m] = off
            pool.length = off + row.size
            self.cache[m] = row.light()
            self.held = max(self.held - row.size, 0)
        offs = np.array([pool.off[m] for m in ms], dtype=np.int64)
        return offs, pool.arrays


def row_tables(row: BinomialRow, kind: str, out: list) -> None:
    r"""Float tables of a scaled row, all from the window's low edge :math:`lo`, written into
    ``out``: :math:`F(k)=\sum_{lo\le i\le k}\mathrm{pmf}(i)`, :math:`F_2(k)=\sum_{lo\le i\le k}F(i)`
    (``inner``), the pmf alone (``outer``; its run sums come from :func:`prefix_sums`) or the
    pmf, :math:`F` and :math:`F_2` (``anchor``).  All terms are non-negative and every prefix
    is summed left to right, so the relative errors are :math:`\gamma_N` and :math:`\gamma_N`
    on top of :math:`F`'s (as used by :func:`_inner`)."""
    if kind == "inner":
        np.cumsum(row.pmf, out=out[0])
        np.cumsum(out[0], out=out[1])
        return
    if kind == "anchor":
        out[0][:] = row.pmf
        np.cumsum(row.pmf, out=out[1])
        np.cumsum(out[1], out=out[2])
        return
    out[0][:] = row.pmf


def prefix_sums(flat: np.ndarray, start: np.ndarray, count: np.ndarray, first: np.ndarray):
    r"""Per run: :math:`F=\sum_{i<c}\mathrm{flat}[s+i]` and :math:`G=\sum_{i<c}(k_0+i)\,
    \mathrm{flat}[s+i]` (non-negative terms: relative errors :math:`\gamma_c` and
    :math:`\gamma_{c+1}` in any summation order, Higham Lemma 3.1)."""
    F = np.empty(len(start))
    G = np.empty(len(start))
    for t, (s0, c, k0) in enumerate(zip(start.tolist(), count.tolist(), first.tolist())):
        seg = flat[s0 : s0 + c]
        F[t] = seg.sum()
        G[t] = np.dot(seg, np.arange(k0, k0 + c, dtype=np.float64))
    return F, G


def memory_floats() -> int:
    """Float64 slots the table pools may use: a third of the memory available now (Linux
    ``MemAvailable``), at least 64 million."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return max(64_000_000, int(line.split()[1]) * 1024 // 8 // 3)
    except OSError:
        pass
    return 64_000_000


POOL_FLOATS = memory_floats()  # floats (all arrays) of one pool; emptied beyond this
ALL_POOLS_FLOATS = POOL_FLOATS * 3 // 2  # floats used by all pools; others are freed beyond


def release_pools(keep: Pool, need: int) -> None:
    """Free the other families' pools while all pools would exceed :data:`ALL_POOLS_FLOATS`."""
    pools = [p for fam in _ROWS.values() for p in fam.pools.values() if p is not keep]
    used = need + sum(p.allocated() for p in pools)
    for p in pools:
        if used <= ALL_POOLS_FLOATS:
            break
        used -= p.allocated()
        p.free()


@dataclass
class Pool:
    """Per-row float tables written once into shared arrays, so that an evaluation gathers
    from them by offset instead of concatenating rows again.

    The arrays are allocated once at the pool's capacity (:data:`POOL_FLOATS`); the operating
    system backs only the pages written, so nothing is copied as the pool fills."""

    width: int
    arrays: list = field(default_factory=list)
    off: dict = field(default_factory=dict)
    length: int = 0

    def capacity(self) -> int:
        return POOL_FLOATS // self.width

    def clear(self) -> None:
        self.off.clear()
        self.length = 0

    def free(self) -> None:
        self.clear()
        self.arrays = []

    def allocated(self) -> int:
        """Floats written (the memory the pool really holds)."""
        return self.length * self.width

    def reserve(self, need: int) -> None:
        """Make room for ``need`` more floats per array (one allocation at the capacity)."""
        size = self.arrays[0].size if self.arrays else 0
        if self.length + need <= size:
            return
        grown = [np.empty(max(self.capacity(), self.length + need)) for _ in range(self.width)]
        for g, a in zip(grown, self.arrays):
            g[: self.length] = a[: self.length]
        self.arrays = grown


_ROWS: dict = {}


def rows_for(p_ball: arb, bits_low: float, bits_high: float, comp: arb | None = None) -> Rows:
    r"""The rows of :math:`\mathrm{Bin}(\cdot, \rho)`, ``p_ball`` enclosing :math:`\rho` and
    ``comp`` (if given) :math:`1-\rho`; cached under the exact balls (two different
    :math:`\rho` never share rows)."""
    key = (
        _exact_key(p_ball),
        None if comp is None else _exact_key(comp),
        round(bits_low, 3),
        round(bits_high, 3),
    )
    hit = _ROWS.get(key)
    if hit is None:
        if len(_ROWS) > 64:
            _ROWS.clear()
        hit = _ROWS[key] = Rows(Param.of(p_ball, comp), bits_low, bits_high, {})
    return hit


def _exact_key(ball: arb) -> tuple:
    """The ball's midpoint and radius as exact (mantissa, exponent) pairs."""
    return (
        tuple(int(v) for v in ball.mid().man_exp()),
        tuple(int(v) for v in ball.rad().man_exp()),
    )


# ------------------------------------------------------------------ scaled sums
def _frexp_mul(m1, e1, v, E):
    """(m1 * 2^e1) * (v * 2^E) as a normalised (mantissa, exponent) pair (one rounding)."""
    m, e = np.frexp(m1 * v)
    return m, e1 + e + E


def _scaled_sum(mant: np.ndarray, expo: np.ndarray) -> tuple[arb, float]:
    """Ball ``[S(1-g), S(1+g)] + [0, underflow]`` containing sum(mant * 2^expo), mant >= 0."""
    ctx.prec = 128
    keep = mant > 0
    if not np.any(keep):
        return arb(0), 0.0
    mant, expo = mant[keep], expo[keep]
    Emax = int(expo.max())
    terms = np.ldexp(mant, (expo - Emax).astype(np.int64))
    s = float(np.sum(terms))
    under = int(np.count_nonzero(terms < 2.0**-1022))
    g = gamma_n(mant.size) + 2 * U * (under > 0)
    hi = arb(s) * (1 + arb(g)) + arb(under) * arb(2) ** -1074
    hi = hi * arb(2) ** Emax
    lo = arb(s) * (1 - arb(g)) * arb(2) ** Emax
    return lo.union(hi), float(g)


# ------------------------------------------------------------------ the expectation
@dataclass(frozen=True)
class Positive:
    """Result: ``[lo, hi]`` encloses E[(S)_+]; ``budget`` is the upper bound's tail part."""

    lo: arb
    hi: arb
    budget: arb
    cells: int
    bits: float


def _order(g_hi: np.ndarray) -> np.ndarray:
    """Positive atoms (by g_hi) decreasing, then non-positive increasing."""
    pos = np.where(g_hi > 0)[0]
    neg = np.where(g_hi <= 0)[0]
    return np.concatenate(
        [pos[np.argsort(-g_hi[pos], kind="stable")], neg[np.argsort(g_hi[neg], kind="stable")]]
    ).astype(int)


def expected_positive_part(
    g_lo, g_hi, q, q0: float, n: int, *, bits: float | None = None, max_cells: int = MAX_CELLS
) -> Positive:
    r"""Enclosure of :math:`\mathbb{E}[(\sum_{i\le n}G_i)_+]` for every law with atoms in
    ``[g_lo, g_hi]`` and probabilities ``q`` (taken as exact), zero with probability ``q0``.

    ``bits`` fixes the depth of the deep windows; by default it starts at 64 and grows until
    the absolute tail budget is below :data:`REL_TARGET` of the value.

    Atoms of any magnitude (e.g. :math:`e^{100}` at a large local :math:`\varepsilon_0`): the
    expectation is homogeneous, :math:`\mathbb{E}[(\sum 2^{-s}G_i)_+] = 2^{-s}\,
    \mathbb{E}[(\sum G_i)_+]`, so atoms outside :math:`[2^{-}` :data:`ATOM_SCALE_BITS`
    :math:`, 2^{}` :data:`ATOM_SCALE_BITS` :math:`]` are first scaled by an exact power of two
    to a largest magnitude in :math:`[1/2, 1)` (exact, except that atoms falling into the
    subnormal range are rounded outward), and the enclosure is scaled back in Arb.  The float
    tables then hold partial sums of order :math:`n` times rows of order :math:`2^{900}`,
    far from overflow.
    """
    g_lo, g_hi, q = (np.asarray(a, dtype=np.float64) for a in (g_lo, g_hi, q))
    keep = q > 0
    g_lo, g_hi, q = g_lo[keep], g_hi[keep], q[keep]
    if g_lo.size == 0:
        return Positive(arb(0), arb(0), arb(0), 0, 0.0)
    if not (np.all(np.isfinite(g_lo)) and np.all(np.isfinite(g_hi))):
        raise ValueError("atoms must be finite")
    if np.any(g_hi > 0) and np.any(g_hi < 0):
        tail = mgf_upper_bound(g_hi, q, q0, n)
        if tail < TINY_VALUE * n:  # below every documented delta: no sums needed
            return Positive(arb(0), arb(tail), arb(tail), 0, 0.0)
    if n > MAX_EXACT_N:
        raise OverflowError(f"n={n} is beyond the reach of the exact sums (n <= {MAX_EXACT_N:.0e})")
    big = float(np.max(np.maximum(np.abs(g_lo), np.abs(g_hi))))
    shift = 0
    if big > 0 and not 2.0**-ATOM_SCALE_BITS <= big <= 2.0**ATOM_SCALE_BITS:
        shift = math.frexp(big)[1]  # big * 2^-shift in [1/2, 1)
        g_lo, g_hi = scaled_atoms(g_lo, g_hi, -shift)
    res = _expected_positive_part(g_lo, g_hi, q, q0, n, bits, max_cells, shift)
    if shift == 0:
        return res
    ctx.prec = 128
    f = arb(2) ** shift
    return Positive(
        arb((res.lo * f).lower()),
        arb((res.hi * f).upper()),
        arb((res.budget * f).upper()),
        res.cells,
        res.bits,
    )


def mgf_upper_bound(g_hi: np.ndarray, q: np.ndarray, q0: float, n: int) -> float:
    r"""A float upper bound on :math:`\mathbb{E}[(\sum_{i\le n}G_i)_+]` from the moment
    generating function, for every law with atoms at most ``g_hi``.

    :math:`x_+ \le e^{tx-1}/t` for every :math:`t > 0` (the maximum of :math:`x e^{-tx}` is
    :math:`1/(et)`), so :math:`\mathbb{E}[(S)_+] \le M(t)^n/(e\,t)` with
    :math:`M(t) = q_0 + \sum_j q_j e^{t g_j}`, increasing in each atom.  The exponent is
    minimised in floats (golden section on :math:`\log t`; :math:`n\log M(t) - \log t` is
    convex in :math:`t`), the bound at the chosen :math:`t` is evaluated in Arb and rounded up:
    the certificate does not depend on the search.  Cheap at any ``n``; used to settle values
    below :data:`TINY_VALUE` without the exact sums.
    """
    g = np.asarray(g_hi, dtype=np.float64)
    w = np.asarray(q, dtype=np.float64)
    big = float(np.max(np.abs(g)))
    if not big > 0:
        return math.inf

    def objective(u: float) -> float:  # log of the bound at t = e^u, in floats
        with np.errstate(over="ignore", under="ignore"):
            x = math.exp(u) * g
            top = max(float(np.max(x)), 0.0)
            m = math.log(q0 * math.exp(-top) + float(np.dot(w, np.exp(x - top)))) + top
        return n * m - u - 1.0

    a, b = -math.log(big) - 40.0, -math.log(big) + 40.0
    phi = (math.sqrt(5.0) - 1.0) / 2.0
    c, d = b - phi * (b - a), a + phi * (b - a)
    fc, fd = objective(c), objective(d)
    for _ in range(120):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - phi * (b - a)
            fc = objective(c)
        else:
            a, c, fc = c, d, fd
            d = a + phi * (b - a)
            fd = objective(d)
    u = c if fc < fd else d
    with ctx.workprec(128):
        t = arb(math.exp(u))
        M = arb(float(q0)) + sum(
            (arb(float(qi)) * (t * arb(float(gi))).exp() for qi, gi in zip(w, g)), arb(0)
        )
        val = M**n / (t * arb(1).exp())
        return float_up(val) if val.is_finite() else math.inf


ATOM_SCALE_BITS = 32  # atoms whose largest magnitude is outside [2^-32, 2^32] are rescaled


def scaled_atoms(g_lo: np.ndarray, g_hi: np.ndarray, e: int) -> tuple[np.ndarray, np.ndarray]:
    """``(g_lo * 2^e, g_hi * 2^e)`` with every inexact (subnormal) result rounded outward,
    so the scaled intervals contain the exactly scaled ones; exact zeros stay zero."""
    lo, hi = np.ldexp(g_lo, e), np.ldexp(g_hi, e)
    tiny = 2.0**-1022
    lo = np.where((g_lo != 0) & (np.abs(lo) < tiny), np.nextafter(lo, -np.inf), lo)
    hi = np.where((g_hi != 0) & (np.abs(hi) < tiny), np.nextafter(hi, np.inf), hi)
    return lo, hi


def _expected_positive_part(g_lo, g_hi, q, q0, n, bits, max_cells, shift) -> Positive:
    """:func:`expected_positive_part` of atoms already in a safe float range (``shift``:
    the power of two they were scaled by, for the absolute smallness test)."""
    if not np.any(g_hi > 0):
        return Positive(arb(0), arb(0), arb(0), 0, 0.0)
    if not np.any(g_hi < 0):
        # S >= 0 for the upper atoms: E[S_+] = E[S] = n sum q g; lower: E[S_+] >= E[S]_+
        ctx.prec = 128
        up = arb(n) * sum((arb(float(a)) * arb(float(b)) for a, b in zip(q, g_hi)), arb(0))
        dn = arb(n) * sum((arb(float(a)) * arb(float(b)) for a, b in zip(q, g_lo)), arb(0))
        lo = dn.lower() if dn.lower() > 0 else arb(0)
        return Positive(arb(lo), arb(up.upper()), arb(0), 1, 0.0)
    tiny = _negligible(g_lo, g_hi)
    if np.any(tiny):
        res = _absorbed(g_lo, g_hi, q, q0, n, tiny, bits, max_cells, shift)
        if res is not None:
            return res
    return _expected(g_lo, g_hi, q, (float(q0),), n, bits, max_cells, shift)


NEGLIGIBLE = 1e-6  # sign-ambiguous atoms this small (relative to the largest) are absorbed
ABSORB_REL = 1e-8  # ... when the additive term they cost is below this fraction of the value


def _negligible(g_lo: np.ndarray, g_hi: np.ndarray) -> np.ndarray:
    """Mask of the atoms whose interval contains 0 and is tiny next to the largest atom."""
    big = float(np.max(np.maximum(np.abs(g_lo), np.abs(g_hi))))
    size = np.maximum(np.abs(g_lo), np.abs(g_hi))
    return (g_lo <= 0) & (g_hi >= 0) & (size <= NEGLIGIBLE * big)


def _absorbed(g_lo, g_hi, q, q0, n, tiny, bits, max_cells, shift=0) -> Positive | None:
    r"""The enclosure with the sign-ambiguous tiny atoms moved into the zero mass.

    Write :math:`S = S' + Z`, :math:`S'` the sum with every user of an absorbed atom counted
    as 0 (a law with those probabilities added to the zero mass; the same coupling) and
    :math:`Z` the absorbed users' contribution.  From :math:`a_+ - b_- \le (a+b)_+ \le a_+ + b_+`,

    .. math::
        \mathbb{E}[S'_+] - n\sum_z q_z |g_{z,lo}| \le \mathbb{E}[S_+]
        \le \mathbb{E}[S'_+] + n\sum_z q_z\, g_{z,hi}

    (:math:`\mathbb{E}[Z_+] \le \sum_z n q_z \max(g_z, 0)`).  Used only when this additive term is
    below :data:`ABSORB_REL` of the value (else ``None``: the atoms are enumerated).  Such atoms
    are the float images of an exact 0 (e.g. :math:`\alpha=\beta` at :math:`\varepsilon=0`),
    whose enumeration would only multiply the number of cells.
    """
    ctx.prec = 128
    add_hi = arb(n) * sum(
        (arb(float(a)) * arb(float(b)) for a, b in zip(q[tiny], g_hi[tiny])), arb(0)
    )
    add_lo = arb(n) * sum(
        (arb(float(a)) * arb(float(-b)) for a, b in zip(q[tiny], g_lo[tiny])), arb(0)
    )
    parts = (float(q0),) + tuple(float(v) for v in q[tiny])
    keep = ~tiny
    if not np.any(g_hi[keep] > 0):
        base = Positive(arb(0), arb(0), arb(0), 0, 0.0)
    elif not np.any(g_hi[keep] < 0):
        return None
    else:
        base = _expected(g_lo[keep], g_hi[keep], q[keep], parts, n, bits, max_cells, shift)
    hi = arb((base.hi + add_hi).upper())
    if float_up(add_hi + add_lo) > ABSORB_REL * float_up(hi):
        return None
    lo = base.lo - add_lo
    lo = arb(lo.lower()) if lo > 0 else arb(0)
    return Positive(lo, hi, arb((base.budget + add_hi).upper()), base.cells, base.bits)


def _expected(g_lo, g_hi, q, q0: tuple, n, bits, max_cells, shift: int = 0) -> Positive:
    """:func:`expected_positive_part` for a law with both signs; ``q0``: the zero mass in parts;
    ``shift``: the atoms are the true ones times ``2^-shift``."""
    g_lo, g_hi, q = coarsen(g_lo, g_hi, q, n, 64.0 if bits is None else float(bits))
    hint_key = (int(n), q.tobytes(), tuple(q0))
    b = max(64.0, _BITS_HINT.get(hint_key, 64.0)) if bits is None else float(bits)
    scale = math.log2(n * max(float(np.max(g_hi)), 1e-300))
    floor = scale - b - 40
    if len(q) > 3:
        # many atoms: a coarse pass first, to prune states relative to the value
        coarse = _evaluate(g_lo, g_hi, q, q0, n, 40.0, max_cells, scale - 30)
        if coarse.lo > 0:
            floor = max(floor, float(coarse.lo.log().mid()) * LOG2E - 64)
    while True:
        res = _evaluate(g_lo, g_hi, q, q0, n, b, max_cells, floor)
        if bits is not None or b >= MAX_BITS:
            return res
        hi = res.hi.upper()
        if (
            res.budget.upper() <= REL_TARGET * hi
            or hi == 0
            or hi * arb(2) ** shift < TINY_VALUE * n
        ):
            if len(_BITS_HINT) > 256:
                _BITS_HINT.clear()
            _BITS_HINT[hint_key] = b
            return res
        need = float_up((res.budget.upper() / (REL_TARGET * hi)).log() * LOG2E)
        # depths on a 32-bit grid, so that nearby evaluations share their rows
        b = min(MAX_BITS, 32.0 * math.ceil((b + max(32.0, need + 16.0)) / 32.0))
        floor = min(floor, float(res.hi.log().mid()) * LOG2E - b)


#: Depth that sufficed last time for a law's probabilities and n: the next evaluation (the next
#: point of a curve, the next step of an inversion) starts there instead of at 64 bits.  Any
#: depth gives a certified enclosure; this only saves passes.
_BITS_HINT: dict = {}

MAX_BOX = 1e11  # coarsen the law while its outer windows span more cells than this
CHUNK_CELLS = 1_000_000  # children expanded at once


def _box(g_hi, q, n, bits) -> float:
    """Rough number of outer cells: product of the window widths of all but the inner atom."""
    L = bits * math.log(2.0)
    neg = [i for i in range(len(q)) if g_hi[i] < 0]
    inner = max(neg, key=lambda i: q[i]) if neg else -1
    out = 1.0
    for i in range(len(q)):
        if i != inner:
            var = n * q[i] * (1 - q[i])
            out *= min(n + 1, 2 * (L / 3 + math.sqrt(L * L / 9 + 2 * L * var)) + 1)
    return out


def coarsen(g_lo, g_hi, q, n, bits):
    r"""Merge atoms until the enumeration is affordable (:data:`MAX_BOX`).

    Two atoms of the same sign (by ``g_hi``) adjacent in value become one atom with the summed
    probability and the interval :math:`[\min g_{lo}, \max g_{hi}]`.  Every law with atoms in the
    original intervals is one with atoms in the merged ones, and the enclosure is valid for
    every law in the box (the expectation is monotone in each atom), so merging keeps the
    certificate and only loosens the bounds.  The pair merged is the one whose merged interval
    costs least (probability times width).
    """
    g_lo, g_hi, q = list(g_lo), list(g_hi), list(q)
    while len(q) > 2 and _box(np.array(g_hi), np.array(q), n, bits) > MAX_BOX:
        idx = sorted(range(len(q)), key=lambda i: g_hi[i])
        best = None
        for a, b in zip(idx, idx[1:]):
            if (g_hi[a] > 0) != (g_hi[b] > 0):
                continue
            cost = (q[a] + q[b]) * (max(g_hi[a], g_hi[b]) - min(g_lo[a], g_lo[b]))
            if best is None or cost < best[0]:
                best = (cost, a, b)
        if best is None:
            break
        _, a, b = best
        g_lo[a], g_hi[a], q[a] = min(g_lo[a], g_lo[b]), max(g_hi[a], g_hi[b]), q[a] + q[b]
        del g_lo[b], g_hi[b], q[b]
    return np.array(g_lo), np.array(g_hi), np.array(q)


def _evaluate(g_lo, g_hi, q, q0, n, bits, max_cells, floor) -> Positive:
    ctx.prec = 128
    order = _order(g_hi)
    gl, gh, qq = g_lo[order], g_hi[order], q[order]
    r = len(qq)
    # inner atom: the non-positive atom (by g_hi) with the largest probability and g_hi < 0
    negs = [i for i in range(r) if gh[i] < 0]
    inner = max(negs, key=lambda i: qq[i])
    levels = [i for i in range(r) if i != inner]
    seq = levels + [inner]
    qa = [arb(float(v)) for v in qq]
    rest = sum((arb(float(v)) for v in q0), arb(0))
    q0 = math.fsum(q0)  # float zero mass (heuristics and the settling bounds)
    exact_zero = rest == 0
    rhos, comps = {}, {}
    for i in reversed(seq):  # rho_j = q_j / (q0 + sum of this and later atoms)
        before = rest
        rest = rest + qa[i]
        rhos[i] = qa[i] / rest
        comps[i] = before / rest  # 1 - rho_j without cancellation (rho_j may be 1 - 1e-35)
    cu, cd = -float(gh[inner]), -float(gl[inner])  # |c| for the upper / lower direction

    # state arrays: counts-driven partial sums (upper and lower atoms), users used, weight
    s = np.zeros(1, dtype=np.int64)
    xu = np.zeros(1)
    xd = np.zeros(1)
    ab = np.zeros(1)  # sum |g| N, for the float error of the partial sums
    wm = np.full(1, 0.5)
    we = np.ones(1, dtype=np.int64)
    kap = 0.0  # relative error of the weights (upper direction)
    budget_m, budget_e = [], []  # absolute tail terms of the upper bound (scaled pairs)
    settled = {"um": [], "ue": [], "dm": [], "de": [], "cells": [0, max_cells]}
    for pos, j in enumerate(levels):
        later = [gh[i] for i in seq[pos + 1 :]]
        positive = gh[j] > 0
        if positive:
            D = float(gh[j] - min(0.0, *later)) if later else float(gh[j])
            bl, bh = SHALLOW_BITS, bits
        else:
            D = float(max(0.0, *later) - gh[j]) if later else float(-gh[j])
            bl, bh = bits, SHALLOW_BITS
        rows = rows_for(rhos[j], bl, bh, comps[j])
        uniq, inv = np.unique(s, return_inverse=True)
        # the memory guard first, from the windows' planned widths (rows are never wider);
        # the time guard counts the children actually expanded (_expand)
        _, plo, phi = windows(n - uniq, float(rows.p.ball.mid()), bl, bh)
        planned = int((phi - plo + 1).sum())
        if planned > MAX_ROW_FLOATS:
            raise OverflowError(f"{planned} row entries")
        rl = [rows.meta(n - int(v)) for v in uniq]
        widths = np.array([row.hi - row.lo + 1 for row in rl], dtype=np.int64)[inv]
        offs, (flat,) = rows.offsets("outer", [n - int(v) for v in uniq])
        lo_of = np.array([row.lo for row in rl], dtype=np.int64)[inv]
        E_of = np.array([row.E for row in rl], dtype=np.int64)[inv]
        rlo = np.array([row.r_lo for row in rl])[inv]
        rhi = np.array([row.r_hi for row in rl])[inv]
        kap = (1 + kap) * (1 + max(row.kappa for row in rl)) * (1 + U) - 1
        # absolute budget on the deep side: w * pmf(edge) * D * r/(1-r)^2
        deep_r = rhi if positive else rlo
        hi_of = lo_of + widths - 1
        edge_idx = offs[inv] + (widths - 1 if positive else 0)
        edge_v = flat[edge_idx]
        ok = deep_r < 1
        if not np.all(ok):
            raise ArithmeticError("a window edge is not in a tail (ratio >= 1)")
        bterm = edge_v * D * deep_r / (1 - deep_r) ** 2 * (1 + 1e-9) * (1 + kap)
        bm, be = np.frexp(wm * bterm)
        budget_m.append(bm)
        budget_e.append(we + be + E_of)
        # children, expanded in chunks of parents (bounded memory), then settled and pruned
        if pos == 0:
            wmd, wed = wm, we
        row_off = offs[inv]
        runs = None
        if not positive and pos + 1 < len(seq) - 0 and seq[pos + 1 :]:
            runs = gamma_n(max(row.size for row in rl) + 4)
        cum = np.cumsum(widths)
        parts = []
        first = 0
        while first < s.size:
            last = int(
                np.searchsorted(cum, (cum[first - 1] if first else 0) + CHUNK_CELLS, side="right")
            )
            last = max(last, first + 1)
            sl = slice(first, last)
            parts.append(
                _expand(
                    sl,
                    widths,
                    lo_of,
                    E_of,
                    rlo,
                    rhi,
                    row_off,
                    flat,
                    s,
                    xu,
                    xd,
                    ab,
                    wm,
                    we,
                    wmd,
                    wed,
                    gh[j],
                    gl[j],
                    seq[pos + 1 :],
                    gl,
                    gh,
                    qq,
                    q0,
                    n,
                    r,
                    bits,
                    kap,
                    floor,
                    settled,
                    budget_m,
                    budget_e,
                    runs,
                )
            )
            first = last
        s, xu, xd, ab, wm, we, wmd, wed = (
            np.concatenate([pt[i] for pt in parts]) for i in range(8)
        )
        del hi_of
        if s.size == 0:
            break
    if not levels:
        wmd, wed = wm, we
    # ------------------------------------------------------------- inner level
    ex = 4 * (r + 2) * U * ab * (1 + 1e-9)  # float error of the partial sums
    if s.size == 0:
        hu_m = hu_e = hd_m = hd_e = np.zeros(0)
        hu_e = hd_e = np.zeros(0, dtype=np.int64)
        kF, extra = 0.0, None
    elif exact_zero:
        # the inner atom takes every remaining user (rho = 1): h = (x - |c| m)_+ exactly
        mf = (n - s).astype(np.float64)
        e2 = 4 * U * (np.abs(xu) + ex + cu * mf)
        hu_m, hu_e = np.frexp(np.maximum(xu + ex - cu * mf + e2, 0.0))
        e2 = 4 * U * (np.abs(xd) + ex + cd * mf)
        hd_m, hd_e = np.frexp(np.maximum(xd - ex - cd * mf - e2, 0.0))
        kF, extra = 0.0, None
    else:
        rows = rows_for(rhos[inner], bits, SHALLOW_BITS, comps[inner])
        hu_m, hu_e, hd_m, hd_e, kF, extra = _inner(rows, n - s, xu + ex, xd - ex, cu, cd, n)
    if extra is not None:  # absolute pieces of the upper bound
        tm, te = np.frexp(wm[extra[0]] * extra[1])
        budget_m.append(tm)
        budget_e.append(we[extra[0]] + te + extra[2])
    # contributions (enumerated states and settled ones)
    cm_u, ce_u = np.frexp(wm * hu_m)
    ce_u = ce_u + we + hu_e
    cm_d, ce_d = np.frexp(wmd * hd_m)
    ce_d = ce_d + wed + hd_e
    cm_u = np.concatenate([cm_u] + settled["um"])
    ce_u = np.concatenate([ce_u] + settled["ue"])
    cm_d = np.concatenate([cm_d] + settled["dm"])
    ce_d = np.concatenate([ce_d] + settled["de"])
    up, g_up = _scaled_sum(cm_u, ce_u)
    dn, g_dn = _scaled_sum(cm_d, ce_d)
    if budget_m:
        bud, _ = _scaled_sum(np.concatenate(budget_m), np.concatenate(budget_e))
        bud = arb(bud.upper())
    else:
        bud = arb(0)
    # relative errors: weights (kap per level, and the lower weights' own), inner tables, frexp
    kap_all = (1 + kap) * (1 + kF) * (1 + 4 * U) - 1
    hi = arb(up.upper()) * (1 + arb(kap_all)) * (1 + arb(1e-12)) + bud
    lo_val = dn.lower() * (1 - arb(kap_all)) * (1 - arb(1e-12))
    lo_val = lo_val if lo_val > 0 else arb(0)
    return Positive(arb(lo_val), arb(hi.upper()), bud, int(s.size), bits)


INNER_CHUNK = 4_000_000  # floats of row tables held at once
ANCHOR_SPAN = 32  # inner rows m = M - t, 0 <= t < 32, are derived from the row M
ANCHOR_MIN_ROWS = 8 * ANCHOR_SPAN  # with fewer distinct inner rows every row is tabulated


@dataclass
class InnerResult:
    """What :func:`_inner` returns, filled cell by cell (see :func:`_cell_bounds`)."""

    hu_m: np.ndarray
    hu_e: np.ndarray
    hd_m: np.ndarray
    hd_e: np.ndarray
    kF: float = 0.0
    ext_i: list = field(default_factory=list)
    ext_v: list = field(default_factory=list)
    ext_E: list = field(default_factory=list)

    @classmethod
    def empty(cls, size: int) -> InnerResult:
        return cls(
            np.zeros(size),
            np.zeros(size, dtype=np.int64),
            np.zeros(size),
            np.zeros(size, dtype=np.int64),
        )

    def tuple(self):
        extra = None
        if self.ext_i:
            extra = (
                np.concatenate(self.ext_i),
                np.concatenate(self.ext_v),
                np.concatenate(self.ext_E),
            )
        return self.hu_m, self.hu_e, self.hd_m, self.hd_e, self.kF, extra


def _inner(rows: Rows, mprime, x_up, x_dn, cu: float, cd: float, n: int):
    r"""Per cell: :math:`h` at the upper partial sum (upper bound) and at the lower one (lower
    bound), as (mantissa, exponent) pairs, plus the absolute pieces of the upper bound
    (cells whose inner count falls outside its window).

    With many distinct inner rows (large ``n``) only every :data:`ANCHOR_SPAN`-th row is
    tabulated and the others are derived from it (:func:`_inner_anchored`); otherwise every row
    is (:func:`_inner_tabulated`)."""
    res = InnerResult.empty(mprime.size)
    uniq, inv = dense_unique(mprime)
    if uniq.size >= ANCHOR_MIN_ROWS:
        _inner_anchored(rows, mprime, x_up, x_dn, cu, cd, res, int(n))
    else:
        _inner_tabulated(rows, mprime, uniq, inv, x_up, x_dn, cu, cd, res)
    return res.tuple()


def dense_unique(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(v, return_inverse=True)`` for integers spanning a short range (counts of
    users: the range is a window's width), in linear time."""
    if v.size == 0:
        return v.astype(np.int64), np.zeros(0, dtype=np.int64)
    lo = int(v.min())
    span = int(v.max()) - lo + 1
    if span > 8 * v.size + 1024:
        return np.unique(v, return_inverse=True)
    present = np.bincount(v - lo, minlength=span) > 0
    index = np.cumsum(present) - 1
    return np.nonzero(present)[0].astype(np.int64) + lo, index[v - lo]


def group_starts(inv: np.ndarray, groups: int) -> tuple[np.ndarray, np.ndarray]:
    """Cells ordered by group (stable) and where each group starts in that order."""
    order = np.argsort(inv, kind="stable")
    starts = np.zeros(groups + 1, dtype=np.int64)
    np.cumsum(np.bincount(inv, minlength=groups), out=starts[1:])
    return order, starts


def _floor_ratio(x, c):
    """``(pos, ratio, Kt)``: cells with ``x > 0``, ``x/c`` and its floor (capped at 2^52)."""
    pos = x > 0
    ratio = np.where(pos, x / c, 0.0)
    return pos, ratio, np.floor(np.minimum(ratio, 2.0**52)).astype(np.int64)


def _cell_bounds(
    res: InnerResult,
    up: bool,
    cells,
    x,
    c: float,
    ratio,
    Kt,
    inside,
    above,
    below,
    g: dict,
    lookup,
    mprime_c,
    rho_lo: float,
    rho_hi: float,
) -> None:
    r"""The enclosure of :math:`h(x, m')` of one direction for a group of cells.

    ``g`` holds per-row arrays (cell ``i`` reads row ``g["index"][i]``): the window ``lo``,
    scale ``E``, relative error ``kr``, the tail bounds ``t_lo`` (:math:`P(W<lo)`), ``m_lo``
    (:math:`\sum_{i<lo}F(i)`, plus ``m_lo_slope`` times the cell's ``t`` when present), ``t_hi``
    (:math:`P(W>J)` for the cells above) and ``p_lo1`` (:math:`P(W\le J)` for the cells
    below); ``lookup(K, dK, up, w)`` gives the windowed :math:`F(K)` and :math:`F_2(K-1)` of
    the inside cells ``w`` (the module docstring's formula at :math:`K=\tilde K+dK`)."""
    gi = g["index"]
    w = np.where(inside)[0]  # the formula is needed only inside the window
    wi = gi[w]
    lo, kr, t_lo, xw = g["lo"][wi], g["kr"][wi], g["t_lo"][wi], x[w]
    m_lo = g["m_lo"][wi]
    if "t" in g:
        m_lo = m_lo + g["m_lo_slope"][wi] * g["t"][w]
    best = np.zeros(w.size)
    for dK in (-1, 0, 1):
        K, Fi, F2i = lookup(Kt[w] + dK, dK, up, w)
        i = K - lo
        A = xw - c * K
        eA = 4 * U * (np.abs(xw) + c * np.abs(K))
        if up:
            Fu = (Fi + t_lo) * (1 + kr)
            Au = A + eA
            term = np.where(Au >= 0, Au * Fu, Au * Fi * (1 - kr)) + c * (
                F2i * (1 + kr) + m_lo + np.maximum(i, 0) * t_lo
            )
            term = term * (1 + 8 * U)
        else:
            Ad = A - eA
            term = np.where(Ad >= 0, Ad * Fi * (1 - kr), Ad * (Fi + t_lo) * (1 + kr)) + c * F2i * (
                1 - kr
            )
            term = term * (1 - 8 * U)
        best = np.maximum(best, term)
    mi, ei = np.frexp(best)
    a = np.where(above)[0]
    xa, ma_ = x[a], mprime_c[a].astype(np.float64)
    if up:
        lin = xa - c * ma_ * rho_lo + 4 * U * (np.abs(xa) + c * ma_ * rho_hi)
    else:
        lin = xa - c * ma_ * rho_hi - 4 * U * (np.abs(xa) + c * ma_ * rho_hi)
    ma, ea = np.frexp(np.maximum(lin, 0.0))
    hm = np.zeros(cells.size)
    he = np.zeros(cells.size, dtype=np.int64)
    E = g["E"]
    hm[w], he[w] = mi, ei + E[wi]
    hm[a], he[a] = ma, ea
    if not up:
        res.hd_m[cells], res.hd_e[cells] = hm, he
        return
    res.hu_m[cells], res.hu_e[cells] = hm, he
    # absolute pieces: above, |c| m' P(W > J); below, x P(W <= J)
    ai = gi[a]
    t_hi = g["t_hi"][ai]
    sel = t_hi > 0
    res.ext_i.append(cells[a[sel]])
    res.ext_v.append(c * ma_[sel] * t_hi[sel] * (1 + 4 * U))
    res.ext_E.append(E[ai[sel]])
    b = np.where(below)[0]
    res.ext_i.append(cells[b])
    res.ext_v.append(x[b] * g["p_lo1"][gi[b]] * (1 + 4 * U))
    res.ext_E.append(E[gi[b]])


def row_chunks(rows: Rows, uniq: np.ndarray, inv: np.ndarray):
    """Rows ``uniq`` (the cells' rows are ``uniq[inv]``) in chunks of about
    :data:`INNER_CHUNK` table floats: yields ``(chunk, cells, index)``, with ``cells`` the
    cells of the chunk and ``index`` each one's row within the chunk (a single chunk keeps
    the cells in their own order, with no sort)."""
    chunks, t = [], 0
    while t < uniq.size:
        chunk, floats = [], 0
        while t < uniq.size and (not chunk or floats < INNER_CHUNK):
            chunk.append(rows.meta(int(uniq[t])))
            floats += chunk[-1].size
            t += 1
        chunks.append(chunk)
    if len(chunks) == 1:
        yield chunks[0], np.arange(inv.size), inv
        return
    order, starts = group_starts(inv, uniq.size)
    t0 = 0
    for chunk in chunks:
        t = t0 + len(chunk)
        cells = order[starts[t0] : starts[t]]
        yield chunk, cells, inv[cells] - t0
        t0 = t


def _inner_tabulated(rows: Rows, mprime, uniq, inv, x_up, x_dn, cu, cd, res) -> None:
    """:func:`_inner` with the tables of every row (pooled across evaluations)."""
    for chunk, cells, ri in row_chunks(rows, uniq, inv):
        tb = _chunk_tables(rows, chunk)
        sizes, offs, F, F2, kap_r = tb["sizes"], tb["offs"], tb["F"], tb["F2"], tb["kap_r"]
        res.kF = max(res.kF, float(kap_r.max()))
        g = dict(
            index=ri,
            lo=tb["lo"],
            E=tb["E"],
            kr=kap_r,
            t_lo=tb["t_lo"],
            m_lo=tb["m_lo"],
            t_hi=tb["t_hi"],
            p_lo1=tb["t_lo"] + tb["p0"],
        )  # P(W <= lo)
        lo, hi = tb["lo"][ri], tb["hi"][ri]

        def lookup(K, dK, up, w):
            # K in [lo - 1, hi + 1]: i = -1 means F(lo-1) <= t_lo, F2(lo-2) <= m_lo;
            # i = N means F(hi+1) <= F(hi) + t_hi, F2(hi) = F2(hi - 1) + F(hi)
            rw = ri[w]
            lw, Nw, bw = tb["lo"][rw], sizes[rw], offs[rw]
            K = np.clip(K, lw - 1, tb["hi"][rw] + 1)
            i = K - lw
            ic = np.clip(i, 0, Nw - 1)
            Fi = np.where(i >= 0, F[bw + ic], 0.0)
            F2i = np.where(i >= 1, F2[bw + np.clip(i - 1, 0, Nw - 1)], 0.0)
            if up:
                Fi = Fi + np.where(i >= Nw, tb["t_hi"][rw], 0.0)
            return K, Fi, F2i

        mprime_c = mprime[cells]
        for up, xs, c in ((True, x_up, cu), (False, x_dn, cd)):
            x = xs[cells]
            pos, ratio, Kt = _floor_ratio(x, c)
            above = pos & ((ratio >= 2.0**52) | (Kt >= hi + 1))
            below = pos & ~above & (Kt <= lo - 1)
            inside = pos & ~above & ~below
            _cell_bounds(
                res,
                up,
                cells,
                x,
                c,
                ratio,
                Kt,
                inside,
                above,
                below,
                g,
                lookup,
                mprime_c,
                rows.p.lo,
                rows.p.hi,
            )


def _inner_anchored(rows: Rows, mprime, x_up, x_dn, cu, cd, res, n_top: int) -> None:
    r""":func:`_inner` from one tabulated row in every :data:`ANCHOR_SPAN` (``T``).

    The row of :math:`m' = M - t` (:math:`M = n - T\lfloor (n-m')/T\rfloor` on a grid fixed by
    :math:`n`, so anchors are shared across evaluations; :math:`0\le t<T`) is read from the
    tables of the anchor row :math:`M` (window :math:`[lo, hi]`, pmf, :math:`F`, :math:`F_2`)
    through Pascal's rule, which only *adds* non-negative terms when :math:`m` decreases:

    .. math::
        \mathrm{pmf}_{k-1}(j) = \mathrm{pmf}_k(j)\,\frac{(k-j)_+}{k(1-\rho)},\qquad
        F_{k-1}(j) = F_k(j) + \rho\,\mathrm{pmf}_{k-1}(j),\qquad
        F_{2,k-1}(j) = F_{2,k}(j) + \rho\,F_{k-1}(j).

    Applied to the windowed sums of the anchor these give the windowed sums of row :math:`m'`
    plus exactly the anchor's lower-tail terms: :math:`F_{m'}(j)\in[F^{der}(j),
    F^{der}(j)+t_{lo}]` and :math:`F_{2,m'}(j)\le F_2^{der}(j)+m_{lo}+(j-lo+1)t_{lo}+\rho\,t\,
    t_{lo}`.  Each walked value carries the anchor's relative error, :math:`t` ratio steps
    (:math:`3u` plus the error of :math:`1/(1-\rho)` each) and the sums' :math:`\gamma`.  The
    tails use monotonicity in :math:`m` (a smaller :math:`m` makes :math:`W` stochastically
    smaller): :math:`P_{m'}(W>J)\le P_M(W>hi-3)` for the cells with :math:`\tilde K\ge hi-2`
    (treated as *above*), and :math:`P_{m'}(W\le lo)`, :math:`F_{2,m'}(lo-1)` are at most their
    values at the block's lowest row, walked once per anchor at :math:`j=lo` (cells with
    :math:`\tilde K\le lo` are *below*).  Only the inside cells are walked, at the four counts
    :math:`\tilde K-2..\tilde K+1` the formula reads.
    """
    T = ANCHOR_SPAN
    d = n_top - mprime
    anchor_m = n_top - T * (d // T)
    tt = (d % T).astype(np.int64)
    uniq, inv = dense_unique(anchor_m)
    p = rows.p
    step_err = growth(T, 3 * U + p.inv_q_err)
    for chunk, cells, ai in row_chunks(rows, uniq, inv):
        tb = _chunk_tables(rows, chunk, kind="anchor")
        P, F, F2 = tb["P"], tb["F"], tb["F2"]
        kap_a = tb["kap_r"]
        kr_row = (1 + kap_a) * (1 + step_err) * (1 + p.rho_err + 2 * U) ** 2 * (
            1 + gamma_n(2 * T + 4)
        ) ** 3 * (1 + 1e-12) - 1
        res.kF = max(res.kF, float(kr_row.max()))
        lo_r, hi_r, offs = tb["lo"], tb["hi"], tb["offs"]
        Mr = np.array([row.m for row in chunk], dtype=np.int64)
        # per anchor: P(W > hi - 3) at M, and the j = lo walk down to M - T + 1
        tail3 = (
            np.array(
                [
                    P[o + max(h - l - 2, 0) : o + h - l + 1].sum()
                    for o, l, h in zip(offs, lo_r, hi_r)
                ]
            )
            * (1 + tb["kap_row"])
            * (1 + 4 * U)
            + tb["t_hi"]
        )
        t_c = tt[cells]
        # the lowest row a block may hold: M - (T - 1), or row 0 (the walk's k stays >= 1)
        t_max = np.minimum(T - 1, Mr)
        wF, wF2 = _walk(
            P[offs], F[offs], F2[offs], Mr.astype(np.float64), lo_r.astype(np.float64), t_max, p
        )
        PL = (wF + tb["t_lo"]) * (1 + kr_row)  # >= P_m(W <= lo)
        mlo_top = (wF2 + tb["m_lo"] + tb["t_lo"] * (1 + p.hi * t_max)) * (1 + kr_row)
        lo, hi = lo_r[ai], hi_r[ai]
        g = dict(
            index=ai,
            lo=lo_r,
            E=tb["E"],
            kr=kr_row,
            t_lo=tb["t_lo"],
            t_hi=tail3,
            p_lo1=PL,
            t=t_c,
            # i >= 1 needs m_lo(M) + rho t t_lo; i = 0 needs F2_m(lo - 1) <= mlo_top
            m_lo=(tb["m_lo"] + mlo_top) * (1 + 1e-12),
            m_lo_slope=p.hi * tb["t_lo"] * (1 + 1e-12),
        )
        mprime_c = mprime[cells]
        for up, xs, c in ((True, x_up, cu), (False, x_dn, cd)):
            x = xs[cells]
            pos, ratio, Kt = _floor_ratio(x, c)
            above = pos & ((ratio >= 2.0**52) | (Kt >= hi - 2))
            below = pos & ~above & (Kt <= lo)
            inside = pos & ~above & ~below
            w = np.where(inside)[0]  # the same cells _cell_bounds reads
            lw, aw = lo[w], ai[w]
            # the four counts K~-2 .. K~+1 of each inside cell, walked together
            j = np.clip(Kt[w] + np.arange(-2, 2)[:, None], lw, hi[w])
            o = offs[aw] + (j - lw)
            cols_F, cols_F2 = _walk(P[o], F[o], F2[o], Mr[aw], j, t_c[w], p)

            def lookup(K, dK, up, w, cols_F=cols_F, cols_F2=cols_F2, lw=lw):
                q = dK + 2
                return K, cols_F[q], np.where(K - lw >= 1, cols_F2[q - 1], 0.0)

            _cell_bounds(
                res,
                up,
                cells,
                x,
                c,
                ratio,
                Kt,
                inside,
                above,
                below,
                g,
                lookup,
                mprime_c,
                p.lo,
                p.hi,
            )


def _walk(pmf, F, F2, M, j, steps, p: Param):
    """Pascal's rule from row ``M`` down to row ``M - steps`` at fixed counts ``j``: the
    windowed ``F`` and ``F2`` of the lower row (see :func:`_inner_anchored`).

    Arrays are indexed by cell along the last axis (``M`` and ``steps`` per cell); ``pmf``,
    ``F``, ``F2`` and ``j`` may carry several counts per cell along a first axis."""
    order = np.argsort(-np.asarray(steps), kind="stable")
    pmf, F, F2, j = (np.array(v, dtype=np.float64)[..., order] for v in (pmf, F, F2, j))
    M = np.asarray(M, dtype=np.float64)[order]
    st = np.asarray(steps)[order]
    top = int(st[0]) if st.size else 0
    for s in range(1, top + 1):
        act = int(np.searchsorted(-st, -s, side="right"))  # st sorted descending
        k = M[:act] - (s - 1)
        pmf[..., :act] *= np.maximum(k - j[..., :act], 0.0) / k * p.inv_q
        F[..., :act] += p.rho * pmf[..., :act]
        F2[..., :act] += p.rho * F[..., :act]
    back = np.empty_like(order)
    back[order] = np.arange(order.size)
    return F[..., back], F2[..., back]


def _chunk_tables(rows: Rows, chunk: list, kind: str = "inner") -> dict:
    """The cumulative tables of a chunk of inner rows (offsets into the family's pool ``kind``,
    see :meth:`Rows.offsets`) and their per-row edge bounds (as in :func:`_inner`)."""
    offs, arrays = rows.offsets(kind, [row.m for row in chunk])
    tabs = dict(zip(("F", "F2") if kind == "inner" else ("P", "F", "F2"), arrays))
    sizes = np.array([row.size for row in chunk], dtype=np.int64)
    kap_row = np.array([row.kappa for row in chunk])
    rlo = np.array([row.r_lo for row in chunk])
    rhi = np.array([row.r_hi for row in chunk])
    p0 = np.array([row.first for row in chunk]) * (1 + kap_row)
    pe = np.array([row.last for row in chunk]) * (1 + kap_row)
    return dict(
        sizes=sizes,
        offs=offs,
        kap_row=kap_row,
        **tabs,
        kap_r=np.array([(1 + row.kappa) * (1 + gamma_n(row.size)) ** 2 - 1 for row in chunk]),
        lo=np.array([row.lo for row in chunk], dtype=np.int64),
        hi=np.array([row.hi for row in chunk], dtype=np.int64),
        E=np.array([row.E for row in chunk], dtype=np.int64),
        p0=p0,
        t_lo=p0 * rlo / (1 - rlo) * (1 + 1e-12),
        m_lo=p0 * rlo / (1 - rlo) ** 2 * (1 + 1e-12),
        t_hi=pe * rhi / (1 - rhi) * (1 + 1e-12),
    )  # P(W > hi)


def _settle(later, gl, gh, qq, q0, n, s, xu, xd, ab, r, wm, we, wmd, wed, bits, settled):
    r"""Settle the states whose remaining users cannot change the sign of :math:`S`.

    Given a state (partial sum :math:`x`, :math:`m` users left, i.i.d. from the conditional law
    of the later atoms and 0, mean :math:`\mu`, variance :math:`\sigma^2`, :math:`|G-\mu|\le b`):

    * *dead*: :math:`x + m\max(0, g_{>}) \le 0`, so :math:`S \le 0` and the contribution is 0;
    * *linear*: :math:`D = x + m\mu > 0` and, by Bernstein's inequality
      :math:`P(S \le D - t) \le e^{-f(t)}`, :math:`f(t) = t^2/(2(m\sigma^2 + bt/3))` (convex,
      increasing), :math:`\mathbb{E}[S_-] = \int_D^\infty P(S\le D-t)\,dt \le e^{-f(D)}/f'(D)`,
      which is below :math:`2^{-\mathrm{bits}} D`.  Then :math:`\mathbb{E}[S_+] = D + \mathbb{E}[S_-]
      \in [D, D + e^{-f(D)}/f'(D)]` (upper atoms for the upper end; the lower end is
      :math:`\max(D_{lo}, 0)` by Jensen, valid for every state).

    The exponent is lowered by a relative :math:`10^{-6}` and the bound raised by
    :math:`10^{-6}`, which covers the float evaluation of :math:`f`, exp and log many times
    over.  Returns the mask of states kept for enumeration (``None``: keep all).
    """
    if not later:
        return None
    dead, lin, D_up, D_dn, tail = settle_tests(later, gl, gh, qq, q0, n, s, xu, xd, ab, r, bits)
    if not (np.any(lin) or np.any(dead)):
        return None
    if np.any(lin):
        um, ue = np.frexp(wm[lin] * (D_up[lin] + tail[lin]))
        dm, de = np.frexp(wmd[lin] * D_dn[lin])
        settled["um"].append(um)
        settled["ue"].append(ue + we[lin])
        settled["dm"].append(dm)
        settled["de"].append(de + wed[lin])
    return ~(lin | dead)


def later_law(later, gl, gh, qq, q0):
    """Per direction: float mean, variance bound, deviation bound, mean margin of the later law."""
    lat = list(later)
    tot = q0 + float(sum(qq[i] for i in lat))
    p = np.array([qq[i] / tot for i in lat])
    out = {}
    for tag, g in (("u", gh), ("d", gl)):
        gg = np.array([g[i] for i in lat])
        mu = float(np.dot(p, gg))
        var = float(np.dot(p, gg * gg)) - mu * mu
        scale = float(np.dot(p, np.abs(gg)))
        b = max(float(np.max(np.abs(gg - mu))), abs(mu)) * (1 + 1e-9) + 1e-300
        out[tag] = (mu, max(var, 0.0) * (1 + 1e-9) + 4 * U * scale * scale, b, 1e-12 * scale)
    return out


def upper_state(law: dict, later, gh, n, s, xu, ab, r):
    """The upper-atom view of states shared by the settling tests: ``dead`` (the largest
    remaining atoms cannot make the sum positive), the mean ``D`` (with the float partial sums'
    error and the later law's mean margin, rounded up), the variance ``V`` and the deviation
    bound ``b`` of the remaining users (:func:`later_law`)."""
    m = (n - s).astype(np.float64)
    ex = 4 * (r + 2) * U * ab * (1 + 1e-9)
    mu_u, var_u, b_u, dmu_u = law["u"]
    gmax = max(0.0, max(gh[i] for i in later))
    dead = (xu + ex + m * gmax) * (1 + 4 * U) <= 0
    D = (xu + ex + m * (mu_u + dmu_u)) * (1 + 4 * U)
    return dead, D, m * var_u, b_u


def bernstein_excess(u, V, b):
    r""":math:`e^{-f(u)}/f'(u)` for :math:`f(u) = u^2/(2(V + bu/3))` (convex, increasing on
    :math:`u > 0`), which bounds :math:`\int_u^\infty e^{-f}` and so the mass of a sum with
    variance :math:`V` and deviations :math:`\le b` beyond :math:`u` from its mean (Bernstein).
    The exponent is lowered and the result raised by a relative 1e-6, which covers the float
    evaluation of :math:`f`, exp and log many times over."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        den = V + b * u / 3
        f = u * u / (2 * den) * (1 - 1e-6)
        fprime = u * (V + b * u / 6) / (den * den) * (1 - 1e-6)
        return np.exp(-f) / fprime * (1 + 1e-6)


def settle_tests(later, gl, gh, qq, q0, n, s, xu, xd, ab, r, bits):
    """Masks ``dead``, ``lin`` and the bounds ``D_up``, ``D_dn``, ``tail`` of :func:`_settle`."""
    law = later_law(later, gl, gh, qq, q0)
    dead, D_up, V, b_u = upper_state(law, later, gh, n, s, xu, ab, r)
    m = (n - s).astype(np.float64)
    ex = 4 * (r + 2) * U * ab * (1 + 1e-9)
    mu_d, _, _, dmu_d = law["d"]
    D_dn = (xd - ex + m * (mu_d - dmu_d)) * (1 - 4 * U) - 4 * U * np.abs(m * mu_d)
    tail = bernstein_excess(D_up, V, b_u)
    with np.errstate(invalid="ignore"):
        lin = (D_up > 0) & (D_dn > 0) & (tail <= 2.0**-bits * D_up)
    lin &= ~dead
    return dead, lin, D_up, D_dn, tail


def small_bound(later, gl, gh, qq, q0, n, s, xu, ab, r):
    r"""Upper bound on :math:`\mathbb{E}[S_+]` for states whose mean is negative (``inf`` where
    it is not, 0 where the dead test holds).

    With :math:`D = x + m\mu < 0` (upper atoms, :func:`upper_state`) and Bernstein's
    :math:`P(S - D \ge u) \le e^{-f(u)}`:
    :math:`\mathbb{E}[S_+] = \int_0^\infty P(S>t)\,dt \le \int_{|D|}^\infty e^{-f(u)}du
    \le e^{-f(|D|)}/f'(|D|)` (:func:`bernstein_excess`)."""
    dead, D, V, b_u = upper_state(later_law(later, gl, gh, qq, q0), later, gh, n, s, xu, ab, r)
    bound = bernstein_excess(np.maximum(-D, 0.0), V, b_u)
    bound = np.where(D < 0, np.where(np.isfinite(bound), bound, np.inf), np.inf)
    return np.where(dead, 0.0, bound)


def _expand(
    sl,
    widths,
    lo_of,
    E_of,
    rlo,
    rhi,
    row_off,
    flat,
    s,
    xu,
    xd,
    ab,
    wm,
    we,
    wmd,
    wed,
    gj_hi,
    gj_lo,
    later,
    gl,
    gh,
    qq,
    q0,
    n,
    r,
    bits,
    kap,
    floor,
    settled,
    budget_m,
    budget_e,
    runs=None,
):
    """Children of the parents ``sl`` at one level: weights, partial sums; settle and prune.

    With ``runs`` (a non-positive level), the settled runs at both ends of each parent's
    window are not expanded (:func:`_settled_runs`); only the children between are."""
    base = np.arange(s.size)[sl]
    first = np.zeros(base.size, dtype=np.int64)  # first child (relative to lo)
    w = widths[sl]
    if runs is not None and later:
        first, w = _settled_runs(
            base,
            widths,
            lo_of,
            E_of,
            rlo,
            row_off,
            flat,
            runs,
            s,
            xu,
            xd,
            ab,
            wm,
            we,
            wmd,
            wed,
            gj_hi,
            gj_lo,
            later,
            gl,
            gh,
            qq,
            q0,
            n,
            r,
            bits,
            settled,
            floor,
            budget_m,
            budget_e,
            kap,
        )
    total = int(w.sum())
    settled["cells"][0] += total
    if settled["cells"][0] > settled["cells"][1]:
        raise OverflowError(f"{settled['cells'][0]} cells")
    idx = np.repeat(base, w)
    start = np.repeat(np.cumsum(w) - w, w)
    k = np.arange(total) - start + np.repeat(first, w)
    kk = lo_of[idx] + k
    v = flat[row_off[idx] + k]
    # relative tail factors on both edges: edge child weight / (1 - r)
    fac = np.ones(total)
    at_lo = k == 0
    at_hi = k == widths[idx] - 1
    fac[at_lo] /= (1 - rlo[idx][at_lo]) * (1 - 1e-15)
    fac[at_hi] /= (1 - rhi[idx][at_hi]) * (1 - 1e-15)
    cwm, cwe = _frexp_mul(wm[idx], we[idx], v * fac, E_of[idx])
    cdm, cde = _frexp_mul(wmd[idx], wed[idx], v, E_of[idx])
    kkf = kk.astype(np.float64)
    cxu = xu[idx] + gj_hi * kkf
    cxd = xd[idx] + gj_lo * kkf
    cab = ab[idx] + max(abs(gj_hi), abs(gj_lo)) * kkf
    cs = s[idx] + kk
    keep = _settle(
        later, gl, gh, qq, q0, n, cs, cxu, cxd, cab, r, cwm, cwe, cdm, cde, bits, settled
    )
    if keep is not None:
        cs, cxu, cxd, cab, cwm, cwe, cdm, cde = (
            a[keep] for a in (cs, cxu, cxd, cab, cwm, cwe, cdm, cde)
        )
    # prune states whose whole possible contribution w (x_+ + gmax_rem m_rem) is below
    # 2^floor; the dropped bounds go to the budget (upper bound only)
    gmax_rem = max(0.0, *[gh[i] for i in later]) if later else 0.0
    cap = np.maximum(cxu + 4 * (r + 2) * U * cab, 0.0) + gmax_rem * (n - cs).astype(np.float64)
    cm, ce = np.frexp(cwm * cap * (1 + 8 * U) * (1 + kap))
    ce = ce + cwe
    small = (ce < floor) | (cm == 0)
    if np.any(small):
        budget_m.append(cm[small])
        budget_e.append(ce[small])
        keep = ~small
        cs, cxu, cxd, cab, cwm, cwe, cdm, cde = (
            a[keep] for a in (cs, cxu, cxd, cab, cwm, cwe, cdm, cde)
        )
    return cs, cxu, cxd, cab, cwm, cwe, cdm, cde


def _settled_runs(
    base,
    widths,
    lo_of,
    E_of,
    rlo,
    row_off,
    flat,
    runs,
    s,
    xu,
    xd,
    ab,
    wm,
    we,
    wmd,
    wed,
    gj_hi,
    gj_lo,
    later,
    gl,
    gh,
    qq,
    q0,
    n,
    r,
    bits,
    settled,
    floor=-math.inf,
    budget_m=None,
    budget_e=None,
    kap=0.0,
):
    r"""Settle whole runs of children of a non-positive level without expanding them.

    For a parent with window :math:`[lo, hi]` let :math:`S_k` be the sum given :math:`k` users of
    this atom :math:`g_j`.  Since :math:`g_j` is at most every later atom and 0, turning one
    later user into a :math:`g_j`-user lowers the sum, so (coupling) :math:`S_{k+1}\le S_k`.

    * *Dead or negligible tail.*  If the dead test of :func:`_settle` (a proven bound
      :math:`S_{k_d}\le 0`) holds at :math:`k_d`, then :math:`S_k \le 0` for every
      :math:`k\ge k_d` (also beyond the window): those children contribute 0 and are not
      generated.  Likewise if the parent's weight times the bound :math:`B` of
      :func:`small_bound` on :math:`\mathbb{E}[(S_{k_d})_+]` is below :math:`2^{floor}`: then
      :math:`\sum_{k\ge k_d}\mathrm{pmf}(k)\,\mathbb{E}[(S_k)_+]\le B` (each term is at most
      :math:`\mathbb{E}[(S_{k_d})_+]` and the pmf sums to at most 1), which goes to the upper
      bound's budget and is dropped from the lower one.  :math:`k_d` is found by bisection on
      the test (the test is only ever trusted where it was evaluated).
    * *Linear head.*  If the linear test holds at :math:`k_\ell` (tail bound :math:`T`), then for
      :math:`k\le k_\ell`, :math:`\mathbb{E}[(S_k)_-]\le\mathbb{E}[(S_{k_\ell})_-]\le T`, so
      :math:`\mathbb{E}[(S_k)_+]\in[\mathbb{E}S_k, \mathbb{E}S_k + T]`.  The mean is affine in
      :math:`k`; with the float partial sums' error (:math:`2u` for the child's own step plus
      the :math:`4(r+2)u\sum|g|N` of :func:`_evaluate`) and the later law's mean
      :math:`\mu\in[\mu_d-d\mu_d, \mu_u+d\mu_u]`, outward-rounded floats give
      :math:`A_d + B_d k \le \mathbb{E}S_k \le A_u + B_u k` (upper atoms for the upper end,
      lower atoms for the lower end, :math:`k\le m`).  If :math:`A_u+B_uk\ge0` at both ends of
      :math:`[lo, k_\ell]` (affine, so on all of it), every term is non-negative and

      .. math:: \sum_{k=lo}^{k_\ell}\mathrm{pmf}(k)(A_u+B_uk+T) = (A_u+T)\,F + B_u\,G,\quad
                F=\sum\mathrm{pmf}(k),\; G=\sum k\,\mathrm{pmf}(k)

      summed from the row's pmf (:func:`prefix_sums`; relative errors :math:`\gamma_N`,
      :math:`\gamma_{N+1}`); evaluating :math:`AF+BG` in floats then errs by at most
      :math:`\gamma_{N+4}(|A|F+|B|G)` (``runs``), added outward.  The row's own relative error
      :math:`\kappa` applies term by term (all terms :math:`\ge 0`) and is in the level's
      :math:`\kappa` already.  The children below ``lo`` are covered as before: the edge
      weight times :math:`1/(1-r_{lo})` (here the extra :math:`\mathrm{pmf}(lo)\,r/(1-r)` times
      the edge term) plus the absolute deep-side budget of :func:`_evaluate`.  The lower end
      is :math:`(A_dF + B_dG)(1-\gamma)` when :math:`A_d+B_dk\ge 0` on the run (Jensen), else 0.

    Returns, per parent, the first child to expand (relative to ``lo``) and how many.
    """
    lo = lo_of[base]
    hi = lo + widths[base] - 1
    sp, xup, xdp, abp = s[base], xu[base], xd[base], ab[base]
    G_abs = max(abs(gj_hi), abs(gj_lo))

    def tests(k, i=slice(None)):
        kf = k.astype(np.float64)
        return settle_tests(
            later,
            gl,
            gh,
            qq,
            q0,
            n,
            sp[i] + k,
            xup[i] + gj_hi * kf,
            xdp[i] + gj_lo * kf,
            abp[i] + G_abs * kf,
            r,
            bits,
        )

    def bisect(a, b, pred):
        """Per parent: a where pred is known false (or a sentinel), b where it is true."""
        while True:
            open_ = b - a > 1
            if not np.any(open_):
                return b
            mid = np.where(open_, (a + b) // 2, b)
            ok = pred(mid)
            b = np.where(open_ & ok, mid, b)
            a = np.where(open_ & ~ok, mid, a)

    # dead tail: smallest k where the dead test holds, or where the parent's weight times the
    # bound of small_bound is below 2^floor (then every later child contributes at most that
    # bound, by the coupling, and the pmf over the run sums to at most 1: one budget term)
    log_w = np.log2(np.maximum(wm[base], 1e-300)) + we[base]

    def negligible(k, i=slice(None)):
        kf = k.astype(np.float64)
        bound = small_bound(
            later, gl, gh, qq, q0, n, sp[i] + k, xup[i] + gj_hi * kf, abp[i] + G_abs * kf, r
        )
        with np.errstate(divide="ignore"):
            return (log_w[i] + np.log2(bound) < floor) | (bound == 0), bound

    dead_hi = negligible(hi)[0]
    k_dead = hi + 1
    if np.any(dead_hi):
        b = bisect(lo - 1, hi, lambda k: negligible(k)[0])
        k_dead = np.where(dead_hi, b, hi + 1)
        if budget_m is not None:
            j = np.where(dead_hi)[0]
            bound = negligible(k_dead[j], j)[1]
            pos = bound > 0
            if np.any(pos):
                bm, be = np.frexp(wm[base][j[pos]] * bound[pos] * (1 + 4 * U) * (1 + kap))
                budget_m.append(bm)
                budget_e.append(be + we[base][j[pos]])
    # linear head: largest k with the linear test true (known true at lo)
    lin_lo = tests(lo)[1] & (k_dead > lo)
    k_lin = lo - 1
    if np.any(lin_lo):
        # bisect on -k: "true" end is the small k
        b = -bisect(-k_dead, -lo, lambda k: tests(-k)[1] & (-k < k_dead))
        k_lin = np.where(lin_lo, b, lo - 1)
    has = k_lin >= lo
    if np.any(has):
        i = np.where(has)[0]
        a, l0 = k_lin[i], lo[i]
        _, lin_a, _, _, tail = tests(a, i)
        assert np.all(lin_a)
        law = later_law(later, gl, gh, qq, q0)
        mu_u = law["u"][0] + law["u"][3]
        mu_d = law["d"][0] - law["d"][3]
        c = 4 * (r + 2) * U * (1 + 1e-8)
        m = (n - sp[i]).astype(np.float64)
        x_u, x_d, abi = xup[i], xdp[i], abp[i]
        A_u = x_u + 2 * U * np.abs(x_u) + c * abi + m * mu_u
        A_u = A_u + 8 * U * (np.abs(x_u) + c * abi + np.abs(m * mu_u))
        B_u = gj_hi + 2 * U * abs(gj_hi) + c * G_abs - mu_u
        B_u = B_u + 4 * U * (abs(gj_hi) + c * G_abs + abs(mu_u))
        A_d = x_d - 2 * U * np.abs(x_d) - c * abi + m * mu_d
        A_d = A_d - 8 * U * (np.abs(x_d) + c * abi + np.abs(m * mu_d))
        B_d = gj_lo - 2 * U * abs(gj_lo) - c * G_abs - mu_d
        B_d = B_d - 4 * U * (abs(gj_lo) + c * G_abs + abs(mu_d))
        af, l0f = a.astype(np.float64), l0.astype(np.float64)
        ok_u = (A_u + B_u * af >= 0) & (A_u + B_u * l0f >= 0)
        ok_d = (A_d + B_d * af >= 0) & (A_d + B_d * l0f >= 0)
        gam = runs
        F, G = prefix_sums(flat, row_off[base][i], a - l0 + 1, l0)
        p_lo = flat[row_off[base][i]]
        r_lo = rlo[base][i]
        up = (A_u + tail) * F + B_u * G
        up = up + gam * ((np.abs(A_u) + tail) * F + np.abs(B_u) * G) * (1 + 1e-6)
        edge = p_lo * r_lo / (1 - r_lo) * (1 + 1e-12) * (A_u + B_u * l0f + tail)
        up = (up + edge) * (1 + 8 * U)
        dn = A_d * F + B_d * G
        dn = (dn - gam * (np.abs(A_d) * F + np.abs(B_d) * G) * (1 + 1e-6)) * (1 - 8 * U)
        dn = np.where(ok_d, np.maximum(dn, 0.0), 0.0)
        sel = ok_u
        pi = base[i][sel]
        um, ue = np.frexp(wm[pi] * up[sel])
        dm, de = np.frexp(wmd[pi] * dn[sel])
        settled["um"].append(um)
        settled["ue"].append(ue + we[pi] + E_of[pi])
        settled["dm"].append(dm)
        settled["de"].append(de + wed[pi] + E_of[pi])
        k_lin = k_lin.copy()
        k_lin[i[~sel]] = lo[i[~sel]] - 1
    first = k_lin + 1 - lo
    count = np.maximum(k_dead - k_lin - 1, 0)
    return first, count
