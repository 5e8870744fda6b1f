"""The verify layer's layout: per-paper catalog packages, check functions named after their
claims, printed values as data, no import cycle, one set of strategies."""

import ast
import importlib
import pathlib
import re

import shufflekit.verify as verify
from shufflekit.verify.claims import load_catalog

VERIFY = pathlib.Path(verify.__file__).parent
CLAIMS = list(load_catalog())


def _sanitized(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")


def test_check_functions_are_named_after_their_claim_ids():
    for c in CLAIMS:
        name = c.check.__name__
        if c.check.__module__.startswith("shufflekit.verify.catalog."):
            # claims registered in a loop share one function name: the id without its parameter
            tokens = name.removeprefix("check_").split("_")
            assert name.startswith(f"check_{c.paper}_"), (c.id, name)
            id_tokens = _sanitized(c.id).split("_")
            assert all(any(i.startswith(t) for i in id_tokens) for t in tokens), (c.id, name)


def test_catalog_is_split_per_paper_and_discovered_recursively():
    modules = {c.check.__module__ for c in CLAIMS}
    for seed in ("seed000", "seed001", "seed002", "seed003"):
        assert any(m.startswith(f"shufflekit.verify.catalog.{seed}.") for m in modules), seed
    files = list((VERIFY / "catalog").rglob("*.py"))
    assert max(len(f.read_text().splitlines()) for f in files) < 600  # no 1,000-line mixed module (formatted)


def test_printed_values_are_importable_data():
    t1 = importlib.import_module("shufflekit.verify.catalog.seed001.printed")
    assert t1.TABLE3[0.2][0] == "1.566" and t1.TABLE6[1000] == "0.105"
    t2 = importlib.import_module("shufflekit.verify.catalog.seed002.printed")
    assert set(t2.TABLE1) == {"krr", "blh", "rappor", "oue", "hr"}


def test_claims_module_does_not_import_the_runner():
    tree = ast.parse((VERIFY / "claims.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "shufflekit.verify.runner" not in imported and "shufflekit.verify.report" not in imported


def test_one_set_of_hypothesis_strategies():
    tests_root = pathlib.Path(__file__).resolve().parents[1]
    assert not (tests_root / "mechanisms" / "strategies.py").exists()
    from shufflekit.verify import strategies

    assert callable(strategies.probability_rows) and callable(strategies.markov_kernels)


def test_one_brute_force_reference():
    """The exhaustive references live once, in the numeric layer; verify imports them."""
    assert not (VERIFY / "brute_force.py").exists()
    from shufflekit.numeric.kernels import brute_force

    for name in (
        "worst_case_delta",
        "worst_shuffled_delta",
        "dataset_delta",
        "rows_delta",
        "sequence_laws",
        "multinomial_positive_part",
    ):
        assert callable(getattr(brute_force, name)), name
