r"""Certified Rényi differential privacy of shuffled mechanisms, from their dominating pairs.

The Rényi divergence of order :math:`\lambda > 1` is :math:`D_\lambda(P\|Q) =
\frac1{\lambda-1}\log\mathbb{E}_Q[(P/Q)^\lambda]
= \frac1{\lambda-1}\log\mathbb{E}_P[e^{(\lambda-1)L}]`
with :math:`L = \log(P/Q)` (Mironov 2017).  A mechanism is :math:`(\lambda, \rho)`-RDP when
:math:`D_\lambda(M(D)\|M(D')) \le \rho` for every ordered neighbouring pair.

**Why the dominating pair bounds it.**  If :math:`(P, Q)` dominates the pair
:math:`(A, B) = (M(D), M(D'))` -- :math:`H_\alpha(A\|B) \le H_\alpha(P\|Q)` for *every*
:math:`\alpha \ge 0`, which the connect-the-dots hull of
:mod:`shufflekit.numeric.composition.dominating_pair` guarantees on both sides of
:math:`\alpha = 1` -- then the trade-off curve of :math:`(P, Q)` lies below that of
:math:`(A, B)`, so by Blackwell's theorem :math:`(A, B)` is the image of :math:`(P, Q)` under
one Markov kernel (Dong, Roth and Su 2022, Thm 2.10 and its proof), and every
:math:`f`-divergence, the Rényi ones included (a monotone function of the
:math:`f`-divergence of :math:`t^\lambda`), can only decrease under it.  Equivalently
(Sason and Verdú 2016) :math:`\mathbb{E}_Q[(P/Q)^\lambda] - 1 = \lambda(\lambda - 1)
\int_0^\infty \big(e^{(\lambda-1)\varepsilon}\delta_{P\|Q}(\varepsilon) +
e^{-\lambda\varepsilon}\delta_{Q\|P}(\varepsilon)\big)\,d\varepsilon`, increasing in both curves.

**The tail.**  Every shuffled report of an :math:`\varepsilon_0`-LDP randomizer is
:math:`\varepsilon_0`-DP, so the true curve is 0 beyond :math:`\varepsilon_0`: the RDP pair
(:func:`rdp_vertices`) is the hull of the profile's values *and* the point
:math:`(e^{\varepsilon_{\rm top}}, 0)`, :math:`\varepsilon_{\rm top}` the first grid point past
:math:`\varepsilon_0`; the mass the composition pair keeps at an infinite loss then sits at a
finite one (the chord to a point where the curve is 0 is above the curve, by convexity), and
the Rényi divergences are finite.  A curve with no :math:`\varepsilon_0` (a Gaussian) keeps
an infinite loss; its RDP is taken from its closed form instead (:func:`gaussian_rdp`).

**Arithmetic.**  The hull's vertex masses are Arb balls and the sum
:math:`\sum_j p_j e^{(\lambda-1)\ell_j}` is formed in Arb (:func:`rdp_of_vertices`).  For a
float loss law with an :math:`\ell_1` budget (:func:`rdp_of_pmf`),
:math:`S = \sum_j p_j e^{(\lambda-1)\ell_j}` over the grid losses
:math:`\ell_j = (o + j)\Delta` is :math:`e^{(\lambda-1)\ell_{\rm top}}\sum_j p_j
\rho^{\,\rm top - j}`, :math:`\rho = e^{-(\lambda-1)\Delta} \le 1` (an Arb ball rounded up), by
Horner's rule in float64: non-negative terms, so the computed sum is within a relative
:math:`\gamma_{2N}` of the exact one with :math:`\hat\rho` (Higham, Sec. 5.1), plus
:math:`2N\lambda_{\min}` for underflow; the :math:`\ell_1` round-off budget of the masses adds at
most ``error`` times the largest weight, 1 after the scaling.  The prefactor and the logarithm
are Arb balls; the result is rounded up.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from flint import arb, ctx

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.accountant import Accountant, describe
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.composition.dominating_pair import (
    DEFAULT_GRID,
    PrivacyLossPmf,
    check_grid,
    hull_pmf,
    profile_points,
)
from shufflekit.numeric.kernels.directed_rounding import float_up
from shufflekit.validation import check_real

UNIT = 2.0**-53
#: the profile is followed down to this level for a Rényi pair (the rest sits at eps0)
RDP_TAIL = 1e-300
#: largest order accepted (the weights e^{(lambda - 1) eps0} must stay meaningful)
MAX_ORDER = 1e4


def check_orders(orders: Any) -> tuple[float, ...]:
    """Orders as floats in (1, MAX_ORDER] (one number or an iterable of them)."""
    seq = [orders] if isinstance(orders, (int, float)) else list(orders)
    if not seq:
        raise InvalidParameter("orders", orders, "one or more orders in (1, 1e4]")
    return tuple(check_real("order", a, 1.0, MAX_ORDER, lo_open=True) for a in seq)


@dataclass(frozen=True)
class RenyiProfile:
    r"""Upper bounds on the Rényi divergences of a mechanism at ``orders`` (``values[i]`` at
    ``orders[i]``), for every ordered neighbouring pair of its relation.

    It reads as the list of values (``list(rdp)``, ``rdp[0]``, ``len(rdp)``: the shape
    Opacus's ``get_privacy_spent(orders=..., rdp=...)`` takes), and converts to
    ``dp_accounting``'s :meth:`to_rdp_accountant`.

    >>> import shufflekit as sk
    >>> rdp = sk.accountant(sk.make("rr", eps0=1), n=1000).get_rdp([2, 4, 8, 16])
    >>> all(0 < a <= b < 1 for a, b in zip(rdp, list(rdp)[1:]))   # finite, non-decreasing
    True
    >>> 0 < rdp.epsilon(1e-6) < 1                                   # dp_accounting's conversion
    True
    """

    orders: tuple[float, ...]
    values: tuple[float, ...]
    kind: Kind = Kind.UPPER
    method: str = ""
    adjacency: str = ""
    mechanism: Any = None
    n: int | None = None
    certificate: str = ""

    def __iter__(self):
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i]

    def as_dict(self) -> dict:
        """The orders and values with what they bound."""
        return {
            "orders": list(self.orders),
            "rdp": list(self.values),
            "kind": str(Kind(self.kind)),
            "method": self.method,
            "adjacency": self.adjacency,
            "mechanism": describe(self.mechanism) if self.mechanism is not None else {},
            "n": self.n,
            "certificate": self.certificate,
        }

    def to_rdp_accountant(self):
        """A ``dp_accounting.rdp.RdpAccountant`` at these orders holding these values (compose
        further events there).  ``dp_accounting`` keeps the curve in the accountant's ``_rdp``
        array and has no public way to set it, so the values are added there."""
        from dp_accounting.rdp import rdp_privacy_accountant as rdp

        acc = rdp.RdpAccountant(list(self.orders))
        acc._rdp = acc._rdp + np.asarray(self.values, dtype=float)
        return acc

    def epsilon(self, delta: float) -> float:
        """``dp_accounting``'s conversion of the curve to an epsilon at ``delta`` (its float
        formula, Balle et al. 2020 / Canonne et al.; not re-certified here)."""
        from dp_accounting.rdp import rdp_privacy_accountant as rdp

        from shufflekit.validation import check_delta

        eps, _ = rdp.compute_epsilon(list(self.orders), list(self.values), check_delta(delta))
        return float(eps)


#: relative tolerance of the adaptive knots of a Rényi pair (the excess of a chord over the
#: curve, relative to the curve)
RDP_KNOT_TOLERANCE = 1e-2
#: an interval whose weighted value e^{(lambda_max - 1) eps} delta(eps) is below this is not
#: refined (the sum it enters is at least 1)
RDP_NEGLIGIBLE = 1e-9


def rdp_vertices(acc: Accountant, grid: float, max_order: float) -> list:
    r"""The vertices ``(grid index, P-mass ball)`` of the Rényi pair of ``acc``: the hull of its
    upper profile followed down to :data:`RDP_TAIL` on adaptive knots (relative tolerance
    :data:`RDP_KNOT_TOLERANCE`, intervals whose weight at ``max_order`` is negligible left
    alone) and closed by the point where the curve is 0, the first grid point past
    :math:`\varepsilon_0` (module docstring)."""
    grid = check_grid(grid)
    eps_max = float(getattr(acc, "eps_max", math.inf))
    if not math.isfinite(eps_max):
        raise CannotCertify(
            f"method {acc.method} gives no epsilon beyond which delta is 0: the privacy loss may "
            "be unbounded and the hull cannot bound a Renyi divergence"
        )
    lam1 = max_order - 1

    def negligible(i: int, v: float) -> bool:
        return v * math.exp(min(700.0, lam1 * i * grid)) < RDP_NEGLIGIBLE

    idx, vals, _ = profile_points(
        acc,
        grid,
        RDP_TAIL,
        knots="adaptive",
        tolerance=RDP_KNOT_TOLERANCE,
        floor=0.0,
        negligible=negligible,
    )
    top = math.floor(eps_max * (1 + 1e-12) / grid) + 1  # first grid point past eps0 (margin)
    if idx[-1] < top:
        idx = np.append(idx, top)
        vals = np.append(vals, 0.0)  # delta(eps) = 0 for eps >= eps0
    verts: list = []
    hull_pmf(vals, grid, indices=idx, vertices=verts)
    return verts


def rdp_of_vertices(vertices: Sequence[tuple], grid: float, order: float) -> float:
    r"""Upper bound on :math:`\frac1{\lambda-1}\log\sum_j p_j e^{(\lambda-1)\ell_j}` over the
    hull's vertices (Arb masses; ``inf`` with mass at an infinite loss)."""
    with ctx.workprec(128):
        lam1 = arb(order) - 1
        total = arb(0)
        for i, p in vertices:
            if i is None:
                if p > 0:
                    return math.inf
                continue
            total += p * (lam1 * arb(i) * arb(grid)).exp()
        return max(0.0, float_up(total.log() / lam1))


def rdp_of_pmf(pmf: PrivacyLossPmf, order: float) -> float:
    r"""Upper bound on :math:`D_\lambda(P\|Q)` of the exact law a float loss law stands for
    (its :math:`\ell_1` budget times the largest weight included; module docstring); ``inf``
    with mass at an infinite loss."""
    lam = check_orders(order)[0]
    if pmf.infinity_mass > 0:
        return math.inf
    p = np.asarray(pmf.probs, dtype=float)
    N = p.size
    with ctx.workprec(128):
        rho = float_up((-(arb(lam) - 1) * arb(pmf.grid)).exp())
        s = 0.0
        for v in p:  # Horner in rho <= 1: s = sum_j p_j rho^(top - j)
            s = s * rho + v
        g = 2 * N * UNIT / (1 - 2 * N * UNIT)
        T = arb(s) * (1 + arb(g)) + arb(2 * N) * arb(2.0**-1022) + arb(pmf.error)
        top = (pmf.offset + N - 1) * pmf.grid
        value = ((arb(lam) - 1) * arb(top) + T.log()) / (arb(lam) - 1)
    return max(0.0, float_up(value))


#: Rényi pairs kept across calls, by accountant key, grid and largest order
_VERTICES: dict = {}


def gaussian_rdp(mu: arb, order: float) -> float:
    r""":math:`D_\lambda(N(\mu,1)\|N(0,1)) = \lambda\mu^2/2` (Mironov 2017, Prop. 7), rounded up."""
    with ctx.workprec(128):
        return float_up(arb(order) * mu * mu / 2)


def laplace_rdp(mu: arb, order: float) -> float:
    r""":math:`D_\lambda(\mathrm{Lap}(\mu,1)\|\mathrm{Lap}(0,1)) = \frac1{\lambda-1}\log\big(
    \frac\lambda{2\lambda-1}e^{(\lambda-1)\mu} + \frac{\lambda-1}{2\lambda-1}e^{-\lambda\mu}\big)`
    (Mironov 2017, Prop. 6), rounded up."""
    with ctx.workprec(128):
        a = arb(order)
        inner = a / (2 * a - 1) * ((a - 1) * mu).exp() + (a - 1) / (2 * a - 1) * (-a * mu).exp()
        return float_up(inner.log() / (a - 1))


def accountant_rdp(acc: Accountant, orders: Iterable[float], grid: float | None = None) -> list:
    """Upper bounds on the accountant's Rényi divergences at ``orders`` (running maximum over
    increasing orders: the true curve is non-decreasing in the order)."""
    from shufflekit.numeric.methods.gaussian import CentralGaussianAccountant

    lams = check_orders(orders)
    if isinstance(acc, CentralGaussianAccountant):  # exact: N(mu, 1) against N(0, 1)
        return [gaussian_rdp(acc._mu, a) for a in lams]
    kind = Kind(acc.kind)
    if kind not in (Kind.UPPER, Kind.EXACT) or getattr(acc, "pairs", "all") != "all":
        raise CannotCertify(
            f"method {acc.method} gives {kind} bounds on {getattr(acc, 'pairs', 'all')} pairs; "
            "a Renyi bound needs an upper profile over all neighbouring pairs"
        )
    grid = check_grid(DEFAULT_GRID if grid is None else grid)
    key = getattr(acc, "rdp_key", None)
    full = None if key is None else (key, grid, max(lams))
    verts = _VERTICES.get(full) if full is not None else None
    if verts is None:
        verts = rdp_vertices(acc, grid, max(lams))
        if full is not None:
            _VERTICES[full] = verts
            while len(_VERTICES) > 32:
                _VERTICES.pop(next(iter(_VERTICES)))
    return monotone(lams, [rdp_of_vertices(verts, grid, a) for a in lams])


def monotone(orders: Sequence[float], values: Sequence[float]) -> list[float]:
    """``values`` with each replaced by the least upper bound it implies: the smallest value at
    any order at least as large (the true Rényi curve is non-decreasing in the order)."""
    out = list(values)
    order = sorted(range(len(orders)), key=lambda i: orders[i], reverse=True)
    best = math.inf
    for i in order:
        best = min(best, out[i])
        out[i] = best
    return out


# ============================================================ the shuffled Gaussian pair
def shuffle_gaussian_rdp(n: int, sigma: float, order: int) -> float:
    r"""The Rényi divergence of order :math:`\lambda` (an integer :math:`\ge 2`) of the pair
    Liew and Takahashi 2022 analyse for the shuffled Gaussian mechanism: :math:`n` users each
    add :math:`N(0, \sigma^2)` to a value, one user's value is 1 against 0, the others' 0, and
    the reports are shuffled, so :math:`P = \frac1n\sum_i N(e_i, \sigma^2 I)` against
    :math:`Q = N(0, \sigma^2 I)`:

    .. math::
        D_\lambda(P\|Q) = \frac1{\lambda-1}\log\Big(n^{-\lambda}\sum_{k_1+\dots+k_n=\lambda}
        \binom{\lambda}{k_1,\dots,k_n}\prod_i e^{(k_i^2 - k_i)/(2\sigma^2)}\Big),

    since :math:`P/Q = \frac1n\sum_i Y_i` with :math:`Y_i = e^{z_i/\sigma^2 - 1/(2\sigma^2)}`
    independent under :math:`Q` and :math:`\mathbb{E}Y^k = e^{(k^2-k)/(2\sigma^2)}`.  The sum
    over compositions is :math:`\lambda!` times the coefficient of :math:`x^\lambda` in
    :math:`(\sum_{k\le\lambda} \mathbb{E}Y^k x^k/k!)^n`, formed in Arb by repeated squaring of
    truncated polynomials; the result is rounded up."""
    from shufflekit.validation import check_int

    n = check_int("n", n, 1, 10**9)
    lam = check_int("order", order, 2, 256)
    s = check_real("sigma", sigma, 0.0, lo_open=True)
    with ctx.workprec(256):
        two_s2 = 2 * arb(s) ** 2
        base = [((arb(k) * k - k) / two_s2).exp() / arb(math.factorial(k)) for k in range(lam + 1)]

        def mul(a: list, b: list) -> list:
            return [sum((a[i] * b[k - i] for i in range(k + 1)), arb(0)) for k in range(lam + 1)]

        result, power, e = [arb(1)] + [arb(0)] * lam, base, n
        while e:
            if e & 1:
                result = mul(result, power)
            e >>= 1
            if e:
                power = mul(power, power)
        moment = result[lam] * math.factorial(lam) / arb(n) ** lam
        return float_up(moment.log() / (lam - 1))
