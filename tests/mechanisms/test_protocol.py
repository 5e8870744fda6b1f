"""Every mechanism name satisfies the one mechanism contract, through the facade."""

import json
import math

import pytest
import sympy as sp

import shufflekit as sk
from shufflekit.mechanisms import MECHANISMS

# small parameters for every name (each one builds in well under a second)
EXAMPLES = {
    "rr": dict(eps0=1),
    "krr": dict(k=10, eps0=4),
    "blh": dict(k=3, eps0=1),
    "rappor": dict(k=3, eps0=1),
    "oue": dict(k=3, eps0=1),
    "hr": dict(k=3, eps0=1),
    "joint-krr": dict(k=3, eps0=1, m=2),
    "privunit": dict(p=0.7, theta=0.2, d=3),
    "gaussian-local": dict(sigma0=2),
    "bmg": dict(gamma=0.3, sigma0=2),
    "finite": dict(matrix=[[0.7, 0.3], [0.2, 0.8]]),
    "laplace": dict(eps0=2),
    "piecewise": dict(eps0=2),
    "laplace-metric": dict(eps0=2, distance=1),
    "planar-laplace": dict(eps0=2),
    "balls-into-bins": dict(bins=8, special=2),
    "mixdump": dict(bins=4, f=0.5),
    "cheu": dict(f=0.25),
    "balcer": dict(p=0.25),
}


def test_examples_cover_every_name():
    assert set(EXAMPLES) == set(MECHANISMS) == set(sk.mechanism_names)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_contract(name):
    m = sk.make(name, **EXAMPLES[name])
    assert isinstance(m, sk.Mechanism)
    assert dict(m.params) == dict(m.params())  # read as a mapping; calling it is the same
    gamma = float(m.gamma)
    assert 0.0 <= gamma <= 1.0
    assert float(m.blanket().gamma) == pytest.approx(gamma, rel=1e-12)  # two routes, same number
    eps0 = float(m.eps0())
    assert eps0 > 0
    d = m.describe()
    json.dumps(d, allow_nan=False)  # standard JSON: no NaN / Infinity
    assert d["name"] == m.name
    law = m.gparv(0)
    if gamma > 0:
        assert law is not None
    else:
        assert law is None and d["gparv"] is None


@pytest.mark.parametrize(
    "kwargs,param",
    [
        (dict(name="krr", k=10, eps0="abc"), "eps0='abc'"),
        (dict(name="krr", k=10, eps0="inf"), "eps0='inf'"),
        (dict(name="krr", k=10, eps0="nan"), "eps0='nan'"),
        (dict(name="krr", k=10), "eps0=None"),
        (dict(name="privunit", p=1, theta=0, d=3), "p=1"),
        (dict(name="privunit", p=0, theta=0, d=3), "p=0"),
        (dict(name="bmg", gamma=0.5, sigma0="inf"), "sigma0='inf'"),
        (dict(name="joint-krr", k=3, eps0=1, m=0), "m=0"),
        (dict(name="krr", k=10**9, eps0=1), "k=1000000000"),
    ],
)
def test_bad_input_is_invalid_parameter(kwargs, param):
    name = kwargs.pop("name")
    with pytest.raises(sk.InvalidParameter, match=param.replace("(", r"\(")) as info:
        sk.make(name, **kwargs)
    assert "allowed" in str(info.value)


def test_adjacency_enum_equals_strings():
    assert sk.Adjacency.ZERO_OUT == "zero-out"
    assert sk.Adjacency.parse("replace-one") is sk.Adjacency.REPLACE_ONE
    with pytest.raises(sk.InvalidParameter, match="adjacency='swap'"):
        sk.Adjacency.parse("swap")


def test_one_symbol_per_quantity():
    from shufflekit import symbols
    from shufflekit.symbolic import bmg, privunit

    assert bmg.d is privunit.d is symbols.d
    expr = bmg.d + privunit.d
    assert expr.subs(symbols.d, 3) == 6  # one substitution reaches both modules


def test_facade_lists_public_names():
    for name in (
        "make",
        "accountant",
        "methods",
        "Bound",
        "Kind",
        "PrivacyProfile",
        "Series",
        "Derivation",
        "verify",
        "Adjacency",
        "InvalidParameter",
        "CannotCertify",
    ):
        assert getattr(sk, name) is not None
    assert not issubclass(sk.CannotCertify, ValueError)
    assert math.isclose(float(sp.sympify(sk.make("rr", eps0=1).eps0())), 1.0)
