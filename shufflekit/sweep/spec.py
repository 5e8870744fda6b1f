r"""Sweep specifications: a TOML file naming the grid of accountant calls to make.

A spec has one or more ``[[grid]]`` tables; each expands into tasks, and the sweep is their
concatenation.  Inside a grid every key takes a scalar, a list, or a range::

    title = "seed 002, Figure 2: blanket bounds against baselines"

    [[grid]]
    mechanism = "krr"                  # any name of shufflekit.make
    k = 2                              # mechanism parameters: any other key
    eps0 = [1.0, 4.0]
    n = {logspace = [3, 7, 5]}         # 10^3 .. 10^7, 5 points
    method = ["blanket", "lower"]      # registered accountant methods
    adjacency = "replace-one"          # optional (the method's default otherwise)
    delta = {geomspace = [1e-6, 1e-12, 4]}   # targets: delta -> epsilon(delta) ...
    # epsilon = {linspace = [0.01, 0.1, 10]} # ... or epsilon -> delta(epsilon)
    mode = "product"                   # or "zip": the i-th values of every list together

Range forms: ``{range = [start, stop, step]}`` (stop excluded, integers),
``{linspace = [a, b, num]}``, ``{logspace = [a, b, num]}`` (powers of ten),
``{geomspace = [a, b, num]}``.  ``n`` values are rounded to integers.
"""
from __future__ import annotations

import itertools
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from shufflekit.errors import InvalidParameter
from shufflekit.validation import check_delta, check_epsilon, check_n

#: Grid keys with a fixed meaning; every other key is a mechanism parameter.
RESERVED = ("mechanism", "n", "method", "adjacency", "epsilon", "delta", "mode", "options")
RANGE_FORMS = ("range", "linspace", "logspace", "geomspace")


@dataclass(frozen=True)
class Task:
    """One accountant call: a bound on epsilon(delta) or delta(epsilon) of one mechanism."""

    mechanism: str
    params: tuple[tuple[str, Any], ...]
    n: int
    method: str | None
    adjacency: str | None
    quantity: str            # "epsilon" (target is a delta) or "delta" (target is an epsilon)
    target: float
    options: tuple[tuple[str, Any], ...] = ()

    def as_dict(self) -> dict:
        return {"mechanism": self.mechanism, "params": dict(self.params), "n": self.n,
                "method": self.method, "adjacency": self.adjacency, "quantity": self.quantity,
                "target": self.target, "options": dict(self.options)}


@dataclass(frozen=True)
class Spec:
    """A parsed sweep specification: its title and the tasks it expands to, in order."""

    title: str
    tasks: tuple[Task, ...]
    source: str = ""

    @property
    def param_names(self) -> list[str]:
        """Every mechanism parameter name used by some task (the CSV's parameter columns)."""
        return sorted({k for t in self.tasks for k, _ in t.params})


def expand_values(key: str, value: Any) -> list:
    """The list of values a spec entry stands for (scalar, list or range form)."""
    if isinstance(value, list):
        if not value:
            raise InvalidParameter(key, value, "a non-empty list")
        return list(value)
    if isinstance(value, dict):
        forms = [f for f in RANGE_FORMS if f in value]
        if len(forms) != 1 or len(value) != 1:
            raise InvalidParameter(key, value, "a scalar, a list, or one of "
                                   + ", ".join(f"{{{f} = [...]}}" for f in RANGE_FORMS))
        form, args = forms[0], value[forms[0]]
        if not isinstance(args, list) or len(args) != 3:
            raise InvalidParameter(f"{key}.{form}", args, "a list of three numbers")
        if form == "range":
            if not all(isinstance(a, int) and not isinstance(a, bool) for a in args) or args[2] == 0:
                raise InvalidParameter(f"{key}.range", args, "three integers, step != 0")
            out = list(range(*args))
        else:
            a, b, num = args
            if not isinstance(num, int) or isinstance(num, bool) or num < 1:
                raise InvalidParameter(f"{key}.{form}[2]", num, "range [1, inf) (integer)")
            if not all(isinstance(x, (int, float)) and math.isfinite(x) for x in (a, b)):
                raise InvalidParameter(f"{key}.{form}", args, "finite numbers for the ends")
            if form == "geomspace" and (a <= 0 or b <= 0):
                raise InvalidParameter(f"{key}.geomspace", args, "positive ends")
            fn = {"linspace": np.linspace, "logspace": np.logspace, "geomspace": np.geomspace}[form]
            out = [float(x) for x in fn(a, b, num)]
        if not out:
            raise InvalidParameter(key, value, "a range with at least one value")
        return out
    return [value]


def _clean(where: str, key: str, value: Any) -> Any:
    try:
        return _clean_value(key, value)
    except InvalidParameter as exc:
        raise InvalidParameter(f"{where}.{exc.name}", exc.value, exc.allowed, exc.why) from None


def _clean_value(key: str, value: Any) -> Any:
    if key == "n":
        return check_n(round(value) if isinstance(value, float) and math.isfinite(value) else value)
    if key == "epsilon":
        return check_epsilon(value)
    if key == "delta":
        return check_delta(value)
    if key in ("mechanism", "method", "adjacency"):
        if not isinstance(value, str) or not value:
            raise InvalidParameter(key, value, "a non-empty string")
    return value


def expand_grid(grid: dict, index: int = 0) -> list[Task]:
    """The tasks of one ``[[grid]]`` table (cartesian product, or zipped lists)."""
    where = f"grid[{index}]"
    if "mechanism" not in grid:
        raise InvalidParameter(f"{where}.mechanism", None, "a mechanism name (e.g. \"krr\")")
    if "n" not in grid:
        raise InvalidParameter(f"{where}.n", None, "an integer >= 1 or a list/range of them")
    if ("epsilon" in grid) == ("delta" in grid):
        raise InvalidParameter(f"{where}.epsilon/delta", None,
                               "exactly one of epsilon (-> delta bounds) or delta (-> epsilon bounds)")
    mode = grid.get("mode", "product")
    if mode not in ("product", "zip"):
        raise InvalidParameter(f"{where}.mode", mode, "one of product, zip")
    options = grid.get("options", {})
    if not isinstance(options, dict):
        raise InvalidParameter(f"{where}.options", options, "a table of method options")
    target_key = "epsilon" if "epsilon" in grid else "delta"
    keys = [k for k in grid if k not in ("mode", "options")]
    values = {k: [_clean(where, k, v) for v in expand_values(f"{where}.{k}", grid[k])] for k in keys}
    if mode == "zip":
        lengths = {len(v) for v in values.values() if len(v) > 1}
        if len(lengths) > 1:
            raise InvalidParameter(f"{where}.mode", "zip",
                                   f"lists of one common length (got lengths {sorted(lengths)})")
        size = lengths.pop() if lengths else 1
        combos = [{k: (v[i] if len(v) > 1 else v[0]) for k, v in values.items()} for i in range(size)]
    else:
        combos = [dict(zip(keys, c)) for c in itertools.product(*(values[k] for k in keys))]
    tasks = []
    for c in combos:
        params = tuple(sorted((k, v) for k, v in c.items() if k not in RESERVED))
        tasks.append(Task(mechanism=c["mechanism"], params=params, n=c["n"],
                          method=c.get("method"), adjacency=c.get("adjacency"),
                          quantity="delta" if target_key == "epsilon" else "epsilon",
                          target=float(c[target_key]),
                          options=tuple(sorted(options.items()))))
    return tasks


def parse_spec(data: dict, source: str = "") -> Spec:
    """A :class:`Spec` from the parsed TOML mapping."""
    grids = data.get("grid")
    if not isinstance(grids, list) or not grids:
        raise InvalidParameter("grid", grids, "one or more [[grid]] tables")
    unknown = set(data) - {"title", "grid"}
    if unknown:
        raise InvalidParameter("spec key", sorted(unknown)[0], "one of title, grid")
    tasks: list[Task] = []
    for i, g in enumerate(grids):
        if not isinstance(g, dict):
            raise InvalidParameter(f"grid[{i}]", g, "a table")
        tasks.extend(expand_grid(g, i))
    return Spec(title=str(data.get("title", "")), tasks=tuple(tasks), source=source)


def load_spec(path: str | Path) -> Spec:
    """Read and expand the TOML spec at ``path``."""
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as exc:
        raise InvalidParameter("spec", str(path), "a readable TOML file", exc.strerror) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidParameter("spec", str(path), "a valid TOML file", str(exc)) from None
    return parse_spec(data, source=str(p))


def tasks_of(specs: Iterable[Spec]) -> list[Task]:
    return [t for s in specs for t in s.tasks]
