"""Property tests of the finite-mechanism layer over random randomizers (hypothesis)."""

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from shufflekit.mechanisms import FiniteMechanism
from shufflekit.verify.strategies import markov_kernels, probability_rows

# Float round-off on sums of at most ~20 terms of size <= e^eps0 (eps0 < ~4): relative 1e-9
# leaves a margin of 10^6 over double precision while still catching any formula slip.
REL = 1e-9


def _mech(rows):
    return FiniteMechanism.from_matrix(rows)


@given(probability_rows())
def test_blanket_is_maximal_and_below_every_row(rows):
    m = _mech(rows)
    b = m.blanket()
    for j in range(len(m.outputs)):
        col = [r[j] for r in rows]
        # gamma * omega <= R_x pointwise ...
        assert all(b.gamma * b.omega[j] <= v * (1 + REL) for v in col)
        # ... and maximal: some input attains it (no larger common part exists)
        assert math.isclose(b.gamma * b.omega[j], min(col), rel_tol=REL)
    assert math.isclose(sum(b.omega), 1.0, rel_tol=REL)
    assert 0 < b.gamma <= 1


@given(probability_rows(), st.floats(0.0, 2.0), st.sampled_from(["replace-one", "zero-out"]))
def test_gparv_mean_and_support(rows, eps, adjacency):
    m = _mech(rows)
    eps0 = float(m.eps0())
    for law, _pairs in m.gparv_laws(eps, adjacency):
        atoms, probs = law.as_floats()
        assert math.isclose(sum(probs), 1.0, rel_tol=REL)
        mean = sum(a * p for a, p in zip(atoms, probs))
        # E[G] = 1 - e^eps (Su-Cheng-Wang 2026, Property 2.1)
        assert math.isclose(mean, 1 - math.exp(eps), rel_tol=REL, abs_tol=REL)
        # support in [1 - e^(eps+eps0), e^eps0 - e^eps] (Property 2.2) for the atoms drawn from
        # the blanket; the atom 0 (mass 1 - gamma) obeys it only when eps <= eps0 (see below).
        # slack = round-off only
        lo, hi = 1 - math.exp(eps + eps0), math.exp(eps0) - math.exp(eps)
        slack = REL * math.exp(eps + eps0)
        blanket_atoms = [a for a, p in zip(atoms, probs) if a != 0]
        assert all(lo - slack <= a <= hi + slack for a in blanket_atoms)
        if eps <= eps0:
            assert all(lo - slack <= a <= hi + slack for a in atoms)


def test_property_2_support_fails_for_eps_above_eps0():
    """The zero atom of mass 1 - gamma exceeds e^eps0 - e^eps once eps > eps0."""
    m = FiniteMechanism.from_matrix([[0.5, 0.5], [2 / 3, 1 / 3]])
    eps0 = float(m.eps0())
    eps = eps0 + 0.5
    law = m.gparv(eps, (0, 1))
    atoms, probs = law.as_floats()
    assert 0.0 in atoms and probs[atoms.index(0.0)] == pytest.approx(1 - float(m.blanket().gamma))
    assert 0.0 > math.exp(eps0) - math.exp(eps)


@given(probability_rows())
def test_chi_up_at_least_chi_lo(rows):
    m = _mech(rows)
    lo, up = float(m.chi_lo().value), float(m.chi_up().value)
    assert up >= lo * (1 - REL)


@given(st.data())
def test_post_processing_with_pushed_blanket_never_decreases_shuffle_indices(data):
    """Takagi-Liew 2026, Lemma A.3, with the blanket of K o R taken as K o R_BG (mass gamma), as in its
    proof: chi_lo(K o R) >= chi_lo(R) and chi_up(K o R) >= chi_up(R)."""
    rows = data.draw(probability_rows())
    m = _mech(rows)
    # identical rows (chi = oo) are ill-conditioned in floats: rows that differ by an ulp give
    # chi near 1/ulp ~ 1e15, which is round-off, not a value (and K o R's ulps differ from R's);
    # that case is checked exactly in the next test.  1e12 leaves 1e3 ulps of real difference.
    assume(float(m.chi_lo().value) < 1e12 and float(m.chi_up().value) < 1e12)
    kernel = data.draw(markov_kernels(len(m.outputs)))
    post = m.post_process(kernel, push_blanket=True)
    assert float(post.blanket().gamma) == pytest.approx(float(m.blanket().gamma), rel=REL)
    assert float(post.chi_lo().value) >= float(m.chi_lo().value) * (1 - REL)
    assert float(post.chi_up().value) >= float(m.chi_up().value) * (1 - REL)


def test_post_processing_keeps_infinite_indices_of_identical_rows():
    """Identical rows give chi = oo; post-processing keeps the rows identical (exactly)."""
    import sympy as sp

    third = sp.Rational(1, 3)
    m = FiniteMechanism.from_matrix([[2 * third, third], [2 * third, third]])
    post = m.post_process([[1, 0], [sp.Rational(1, 2), sp.Rational(1, 2)]], push_blanket=True)
    assert m.chi_lo().value == sp.oo and post.chi_lo().value == sp.oo
    assert post.chi_up().value == sp.oo


def test_post_processing_with_maximal_blanket_can_decrease_indices():
    """With the *maximal* blanket of K o R as the null output, Lemma A.3 fails (exact counterexample)."""
    import sympy as sp

    third = sp.Rational(1, 3)
    m = FiniteMechanism.from_matrix([[third, 2 * third], [2 * third, third]])
    kernel = [[1, 0], [sp.Rational(1, 2), sp.Rational(1, 2)]]
    maximal = m.post_process(kernel)
    pushed = m.post_process(kernel, push_blanket=True)
    assert m.chi_up().value ** 2 == 8
    assert maximal.chi_up().value ** 2 == sp.Rational(1125, 144)  # 7.8125 < 8
    assert pushed.chi_up().value ** 2 >= 8


def test_post_processing_to_one_output_gives_infinite_indices():
    m = _mech([[0.7, 0.3], [0.2, 0.8]])
    post = m.post_process([[1.0], [1.0]])
    assert post.chi_lo().value == float("inf") or str(post.chi_lo().value) == "oo"
