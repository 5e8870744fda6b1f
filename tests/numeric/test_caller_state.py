"""A call leaves the caller's arithmetic state as it found it, and never warns or raises
arithmetic errors: python-flint's working precision and numpy's error state are restored, and a
float fast path that leaves its error model gives the trivially valid answer with a note."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from flint import ctx

import shufflekit as sk
from shufflekit.numeric.accountant import accountant, methods
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.kernels.caller_state import certified_arithmetic


def _finite_methods():
    return [m.name for m in methods(sk.make("krr", k=3, eps0=1))]


@pytest.mark.parametrize("method", _finite_methods())
def test_every_method_keeps_the_callers_precision_and_numpy_state(method):
    mech = sk.make("krr", k=3, eps0=1)
    before_np = np.geterr()
    old = ctx.prec
    try:
        ctx.prec = 300
        np.seterr(over="warn", invalid="ignore", divide="print", under="raise")
        state = np.geterr()
        acc = accountant(mech, 50, method=method)
        assert ctx.prec == 300 and np.geterr() == state
        acc.get_delta(0.5)
        assert ctx.prec == 300 and np.geterr() == state
        acc.get_epsilon(1e-3)
        assert ctx.prec == 300 and np.geterr() == state
    finally:
        ctx.prec = old
        np.seterr(**before_np)


def test_the_readme_case():
    old = ctx.prec
    try:
        ctx.prec = 300
        sk.accountant(sk.make("krr", k=10, eps0=4), n=1000).get_delta(0.5)
        assert ctx.prec == 300
    finally:
        ctx.prec = old


def test_state_is_restored_when_the_call_raises():
    old = ctx.prec
    try:
        ctx.prec = 77
        with pytest.raises(ValueError):
            sk.accountant(sk.make("rr", eps0=1), n=10).get_delta(-1.0)
        assert ctx.prec == 77
    finally:
        ctx.prec = old


def test_traps_are_on_inside_and_off_after():
    with certified_arithmetic():
        with pytest.raises(FloatingPointError):
            np.array([1e308]) * 10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.array([1e308]) * 10  # the caller's state again: no exception


@pytest.mark.parametrize("kind, lo, hi", [(Kind.UPPER, 0.0, 1.0), (Kind.LOWER, 0.0, 0.0)])
def test_a_fast_path_leaving_its_error_model_gives_the_trivial_answer(kind, lo, hi):
    from shufflekit.numeric.accountant import Accountant

    class Overflowing(Accountant):
        method, adjacency, n, mechanism, eps_max = "overflowing", "replace-one", 10, None, 2.0

        def get_delta(self, epsilon):
            return self._bound("delta", epsilon, 0.0, float(np.array([1e308]) * 10))

    Overflowing.kind = kind
    b = Overflowing().get_delta(0.5)
    assert (b.lo, b.hi) == (lo, hi) and "error model" in b.note
    e = Overflowing().get_epsilon(1e-6)
    assert e.kind is kind and "error model" in e.note
    assert e.hi == (2.0 if kind is Kind.UPPER else 0.0)


def test_compose_keeps_the_callers_state():
    before_np = np.geterr()
    old = ctx.prec
    try:
        ctx.prec = 300
        np.seterr(all="ignore")
        sk.compose(sk.make("rr", eps0=1), 20, rounds=2, deltas=[1e-3])
        assert ctx.prec == 300 and np.geterr() == {
            "divide": "ignore",
            "over": "ignore",
            "under": "ignore",
            "invalid": "ignore",
        }
    finally:
        ctx.prec = old
        np.seterr(**before_np)
