"""Mutation testing: corrupting what a claim compares against must change its verdict."""

import json

import pytest
import sympy as sp

from shufflekit.cli import main
from shufflekit.verify import checks
from shufflekit.verify.claims import (
    CheckContext,
    Registry,
    claim,
    confirmed,
    imprecise,
    load_catalog,
)
from shufflekit.verify.mutation import (
    corrupt,
    kill_rates,
    mutate_claim,
    mutate_claims,
    mutation_run,
    printed,
)


@pytest.mark.parametrize(
    "cell, bad",
    [
        ("1.566", "1.569"),
        ("20.0%", "20.3%"),
        ("8.96e-3", "8.99e-3"),
        ("-23%", "-26%"),
        ("0.105", "0.108"),
    ],
)
def test_a_printed_cell_moves_by_three_units_in_its_last_digit(cell, bad):
    assert corrupt(cell) == bad
    # three units is beyond the one-unit rounding slack of printed_digits
    assert (
        checks.printed_digits(float(cell.rstrip("%")) / (100 if "%" in cell else 1), bad).verdict
        == "refuted"
    )


def test_exact_values_and_expressions_are_scaled():
    x = sp.Symbol("x")
    assert corrupt(sp.Rational(3, 2)) == sp.Rational(33, 20)
    assert corrupt(0) == sp.Rational(1, 10)
    assert sp.simplify(corrupt(x**2 / 8) - sp.Rational(11, 80) * x**2) == 0
    assert corrupt(True) is False
    assert corrupt((0, sp.Rational(1, 2))) == (0, sp.Rational(11, 20))
    assert corrupt(lambda k: (k, 1))(2) == (sp.Rational(11, 5), 1)


def test_printed_is_the_identity_outside_a_mutation_run():
    assert printed("1.566", "cell") == "1.566"
    with mutation_run() as run:
        assert printed("1.566", "cell") == "1.566"
    assert [s.name for s in run.sites] == ["cell"]
    with mutation_run(0) as run:
        assert printed("1.566", "cell") == "1.569"
    assert run.corrupted == ("cell", "1.566", "1.569")


def _toy_registry():
    reg = Registry()

    @claim(id="t.computed", paper="000", source="", statement=r"1/3 = 0.333", registry=reg)
    def check_t_computed(ctx):
        return checks.printed_digits(1 / 3, "0.333", what="one third")

    @claim(id="t.fixed", paper="000", source="", statement=r"x", expected="imprecise", registry=reg)
    def check_t_fixed(ctx):
        printed("0.5", "a value the verdict ignores")
        return imprecise("always imprecise")

    @claim(id="t.silent", paper="001", source="", statement=r"x", registry=reg)
    def check_t_silent(ctx):
        return confirmed("compares nothing")

    @claim(
        id="t.explained",
        paper="001",
        source="",
        statement=r"x",
        registry=reg,
        mutation="a qualitative statement: nothing printed to corrupt",
    )
    def check_t_explained(ctx):
        return confirmed("qualitative")

    return reg


def test_the_harness_kills_computed_claims_and_reports_fixed_verdicts():
    reg = _toy_registry()
    ctx = CheckContext(quick=True)
    recs = {r.claim_id: r for r in mutate_claims(reg, ctx)}
    assert recs["t.computed"].status == "killed"
    assert recs["t.computed"].mutants[0].corrupted == "0.336"
    assert (
        recs["t.fixed"].status == "survived"
        and "left the verdict imprecise" in recs["t.fixed"].reason
    )
    assert recs["t.silent"].status == "survived" and "declares nothing" in recs["t.silent"].reason
    assert recs["t.explained"].status == "not-checkable"
    rates = kill_rates(list(recs.values()))
    assert rates["papers"]["000"]["kill_rate"] == 0.5 and rates["papers"]["001"]["kill_rate"] == 0.0
    assert {s["id"] for s in rates["survivors"]} == {"t.fixed", "t.silent"}


def test_every_registered_claim_can_be_mutated_without_crashing_the_harness():
    c = next(c for c in load_catalog() if c.id == "001.table3.pi0.2.I_pi")
    rec = mutate_claim(c, CheckContext(quick=True))
    assert rec.status == "killed" and rec.baseline == "confirmed"


def test_cli_mutate_json_reports_kill_rates(capsys):
    code = main(
        ["verify", "--mutate", "--only", "001.table3.pi0.2*", "--format", "json", "--no-progress"]
    )
    payload = json.loads(capsys.readouterr().out)
    assert payload["papers"]["001"]["kill_rate"] == 1.0 and code == 0
    assert all(m["killed"] for c in payload["claims"] for m in c["mutants"])


# the registry in parts of under a minute each: Takagi-Liew 2026's numeric claims apart from its derivations
PARTS = {
    "000-derivations": lambda c: c.paper == "000" and not c.check.__module__.endswith("numerics"),
    "000-numerics": lambda c: c.paper == "000" and c.check.__module__.endswith("numerics"),
    "001": lambda c: c.paper == "001",
    "002": lambda c: c.paper == "002",
    "003": lambda c: c.paper == "003",
}


@pytest.mark.slow
@pytest.mark.parametrize("part", PARTS)
def test_registry_kill_rate(part):
    """Every checkable claim is killed: each corruption of what it compares against changes its
    verdict; the survivors must carry a reason (`not-checkable` or a mutation note).
    Target from the issue: >= 95% of checkable claims; the registry currently reaches 100%."""
    claims = [c for c in load_catalog() if PARTS[part](c)]
    records = mutate_claims(claims, CheckContext(quick=True))
    rates = kill_rates(records)
    assert rates["overall"]["kill_rate"] >= 0.95, rates["survivors"]
    assert not rates["survivors"], rates["survivors"]
    assert all(e["reason"] for e in rates["explained"])
