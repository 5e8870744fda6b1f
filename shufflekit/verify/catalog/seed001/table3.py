r"""Shvets 2026, Table 3: I_pi, chi^2, I_mix and the mixture underestimate at four compositions."""

from __future__ import annotations

from shufflekit.symbolic import fixed_composition as F
from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.printed import TABLE3
from shufflekit.verify.catalog.seed001.running_example import (
    W0,
    W1,
    fisher_at,
    latex_percent,
    mixture_fisher_at,
)
from shufflekit.verify.claims import claim


@claim(
    id="001.table3.chi2",
    paper="001",
    source="Table 3, chi^2 column (every row)",
    statement=r"\chi^2(W_1\|W_0) = "
    + " = ".join(sorted({row[1] for row in TABLE3.values()}))
    + r"\ \text{(the same channel constant in every row)}",
    section="Table 3",
)
def check_001_table3_chi2(ctx):
    """The chi^2 column repeats one channel constant; one check compares every printed cell."""
    chi2 = float(F.endpoint_chi2(W0, W1).extras["chi2_10"])
    return checks.all_confirmed(
        [
            checks.printed_digits(chi2, row[1], what=f"chi^2(W1||W0), row pi={p}")
            for p, row in TABLE3.items()
        ],
        f"chi^2(W1||W0) = {chi2:.6f}",
    )


for _p, (_ip, _chi, _im, _ue) in TABLE3.items():

    @claim(
        id=f"001.table3.pi{_p}.I_pi",
        paper="001",
        source=f"Table 3, pi = {_p}",
        statement=rf"I_{{{_p}}} = {_ip}",
        section="Table 3",
    )
    def check_001_table3_pi_I_pi(ctx, _p=_p, _ip=_ip):
        return checks.printed_digits(fisher_at(_p), _ip, what=f"I_pi at pi={_p}")

    @claim(
        id=f"001.table3.pi{_p}.I_mix",
        paper="001",
        source=f"Table 3, pi = {_p}",
        statement=rf"I^{{\mathrm{{mix}}}}_{{{_p}}} = {_im}",
        section="Table 3",
    )
    def check_001_table3_pi_I_mix(ctx, _p=_p, _im=_im):
        return checks.printed_digits(mixture_fisher_at(_p), _im, what=f"I_mix at pi={_p}")

    @claim(
        id=f"001.table3.pi{_p}.underestimate",
        paper="001",
        source=f"Table 3, pi = {_p}",
        statement=rf"1 - I^{{\mathrm{{mix}}}}_\pi/I_\pi = {latex_percent(_ue)}",
        section="Table 3",
    )
    def check_001_table3_pi_underestimate(ctx, _p=_p, _ue=_ue):
        return checks.printed_digits(
            1 - mixture_fisher_at(_p) / fisher_at(_p), _ue, what=f"mixture underestimate at pi={_p}"
        )
