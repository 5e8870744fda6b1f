"""The claim registry: registration, running, verdict regressions and report formats."""

import json

import pytest

from shufflekit.verify import report
from shufflekit.verify.claims import (
    CheckContext,
    Claim,
    Outcome,
    Registry,
    claim,
    confirmed,
    refuted,
)
from shufflekit.verify.runner import exit_status, run_claims, summarise


def _registry():
    reg = Registry()

    @claim(id="t.ok", paper="000", source="Eq. 1", statement=r"1 + 1 = 2", registry=reg)
    def _ok(ctx):
        return confirmed("1 + 1 = 2", value=2)

    @claim(
        id="t.bad",
        paper="002",
        source="Table 1",
        statement=r"2 + 2 = 5",
        expected="refuted",
        registry=reg,
    )
    def _bad(ctx):
        return refuted("2 + 2 = 4, paper prints 5", derived=4, printed=5)

    @claim(id="t.crash", paper="001", source="Prop 1", statement=r"x", registry=reg)
    def _crash(ctx):
        raise ZeroDivisionError("boom")

    return reg


def test_duplicate_ids_are_rejected():
    reg = _registry()
    with pytest.raises(ValueError, match="registered twice"):
        reg.add(Claim(id="t.ok", paper="000", source="", statement="", check=lambda c: None))


def test_run_records_verdicts_and_regressions():
    results = run_claims(_registry(), CheckContext(quick=True), progress=False)
    by_id = {r.claim.id: r for r in results}
    assert by_id["t.ok"].outcome.verdict == "confirmed" and not by_id["t.ok"].regression
    assert by_id["t.bad"].outcome.verdict == "refuted" and not by_id["t.bad"].regression
    # a crashing check gets the verdict 'error' (never 'refuted'), counted apart from regressions
    crash = by_id["t.crash"]
    assert crash.outcome.verdict == "error" and crash.errored and not crash.regression
    assert crash.outcome.evidence == "check raised ZeroDivisionError: boom"
    s = summarise(results)
    assert s["errors"] == ["t.crash"] and s["regressions"] == [] and not s["ok"]
    assert (s["confirmed"], s["refuted"], s["error"]) == (1, 1, 1)
    assert exit_status(results) == 4
    assert exit_status([by_id["t.ok"], by_id["t.bad"]]) == 0


def test_a_changed_verdict_exits_1_and_an_error_exits_4():
    reg = Registry()

    @claim(id="t.flip", paper="000", source="", statement="", registry=reg)
    def _flip(ctx):
        return refuted("changed")

    results = run_claims(reg, progress=False)
    assert summarise(results)["regressions"] == ["t.flip"] and exit_status(results) == 1


def test_error_is_not_an_expectable_verdict():
    with pytest.raises(ValueError, match="expected='error'"):
        Registry().add(
            Claim(
                id="x", paper="000", source="", statement="", check=lambda c: None, expected="error"
            )
        )


def test_dps_moves_the_working_precision():
    assert CheckContext().digits(60) == 60
    assert CheckContext(dps=80).digits(60) == 90 and CheckContext(dps=20).digits(40) == 15


def test_json_schema():
    results = run_claims(_registry(), progress=False)
    payload = json.loads(report.to_json(results))
    keys = {"id", "paper", "source", "statement", "verdict", "expected", "evidence", "seconds"}
    assert all(keys <= set(c) for c in payload["claims"])
    assert payload["summary"]["total"] == 3 and payload["summary"]["errors"] == ["t.crash"]


def test_markdown_and_latex_put_findings_first():
    results = run_claims(_registry(), progress=False)
    tex = report.to_latex(results)
    assert tex.index("Error") < tex.index("Refuted") < tex.index("Confirmed")
    assert tex.strip().endswith(r"\end{document}")
    md = report.to_markdown(results)
    assert "| `t.bad` |" in md


def test_select_by_pattern():
    reg = _registry()
    assert [c.id for c in reg.select("t.b*")] == ["t.bad"]
    assert [c.id for c in reg.select("002")] == ["t.bad"]


def test_outcome_rejects_unknown_verdict():
    with pytest.raises(ValueError, match="verdict='maybe'"):
        Outcome("maybe", "")
