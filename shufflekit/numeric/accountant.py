r"""The accountant contract: one interface, one registry of methods, one inversion routine.

Every accounting method of shufflekit implements :class:`Accountant`::

    acc = shufflekit.accountant(mechanism, n, method="blanket", adjacency="replace-one")
    acc.get_delta(epsilon)   -> Bound   # on delta(epsilon) of the shuffled mechanism
    acc.get_epsilon(delta)   -> Bound   # on epsilon(delta)
    acc.profile(epsilons=..., deltas=...) -> PrivacyProfile

(names as in Google's ``dp_accounting``).  A method is registered once with :func:`register`:
its name, the kind of bound it proves, which mechanisms and neighbouring relations it supports,
and a factory.  :func:`accountant` looks the method up, checks it applies, and builds it; the
command line calls only this registry.

Inversion (:func:`invert_delta`) is shared by every method whose delta curve is non-increasing
in epsilon.  For an ``upper`` method it returns an epsilon at which the certified ``hi`` of
delta has been *evaluated* to be ``<= delta`` (so it is a valid epsilon, whatever the curve
does between evaluations); for a ``lower`` method an epsilon at which the certified ``lo`` is
still ``> delta`` (so the true epsilon is at least that).  When an upper method cannot reach
``delta`` below the mechanism's local :math:`\varepsilon_0`, the answer is the trivially valid
:math:`\varepsilon = \varepsilon_0` (every shuffled report is :math:`\varepsilon_0`-DP), with a
note, not an error.
"""

from __future__ import annotations

import math
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from shufflekit.errors import CannotCertify, InvalidParameter, UnsupportedMethod
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.numeric.kernels.caller_state import (
    certified_arithmetic,
    keeps_caller_state,
)
from shufflekit.validation import check_accountant_inputs, check_delta, check_epsilon

ADJACENCIES = ("replace-one", "zero-out")


# ===================================================================== the interface
class Accountant(ABC):
    """A privacy accountant for ``n`` shuffled reports of one mechanism.

    Subclasses implement :meth:`get_delta`; :meth:`get_epsilon` and :meth:`profile` follow.
    Attributes every accountant sets: ``method`` (registry name), ``kind`` (what its bounds
    prove), ``adjacency``, ``n``, ``mechanism`` (the object accounted for), ``eps_max``
    (an epsilon at which delta is known to be 0, e.g. the local eps0; ``inf`` if none),
    ``monotone`` (whether the method's curve is non-increasing in epsilon; the true profile
    always is, but some published relaxations are not: then :meth:`get_epsilon` returns an
    evaluated valid epsilon, not necessarily the smallest).
    """

    method: str
    kind: Kind
    adjacency: str
    n: int
    mechanism: Any
    eps_max: float = math.inf
    pairs: str = "all"
    certificate: str = ""
    monotone: bool = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every ``get_delta``/``get_epsilon`` a subclass defines runs at the boundary of
        :func:`_guarded`: the caller's arithmetic state is kept and a float fast path that
        leaves its error model gives the trivially valid answer, never a traceback."""
        super().__init_subclass__(**kwargs)
        for name in ("get_delta", "get_epsilon"):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, "_guarded", False):
                setattr(cls, name, _guarded(fn, name))

    @abstractmethod
    def get_delta(self, epsilon: float) -> Bound:
        r"""Bound on :math:`\delta(\varepsilon)` of the shuffled mechanism at ``epsilon``
        (also ``get_delta(target_epsilon=...)``, dp_accounting's name).

        >>> import shufflekit as sk
        >>> b = sk.accountant(sk.make("rr", eps0=1), n=1000).get_delta(target_epsilon=0.5)
        >>> b.kind.value, b.hi < 1e-10
        ('upper', True)
        """

    def get_epsilon(self, delta: float, *, rel_tol: float = 1e-9) -> Bound:
        r"""Bound on :math:`\varepsilon(\delta)`: the smallest epsilon with
        :math:`\delta(\varepsilon) \le` ``delta`` (also ``get_epsilon(target_delta=...)``)."""
        return invert_delta(self, delta, rel_tol=rel_tol)

    def get_rdp(self, orders: Any, *, grid: float | None = None) -> Any:
        r"""Certified upper bounds on the Rényi divergences :math:`D_\lambda(M(D)\|M(D'))`
        at each order :math:`\lambda > 1` over every ordered neighbouring pair, from the
        dominating pair of this accountant's profile closed at :math:`\varepsilon_0`
        (:mod:`shufflekit.numeric.composition.renyi`); a
        :class:`~shufflekit.numeric.composition.renyi.RenyiProfile` that reads as the list of
        values (Opacus's shape) and converts to ``dp_accounting``'s ``RdpAccountant``.

        >>> import shufflekit as sk
        >>> rdp = sk.accountant(sk.make("krr", k=10, eps0=4), n=1000).get_rdp([2, 4, 8, 16])
        >>> [round(v, 4) for v in rdp]                     # Opacus's shape: a list per order
        [0.0925, 0.1879, 0.4112, 1.1389]
        >>> all(0 < a <= b < 4 for a, b in zip(rdp, list(rdp)[1:]))
        True
        """
        from shufflekit.numeric.composition.renyi import RenyiProfile, accountant_rdp, check_orders

        lams = check_orders(orders)
        with certified_arithmetic():
            values = accountant_rdp(self, lams, grid)
        return RenyiProfile(
            lams,
            tuple(values),
            Kind.UPPER if Kind(self.kind) is not Kind.EXACT else Kind.EXACT,
            self.method,
            self.adjacency,
            self.mechanism,
            self.n,
            self.certificate,
        )

    def __repr__(self) -> str:
        mech = describe(self.mechanism)
        name = mech.get("name", type(self.mechanism).__name__)
        fields = mech.get("params", {k: v for k, v in mech.items() if k != "name"})
        params = ", ".join(f"{k}={v}" for k, v in dict(fields).items())
        return (
            f"<{type(self).__name__} method={self.method!r} kind={Kind(self.kind).value} "
            f"n={self.n} adjacency={self.adjacency!r} mechanism={name}({params})>"
        )

    def profile(
        self,
        epsilons: Sequence[float] | None = None,
        deltas: Sequence[float] | None = None,
        *,
        progress: bool | None = None,
    ) -> PrivacyProfile:
        """Bounds at every epsilon of ``epsilons`` and every delta of ``deltas``.

        A progress bar is drawn on standard error when it is a terminal and ``progress`` is
        true (by default: five targets or more)."""
        from tqdm import tqdm

        targets = [("delta", check_epsilon(e)) for e in (epsilons or ())]
        targets += [("epsilon", check_delta(d)) for d in (deltas or ())]
        show = (len(targets) >= 5 if progress is None else progress) and bool(
            getattr(sys.stderr, "isatty", lambda: False)()
        )
        out = []
        for quantity, t in tqdm(
            targets, desc=self.method, unit="pt", file=sys.stderr, disable=not show, leave=False
        ):
            out.append(self.get_delta(t) if quantity == "delta" else self.get_epsilon(t))
        return PrivacyProfile(
            tuple(out),
            method=self.method,
            kind=self.kind,
            n=self.n,
            adjacency=self.adjacency,
            mechanism=describe(self.mechanism),
        )

    # helper for subclasses
    def _bound(
        self,
        quantity: str,
        at: float,
        lo: float,
        hi: float,
        *,
        seconds: float = 0.0,
        note: str = "",
        kind: Kind | None = None,
    ) -> Bound:
        return Bound(
            quantity,
            float(at),
            float(lo),
            float(hi),
            kind or self.kind,
            self.method,
            self.adjacency,
            self.pairs,
            self.certificate,
            note,
            seconds,
        )


#: Words every note of the trivial fallback of :func:`_guarded` contains.
FALLBACK_MARK = "left its proven error model"


def _guarded(fn: Callable, name: str) -> Callable:
    """``fn`` inside :func:`~shufflekit.numeric.kernels.caller_state.certified_arithmetic`, with the
    answer that is valid whatever the mechanism when its arithmetic leaves its error model:

    * ``get_delta``: ``[0, 1]`` for an upper bound (a hockey-stick divergence is at most 1),
      ``[0, 0]`` for a lower bound;
    * ``get_epsilon``: ``[0, eps_max]`` for an upper bound (each report is ``eps_max``-DP),
      ``[0, 0]`` for a lower bound;

    with a note naming the failure; other kinds (and an upper epsilon without a finite
    ``eps_max``) raise :class:`~shufflekit.errors.CannotCertify`.
    """
    import functools

    keyword = "target_epsilon" if name == "get_delta" else "target_delta"
    plain = "epsilon" if name == "get_delta" else "delta"

    @functools.wraps(fn)
    def wrapper(self: Accountant, target: float | None = None, *args: Any, **kwargs: Any) -> Bound:
        # dp_accounting's keyword names (target_epsilon / target_delta) and the plain ones
        for key in (keyword, plain):
            if key in kwargs:
                if target is not None:
                    raise InvalidParameter(key, kwargs[key], f"one target ({plain} given twice)")
                target = kwargs.pop(key)
        if target is None:
            raise InvalidParameter(keyword, None, f"a number: {name}({keyword}=...)")
        with certified_arithmetic():
            try:
                return fn(self, target, *args, **kwargs)
            except ArithmeticError as exc:
                return _trivially_valid(self, name, target, exc)

    wrapper._guarded = True  # type: ignore[attr-defined]
    return wrapper


Accountant.get_epsilon = _guarded(Accountant.get_epsilon, "get_epsilon")  # type: ignore[method-assign]


def _trivially_valid(acc: Accountant, name: str, target: float, exc: Exception) -> Bound:
    """The fallback of :func:`_guarded` (see there)."""
    why = f"the {acc.method} arithmetic {FALLBACK_MARK} ({type(exc).__name__}: {exc})"
    kind = Kind(acc.kind)
    if name == "get_delta":
        target = check_epsilon(target)
        if kind is Kind.UPPER:
            return acc._bound(
                "delta", target, 0.0, 1.0, note=why + "; delta <= 1 is trivially valid"
            )
        if kind is Kind.LOWER:
            return acc._bound(
                "delta", target, 0.0, 0.0, note=why + "; delta >= 0 is trivially valid"
            )
    else:
        target = check_delta(target)
        if kind is Kind.UPPER and math.isfinite(acc.eps_max):
            return acc._bound(
                "epsilon",
                target,
                0.0,
                float(acc.eps_max),
                note=why + f"; eps0 = {acc.eps_max:g} is trivially valid",
            )
        if kind is Kind.LOWER:
            return acc._bound(
                "epsilon", target, 0.0, 0.0, note=why + "; epsilon >= 0 is trivially valid"
            )
    raise CannotCertify(why) from None


def describe(mechanism: Any) -> dict:
    """A JSON-friendly summary of a mechanism (its name and parameters)."""
    if mechanism is None:
        return {}
    if isinstance(mechanism, dict):
        return dict(mechanism)
    fn = getattr(mechanism, "summary", None) or getattr(mechanism, "describe", None)
    if callable(fn):
        try:
            d = fn()
            if isinstance(d, dict):
                return d
        except Exception:  # noqa: BLE001 - a summary must never fail the computation
            pass
    out = {"name": getattr(mechanism, "name", type(mechanism).__name__)}
    params = getattr(mechanism, "params", None)
    params = params() if callable(params) else params
    for k, v in (params or {}).items():
        try:
            out[k] = float(v)
        except (TypeError, ValueError):
            out[k] = str(v)
    return out


def mechanism_key(mech: Any) -> Any:
    """A hashable description of a mechanism that determines it: the class, its repr, and the
    matrix, multiplicities, blanket and lumping of a finite mechanism."""
    if isinstance(mech, dict):
        return ("mapping", tuple(sorted((str(k), repr(v)) for k, v in mech.items())))
    return (
        type(mech).__module__,
        type(mech).__qualname__,
        repr(mech),
        *(
            repr(getattr(mech, a, None))
            for a in ("probs", "multiplicity", "blanket_floor", "lumping")
        ),
    )


# ===================================================================== the profile
@dataclass(frozen=True)
class PrivacyProfile:
    r"""Bounds on :math:`\delta(\varepsilon)` and/or :math:`\varepsilon(\delta)` from one method."""

    bounds: tuple[Bound, ...]
    method: str
    kind: Kind
    n: int | None = None
    adjacency: str = "replace-one"
    mechanism: dict = field(default_factory=dict)

    @property
    def epsilons(self) -> list[float]:
        return [b.epsilon for b in self.bounds]

    @property
    def deltas(self) -> list[float]:
        return [b.delta for b in self.bounds]

    def as_dict(self) -> dict:
        return {
            "mechanism": self.mechanism,
            "n": self.n,
            "method": self.method,
            "kind": str(Kind(self.kind)),
            "adjacency": self.adjacency,
            "points": [b.point() for b in self.bounds],
        }

    def plot(self, ax=None, **kwargs):
        """Draw delta(epsilon) on log-y axes (needs matplotlib)."""
        import matplotlib.pyplot as plt

        ax = ax or plt.gca()
        pts = sorted(self.bounds, key=lambda b: b.epsilon)
        style = {"upper": "-", "lower": "--", "exact": "-"}.get(str(Kind(self.kind)), ":")
        ax.semilogy(
            [b.epsilon for b in pts],
            [max(b.delta, 1e-300) for b in pts],
            style,
            label=kwargs.pop("label", f"{self.method} ({Kind(self.kind)})"),
            **kwargs,
        )
        ax.set_xlabel(r"$\varepsilon$")
        ax.set_ylabel(r"$\delta(\varepsilon)$")
        return ax


# ===================================================================== inversion
def invert_delta(
    acc: Accountant,
    delta: float,
    *,
    rel_tol: float = 1e-9,
    eps_start: float = 1e-3,
    max_iter: int = 200,
) -> Bound:
    r"""Bound on :math:`\varepsilon(\delta)` from a non-increasing bound on :math:`\delta(\varepsilon)`.

    The routine keeps a bracket ``[lo, hi]`` whose ends were both *evaluated*: at ``hi`` the
    bound is already at or below ``delta`` (for ``upper`` methods: ``get_delta(hi).hi <= delta``),
    at ``lo`` it is not (``lo = 0`` counts as such once evaluated).  Every step only moves an end
    to a newly evaluated point, so the certificate never depends on how the next point was
    chosen.  Points are chosen on :math:`s(\varepsilon) = \log\delta_{\mathrm{bound}}(\varepsilon)
    - \log\delta`, which is close to affine in :math:`\varepsilon` near the root:

    1. *bracketing* from ``eps_start`` (capped at ``acc.eps_max``): upwards by the secant
       through the last two points (at least x1.5, at most x8 per step), downwards by /4
       (``epsilon = 0`` is evaluated only when everything above it is below ``delta``);
    2. *refining* by regula falsi with the Anderson–Björck correction, each point kept at least
       ``rel_tol * hi / 4`` inside the bracket (so the bracket closes from both sides) and a
       bisection whenever three steps have not halved it, until ``hi - lo <= rel_tol * hi``.

    Typically 8–12 evaluations instead of the ~35 of plain bisection at ``rel_tol = 1e-9``.
    For ``lower`` methods the roles are mirrored (``lo`` is an evaluated point with
    ``get_delta(lo).lo > delta``); other kinds use the midpoint of the enclosure.
    """
    delta = check_delta(delta)
    t0 = time.perf_counter()
    kind = Kind(acc.kind)
    # the end of the delta enclosure that decides "already at or below delta": hi for upper
    # methods (a certified valid epsilon), lo for lower ones (not yet certified above)
    end = {Kind.UPPER: lambda b: b.hi, Kind.LOWER: lambda b: b.lo}.get(kind, lambda b: b.value)
    eps_max = float(acc.eps_max)
    log_delta = math.log(delta)

    fallbacks: list[str] = []  # notes of evaluations answered by the trivial fallback

    def evaluate(eps: float) -> tuple[bool, float]:
        b = acc.get_delta(eps)
        if FALLBACK_MARK in b.note and not fallbacks:
            fallbacks.append(b.note)
        v = float(end(b))
        score = (math.log(v) if v > 0 else -745.0) - log_delta
        return v <= delta, score

    def done(lo: float, hi: float, note: str = "") -> Bound:
        if fallbacks:
            note = "; ".join(x for x in (note, f"at some epsilon {fallbacks[0]}") if x)
        return acc._bound("epsilon", delta, lo, hi, seconds=time.perf_counter() - t0, note=note)

    def unreachable(lo: float) -> Bound:
        if kind is Kind.UPPER and math.isfinite(eps_max):
            return done(
                lo,
                eps_max,
                note=f"the {acc.method} bound does not reach delta={delta:g} "
                f"below eps0={eps_max:g}; eps0 is trivially valid (each report is "
                "eps0-DP)",
            )
        if kind is Kind.LOWER:
            return done(
                lo, lo, note=f"the lower bound stays above delta={delta:g} up to epsilon={lo:g}"
            )
        raise CannotCertify(
            f"the {acc.method} bound does not reach delta={delta:g} for any epsilon <= {eps_max:g}"
        )

    # ---------------------------------------------------------------- bracketing
    start = eps_start if eps_start > 0 and math.isfinite(eps_start) else 1e-3
    e = min(start, eps_max)
    ok, s = evaluate(e)
    if ok:  # below already: walk down
        hi, s_hi = e, s
        while True:
            e = hi / 4.0
            if e < 1e-12:
                ok0, s0 = evaluate(0.0)
                if ok0:
                    return done(0.0, 0.0)
                lo, s_lo = 0.0, s0
                break
            ok, s = evaluate(e)
            if ok:
                hi, s_hi = e, s
            else:
                lo, s_lo = e, s
                break
    else:  # above: walk up
        prev = None
        lo, s_lo = e, s
        while True:
            if lo >= eps_max:
                return unreachable(lo)
            step = 2.0
            if prev is not None and prev[1] > s_lo:
                # secant root of the score through the last two points, with a 10% overshoot
                guess = lo + s_lo * (lo - prev[0]) / (prev[1] - s_lo)
                step = min(8.0, max(1.5, 1.1 * guess / lo))
            e = min(step * lo, eps_max) if math.isfinite(eps_max) else step * lo
            if e > 1e6:
                raise CannotCertify(
                    f"the {acc.method} bound does not reach delta={delta:g} for any epsilon <= 1e6"
                )
            ok, s = evaluate(e)
            if ok:
                hi, s_hi = e, s
                break
            prev, lo, s_lo = (lo, s_lo), e, s

    # ---------------------------------------------------------------- refining
    widths = [hi - lo]
    side = 0  # which end moved last (-1 lo, +1 hi)
    for _ in range(max_iter):
        width = hi - lo
        if width <= rel_tol * hi or hi < 1e-15:
            break
        guard = max(rel_tol * hi / 4.0, 1e-300)
        if len(widths) >= 4 and width > 0.5 * widths[-4]:
            x = 0.5 * (lo + hi)  # slow progress: bisect
        elif s_lo > s_hi and math.isfinite(s_lo) and math.isfinite(s_hi):
            x = lo + s_lo * width / (s_lo - s_hi)  # regula falsi on the score
        else:
            x = 0.5 * (lo + hi)
        x = min(max(x, lo + guard), hi - guard)
        if not lo < x < hi:
            break
        ok, s = evaluate(x)
        if ok:
            if side == 1:  # Anderson-Bjorck: damp the stale end
                m = 1.0 - s / s_hi if s_hi != 0 else 0.5
                s_lo *= m if m > 0 else 0.5
            hi, s_hi, side = x, s, 1
        else:
            if side == -1:
                m = 1.0 - s / s_lo if s_lo != 0 else 0.5
                s_hi *= m if m > 0 else 0.5
            lo, s_lo, side = x, s, -1
        widths.append(hi - lo)
    return done(lo, hi)


# ===================================================================== the registry
@dataclass(frozen=True)
class MethodInfo:
    """One registered accounting method."""

    name: str
    kind: Kind
    factory: Callable[..., Accountant]
    supports: Callable[[Any], bool | str]
    adjacencies: tuple[str, ...]
    summary: str
    default_for: Callable[[Any, int], bool] | None = None  # (mechanism, n) -> is default
    options: tuple[str, ...] = ()  # the keyword options the method accepts

    def check(self, mechanism: Any) -> str | None:
        """None if the method applies to ``mechanism``, else the reason it does not."""
        ok = self.supports(mechanism)
        if ok is True:
            return None
        return ok if isinstance(ok, str) else f"{self.name} does not apply to this mechanism"


_REGISTRY: dict[str, MethodInfo] = {}


def register(
    name: str,
    *,
    kind: Kind | str,
    supports: Callable[[Any], bool | str],
    adjacencies: Iterable[str] = ADJACENCIES,
    summary: str = "",
    default_for: Callable[[Any, int], bool] | None = None,
    options: Iterable[str] = (),
):
    """Decorator registering ``factory(mechanism, n, adjacency=..., **options) -> Accountant``.

    ``default_for(mechanism, n)`` says whether the method is the default for ``n`` reports of
    ``mechanism`` (chosen by cost: a method that answers there); ``options`` names the keyword
    options the method accepts (any other is an error, never silently ignored)."""

    def deco(factory: Callable[..., Accountant]) -> Callable[..., Accountant]:
        _REGISTRY[name] = MethodInfo(
            name,
            Kind(kind),
            factory,
            supports,
            tuple(adjacencies),
            summary or (factory.__doc__ or "").strip().split("\n")[0],
            default_for,
            tuple(options),
        )
        return factory

    return deco


def _load() -> None:
    """Register every method: importing :mod:`shufflekit.numeric.methods` imports each method
    module, which registers its accountants (the import is deferred to the first lookup, since
    the method modules import this one)."""
    import shufflekit.numeric.methods  # noqa: F401


def methods(mechanism: Any = None) -> list[MethodInfo]:
    """Every registered method, or those that apply to ``mechanism``.

    >>> import shufflekit as sk
    >>> names = [m.name for m in sk.methods(sk.make("rr", eps0=1))]
    >>> "blanket" in names and "lower" in names and "gdp" not in names
    True
    """
    _load()
    out = sorted(_REGISTRY.values(), key=lambda m: m.name)
    if mechanism is not None:
        out = [m for m in out if m.check(mechanism) is None]
    return out


def method_info(name: str) -> MethodInfo:
    _load()
    if name not in _REGISTRY:
        raise UnsupportedMethod(name, "one of " + ", ".join(sorted(_REGISTRY)))
    return _REGISTRY[name]


def default_method(mechanism: Any, n: int = 1) -> str:
    """The method used when none is named for ``n`` reports: the first registered default that
    applies (e.g. the exact ``blanket`` up to its reach in ``n``, ``blanket-fft`` beyond)."""
    for m in methods(mechanism):
        if m.default_for is not None and m.default_for(mechanism, n):
            return m.name
    applicable = methods(mechanism)
    if not applicable:
        raise InvalidParameter(
            "mechanism",
            describe(mechanism).get("name", mechanism),
            "a mechanism some method supports (see `shufflekit list methods`)",
        )
    certified = [m for m in applicable if m.kind is Kind.UPPER]
    return (certified or applicable)[0].name


@keeps_caller_state
def accountant(
    mechanism: Any,
    n: int | None = None,
    method: str | None = None,
    adjacency: str | None = None,
    *,
    sampling_rate: Any = None,
    **options: Any,
) -> Accountant:
    """Build the accountant of ``method`` for ``n`` shuffled reports of ``mechanism``, or of a
    population ``[(mechanism_a, n_a), (mechanism_b, n_b), ...]`` (users holding different
    randomizers or privacy levels, shuffled together; ``n`` left out:
    :mod:`shufflekit.numeric.methods.population`).

    ``adjacency`` defaults to the first relation the method supports (``replace-one`` for the
    finite methods; an :class:`~shufflekit.Adjacency` or its string).  ``sampling_rate`` ``q``
    (in (0, 1]): each of the ``n`` users takes part with probability ``q`` and the participants
    are shuffled (Poisson subsampling; the accountant is that of the randomizer that reports
    nothing with probability 1 - q, :mod:`shufflekit.mechanisms.subsampled`; replace-one).
    Raises :class:`~shufflekit.errors.InvalidParameter` (a ``ValueError``)
    when the method, relation or parameters do not apply, naming what would.

    >>> import shufflekit as sk
    >>> acc = sk.accountant(sk.make("krr", k=10, eps0=4), n=10_000)
    >>> acc.method, acc.adjacency
    ('blanket', 'replace-one')
    >>> b = acc.get_epsilon(1e-6)
    >>> print(b.kind.value, f"{b.hi:.4f}")
    upper 0.3805
    >>> sub = sk.accountant(sk.make("krr", k=10, eps0=4), n=10_000, sampling_rate=0.1)
    >>> float(sub.get_epsilon(1e-6)) < float(b)      # each user takes part w.p. 0.1
    True
    >>> mixed = sk.accountant([(sk.make("rr", eps0=1), 500), (sk.make("rr", eps0=2), 500)])
    >>> lo, hi = (sk.accountant(sk.make("rr", eps0=e), 1000).get_delta(0.5).hi for e in (1, 2))
    >>> lo <= mixed.get_delta(0.5).hi <= hi          # between the groups' results
    True
    """
    from shufflekit.numeric.methods.population import is_population, population_accountant

    if is_population(mechanism):  # [(mechanism, n), ...]: users holding different randomizers
        if n is not None:
            raise InvalidParameter("n", n, "none with a population (each group gives its own n)")
        return population_accountant(
            mechanism, method=method, adjacency=adjacency, sampling_rate=sampling_rate, **options
        )
    if n is None:
        raise InvalidParameter("n", None, "a number of users, integer in [1, 1e9]")
    n = check_accountant_inputs(mechanism, n)  # the documented domain (validation.DOMAINS)
    if sampling_rate is not None:
        mechanism = subsampled_mechanism(mechanism, sampling_rate, adjacency)
    name = method or default_method(mechanism, n)
    info = method_info(name)
    why = info.check(mechanism)
    if why is not None:
        ok = ", ".join(m.name for m in methods(mechanism)) or "none"
        raise UnsupportedMethod(name, f"for this mechanism: {ok}", why)
    adj = str(adjacency) if adjacency is not None else info.adjacencies[0]  # an Adjacency too
    if adj not in info.adjacencies:
        raise InvalidParameter(
            "adjacency", adj, "one of " + ", ".join(info.adjacencies), f"for method {name}"
        )
    check_options(name, options)
    acc = info.factory(mechanism, n, adjacency=adj, **options)
    # names everything the accountant's curve depends on (Rényi pairs are kept under it)
    acc.rdp_key = (
        mechanism_key(mechanism),
        n,
        name,
        adj,
        tuple(sorted((str(k), repr(v)) for k, v in options.items())),
    )
    return acc


def subsampled_mechanism(mechanism: Any, sampling_rate: Any, adjacency: Any = None) -> Any:
    """``mechanism`` subsampled at ``sampling_rate`` before the shuffle
    (:func:`shufflekit.mechanisms.subsampled.subsampled`), checked against
    ``DOMAINS["sampling_rate"]``; the relation must be replace-one."""
    from shufflekit.mechanisms.subsampled import subsampled
    from shufflekit.validation import check

    q = check("sampling_rate", sampling_rate)
    if adjacency is not None and str(adjacency) != "replace-one":
        raise InvalidParameter(
            "adjacency",
            str(adjacency),
            "replace-one with a sampling rate",
            "the null input of zero-out is not a subsampled user",
        )
    return subsampled(mechanism, q)


def check_options(method: str | None, options: Any) -> None:
    """Every key of ``options`` is an option of ``method`` (of some method when ``method`` is
    None), else :class:`~shufflekit.errors.InvalidParameter` naming the nearest valid one."""
    import difflib

    if method is None:
        allowed = sorted({o for m in methods() for o in m.options})
        where = "any method"
    else:
        allowed = sorted(method_info(method).options)
        where = f"method {method}"
    for key in options:
        if key not in allowed:
            near = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise InvalidParameter(
                "option",
                key,
                f"options of {where}: " + (", ".join(allowed) or "none"),
                f"unknown option{hint}",
            )
