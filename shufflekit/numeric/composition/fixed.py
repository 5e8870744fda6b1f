r"""Certified composition of shuffled rounds by privacy-loss-distribution (PLD) convolution.

**Upper bound.**  Each round (any registered accountant: mechanism, n, method; its profile must
bound both orders of every neighbouring pair, as the registered finite methods do: all ordered
pairs for replace-one, both directions for zero-out) is replaced by
its certified dominating pair (:mod:`shufflekit.numeric.composition.dominating_pair`), whose
privacy loss under :math:`P` lives on the grid :math:`k\Delta` plus an atom at
:math:`+\infty`.  By Zhu, Dong and Wang 2022 (Thm 10) the product of the dominating pairs
dominates the adaptive composition of the rounds, and its curve is

.. math::
    \delta_T(\varepsilon) = 1 - \prod_t (1 - \pi_t)
      + \mathbb{E}\Big[\Big(1 - e^{\varepsilon - (L_1 + \dots + L_T)}\Big)_+\Big],

with :math:`L_t` the finite losses of round :math:`t` (independent; a sub-probability law of
mass :math:`1 - \pi_t`) and :math:`\pi_t` the mass at :math:`+\infty`.  The law of the sum is
the convolution of the per-round pmfs (repeated squaring for identical rounds).  The
discretisation is pessimistic by construction: the dominating pair's losses lie *on* the grid
(its atoms are hull vertices), so no rounding of losses is needed.

**Round-off (proven bound).**  Each convolution of two loss laws is
:func:`shufflekit.numeric.kernels.radix2_fft.fft_convolve`: zero-padded discrete Fourier transforms
of power-of-two length by the project's own radix-2 FFT with Arb twiddle factors (no
third-party FFT is used), with a proven bound on the :math:`\ell_1` distance of the computed
cells from the exact :math:`a*b` (Higham Thm 24.2, re-proved there with the underflow terms;
that module's docstring, steps 0-4, is the proof).

*Propagation.*  Errors of the inputs propagate as
:math:`e_{a*b} \le e_{\rm fft} + e_a + (1 + e_a)e_b + \pi_a\pi_b` (the budget counts the
cells and the infinity cell together, masses at most 1; the last term is the gap between
:math:`\pi_a + \pi_b` and the exact :math:`1 - (1-\pi_a)(1-\pi_b)`); the final
:math:`\delta_T(\varepsilon)` is a sum of masses with weights in :math:`[0, 1]`, so the
:math:`\ell_1` budget is added to it.  The reported enclosure ``[lo, hi]`` therefore contains
the exact curve of the composed dominating pair, and ``hi`` is a proven upper bound on the
composed mechanism.

**Lower bound.**  For a concrete neighbouring pair with exactly known laws (the binary
randomized-response boundary pair :math:`(T_{n,0}, T_{n,1})` of Shvets 2026, Lemma 4.1, from
:func:`shufflekit.numeric.methods.histogram.binary_pair`), running the same rounds on that pair
gives
:math:`P^{\otimes T}, Q^{\otimes T}`, whose curve is a lower bound on the composed mechanism's.
Its losses are rounded *down* to the grid (the curve is non-decreasing in every loss, so this
can only lower it), both orders :math:`P\|Q` and :math:`Q\|P` are composed, and the larger
certified lower end is reported.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shufflekit.errors import CannotCertify, InvalidParameter
from shufflekit.numeric.accountant import (
    Accountant,
    PrivacyProfile,
    accountant,
    describe,
    subsampled_mechanism,
)
from shufflekit.numeric.bound import Bound, Kind, round_up
from shufflekit.numeric.composition.dominating_pair import (
    DEFAULT_GRID,
    DEFAULT_TAIL,
    UNIT,
    PrivacyLossPmf,
    cached_dominating_pair,
    check_grid,
    dominating_pair,
    mechanism_key,
)
from shufflekit.numeric.kernels import radix2_fft as fft
from shufflekit.numeric.kernels.caller_state import keeps_caller_state
from shufflekit.numeric.kernels.radix2_fft import MAX_FFT, sum_up, transform_length
from shufflekit.validation import MAX_ROUNDS, check_int, check_n  # noqa: F401 - MAX_ROUNDS re-exported


def convolve(a: PrivacyLossPmf, b: PrivacyLossPmf) -> PrivacyLossPmf:
    """The loss law of the composition of two independent rounds, with its round-off budget."""
    if a.grid != b.grid:
        raise InvalidParameter("grid", (a.grid, b.grid), "the same loss grid for every round")
    L = a.probs.size + b.probs.size - 1
    N = transform_length(L)
    if N > MAX_FFT:
        raise CannotCertify(
            f"the composed loss law needs {L} cells (FFT length {N} > {MAX_FFT}); "
            "use a coarser grid or fewer rounds"
        )
    c, e_fft = fft.fft_convolve(a.probs, a.probs if b is a else b.probs)
    a1, b1 = sum_up(a.probs), sum_up(b.probs)
    kind = _join_kind(a.kind, b.kind)
    pa, pb = a.infinity_mass, b.infinity_mass
    if kind is Kind.UPPER:  # 1 - (1-pa)(1-pb) <= pa + pb; the gap pa*pb is budgeted below
        inf_mass = min(1.0, round_up((pa + pb) * (1 + 2 * UNIT)))
    else:  # a lower law needs a value below the exact one
        inf_mass = max(0.0, (pa + pb - pa * pb) * (1 - 8 * UNIT))
    # l1 budget over the finite cells and the infinity cell together (module docstring)
    err = round_up(
        (
            e_fft
            + a.error * max(b1, 1.0)
            + (max(a1, 1.0) + a.error) * b.error
            + pa * pb
            + 8 * UNIT * (inf_mass + pa + pb)
        )
        * (1 + 8 * UNIT)
    )
    cert = a.certificate if a.certificate == b.certificate else f"{a.certificate}; {b.certificate}"
    return trim(
        PrivacyLossPmf(
            a.grid, a.offset + b.offset, c, inf_mass, err, kind, a.rounds + b.rounds, cert
        )
    )


def trim(pmf: PrivacyLossPmf, cut: float | None = None) -> PrivacyLossPmf:
    r"""Drop the negligible tails of a loss law, in the safe direction for its kind.

    A tail is cut when its computed mass is at most ``cut`` (default: the law's round-off
    budget, so the computed curve moves by at most that much).  ``upper``: the lower tail is
    merged into the first kept cell (losses only increase) and the upper tail is moved to
    :math:`+\infty`.  Merging cells of both the computed and the exact law does not increase
    their :math:`\ell_1` distance (the budget counts the infinity cell too), so the budget is
    unchanged.
    ``lower``: both tails are deleted (losing mass only lowers the curve).  Either way the
    curve :math:`\mathbb{E}[(1 - e^{\varepsilon - L})_+] + P(L = \infty)` moves only in the
    safe direction, because it is non-decreasing in every loss and in every mass.
    """
    cut = pmf.error if cut is None else float(cut)
    f = pmf.probs
    if cut <= 0 or f.size < 64:
        return pmf
    head = np.cumsum(f)
    tail = np.cumsum(f[::-1])
    lo = int(np.searchsorted(head, cut, side="right"))  # cells [0, lo) have mass <= cut
    hi = f.size - int(np.searchsorted(tail, cut, side="right"))  # cells [hi, size) likewise
    if lo >= hi or (lo == 0 and hi == f.size):
        return pmf
    kept = f[lo:hi].copy()
    inf_mass, err = pmf.infinity_mass, pmf.error
    if pmf.kind is Kind.UPPER:
        kept[0] += float(np.sum(f[:lo]))
        err = round_up(err + (lo + 4) * UNIT * kept[0])
        if hi < f.size:
            moved = float(np.sum(f[hi:]))
            new_inf = min(1.0, inf_mass + moved)
            # summation round-off of the moved mass is charged to the budget
            err = round_up(err + (f.size - hi + 4) * UNIT * (moved + new_inf))
            inf_mass = new_inf
    return PrivacyLossPmf(
        pmf.grid, pmf.offset + lo, kept, inf_mass, err, pmf.kind, pmf.rounds, pmf.certificate
    )


def _join_kind(a: Kind, b: Kind) -> Kind:
    if a != b:
        raise InvalidParameter("kind", (str(a), str(b)), "rounds of one kind (upper or lower)")
    return a


def self_compose(pmf: PrivacyLossPmf, rounds: int) -> PrivacyLossPmf:
    """``rounds``-fold composition of one loss law by repeated squaring."""
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    result, power = None, pmf
    while True:
        if rounds & 1:
            result = power if result is None else convolve(result, power)
        rounds >>= 1
        if not rounds:
            return result
        power = convolve(power, power)


def compose_pmfs(pmfs: Sequence[tuple[PrivacyLossPmf, int]]) -> PrivacyLossPmf:
    """Composition of heterogeneous rounds: ``[(loss law, repetitions), ...]``."""
    parts = [self_compose(p, r) for p, r in pmfs]
    parts.sort(key=lambda p: p.probs.size)
    out = parts[0]
    for p in parts[1:]:
        out = convolve(out, p)
    return out


# ======================================================================== the exact pair
def pair_loss_pmf(
    p: np.ndarray, q: np.ndarray, grid: float, *, rel_err: float = 1e-12, certificate: str = ""
) -> PrivacyLossPmf:
    r"""Loss law of :math:`\log(P/Q)` under :math:`P` for explicit laws, losses rounded **down** to
    the grid (a lower bound on the pair's curve); ``rel_err`` is the relative error of the
    masses (the histogram accountant's laws are exact to about 1e-13)."""
    grid = check_grid(grid)
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    pos = p > 0
    inf_mass = float(np.sum(p[pos & (q == 0)])) * (1 - rel_err)
    fin = pos & (q > 0)
    loss = np.log(p[fin]) - np.log(q[fin])
    # log of masses with relative error rel_err: loss error <= 2 rel_err + a few ulps
    k = np.floor((loss - 4 * rel_err - 1e-15 * (1 + np.abs(loss))) / grid).astype(np.int64)
    off = int(k.min())
    dense = np.zeros(int(k.max()) - off + 1)
    np.add.at(dense, k - off, p[fin])
    err = rel_err * float(np.sum(p[fin])) * 1.01 + (p.size + 4) * UNIT
    return PrivacyLossPmf(grid, off, dense, max(0.0, inf_mass), err, Kind.LOWER, 1, certificate)


def binary_rr_boundary_pmfs(
    eps0: float, n: int, grid: float = DEFAULT_GRID
) -> tuple[PrivacyLossPmf, PrivacyLossPmf]:
    r"""Both directed loss laws of the binary randomized-response boundary pair
    :math:`(T_{n,0}, T_{n,1})` (Shvets 2026, Lemma 4.1 / Sec. 8.1), keep probability
    :math:`e^{\varepsilon_0}/(1+e^{\varepsilon_0})`."""
    from shufflekit.numeric.methods.histogram import binary_pair
    from shufflekit.validation import check_epsilon

    e0 = check_epsilon(eps0)
    keep = math.exp(e0) / (1 + math.exp(e0))
    pair = binary_pair(1 - keep, keep, check_n(n))
    cert = f"exact laws of the binary RR boundary pair (Shvets 2026, Lemma 4.1), n={n}"
    return (
        pair_loss_pmf(pair.p, pair.q, grid, certificate=cert),
        pair_loss_pmf(pair.q, pair.p, grid, certificate=cert),
    )


# ======================================================================== accountants
class ComposedAccountant(Accountant):
    r"""Bounds on :math:`\delta(\varepsilon)` of T composed rounds from composed loss laws.

    ``kind`` upper: one composed dominating law (its curve, with the round-off budget on top).
    ``kind`` lower: the composed laws of both orders of an exact pair (the larger lower end).
    :meth:`get_epsilon` is the shared inversion routine of the accountant contract.
    """

    def __init__(
        self,
        pmfs: Sequence[PrivacyLossPmf],
        *,
        kind: Kind,
        method: str,
        n: int,
        mechanism: Any,
        rounds: int,
        adjacency: str = "replace-one",
        certificate: str = "",
        pairs: str = "all",
        build_seconds: float = 0.0,
    ):
        self.pmfs = tuple(pmfs)
        self.kind, self.method, self.n, self.mechanism = Kind(kind), method, n, mechanism
        self.rounds, self.adjacency, self.pairs = rounds, adjacency, pairs
        self.certificate = certificate
        self.build_seconds = build_seconds
        zero_tail = all(p.infinity_mass == 0 for p in self.pmfs)
        self.eps_max = max(p.max_loss for p in self.pmfs) if zero_tail else math.inf
        self.eps_max = max(self.eps_max, 0.0)
        self.grid = self.pmfs[0].grid
        self.error = max(p.error for p in self.pmfs)

    @property
    def note(self) -> str:
        return (
            f"{self.rounds} rounds composed on a loss grid of {self.grid:g}; "
            f"round-off budget {self.error:.2g}"
        )

    def get_delta(self, epsilon: float) -> Bound:
        from shufflekit.validation import check_epsilon

        t0 = time.perf_counter()
        e = check_epsilon(epsilon)
        vals = [p.delta(e) for p in self.pmfs]
        lo = max(v[1] for v in vals)
        hi = max(v[2] for v in vals)
        return self._bound("delta", e, lo, hi, seconds=time.perf_counter() - t0, note=self.note)

    def get_epsilon(self, delta: float, *, rel_tol: float = 1e-9) -> Bound:
        """The shared inversion (:func:`~shufflekit.numeric.accountant.invert_delta`), annotated."""
        b = super().get_epsilon(delta, rel_tol=rel_tol)
        return b.with_(note="; ".join(x for x in (b.note, self.note) if x))


@dataclass(frozen=True)
class Round:
    """One kind of round in a schedule: ``rounds`` repetitions of a shuffled mechanism
    (``n`` users; with ``sampling_rate`` q each takes part with probability q, the participants
    are shuffled: :mod:`shufflekit.mechanisms.subsampled`)."""

    mechanism: Any
    n: int
    rounds: int = 1
    method: str | None = None
    adjacency: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    sampling_rate: Any = None


#: keys of a schedule round given as a mapping: the fields of :class:`Round` ...
ROUND_FIELDS = ("mechanism", "n", "rounds", "method", "adjacency", "options", "sampling_rate")
#: ... or, as in the command line's ``--schedule``, a mechanism name and its parameters
ROUND_KEYS = (
    "name",
    "n",
    "rounds",
    "method",
    "adjacency",
    "sigma",
    "noise_multiplier",
    "sampling_rate",
)
ROUND_PARAMETERS = ("k", "m", "eps0", "p", "theta", "d", "gamma", "sigma0", "matrix", "hash_family")
#: the parameters of the central Gaussian mechanism GM(sigma), given as a mapping
CENTRAL_GAUSSIAN_KEYS = ("name", "sigma", "noise_multiplier")


def _key_error(
    where: str, key: Any, allowed: Sequence[str], why: str | None = None
) -> InvalidParameter:
    """An unknown key, with the nearest allowed key when there is one."""
    import difflib

    near = difflib.get_close_matches(str(key), allowed, n=1)
    hint = f"did you mean {near[0]!r}?" if near else None
    return InvalidParameter(
        f"{where} key",
        key,
        "one of " + ", ".join(allowed),
        "; ".join(x for x in (why, hint) if x) or None,
    )


def _round_value(key: str, value: Any) -> Any:
    """One value of a schedule round given by name, checked against its documented range."""
    from shufflekit.validation import DOMAINS, check_matrix

    where = f"schedule {key}"
    if key in ("name", "method"):
        if not isinstance(value, str) or not value.strip():
            raise InvalidParameter(where, value, "a non-empty string")
        return value.strip()
    if key == "matrix":
        return check_matrix(value, where)
    if key == "adjacency" and not isinstance(value, str):
        raise InvalidParameter(where, value, DOMAINS[key].allowed)
    if key == "sampling_rate" and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidParameter(where, value, DOMAINS[key].allowed, "a number or a string")
    return DOMAINS[key].check(where, value)


def _named_round(item: Mapping[str, Any]) -> Round:
    """A round given as ``{"name": ..., "n": ..., <mechanism parameters>}`` (``--schedule``)."""
    from shufflekit.mechanisms import MECHANISMS, make
    from shufflekit.validation import central_gaussian_sigma, check_exclusive

    allowed = (*ROUND_KEYS, *ROUND_PARAMETERS)
    for key in item:
        if key not in allowed:
            raise _key_error("schedule", key, allowed, "unknown key")
    for key in ("name", "n"):
        if key not in item:
            raise InvalidParameter(
                f"schedule {key}", None, "a value in every round (keys 'name' and 'n' are required)"
            )
    v = {k: _round_value(k, x) for k, x in item.items()}
    check_exclusive(v, "schedule ")
    name = v["name"]
    if name == "central-gaussian":
        extra = [k for k in v if k in ROUND_PARAMETERS or k == "adjacency"]
        if extra:
            raise InvalidParameter(
                f"schedule {extra[0]}",
                v[extra[0]],
                "the keys of central-gaussian: name, n, rounds, method, sigma or noise_multiplier",
                "GM(sigma) has no such parameter",
            )
        mech: Any = {
            "name": name,
            "sigma": central_gaussian_sigma(v.get("sigma"), v.get("noise_multiplier"), v["n"]),
        }
    else:
        spec = MECHANISMS.get(name)
        used = () if spec is None else (*spec.required, *spec.optional)
        for key in ("sigma", "noise_multiplier", *ROUND_PARAMETERS):
            if key in v and spec is not None and key not in used:
                raise InvalidParameter(
                    f"schedule {key}",
                    v[key],
                    f"the parameters of {name}: {', '.join(used) or 'none'}",
                    f"{key} does not apply to {name}",
                )
        mech = make(name, **{k: v[k] for k in ROUND_PARAMETERS if k in v})
    return Round(
        mech,
        v["n"],
        v.get("rounds", 1),
        v.get("method"),
        v.get("adjacency"),
        sampling_rate=v.get("sampling_rate"),
    )


def _central_gaussian(mech: Mapping[str, Any], n: int) -> dict:
    """A central Gaussian description ``{"name", "sigma" or "noise_multiplier"}`` as
    ``{"name": "central-gaussian", "sigma": per-user sigma}`` (exactly one of the two)."""
    from shufflekit.validation import central_gaussian_sigma

    for key in mech:
        if key not in CENTRAL_GAUSSIAN_KEYS:
            raise _key_error("central-gaussian", key, CENTRAL_GAUSSIAN_KEYS, "unknown key")
    return {
        "name": "central-gaussian",
        "sigma": central_gaussian_sigma(mech.get("sigma"), mech.get("noise_multiplier"), n),
    }


def round_of(item: Round | Mapping[str, Any]) -> Round:
    """One schedule round, checked before any work: a :class:`Round`, a mapping of its fields,
    or a mapping ``{"name": ..., "n": ..., <mechanism parameters>}`` as in ``--schedule``.
    Unknown keys, values outside their documented range (:data:`shufflekit.validation.DOMAINS`)
    and options that exclude each other (``sigma`` and ``noise_multiplier``) are errors."""
    from shufflekit.validation import DOMAINS, check, check_accountant_inputs

    if isinstance(item, Mapping):
        if "name" in item and "mechanism" not in item:
            item = _named_round(item)
        else:
            for key in item:
                if key not in ROUND_FIELDS:
                    raise _key_error("schedule", key, ROUND_FIELDS, "unknown key")
            if "mechanism" not in item or "n" not in item:
                raise InvalidParameter(
                    "schedule", dict(item), "a round with at least 'mechanism' and 'n'"
                )
            item = Round(**item)
    if not isinstance(item, Round):
        raise InvalidParameter("schedule", item, "a list of Round s or of mappings")
    n, rounds = check("n", item.n), check("rounds", item.rounds)
    adjacency = item.adjacency
    if adjacency is not None:  # an Adjacency or its string, kept as the string
        adjacency = str(DOMAINS["adjacency"].check("adjacency", adjacency))
    if item.method is not None and (not isinstance(item.method, str) or not item.method):
        raise InvalidParameter("method", item.method, "a registered method name")
    mech = item.mechanism
    if item.sampling_rate is not None and is_central_gaussian(mech):
        raise InvalidParameter(
            "sampling_rate",
            item.sampling_rate,
            "none for central-gaussian",
            "subsampling applies to a shuffled finite mechanism",
        )
    if is_central_gaussian(mech):
        if item.adjacency is not None:
            raise InvalidParameter(
                "adjacency",
                item.adjacency,
                "none for central-gaussian",
                "GM(sigma) has one sensitivity (1/n)",
            )
        if isinstance(mech, Mapping):
            mech = _central_gaussian(mech, n)
    else:
        check_accountant_inputs(mech, n)
        if item.sampling_rate is not None:  # the round of the subsampled randomizer
            mech = subsampled_mechanism(mech, item.sampling_rate, adjacency)
    return Round(mech, n, rounds, item.method, adjacency, dict(item.options))


def round_key(r: Round, acc: Accountant) -> tuple:
    """A hashable description of one round's accountant (what its dominating pair depends on
    besides the grid and the tail): mechanism, n, method, relation and options."""
    return (
        "round",
        mechanism_key(r.mechanism),
        r.n,
        acc.method,
        acc.adjacency,
        tuple(sorted((str(k), repr(v)) for k, v in dict(r.options).items())),
    )


def round_accountant(r: Round) -> Accountant:
    """The accountant of one round, from the registry.  A central Gaussian given by its
    description (``{"name": "central-gaussian", "sigma": ...}``) becomes the mechanism
    :class:`~shufflekit.numeric.methods.gaussian.CentralGaussian` first."""
    mech = central_gaussian(r.mechanism) if is_central_gaussian(r.mechanism) else r.mechanism
    return accountant(mech, r.n, method=r.method, adjacency=r.adjacency, **dict(r.options))


#: the adjacency of a round whose mechanism has a single sensitivity (the central Gaussian)
NO_ADJACENCY = "n/a"


def one_adjacency(adjacencies: Sequence[str | None]) -> str:
    """The one neighbouring relation of a schedule: every round's (``None`` and ``n/a`` are
    compatible with any); rounds of different relations do not compose into one guarantee."""
    kinds = sorted({a for a in adjacencies if a not in (None, NO_ADJACENCY)})
    if len(kinds) > 1:
        raise InvalidParameter(
            "schedule adjacency",
            " and ".join(kinds),
            "one neighbouring relation for every round of a schedule",
            "a replace-one round and a "
            "zero-out round bound different neighbouring datasets; set the "
            "same 'adjacency' in every round",
        )
    return kinds[0] if kinds else NO_ADJACENCY


def round_label(r: Round, acc: Accountant) -> dict:
    """What one round of a schedule is: mechanism, n, repetitions, method and adjacency."""
    return {
        **describe(r.mechanism),
        "n": r.n,
        "rounds": r.rounds,
        "method": acc.method,
        "adjacency": acc.adjacency,
    }


@keeps_caller_state
def composed_accountant(
    mechanism: Any = None,
    n: int | None = None,
    rounds: int = 1,
    *,
    method: str | None = None,
    adjacency: str | None = None,
    schedule: Sequence[Round] | None = None,
    grid: float = DEFAULT_GRID,
    tail: float = DEFAULT_TAIL,
    sampling_rate: Any = None,
    **options: Any,
) -> ComposedAccountant:
    r"""Upper accountant of the composition: ``rounds`` rounds of ``mechanism`` (``n`` users,
    ``method``), or the heterogeneous ``schedule`` of :class:`Round` s (or mappings, see
    :func:`round_of`), all of one adjacency; ``sampling_rate`` subsamples every round of
    ``mechanism`` (a schedule gives it per round).

    Every input is checked against its documented range before any work, the loss ``grid``
    too: at least :data:`~shufflekit.validation.MIN_GRID`, so that one round's loss law fits
    one FFT."""
    from shufflekit.validation import check

    t0 = time.perf_counter()
    sched = _schedule(mechanism, n, rounds, method, adjacency, schedule, options, sampling_rate)
    grid = check_grid(check("grid", grid))
    tail = check("tail", tail)
    one_adjacency([r.adjacency for r in sched])  # the given ones, before any work
    accs = [round_accountant(r) for r in sched]
    adj = one_adjacency([a.adjacency for a in accs])  # and the methods' defaults
    parts, total = [], 0
    for r, acc in zip(sched, accs, strict=True):
        dp = cached_dominating_pair(
            acc, grid=grid, tail=tail, key=round_key(r, acc), build=dominating_pair
        )
        parts.append((dp.pmf, r.rounds))
        total += r.rounds
    pmf = compose_pmfs(parts)
    names = [a.method for a in accs]
    mech = (
        describe(sched[0].mechanism)
        if len(sched) == 1
        else {"schedule": [round_label(r, a) for r, a in zip(sched, accs, strict=True)]}
    )
    method_name = names[0] if len(set(names)) == 1 else "+".join(dict.fromkeys(names))
    ns = {r.n for r in sched}
    cert = (
        "dominating pairs (connect-the-dots hull, Arb) composed by a radix-2 FFT with Arb "
        "twiddles and a proven round-off bound (Higham Thm 24.2 with underflow; "
        "Zhu-Dong-Wang 2022, Thm 10)"
    )
    return ComposedAccountant(
        [pmf],
        kind=Kind.UPPER,
        method=method_name,
        n=ns.pop() if len(ns) == 1 else None,
        mechanism=mech,
        rounds=total,
        adjacency=adj,
        certificate=cert,
        build_seconds=time.perf_counter() - t0,
    )


#: grid of the exact-pair lower bound: rounding losses down costs up to one step per round
#: (a bias of at most T * grid in epsilon), so it is finer than the upper grid, and finer
#: still for many rounds (:func:`lower_grid`)
LOWER_GRID = 2.0**-14


def lower_grid(rounds: int) -> float:
    """The default lower-bound grid: ``LOWER_GRID``, or finer so that T * grid <= 0.01."""
    return min(LOWER_GRID, 2.0 ** math.floor(math.log2(0.01 / max(int(rounds), 1))))


def pair_lower(
    p: np.ndarray,
    q: np.ndarray,
    rounds: int,
    *,
    n: int,
    mechanism: Any = None,
    pairs: str = "one explicit neighbouring pair",
    grid: float | None = None,
    certificate: str = "explicit laws of one neighbouring pair",
) -> ComposedAccountant:
    r"""Lower accountant: ``rounds`` rounds on one neighbouring pair with explicit laws ``p, q``
    (e.g. a histogram pair of :mod:`shufflekit.numeric.methods.histogram`, or a post-processing of
    one, which can only lower the curve); both orders composed, the larger lower end kept."""
    t0 = time.perf_counter()
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    grid = lower_grid(rounds) if grid is None else grid
    a = pair_loss_pmf(p, q, grid, certificate=certificate)
    b = pair_loss_pmf(q, p, grid, certificate=certificate)
    return ComposedAccountant(
        [self_compose(a, rounds), self_compose(b, rounds)],
        kind=Kind.LOWER,
        method="exact-pair",
        n=check_n(n),
        mechanism=mechanism or {},
        rounds=rounds,
        certificate=certificate + "; losses rounded down, FFT round-off bounded",
        pairs=pairs,
        build_seconds=time.perf_counter() - t0,
    )


def exact_pair_lower(
    eps0: float, n: int, rounds: int, *, grid: float | None = None
) -> ComposedAccountant:
    """Lower accountant: ``rounds`` rounds of binary RR on its boundary pair (Shvets 2026).

    Each round's losses are rounded down to ``grid`` (default :func:`lower_grid`), so the
    result can sit below the exact composition by at most ``rounds * grid`` in epsilon
    (at most 0.01 by default; about 6e-3 for T = 100)."""
    t0 = time.perf_counter()
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    grid = lower_grid(rounds) if grid is None else grid
    a, b = binary_rr_boundary_pmfs(eps0, n, grid)
    pmfs = [self_compose(a, rounds), self_compose(b, rounds)]
    return ComposedAccountant(
        pmfs,
        kind=Kind.LOWER,
        method="exact-pair",
        n=check_n(n),
        mechanism={"name": "rr", "eps0": float(eps0)},
        rounds=rounds,
        certificate=a.certificate + "; losses rounded down, FFT round-off bounded",
        pairs="binary RR boundary pair (T_{n,0}, T_{n,1})",
        build_seconds=time.perf_counter() - t0,
    )


def gap_note(upper: Bound, lower: Bound) -> str:
    """How far a composed upper bound is above the matching lower bound (same target)."""
    if upper.quantity != lower.quantity or upper.at != lower.at:
        raise InvalidParameter("lower", lower.at, f"a bound at the same target as {upper.at}")
    u, low = upper.value, lower.value
    rel = f" (+{100 * (u / low - 1):.3g}%)" if low > 0 else ""
    return f"exact-pair lower bound {low:.6g}; upper is {u - low:.3g} above{rel}"


@keeps_caller_state
def compose(
    mechanism: Any = None,
    n: int | None = None,
    rounds: int = 1,
    *,
    method: str | None = None,
    adjacency: str | None = None,
    schedule: Sequence[Round] | None = None,
    epsilons: Sequence[float] | None = None,
    deltas: Sequence[float] | None = None,
    grid: float = DEFAULT_GRID,
    tail: float = DEFAULT_TAIL,
    sampling_rate: Any = None,
    **options: Any,
) -> PrivacyProfile:
    r"""Certified upper bounds on :math:`\delta(\varepsilon)` / :math:`\varepsilon(\delta)` of
    ``rounds`` composed shuffled rounds (or of a heterogeneous ``schedule``).

    Returns a :class:`~shufflekit.numeric.accountant.PrivacyProfile` of :class:`Bound` s.

    >>> import shufflekit as sk
    >>> profile = sk.compose(sk.make("rr", eps0=1), n=50, rounds=3, deltas=[1e-6])
    >>> b = profile.bounds[0]
    >>> print(b.quantity, b.kind.value, f"{b.epsilon:.4f}")
    epsilon upper 1.3517
    """
    from shufflekit.validation import check

    if not epsilons and not deltas:
        raise InvalidParameter("epsilons/deltas", None, "at least one epsilon or delta")
    epsilons = [check("epsilon", e) for e in epsilons or ()]  # every target before any work
    deltas = [check("delta", d) for d in deltas or ()]
    acc = composed_accountant(
        mechanism,
        n,
        rounds,
        method=method,
        adjacency=adjacency,
        schedule=schedule,
        grid=grid,
        tail=tail,
        sampling_rate=sampling_rate,
        **options,
    )
    return acc.profile(epsilons=epsilons, deltas=deltas)


def _schedule(
    mechanism, n, rounds, method, adjacency, schedule, options, sampling_rate=None
) -> list[Round]:
    """The rounds to compose, each checked by :func:`round_of`."""
    if schedule is not None:
        if sampling_rate is not None:
            raise InvalidParameter(
                "sampling_rate", sampling_rate, "none with a schedule (give it per round)"
            )
        if (
            isinstance(schedule, (str, bytes, Mapping))
            or not isinstance(schedule, Sequence)
            or not schedule
        ):
            raise InvalidParameter("schedule", schedule, "a non-empty list of rounds")
        if mechanism is not None or n is not None:
            raise InvalidParameter(
                "mechanism/n", (mechanism, n), "a mechanism and n, or a schedule, not both"
            )
        return [round_of(r) for r in schedule]
    if mechanism is None or n is None:
        raise InvalidParameter("mechanism/n", (mechanism, n), "a mechanism and n, or a schedule")
    return [round_of(Round(mechanism, n, rounds, method, adjacency, dict(options), sampling_rate))]


# ============================================== central Gaussian given by its description
def is_central_gaussian(mech: Any) -> bool:
    return _get(mech, "name") == "central-gaussian"


def central_gaussian(mech: Any) -> Any:
    """The :class:`~shufflekit.numeric.methods.gaussian.CentralGaussian` a description names (a
    mechanism object passes through)."""
    from shufflekit.numeric.methods.gaussian import CentralGaussian

    if isinstance(mech, Mapping):
        return CentralGaussian(float(_get(mech, "sigma")))
    return mech


def _get(mech: Any, key: str) -> Any:
    if isinstance(mech, Mapping):
        return mech.get(key)
    return getattr(mech, key, None)
