r"""An incremental certified accountant: shuffled rounds and ``dp_accounting`` events, composed.

:class:`ShuffleAccountant` keeps the loss law of everything composed so far and answers
``get_epsilon`` / ``get_delta`` after any step, as ``dp_accounting``'s accountants do::

    acc = ShuffleAccountant("replace-one")
    acc.compose(Round(make("krr", k=10, eps0=4), n=10_000), count=100)
    acc.compose(dp_event.GaussianDpEvent(noise_multiplier=2.0))
    acc.get_epsilon(target_delta=1e-6)          # a Bound (float(b) is its safe end)

**What it certifies.**  Each event becomes a dominating pair on the loss grid
:math:`k\Delta` (:mod:`shufflekit.numeric.composition.dominating_pair`): a shuffled round from
its registered accountant's upper profile, an additive-noise event from its exact curve
(:mod:`shufflekit.numeric.composition.dp_events`).  A pair whose two orders differ (a
Poisson-subsampled event under ``zero-out``) enters as two directed laws, one per order of the
neighbouring datasets (``forward``: the changed record present against absent; ``reverse``:
the other way); a symmetric pair enters both unchanged.  For a fixed ordered pair of
neighbouring datasets every round is in the same order, so by Zhu, Dong and Wang 2022 (Thm 10)
the product of the forward laws dominates that order of the adaptive composition and the product
of the reverse laws the other; the reported :math:`\delta(\varepsilon)` is the larger of the two
curves.  Products are formed by the certified convolution of
:mod:`shufflekit.numeric.composition.fixed` (radix-2 FFT with Arb twiddles and a proven
round-off bound); a law composed with itself ``count`` times uses repeated squaring.

Events: a :class:`~shufflekit.numeric.composition.fixed.Round` (or a mapping of its fields, or
``{"name": ..., "n": ..., <parameters>}``), a registered upper
:class:`~shufflekit.numeric.accountant.Accountant` (one round of it), and ``dp_accounting``'s
``GaussianDpEvent``, ``LaplaceDpEvent``, ``PoissonSampledDpEvent`` (of either),
``SelfComposedDpEvent``, ``ComposedDpEvent``, ``NoOpDpEvent`` and ``NonPrivateDpEvent``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.mechanisms.subsampled import NO_REPORT
from shufflekit.numeric.accountant import Accountant, describe
from shufflekit.numeric.bound import Bound, Kind
from shufflekit.numeric.composition.dominating_pair import (
    DEFAULT_GRID,
    DEFAULT_TAIL,
    PrivacyLossPmf,
    cached_dominating_pair,
    check_grid,
    directed_pair,
)
from shufflekit.numeric.composition.dp_events import NoiseCurveAccountant, noise_event
from shufflekit.numeric.composition.fixed import (
    Round,
    convolve,
    round_accountant,
    round_key,
    round_of,
    self_compose,
)
from shufflekit.numeric.kernels.caller_state import certified_arithmetic
from shufflekit.validation import MAX_ROUNDS, check, check_epsilon, check_int

#: ``dp_accounting``'s neighbouring relations and the shufflekit relation each one is
RELATIONS = {"REPLACE_ONE": "replace-one", "REPLACE_SPECIAL": "zero-out"}


def relation(adjacency: Any) -> str:
    """The neighbouring relation as shufflekit's string: an :class:`~shufflekit.Adjacency`, its
    string, or ``dp_accounting``'s ``NeighboringRelation`` (``REPLACE_ONE`` is replace-one,
    ``REPLACE_SPECIAL`` is zero-out)."""
    name = getattr(adjacency, "name", None)
    if name in RELATIONS and not isinstance(adjacency, str):
        return RELATIONS[name]
    if name == "ADD_OR_REMOVE_ONE":
        raise InvalidParameter(
            "adjacency",
            "ADD_OR_REMOVE_ONE",
            "replace-one (REPLACE_ONE) or zero-out (REPLACE_SPECIAL)",
            "a shuffled round has n users in both datasets; zero-out gives the Gaussian and "
            "Laplace events the same pairs as ADD_OR_REMOVE_ONE",
        )
    return check("adjacency", str(adjacency))


class ShuffleAccountant(Accountant):
    r"""Certified composition of shuffled rounds and ``dp_accounting`` events, step by step.

    ``adjacency``: ``"replace-one"`` (default) or ``"zero-out"`` (an
    :class:`~shufflekit.Adjacency`, its string, or ``dp_accounting``'s ``REPLACE_ONE`` /
    ``REPLACE_SPECIAL``); every composed event is accounted under it.  ``grid`` (a power of
    two, rounded down) and ``tail`` are those of
    :func:`~shufflekit.numeric.composition.dominating_pair.dominating_pair`.

    :meth:`compose` adds ``count`` repetitions of an event and returns the accountant;
    :meth:`get_delta` and :meth:`get_epsilon` answer after any step with certified upper
    :class:`~shufflekit.numeric.bound.Bound` s (the theorem is in the module docstring).

    >>> import shufflekit as sk
    >>> from dp_accounting import dp_event
    >>> acc = sk.ShuffleAccountant()
    >>> _ = acc.compose(sk.Round(sk.make("rr", eps0=1), n=1000), count=10)
    >>> e10 = acc.get_epsilon(target_delta=1e-6)
    >>> _ = acc.compose(dp_event.GaussianDpEvent(noise_multiplier=20.0))
    >>> e11 = acc.get_epsilon(target_delta=1e-6)
    >>> e10.kind.value, float(e10) < float(e11) < 1.0
    ('upper', True)
    """

    kind = Kind.UPPER
    method = "composition"

    def __init__(
        self,
        adjacency: Any = "replace-one",
        *,
        grid: float = DEFAULT_GRID,
        tail: float = DEFAULT_TAIL,
    ):
        self.adjacency = relation(adjacency)
        self.grid = check_grid(check("grid", grid))
        self.tail = check("tail", tail)
        self.n = None
        self.events: list[dict] = []
        self.rounds = 0
        self.non_private = False
        self._forward: PrivacyLossPmf | None = None
        self._reverse: PrivacyLossPmf | None = None
        self._steps: list[tuple[str, Any, int]] = []  # (kind, accountant or event, repetitions)
        self.certificate = (
            "dominating pairs (connect-the-dots hull in Arb of certified curves) composed per "
            "order of the neighbouring pair by a radix-2 FFT with a proven round-off bound "
            "(Zhu-Dong-Wang 2022, Thm 10)"
        )

    # ------------------------------------------------------------------ state
    @property
    def mechanism(self) -> dict:  # type: ignore[override]
        """What was composed: one entry per :meth:`compose` call, with its count.

        >>> import shufflekit as sk
        >>> from dp_accounting import dp_event
        >>> acc = sk.ShuffleAccountant().compose(dp_event.GaussianDpEvent(3.0), count=2)
        >>> [(e["name"], e["count"]) for e in acc.mechanism["events"]]
        [('GaussianDpEvent', 2)]
        """
        return {"name": "composition", "events": list(self.events)}

    @property
    def laws(self) -> tuple[PrivacyLossPmf, ...]:
        """The composed loss laws (one when every event was symmetric, else forward and reverse).

        >>> import shufflekit as sk
        >>> from dp_accounting import dp_event
        >>> acc = sk.ShuffleAccountant().compose(dp_event.GaussianDpEvent(3.0))
        >>> [law.kind.value for law in acc.laws]
        ['upper']
        """
        if self._forward is None:
            return ()
        if self._reverse is self._forward:
            return (self._forward,)
        return (self._forward, self._reverse)

    @property
    def eps_max(self) -> float:  # type: ignore[override]
        """An epsilon beyond which delta is 0: the largest composed loss (``inf`` if any law
        has mass at an infinite loss).

        >>> import shufflekit as sk
        >>> from dp_accounting import dp_event
        >>> acc = sk.ShuffleAccountant()
        >>> acc.eps_max
        0.0
        >>> acc.compose(dp_event.GaussianDpEvent(3.0)).eps_max  # a Gaussian's loss is unbounded
        inf
        """
        if self.non_private:
            return math.inf
        laws = self.laws
        if not laws:
            return 0.0
        if any(p.infinity_mass > 0 for p in laws):
            return math.inf
        return max(0.0, max(p.max_loss for p in laws))

    @property
    def error(self) -> float:
        """The largest round-off budget of the composed laws (an l1 distance).

        >>> import shufflekit as sk
        >>> from dp_accounting import dp_event
        >>> 0 < sk.ShuffleAccountant().compose(dp_event.GaussianDpEvent(3.0), 50).error < 1e-9
        True
        """
        return max((p.error for p in self.laws), default=0.0)

    def __repr__(self) -> str:
        """Relation, grid and what was composed, e.g. ``<ShuffleAccountant
        adjacency='replace-one' grid=0.000976562 composed: round x100, GaussianDpEvent x10>``."""
        names = ", ".join(f"{e['name']} x{e['count']}" for e in self.events) or "nothing"
        return (
            f"<ShuffleAccountant adjacency={self.adjacency!r} grid={self.grid:g} composed: {names}>"
        )

    # ---------------------------------------------------------------- compose
    def supports(self, event: Any) -> bool:
        """Whether :meth:`compose` accepts ``event`` (checked without computing anything).

        >>> import shufflekit as sk
        >>> from dp_accounting import dp_event
        >>> acc = sk.ShuffleAccountant("zero-out")
        >>> acc.supports(dp_event.LaplaceDpEvent(1.0)), acc.supports(dp_event.UnsupportedDpEvent())
        (True, False)
        """
        try:
            self._plan(event, 1)
        except (InvalidParameter, TypeError):
            return False
        return True

    def compose(self, event: Any, count: int = 1) -> ShuffleAccountant:
        """Compose ``count`` repetitions of ``event`` (see the module docstring for the events
        accepted) and return this accountant.  The event is checked before any work; an
        unsupported one raises :class:`~shufflekit.errors.InvalidParameter` and leaves the
        accountant as it was.

        >>> import shufflekit as sk
        >>> from dp_accounting import dp_event
        >>> acc = sk.ShuffleAccountant("zero-out")
        >>> sampled = dp_event.PoissonSampledDpEvent(0.01, dp_event.GaussianDpEvent(1.0))
        >>> acc.compose(sampled, count=100).rounds, len(acc.laws)  # two orders: two laws
        (100, 2)
        """
        count = check_int("count", count, 0, MAX_ROUNDS)
        steps = self._plan(event, count)  # every check before any work
        label = _label(event)
        for kind, item, reps in steps:
            if reps == 0 or kind == "noop":
                continue
            if kind == "nonprivate":
                self.non_private = True
                continue
            fwd, rev, source = self._laws_of(kind, item)
            self._add(fwd, rev, reps)
            self._steps.append(("noise" if kind == "noise" else "accountant", source, reps))
            self.rounds += reps
        self.events.append({**label, "count": count})
        return self

    def _add(self, fwd: PrivacyLossPmf, rev: PrivacyLossPmf, reps: int) -> None:
        """Compose ``reps`` repetitions of the directed laws into the running ones."""
        f = self_compose(fwd, reps)
        r = f if rev is fwd else self_compose(rev, reps)
        if self._forward is None:
            self._forward, self._reverse = f, r
            return
        symmetric = self._reverse is self._forward and r is f
        old_r = self._reverse
        self._forward = convolve(self._forward, f)
        self._reverse = self._forward if symmetric else convolve(old_r, r)

    def _plan(self, event: Any, count: int) -> list[tuple[str, Any, int]]:
        """The elementary steps of ``event`` repeated ``count`` times, each checked."""
        from dp_accounting import dp_event as de

        if isinstance(event, de.SelfComposedDpEvent):
            inner = check_int("SelfComposedDpEvent.count", event.count, 0, MAX_ROUNDS)
            return self._plan(event.event, _times(count, inner))
        if isinstance(event, de.ComposedDpEvent):
            return [s for e in event.events for s in self._plan(e, count)]
        if isinstance(event, de.NoOpDpEvent):
            return [("noop", None, count)]
        if isinstance(event, de.NonPrivateDpEvent):
            return [("nonprivate", None, count)]
        if isinstance(event, de.DpEvent):
            noise = noise_event(event)
            if noise is None:
                raise InvalidParameter(
                    "event",
                    type(event).__name__,
                    "a GaussianDpEvent, LaplaceDpEvent, PoissonSampledDpEvent, "
                    "SelfComposedDpEvent, ComposedDpEvent, NoOpDpEvent, NonPrivateDpEvent, "
                    "a shuffled Round or an accountant",
                    "no certified curve for this event",
                )
            if noise.q == 0:
                return [("noop", None, count)]
            if noise.scale == 0:
                return [("nonprivate", None, count)]
            NoiseCurveAccountant(noise, self.adjacency)  # checks the relation
            return [("noise", noise, count)]
        if isinstance(event, Accountant):
            self._check_accountant(event)
            return [("accountant", event, count)]
        if isinstance(event, (Round, Mapping)):
            r = round_of(event)
            adj = r.adjacency
            if NO_REPORT in getattr(r.mechanism, "outputs", ()) and self.adjacency != "replace-one":
                raise InvalidParameter(
                    "adjacency",
                    self.adjacency,
                    "replace-one for a subsampled round",
                    "the null input of zero-out is not a subsampled user",
                )
            if adj is not None and adj != self.adjacency:
                raise InvalidParameter(
                    "adjacency",
                    adj,
                    f"{self.adjacency} (the accountant's relation)",
                    "every event of one composition is accounted under one relation",
                )
            return [("round", r, _times(count, r.rounds))]
        raise InvalidParameter(
            "event",
            type(event).__name__,
            "a shuffled Round (or a mapping of one), an accountant, or a dp_accounting DpEvent",
        )

    def _check_accountant(self, acc: Accountant) -> None:
        if Kind(acc.kind) not in (Kind.UPPER, Kind.EXACT) or getattr(acc, "pairs", "all") != "all":
            raise InvalidParameter(
                "event",
                repr(acc),
                "an accountant of upper (or exact) bounds over all neighbouring pairs",
            )
        if acc.adjacency not in (self.adjacency, "n/a"):
            raise InvalidParameter(
                "adjacency",
                acc.adjacency,
                f"{self.adjacency} (the accountant's relation)",
                "every event of one composition is accounted under one relation",
            )

    def _laws_of(self, kind: str, item: Any) -> tuple[PrivacyLossPmf, PrivacyLossPmf, Any]:
        """The directed loss laws (forward, reverse) of one elementary event, and what they
        come from (the event or the round's accountant)."""
        if kind == "noise":
            fwd = NoiseCurveAccountant(item, self.adjacency, "forward")
            if fwd.symmetric:
                law = cached_dominating_pair(fwd, grid=self.grid, tail=self.tail).pmf
                return law, law, item
            rev = NoiseCurveAccountant(item, self.adjacency, "reverse")
            return (*directed_pair(fwd, rev, grid=self.grid, tail=self.tail), item)
        if kind == "round":
            adj = item.adjacency
            if adj is None and not _is_central(item):
                adj = self.adjacency
            one = Round(item.mechanism, item.n, 1, item.method, adj, item.options)
            acc = round_accountant(one)
            self._check_accountant(acc)
            key = round_key(one, acc)
        else:
            acc, key = item, None
        law = cached_dominating_pair(acc, grid=self.grid, tail=self.tail, key=key).pmf
        return law, law, acc

    # ------------------------------------------------------------------ answers
    def get_delta(self, epsilon: float) -> Bound:
        r"""Certified upper bound on :math:`\delta(\varepsilon)` of everything composed so far
        (also ``get_delta(target_epsilon=...)``): the larger of the forward and reverse curves.

        >>> import shufflekit as sk
        >>> acc = sk.ShuffleAccountant().compose({"name": "rr", "eps0": 1, "n": 100}, count=3)
        >>> b = acc.get_delta(target_epsilon=1.0)
        >>> b.kind.value, 0 < b.hi < 1e-3
        ('upper', True)
        """
        t0 = time.perf_counter()
        e = check_epsilon(epsilon)
        note = self.note
        if self.non_private:
            return self._bound("delta", e, 1.0, 1.0, note="a non-private event was composed")
        laws = self.laws
        if not laws:
            return self._bound("delta", e, 0.0, 0.0, note="nothing composed")
        vals = [p.delta(e) for p in laws]
        lo, hi = max(v[1] for v in vals), max(v[2] for v in vals)
        return self._bound("delta", e, lo, hi, seconds=time.perf_counter() - t0, note=note)

    def get_epsilon(self, delta: float, *, rel_tol: float = 1e-9) -> Bound:
        r"""Certified upper bound on :math:`\varepsilon(\delta)` (also
        ``get_epsilon(target_delta=...)``) by the shared inversion
        (:func:`~shufflekit.numeric.accountant.invert_delta`); ``inf`` after a non-private event.

        >>> import shufflekit as sk
        >>> acc = sk.ShuffleAccountant().compose({"name": "rr", "eps0": 1, "n": 100}, count=3)
        >>> float(acc.get_epsilon(target_delta=1e-6)) == acc.get_epsilon(1e-6).hi
        True
        """
        from shufflekit.validation import check_delta

        d = check_delta(delta)
        if self.non_private:
            return self._bound("epsilon", d, math.inf, math.inf, note="a non-private event")
        if not self.laws:
            return self._bound("epsilon", d, 0.0, 0.0, note="nothing composed")
        b = super().get_epsilon(d, rel_tol=rel_tol)
        return b.with_(note="; ".join(x for x in (b.note, self.note) if x))

    def get_rdp(self, orders: Any, *, grid: float | None = None) -> Any:
        r"""Certified upper bounds on the Rényi divergences of everything composed so far: the
        sum over the events (Rényi divergences of product pairs add, Mironov 2017, Prop. 1) of
        each shuffled round's bound (:meth:`Accountant.get_rdp`) and each Gaussian or Laplace
        event's exact value (Mironov 2017, Props. 6-7); ``inf`` after a non-private event.
        Poisson-sampled events have no certified Rényi bound here and raise
        :class:`~shufflekit.errors.CannotCertify`.

        >>> import shufflekit as sk
        >>> from dp_accounting import dp_event
        >>> acc = sk.ShuffleAccountant("zero-out").compose(dp_event.GaussianDpEvent(2.0), 4)
        >>> list(acc.get_rdp([2, 8]))           # 4 * lambda / (2 z^2)
        [1.0, 4.0]
        """
        from flint import arb

        from shufflekit.numeric.composition.renyi import (
            RenyiProfile,
            check_orders,
            gaussian_rdp,
            laplace_rdp,
        )
        from shufflekit.numeric.kernels.directed_rounding import float_up

        lams = check_orders(orders)
        sums = [arb(0)] * len(lams)
        if self.non_private:
            total = [math.inf] * len(lams)
        else:
            for kind, source, reps in self._steps:
                if kind == "accountant":
                    vals = list(source.get_rdp(lams, grid=grid))
                else:
                    if source.q != 1.0:
                        raise CannotCertify(
                            "no certified Renyi bound for a Poisson-sampled event here; "
                            "its curve composes in get_epsilon/get_delta"
                        )
                    with certified_arithmetic():
                        mu = arb(2.0 if self.adjacency == "replace-one" else 1.0) / arb(
                            source.scale
                        )
                        one = gaussian_rdp if source.kind == "gaussian" else laplace_rdp
                        vals = [one(mu, a) for a in lams]
                with certified_arithmetic():
                    sums = [s + arb(reps) * arb(v) for s, v in zip(sums, vals, strict=True)]
            with certified_arithmetic():  # the sum in Arb, rounded up once
                total = [float_up(s) if s.is_finite() else math.inf for s in sums]
        return RenyiProfile(
            lams,
            tuple(total),
            Kind.UPPER,
            self.method,
            self.adjacency,
            self.mechanism,
            None,
            "sum over the composed events of certified Renyi bounds",
        )

    @property
    def note(self) -> str:
        """What the numbers rest on: rounds, grid and round-off budget.

        >>> import shufflekit as sk
        >>> from dp_accounting import dp_event
        >>> print(sk.ShuffleAccountant().compose(dp_event.GaussianDpEvent(3.0)).note[:40])
        1 events composed (one symmetric law) on
        """
        if not self.laws:
            return ""
        orders = "one symmetric law" if len(self.laws) == 1 else "forward and reverse laws"
        return (
            f"{self.rounds} events composed ({orders}) on a loss grid of {self.grid:g}; "
            f"round-off budget {self.error:.2g}"
        )


def _is_central(r: Round) -> bool:
    from shufflekit.numeric.composition.fixed import is_central_gaussian

    return is_central_gaussian(r.mechanism)


def _times(a: int, b: int) -> int:
    total = a * b
    if total > MAX_ROUNDS:
        raise InvalidParameter("count", total, f"at most {MAX_ROUNDS} repetitions in one step")
    return total


def _label(event: Any) -> dict:
    """A JSON-friendly description of one composed event."""
    from dp_accounting import dp_event as de

    if isinstance(event, de.DpEvent):
        try:
            return {"name": type(event).__name__, **dict(event.to_named_tuple()._asdict())}
        except Exception:  # noqa: BLE001 - a label must never fail the composition
            return {"name": type(event).__name__}
    if isinstance(event, Accountant):
        return {"name": "round", "method": event.method, "n": event.n, **describe(event.mechanism)}
    if isinstance(event, (Round, Mapping)):
        r = round_of(event)
        return {"name": "round", "n": r.n, "rounds": r.rounds, "mechanism": describe(r.mechanism)}
    return {"name": type(event).__name__}
