"""shufflekit: derive, evaluate and verify privacy amplification by shuffling.

Layers (data flows left to right): ``mechanisms`` (the local randomizers, each
defined once) -> ``symbolic`` (sympy derivations of closed forms and series) ->
``numeric`` (mpmath evaluation and certified accountants) -> ``verify`` (the
claims of the papers, checked).

The public API is this module:

>>> import shufflekit as sk
>>> m = sk.make("krr", k=10, eps0=4)          # any name of sk.mechanism_names()
>>> m.gamma                                   # maximal blanket mass, exact
10/(9 + exp(4))
>>> acc = sk.accountant(m, n=10_000)          # default method for m; sk.methods(m) lists all
>>> print(acc.get_delta(1.0))                 # a Bound: what it proves, and the interval
delta(epsilon=1) upper: 1.005946157e-24 in [1.005946155e-24, 1.005946157e-24]  [blanket, replace-one, pairs: all]  note: worst pair (0, 1)
>>> b = acc.get_epsilon(1e-6)
>>> b.kind.value, b.lo <= b.hi
('upper', True)

``m.describe()`` summarises a mechanism (blanket, eps0, shuffle indices, GPARV law) and
``sk.compose`` composes shuffled rounds.  Names are imported on first use, so
``import shufflekit`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.2.0"

#: public name -> (module, attribute); the attribute None means the module itself
EXPORTS: dict[str, tuple[str, str | None]] = {
    # mechanisms
    "make": ("shufflekit.mechanisms", "make"),
    "mechanism_names": ("shufflekit.mechanisms", "NAMES"),
    "Mechanism": ("shufflekit.mechanisms.protocol", "Mechanism"),
    "Adjacency": ("shufflekit.mechanisms.protocol", "Adjacency"),
    "FiniteMechanism": ("shufflekit.mechanisms.finite", "FiniteMechanism"),
    "JointComposition": ("shufflekit.mechanisms.composition", "JointComposition"),
    "PrivUnit": ("shufflekit.mechanisms.privunit", "PrivUnit"),
    "GaussianLocal": ("shufflekit.mechanisms.gaussian", "GaussianLocal"),
    "BlanketMixedGaussian": ("shufflekit.mechanisms.gaussian", "BlanketMixedGaussian"),
    # accounting
    "accountant": ("shufflekit.numeric.accountant", "accountant"),
    "methods": ("shufflekit.numeric.accountant", "methods"),
    "Accountant": ("shufflekit.numeric.accountant", "Accountant"),
    "PrivacyProfile": ("shufflekit.numeric.accountant", "PrivacyProfile"),
    "Bound": ("shufflekit.numeric.bound", "Bound"),
    "Kind": ("shufflekit.numeric.bound", "Kind"),
    "compose": ("shufflekit.numeric.composition.fixed", "compose"),
    "Round": ("shufflekit.numeric.composition.fixed", "Round"),
    "ShuffleAccountant": ("shufflekit.numeric.composition.incremental", "ShuffleAccountant"),
    "RenyiProfile": ("shufflekit.numeric.composition.renyi", "RenyiProfile"),
    "CentralGaussian": ("shufflekit.numeric.methods.gaussian", "CentralGaussian"),
    # symbolic
    "Series": ("shufflekit.symbolic.series", "Series"),
    "Derivation": ("shufflekit.symbolic.derivation", "Derivation"),
    "symbols": ("shufflekit.symbols", None),
    # claims
    "verify": ("shufflekit.verify", None),
    # errors and references
    "InvalidParameter": ("shufflekit.errors", "InvalidParameter"),
    "CannotCertify": ("shufflekit.errors", "CannotCertify"),
    "UnsupportedMethod": ("shufflekit.errors", "UnsupportedMethod"),
    "references": ("shufflekit.references", None),
}

__all__ = ["__version__", *sorted(EXPORTS)]


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    if name not in EXPORTS:
        raise AttributeError(f"module 'shufflekit' has no attribute {name!r}")
    module, attr = EXPORTS[name]
    mod = importlib.import_module(module)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(EXPORTS))
