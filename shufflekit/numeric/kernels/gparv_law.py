r"""The GPARV of a finite mechanism, numerically: its epsilon-free ratio law.

For a neighbouring pair :math:`(x, x')` and the maximal blanket :math:`c(y)=\min_x R_x(y)`,
:math:`\gamma=\sum_y c(y)`, the generalized privacy amplification random variable of Su-Cheng-Wang 2026
(Def. 5.1) is :math:`G = \alpha(y) - e^{\varepsilon}\beta(y)` with probability :math:`c(y)`
and 0 with probability :math:`1-\gamma`, where :math:`\alpha = R_x/c`, :math:`\beta = R_{x'}/c`.
:class:`RatioLaw` stores :math:`(\alpha, \beta, c)` once per distinct pair.

The ratios and weights are floats of the float matrix (each entry correctly rounded).  The zero
mass :math:`1-\gamma` is not: when an entry is within a few units of round-off of 1 (a matrix
with :math:`R_x(y) = 1 - 2^{-57}`), :math:`1 - \mathrm{fl}(\gamma)` is 0 or off by any factor,
while the worst case of the blanket sum can hinge on it (every other user must draw the zero
atom).  :func:`zero_mass_of` therefore computes :math:`1-\gamma` from the exact entries (exact
rational arithmetic, or a precision ladder on the 60-digit values) and
:class:`RatioLaw` carries it with a proven relative error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from shufflekit.validation import check_epsilon

UNIT = 2.0**-53  # float64 unit round-off


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
    #: the zero mass :math:`1-\gamma` from the exact entries (:func:`zero_mass_of`) and a bound
    #: on its relative error; ``None``: :math:`\max(0, 1-\gamma)` of the float ``gamma``, whose
    #: error the consumers bound from ``gamma`` (the laws of :mod:`shufflekit.numeric.methods.lower`
    #: have no zero atom and pass ``gamma = 1``)
    zero: float | None = None
    zero_err: float | None = None

    def gparv(self, epsilon: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Float atoms, probabilities and an absolute error margin per atom."""
        e = math.exp(epsilon)
        atoms = self.alpha - e * self.beta
        margin = 8 * UNIT * (np.abs(self.alpha) + e * np.abs(self.beta)) + 1e-300
        return atoms, self.weight.copy(), margin

    @property
    def zero_mass(self) -> float:
        if self.zero is not None:
            return self.zero
        return max(0.0, 1.0 - self.gamma)


_NUMPY_CACHE: dict[int, tuple] = {}


def float_matrix(mech) -> tuple[np.ndarray, np.ndarray]:
    """``mech.to_numpy()``, cached per mechanism object (sympy evaluation is slow for 2^k outputs)."""
    hit = _NUMPY_CACHE.get(id(mech))
    if hit is not None and hit[0] is mech:
        return hit[1]
    arrays = mech.to_numpy()
    if len(_NUMPY_CACHE) > 64:
        _NUMPY_CACHE.clear()
    _NUMPY_CACHE[id(mech)] = (mech, arrays)  # the reference keeps the id valid
    return arrays


def blanket_floor(mech) -> np.ndarray:
    r"""Float :math:`c(y) = \min_x R_x(y)` per output column of ``mech``.

    For a lumped view (:class:`~shufflekit.mechanisms.finite.Lumping`) the minimum runs
    over all inputs of the full mechanism, not only over the representative rows; the
    mechanism carries it (``floor_numpy``)."""
    floor = getattr(mech, "floor_numpy", None)
    if floor is not None:
        return floor()
    P, _ = float_matrix(mech)
    return P.min(axis=0)


def _float_rows(mech) -> tuple[np.ndarray, np.ndarray, list]:
    P, mult = float_matrix(mech)
    return P, mult, list(mech.inputs)


def _component_triples(
    P: np.ndarray, mult: np.ndarray, ia, ib, floor: np.ndarray | None = None
) -> np.ndarray:
    """(alpha, beta, weight) of one finite mechanism; ``ia``/``ib`` are row indices or
    ``None`` for the null input (whose row is the blanket omega); ``floor`` is the
    blanket floor per column (default: the minimum over the rows)."""
    floor = P.min(axis=0) if floor is None else floor
    gamma = float(np.dot(mult, floor))
    if gamma <= 0:
        raise ValueError(
            "the mechanism has blanket mass gamma=0; the blanket bound needs "
            "gamma in (0, 1] (it is not eps0-LDP for any finite eps0)"
        )
    keep = floor > 0
    for i in (ia, ib):
        if i is not None and np.any(P[i, ~keep] > 0):
            raise ValueError(
                "an output has positive probability under one input and zero "
                "under another: the mechanism is not eps0-LDP, so its GPARV is "
                "unbounded and the blanket bound does not apply"
            )
    ra = P[ia, keep] / floor[keep] if ia is not None else np.full(keep.sum(), 1.0 / gamma)
    rb = P[ib, keep] / floor[keep] if ib is not None else np.full(keep.sum(), 1.0 / gamma)
    return merge_classes(ra, rb, mult[keep] * floor[keep])


#: classes merge when both ratios agree to this relative tolerance, each on its own scale
MERGE_REL = 1e-12


def relative_key(v: np.ndarray) -> np.ndarray:
    r"""Per-value key ``(decimal exponent, mantissa rounded to 12 decimals)`` of floats.

    Two values with the same key satisfy :math:`|v_1 - v_2| \le 10^{-12}\max(|v_1|, |v_2|)`
    (plus a few units of round-off of the scaling): the tolerance is relative to each value,
    not to the largest value of the array.  Zero has its own key.
    """
    v = np.asarray(v, dtype=float)
    a = np.abs(v)
    pos = a > 0
    e = np.zeros_like(a)
    e[pos] = np.floor(np.log10(a[pos]))
    m = np.zeros_like(a)
    m[pos] = np.round(v[pos] / 10.0 ** e[pos], 12)
    return np.stack([e, m], axis=1)


def merge_classes(alpha, beta, weight) -> np.ndarray:
    r"""Merge classes whose :math:`\alpha` and :math:`\beta` each agree to a relative
    :data:`MERGE_REL` (:func:`relative_key`), keeping the largest alpha, the smallest beta and the
    summed weight of a class.

    Raising :math:`G = \alpha - e^\varepsilon\beta` is the safe side of an upper bound, and the
    move is at most :data:`MERGE_REL` of each ratio, within the atom radius of
    :func:`shufflekit.numeric.methods.blanket.atom_interval`, so the enclosure's lower end stays valid
    too.  (Rounding every value to 12 digits of the *largest* one lumped, e.g., the column of
    ratio 86 with the column of ratio :math:`10^{17}`: the law's value then rose by orders of
    magnitude, its lower end above the true value.)  A class that fails the check after the
    merge (it cannot, by construction of the key) leaves the classes unmerged.
    """
    a, b, w = (np.asarray(x, dtype=float) for x in (alpha, beta, weight))
    key = np.concatenate([relative_key(a), relative_key(b)], axis=1)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    g = len(uniq)
    a_hi, a_lo = np.full(g, -np.inf), np.full(g, np.inf)
    b_hi, b_lo = np.full(g, -np.inf), np.full(g, np.inf)
    np.maximum.at(a_hi, inv, a)
    np.minimum.at(a_lo, inv, a)
    np.maximum.at(b_hi, inv, b)
    np.minimum.at(b_lo, inv, b)
    ok = (a_hi - a_lo <= MERGE_REL * np.abs(a_hi)) & (b_hi - b_lo <= MERGE_REL * np.abs(b_hi))
    if not np.all(ok):
        return np.stack([a, b, w], axis=1)
    out = np.zeros((g, 3))
    out[:, 0], out[:, 1] = a_hi, b_lo
    np.add.at(out[:, 2], inv, w)
    return out


# ============================================================ the zero mass, exactly
ZERO_TINY = 2.0**-1000  # a positive zero mass below this is refused (not a normal float)
ZERO_LADDER = (60, 400, 3000)  # decimal digits of the precision ladder (irrational entries)


def _exact_floor(comp) -> list:
    r"""The exact entries :math:`c(y) = \min_x R_x(y)` (the carried floor of a lumped view)."""
    lumping = getattr(comp, "lumping", None)
    if lumping is not None:
        return list(lumping.floor)
    from shufflekit.mechanisms.ordering import sign

    rows, _ = comp._mp_entries  # 60-digit values: the arg-min of each column
    inputs = list(comp.inputs)
    out = []
    for j in range(len(comp.outputs)):
        col = [rows[x][j] for x in inputs]
        i = min(range(len(inputs)), key=lambda i: col[i])
        # entries equal to 45 digits (e.g. e^eps0/(1+e^eps0) and 1/(1+e^eps0) at eps0 = 1e-300)
        # are ordered exactly
        for k in range(len(inputs)):
            if (
                k != i
                and col[k] - col[i] <= abs(col[i]) * 1e-45
                and sign(comp.probs[k][j] - comp.probs[i][j]) < 0
            ):
                i = k
        out.append(comp.probs[i][j])
    return out


def _rational(v) -> Fraction | None:
    """``v`` as an exact Fraction when it is a rational number (sympy, int or float)."""
    import sympy as sp

    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float, np.integer, np.floating)):
        return Fraction(float(v)) if isinstance(v, (float, np.floating)) else Fraction(int(v))
    if isinstance(v, sp.Rational):
        return Fraction(int(v.p), int(v.q))
    return None


def zero_mass_of(comp) -> tuple[float, float]:
    r"""``(z, e)``: the zero mass :math:`z = 1-\gamma = 1 - \sum_y m(y)\,c(y)` of a finite
    mechanism as a float, and a bound ``e`` on its relative error.

    Rational entries (sympy rationals, or floats taken as the exact binary values they are):
    :math:`1-\gamma` in exact rational arithmetic, rounded once (``e`` = :math:`u`; a negative
    value, possible only for float rows that do not sum exactly to 1, is taken as 0).  Other
    entries: the sum in mpmath from the entries at :math:`D` digits (sympy's evaluation, relative
    error at most :math:`10^{2-D}` each), with the error bound
    :math:`10^{2-D}(1 + \sum_y m(y)c(y))`, accepted when it is below :math:`2^{-60}z`; :math:`D`
    climbs :data:`ZERO_LADDER`, and a mass unresolved at the top is 0 only if sympy proves
    :math:`1-\gamma = 0`.  A positive mass below :data:`ZERO_TINY` is refused
    (:class:`~shufflekit.errors.CannotCertify`): as a float it would carry no relative accuracy.
    """
    from shufflekit.errors import CannotCertify

    floor = _exact_floor(comp)
    mult = list(comp.multiplicity)
    exact = [_rational(v) for v in floor + mult]
    if all(v is not None for v in exact):
        fl, ml = exact[: len(floor)], exact[len(floor) :]
        z = 1 - sum((m * c for m, c in zip(ml, fl)), Fraction(0))
        if z <= 0:
            return 0.0, 0.0
        if z < ZERO_TINY:
            raise CannotCertify(
                f"the blanket's zero mass 1 - gamma = {float(z):.3g} is below the float range"
            )
        zf = float(z)  # correctly rounded
        return zf, (0.0 if Fraction(zf) == z else UNIT)
    import mpmath
    import sympy as sp

    for digits in ZERO_LADDER:
        memo: dict = {}

        def val(v):
            key = v if isinstance(v, sp.Basic) else float(v)
            if key not in memo:
                memo[key] = (
                    mpmath.mpf(sp.N(v, digits)) if isinstance(v, sp.Basic) else mpmath.mpf(v)
                )
            return memo[key]

        with mpmath.workdps(digits + 20):
            total = mpmath.fsum(val(m) * val(c) for m, c in zip(mult, floor))
            z = 1 - total
            err = mpmath.mpf(10) ** (2 - digits) * (1 + abs(total))
            if z > 0 and err <= z * mpmath.mpf(2) ** -60:
                if z < ZERO_TINY:
                    raise CannotCertify(
                        f"the blanket's zero mass 1 - gamma = "
                        f"{mpmath.nstr(z, 3)} is below the float range"
                    )
                return float(z), UNIT + float(err / z) * (1 + 1e-6)
            if z < 0 and -z > err:
                return 0.0, 0.0  # rows above 1 (float rows): as max(0, 1 - gamma)
    total = sp.Add(*[sp.sympify(m) * sp.sympify(c) for m, c in zip(mult, floor)])
    if sp.simplify(1 - total) == 0:
        return 0.0, 0.0
    raise CannotCertify(
        f"the blanket's zero mass 1 - gamma is not resolved at {ZERO_LADDER[-1]} digits"
    )


def product_zero_mass(parts) -> tuple[float, float]:
    r"""Zero mass :math:`1 - \prod_i(1-z_i)` of a joint composition from the components'
    ``(z_i, e_i)``, and its relative error.

    The map is increasing in each :math:`z_i` with :math:`z_i\,\partial_i = z_i\prod_{k\ne
    i}(1-z_k)`, and these sum to the probability that exactly one component draws its zero
    atom, at most :math:`1-\prod(1-z_k)`: relative errors :math:`e_i` move the value by a
    relative :math:`\max_i e_i` to first order (padded by :math:`10^{-6}` of itself for the
    second order, valid while :math:`m\max e_i \le 10^{-6}`).  The value is computed at 60
    digits as :math:`-\mathrm{expm1}(\sum_i\mathrm{log1p}(-z_i))` (no cancellation), then rounded.
    """
    import mpmath

    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    if all(z == 0 for z, _ in parts):
        return 0.0, 0.0
    emax = max(e for _, e in parts)
    if len(parts) * emax > 1e-6:
        return 1.0 - math.prod(1.0 - z for z, _ in parts), math.inf
    with mpmath.workdps(60):
        z = -mpmath.expm1(mpmath.fsum(mpmath.log1p(-mpmath.mpf(zi)) for zi, _ in parts))
        return float(z), emax * (1 + 1e-6) + UNIT


def weight_tolerance(classes: int) -> float:
    r"""Relative tolerance :math:`4(K+1)u` within which two pairs' weights count as equal
    (:func:`same_law`): the weights of one class structure are the same float sums, up to the
    order of at most :math:`K` additions."""
    return 4 * (classes + 1) * UNIT


def same_law(a: np.ndarray, b: np.ndarray) -> bool:
    r"""Whether two ``(alpha, beta, weight)`` tables describe one law for the certificates:
    ratios within a relative :data:`MERGE_REL` (covered, with the merge, by the atom radius),
    weights within :func:`weight_tolerance` (covered by the probability error :math:`\eta`)."""
    return np.allclose(a[:, :2], b[:, :2], rtol=MERGE_REL, atol=0) and np.allclose(
        a[:, 2], b[:, 2], rtol=weight_tolerance(len(a)), atol=0
    )


def ratio_laws(mech, adjacency: str = "replace-one") -> list[RatioLaw]:
    r"""The distinct GPARV laws of ``mech`` over all neighbouring pairs (float).

    Works for :class:`~shufflekit.mechanisms.finite.FiniteMechanism` (from
    ``to_numpy()``; a lumped view contributes its few representative pairs and output
    classes, each class an atom whose weight is its multiplicity times its floor, with
    the full mechanism's floor, :func:`blanket_floor`) and for joint compositions, whose blanket and ratios factorise
    (Su-Cheng-Wang 2026, Sec. 6): :math:`\alpha = \prod_i\alpha_i`, :math:`\beta=\prod_i\beta_i`,
    weight :math:`\prod_i c_i`.  For a joint composition the worst case also
    considers pairs that agree in some coordinates (any two input vectors are
    neighbours).
    """
    from shufflekit.mechanisms.finite import check_adjacency
    from shufflekit.numeric.kernels import continuous_laws

    check_adjacency(adjacency)
    if continuous_laws.is_continuous(mech):  # the lattice engine's epsilon-free laws
        return continuous_laws.ratio_laws_of(mech, str(adjacency))
    comps = list(getattr(mech, "components", None) or [mech])
    per_comp = []
    for comp in comps:
        P, mult, inputs = _float_rows(comp)
        floor = blanket_floor(comp)
        k = len(inputs)
        if adjacency == "zero-out":
            idx_pairs = [(i, None) for i in range(k)] + [(None, i) for i in range(k)]
        else:
            idx_pairs = [(i, j) for i in range(k) for j in range(k) if i != j]
            if len(comps) > 1:
                idx_pairs += [(i, i) for i in range(k)]
        laws: list[tuple[np.ndarray, list]] = []
        for ia, ib in idx_pairs:
            t = _component_triples(P, mult, ia, ib, floor)
            label = (inputs[ia] if ia is not None else "⊥", inputs[ib] if ib is not None else "⊥")
            for known, prs in laws:
                if known.shape == t.shape and same_law(known, t):
                    prs.append(label)
                    break
            else:
                laws.append((t, [label]))
        per_comp.append(laws)
    gammas = []
    for comp in comps:
        P, mult, _ = _float_rows(comp)
        gammas.append(float(np.dot(mult, blanket_floor(comp))))
    gamma = float(np.prod(gammas))
    zero, zero_err = product_zero_mass(zero_mass_of(comp) for comp in comps)
    out = []
    import itertools

    for combo in itertools.product(*per_comp):
        if (
            len(comps) > 1
            and adjacency == "replace-one"
            and all(all(a == b for a, b in prs) for _, prs in combo)
        ):
            continue  # identical inputs in every coordinate: not a neighbouring pair
        t = np.array([[1.0, 1.0, 1.0]])
        for tc, _ in combo:
            t = np.stack(
                [
                    np.outer(t[:, 0], tc[:, 0]).ravel(),
                    np.outer(t[:, 1], tc[:, 1]).ravel(),
                    np.outer(t[:, 2], tc[:, 2]).ravel(),
                ],
                axis=1,
            )
            t = merge_classes(t[:, 0], t[:, 1], t[:, 2])
        if len(comps) > 1:  # one representative pair: (x_1..x_m), (x'_1..x'_m)
            reps = [prs[0] for _, prs in combo]
            pairs = ((tuple(a for a, _ in reps), tuple(b for _, b in reps)),)
        else:
            pairs = tuple(combo[0][1])
        out.append(RatioLaw(t[:, 0], t[:, 1], t[:, 2], gamma, pairs, zero, zero_err))
    return out


def numeric_eps0(mech) -> float:
    r"""Local :math:`\varepsilon_0 = \max_{x,x',y}\log(R_x(y)/R_{x'}(y))` from the float matrix,
    rounded up by a relative 1e-12 (so bounds that grow with it stay safe); ``inf`` if
    some output has probability 0 under one input and not under another.  A lumped view
    gives the full value: its representatives include a pair of each kind and its
    classes share one likelihood ratio per pair.  Joint
    compositions add their components' values (Su-Cheng-Wang 2026, Thm 1 of Sec. 6).  A
    continuous mechanism gives its own (its eps0 rounded up)."""
    own = getattr(mech, "numeric_eps0", None)
    if callable(own):
        return own()
    comps = list(getattr(mech, "components", None) or [mech])
    total = 0.0
    for comp in comps:
        P, _ = float_matrix(comp)
        hi, lo = P.max(axis=0), P.min(axis=0)
        used = hi > 0
        if np.any(lo[used] <= 0):
            return math.inf
        total += float(np.max(np.log(hi[used]) - np.log(lo[used]))) if used.any() else 0.0
    return total * (1 + 1e-12) + 1e-15


def gparv_numeric(
    mech, epsilon: float, pair: tuple | None = None, adjacency: str = "replace-one"
) -> tuple[np.ndarray, np.ndarray]:
    r"""Float GPARV law (atoms, probabilities; the zero atom included) of ``pair``.

    Computed from ``mech.to_numpy()`` (Su-Cheng-Wang 2026, Def. 5.1); ``pair=None`` returns the
    law of the first distinct class (all classes for symmetric mechanisms).
    """
    epsilon = check_epsilon(epsilon)
    if pair is None:
        law = ratio_laws(mech, adjacency)[0]
    else:
        law = law_of_pair(mech, pair)
    atoms, probs, _ = law.gparv(epsilon)
    return np.append(atoms, 0.0), np.append(probs, law.zero_mass)


def law_of_pair(mech, pair) -> RatioLaw:
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
    floor = blanket_floor(mech)
    t = _component_triples(P, mult, idx(pair[0]), idx(pair[1]), floor)
    zero, zero_err = zero_mass_of(mech)
    return RatioLaw(
        t[:, 0], t[:, 1], t[:, 2], float(np.dot(mult, floor)), (tuple(pair),), zero, zero_err
    )


def law_atoms(law: RatioLaw, epsilon: float):
    g, q, margin = law.gparv(epsilon)
    nz = q > 0
    return g[nz], q[nz], margin[nz], law.zero_mass


def is_finite_ldp(mech) -> bool | str:
    """True when ``mech`` is a finite mechanism with a finite local eps0 (what the blanket needs)."""
    if not (hasattr(mech, "to_numpy") or getattr(mech, "components", None)):
        return "the blanket methods need a finite mechanism (a probability matrix) or a joint composition of such"
    try:
        e0 = numeric_eps0(mech)
    except Exception as exc:  # noqa: BLE001 - reported as the reason
        return f"could not read the mechanism's probability matrix: {exc}"
    return True if math.isfinite(e0) else "the mechanism is not eps0-LDP for a finite eps0"


def is_continuous_ldp(mech) -> bool | str:
    """True for a continuous mechanism of the lattice engine with a finite local eps0."""
    from shufflekit.numeric.kernels import continuous_laws

    if not continuous_laws.is_continuous(mech):
        return "not a continuous mechanism of the lattice engine"
    e0 = numeric_eps0(mech)
    return True if math.isfinite(e0) else "the mechanism is not eps0-LDP for a finite eps0"


def has_gparv_laws(mech) -> bool | str:
    """True when :func:`ratio_laws` applies: a finite eps0-LDP mechanism (a probability matrix, a
    joint composition) or a continuous one whose laws come from the lattice engine."""
    if is_continuous_ldp(mech) is True:
        return True
    return is_finite_ldp(mech)
