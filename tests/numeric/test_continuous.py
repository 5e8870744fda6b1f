"""Certified blanket bound for the shuffled blanket-mixed Gaussian (Takagi-Liew 2026, App. C)."""

import functools
import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import ndtr

from shufflekit.errors import InvalidParameter, UnsupportedMethod
from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant, methods
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.kernels import lognormal_lattice as LL
from shufflekit.numeric.methods import bmg_blanket as B
from shufflekit.numeric.methods import shuffle_template as T


# ----------------------------------------------------------------------------- references
def excess_float(a, b, s, m, t):
    """E[(a + b e^{sZ+m} - t)_+] for either sign of b, in float64 from the normal cdf
    (written out here independently of the package's Arb formulas)."""
    scale = abs(b) * math.exp(m + s * s / 2)
    if b > 0:
        if t <= a:
            return a + scale - t
        z = (math.log((t - a) / b) - m) / s
        return max(scale * ndtr(s - z) - (t - a) * ndtr(-z), 0.0)
    if t >= a:
        return 0.0
    z = (math.log((t - a) / b) - m) / s
    return max((a - t) * ndtr(z) - scale * ndtr(z - s), 0.0)


def positive_part_of_sum(params, k):
    """E[(L_1 + ... + L_k)_+], k <= 3, by nested adaptive quadrature (scipy QUADPACK, relative
    1e-12) over the normal variables of all but the last summand, whose excess is closed form."""
    from scipy.integrate import quad

    a, b, s, m = params
    ell = lambda z: a + b * math.exp(s * z + m)  # noqa: E731
    pdf = lambda z: math.exp(-z * z / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    cuts = [-12.0, -4.0, -1.0, 1.0, 4.0, 12.0]  # normal mass beyond |z| = 12 is < 1e-32

    def integral(f):
        return sum(
            quad(f, lo, hi, epsabs=1e-16, epsrel=1e-12, limit=400)[0]
            for lo, hi in zip(cuts, cuts[1:])
        )

    if k == 1:
        return excess_float(a, b, s, m, 0.0)
    if k == 2:
        return integral(lambda z: pdf(z) * excess_float(a, b, s, m, -ell(z)))
    return integral(
        lambda z1: (
            pdf(z1) * integral(lambda z2: pdf(z2) * excess_float(a, b, s, m, -ell(z1) - ell(z2)))
        )
    )


@functools.cache
def reference_delta(params, gamma, n):
    """(1/(n gamma)) sum_k Bin(k; n, gamma) E[(L_1 + ... + L_k)_+] (Takagi-Liew 2026, App. C)."""
    tot = sum(
        math.comb(n, k) * gamma**k * (1 - gamma) ** (n - k) * positive_part_of_sum(params, k)
        for k in range(1, n + 1)
    )
    return tot / (n * gamma)


def pair_params(gamma, sigma0, eps):
    """Both orders' (a, b, s, m) written from the densities of Takagi-Liew 2026, App. C (r = 1)."""
    s = 1.0 / sigma0
    m = -s * s / 2
    e = math.exp(eps)
    return {
        "(x, bot)": (gamma - e, 1 - gamma, s, m),
        "(bot, x)": (1 - e * gamma, -e * (1 - gamma), s, m),
    }


@pytest.mark.parametrize("order", ["(x, bot)", "(bot, x)"])
def test_lattice_law_is_a_mean_preserving_spread(order):
    params = pair_params(0.9, 3.0, 0.05)[order]
    law = LL.AffineLognormal(*params)
    h = math.sqrt(law.variance()) / 20
    t_lo, t_hi = LL.truncation_points(law, 1e-15, h)
    lat = LL.discretise(law, h, t_lo, t_hi)
    x = h * (lat.k0 + np.arange(len(lat.p)))
    # total mass one and the mean of the truncated law: both exact up to l1_error (and the
    # truncation terms, which are below the budget 1e-15)
    assert abs(lat.p.sum() - 1) <= lat.l1_error + 1e-15
    assert abs(float(np.dot(x, lat.p)) - law.mean()) <= lat.l1_error * max(abs(x).max(), 1) + 2e-15
    assert lat.excess <= 1e-15
    # excess from the package's Arb formula against the float closed form of this file
    # (relative 1e-9: ndtr is accurate to a few ulps, the cancellation costs a few digits)
    t = t_hi - 5 * h
    assert float(law.excess_arb(t).mid()) == pytest.approx(
        excess_float(*params, t), rel=1e-9, abs=1e-300
    )


# ----------------------------------------------------------------------------- certification
@settings(max_examples=10, deadline=None)
@given(
    gamma=st.floats(0.05, 0.99),
    sigma0=st.floats(1.5, 6.0),
    eps=st.floats(0.0, 1.5),
    n=st.integers(1, 2),
    order=st.sampled_from(["(x, bot)", "(bot, x)"]),
)
def test_certified_bound_never_below_quadrature(gamma, sigma0, eps, n, order):
    _check_against_reference(gamma, sigma0, eps, n, order)


@pytest.mark.parametrize("order", ["(x, bot)", "(bot, x)"])
@pytest.mark.parametrize("gamma,sigma0,eps", [(0.7, 2.5, 0.3), (0.95, 4.6, 0.01)])
def test_certified_bound_never_below_quadrature_n3(gamma, sigma0, eps, order):
    _check_against_reference(gamma, sigma0, eps, 3, order)


def _check_against_reference(gamma, sigma0, eps, n, order):
    params = pair_params(gamma, sigma0, eps)[order]
    ref = reference_delta(params, gamma, n)
    res = B.blanket_delta(LL.AffineLognormal(*params), gamma, n, resolution=40, level_resolution=60)
    # the quadrature is accurate to ~1e-12 relative (QUADPACK, epsrel 1e-12) plus 1e-16 absolute:
    # the certified bound must not be below it by more than that
    assert res.delta >= ref * (1 - 1e-10) - 1e-15
    # and tight: the convex spreads on lattices of sd/40 and sd/60 inflate the variance by
    # < 1e-3 relative, which moves delta by well under 1%; plus the absolute budget terms
    assert res.delta <= ref * 1.01 + 1e-12


def test_single_report_divergence_matches_quadrature_of_densities():
    # E[(R_x - e^eps R_bot)_+ / R_bot] and the reverse, integrated from the two densities, split
    # at the kink y* where R_x / R_bot = c, i.e. y* = sigma0^2 log((c - gamma)/(1 - gamma)) + 1/2
    g, s0, eps = 0.5, 1.3, 0.4  # e^-eps > gamma: the reverse order has a positive part
    kink = lambda c: s0**2 * mp.log((c - g) / (1 - g)) + mp.mpf(1) / 2  # noqa: E731
    with mp.workdps(30):
        e = mp.e**eps
        fwd = mp.quad(
            lambda y: max(
                g * mp.npdf(y, 0, s0) + (1 - g) * mp.npdf(y, 1, s0) - e * mp.npdf(y, 0, s0), 0
            ),
            [-mp.inf, kink(e), mp.inf],
        )
        rev = mp.quad(
            lambda y: max(
                mp.npdf(y, 0, s0) - e * (g * mp.npdf(y, 0, s0) + (1 - g) * mp.npdf(y, 1, s0)), 0
            ),
            [-mp.inf, kink(1 / e), mp.inf],
        )
    pp = pair_params(g, s0, eps)
    # smooth pieces at 30 digits: the quadrature is good to far better than 1e-12
    assert B.local_delta(pp["(x, bot)"]) == pytest.approx(float(fwd), rel=1e-12)
    assert B.local_delta(pp["(bot, x)"]) == pytest.approx(float(rev), rel=1e-12)


# ----------------------------------------------------------------------------- both orders
def test_both_orders_are_evaluated_and_the_larger_is_reported():
    mech = make("bmg", gamma=0.9, sigma0=3.0)
    res = B.bmg_delta(mech, 1000, 0.002)
    both = [res.parts["delta (x, bot)"], res.parts["delta (bot, x)"]]
    assert res.delta == max(both)
    # at eps = 0 the two orders are mirror images: E[S_+] = E[(-S)_+] when E[S] = 0, so the two
    # bounds agree up to the discretisation (lattices differ: 1% is far above that inflation)
    zero = B.bmg_delta(mech, 1000, 0.0)
    assert zero.parts["delta (x, bot)"] == pytest.approx(zero.parts["delta (bot, x)"], rel=1e-2)


def test_orders_agree_at_zero_and_forward_is_larger_where_resolved():
    # no proof that one order dominates, so both are always computed; where the lattice
    # resolves the law (sigma0 >= 3) the forward order is the larger one by a margin far above
    # the difference between two lattices (< 0.1% here)
    mech = make("bmg", gamma=0.9, sigma0=3.0)
    for kw in ({}, {"resolution": 96, "level_resolution": 144}):
        r = B.bmg_delta(mech, 1000, 0.003162, **kw)
        assert r.parts["pair"] == "(x, bot)"
        assert r.parts["delta (bot, x)"] < 0.8 * r.parts["delta (x, bot)"]


# ----------------------------------------------------------------------------- monotonicity
def _delta(sigma0, eps, n=300, gamma=0.9):
    r = B.bmg_delta(make("bmg", gamma=gamma, sigma0=sigma0), n, eps)
    return r.delta, r.error


# The exact blanket bound is non-increasing in sigma0 (convex order) and in eps.  The computed
# bound is that number inflated by its discretisation (< 1% of delta here) plus its certificate
# terms (round-off, clamps, truncation: ``error``), which are safe-side slack, not ordered; so
# the comparison allows 1% plus the larger budget of the two evaluations.
@settings(max_examples=12, deadline=None)
@given(
    ls=st.floats(math.log(0.01), math.log(1e6)),
    ratio=st.floats(1.5, 100.0),
    eps=st.floats(0.0, 2.0),
)
def test_more_noise_never_increases_delta(ls, ratio, eps):
    s1 = math.exp(ls)
    (d1, e1), (d2, e2) = _delta(s1, eps), _delta(s1 * ratio, eps)
    assert d2 <= d1 * 1.01 + max(e1, e2) + 1e-15


@settings(max_examples=12, deadline=None)
@given(
    ls=st.floats(math.log(0.3), math.log(100.0)), e1=st.floats(0.0, 1.0), step=st.floats(0.01, 1.0)
)
def test_larger_epsilon_never_increases_delta(ls, e1, step):
    s0 = math.exp(ls)
    (d1, r1), (d2, r2) = _delta(s0, e1), _delta(s0, e1 + step)
    assert d2 <= d1 * 1.01 + max(r1, r2) + 1e-15


@pytest.mark.slow
def test_epsilon_monotone_in_sigma0_from_0_01_to_1e6():
    grid = [0.01, 0.1, 0.5, 1.0, 2.0, 4.6, 20.0, 100.0, 1e4, 1e6]
    eps = []
    for s0 in grid:
        acc = accountant(make("bmg", gamma=0.95, sigma0=s0), 10**4, method="bmg-blanket")
        b = acc.get_epsilon(1e-6, rel_tol=1e-4)
        assert math.isfinite(b.hi) and b.hi >= 0
        eps.append(b.hi)
    # more noise, smaller epsilon; rel_tol 1e-4 of the bisection is the slack
    assert all(e2 <= e1 * (1 + 1e-4) for e1, e2 in zip(eps, eps[1:])), eps
    assert eps[0] > 1.0  # sigma0 = 0.01: each report all but reveals x
    assert eps[-1] == 0.0  # sigma0 = 1e6: delta(0) is already below 1e-6


# ----------------------------------------------------------------------------- accountants
def test_registry_methods_and_labels():
    bmg = make("bmg", gamma=0.95, sigma0=4.6)
    names = {m.name for m in methods(bmg)}
    assert {"bmg-blanket", "bmg-asymptotic"} <= names
    acc = accountant(bmg, 10**4)
    assert acc.method == "bmg-blanket" and acc.kind is Kind.UPPER and acc.adjacency == "zero-out"
    b = acc.get_delta(1.5e-4)
    assert b.kind is Kind.UPPER and "(bot, x)" in b.pairs and "(x, bot)" in b.pairs
    assert "Higham" in b.certificate and b.lo <= b.hi
    asy = accountant(bmg, 10**4, method="bmg-asymptotic").get_delta(1.5e-4)
    assert asy.kind is Kind.ASYMPTOTIC and not asy.certified
    gl = make("gaussian-local", sigma0=5)
    assert accountant(gl, 1000).method == "gaussian-local-asymptotic"
    with pytest.raises(UnsupportedMethod):
        accountant(gl, 1000, method="bmg-blanket")
    with pytest.raises(InvalidParameter):
        accountant(bmg, 1000, adjacency="replace-one")


def test_epsilon_round_trip_and_large_n():
    mech = make("bmg", gamma=0.95, sigma0=4.6)
    acc = accountant(mech, 10**6)
    b = acc.get_epsilon(1e-7)
    assert acc.get_delta(b.hi).hi <= 1e-7 < acc.get_delta(b.lo).hi
    # the asymptotic template is within 10% of the certified answer at n = 1e6 (Thm 3.2: the
    # ratio of deltas tends to 1; log delta ~ eps^2, so eps differ by far less)
    asy = accountant(mech, 10**6, method="bmg-asymptotic").get_epsilon(1e-7)
    assert abs(asy.value / b.hi - 1) < 0.1


def test_profile_from_the_shared_interface():
    acc = accountant(make("bmg", gamma=0.9, sigma0=3.0), 1000)
    prof = acc.profile(epsilons=[0.01], deltas=[1e-6])
    assert prof.method == "bmg-blanket" and prof.kind is Kind.UPPER and len(prof.bounds) == 2
    d, e = prof.bounds
    assert d.quantity == "delta" and 0 < d.hi < 1
    # the epsilon bound's hi is an evaluated point whose certified delta is below the target
    assert e.quantity == "epsilon" and acc.get_delta(e.hi).hi <= 1e-6


def test_finer_lattice_agrees():
    mech = make("bmg", gamma=0.95, sigma0=4.6)
    a = B.bmg_delta(mech, 10**4, 1.5e-4)
    f = B.bmg_delta(mech, 10**4, 1.5e-4, resolution=96, level_resolution=144)
    # both certified; the default lattice inflates delta by < 1% (second order in h)
    assert abs(a.delta / f.delta - 1) < 1e-2
    assert a.error < 1e-4 * a.delta


def test_gamma_one_is_perfectly_private():
    mech = make("bmg", gamma=1, sigma0=2)
    assert B.bmg_delta(mech, 100, 0.0).delta == 0.0


# ----------------------------------------------------------------------------- asymptotic
def test_gaussian_local_profile_is_labelled_asymptotic():
    mech = make("gaussian-local", sigma0=5)
    prof = T.gaussian_local_asymptotic_profile(mech, 1000, epsilons=[0.01], deltas=[1e-6])
    assert prof.kind == "asymptotic" and all(b.kind == "asymptotic" for b in prof.bounds)
    assert all("conjectur" in b.certificate.lower() for b in prof.bounds)
    assert "not a certified" in prof.mechanism["warning"]
    # chi_chua against the variance printed in Takagi-Liew 2026 (App. A.7): e^{4a} - 2e^{2a} + e^{a}, a = 1/sigma^2
    a = 1 / 25
    v = math.exp(4 * a) - 2 * math.exp(2 * a) + math.exp(a)
    # quadrature at 40 digits; 1e-12 is far above its error and far below any formula slip
    assert prof.mechanism["chi_chua"] == pytest.approx(1 / math.sqrt(v), rel=1e-12)
    eps = prof.bounds[1]
    assert eps.quantity == "epsilon" and eps.delta == 1e-6
    # the template is decreasing in epsilon: the bisection bracket [lo, hi] straddles delta
    chi = prof.mechanism["chi_chua"]
    assert T.template(1000, eps.lo, chi) >= 1e-6 >= T.template(1000, eps.hi, chi)


def test_gaussian_local_has_no_certified_blanket_bound():
    with pytest.raises(ValueError, match="gamma"):
        B.bmg_delta(make("gaussian-local", sigma0=2), 100, 0.1)


def test_template_matches_definition():
    n, e, chi = 1000, 0.01, 30.0
    f = 1 / (math.sqrt(2 * math.pi) * chi**3 * e**2 * n**1.5) * math.exp(-(chi**2) * e**2 * n / 2)
    assert float(T.template(n, e, chi)) == pytest.approx(f, rel=1e-13)  # float64 reference
    assert T.template_epsilon(n, f, chi) == pytest.approx(e, rel=1e-10)


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("gamma", [0.0, -0.1, 1.5, float("nan")])
def test_bad_gamma(gamma):
    law = LL.AffineLognormal(*pair_params(0.5, 1.0, 0.1)["(x, bot)"])
    with pytest.raises(ValueError, match="gamma"):
        B.blanket_delta(law, gamma, 10)
    with pytest.raises(ValueError, match="gamma"):
        make("bmg", gamma=gamma, sigma0=1.0)


@pytest.mark.parametrize("n", [0, -3, 2.5])
def test_bad_n(n):
    with pytest.raises(ValueError, match="n="):
        B.bmg_delta(make("bmg", gamma=0.5, sigma0=1), n, 0.1)


@pytest.mark.parametrize("delta", [0.0, 1.0, -1e-3, 2.0])
def test_bad_delta(delta):
    with pytest.raises(ValueError, match="delta"):
        B.bmg_epsilon(make("bmg", gamma=0.5, sigma0=1), 10, delta)


@pytest.mark.parametrize("sigma0", [0.0, -1.0])
def test_bad_sigma0(sigma0):
    with pytest.raises(ValueError, match="sigma0"):
        make("bmg", gamma=0.5, sigma0=sigma0)
    with pytest.raises(ValueError, match="sigma0"):
        T.chi_chua(sigma0)


def test_bad_epsilon():
    with pytest.raises(ValueError, match="epsilon"):
        B.bmg_delta(make("bmg", gamma=0.5, sigma0=1), 10, -0.1)


# ----------------------------------------------------------------------------- CLI
def _cli_json(argv, capsys):
    import json

    from shufflekit.cli import main

    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_profiles_follow_the_schema(capsys):
    keys = {"mechanism", "n", "method", "kind", "adjacency", "points"}
    pkeys = {"epsilon", "delta", "bound", "error", "lo", "hi", "pairs", "certificate", "seconds"}
    out = _cli_json(
        [
            "profile",
            "bmg",
            "--gamma",
            "0.9",
            "--sigma0",
            "3",
            "--d",
            "1",
            "--n",
            "100",
            "--epsilon",
            "0.01",
            "--format",
            "json",
        ],
        capsys,
    )
    assert (
        set(out) == keys and pkeys <= set(out["points"][0]) and out["points"][0]["bound"] == "upper"
    )
    out = _cli_json(
        [
            "profile",
            "gaussian-local",
            "--sigma0",
            "5",
            "--n",
            "1000",
            "--delta",
            "1e-6",
            "--format",
            "json",
        ],
        capsys,
    )
    assert (
        out["points"][0]["bound"] == "asymptotic" and "conjectur" in out["points"][0]["certificate"]
    )
    out = _cli_json(
        [
            "profile",
            "central-gaussian",
            "--sigma",
            "100",
            "--n",
            "1000",
            "--epsilon",
            "0.001",
            "--format",
            "json",
        ],
        capsys,
    )
    assert out["points"][0]["bound"] == "exact" and out["points"][0]["delta"] > 0


def test_cli_bad_input_exits_2(capsys):
    from shufflekit.cli import main

    assert (
        main(["profile", "bmg", "--gamma", "0", "--sigma0", "1", "--n", "10", "--epsilon", "0.1"])
        == 2
    )
    assert "gamma" in capsys.readouterr().err
    assert (
        main(["profile", "central-gaussian", "--sigma", "0", "--n", "10", "--epsilon", "0.1"]) == 2
    )
    assert "sigma" in capsys.readouterr().err
    assert (
        main(["profile", "bmg", "--gamma", "0.5", "--sigma0", "1", "--n", "0", "--epsilon", "0.1"])
        == 2
    )
    assert "n=0" in capsys.readouterr().err
    assert main(["design", "bmg", "--n", "100", "--epsilon", "0.1", "--delta", "1.5"]) == 2
    assert "delta" in capsys.readouterr().err
