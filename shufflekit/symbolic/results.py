r"""Catalogue of derived results: ``RESULTS[id](**options) -> Derivation``.

Series results accept ``terms`` (number of terms of the expansion); the ids in
:data:`SERIES_IDS` return a :class:`~shufflekit.symbolic.series.Series` as their
result.  Every entry derives its result from the mechanism definitions
(Takagi-Liew 2026 unless stated; the fixed-composition entries are Shvets 2026 and the Shvets summary).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shufflekit.errors import InvalidParameter
from shufflekit.symbolic import (
    bmg,
    central_gaussian,
    fixed_composition,
    gaussian_local,
    hcr,
    multi_message,
    privunit,
    randomized_response,
)
from shufflekit.symbolic.derivation import Derivation

MAX_TERMS = 40


@dataclass(frozen=True)
class TermsRange:
    """The numbers of terms a series id accepts, and why the range stops where it does."""

    lo: int = 1
    hi: int = MAX_TERMS
    why: str | None = None


# Each id accepts only the orders it finishes within 60 s (measured on a shared 2-core
# machine, one process per order, cold caches; benchmarks/bench_scale.py re-measures).
TERMS: dict[str, TermsRange] = {
    "central-gaussian.asymptotics": TermsRange(
        hi=32,
        why=(
            "the sympy expansion of the correction factor grows quickly with the order: "
            "32 terms took 23-32 s, 36 and 40 terms 64-90 s or more"
        ),
    ),
    "bmg.optimal-expansion": TermsRange(
        hi=6,
        why=(
            "each term of the optimal-variance expansion multiplies the sympy work: "
            "6 terms took 24 s, 8 terms 51 s, and more terms exceed 60 s"
        ),
    ),
    "rr.err-in-chi": TermsRange(
        lo=2,
        why=(
            "the closed form is expanded to terms-2 orders beyond its leading power, "
            "so at least 2 terms are needed"
        ),
    ),
}


def check_terms(result_id: str, terms: Any) -> int:
    """``terms`` as an int inside the range :data:`TERMS` allows for ``result_id``."""
    rng = TERMS.get(result_id, TermsRange())
    try:
        n = int(terms)
    except (TypeError, ValueError):
        n = None
    if n is None or n != terms or not rng.lo <= n <= rng.hi:
        raise InvalidParameter(
            "terms", terms, f"range [{rng.lo}, {rng.hi}] (integer) for {result_id}", rng.why
        )
    return n


def _series(
    fn: Callable[..., Derivation], default: int, result_id: str
) -> Callable[..., Derivation]:
    def build(terms: int | None = None) -> Derivation:
        return fn(default if terms is None else check_terms(result_id, terms))

    build.__doc__ = fn.__doc__
    return build


def _bmg_optimal(terms: int) -> Derivation:
    """Err_1/(d chi^2) of BMG at the Err_1-optimal A(chi) as chi -> oo (Thm 4.1)."""
    return bmg.optimal_expansion(terms)


def _privunit_constant(terms: int) -> Derivation:
    """PrivUnit constant C(0, d) and its expansion as d -> oo (Prop. 3.5)."""
    der = privunit.constant_at_zero()
    return (
        der
        if terms >= len(der.result.terms)
        else Derivation(**{**der.__dict__, "result": der.result.truncate(terms)})
    )


RESULTS: dict[str, Callable[..., Derivation]] = {
    # central Gaussian mechanism
    "central-gaussian.profile": central_gaussian.profile,
    "central-gaussian.asymptotics": _series(
        central_gaussian.correction_factor, 4, "central-gaussian.asymptotics"
    ),
    "central-gaussian.template-ratio": central_gaussian.template_ratio,
    "central-gaussian.mse": central_gaussian.mse,
    # blanket-mixed Gaussian
    "bmg.chi-lo": bmg.chi_lo,
    "bmg.err": bmg.covariance,
    "bmg.err-gamma-chi": bmg.err_in_gamma_chi,
    "bmg.err-expansion": _series(bmg.err_expansion, 4, "bmg.err-expansion"),
    "bmg.optimal-expansion": _series(_bmg_optimal, 4, "bmg.optimal-expansion"),
    "bmg.first-order-constant": bmg.first_order_constant,
    # Gaussian local randomizer
    "gaussian-local.V": gaussian_local.variance,
    "gaussian-local.variance": _series(
        gaussian_local.variance_series, 4, "gaussian-local.variance"
    ),
    "gaussian-local.chi2-in-sigma": _series(
        gaussian_local.inverse_series, 4, "gaussian-local.chi2-in-sigma"
    ),
    "gaussian-local.sigma2-in-chi": _series(
        gaussian_local.sigma2_in_chi, 5, "gaussian-local.sigma2-in-chi"
    ),
    "gaussian-local.err-in-chi": _series(gaussian_local.err_in_chi, 4, "gaussian-local.err-in-chi"),
    # randomized response
    "rr.basics": randomized_response.basics,
    "rr.t-of-chi": randomized_response.t_of_chi,
    "rr.err-closed-form": randomized_response.err_closed_form,
    "rr.err-in-chi": _series(randomized_response.err_in_chi, 6, "rr.err-in-chi"),
    # PrivUnit
    "privunit.quantities": privunit.quantities,
    "privunit.constant": _series(_privunit_constant, 4, "privunit.constant"),
    "privunit.limit-constant": privunit.limit_constant,
    # fixed-composition shuffling (Shvets 2026, the Shvets summary), for Shvets 2026 example channel
    "fixed-composition.I-pi": lambda: fixed_composition.fisher_constant(
        *fixed_composition.EXAMPLE_CHANNEL
    ),
    "fixed-composition.mixture-relation": fixed_composition.sherman_morrison_relation,
    "fixed-composition.jsd-series": fixed_composition.jsd_series,
    "fixed-composition.local-curve": fixed_composition.local_privacy_curve,
    "multi-message.bundled-vs-unbundled": lambda: multi_message.bundled_minus_unbundled(2),
    # HCR lower bound
    "hcr.rr": hcr.rr,
    "hcr.gaussian-local": hcr.gaussian_local_bound,
    "hcr.bmg": hcr.bmg_bound,
}

SERIES_IDS: tuple[str, ...] = (
    "central-gaussian.asymptotics",
    "bmg.chi-lo",
    "bmg.err-expansion",
    "bmg.optimal-expansion",
    "gaussian-local.variance",
    "gaussian-local.chi2-in-sigma",
    "gaussian-local.sigma2-in-chi",
    "gaussian-local.err-in-chi",
    "rr.err-in-chi",
    "privunit.constant",
)


def get(result_id: str, **options) -> Derivation:
    """The derivation ``result_id``; ``ValueError`` listing the known ids otherwise."""
    try:
        fn = RESULTS[result_id]
    except KeyError:
        raise InvalidParameter(
            "id", result_id, "one of " + ", ".join(sorted(RESULTS)), "see `shufflekit list results`"
        ) from None
    if options and (result_id not in SERIES_IDS or result_id == "bmg.chi-lo"):
        raise ValueError(f"{result_id!r} is not a series; options {sorted(options)} do not apply")
    return fn(**options)


def series_result(result_id: str, terms: int | None = None) -> Derivation:
    """A series derivation, with ``terms`` terms; ``bmg.chi-lo`` is served as the series of
    :math:`\\chi_{lo}^2` in :math:`1/\\sigma_0^2`."""
    if result_id == "bmg.chi-lo":
        return bmg.chi_lo_series(4 if terms is None else check_terms(result_id, terms))
    if result_id not in SERIES_IDS:
        raise InvalidParameter(
            "id", result_id, "a series id: " + ", ".join(SERIES_IDS), "see `shufflekit list series`"
        )
    return RESULTS[result_id](terms=terms)


def describe(result_id: str) -> str:
    """First line of the docstring of the function behind ``result_id`` (no derivation run)."""
    fn = RESULTS[result_id]
    doc = (fn.__doc__ or "").strip().splitlines()
    line = doc[0] if doc else ""
    for token in (":math:", "`"):
        line = line.replace(token, "")
    return line


def series_payload(result_id: str, order: int | None) -> tuple[dict, Derivation]:
    r"""JSON-ready description of a series result with ``order`` terms:
    ``{"id", "variable", "expansion_in", "order_term", "lhs", "terms": [{"exponent", "coefficient"}]}``.
    """
    if order is not None:
        rng = TERMS.get(result_id, TermsRange())
        if not isinstance(order, int) or not rng.lo <= order <= rng.hi:
            raise InvalidParameter(
                "order", order, f"range [{rng.lo}, {rng.hi}] (integer) for {result_id}", rng.why
            )
    der = series_result(result_id, order)
    ser = der.result
    data = ser.as_dict()
    if ser.at_infinity is not None:
        expansion_in = f"{ser.at_infinity} -> oo"
    else:
        expansion_in = f"{ser.var} -> 0+"
    payload = {
        "id": result_id,
        "variable": data["variable"],
        "expansion_in": expansion_in,
        "order_term": None if data["order"] is None else f"O({data['variable']}^({data['order']}))",
        "lhs": der.lhs,
        "lhs_text": der.title,
        "terms": data["terms"],
    }
    return payload, der
