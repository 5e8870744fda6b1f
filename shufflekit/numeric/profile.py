r"""Privacy profiles :math:`\delta(\varepsilon)` with a bound direction and an error budget.

A profile :math:`\delta_M(\varepsilon) = \sup D_{e^\varepsilon}(M(X)\|M(X'))` is
non-increasing in :math:`\varepsilon`.  Every accountant returns a
:class:`PrivacyProfile` whose ``bound`` says what its numbers are:

``upper``       certified: never below the true value (rounding toward the safe side);
``lower``       never above the true value;
``exact``       the value itself, up to the stated ``error`` (floating point);
``asymptotic``  an approximation with no certificate (e.g. resting on a conjecture).

``error`` is the budget already *included* in an upper bound (or subtracted from a
lower bound) for discretisation, truncation, wrap-around and round-off.

:func:`epsilon_for_delta` inverts a profile by bisection while keeping the
direction: for an upper bound on :math:`\delta` it returns an :math:`\varepsilon`
at which the bound is already :math:`\le \delta` (a valid, upper :math:`\varepsilon`);
for a lower bound it returns a point where the bound still exceeds :math:`\delta`
(so the true :math:`\varepsilon` is at least that).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Sequence

BoundKind = Literal["upper", "lower", "exact", "asymptotic", "heuristic"]
BOUND_KINDS = ("upper", "lower", "exact", "asymptotic", "heuristic")


from shufflekit.errors import CannotCertify  # noqa: E402,F401 - re-exported
from shufflekit.validation import check_delta, check_epsilon, check_n  # noqa: E402,F401


@dataclass(frozen=True)
class ProfilePoint:
    epsilon: float
    delta: float
    bound: BoundKind
    error: float = 0.0
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"epsilon": self.epsilon, "delta": self.delta, "bound": self.bound,
                "error": self.error, "seconds": round(self.seconds, 6)}


@dataclass(frozen=True)
class PrivacyProfile:
    """Points of :math:`\\delta(\\varepsilon)` computed by one method."""

    method: str
    bound: BoundKind
    points: tuple[ProfilePoint, ...]
    n: int | None = None
    mechanism: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.bound not in BOUND_KINDS:
            raise ValueError(f"bound={self.bound!r} is not one of {', '.join(BOUND_KINDS)}")

    @property
    def epsilons(self) -> list[float]:
        return [p.epsilon for p in self.points]

    @property
    def deltas(self) -> list[float]:
        return [p.delta for p in self.points]

    def delta_at(self, epsilon: float) -> float:
        """Value at ``epsilon`` from the grid, in the profile's safe direction.

        Upper bounds use the nearest grid point at or *below* ``epsilon`` (delta
        is non-increasing, so that value is still an upper bound); lower bounds
        the nearest grid point at or above it.
        """
        epsilon = check_epsilon(epsilon)
        pts = sorted(self.points, key=lambda p: p.epsilon)
        if self.bound == "upper":
            below = [p for p in pts if p.epsilon <= epsilon]
            if not below:
                raise CannotCertify(f"epsilon={epsilon} is below the grid (starts at {pts[0].epsilon})")
            return below[-1].delta
        if self.bound == "lower":
            above = [p for p in pts if p.epsilon >= epsilon]
            if not above:
                raise CannotCertify(f"epsilon={epsilon} is above the grid (ends at {pts[-1].epsilon})")
            return above[0].delta
        # exact/asymptotic: linear interpolation of log delta
        for a, b in zip(pts, pts[1:]):
            if a.epsilon <= epsilon <= b.epsilon:
                if a.delta <= 0 or b.delta <= 0:
                    return max(a.delta, b.delta)
                w = (epsilon - a.epsilon) / (b.epsilon - a.epsilon) if b.epsilon > a.epsilon else 0.0
                return math.exp((1 - w) * math.log(a.delta) + w * math.log(b.delta))
        raise ValueError(f"epsilon={epsilon} is outside the grid [{pts[0].epsilon}, {pts[-1].epsilon}]")

    def as_dict(self) -> dict:
        return {"mechanism": self.mechanism, "n": self.n, "method": self.method,
                "points": [p.as_dict() for p in self.points]}

    def plot(self, ax=None, **kwargs):
        """Draw :math:`\\delta(\\varepsilon)` on log-y axes (needs matplotlib)."""
        import matplotlib.pyplot as plt

        ax = ax or plt.gca()
        pts = sorted(self.points, key=lambda p: p.epsilon)
        style = {"upper": "-", "lower": "--", "exact": "-", "asymptotic": ":"}[self.bound]
        ax.semilogy([p.epsilon for p in pts], [max(p.delta, 1e-300) for p in pts], style,
                    label=kwargs.pop("label", f"{self.method} ({self.bound})"), **kwargs)
        ax.set_xlabel(r"$\varepsilon$")
        ax.set_ylabel(r"$\delta(\varepsilon)$")
        return ax


def profile_from_function(delta_fn: Callable[[float], tuple[float, float]], epsilons: Sequence[float],
                          *, method: str, bound: BoundKind, n: int | None = None,
                          mechanism: dict | None = None, progress: bool = False) -> PrivacyProfile:
    """Evaluate ``delta_fn(eps) -> (delta, error)`` on ``epsilons`` with timing."""
    from tqdm import tqdm
    import sys

    pts = []
    for e in tqdm(list(epsilons), desc=method, unit="eps", file=sys.stderr, disable=not progress,
                  leave=False):
        e = check_epsilon(e)
        t0 = time.perf_counter()
        d, err = delta_fn(e)
        pts.append(ProfilePoint(e, float(d), bound, float(err), time.perf_counter() - t0))
    return PrivacyProfile(method=method, bound=bound, points=tuple(pts), n=n,
                          mechanism=mechanism or {})


def epsilon_for_delta(delta_fn: Callable[[float], float], delta: float, *, bound: BoundKind,
                      eps_max: float = 50.0, rel_tol: float = 1e-9, abs_tol: float = 1e-12,
                      max_iter: int = 200) -> float:
    """Smallest :math:`\\varepsilon` with ``delta_fn(eps) <= delta``, keeping the direction.

    ``delta_fn`` must be non-increasing.  For ``bound="upper"`` the returned point
    satisfies ``delta_fn(eps) <= delta`` (so it is a valid epsilon); for
    ``"lower"`` it satisfies ``delta_fn(eps) > delta`` unless it is 0 (so the true
    epsilon is at least the returned value).  Raises :class:`CannotCertify` when
    even ``eps_max`` does not reach ``delta``.
    """
    delta = check_delta(delta)
    if delta_fn(0.0) <= delta:
        return 0.0
    hi = 1e-3
    while delta_fn(hi) > delta:
        hi *= 2
        if hi > eps_max:
            raise CannotCertify(f"delta={delta:g} is not reached for any epsilon <= {eps_max:g} "
                                "by this method")
    lo = hi / 2 if hi > 1e-3 else 0.0
    for _ in range(max_iter):
        if hi - lo <= max(abs_tol, rel_tol * hi):
            break
        mid = 0.5 * (lo + hi)
        if delta_fn(mid) > delta:
            lo = mid
        else:
            hi = mid
    if bound == "upper":
        return hi
    if bound == "lower":
        return lo
    return 0.5 * (lo + hi)
