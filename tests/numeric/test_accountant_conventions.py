"""dp_accounting's conventions: keyword targets, a Bound read as its safe end, readable reprs."""

import pytest

import shufflekit as sk
from shufflekit.errors import InvalidParameter
from shufflekit.numeric.bound import Bound


@pytest.fixture(scope="module")
def acc():
    return sk.accountant(sk.make("krr", k=10, eps0=4), n=1000)


def test_keyword_targets_give_the_positional_answer(acc):
    a, b = acc.get_delta(target_epsilon=0.5), acc.get_delta(0.5)
    assert (a.lo, a.hi, a.kind) == (b.lo, b.hi, b.kind)
    assert acc.get_epsilon(target_delta=1e-6).hi == acc.get_epsilon(1e-6).hi
    assert acc.get_delta(epsilon=0.5).hi == acc.get_delta(0.5).hi


@pytest.mark.parametrize(
    "call",
    [
        lambda a: a.get_delta(),
        lambda a: a.get_delta(0.5, target_epsilon=0.5),
        lambda a: a.get_epsilon(),
    ],
)
def test_a_missing_or_doubled_target_is_bad_input(acc, call):
    with pytest.raises(InvalidParameter):
        call(acc)


@pytest.mark.parametrize("kind, safe", [("upper", 0.3), ("lower", 0.1)])
def test_float_of_a_bound_is_its_safe_end(kind, safe):
    b = Bound("delta", 1.0, 0.1, 0.3, kind, "m", "replace-one")
    assert float(b) == safe
    assert (b < 0.2) == (safe < 0.2) and (b >= safe) and (b <= safe) and not (b > safe)


def test_comparing_two_bounds_compares_their_safe_ends():
    up = Bound("delta", 1.0, 0.1, 0.3, "upper", "m", "replace-one")
    lo = Bound("delta", 1.0, 0.2, 0.4, "lower", "m", "replace-one")
    assert lo < up and up > lo


def test_reprs_say_what_the_object_is(acc):
    text = repr(acc)
    assert "method='blanket'" in text and "n=1000" in text and "krr(k=10, eps0=4)" in text
    mech = repr(sk.make("krr", k=10, eps0=4))
    assert mech == "FiniteMechanism('krr', k=10, eps0=4; 10 inputs, 10 outputs)"


def test_round_is_exported():
    from shufflekit.numeric.composition.fixed import Round

    assert sk.Round is Round
