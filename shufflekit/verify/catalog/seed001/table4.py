r"""Shvets 2026, Table 4: 8n JSD at pi = 0.3 and its relative gaps."""

from __future__ import annotations

from shufflekit.verify import checks
from shufflekit.verify.catalog.seed001.printed import TABLE4
from shufflekit.verify.catalog.seed001.running_example import (
    composition_k,
    fisher_at,
    latex_percent,
    mixture_fisher_at,
    shuffled_pair_at,
)
from shufflekit.verify.claims import claim

for _n, (_v, _ri, _rm) in TABLE4.items():

    @claim(
        id=f"001.table4.n{_n}.8nJSD",
        paper="001",
        source=f"Table 4, n = {_n}",
        statement=rf"8n\,\mathrm{{JSD}}(T_{{{_n},{composition_k(_n)}}}\|T_{{{_n},{composition_k(_n) + 1}}}) = {_v}",
        section="Table 4",
    )
    def check_001_table4_n_8nJSD(ctx, _n=_n, _v=_v):
        return checks.printed_digits(
            8 * _n * shuffled_pair_at(_n, composition_k(_n)).jsd(),
            _v,
            what=f"n={_n}, k={composition_k(_n)}",
        )

    @claim(
        id=f"001.table4.n{_n}.rel-I",
        paper="001",
        source=f"Table 4, n = {_n}",
        statement=rf"8n\,\mathrm{{JSD}}/I_\pi - 1 = {latex_percent(_ri)}",
        section="Table 4",
    )
    def check_001_table4_n_rel_I(ctx, _n=_n, _ri=_ri):
        return checks.printed_digits(
            8 * _n * shuffled_pair_at(_n, composition_k(_n)).jsd() / fisher_at(0.3) - 1, _ri
        )

    @claim(
        id=f"001.table4.n{_n}.rel-mix",
        paper="001",
        source=f"Table 4, n = {_n}",
        statement=rf"8n\,\mathrm{{JSD}}/I^{{\mathrm{{mix}}}}_\pi - 1 = {latex_percent(_rm)}",
        section="Table 4",
    )
    def check_001_table4_n_rel_mix(ctx, _n=_n, _rm=_rm):
        return checks.printed_digits(
            8 * _n * shuffled_pair_at(_n, composition_k(_n)).jsd() / mixture_fisher_at(0.3) - 1, _rm
        )
