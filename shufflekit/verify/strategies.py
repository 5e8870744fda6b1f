"""Hypothesis strategies for claims about mechanisms and channels.

``probability_vectors``   full-support probability vectors (every entry >= ``floor``);
``channels``              binary-input channels ``(W0, W1)`` on a finite alphabet, full support;
``finite_mechanisms``     row-stochastic matrices as :class:`FiniteMechanism`;
``krr_parameters``        ``(k, eps0)`` pairs for k-ary randomized response.
"""
from __future__ import annotations

from hypothesis import strategies as st

from shufflekit.mechanisms import FiniteMechanism


@st.composite
def probability_vectors(draw, size=st.integers(2, 5), floor: float = 0.01):
    m = draw(size) if not isinstance(size, int) else size
    w = [draw(st.floats(floor, 1.0, allow_nan=False)) for _ in range(m)]
    total = sum(w)
    return tuple(v / total for v in w)


@st.composite
def channels(draw, size=st.integers(2, 5), floor: float = 0.01, distinct: bool = True):
    m = draw(size) if not isinstance(size, int) else size
    w0 = draw(probability_vectors(m, floor))
    w1 = draw(probability_vectors(m, floor))
    if distinct and max(abs(a - b) for a, b in zip(w0, w1)) < 1e-6:
        w1 = tuple(reversed(w1)) if w1 != tuple(reversed(w1)) else w1
    return w0, w1


@st.composite
def finite_mechanisms(draw, inputs=st.integers(2, 4), outputs=st.integers(2, 5), floor: float = 0.02):
    k = draw(inputs)
    m = draw(outputs)
    rows = [draw(probability_vectors(m, floor)) for _ in range(k)]
    return FiniteMechanism.from_matrix(rows)


def krr_parameters(k=st.integers(2, 12), eps0=st.floats(0.05, 6.0)):
    return st.tuples(k, eps0)
