"""The local randomizers of the papers, each defined once.

``make(name, **params)`` builds a mechanism by name; :data:`MECHANISMS` describes every name
(its parameters and a one-line summary) and :data:`NAMES` lists them.  Every mechanism
satisfies the :class:`~shufflekit.mechanisms.protocol.Mechanism` contract.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shufflekit.errors import InvalidParameter
from shufflekit.mechanisms.composition import JointComposition, joint
from shufflekit.mechanisms.finite import ADJACENCIES, BOT, FiniteMechanism
from shufflekit.mechanisms.frequency_oracles import blh, hadamard_response, oue, rappor
from shufflekit.mechanisms.gaussian import BlanketMixedGaussian, GaussianLocal
from shufflekit.mechanisms.laplace import laplace, laplace_metric
from shufflekit.mechanisms.law import ContinuousLaw, DiscreteLaw
from shufflekit.mechanisms.multi_message import balcer, balls_into_bins, cheu, mixdump
from shufflekit.mechanisms.parameters import as_param
from shufflekit.mechanisms.piecewise import piecewise
from shufflekit.mechanisms.planar_laplace import planar_laplace
from shufflekit.mechanisms.privunit import PrivUnit
from shufflekit.mechanisms.protocol import Adjacency, Mechanism
from shufflekit.mechanisms.randomized_response import k_randomized_response, randomized_response


@dataclass(frozen=True)
class MechanismSpec:
    """A mechanism name: its required and optional parameters and what it is."""

    name: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    summary: str
    source: str


MECHANISMS: dict[str, MechanismSpec] = {
    s.name: s
    for s in (
        MechanismSpec(
            "rr",
            (),
            ("eps0", "p"),
            "binary randomized response (give eps0 or p)",
            "Takagi-Liew 2026, Sec. 3.3",
        ),
        MechanismSpec(
            "krr", ("k", "eps0"), (), "k-ary randomized response", "Su-Cheng-Wang 2026, Table 1"
        ),
        MechanismSpec(
            "blh",
            ("k", "eps0"),
            ("hash_family",),
            "binary local hashing",
            "Su-Cheng-Wang 2026, Table 1",
        ),
        MechanismSpec(
            "rappor",
            ("k", "eps0"),
            (),
            "RAPPOR (symmetric unary encoding)",
            "Su-Cheng-Wang 2026, Table 1",
        ),
        MechanismSpec(
            "oue", ("k", "eps0"), (), "optimized unary encoding", "Su-Cheng-Wang 2026, Table 1"
        ),
        MechanismSpec("hr", ("k", "eps0"), (), "Hadamard response", "Su-Cheng-Wang 2026, Table 1"),
        MechanismSpec(
            "joint-krr",
            ("k", "eps0", "m"),
            (),
            "joint composition of m copies of k-RR, each eps0/m-LDP",
            "Su-Cheng-Wang 2026, Sec. 7",
        ),
        MechanismSpec(
            "privunit",
            ("p", "theta", "d"),
            (),
            "PrivUnit on the unit sphere",
            "Takagi-Liew 2026, Prop. 3.5",
        ),
        MechanismSpec(
            "gaussian-local",
            ("sigma0",),
            ("d",),
            "Gaussian local randomizer (no blanket)",
            "Takagi-Liew 2026, Sec. 4",
        ),
        MechanismSpec(
            "bmg",
            ("gamma", "sigma0"),
            ("d",),
            "blanket-mixed Gaussian",
            "Takagi-Liew 2026, Algorithm 1",
        ),
        MechanismSpec(
            "laplace",
            ("eps0",),
            (),
            "Laplace mechanism on [0, 1], scale 1/eps0",
            "Dwork-McSherry-Nissim-Smith 2006",
        ),
        MechanismSpec(
            "piecewise",
            ("eps0",),
            (),
            "piecewise mechanism on [-1, 1]",
            "Wang et al. 2019, Algorithm 2",
        ),
        MechanismSpec(
            "laplace-metric",
            ("eps0",),
            ("distance",),
            "metric-LDP Laplace on the real line, pairs at distance `distance` (default 1)",
            "Andres-Bordenabe-Chatzikokolakis-Palamidessi 2013",
        ),
        MechanismSpec(
            "planar-laplace",
            ("eps0",),
            ("distance",),
            "planar Laplace (geo-indistinguishability), pairs at distance `distance` (default 1)",
            "Andres-Bordenabe-Chatzikokolakis-Palamidessi 2013",
        ),
        MechanismSpec(
            "balls-into-bins",
            ("bins", "special"),
            (),
            "multi-message: the value plus a random `special`-subset of the bins",
            "Luo-Wang-Yi 2022",
        ),
        MechanismSpec(
            "mixdump",
            ("bins", "f"),
            ("dummies",),
            "multi-message: randomized response (flip probability f) plus uniform dummies",
            "Li et al. 2023 (DUMP)",
        ),
        MechanismSpec(
            "cheu",
            ("f",),
            ("d",),
            "multi-message: one-hot vector in {0,1}^d, each bit flipped with probability f",
            "Cheu-Smith-Ullman-Zeber-Zhilyaev 2019",
        ),
        MechanismSpec(
            "balcer",
            ("p",),
            ("bins",),
            "multi-message: the value plus every bin with probability p",
            "Balcer-Cheu 2020",
        ),
        MechanismSpec(
            "finite",
            ("matrix",),
            (),
            "any finite randomizer given by its matrix",
            "Su-Cheng-Wang 2026, Sec. 3",
        ),
    )
}

NAMES = tuple(MECHANISMS)

#: builders of the continuous randomizers (keyword parameters as in their MechanismSpec)
CONTINUOUS_BUILDERS = {
    "laplace": lambda eps0: laplace(eps0),
    "piecewise": lambda eps0: piecewise(eps0),
    "laplace-metric": lambda eps0, distance=1: laplace_metric(eps0, distance),
    "planar-laplace": lambda eps0, distance=1: planar_laplace(eps0, distance),
    "balls-into-bins": lambda bins, special: balls_into_bins(bins, special),
    "mixdump": lambda bins, f, dummies=1: mixdump(bins, f, dummies),
    "cheu": lambda f, d=2: cheu(f, d),
    "balcer": lambda p, bins=2: balcer(p, bins),
}

#: Largest alphabet of k-RR (above ``ENUMERATE_UP_TO`` it is built as its symmetry-lumped view).
KRR_MAX_K = 100_000
#: Largest number of jointly composed components (the product alphabet grows as k^m).
JOINT_MAX_M = 4


def make(name: str, **params: Any) -> Mechanism:
    """Build the mechanism ``name`` from keyword parameters (``None`` values ignored).

    ``joint-krr`` takes ``k``, ``eps0`` and ``m``: the joint composition of ``m``
    copies of k-RR, each ``eps0/m``-LDP (Su-Cheng-Wang 2026, Sec. 7).  ``finite`` takes
    ``matrix`` (rows = inputs).  Raises :class:`~shufflekit.errors.InvalidParameter` for an
    unknown name, a missing parameter or one out of range.

    >>> import shufflekit as sk
    >>> krr = sk.make("krr", k=10, eps0=4)
    >>> krr.gamma, krr.eps0()
    (10/(9 + exp(4)), 4)
    >>> sk.make("krr", k=10)
    Traceback (most recent call last):
    ...
    shufflekit.errors.InvalidParameter: ...
    """
    if name not in MECHANISMS:
        raise InvalidParameter("name", name, "one of " + ", ".join(NAMES), "unknown mechanism")
    spec = MECHANISMS[name]
    p = {k: v for k, v in params.items() if v is not None}
    missing = [k for k in spec.required if k not in p]
    if missing:
        raise InvalidParameter(
            missing[0], None, f"a value (mechanism {name} requires {', '.join(spec.required)})"
        )

    if name == "rr":
        if ("eps0" in p) == ("p" in p):
            raise InvalidParameter(
                "eps0",
                p.get("eps0"),
                "exactly one of eps0 in (0, inf) or p in [1/2, 1)",
                f"p={p.get('p')!r}",
            )
        return randomized_response(p.get("eps0"), p=p.get("p"))
    if name == "krr":
        k = p["k"]
        if not (hasattr(k, "free_symbols") and k.free_symbols):
            as_param(k, "k", low=2, high=KRR_MAX_K, integer=True)
        return k_randomized_response(k, p["eps0"])
    if name == "blh":
        return blh(p["k"], p["eps0"], hash_family=p.get("hash_family", "all"))
    if name == "rappor":
        return rappor(p["k"], p["eps0"])
    if name == "oue":
        return oue(p["k"], p["eps0"])
    if name == "hr":
        return hadamard_response(p["k"], p["eps0"])
    if name == "joint-krr":
        m = int(as_param(p["m"], "m", low=1, high=JOINT_MAX_M, integer=True))
        k = int(as_param(p["k"], "k", low=2, high=12, integer=True))
        eps0 = as_param(p["eps0"], "eps0", low=0, low_open=True)
        return joint([k_randomized_response(k, eps0 / m) for _ in range(m)])
    if name == "privunit":
        return PrivUnit(p["p"], p["theta"], p["d"])
    if name == "gaussian-local":
        return GaussianLocal(p["sigma0"], p.get("d", 1))
    if name == "bmg":
        return BlanketMixedGaussian(p["gamma"], p["sigma0"], p.get("d", 1))
    if name in CONTINUOUS_BUILDERS:
        extra = sorted(set(p) - set(spec.required) - set(spec.optional))
        if extra:
            allowed = ", ".join(spec.required + spec.optional)
            raise InvalidParameter(extra[0], p[extra[0]], f"a parameter of {name}: {allowed}")
        return CONTINUOUS_BUILDERS[name](**p)
    return FiniteMechanism.from_matrix(p["matrix"], name="finite")


__all__ = [
    "ADJACENCIES",
    "Adjacency",
    "BOT",
    "BlanketMixedGaussian",
    "ContinuousLaw",
    "DiscreteLaw",
    "FiniteMechanism",
    "GaussianLocal",
    "JointComposition",
    "MECHANISMS",
    "Mechanism",
    "MechanismSpec",
    "NAMES",
    "PrivUnit",
    "blh",
    "hadamard_response",
    "joint",
    "k_randomized_response",
    "make",
    "oue",
    "rappor",
    "randomized_response",
]
