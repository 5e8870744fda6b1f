"""The GPARV law's helpers on the cases the blanket tests do not reach: classes that agree to
12 digits but are not equal, an output no input can produce, and the absolute pad of the
numeric eps0 at small eps0."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from shufflekit import make
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.numeric.kernels.gparv_law import merge_classes, numeric_eps0


@pytest.mark.parametrize(
    "alpha, beta",
    [
        ([1.0, 1.0 + 1e-14, 2.0], [1.0, 1.0, 1.0]),  # alphas agree to 13 digits
        ([1.0, 1.0, 2.0], [3.0, 3.0 * (1 - 1e-14), 3.0]),  # betas agree to 13 digits
    ],
)
def test_classes_agreeing_to_12_digits_merge_on_the_safe_side(alpha, beta):
    out = merge_classes(np.array(alpha), np.array(beta), np.array([0.25, 0.25, 0.5]))
    assert out.shape == (2, 3)
    merged = out[np.argmin(out[:, 0])]
    # exact: the merged class keeps the largest alpha, the smallest beta, the summed weight
    assert merged[0] == max(alpha[:2]) and merged[1] == min(beta[:2]) and merged[2] == 0.5


def test_an_output_no_input_produces_does_not_make_eps0_infinite():
    mech = FiniteMechanism.from_matrix(
        [[Fraction(1, 2), Fraction(1, 2), 0], [Fraction(1, 4), Fraction(3, 4), 0]]
    )
    # the relative pad is 1e-12 (plus 1e-15 absolute): 1e-11 leaves room for both
    assert numeric_eps0(mech) == pytest.approx(math.log(2), rel=1e-11)
    assert numeric_eps0(mech) >= math.log(2)


@pytest.mark.parametrize("k, eps0", [(10, 3e-13), (10, 1e-9), (10, 1e-6), (3, 1e-6)])
def test_numeric_eps0_is_not_below_the_declared_eps0_at_small_eps0(k, eps0):
    # the float log difference loses a few 1e-16 here: only the absolute pad covers it
    assert numeric_eps0(make("krr", k=k, eps0=eps0)) >= eps0
