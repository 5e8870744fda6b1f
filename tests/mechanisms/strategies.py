"""Hypothesis strategies of the tests: matrices for finite randomizers and kernels.

Full-support rows come from the strategies the claim catalog uses
(:mod:`shufflekit.verify.strategies`), so tests and catalog draw from one definition.
"""
from hypothesis import strategies as st

from shufflekit.verify.strategies import probability_vectors


@st.composite
def probability_rows(draw, n_inputs=st.integers(2, 4), n_outputs=st.integers(2, 5), floor=0.02):
    """A row-stochastic float matrix with every entry at least ``floor`` before normalising."""
    k = draw(n_inputs)
    m = draw(n_outputs)
    return [list(draw(probability_vectors(m, floor))) for _ in range(k)]


@st.composite
def markov_kernels(draw, n_in, n_out=st.integers(1, 4)):
    """A row-stochastic ``n_in`` x m matrix whose entries may be 0 (a post-processing kernel)."""
    m = draw(n_out)
    rows = []
    for _ in range(n_in):
        w = [draw(st.floats(0.0, 1.0)) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1.0
        total = sum(w)
        rows.append([v / total for v in w])
    return rows
