"""shufflekit: derive, evaluate and verify privacy amplification by shuffling.

Layers (data flows left to right): ``mechanisms`` (the local randomizers, each
defined once) -> ``symbolic`` (sympy derivations of closed forms and series) ->
``numeric`` (mpmath evaluation and certified accountants) -> ``verify`` (the
claims of the papers, checked).
"""
__version__ = "0.1.0"
