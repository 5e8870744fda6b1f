r"""Interoperation with Google's ``dp_accounting``: a shuffled round as its PLD.

A shufflekit round (any registered accountant) becomes its certified dominating pair
(:mod:`shufflekit.numeric.composition.dominating_pair`), whose privacy loss under :math:`P` lives
on the grid :math:`k\Delta` (:math:`\Delta = 2^{-10}`) plus an atom at :math:`+\infty` -- the
representation of ``dp_accounting.pld.pld_pmf`` (loss index :math:`k`, ``discretization``,
``infinity_mass``).

**The grid.**  ``dp_accounting`` composes two distributions only when their discretizations
are equal, and its constructors default to ``1e-4``.  The export therefore takes
``discretization`` (default :data:`DP_ACCOUNTING_DISCRETIZATION`, that default) and moves
every atom *up* to the next multiple of it: the loss :math:`\ell = k\Delta` goes to
:math:`\lceil \ell/D\rceil D` (computed in exact rational arithmetic with the float :math:`D`
that ``dp_accounting`` multiplies by).  Raising a loss while keeping its :math:`P`-mass raises
:math:`H_\alpha = \mathbb{E}_P[(1 - \alpha e^{-L})_+]` for every :math:`\alpha \ge 0`, so the
moved pair still dominates the round (its remaining :math:`Q`-mass sits on an atom where
:math:`P = 0`); atoms landing on one multiple are added.  The :math:`\ell_1` round-off budget
of the masses is added to ``infinity_mass``, so the exported curve is still an upper bound
(each budgeted unit of mass changes the curve by at most one unit).  The pair dominates both
orders of every neighbouring pair, so one pmf serves for both of ``dp_accounting``'s
directions (``pmf_add`` is left as ``None``, i.e. symmetric).

Users then compose the round with their other events inside ``dp_accounting``, at its defaults:

>>> from dp_accounting.pld import privacy_loss_distribution as pld
>>> from shufflekit import make
>>> from shufflekit.numeric.export.pld_export import export_round
>>> round_pld = export_round(make("krr", k=10, eps0=4), 100_000)
>>> total = round_pld.self_compose(100).compose(pld.from_gaussian_mechanism(2.0))
>>> 1.0 < total.get_epsilon_for_delta(1e-6) < 4.0
True

(``dp_accounting``'s own composition is floating point without a round-off bound; the
certified composition is :class:`shufflekit.ShuffleAccountant`, which takes the same Gaussian
as a ``GaussianDpEvent``.)

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
    cached_dominating_pair,
)
from shufflekit.numeric.composition.fixed import (
    central_gaussian,
    composed_accountant,
    is_central_gaussian,
)
from shufflekit.validation import check_delta, check_epsilon, check_int, check_real

#: the discretization ``dp_accounting``'s PLD constructors and accountant use by default
DP_ACCOUNTING_DISCRETIZATION = 1e-4


def regrid(pmf: PrivacyLossPmf, discretization: float) -> dict[int, float]:
    r"""The masses of an upper loss law on the multiples of ``discretization`` (a float
    :math:`D`): the atom at :math:`k\Delta` moves to index :math:`\lceil k\Delta/D\rceil`
    (exact rationals), masses landing on one index added (module docstring)."""
    from fractions import Fraction

    D = Fraction(check_real("discretization", discretization, 0.0, 1.0, lo_open=True))
    step = Fraction(pmf.grid) / D
    out: dict[int, float] = {}
    for i, p in enumerate(pmf.probs):
        if p > 0:
            x = (pmf.offset + i) * step
            k = -((-x.numerator) // x.denominator)  # ceil, exactly
            out[k] = out.get(k, 0.0) + float(p)
    return out


def to_dp_accounting(pmf: PrivacyLossPmf, discretization: float | None = None):
    """A ``dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution`` for an upper
    loss law, on the grid of ``discretization`` (default: ``dp_accounting``'s 1e-4; ``None``
    with a law already on that grid keeps it; module docstring for the move)."""
    from dp_accounting.pld import pld_pmf, privacy_loss_distribution

    if pmf.kind is not Kind.UPPER:
        raise InvalidParameter("pmf.kind", str(pmf.kind), "upper (only dominating laws export)")
    D = DP_ACCOUNTING_DISCRETIZATION if discretization is None else discretization
    if float(D) == pmf.grid:
        loss_probs = {int(pmf.offset + i): float(p) for i, p in enumerate(pmf.probs) if p > 0}
    else:
        loss_probs = regrid(pmf, D)
    # float additions of merged masses: each exported mass is rounded up by its sum's error
    n_add = math.ceil(float(D) / pmf.grid) + 1  # atoms one multiple of D can receive
    loss_probs = {k: round_up(v * (1 + (n_add + 1) * 2.0**-53)) for k, v in loss_probs.items()}
    inf_mass = min(1.0, round_up(pmf.infinity_mass + pmf.error))
    remove = pld_pmf.create_pmf(
        loss_probs, discretization=float(D), infinity_mass=inf_mass, pessimistic_estimate=True
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
    key = ("export", getattr(acc, "rdp_key", None))
    return cached_dominating_pair(
        acc, grid=grid, tail=tail, key=None if key[1] is None else key
    ).pmf


def export_round(
    mechanism: Any, n: int, *, discretization: float = DP_ACCOUNTING_DISCRETIZATION, **kwargs: Any
):
    """One shuffled round as a ``dp_accounting`` ``PrivacyLossDistribution`` on the grid of
    ``discretization`` (default: ``dp_accounting``'s 1e-4, so it composes with the
    distributions its constructors build at their defaults); ``kwargs`` as
    :func:`shuffled_round_pld` (``method``, ``adjacency``, ``grid``, ``tail``, options)."""
    return to_dp_accounting(shuffled_round_pld(mechanism, n, **kwargs), discretization)


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
