"""shufflekit: derive, evaluate and verify privacy amplification by shuffling.

Layers (data flows left to right): ``mechanisms`` (the local randomizers, each
defined once) -> ``symbolic`` (sympy derivations of closed forms and series) ->
``numeric`` (mpmath evaluation and certified accountants) -> ``verify`` (the
claims of the papers, checked).
"""
__version__ = "0.1.0"


def __getattr__(name):
    """``shufflekit.accountant``, ``shufflekit.make`` and ``shufflekit.methods``, imported lazily."""
    if name in ("accountant", "methods"):
        from shufflekit.numeric import accountant as _acc
        return getattr(_acc, name)
    if name == "make":
        from shufflekit.mechanisms import make
        return make
    raise AttributeError(f"module 'shufflekit' has no attribute {name!r}")
