"""Dominating pair: the largest finite loss of a hull law (what a composition reports as the
epsilon past which delta is 0)."""

from __future__ import annotations

import math

import pytest

from shufflekit.numeric.composition.dominating_pair import hull_pmf


def _local_rr_delta(e, eps0):
    """Exact curve of local binary RR: max(0, p - e^eps (1 - p)), p = e^eps0 / (1 + e^eps0)."""
    p = math.exp(eps0) / (1 + math.exp(eps0))
    return max(0.0, p - math.exp(e) * (1 - p))


@pytest.mark.parametrize("eps0, points", [(1.0, 40), (2.5, 90)])
def test_max_loss_is_the_last_finite_loss(eps0, points):
    grid = 2.0**-4
    pmf = hull_pmf([_local_rr_delta(i * grid, eps0) for i in range(points)], grid)
    assert pmf.offset != 0  # the mirrored indices make the support two-sided
    assert pmf.max_loss == pmf.losses[-1]  # exact: both are integer multiples of 2^-4
    # no finite mass lies beyond it: only the infinite-loss mass is left at max_loss
    assert pmf.delta(pmf.max_loss)[0] == pmf.infinity_mass
