"""dp_accounting interoperation: export a shuffled round, compose it there, cross-check."""

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld

from shufflekit.errors import InvalidParameter
from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.composition.dominating_pair import DEFAULT_GRID
from shufflekit.numeric.composition.fixed import Round, composed_accountant, exact_pair_lower
from shufflekit.numeric.export.pld_export import (
    export_round,
    gaussian_crosscheck,
    randomized_response_crosscheck,
    shuffled_round_pld,
    to_dp_accounting,
)

KRR = dict(k=10, eps0=4)
N = 10_000


def test_exported_round_is_an_upper_bound_in_dp_accounting():
    mech = make("krr", **KRR)
    exported = export_round(mech, N)
    acc = accountant(mech, N, method="blanket")
    for e in (0.0, 0.05, 0.1, 0.1234, 0.3):
        # dp_accounting evaluates the same masses in float64; its value may differ from ours by
        # its own summation round-off (relative 1e-12 covers it at these sizes)
        assert exported.get_delta_for_epsilon(e) >= acc.get_delta(e).hi * (1 - 1e-12)


def test_shuffled_round_composed_with_a_gaussian_in_dp_accounting():
    """The issue's 'Done when': a shuffled round and a Gaussian composed inside dp_accounting,
    against shufflekit's own certified composition of the same two events."""
    mech = make("krr", **KRR)
    sigma = 3.0
    theirs = export_round(mech, N, discretization=DEFAULT_GRID).compose(
        pld.from_gaussian_mechanism(sigma, value_discretization_interval=DEFAULT_GRID)
    )
    ours = composed_accountant(
        schedule=[
            Round(mech, N, 1, "blanket"),
            Round({"name": "central-gaussian", "sigma": sigma}, 1),
        ]
    )
    d = 1e-6
    e_theirs = theirs.get_epsilon_for_delta(d)
    e_ours = ours.get_epsilon(d).hi
    gauss_alone = pld.from_gaussian_mechanism(
        sigma, value_discretization_interval=DEFAULT_GRID
    ).get_epsilon_for_delta(d)
    assert e_theirs > gauss_alone  # the shuffled round costs something
    # same dominating round; dp_accounting's Gaussian is its own pessimistic discretisation
    # (connect-the-dots on the same grid), so the two agree to a few grid steps
    assert abs(e_theirs - e_ours) <= 4 * DEFAULT_GRID


@pytest.mark.slow
def test_gaussian_crosscheck_against_exact():
    rows = gaussian_crosscheck(4.0, 16, [1e-5])
    r = rows[0]
    assert r["shufflekit_upper"] >= r["exact"]
    assert r["shufflekit_upper"] - r["exact"] <= DEFAULT_GRID  # within one grid step
    assert abs(r["dp_accounting"] - r["exact"]) <= DEFAULT_GRID


def test_randomized_response_crosscheck():
    rows = randomized_response_crosscheck(1.0, 2, 10, [1e-3, 1e-6], grid=2.0**-8)
    for r in rows:
        # both compose local RR exactly on the grid (eps0 = 1 is a grid point of 2^-8 and of
        # dp_accounting's 2^-8 interval): equal up to float round-off of the two libraries
        assert abs(r["difference"]) <= 1e-6


def test_only_upper_laws_export():
    lower = exact_pair_lower(1.0, 50, 1).pmfs[0]
    with pytest.raises(InvalidParameter, match="upper"):
        to_dp_accounting(lower)


def test_exported_masses_carry_the_round_off_budget():
    pmf = shuffled_round_pld(make("rr", eps0=1), 100)
    exp = to_dp_accounting(pmf)
    assert exp.get_delta_for_epsilon(50.0) >= pmf.infinity_mass + pmf.error


def test_the_recipe_composes_at_dp_accounting_defaults():
    """The round exported at dp_accounting's default discretization (1e-4) composes with a
    PLD its constructors build at their defaults, and stays above the certified round: every
    loss moved up to a multiple of 1e-4 (at most 1e-4 per round, so the exported epsilon is
    within 1e-4 of the one on our grid)."""
    mech = make("krr", **KRR)
    exported = export_round(mech, N)
    assert exported._pmf_remove._discretization == 1e-4
    total = exported.self_compose(3).compose(pld.from_gaussian_mechanism(2.0))
    assert total.get_epsilon_for_delta(1e-6) > pld.from_gaussian_mechanism(
        2.0
    ).get_epsilon_for_delta(1e-6)
    acc = accountant(mech, N, method="blanket")
    on_grid = export_round(mech, N, discretization=DEFAULT_GRID)
    for e in (0.0, 0.1, 0.2):
        assert exported.get_delta_for_epsilon(e) >= acc.get_delta(e).hi * (1 - 1e-12)
    e1, e2 = exported.get_epsilon_for_delta(1e-6), on_grid.get_epsilon_for_delta(1e-6)
    assert e2 - 1e-12 <= e1 <= e2 + 1e-4


def test_regrid_moves_every_atom_up_exactly():
    from fractions import Fraction

    from shufflekit.numeric.bound import Kind
    from shufflekit.numeric.composition.dominating_pair import PrivacyLossPmf
    from shufflekit.numeric.export.pld_export import regrid

    law = PrivacyLossPmf(2.0**-10, -7, np.array([0.1, 0.0, 0.3, 0.6]), 0.0, 0.0, Kind.UPPER)
    for D in (1e-4, 3e-3, 2.0**-10, 0.1):
        out = regrid(law, D)
        assert sum(out.values()) == pytest.approx(1.0, rel=1e-15)
        for i, p in enumerate(law.probs):
            if p:
                loss = Fraction(law.offset + i) * Fraction(law.grid)
                k = min(k for k in out if k * Fraction(D) >= loss)
                assert (k - 1) * Fraction(D) < loss <= k * Fraction(D)
