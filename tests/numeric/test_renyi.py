"""Certified Rényi DP from the dominating pair: above exact Rényi divergences of concrete pairs,
finite and non-decreasing in the order, exact for the Gaussian, additive over compositions, and
exported to dp_accounting's RdpAccountant and as an Opacus-style list."""

import math

import mpmath as mp
import pytest
from dp_accounting import dp_event as de

import shufflekit as sk
from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.composition.renyi import monotone, shuffle_gaussian_rdp

ORDERS = [1.5, 2, 4, 8, 16]


def renyi(p, q, lam):
    """D_lambda(p||q) of two explicit laws at 40 digits (terms with p = 0 vanish)."""
    with mp.workdps(40):
        s = mp.fsum(
            mp.mpf(a) ** lam * mp.mpf(b) ** (1 - lam) for a, b in zip(p, q, strict=True) if a > 0
        )
        return float(mp.log(s) / (lam - 1))


def test_local_rr_is_nearly_exact():
    """n = 1: the shuffled output is the local report; eps0 = 1 is on the grid, so the hull's
    vertices are the two atoms and the bound is the exact RDP up to the profile's enclosure
    widths (relative ~1e-11 measured at order 16; 1e-9 allowed)."""
    p = math.e / (1 + math.e)
    rdp = sk.accountant(sk.make("rr", eps0=1), 1).get_rdp(ORDERS)
    for lam, v in zip(ORDERS, rdp, strict=True):
        exact = renyi([p, 1 - p], [1 - p, p], lam)
        assert exact <= v <= exact * (1 + 1e-9) + 1e-15


@pytest.mark.parametrize("n", [20, 300])
def test_above_the_exact_boundary_pair_and_non_decreasing(n):
    """The binary-RR boundary pair (Shvets 2026, Lemma 4.1) is one neighbouring pair: its exact
    Rényi divergences, both orders, are below the certified bound, which is finite and
    non-decreasing in the order."""
    from shufflekit.numeric.methods.histogram import binary_pair

    keep = math.e / (1 + math.e)
    pair = binary_pair(1 - keep, keep, n)
    rdp = sk.accountant(sk.make("rr", eps0=1), n).get_rdp(ORDERS)
    assert all(math.isfinite(v) for v in rdp)
    assert all(a <= b for a, b in zip(rdp, list(rdp)[1:], strict=False))
    for lam, v in zip(ORDERS, rdp, strict=True):
        lower = max(renyi(pair.p, pair.q, lam), renyi(pair.q, pair.p, lam))
        assert lower <= v
        assert v <= 3 * lower  # useful: within 3x of a true divergence (measured 1.01-1.46)


def test_the_done_when_orders():
    rdp = sk.accountant(sk.make("krr", k=10, eps0=4), n=1000).get_rdp([2, 4, 8, 16])
    assert all(math.isfinite(v) and v > 0 for v in rdp)
    assert list(rdp) == sorted(rdp)


def test_the_central_gaussian_is_exact():
    rdp = sk.accountant(sk.CentralGaussian(2.0), 4).get_rdp([2, 10])
    # mu = 1/(sigma sqrt(n)) = 1/4: lambda mu^2 / 2
    assert list(rdp) == [pytest.approx(2 / 32, rel=1e-15), pytest.approx(10 / 32, rel=1e-15)]
    assert rdp.kind is sk.Kind.EXACT


def test_compositions_add_and_export():
    rr = sk.make("rr", eps0=1)
    one = sk.accountant(rr, 100).get_rdp([2, 4])
    acc = sk.ShuffleAccountant().compose(sk.Round(rr, 100), count=3)
    acc.compose(de.GaussianDpEvent(4.0), count=2)  # replace-one: mu = 2/z = 1/2 per step
    got = acc.get_rdp([2, 4])
    for lam, a, b in zip([2, 4], one, got, strict=True):
        assert b == pytest.approx(3 * a + 2 * lam * 0.25 / 2, rel=1e-14) and b >= 3 * a
    # dp_accounting: the RdpAccountant holds the values and composes further events
    ra = got.to_rdp_accountant()
    e0 = ra.get_epsilon(1e-6)
    assert e0 == pytest.approx(got.epsilon(1e-6), rel=1e-12)
    ra.compose(de.GaussianDpEvent(1.0))
    assert ra.get_epsilon(1e-6) > e0
    assert list(got) == list(got.values) and len(got) == 2 and got[1] == got.values[1]
    assert got.as_dict()["rdp"] == list(got.values)


def test_refusals():
    acc = sk.accountant(sk.make("rr", eps0=1), 10)
    for bad in (1, 0.5, -2, float("nan"), []):
        with pytest.raises(InvalidParameter, match="order"):
            acc.get_rdp(bad)
    sampled = sk.ShuffleAccountant("zero-out").compose(
        de.PoissonSampledDpEvent(0.1, de.GaussianDpEvent(1.0))
    )
    with pytest.raises(CannotCertify):
        sampled.get_rdp([2])
    assert sk.ShuffleAccountant().compose(de.NonPrivateDpEvent()).get_rdp([2])[0] == math.inf
    with pytest.raises(CannotCertify, match="upper"):
        sk.accountant(sk.make("rr", eps0=1), 10, method="lower").get_rdp([2])


def test_shuffle_gaussian_formula():
    s = 1.3
    assert shuffle_gaussian_rdp(1, s, 5) == pytest.approx(5 / (2 * s * s), rel=1e-15)
    # n = 2, order 2: compositions (2,0), (0,2), (1,1): ((e^{1/s^2} + 1) / 2)
    assert shuffle_gaussian_rdp(2, s, 2) == pytest.approx(
        math.log((math.exp(1 / s**2) + 1) / 2), rel=1e-14
    )
    assert (
        shuffle_gaussian_rdp(100, s, 4)
        < shuffle_gaussian_rdp(10, s, 4)
        < shuffle_gaussian_rdp(1, s, 4)
    )


def test_monotone_repair_keeps_upper_bounds():
    assert monotone([2, 4, 8], [0.3, 0.2, 0.5]) == [0.2, 0.2, 0.5]
    assert monotone([8, 2], [0.1, 0.4]) == [0.1, 0.1]
