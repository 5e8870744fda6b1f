"""Certified composition over rounds (issue 14): speed and tightness targets.

* 1000 rounds of shuffled 10-RR (eps0 = 4, n = 1e5), certified epsilon at delta = 1e-6
  (target <= 10 s, from the mechanism to the epsilon);
* binary RR (eps0 = 1, n = 1e4, T = 100): composed upper (blanket rounds) against the
  composed exact boundary-pair lower bound (target: within 5%), and the same with the exact
  boundary-pair curve as the per-round profile (the composition step alone);
* binary RR (eps0 = 1, n = 50, T = 3): composed upper against the exact-pair composition;
* the convolution step alone (1000-fold self-composition of the 10-RR round's dominating law
  by the radix-2 FFT with its proven round-off budget), to show its share of the first line.
"""

from __future__ import annotations

import math

from measure import timed

from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.composition.dominating_pair import dominating_pair, hull_pmf
from shufflekit.numeric.composition.fixed import (
    ComposedAccountant,
    composed_accountant,
    exact_pair_lower,
    self_compose,
)
from shufflekit.numeric.methods.histogram import binary_pair


def krr_thousand_rounds(T: int) -> float:
    acc = composed_accountant(make("krr", k=10, eps0=4), 100_000, T, method="blanket")
    return acc.get_epsilon(1e-6).hi


def pair_curve_upper(n: int, T: int, delta: float, grid: float = 2.0**-10) -> float:
    pair = binary_pair(1 / (1 + math.e), math.e / (1 + math.e), n)
    vals = [min(1.0, pair.delta(i * grid) * (1 + 1e-9)) for i in range(int(1 / grid) + 1)]
    acc = ComposedAccountant(
        [self_compose(hull_pmf(vals, grid), T)],
        kind=Kind.UPPER,
        method="pair-curve",
        n=n,
        mechanism={},
        rounds=T,
    )
    return acc.get_epsilon(delta).hi


def run(quick: bool) -> list[dict]:
    rows = []
    T = rounds = 100 if quick else 1000
    eps, sec, mb = timed(lambda: krr_thousand_rounds(T), memory=not quick)
    rows.append(
        {
            "benchmark": f"compose: {T} rounds of 10-RR eps0=4 n=1e5, eps(1e-6)",
            "target": "<= 10 s",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"eps <= {eps:.6f}",
            "ok": sec <= 10.0,
        }
    )

    n, T, d = 10_000, 100, 1e-6
    (up, lo), sec, mb = timed(
        lambda: (
            composed_accountant(make("rr", eps0=1), n, T, method="blanket").get_epsilon(d).hi,
            exact_pair_lower(1.0, n, T).get_epsilon(d).lo,
        ),
        memory=False,
    )
    rows.append(
        {
            "benchmark": "compose: binary RR eps0=1 n=1e4 T=100, blanket upper vs exact pair",
            "target": "upper <= 1.05 lower",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"{up:.5f} vs {lo:.5f} (+{100 * (up / lo - 1):.1f}%)",
            "ok": up <= 1.05 * lo,
        }
    )
    pc, sec, mb = timed(lambda: pair_curve_upper(n, T, d), memory=False)
    rows.append(
        {
            "benchmark": "compose: same, exact pair curve per round (composition step)",
            "target": "upper <= 1.05 lower",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"{pc:.5f} vs {lo:.5f} (+{100 * (pc / lo - 1):.2f}%)",
            "ok": lo <= pc <= 1.05 * lo,
        }
    )

    (up3, lo3), sec, mb = timed(
        lambda: (
            composed_accountant(make("rr", eps0=1), 50, 3, method="blanket").get_epsilon(d).hi,
            exact_pair_lower(1.0, 50, 3).get_epsilon(d).lo,
        ),
        memory=False,
    )
    rows.append(
        {
            "benchmark": "compose: binary RR eps0=1 n=50 T=3, upper vs exact pair",
            "target": "upper >= lower",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"{up3:.5f} vs {lo3:.5f} (+{100 * (up3 / lo3 - 1):.1f}%)",
            "ok": up3 >= lo3,
        }
    )

    law = dominating_pair(accountant(make("krr", k=10, eps0=4), 100_000, method="blanket")).pmf
    composed, sec, mb = timed(lambda: self_compose(law, rounds), memory=False)
    # ok: the budget is below 1e-3 of the delta = 1e-6 of line 1
    rows.append(
        {
            "benchmark": f"compose: convolution step alone, {rounds}-fold, radix-2 FFT",
            "target": "(share of line 1)",
            "seconds": sec,
            "peak_mb": mb,
            "result": f"{composed.probs.size} cells, round-off budget {composed.error:.2g}",
            "ok": composed.error < 1e-9,
        }
    )
    return rows
