r"""The GPARV of a finite mechanism, numerically: its epsilon-free ratio law.

For a neighbouring pair :math:`(x, x')` and the maximal blanket :math:`c(y)=\min_x R_x(y)`,
:math:`\gamma=\sum_y c(y)`, the generalized privacy amplification random variable of seed 002
(Def. 5.1) is :math:`G = \alpha(y) - e^{\varepsilon}\beta(y)` with probability :math:`c(y)`
and 0 with probability :math:`1-\gamma`, where :math:`\alpha = R_x/c`, :math:`\beta = R_{x'}/c`.
:class:`RatioLaw` stores :math:`(\alpha, \beta, c)` once per distinct pair.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from shufflekit.validation import check_epsilon

UNIT = 2.0 ** -53               # float64 unit round-off


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


def float_matrix(mech) -> tuple[np.ndarray, np.ndarray]:
    """``mech.to_numpy()``, cached per mechanism object (sympy evaluation is slow for 2^k outputs)."""
    hit = _NUMPY_CACHE.get(id(mech))
    if hit is not None and hit[0] is mech:
        return hit[1]
    arrays = mech.to_numpy()
    if len(_NUMPY_CACHE) > 64:
        _NUMPY_CACHE.clear()
    _NUMPY_CACHE[id(mech)] = (mech, arrays)   # the reference keeps the id valid
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


def _component_triples(P: np.ndarray, mult: np.ndarray, ia, ib,
                       floor: np.ndarray | None = None) -> np.ndarray:
    """(alpha, beta, weight) of one finite mechanism; ``ia``/``ib`` are row indices or
    ``None`` for the null input (whose row is the blanket omega); ``floor`` is the
    blanket floor per column (default: the minimum over the rows)."""
    floor = P.min(axis=0) if floor is None else floor
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
    return merge_classes(ra, rb, mult[keep] * floor[keep])


def merge_classes(alpha, beta, weight) -> np.ndarray:
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
    ``to_numpy()``; a lumped view contributes its few representative pairs and output
    classes, each class an atom whose weight is its multiplicity times its floor, with
    the full mechanism's floor, :func:`blanket_floor`) and for joint compositions, whose blanket and ratios factorise
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
                if known.shape == t.shape and np.allclose(known, t, rtol=1e-12, atol=0):
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
            t = merge_classes(t[:, 0], t[:, 1], t[:, 2])
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
    some output has probability 0 under one input and not under another.  A lumped view
    gives the full value: its representatives include a pair of each kind and its
    classes share one likelihood ratio per pair.  Joint
    compositions add their components' values (seed 002, Thm 1 of Sec. 6)."""
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
    return RatioLaw(t[:, 0], t[:, 1], t[:, 2], float(np.dot(mult, floor)), (tuple(pair),))


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
