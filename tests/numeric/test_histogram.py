"""Exact histogram accounting (Shvets 2026, Sec. 4 and 8): brute force, tables, properties, bad input."""

import io
import itertools
import json
import math
from contextlib import redirect_stdout

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.numeric.kernels.brute_force import sequence_laws
from shufflekit.numeric.methods import histogram as H
from shufflekit.verify.checks import round_like

W0 = [0.70, 0.20, 0.10]
W1 = [0.15, 0.55, 0.30]


# ------------------------------------------------------------------ brute force
def brute_force(w0, w1, n, k):
    """P = T_{n,k}, Q = T_{n,k+1} by enumerating all d^n output sequences (user 0 is the changed
    user): the exact rational laws of the shared reference, rounded to floats."""
    P, Q, _ = sequence_laws(tuple(w0), tuple(w1), n, k)
    return {h: float(v) for h, v in P.items()}, {h: float(v) for h, v in Q.items()}


def as_dict(pair):
    return {tuple(int(x) for x in h): (p, q) for h, p, q in zip(pair.histograms(), pair.p, pair.q)}


@pytest.mark.parametrize(
    "w0,w1,n,k",
    [
        (W0, W1, 5, 0),
        (W0, W1, 5, 2),
        (W0, W1, 5, 4),
        ([0.5, 0.3, 0.2], [0.0, 0.6, 0.4], 4, 1),  # W1 has a zero: reverse singular mass
        ([0.25, 0.25, 0.25, 0.25], [0.1, 0.2, 0.3, 0.4], 4, 2),
        ([0.3, 0.7], [0.6, 0.4], 7, 3),
    ],
)
def test_laws_match_enumeration(w0, w1, n, k):
    P, Q = brute_force(w0, w1, n, k)
    got = as_dict(H.shuffled_pair(w0, w1, n, k))
    assert set(got) == set(P)
    for h in P:
        # non-negative sums of at most d^n products: relative round-off ~1e-15
        assert got[h][0] == pytest.approx(P[h], rel=1e-12, abs=1e-300)
        assert got[h][1] == pytest.approx(Q[h], rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("eps", [0.0, 0.2, 1.0])
def test_directed_curves_match_enumeration_with_singular_mass(eps):
    w0, w1, n, k = [0.5, 0.3, 0.2], [0.0, 0.6, 0.4], 4, 1
    P, Q = brute_force(w0, w1, n, k)
    pair = H.shuffled_pair(w0, w1, n, k)
    qp = sum(max(Q[h] - math.exp(eps) * P[h], 0.0) for h in P)
    pq = sum(max(P[h] - math.exp(eps) * Q[h], 0.0) for h in P)
    sing = sum(P[h] for h in P if Q[h] == 0)
    assert sing > 0.01  # the case really has singular mass P(Q = 0)
    assert pair.delta_qp(eps) == pytest.approx(qp, rel=1e-12)
    assert pair.delta_pq(eps) == pytest.approx(pq, rel=1e-12)
    assert pair.delta_pq(50.0) == pytest.approx(sing, rel=1e-12)  # only the singular part survives
    assert pair.epsilon_pq(sing / 2) == math.inf


def test_likelihood_ratio_is_one_plus_posterior_mean():
    n, k = 5, 2
    w0, w1 = np.array(W0), np.array(W1)
    r = w1 / w0 - 1
    num = {}
    for seq in itertools.product(range(3), repeat=n):
        others = math.prod(w1[y] for y in seq[1 : k + 1]) * math.prod(w0[y] for y in seq[k + 1 :])
        h = tuple(seq.count(y) for y in range(3))
        a, b = num.get(h, (0.0, 0.0))
        num[h] = (a + w0[seq[0]] * others * r[seq[0]], b + w0[seq[0]] * others)
    pair = H.shuffled_pair(W0, W1, n, k)
    for h, L in zip(pair.histograms(), pair.likelihood_ratio):
        a, b = num[tuple(int(x) for x in h)]
        assert L == pytest.approx(1 + a / b, rel=1e-12)


def test_canonical_and_binary_closed_forms_match_dp():
    def rel(a, b):
        return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)))

    # closed form (log-space multinomial) vs 60 DP steps: relative round-off ~60 x 1e-16
    c, d = H.canonical_pair(W0, W1, 60), H.shuffled_pair(W0, W1, 60, 0)
    assert rel(c.p, d.p) < 1e-11 and rel(c.q, d.q) < 1e-11
    b, g = H.binary_pair(0.3, 0.65, 80, 0), H.shuffled_pair([0.3, 0.7], [0.65, 0.35], 80, 0)
    assert rel(b.p, g.p) < 1e-11 and rel(b.likelihood_ratio, g.likelihood_ratio) < 1e-11
    b3 = H.binary_pair(0.3, 0.65, 30, 7)
    P, Q = brute_force([0.3, 0.7], [0.65, 0.35], 12, 5)
    assert b3.p.sum() == pytest.approx(1.0, abs=1e-14)
    small = as_dict(H.binary_pair(0.3, 0.65, 12, 5))
    for h in P:
        assert small[h][1] == pytest.approx(Q[h], rel=1e-12)


def test_divergences_against_definitions():
    pair = H.shuffled_pair(W0, W1, 60, 18)
    P, Q = pair.p, pair.q
    M = (P + Q) / 2
    jsd = 0.5 * (np.sum(P * np.log(P / M)) + np.sum(Q * np.log(Q / M)))
    # the direct sums cancel to first order: agreement to ~1e-12 relative is what float64 allows
    assert pair.jsd() == pytest.approx(jsd, rel=1e-10)
    assert pair.kl_pq() == pytest.approx(np.sum(P * np.log(P / Q)), rel=1e-10)
    assert pair.kl_qp() == pytest.approx(np.sum(Q * np.log(Q / P)), rel=1e-10)
    assert pair.chi2_qp() == pytest.approx(np.sum((Q - P) ** 2 / P), rel=1e-10)


def test_jsd_integrand_extremes():
    D = H._jsd_integrand(np.array([0.0, 1.0, 1 + 1e-9, 1e12]))
    assert D[0] == pytest.approx(0.5 * math.log(2), rel=1e-15)
    assert D[1] == 0.0
    assert D[2] == pytest.approx(1e-18 / 8, rel=1e-6)  # series u^2/8 - u^3/16: rel 1e-9 gap
    assert 0 < D[3] < 1e12 * math.log(2)


# ------------------------------------------------------------------ paper tables
@pytest.mark.parametrize("n,printed", [(200, "1.6373"), (400, "1.6361"), (800, "1.6355")])
def test_table4_exact_jsd(n, printed):
    k = round(0.3 * n)
    assert round_like(8 * n * H.shuffled_pair(W0, W1, n, k).jsd(), printed) == printed


def test_table5_exact_column():
    pair = H.shuffled_pair(W0, W1, 800, 240)
    mu = math.sqrt(H.channel_constants(np.array(W0), np.array(W1), 0.3)["I_pi"] / 800)
    for t, printed in [(0.5, "8.96e-3"), (1.0, "3.73e-3"), (1.5, "1.27e-3"), (2.0, "3.47e-4")]:
        assert round_like(pair.delta_qp(t * mu), printed) == printed


def test_table5_gdp_columns_via_report():
    mu = math.sqrt(H.channel_constants(np.array(W0), np.array(W1), 0.3)["I_pi"] / 800)
    rows = {
        0.5: ("9.04e-3", "6.88e-3"),
        1.0: ("3.85e-3", "2.43e-3"),
        1.5: ("1.37e-3", "6.71e-4"),
        2.0: ("4.02e-4", "1.42e-4"),
    }
    rep = H.report(W0, W1, 800, 240, epsilons=[t * mu for t in rows])
    assert round_like(rep["mu_fixed_composition"], "0.0452") == "0.0452"
    for (t, (fc, mix)), row in zip(rows.items(), rep["epsilons"]):
        assert round_like(row["gdp_fixed_composition"], fc) == fc
        assert round_like(row["gdp_mixture"], mix) == mix
        assert (
            row["gdp_mixture"] < row["delta_q_vs_p"] < row["gdp_fixed_composition"]
        )  # optimistic vs tracking


@pytest.mark.parametrize(
    "n,printed", [(1000, "0.105"), (2000, "0.071"), (5000, "0.043"), (10000, "0.029")]
)
def test_table6_exact_column(n, printed):
    q = 1 / (1 + math.e)
    pair = H.binary_pair(q, 1 - q, n, 0)
    eps = pair.epsilon(1e-5)
    assert round_like(eps, printed) == printed
    # the root is exact: delta(eps) = 1e-5 and slightly smaller eps exceeds it
    assert pair.delta(eps) == pytest.approx(1e-5, rel=1e-9)
    assert pair.delta(eps * (1 - 1e-6)) > 1e-5


# ------------------------------------------------------------------ properties
@st.composite
def channels(draw, zeros_in_w1=False):
    d = draw(st.integers(2, 4))
    w0 = [draw(st.floats(0.05, 1.0)) for _ in range(d)]
    w1 = [draw(st.floats(0.0 if zeros_in_w1 else 0.05, 1.0)) for _ in range(d)]
    if sum(w1) == 0:
        w1[0] = 1.0
    return [x / sum(w0) for x in w0], [x / sum(w1) for x in w1]


@settings(max_examples=30)
@given(ch=channels(zeros_in_w1=True), n=st.integers(1, 12), data=st.data(), eps=st.floats(0.0, 3.0))
def test_curves_lie_in_unit_interval_and_decrease(ch, n, data, eps):
    k = data.draw(st.integers(0, n - 1))
    pair = H.shuffled_pair(ch[0], ch[1], n, k)
    for f in (pair.delta_qp, pair.delta_pq):
        a, b = f(eps), f(eps + 0.1)
        assert 0.0 <= b <= a <= 1.0
    assert pair.p.sum() == pytest.approx(1.0, abs=1e-12) and pair.q.sum() == pytest.approx(
        1.0, abs=1e-12
    )


@settings(max_examples=30)
@given(ch=channels(), n=st.integers(2, 40), delta=st.floats(1e-8, 0.2))
def test_epsilon_for_delta_is_the_smallest_root(ch, n, delta):
    pair = H.shuffled_pair(ch[0], ch[1], n, n // 3)
    eps = pair.epsilon(delta)
    # the root is rounded up; evaluating the curve there is itself a float sum with an
    # absolute error of a few ulp of the total mass (<= 1e-14)
    assert pair.delta(eps) <= delta + 1e-14
    if eps > 1e-9:
        assert pair.delta(eps * (1 - 1e-6) - 1e-12) > delta


def dp_pair(w0, w1, n, k):
    """T_{n,k}, T_{n,k+1} by the dynamic program of Shvets 2026, Sec. 8.3 (dense cube)."""
    w0, w1 = np.asarray(w0, float), np.asarray(w1, float)
    s = H.others_law(w0, w1, n, k)
    mask = H._valid_mask(n, w0.size)
    return H.add_user(s, w0)[mask], H.add_user(s, w1)[mask]


@settings(max_examples=40, deadline=None)
@given(ch=channels(zeros_in_w1=True), n=st.integers(1, 25), data=st.data())
def test_label_count_laws_match_the_dynamic_program(ch, n, data):
    k = data.draw(st.integers(0, n - 1))
    p, q = dp_pair(ch[0], ch[1], n, k)
    w0, w1 = H.check_channel(*ch)
    lp, lq = H.label_count_laws(w0, w1, n, k)
    # both are sums of non-negative terms (relative round-off ~ (n + d) 1e-16); atoms
    # below 1e-290 may be flushed by either
    assert lp == pytest.approx(p, rel=1e-11, abs=1e-290)
    assert lq == pytest.approx(q, rel=1e-11, abs=1e-290)


@settings(max_examples=30, deadline=None)
@given(ch=channels(zeros_in_w1=True), n=st.integers(2, 40), delta=st.floats(1e-9, 0.3))
def test_streamed_root_equals_the_sorted_root(ch, n, delta):
    pair = H.shuffled_pair(ch[0], ch[1], n, n // 2)
    for a, b in ((pair.q, pair.p), (pair.p, pair.q)):
        got = H.directed_epsilon(a, b, delta)
        sing = float(np.sum(a[b == 0]))
        if math.isinf(got) or got == 0.0:
            continue
        # both solve the same linear segment and round up by the same 64-ulp budget;
        # their sums differ in order only (a few ulp of the mass over the slope)
        assert got == pytest.approx(H._sorted_root(a, b, sing, delta), rel=1e-9, abs=1e-12)


def test_four_symbols_at_n_300_fit_the_memory_budget():
    """4 symbols, n = 300: 4.6 M histograms held as two flat float arrays, no dense cube."""
    import tracemalloc

    tracemalloc.start()
    pair = H.shuffled_pair([0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], 300, 90)
    jsd, eps = pair.jsd(), pair.epsilon(1e-5)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert pair.p.size == math.comb(303, 3)
    assert peak < 200 * 2**20
    assert 0 < jsd < 1 and 0 < eps < 1
    assert pair.p.sum() == pytest.approx(1.0, abs=1e-12)  # float sums of 4.6 M positive terms


# ------------------------------------------------------------------ multi-message
def test_multi_message_matches_enumeration():
    w0, w1, n, m = W0, W1, 2, 2
    pair = H.multi_message_pair(w0, w1, n, m)
    got = as_dict(pair)
    Q = {}
    for seq in itertools.product(range(3), repeat=n * m):
        h = tuple(seq.count(y) for y in range(3))
        Q[h] = Q.get(h, 0.0) + math.prod(w1[y] for y in seq[:m]) * math.prod(w0[y] for y in seq[m:])
    for h, q in Q.items():
        assert got[h][1] == pytest.approx(q, rel=1e-12)


def test_multi_message_m1_is_the_canonical_pair():
    a, b = H.multi_message_pair(W0, W1, 30, 1), H.canonical_pair(W0, W1, 30)
    assert np.max(np.abs(a.q - b.q) / b.q) < 1e-12  # same closed form up to round-off


# ------------------------------------------------------------------ report / CLI / bad input
def test_report_and_cli():
    rep = H.report(W0, W1, 60, 18, jsd=True, epsilons=[0.1], deltas=[1e-3])
    assert rep["i_pi"] > rep["i_mix"] > 0
    assert rep["epsilons"][0]["delta_q_vs_p"] <= 1 and rep["deltas"][0]["epsilon_two_sided"] > 0
    # one key style: lower-case snake_case, and every key is documented in the command's help
    documented = {
        name
        for key, _ in H.REPORT_FIELDS
        for name in key.split("[].")[-1].replace(" ", "").split(",")
    }
    keys = set(rep) | {k for row in rep["epsilons"] + rep["deltas"] for k in row}
    assert all(k == k.lower() and k.replace("_", "").isalnum() for k in keys)
    assert keys - {"epsilons", "deltas", "epsilon", "delta"} <= documented
    from shufflekit.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(
            [
                "histogram",
                "--w0",
                "0.7,0.2,0.1",
                "--w1",
                "0.15,0.55,0.3",
                "--n",
                "60",
                "--k",
                "18",
                "--jsd",
                "--epsilon",
                "0.1",
                "--delta",
                "1e-3",
                "--format",
                "json",
            ]
        )
    assert code == 0
    out = json.loads(buf.getvalue())
    assert out["jsd"] == pytest.approx(rep["jsd"], rel=1e-12)
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert (
            main(
                [
                    "histogram",
                    "--w0",
                    "0.7,0.2,0.1",
                    "--w1",
                    "0.15,0.55,0.3",
                    "--n",
                    "60",
                    "--k",
                    "18",
                    "--epsilon",
                    "0.1",
                    "--format",
                    "table",
                ]
            )
            == 0
        )
    assert "delta_q_vs_p" in buf.getvalue() and "delta_p_vs_q" in buf.getvalue()


@pytest.mark.parametrize(
    "kwargs,fragment",
    [
        (dict(w0=[0.7, 0.3], w1=[0.1, 0.9], n=0), "n=0"),
        (dict(w0=[0.7, 0.2], w1=[0.1, 0.9], n=5), "w0="),
        (dict(w0=[0.7, 0.3], w1=[0.1, 0.8, 0.1], n=5), "w1 has 3"),
        (dict(w0=[1.0, 0.0], w1=[0.1, 0.9], n=5), "full support"),
        (dict(w0=[0.7, 0.3], w1=[-0.1, 1.1], n=5), "w1="),
        (dict(w0=[0.7, 0.3], w1=[0.1, 0.9], n=5, k=5), "k=5"),
        (dict(w0=[0.7, 0.3], w1=[0.1, 0.9], n=5, k=-1), "k=-1"),
        (dict(w0=[0.7, float("nan")], w1=[0.1, 0.9], n=5), "w0="),
    ],
)
def test_bad_input(kwargs, fragment):
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        H.shuffled_pair(**kwargs)


def test_bad_input_other_entry_points():
    pair = H.shuffled_pair(W0, W1, 5, 1)
    with pytest.raises(ValueError, match="epsilon"):
        pair.delta_qp(-0.1)
    with pytest.raises(ValueError, match="delta"):
        pair.epsilon(0.0)
    with pytest.raises(ValueError, match="float64 range"):
        pair.epsilon(1e-300)
    with pytest.raises(ValueError, match="p0"):
        H.binary_pair(0.0, 0.5, 10)
    with pytest.raises(ValueError, match="m=0"):
        H.multi_message_pair(W0, W1, 3, 0)
    with pytest.raises(ValueError, match="cells"):
        H.shuffled_pair([0.1] * 10, [0.1] * 10, 500, 1)


def test_label_count_laws_keep_a_tiny_output_probability():
    """W1 = (1, 1.6e-58): counting the 0-labels must not form 1 - pi (which rounds the
    1.6e-58 away and dropped the atom 8e-59 of T_{2,1}); compared with the dynamic program."""
    p, q = dp_pair([0.5, 0.5], [1.0, 1.6e-58], 2, 1)
    w0, w1 = H.check_channel([0.5, 0.5], [1.0, 1.6e-58])
    lp, lq = H.label_count_laws(w0, w1, 2, 1)
    assert lp == pytest.approx(p, rel=1e-12, abs=0)
    assert lq == pytest.approx(q, rel=1e-12, abs=1e-290)  # 2.56e-116 is kept too
