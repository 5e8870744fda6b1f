"""The lattice engine's cell spreads (numeric/kernels/ratio_lattice.py): exact mass and mean,
atoms that bracket the cell, the triangle of a convex arc, and the margins they rest on."""

from __future__ import annotations

import math

import pytest
from flint import arb, ctx

from shufflekit.errors import CannotCertify
from shufflekit.numeric.kernels import ratio_lattice as R


def arc_cell(a0: float, a1: float, k: float = 4.0):
    """A cell of the arc alpha * beta = k, alpha from a0 to a1, with the uniform law on alpha:
    P = 1, A = (a0 + a1)/2, B = k log(a1/a0)/(a1 - a0) (exact in Arb)."""
    A = (arb(a0) + arb(a1)) / 2
    B = arb(k) * (arb(a1) / arb(a0)).log() / (arb(a1) - arb(a0))
    e0 = (arb(a0), arb(k) / arb(a0))
    e1 = (arb(a1), arb(k) / arb(a1))
    hull_a = (a0, a1)
    hull_b = (
        min(R.float_down(e0[1]), R.float_down(e1[1])),
        max(R.float_up(e0[1]), R.float_up(e1[1])),
    )
    return arb(1), A, B, hull_a, hull_b, e0, e1


def test_alpha_segment_keeps_mass_and_mean():
    with ctx.workprec(R.PREC):
        P, A = arb(3) / 10, arb(3) / 10 * arb("1.7")
        atoms = R.spread_cell("alpha", P, A, A, (1.5, 2.0), (1.0, 1.0), None, None)
        mass = sum((w for _, _, w in atoms), arb(0))
        mean = sum((arb(a) * w for a, _, w in atoms), arb(0))
        assert abs(mass - P) < arb(2) ** -200 and abs(mean - A) < arb(2) ** -200
        (a1, b1, w1), (a2, b2, w2) = atoms
        assert a1 < 1.5 and a2 > 2.0 and b1 < 1.0  # strictly outside: the margins
        assert w1 > 0 and w2 > 0


def test_convex_arc_triangle_reproduces_the_moments():
    with ctx.workprec(R.PREC):
        P, A, B, ha, hb, e0, e1 = arc_cell(1.0, 3.0)
        atoms = R.spread_cell("convex", P, A, B, ha, hb, e0, e1)
        assert len(atoms) == 3 and all(w > 0 for _, _, w in atoms)
        for k, target in ((0, A), (1, B)):
            got = sum((arb(at[k]) * at[2] for at in atoms), arb(0))
            assert abs(got - target) < arb(2) ** -200
        # G = alpha - E beta: the spread's E[G_+] is at least the arc's for every E
        for E in (1.0, 1.5, 3.0):
            spread = sum(max(a - E * b, 0.0) * float(w.mid()) for a, b, w in atoms)
            xs = [1.0 + 2.0 * (i + 0.5) / 4000 for i in range(4000)]
            arc = sum(max(x - E * 4.0 / x, 0.0) for x in xs) / 4000
            # midpoint rule on a convex integrand, 4000 points: error below 1e-6
            assert spread >= arc - 1e-6


def test_concave_shape_on_a_convex_arc_is_refused():
    """The triangle must contain the arc: the wrong corner leaves the arc's chord side empty
    and the barycentric weights negative, which the end-point check or the weights expose."""
    with ctx.workprec(R.PREC):
        P, A, B, ha, hb, e0, e1 = arc_cell(1.0, 3.0)
        try:
            atoms = R.spread_cell("concave", P, A, B, ha, hb, e0, e1)
        except CannotCertify:
            return
        assert any(not (w > 0) for _, _, w in atoms)


def test_without_margins_the_end_point_check_fails(monkeypatch):
    """Dropping the margin puts the arc's end points on the float triangle's edges, where the
    Arb check cannot prove them inside."""
    monkeypatch.setattr(R, "MARGIN", 0.0)
    with ctx.workprec(R.PREC):
        P, A, B, ha, hb, e0, e1 = arc_cell(1.0, 3.0, k=math.pi)
        with pytest.raises(CannotCertify):
            R.spread_cell("convex", P, A, B, ha, hb, e0, e1)


def test_opposite_monotonicity_is_required():
    with ctx.workprec(R.PREC):
        e0, e1 = (arb(1), arb(1)), (arb(2), arb(2))
        with pytest.raises(CannotCertify):
            R.spread_cell("convex", arb(1), arb("1.5"), arb("1.5"), (1, 2), (1, 2), e0, e1)
