r"""The variation-ratio reduction (Wang et al. 2024), corrected, and its lower bound.

**Parameters** (Wang et al. 2024, Sec. 4).  A neighbouring pair :math:`(x^0, x^1)` of the
differing user has *variation* :math:`(p, \beta)` when
:math:`R_{x^0}(y) \le p\,R_{x^1}(y)` and :math:`R_{x^1}(y) \le p\,R_{x^0}(y)` for every output
and :math:`\mathrm{TV}(R_{x^0}, R_{x^1}) = \beta`; the other users' randomizers have *ratio*
:math:`q` when :math:`R_z(y) \ge \max(R_{x^0}(y), R_{x^1}(y))/q`.  With
:math:`\alpha = \beta/(p-1)`, :math:`r = \alpha p/q` and :math:`\lambda = 1-(1+p)\alpha`, Lemma 4.4
writes :math:`R_{x^0} = p\alpha Q^0 + \alpha Q^1 + \lambda Q`,
:math:`R_{x^1} = \alpha Q^0 + p\alpha Q^1 + \lambda Q` (:math:`Q^0, Q^1` the normalised positive
and negative parts of :math:`R_{x^0} - R_{x^1}`) and :math:`R_z = rQ^0 + rQ^1 + (1-2r)Q_z`.

**Published statement** (Wang et al. 2024, Lemma 4.5 and Thm 4.8): the shuffled divergence is
at most :math:`D_{e^\varepsilon}(P\|Q)` with :math:`P = (A+\Delta_1, C-A+\Delta_2)`,
:math:`Q = (A+\Delta_2, C-A+\Delta_1)`, :math:`C\sim\mathrm{Bin}(n-1, 2r)`,
:math:`A\sim\mathrm{Bin}(C, 1/2)`, :math:`(\Delta_1,\Delta_2) = (1,0), (0,1), (0,0)` with
probabilities :math:`p\alpha, \alpha, \lambda`: the counts of the two sides with the differing
user's left-over :math:`Q` *merged* into the other users' reports.

**Erratum.**  The proof of Lemma 4.5 maps the counts back to the shuffled reports by restoring
the differing user's left-over with a probability that depends only on the counts; but given the
counts, the chance that the left-over is present differs between the two datasets (it is
:math:`\lambda M(a,b)` against :math:`p\alpha M(a-1,b) + \alpha M(a,b-1)` or
:math:`\alpha M(a-1,b) + p\alpha M(a,b-1)`), so the map is not one post-processing of both
(the gap of the Feldman-McMillan-Talwar 2023 erratum).  When :math:`\lambda > 0` the statement
fails: for 10-ary randomized response, :math:`\varepsilon_0 = 4`, :math:`n = 10^4`, it gives
:math:`\varepsilon = 0.3804588` at :math:`\delta = 10^{-6}`, where the exact divergence of one
neighbouring pair of datasets is :math:`1.00127\cdot10^{-6}` (Su-Cheng-Wang 2026, Thm 5).  What the
decomposition proves is the bound with the left-over *visible* (every symbol other than the two
sides is the report of one known user, so the shuffled reports are a function of
:math:`(A+\Delta_1, C-A+\Delta_2, [\text{left-over present}])`):

.. math::
    \delta_{x^0,x^1}(\varepsilon) \le (1+p)\,\alpha\;
    D_{e^\varepsilon}\big(P^C_{p}\,\big\|\,Q^C_{p}\big),

the divergence of the stronger-clone pair (the differing user reports ``0`` with probability
:math:`p/(p+1)`) among :math:`\mathrm{Bin}(n-1, 2r)` clones.  It equals the published value when
:math:`\lambda = 0` (binary randomized response), and is the stronger clone itself at
:math:`\alpha = r = 1/(p+1)`.  The published "general mechanism" row
(:math:`\beta = (p-1)/(p+1)` for every :math:`\varepsilon_0`-LDP randomizer) rests on the bound
growing with :math:`\beta` (Lemma 4.6, by thinning both counts), which holds for the merged view
but not for the visible one: it is the stronger clone, which the Feldman-McMillan-Talwar 2023
erratum keeps only inside its class (``stronger-clone-numeric``).

**Per pair, from the mechanism.**  The bound of one pair grows with :math:`\beta` at fixed
:math:`r`, but :math:`r = \alpha p/q` itself grows with :math:`\beta`, so the largest
:math:`\beta` over the pairs is not the worst pair in general.  The method therefore evaluates
every distinct pair with its own parameters, read from the mechanism's ratio law
(:func:`shufflekit.numeric.kernels.gparv_law.ratio_laws`: :math:`\alpha(y) = R_{x^0}(y)/c(y)`,
:math:`\beta(y) = R_{x^1}(y)/c(y)` with :math:`c(y) = \min_z R_z(y)` the blanket floor):
:math:`p = \max_y \max(\alpha/\beta, \beta/\alpha)`,
:math:`\beta_{pair} = \sum_y c(y)(\alpha(y)-\beta(y))_+` and the largest admissible
:math:`r = \beta_{pair}/\max_y|\alpha(y) - \beta(y)|` (then :math:`R_z \ge c \ge r(Q^0+Q^1)`),
and reports the largest bound.  Any :math:`p` above the pair's ratio is admissible, and the bound
grows with :math:`\beta_{pair}` and falls with :math:`r`, so the float ratios are widened by a
relative :data:`WIDEN` (round-off and the class merge of the ratio law) and evaluated at
:math:`p_{hi}, \beta_{hi}, r_{lo}`.

**Lower bound** (Wang et al. 2024, Thm 5.1).  For the datasets :math:`(x^0, z, \dots, z)` and
:math:`(x^1, z, \dots, z)`, map every report to its side
(:math:`S_0 = \{R_{x^0} > R_{x^1}\}`, :math:`S_1 = \{R_{x^0} < R_{x^1}\}`, or neither); the
counts are a post-processing of the shuffled reports.  When the triple is *mirrored*,
:math:`R_{x^0}(S_0) = R_{x^1}(S_1) = u`, :math:`R_{x^0}(S_1) = R_{x^1}(S_0) = v`,
:math:`R_z(S_0) = R_z(S_1) = s` (checked exactly), the counts have the merged law above with
:math:`(p\alpha, \alpha, r) = (u, v, s)`, so its divergence is a lower bound; the method keeps
the largest over mirrored triples.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
from flint import arb, ctx

from shufflekit.numeric.accountant import register
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.kernels.directed_rounding import float_down, float_up
from shufflekit.numeric.kernels.gparv_law import numeric_eps0, ratio_laws
from shufflekit.numeric.kernels.mirrored_pair import mirrored_divergence
from shufflekit.numeric.methods.baselines import DeltaFunctionAccountant, finite_ldp
from shufflekit.validation import check_epsilon

#: relative widening of the float ratio law: covers the rounding of the matrix and of the
#: ratios (a few units of 2^-53) and the class merge of
#: :func:`~shufflekit.numeric.kernels.gparv_law.merge_classes` (1e-12 of each ratio)
WIDEN = 2.0**-36
PREC = 128
KEEP_TRIPLES = 2  # mirrored triples evaluated after the first call of the lower bound


@dataclass(frozen=True)
class PairCell:
    r"""Certified variation-ratio parameters of one class of neighbouring pairs: ratio at most
    ``p``, total variation in ``[beta_lo, beta]``, and every other user's report covering
    ``r`` times the normalised difference (``r`` a lower bound)."""

    p: float
    beta: float
    beta_lo: float
    r: float
    pairs: tuple

    def delta(self, n: int, epsilon: float) -> float:
        r"""Upper bound :math:`(1+p)\alpha\,D_{e^\varepsilon}(P^C_p\|Q^C_p)` for this class."""
        if self.beta <= 0:
            return 0.0
        if not self.p > 1:
            return min(self.beta, 1.0)  # equal rows up to round-off: delta <= TV
        with ctx.workprec(PREC):
            alpha = arb(self.beta) / (arb(self.p) - 1)
            u, v = alpha * self.p, alpha
            value = mirrored_divergence(u, v, self.r, n, epsilon, upper=True)
        # the shuffled divergence never exceeds the local one, at most the total variation
        return min(value, self.beta, 1.0)


def pair_cells(mech, adjacency: str = "replace-one") -> list[PairCell]:
    """One :class:`PairCell` per distinct ratio law of ``mech`` under ``adjacency``."""
    out = []
    with ctx.workprec(PREC):
        grow, shrink = 1 + arb(WIDEN), 1 - arb(WIDEN)
        for law in ratio_laws(mech, adjacency):
            keep = law.weight > 0
            a, b, w = law.alpha[keep], law.beta[keep], law.weight[keep]
            p_hi, tv_hi, tv_lo, dmax = arb(1), arb(0), arb(0), arb(0)
            for ai, bi, wi in zip(a, b, w, strict=True):
                a_hi, a_lo = arb(float(ai)) * grow, arb(float(ai)) * shrink
                b_hi, b_lo = arb(float(bi)) * grow, arb(float(bi)) * shrink
                w_hi, w_lo = arb(float(wi)) * grow, arb(float(wi)) * shrink
                p_hi = max(p_hi, a_hi / b_lo, b_hi / a_lo, key=lambda x: float_up(x))
                up = a_hi - b_lo
                if up > 0:
                    tv_hi += w_hi * up
                down = a_lo - b_hi
                if down > 0:
                    tv_lo += w_lo * down
                dmax = max(dmax, a_hi - b_lo, b_hi - a_lo, key=lambda x: float_up(x))
            r_lo = float_down(tv_lo / dmax) if tv_lo > 0 and dmax > 0 else 0.0
            out.append(
                PairCell(
                    p=float_up(p_hi),
                    beta=float_up(tv_hi),
                    beta_lo=max(float_down(tv_lo), 0.0),
                    r=max(r_lo, 0.0),
                    pairs=tuple(law.pairs),
                )
            )
    return out


# ===================================================================== the lower bound
@dataclass(frozen=True)
class MirroredTriple:
    r"""A mirrored triple :math:`(x^0, x^1, z)`: the probabilities ``u``, ``v`` of the differing
    user's two sides and ``s`` of each side under :math:`R_z`, as Arb balls."""

    u: Any
    v: Any
    s: Any
    x0: Any
    x1: Any
    z: Any


def _exact(v):
    """A Fraction for a rational entry (sympy Rational, int or float), else the sympy value."""
    import sympy as sp

    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
        return Fraction(float(v)) if isinstance(v, (float, np.floating)) else Fraction(int(v))
    if isinstance(v, sp.Rational):
        return Fraction(int(v.p), int(v.q))
    return sp.sympify(v)


def _equal(x, y) -> bool:
    """Exact equality of two probabilities (Fractions, or sympy closed forms)."""
    if isinstance(x, Fraction) and isinstance(y, Fraction):
        return x == y
    import sympy as sp

    from shufflekit.mechanisms.ordering import is_zero

    def to(t):
        return sp.Rational(t.numerator, t.denominator) if isinstance(t, Fraction) else t

    return bool(is_zero(sp.sympify(to(x)) - sp.sympify(to(y))))


def _sum(values, mults):
    terms = [_exact(m) * _exact(v) for m, v in zip(mults, values, strict=True)]
    if all(isinstance(t, Fraction) for t in terms):
        return sum(terms, Fraction(0))
    import sympy as sp

    return sp.Add(
        *[sp.Rational(t.numerator, t.denominator) if isinstance(t, Fraction) else t for t in terms]
    )


def _ball(mp_value) -> arb:
    """An Arb ball around a 60-digit value (relative radius 1e-50 covers its evaluation)."""
    import mpmath

    with mpmath.workdps(60):
        text = mpmath.nstr(mp_value, 55, min_fixed=1, max_fixed=0)
    mid = arb(text)
    return mid * (1 + arb(0, 1e-50))


@lru_cache(maxsize=32)
def _mirrored_triples_cached(mech) -> tuple[MirroredTriple, ...]:
    return tuple(_mirrored_triples(mech))


def _mirrored_triples(mech) -> list[MirroredTriple]:
    """Every mirrored triple of a finite mechanism, one per distinct 60-digit signature."""
    import mpmath

    if getattr(mech, "components", None):
        mech = mech.to_finite()
    rows, mult = mech._mp_entries
    inputs = list(mech.inputs)
    exact_rows = {x: r for x, r in zip(inputs, mech.probs, strict=True)}
    out, seen = [], set()
    with mpmath.workdps(60):
        for x0, x1 in itertools.permutations(inputs, 2):
            r0, r1 = rows[x0], rows[x1]
            side = []
            for j in range(len(mech.outputs)):
                d = r0[j] - r1[j]
                if abs(d) <= 1e-45 * max(abs(r0[j]), abs(r1[j])):
                    # equal to 45 digits: decide exactly
                    if _equal(_exact(exact_rows[x0][j]), _exact(exact_rows[x1][j])):
                        side.append(0)
                        continue
                side.append(1 if d > 0 else -1)
            s0 = [j for j, t in enumerate(side) if t > 0]
            s1 = [j for j, t in enumerate(side) if t < 0]
            if not s0 or not s1:
                continue

            def mp_mass(x, cols):
                return mpmath.fsum(mult[j] * rows[x][j] for j in cols)

            u, v = mp_mass(x0, s0), mp_mass(x0, s1)
            u1, v1 = mp_mass(x1, s0), mp_mass(x1, s1)
            tol = mpmath.mpf(10) ** -45
            if abs(u - v1) > tol or abs(v - u1) > tol:
                continue
            for z in inputs:
                sz0, sz1 = mp_mass(z, s0), mp_mass(z, s1)
                if abs(sz0 - sz1) > tol:
                    continue
                key = (mpmath.nstr(u, 40), mpmath.nstr(v, 40), mpmath.nstr(sz0, 40))
                if key in seen:
                    continue

                def exact_mass(x, cols):
                    return _sum(
                        [exact_rows[x][j] for j in cols], [mech.multiplicity[j] for j in cols]
                    )

                if not (
                    _equal(exact_mass(x0, s0), exact_mass(x1, s1))
                    and _equal(exact_mass(x0, s1), exact_mass(x1, s0))
                    and _equal(exact_mass(z, s0), exact_mass(z, s1))
                ):
                    continue
                seen.add(key)
                big, small = (u, v) if u >= v else (v, u)
                out.append(MirroredTriple(_ball(big), _ball(small), _ball(sz0), x0, x1, z))
    return out


def mirrored_triples(mech) -> list[MirroredTriple]:
    """The mirrored triples of ``mech`` (cached per mechanism object)."""
    try:
        return list(_mirrored_triples_cached(mech))
    except TypeError:  # an unhashable mechanism
        return _mirrored_triples(mech)


# ===================================================================== registration
def _cells_hook(mech):
    """A mechanism class without a probability matrix (a continuous randomizer) supplies its
    certified cells itself: ``variation_ratio_cells(adjacency) -> list[PairCell]`` covering every
    neighbouring pair (``p`` an upper bound on the pair's ratio, ``beta`` on its total
    variation, ``r`` a lower bound on the other users' coverage)."""
    hook = getattr(mech, "variation_ratio_cells", None)
    return hook if callable(hook) else None


def variation_ratio_supported(mech) -> bool | str:
    if _cells_hook(mech) is not None:
        return True
    return finite_ldp(mech)


@register(
    "variation-ratio",
    kind=Kind.UPPER,
    supports=variation_ratio_supported,
    summary="Wang et al. 2024 variation-ratio reduction, corrected (left-over visible), "
    "every pair with its own parameters",
)
def _variation_ratio(mech, n, *, adjacency="replace-one", **options):
    r"""Wang et al. 2024, Lemmas 4.4-4.5 and Thm 4.8 with the erratum of the module docstring:
    :math:`\max_{pairs}(1+p)\alpha\,D_{e^\varepsilon}(P^C_p\|Q^C_p)`, certified
    (:func:`shufflekit.numeric.kernels.mirrored_pair.mirrored_divergence`)."""
    hook = _cells_hook(mech)
    cells = hook(adjacency) if hook is not None else pair_cells(mech, adjacency)
    eps_max = None
    if hook is not None:  # every pair's ratio is at most max p: delta = 0 beyond its log
        with ctx.workprec(PREC):
            eps_max = float_up(arb(max(c.p for c in cells)).log())

    def fn(epsilon):
        epsilon = check_epsilon(epsilon)
        best, worst = 0.0, None
        for cell in cells:
            value = cell.delta(n, epsilon)
            if value > best:
                best, worst = value, cell
        note = f"worst pair {worst.pairs[0]}" if worst is not None else ""
        return 0.0, best, note

    return DeltaFunctionAccountant(
        mech,
        n,
        adjacency=adjacency,
        method="variation-ratio",
        kind=Kind.UPPER,
        fn=fn,
        eps_max=eps_max,
        certificate="Wang et al. 2024 variation-ratio reduction with the differing user's "
        "left-over visible (erratum of Lemma 4.5), every pair; Arb anchors and "
        "float sums with proven error bounds",
    )


def variation_ratio_lower_supported(mech) -> bool | str:
    ok = finite_ldp(mech)
    if ok is not True:
        return ok
    try:
        triples = mirrored_triples(mech)
    except Exception as exc:  # noqa: BLE001 - reported as the reason
        return f"could not read the mechanism's sides: {exc}"
    if not triples:
        return (
            "the Wang et al. 2024 Thm 5.1 lower bound needs a mirrored triple (x0, x1, z): "
            "R_x0(S0) = R_x1(S1), R_x0(S1) = R_x1(S0) and R_z(S0) = R_z(S1); this mechanism "
            "has none"
        )
    return True


@register(
    "variation-ratio-lower",
    kind=Kind.LOWER,
    supports=variation_ratio_lower_supported,
    adjacencies=("replace-one",),
    summary="Wang et al. 2024 Thm 5.1: divergence of the side counts of the best mirrored triple",
)
def _variation_ratio_lower(mech, n, *, adjacency="replace-one", **options):
    r"""Wang et al. 2024, Thm 5.1: for a mirrored triple the counts of the two sides are a
    post-processing of the shuffled reports, with the merged law of the module docstring."""
    triples = mirrored_triples(mech)
    # every triple gives a valid lower bound: after the first evaluation only the best
    # KEEP_TRIPLES are evaluated (the bound stays valid, and non-increasing in epsilon, since
    # the first value's triple is among them)
    kept: list = []

    def fn(epsilon):
        epsilon = check_epsilon(epsilon)
        best, arg = 0.0, None
        scored = []
        for t in kept or triples:
            with ctx.workprec(PREC):
                value = mirrored_divergence(t.u, t.v, t.s, n, epsilon, merged=True, upper=False)
            scored.append((value, id(t), t))
            if value > best:
                best, arg = value, t
        if not kept:
            kept.extend(t for _, _, t in sorted(scored, key=lambda x: (-x[0], x[1]))[:KEEP_TRIPLES])
        note = f"triple x0={arg.x0!r}, x1={arg.x1!r}, z={arg.z!r}" if arg is not None else ""
        return best, best, note

    return DeltaFunctionAccountant(
        mech,
        n,
        adjacency=adjacency,
        method="variation-ratio-lower",
        kind=Kind.LOWER,
        fn=fn,
        pairs="all",
        eps_max=numeric_eps0(mech),
        certificate="Wang et al. 2024 Thm 5.1 (side counts of a mirrored triple); Arb anchors "
        "and float sums with proven error bounds",
    )


__all__ = [
    "PairCell",
    "MirroredTriple",
    "pair_cells",
    "mirrored_triples",
    "WIDEN",
]
