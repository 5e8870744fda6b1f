r"""Mutation testing of the certified numeric modules: would a test notice a wrong line?

Usage (from the repository root)::

    python -m benchmarks.mutation [--module shufflekit/numeric/methods/blanket_fft.py ...]
                                  [--budget-only] [--root DIR] [--mode fork|file]
                                  [--sample N] [--seed S] [--jobs J] [--timeout SECONDS]
                                  [--only FILE:LINE[:TEXT] ...] [--match TEXT ...]

Each mutant changes one node of the source of one function of a certified module (module
level code, docstrings, strings and the arguments of ``raise`` are never mutated):

* arithmetic: ``+`` <-> ``-``, ``*`` -> ``/``, ``/`` -> ``*``;
* a dropped term: ``a + b`` -> ``a`` and -> ``b``, ``a - b`` -> ``a``;
* comparisons: ``<`` <-> ``<=``, ``>`` <-> ``>=``;
* numeric constants: ``c`` -> ``0``, ``c * 10``, ``c / 10`` (``0`` -> ``1``);
* ``min`` <-> ``max`` (also ``np.minimum`` / ``np.maximum``), and a two-argument
  ``min``/``max`` reduced to either argument (swapping the two arguments is an equivalent
  mutant, so it is not generated).

A mutant is *killed* when the module's mapped test files (:data:`TEST_MAP`, run with
``pytest -x -q -m "not slow"``) fail or time out.  The *budget mutants*
(:data:`BUDGET_TERMS`) are the proven error-budget terms of the modules, each set to 0 and
each divided by 10; with ``--budget-only`` only they run, against the budget tests alone.

Two ways to run a mutant:

* ``--mode fork`` (default): the target modules are imported once; each mutant runs in a
  forked child that compiles the mutated function and swaps its code object into the
  loaded function (so every reference to it, imported names and registered callbacks
  included, runs the mutant), then runs pytest in-process.  No file is written.
* ``--mode file``: the mutated source is written to the file under ``--root``, pytest runs
  in a subprocess, and the original text is restored in a ``finally`` block.  The tool
  refuses this mode when the git work tree of a target file is dirty; point ``--root`` at a
  private copy (``git worktree add /tmp/mutwt HEAD``), never at a shared checkout.

Prints one kill-rate table per module and lists every survivor as ``file:line  mutation``.
To re-run one survivor, select it with ``--only FILE:LINE`` (every mutant on that line; the
filter applies before ``--sample``) or ``--only FILE:LINE:TEXT`` (those whose description
contains ``TEXT``), e.g. ``--only "shufflekit/numeric/methods/lower.py:164:<="``; ``--match TEXT``
keeps, of the selected mutants, those whose description contains one of its pieces.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

#: module -> the test files that guard it, fast ones only (each runs in seconds to about half
#: a minute; slow-marked tests are deselected); budget and unit tests first: they kill fastest
TEST_MAP: dict[str, list[str]] = {
    "shufflekit/numeric/kernels/directed_rounding.py": [
        "tests/numeric/test_directed_rounding.py",
        "tests/numeric/test_directed_rounding_mutants.py",
    ],
    "shufflekit/numeric/kernels/caller_state.py": ["tests/numeric/test_caller_state.py"],
    "shufflekit/numeric/accountant.py": [
        "tests/numeric/test_accountant_contract_core.py",
        "tests/numeric/test_caller_state.py",
    ],
    "shufflekit/numeric/methods/blanket_fft.py": [
        "tests/numeric/test_budget_blanket_fft.py",
        "tests/numeric/test_blanket_fft_mutants.py",
        "tests/numeric/test_blanket_fft.py",
    ],
    "shufflekit/numeric/kernels/gparv_law.py": [
        "tests/numeric/test_budget_gparv_law.py",
        "tests/numeric/test_gparv_law_mutants.py",
        "tests/numeric/test_blanket_fft.py",
        "tests/numeric/test_blanket.py",
    ],
    "shufflekit/numeric/kernels/radix2_fft.py": [
        "tests/numeric/test_budget_radix2_fft.py",
        "tests/numeric/test_radix2_fft.py",
        "tests/numeric/test_composition.py",
    ],
    "shufflekit/numeric/composition/fixed.py": [
        "tests/numeric/test_budget_composition.py",
        "tests/numeric/test_composition_mutants.py",
        "tests/numeric/test_composition.py",
    ],
    "shufflekit/numeric/composition/dominating_pair.py": [
        "tests/numeric/test_budget_dominating_pair.py",
        "tests/numeric/test_dominating_pair_mutants.py",
        "tests/numeric/test_dominating_pair.py",
    ],
    "shufflekit/numeric/kernels/positive_part.py": [
        "tests/numeric/test_budget_positive_part.py",
        "tests/numeric/test_positive_part_mutants.py",
        "tests/numeric/test_positive_part_edges.py",
        "tests/numeric/test_positive_part_anchored.py",
        "tests/numeric/test_blanket.py",
    ],
    "shufflekit/numeric/methods/lower.py": [
        "tests/numeric/test_lower_mutants.py",
        "tests/numeric/test_lower.py",
    ],
    "shufflekit/numeric/bound.py": ["tests/numeric/test_bound.py"],
    "shufflekit/numeric/methods/blanket.py": [
        "tests/numeric/test_blanket_mutants.py",
        "tests/numeric/test_blanket.py",
    ],
    "shufflekit/numeric/kernels/lognormal_lattice.py": ["tests/numeric/test_continuous.py"],
    "shufflekit/numeric/methods/bmg_blanket.py": ["tests/numeric/test_continuous.py"],
}

#: functions left out of the mutation run, with the reason
EXCLUDED: dict[str, dict[str, str]] = {
    "shufflekit/numeric/methods/blanket_fft.py": {
        "blanket_delta_plain_fft": "the uncertified comparison implementation (docstring)",
    },
}


@dataclass(frozen=True)
class BudgetTerm:
    """One proven error-budget term: the expression ``expr`` inside function ``function``."""

    module: str
    function: str
    expr: str | tuple[str, ...]  # the expression; a tuple lists accepted spellings
    label: str
    nth: int = 0  # which occurrence in the function (source order)
    tenth: str = ""  # non-empty: why the "divided by 10" mutant is not run


#: the proven error-budget terms of the certified modules (each set to 0 and divided by 10)
BUDGET_TERMS: list[BudgetTerm] = [
    # blanket_fft.py: lattice remainder, periodisation, left-out frequencies, float errors
    BudgetTerm(
        "shufflekit/numeric/methods/blanket_fft.py",
        "modulus_bounds",
        "dropped * math.exp(floor) * (1 + LOG_PAD)",
        "left-out frequencies (tail)",
    ),
    BudgetTerm(
        "shufflekit/numeric/methods/blanket_fft.py",
        "modulus_bounds",
        "math.sqrt(2) * g_r2 * np.sum((1 + ew) * (cabs + eC))",
        "inner-product round-off of phi",
    ),
    BudgetTerm(
        "shufflekit/numeric/methods/blanket_fft.py",
        "modulus_bounds",
        "np.sum((1 + ew) * eC + ew * (qf + qerr))",
        "root and weight errors of phi",
    ),
    BudgetTerm(
        "shufflekit/numeric/methods/blanket_fft.py",
        "lattice_expectation",
        (
            "2 * rest * float(h0.upper()) * (1 + 4 * UNIT)",
            "2 * rest * float_up(h0) * (1 + 4 * UNIT)",
        ),
        "left-out frequencies in the Parseval sum",
    ),
    BudgetTerm(
        "shufflekit/numeric/methods/blanket_fft.py",
        "lattice_expectation",
        "_chernoff_shift(law.d, law.q, n, c)",
        "lattice remainder (rounding shift)",
    ),
    BudgetTerm(
        "shufflekit/numeric/methods/blanket_fft.py",
        "lattice_expectation",
        "(2 / (arb(1).exp() * tA)) * (-(tl * (a + N)) / 2).exp() / (1 - (-(tl * N) / 2).exp())",
        "periodisation (wrapped copies, lower end)",
    ),
    BudgetTerm(
        "shufflekit/numeric/methods/blanket_fft.py",
        "lattice_delta",
        "prob_rel_err * (1.0 + (1.0 / q0 if q0 > 0 else 0.0))",
        "relative error of the float weights",
    ),
    BudgetTerm(
        "shufflekit/numeric/methods/blanket_fft.py",
        "root_table",
        "(2 * err + err * err + math.sqrt(2) * g2 * (1 + err) ** 2) * (1 + 4 * UNIT)",
        "root-of-unity product error",
    ),
    BudgetTerm(
        "shufflekit/numeric/methods/blanket_fft.py",
        "direct_expectation",
        "arb(gam(2 * r))",
        "direct convolution round-off",
    ),
    # gparv_law.py
    BudgetTerm(
        "shufflekit/numeric/kernels/gparv_law.py",
        "RatioLaw.gparv",
        "8 * UNIT * (np.abs(self.alpha) + e * np.abs(self.beta))",
        "float margin of every GPARV atom",
    ),
    # radix2_fft.py
    BudgetTerm(
        "shufflekit/numeric/kernels/radix2_fft.py",
        "fft_convolution_error",
        "sqrt_up(Fraction(L)) * c2",
        "radix-2 convolution round-off",
    ),
    BudgetTerm(
        "shufflekit/numeric/kernels/radix2_fft.py",
        "dft_error_terms",
        "(1 + beta) ** t - 1",
        "radix-2 transform relative error eta_t",
    ),
    BudgetTerm(
        "shufflekit/numeric/kernels/radix2_fft.py",
        "fft_convolution_error",
        "E",
        "pointwise product error E",
    ),
    BudgetTerm(
        "shufflekit/numeric/kernels/radix2_fft.py",
        "direct_convolution_error",
        "gK * Fraction(a1) * Fraction(b1)",
        "direct convolution round-off",
    ),
    BudgetTerm(
        "shufflekit/numeric/kernels/radix2_fft.py",
        "sum_up",
        "s * (1 + (x.size + 2) * UNIT)",
        "summation pad of an l1 norm",
    ),
    # composition.py
    BudgetTerm(
        "shufflekit/numeric/composition/fixed.py",
        "convolve",
        "pa + pb",
        "infinite mass of a convolution",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/fixed.py",
        "convolve",
        "pa * pb",
        "gap of the infinite mass",
        nth=1,
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/fixed.py",
        "convolve",
        "a.error * max(b1, 1.0)",
        "propagated error of the first law",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/fixed.py",
        "convolve",
        "(max(a1, 1.0) + a.error) * b.error",
        "propagated error of the second law",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/fixed.py",
        "convolve",
        "e_fft",
        "FFT round-off of a convolution",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/fixed.py",
        "pair_loss_pmf",
        "rel_err * float(np.sum(p[fin])) * 1.01",
        "mass error of an exact pair",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/fixed.py",
        "pair_loss_pmf",
        "4 * rel_err",
        "loss shift of an exact pair",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/fixed.py",
        "trim",
        "(f.size - hi + 4) * UNIT * (moved + new_inf)",
        "round-off of a moved upper tail",
        tenth="the merge term 4 u kept[0] > 4 u cut >= 4 u moved always comes with it "
        "and covers all but 0.09 of the largest loss (6 u moved, 7 cells)",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/fixed.py",
        "trim",
        "(lo + 4) * UNIT * kept[0]",
        "round-off of a merged lower tail",
    ),
    # dominating_pair.py
    BudgetTerm(
        "shufflekit/numeric/composition/dominating_pair.py",
        "hull_pmf",
        "(hi - lo) * 0.5 + 2 * UNIT * abs(mid) + 2 * UNIT * max(abs(lo), abs(hi))",
        "float conversion of the hull masses",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/dominating_pair.py",
        "PrivacyLossPmf.delta",
        "(tail.size + 8) * UNIT * value * 1.01",
        "round-off of a curve value",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/dominating_pair.py",
        "profile_points",
        "1e-12 * eps_max",
        "grid margin at eps0",
    ),
    BudgetTerm(
        "shufflekit/numeric/composition/dominating_pair.py",
        "profile_points",
        "round_up(2 * margin)",
        "delta bound inside the eps0 margin",
    ),
    # positive_part.py
    BudgetTerm(
        "shufflekit/numeric/kernels/positive_part.py",
        "growth",
        "x * math.exp(x) * (1 + 1e-10)",
        "anchored-row growth of the recurrence error",
    ),
    BudgetTerm(
        "shufflekit/numeric/kernels/positive_part.py",
        "_evaluate",
        "edge_v * D * deep_r / (1 - deep_r) ** 2 * (1 + 1e-9) * (1 + kap)",
        "deep-side tail budget of a window",
    ),
    BudgetTerm(
        "shufflekit/numeric/kernels/positive_part.py",
        "bernstein_excess",
        "np.exp(-f) / fprime * (1 + 1e-6)",
        "Bernstein settling bound",
    ),
]

_CMP_SWAP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
_OP_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
_SYM = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
}
_MINMAX = {"min": "max", "max": "min", "minimum": "maximum", "maximum": "minimum"}


@dataclass(frozen=True)
class Mutant:
    """One mutation: where (file, line, function), what (``description``) and the new text
    of the source segment ``[start, end)`` of the module (character offsets)."""

    module: str
    line: int
    function: str
    description: str
    start: int
    end: int
    text: str
    budget: bool = False

    def apply(self, source: str) -> str:
        """The module source with this mutation."""
        return source[: self.start] + self.text + source[self.end :]


@dataclass
class Outcome:
    """The result of one mutant: ``killed``, ``survived``, ``timeout`` or ``error``."""

    mutant: Mutant
    status: str
    seconds: float


# ======================================================================== generating mutants
def _offsets(source: str) -> list[int]:
    """Character offset of the start of each line (1-based line numbers index it)."""
    out, pos = [0, 0], 0
    for line in source.splitlines(keepends=True):
        pos += len(line)
        out.append(pos)
    return out


def _span(node: ast.AST, lines: list[int], source: str) -> tuple[int, int]:
    """Character span of ``node`` (ast column offsets are in UTF-8 bytes)."""

    def at(lineno, col):
        base = lines[lineno]
        row = source[base : lines[lineno + 1]] if lineno + 1 < len(lines) else source[base:]
        return base + len(row.encode()[:col].decode())

    return at(node.lineno, node.col_offset), at(node.end_lineno, node.end_col_offset)


def functions(tree: ast.Module):
    """``(qualified name, node)`` of every top-level function and method of the module."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield f"{node.name}.{sub.name}", sub


def _skipped_nodes(fn: ast.AST) -> set[int]:
    """Ids of nodes never mutated: docstrings, annotations, f-strings, ``raise`` arguments,
    decorators and default values (evaluated once, at import)."""
    skip: set[int] = set()

    def mark(node):
        for sub in ast.walk(node):
            skip.add(id(sub))

    for node in ast.walk(fn):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for d in node.decorator_list:
                mark(d)
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                mark(body[0])
            if not isinstance(node, ast.ClassDef):
                mark(node.args)
                if node.returns is not None:
                    mark(node.returns)
        elif isinstance(node, (ast.Raise, ast.JoinedStr)):
            mark(node)
        elif isinstance(node, ast.AnnAssign):
            mark(node.annotation)
    return skip


def _text(node: ast.AST) -> str:
    return "(" + ast.unparse(node) + ")"


def _node_mutations(node: ast.AST, seg: str):
    """``(description, new text)`` of every mutation of one node (``seg``: its source)."""
    if isinstance(node, ast.BinOp) and type(node.op) in _OP_SWAP:
        new = copy.copy(node)
        new.op = _OP_SWAP[type(node.op)]()
        yield f"`{_SYM[type(node.op)]}` -> `{_SYM[type(new.op)]}`", _text(new)
        if isinstance(node.op, (ast.Add, ast.Sub)):
            yield f"`{seg}` -> `{ast.unparse(node.left)}`", _text(node.left)
        if isinstance(node.op, ast.Add):
            yield f"`{seg}` -> `{ast.unparse(node.right)}`", _text(node.right)
    elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _CMP_SWAP:
        new = copy.copy(node)
        new.ops = [_CMP_SWAP[type(node.ops[0])]()]
        yield f"`{_SYM[type(node.ops[0])]}` -> `{_SYM[type(new.ops[0])]}`", _text(new)
    elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
        c = node.value
        if c == 0:
            yield f"`{seg}` -> `1`", "1" if isinstance(c, int) else "1.0"
        else:
            yield f"`{seg}` -> `0`", "0" if isinstance(c, int) else "0.0"
            yield f"`{seg}` -> `{c * 10!r}` (x10)", repr(c * 10)
            small = c // 10 if isinstance(c, int) else c / 10
            if small != 0:
                yield f"`{seg}` -> `{small!r}` (/10)", repr(small)
    elif isinstance(node, ast.Call):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name in _MINMAX and not node.keywords:
            new = copy.deepcopy(node)
            if isinstance(new.func, ast.Name):
                new.func.id = _MINMAX[name]
            else:
                new.func.attr = _MINMAX[name]
            yield f"`{name}` -> `{_MINMAX[name]}`", _text(new)
            if len(node.args) == 2 and not any(isinstance(a, ast.Starred) for a in node.args):
                for a in node.args:
                    yield f"`{name}(...)` -> `{ast.unparse(a)}`", _text(a)


def generate(module: str, source: str) -> list[Mutant]:
    """All mutants of the functions of one module (in source order)."""
    tree = ast.parse(source)
    lines = _offsets(source)
    excluded = EXCLUDED.get(module, {})
    out = []
    for qual, fn in functions(tree):
        if qual in excluded or qual.split(".")[-1] in excluded:
            continue
        skip = _skipped_nodes(fn)
        for node in ast.walk(fn):
            if id(node) in skip or not hasattr(node, "lineno"):
                continue
            start, end = _span(node, lines, source)
            seg = source[start:end]
            for desc, text in _node_mutations(node, " ".join(seg.split())):
                out.append(Mutant(module, node.lineno, qual, desc, start, end, text))
    out.sort(key=lambda m: (m.start, m.end, m.description))
    return out


def budget_mutants(module: str, source: str) -> tuple[list[Mutant], list[BudgetTerm]]:
    """The budget mutants of ``module`` (each term set to 0 and divided by 10) and the terms
    not found in its source (a renamed or rewritten term must be re-registered)."""
    tree = ast.parse(source)
    lines = _offsets(source)
    fns = dict(functions(tree))
    out, missing = [], []
    for term in (t for t in BUDGET_TERMS if t.module == module):
        spellings = (term.expr,) if isinstance(term.expr, str) else term.expr
        want = {ast.unparse(ast.parse(e, mode="eval").body) for e in spellings}
        fn = fns.get(term.function)
        hits = (
            []
            if fn is None
            else [
                n
                for n in ast.walk(fn)
                if isinstance(n, ast.expr)
                and hasattr(n, "lineno")
                and ast.unparse(n) in want
                and isinstance(getattr(n, "ctx", ast.Load()), ast.Load)
            ]
        )
        hits.sort(key=lambda n: (n.lineno, n.col_offset))
        if len(hits) <= term.nth:
            missing.append(term)
            continue
        for node in hits[term.nth : term.nth + 1]:
            start, end = _span(node, lines, source)
            seg = source[start:end]
            variants = [(f"{term.label}: set to 0", f"(({seg}) * 0)")]
            if not term.tenth:
                variants.append((f"{term.label}: divided by 10", f"(({seg}) / 10)"))
            for desc, text in variants:
                out.append(
                    Mutant(module, node.lineno, term.function, desc, start, end, text, budget=True)
                )
    return out, missing


# ======================================================================== running mutants
def git_dirty(root: Path, paths: list[str]) -> list[str]:
    """Target files with uncommitted changes under ``root`` (empty when clean)."""
    res = subprocess.run(
        ["git", "-C", str(root), "status", "--porcelain", "--", *paths],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line[3:] for line in res.stdout.splitlines() if line.strip()]


def _pytest_args(root: Path, tests: list[str]) -> list[str]:
    return [
        "-x",
        "-q",
        "-m",
        "not slow",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "--no-header",
        "--rootdir",
        str(root),
        *[str(root / t) for t in tests],
    ]


def _import_name(module: str) -> str:
    return module[:-3].replace("/", ".")


def _swap_code(mutant: Mutant, source: str) -> None:
    """Compile the mutated function and swap its code into the loaded one (fork child)."""
    import functools
    import importlib

    mod = importlib.import_module(_import_name(mutant.module))
    tree = ast.parse(mutant.apply(source))
    node = dict(functions(tree))[mutant.function]
    owner: object = mod
    parts = mutant.function.split(".")
    for p in parts[:-1]:
        owner = getattr(owner, p)
    target = owner.__dict__[parts[-1]] if isinstance(owner, type) else getattr(owner, parts[-1])
    if isinstance(target, (staticmethod, classmethod)):
        target = target.__func__
    elif isinstance(target, property):
        target = target.fget
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    node = copy.deepcopy(node)
    node.decorator_list = []
    free = target.__code__.co_freevars
    wrapper = ast.parse("def __mutant_outer__():\n    pass\n").body[0]
    wrapper.body = [ast.parse(f"{v} = None").body[0] for v in free] + [node]
    holder = ast.Module(body=[wrapper] if free else [node], type_ignores=[])
    ast.fix_missing_locations(holder)
    code = compile(holder, mod.__file__, "exec")
    consts = code.co_consts
    if free:
        consts = next(
            c for c in consts if getattr(c, "co_name", "") == "__mutant_outer__"
        ).co_consts
    new_code = next(c for c in consts if getattr(c, "co_name", "") == node.name)
    target.__code__ = new_code
    for m in list(sys.modules.values()):  # no cached value of the original survives
        if getattr(m, "__name__", "").startswith("shufflekit"):
            for v in list(vars(m).values()):
                if isinstance(v, functools._lru_cache_wrapper):
                    v.cache_clear()


def _child(mutant: Mutant | None, source: str, root: Path, tests: list[str]) -> int:
    """Body of a forked child: apply the mutant in memory, run pytest, return its code."""
    import pytest

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    if mutant is not None:
        _swap_code(mutant, source)
    return int(pytest.main(_pytest_args(root, tests)))


def _status(rc: int) -> str:
    return "survived" if rc == 0 else "killed" if rc in (1, 2, 3) else "error"


class ForkRunner:
    """Runs mutants in forked children of this (already imported) process, ``jobs`` at once."""

    def __init__(self, root: Path, jobs: int, timeout: float):
        self.root, self.jobs, self.timeout = root, max(1, jobs), timeout

    def run(self, items):
        """``items``: ``(mutant or None, source, tests)``; yields :class:`Outcome` s in order
        of completion (``mutant`` None: the unmutated baseline)."""
        pending, running = list(items), {}
        while pending or running:
            while pending and len(running) < self.jobs:
                mutant, source, tests = pending.pop(0)
                pid = os.fork()
                if pid == 0:  # child
                    code = 3
                    try:
                        code = _child(mutant, source, self.root, tests)
                    except BaseException:  # noqa: BLE001 - a mutant crash
                        code = 3
                    finally:
                        os._exit(code)
                running[pid] = (mutant, time.monotonic())
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                now = time.monotonic()
                for p, (m, t0) in list(running.items()):
                    if now - t0 > self.timeout:
                        os.kill(p, signal.SIGKILL)
                        os.waitpid(p, 0)
                        del running[p]
                        yield Outcome(m, "timeout", now - t0)
                time.sleep(0.02)
                continue
            if pid not in running:
                continue
            m, t0 = running.pop(pid)
            rc = os.waitstatus_to_exitcode(status)
            yield Outcome(m, _status(rc) if rc >= 0 else "killed", time.monotonic() - t0)


class FileRunner:
    """Writes each mutant into its file under ``root``, runs pytest in a subprocess and
    restores the original text (``finally``); one mutant at a time."""

    def __init__(self, root: Path, timeout: float):
        self.root, self.timeout = root, timeout

    def run(self, items):
        for mutant, source, tests in items:
            t0 = time.monotonic()
            path = None if mutant is None else self.root / mutant.module
            try:
                if path is not None:
                    path.write_text(mutant.apply(source))
                env = dict(os.environ, PYTHONPATH=str(self.root), PYTHONDONTWRITEBYTECODE="1")
                try:
                    res = subprocess.run(
                        [sys.executable, "-m", "pytest", *_pytest_args(self.root, tests)],
                        cwd=self.root,
                        env=env,
                        capture_output=True,
                        timeout=self.timeout,
                    )
                    status = _status(res.returncode)
                except subprocess.TimeoutExpired:
                    status = "timeout"
            finally:
                if path is not None:
                    path.write_text(source)
            yield Outcome(mutant, status, time.monotonic() - t0)


# ======================================================================== the report
@dataclass
class ModuleReport:
    """Outcomes of one module's mutants."""

    module: str
    outcomes: list[Outcome] = field(default_factory=list)
    missing: list[BudgetTerm] = field(default_factory=list)
    baseline: str = ""

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def rate(self) -> float:
        done = self.count("killed") + self.count("timeout") + self.count("survived")
        return (self.count("killed") + self.count("timeout")) / done if done else float("nan")


def table(reports: list[ModuleReport]) -> str:
    """The kill-rate table (markdown) of the module reports."""
    rows = [
        "| module | mutants | killed | timeout | survived | error | kill rate |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in reports:
        rows.append(
            f"| `{Path(r.module).name}` | {len(r.outcomes)} | {r.count('killed')} | "
            f"{r.count('timeout')} | {r.count('survived')} | {r.count('error')} | "
            f"{100 * r.rate:.1f}% |"
        )
    return "\n".join(rows)


def survivors(reports: list[ModuleReport]) -> list[str]:
    """``file:line  function  mutation`` of every mutant that survived (or errored)."""
    out = []
    for r in reports:
        if r.baseline:
            out.append(f"{r.module}: baseline {r.baseline}: mutants not run")
        for t in r.missing:
            out.append(f"{r.module}: budget term not found: {t.function}: {t.expr}")
        for o in sorted(r.outcomes, key=lambda o: o.mutant.start):
            if o.status in ("survived", "error"):
                m = o.mutant
                out.append(
                    f"{m.module}:{m.line}  {m.function}  {m.description}"
                    + ("" if o.status == "survived" else "  [error]")
                )
    return out


def budget_tests(module: str) -> list[str]:
    """The budget test files of ``module`` (the first mapped files named test_budget_*)."""
    return [t for t in TEST_MAP.get(module, []) if Path(t).name.startswith("test_budget_")]


def _location(item: str) -> tuple[str, int, str]:
    """``(file, line, text)`` of ``FILE:LINE`` or ``FILE:LINE:TEXT`` (text ``""`` when absent)."""
    path, _, rest = item.partition(".py:")
    line, _, text = rest.partition(":")
    return str(Path(path + ".py")), int(line), text


def select(
    mutants: list[Mutant], only: list[str] | None = None, match: list[str] | None = None
) -> list[Mutant]:
    """The mutants on one of the ``FILE:LINE`` or ``FILE:LINE:TEXT`` locations of ``only``
    (all when empty; ``TEXT``: a piece of the description, for that line only) whose
    description contains one of the pieces ``match`` (all when empty)."""
    if only:
        where = [_location(item) for item in only]
        mutants = [
            m
            for m in mutants
            if any(
                str(Path(m.module)) == path and m.line == line and text in m.description
                for path, line, text in where
            )
        ]
    if match:
        mutants = [m for m in mutants if any(piece in m.description for piece in match)]
    return mutants


def run(
    modules: list[str],
    *,
    root: Path,
    budget_only: bool = False,
    mode: str = "fork",
    sample: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    timeout: float | None = None,
    progress=None,
    only: list[str] | None = None,
    match: list[str] | None = None,
    sources: dict[str, str] | None = None,
) -> list[ModuleReport]:
    """Mutate each module in turn; returns one :class:`ModuleReport` per module.

    ``sources``: the text of each module as it was when it was imported (fork mode), so the
    mutants are made from the code that is loaded even if the file is edited during the run."""
    reports = []
    for module in modules:
        source = (sources or {}).get(module) or (root / module).read_text()
        tests = budget_tests(module) if budget_only else TEST_MAP[module]
        rep = ModuleReport(module)
        reports.append(rep)
        if budget_only:
            mutants, rep.missing = budget_mutants(module, source)
        else:
            mutants = generate(module, source)
        mutants = select(mutants, only, match)
        if sample is not None and sample < len(mutants):
            mutants = sorted(random.Random(seed).sample(mutants, sample), key=lambda m: m.start)
        if not tests or not mutants:
            continue
        runner = ForkRunner(root, 1, 3600) if mode == "fork" else FileRunner(root, 3600)
        base = next(iter(runner.run([(None, source, tests)])))
        if base.status != "survived":
            rep.baseline = base.status
            if progress:
                print(
                    f"{module}: the unmutated tests did not pass ({base.status}): mutants not run",
                    file=sys.stderr,
                    flush=True,
                )
            continue
        limit = timeout if timeout is not None else max(30.0, 3 * base.seconds + 10)
        runner = ForkRunner(root, jobs, limit) if mode == "fork" else FileRunner(root, limit)
        for out in runner.run([(m, source, tests) for m in mutants]):
            rep.outcomes.append(out)
            if progress:
                progress(out, len(rep.outcomes), len(mutants))
    return reports


def _ensure_root(root: Path) -> None:
    """Import the package from ``root`` (re-executing with ``PYTHONPATH=root`` if needed)."""
    import importlib.util

    spec = importlib.util.find_spec("shufflekit")
    found = Path(spec.origin).resolve().parent.parent if spec and spec.origin else None
    if found != root.resolve():
        if os.environ.get("_MUTATION_REEXEC"):
            raise SystemExit(f"shufflekit resolves to {found}, not to --root {root}")
        env = dict(os.environ, PYTHONPATH=str(root), _MUTATION_REEXEC="1")
        os.chdir(root)
        os.execve(sys.executable, [sys.executable, "-m", "benchmarks.mutation", *sys.argv[1:]], env)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--module", action="append", help="module path (repeatable); default: every mapped module"
    )
    parser.add_argument(
        "--budget-only",
        action="store_true",
        help="only the budget mutants, against the budget tests",
    )
    parser.add_argument(
        "--root", default=".", help="repository root to mutate (file mode: a private copy)"
    )
    parser.add_argument("--mode", choices=("fork", "file"), default="fork")
    parser.add_argument(
        "--sample",
        type=int,
        default=None,
        help="at most this many mutants per module (a seeded random sample)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="mutants at once (fork mode)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="seconds per mutant (default: 3x the unmutated run + 10 s, at least 30 s)",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="FILE:LINE[:TEXT]",
        help="only the "
        "mutants on this line (whose description contains TEXT; repeatable; "
        "applied before --sample)",
    )
    parser.add_argument(
        "--match",
        action="append",
        metavar="TEXT",
        help="only the mutants whose description contains TEXT (repeatable: any of them)",
    )
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    modules = args.module or (
        sorted({t.module for t in BUDGET_TERMS}, key=list(TEST_MAP).index)
        if args.budget_only
        else list(TEST_MAP)
    )
    if args.only and not args.module:  # the modules named by --only
        modules = list(dict.fromkeys(_location(item)[0] for item in args.only))
    modules = [str(Path(m)) for m in modules]
    for m in modules:
        if m not in TEST_MAP:
            parser.error(f"{m} is not a mapped module: {', '.join(TEST_MAP)}")
    if args.list:
        for m in modules:
            src = (root / m).read_text()
            ms = budget_mutants(m, src)[0] if args.budget_only else generate(m, src)
            ms = select(ms, args.only, args.match)
            if args.sample is not None and args.sample < len(ms):
                ms = sorted(random.Random(args.seed).sample(ms, args.sample), key=lambda x: x.start)
            for x in ms:
                print(f"{x.module}:{x.line}  {x.function}  {x.description}")
        return 0
    if args.mode == "file":
        dirty = git_dirty(root, modules)
        if dirty:
            print(
                f"refusing to mutate files with uncommitted changes: {', '.join(dirty)}",
                file=sys.stderr,
            )
            return 2
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    sources: dict[str, str] = {}
    if args.mode == "fork":
        _ensure_root(root)
        sys.path.insert(0, str(root))
        import importlib

        for m in modules:  # the text first: a file edited later is not what runs
            sources[m] = (root / m).read_text()
            importlib.import_module(_import_name(m))

    def progress(out: Outcome, i: int, total: int) -> None:
        m = out.mutant
        print(
            f"[{i}/{total}] {out.status:8s} {out.seconds:6.1f}s {m.module}:{m.line} "
            f"{m.function} {m.description}",
            file=sys.stderr,
            flush=True,
        )

    reports = run(
        modules,
        root=root,
        budget_only=args.budget_only,
        mode=args.mode,
        sample=args.sample,
        seed=args.seed,
        jobs=args.jobs,
        timeout=args.timeout,
        progress=progress,
        only=args.only,
        match=args.match,
        sources=sources,
    )
    for m, text in sources.items():
        if (root / m).read_text() != text:
            print(
                f"note: {m} was edited during the run; the mutants are of the text that was "
                "imported",
                file=sys.stderr,
            )
    print(table(reports))
    left = survivors(reports)
    if left:
        print("\nsurvivors:")
        print("\n".join(left))
    return 0 if not left else 1


if __name__ == "__main__":
    sys.exit(main())
