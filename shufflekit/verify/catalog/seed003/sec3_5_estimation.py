r"""The Shvets summary, Sec. 3.5: frequency estimation."""

from __future__ import annotations

from shufflekit.verify.claims import claim, not_checkable


@claim(
    id="003.3.5.frequency-estimation",
    paper="003",
    source="Sec. 3.5",
    statement=r"\text{exact calibration lowers estimation error at equal privacy}",
    expected="not-checkable",
    section="003 Sec. 3.5",
)
def check_003_3_5_frequency_estimation(ctx):
    return not_checkable("no mechanism, budget or numbers are given")
