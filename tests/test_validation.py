"""The documented ranges of :mod:`shufflekit.validation` applied to mechanisms given as a
matrix: their local eps0 obeys the same ``(0, 100]`` as a named mechanism's parameter."""

from __future__ import annotations

import pytest
import sympy as sp

import shufflekit as sk
from shufflekit.errors import InvalidParameter
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.validation import MAX_EPS0, check_accountant_inputs


def binary(bits: int) -> FiniteMechanism:
    """Binary randomized response with likelihood ratio exactly 2^bits (eps0 = bits log 2)."""
    r = sp.Integer(2) ** bits
    return FiniteMechanism.from_matrix([[r / (r + 1), 1 / (r + 1)], [1 / (r + 1), r / (r + 1)]])


@pytest.mark.parametrize("bits", [145, 200, 400])
def test_a_matrix_beyond_the_documented_eps0_is_refused(bits):
    # 144 log 2 = 99.8 is the last power of two inside (0, 100]; 145 log 2 = 100.5 is outside
    with pytest.raises(
        InvalidParameter, match=r"eps0 \(of the matrix\)=.*allowed range \(0, 100\]"
    ):
        sk.accountant(binary(bits), 10)


@pytest.mark.parametrize("bits", [1, 60, 144])
def test_a_matrix_inside_the_documented_eps0_is_accepted(bits):
    assert bits * sp.log(2) <= MAX_EPS0
    assert check_accountant_inputs(binary(bits), 10) == 10


def test_an_unbounded_ratio_is_left_to_the_methods():
    # an output that one input never produces: no finite eps0, so no eps0 range applies
    half = sp.Rational(1, 2)
    mech = FiniteMechanism.from_matrix([[half, half], [1, 0]])
    assert check_accountant_inputs(mech, 5) == 5


def test_a_named_mechanism_keeps_its_parameter_check():
    with pytest.raises(InvalidParameter, match="eps0"):
        sk.accountant(sk.make("rr", eps0=101), 10)
