"""The shared inversion routine and the registry, on accountants with known exact curves."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.errors import InvalidParameter, UnsupportedMethod
from shufflekit.numeric.accountant import Accountant, accountant, invert_delta, method_info, methods
from shufflekit.numeric.bound import Kind


class Curve(Accountant):
    """delta(eps) = min(1, c * exp(-a * eps)) for eps < eps_max, 0 beyond: an exact toy curve."""

    def __init__(self, kind, a=3.0, c=0.5, eps_max=math.inf, width=0.0):
        self.kind, self.a, self.c, self.eps_max, self.width = Kind(kind), a, c, eps_max, width
        self.method, self.adjacency, self.n, self.mechanism = "toy", "replace-one", 1, None
        self.calls = 0

    def exact(self, eps):
        return 0.0 if eps >= self.eps_max else min(1.0, self.c * math.exp(-self.a * eps))

    def get_delta(self, epsilon):
        self.calls += 1
        v = self.exact(epsilon)
        return self._bound("delta", epsilon, v * (1 - self.width), v * (1 + self.width))

    def eps_exact(self, delta):
        return max(0.0, math.log(self.c / delta) / self.a)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.1, 50), st.floats(1e-300, 0.9), st.floats(0.0, 0.01))
def test_upper_inversion_is_valid_and_tight(a, delta, width):
    acc = Curve("upper", a=a, c=1.0, width=width)
    b = invert_delta(acc, delta, rel_tol=1e-9)
    # the returned epsilon was evaluated: the certified hi of delta there is <= delta
    assert acc.get_delta(b.hi).hi <= delta
    truth = acc.eps_exact(delta)
    assert b.hi >= truth * (1 - 1e-12)  # an upper epsilon never below the truth
    # tight up to the bisection tolerance and the enclosure width (log(1+w)/a in epsilon)
    assert b.hi <= truth * (1 + 2e-9) + math.log1p(width) / a + 1e-15


@settings(max_examples=60, deadline=None)
@given(st.floats(0.1, 50), st.floats(1e-300, 0.9))
def test_lower_inversion_is_valid(a, delta):
    acc = Curve("lower", a=a, c=1.0)
    b = invert_delta(acc, delta)
    assert b.lo == 0.0 or acc.get_delta(b.lo).lo > delta
    assert b.lo <= acc.eps_exact(delta) * (1 + 1e-12)


def test_upper_returns_eps_max_with_a_note_when_unreachable():
    acc = Curve("upper", a=1.0, c=1.0, eps_max=2.0, width=0.0)
    acc.exact = lambda e: 0.5  # a method stuck at 0.5 below eps_max
    b = invert_delta(acc, 1e-6)
    assert b.hi == 2.0 and "trivially valid" in b.note


def test_delta_validation():
    with pytest.raises(InvalidParameter, match="delta=0"):
        invert_delta(Curve("upper"), 0.0)


def test_registry_lists_and_rejects():
    from shufflekit.mechanisms import make

    names = [m.name for m in methods()]
    assert "blanket" in names
    assert all(m.kind in Kind for m in methods())
    with pytest.raises(UnsupportedMethod, match="method='nope'"):
        method_info("nope")
    with pytest.raises(InvalidParameter, match="adjacency='sideways'"):
        accountant(make("krr", k=3, eps0=1), 10, method="blanket", adjacency="sideways")
    with pytest.raises(InvalidParameter, match="n=0"):
        accountant(make("krr", k=3, eps0=1), 0)


class Gaussianish(Curve):
    """delta(eps) = exp(-b (eps + s)^2): log-concave like the blanket curves (not log-linear)."""

    def __init__(self, b, s):
        super().__init__("upper")
        self.b, self.s = b, s

    def exact(self, eps):
        return math.exp(-self.b * (eps + self.s) ** 2)

    def eps_exact(self, delta):
        return max(0.0, math.sqrt(math.log(1 / delta) / self.b) - self.s)


@settings(max_examples=40, deadline=None)
@given(st.floats(10.0, 1e6), st.floats(0.0, 0.1), st.floats(1e-200, 1e-3))
def test_inversion_needs_few_evaluations(b, s, delta):
    """Regula falsi on log delta closes the bracket to 1e-9 in at most 16 evaluations on
    smooth curves (plain bisection from 1e-3 needs 35 or more; 3000 random curves of this
    family needed at most 14, so 16 leaves two of margin and still catches a regression to
    bisection)."""
    acc = Gaussianish(b, s)
    if acc.exact(0.0) <= delta:
        return
    bound = invert_delta(acc, delta, rel_tol=1e-9)
    assert acc.get_delta(bound.hi).hi <= delta
    assert bound.hi - bound.lo <= 1e-9 * bound.hi
    assert acc.calls <= 17  # 16 in the inversion + the one made by this test
