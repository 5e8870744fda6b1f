r"""What the certified accountants establish (Su-Cheng-Wang 2026, Theorems 4 and 5, in ball arithmetic).

Each check recomputes certified enclosures through the accountant registry: the blanket
bound (Su-Cheng-Wang 2026, Thm 4) is a proven upper bound on epsilon(delta) over all replace-one pairs,
the Theorem 5 value a proven lower bound, so the true epsilon of the shuffled mechanism lies
in ``[lower, upper]``; the width of that sandwich is what the claims measure.
"""

from __future__ import annotations

from shufflekit.mechanisms import make
from shufflekit.numeric.accountant import accountant
from shufflekit.verify.claims import CheckContext, claim, confirmed, imprecise, refuted
from shufflekit.verify.mutation import printed


def sandwich(n: int, deltas, k: int = 10, eps0: float = 4.0, rel_tol: float = 1e-6):
    """[(delta, lower, upper)] for k-RR from the certified ``lower`` and ``blanket`` methods."""
    mech = make("krr", k=k, eps0=eps0)
    up, lo = accountant(mech, n, method="blanket"), accountant(mech, n, method="lower")
    return [
        (d, lo.get_epsilon(d, rel_tol=rel_tol).value, up.get_epsilon(d, rel_tol=rel_tol).value)
        for d in deltas
    ]


@claim(
    id="002.thm4-thm5.certified-sandwich",
    paper="002",
    source="Thm 4 (upper) and Thm 5 (lower), 10-RR, eps0 = 4, n = 1e4",
    statement=r"\varepsilon_{\mathrm{Thm5}}(\delta) \le \varepsilon(\delta) \le "
    r"\varepsilon_{\mathrm{Thm4}}(\delta),\ \text{gap} \le 1\%"
    r"\ (\delta = 10^{-6}, 10^{-30}, 10^{-100})",
    section="Sec. 5.3, Sec. 7",
    kind="refinement",
)
def check_002_thm4_thm5_certified_sandwich(ctx: CheckContext):
    deltas = (1e-6,) if ctx.quick else (1e-6, 1e-30, 1e-100)
    rows = sandwich(10**4, deltas)
    if not printed(True, "direction: Thm 5 value <= Thm 4 value"):  # the opposite order
        rows = [(d, up, lo) for d, lo, up in rows]
    text = "; ".join(
        f"delta={d:.0e}: [{lo:.7g}, {up:.7g}] gap {(up - lo) / up:.2%}" for d, lo, up in rows
    )
    if any(lo > up for _, lo, up in rows):
        return refuted("a certified lower bound exceeds a certified upper bound: " + text)
    if all((up - lo) / up <= 0.01 for _, lo, up in rows):
        return confirmed("certified sandwich within 1%: " + text)
    return imprecise(
        "ordered, but the certified Theorem 5 value is not within 1% at every "
        "delta (the lower bound's enumeration is coarsened there): " + text
    )
