"""Hypothesis strategies for claims about mechanisms and channels.

``probability_vectors``   full-support probability vectors (every entry >= ``floor``);
``channels``              binary-input channels ``(W0, W1)`` on a finite alphabet, full support;
``probability_rows``      row-stochastic float matrices (lists of rows), full support;
``finite_mechanisms``     the same as :class:`FiniteMechanism`;
``enumeration_cases``     ``(mechanism, n, epsilon)`` small enough for the exhaustive references;
``markov_kernels``        post-processing kernels with ``n_in`` rows (zeros allowed);
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
def probability_rows(
    draw, n_inputs=st.integers(2, 4), n_outputs=st.integers(2, 5), floor: float = 0.02
):
    """A row-stochastic matrix: ``n_inputs`` rows over ``n_outputs`` symbols, each entry at
    least ``floor`` before normalising."""
    k = draw(n_inputs) if not isinstance(n_inputs, int) else n_inputs
    m = draw(n_outputs) if not isinstance(n_outputs, int) else n_outputs
    return [list(draw(probability_vectors(m, floor))) for _ in range(k)]


@st.composite
def finite_mechanisms(
    draw, inputs=st.integers(2, 4), outputs=st.integers(2, 5), floor: float = 0.02
):
    return FiniteMechanism.from_matrix(draw(probability_rows(inputs, outputs, floor)))


def enumeration_cases(
    inputs=st.integers(2, 3), outputs=st.integers(2, 4), n=st.integers(1, 5), eps_max: float = 1.5
):
    """``(mechanism, n, epsilon)``: a finite mechanism with few inputs and outputs, a number of
    users and an epsilon in ``[0, eps_max]``, small enough for the histogram enumerations of
    :mod:`shufflekit.numeric.kernels.brute_force` (the default sizes enumerate in milliseconds)."""
    return st.tuples(finite_mechanisms(inputs, outputs), n, st.floats(0.0, eps_max))


@st.composite
def markov_kernels(draw, n_in: int, n_out=st.integers(1, 4)):
    """A Markov kernel with ``n_in`` rows; entries may be zero (a row of zeros becomes a point mass)."""
    m = draw(n_out) if not isinstance(n_out, int) else n_out
    rows = []
    for _ in range(n_in):
        w = [draw(st.floats(0.0, 1.0)) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1.0
        total = sum(w)
        rows.append([v / total for v in w])
    return rows


def krr_parameters(k=st.integers(2, 12), eps0=st.floats(0.05, 6.0)):
    return st.tuples(k, eps0)
