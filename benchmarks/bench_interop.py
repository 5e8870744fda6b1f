"""Composition and interoperation targets, side by side with dp_accounting, floors printed.

* one round's dominating pair (10-RR, eps0 = 4) at n = 1e4, 1e5, 1e6: built once (target
  <= 1 s), then from the cache (a second accountant of the same round);
* the composition engine alone on the same loss law, grid and tails, T = 1e3 and 1e4 rounds:
  shufflekit's certified radix-2 composition (repeated squaring, proven round-off) against
  dp_accounting's ``self_compose`` of the same law (target: within 1.5x), with the floor of one
  numpy FFT pair (forward, pointwise power, inverse) at the composed length;
* 1000 rounds from the mechanism to the epsilon, against one round's epsilon inversion
  (target: <= 3x), the round's dominating pair counted (cold) and not (cached);
* the exported round composed with ``from_gaussian_mechanism(2.0)`` at dp_accounting's defaults.
"""

from __future__ import annotations

import time

import numpy as np
from measure import timed

from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.bound import Kind
from shufflekit.numeric.composition import dominating_pair as D
from shufflekit.numeric.composition.fixed import ComposedAccountant, self_compose
from shufflekit.numeric.export.pld_export import export_round, to_dp_accounting

KRR = {"k": 10, "eps0": 4}


def pair_rows(ns) -> list[dict]:
    rows = []
    for n in ns:
        D.clear_cache()
        acc = accountant(make("krr", **KRR), n)
        key = ("bench", n)
        dp, cold, _ = timed(lambda: D.cached_dominating_pair(acc, key=key), memory=False)  # noqa: B023
        _, warm, _ = timed(lambda: D.cached_dominating_pair(acc, key=key), memory=False)  # noqa: B023
        one = acc.get_delta(0.1)
        rows.append(
            {
                "benchmark": f"dominating pair: 10-RR eps0=4 n={n:.0e}",
                "target": "<= 1 s (cached: ~0)",
                "seconds": cold,
                "peak_mb": float("nan"),
                "result": f"{dp.indices.size} profile points x {one.seconds * 1e3:.1f} ms "
                f"(floor: 1 evaluation per point); cached {warm * 1e3:.2f} ms",
                "ok": cold <= 1.0,
            }
        )
    return rows


def engine_rows(law, Ts) -> list[dict]:
    rows = []
    theirs_one = to_dp_accounting(law, law.grid)._pmf_remove
    for T in Ts:
        ours, t_ours, _ = timed(lambda: self_compose(law, T), memory=False)  # noqa: B023
        _, t_theirs, _ = timed(lambda: theirs_one.self_compose(T), memory=False)  # noqa: B023
        n_out = ours.probs.size
        x = np.zeros(1 << max(1, (n_out - 1).bit_length()))
        x[: law.probs.size] = law.probs
        t0 = time.perf_counter()
        np.fft.irfft(np.fft.rfft(x) ** T, x.size)
        floor = time.perf_counter() - t0
        rows.append(
            {
                "benchmark": f"composition engine: {T} rounds of the n=1e5 round's law",
                "target": "<= 1.5x dp_accounting",
                "seconds": t_ours,
                "peak_mb": float("nan"),
                "result": f"dp_accounting {t_theirs:.3g} s (x{t_ours / t_theirs:.2f}); "
                f"floor numpy rfft pair {floor:.3g} s; {n_out} cells, budget {ours.error:.2g}",
                "ok": t_ours <= 1.5 * t_theirs,
            }
        )
    return rows


def thousand_rows(T: int) -> list[dict]:
    acc = accountant(make("krr", **KRR), 100_000)
    b, one, _ = timed(lambda: acc.get_epsilon(1e-6), memory=False)
    D.clear_cache()

    def compose_all():
        law = D.cached_dominating_pair(acc, key=("bench-thousand",)).pmf
        c = ComposedAccountant(
            [self_compose(law, T)], kind=Kind.UPPER, method="x", n=100_000, mechanism={}, rounds=T
        )
        return c.get_epsilon(1e-6).hi

    eps, cold, _ = timed(compose_all, memory=False)
    _, warm, _ = timed(compose_all, memory=False)
    return [
        {
            "benchmark": f"{T} rounds of 10-RR n=1e5 to eps(1e-6), vs one round's inversion",
            "target": "<= 3x one inversion",
            "seconds": cold,
            "peak_mb": float("nan"),
            "result": f"one round {one:.3g} s (eps {b.hi:.4f}); {T} rounds {cold:.3g} s cold "
            f"(x{cold / one:.1f}), {warm:.3g} s with the pair cached (x{warm / one:.2f}); "
            f"eps {eps:.4f}",
            "ok": cold <= 3 * one,
        }
    ]


def export_rows() -> list[dict]:
    from dp_accounting.pld import privacy_loss_distribution as pld

    def recipe():
        r = export_round(make("krr", **KRR), 100_000)
        return r.self_compose(100).compose(pld.from_gaussian_mechanism(2.0))

    total, sec, _ = timed(recipe, memory=False)
    return [
        {
            "benchmark": "export: round at dp_accounting's 1e-4, x100, + Gaussian(2.0)",
            "target": "composes at dp_accounting's defaults",
            "seconds": sec,
            "peak_mb": float("nan"),
            "result": f"eps(1e-6) = {total.get_epsilon_for_delta(1e-6):.4f}",
            "ok": True,
        }
    ]


def run(quick: bool) -> list[dict]:
    ns = (10_000, 100_000) if quick else (10_000, 100_000, 1_000_000)
    rows = pair_rows(ns)
    law = D.dominating_pair(accountant(make("krr", **KRR), 100_000)).pmf
    rows += engine_rows(law, (1_000,) if quick else (1_000, 10_000))
    rows += thousand_rows(100 if quick else 1000)
    rows += export_rows()
    return rows
