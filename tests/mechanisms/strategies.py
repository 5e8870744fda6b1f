"""Hypothesis strategies: random finite randomizers with full support."""
from hypothesis import strategies as st


@st.composite
def probability_rows(draw, n_inputs=st.integers(2, 4), n_outputs=st.integers(2, 5), floor=0.02):
    """A row-stochastic float matrix with every entry at least ``floor`` before normalising."""
    k = draw(n_inputs)
    m = draw(n_outputs)
    rows = []
    for _ in range(k):
        w = [draw(st.floats(floor, 1.0)) for _ in range(m)]
        total = sum(w)
        rows.append([v / total for v in w])
    return rows


@st.composite
def markov_kernels(draw, n_in, n_out=st.integers(1, 4)):
    m = draw(n_out)
    rows = []
    for _ in range(n_in):
        w = [draw(st.floats(0.0, 1.0)) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1.0
        total = sum(w)
        rows.append([v / total for v in w])
    return rows
