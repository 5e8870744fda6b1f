"""The notebooks run top to bottom in quick mode, and each .ipynb is paired with its .py source."""

import pathlib

import pytest

NOTEBOOKS = pathlib.Path(__file__).resolve().parent.parent / "notebooks"
SOURCES = sorted(p for p in NOTEBOOKS.glob("[0-9]*.py"))


@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_ipynb_is_paired_with_source(source):
    jupytext = pytest.importorskip("jupytext")
    ipynb = source.with_suffix(".ipynb")
    assert ipynb.exists(), f"{ipynb.name} missing: run `jupytext --sync {source.name}`"
    code_py = [c.source for c in jupytext.read(source).cells if c.cell_type == "code"]
    code_nb = [c.source for c in jupytext.read(ipynb).cells if c.cell_type == "code"]
    assert code_py == code_nb, f"{ipynb.name} is out of date: run `jupytext --sync {source.name}`"


@pytest.mark.slow
@pytest.mark.parametrize("source", SOURCES, ids=[p.stem for p in SOURCES])
def test_notebook_runs_in_quick_mode(source, monkeypatch, tmp_path):
    jupytext = pytest.importorskip("jupytext")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("SHUFFLEKIT_QUICK", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("SHUFFLEKIT_FIGURES", str(tmp_path))  # keep the shipped figures intact
    nb = jupytext.read(source)
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "error"
    ]
    assert not errors
    assert list(tmp_path.glob("*.pdf")) and list(tmp_path.glob("*.png")), "no figure saved"
