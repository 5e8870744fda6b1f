"""LaTeX output (compiled with a real pdflatex) and the ``latex`` / ``series`` commands."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from shufflekit.cli import main
from shufflekit.symbolic.latex_document import document
from shufflekit.symbolic.results import RESULTS, SERIES_IDS, get

REQUIRED_SERIES = (
    "central-gaussian.asymptotics",
    "bmg.chi-lo",
    "bmg.err-expansion",
    "bmg.optimal-expansion",
    "gaussian-local.variance",
    "gaussian-local.sigma2-in-chi",
    "rr.err-in-chi",
    "privunit.constant",
)


def test_required_series_ids_present():
    assert set(REQUIRED_SERIES) <= set(SERIES_IDS)
    assert all(i in RESULTS for i in REQUIRED_SERIES)


def test_series_json(capsys):
    assert main(["series", "gaussian-local.sigma2-in-chi", "--order", "5", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload) >= {"id", "variable", "expansion_in", "terms"}
    assert payload["variable"] == "chi"
    assert [t["exponent"] for t in payload["terms"]] == ["2", "0", "-2", "-4", "-6"]
    assert [t["coefficient"] for t in payload["terms"][:4]] == ["1", "9/2", "-145/12", "651/8"]


def test_series_text_and_latex(capsys):
    assert main(["series", "rr.err-in-chi", "--order", "4", "--format", "text"]) == 0
    assert "chi" in capsys.readouterr().out
    assert main(["series", "bmg.err-expansion", "--order", "3", "--format", "latex"]) == 0
    out = capsys.readouterr().out
    assert r"\frac{3 d}{2} \chi^{\frac{4}{3}}" in out


def test_series_bad_input(capsys):
    assert main(["series", "no.such", "--order", "3"]) == 2
    assert "id='no.such' is not allowed; allowed a series id" in capsys.readouterr().err
    assert main(["series", "rr.err-in-chi", "--order", "0"]) == 2
    assert "order=0" in capsys.readouterr().err


def test_latex_list(capsys):
    assert main(["latex", "--list"]) == 0
    out = capsys.readouterr().out
    for rid in REQUIRED_SERIES:
        assert rid in out


def test_latex_unknown_id(capsys):
    assert main(["latex", "nope"]) == 2
    assert "ids='nope' is not allowed; allowed result ids" in capsys.readouterr().err


def test_derivation_latex_has_align():
    text = get("bmg.chi-lo").latex()
    assert r"\begin{align*}" in text and r"\end{align*}" in text


@pytest.mark.parametrize(
    "plain,expected",
    [
        ("0 < gamma < 1", r"$0 < \gamma < 1$"),
        ("chi_lo = chi -> oo", r"$\chi_{\mathrm{lo}} = \chi \to \infty$"),
        ("E||x-hat - x||^2 at ||x|| = r", r"at $\| x \| = r$"),
        ("p = e^eps0/(e^eps0 + 1) in (1/2, 1)", r"e^{\varepsilon_0}"),
        ("a = eps sigma sqrt(n) -> oo with eps fixed", r"\sqrt{n}"),
        ("e a unit vector", "$e$ a unit vector"),
        (
            "HCR bound for BMG through the reference x = 0",
            "HCR bound for BMG through the reference $x = 0$",
        ),
    ],
)
def test_text_to_latex(plain, expected):
    from shufflekit.symbolic.latex_text import text_to_latex

    assert expected in text_to_latex(plain)


def outside_math(line: str) -> str:
    """``line`` with its $...$ parts removed."""
    parts = line.split("$")
    assert len(parts) % 2 == 1, f"unbalanced $ in {line!r}"
    return "".join(parts[0::2])


@pytest.fixture(scope="module")
def all_document():
    return document(sorted(RESULTS))


def test_document_text_has_no_bare_relations(all_document):
    """In text mode the default font prints < and > as inverted ! and ?: they must be in math."""
    for line in all_document.splitlines():
        if line.startswith((r"\paragraph", "Assumptions:", r"\intertext", "Source:")):
            text = outside_math(line)
            assert "<" not in text and ">" not in text and "||" not in text, line


def test_document_typesets_eps0(all_document):
    assert r"\varepsilon_{0}" in all_document
    assert "eps0" not in all_document and r"\mathrm{eps}" not in all_document


def test_long_sums_are_broken(all_document):
    from shufflekit.symbolic.derivation import LINE_CHARS, split_terms, visible_width

    for line in all_document.splitlines():
        if line.startswith(r"&\fiteq{"):
            body = line[len(r"&\fiteq{") :].rstrip(" \\")[:-1]
            # a line is over the target only when it is a single term that cannot be cut
            assert visible_width(body) <= LINE_CHARS or len(split_terms(body)) <= 2, line


@pytest.mark.slow
def test_document_compiles_without_overfull_boxes(tmp_path):
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (install texlive-latex-base to run this test)")
    tex = tmp_path / "paper.tex"
    assert main(["latex", "--all", "--document", "-o", str(tex)]) == 0
    proc = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 1000
    log = (tmp_path / "paper.log").read_text(encoding="latin-1")
    overfull = [ln for ln in log.splitlines() if ln.startswith("Overfull \\hbox")]
    assert overfull == [], overfull[:5]
