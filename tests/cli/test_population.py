"""``profile --population``: users holding different randomizers, from JSON or a file."""

import json

import pytest

import shufflekit as sk
from shufflekit.cli import main

POP = [{"name": "rr", "eps0": 1, "n": 300}, {"name": "rr", "eps0": 2, "n": 300}]


def test_population_profile_is_the_api_result(capsys, tmp_path):
    assert (
        main(["profile", "--population", json.dumps(POP), "--epsilon", "0.5", "--format", "json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    api = sk.accountant([(sk.make("rr", eps0=1), 300), (sk.make("rr", eps0=2), 300)])
    assert out["points"][0]["hi"] == api.get_delta(0.5).hi
    assert out["n"] == 600 and out["mechanism"]["name"] == "population"
    path = tmp_path / "pop.json"
    path.write_text(json.dumps(POP))
    assert main(["profile", "--population", str(path), "--epsilon", "0.5", "--format", "csv"]) == 0
    csv = capsys.readouterr().out.splitlines()
    assert csv[0].startswith("mechanism,population,n,") and "eps0=2" in csv[1]


@pytest.mark.parametrize(
    "pop, needle",
    [
        ('[{"name": "rr", "epz0": 1, "n": 3}]', "did you mean 'eps0'"),
        ('[{"name": "rr", "eps0": 1}]', "population n"),
        ('[{"name": "rr", "eps0": 500, "n": 3}]', "eps0"),
        ("[]", "population"),
        ("no-such-file.json", "no such file"),
    ],
)
def test_bad_populations_are_one_line_and_exit_2(pop, needle, capsys):
    assert main(["profile", "--population", pop, "--epsilon", "0.5"]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_options_that_do_not_apply_are_noted(capsys):
    argv = ["profile", "rr", "--eps0", "1", "--n", "5", "--population", json.dumps(POP)]
    assert main([*argv, "--epsilon", "0.5", "--format", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("MECH 'rr'" in x for x in notes) and any("--n" in x for x in notes)
