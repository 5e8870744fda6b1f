"""Lumped (symmetry-reduced) views equal the enumerated mechanisms, exactly.

For small alphabets every family is built both ways; the blanket mass, eps0, the set of
distinct GPARV laws (exact, compared at 30 digits), the float ratio laws, the shuffle
indices and the Theorem 5 lower-bound laws must coincide.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.mechanisms import make
from shufflekit.mechanisms.frequency_oracles import blh, hadamard_response, oue, rappor
from shufflekit.mechanisms.randomized_response import k_randomized_response
from shufflekit.numeric.kernels.gparv_law import blanket_floor, numeric_eps0, ratio_laws
from shufflekit.numeric.methods.lower import theorem5_laws

FAMILIES = {
    "krr": (k_randomized_response, 4, 12),
    "rappor": (rappor, 4, 5),
    "oue": (oue, 4, 5),
    "blh": (blh, 4, 5),
    "blh-nonconstant": (
        lambda k, e, lumped: blh(k, e, hash_family="nonconstant", lumped=lumped),
        4,
        5,
    ),
    "hr": (hadamard_response, 4, 12),
}
# eps0 on a grid of quarters keeps the exact (sympy) enumeration quick; the unary
# encodings keep bits with probability e^(eps0/2)/(...), whose exact GPARV laws simplify
# quickly only for integer eps0/2 (so even eps0)
EPS0 = st.integers(1, 20).map(lambda i: sp.Rational(i, 4))
EPS0_UNARY = st.integers(1, 4).map(lambda i: sp.Integer(2 * i))


def both(family: str, k: int, eps0):
    build = FAMILIES[family][0]
    return build(k, eps0, lumped=True), build(k, eps0, lumped=False)


def law_key(law, digits: int = 30) -> tuple:
    # 30 digits: exact values rounded far below any float comparison, far above sympy's
    # 60-digit evaluation noise
    return tuple(
        sorted(
            (sp.N(a, digits + 10).round(digits), sp.N(p, digits + 10).round(digits))
            for a, p in zip(law.atoms, law.probabilities)
        )
    )


def ratio_key(mech, adjacency: str) -> list:
    # 11 significant digits: the float laws are built from float64 entries (relative
    # error ~1e-15) and merged at 12 digits; 11 leaves a safety digit
    out = []
    for law in ratio_laws(mech, adjacency):
        rows = sorted(
            (float(f"{a:.11g}"), float(f"{b:.11g}"), float(f"{w:.11g}"))
            for a, b, w in zip(law.alpha, law.beta, law.weight)
            if w > 1e-300
        )
        out.append(tuple(rows))
    return sorted(set(out))


def shuffle_indices(mech) -> tuple[float, float]:
    """chi_lo and chi_up (zero-out) in float from the matrix and the carried floor
    (Takagi-Liew 2026, Sec. 2.4), independent of the exact code path."""
    P, mult = mech.to_numpy()
    floor = blanket_floor(mech)
    gamma = float(mult @ floor)
    omega = floor / gamma
    rows = list(P) + [omega]
    zero_out = [(i, len(P)) for i in range(len(P))] + [(len(P), i) for i in range(len(P))]

    def chi2(a, b, ref):
        return float(np.sum(mult * (rows[a] - rows[b]) ** 2 / ref))

    lo = max(chi2(a, b, omega) for a, b in zero_out)
    up = max(chi2(a, b, P[z]) for a, b in zero_out for z in range(len(P)))
    return math.sqrt(gamma / lo), 1 / math.sqrt(up)


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_lumped_view_equals_enumeration(family, data):
    lo_k, hi_k = FAMILIES[family][1:]
    k = data.draw(st.integers(lo_k, hi_k), label="k")
    eps0 = data.draw(EPS0_UNARY if family in ("rappor", "oue") else EPS0, label="eps0")
    lumped, full = both(family, k, eps0)
    assert lumped.is_lumped and not full.is_lumped
    assert len(lumped.inputs) <= len(full.inputs) and len(lumped.outputs) <= len(full.outputs)
    assert sp.simplify(lumped.blanket().gamma - full.blanket().gamma) == 0
    assert sp.N(lumped.eps0() - full.eps0(), 40) == 0
    eps = sp.Integer(1)
    for adjacency in ("replace-one", "zero-out"):
        mine = {law_key(law) for law, _ in lumped.gparv_laws(eps, adjacency)}
        theirs = {law_key(law) for law, _ in full.gparv_laws(eps, adjacency)}
        assert mine == theirs, adjacency
        assert ratio_key(lumped, adjacency) == ratio_key(full, adjacency), adjacency
    # float chi values: relative 1e-12 covers float64 sums over at most 2^5 * 2 outputs
    assert shuffle_indices(lumped) == pytest.approx(shuffle_indices(full), rel=1e-12)
    assert numeric_eps0(lumped) == pytest.approx(numeric_eps0(full), rel=1e-13)


@pytest.mark.parametrize("family", ["krr", "rappor", "oue", "blh", "hr"])
def test_theorem5_laws_equal_enumeration(family):
    lumped, full = both(family, 5, sp.Integer(2))

    def keys(mech):
        out = set()
        for tr in theorem5_laws(mech):
            law = tr.law
            out.add(
                tuple(
                    sorted(
                        (float(f"{a:.11g}"), float(f"{b:.11g}"), float(f"{w:.11g}"))
                        for a, b, w in zip(law.alpha, law.beta, law.weight)
                    )
                )
            )
        return out

    assert keys(lumped) == keys(full)


def test_large_krr_law_from_the_definition():
    """k = 10^4: three atoms besides 0, as the mixture definition gives them."""
    k, eps0 = 10_000, 4
    mech = make("krr", k=k, eps0=eps0)
    assert mech.is_lumped and len(mech.inputs) == 3
    e = math.exp(eps0)
    other = 1 / (e + k - 1)
    (law,) = ratio_laws(mech)
    got = sorted(zip(law.alpha, law.beta, law.weight))
    want = sorted([(e, 1.0, other), (1.0, e, other), (1.0, 1.0, (k - 2) * other)])
    assert np.allclose(np.array(got), np.array(want), rtol=1e-13, atol=0)  # float64 round-off
    assert law.gamma == pytest.approx(k * other, rel=1e-14)


@pytest.mark.parametrize("name", ["krr", "rappor", "oue", "blh", "hr"])
def test_large_alphabets_have_few_atoms(name):
    mech = make(name, k=10_000, eps0=4)
    assert mech.is_lumped and len(mech.outputs) <= 20
    laws = ratio_laws(mech)
    assert all(len(law.alpha) <= 8 for law in laws)
    assert numeric_eps0(mech) == pytest.approx(4.0, rel=1e-11)  # eps0 is the design value
    # total mass of the lumped rows is one (class totals or multiplicities)
    P, mult = mech.to_numpy()
    assert np.allclose(P @ mult, 1.0, rtol=0, atol=1e-14)


def test_lumped_false_for_a_large_alphabet_is_refused():
    with pytest.raises(ValueError, match="lumped=False"):
        rappor(20, 1, lumped=False)


def test_lumped_view_cannot_be_post_processed():
    mech = make("krr", k=50, eps0=1)
    with pytest.raises(ValueError, match="unlumped"):
        mech.post_process([[1]] * len(mech.outputs))


def test_joint_composition_of_lumped_krr_equals_enumeration():
    """Joint compositions factorise over components, so lumped components give the same
    distinct ratio laws as enumerated ones (Su-Cheng-Wang 2026, Sec. 6)."""
    from shufflekit.mechanisms.composition import joint

    lumped = joint([k_randomized_response(8, sp.Integer(2), lumped=True)] * 2)
    full = joint([k_randomized_response(8, sp.Integer(2), lumped=False)] * 2)
    assert ratio_key(lumped, "replace-one") == ratio_key(full, "replace-one")
