"""The previous float64 exact blanket method, kept only so the benchmark can compare with it.

Not part of the package: its certificate rested on an empirical error constant
(``SPECIAL_REL_ERR``) and on an e^-60 tail budget.  Copied unchanged from the version
before the certified rewrite, except that its points and profiles are now the package's
:class:`~shufflekit.numeric.bound.Bound` and
:class:`~shufflekit.numeric.accountant.PrivacyProfile` (the old profile types are gone).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from shufflekit.errors import CannotCertify
from shufflekit.numeric.accountant import PrivacyProfile
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.numeric.kernels.gparv_law import (
    law_atoms,
    law_of_pair,  # noqa: F401
    numeric_eps0,
    ratio_laws,
)
from shufflekit.numeric.methods.blanket_fft import blanket_delta_fft, default_grid
from shufflekit.validation import check_delta, check_epsilon, check_n

LOG_TAIL = 60.0  # tails dropped only below e^-60 (Bernstein)
SPECIAL_REL_ERR = 1e-9  # budgeted relative error of one binomial pmf/cdf value
# (Boost via scipy: worst seen 1.3e-11 against mpmath)
UNIT = 2.0**-53  # float64 unit round-off
MAX_EXACT_CELLS = 30_000_000  # beyond this the exact method refuses (use fft)


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
    err = np.where(
        full,
        4 * UNIT * (np.abs(x) + ac * m * rho),
        2 * SPECIAL_REL_ERR * (np.abs(t1) + ac * m * rho * (F + (1 - rho) * pm1)),
    )
    pos = x > 0
    return np.where(pos, val, 0.0), np.where(pos, err, 0.0)


def blanket_delta_exact(
    atoms: Sequence[float],
    probs: Sequence[float],
    n: int,
    *,
    zero_mass: float | None = None,
    margins: Sequence[float] | None = None,
) -> tuple[float, float]:
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
        raise ValueError(
            "atoms and probabilities must be finite arrays of the same length "
            "with probabilities >= 0"
        )
    keep = (g != 0) & (q > 0)
    if zero_mass is None:
        q0 = max(0.0, 1.0 - float(q[keep].sum()))
    else:
        q0 = float(zero_mass) + float(q[(g == 0) & (q > 0)].sum())
    # atoms computed as exactly 0 may be +-margin in truth: S moves by at most n * zshift
    mz = mg[(g == 0) & (q > 0)]
    zshift = float(mz.max()) if mz.size else 0.0
    g_lo, g_hi = g[keep] - mg[keep], g[keep] + mg[keep]  # interval of each atom
    q = q[keep]
    if g_hi.size == 0 or g_hi.max() <= 0:
        return zshift, 2 * zshift
    g = g_hi  # upper atoms: the value is an upper bound
    neg = np.where(g < 0)[0]
    if neg.size == 0:  # S >= 0 always: E[S_+] = E[S]
        v = float(np.dot(q, g))
        return v + 1e-15 * abs(v) + zshift, 2e-15 * abs(v) + float(
            np.dot(q, g_hi - g_lo)
        ) + 2 * zshift
    pos = np.where(g >= 0)[0]
    negs = neg[np.argsort(q[neg], kind="stable")]
    order = np.concatenate([pos, negs])
    g, q, spread = g[order], q[order], (g_hi - g_lo)[order]
    r = len(g)
    tail_from = np.cumsum(q[::-1])[::-1]  # sum_{i >= j} q_i
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
            raise CannotCertify(
                f"the exact blanket method needs about {total} states at n={n} "
                f"for a GPARV with {r} non-zero atoms; use the fft method"
            )
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
            lin_hi = np.floor((D0 - big) / (-s))  # linear for v <= lin_hi
            neg_lo = np.ceil((D0 + big) / (-s))  # negligible for v >= neg_lo
            lin_hi = np.clip(lin_hi, -1, m)
            neg_lo = np.clip(neg_lo, 0, m + 1)
            ex_lo, ex_hi = lin_hi + 1, neg_lo - 1
            P_lin = np.where(lin_hi >= 0, stats.binom.cdf(lin_hi, m, rb), 0.0)
            E_lin = np.where(
                lin_hi >= 1, m * rb * stats.binom.cdf(lin_hi - 1, np.maximum(m - 1, 0), rb), 0.0
            )
        elif s > 0:
            lin_lo = np.ceil((big - D0) / s)  # linear for v >= lin_lo
            neg_hi = np.floor((-big - D0) / s)  # negligible for v <= neg_hi
            lin_lo = np.clip(lin_lo, 0, m + 1)
            neg_hi = np.clip(neg_hi, -1, m)
            ex_lo, ex_hi = neg_hi + 1, lin_lo - 1
            P_lin = np.where(lin_lo <= m, stats.binom.sf(lin_lo - 1, m, rb), 0.0)
            E_lin = np.where(
                lin_lo <= m, m * rb * stats.binom.sf(lin_lo - 2, np.maximum(m - 1, 0), rb), 0.0
            )
        else:
            all_lin = D0 >= big
            all_neg = D0 <= -big
            ex_lo = np.where(all_lin | all_neg, 1, 0).astype(float)
            ex_hi = np.where(all_lin | all_neg, 0, m).astype(float)
            P_lin = np.where(all_lin, 1.0, 0.0)
            E_lin = np.where(all_lin, m * rb, 0.0)
        lin_val = D0 * P_lin + s * E_lin
        total += float(np.sum(w * lin_val))
        err += float(
            np.sum(
                w
                * (
                    2 * SPECIAL_REL_ERR * (np.abs(D0 * P_lin) + np.abs(s * E_lin))
                    + ac * m * eL * P_lin
                )
            )
        )
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
            raise CannotCertify(
                f"the exact blanket method needs {cells} cells at n={n}; use the fft method"
            )
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
    adjacency: str = "replace-one"

    @classmethod
    def of(
        cls,
        mech,
        n: int,
        *,
        method: str = "exact",
        adjacency: str = "replace-one",
        pair: tuple | None = None,
        l: float | None = None,
    ) -> BlanketAccountant:
        n = check_n(n)
        if method not in METHODS:
            raise ValueError(f"method={method!r} is not allowed; use one of {', '.join(METHODS)}")
        laws = (
            (law_of_pair(mech, pair),) if pair is not None else tuple(ratio_laws(mech, adjacency))
        )
        e0 = numeric_eps0(mech)
        if not math.isfinite(e0):
            raise ValueError(
                f"{getattr(mech, 'name', 'mechanism')} is not eps0-LDP for a finite "
                "eps0; the blanket bound needs bounded likelihood ratios"
            )
        if method == "fft" and l is None:
            l = default_grid(e0)
        return cls(
            laws=laws,
            n=n,
            method=method,
            l=l,
            eps0=e0,
            mechanism=describe_mechanism(mech),
            adjacency=adjacency,
        )

    def delta(self, epsilon: float) -> tuple[float, float]:
        """(certified upper bound on delta_B(eps), error) maximised over the laws."""
        epsilon = check_epsilon(epsilon)
        best = (0.0, 0.0)
        for law in self.laws:
            g, q, mg, q0 = law_atoms(law, epsilon)
            if self.method == "exact":
                v = blanket_delta_exact(g, q, self.n, zero_mass=q0, margins=mg)
            else:
                v = blanket_delta_fft(g, q, self.n, l=self.l, zero_mass=q0, margins=mg)
            if v[0] > best[0]:
                best = v
        return best

    def point(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        d, e = self.delta(epsilon)
        return Bound(
            "delta",
            float(epsilon),
            max(min(d, 1.0) - e, 0.0),
            min(d, 1.0),
            Kind.UPPER,
            f"blanket-{self.method}",
            self.adjacency,
            seconds=time.perf_counter() - t0,
        )

    def profile(self, epsilons: Sequence[float], *, progress: bool = False) -> PrivacyProfile:
        import sys

        from tqdm import tqdm

        pts = [
            self.point(check_epsilon(e))
            for e in tqdm(
                list(epsilons),
                desc=f"blanket-{self.method}",
                unit="eps",
                file=sys.stderr,
                disable=not progress,
                leave=False,
            )
        ]
        return PrivacyProfile(
            tuple(pts),
            method=f"blanket-{self.method}",
            kind=Kind.UPPER,
            n=self.n,
            adjacency=self.adjacency,
            mechanism=self.mechanism or {},
        )

    def epsilon(self, delta: float, *, rel_tol: float = 1e-8) -> float:
        """Certified epsilon: the returned point has upper bound <= delta."""
        return certified_epsilon(
            lambda e: self.delta(e)[0], delta, eps_max=self.eps0, rel_tol=rel_tol
        )


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
    raise CannotCertify(
        f"delta={delta:g} cannot be certified below the trivial epsilon=eps0="
        f"{eps_max:g} by this method (its bound or error budget stays above delta)"
    )


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


def blanket_profile(
    mech,
    n: int,
    epsilons: Sequence[float],
    *,
    method: str = "exact",
    adjacency: str = "replace-one",
    pair: tuple | None = None,
    l: float | None = None,
    progress: bool = False,
) -> PrivacyProfile:
    """Blanket upper bound delta_B(eps) at ``epsilons`` (Su-Cheng-Wang 2026, Thm 4)."""
    return BlanketAccountant.of(
        mech, n, method=method, adjacency=adjacency, pair=pair, l=l
    ).profile(epsilons, progress=progress)


def blanket_epsilon(
    mech,
    n: int,
    delta: float,
    *,
    method: str = "exact",
    adjacency: str = "replace-one",
    l: float | None = None,
    rel_tol: float = 1e-8,
) -> float:
    """Certified epsilon at ``delta`` from the blanket bound."""
    check_delta(delta)
    return BlanketAccountant.of(mech, n, method=method, adjacency=adjacency, l=l).epsilon(
        delta, rel_tol=rel_tol
    )
