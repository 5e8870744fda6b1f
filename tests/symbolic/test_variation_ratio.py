"""Variation-ratio parameters derived from the mechanisms' matrices (Wang et al. 2024, Sec. 4)."""

from __future__ import annotations

import pytest
import sympy as sp

from shufflekit.errors import InvalidParameter
from shufflekit.mechanisms import make
from shufflekit.symbolic.variation_ratio import (
    VariationRatioParameters,
    derive,
    variation_ratio_parameters,
)
from shufflekit.symbols import eps0, k

E = sp.exp(eps0)


def same(a, b) -> bool:
    return sp.simplify(sp.sympify(a) - sp.sympify(b)) == 0


def test_k_ary_randomized_response_with_symbols():
    vr = variation_ratio_parameters(make("krr", k=k, eps0=eps0))
    assert same(vr.p, E) and same(vr.q, E)
    assert same(vr.beta, (E - 1) / (E + k - 1))


@pytest.mark.slow  # 2-7 s each: sign decisions over 8-16 symbolic outputs
@pytest.mark.parametrize(
    "name, params, beta",
    [
        ("rr", {}, (E - 1) / (E + 1)),
        ("oue", {"k": 3}, (E - 1) / (2 * (E + 1))),
        ("hr", {"k": 3}, (E - 1) / (2 * (E + 1))),
        # a hash drawn from all functions [k] -> {0, 1} separates two inputs with probability 1/2
        ("blh", {"k": 3}, (E - 1) / (2 * (E + 1))),
    ],
)
def test_frequency_oracles(name, params, beta):
    vr = variation_ratio_parameters(make(name, eps0=eps0, **params))
    assert same(vr.beta, beta) and same(vr.p, E) and same(vr.q, E)


@pytest.mark.slow  # 9 s: three frequency oracles, full and lumped
def test_lumped_views_give_the_values_of_their_full_matrices():
    for name in ("rappor", "oue", "blh"):
        full = variation_ratio_parameters(make(name, k=5, eps0=sp.Rational(3, 2)))
        from shufflekit.mechanisms import frequency_oracles as fo

        lumped = getattr(fo, name)(5, sp.Rational(3, 2), lumped=True)
        assert same(variation_ratio_parameters(lumped).beta, full.beta), name


def test_joint_composition_expands_small_products():
    vr = variation_ratio_parameters(make("joint-krr", k=3, eps0=2, m=2))
    e = sp.exp(1)  # each component is 1-LDP
    a, b = e / (e + 2), 1 / (e + 2)
    r0, r1 = (a, b, b), (b, a, b)
    # both coordinates differ: the TV of the two product laws, enumerated
    tv = sum(max(r0[i] * r0[j] - r1[i] * r1[j], 0) for i in range(3) for j in range(3))
    assert same(vr.beta, tv) and same(vr.p, sp.exp(2))


def test_a_class_supplies_its_own_derivation_through_the_hook():
    class Custom:
        name = "custom"

        def variation_ratio_parameters(self):
            return VariationRatioParameters(p=2, beta=sp.Rational(1, 3), q=2)

    assert variation_ratio_parameters(Custom()).as_tuple() == (2, sp.Rational(1, 3), 2)


def test_mechanisms_without_a_matrix_are_refused_with_the_reason():
    with pytest.raises(InvalidParameter, match="probability matrix"):
        variation_ratio_parameters(make("gaussian-local", sigma0=1))


def test_derivation_prints_latex():
    d = derive(make("krr", k=k, eps0=eps0))
    tex = d.latex()
    assert r"\beta" in tex and "k" in tex
