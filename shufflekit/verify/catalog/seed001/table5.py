r"""Shvets 2026, Table 5: the local privacy curve at pi = 0.3, n = 800."""

from __future__ import annotations

import math

from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.printed import MU_N_800, TABLE5
from shufflekit.verify.catalog.seed001.running_example import (
    fisher_at,
    gdp,
    mixture_fisher_at,
    shuffled_pair_at,
)
from shufflekit.verify.claims import claim


def _t5_values(t: float) -> dict:
    n, k = 800, 240
    mu = math.sqrt(fisher_at(0.3) / n)
    mum = math.sqrt(mixture_fisher_at(0.3) / n)
    eps = t * mu
    ex = shuffled_pair_at(n, k).delta_qp(eps)
    fc, mx = gdp(eps, mu), gdp(eps, mum)
    return {
        "eps": eps,
        "exact": ex,
        "fc": fc,
        "fc_rel": fc / ex - 1,
        "mix": mx,
        "mix_rel": mx / ex - 1,
    }


@claim(
    id="001.table5.mu_n",
    paper="001",
    source="Table 5 caption",
    statement=r"\mu_n = \sqrt{I_\pi/n} = 0.0452\ (\pi = 0.3,\ n = 800)",
    section="Table 5",
)
def check_001_table5_mu_n(ctx):
    return checks.printed_digits(math.sqrt(fisher_at(0.3) / 800), MU_N_800)


for _t, _row in TABLE5.items():
    for _col, _key, _txt in (
        ("eps", "eps", r"\varepsilon = t\mu_n"),
        ("exact", "exact", r"\delta_{\mathrm{exact}}"),
        ("gdp-fc", "fc", r"\delta_{\mathrm{GDP}}(t\mu_n;\mu_n)"),
        ("gdp-fc-rel", "fc_rel", r"\text{fixed-comp. relative error}"),
        ("gdp-mix", "mix", r"\delta_{\mathrm{GDP}}(t\mu_n;\mu^{\mathrm{mix}}_n)"),
        ("gdp-mix-rel", "mix_rel", r"\text{mixture relative error}"),
    ):
        _printed = _row[("eps", "exact", "fc", "fc_rel", "mix", "mix_rel").index(_key)]
        _shown = _printed.replace("%", r"\%")

        @claim(
            id=f"001.table5.t{_t}.{_col}",
            paper="001",
            source=f"Table 5, t = {_t}",
            statement=rf"{_txt} = {_shown}",
            section="Table 5",
        )
        def check_001_table5_t(ctx, _t=_t, _key=_key, _printed=_printed):
            return checks.printed_digits(_t5_values(_t)[_key], _printed, what=f"t={_t}, {_key}")
