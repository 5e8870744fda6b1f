"""Random finite mechanisms for the contract suite (exact rational matrices)."""

from __future__ import annotations

import math

import sympy as sp
from hypothesis import strategies as st

from shufflekit.mechanisms import make
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.validation import MAX_EPS0, MAX_N, MIN_DELTA

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


# ----------------------------------------------------------------------------- the whole domain
#: the documented ranges (one table, :data:`shufflekit.validation.DOMAINS`): eps0 in (0, 100],
#: n in [1, 1e9], delta in [1e-300, 1)
EPS0_MAX = MAX_EPS0
N_MAX = MAX_N
DELTA_MIN = MIN_DELTA
#: exponents of the wide weights 2^-t: 2^-144 = e^-99.8, so weights span e^-100 .. 1
WIDE_EXPONENT = 144


def _eps0_of(rows) -> float:
    """max log(R_x(y) / R_x'(y)) of an exact matrix (inf if a ratio has a zero denominator)."""
    best = 0.0
    for r in rows:
        for s in rows:
            for a, b in zip(r, s):
                if a == 0:
                    continue
                if b == 0:
                    return math.inf
                q = a / b
                best = max(best, math.log(int(q.p)) - math.log(int(q.q)))
    return best


#: local epsilons over (0, 100]: log-uniform, shown with 4 significant digits (exact decimals,
#: so the mechanism holds the rational the test names), plus the ends and a few round values
eps0s = st.one_of(
    st.sampled_from([1e-6, 1e-3, 0.5, 1.0, 10.0, 50.0, 80.0, 90.0, 99.99, 100.0]),
    st.floats(math.log(1e-3), math.log(EPS0_MAX)).map(
        lambda t: min(float(f"{math.exp(t):.4g}"), float(EPS0_MAX))
    ),
)


def rr_mechanisms(eps0=eps0s):
    """Binary randomized response, eps0 over its documented range."""
    return eps0.map(lambda e: make("rr", eps0=e))


def krr_mechanisms(k=st.integers(2, 5), eps0=eps0s):
    """k-ary randomized response, small k, eps0 over its documented range."""
    return st.builds(lambda kk, e: make("krr", k=kk, eps0=e), k, eps0)


@st.composite
def wide_matrices(
    draw,
    max_inputs: int = 3,
    max_outputs: int = 3,
    *,
    min_inputs: int = 2,
    min_outputs: int = 2,
    zero_columns: bool = True,
):
    """Exact stochastic matrices whose entries span e^-100 .. 1 (eps0 <= 100).

    Every row has a weight 1 and the others are ``m * 2^-t`` (``m`` in 1..3, ``t`` up to
    :data:`WIDE_EXPONENT`); an output may be unused by every input (a zero column, which keeps
    the mechanism LDP).  If eps0 exceeds 100 every exponent is reduced by a sixteenth until
    it does not (a few steps at most: eps0 <= t ln 2 + ln 9).
    """
    k = draw(st.integers(min_inputs, max_inputs))
    m = draw(st.integers(min_outputs, max_outputs))
    zero = draw(st.sampled_from([None] + (list(range(m)) if zero_columns and m > 2 else [])))
    mant = [[draw(st.integers(1, 3)) for _ in range(m)] for _ in range(k)]
    expo = [[draw(st.integers(0, WIDE_EXPONENT)) for _ in range(m)] for _ in range(k)]
    for i in range(k):
        one = draw(st.integers(0, m - 1))
        if one == zero:
            one = (one + 1) % m
        mant[i][one], expo[i][one] = 1, 0

    def build():
        rows = []
        for i in range(k):
            w = [
                sp.Integer(0) if j == zero else sp.Rational(mant[i][j], 2 ** expo[i][j])
                for j in range(m)
            ]
            rows.append([v / sum(w) for v in w])
        return rows

    rows = build()
    while _eps0_of(rows) > EPS0_MAX:
        expo = [[t - (t + 15) // 16 for t in r] for r in expo]
        rows = build()
    return rows


def wide_mechanisms(max_inputs: int = 3, max_outputs: int = 3, **kw):
    """:func:`wide_matrices` as mechanisms."""
    return wide_matrices(max_inputs, max_outputs, **kw).map(FiniteMechanism.from_matrix)


@st.composite
def degenerate_mechanisms(draw, max_inputs: int = 3, max_outputs: int = 3):
    """Mechanisms at the edge of the definition: all rows equal (eps0 = 0), rows equal up to
    one entry moved by 2^-140, or a zero column next to equal rows."""
    k = draw(st.integers(2, max_inputs))
    m = draw(st.integers(2, max_outputs))
    w = [sp.Integer(draw(st.integers(0, 5))) for _ in range(m)]
    if sum(w) == 0:
        w[0] = sp.Integer(1)
    row = [v / sum(w) for v in w]
    rows = [list(row) for _ in range(k)]
    kind = draw(st.sampled_from(["equal", "nudged"]))
    if kind == "nudged":
        i = draw(st.integers(0, m - 1))
        j = next((j for j in range(m) if j != i and row[j] > 0 and row[i] > 0), None)
        if j is not None:
            tiny = sp.Rational(1, 2**140) * min(row[i], row[j])
            rows[-1][i] += tiny
            rows[-1][j] -= tiny
    return FiniteMechanism.from_matrix(rows)


def binary_mechanisms():
    """Two inputs, two outputs: randomized response over (0, 100], or a wide 2x2 matrix."""
    return st.one_of(rr_mechanisms(), wide_mechanisms(2, 2, zero_columns=False))
