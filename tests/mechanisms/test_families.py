"""The named families: exact values derived by the code against hand-checkable ones."""

import math

import pytest
import sympy as sp

from shufflekit.mechanisms import joint, make

E0 = sp.Symbol("eps0", positive=True)
EPS = sp.Symbol("epsilon", nonnegative=True)


def test_krr_gamma_exact():
    m = make("krr", k=10, eps0=4)
    assert sp.simplify(m.blanket().gamma - 10 / (sp.exp(4) + 9)) == 0
    assert m.eps0() == 4


def test_krr_gparv_law_symbolic():
    """k-RR GPARV from the definition; the expected atoms are the ones of Su-Cheng-Wang 2026, Table 1."""
    m = make("krr", k=5, eps0=E0)
    law = m.gparv(EPS, (0, 1))
    p = 1 / (sp.exp(E0) + 4)
    expected = {
        1 - sp.exp(EPS + E0): p,
        1 - sp.exp(EPS): 3 * p,
        0: (sp.exp(E0) - 1) * p,
        sp.exp(E0) - sp.exp(EPS): p,
    }
    assert len(law) == 4
    for atom, prob in zip(law.atoms, law.probabilities):
        match = [a for a in expected if sp.simplify(a - atom) == 0]
        assert len(match) == 1
        assert sp.simplify(expected[match[0]] - prob) == 0


def test_symbolic_k_matches_concrete_k():
    k = sp.Symbol("k", integer=True, positive=True)
    lumped = make("krr", k=k, eps0=E0)
    for kk in (3, 4, 7):
        full = make("krr", k=kk, eps0=E0)
        a = lumped.chi_lo().value.subs(k, kk) ** 2  # squares: rational in e^eps0, no |.|
        b = full.chi_lo().value ** 2
        assert sp.simplify(a - b) == 0
        assert sp.simplify(lumped.blanket().gamma.subs(k, kk) - full.blanket().gamma) == 0


def test_rr_shuffle_index_matches_appendix_a5():
    """Takagi-Liew 2026, App. A.5: gamma = 1 - t and chi_lo^2 = (1-t)/t^2 with t = 2p - 1."""
    p = sp.Rational(7, 10)
    m = make("rr", p=p)
    t = 2 * p - 1
    assert m.blanket().gamma == 1 - t
    assert sp.simplify(m.chi_lo().value ** 2 - (1 - t) / t**2) == 0


def test_joint_composition_matches_enumeration():
    comps = [make("krr", k=3, eps0=1), make("rr", eps0=sp.Rational(1, 2))]
    j = joint(comps)
    full = j.to_finite()
    assert sp.simplify(j.gamma - full.blanket().gamma) == 0
    pair = ((0, 1), (1, -1))
    a = j.gparv(sp.Rational(1, 3), pair)
    b = full.gparv(sp.Rational(1, 3), pair)
    assert [float(x) for x in a.atoms] == pytest.approx([float(x) for x in b.atoms], rel=1e-12)
    assert [float(x) for x in a.probabilities] == pytest.approx(
        [float(x) for x in b.probabilities], rel=1e-12
    )
    # equal closed forms that sympy does not always bring to one shape: compare at 40 digits
    assert sp.N(j.eps0() - full.eps0(), 40) == pytest.approx(0, abs=1e-35)


@pytest.mark.parametrize("name", ["blh", "rappor", "oue", "hr"])
def test_frequency_oracles_are_eps0_ldp(name):
    m = make(name, k=3, eps0=1)
    assert float(m.eps0()) == pytest.approx(1.0, rel=1e-12)
    law = m.gparv(0.5, (0, 1))
    assert float(law.mean()) == pytest.approx(1 - math.exp(0.5), rel=1e-12)


def test_privunit_d1_is_randomized_response():
    pu = make("privunit", p=sp.Rational(3, 4), theta=0, d=1)
    rr = make("rr", p=sp.Rational(3, 4))
    assert sp.simplify(pu.gamma - rr.blanket().gamma) == 0
    assert sp.simplify(pu.chi_lo() - rr.chi_lo().value) == 0


def test_privunit_cap_probability_half_at_theta_zero():
    pu = make("privunit", p=sp.Rational(3, 5), theta=0, d=6)
    assert sp.N(pu.q, 30) == pytest.approx(0.5, abs=1e-25)


def test_bmg_chi_lo_matches_appendix_closed_form():
    """Takagi-Liew 2026, Thm A.6 step 1: chi_lo^2 = gamma/(1-gamma)^2 / (e^(1/sigma0^2) - 1)."""
    g, s = sp.Rational(19, 20), sp.Rational(23, 5)
    b = make("bmg", gamma=g, sigma0=s)
    printed = g / (1 - g) ** 2 / (sp.exp(1 / s**2) - 1)
    assert sp.N(b.chi_lo() ** 2 - printed, 40) == pytest.approx(0, abs=1e-30)


def test_gaussian_chi_chua_configuration_found():
    g = make("gaussian-local", sigma0=2)
    c = g.chi_chua()
    assert c.configuration["reference"] == -c.configuration["x1"]
    a = sp.Rational(1, 4)
    printed_v = sp.exp(4 * a) - 2 * sp.exp(2 * a) + sp.exp(a)
    assert sp.N(c.value**-2 - printed_v, 30) == pytest.approx(0, abs=1e-25)


@pytest.mark.parametrize(
    "kwargs,param",
    [
        (dict(name="krr", k=1, eps0=1), "k=1"),
        (dict(name="krr", k=3, eps0=-1), "eps0=-1"),
        (dict(name="bmg", gamma=0, sigma0=1), "gamma=0"),
        (dict(name="bmg", gamma=1.5, sigma0=1), "gamma=1.5"),
        (dict(name="bmg", gamma=0.5, sigma0=0), "sigma0=0"),
        (dict(name="gaussian-local", sigma0=-2), "sigma0=-2"),
        (dict(name="privunit", p=0.5, theta=1.5, d=3), "theta=1.5"),
        (dict(name="privunit", p=0.5, theta=0.1, d=0), "d=0"),
        (dict(name="nonsense"), "name='nonsense'"),
        (dict(name="finite", matrix=[[0.5, 0.6], [0.5, 0.5]]), "sums to"),
        (dict(name="finite", matrix=[[-0.1, 1.1], [0.5, 0.5]]), "negative"),
        (dict(name="finite", matrix=[[float("nan"), 1.0], [0.5, 0.5]]), "nan"),
    ],
)
def test_bad_input_names_parameter(kwargs, param):
    name = kwargs.pop("name")
    with pytest.raises(ValueError, match=param.replace("[", r"\[").replace("(", r"\(")):
        make(name, **kwargs)


def test_joint_shuffle_indices_match_enumeration():
    comps = [make("krr", k=3, eps0=1), make("rr", eps0=sp.Rational(1, 2))]
    j = joint(comps)
    full = j.to_finite()
    # closed forms of different shapes: compare at 40 digits
    assert sp.N(j.chi_lo() - full.chi_lo("zero-out").value, 40) == pytest.approx(0, abs=1e-30)
    assert sp.N(j.chi_up() - full.chi_up("zero-out").value, 40) == pytest.approx(0, abs=1e-30)
