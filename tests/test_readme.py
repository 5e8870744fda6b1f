"""The README's Python examples run, and print what the README says they print.

Every ```` ```python ```` block of README.md is run as a program of its own (a fresh
interpreter, in a temporary directory).  Where the block is followed by a line ``prints`` and a
plain block, the program's output must match it line by line: the text and the integers
exactly, each decimal number to the digits the README prints (within one unit of its last
digit, so a last-digit rounding of another platform passes and any real change fails).  A block whose first line is a comment
``# FILE — run with: shufflekit ...`` is also written to FILE and run that way.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w*)\s*$")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
RUN_WITH = re.compile(r"^#\s*(\S+\.py)\s*\S*\s*run with:\s*(.+?)\s*$")
TIMEOUT = 600  # a safety net for a loaded machine; the examples take seconds


def blocks(text: str) -> list[tuple[str, str, int]]:
    """The fenced blocks of ``text`` as (language, body, first line number)."""
    out, lang, body, start = [], None, [], 0
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if lang is None and m:
            lang, body, start = m.group(1), [], number + 1
        elif lang is not None and line.strip() == "```":
            out.append((lang, "\n".join(body) + "\n", start))
            lang = None
        elif lang is not None:
            body.append(line)
    return out


def examples() -> list[tuple[str, str | None, int]]:
    """Each python block with the output the README shows for it (``None`` if it shows none)."""
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = blocks(text)
    out = []
    for i, (lang, body, start) in enumerate(found):
        if lang != "python":
            continue
        end = start + body.count("\n")  # line number of the closing fence
        after = lines[end] if end < len(lines) else ""
        shown = None
        if after.strip() == "prints" and i + 1 < len(found) and found[i + 1][0] == "":
            shown = found[i + 1][1]
        out.append((body, shown, start))
    return out


def same_line(actual: str, shown: str) -> bool:
    """Text and integers equal; each decimal within one unit of the shown one's last digit."""
    a_nums, s_nums = NUMBER.findall(actual), NUMBER.findall(shown)
    if NUMBER.sub("#", actual).rstrip() != NUMBER.sub("#", shown).rstrip() or len(a_nums) != len(
        s_nums
    ):
        return False
    for a, s in zip(a_nums, s_nums):
        if re.fullmatch(r"[-+]?\d+", s):  # an integer (in exact text too): exactly
            if a != s:
                return False
            continue
        unit = Decimal(1).scaleb(Decimal(s).as_tuple().exponent)
        if abs(Decimal(a) - Decimal(s)) > unit:
            return False
    return True


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)


EXAMPLES = examples()


def test_the_readme_has_examples_and_shows_output_for_the_first():
    assert len(EXAMPLES) >= 2
    assert EXAMPLES[0][1] is not None


def test_number_comparison_is_to_the_printed_digits():
    assert same_line("x 1.005946157e-24 in [1]", "x 1.005946156e-24 in [1]")
    assert not same_line("x 1.005946159e-24", "x 1.005946157e-24")
    assert not same_line("0.1568379606870002", "0.1568379606870102")
    assert same_line("10/(9 + exp(4))", "10/(9 + exp(4))")
    assert not same_line("10/(9 + exp(5))", "10/(9 + exp(4))")
    assert not same_line("upper: 1e-24", "lower: 1e-24")


@pytest.mark.parametrize("body, shown, line", EXAMPLES, ids=[f"line{e[2]}" for e in EXAMPLES])
def test_readme_example(body, shown, line, tmp_path):
    done = run([sys.executable, "-c", body], tmp_path)
    assert done.returncode == 0, f"README line {line}:\n{done.stderr}"
    if shown is not None:
        got, want = done.stdout.rstrip("\n").splitlines(), shown.rstrip("\n").splitlines()
        assert len(got) == len(want), f"README line {line}: printed\n{done.stdout}"
        for g, w in zip(got, want):
            assert same_line(g, w), f"README line {line}:\n  printed: {g}\n  README:  {w}"
    first = body.splitlines()[0]
    m = RUN_WITH.match(first)
    if m:  # the way the block itself says to run it
        (tmp_path / m.group(1)).write_text(body, encoding="utf-8")
        args = shlex.split(m.group(2))
        assert args[0] == "shufflekit"
        done = run([sys.executable, "-m", "shufflekit.cli", *args[1:]], tmp_path)
        assert done.returncode == 0, f"README line {line}: {m.group(2)}\n{done.stdout}{done.stderr}"
