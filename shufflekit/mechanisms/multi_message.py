r"""Multi-message shuffle protocols: every user sends several messages, the analyst sees the
multiset of all of them (the *unbundled* view: messages are not grouped by user).

The protocols (each user holds :math:`x`; ``bins`` = :math:`d`):

* ``balls-into-bins`` (Luo, Wang and Yi 2022, "Frequency estimation in the shuffle model with
  almost a single message"): a user sends the message :math:`x\in[d]` and ``special`` = :math:`s`
  blanket messages, a uniformly random :math:`s`-subset of :math:`[d]` (the user's special bins).
* ``mixdump`` (Li, Liu, Feng, Huang, Hu, Liu, Ren and Qin 2023, "DUMP", mixDUMP): a user sends its
  value through :math:`d`-ary randomized response with flip probability :math:`f` (with
  probability :math:`f` a uniform value of :math:`[d]`, else :math:`x`) and ``dummies`` = :math:`m`
  dummy messages, each uniform on :math:`[d]` (default one).
* ``cheu`` (Cheu, Smith, Ullman, Zeber and Zhilyaev 2019, histograms by per-coordinate
  randomized response): a user with a one-hot :math:`x\in\{0,1\}^d` sends the :math:`d` messages
  :math:`(j, x_j\oplus\xi_j)`, :math:`\xi_j\sim\mathrm{Bern}(f)` independent.
* ``balcer`` (Balcer and Cheu 2020, "Separating local & shuffled differential privacy via
  histograms"): a user sends :math:`x\in[d]` and, for every :math:`j\in[d]`, the message :math:`j`
  with probability :math:`p` (independent coins).

**What eps0 means here.**  ``eps0()`` is the local privacy of one user's *bundle* of messages:
``oo`` for ``balls-into-bins`` and ``balcer`` (the data message is sent in the clear, so some
bundles are impossible under another input), :math:`\log(1 + (1-f)d/f)` for ``mixdump`` (its
randomized-response message; the dummies do not depend on the input) and
:math:`2\log((1-f)/f)` for ``cheu`` (two coordinates differ between one-hot inputs).

**Theorem (pair-count reduction).**  Let two neighbouring datasets differ in user 1's input,
:math:`x` against :math:`x'`.  Suppose every message that may land in the two affected
"cells" (bins :math:`x, x'`; for ``cheu`` the ones and zeros of one coordinate) is either
*revealed* (its value is a function of the others' inputs or of a coin independent of the data)
or a *blanket slot*, and that the :math:`M` blanket slots are i.i.d., each in cell :math:`x` with
probability :math:`q`, in :math:`x'` with probability :math:`q'`, elsewhere otherwise, while user
1 deterministically adds one message to :math:`x` (resp. :math:`x'`).  Then the shuffled
divergence is at most

.. math::
    D(\varepsilon) = \frac{1}{M+1}\,E\Big[\Big(\sum_{i=1}^{M+1}G_i\Big)_+\Big],\qquad
    G = \begin{cases}1/q & \text{w.p. } q\\ -e^\varepsilon/q' & \text{w.p. } q'\\
    0 & \text{else}\end{cases}

*Proof sketch.*  Giving the analyst the revealed messages (and which slots are blanket slots)
only adds information (post-processing runs the other way).  Given them, the messages outside
the two cells are independent of user 1's input (for ``balls-into-bins``: given how many of
:math:`x, x'` a user's special set contains, the rest of the set is uniform on the other bins),
so the view is the pair of counts in the two cells: :math:`M` i.i.d. slots with law
:math:`R_z = (q, q', 1-q-q')` plus user 1's deterministic message.  That is the dataset pair
:math:`(x, z, \dots, z)` against :math:`(x', z, \dots, z)` of a single-message randomizer with
:math:`R_x = \delta_x`, whose divergence is the displayed expectation (Su-Cheng-Wang 2026, Thm 5,
exact for such pairs).  Where user 1's own message is random with a data-free part
(``mixdump``: uniform with probability :math:`f`; ``cheu``: each coordinate a fair coin with
probability :math:`2f`), joint convexity of the hockey-stick divergence over that common part
weights the cases; where two independent cells change at once (``balcer``; ``cheu`` when both
coordinates are data), the weak triangle inequality through the middle product law gives
:math:`D_{e^{\varepsilon}}(P\otimes Q\|Q\otimes P) \le D_{e^{\varepsilon/2}}(P\|Q) +
e^{\varepsilon/2}D_{e^{\varepsilon/2}}(Q\|P)`.  :math:`\square`

The decompositions (``blanket_terms``) are derived by sympy from each definition: the blanket
probability of a slot is the common mass :math:`\sum_y\min_x R_x(y)` of the per-slot laws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from shufflekit.mechanisms.parameters import as_param
from shufflekit.mechanisms.protocol import Describable, ParamMap

E = sp.Symbol("E", positive=True)  # e^epsilon in the decompositions


@dataclass(frozen=True)
class PairCount:
    r"""One pair-count term: :math:`M` i.i.d. blanket slots with cell probabilities
    :math:`(q, q')`, evaluated at :math:`\varepsilon\cdot` ``scale``, multiplied by ``weight``
    (``weight`` may contain ``E`` = :math:`e^\varepsilon`)."""

    q: Any
    qp: Any
    slots: Any
    weight: Any = 1
    scale: Any = 1
    order: str = "forward"  # "forward": user 1 adds to x; "reverse": to x'


@dataclass(frozen=True)
class Decomposition:
    """A bound as a sum of pair-count terms, for one direction of the pair; the protocol's bound
    is the maximum over ``directions`` of each direction's sum, minimised over alternatives."""

    terms: tuple
    label: str = ""


def common_mass(*laws: dict) -> Any:
    r""":math:`\sum_y \min_i P_i(y)`: the mass every law in ``laws`` shares (the blanket mass)."""
    keys = set().union(*laws)
    return sp.simplify(sum(sp.Min(*[law.get(k, 0) for law in laws]) for k in keys))


class MultiMessageProtocol(Describable):
    """Base of the multi-message protocols (module docstring)."""

    name: str = ""

    @property
    def params(self) -> ParamMap:  # pragma: no cover - defined by each protocol
        raise NotImplementedError

    def eps0(self) -> Any:  # pragma: no cover - defined by each protocol
        raise NotImplementedError

    def slot_blanket(self) -> Any:  # pragma: no cover - defined by each protocol
        raise NotImplementedError

    def decompositions(self, n: Any) -> list[list[Decomposition]]:  # pragma: no cover
        """Alternatives (outer list, each a valid bound: the smallest is used), each a list of
        directions (the largest is the bound)."""
        raise NotImplementedError

    @property
    def gamma(self) -> Any:
        """The per-slot blanket probability of the protocol's main decomposition."""
        return self.slot_blanket()

    def blanket(self) -> Any:
        from shufflekit.mechanisms.protocol import ContinuousBlanket

        return ContinuousBlanket(gamma=self.gamma)

    def gparv(self, epsilon: Any, pair: tuple | None = None) -> PairCountLaw:
        """The law of the pair-count reduction's amplification variable (module docstring)."""
        t = self.decompositions(sp.Symbol("n", positive=True, integer=True))[0][0].terms[0]
        return PairCountLaw(t.q, t.qp, sp.exp(epsilon) if epsilon is not None else E)

    def chi_lo(self) -> Any:
        r""":math:`\chi` of the per-slot law: :math:`\sqrt{\gamma/\mathrm{Var}}` with the slot's
        GPARV at :math:`\varepsilon = 0` (variance :math:`1/q + 1/q'`)."""
        t = self.decompositions(sp.Symbol("n", positive=True, integer=True))[0][0].terms[0]
        return sp.simplify(sp.sqrt((t.q + t.qp) / (1 / t.q + 1 / t.qp)))

    def chi_up(self) -> None:
        return None

    def latex(self) -> dict[str, str]:
        n = sp.Symbol("n", positive=True, integer=True)
        out = {"eps0": sp.latex(self.eps0()), "slot_blanket": sp.latex(self.gamma)}
        for i, alt in enumerate(self.decompositions(n)):
            for j, d in enumerate(alt):
                out[f"bound_{i}_{j}"] = " + ".join(
                    rf"{sp.latex(t.weight)}\,D_{{{sp.latex(t.scale)}\varepsilon}}"
                    rf"(q={sp.latex(t.q)}, q'={sp.latex(t.qp)}, M={sp.latex(t.slots)})"
                    for t in d.terms
                )
        return out

    def describe(self, *, epsilon: Any = 0, adjacency: str | None = None) -> dict:
        from shufflekit.mechanisms.describe import number

        return {
            "name": self.name,
            "params": {k: str(v) for k, v in self.params.items()},
            "gamma": number(self.gamma),
            "eps0": number(self.eps0()),
            "chi_lo": number(self.chi_lo()),
            "chi_up": None,
            "gparv": {"epsilon": str(epsilon), **self.gparv(epsilon).as_dict()},
            "latex": self.latex(),
            "view": "unbundled multiset of every user's messages",
        }


@dataclass(frozen=True)
class PairCountLaw:
    """The three-atom law of G in the pair-count reduction."""

    q: Any
    qp: Any
    e: Any

    def as_dict(self) -> dict:
        return {
            "family": "pair-count",
            "atoms": [sp.sstr(1 / self.q), sp.sstr(-self.e / self.qp), "0"],
            "probabilities": [sp.sstr(self.q), sp.sstr(self.qp), sp.sstr(1 - self.q - self.qp)],
        }


def _check_int(v, name, low, high=None):
    if isinstance(v, sp.Basic) and v.free_symbols:
        return v
    return as_param(v, name, low=low, high=high, integer=True)


@dataclass(frozen=True, eq=False)
class BallsIntoBins(MultiMessageProtocol):
    bins: Any
    special: Any
    name: str = "balls-into-bins"

    def __post_init__(self):
        object.__setattr__(self, "bins", _check_int(self.bins, "bins", 2, 10**9))
        s = _check_int(self.special, "special", 1, None)
        if not (isinstance(s, sp.Basic) and s.free_symbols) and s >= self.bins:
            as_param(s, "special", low=1, high=float(self.bins) - 1, integer=True)
        object.__setattr__(self, "special", s)

    @property
    def params(self) -> ParamMap:
        return ParamMap(bins=self.bins, special=self.special)

    def slot_blanket(self) -> Any:
        r""":math:`P(|S\cap\{x,x'\}| = 1)/2 = \binom{d-2}{s-1}/\binom ds` (sympy)."""
        d, s = self.bins, self.special
        return sp.simplify(sp.combsimp(sp.binomial(d - 2, s - 1) / sp.binomial(d, s)))

    def decompositions(self, n):
        q = self.slot_blanket()
        fwd = Decomposition((PairCount(q, q, n),), "x against x'")
        return [[fwd]]  # the reverse order has the same law (x and x' are exchangeable)

    def eps0(self) -> Any:
        return sp.oo


@dataclass(frozen=True, eq=False)
class MixDump(MultiMessageProtocol):
    bins: Any
    f: Any
    dummies: Any = 1
    name: str = "mixdump"

    def __post_init__(self):
        object.__setattr__(self, "bins", _check_int(self.bins, "bins", 2, 10**9))
        object.__setattr__(self, "f", as_param(self.f, "f", low=0, high=1, low_open=True))
        object.__setattr__(self, "dummies", _check_int(self.dummies, "dummies", 0, 10**6))

    @property
    def params(self) -> ParamMap:
        return ParamMap(bins=self.bins, f=self.f, dummies=self.dummies)

    def rr_law(self, data_in_x: bool) -> dict:
        """The randomized-response message's law over the cells x, x' and the other bins."""
        d, f = self.bins, self.f
        hit, miss = 1 - f + f / d, f / d
        return {
            "x": hit if data_in_x else miss,
            "x'": miss if data_in_x else hit,
            "other": f * (d - 2) / d,
        }

    def slot_blanket(self) -> Any:
        """Blanket mass of user 1's randomized-response message (its uniform part, f): the
        common mass of its laws under two inputs."""
        return common_mass(self.rr_law(True), self.rr_law(False))

    def decompositions(self, n):
        d, f, m = self.bins, self.f, self.dummies
        data = 1 - self.slot_blanket()  # user 1's data part (joint convexity over the rest)
        alts = []
        if m != 0:
            alts.append([Decomposition((PairCount(1 / d, 1 / d, n * m, data),), "dummies")])
        alts.append(
            [
                Decomposition(
                    (PairCount(f / d, f / d, n * (1 + m) - 1, data),),
                    "dummies thinned to the flip probability, with the others' flips",
                )
            ]
        )
        return alts

    def eps0(self) -> Any:
        d, f = self.bins, self.f
        return sp.log(1 + (1 - f) * d / f)


@dataclass(frozen=True, eq=False)
class CheuHistogram(MultiMessageProtocol):
    f: Any
    d: Any = 2
    name: str = "cheu"

    def __post_init__(self):
        object.__setattr__(
            self, "f", as_param(self.f, "f", low=0, high=0.5, low_open=True, high_open=True)
        )
        object.__setattr__(self, "d", _check_int(self.d, "d", 2, 10**6))

    @property
    def params(self) -> ParamMap:
        return ParamMap(f=self.f, d=self.d)

    def coordinate_blanket(self) -> Any:
        r"""Common mass of :math:`\mathrm{Bern}(f)` and :math:`\mathrm{Bern}(1-f)`: :math:`2f`."""
        f = self.f
        return common_mass({1: f, 0: 1 - f}, {1: 1 - f, 0: f})

    def slot_blanket(self) -> Any:
        return sp.simplify(self.coordinate_blanket() / 2)

    def decompositions(self, n):
        w = self.coordinate_blanket()  # a coordinate of user 1 is a fair coin with prob. w
        q = w / 2
        half = sp.Rational(1, 2)
        terms = []
        for first, second in (("forward", "reverse"), ("reverse", "forward")):
            terms.append(
                Decomposition(
                    (
                        PairCount(q, q, n - 1, (1 - w) ** 2, half, first),
                        PairCount(q, q, n - 1, (1 - w) ** 2 * sp.sqrt(E), half, second),
                        PairCount(q, q, n - 1, 2 * w * (1 - w), 1, first),
                    ),
                    f"one-hot pair ({first}): both coordinates data, or one",
                )
            )
        return [terms]

    def eps0(self) -> Any:
        return 2 * sp.log((1 - self.f) / self.f)


@dataclass(frozen=True, eq=False)
class BalcerCheu(MultiMessageProtocol):
    p: Any
    bins: Any = 2
    name: str = "balcer"

    def __post_init__(self):
        object.__setattr__(
            self, "p", as_param(self.p, "p", low=0, high=1, low_open=True, high_open=True)
        )
        object.__setattr__(self, "bins", _check_int(self.bins, "bins", 2, 10**9))

    @property
    def params(self) -> ParamMap:
        return ParamMap(p=self.p, bins=self.bins)

    def slot_blanket(self) -> Any:
        return sp.simplify(common_mass({1: self.p, 0: 1 - self.p}, {1: 1 - self.p, 0: self.p}))

    def decompositions(self, n):
        p = self.p
        # each bin's count: n independent Bern(p) coins ("1" = the coin sent the bin); user 1
        # adds a 1 to bin x (forward) or to bin x' (reverse); the two bins are independent
        half = sp.Rational(1, 2)
        return [
            [
                Decomposition(
                    (
                        PairCount(p, 1 - p, n, 1, half, first),
                        PairCount(p, 1 - p, n, sp.sqrt(E), half, second),
                    ),
                    f"bins x and x' both change ({first})",
                )
                for first, second in (("forward", "reverse"), ("reverse", "forward"))
            ]
        ]

    def eps0(self) -> Any:
        return sp.oo


def balls_into_bins(bins: Any, special: Any) -> BallsIntoBins:
    return BallsIntoBins(bins, special)


def mixdump(bins: Any, f: Any, dummies: Any = 1) -> MixDump:
    return MixDump(bins, f, dummies)


def cheu(f: Any, d: Any = 2) -> CheuHistogram:
    return CheuHistogram(f, d)


def balcer(p: Any, bins: Any = 2) -> BalcerCheu:
    return BalcerCheu(p, bins)
