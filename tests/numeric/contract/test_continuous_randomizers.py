r"""The contract for the continuous randomizers (laplace, piecewise, laplace-metric,
planar-laplace) and their lattice engine, against references that do not use the engine.

* ``n = 1``: the blanket value of a pair *is* its hockey-stick divergence
  :math:`\int(R_x - e^\varepsilon R_{x'})_+` (:math:`\gamma E_\omega[G_+]`), computed here by
  ``mpmath.quad`` of the densities: the engine's bound must be at or above it, and close.
* small ``n``: the exact divergence of the *quantized* experiment (each report replaced by its
  cell, a post-processing, so at most the truth), enumerated over every dataset of the inputs
  ``x, x'`` and the blanket's own input by :mod:`shufflekit.numeric.kernels.brute_force`: every
  upper bound must be at or above it.
* get_delta non-increasing in epsilon; get_epsilon consistent with get_delta.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

import shufflekit as sk
from shufflekit.mechanisms.continuous import y
from shufflekit.numeric.kernels import brute_force as BF
from shufflekit.numeric.kernels import continuous_laws

MECHS = {
    "laplace": dict(eps0=2),
    "piecewise": dict(eps0=2),
    "laplace-metric": dict(eps0=1, distance=2),
    "planar-laplace": dict(eps0=2),
}
UPPER = ("blanket-fft", "clone", "clone-numeric")


def pair_divergence_1d(mech, epsilon: float) -> float:
    """:math:`\\int(R_x - e^\\varepsilon R_{x'})_+dy` by mpmath quadrature (30 digits)."""
    x, xp = mech.pair
    fx = sp.lambdify(y, mech.density(x), "mpmath")
    fxp = sp.lambdify(y, mech.density(xp), "mpmath")
    pts = [-mpmath.inf] + [mpmath.mpf(sp.N(b, 40)) for b in mech.breakpoints()] + [mpmath.inf]
    with mpmath.workdps(30):
        e = mpmath.exp(epsilon)
        return float(mpmath.quad(lambda t: max(fx(t) - e * fxp(t), 0), pts))


def pair_divergence_planar(mech, epsilon: float) -> float:
    r"""The planar pair's divergence in polar coordinates around :math:`x` (independent of the
    elliptic coordinates the engine uses): along the angle :math:`t` the integrand is positive
    for :math:`r < r^*(t)`, where :math:`\|y - x'\| - r` (decreasing in :math:`r`) equals
    :math:`c = \varepsilon/\varepsilon_0`: :math:`r^* = (d^2 - c^2)/(2(c - d\cos t))` when
    :math:`c > d\cos t`, else every :math:`r`."""
    from scipy import integrate

    e0, d = float(mech.eps0_rate), float(mech.distance)
    c = epsilon / e0
    E = math.exp(epsilon)

    def along(t):
        den = c - d * math.cos(t)
        top = (d * d - c * c) / (2 * den) if den > 0 else math.inf

        def f(r):
            dist2 = math.sqrt(r * r + d * d + 2 * r * d * math.cos(t))
            return (math.exp(-e0 * r) - E * math.exp(-e0 * dist2)) * r

        head = integrate.quad(f, 0, min(top, d), epsabs=1e-15, epsrel=1e-12)[0]
        if top > d:
            head += integrate.quad(f, d, top, epsabs=1e-15, epsrel=1e-12, limit=200)[0]
        return head

    t_split = math.acos(min(c / d, 1.0))
    total = sum(
        integrate.quad(along, a, b, epsabs=1e-15, epsrel=1e-12, limit=200)[0]
        for a, b in ((0, t_split), (t_split, math.pi))
    )
    return e0**2 / (2 * math.pi) * 2 * total


@pytest.mark.parametrize("name", sorted(MECHS))
def test_n1_blanket_value_brackets_the_pair_divergence(name):
    mech = sk.make(name, **MECHS[name])
    acc = sk.accountant(mech, n=1, method="blanket-fft")
    for eps in (0.0, 0.5):
        b = acc.get_delta(eps)
        ref = (
            pair_divergence_planar(mech, eps)
            if name == "planar-laplace"
            else pair_divergence_1d(mech, eps)
        )
        # quadrature to about 1e-11 relative (mpmath at 30 digits on smooth pieces, scipy's
        # adaptive quadrature at epsrel 1e-12 in the plane); the engine's law is a spread of the
        # true one, so above it, and within 1% (cells of the lattice engine)
        assert b.hi >= ref * (1 - 1e-9) - 1e-14, (name, eps, b.hi, ref)
        assert b.hi <= ref * 1.01 + 1e-12, (name, eps, b.hi, ref)


def quantized_reference(mech, n: int, epsilon: float):
    # one cell per continuous piece: the enumeration of histograms grows like (n+1)^cells
    rx, rxp, rom = continuous_laws.quantized_rows(mech, 2)
    rows = [rx, rxp]
    if getattr(mech, "blanket_input", None) is not None:
        rows.append(rom)
    P = np.array(rows)
    P = P / P.sum(axis=1, keepdims=True)  # rows are probabilities to within 2 units of round-off
    return BF.worst_over_rows(
        P, n, [epsilon], [(0, 1), (1, 0)], list(range(len(rows))), BF.gamma_k(2 * n + 2)
    )[0]


@pytest.mark.parametrize("name", ["laplace", "piecewise", "laplace-metric"])
@pytest.mark.parametrize("n", [2, 4])
def test_upper_bounds_above_the_quantized_experiment(name, n):
    mech = sk.make(name, **MECHS[name])
    for eps in (0.1, 0.6):
        ref = quantized_reference(mech, n, eps)
        for method in UPPER:
            b = sk.accountant(mech, n=n, method=method).get_delta(eps)
            # the reference rows are the quantized law to 2 units of round-off per entry: the
            # divergence of n reports moves by at most 2n(1 + e^eps) * 4u, below 1e-13
            assert b.hi >= ref.lo - 1e-13, (name, method, n, eps, b, ref)


@pytest.mark.parametrize(
    "name",
    [
        "piecewise",
        pytest.param("laplace", marks=pytest.mark.slow),
    ],
)
def test_monotone_and_inverse(name):
    mech = sk.make(name, **MECHS[name])
    acc = sk.accountant(mech, n=1000)
    assert acc.method == "blanket-fft"
    ds = [acc.get_delta(e) for e in (0.2, 0.4, 0.8)]
    assert all(a.hi >= b.hi for a, b in zip(ds, ds[1:], strict=False))
    e = acc.get_epsilon(1e-4)
    assert 0 < e.hi < float(mech.eps0())
    assert acc.get_delta(e.hi).hi <= 1e-4


@pytest.mark.slow
def test_laplace_metric_is_laplace_rescaled():
    """Metric Laplace with rate e and distance d is the Laplace mechanism with eps0 = e d on a
    segment of length d: the same amplification (the law of the ratios does not see the scale)."""
    a = sk.accountant(sk.make("laplace", eps0=2), n=500).get_delta(0.3)
    b = sk.accountant(sk.make("laplace-metric", eps0=1, distance=2), n=500).get_delta(0.3)
    assert a.hi == pytest.approx(b.hi, rel=1e-9)  # same exact law up to float rounding


def test_engine_laws_are_normalised():
    """Every epsilon-free law's weights sum to gamma and its ratios have mean one under the
    mechanism's outputs (sum of w * alpha = R_x(everything) = 1) to a few units of the margin."""
    for name, kw in MECHS.items():
        mech = sk.make(name, **kw)
        for adj in ("replace-one", "zero-out"):
            for law in continuous_laws.ratio_laws_of(mech, adj):
                assert law.gamma + law.zero == pytest.approx(1, abs=1e-14)
                # the 2^-44 margins move each atom by at most 6e-14 relative
                assert float(np.dot(law.weight, law.alpha)) == pytest.approx(1, abs=1e-12)
                assert float(np.dot(law.weight, law.beta)) == pytest.approx(1, abs=1e-12)


def test_symbolic_parameters_derive():
    e = sp.Symbol("epsilon0", positive=True)
    lap = sk.make("laplace", eps0=e)
    assert sp.simplify(lap.gamma - sp.exp(-e / 2)) == 0
    assert sp.simplify(lap.eps0() - e) == 0
    pm = sk.make("piecewise", eps0=e)
    assert sp.simplify(pm.gamma - sp.exp(-e / 2)) == 0
    assert lap.gparv(sp.Symbol("epsilon", positive=True)).as_dict()["pieces"]
    import json

    for mech in (lap, pm, sk.make("planar-laplace", eps0=e)):
        json.dumps(mech.describe(epsilon=sp.Symbol("epsilon", positive=True)))


def test_piecewise_definition_is_a_density_and_unbiased():
    """Total mass one and E[Y] = t, derived by sympy from the density (Wang et al. 2019)."""
    mech = sk.make("piecewise", eps0=sp.Rational(3, 2))
    for t in (sp.Rational(1, 3),):
        dens = mech.density(t)
        c = mech.C
        assert sp.simplify(sp.integrate(dens, (y, -c, c)) - 1) == 0
        assert sp.simplify(sp.integrate(y * dens, (y, -c, c)) - t) == 0


def test_planar_gamma_matches_quadrature():
    """gamma' (Bessel form, both half-planes) against a direct polar quadrature of c'."""
    mech = sk.make("planar-laplace", eps0=2)
    from scipy import integrate

    e0, d = 2.0, 1.0

    def cprime(t, r):  # y = c + r(cos t, sin t), foci at (+-d/2, 0)
        y1, y2 = r * math.cos(t), r * math.sin(t)
        s = math.hypot(y1 - d / 2, y2) + math.hypot(y1 + d / 2, y2)
        return e0**2 / (2 * math.pi) * math.exp(-e0 * (s + d) / 2) * r

    g = 4 * sum(
        integrate.dblquad(cprime, a, b, 0, math.pi / 2, epsabs=1e-14, epsrel=1e-12)[0]
        for a, b in ((0, d / 2), (d / 2, 4), (4, 60))
    )
    # scipy's adaptive quadrature at epsrel 1e-12 on three smooth pieces (the tail beyond
    # r = 60 is below e^-120); 1e-9 leaves room for its error estimate
    assert float(sp.N(mech.gamma)) == pytest.approx(g, rel=1e-9)


@pytest.mark.slow
def test_laplace_interior_pairs_are_below_the_extreme_pair():
    """Evidence (not a proof) for the pairs label of ``laplace``: a grid of pairs on both
    sides of the midpoint has a blanket value below that of (0, 1)."""
    from shufflekit.mechanisms.laplace import LaplaceInterval

    class Pair(LaplaceInterval):
        @property
        def pair(self):
            return self._pair

        def breakpoints(self):
            return sorted({sp.S(0), sp.S(1) / 2, sp.S(1), *self._pair})

    def value(x, xp, eps):
        m = Pair(2, 1)
        object.__setattr__(m, "_pair", (sp.nsimplify(x), sp.nsimplify(xp)))
        return sk.accountant(m, n=200, method="blanket-fft").get_delta(eps).hi

    for eps in (0.3,):
        top = value(0, 1, eps)
        for x, xp in ((0.2, 0.7), (0.4, 1.0), (0.0, 0.6)):
            assert value(x, xp, eps) <= top * (1 + 1e-9), (x, xp, eps)


def test_lower_is_refused_with_a_reason():
    mech = sk.make("laplace", eps0=2)
    assert "lower" not in [m.name for m in sk.methods(mech)]
    with pytest.raises(sk.UnsupportedMethod, match="Theorem 5"):
        sk.accountant(mech, n=10, method="lower")


def test_bound_names_the_pairs():
    b = sk.accountant(sk.make("laplace", eps0=2), n=100).get_delta(0.5)
    assert "(0, 1)" in b.pairs and "not proven" in b.pairs
    assert math.isfinite(b.hi)
