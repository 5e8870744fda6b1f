r"""The variation-ratio parameters :math:`(p, \beta, q)` of a mechanism, derived from its matrix.

Wang et al. 2024 (Sec. 4, Table 2 and the parameter tables of their code) describe a local
randomizer by three numbers:

* :math:`p = \sup_{x^0 \ne x^1}\sup_y R_{x^0}(y)/R_{x^1}(y)`, the ratio bound of the differing
  user's pair;
* :math:`\beta = \sup_{x^0 \ne x^1} \mathrm{TV}(R_{x^0}, R_{x^1}) = \sup \sum_y
  (R_{x^0}(y) - R_{x^1}(y))_+`, its total-variation bound;
* :math:`q = \sup_{x, z}\sup_y R_x(y)/R_z(y)`, the ratio by which every other user's report
  covers the differing user's.

For a finite mechanism all three come out of its matrix here, exactly (sympy, with symbols
allowed: the signs of :math:`R_{x^0}(y) - R_{x^1}(y)` are decided by
:func:`shufflekit.mechanisms.ordering.sign`); a symmetry-lumped view gives the full
mechanism's values, since its representatives cover every pair and its output classes carry
their multiplicities.  For a finite :math:`\varepsilon_0`-LDP mechanism :math:`p = q =
e^{\varepsilon_0}`.  A mechanism class that is not a probability matrix (a continuous
randomizer) supplies the derivation itself by defining ``variation_ratio_parameters()``
returning a :class:`VariationRatioParameters`; :func:`variation_ratio_parameters` calls that
hook first.

The table's numbers are *parameters of the reduction*, not its validity: the certified method
(:mod:`shufflekit.numeric.methods.variation_ratio`) evaluates each pair with its own values,
because the corrected bound is not monotone in :math:`\beta` through :math:`r = \alpha p/q`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import sympy as sp

from shufflekit.errors import InvalidParameter
from shufflekit.symbolic.derivation import Derivation

SOURCE = "Wang et al. 2024, Sec. 4 (variation-ratio parameters)"
#: largest input alphabet of a joint composition expanded to its matrix for the derivation
MAX_JOINT_INPUTS = 64


@dataclass(frozen=True)
class VariationRatioParameters:
    r""":math:`(p, \beta, q)` with the pair attaining :math:`\beta` (``pair``)."""

    p: Any
    beta: Any
    q: Any
    pair: tuple = ()

    def as_tuple(self) -> tuple:
        return (self.p, self.beta, self.q)

    def latex(self) -> str:
        return (
            rf"p = {sp.latex(self.p)},\quad \beta = {sp.latex(self.beta)},\quad "
            rf"q = {sp.latex(self.q)}"
        )


def _exp_cancel(x: sp.Expr) -> sp.Expr:
    """``x`` with every :math:`e^{c s}` (``c`` rational, ``s`` a symbol) written as a power of
    :math:`t = e^{s/L}`, cancelled as a rational function of ``t`` and written back, so that
    e.g. RAPPOR's ratio bound cancels to :math:`e^{\varepsilon_0}`."""
    exps = [e for e in x.atoms(sp.exp) if len(e.args[0].free_symbols) == 1]
    syms = {next(iter(e.args[0].free_symbols)) for e in exps}
    if len(syms) != 1:
        return sp.factor(sp.cancel(x))
    (sym,) = syms
    coeffs = [sp.nsimplify(e.args[0] / sym) for e in exps]
    if not all(c.is_Rational for c in coeffs):
        return sp.factor(sp.cancel(x))
    L = math.lcm(*[int(c.q) for c in coeffs]) if coeffs else 1
    t = sp.Symbol("t", positive=True)
    y = x.subs({e: t ** (c * L) for e, c in zip(exps, coeffs, strict=True)})
    return sp.factor(sp.cancel(y)).subs(t, sp.exp(sym / L))


def _tidy(x):
    """Canonical form: cancelled in the exponentials of its symbol for symbolic values,
    cancelled for closed-form numbers."""
    x = sp.sympify(x)
    if x.free_symbols:
        return _exp_cancel(sp.powsimp(x))
    if x.is_Float:
        return x
    return sp.powsimp(sp.cancel(x))


def finite_parameters(mech) -> VariationRatioParameters:
    r"""Exact :math:`(p, \beta, q)` of a :class:`~shufflekit.mechanisms.finite.FiniteMechanism`."""
    from shufflekit.mechanisms.ordering import sign

    inputs = list(mech.inputs)
    if len(inputs) < 2:
        raise InvalidParameter("mechanism", mech.name, "a mechanism with two inputs or more")
    rows = {x: mech.probs[i] for i, x in enumerate(inputs)}
    mult = mech.multiplicity
    best, arg = None, None
    seen: dict = {}
    for x0, x1 in itertools.permutations(inputs, 2):
        # pairs with the same multiset of column differences have the same TV
        r0, r1 = rows[x0], rows[x1]
        key = None
        if not mech.is_symbolic:
            mp_rows, _ = mech._mp_entries
            key = tuple(
                sorted(
                    str(round(float(mp_rows[x0][j] - mp_rows[x1][j]), 15))
                    + "/"
                    + str(float(mult[j]))
                    for j in range(len(r0))
                )
            )
            if key in seen:
                continue
        tv = sp.Integer(0)
        for m, a, b in zip(mult, r0, r1, strict=True):
            d = sp.sympify(a) - sp.sympify(b)
            if sign(d) > 0:
                tv += sp.sympify(m) * d
        tv = _tidy(tv)
        if key is not None:
            seen[key] = tv
        if best is None or sign(tv - best) > 0:
            best, arg = tv, (x0, x1)
    e0 = mech.eps0()
    ratio = sp.oo if e0 == sp.oo else _tidy(sp.exp(e0))
    # every ordered pair of inputs is both a candidate differing pair and a candidate (x, z), so
    # both ratio bounds are the largest ratio of the matrix, e^eps0 (FiniteMechanism.eps0)
    return VariationRatioParameters(p=ratio, beta=best, q=ratio, pair=arg or ())


def variation_ratio_parameters(mech) -> VariationRatioParameters:
    r""":math:`(p, \beta, q)` of ``mech``: its own ``variation_ratio_parameters()`` if it has
    one, the matrix derivation for finite mechanisms (and small joint compositions)."""
    hook = getattr(mech, "variation_ratio_parameters", None)
    if callable(hook):
        return hook()
    if hasattr(mech, "probs") and hasattr(mech, "multiplicity"):
        return finite_parameters(mech)
    comps = getattr(mech, "components", None)
    if comps:
        size = 1
        for c in comps:
            size *= len(c.inputs)
        if size > MAX_JOINT_INPUTS:
            raise InvalidParameter(
                "mechanism",
                getattr(mech, "name", mech),
                f"a joint composition with at most {MAX_JOINT_INPUTS} input vectors",
                "its matrix is expanded for the derivation",
            )
        return finite_parameters(mech.to_finite())
    raise InvalidParameter(
        "mechanism",
        getattr(mech, "name", type(mech).__name__),
        "a finite mechanism or one defining variation_ratio_parameters()",
        "the variation-ratio parameters are derived from a probability matrix",
    )


def derive(mech) -> Derivation:
    """The parameters of ``mech`` as a :class:`~shufflekit.symbolic.derivation.Derivation`."""
    vr = variation_ratio_parameters(mech)
    params = ", ".join(f"{k}={v}" for k, v in dict(getattr(mech, "params", {})).items())
    p, beta, q = sp.symbols("p beta q")
    return Derivation(
        id="variation-ratio-parameters",
        title=f"variation-ratio parameters of {getattr(mech, 'name', 'the mechanism')}({params})",
        result=sp.Tuple(vr.p, vr.beta, vr.q),
        source=SOURCE,
        steps=(
            ("ratio bound of a pair, p = sup R_x0/R_x1", sp.Eq(p, vr.p)),
            (f"total variation of the worst pair {vr.pair}", sp.Eq(beta, vr.beta)),
            ("ratio bound of the other users, q = sup R_x/R_z", sp.Eq(q, vr.q)),
        ),
    )
