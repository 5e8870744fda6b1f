"""Every budget mutant (each proven error-budget term set to 0 and divided by 10, listed in
``benchmarks/mutation.py``) is killed by the budget tests of its module.

Runs ``python -m benchmarks.mutation --budget-only`` in fork mode: the mutants live in
memory only, no file of the checkout is written.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from benchmarks.mutation import BUDGET_TERMS  # noqa: E402

MODULES = sorted({t.module for t in BUDGET_TERMS})


@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_every_budget_mutant_is_killed(module):
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.mutation",
            "--budget-only",
            "--root",
            str(ROOT),
            "--module",
            module,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert "survivors:" not in res.stdout, res.stdout
    assert res.returncode == 0, res.stdout + res.stderr[-2000:]
    rows = [line for line in res.stdout.splitlines() if line.startswith("| `")]
    assert len(rows) == 1 and "100.0%" in rows[0], res.stdout
