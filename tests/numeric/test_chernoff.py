"""Chernoff bound of Shvets 2026, Sec. 8.2: never below the exact delta; minimised correctly."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.numeric.methods import histogram as H
from shufflekit.numeric.methods.chernoff import chernoff_delta

W0 = [0.70, 0.20, 0.10]
W1 = [0.15, 0.55, 0.30]


@st.composite
def channels(draw):
    d = draw(st.integers(2, 4))
    w0 = [draw(st.floats(0.02, 1.0)) for _ in range(d)]
    w1 = [draw(st.floats(0.0, 1.0)) for _ in range(d)]
    if sum(w1) == 0:
        w1[0] = 1.0
    return [x / sum(w0) for x in w0], [x / sum(w1) for x in w1]


@settings(max_examples=60)
@given(ch=channels(), n=st.integers(1, 60), eps=st.floats(0.0, 3.0))
def test_chernoff_never_below_exact(ch, n, eps):
    pair = H.canonical_pair(ch[0], ch[1], n)
    qp = chernoff_delta(ch[0], ch[1], n, eps)
    pq = chernoff_delta(ch[0], ch[1], n, eps, direction="P||Q")
    both = chernoff_delta(ch[0], ch[1], n, eps, direction="both")
    assert 0.0 <= qp <= 1.0 and 0.0 <= pq <= 1.0
    assert qp >= pair.delta_qp(eps)
    assert pq >= pair.delta_pq(eps)
    assert both == max(qp, pq)


def test_minimum_beats_fixed_lambdas():
    n, eps = 200, 0.3
    w0, w1 = np.array(W0), np.array(W1)
    r = w1 / w0 - 1
    tau = math.expm1(eps)
    best = chernoff_delta(W0, W1, n, eps)
    for lam in (0.1, 0.5, 1.0, 2.0, 5.0):
        M = float(w0 @ np.exp(lam * r))
        Mp = float(w0 @ (r * np.exp(lam * r)))
        # the printed bound at this lambda, in logs (M^(n-1) overflows for large lambda)
        log_direct = -lam * n * tau + (n - 1) * math.log(M) + math.log(M + Mp)
        assert math.log(best) <= log_direct + 1e-9  # SAFETY margin of the returned value
    # and the bound is informative here: orders of magnitude below 1, above the exact value
    exact = H.canonical_pair(W0, W1, n).delta_qp(eps)
    assert exact < best < 1e-2


def test_exact_zero_region():
    r_max = max(b / a for a, b in zip(W0, W1)) - 1
    eps = math.log1p(r_max) + 0.01
    assert chernoff_delta(W0, W1, 50, eps) == 0.0
    assert H.canonical_pair(W0, W1, 50).delta_qp(eps) == 0.0


def test_large_n_log_space():
    q = 1 / (1 + math.e)
    val = chernoff_delta([q, 1 - q], [1 - q, q], 10**6, 0.05, direction="both")
    exact = H.binary_pair(q, 1 - q, 10**6).delta(0.05)
    assert exact <= val < 1.0


@pytest.mark.parametrize(
    "kwargs,fragment",
    [
        (dict(w0=W0, w1=W1, n=0, epsilon=0.1), "n=0"),
        (dict(w0=W0, w1=W1, n=10, epsilon=-0.1), "epsilon"),
        (dict(w0=[0.0, 1.0], w1=[0.5, 0.5], n=10, epsilon=0.1), "full support"),
        (dict(w0=W0, w1=W1, n=10, epsilon=0.1, direction="up"), "direction"),
    ],
)
def test_bad_input(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment):
        chernoff_delta(**kwargs)
