"""The mirrored-pair divergence kernel against an independent enumeration of its definition.

The reference builds the two laws of the shuffled view from the reports themselves (the
differing user's outcome times the multinomial law of the others' counts), at 50 digits, and
sums the positive parts; it shares nothing with the kernel's threshold formula.  Every term of
the kernel's error budget has a test that fails when the term is dropped: the window of clone
counts and the inner sums are cut short on purpose, so only the tail bounds keep the upper
bound above the truth.
"""

from __future__ import annotations

import math

import mpmath as mp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.errors import CannotCertify
from shufflekit.numeric.kernels import mirrored_pair as K
from shufflekit.numeric.kernels.mirrored_pair import mirrored_divergence


def reference(u, v, s, n, eps, merged):
    """Sum of (P - e^eps Q)_+ over the shuffled view, enumerated at 50 digits."""
    with mp.workdps(50):
        u, v, s = mp.mpf(u), mp.mpf(v), mp.mpf(s)
        lam, E = 1 - u - v, mp.e ** mp.mpf(eps)
        P, Q = {}, {}
        m = n - 1
        for n0 in range(m + 1):
            for n1 in range(m + 1 - n0):
                w = (
                    mp.factorial(m)
                    / (mp.factorial(n0) * mp.factorial(n1) * mp.factorial(m - n0 - n1))
                    * s ** (n0 + n1)
                    * (1 - 2 * s) ** (m - n0 - n1)
                )
                for law, (p0, p1) in ((P, (u, v)), (Q, (v, u))):
                    for key, pr in (
                        ((n0 + 1, n1, 0), p0),
                        ((n0, n1 + 1, 0), p1),
                        ((n0, n1, 1), lam),
                    ):
                        if merged:
                            key = key[:2]
                        law[key] = law.get(key, 0) + w * pr
        return sum(max(P[k] - E * Q.get(k, 0), 0) for k in P)


PARAMS = st.tuples(
    st.floats(0.05, 0.95),  # u
    st.floats(0.01, 1.0),  # v / u
    st.floats(0.0, 1.0),  # share of the left-over
    st.floats(0.001, 0.49),  # s
    st.integers(1, 18),  # n
    st.floats(0.0, 1.2),  # epsilon as a fraction of log(u / v)
)


def draw(t):
    u, ratio, _, s, n, frac = t
    v = u * ratio
    if u + v > 1:  # a left-over of at least 1e-9, so that 1 - u - v >= 0 exactly
        u, v = u / (u + v) * (1 - 1e-9), v / (u + v) * (1 - 1e-9)
    eps = frac * math.log(u / v) if v < u else frac
    return u, v, s, n, eps


@settings(max_examples=25, deadline=None)
@given(PARAMS)
def test_both_views_enclose_the_enumerated_divergence(t):
    u, v, s, n, eps = draw(t)
    ref = reference(u, v, s, n, eps, merged=False)
    hi = mirrored_divergence(u, v, s, n, eps, upper=True)
    lo = mirrored_divergence(u, v, s, n, eps, upper=False)
    assert lo <= ref <= hi
    # and tightly: the enclosure is round-off wide, not a trivial bound (relative to the value,
    # or to the scale u of the numerator N = K a - M where it cancels near epsilon = log(u/v))
    assert hi - lo <= 1e-12 * float(ref) + 1e-14 * u
    ref_m = reference(u, v, s, n, eps, merged=True)
    lo_m = mirrored_divergence(u, v, s, n, eps, merged=True, upper=False)
    assert lo_m <= ref_m
    assert float(ref_m) - lo_m <= 1e-12 * float(ref_m) + 1e-14 * u
    # the merged view is a post-processing of the visible one
    with mp.workdps(50):  # both references carry 50 digits
        assert ref_m <= ref * (1 + mp.mpf(10) ** -40)


# 10-ary randomized response, eps0 = 4: the differing user's sides have probabilities
# e^4/(e^4 + 9) and 1/(e^4 + 9), each other user reports each side with 1/(e^4 + 9);
# references enumerated at 40 digits over the clone counts c <= 900 (the rest has mass < 1e-70)
KRR_U, KRR_V = math.exp(4) / (math.exp(4) + 9), 1 / (math.exp(4) + 9)
VISIBLE_1E4 = 8.247978458701348e-06
MERGED_1E4 = 9.998301234976164e-07


def test_ten_ary_randomized_response_at_ten_thousand_users():
    eps = 0.3804588
    hi = mirrored_divergence(KRR_U, KRR_V, KRR_V, 10_000, eps, upper=True)
    lo = mirrored_divergence(KRR_U, KRR_V, KRR_V, 10_000, eps, upper=False)
    # the 40-digit reference is accurate far below the enclosure's width; the width is the
    # proven float error gamma_(4J+8) of the inner sums (J counted in blocks of 128: about
    # 6e-14 each way), so 1e-12 would catch any looser budget
    assert lo <= VISIBLE_1E4 <= hi and hi - lo < 1e-12 * VISIBLE_1E4
    lo_m = mirrored_divergence(KRR_U, KRR_V, KRR_V, 10_000, eps, merged=True, upper=False)
    assert lo_m <= MERGED_1E4 and MERGED_1E4 - lo_m < 1e-12 * MERGED_1E4


@pytest.mark.slow  # 5 s each: the cut-short sums iterate one term at a time
@pytest.mark.parametrize(
    "patch",
    [
        # no widening of the clone window (the window tails are all that covers the rest)
        {"SIGMAS": 0.1, "REL_TAIL": 1.0},
        # one inner term per block and the inner sum stopped after it (the inner tail covers it)
        {"JBLOCK": 2, "REL_TAIL": 1.0},
    ],
)
def test_every_tail_bound_is_needed(monkeypatch, patch):
    for name, value in patch.items():
        monkeypatch.setattr(K, name, value)
    for u, v, s, n, eps in ((0.7, 0.1, 0.05, 60, 0.3), (KRR_U, KRR_V, KRR_V, 120, 0.5)):
        ref = reference(u, v, s, n, eps, merged=False)
        hi = mirrored_divergence(u, v, s, n, eps, upper=True)
        lo = mirrored_divergence(u, v, s, n, eps, upper=False)
        assert lo <= ref <= hi
        # the cut was real: the lower bound (no tails) lost far more than the float error
        # budget (1e-13), so an upper bound without its tail term would fall below the truth
        assert lo < ref * (1 - 1e-12)


def test_edges():
    # one user: the local divergence (u - E v)_+ + (v - E u)_+
    assert mirrored_divergence(0.6, 0.2, 0.1, 1, 0.0, upper=True) == pytest.approx(0.4, rel=1e-15)
    # epsilon at the local ratio: nothing is positive
    assert mirrored_divergence(0.6, 0.2, 0.1, 50, math.log(3.0) + 1e-12, upper=True) == 0.0
    # no clones at all (s = 0): the local divergence
    assert mirrored_divergence(0.6, 0.2, 0.0, 50, 0.0, upper=True) == pytest.approx(0.4, rel=1e-15)
    with pytest.raises(ValueError, match="visible"):
        mirrored_divergence(0.6, 0.2, 0.1, 5, 0.1, merged=True, upper=True)


def test_declines_beyond_its_work_bound():
    with pytest.raises(CannotCertify, match="inner terms"):
        mirrored_divergence(KRR_U, KRR_V, KRR_V, 10**9, 0.001, upper=True)
