"""The local randomizers of the papers, each defined once.

``make(name, **params)`` builds a mechanism by name; :data:`NAMES` lists them.
"""
from __future__ import annotations

from typing import Any

from shufflekit.mechanisms.composition import JointComposition, joint
from shufflekit.mechanisms.finite import ADJACENCIES, BOT, FiniteMechanism
from shufflekit.mechanisms.frequency_oracles import blh, hadamard_response, oue, rappor
from shufflekit.mechanisms.gaussian import BlanketMixedGaussian, GaussianLocal
from shufflekit.mechanisms.law import ContinuousLaw, DiscreteLaw
from shufflekit.mechanisms.privunit import PrivUnit
from shufflekit.mechanisms.randomized_response import k_randomized_response, randomized_response

NAMES = ("rr", "krr", "blh", "rappor", "oue", "hr", "joint-krr", "privunit",
         "gaussian-local", "bmg", "finite")


def make(name: str, **params: Any):
    """Build the mechanism ``name`` from keyword parameters (``None`` values ignored).

    ``joint-krr`` takes ``k``, ``eps0`` and ``m``: the joint composition of ``m``
    copies of k-RR, each ``eps0/m``-LDP (seed 002, Sec. 7).  ``finite`` takes
    ``matrix`` (rows = inputs).
    """
    p = {k: v for k, v in params.items() if v is not None}

    def need(*keys):
        missing = [k for k in keys if k not in p]
        if missing:
            raise ValueError(f"mechanism {name!r} needs parameter(s) {', '.join(missing)}")
        return [p[k] for k in keys]

    if name == "rr":
        return randomized_response(p.get("eps0"), p=p.get("p"))
    if name == "krr":
        return k_randomized_response(*need("k", "eps0"))
    if name == "blh":
        return blh(*need("k", "eps0"), hash_family=p.get("hash_family", "all"))
    if name == "rappor":
        return rappor(*need("k", "eps0"))
    if name == "oue":
        return oue(*need("k", "eps0"))
    if name == "hr":
        return hadamard_response(*need("k", "eps0"))
    if name == "joint-krr":
        k, eps0, m = need("k", "eps0", "m")
        m = int(m)
        if m < 1:
            raise ValueError(f"m={m} is not allowed; allowed range [1, inf) (integer)")
        import sympy as sp
        from shufflekit.mechanisms.parameters import as_param
        eps0 = as_param(eps0, "eps0", low=0, low_open=True)
        return joint([k_randomized_response(k, eps0 / m) for _ in range(m)])
    if name == "privunit":
        return PrivUnit(*need("p", "theta", "d"))
    if name == "gaussian-local":
        (s,) = need("sigma0")
        return GaussianLocal(s, p.get("d", 1))
    if name == "bmg":
        g, s = need("gamma", "sigma0")
        return BlanketMixedGaussian(g, s, p.get("d", 1))
    if name == "finite":
        (m,) = need("matrix")
        return FiniteMechanism.from_matrix(m, name="finite")
    raise ValueError(f"unknown mechanism name={name!r}; allowed: {', '.join(NAMES)}")


__all__ = ["ADJACENCIES", "BOT", "BlanketMixedGaussian", "ContinuousLaw", "DiscreteLaw",
           "FiniteMechanism", "GaussianLocal", "JointComposition", "NAMES", "PrivUnit", "blh",
           "hadamard_response", "joint", "k_randomized_response", "make", "oue", "rappor",
           "randomized_response"]
