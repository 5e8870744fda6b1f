r"""Finite local randomizers given by a probability matrix.

``R[x][y]`` is the probability that input ``x`` is reported as output ``y``.
Entries may be floats, exact sympy numbers or sympy expressions of symbols
(declared ``positive``), so the same object serves symbolic derivation and
numeric accounting.  An output column may stand for ``multiplicity[y]`` outputs
that every input treats alike (a lumped, symmetry-reduced alphabet); all sums
over outputs are weighted by it.

Everything below is computed from the matrix, never typed in:

* the maximal blanket (Balle et al.; Su-Cheng-Wang 2026, Sec. 3.2):
  :math:`c(y) = \min_x R_x(y)`, :math:`\gamma = \sum_y c(y)`, :math:`\omega = c/\gamma`,
  so that :math:`R_x = \gamma\,\omega + (1-\gamma)\,\mathrm{LO}_x`;
* the generalized privacy amplification random variable (GPARV, Su-Cheng-Wang 2026,
  Def. 5.1 and Thm 4): :math:`G = (R_x(y) - e^{\varepsilon} R_{x'}(y)) / c(y)` with
  probability :math:`c(y)` for each output and :math:`0` with probability
  :math:`1-\gamma`;
* the shuffle indices of Takagi-Liew 2026, Sec. 2.4:
  :math:`\chi_{lo} = 1/\sup_{x\simeq x'}\sqrt{\gamma^{-1}\mathrm{Var}_{\omega}[\ell_0]}`,
  :math:`\chi_{up} = 1/\sup_{x\simeq x'}\sup_{z}\sqrt{\mathrm{Var}_{R_z}[(R_x-R_{x'})/R_z]}`;
* the local :math:`\varepsilon_0 = \max_{x,x',y}\log(R_x(y)/R_{x'}(y))`.

A mechanism may also be a *lumped view* of a larger one (:class:`Lumping`): its inputs
are representatives of the orbits of input triples under the mechanism's symmetry group,
and each output column is a class of outputs on which every representative row and the
blanket floor of the full mechanism are proportional.  A column either holds the
per-output probability with the class size as its multiplicity (when the entries are
equal across the class) or the class total with multiplicity 1.  Every quantity above depends only on the likelihood ratios
:math:`R_x(y)/c(y)` and on the class masses, hence is the same for the lumped view and
for the full matrix: lumping is exact.  The blanket floor of the lumped view is the
floor of the full mechanism (a minimum over all of its inputs), carried in the
:class:`Lumping` record.

Adjacency: ``"zero-out"`` pairs an input ``x`` with the null input :data:`BOT`
whose output law is the blanket :math:`\omega` (Takagi-Liew 2026, Sec. 2.3);
``"replace-one"`` pairs two distinct inputs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import sympy as sp

from shufflekit.mechanisms.law import DiscreteLaw
from shufflekit.mechanisms.ordering import largest, sign, smallest
from shufflekit.mechanisms.parameters import check_law_epsilon
from shufflekit.mechanisms.protocol import Describable, ParamMap

BOT = "⊥"
ADJACENCIES = ("zero-out", "replace-one")
ROW_TOLERANCE = 1e-12


def check_adjacency(adjacency: str) -> str:
    if adjacency not in ADJACENCIES:
        raise ValueError(
            f"adjacency={adjacency!r} is not allowed; use one of {', '.join(ADJACENCIES)}"
        )
    return adjacency


@dataclass(frozen=True)
class Blanket:
    """Maximal blanket decomposition :math:`R_x = \\gamma\\,\\omega + (1-\\gamma)\\,LO_x`."""

    gamma: Any
    omega: tuple
    floor: tuple  # c(y) = min_x R_x(y) = gamma * omega(y)


@dataclass(frozen=True)
class ShuffleIndex:
    """A shuffle index with the neighbouring pair (and reference) attaining the sup."""

    value: Any
    pair: tuple
    reference: Any = None

    def __float__(self) -> float:
        return float(self.value)


@dataclass(frozen=True)
class Lumping:
    r"""How a lumped mechanism stands for its full matrix.

    ``alphabet`` is the number of inputs of the full mechanism, ``outputs`` the size of
    its output alphabet, ``symmetry`` names the group whose orbits the representative
    inputs cover (pairs and triples of inputs, so that every neighbouring pair and every
    reference input of the full mechanism has an equivalent among the representatives),
    and ``floor`` is :math:`c(y) = \min_{x} R_x(y)` over *all* inputs of the full
    mechanism, per output column of the lumped view (in the units of its entries).
    """

    alphabet: Any
    outputs: Any
    symmetry: str
    floor: tuple

    def as_dict(self) -> dict:
        return {
            "alphabet": str(self.alphabet),
            "outputs": str(self.outputs),
            "symmetry": self.symmetry,
        }


@dataclass(frozen=True, repr=False)
class FiniteMechanism(Describable):
    name: str
    inputs: tuple
    outputs: tuple
    probs: tuple  # tuple of rows, one per input
    multiplicity: tuple
    params: Mapping[str, Any] = field(default_factory=dict)
    blanket_floor: tuple | None = None  # a chosen (not maximal) blanket gamma*omega, if any
    lumping: Lumping | None = None  # set when the matrix is a symmetry-lumped view

    def __post_init__(self):
        if not isinstance(self.params, ParamMap):
            object.__setattr__(self, "params", ParamMap(self.params or {}))

    def __repr__(self) -> str:
        """Name, parameters and shape, e.g. ``FiniteMechanism('krr', k=10, eps0=4; 10 inputs,
        10 outputs)`` (the matrix is ``probs``)."""
        params = "".join(f", {k}={v}" for k, v in dict(self.params).items())
        lumped = ", lumped" if self.lumping is not None else ""
        return (
            f"FiniteMechanism({self.name!r}{params}; {len(self.inputs)} inputs, "
            f"{len(self.outputs)} outputs{lumped})"
        )

    # ----------------------------------------------------------------- build
    @classmethod
    def from_matrix(
        cls,
        matrix: Sequence[Sequence[Any]],
        *,
        inputs: Sequence | None = None,
        outputs: Sequence | None = None,
        multiplicity: Sequence | None = None,
        name: str = "finite",
        params: Mapping[str, Any] | None = None,
        lumping: Lumping | None = None,
    ) -> FiniteMechanism:
        """Build and validate a mechanism from its probability matrix (rows = inputs).

        ``lumping`` marks the matrix as a lumped view of a larger mechanism (see
        :class:`Lumping`); its floor must lie below every representative row."""
        rows = [list(r) for r in (matrix.tolist() if isinstance(matrix, np.ndarray) else matrix)]
        if not rows or not rows[0]:
            raise ValueError("matrix must have at least one row and one column")
        width = len(rows[0])
        if any(len(r) != width for r in rows):
            raise ValueError("matrix rows must all have the same length")
        inputs = tuple(inputs) if inputs is not None else tuple(range(len(rows)))
        outputs = tuple(outputs) if outputs is not None else tuple(range(width))
        if len(inputs) != len(rows) or len(outputs) != width:
            raise ValueError("inputs/outputs labels do not match the matrix shape")
        mult = tuple(multiplicity) if multiplicity is not None else (1,) * width
        if len(mult) != width:
            raise ValueError(f"multiplicity has {len(mult)} entries, expected {width}")
        clean = tuple(
            tuple(_clean(v, f"R[{inputs[i]!r}][{outputs[j]!r}]") for j, v in enumerate(r))
            for i, r in enumerate(rows)
        )
        if lumping is not None:
            if len(lumping.floor) != width:
                raise ValueError(
                    f"lumping floor has {len(lumping.floor)} entries, expected {width}"
                )
            lumping = replace(
                lumping, floor=tuple(_clean(c, "lumping floor") for c in lumping.floor)
            )
        mech = cls(
            name=name,
            inputs=inputs,
            outputs=outputs,
            probs=clean,
            multiplicity=tuple(_clean(m, "multiplicity") for m in mult),
            params=dict(params or {}),
            lumping=lumping,
        )
        mech._validate_rows()
        if lumping is not None:
            mech._validate_lumped_floor()
        return mech

    def _validate_lumped_floor(self) -> None:
        """The carried floor is a minimum over a superset of the rows: it may not exceed them."""
        if self.is_symbolic:
            return
        import mpmath

        rows, _ = self._mp_entries
        with mpmath.workdps(60):
            for j, c in enumerate(self.lumping.floor):
                cf = mpmath.mpf(sp.N(c, 60)) if isinstance(c, sp.Basic) else mpmath.mpf(c)
                for x in self.inputs:
                    if cf > rows[x][j] * (1 + mpmath.mpf(10) ** -40):
                        raise ValueError(
                            f"lumping floor of output {self.outputs[j]!r} exceeds "
                            f"R[{x!r}]; allowed: floor <= every row"
                        )

    def _validate_rows(self) -> None:
        if not self.is_symbolic and self.is_exact:
            import mpmath

            rows, mult = self._mp_entries
            with mpmath.workdps(60):
                for x in self.inputs:
                    total = mpmath.fsum(m * p for m, p in zip(mult, rows[x]))
                    if abs(total - 1) > mpmath.mpf(10) ** -40:
                        raise ValueError(
                            f"row {x!r} sums to {mpmath.nstr(total, 20)}, allowed: exactly 1"
                        )
            return
        for x, row in zip(self.inputs, self.probs):
            total = sum(m * p for m, p in zip(self.multiplicity, row))
            if self.is_symbolic:
                if sp.simplify(sp.sympify(total) - 1) != 0:
                    raise ValueError(
                        f"row {x!r} sums to {sp.sstr(sp.simplify(total))}, allowed: exactly 1"
                    )
            elif abs(float(total) - 1.0) > ROW_TOLERANCE:
                raise ValueError(
                    f"row {x!r} sums to {float(total)!r}, allowed: 1 within {ROW_TOLERANCE:g}"
                )

    # ------------------------------------------------------------ basics
    @property
    def is_symbolic(self) -> bool:
        return any(isinstance(p, sp.Basic) and p.free_symbols for r in self.probs for p in r)

    @property
    def is_exact(self) -> bool:
        return all(isinstance(p, sp.Basic) for r in self.probs for p in r)

    def row(self, x) -> tuple:
        """Output probabilities of input ``x``; the null input :data:`BOT` gives omega."""
        if x == BOT:
            return self.blanket().omega
        try:
            return self.probs[self.inputs.index(x)]
        except ValueError:
            raise ValueError(
                f"input={x!r} is not an input of {self.name}; allowed: {list(self.inputs)}"
            ) from None

    def subs(self, values: Mapping) -> FiniteMechanism:
        """Substitute parameter values (symbol -> number) into every entry."""
        rows = [[sp.sympify(p).subs(values) for p in r] for r in self.probs]
        mult = [sp.sympify(m).subs(values) for m in self.multiplicity]
        lumping = (
            None
            if self.lumping is None
            else replace(
                self.lumping, floor=tuple(sp.sympify(c).subs(values) for c in self.lumping.floor)
            )
        )
        return FiniteMechanism.from_matrix(
            rows,
            inputs=self.inputs,
            outputs=self.outputs,
            multiplicity=mult,
            name=self.name,
            lumping=lumping,
            params={
                k: (sp.sympify(v).subs(values) if isinstance(v, sp.Basic) else v)
                for k, v in self.params.items()
            },
        )

    def to_numpy(self) -> tuple[np.ndarray, np.ndarray]:
        """(matrix, multiplicity) as float arrays (computed once); raises if symbols remain."""
        if self.is_symbolic:
            raise ValueError(f"{self.name} has free symbols; substitute numbers first")
        matrix, mult = self._numpy
        return matrix.copy(), mult.copy()

    def floor_numpy(self) -> np.ndarray:
        r"""Float :math:`c(y)=\min_x R_x(y)` per output column: over the rows for a plain
        matrix, the carried full-mechanism floor for a lumped view (:class:`Lumping`)."""
        if self.is_symbolic:
            raise ValueError(f"{self.name} has free symbols; substitute numbers first")
        return self._floor_numpy.copy()

    @cached_property
    def _floor_numpy(self) -> np.ndarray:
        if self.lumping is None:
            return self._numpy[0].min(axis=0)
        return np.array([float(c) for c in self.lumping.floor])

    @property
    def is_lumped(self) -> bool:
        return self.lumping is not None

    @cached_property
    def _numpy(self) -> tuple[np.ndarray, np.ndarray]:
        rows, mult = self._mp
        return (
            np.array([[float(rows[x][j]) for j in range(len(self.outputs))] for x in self.inputs]),
            np.array([float(m) for m in mult]),
        )

    # ----------------------------------------------------------- blanket
    def blanket(self) -> Blanket:
        return self._blanket

    @property
    def gamma(self) -> Any:
        r"""Blanket mass :math:`\gamma = \sum_y \min_x R_x(y)` (Su-Cheng-Wang 2026, Sec. 3.2)."""
        return self._blanket.gamma

    @cached_property
    def _blanket(self) -> Blanket:
        if self.blanket_floor is not None:
            floor = tuple(self.blanket_floor)
            gamma = _tidy(sum(m * c for m, c in zip(self.multiplicity, floor)))
            return Blanket(gamma=gamma, omega=tuple(_tidy(c / gamma) for c in floor), floor=floor)
        if self.lumping is not None:
            floor = tuple(self.lumping.floor)
        elif not self.is_symbolic and self.is_exact:
            # arg-min of each column at 60 digits; the floor is that exact entry
            rows, _ = self._mp_entries
            idx = [
                min(range(len(self.inputs)), key=lambda i: rows[self.inputs[i]][j])
                for j in range(len(self.outputs))
            ]
            floor = tuple(self.probs[i][j] for j, i in enumerate(idx))
        else:
            floor = tuple(smallest([r[j] for r in self.probs]) for j in range(len(self.outputs)))
        gamma = _tidy(sum(m * c for m, c in zip(self.multiplicity, floor)))
        if sign(gamma) <= 0:
            return Blanket(gamma=gamma, omega=tuple(0 for _ in floor), floor=floor)
        omega = tuple(_tidy(c / gamma) for c in floor)
        return Blanket(gamma=gamma, omega=omega, floor=floor)

    # ------------------------------------------------------------- pairs
    def pairs(self, adjacency: str = "replace-one") -> list[tuple]:
        """All ordered neighbouring pairs under ``adjacency``."""
        check_adjacency(adjacency)
        if adjacency == "zero-out":
            return [(x, BOT) for x in self.inputs] + [(BOT, x) for x in self.inputs]
        return [(a, b) for a in self.inputs for b in self.inputs if a != b]

    # -------------------------------------------------------------- GPARV
    def gparv(self, epsilon: Any, pair: tuple | None = None) -> DiscreteLaw:
        r"""Exact law of :math:`G_\varepsilon^{x,x'}` (Su-Cheng-Wang 2026, Def. 5.1).

        ``pair`` defaults to the first replace-one pair (inputs 0 and 1 of the matrix);
        ``epsilon`` may be a number, numeric text (kept exact: ``"1/2"``) or a symbol.
        """
        if isinstance(epsilon, str):
            epsilon = check_law_epsilon(epsilon)
        _check_epsilon(epsilon)
        if pair is None:
            pair = self.pairs("replace-one")[0] if len(self.inputs) > 1 else (self.inputs[0], BOT)
        b = self.blanket()
        if sign(b.gamma) <= 0:
            raise ValueError(
                f"{self.name} has blanket mass gamma=0; the GPARV needs gamma in (0, 1]"
            )
        ra, rb = self.row(pair[0]), self.row(pair[1])
        e = sp.exp(epsilon) if isinstance(epsilon, sp.Basic) else math.exp(epsilon)
        terms = []
        for j, c in enumerate(b.floor):
            if sign(c) == 0:
                if sign(ra[j]) != 0 or sign(rb[j]) != 0:
                    raise ValueError(
                        f"output {self.outputs[j]!r} has no blanket mass but positive "
                        f"probability under the pair {pair}: {self.name} is not "
                        "eps0-LDP, so its GPARV is unbounded"
                    )
                continue
            terms.append((_tidy((ra[j] - e * rb[j]) / c), self.multiplicity[j] * c))
        terms.append((0, _simp(1 - b.gamma)))
        return DiscreteLaw.from_pairs(terms)

    def _gparv_signature(self, epsilon: Any, pair: tuple) -> tuple:
        """The GPARV law of ``pair`` at 60 digits, as a hashable sorted signature (40 digits)."""
        import mpmath

        rows, mult = self._mp
        with mpmath.workdps(60):
            e = mpmath.exp(
                mpmath.mpf(sp.N(epsilon, 60))
                if isinstance(epsilon, sp.Basic)
                else mpmath.mpf(epsilon)
            )
            floor = [
                mpmath.mpf(sp.N(c, 60)) if isinstance(c, sp.Basic) else mpmath.mpf(c)
                for c in self.blanket().floor
            ]
            acc: dict = {}
            for j, c in enumerate(floor):
                if c == 0:
                    continue
                atom = mpmath.nstr((rows[pair[0]][j] - e * rows[pair[1]][j]) / c, 40)
                acc[atom] = acc.get(atom, 0) + mult[j] * c
        return tuple(sorted((a, mpmath.nstr(p, 40)) for a, p in acc.items()))

    def gparv_laws(
        self, epsilon: Any, adjacency: str = "replace-one"
    ) -> list[tuple[DiscreteLaw, list]]:
        """The distinct GPARV laws over all neighbouring pairs, each with its pairs.

        Numeric mechanisms group the pairs by their law at 60 digits first and derive
        the exact law once per group.
        """
        if not self.is_symbolic and not (isinstance(epsilon, sp.Basic) and epsilon.free_symbols):
            groups: dict = {}
            for pair in self.pairs(adjacency):
                groups.setdefault(self._gparv_signature(epsilon, pair), []).append(pair)
            return [(self.gparv(epsilon, prs[0]), prs) for prs in groups.values()]
        out: list[tuple[DiscreteLaw, list]] = []
        for pair in self.pairs(adjacency):
            law = self.gparv(epsilon, pair)
            for known, prs in out:
                if _same_law(known, law):
                    prs.append(pair)
                    break
            else:
                out.append((law, [pair]))
        return out

    # ---------------------------------------------------- shuffle indices
    def _weighted_chi2(self, num_a, num_b, ref) -> Any:
        """:math:`\\sum_y m_y (a_y - b_y)^2 / r_y` (infinite if r_y = 0 < |a_y - b_y|)."""
        counts: dict = {}
        for m, a, b, r in zip(self.multiplicity, num_a, num_b, ref):
            d = a - b
            if sign(r) == 0:
                if sign(d) != 0:
                    return sp.oo
                continue
            term = d * d / r
            counts[term] = counts.get(term, 0) + m  # families repeat a few distinct terms
        return _simp(sum(c * t for t, c in counts.items()))

    @cached_property
    def _mp(self):
        """Entries (and the blanket row ``BOT``) at 60 digits for fast arg-max searches."""
        import mpmath

        rows, mult = self._mp_entries
        rows = dict(rows)
        with mpmath.workdps(60):
            b = self.blanket()
            rows[BOT] = [
                mpmath.mpf(sp.N(o, 60)) if isinstance(o, sp.Basic) else mpmath.mpf(o)
                for o in b.omega
            ]
        return rows, mult

    @cached_property
    def _mp_entries(self):
        """Matrix entries at 60 significant digits (mpmath), memoised per distinct entry."""
        import mpmath

        memo: dict = {}

        def conv(v):
            if not isinstance(v, sp.Basic):
                return mpmath.mpf(v)
            if v not in memo:  # families repeat a few distinct entries many times
                memo[v] = mpmath.mpf(sp.N(v, 60))
            return memo[v]

        with mpmath.workdps(60):
            rows = {x: [conv(p) for p in r] for x, r in zip(self.inputs, self.probs)}
            mult = [conv(m) for m in self.multiplicity]
        return rows, mult

    def _argmax(self, candidates, value_of):
        """Arg-max of ``value_of(candidate)``; numeric mechanisms compare at 60 digits
        and only the winner is computed exactly."""
        if self.is_symbolic:
            best, arg = None, None
            for c in candidates:
                v = value_of(c, exact=True)
                if best is None or sign(v - best) > 0:
                    best, arg = v, c
            return best, arg
        import mpmath

        with mpmath.workdps(60):
            scored = [(value_of(c, exact=False), i) for i, c in enumerate(candidates)]
        arg = candidates[max(scored)[1]]
        return value_of(arg, exact=True), arg

    def _chi2_mp(self, a, b, ref):
        rows, mult = self._mp
        total = 0
        for m, pa, pb, r in zip(mult, rows[a], rows[b], rows[ref]):
            d = pa - pb
            if r == 0:
                if d != 0:
                    return float("inf")
                continue
            total += m * d * d / r
        return total

    def chi_lo(self, adjacency: str = "zero-out") -> ShuffleIndex:
        r""":math:`\chi_{lo}` (Takagi-Liew 2026, Def. 2.4), worst pair found by enumeration."""
        b = self.blanket()
        if sign(b.gamma) <= 0:
            return ShuffleIndex(value=0, pair=())

        def value_of(pair, exact):
            if exact:
                return self._weighted_chi2(self.row(pair[0]), self.row(pair[1]), b.omega)
            return self._chi2_mp(pair[0], pair[1], BOT)

        best, arg = self._argmax(self.pairs(adjacency), value_of)
        if sign(best) == 0:
            return ShuffleIndex(value=sp.oo, pair=arg)
        return ShuffleIndex(value=_tidy(_sqrt(_tidy(b.gamma / best))), pair=arg)

    def chi_up(self, adjacency: str = "zero-out") -> ShuffleIndex:
        r""":math:`\chi_{up}` (Takagi-Liew 2026, Def. 2.4): sup over pairs and references :math:`z`."""

        def value_of(cand, exact):
            pair, z = cand
            if exact:
                return self._weighted_chi2(self.row(pair[0]), self.row(pair[1]), self.row(z))
            return self._chi2_mp(pair[0], pair[1], z)

        cands = [(pair, z) for pair in self.pairs(adjacency) for z in self.inputs]
        best, (arg, ref) = self._argmax(cands, value_of)
        if best == sp.oo:
            return ShuffleIndex(value=0, pair=arg, reference=ref)
        if sign(best) == 0:
            return ShuffleIndex(value=sp.oo, pair=arg, reference=ref)
        return ShuffleIndex(value=_tidy(1 / _sqrt(_tidy(best))), pair=arg, reference=ref)

    # ---------------------------------------------------------------- LDP
    def eps0(self) -> Any:
        r"""Local :math:`\varepsilon_0 = \max \log(R_x(y)/R_{x'}(y))` (``oo`` if unbounded)."""
        if not self.is_symbolic:
            # locate the extreme column at 60 digits, then form the exact ratio once
            rows, _ = self._mp
            best, arg = None, None
            for j in range(len(self.outputs)):
                col = [rows[x][j] for x in self.inputs]
                hi, lo = max(col), min(col)
                if hi == 0:
                    continue
                if lo == 0:
                    return sp.oo
                if best is None or hi / lo > best:
                    best, arg = hi / lo, j
            if arg is None:
                return sp.Integer(0)
            col = [r[arg] for r in self.probs]
            return sp.expand_log(sp.log(sp.simplify(largest(col) / smallest(col))), force=True)
        ratios = []
        for j in range(len(self.outputs)):
            col = [r[j] for r in self.probs]
            hi, lo = largest(col), smallest(col)
            if sign(hi) == 0:
                continue
            if sign(lo) == 0:
                return sp.oo
            ratios.append(hi / lo)
        return _tidy(sp.log(_tidy(largest(ratios)))) if ratios else sp.Integer(0)

    # ------------------------------------------------------ post-process
    def post_process(
        self,
        kernel: Sequence[Sequence[Any]],
        *,
        outputs: Sequence | None = None,
        name: str | None = None,
        push_blanket: bool = False,
    ) -> FiniteMechanism:
        """The mechanism :math:`K\\circ R` for a Markov kernel ``kernel[y][z]``.

        With ``push_blanket=True`` the result keeps the blanket :math:`K\\circ(\\gamma\\omega)`
        (mass :math:`\\gamma`, the construction in the proof of Takagi-Liew 2026, Lemma A.3) instead of
        its own maximal blanket; the null input then outputs :math:`K\\circ\\omega`.
        """
        if self.lumping is not None or any(m != 1 for m in self.multiplicity):
            raise ValueError("post_process needs an unlumped mechanism (all multiplicities 1)")
        K = [list(r) for r in kernel]
        if len(K) != len(self.outputs):
            raise ValueError(f"kernel has {len(K)} rows, expected {len(self.outputs)}")
        width = len(K[0])
        rows = [
            [sum(r[y] * K[y][z] for y in range(len(r))) for z in range(width)] for r in self.probs
        ]
        post = FiniteMechanism.from_matrix(
            rows,
            inputs=self.inputs,
            outputs=outputs,
            name=name or f"K∘{self.name}",
            params=self.params,
        )
        if not push_blanket:
            return post
        floor = self.blanket().floor
        pushed = tuple(sum(floor[y] * K[y][z] for y in range(len(floor))) for z in range(width))
        return replace(post, blanket_floor=pushed)


def _same_law(a: DiscreteLaw, b: DiscreteLaw) -> bool:
    if len(a) != len(b):
        return False
    return all(sign(x - y) == 0 for x, y in zip(a.atoms, b.atoms)) and all(
        sign(p - q) == 0 for p, q in zip(a.probabilities, b.probabilities)
    )


def _clean(v: Any, what: str) -> Any:
    if isinstance(v, sp.Basic):
        if v.free_symbols or v.is_positive:  # products of positive factors: decided structurally
            return v
        if v.has(sp.nan) or not v.is_finite:
            raise ValueError(
                f"{what}={v} is not allowed; probabilities must be finite numbers in [0, 1]"
            )
        if sign(v) < 0:
            raise ValueError(f"{what}={sp.sstr(v)} is negative; allowed range [0, 1]")
        return v
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{what}={v!r} is not a number") from None
    if math.isnan(f) or math.isinf(f):
        raise ValueError(f"{what}={f!r} is not allowed; allowed range [0, 1]")
    if f < 0:
        raise ValueError(f"{what}={f!r} is negative; allowed range [0, 1]")
    if isinstance(v, (int, np.integer)):
        return sp.Integer(int(v))
    return f


def _check_epsilon(epsilon: Any) -> None:
    if isinstance(epsilon, sp.Basic) and epsilon.free_symbols:
        return
    e = float(epsilon)
    if math.isnan(e) or e < 0:
        raise ValueError(f"epsilon={epsilon!r} is not allowed; allowed range [0, inf)")


def _simp(x):
    """Canonical form for symbolic values (cancel, then factor); closed-form
    numbers are left as they are until :func:`_tidy` is called on a final result."""
    if isinstance(x, sp.Basic) and x.free_symbols:
        return sp.factor(sp.cancel(x))
    return x


def _tidy(x):
    """Final canonical form of an exact result (also for closed-form numbers)."""
    if isinstance(x, sp.Basic):
        return _tidy_exact(x)
    return x


LARGE_POWER = 64  # exact values with larger integer powers are kept as built (no cancel)


def has_large_power(x) -> bool:
    """Whether ``x`` contains an integer power above :data:`LARGE_POWER` (e.g. the
    :math:`p^{k-3}` of a lumped alphabet), which ``cancel`` would expand term by term."""
    return isinstance(x, sp.Basic) and any(
        p.exp.is_Integer and abs(int(p.exp)) > LARGE_POWER for p in x.atoms(sp.Pow)
    )


def _sqrt(x):
    """Square root; left unevaluated for values with a large power (sympy would try to
    pull factors out of the radical, which is slow and changes nothing)."""
    if has_large_power(x):
        return sp.Pow(x, sp.Rational(1, 2), evaluate=False)
    return sp.sqrt(x)


@lru_cache(maxsize=4096)
def _tidy_exact(x):
    if has_large_power(x):
        return x
    if isinstance(x, sp.Basic) and x.free_symbols:
        return sp.factor(sp.cancel(x))
    if isinstance(x, sp.Basic) and not x.is_Number:
        return sp.powsimp(sp.cancel(x))
    return x
