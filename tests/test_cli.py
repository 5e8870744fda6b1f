"""The command line: subcommands, the mechanism summary, clean errors with exit status 2."""
import json

import pytest

from shufflekit.cli import build_parser, main


def test_help_lists_subcommands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for cmd in ("verify", "mechanism", "latex", "series", "profile", "histogram"):
        assert cmd in out


def test_mechanism_krr_json(capsys):
    assert main(["mechanism", "krr", "--k", "10", "--eps0", "4", "--epsilon", "0.5",
                 "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["gamma"]["exact"] == "10/(9 + exp(4))"
    assert set(payload) >= {"name", "params", "gamma", "eps0", "chi_lo", "chi_up", "gparv"}
    law = payload["gparv"]
    assert len(law["atoms"]) == 4 and law["epsilon"] == "1/2"
    assert sum(law["probabilities_float"]) == pytest.approx(1.0, abs=1e-14)


@pytest.mark.parametrize("argv,needle", [
    (["mechanism", "krr", "--k", "1", "--eps0", "4"], "k=1"),
    (["mechanism", "bmg", "--gamma", "1.2", "--sigma0", "1"], "gamma=1.2"),
    (["mechanism", "nope"], "unknown mechanism"),
    (["mechanism", "finite", "--matrix", "0.5,0.6;0.5,0.5"], "sums to"),
])
def test_bad_input_is_one_line_and_exit_2(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err
