r"""Published amplification bounds that the blanket bound is compared with.

Every function states its source and the exact statement it implements.  All
return *upper* bounds (on :math:`\varepsilon` for a target :math:`\delta`, or on
:math:`\delta` at an :math:`\varepsilon`); conditions of validity are checked and
violated conditions raise :class:`~shufflekit.errors.CannotCertify`
(or ``ValueError`` for malformed input).

* :func:`fmt21_epsilon` -- Feldman, McMillan, Talwar, *Hiding among the clones*
  (FOCS 2021), Thm 3.1 (closed form).
* :func:`clone_delta` -- the same paper's numerical bound: the exact
  :math:`D_{e^\varepsilon}(P_0^C\|P_1^C)` of the standard clone reduction (Su-Cheng-Wang 2026, Thm 3).
* :func:`fmt23_epsilon` -- Feldman, McMillan, Talwar, *Stronger privacy amplification
  by shuffling for Renyi and approximate DP* (SODA 2023), Thm 3.2, restricted by its
  erratum (see :func:`stronger_clone_applies`).
* :func:`hoeffding_delta`, :func:`bennett_delta` -- Balle, Bell, Gascon, Nissim,
  *The privacy blanket of the shuffle model* (CRYPTO 2019), Sec. 5, with the exact
  mechanism-specific :math:`\gamma` and privacy amplification random variable.
* :func:`chernoff_canonical_delta` -- Shvets 2026, Sec. 8.2, through
  :func:`shufflekit.numeric.methods.chernoff.chernoff_delta`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
from flint import arb, ctx

from shufflekit.errors import CannotCertify
from shufflekit.numeric.accountant import Accountant, register
from shufflekit.numeric.bound import Bound, Kind, interval_of_arb
from shufflekit.numeric.kernels.directed_rounding import float_down, float_up
from shufflekit.numeric.kernels.gparv_law import float_matrix, ratio_laws
from shufflekit.validation import check_delta, check_epsilon, check_n


def _check_eps0(eps0) -> float:
    e = float(eps0)
    if math.isnan(e) or not (0 < e < math.inf):
        raise ValueError(f"eps0={eps0!r} is not allowed; allowed range (0, inf)")
    return e


def _ldp_eps0(mech) -> float:
    from shufflekit.numeric.kernels.gparv_law import numeric_eps0

    e0 = numeric_eps0(mech)
    if not math.isfinite(e0):
        raise ValueError(
            f"{getattr(mech, 'name', 'mechanism')} is not eps0-LDP for any finite "
            "eps0; this bound needs a pure LDP randomizer"
        )
    return e0


# ----------------------------------------------------------------- FMT 2021
def fmt21_epsilon(eps0: float, n: int, delta: float) -> float:
    r"""Feldman-McMillan-Talwar 2021, Thm 3.1 (closed form).

    For an :math:`\varepsilon_0`-LDP randomizer and
    :math:`\varepsilon_0 \le \log\big(n/(16\log(2/\delta))\big)`, the shuffled output is
    :math:`(\varepsilon,\delta)`-DP with

    .. math::
        \varepsilon = \log\Big(1 + \frac{e^{\varepsilon_0}-1}{e^{\varepsilon_0}+1}
        \Big(\frac{8\sqrt{e^{\varepsilon_0}\log(4/\delta)}}{\sqrt n} + \frac{8e^{\varepsilon_0}}{n}\Big)\Big).
    """
    eps0, n, delta = _check_eps0(eps0), check_n(n), check_delta(delta)
    limit = math.log(n / (16 * math.log(2 / delta))) if n > 16 * math.log(2 / delta) else -math.inf
    if eps0 > limit:
        raise CannotCertify(
            f"FMT 2021 Thm 3.1 needs eps0 <= log(n/(16 log(2/delta))) = {limit:.6g}; "
            f"got eps0={eps0:g}"
        )
    e = math.exp(eps0)
    return math.log1p(
        (e - 1) / (e + 1) * (8 * math.sqrt(e * math.log(4 / delta)) / math.sqrt(n) + 8 * e / n)
    )


# ----------------------------------------------------------------- FMT 2023
def stronger_clone_applies(mech, tol: float = 1e-12) -> tuple[bool, str]:
    r"""Membership in the class where the stronger-clone bound is kept by its erratum.

    Following Su-Cheng-Wang 2026, Sec. 3.3: the corrected argument needs the differing user to
    have no left-over part, i.e. for every pair :math:`x^0\ne x^1`,
    :math:`R_{x^0} = (e^{\varepsilon_0}Q_0 + Q_1)/(e^{\varepsilon_0}+1)`,
    :math:`R_{x^1} = (Q_0 + e^{\varepsilon_0}Q_1)/(e^{\varepsilon_0}+1)` with distributions
    :math:`Q_0, Q_1` (Thm 6 with :math:`p = 1/(e^{\varepsilon_0}+1)` and
    :math:`1-p-e^{\varepsilon_0}p = 0`), and every input contains the common part:
    :math:`R_x \ge p(Q_0+Q_1) = (R_{x^0}+R_{x^1})/(e^{\varepsilon_0}+1)` pointwise.
    (:math:`Q_0,Q_1\ge0` is the :math:`\varepsilon_0`-LDP condition itself.)
    Binary randomized response and k-RR belong to the class.  The check reads the full
    probability matrix, so joint compositions and symmetry-lumped views are not admitted.
    """
    if getattr(mech, "components", None):
        return False, "the check covers a single finite mechanism, not a joint composition"
    if getattr(mech, "is_lumped", False):
        return False, "the check needs the full matrix; this mechanism is a symmetry-lumped view"
    P, mult = float_matrix(mech)
    e = math.exp(_ldp_eps0(mech))
    k = len(P)
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            common = (P[i] + P[j]) / (e + 1)
            bad = np.where(P < common[None, :] * (1 - tol))
            if bad[0].size:
                x, y = bad[0][0], bad[1][0]
                return False, (
                    f"input {mech.inputs[x]!r} puts {P[x, y]:.6g} on output "
                    f"{mech.outputs[y]!r}, below the common part "
                    f"{common[y]:.6g} of the pair ({mech.inputs[i]!r}, {mech.inputs[j]!r})"
                )
    return True, "every input contains the common part (R_x0 + R_x1)/(e^eps0 + 1)"


def fmt23_epsilon(eps0: float, n: int, delta: float, mech=None) -> float:
    r"""Feldman-McMillan-Talwar 2023, Thm 3.2 (stronger clone), within its erratum's class.

    For an :math:`\varepsilon_0`-LDP randomizer in the class of
    :func:`stronger_clone_applies` and
    :math:`\varepsilon_0 \le \log\big(n/(8\log(2/\delta)) - 1\big)`:

    .. math::
        \varepsilon = \log\Big(1 + (e^{\varepsilon_0}-1)\Big(
        \frac{4\sqrt{2\log(4/\delta)}}{\sqrt{(e^{\varepsilon_0}+1)n}} + \frac4n\Big)\Big).

    ``mech=None`` means the caller asserts membership (e.g. binary randomized response);
    otherwise membership is checked and a mechanism outside the class raises
    :class:`CannotCertify`.
    """
    eps0, n, delta = _check_eps0(eps0), check_n(n), check_delta(delta)
    if mech is not None:
        ok, why = stronger_clone_applies(mech)
        if not ok:
            raise CannotCertify(
                "the 2023 stronger-clone bound is only established (erratum) for "
                f"randomizers whose differing user has no left-over part: {why}"
            )
    arg = n / (8 * math.log(2 / delta)) - 1
    limit = math.log(arg) if arg > 0 else -math.inf
    if eps0 > limit:
        raise CannotCertify(
            f"FMT 2023 Thm 3.2 needs eps0 <= log(n/(8 log(2/delta)) - 1) = "
            f"{limit:.6g}; got eps0={eps0:g}"
        )
    e = math.exp(eps0)
    return math.log1p(
        (e - 1) * (4 * math.sqrt(2 * math.log(4 / delta)) / math.sqrt((e + 1) * n) + 4 / n)
    )


def closed_form_delta(eps_of_delta: Callable[[float], float], epsilon: float) -> float:
    r"""Invert a closed form :math:`\varepsilon(\delta)` (decreasing in :math:`\delta`):
    the smallest :math:`\delta` found (bisection in :math:`\log\delta`, upper direction) with
    :math:`\varepsilon(\delta)\le\varepsilon`.  Raises :class:`CannotCertify` if none."""
    epsilon = check_epsilon(epsilon)

    def ok(d):
        try:
            return eps_of_delta(d) <= epsilon
        except CannotCertify:
            return False

    hi = 1 - 1e-12
    if not ok(hi):
        raise CannotCertify(f"no delta < 1 gives epsilon <= {epsilon:g} with this bound")
    lo = 1e-300
    if ok(lo):
        return lo
    a, b = math.log(lo), math.log(hi)
    for _ in range(200):
        mid = 0.5 * (a + b)
        if ok(math.exp(mid)):
            b = mid
        else:
            a = mid
        if b - a < 1e-12:
            break
    return math.exp(b)


# ------------------------------------------------------- standard clone, numerical
def clone_delta(eps0: float, n: int, epsilon: float) -> tuple[float, float]:
    r"""Exact :math:`D_{e^\varepsilon}(P_0^C\|P_1^C)` of the standard clone (FMT 2021, Thm 3.2;
    Su-Cheng-Wang 2026, Thm 3), an upper bound for every :math:`\varepsilon_0`-LDP randomizer.

    :math:`C\sim\mathrm{Bin}(n-1, e^{-\varepsilon_0})`, :math:`A\sim\mathrm{Bin}(C,1/2)`,
    :math:`\Delta\sim\mathrm{Bern}(p)`, :math:`p = e^{\varepsilon_0}/(e^{\varepsilon_0}+1)`,
    :math:`P_0^C = (A+\Delta, C-A+1-\Delta)`, :math:`P_1^C = (A+1-\Delta, C-A+\Delta)`.
    Given :math:`C=c`, with :math:`b_c` the Bin(c, 1/2) pmf,
    :math:`P_0(a) = p\,b_c(a-1) + (1-p)\,b_c(a)`, :math:`P_1(a) = (1-p)\,b_c(a-1) + p\,b_c(a)`, so

    .. math::
        D = \sum_c P(C=c)\sum_{a=0}^{c+1}\big(\mathcal A\,b_c(a-1) + \mathcal B\,b_c(a)\big)_+,
        \quad \mathcal A = p - e^\varepsilon(1-p),\ \mathcal B = 1-p-e^\varepsilon p .

    (The two directions are equal by symmetry.)  Enclosed with the certified binomial rows of
    :mod:`shufflekit.numeric.kernels.positive_part`: :math:`\mathcal A,\mathcal B` as Arb balls (upper
    ends for the upper bound), the inner sums over certified pmf windows (beyond a window the
    summand is at most :math:`\mathcal A\,b_c(a-1)`, bounded by the certified tail), the outer
    sum in Arb, and :math:`P(C\notin\text{window})\,\mathcal A` added to the upper end.
    Returns ``(upper bound, width of the enclosure)`` (legacy shape; see :func:`clone_enclosure`).
    """
    lo, hi = clone_enclosure(eps0, n, epsilon)
    return hi, hi - lo


#: Most binomial terms :func:`clone_enclosure` sums for one epsilon (rows of the outer window
#: times the widest inner window): 5.3e7 at n = 1e6, eps0 = 1 (a minute on a loaded core),
#: 5.2e8 at n = 1e7; beyond it the closed form ``clone`` or the exact ``blanket`` answers.
CLONE_MAX_TERMS = 10**8


def clone_enclosure(eps0: float, n: int, epsilon: float, bits: float = 64.0) -> tuple[float, float]:
    """Float enclosure ``(lo, hi)`` of the clone divergence (see :func:`clone_delta`).

    Raises :class:`CannotCertify` before any summation when the binomial windows would hold
    more than :data:`CLONE_MAX_TERMS` terms."""
    from flint import arb, ctx

    from shufflekit.numeric.kernels.positive_part import REL_TARGET, U, rows_for

    eps0, n, epsilon = _check_eps0(eps0), check_n(n), check_epsilon(epsilon)
    ctx.prec = 128
    E0 = arb(eps0).exp()
    p = E0 / (E0 + 1)
    e = arb(epsilon).exp()
    Aq, Bq = p - e * (1 - p), 1 - p - e * p
    if Aq.upper() <= 0:
        return 0.0, 0.0
    a_hi, a_lo = float_up(Aq), float_down(Aq)
    b_hi, b_lo = float_up(Bq), float_down(Bq)
    N = n - 1
    outer = rows_for(1 / E0, bits, bits).get(N)
    half = rows_for(arb(0.5), bits, bits)
    terms = outer.size * half.meta(outer.hi).size
    if terms > CLONE_MAX_TERMS:
        raise CannotCertify(
            f"clone-numeric at n={n}, eps0={eps0:g} would sum about {terms:.2g} "
            f"binomial terms (more than {CLONE_MAX_TERMS:.0e}); the closed form "
            "'clone' or the exact 'blanket' answers at this size"
        )
    hi_sum, lo_sum = arb(0), arb(0)
    for idx, c in enumerate(range(outer.lo, outer.hi + 1)):
        row = half.get(c)
        b = row.pmf
        prev = np.concatenate([[0.0], b[:-1]])  # b_c(a-1) for a = lo .. hi
        up = np.maximum(a_hi * prev * (1 + row.kappa) + b_hi * b * (1 - row.kappa), 0.0)
        dn = np.maximum(a_lo * prev * (1 - row.kappa) + b_lo * b * (1 + row.kappa), 0.0)
        # a = hi + 1: A b_c(hi); beyond: A P(B_c > hi); below the window: A P(B_c < lo)
        t_hi = b[-1] * row.r_hi / (1 - row.r_hi) if row.r_hi else 0.0
        t_lo = b[0] * row.r_lo / (1 - row.r_lo) if row.r_lo else 0.0
        last_up = a_hi * b[-1] * (1 + row.kappa)  # a = hi + 1 (b_c(hi + 1) >= 0)
        last_dn = a_lo * b[-1] * (1 - row.kappa) if row.hi == c else 0.0  # exact when hi = c
        extra = (last_up + a_hi * (t_hi + t_lo) * (1 + row.kappa)) * (1 + 1e-12)
        su = (float(np.sum(up)) + extra) * (1 + 8 * U + 2 * up.size * U)
        sd = (float(np.sum(dn)) + max(last_dn, 0.0)) * (1 - 8 * U - 2 * dn.size * U)
        w = arb(float(outer.pmf[idx])) * arb(2) ** (outer.E + row.E)
        hi_sum += w * (1 + arb(outer.kappa)) * arb(su)
        lo_sum += w * (1 - arb(outer.kappa)) * arb(max(sd, 0.0))
    # C outside its window: the inner sum is at most A
    t_out = 0.0
    if outer.r_lo:
        t_out += outer.pmf[0] * outer.r_lo / (1 - outer.r_lo)
    if outer.r_hi:
        t_out += outer.pmf[-1] * outer.r_hi / (1 - outer.r_hi)
    budget = arb(t_out * (1 + outer.kappa) * (1 + 1e-12)) * arb(2) ** outer.E * Aq.upper()
    hi_sum += budget
    if budget.upper() > REL_TARGET * hi_sum.upper() and bits < 1800 and hi_sum.upper() > 1e-305:
        return clone_enclosure(eps0, n, epsilon, bits=bits + 200)
    lo_f = float_down(lo_sum) if lo_sum.lower() > 0 else 0.0
    return (
        math.nextafter(lo_f, 0.0) if lo_f > 0 else 0.0,
        min(1.0, math.nextafter(float_up(hi_sum), math.inf)),
    )


# ----------------------------------------------------------------- Balle et al.
def _worst_pair_float(mech, n: int, epsilon: float, adjacency: str, what: str, ball_of) -> float:
    r"""The float upper end of ``ball_of(mech, n, epsilon, adjacency)`` (the worst pair's bound,
    evaluated in Arb by :func:`_worst_pair_arb`), capped at 1; 1 if the ball is not finite.
    Raises :class:`CannotCertify` at :math:`\varepsilon = 0` (both bounds divide by
    :math:`e^\varepsilon - 1`).  There is no float64 evaluation: in float64 the Bennett term
    :math:`(1-\gamma+\gamma e^{-s})^n - (1-\gamma)^n` is 0 for :math:`\gamma < 10^{-16}`
    (binary RR with :math:`\varepsilon_0 \ge 37`) although the bound is positive."""
    from shufflekit.numeric.kernels.caller_state import certified_arithmetic

    n, epsilon = check_n(n), check_epsilon(epsilon)
    _ldp_eps0(mech)
    if epsilon == 0:
        raise CannotCertify(f"the {what} bound needs epsilon > 0 (it divides by e^eps - 1)")
    with certified_arithmetic():
        ball = ball_of(mech, n, epsilon, adjacency)
        return min(float_up(ball), 1.0) if ball.is_finite() else 1.0


def hoeffding_delta(mech, n: int, epsilon: float, adjacency: str = "replace-one") -> float:
    r"""Balle et al. 2019, Hoeffding bound (Sec. 5), with the mechanism's exact PARV.

    With :math:`L` the privacy amplification random variable (mean
    :math:`-a`, :math:`a = e^\varepsilon-1`, range :math:`b = \max L - \min L`),
    Hoeffding's inequality and :math:`\int_0^\infty e^{-2(ma+s)^2/(mb^2)}ds \le
    \tfrac{b^2}{4a}e^{-2ma^2/b^2}` in Lemma 5.3 give

    .. math::
        \delta \le \frac{1}{\gamma n}\,\frac{b^2}{4a}\,\big(1-\gamma(1-e^{-2a^2/b^2})\big)^n .

    Worst over neighbouring pairs.  Needs :math:`\varepsilon>0`.
    """
    return _worst_pair_float(mech, n, epsilon, adjacency, "Hoeffding", hoeffding_delta_arb)


def bennett_delta(mech, n: int, epsilon: float, adjacency: str = "replace-one") -> float:
    r"""Balle et al. 2019, Bennett bound (Sec. 5), with the mechanism's exact PARV.

    With :math:`b_+ = \max L > 0`, :math:`c = \mathbb{E}L^2`, :math:`a = e^\varepsilon - 1`,
    Bennett's moment bound :math:`\mathbb{E}e^{\lambda L} \le \exp(-\lambda a +
    \tfrac{c}{b_+^2}(e^{\lambda b_+}-1-\lambda b_+))` at
    :math:`\lambda = \log(1+\beta)/b_+` gives
    :math:`\mathbb{E}(\sum_{i\le m}L_i)_+ \le \frac{b_+}{\log(1+\beta)}e^{-m\alpha\phi(\beta)}`,
    :math:`\alpha = c/b_+^2`, :math:`\beta = ab_+/c`, :math:`\phi(u) = (1+u)\log(1+u)-u`, so

    .. math::
        \delta \le \frac{1}{\gamma n}\sum_{m=1}^{n}\binom nm\gamma^m(1-\gamma)^{n-m}
        \frac{b_+}{\log(1+\beta)}e^{-m\alpha\phi(\beta)} .

    The binomial sum is evaluated in closed form:
    :math:`\sum_{m\ge0}\binom nm\gamma^m(1-\gamma)^{n-m}e^{-ms} = (1-\gamma+\gamma e^{-s})^n`,
    minus the :math:`m=0` term :math:`(1-\gamma)^n`.
    """
    return _worst_pair_float(mech, n, epsilon, adjacency, "Bennett", bennett_delta_arb)


# ----------------------------------------------------------------- Chernoff (Shvets 2026)
def _exact_fraction(v):
    """``v`` as a :class:`fractions.Fraction` if it is a rational number (a sympy Rational, an
    int or a float, which is a dyadic rational), else ``None``."""
    from fractions import Fraction

    import sympy as sp

    if isinstance(v, sp.Rational):
        return Fraction(int(v.p), int(v.q))
    if isinstance(v, (int, float, Fraction)) and not isinstance(v, bool):
        return Fraction(v)
    return None


def likelihood_excess(mech, i: int, j: int) -> np.ndarray:
    r"""Float :math:`r(y) = R_{x_j}(y)/R_{x_i}(y) - 1` per output of ``mech`` (0 where both
    entries are 0), computed from the exact entries as :math:`(R_{x_j} - R_{x_i})/R_{x_i}` and
    rounded once: from the float matrix, rows equal up to :math:`2^{-141}` give
    :math:`r = 0` instead of :math:`\pm 2^{-140}`, and an entry :math:`1 - 3\cdot 2^{-69}`
    against :math:`1 - 2^{-133}` gives 0 instead of :math:`-5.1\cdot 10^{-21}`.

    Rational entries (sympy Rationals, floats) are subtracted exactly; other entries (such as
    :math:`e^{\varepsilon_0}/(e^{\varepsilon_0}+1)`) at the 60 significant digits of the
    mechanism's own high-precision evaluation, an absolute error of about
    :math:`10^{-60}` in :math:`r`.
    """
    import mpmath

    rows, _ = mech._mp_entries
    mp_i, mp_j = rows[mech.inputs[i]], rows[mech.inputs[j]]
    out = np.zeros(len(mech.outputs))
    for y, (pi, pj) in enumerate(zip(mech.probs[i], mech.probs[j])):
        if pi == pj:
            continue
        fi, fj = _exact_fraction(pi), _exact_fraction(pj)
        if fi is not None and fj is not None:
            out[y] = float((fj - fi) / fi) if fi != 0 else (math.inf if fj != 0 else 0.0)
            continue
        with mpmath.workdps(60):
            if mp_i[y] == 0:
                out[y] = math.inf if mp_j[y] != 0 else 0.0
            else:
                out[y] = float((mp_j[y] - mp_i[y]) / mp_i[y])
    return out


def chernoff_canonical_delta(mech, n: int, epsilon: float) -> float:
    r"""Shvets 2026, Sec. 8.2 Chernoff bound for the canonical pair, worst over ordered pairs.

    Canonical pair: the other :math:`n-1` users hold :math:`x^0` (law
    :math:`w_0 = R_{x^0}`), the differing user holds :math:`x^0` or :math:`x^1`
    (:math:`w_1 = R_{x^1}`).  This bounds that pair-specific divergence only (both
    orderings are tried), not the mechanism-wide worst case.

    Each output class enters with its mass (multiplicity times per-output probability) and
    the ratio excess :math:`r = w_1/w_0 - 1` of :func:`likelihood_excess`; outputs that
    neither row can produce carry no mass and are left out (a column of zeros is not a
    missing support).  Ordered pairs are skipped only when their floats and ratios are
    identical.
    """
    from shufflekit.numeric.methods.chernoff import chernoff_delta

    n, epsilon = check_n(n), check_epsilon(epsilon)
    if getattr(mech, "components", None):
        mech = mech.to_finite()
    P, mult = float_matrix(mech)
    mass = P * mult[None, :]
    best = 0.0
    seen = set()
    for i in range(len(P)):
        for j in range(len(P)):
            if i == j:
                continue
            keep = (P[i] > 0) | (P[j] > 0)
            if keep.sum() < 2:  # both rows are the same point mass: delta = 0
                continue
            w0, w1 = mass[i, keep], mass[j, keep]
            r = likelihood_excess(mech, i, j)[keep]
            key = (w0.tobytes(), w1.tobytes(), r.tobytes())
            if key in seen:
                continue
            seen.add(key)
            best = max(best, chernoff_delta(w0, w1, n, epsilon, direction="both", excess=r))
    return best


# ===================================================================== registry entries
# Each baseline is registered with the kind it proves.  Closed forms are evaluated in Arb
# ball arithmetic (python-flint), so an ``upper`` value is the upper end of a ball that
# contains the exact closed-form value.


ARB_PREC = 128  # working precision (bits) of the closed-form evaluations


def fmt21_epsilon_arb(eps0: float, n: int, delta: float):
    r"""Ball containing the FMT 2021 Thm 3.1 value (see :func:`fmt21_epsilon`), or ``None``
    when its condition :math:`\varepsilon_0 \le \log(n/(16\log(2/\delta)))` is not proven."""
    ctx.prec = ARB_PREC
    e0, d = arb(eps0), arb(delta)
    arg = arb(n) / (16 * (2 / d).log())
    if not (arg > 0) or not (e0 <= arg.log()):
        return None
    e = e0.exp()
    return (
        1 + (e - 1) / (e + 1) * (8 * (e * (4 / d).log()).sqrt() / arb(n).sqrt() + 8 * e / n)
    ).log()


def fmt23_epsilon_arb(eps0: float, n: int, delta: float):
    r"""Ball containing the FMT 2023 Thm 3.2 value (see :func:`fmt23_epsilon`), or ``None``
    when its condition :math:`\varepsilon_0 \le \log(n/(8\log(2/\delta)) - 1)` is not proven."""
    ctx.prec = ARB_PREC
    e0, d = arb(eps0), arb(delta)
    arg = arb(n) / (8 * (2 / d).log()) - 1
    if not (arg > 0) or not (e0 <= arg.log()):
        return None
    e = e0.exp()
    return (
        1 + (e - 1) * (4 * (2 * (4 / d).log()).sqrt() / ((e + 1) * n).sqrt() + arb(4) / n)
    ).log()


def finite_ldp(mech) -> bool | str:
    """True for a finite mechanism with a finite local eps0 (what every finite method needs)."""
    from shufflekit.numeric.kernels.gparv_law import is_finite_ldp

    return is_finite_ldp(mech)


def eps0_ldp(mech) -> bool | str:
    """True for any mechanism with a finite local eps0 (finite, or continuous through the lattice
    engine): what the clone bounds need (they hold for every eps0-LDP randomizer)."""
    from shufflekit.numeric.kernels.gparv_law import is_continuous_ldp

    return True if is_continuous_ldp(mech) is True else finite_ldp(mech)


class ClosedFormAccountant(Accountant):
    r"""An accountant whose source gives :math:`\varepsilon(\delta)` in closed form.

    ``get_epsilon`` evaluates the closed form in Arb and reports the upper end of the ball
    (capped at the trivially valid :math:`\varepsilon_0`).  ``get_delta`` inverts it: bisection
    in :math:`\log\delta` keeps a bracket :math:`[\delta_a, \delta_b]` whose right end is
    *proven* to give :math:`\varepsilon(\delta_b) \le \varepsilon` (so :math:`\delta_b` is a
    valid delta at :math:`\varepsilon`) and whose left end is proven not to.
    """

    kind = Kind.UPPER

    def __init__(self, mech, n: int, *, adjacency: str, method: str, eps_of, certificate: str):
        self.mechanism, self.n, self.adjacency, self.method = mech, n, adjacency, method
        self.eps_max = _ldp_eps0(mech)
        self._eps_of = eps_of
        self.certificate = certificate

    def _eps_ball(self, delta: float):
        return self._eps_of(self.eps_max, self.n, delta)

    def get_epsilon(self, delta: float, *, rel_tol: float = 1e-9) -> Bound:
        t0 = time.perf_counter()
        delta = check_delta(delta)
        ball = self._eps_ball(delta)
        if ball is None or not (ball.upper() < self.eps_max):
            return self._bound(
                "epsilon",
                delta,
                0.0,
                self.eps_max,
                seconds=time.perf_counter() - t0,
                note=f"the {self.method} condition does not hold (or its value "
                f"exceeds eps0) at delta={delta:g}; eps0 is trivially valid",
            )
        lo, hi = interval_of_arb(ball)
        return self._bound("epsilon", delta, max(lo, 0.0), hi, seconds=time.perf_counter() - t0)

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        epsilon = check_epsilon(epsilon)
        if epsilon >= self.eps_max:
            return self._bound("delta", epsilon, 0.0, 0.0, note="epsilon >= eps0: delta = 0")

        def ok(log_d: float) -> bool:
            b = self._eps_ball(math.exp(log_d))
            return b is not None and bool(b.upper() <= epsilon)

        a, b = math.log(1e-300), math.log1p(-1e-12)
        if ok(a):
            return self._bound("delta", epsilon, 0.0, 1e-300, seconds=time.perf_counter() - t0)
        if not ok(b):
            return self._bound(
                "delta",
                epsilon,
                0.0,
                1.0,
                seconds=time.perf_counter() - t0,
                note=f"no delta < 1 gives epsilon <= {epsilon:g} with this bound",
            )
        while b - a > 1e-10 * max(1.0, abs(b)):
            mid = 0.5 * (a + b)
            if ok(mid):
                b = mid
            else:
                a = mid
        return self._bound(
            "delta",
            epsilon,
            math.exp(a) * (1 - 1e-15),
            math.exp(b) * (1 + 1e-15),
            seconds=time.perf_counter() - t0,
        )


@register(
    "clone",
    kind=Kind.UPPER,
    supports=eps0_ldp,
    adjacencies=("replace-one",),
    summary="FMT 2021 Thm 3.1 closed form (hiding among the clones), any eps0-LDP randomizer",
)
def _clone(mech, n, *, adjacency="replace-one", **options):
    r"""FMT 2021, Thm 3.1: valid for every :math:`\varepsilon_0`-LDP randomizer and all
    replace-one pairs; evaluated in Arb (the certificate covers the closed form and its
    condition :math:`\varepsilon_0 \le \log(n/(16\log(2/\delta)))`)."""
    return ClosedFormAccountant(
        mech,
        n,
        adjacency=adjacency,
        method="clone",
        eps_of=fmt21_epsilon_arb,
        certificate="FMT 2021 Thm 3.1 (all pairs), closed form in Arb",
    )


def stronger_clone_supported(mech) -> bool | str:
    ok = finite_ldp(mech)
    if ok is not True:
        return ok
    good, why = stronger_clone_applies(mech)
    return (
        True
        if good
        else f"the 2023 stronger-clone bound is only established (erratum) for "
        f"randomizers without a left-over part: {why}"
    )


@register(
    "stronger-clone",
    kind=Kind.UPPER,
    supports=stronger_clone_supported,
    adjacencies=("replace-one",),
    summary="FMT 2023 Thm 3.2 closed form, within its erratum's class (e.g. k-RR)",
)
def _stronger_clone(mech, n, *, adjacency="replace-one", **options):
    r"""FMT 2023, Thm 3.2, restricted by its erratum to :func:`stronger_clone_applies`;
    evaluated in Arb."""
    return ClosedFormAccountant(
        mech,
        n,
        adjacency=adjacency,
        method="stronger-clone",
        eps_of=fmt23_epsilon_arb,
        certificate="FMT 2023 Thm 3.2 within its erratum's class (all pairs), closed form in Arb",
    )


class DeltaFunctionAccountant(Accountant):
    """An accountant from a function ``epsilon -> (lo, hi)`` enclosing the method's delta."""

    def __init__(
        self,
        mech,
        n: int,
        *,
        adjacency: str,
        method: str,
        kind: Kind,
        fn,
        certificate: str,
        pairs: str = "all",
        eps_max: float | None = None,
        monotone: bool = True,
    ):
        self.mechanism, self.n, self.adjacency, self.method = mech, n, adjacency, method
        self.kind, self._fn, self.certificate, self.pairs = Kind(kind), fn, certificate, pairs
        self.monotone = monotone
        self.eps_max = _ldp_eps0(mech) if eps_max is None else eps_max

    def get_delta(self, epsilon: float) -> Bound:
        t0 = time.perf_counter()
        epsilon = check_epsilon(epsilon)
        if epsilon >= self.eps_max and self.kind is Kind.UPPER:
            return self._bound("delta", epsilon, 0.0, 0.0, note="epsilon >= eps0: delta = 0")
        lo, hi, note = self._fn(epsilon)
        hi = min(hi, 1.0)  # a divergence never exceeds 1
        return self._bound(
            "delta", epsilon, min(max(lo, 0.0), hi), hi, note=note, seconds=time.perf_counter() - t0
        )


def _arb_parv(mech, adjacency: str):
    """Per distinct pair: balls (gamma, alpha, beta, weight) of the float law, widened by a
    relative 2^-40 that covers the float evaluation of the matrix and of the ratios."""
    ctx.prec = ARB_PREC
    rad = arb(0, 2.0**-40)
    out = []
    for law in ratio_laws(mech, adjacency):
        al = [arb(float(a)) * (1 + rad) for a in law.alpha]
        be = [arb(float(b)) * (1 + rad) for b in law.beta]
        w = [arb(float(q)) * (1 + rad) for q in law.weight]
        out.append((arb(law.gamma) * (1 + rad), al, be, w))
    return out


def _unit_ends(x):
    r"""The end points of the ball ``x`` clipped to :math:`[0, 1]` (the range of a
    probability), as exact Arb points; ``x`` must meet :math:`[0, 1]`.  (A ball cannot carry
    the clipped interval itself: its radius is rounded up to 30 bits, so even ``arb(0.5, 0.5)``
    reaches below 0 and above 1.)"""
    lo, hi = x.lower(), x.upper()
    return (lo if lo > 0 else arb(0)), (hi if hi < 1 else arb(1))


def _log_mixture(gam, t):
    r"""Ball of :math:`\log q`, :math:`q = 1 - \gamma(1 - e^{-t}) = (1-\gamma) + \gamma e^{-t}`,
    for balls :math:`\gamma \subset (0, 1]`, :math:`t \ge 0`, without cancellation.

    :math:`q` is non-increasing in :math:`\gamma` and in :math:`t`, so it is evaluated at exact
    end points only: :math:`\log q \in [\log q(\gamma_+, t_+), \log q(\gamma_-, t_-)]`.  At a point,
    :math:`\log q` is enclosed twice and the tighter enclosure kept: as
    :math:`\mathrm{log1p}(-\gamma\,(-\mathrm{expm1}(-t)))` (accurate when :math:`q` is near 1,
    e.g. :math:`\gamma = 10^{-39}`, where :math:`1 - \gamma` is 1 at 128 bits) and as
    :math:`\log((1-\gamma) + \gamma e^{-t})`, a sum of two non-negative terms (accurate when
    :math:`q` is near 0, e.g. :math:`\gamma = 1`, :math:`t = 10^3`)."""

    def at(g, s):
        direct = ((1 - g) + g * (-s).exp()).log()
        x = g * (-(-s).expm1())
        if not x < 1:
            return direct
        near_one = (-x).log1p()
        return near_one if near_one.rad() < direct.rad() else direct

    g_lo, g_hi = _unit_ends(gam)
    t_lo, t_hi = (t.lower() if t.lower() > 0 else arb(0)), t.upper()
    return at(g_hi, t_hi).union(at(g_lo, t_lo))


def _one_minus_power(w, n: int):
    r"""Ball of :math:`1 - (1 - w)^n` for a ball :math:`w` meeting :math:`[0, 1]`: increasing in
    :math:`w`, evaluated at the end points as :math:`-\mathrm{expm1}(n\,\mathrm{log1p}(-w))`
    (:math:`n w` for tiny :math:`w` without cancellation; 1 at :math:`w = 1`)."""

    def at(p):
        if p == 0:
            return arb(0)
        if p == 1:
            return arb(1)
        return -(n * (-p).log1p()).expm1()

    w_lo, w_hi = _unit_ends(w)
    return at(w_lo).union(at(w_hi))


def _bennett_phi(beta):
    r"""Ball of :math:`\phi(\beta) = (1+\beta)\log(1+\beta) - \beta` for a ball :math:`\beta > 0`.

    For :math:`\beta < 1/2` the two terms cancel to :math:`\phi(\beta) \approx \beta^2/2` (at
    :math:`\beta = 10^{-46}` the direct form is :math:`\pm 10^{-38}` at 128 bits), so the
    alternating series :math:`\phi(\beta) = \sum_{k\ge2} (-1)^k \beta^k/(k(k-1))` is summed
    instead; its terms decrease, so the remainder after the term :math:`k = K` is at most the
    next term, :math:`\beta^{K+1}/((K+1)K)`, added as a radius."""
    if not beta.upper() < 0.5:
        return (1 + beta) * beta.log1p() - beta
    b_hi = arb(beta.upper())
    power, total, k = beta * beta, arb(0), 2
    cut = arb(2) ** -(ctx.prec + 8)
    while True:
        total += (power if k % 2 == 0 else -power) / (k * (k - 1))
        # next term relative to the leading one: at most 2 beta^(k-1) / (k(k+1)) <= beta^(k-1)
        if b_hi ** (k - 1) < cut:
            break
        power *= beta
        k += 1
    tail = b_hi ** (k + 1) / ((k + 1) * k)
    return total + tail * arb(0, 1)


def _worst_pair_arb(mech, n: int, epsilon: float, adjacency: str, pair_delta):
    r"""Largest ball of ``pair_delta`` over the distinct pairs of ``adjacency``, or ``None`` at
    epsilon = 0.

    For each pair, with :math:`a = e^\varepsilon - 1` (as :math:`\mathrm{expm1}(\varepsilon)`:
    at :math:`\varepsilon = 10^{-297}` the form :math:`e^\varepsilon - 1` is a ball around 0) and
    the privacy-loss values :math:`L_i = \gamma(\alpha_i - e^\varepsilon \beta_i)` (Balle et al.
    2019, Sec. 5), a pair whose largest :math:`L_i` is certainly :math:`\le 0` contributes
    nothing; otherwise it contributes ``pair_delta(gam, w, L, lmax, a)``.  A pair whose ball is
    not finite makes the answer not finite (the caller reports the trivial delta <= 1): it
    must not be passed over as if it contributed nothing."""
    if epsilon <= 0:
        return None
    ctx.prec = ARB_PREC
    a = arb(epsilon).expm1()
    best = arb(0)
    for gam, al, be, w in _arb_parv(mech, adjacency):
        L = [gam * (x - (a + 1) * y) for x, y in zip(al, be)]
        lmax = max(L, key=lambda b: float_up(b))
        if lmax.upper() <= 0:
            continue
        val = pair_delta(gam, w, L, lmax, a)
        if not val.is_finite():
            return val
        if val.upper() > best.upper():
            best = val
    return best


def hoeffding_delta_arb(mech, n: int, epsilon: float, adjacency: str = "replace-one"):
    r"""Ball of the Hoeffding bound of :func:`hoeffding_delta` (max over pairs), or ``None`` at
    epsilon = 0:
    :math:`\frac{1}{\gamma n}\frac{b^2}{4a}\,q^n`, :math:`q = 1-\gamma(1-e^{-2a^2/b^2})`, with
    :math:`q^n = \exp(n \log q)` and :math:`\log q` from :func:`_log_mixture` (at
    :math:`\gamma \approx 1` and :math:`2a^2/b^2 \approx 10^{-623}` the form
    :math:`1 - \gamma(1 - e^{-t})` is 1 at 128 bits)."""

    def pair_delta(gam, w, L, lmax, a):
        lmin = min(L, key=lambda b: float_down(b))
        b = arb(lmax.upper() - lmin.lower())  # a ball containing an upper bound on the range
        t = 2 * a * a / (b * b)
        return (1 / (gam * n)) * (b * b / (4 * a)) * (n * _log_mixture(gam, t)).exp()

    return _worst_pair_arb(mech, n, epsilon, adjacency, pair_delta)


def bennett_delta_arb(mech, n: int, epsilon: float, adjacency: str = "replace-one"):
    r"""Ball of the Bennett bound of :func:`bennett_delta` (max over pairs), or ``None`` at
    epsilon = 0.

    The closed form :math:`(1-\gamma+\gamma e^{-s})^n - (1-\gamma)^n`, :math:`s = \alpha\phi(\beta)`,
    is the difference of two numbers near 1 when :math:`\gamma` is small (binary RR with
    :math:`\varepsilon_0 = 90`: :math:`\gamma = 1.6\cdot10^{-39}`), so it is evaluated as
    :math:`q^n\,(1 - (1 - w)^n)` with :math:`q = 1-\gamma+\gamma e^{-s}` and
    :math:`w = \gamma e^{-s}/q \in (0, 1]` (since :math:`(1-\gamma)/q = 1 - w`), by
    :func:`_log_mixture` and :func:`_one_minus_power`; :math:`\log(1+\beta)` as
    :math:`\mathrm{log1p}(\beta)` and :math:`\phi` by :func:`_bennett_phi` (both lose
    :math:`\beta = 10^{-47}` otherwise)."""

    def pair_delta(gam, w, L, lmax, a):
        bp = arb(lmax.upper())  # b_+ >= max L (the bound grows with b_+)
        c = sum((wi / gam * li * li for wi, li in zip(w, L)), arb(0))
        beta = a * bp / c
        s = c / (bp * bp) * _bennett_phi(beta)
        log_q = _log_mixture(gam, s)
        excess = (n * log_q).exp() * _one_minus_power(gam * (-s - log_q).exp(), n)
        return excess * bp / beta.log1p() / (gam * n)

    return _worst_pair_arb(mech, n, epsilon, adjacency, pair_delta)


def _ball_fn(ball_of):
    def fn(epsilon):
        ball = ball_of(epsilon)
        if ball is None:
            return 0.0, 1.0, "epsilon = 0: the bound needs epsilon > 0; delta <= 1 is trivial"
        lo, hi = interval_of_arb(ball)
        return lo, hi, ""

    return fn


def balle_method(name: str, title: str, ball_of, monotone: bool = True):
    r"""Register ``name``: the Balle et al. 2019, Sec. 5 ``title`` relaxation of Lemma 5.3 (the
    float form is :func:`hoeffding_delta` / :func:`bennett_delta`), worst over every neighbouring
    pair of the relation, evaluated in Arb by ``ball_of(mech, n, epsilon, adjacency)``.
    ``monotone=False`` records that the relaxation is not non-increasing in epsilon."""

    @register(
        name,
        kind=Kind.UPPER,
        supports=finite_ldp,
        summary=f"Balle et al. 2019 {title} bound on the blanket divergence, all pairs",
    )
    def factory(mech, n, *, adjacency="replace-one", **options):
        return DeltaFunctionAccountant(
            mech,
            n,
            adjacency=adjacency,
            method=name,
            kind=Kind.UPPER,
            fn=_ball_fn(lambda e: ball_of(mech, n, e, adjacency)),
            certificate=f"Balle et al. 2019 Sec. 5 ({title}) over all pairs; Arb",
            monotone=monotone,
        )

    return factory


balle_method("hoeffding", "Hoeffding", hoeffding_delta_arb)
# The Bennett relaxation can grow with epsilon (a 4x3 mechanism at n = 2: 0.87611 at
# eps = 0.86, 0.87828 at eps = 0.92); each value still bounds delta at its own epsilon.
balle_method("bennett", "Bennett", bennett_delta_arb, monotone=False)


@register(
    "clone-numeric",
    kind=Kind.UPPER,
    supports=eps0_ldp,
    adjacencies=("replace-one",),
    summary="exact divergence of the standard clone pair (FMT 2021 Thm 3.2; Su-Cheng-Wang 2026 Thm 3)",
)
def _clone_numeric(mech, n, *, adjacency="replace-one", **options):
    r"""FMT 2021 Thm 3.2 / Su-Cheng-Wang 2026 Thm 3: the clone pair's exact divergence dominates every
    :math:`\varepsilon_0`-LDP randomizer's replace-one pairs.  Evaluated by
    :func:`clone_enclosure` (certified binomial rows, Arb outer sum)."""
    e0 = _ldp_eps0(mech)

    def fn(epsilon):
        lo, hi = clone_enclosure(e0, n, epsilon)
        return lo, hi, ""

    return DeltaFunctionAccountant(
        mech,
        n,
        adjacency=adjacency,
        method="clone-numeric",
        kind=Kind.UPPER,
        fn=fn,
        certificate="FMT 2021 Thm 3.2 (all pairs); binomial sums "
        "enclosed with Arb anchors and proven float recurrences",
    )


CANONICAL_PAIRS = "canonical pairs only: (x1, x0, ..., x0) vs (x0, x0, ..., x0), both orders"


@register(
    "chernoff",
    kind=Kind.HEURISTIC,
    supports=finite_ldp,
    adjacencies=("replace-one",),
    summary="Shvets 2026 Sec. 8.2 Chernoff bound; proven only for the canonical pairs",
)
def _chernoff(mech, n, *, adjacency="replace-one", **options):
    r"""Shvets 2026, Sec. 8.2: a Chernoff bound on the divergence of the *canonical* pair, where the
    other :math:`n-1` users all hold :math:`x^0`.  It is not a bound over all neighbouring pairs
    (10-RR, eps0 = 8, n = 1e7, delta = 1e-12: its epsilon 0.134 lies below the Theorem 5 lower
    bound 0.152 of the mechanism), so it is reported as ``heuristic`` with ``pairs`` naming
    the pairs it covers."""
    e0 = _ldp_eps0(mech)

    def fn(epsilon):
        v = chernoff_canonical_delta(mech, n, epsilon)
        return v, v, ""

    return DeltaFunctionAccountant(
        mech,
        n,
        adjacency=adjacency,
        method="chernoff",
        kind=Kind.HEURISTIC,
        fn=fn,
        pairs=CANONICAL_PAIRS,
        eps_max=e0,
        certificate="Shvets 2026 Sec. 8.2 for the canonical pairs only; "
        "float64 log-space evaluation",
    )
