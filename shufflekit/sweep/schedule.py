r"""Planning the order in which sweep points go to the workers (longest work first).

A grid's points differ in cost by two orders of magnitude: the blanket-style accountants are
cheap when amplification is strong and expensive in the transition where the shuffled
epsilon is just below :math:`\varepsilon_0` (on the benchmark grid one curve is 29 s of 83 s).
Sent in spec order, an expensive curve that happens to come last leaves every other worker
idle while it runs.  Dask hands queued tasks to workers as they free up, highest
priority first, so ordering the work by decreasing estimated cost is list scheduling in the
longest-processing-time order (Graham 1969): the makespan is at most
:math:`W/m + (1 - 1/m)\,p_{\max}` for total work :math:`W`, :math:`m` workers and longest
task :math:`p_{\max}`, and the cheap points that come last fill the gaps.

The estimate only orders work: a wrong estimate costs time, never a wrong number.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shufflekit.sweep.spec import Task
from shufflekit.sweep.task import curve_key

Indexed = tuple[int, Task]

#: Where the measured cost per point peaks, in log10 of the amplification ratio (see
#: :func:`log_amplification_ratio`), the width of that peak (in decades) and its height
#: relative to a point far from it.  Measured on the benchmark grid (10-RR and RAPPOR, blanket-fft,
#: eps0 in 1..8, n in 1e3..1e7): points at ratio >= 10^0.6 cost 0.05-0.3 s, points at
#: 10^-0.9..10^0.4 cost 0.4-8 s.  These numbers only decide the order of the work.
HARD_PEAK = -0.7
HARD_WIDTH = 0.8
HARD_WEIGHT = 50.0
#: The ln(1/delta) used for points whose target is an epsilon (delta(epsilon) queries).
REFERENCE_LOG_INV_DELTA = math.log(1e6)
#: A delta(epsilon) query is one evaluation; epsilon(delta) inverts by bisection (about ten).
DELTA_QUERY_SHARE = 0.1
#: A curve estimated to cost more than 1/(SPLIT_SHARE * workers) of the whole sweep is sent
#: point by point, so it can spread over several workers (each pays the set-up once).
SPLIT_SHARE = 4


def log_amplification_ratio(task: Task) -> float | None:
    r"""Log10 of the ratio :math:`n / (e^{\varepsilon_0} \ln(1/\delta))`, or ``None`` without an
    ``eps0`` parameter.

    Privacy amplification by shuffling of an :math:`\varepsilon_0`-LDP randomizer gives
    :math:`\varepsilon = O(\sqrt{e^{\varepsilon_0}\ln(1/\delta)/n})` (the order of the
    clone bound, Feldman, McMillan and Talwar 2021), so this ratio is large when
    amplification is strong and below about one when the shuffled epsilon is close to
    :math:`\varepsilon_0`.  Returned as :math:`\log_{10}` of the ratio.
    """
    params = dict(task.params)
    eps0 = params.get("eps0")
    if not isinstance(eps0, (int, float)) or isinstance(eps0, bool) or not math.isfinite(eps0):
        return None
    if task.quantity == "epsilon":
        valid = 0.0 < task.target < 1.0
        log_inv_delta = -math.log(task.target) if valid else REFERENCE_LOG_INV_DELTA
    else:
        log_inv_delta = REFERENCE_LOG_INV_DELTA
    # log10 of the ratio, computed in logs so eps0 = 1000 does not overflow
    return (math.log(task.n) - eps0 - math.log(max(log_inv_delta, 1e-300))) / math.log(10)


def point_cost(task: Task) -> float:
    r"""Estimated cost of one point, in units of a point far from the hard regime.

    .. math:: c = s\,\bigl(1 + H \exp(-((r - r_0)/w)^2)\bigr),

    :math:`r` the log10 amplification ratio (:func:`log_amplification_ratio`), :math:`r_0, w, H`
    = ``HARD_PEAK, HARD_WIDTH, HARD_WEIGHT``, :math:`s = 1` for epsilon(delta) and
    ``DELTA_QUERY_SHARE`` for delta(epsilon).  Without an ``eps0`` the cost is :math:`s`.
    """
    share = 1.0 if task.quantity == "epsilon" else DELTA_QUERY_SHARE
    r = log_amplification_ratio(task)
    if r is None:
        return share
    return share * (1.0 + HARD_WEIGHT * math.exp(-(((r - HARD_PEAK) / HARD_WIDTH) ** 2)))


def batch_cost(batch: Sequence[Indexed]) -> float:
    """Estimated cost of a batch: the sum over its points."""
    return sum(point_cost(t) for _, t in batch)


def plan_batches(todo: Sequence[Indexed], workers: int) -> list[list[Indexed]]:
    """The points as batches, most expensive first, each batch one worker call.

    Points sharing an accountant (same :func:`~shufflekit.sweep.task.curve_key`) stay in one
    batch so its set-up is paid once, unless the curve is estimated to cost more than
    ``1 / (SPLIT_SHARE * workers)`` of the sweep: then each point is its own batch.  Ties
    keep the spec order.  Every point appears in exactly one batch.
    """
    curves: dict[tuple, list[Indexed]] = {}
    for index, task in todo:
        curves.setdefault(curve_key(task), []).append((index, task))
    total = sum(batch_cost(c) for c in curves.values())
    limit = total / (SPLIT_SHARE * max(1, workers))
    batches: list[list[Indexed]] = []
    for curve in curves.values():
        if len(curve) > 1 and batch_cost(curve) > limit:
            batches.extend([p] for p in curve)
        else:
            batches.append(curve)
    # stable sort: equal estimates keep the spec order (the first index of each batch)
    return sorted(batches, key=lambda b: (-batch_cost(b), b[0][0]))
