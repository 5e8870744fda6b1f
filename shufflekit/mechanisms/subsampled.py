r"""Poisson subsampling before the shuffle, as one more local randomizer.

Each of the :math:`n` users takes part independently with probability :math:`q` (the sampling
rate); the participants' reports of the local randomizer :math:`R` are shuffled and released,
the others send nothing.  Write :math:`\varnothing` for "no report" and

.. math::
    R^q_x = (1-q)\,\delta_\varnothing + q\,R_x .

**Theorem (subsampling is a randomizer).**  For every dataset :math:`D` of :math:`n` users, the
subsampled shuffled output :math:`M_q(D)` (the multiset of the participants' reports) and the
shuffled output :math:`S_{R^q}(D)` (the multiset of :math:`n` reports of :math:`R^q`) are each a
post-processing of the other.  Hence every pair of datasets has the same hockey-stick
divergence under both, for every :math:`\varepsilon`: the privacy profile of :math:`M_q` under
any neighbouring relation on :math:`n` users is that of the shuffled :math:`R^q`, and every
certified accountant of shuffled finite randomizers certifies :math:`M_q`.

*Proof.*  Let :math:`B_i \sim \mathrm{Bernoulli}(q)` be user :math:`i`'s participation and
:math:`Y_i \sim R_{x_i}` its report, all independent; :math:`Z_i = Y_i` if :math:`B_i = 1`,
else :math:`\varnothing`, so :math:`Z_i \sim R^q_{x_i}`, independently.  The multiset
:math:`\{Z_i\}` with its :math:`\varnothing` entries removed is exactly :math:`M_q(D)`; conversely
:math:`M_q(D)` plus :math:`n - |M_q(D)|` copies of :math:`\varnothing` is exactly
:math:`\{Z_i\}` (:math:`n` is public).  Both maps are deterministic and do not depend on
:math:`D`, and a hockey-stick divergence does not increase under post-processing, so the two
divergences are equal. :math:`\square`

**The blanket** (Su-Cheng-Wang 2026, Sec. 3.2, applied to :math:`R^q`): the floor is
:math:`c^q(\varnothing) = 1-q` and :math:`c^q(y) = q\,c(y)`, so the blanket mass is
:math:`\gamma_q = 1 - q + q\gamma \ge \gamma` and the local :math:`\varepsilon_0` is unchanged.
The GPARV (Su-Cheng-Wang 2026, Def. 5.1) of a pair :math:`(x, x')` takes the value
:math:`1 - e^\varepsilon` with probability :math:`1-q` (the null report), the atoms of
:math:`R`'s GPARV with :math:`q` times their probabilities, and 0 otherwise: the shuffled users
who send nothing add to the blanket, which is why subsampling amplifies.

Relation: ``replace-one`` among the :math:`n` users (a participant and a non-participant alike
may be the one whose input changes).  ``zero-out`` would pair a user with the null input of
:math:`R^q`, whose law is the blanket of :math:`R^q` (a report with probability
:math:`q\gamma/\gamma_q`), not a subsampled null user, so it is not offered.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import sympy as sp

from shufflekit.errors import InvalidParameter
from shufflekit.mechanisms.finite import FiniteMechanism
from shufflekit.mechanisms.parameters import as_param

#: the output label of "no report" (the users who do not take part)
NO_REPORT = "∅"


def check_sampling_rate(q: Any) -> Any:
    """The sampling rate as an exact number in (0, 1] (text such as ``"1/10"`` stays exact)."""
    return as_param(q, "sampling_rate", low=0, high=1, low_open=True)


def subsampled(mechanism: Any, sampling_rate: Any) -> Any:
    r"""The randomizer :math:`R^q = (1-q)\delta_\varnothing + qR` of the module theorem: shuffling
    ``n`` reports of it is Poisson subsampling at rate ``q`` before the shuffle.

    ``mechanism`` is finite (a :class:`~shufflekit.mechanisms.finite.FiniteMechanism`, a lumped
    view included, or a joint composition, taken as its product matrix); ``q = 1`` returns it
    unchanged.  The result keeps the name and parameters, with ``sampling_rate`` added.

    >>> import shufflekit as sk
    >>> from shufflekit.mechanisms.subsampled import subsampled
    >>> rr = sk.make("rr", eps0=1)
    >>> s = subsampled(rr, "1/10")
    >>> s.outputs, s.params["sampling_rate"]
    ((0, 1, '∅'), 1/10)
    >>> import sympy as sp
    >>> sp.simplify(s.gamma - (1 - sp.Rational(1, 10) + sp.Rational(1, 10) * rr.gamma))
    0
    """
    q = check_sampling_rate(sampling_rate)
    if q == 1:
        return mechanism
    if not isinstance(mechanism, FiniteMechanism) and callable(
        getattr(mechanism, "to_finite", None)
    ):
        mechanism = mechanism.to_finite()
    if not isinstance(mechanism, FiniteMechanism):
        raise InvalidParameter(
            "sampling_rate",
            q,
            "a finite mechanism (a probability matrix) to subsample",
            f"{getattr(mechanism, 'name', type(mechanism).__name__)} is not finite",
        )
    if NO_REPORT in mechanism.outputs:
        raise InvalidParameter(
            "sampling_rate", q, "one sampling rate per mechanism", "it is subsampled already"
        )
    exact = mechanism.is_exact or mechanism.is_symbolic

    def scaled(p: Any) -> Any:
        return q * p if exact else float(q) * float(p)

    rest = 1 - q if exact else 1.0 - float(q)
    rows = [[scaled(p) for p in row] + [rest] for row in mechanism.probs]
    lumping = mechanism.lumping
    if lumping is not None:
        lumping = replace(
            lumping,
            floor=tuple(scaled(c) for c in lumping.floor) + (rest,),
            outputs=sp.sympify(lumping.outputs) + 1,
        )
    out = FiniteMechanism.from_matrix(
        rows,
        inputs=mechanism.inputs,
        outputs=(*mechanism.outputs, NO_REPORT),
        multiplicity=(*mechanism.multiplicity, 1),
        name=mechanism.name,
        params={**dict(mechanism.params), "sampling_rate": q},
        lumping=lumping,
    )
    if mechanism.blanket_floor is not None:
        out = replace(out, blanket_floor=(*(scaled(c) for c in mechanism.blanket_floor), rest))
    return out
