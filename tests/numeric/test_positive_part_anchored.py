"""The anchored inner level of the exact blanket sum (rows derived by Pascal's rule from one
tabulated row in every ``ANCHOR_SPAN``): sound everywhere, as tight as full tables at large n."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.mechanisms import make
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.numeric.kernels import positive_part as pp
from shufflekit.numeric.kernels.brute_force import multinomial_positive_part
from shufflekit.numeric.kernels.gparv_law import ratio_laws
from shufflekit.numeric.methods.blanket import blanket_delta_exact, law_enclosure
from shufflekit.verify.strategies import probability_rows


@contextmanager
def anchoring(threshold: int = 1):
    """Inner levels with at least ``threshold`` distinct rows use anchors (production: 256)."""
    saved = pp.ANCHOR_MIN_ROWS
    pp.ANCHOR_MIN_ROWS = threshold
    pp._ROWS.clear()
    try:
        yield
    finally:
        pp.ANCHOR_MIN_ROWS = saved
        pp._ROWS.clear()


@given(
    rows=probability_rows(n_inputs=st.integers(2, 3), n_outputs=st.integers(2, 4)),
    n=st.integers(1, 7),
    eps=st.floats(0.0, 2.0),
)
@settings(max_examples=60, deadline=None)
def test_anchored_enclosure_contains_enumeration(rows, n, eps):
    """Soundness where anchoring is hardest (whole-row windows, rows of 0..n users): the
    enclosure contains the enumerated expectation.  1e-12: float noise of the reference, a
    plain sum of at most a few thousand terms."""
    mech = FiniteMechanism.from_matrix(rows)
    for law in ratio_laws(mech):
        g, q, mg = law.gparv(eps)
        ref = multinomial_positive_part(np.append(g, 0.0), np.append(q, law.zero_mass), n)
        with anchoring():
            v, err = blanket_delta_exact(g, q, n, zero_mass=law.zero_mass, margins=mg)
        assert v - err <= ref + 1e-12
        assert ref <= v + 1e-12


@pytest.mark.parametrize(
    "name, params, n, eps",
    [
        ("krr", dict(k=10, eps0=4), 30000, 0.05),
        ("krr", dict(k=10, eps0=4), 3000, 1.0),
        ("rappor", dict(k=4, eps0=2), 3000, 0.3),
        ("oue", dict(k=4, eps0=3), 3000, 0.3),
    ],
)
def test_anchored_equals_tabulated_at_large_n(name, params, n, eps):
    """Both inner evaluations enclose the same number: their intervals overlap, and the
    anchored one is no wider than the tabulated one plus 1e-8 of the value (the walk's
    rounding allowance is ~1e-13; the rest is the anchors' slightly wider tails)."""
    mech = make(name, **params)
    out = []
    for threshold in (10**9, 1):
        with anchoring(threshold):
            out.append(
                max((law_enclosure(law, eps, n) for law in ratio_laws(mech)), key=lambda t: t[1])
            )
    (a, b), (c, d) = out
    assert a <= d and c <= b
    assert d - c <= (b - a) + 1e-8 * b


def test_walk_matches_direct_rows():
    """Pascal's rule down from row M reproduces the cumulative sums of row M - t (checked
    against rows tabulated directly; 1e-12 relative: a few dozen float steps)."""
    from flint import arb

    p = pp.Param.of(arb(0.13))
    M, t, j = 4000, 17, 520
    top = pp.binomial_row(M, p, 64, 48)
    low = pp.binomial_row(M - t, p, 64, 48)
    i = j - top.lo
    pmf, F, F2 = top.pmf[i], np.cumsum(top.pmf)[i], np.cumsum(np.cumsum(top.pmf))[i]
    wF, wF2 = pp._walk(
        np.array([pmf]),
        np.array([F]),
        np.array([F2]),
        np.array([float(M)]),
        np.array([float(j)]),
        np.array([t]),
        p,
    )
    # the direct row has its own scale and window: compare full sums in absolute units
    scale_top, scale_low = 2.0**top.E, 2.0**low.E
    direct_F = np.cumsum(low.pmf)[j - low.lo] * scale_low
    assert wF[0] * scale_top == pytest.approx(direct_F, rel=1e-12)
    direct_F2 = np.cumsum(np.cumsum(low.pmf))[j - low.lo] * scale_low
    # F2 differs by the windows' different low edges (lo(M) vs lo(M - t)): terms below
    # 2^-60 of the value, far inside 1e-12
    assert wF2[0] * scale_top == pytest.approx(direct_F2, rel=1e-12)
