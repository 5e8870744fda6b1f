r"""The contract for the multi-message protocols against brute force.

For tiny ``n`` and alphabets the shuffled view (the histogram of every user's messages) is
enumerated exactly from each protocol's *definition* (rational probabilities, no reduction),
its worst case taken over every input of user 1's pair and every input of the others, and the
hockey-stick divergence summed at 40 digits.  The certified upper bound must be at or above it.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

import mpmath
import pytest

import shufflekit as sk


def add(h1, h2):
    return tuple(a + b for a, b in zip(h1, h2, strict=True))


def user_law(name: str, kw: dict, x: int) -> dict:
    """Law of one user's message histogram (a tuple of counts) from the protocol's definition."""
    out: dict = defaultdict(Fraction)
    if name == "balls-into-bins":
        d, s = kw["bins"], kw["special"]
        subsets = list(itertools.combinations(range(d), s))
        for sub in subsets:
            h = [0] * d
            h[x] += 1
            for j in sub:
                h[j] += 1
            out[tuple(h)] += Fraction(1, len(subsets))
    elif name == "mixdump":
        d, f, m = kw["bins"], Fraction(kw["f"]), kw.get("dummies", 1)
        rr = {y: (1 - f) * (y == x) + f / d for y in range(d)}
        for y, py in rr.items():
            for dums in itertools.product(range(d), repeat=m):
                h = [0] * d
                h[y] += 1
                for j in dums:
                    h[j] += 1
                out[tuple(h)] += py * Fraction(1, d**m)
    elif name == "cheu":
        d, f = kw.get("d", 2), Fraction(kw["f"])
        for flips in itertools.product((0, 1), repeat=d):
            p = Fraction(1)
            for fl in flips:
                p *= f if fl else 1 - f
            bits = tuple(int(j == x) ^ fl for j, fl in enumerate(flips))
            out[bits] += p  # the view of one coordinate: its count of ones
    elif name == "balcer":
        d, p = kw.get("bins", 2), Fraction(kw["p"])
        for coins in itertools.product((0, 1), repeat=d):
            pr = Fraction(1)
            for c in coins:
                pr *= p if c else 1 - p
            h = [c + int(j == x) for j, c in enumerate(coins)]
            out[tuple(h)] += pr
    return dict(out)


def convolve(a: dict, b: dict) -> dict:
    out: dict = defaultdict(Fraction)
    for ha, pa in a.items():
        for hb, pb in b.items():
            out[add(ha, hb)] += pa * pb
    return dict(out)


def exact_worst(name: str, kw: dict, n: int, epsilon: float) -> float:
    inputs = range(kw.get("bins", kw.get("d", 2)))
    laws = {x: user_law(name, kw, x) for x in inputs}
    best = mpmath.mpf(0)
    with mpmath.workdps(40):
        E = mpmath.exp(epsilon)
        for others in itertools.combinations_with_replacement(inputs, n - 1):
            rest = {tuple([0] * len(next(iter(laws[0])))): Fraction(1)}
            for z in others:
                rest = convolve(rest, laws[z])
            for x, xp in itertools.permutations(inputs, 2):
                P, Q = convolve(rest, laws[x]), convolve(rest, laws[xp])
                val = sum(
                    (max(mpmath.mpf(p.numerator) / p.denominator - E * Q.get(h, 0), 0))
                    for h, p in P.items()
                )
                best = max(best, val)
    return float(best)


CASES = [
    ("balls-into-bins", dict(bins=4, special=2), 3),
    ("balls-into-bins", dict(bins=3, special=1), 3),
    ("mixdump", dict(bins=3, f=Fraction(1, 2)), 3),
    ("cheu", dict(f=Fraction(1, 4), d=2), 3),
    ("cheu", dict(f=Fraction(1, 5), d=3), 2),
    ("balcer", dict(p=Fraction(1, 3), bins=2), 3),
]


@pytest.mark.parametrize("name,kw,n", CASES)
def test_upper_bound_above_the_enumerated_view(name, kw, n):
    acc = sk.accountant(sk.make(name, **kw), n=n)
    assert acc.method == "multi-blanket"
    for eps in (0.0, 0.3, 1.0):
        ref = exact_worst(name, kw, n, eps)
        b = acc.get_delta(eps)
        # the reference is summed at 40 digits from exact rationals: 1e-15 covers its rounding
        assert b.hi >= ref - 1e-15, (name, kw, n, eps, b.hi, ref)
        assert 0 <= b.lo <= b.hi <= 1


@pytest.mark.parametrize(
    "name,kw",
    [
        ("balls-into-bins", dict(bins=64, special=4)),
        ("mixdump", dict(bins=16, f=0.25)),
        ("cheu", dict(f=0.1)),
        ("balcer", dict(p=0.1)),
    ],
)
def test_amplifies_at_moderate_n(name, kw):
    acc = sk.accountant(sk.make(name, **kw), n=2000)
    ds = [acc.get_delta(e).hi for e in (0.3, 0.6, 1.2)]
    assert ds[0] >= ds[1] >= ds[2] and ds[2] < 1e-3


def test_balls_into_bins_slot_probability_is_derived():
    import sympy as sp

    d, s = sp.symbols("d s", positive=True, integer=True)
    m = sk.make("balls-into-bins", bins=d, special=s)
    assert sp.simplify(m.slot_blanket() - s * (d - s) / (d * (d - 1))) == 0


def test_eps0_meaning():
    import sympy as sp

    assert sk.make("balls-into-bins", bins=8, special=2).eps0() == sp.oo
    assert sk.make("balcer", p=0.2).eps0() == sp.oo
    assert sp.simplify(sk.make("cheu", f=sp.Rational(1, 4)).eps0() - 2 * sp.log(3)) == 0
    assert sp.simplify(sk.make("mixdump", bins=4, f=sp.Rational(1, 2)).eps0() - sp.log(5)) == 0


def test_bad_parameters():
    with pytest.raises(sk.InvalidParameter, match="special"):
        sk.make("balls-into-bins", bins=4, special=4)
    with pytest.raises(sk.InvalidParameter, match="f="):
        sk.make("cheu", f=0.5)
    with pytest.raises(sk.InvalidParameter, match="p="):
        sk.make("balcer", p=1)


def test_symbolic_parameters_describe():
    """Every member of the protocols works with symbols (item: symbolic parameters)."""
    import json

    import sympy as sp

    d, s = sp.symbols("d s", positive=True, integer=True)
    f = sp.Symbol("f", positive=True)
    for m in (
        sk.make("balls-into-bins", bins=d, special=s),
        sk.make("cheu", f=f),
        sk.make("balcer", p=f),
        sk.make("mixdump", bins=d, f=f),
    ):
        out = m.describe(epsilon=sp.Symbol("epsilon", positive=True))
        json.dumps(out)
        assert out["latex"]["eps0"]
