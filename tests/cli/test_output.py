"""The output model: standard JSON with reasons for non-finite numbers, tables, CSV, progress."""

import io
import json
import math
import sys
import time

import pytest

from shufflekit.cli.output import check_output, columns, finite_json, to_csv, to_json
from shufflekit.cli.progress import busy
from shufflekit.errors import InvalidParameter


def test_non_finite_numbers_become_null_with_a_reason():
    payload = {"a": math.inf, "b": -math.inf, "c": math.nan, "d": 1.5, "e": [math.inf, 2.0]}
    out = finite_json(payload)
    assert out["a"] is None and out["a_note"] == "infinite"
    assert out["b"] is None and out["b_note"] == "minus infinity"
    assert out["c"] is None and out["c_note"] == "not a number"
    assert out["d"] == 1.5 and out["e"] == [None, 2.0]
    json.loads(to_json(payload), parse_constant=lambda name: pytest.fail(name))


def test_columns_align_numbers_right():
    text = columns([{"x": 1.0, "name": "a"}, {"x": 12345.0, "name": "bbb"}])
    assert text.splitlines() == ["    x  name", "-----  ----", "    1  a", "12345  bbb"]


def test_csv_has_a_header_and_empty_cells_for_missing_values():
    text = to_csv([{"epsilon": 0.5, "delta": math.inf}, {"epsilon": 1.0, "delta": 0.1}])
    rows = text.splitlines()
    assert rows[0] == "epsilon,delta,delta_note"
    assert rows[1] == "0.5,,infinite"


@pytest.mark.parametrize(
    "path,why", [("/nonexistent/dir/x", "no directory"), ("/", "directory"), ("", "empty")]
)
def test_unwritable_output_is_bad_input(path, why):
    with pytest.raises(InvalidParameter, match=why):
        check_output(path)


def test_progress_appears_only_after_the_delay(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    fake = Terminal()
    monkeypatch.setattr(sys, "stderr", fake)
    with busy("quick", after=5.0):
        pass
    assert fake.getvalue() == ""  # a fast computation prints nothing
    with busy("slow", after=0.05):
        # wait for the event (the indicator written), not for a fixed time; the cap is a
        # safety net for a loaded machine
        deadline = time.monotonic() + 60
        while "slow" not in fake.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    assert "slow" in fake.getvalue()
