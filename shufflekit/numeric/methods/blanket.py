r"""Certified blanket bound :math:`\delta(\varepsilon) = \tfrac1n\mathbb{E}[(G_1+\dots+G_n)_+]`.

Su-Cheng-Wang 2026, Thm 4 (Balle et al., Lemma 5.3, restated): for a finite local randomizer
with maximal blanket :math:`c(y) = \min_x R_x(y)`, :math:`\gamma = \sum_y c(y)`, and a
neighbouring pair :math:`(x, x')`, the shuffled hockey-stick divergence is at most

.. math::
    \delta_B(\varepsilon) = \frac1n\,\mathbb{E}\Big[\Big(\sum_{i=1}^n G_i\Big)_+\Big],\qquad
    G = \begin{cases} \alpha(y) - e^{\varepsilon}\beta(y) & \text{w.p. } c(y)\\
                      0 & \text{w.p. } 1-\gamma\end{cases}

with :math:`\alpha = R_x/c`, :math:`\beta = R_{x'}/c` (the GPARV of Su-Cheng-Wang 2026, Def. 5.1).
The pair :math:`(\alpha,\beta)` and its weights do not depend on :math:`\varepsilon`;
:class:`~shufflekit.numeric.kernels.gparv_law.RatioLaw` stores them once per distinct neighbouring
pair (both directions of every pair of the relation), and the bound is the largest over them.

``exact`` (:func:`blanket_delta_exact`, :func:`law_enclosure`): the expectation is enclosed by
:func:`shufflekit.numeric.kernels.positive_part.expected_positive_part` (Arb anchors, float
recurrences with proven error bounds, certified tails relative to the value; see that module).
What the certificate covers:

* the atoms: :math:`\alpha, \beta` are float ratios of float matrix entries; the entries are the
  correctly rounded values of the mechanism's exact entries (mpmath at 60 digits, or the floats
  given), each ratio is then within :math:`3u` of the exact ratio, and merging output classes
  that agree to 12 digits moves a ratio by at most :math:`10^{-12}` relatively; a relative radius
  :data:`ATOM_RADIUS` = :math:`2^{-38}` covers all three, and :math:`e^\varepsilon` is an Arb ball;
* the probabilities: a float weight (the rounded floor times the multiplicity, merged classes
  summed, pairs whose weights agree within :math:`4(K+1)u` sharing one law; ``K`` classes) is
  within a relative :math:`\epsilon_w = 5(K+1)u` of the pair's exact weight, and the zero mass
  :math:`1-\gamma`, computed from the exact entries
  (:func:`~shufflekit.numeric.kernels.gparv_law.zero_mass_of`), within its proven relative error
  :math:`\epsilon_0`; the sums normalise the float law by its total, which is within
  :math:`\epsilon=\max(\epsilon_w,\epsilon_0)` of 1, so each normalised probability is within
  :math:`\eta = 2\epsilon/(1-\epsilon)` of the exact one.  Every cell of the multinomial is a
  product of :math:`n` of them, so the expectation moves by a factor in
  :math:`[(1-\eta)^n, (1+\eta)^n]`, applied outward (the lower factor is 0 once
  :math:`\eta\ge1`).  (A law without the exact zero mass, e.g. one built by hand, is charged
  :math:`\epsilon_0 = (2K+8)u\,\gamma/(1-\gamma)` for the cancellation in
  :math:`1-\mathrm{fl}(\gamma)`.)  The float :math:`1-\gamma` is not usable near one: for
  :math:`R_x(y) = 1-2^{-57}` it is 0 while the exact mass is :math:`2^{-57}`, and the worst case
  of the sum (every user but one drawing the zero atom) scales with its power :math:`n-1`;
* the arithmetic: the enclosure of :func:`~shufflekit.numeric.kernels.positive_part.expected_positive_part`.

``fft`` (:func:`shufflekit.numeric.methods.blanket_fft.blanket_delta_fft`, Su-Cheng-Wang 2026, Algorithm 4) is
kept as the alternative engine of :class:`BlanketAccountant`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from flint import arb, ctx

from shufflekit.errors import CannotCertify
from shufflekit.numeric.accountant import Accountant, PrivacyProfile, register
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.numeric.kernels.directed_rounding import float_down, float_up
from shufflekit.numeric.kernels.gparv_law import (  # noqa: F401
    RatioLaw,
    has_gparv_laws,
    is_finite_ldp,
    law_atoms,
    law_of_pair,
    numeric_eps0,
    ratio_laws,
)
from shufflekit.numeric.kernels.positive_part import MAX_EXACT_N, expected_positive_part
from shufflekit.numeric.methods.blanket_fft import blanket_delta_fft, default_grid
from shufflekit.validation import check_delta, check_epsilon, check_n

UNIT = 2.0**-53  # float64 unit round-off
ATOM_RADIUS = 2.0**-38  # relative radius of alpha, beta (see the module docstring)


# ============================================================ exact method
def atom_interval(alpha, beta, epsilon: float, radius: float = ATOM_RADIUS):
    r"""Float intervals ``(g_lo, g_hi)`` containing :math:`\alpha - e^\varepsilon\beta` for every
    :math:`\alpha, \beta` within relative ``radius`` of the given floats (:math:`e^\varepsilon`
    from an Arb ball; the float operations are covered by an extra :math:`8u` margin)."""
    ctx.prec = 128
    E = arb(epsilon).exp()
    e_lo, e_hi = float_down(E), float_up(E)
    e_lo, e_hi = math.nextafter(e_lo, 0.0), math.nextafter(e_hi, math.inf)
    a, b = np.asarray(alpha, dtype=float), np.asarray(beta, dtype=float)
    slack = 8 * UNIT * (np.abs(a) * (1 + radius) + e_hi * np.abs(b) * (1 + radius))
    g_hi = a * (1 + radius) - e_lo * b * (1 - radius) + slack
    g_lo = a * (1 - radius) - e_hi * b * (1 + radius) - slack
    return g_lo, g_hi


def probability_error(
    weights, zero_mass: float, outputs: int, zero_err: float | None = None
) -> float:
    r"""Relative error :math:`\eta` of the normalised float probabilities (module docstring):
    :math:`2\epsilon/(1-\epsilon)`, :math:`\epsilon = \max(5(K+1)u, \epsilon_0)`, with
    :math:`\epsilon_0` = ``zero_err`` (the proven relative error of ``zero_mass``) or, when it
    is ``None``, the cancellation bound :math:`(2K+8)u\,\gamma/(1-\gamma)` of a zero mass
    computed as :math:`1-\mathrm{fl}(\gamma)`."""
    gam = float(np.sum(weights))
    eps = 5 * (outputs + 1) * UNIT
    if zero_mass > 0:
        eps0 = (
            (2 * outputs + 8) * UNIT * max(1.0, gam / zero_mass) if zero_err is None else zero_err
        )
        eps = max(eps, eps0)
    if eps >= 1:
        return math.inf
    return 2 * eps / (1 - eps) * (1 + 1e-9)


def expectation_enclosure(g_lo, g_hi, q, q0: float, n: int, eta: float):
    r"""Arb-backed float interval ``(lo, hi)`` of :math:`\tfrac1n\mathbb{E}[(\sum G_i)_+]`."""
    res = expected_positive_part(g_lo, g_hi, q, q0, n)
    ctx.prec = 128
    if not math.isfinite(eta):
        return 0.0, 1.0
    f_hi = (1 + arb(eta)) ** n
    f_lo = (1 - arb(eta)) ** n if eta < 1 else arb(0)
    hi = res.hi * f_hi / n
    lo = res.lo * f_lo / n
    return (
        math.nextafter(float_down(lo), 0.0) if lo > 0 else 0.0,
        min(1.0, math.nextafter(float_up(hi), math.inf)),
    )


def law_enclosure(law: RatioLaw, epsilon: float, n: int) -> tuple[float, float]:
    """Enclosure ``(lo, hi)`` of the blanket value of one GPARV law at ``epsilon``."""
    g_lo, g_hi = atom_interval(law.alpha, law.beta, epsilon)
    q = np.asarray(law.weight, dtype=float)
    return expectation_enclosure(
        g_lo,
        g_hi,
        q,
        law.zero_mass,
        n,
        probability_error(q, law.zero_mass, max(len(q), 2), law.zero_err),
    )


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
    folded into ``zero_mass``); the probabilities are taken as exact, each atom as exact up to
    its ``margin``.  Returns ``(value, error)``: ``value`` is an upper bound and
    ``value - error`` a lower bound of the exact expectation (legacy shape; see
    :func:`expectation_enclosure`).
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
    if zero_mass is None:
        q0 = max(0.0, 1.0 - float(q[(g != 0) & (q > 0)].sum()))
    else:
        q0 = float(zero_mass)
    lo, hi = expectation_enclosure(g - mg, g + mg, q, q0, n, 0.0)
    return hi, hi - lo


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

    def enclosure(self, epsilon: float) -> tuple[float, float, RatioLaw | None]:
        """``(lo, hi, law)``: enclosure of the worst law's blanket value at ``epsilon``.

        ``lo`` is the largest lower end over the laws (the maximum is at least that), ``hi``
        the largest upper end; ``law`` attains ``hi``.
        """
        epsilon = check_epsilon(epsilon)
        lo, hi, arg = 0.0, 0.0, None
        for law in self.laws:
            if self.method == "exact":
                a, b = law_enclosure(law, epsilon, self.n)
            else:
                g, q, mg, q0 = law_atoms(law, epsilon)
                v, e = blanket_delta_fft(
                    g, q, self.n, l=self.l, zero_mass=q0, margins=mg, zero_mass_rel_err=law.zero_err
                )
                a, b = max(v - e, 0.0), v
            lo = max(lo, a)
            if b >= hi:
                hi, arg = b, law
        return lo, min(hi, 1.0), arg

    def delta(self, epsilon: float) -> tuple[float, float]:
        """(certified upper bound on delta_B(eps), error) maximised over the laws (legacy shape)."""
        lo, hi, _ = self.enclosure(epsilon)
        return hi, hi - lo

    def point(self, epsilon: float) -> Bound:
        """The certified :class:`~shufflekit.numeric.bound.Bound` on delta_B(epsilon) (worst law)."""
        return BlanketExactAccountant.wrapping(self, self.adjacency).get_delta(epsilon)

    def profile(self, epsilons: Sequence[float], *, progress: bool = False) -> PrivacyProfile:
        """Bounds at every epsilon of ``epsilons`` (the contract's profile type)."""
        return BlanketExactAccountant.wrapping(self, self.adjacency).profile(
            epsilons=epsilons, progress=progress
        )

    def epsilon(self, delta: float, *, rel_tol: float = 1e-8) -> float:
        """Certified epsilon: the returned point has upper bound <= delta (the shared
        inversion routine :func:`shufflekit.numeric.accountant.invert_delta`)."""
        from shufflekit.numeric.accountant import invert_delta

        return invert_delta(BlanketExactAccountant.wrapping(self), delta, rel_tol=rel_tol).hi


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
    """Blanket upper bound delta_B(eps) at ``epsilons`` (Su-Cheng-Wang 2026, Thm 4), one Bound each."""
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


# ============================================================ registry entries


class BlanketExactAccountant(Accountant):
    r"""Blanket upper bound of Su-Cheng-Wang 2026, Thm 4 (Balle et al. Lemma 5.3), worst over every
    neighbouring pair of the relation (both directions; ``zero-out`` pairs each input with the
    null input whose law is the blanket).  The certificate covers the theorem's value
    :math:`\tfrac1n\mathbb{E}[(\sum_i G_i)_+]` of every pair: an Arb-certified enclosure of the
    exact multinomial sums (:mod:`shufflekit.numeric.kernels.positive_part`), with the float inputs'
    errors covered (module docstring)."""

    kind = Kind.UPPER
    certificate = (
        "Su-Cheng-Wang 2026 Thm 4 over all pairs; exact multinomial sums enclosed with Arb "
        "anchors, proven float recurrences and tails relative to the value"
    )

    def __init__(
        self,
        mech,
        n: int,
        *,
        adjacency: str = "replace-one",
        method: str = "blanket",
        engine: str = "exact",
        l: float | None = None,
    ):
        self.method, self.mechanism, self.n, self.adjacency = method, mech, n, adjacency
        self._inner = BlanketAccountant.of(mech, n, method=engine, adjacency=adjacency, l=l)
        self.eps_max = self._inner.eps0
        self.pairs = getattr(mech, "pairs_note", "") or self.pairs

    @classmethod
    def wrapping(cls, inner: BlanketAccountant, adjacency: str = "replace-one"):
        """The contract accountant around an existing :class:`BlanketAccountant`."""
        acc = cls.__new__(cls)
        acc.method, acc.mechanism, acc.n, acc.adjacency = (
            "blanket",
            inner.mechanism,
            inner.n,
            adjacency,
        )
        acc._inner, acc.eps_max = inner, inner.eps0
        return acc

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        epsilon = check_epsilon(epsilon)
        if epsilon >= self.eps_max:
            return self._bound("delta", epsilon, 0.0, 0.0, note="epsilon >= eps0: delta = 0")
        try:
            lo, hi, law = self._inner.enclosure(epsilon)
        except OverflowError as exc:
            raise CannotCertify(
                f"the exact blanket sums are out of reach ({exc}) at "
                f"n={self.n}; use method blanket-fft"
            ) from None
        note = "" if law is None else f"worst pair {law.pairs[0]}"
        return self._bound("delta", epsilon, lo, hi, seconds=time.perf_counter() - t0, note=note)


@register(
    "blanket",
    kind=Kind.UPPER,
    supports=has_gparv_laws,
    default_for=lambda m, n: n <= MAX_EXACT_N and is_finite_ldp(m) is True,
    options=("engine", "l"),
    summary="blanket bound of Su-Cheng-Wang 2026 (Thm 4) by exact binomial sums",
)
def _blanket_exact(mech, n, *, adjacency="replace-one", **options):
    return BlanketExactAccountant(mech, n, adjacency=adjacency, **options)
