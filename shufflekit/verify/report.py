r"""Reports of a verification run: terminal table, JSON, Markdown and LaTeX.

The JSON schema is ``{"claims": [{"id", "paper", "source", "statement", "kind",
"verdict", "expected", "evidence", "seconds", "values"}], "summary": {"total", one count per
verdict (including "error"), "kinds", "regressions", "errors", "seconds", "ok"}}``.  A mutation
run (``verify --mutate``) is ``{"papers": {paper: {claims, checkable, killed, not_checkable,
mutants, mutants_killed, kill_rate}}, "overall", "survivors", "explained", "claims"}``.
"""

from __future__ import annotations

import json
import shutil
import textwrap

from shufflekit.verify.claims import PAPERS, Result
from shufflekit.verify.runner import summarise

_ORDER = {"error": 0, "refuted": 1, "imprecise": 2, "not-checkable": 3, "confirmed": 4}


def to_json(results: list[Result]) -> str:
    return json.dumps(
        {"claims": [r.as_dict() for r in results], "summary": summarise(results)}, indent=2
    )


def to_table(results: list[Result], width: int | None = None) -> str:
    width = width or max(100, shutil.get_terminal_size((120, 20)).columns)
    idw = min(44, max((len(r.claim.id) for r in results), default=10))
    head = f"{'claim':<{idw}}  {'verdict':<13} {'expected':<13} evidence"
    lines = [head, "-" * min(width, len(head) + 40)]
    evw = max(30, width - idw - 32)
    for r in results:
        flag = "E" if r.errored else ("!" if r.regression else " ")
        ev = textwrap.shorten(r.outcome.evidence, evw, placeholder=" ...")
        lines.append(
            f"{r.claim.id:<{idw}}{flag} {r.outcome.verdict:<13} {r.claim.expected:<13} {ev}"
        )
    s = summarise(results)
    lines.append("")
    lines.append(
        f"{s['total']} claims: {s['confirmed']} confirmed, {s['refuted']} refuted, "
        f"{s['imprecise']} imprecise, {s['not-checkable']} not checkable, "
        f"{s['error']} error ({s['seconds']:.1f} s)"
    )
    kinds = s["kinds"]
    lines.append(
        f"of which {kinds.get('statement', 0)} statements of the papers, "
        f"{kinds.get('proof-step', 0)} steps of their proofs and {kinds.get('refinement', 0)} "
        f"refinement(s) of ours (not counted as the papers' statements)"
    )
    if s["errors"]:
        lines.append(
            f"{len(s['errors'])} check(s) raised (marked E; a bug in the check, not a "
            f"finding): {', '.join(s['errors'])}"
        )
    if s["regressions"]:
        lines.append(
            f"{len(s['regressions'])} verdict(s) differ from the recorded "
            f"expectation (marked !): {', '.join(s['regressions'])}"
        )
    elif not s["errors"]:
        lines.append("every verdict equals its recorded expectation")
    return "\n".join(lines)


def to_markdown(results: list[Result]) -> str:
    s = summarise(results)
    out = [
        "# shufflekit verification report",
        "",
        f"{s['total']} claims: {s['confirmed']} confirmed, {s['refuted']} refuted, "
        f"{s['imprecise']} imprecise, {s['not-checkable']} not checkable, "
        f"{s['error']} error.",
        "",
    ]
    for paper in sorted({r.claim.paper for r in results}):
        out += [
            f"## {paper}: {PAPERS.get(paper, paper)}",
            "",
            "| claim | source | verdict | expected | evidence |",
            "| --- | --- | --- | --- | --- |",
        ]
        rows = sorted(
            (r for r in results if r.claim.paper == paper),
            key=lambda r: (_ORDER[r.outcome.verdict], r.claim.id),
        )
        for r in rows:
            ev = r.outcome.evidence.replace("|", "\\|").replace("\n", " ")
            if r.claim.kind != "statement":
                ev = f"({r.claim.kind}) " + ev
            out.append(
                f"| `{r.claim.id}` | {r.claim.source} | **{r.outcome.verdict}** | "
                f"{r.claim.expected} | {ev} |"
            )
        out.append("")
    return "\n".join(out)


_TEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def tex_escape(text: str) -> str:
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in text)


def to_latex(results: list[Result]) -> str:
    """A standalone article; refuted and imprecise claims come first."""
    s = summarise(results)
    body = [
        r"\documentclass[10pt]{article}",
        r"\usepackage[margin=0.8in]{geometry}",
        r"\usepackage{amsmath,amssymb,longtable}",
        r"\begin{document}",
        r"\section*{shufflekit verification report}",
        tex_escape(
            f"{s['total']} claims: {s['confirmed']} confirmed, {s['refuted']} "
            f"refuted, {s['imprecise']} imprecise, {s['not-checkable']} not checkable, "
            f"{s['error']} error."
        ),
        "",
    ]
    rows = sorted(results, key=lambda r: (_ORDER[r.outcome.verdict], r.claim.paper, r.claim.id))
    current = None
    for r in rows:
        if r.outcome.verdict != current:
            current = r.outcome.verdict
            body.append(rf"\subsection*{{{tex_escape(current.capitalize())}}}")
        body.append(
            r"\paragraph{" + tex_escape(f"{r.claim.id} ({r.claim.paper}, {r.claim.source})") + "}"
        )
        body.append(r"\textit{Statement:} $" + r.claim.statement + r"$\\")
        body.append(r"\textit{Evidence:} " + tex_escape(r.outcome.evidence))
        body.append("")
    body.append(r"\end{document}")
    return "\n".join(body)


def mutation_json(records, rates) -> str:
    """The mutation run as JSON: kill rates per paper, survivors, explained claims, every mutant."""
    return json.dumps({**rates, "claims": [r.as_dict() for r in records]}, indent=2)


def mutation_table(records, rates) -> str:
    """The mutation run as text: one line per paper, then the surviving and explained claims."""
    lines = [
        f"{'paper':<6} {'claims':>6} {'checkable':>9} {'killed':>6} {'kill rate':>9} "
        f"{'mutants':>7} {'killed':>6}",
        "-" * 60,
    ]
    for paper, p in rates["papers"].items():
        rate = "-" if p["kill_rate"] is None else f"{p['kill_rate']:.1%}"
        lines.append(
            f"{paper:<6} {p['claims']:>6} {p['checkable']:>9} {p['killed']:>6} {rate:>9} "
            f"{p['mutants']:>7} {p['mutants_killed']:>6}"
        )
    o = rates["overall"]
    rate = "-" if o["kill_rate"] is None else f"{o['kill_rate']:.1%}"
    lines += ["", f"overall: {o['killed']} of {o['checkable']} checkable claims killed ({rate})"]
    width = shutil.get_terminal_size((120, 20)).columns
    for title, key in (
        ("surviving (unexplained)", "survivors"),
        ("not checkable (explained)", "explained"),
    ):
        if rates[key]:
            lines += ["", f"{title}:"]
            lines += [
                textwrap.shorten(f"  {s['id']}: {s['reason']}", max(60, width)) for s in rates[key]
            ]
    return "\n".join(lines)
