r"""Interoperation with Google's ``dp_accounting``: a shuffled round as a ``PrivacyLossDistribution``.

A shufflekit round (any registered accountant) becomes its certified dominating pair
(:mod:`shufflekit.numeric.composition.dominating_pair`), whose privacy loss under :math:`P` lives on the
grid :math:`k\Delta` plus an atom at :math:`+\infty` -- exactly the representation of
``dp_accounting.pld.pld_pmf`` (loss index :math:`k`, ``discretization`` :math:`\Delta`,
``infinity_mass``).  The export passes those masses through unchanged and adds the
:math:`\ell_1` round-off budget of the masses to ``infinity_mass``, so the exported curve is
still an upper bound (each budgeted unit of mass can change the curve by at most one unit).
The pair dominates both orders of every neighbouring pair, so one pmf serves for both of
``dp_accounting``'s directions (``pmf_add`` is left as ``None``, i.e. symmetric).

Users can then compose the round with their other events inside ``dp_accounting``::

    round_pld = to_dp_accounting(shuffled_round_pld(make("krr", k=10, eps0=4), 100_000))
    total = round_pld.self_compose(100).compose(pld.from_gaussian_mechanism(2.0))
    total.get_epsilon_for_delta(1e-6)

(``dp_accounting``'s own composition is floating point without a round-off bound; the
certified composition is :func:`shufflekit.numeric.composition.fixed.compose`.)

Cross-checks on cases both libraries can do (:func:`gaussian_crosscheck`,
:func:`randomized_response_crosscheck`) report shufflekit's certified composition, the
``dp_accounting`` composition (pessimistic, connect-the-dots where available) and the exact
value where one is known.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from shufflekit.errors import InvalidParameter
from shufflekit.numeric.accountant import accountant
from shufflekit.numeric.bound import Kind, round_up
from shufflekit.numeric.composition.dominating_pair import (
    DEFAULT_GRID,
    DEFAULT_TAIL,
    PrivacyLossPmf,
    dominating_pair,
)
from shufflekit.numeric.composition.fixed import (
    central_gaussian,
    composed_accountant,
    is_central_gaussian,
)
from shufflekit.validation import check_delta, check_epsilon, check_int


def to_dp_accounting(pmf: PrivacyLossPmf):
    """A ``dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution`` for an upper loss law."""
    from dp_accounting.pld import pld_pmf, privacy_loss_distribution

    if pmf.kind is not Kind.UPPER:
        raise InvalidParameter("pmf.kind", str(pmf.kind), "upper (only dominating laws export)")
    loss_probs = {int(pmf.offset + i): float(p) for i, p in enumerate(pmf.probs) if p > 0}
    inf_mass = min(1.0, round_up(pmf.infinity_mass + pmf.error))
    remove = pld_pmf.create_pmf(
        loss_probs, discretization=pmf.grid, infinity_mass=inf_mass, pessimistic_estimate=True
    )
    return privacy_loss_distribution.PrivacyLossDistribution(remove)


def shuffled_round_pld(
    mechanism: Any,
    n: int,
    *,
    method: str | None = None,
    adjacency: str | None = None,
    grid: float = DEFAULT_GRID,
    tail: float = DEFAULT_TAIL,
    **options: Any,
) -> PrivacyLossPmf:
    """The dominating loss law of one shuffled round (``n`` users of ``mechanism``)."""
    if is_central_gaussian(mechanism):
        acc = accountant(central_gaussian(mechanism), n)
    else:
        acc = accountant(mechanism, n, method=method, adjacency=adjacency, **options)
    return dominating_pair(acc, grid=grid, tail=tail).pmf


def export_round(mechanism: Any, n: int, **kwargs: Any):
    """One shuffled round as a ``dp_accounting`` ``PrivacyLossDistribution``."""
    return to_dp_accounting(shuffled_round_pld(mechanism, n, **kwargs))


def gaussian_crosscheck(
    sigma: float, rounds: int, deltas: Sequence[float], *, grid: float = DEFAULT_GRID
) -> list[dict]:
    r"""T rounds of the Gaussian mechanism (sensitivity 1, noise :math:`\sigma`) three ways:
    shufflekit's certified composition, ``dp_accounting``'s PLD composition, and the exact
    value (one round of :math:`\sigma/\sqrt T`, i.e. :math:`\mu = \sqrt T/\sigma`-GDP)."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    from shufflekit.numeric.methods.gaussian import gdp_epsilon

    rounds = check_int("rounds", rounds, 1, 10**6)
    ours = composed_accountant(
        {"name": "central-gaussian", "sigma": float(sigma)}, 1, rounds, grid=grid
    )
    theirs = pld.from_gaussian_mechanism(
        float(sigma), value_discretization_interval=grid
    ).self_compose(rounds)
    out = []
    for d in deltas:
        d = check_delta(d)
        b = ours.get_epsilon(d)
        exact = gdp_epsilon(math.sqrt(rounds) / float(sigma), d)
        da = float(theirs.get_epsilon_for_delta(d))
        out.append(
            {
                "delta": d,
                "exact": exact,
                "shufflekit_upper": b.hi,
                "dp_accounting": da,
                "shufflekit_minus_exact": b.hi - exact,
                "dp_accounting_minus_exact": da - exact,
            }
        )
    return out


def randomized_response_crosscheck(
    eps0: float, k: int, rounds: int, deltas: Sequence[float], *, grid: float = DEFAULT_GRID
) -> list[dict]:
    r"""T rounds of local k-ary randomized response (n = 1: the shuffler sees one report, and
    the blanket bound of Su-Cheng-Wang 2026 is then the exact curve of the randomizer), shufflekit's
    certified composition against ``dp_accounting``'s ``from_randomized_response``
    (noise parameter :math:`k/(e^{\varepsilon_0} + k - 1)`: with that probability the report is
    uniform)."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    from shufflekit.mechanisms import make

    e0 = check_epsilon(eps0)
    k = check_int("k", k, 2, 10**6)
    mech = make("rr", eps0=e0) if k == 2 else make("krr", k=k, eps0=e0)
    ours = composed_accountant(mech, 1, rounds, method="blanket", grid=grid)
    noise = k / (math.exp(e0) + k - 1)
    theirs = pld.from_randomized_response(
        noise, k, value_discretization_interval=grid
    ).self_compose(check_int("rounds", rounds, 1, 10**6))
    out = []
    for d in deltas:
        d = check_delta(d)
        b = ours.get_epsilon(d)
        da = float(theirs.get_epsilon_for_delta(d))
        out.append(
            {"delta": d, "shufflekit_upper": b.hi, "dp_accounting": da, "difference": b.hi - da}
        )
    return out
