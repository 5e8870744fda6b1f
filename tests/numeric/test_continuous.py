"""Certified blanket bound for continuous mechanisms (seed 000, App. C)."""
import functools
import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.special import ndtr

from shufflekit.mechanisms import make
from shufflekit.numeric import continuous as c


# ----------------------------------------------------------------------------- references
def _excess_vec(law: c.AffineLognormal, t: np.ndarray) -> np.ndarray:
    """E[(L - t)_+] for an array of t (float64; smooth in t)."""
    out = np.empty_like(t)
    below = t <= law.a
    out[below] = law.mean() - t[below]
    tt = t[~below]
    z = (np.log((tt - law.a) / law.b) - law.m) / law.s
    out[~below] = law.b * math.exp(law.m + law.s ** 2 / 2) * ndtr(-(z - law.s)) - (tt - law.a) * ndtr(-z)
    return np.maximum(out, 0.0)


def _positive_part_of_sum(law: c.AffineLognormal, m: int) -> float:
    """E[(L_1 + ... + L_m)_+] by an independent route.

    m = 1: E[L_+] = E[(L - 0)_+] in closed form with mpmath (40 digits);
    m = 2: one-dimensional mpmath quadrature over Z_1 of the closed-form inner excess;
    m = 3: nested adaptive quadrature (scipy QUADPACK, relative 1e-13) over (Z_1, Z_2) of the
    closed-form inner excess, split at fixed points of Z.
    """
    if m == 0:
        return 0.0
    if m == 1:
        return law.excess(0.0, dps=40)
    if m == 2:
        with mp.workdps(20):
            a, b, s, mm = (mp.mpf(v) for v in (law.a, law.b, law.s, law.m))

            def inner(z):
                ell = a + b * mp.exp(s * z + mm)
                t = -ell
                if t <= a:
                    return a + b * mp.exp(mm + s ** 2 / 2) - t
                zt = (mp.log((t - a) / b) - mm) / s
                return b * mp.exp(mm + s ** 2 / 2) * mp.ncdf(-(zt - s)) - (t - a) * mp.ncdf(-zt)

            # split at the point where the inner argument crosses a (the excess changes form)
            return float(mp.quad(lambda z: mp.npdf(z) * inner(z), [-mp.inf, -3, 0, 3, mp.inf]))
    from scipy.integrate import quad

    def ell(z):
        return law.a + law.b * math.exp(law.s * z + law.m)

    def piece(f, lo, hi):
        return quad(f, lo, hi, epsabs=1e-15, epsrel=1e-13, limit=400)[0]

    cuts = [-12.0, -4.0, -1.0, 1.0, 4.0, 12.0]     # the normal mass beyond |z| = 12 is below 1e-32

    def inner(z1):
        l1 = ell(z1)
        g = lambda z2: math.exp(-z2 * z2 / 2) / math.sqrt(2 * math.pi) * float(
            _excess_vec(law, np.array([-(l1 + ell(z2))]))[0])
        return sum(piece(g, lo, hi) for lo, hi in zip(cuts, cuts[1:]))

    outer = lambda z1: math.exp(-z1 * z1 / 2) / math.sqrt(2 * math.pi) * inner(z1)
    return sum(piece(outer, lo, hi) for lo, hi in zip(cuts, cuts[1:]))


def reference_delta(law: c.AffineLognormal, gamma: float, n: int) -> float:
    """(1/(n gamma)) sum_m Bin(m; n, gamma) E[(L_1 + ... + L_m)_+]."""
    tot = 0.0
    for m in range(1, n + 1):
        tot += math.comb(n, m) * gamma ** m * (1 - gamma) ** (n - m) * _positive_part_of_sum(law, m)
    return tot / (n * gamma)


@functools.lru_cache(maxsize=None)
def _cached_reference(gamma, sigma0, eps, n):
    return reference_delta(bmg_law(gamma, sigma0, eps), gamma, n)


def bmg_law(gamma, sigma0, eps, r=1.0):
    return c._law_float(make("bmg", gamma=gamma, sigma0=sigma0), eps, r)


# ----------------------------------------------------------------------------- certification
@settings(max_examples=12, deadline=None)
@given(gamma=st.floats(0.05, 0.99), sigma0=st.floats(0.8, 6.0), eps=st.floats(0.0, 1.5),
       n=st.integers(1, 2))
def test_certified_bound_never_below_reference(gamma, sigma0, eps, n):
    _check_against_reference(gamma, sigma0, eps, n)


@pytest.mark.parametrize("gamma,sigma0,eps", [(0.7, 1.5, 0.3), (0.95, 4.6, 0.01)])
def test_certified_bound_never_below_reference_n3(gamma, sigma0, eps):
    _check_against_reference(gamma, sigma0, eps, 3)


@pytest.mark.slow
def test_certified_bound_heavy_tail_n3():
    # sigma0 < 1: l_eps has a heavy lognormal tail and the lattice hits its size cap
    _check_against_reference(0.5, 0.8125, 1.0, 3)


def _check_against_reference(gamma, sigma0, eps, n):
    law = bmg_law(gamma, sigma0, eps)
    ref = _cached_reference(gamma, sigma0, eps, n)
    res = c.blanket_delta(law, gamma, n, resolution=40)
    # the reference is accurate to ~1e-12 absolute (quadrature in float64 / mpmath); the bound
    # must not be below it by more than that
    assert res.delta >= ref - 1e-12 * max(1.0, ref)
    # and it is tight: the convex-order spread on a lattice of sd/40 moves delta by far less
    # than 1% (second order in h), plus the absolute round-off budget
    assert res.delta <= ref * 1.01 + 1e-11


def test_both_splits_are_upper_bounds_and_convex_is_tighter():
    law = bmg_law(0.7, 1.5, 0.3)
    ref = _cached_reference(0.7, 1.5, 0.3, 3)
    conv = c.blanket_delta(law, 0.7, 3, resolution=40, split="convex")
    up = c.blanket_delta(law, 0.7, 3, resolution=40, split="up")
    assert ref <= conv.delta <= up.delta


def test_discretisation_bias_is_second_order():
    # h -> h/2 must cut the (upward) bias by about 4 (convex split) but only by about 2 (round up)
    law, g, n = bmg_law(0.7, 1.5, 0.3), 0.7, 3
    ref = _cached_reference(0.7, 1.5, 0.3, 3)
    b = {r: c.blanket_delta(law, g, n, resolution=r).delta - ref for r in (10, 20)}
    assert 3.0 < b[10] / b[20] < 5.0      # factor 4 expected; 3..5 leaves room for h-aliasing of the lattice
    u = {r: c.blanket_delta(law, g, n, resolution=r, split="up").delta - ref for r in (10, 20)}
    assert 1.5 < u[10] / u[20] < 2.5      # first order: factor 2


def test_large_n_agrees_with_finer_lattice_and_error_budget_small():
    mech = make("bmg", gamma=0.95, sigma0=4.6)
    a = c.bmg_delta(mech, 10 ** 4, 1.5e-4, resolution=50)
    b = c.bmg_delta(mech, 10 ** 4, 1.5e-4, resolution=100)
    # both certified; the finer one is lower (smaller spread) and within 1e-4 relative
    assert b.delta <= a.delta
    assert (a.delta - b.delta) / b.delta < 1e-4
    assert b.error < 1e-6 * b.delta


def test_worst_radius_is_the_sphere_and_bound_increases_with_r():
    mech = make("bmg", gamma=0.7, sigma0=1.5)
    r, why = c.worst_radius(mech)
    assert r == 1.0 and "convex order" in why
    vals = [c.blanket_delta(c._law_float(mech, 0.2, rr), 0.7, 50, resolution=40).delta
            for rr in (0.25, 0.5, 0.75, 1.0)]
    assert all(x < y for x, y in zip(vals, vals[1:]))


def test_gamma_one_is_perfectly_private():
    mech = make("bmg", gamma=1, sigma0=2)
    assert c.bmg_delta(mech, 100, 0.0).delta == 0.0


def test_profile_and_epsilon_round_trip():
    mech = make("bmg", gamma=0.9, sigma0=3)
    n = 1000
    e = c.bmg_epsilon(mech, n, 1e-5, resolution=40)
    assert c.bmg_delta(mech, n, e, resolution=40).delta <= 1e-5
    assert c.bmg_delta(mech, n, e * (1 - 1e-4), resolution=40).delta > 1e-5
    prof = c.bmg_profile(mech, n, epsilons=[e], deltas=[1e-5], resolution=40)
    assert prof.bound == "upper" and len(prof.points) == 2
    assert prof.points[1].epsilon == pytest.approx(e, rel=1e-12)


# ----------------------------------------------------------------------------- asymptotic
def test_gaussian_local_profile_is_labelled_asymptotic():
    mech = make("gaussian-local", sigma0=5)
    prof = c.gaussian_local_asymptotic_profile(mech, 1000, epsilons=[0.01], deltas=[1e-6])
    assert prof.bound == "asymptotic"
    assert "conjectur" in prof.method.lower()
    assert "not a certified" in prof.mechanism["warning"]
    # chi_chua against the variance printed in seed 000 (App. A.7): e^{4a} - 2e^{2a} + e^{a}, a = 1/sigma^2
    a = 1 / 25
    v = math.exp(4 * a) - 2 * math.exp(2 * a) + math.exp(a)
    # quadrature at 40 digits; 1e-12 is far above its error and far below any formula slip
    assert prof.mechanism["chi_chua"] == pytest.approx(1 / math.sqrt(v), rel=1e-12)
    assert prof.points[1].delta == pytest.approx(1e-6, rel=1e-9)


def test_gaussian_local_has_no_certified_blanket_bound():
    with pytest.raises(ValueError, match="gamma"):
        c.bmg_delta(make("gaussian-local", sigma0=2), 100, 0.1)


def test_template_matches_definition():
    n, e, chi = 1000, 0.01, 30.0
    f = 1 / (math.sqrt(2 * math.pi) * chi ** 3 * e ** 2 * n ** 1.5) * math.exp(-chi ** 2 * e ** 2 * n / 2)
    assert float(c.template(n, e, chi)) == pytest.approx(f, rel=1e-13)   # float64 reference
    assert c.template_epsilon(n, f, chi) == pytest.approx(e, rel=1e-10)


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("gamma", [0.0, -0.1, 1.5, float("nan")])
def test_bad_gamma(gamma):
    law = bmg_law(0.5, 1.0, 0.1)
    with pytest.raises(ValueError, match="gamma"):
        c.blanket_delta(law, gamma, 10)
    with pytest.raises(ValueError, match="gamma"):
        make("bmg", gamma=gamma, sigma0=1.0)


@pytest.mark.parametrize("n", [0, -3, 2.5])
def test_bad_n(n):
    with pytest.raises(ValueError, match="n="):
        c.bmg_delta(make("bmg", gamma=0.5, sigma0=1), n, 0.1)


@pytest.mark.parametrize("delta", [0.0, 1.0, -1e-3, 2.0])
def test_bad_delta(delta):
    with pytest.raises(ValueError, match="delta"):
        c.bmg_epsilon(make("bmg", gamma=0.5, sigma0=1), 10, delta)


@pytest.mark.parametrize("sigma0", [0.0, -1.0])
def test_bad_sigma0(sigma0):
    with pytest.raises(ValueError, match="sigma0"):
        make("bmg", gamma=0.5, sigma0=sigma0)
    with pytest.raises(ValueError, match="sigma0"):
        c.chi_chua(sigma0)


def test_bad_epsilon():
    with pytest.raises(ValueError, match="epsilon"):
        c.bmg_delta(make("bmg", gamma=0.5, sigma0=1), 10, -0.1)


# ----------------------------------------------------------------------------- CLI
def _cli_json(argv, capsys):
    import json

    from shufflekit.cli import main

    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_profiles_follow_the_schema(capsys):
    keys = {"mechanism", "n", "method", "points"}
    pkeys = {"epsilon", "delta", "bound", "error", "seconds"}
    out = _cli_json(["profile", "bmg", "--gamma", "0.9", "--sigma0", "3", "--d", "1", "--n", "100",
                     "--epsilon", "0.01", "--format", "json"], capsys)
    assert set(out) == keys and set(out["points"][0]) == pkeys and out["points"][0]["bound"] == "upper"
    out = _cli_json(["profile", "gaussian-local", "--sigma0", "5", "--n", "1000", "--delta", "1e-6",
                     "--format", "json"], capsys)
    assert out["points"][0]["bound"] == "asymptotic" and "conjectur" in out["method"]
    out = _cli_json(["profile", "central-gaussian", "--sigma", "100", "--n", "1000", "--epsilon", "0.001",
                     "--format", "json"], capsys)
    assert out["points"][0]["bound"] == "exact" and out["points"][0]["delta"] > 0


def test_cli_bad_input_exits_2(capsys):
    from shufflekit.cli import main

    assert main(["profile", "bmg", "--gamma", "0", "--sigma0", "1", "--n", "10", "--epsilon", "0.1"]) == 2
    assert "gamma" in capsys.readouterr().err
    assert main(["profile", "central-gaussian", "--sigma", "0", "--n", "10", "--epsilon", "0.1"]) == 2
    assert "sigma" in capsys.readouterr().err
    assert main(["profile", "bmg", "--gamma", "0.5", "--sigma0", "1", "--n", "0", "--epsilon", "0.1"]) == 2
    assert "n=0" in capsys.readouterr().err
    assert main(["design", "bmg", "--n", "100", "--epsilon", "0.1", "--delta", "1.5"]) == 2
    assert "delta" in capsys.readouterr().err
