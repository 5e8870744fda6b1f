"""Method options: each registered method names the options it accepts; any other key is an
error naming the nearest valid one, never silently ignored (it would compute the default)."""

import pytest

import shufflekit as sk
from shufflekit.errors import InvalidParameter
from shufflekit.numeric.accountant import check_options, methods


@pytest.mark.parametrize("method", [m.name for m in methods(sk.make("rr", eps0=1))])
def test_an_unknown_option_is_rejected_by_every_finite_method(method):
    with pytest.raises(InvalidParameter, match="unknown option"):
        sk.accountant(sk.make("rr", eps0=1), 10, method=method, not_an_option=1)


def test_the_nearest_option_is_named():
    with pytest.raises(InvalidParameter, match="did you mean 'rel_loss'"):
        check_options("blanket-fft", {"rel_los": 1e-3})


def test_a_declared_option_reaches_the_method():
    coarse = sk.accountant(sk.make("rr", eps0=1), 1000, method="blanket-fft", rel_loss=0.1)
    fine = sk.accountant(sk.make("rr", eps0=1), 1000, method="blanket-fft", rel_loss=1e-4)
    a, b = coarse.get_delta(0.2), fine.get_delta(0.2)
    assert a.hi >= b.lo and a.hi != b.hi  # both valid; the option changed the computation
