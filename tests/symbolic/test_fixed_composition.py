"""Fixed-composition constants and series of Shvets 2026, derived by sympy."""

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.numeric.methods.histogram import channel_constants
from shufflekit.symbolic import fixed_composition as F
from shufflekit.symbolic.derivation import Derivation
from shufflekit.verify.checks import round_like

W0 = ["7/10", "1/5", "1/10"]
W1 = ["3/20", "11/20", "3/10"]


def at(expr, p):
    return float(expr.subs(F.pi, sp.nsimplify(p)))


# ------------------------------------------------------------------ Table 3
@pytest.mark.parametrize(
    "p,i_pi,i_mix,under",
    [
        (0.2, "1.566", "1.252", "20.0%"),
        (0.3, "1.635", "1.217", "25.6%"),
        (0.5, "1.794", "1.238", "31.0%"),
        (0.7, "1.988", "1.402", "29.4%"),
    ],
)
def test_table3(p, i_pi, i_mix, under):
    I = F.fisher_constant(W0, W1).result
    M = F.mixture_fisher_constant(W0, W1).result
    assert round_like(at(I, p), i_pi) == i_pi
    assert round_like(at(M, p), i_mix) == i_mix
    assert round_like(1 - at(M, p) / at(I, p), under) == under
    assert round_like(float(F.endpoint_chi2(W0, W1).result), "1.445") == "1.445"


def test_I_pi_is_an_exact_rational_function():
    der = F.fisher_constant(W0, W1)
    assert isinstance(der, Derivation) and der.latex().startswith(r"\paragraph")
    num, den = sp.fraction(sp.cancel(der.result))
    assert sp.Poly(num, F.pi).degree() == 1 and sp.Poly(den, F.pi).degree() == 2
    assert all(
        c.is_Rational for c in sp.Poly(num, F.pi).all_coeffs() + sp.Poly(den, F.pi).all_coeffs()
    )


def tangent_basis_I(w0, w1, p):
    """Independent evaluation: restrict Sigma_pi to an orthonormal basis of the sum-zero space."""
    w0, w1 = np.asarray(w0, float), np.asarray(w1, float)
    d = w0.size
    basis = np.linalg.qr(np.eye(d) - 1.0 / d)[0][:, : d - 1]
    sig = (1 - p) * (np.diag(w0) - np.outer(w0, w0)) + p * (np.diag(w1) - np.outer(w1, w1))
    v = basis.T @ (w1 - w0)
    return float(v @ np.linalg.solve(basis.T @ sig @ basis, v))


def test_bordered_solve_matches_tangent_basis():
    I = F.fisher_constant(W0, W1).result
    for p in (0.0, 0.25, 0.6, 1.0):
        # two float evaluations of the same exact value: agreement to ~1e-12
        assert at(I, p) == pytest.approx(
            tangent_basis_I([0.7, 0.2, 0.1], [0.15, 0.55, 0.3], p), rel=1e-12
        )
        assert channel_constants(np.array([0.7, 0.2, 0.1]), np.array([0.15, 0.55, 0.3]), p)[
            "I_pi"
        ] == pytest.approx(at(I, p), rel=1e-12)


def test_covariance_identity_and_relation():
    assert F.mixture_covariance_identity(3).result == sp.zeros(3, 3)
    assert F.mixture_covariance_identity(4).result == sp.zeros(4, 4)
    assert F.sherman_morrison_relation().result == 0
    mix = F.mixture_fisher_constant(W0, W1)
    assert sp.simplify(mix.extras["relation"] - F.pi * (1 - F.pi)) == 0
    assert sp.cancel(mix.result - mix.extras["sum_form"]) == 0
    cov = F.covariances(W0, W1)
    assert (cov.extras["gap"] - F.pi * (1 - F.pi) * cov.extras["v"] * cov.extras["v"].T).applyfunc(
        sp.expand
    ) == sp.zeros(3, 3)


def test_endpoints_are_chi_square():
    der = F.endpoint_chi2(W0, W1)
    assert der.result == der.extras["chi2_10"] == sp.Rational(809, 560)
    assert der.extras["I1"] == der.extras["chi2_01"]


@st.composite
def channels(draw):
    d = draw(st.integers(2, 5))
    a = [draw(st.floats(0.02, 1.0)) for _ in range(d)]
    b = [draw(st.floats(0.02, 1.0)) for _ in range(d)]
    return np.array(a) / sum(a), np.array(b) / sum(b)


@settings(max_examples=40)
@given(ch=channels(), p=st.floats(0.01, 0.99))
def test_I_pi_exceeds_mixture_and_matches_relation(ch, p):
    c = channel_constants(ch[0], ch[1], p)
    assert c["I_pi"] >= c["I_mix"]
    if c["I_pi"] > 1e-8:
        # exact relation 1/I_mix = 1/I_pi + pi(1-pi); float bordered solves: rel. 1e-9
        assert 1 / c["I_mix"] == pytest.approx(1 / c["I_pi"] + p * (1 - p), rel=1e-9)


@settings(max_examples=30)
@given(ch=channels())
def test_I_pi_is_convex(ch):
    ps = np.linspace(0, 1, 21)
    vals = np.array([channel_constants(ch[0], ch[1], p)["I_pi"] for p in ps])
    second = vals[:-2] - 2 * vals[1:-1] + vals[2:]
    assert np.all(second >= -1e-10 * max(1.0, vals.max()))  # float round-off of the solves


@settings(max_examples=4)
@given(st.lists(st.integers(1, 20), min_size=6, max_size=6))
def test_symbolic_convexity_for_random_rational_channels(xs):
    a, b = xs[:3], xs[3:]
    w0 = [sp.Rational(x, sum(a)) for x in a]
    w1 = [sp.Rational(x, sum(b)) for x in b]
    second = F.convexity(w0, w1).result
    grid = [sp.Rational(j, 10) for j in range(11)]
    assert all(second.subs(F.pi, g) >= 0 for g in grid)


# ------------------------------------------------------------------ JSD and moments
def test_jsd_function_and_series():
    assert list(F.jsd_function().extras["gap_to_closed_form"]) == [0, 0, 0]
    c = F.jsd_series(7).extras["coefficients"]
    assert [c[j] for j in range(2, 6)] == [
        sp.Rational(1, 8),
        sp.Rational(-1, 16),
        sp.Rational(7, 192),
        sp.Rational(-3, 128),
    ]
    # numeric: D(1+u) at u = 0.01 against the series to O(u^7)
    D = F.jsd_function().extras["D_u"]
    ser = F.jsd_series(7).result.removeO()
    assert float(D.subs(F.u, sp.Rational(1, 100))) == pytest.approx(
        float(ser.subs(F.u, sp.Rational(1, 100))), rel=1e-9
    )


def test_moments_and_canonical_expansion():
    m = F.canonical_moments(6).extras["moments"]
    n, c2, m3, m4, m5 = F.n, F.chi2, F.mu3, F.mu4, F.mu5
    assert sp.simplify(m[4] - (n * m4 + 3 * n * (n - 1) * c2**2) / n**4) == 0
    assert sp.simplify(m[5] - (n * m5 + 10 * n * (n - 1) * m3 * c2) / n**5) == 0
    # brute force: a centred two-point variable, n = 3, exact expectation
    vals, probs = [sp.Rational(2), sp.Rational(-1, 2)], [sp.Rational(1, 5), sp.Rational(4, 5)]
    import itertools

    e4 = sum(
        probs[i] * probs[j] * probs[k] * ((vals[i] + vals[j] + vals[k]) / 3) ** 4
        for i, j, k in itertools.product(range(2), repeat=3)
    )
    subs = {
        n: 3,
        c2: sum(p * v**2 for p, v in zip(probs, vals)),
        m4: sum(p * v**4 for p, v in zip(probs, vals)),
    }
    assert m[4].subs(subs) == e4
    exp = F.canonical_jsd_expansion()
    assert (
        sp.simplify(exp.result - (c2 / (8 * n) - m3 / (16 * n**2) + 7 * c2**2 / (64 * n**2))) == 0
    )


def test_f_divergence_leading_constant():
    res = F.smooth_f_divergence_leading().result.doit()
    I = sp.Symbol("I", positive=True)
    x = sp.Symbol("x", positive=True)
    # KL(Q||P): f = x log x, f''(1) = 1
    kl = res.replace(
        lambda e: isinstance(e, sp.Subs), lambda e: sp.diff(x * sp.log(x), x, 2).subs(x, 1)
    )
    assert sp.simplify(kl - I / (2 * F.n)) == 0


# ------------------------------------------------------------------ local curve
def test_local_curve_series_against_mpmath():
    der = F.local_privacy_curve(3)
    assert der.extras["lead_gap"] == 0
    assert sp.simplify(der.extras["next_ratio"] - F.t / 2) == 0
    mpmath.mp.dps = 40
    t, mu = mpmath.mpf("1.3"), mpmath.mpf("0.001")
    Phi = lambda x: mpmath.ncdf(x)
    exact = Phi(-t + mu / 2) - mpmath.exp(t * mu) * Phi(-t - mu / 2)
    approx = der.result.removeO().subs({F.t: sp.Rational(13, 10), F.mu: sp.Rational(1, 1000)})
    # truncation error O(mu^3) ~ 1e-9 relative to the mu-term ~ 1e-4
    assert float(abs(exact - mpmath.mpf(str(sp.N(approx, 30))))) < 1e-9


# ------------------------------------------------------------------ binary and RR
def test_binary_formula_identification():
    printed = sp.Rational(9, 100) / (sp.Rational(21, 100) + sp.Rational(3, 100) * F.pi)
    sols = F.identify_binary_channel(printed)
    pairs = {(s["p0"], s["p1"]) for s in sols}
    assert pairs == {
        (sp.Rational(3, 10), sp.Rational(3, 5)),
        (sp.Rational(7, 10), sp.Rational(2, 5)),
    }
    assert all(s["residual"] == 0 and not s["composition_independent"] for s in sols)


def test_rr_boundary():
    der = F.randomized_response_boundary()
    b = F.b
    assert sp.simplify(der.result - (b - 1) ** 2 / b) == 0
    assert (
        sp.simplify(der.extras["r"][0] - (b - 1)) == 0
        and sp.simplify(der.extras["r"][1] - (1 / b - 1)) == 0
    )
    assert der.extras["lyapunov_limit"] == 1
    # numeric: eps0 = 1
    assert float(der.result.subs(b, sp.E)) == pytest.approx((math.e - 1) ** 2 / math.e, rel=1e-14)


@pytest.mark.parametrize(
    "w0,w1,fragment",
    [
        (["1/2", "1/2"], ["1/3", "1/3", "1/3"], "w0 has 2"),
        (["1/2", "1/3"], ["1/2", "1/2"], "sums to"),
        (["3/2", "-1/2"], ["1/2", "1/2"], "entries must lie"),
        (["1"], ["1"], "at least 2"),
    ],
)
def test_bad_channel(w0, w1, fragment):
    with pytest.raises(ValueError, match=fragment):
        F.fisher_constant(w0, w1)


def test_derivations_render_latex():
    ders = F.derivations()
    assert len({d.id for d in ders}) == len(ders)
    for d in ders:
        text = d.latex()
        assert (
            r"\begin{align*}" in text
            and r"\end{align*}" in text
            and d.source.startswith("Shvets 2026")
        )
