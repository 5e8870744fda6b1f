"""A user registers a claim about their own mechanism and runs it with the same machinery."""

import json
import textwrap

import pytest

from shufflekit.cli import main

PLUGIN = textwrap.dedent('''
    import math
    from hypothesis import strategies as st
    from shufflekit.mechanisms import FiniteMechanism
    from shufflekit.verify import claim, confirmed, refuted
    from shufflekit.verify.checks import property_holds

    def my_mechanism(p):
        """A three-output randomizer of my own."""
        return FiniteMechanism.from_matrix([[p, (1 - p) / 2, (1 - p) / 2],
                                            [(1 - p) / 2, p, (1 - p) / 2]])

    @claim(id="user.gamma", paper="user", source="my Lemma 1",
           statement=r"\\gamma(p) = \\tfrac32(1 - p) \\text{ for } p \\ge 1/3")
    def _gamma(ctx):
        gaps = [abs(float(my_mechanism(p).blanket().gamma) - 1.5 * (1 - p)) for p in (0.4, 0.6, 0.9)]
        return confirmed("gamma = 3(1 - p)/2", max_gap=max(gaps)) if max(gaps) < 1e-12 else \\
            refuted("gamma differs", max_gap=max(gaps))

    @claim(id="user.chi-order", paper="user", source="my Lemma 2",
           statement=r"\\chi_{up} \\ge \\chi_{lo}")
    def _order(ctx):
        return property_holds(st.floats(0.34, 0.95), lambda p: float(my_mechanism(p).chi_up().value)
                              >= float(my_mechanism(p).chi_lo().value) * (1 - 1e-12), ctx,
                              what="chi_up >= chi_lo")

    @claim(id="user.wrong", paper="user", source="my Lemma 3", statement=r"\\gamma = 1",
           expected="refuted")
    def _wrong(ctx):
        g = float(my_mechanism(0.5).blanket().gamma)
        return refuted(f"gamma = {g}, not 1", gamma=g) if g != 1 else confirmed("gamma = 1")
''')


def verify_plugin(tmp_path, capsys, name: str, source: str, only: str):
    """Write ``source`` as plugin ``name`` and run ``verify --plugin`` on the ids ``only`` with
    JSON output; returns the exit code and the parsed payload."""
    plugin = tmp_path / name
    plugin.write_text(source)
    code = main(
        ["verify", "--plugin", str(plugin), "--only", only, "--format", "json", "--no-progress"]
    )
    return code, json.loads(capsys.readouterr().out)


def test_user_plugin_runs_through_the_cli(tmp_path, capsys):
    code, payload = verify_plugin(tmp_path, capsys, "my_claims.py", PLUGIN, "user.*")
    verdicts = {c["id"]: c["verdict"] for c in payload["claims"]}
    assert verdicts == {
        "user.gamma": "confirmed",
        "user.chi-order": "confirmed",
        "user.wrong": "refuted",
    }
    assert code == 0  # every verdict equals its recorded expectation


CRASHING = textwrap.dedent("""
    from shufflekit.verify import claim, confirmed

    @claim(id="user.crash", paper="user", source="my Lemma 4", statement=r"x")
    def _crash(ctx):
        return confirmed("never", value=1 / 0)
""")


def test_a_crashing_user_check_exits_4_with_the_error_line(tmp_path, capsys):
    code, payload = verify_plugin(tmp_path, capsys, "crash.py", CRASHING, "user.crash")
    assert code == 4
    assert payload["claims"][0]["verdict"] == "error"
    assert payload["claims"][0]["evidence"] == "check raised ZeroDivisionError: division by zero"


def test_dps_out_of_range_is_bad_input(capsys):
    assert main(["verify", "--only", "000.eq.gm-mse", "--dps", "3", "--no-progress"]) == 2
    assert "dps" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text, why",
    [("raise RuntimeError('boom')\n", "RuntimeError: boom"), ("def x(:\n", "SyntaxError")],
)
def test_plugin_that_fails_to_import_is_bad_input(tmp_path, capsys, text, why):
    from shufflekit.cli import main

    plugin = tmp_path / "mine.py"
    plugin.write_text(text)
    assert main(["verify", "--plugin", str(plugin), "--only", "none.*"]) == 2
    err = capsys.readouterr().err
    assert "plugin=" in err and why in err and "Traceback" not in err
