"""Symbolic GPARV laws (Su-Cheng-Wang 2026, Table 1) from the mechanisms layer."""

from __future__ import annotations

import pytest
import sympy as sp

from shufflekit.symbolic import gparv as GP

w, v = GP.w, GP.v
u = w**2
K = sp.Symbol("k", integer=True, positive=True)


def _law_dict(law):
    return {sp.factor(a): sp.factor(p) for a, p in law}


def test_krr_symbolic_k_matches_table1_row():
    law = GP.gparv_law("krr", K).result
    printed = (
        (1 - v * u, 1 / (u + K - 1)),
        (1 - v, (K - 2) / (u + K - 1)),
        (sp.Integer(0), (u - 1) / (u + K - 1)),
        (u - v, 1 / (u + K - 1)),
    )
    assert GP.compare_laws(law, printed)["equal"]


@pytest.mark.parametrize("name,k", [("krr", K), ("blh", 2), ("oue", 2), ("rappor", 2), ("hr", 3)])
def test_law_is_a_probability_law_with_mean_one_minus_e_eps(name, k):
    law = GP.gparv_law(name, k).result
    assert sp.cancel(sum(p for _, p in law) - 1) == 0
    assert sp.cancel(sum(a * p for a, p in law) - (1 - v)) == 0  # Property 2 (1)


def test_hr_all_ones_column_joins_the_blanket():
    law = _law_dict(GP.gparv_law("hr", 3).result)
    # K = 4: the all-ones column has probability 2e^eps0/(4(e^eps0+1)) under every input;
    # with the three other columns it puts mass 1/2 on the atom 1 - e^eps
    assert sp.cancel(law[sp.factor(1 - v)] - sp.Rational(1, 2)) == 0
    assert sp.factor(u - v * u) not in law  # no x, x' both in C without the all-ones column


def test_oue_differs_from_printed_row_by_the_all_ones_word():
    law = GP.gparv_law("oue", 2).result
    printed = (
        (1 - v * u, 1 / (2 * (u + 1))),
        (u - v * u, 1 / (2 * u * (u + 1))),
        (1 - v, u / (2 * (u + 1))),
        (sp.Integer(0), (1 - 1 / u) / 2),
        (u - v, 1 / (2 * (u + 1))),
    )
    res = GP.compare_laws(law, printed)
    assert not res["equal"]
    # the all-ones word q^(k-1)/2 (q = 1/(e^eps0+1)) moves from atom u - uv to atom 1 - v
    d = {sp.factor(a): diff for a, _, _, diff in res["differences"]}
    assert sp.cancel(d[sp.factor(u - v * u)] + d[sp.factor(1 - v)] + d.get(sp.Integer(0), 0)) == 0


def test_compare_and_total_variation():
    a = ((sp.Integer(0), sp.Rational(1, 2)), (1 - v, sp.Rational(1, 2)))
    b = ((sp.Integer(0), sp.Rational(1, 4)), (1 - v, sp.Rational(3, 4)))
    assert GP.compare_laws(a, a)["equal"]
    assert GP.total_variation(a, b, {w: 2, v: 1.5}) == pytest.approx(0.25, abs=1e-15)


def test_to_wv_rewrites_exponentials():
    e0, e = GP.eps0, GP.eps
    assert sp.cancel(GP.to_wv(sp.exp(e + e0)) - v * w**2) == 0
    assert sp.cancel(GP.to_wv(sp.exp(e0 / 2)) - w) == 0


def test_bad_mechanism_name():
    with pytest.raises(ValueError, match="unknown mechanism"):
        GP.gparv_law("nonsense", 3)
