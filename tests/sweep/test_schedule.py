"""Planning the order of sweep work: cost estimates and batches, most expensive first."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from shufflekit.sweep import parse_spec
from shufflekit.sweep.schedule import (
    DELTA_QUERY_SHARE,
    SPLIT_SHARE,
    batch_cost,
    log_amplification_ratio,
    plan_batches,
    point_cost,
)
from shufflekit.sweep.spec import Task
from shufflekit.sweep.task import curve_key

#: The benchmark grid (benchmarks/bench_sweep.py): 200 points.
BENCH = {
    "grid": [
        {
            "mechanism": m,
            "k": k,
            "eps0": [1.0, 2.0, 4.0, 8.0],
            "n": {"logspace": [3, 7, 5]},
            "delta": {"geomspace": [1e-6, 1e-12, 5]},
            "method": "blanket-fft",
        }
        for m, k in (("krr", 10), ("rappor", 4))
    ]
}


def task(n=10_000, eps0=8.0, delta=1e-6, mechanism="krr", quantity="epsilon", params=None):
    params = params if params is not None else (("eps0", eps0), ("k", 10))
    return Task(mechanism, params, n, "blanket-fft", None, quantity, delta)


def indexed(data):
    return list(enumerate(parse_spec(data).tasks))


def test_log_amplification_ratio_is_the_formula():
    # log10(n / (e^eps0 ln(1/delta))) at n = 1e4, eps0 = 8, delta = 1e-6
    expected = math.log10(1e4 / (math.exp(8.0) * math.log(1e6)))
    assert math.isclose(log_amplification_ratio(task()), expected, rel_tol=1e-12)  # rounding only
    assert log_amplification_ratio(task(params=(("sigma", 1.0),))) is None


def test_transition_points_cost_more_than_strongly_amplified_ones():
    # measured: krr eps0 = 8, n = 1e4 costs 3-8 s a point; eps0 = 1, n = 1e7 about 0.05 s
    assert point_cost(task(n=10_000, eps0=8.0)) > 20 * point_cost(task(n=10_000_000, eps0=1.0))
    assert point_cost(task(n=1000, eps0=4.0)) > 10 * point_cost(task(n=100_000, eps0=4.0))


def test_cost_without_eps0_or_for_delta_queries():
    assert point_cost(task(params=(("sigma", 2.0),))) == 1.0
    assert (
        point_cost(task(params=(("sigma", 2.0),), quantity="delta", delta=0.5)) == DELTA_QUERY_SHARE
    )
    # huge eps0 or n must not overflow: the ratio is computed in logs
    for eps0, n in ((1000.0, 10), (0.0, 10**12), (50.0, 1)):
        c = point_cost(task(n=n, eps0=eps0))
        assert math.isfinite(c) and c >= 1.0


def test_plan_of_the_benchmark_grid_puts_the_expensive_curves_first():
    todo = indexed(BENCH)
    batches = plan_batches(todo, workers=2)
    assert sorted(i for b in batches for i, _ in b) == list(range(200))
    costs = [batch_cost(b) for b in batches]
    assert costs == sorted(costs, reverse=True)
    first = {(b[0][1].mechanism, dict(b[0][1].params)["eps0"], b[0][1].n) for b in batches[:16]}
    # the curves that cost 4-29 s on this machine (krr eps0 = 8 at n = 1e4 alone is 29 s of 83)
    assert {
        ("krr", 8.0, 10_000),
        ("krr", 4.0, 1000),
        ("rappor", 4.0, 1000),
        ("krr", 8.0, 100_000),
    } <= first
    # ... and every n >= 1e6 curve (0.3-1.6 s) comes after all of them
    late = [i for i, b in enumerate(batches) if b[0][1].n >= 1_000_000]
    assert min(late) >= 16
    # the largest curve is split into points so both workers can take it
    krr8 = [b for b in batches if curve_key(b[0][1]) == curve_key(task(n=10_000, eps0=8.0))]
    assert len(krr8) == 5 and all(len(b) == 1 for b in krr8)


def test_cheap_curves_stay_whole_and_one_worker_splits_less():
    todo = indexed(BENCH)
    whole = [b for b in plan_batches(todo, workers=2) if len(b) > 1]
    assert all(len({curve_key(t) for _, t in b}) == 1 for b in whole)
    assert (
        len(plan_batches(todo, workers=1))
        <= len(plan_batches(todo, workers=2))
        <= len(plan_batches(todo, workers=16))
    )


def test_ties_keep_the_spec_order():
    grid = {
        "grid": [
            {"mechanism": "gaussian-local", "sigma0": [1.0, 2.0, 3.0], "n": 100, "delta": 1e-6}
        ]
    }  # no eps0: every point has the same estimate
    batches = plan_batches(indexed(grid), workers=2)
    assert [b[0][0] for b in batches] == [0, 1, 2]


curves = st.lists(
    st.tuples(
        st.sampled_from(["krr", "rappor"]),
        st.sampled_from([0.5, 1.0, 4.0, 8.0, 12.0]),
        st.integers(1, 10**8),
        st.lists(st.floats(1e-15, 0.5), min_size=1, max_size=4),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(curves, st.integers(1, 8))
def test_plan_covers_every_point_once_in_cost_order(data, workers):
    tasks = [task(n=n, eps0=e, delta=d, mechanism=m) for m, e, n, ds in data for d in ds]
    todo = list(enumerate(tasks))
    batches = plan_batches(todo, workers)
    assert sorted(i for b in batches for i, _ in b) == list(range(len(tasks)))
    costs = [batch_cost(b) for b in batches]
    assert all(a >= b for a, b in zip(costs, costs[1:]))
    assert all(len({curve_key(t) for _, t in b}) == 1 for b in batches)
    # a batch of several points is never above the split limit (1e-12: the same sum taken in
    # another order differs by a few ulps)
    limit = sum(point_cost(t) for t in tasks) / (SPLIT_SHARE * workers)
    assert all(batch_cost(b) <= limit * (1 + 1e-12) for b in batches if len(b) > 1)
