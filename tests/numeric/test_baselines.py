"""Published baselines: FMT 2021/2023, standard clone, Balle et al. Hoeffding/Bennett, Chernoff."""

from __future__ import annotations

import pytest

from shufflekit.errors import CannotCertify
from shufflekit.mechanisms import make
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.numeric.methods import baselines as bl
from shufflekit.numeric.methods.blanket import BlanketAccountant
from shufflekit.numeric.methods.lower import lower_delta

# Shvets 2026, Table 6 (binary RR, eps0 = 1, delta = 1e-5): FMT (2021) and FMT (2023) columns
TABLE6 = {
    1000: ("0.532", "0.457"),
    2000: ("0.402", "0.342"),
    5000: ("0.271", "0.229"),
    10000: ("0.199", "0.167"),
}


@pytest.mark.parametrize("n", sorted(TABLE6))
def test_fmt_columns_of_seed001_table6(n):
    rr = make("rr", eps0=1)
    f21, f23 = TABLE6[n]
    assert f"{bl.fmt21_epsilon(1.0, n, 1e-5):.3f}" == f21
    assert f"{bl.fmt23_epsilon(1.0, n, 1e-5, rr):.3f}" == f23


def test_stronger_clone_class():
    assert bl.stronger_clone_applies(make("rr", eps0=1))[0]
    assert bl.stronger_clone_applies(make("krr", k=5, eps0=2))[0]
    ok, why = bl.stronger_clone_applies(make("oue", k=3, eps0=1))
    assert not ok and "common part" in why
    with pytest.raises(CannotCertify, match="left-over"):
        bl.fmt23_epsilon(1.0, 10**5, 1e-6, make("oue", k=3, eps0=1))


def test_closed_form_conditions():
    with pytest.raises(CannotCertify, match="16 log"):
        bl.fmt21_epsilon(4.0, 1000, 1e-6)
    with pytest.raises(CannotCertify, match="8 log"):
        bl.fmt23_epsilon(5.0, 1000, 1e-6)


def test_closed_form_inversion_round_trip():
    eps = bl.fmt21_epsilon(1.0, 5000, 1e-5)
    d = bl.closed_form_delta(lambda d: bl.fmt21_epsilon(1.0, 5000, d), eps)
    assert d == pytest.approx(1e-5, rel=1e-6)
    assert bl.fmt21_epsilon(1.0, 5000, d) <= eps


@pytest.mark.parametrize(
    "name,params",
    [("rr", {"eps0": 1}), ("krr", {"k": 4, "eps0": 2}), ("oue", {"k": 3, "eps0": 1.5})],
)
@pytest.mark.parametrize("eps", [0.05, 0.3])
def test_hierarchy_blanket_below_relaxations(name, params, eps):
    """Blanket (Thm 4) <= standard clone (Thm 3 with the clone decomposition) and
    <= Hoeffding/Bennett relaxations of the same Lemma 5.3; lower bound below all."""
    mech = make(name, **params)
    n = 500
    blanket = BlanketAccountant.of(mech, n).delta(eps)[0]
    e0 = float(mech.eps0())
    lo = lower_delta(mech, eps, n)[0]
    assert lo <= blanket
    assert blanket <= bl.clone_delta(e0, n, eps)[0] * (1 + 1e-9)
    assert blanket <= bl.hoeffding_delta(mech, n, eps)
    assert blanket <= bl.bennett_delta(mech, n, eps)
    assert lo <= bl.chernoff_canonical_delta(mech, n, eps) or name == "oue"


def test_clone_numeric_is_symmetric_and_vanishes_at_eps0():
    # at eps = eps0 the exact value is 0; the certified value may carry the e^-60
    # tail budget and float noise of p - e^eps (1-p) (about 1e-17), hence 1e-20
    assert bl.clone_delta(1.0, 100, 1.0)[0] <= 1e-20
    assert 0 < bl.clone_delta(1.0, 100, 0.1)[0] < 1


def test_bad_inputs():
    rr = make("rr", eps0=1)
    with pytest.raises(ValueError, match="eps0"):
        bl.fmt21_epsilon(0.0, 100, 1e-5)
    with pytest.raises(ValueError, match="n="):
        bl.fmt21_epsilon(1.0, 0, 1e-5)
    with pytest.raises(ValueError, match="delta"):
        bl.fmt23_epsilon(1.0, 100, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        bl.clone_delta(1.0, 100, -0.5)
    with pytest.raises(CannotCertify):
        bl.hoeffding_delta(rr, 100, 0.0)
    with pytest.raises(ValueError, match="n="):
        bl.bennett_delta(rr, -3, 0.1)
    non_ldp = FiniteMechanism.from_matrix([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])
    with pytest.raises(ValueError, match="LDP"):
        bl.hoeffding_delta(non_ldp, 100, 0.1)
    with pytest.raises(ValueError, match="LDP"):
        bl.stronger_clone_applies(non_ldp)


# ----------------------------------------------------------------- registry entries
def test_registered_kinds_are_what_each_method_proves():
    from shufflekit.numeric.accountant import methods

    kinds = {m.name: str(m.kind) for m in methods()}
    assert kinds["chernoff"] == "heuristic"
    for name in ("blanket", "clone", "clone-numeric", "stronger-clone", "hoeffding", "bennett"):
        assert kinds[name] == "upper"
    assert kinds["lower"] == "lower"
    assert kinds["exact"] == kinds["gdp"] == "exact"


def test_chernoff_is_never_labelled_upper_below_the_theorem5_lower_bound():
    """The issue's counterexample: 10-RR, eps0 = 10, n = 1e7, eps = 0.5.  Chernoff's delta lies
    far below the certified Theorem 5 lower bound of a real neighbouring pair (the issue
    measured 640x), so it must not be reported as an upper bound."""
    from shufflekit.numeric.accountant import accountant

    mech = make("krr", k=10, eps0=10)
    n = 10**7
    low = accountant(mech, n, method="lower").get_delta(0.5)
    ch = accountant(mech, n, method="chernoff").get_delta(0.5)
    assert str(ch.kind) == "heuristic" and "canonical" in ch.pairs
    assert ch.hi * 100 < low.lo  # it really is below a proven lower bound
    for name in ("bennett", "hoeffding", "clone"):
        up = accountant(mech, n, method=name).get_delta(0.5)
        assert up.hi >= low.lo, name


def test_closed_form_accountant_brackets_its_inverse():
    from shufflekit.numeric.accountant import accountant

    acc = accountant(make("rr", eps0=1), 5000, method="clone")
    eps = acc.get_epsilon(1e-5)
    assert f"{eps.value:.3f}" == "0.271"  # Shvets 2026, Table 6
    d = acc.get_delta(eps.value)
    assert d.hi <= 1e-5 * (1 + 1e-8) and d.lo <= 1e-5 <= d.hi * (1 + 1e-8)


def test_bennett_relaxation_is_declared_non_monotone():
    """The Bennett relaxation grows with epsilon on this 4x3 mechanism at n = 2 (0.92343 at
    eps = 0.7813, 0.92511 at eps = 0.8035: enclosures, no tolerance), so the accountant must
    not claim a monotone curve; its inversion still returns an evaluated valid epsilon."""
    from shufflekit.mechanisms.finite import FiniteMechanism
    from shufflekit.numeric.accountant import accountant

    mech = FiniteMechanism.from_matrix(
        [[0.158, 0.228, 0.614], [0.11, 0.34, 0.55], [0.277, 0.267, 0.456], [0.11, 0.5, 0.39]]
    )
    acc = accountant(mech, 2, method="bennett")
    a, b = acc.get_delta(0.7813322660700593), acc.get_delta(0.8034938498903641)
    assert b.lo > a.hi
    assert not acc.monotone
    assert accountant(mech, 2, method="hoeffding").monotone
    inv = acc.get_epsilon(a.hi)
    assert acc.get_delta(inv.hi).hi <= a.hi


@pytest.mark.parametrize(
    "n, eps0, declined",
    [
        (10**6, 1.0, False),  # 5.3e7 terms: within CLONE_MAX_TERMS
        (10**7, 1.0, True),  # 5.2e8 terms
        (10**9, 4.0, True),
    ],
)
def test_clone_numeric_bounds_its_work_before_summing(monkeypatch, n, eps0, declined):
    """Above :data:`CLONE_MAX_TERMS` the clone sum declines at once (it took minutes and more
    than 8 GB at n = 1e6 before the bound and the row cache's size cap); below it, it sums.
    The summation is replaced by a sentinel so that the test measures the decision only."""
    from shufflekit.numeric.kernels import positive_part

    class Summed(Exception):
        pass

    real_rows_for = positive_part.rows_for

    def rows_for(p, lo, hi, comp=None):
        rows = real_rows_for(p, lo, hi, comp)
        if p.mid() == 0.5:  # the inner rows: the first one is the size probe
            real_get, calls = rows.get, []

            def get(m):
                calls.append(m)
                if len(calls) > 1:
                    raise Summed
                return real_get(m)

            monkeypatch.setattr(rows, "get", get)
        return rows

    monkeypatch.setattr(positive_part, "rows_for", rows_for)
    with pytest.raises(CannotCertify if declined else Summed) as info:
        bl.clone_enclosure(eps0, n, 0.1)
    if declined:
        assert f"n={n}" in str(info.value) and "binomial terms" in str(info.value)


def test_row_cache_holds_at_most_its_float_budget():
    """The binomial row cache is bounded by floats held, not by rows: filling it with rows of
    Bin(m, 1/2) for m near 1e6 never keeps more than ``CACHE_FLOATS`` pmf floats."""
    from flint import arb

    from shufflekit.numeric.kernels import positive_part as pp

    rows = pp.Rows(pp.Param.of(arb(0.5), None), 64, 64, {})
    budget = 3 * rows.get(10**6).size
    old, pp.CACHE_FLOATS = pp.CACHE_FLOATS, budget
    try:
        for m in range(10**6, 10**6 + 10):
            rows.get(m)
            held = sum(r.size for r in rows.cache.values() if r.pmf is not None)
            assert held == rows.held <= budget
    finally:
        pp.CACHE_FLOATS = old
