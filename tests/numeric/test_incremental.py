"""The incremental accountant: shuffled rounds and dp_accounting events in one certified
composition, answers after any step, and the event curves against direct integration."""

import math

import mpmath as mp
import pytest
from dp_accounting import dp_event as de
from dp_accounting import privacy_accountant as pa
from dp_accounting.pld import pld_privacy_accountant as pld_acc
from flint import arb, ctx

import shufflekit as sk
from shufflekit.errors import InvalidParameter
from shufflekit.numeric.bound import interval_of_arb
from shufflekit.numeric.composition import dp_events as E
from shufflekit.numeric.composition.fixed import composed_accountant
from shufflekit.numeric.composition.incremental import ShuffleAccountant, relation
from shufflekit.numeric.methods.gaussian import gdp_epsilon

RR = sk.make("rr", eps0=1)
#: a coarse loss grid keeps the shuffled rounds cheap (64 profile points up to eps0 = 1)
G = 2.0**-6


# ------------------------------------------------------------------ the event curves
def integral(p, q, eps, lo=-40.0, hi=40.0, breaks=()):
    """H_alpha(P||Q) = int (p - alpha q)_+ by mpmath quadrature (50 digits), split at every
    crossing of p and alpha q (located on a grid, then by bisection) so each piece is smooth."""
    with mp.workdps(50):
        alpha = mp.exp(mp.mpf(eps))
        g = lambda x: p(x) - alpha * q(x)  # noqa: E731
        xs = [mp.mpf(lo) + (mp.mpf(hi) - lo) * i / 1600 for i in range(1601)]
        cuts = []
        gs = [g(x) for x in xs]
        for a, b, ga, gb in zip(xs, xs[1:], gs, gs[1:], strict=False):
            if ga == 0:
                cuts.append(a)
            elif ga * gb < 0:
                cuts.append(mp.findroot(g, (a, b), solver="bisect", tol=1e-45))
        pts = sorted({mp.mpf(lo), *map(mp.mpf, breaks), *cuts, mp.mpf(hi)})
        pieces = zip(pts, pts[1:], strict=False)
        return mp.fsum(mp.quad(lambda x: max(g(x), 0), [a, b]) for a, b in pieces)


def normal(m, s=1):
    return lambda x: mp.npdf(x, m, s)


def laplace(m, b=1):
    return lambda x: mp.exp(-abs(x - m) / b) / (2 * b)


def ball(acc, e):
    """The curve's Arb ball at e as an outward float interval, and its radius."""
    with ctx.workprec(128):
        b = acc.curve(e)
    lo, hi = interval_of_arb(b)
    return mp.mpf(lo), mp.mpf(hi), float(b.rad())


@pytest.mark.parametrize("direction", ["forward", "reverse"])
@pytest.mark.parametrize("kind, scale, q", [("gaussian", 1.5, 0.2), ("laplace", 0.8, 0.3)])
@pytest.mark.parametrize("eps", [0.0, 0.05, 0.4, 1.1])
def test_zero_out_subsampled_curves_equal_the_integral(kind, scale, q, direction, eps):
    """The closed forms of both orders of qP + (1-q)Q against Q enclose the integral of the
    mixture's densities (the proof in the module docstring, checked at 50 digits)."""
    acc = E.NoiseCurveAccountant(E.NoiseEvent(kind, scale, q), "zero-out", direction)
    P = normal(1, scale) if kind == "gaussian" else laplace(1, scale)
    Q = normal(0, scale) if kind == "gaussian" else laplace(0, scale)
    qq = mp.mpf(q)  # 1 - q in mpmath: the float 1 - q would unbalance the mixture
    mix = lambda x: qq * P(x) + (1 - qq) * Q(x)  # noqa: E731
    a, b = (mix, Q) if direction == "forward" else (Q, mix)
    exact = integral(a, b, eps, breaks=(0, 1))
    lo, hi, rad = ball(acc, eps)
    # the quadrature is good to ~1e-40 absolute; the ball (rounded outward) is the certificate
    assert lo - 1e-35 <= exact <= hi + 1e-35
    assert rad <= 1e-14 * float(exact) + 1e-300


@pytest.mark.parametrize("q", [1.0, 0.25])
@pytest.mark.parametrize("eps", [0.0, 0.3, 2.0])
def test_replace_one_gaussian_curves_equal_the_integral(q, eps):
    """replace-one: the record's contribution moves from -1 to +1 (dp_accounting's pair)."""
    z = 1.3
    acc = E.NoiseCurveAccountant(E.NoiseEvent("gaussian", z, q), "replace-one")
    qq = mp.mpf(q)
    A = lambda x: qq * mp.npdf(x, -1, z) + (1 - qq) * mp.npdf(x, 0, z)  # noqa: E731
    B = lambda x: qq * mp.npdf(x, 1, z) + (1 - qq) * mp.npdf(x, 0, z)  # noqa: E731
    exact = integral(A, B, eps, breaks=(-1, 0, 1))
    lo, hi, _ = ball(acc, eps)
    assert lo - 1e-35 <= exact <= hi + 1e-35


def test_laplace_needs_zero_out_and_a_positive_scale():
    with pytest.raises(InvalidParameter, match="zero-out"):
        E.NoiseCurveAccountant(E.NoiseEvent("laplace", 1.0), "replace-one")
    with pytest.raises(InvalidParameter, match="noise scale"):
        E.NoiseCurveAccountant(E.NoiseEvent("gaussian", 0.0), "zero-out")


def test_subsampled_add_order_is_zero_beyond_minus_log_one_minus_q():
    acc = E.NoiseCurveAccountant(E.NoiseEvent("gaussian", 1.0, 0.5), "zero-out", "reverse")
    assert acc.eps_max == pytest.approx(math.log(2), rel=1e-11)
    assert acc.get_delta(0.7).hi == 0.0
    assert acc.get_delta(0.69).hi > 0.0
    with ctx.workprec(128):  # the ball straddling c = 0 gives [0, value at the top of c]
        v = E.subsampled_add(lambda a: arb(1), arb(2) + arb(0, 1e-20), arb(0.5))
    assert v.lower() <= 0 <= v.upper() and v.upper() < 1e-19


# ------------------------------------------------------------- against dp_accounting
SLOW = pytest.mark.slow  # a few seconds each (dp_accounting's grid is 1e-4)
EVENTS = [
    pytest.param("zero-out", de.GaussianDpEvent(2.0), marks=SLOW),
    ("zero-out", de.PoissonSampledDpEvent(0.1, de.GaussianDpEvent(1.0))),
    ("zero-out", de.LaplaceDpEvent(2.0)),
    ("zero-out", de.PoissonSampledDpEvent(0.2, de.LaplaceDpEvent(1.0))),
    pytest.param("replace-one", de.GaussianDpEvent(2.0), marks=SLOW),
    pytest.param("replace-one", de.PoissonSampledDpEvent(0.1, de.GaussianDpEvent(1.0)), marks=SLOW),
]
REL = {
    "zero-out": pa.NeighboringRelation.REPLACE_SPECIAL,
    "replace-one": pa.NeighboringRelation.REPLACE_ONE,
}


@pytest.mark.parametrize("adjacency, event", EVENTS)
def test_events_agree_with_dp_accounting(adjacency, event):
    """Ten repetitions: our certified epsilon is at most 1e-4 (relative) from dp_accounting's
    PLD accountant at its default grid 1e-4 (ours is 2^-10, connect-the-dots on both sides;
    measured differences are below 6e-5)."""
    ours = ShuffleAccountant(adjacency).compose(event, count=10).get_epsilon(1e-6)
    theirs = pld_acc.PLDAccountant(REL[adjacency])
    theirs.compose(event, 10)
    ref = theirs.get_epsilon(1e-6)
    assert ours.kind is sk.Kind.UPPER
    assert abs(float(ours) - ref) <= 1e-4 * ref


def test_gaussian_events_are_above_the_exact_gdp_epsilon():
    """T Gaussian steps of noise z under zero-out are exactly sqrt(T)/z-GDP: the certified
    epsilon is above it and within one grid step (the connect-the-dots discretisation)."""
    acc = ShuffleAccountant("zero-out").compose(de.GaussianDpEvent(3.0), count=9)
    for d in (1e-3, 1e-8):
        exact = gdp_epsilon(1.0, d)
        assert exact <= acc.get_epsilon(d).hi <= exact + acc.grid


# ----------------------------------------------------------- incremental composition
def test_steps_equal_the_one_shot_composition():
    """Three rounds composed one by one, or as count=3, equal sk.compose's three rounds within
    the round-off budgets."""
    one = composed_accountant(RR, 100, 3, grid=G)
    a = ShuffleAccountant(grid=G)
    for _ in range(3):
        a.compose(sk.Round(RR, 100))
    b = ShuffleAccountant(grid=G).compose(sk.Round(RR, 100), count=3)
    c = ShuffleAccountant(grid=G).compose({"name": "rr", "eps0": 1, "n": 100, "rounds": 3})
    for e in (0.0, 0.5, 1.5):
        ref = one.get_delta(e)
        for acc in (a, b, c):
            got = acc.get_delta(e)
            assert abs(got.hi - ref.hi) <= got.width + ref.width + 1e-15
    assert a.rounds == b.rounds == c.rounds == 3


def test_order_of_events_does_not_matter():
    ev = de.PoissonSampledDpEvent(0.3, de.GaussianDpEvent(1.0))
    r = sk.Round(RR, 50, adjacency="zero-out")
    a = ShuffleAccountant("zero-out", grid=G).compose(r).compose(ev)
    b = ShuffleAccountant("zero-out", grid=G).compose(ev).compose(r)
    for e in (0.2, 1.0, 2.5):
        x, y = a.get_delta(e), b.get_delta(e)
        assert abs(x.hi - y.hi) <= x.width + y.width + 1e-14


def test_answers_grow_with_every_step_and_mix_rounds_and_gaussians():
    acc = ShuffleAccountant(grid=G)
    eps = [acc.get_epsilon(1e-6).hi]
    acc.compose(sk.Round(RR, 200), count=5)
    eps.append(acc.get_epsilon(target_delta=1e-6).hi)
    acc.compose(de.GaussianDpEvent(noise_multiplier=10.0))
    eps.append(acc.get_epsilon(target_delta=1e-6).hi)
    assert eps[0] == 0.0 and eps[0] < eps[1] < eps[2]
    assert float(acc.get_epsilon(target_delta=1e-6)) == acc.get_epsilon(1e-6).hi
    assert acc.get_delta(target_epsilon=eps[2]).hi <= 1e-6
    assert [e["name"] for e in acc.mechanism["events"]] == ["round", "GaussianDpEvent"]
    assert "round x5" in repr(acc) and "GaussianDpEvent x1" in repr(acc)


def test_a_subsampled_zero_out_event_keeps_two_directed_laws():
    """The larger of the forward and reverse curves is reported; each alone is below it."""
    acc = ShuffleAccountant("zero-out").compose(
        de.PoissonSampledDpEvent(0.05, de.GaussianDpEvent(0.8)), count=20
    )
    fwd, rev = acc.laws
    for e in (0.05, 0.3, 1.0):
        b = acc.get_delta(e)
        assert b.hi == max(fwd.delta(e)[2], rev.delta(e)[2])
        assert fwd.delta(e)[2] != rev.delta(e)[2]


def test_composite_events():
    g = de.GaussianDpEvent(4.0)
    nested = de.ComposedDpEvent([de.SelfComposedDpEvent(g, 3), de.NoOpDpEvent(), g])
    a = ShuffleAccountant("zero-out").compose(nested, count=2)
    b = ShuffleAccountant("zero-out").compose(g, count=8)
    assert a.rounds == b.rounds == 8
    # the same laws convolved in another order: equal within the inversion's tolerance (1e-9)
    assert a.get_epsilon(1e-5).hi == pytest.approx(b.get_epsilon(1e-5).hi, rel=3e-9)
    assert ShuffleAccountant().compose(de.PoissonSampledDpEvent(0.0, g)).rounds == 0
    off = ShuffleAccountant().compose(g).compose(de.NonPrivateDpEvent())
    assert off.get_epsilon(1e-6).hi == math.inf and off.get_delta(3.0).hi == 1.0
    assert ShuffleAccountant().compose(de.GaussianDpEvent(0.0)).non_private


def test_an_accountant_is_one_round():
    acc = sk.accountant(RR, 100)
    a = ShuffleAccountant(grid=G).compose(acc, count=2)
    b = ShuffleAccountant(grid=G).compose(sk.Round(RR, 100), count=2)
    assert a.get_delta(0.5).hi == pytest.approx(b.get_delta(0.5).hi, rel=1e-12)
    with pytest.raises(InvalidParameter, match="upper"):
        ShuffleAccountant(grid=G).compose(sk.accountant(RR, 100, method="lower"))


def test_refusals_leave_the_accountant_as_it_was():
    acc = ShuffleAccountant(grid=G).compose(sk.Round(RR, 100))
    before = acc.get_delta(0.5).hi
    for bad in (
        de.RandomizedResponseDpEvent(0.5, 3),
        de.PoissonSampledDpEvent(0.5, de.RandomizedResponseDpEvent(0.5, 3)),
        de.ComposedDpEvent([de.GaussianDpEvent(1.0), de.UnsupportedDpEvent()]),
        de.LaplaceDpEvent(1.0),  # replace-one
        sk.Round(RR, 100, adjacency="zero-out"),
        {"name": "rr", "eps0": 1, "n": 10, "bogus": 1},
        "gaussian",
    ):
        assert not acc.supports(bad)
        with pytest.raises(InvalidParameter):
            acc.compose(bad)
    assert acc.get_delta(0.5).hi == before and acc.rounds == 1
    assert acc.supports(de.GaussianDpEvent(1.0))
    with pytest.raises(InvalidParameter, match="count"):
        acc.compose(sk.Round(RR, 100), count=-1)


def test_relations_by_enum_string_and_dp_accounting_name():
    assert relation(sk.Adjacency.ZERO_OUT) == "zero-out"
    assert relation("replace-one") == "replace-one"
    assert relation(pa.NeighboringRelation.REPLACE_SPECIAL) == "zero-out"
    assert relation(pa.NeighboringRelation.REPLACE_ONE) == "replace-one"
    with pytest.raises(InvalidParameter, match="REPLACE_SPECIAL"):
        relation(pa.NeighboringRelation.ADD_OR_REMOVE_ONE)
    with pytest.raises(InvalidParameter):
        relation("add-remove")
    acc = ShuffleAccountant(sk.Adjacency.ZERO_OUT, grid=G).compose(
        sk.Round(RR, 100, adjacency=sk.Adjacency.ZERO_OUT)
    )
    assert acc.adjacency == "zero-out" and type(acc.adjacency) is str


def test_the_adjacency_enum_is_accepted_beside_its_strings():
    a = sk.accountant(RR, 100, adjacency=sk.Adjacency.ZERO_OUT)
    b = sk.accountant(RR, 100, adjacency="zero-out")
    assert a.get_delta(0.5).hi == b.get_delta(0.5).hi
    assert type(a.adjacency) is str and a.get_delta(0.5).adjacency == "zero-out"
    p = sk.compose(RR, 100, 2, adjacency=sk.Adjacency.ZERO_OUT, deltas=[1e-6], grid=G)
    q = sk.compose(RR, 100, 2, adjacency="zero-out", deltas=[1e-6], grid=G)
    assert p.bounds[0].hi == q.bounds[0].hi and p.adjacency == "zero-out"


def test_nothing_composed_is_private():
    acc = ShuffleAccountant()
    assert acc.get_delta(0.0).hi == 0.0 and acc.get_epsilon(1e-9).hi == 0.0
    assert acc.laws == () and acc.eps_max == 0.0


def test_dominating_pairs_are_cached_across_calls():
    from shufflekit.numeric.composition import dominating_pair as D

    D.clear_cache()
    calls = []
    real = D.dominating_pair

    def counting(acc, **kw):
        calls.append(acc.method)
        return real(acc, **kw)

    D_dp = D.dominating_pair
    try:
        D.dominating_pair = counting
        ShuffleAccountant(grid=G).compose(sk.Round(RR, 60), count=2)
        ShuffleAccountant(grid=G).compose(sk.Round(sk.make("rr", eps0=1), 60))
        composed_accountant(RR, 60, 4, grid=G)
        ShuffleAccountant(grid=G).compose(sk.Round(RR, 61))
    finally:
        D.dominating_pair = D_dp
    assert calls == ["blanket", "blanket"]  # n = 60 once, n = 61 once
    for pair in D._CACHE.values():  # shared by every later composition: read-only
        assert not pair.pmf.probs.flags.writeable


def test_a_subsampled_round_is_replace_one_only():
    r = sk.Round(RR, 100, sampling_rate=0.5)
    acc = ShuffleAccountant(grid=G).compose(r)
    full = ShuffleAccountant(grid=G).compose(sk.Round(RR, 100))
    assert acc.get_delta(0.3).hi < full.get_delta(0.3).hi
    with pytest.raises(InvalidParameter, match="replace-one"):
        ShuffleAccountant("zero-out", grid=G).compose(r)
