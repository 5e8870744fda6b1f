"""Random finite mechanisms for the contract suite (exact rational matrices)."""
from __future__ import annotations

import sympy as sp
from hypothesis import strategies as st

from shufflekit.mechanisms.finite import FiniteMechanism

# integer weights in [1, 140]: any ratio R_x(y)/R_x'(y) is at most 140 * 140 (row sums differ
# by at most that factor too, but they cancel in the worst case direction), so eps0 <= log(19600)
# < 10, the range the issue asks for
MAX_WEIGHT = 140


@st.composite
def finite_mechanisms(draw, max_inputs: int = 4, max_outputs: int = 5):
    k = draw(st.integers(2, max_inputs))
    m = draw(st.integers(2, max_outputs))
    rows = []
    for _ in range(k):
        w = [draw(st.integers(1, MAX_WEIGHT)) for _ in range(m)]
        s = sum(w)
        rows.append([sp.Rational(v, s) for v in w])
    return FiniteMechanism.from_matrix(rows)
