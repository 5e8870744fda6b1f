"""Blanket bound (Su-Cheng-Wang 2026, Thm 4): certified exact and FFT methods."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.mechanisms import make
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.kernels import brute_force as BF
from shufflekit.numeric.kernels.gparv_law import gparv_numeric, ratio_laws
from shufflekit.numeric.methods.blanket import (
    BlanketAccountant,
    blanket_delta_exact,
    blanket_epsilon,
    blanket_profile,
)
from shufflekit.numeric.methods.blanket_fft import blanket_delta_fft
from shufflekit.numeric.methods.lower import lower_delta
from shufflekit.verify.strategies import enumeration_cases


@given(case=enumeration_cases(n=st.integers(1, 6)))
@settings(max_examples=40, deadline=None)
def test_exact_method_matches_enumeration_and_fft_within_budget(case):
    mech, n, eps = case
    for law in ratio_laws(mech):
        g, q, mg = law.gparv(eps)
        g_all, q_all = np.append(g, 0.0), np.append(q, law.zero_mass)
        ref = BF.multinomial_positive_part(g_all, q_all, n)
        v, err = blanket_delta_exact(g, q, n, zero_mass=law.zero_mass, margins=mg)
        # the value is an upper bound; value - err a lower bound (1e-12: float noise of
        # the reference enumeration itself, a sum of at most a few hundred terms)
        assert ref <= v + 1e-12
        assert v - err <= ref + 1e-12
        f, ferr = blanket_delta_fft(g, q, n, l=2e-3, zero_mass=law.zero_mass, margins=mg)
        assert ref <= f + 1e-12
        assert f - ferr <= ref + 1e-12
        assert abs(f - v) <= ferr + err + 1e-12


@given(case=enumeration_cases(outputs=st.integers(2, 3), n=st.integers(2, 4), eps_max=1.0))
@settings(max_examples=25, deadline=None)
def test_lower_le_bruteforce_worst_le_blanket(case):
    mech, n, eps = case
    brute = BF.worst_case_delta(mech, n, eps)  # a rigorous enclosure: no tolerance
    up = BlanketAccountant.of(mech, n).delta(eps)[0]
    lo = lower_delta(mech, eps, n)[0]
    assert lo <= brute.hi
    assert brute.lo <= up


def test_krr_against_direct_double_sum():
    """The windowed/linear-region evaluation equals a plain double sum at moderate n."""
    from scipy import stats

    mech = make("krr", k=6, eps0=2)
    n = 120
    for eps in (0.05, 0.4):
        g, q = gparv_numeric(mech, eps)
        nz = g != 0
        g, q = g[nz], q[nz]
        order = np.argsort(-g)
        A, B, C = g[order]
        pA, pB, pC = q[order]
        total = 0.0
        for u in range(n + 1):
            pu = stats.binom.pmf(u, n, pA)
            for v in range(n - u + 1):
                pv = stats.binom.pmf(v, n - u, pB / (1 - pA))
                m = n - u - v
                w = np.arange(m + 1)
                pw = stats.binom.pmf(w, m, pC / (1 - pA - pB))
                total += pu * pv * float(np.sum(pw * np.maximum(u * A + v * B + w * C, 0.0)))
        ref = total / n
        val, err = BlanketAccountant.of(mech, n).delta(eps)
        assert ref <= val + 1e-13 and val - err <= ref + 1e-13


def test_worst_pair_is_max_over_laws():
    mech = FiniteMechanism.from_matrix([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.25, 0.25, 0.5]])
    acc = BlanketAccountant.of(mech, 50)
    per_pair = [
        BlanketAccountant.of(mech, 50, pair=pr).delta(0.3)[0]
        for pr in [(a, b) for a in range(3) for b in range(3) if a != b]
    ]
    assert acc.delta(0.3)[0] == pytest.approx(max(per_pair), rel=1e-12)


def test_epsilon_for_delta_keeps_direction():
    mech = make("krr", k=10, eps0=4)
    acc = BlanketAccountant.of(mech, 10**5)
    eps = acc.epsilon(1e-6)
    assert acc.delta(eps)[0] <= 1e-6
    assert acc.delta(eps * (1 - 1e-5))[0] > 1e-6  # and it is tight (Brent to 1e-8)


def test_joint_composition_matches_enumerated_product():
    jm = make("joint-krr", k=3, eps0=2, m=2)
    flat = jm.to_finite()
    a = BlanketAccountant.of(jm, 30).delta(0.2)
    b = BlanketAccountant.of(flat, 30).delta(0.2)
    assert a[0] == pytest.approx(b[0], rel=1e-9)


def test_zero_out_adjacency_runs_and_dominates_lower():
    mech = make("krr", k=4, eps0=1)
    up = blanket_profile(mech, 40, [0.1, 0.5], adjacency="zero-out")
    assert all(0 <= b.lo <= b.hi <= 1 for b in up.bounds)
    assert up.adjacency == "zero-out" and all(b.adjacency == "zero-out" for b in up.bounds)


def test_profile_object():
    prof = blanket_profile(make("krr", k=5, eps0=2), 200, [0.1, 0.2, 0.4])
    assert prof.kind == "upper" and prof.method == "blanket"
    assert all(b.quantity == "delta" and b.kind == "upper" for b in prof.bounds)
    assert prof.epsilons == [0.1, 0.2, 0.4]
    assert prof.deltas == sorted(prof.deltas, reverse=True)


# ---------------------------------------------------------------- bad input
def test_bad_inputs():
    mech = make("krr", k=3, eps0=1)
    with pytest.raises(ValueError, match="n=0"):
        BlanketAccountant.of(mech, 0)
    with pytest.raises(ValueError, match="epsilon"):
        BlanketAccountant.of(mech, 10).delta(-0.1)
    with pytest.raises(ValueError, match="delta"):
        blanket_epsilon(mech, 10, 1.5)
    with pytest.raises(ValueError, match="delta"):
        blanket_epsilon(mech, 10, 0.0)
    with pytest.raises(ValueError, match="method"):
        BlanketAccountant.of(mech, 10, method="magic")
    with pytest.raises(ValueError, match="l="):
        blanket_delta_fft([1.0, -1.0], [0.5, 0.5], 3, l=0.0)
    with pytest.raises(ValueError, match="n="):
        blanket_delta_exact([1.0, -1.0], [0.5, 0.5], 0)
    with pytest.raises(ValueError, match="input"):
        BlanketAccountant.of(mech, 10, pair=(0, 7))


def test_non_ldp_mechanism_is_rejected():
    mech = FiniteMechanism.from_matrix([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
    with pytest.raises(ValueError, match="LDP"):
        BlanketAccountant.of(mech, 10)


def test_deep_delta_is_certified_not_refused():
    """delta = 1e-60 (below the former e^-60 budget) has a certified epsilon below eps0; below
    what the bound reaches at all (about 5e-69 at n = 1000) eps0 itself comes back."""
    mech = make("krr", k=10, eps0=4)
    acc = BlanketAccountant.of(mech, 1000)
    eps = blanket_epsilon(mech, 1000, 1e-60)
    assert 0 < eps < 4
    assert acc.delta(eps)[0] <= 1e-60
    assert acc.delta(eps * (1 - 1e-6))[0] > 1e-60
    assert blanket_epsilon(mech, 1000, 1e-300) >= 4.0


# ---------------------------------------------------------------- command line
def _cli(capsys, *argv):
    from shufflekit.cli import main

    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_profile_json(capsys):
    import json

    code, out, _ = _cli(
        capsys,
        "profile",
        "krr",
        "--k",
        "5",
        "--eps0",
        "2",
        "--n",
        "200",
        "--method",
        "blanket",
        "--epsilon",
        "0.1",
        "0.3",
        "--format",
        "json",
    )
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"mechanism", "n", "method", "kind", "adjacency", "points"}
    assert data["n"] == 200 and data["method"] == "blanket" and data["adjacency"] == "replace-one"
    assert {"epsilon", "delta", "bound", "error", "lo", "hi", "pairs", "seconds"} <= set(
        data["points"][0]
    )
    b = accountant(make("krr", k=5, eps0=2), 200, method="blanket").get_delta(0.3)
    # the CLI prints the accountant's own enclosure: equal to the last bit
    assert (data["points"][1]["lo"], data["points"][1]["hi"]) == (b.lo, b.hi)


@pytest.mark.parametrize(
    "method",
    ["lower", "clone", "clone-numeric", "stronger-clone", "hoeffding", "bennett", "chernoff"],
)
def test_cli_methods_delta_mode(capsys, method):
    import json

    code, out, err = _cli(
        capsys,
        "profile",
        "rr",
        "--eps0",
        "1",
        "--n",
        "2000",
        "--method",
        method,
        "--delta",
        "1e-5",
        "--format",
        "json",
    )
    assert code == 0, err
    pt = json.loads(out)["points"][0]
    blanket_eps = blanket_epsilon(make("rr", eps0=1), 2000, 1e-5)
    if method == "lower":
        assert pt["bound"] == "lower" and pt["epsilon"] <= blanket_eps
    elif method == "chernoff":  # bounds the canonical pairs only: never labelled upper
        assert pt["bound"] == "heuristic" and pt["pairs"] != "all"
    else:
        assert pt["bound"] == "upper" and pt["epsilon"] >= blanket_eps * (1 - 1e-6)


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--n", "0", "--epsilon", "0.1"], "n=0"),
        (["--n", "10", "--delta", "2"], "delta"),
        (["--n", "10", "--epsilon", "-1"], "epsilon"),
        (["--n", "10", "--epsilon", "0.1", "--method", "magic"], "--method"),
    ],
)
def test_cli_bad_input(capsys, argv, needle):
    code, _, err = _cli(capsys, "profile", "krr", "--k", "3", "--eps0", "1", *argv)
    assert code == 2 and needle in err


def test_cli_non_ldp_matrix(capsys):
    code, _, err = _cli(
        capsys,
        "profile",
        "finite",
        "--matrix",
        "0.5,0.5,0;0.2,0.3,0.5",
        "--n",
        "10",
        "--epsilon",
        "0.1",
    )
    assert code == 2 and "LDP" in err


def test_certified_binomial_rows_contain_the_exact_pmf():
    """Every entry of a certified row (Arb anchor + float recurrence) contains the 40-digit
    pmf within its stated relative error, deep in both tails."""
    import mpmath as mp
    from flint import arb

    from shufflekit.numeric.kernels.positive_part import Param, binomial_row

    rng = np.random.default_rng(7)
    with mp.workdps(40):
        for _ in range(8):
            m = int(rng.integers(10, 200_000))
            rho = float(rng.uniform(0.01, 0.99))
            row = binomial_row(m, Param.of(arb(rho)), 200.0, 300.0)
            for k in {row.lo, row.hi, (row.lo + row.hi) // 2, row.lo + 1}:
                exact = mp.binomial(m, k) * mp.mpf(rho) ** k * (1 - mp.mpf(rho)) ** (m - k)
                got = mp.mpf(float(row.pmf[k - row.lo])) * mp.mpf(2) ** row.E
                assert abs(got / exact - 1) <= row.kappa
            assert row.kappa < 1e-11  # and the error bound is small


def _direct_positive_part(g, q, q0, n):
    """E[(S)_+] for atoms (g1 > 0 > g2, g3 = -1) by a plain sum over the first two counts and
    the last atom in closed form, E[(x - W)_+] = x F_m(J) - m rho F_{m-1}(J-1), J = floor(x)."""
    from scipy import stats

    (g1, g2, _), (q1, q2, q3) = g, q
    r1, r2, r3 = q1, q2 / (1 - q1), q3 / (q3 + q0)
    total = 0.0
    for u in range(n + 1):
        pu = stats.binom.pmf(u, n, r1)
        if pu < 1e-40:
            continue
        v = np.arange(n - u + 1)
        pv = stats.binom.pmf(v, n - u, r2)
        m = n - u - v
        x = g1 * u + g2 * v
        J = np.floor(np.maximum(x, 0.0))
        F = stats.binom.cdf(J, m, r3)
        F1 = np.where(m >= 1, stats.binom.cdf(J - 1, np.maximum(m - 1, 0), r3), 0.0)
        h = np.where(x > 0, x * F - m * r3 * F1, 0.0)
        total += pu * float(np.sum(pv * np.maximum(h, 0.0)))
    return total


def test_settled_runs_and_absorbed_atoms_match_a_direct_sum(monkeypatch):
    """The run-settled level (dead tails and linear heads summed from cumulative tables) and the
    absorbed sign-ambiguous atom keep the enclosure around a direct double sum."""
    import shufflekit.numeric.kernels.positive_part as PP

    calls = {"runs": 0, "absorbed": 0}
    runs, absorbed = PP._settled_runs, PP._absorbed

    def count_runs(*a):
        calls["runs"] += 1
        return runs(*a)

    def count_absorbed(*a):
        calls["absorbed"] += 1
        return absorbed(*a)

    monkeypatch.setattr(PP, "_settled_runs", count_runs)
    monkeypatch.setattr(PP, "_absorbed", count_absorbed)
    n = 3000
    g, q, q0 = [3.0, -5.0, -1.0], [0.1, 0.02, 0.2], 0.68  # mean 0: every region is used
    ref = _direct_positive_part(g, q, q0, n)
    res = PP.expected_positive_part(g, g, q, q0, n)
    lo, hi = float(res.lo.lower()), float(res.hi.upper())
    # 1e-11 relative: float error of the direct sum (a few million terms of one sign, scipy
    # cdf values to ~1e-14 relative); the enclosure itself is far tighter than this
    assert lo <= ref * (1 + 1e-11) and ref * (1 - 1e-11) <= hi
    assert hi - lo <= 1e-8 * ref  # the enclosure keeps 8 digits (REL_TARGET is 1e-10)
    assert calls["runs"] > 0
    # a fourth atom in [-1e-13, 1e-13] with probability 0.3 taken from the zero mass: every
    # such law is within n * 0.3 * 1e-13 of the reference, which the enclosure must cover
    tiny = 1e-13
    res2 = PP.expected_positive_part(
        [3.0, -5.0, -1.0, -tiny], [3.0, -5.0, -1.0, tiny], q + [0.3], q0 - 0.3, n
    )
    lo2, hi2 = float(res2.lo.lower()), float(res2.hi.upper())
    slack = n * 0.3 * tiny
    assert lo2 <= ref * (1 + 1e-11) + slack and ref * (1 - 1e-11) - slack <= hi2
    assert hi2 - lo2 <= 1e-8 * ref
    assert calls["absorbed"] > 0
