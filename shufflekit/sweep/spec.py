r"""Sweep specifications: a TOML file naming the grid of accountant calls to make.

A spec has one or more ``[[grid]]`` tables; each expands into tasks, and the sweep is their
concatenation.  Inside a grid every key takes a scalar, a list, or a range::

    title = "Su-Cheng-Wang 2026, Figure 2: blanket bounds against baselines"

    [[grid]]
    mechanism = "krr"                  # any name of shufflekit.make
    k = 2                              # the mechanism's parameters (as make takes them)
    eps0 = [1.0, 4.0]
    n = {logspace = [3, 7, 5]}         # 10^3 .. 10^7, 5 points
    method = ["blanket", "lower"]      # registered accountant methods
    adjacency = "replace-one"          # optional (the method's default otherwise)
    sampling_rate = 0.1                # optional: each user takes part w.p. 0.1 (Poisson)
    delta = {geomspace = [1e-6, 1e-12, 4]}   # targets: delta -> epsilon(delta) ...
    # epsilon = {linspace = [0.01, 0.1, 10]} # ... or epsilon -> delta(epsilon)
    mode = "product"                   # or "zip": the i-th values of every list together

Range forms: ``{range = [start, stop, step]}`` (stop excluded, integers),
``{linspace = [a, b, num]}``, ``{logspace = [a, b, num]}`` (powers of ten),
``{geomspace = [a, b, num]}``.  ``n`` values are rounded to integers.

Every key is checked before anything is computed: a key that is neither one of the fixed
keys above nor a parameter of the grid's mechanism is an error naming the nearest valid key
(``hash_famly`` -> ``hash_family``), and every value must lie in the range the command line
documents for the option of the same name (one table, :data:`shufflekit.validation.DOMAINS`:
``eps0`` in (0, 100], ``n`` in [1, 1e9], ``delta`` in [1e-300, 1), ...).  The number of points
is counted from the axis lengths, before any axis is expanded, and is at most
:data:`MAX_POINTS`.
"""

from __future__ import annotations

import difflib
import itertools
import math
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from shufflekit.errors import InvalidParameter
from shufflekit.validation import DOMAINS, check_matrix

#: Grid keys with a fixed meaning; every other key is a parameter of the grid's mechanism.
RESERVED = (
    "mechanism",
    "n",
    "method",
    "adjacency",
    "epsilon",
    "delta",
    "mode",
    "options",
    "sampling_rate",
)
RANGE_FORMS = ("range", "linspace", "logspace", "geomspace")
#: Keys of the spec's top level.
TOP_KEYS = ("title", "grid")
#: Largest sweep, in points, counted from the lengths of the axes before anything is expanded.
#: A point is one certified accountant call (0.05-8 s on one core): 1e5 points are hours to
#: days of work, and a spec past that is almost surely a typing slip (a 10^7-point product).
MAX_POINTS = 100_000
#: Mechanism parameters that exclude each other (binary randomized response: eps0 or p).
ONE_OF = {"rr": ("eps0", "p")}


@dataclass(frozen=True)
class Task:
    """One accountant call: a bound on epsilon(delta) or delta(epsilon) of one mechanism."""

    mechanism: str
    params: tuple[tuple[str, Any], ...]
    n: int
    method: str | None
    adjacency: str | None
    quantity: str  # "epsilon" (target is a delta) or "delta" (target is an epsilon)
    target: float
    options: tuple[tuple[str, Any], ...] = ()
    sampling_rate: Any = None  # Poisson subsampling before the shuffle (None: everyone)

    def as_dict(self) -> dict:
        out = {
            "mechanism": self.mechanism,
            "params": dict(self.params),
            "n": self.n,
            "method": self.method,
            "adjacency": self.adjacency,
            "quantity": self.quantity,
            "target": self.target,
            "options": dict(self.options),
        }
        if self.sampling_rate is not None:  # absent otherwise: earlier cache keys stay valid
            out["sampling_rate"] = self.sampling_rate
        return out


@dataclass(frozen=True)
class Spec:
    """A parsed sweep specification: its title and the tasks it expands to, in order."""

    title: str
    tasks: tuple[Task, ...]
    source: str = ""

    @property
    def param_names(self) -> list[str]:
        """Every mechanism parameter name used by some task (the CSV's parameter columns),
        and ``sampling_rate`` when some task subsamples."""
        names = {k for t in self.tasks for k, _ in t.params}
        if any(t.sampling_rate is not None for t in self.tasks):
            names.add("sampling_rate")
        return sorted(names)


def _range_args(key: str, value: dict) -> tuple[str, list]:
    """The form and the three arguments of a range entry, checked."""
    forms = [f for f in RANGE_FORMS if f in value]
    if len(forms) != 1 or len(value) != 1:
        raise InvalidParameter(
            key,
            value,
            "a scalar, a list, or one of " + ", ".join(f"{{{f} = [...]}}" for f in RANGE_FORMS),
        )
    form, args = forms[0], value[forms[0]]
    if not isinstance(args, list) or len(args) != 3:
        raise InvalidParameter(f"{key}.{form}", args, "a list of three numbers")
    if form == "range":
        if not all(isinstance(a, int) and not isinstance(a, bool) for a in args) or args[2] == 0:
            raise InvalidParameter(f"{key}.range", args, "three integers, step != 0")
        return form, args
    a, b, num = args
    if not isinstance(num, int) or isinstance(num, bool) or num < 1:
        raise InvalidParameter(f"{key}.{form}[2]", num, "range [1, inf) (integer)")
    if not all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in (a, b)
    ):
        raise InvalidParameter(f"{key}.{form}", args, "finite numbers for the ends")
    if form == "geomspace" and (a <= 0 or b <= 0):
        raise InvalidParameter(f"{key}.geomspace", args, "positive ends")
    return form, args


def axis_length(key: str, value: Any) -> int:
    """How many values a spec entry stands for, without expanding it (a range is not listed)."""
    if isinstance(value, list):
        if not value:
            raise InvalidParameter(key, value, "a non-empty list")
        return len(value)
    if isinstance(value, dict):
        form, args = _range_args(key, value)
        size = len(range(*args)) if form == "range" else args[2]
        if size < 1:
            raise InvalidParameter(key, value, "a range with at least one value")
        return size
    return 1


def expand_values(key: str, value: Any) -> list:
    """The list of values a spec entry stands for (scalar, list or range form)."""
    axis_length(key, value)
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        form, args = _range_args(key, value)
        if form == "range":
            return list(range(*args))
        fn = {"linspace": np.linspace, "logspace": np.logspace, "geomspace": np.geomspace}[form]
        return [float(x) for x in fn(*args)]
    return [value]


def grid_size(grid: dict, where: str = "grid") -> int:
    """The number of points of one ``[[grid]]`` table, from its axis lengths alone: their
    product (``mode = "product"``) or their common length (``mode = "zip"``)."""
    mode = grid.get("mode", "product")
    if mode not in ("product", "zip"):
        raise InvalidParameter(f"{where}.mode", mode, "one of product, zip")
    lengths = {
        k: axis_length(f"{where}.{k}", v) for k, v in grid.items() if k not in ("mode", "options")
    }
    if mode == "zip":
        long = {n for n in lengths.values() if n > 1}
        if len(long) > 1:
            raise InvalidParameter(
                f"{where}.mode", "zip", f"lists of one common length (got lengths {sorted(long)})"
            )
        return long.pop() if long else 1
    return math.prod(lengths.values())


def check_size(size: int, where: str = "spec") -> int:
    """``size`` if it is at most :data:`MAX_POINTS`, else an error naming both."""
    if size > MAX_POINTS:
        raise InvalidParameter(
            f"{where} size",
            size,
            f"at most {MAX_POINTS} points per sweep",
            f"the grid expands to {size} points; split it or use fewer values per axis",
        )
    return size


def _nearest(word: str, allowed: Sequence[str]) -> str | None:
    near = difflib.get_close_matches(word, allowed, n=1)
    return f"did you mean {near[0]!r}?" if near else None


def _mechanism_names(where: str, grid: dict) -> list[str]:
    """The mechanism names of a grid, each one of ``shufflekit.make``'s."""
    from shufflekit.mechanisms import MECHANISMS, NAMES

    if "mechanism" not in grid:
        raise InvalidParameter(f"{where}.mechanism", None, 'a mechanism name (e.g. "krr")')
    names = expand_values(f"{where}.mechanism", grid["mechanism"])
    for name in names:
        if not isinstance(name, str) or name not in MECHANISMS:
            raise InvalidParameter(
                f"{where}.mechanism",
                name,
                "one of " + ", ".join(NAMES),
                _nearest(str(name), NAMES) or "unknown mechanism",
            )
    return names


def check_keys(grid: dict, where: str = "grid") -> None:
    """Every key of a grid is reserved or a parameter of each of its mechanisms; a key that is
    neither is an error naming the nearest valid key.  Required parameters are present, and
    parameters that exclude each other are not given together."""
    from shufflekit.mechanisms import MECHANISMS

    names = _mechanism_names(where, grid)
    every = sorted({p for s in MECHANISMS.values() for p in (*s.required, *s.optional)})
    for key in grid:
        if key in RESERVED:
            continue
        if not isinstance(key, str) or key not in every:
            valid = [
                *RESERVED,
                *sorted(
                    {p for m in names for p in (*MECHANISMS[m].required, *MECHANISMS[m].optional)}
                ),
            ]
            raise InvalidParameter(
                f"{where} key",
                key,
                "one of " + ", ".join(valid),
                "unknown key; "
                + (_nearest(str(key), [*RESERVED, *every]) or "not a parameter of any mechanism"),
            )
        for m in names:
            spec = MECHANISMS[m]
            if key not in (*spec.required, *spec.optional):
                raise InvalidParameter(
                    f"{where}.{key}",
                    grid[key],
                    f"the parameters of {m}: "
                    + (", ".join((*spec.required, *spec.optional)) or "none"),
                    f"{key} does not apply to {m}; give it in a [[grid]] of its own",
                )
    for m in names:
        for key in MECHANISMS[m].required:
            if key not in grid:
                raise InvalidParameter(
                    f"{where}.{key}",
                    None,
                    f"a value (mechanism {m} requires {', '.join(MECHANISMS[m].required)})",
                )
        group = ONE_OF.get(m, ())
        if group and sum(k in grid for k in group) != 1:
            raise InvalidParameter(
                f"{where}.{'/'.join(group)}",
                None,
                f"exactly one of {' or '.join(group)} for {m}",
                "they exclude each other",
            )
    if "n" not in grid:
        raise InvalidParameter(f"{where}.n", None, "an integer in [1, 1e9] or a list/range of them")
    if ("epsilon" in grid) == ("delta" in grid):
        raise InvalidParameter(
            f"{where}.epsilon/delta",
            None,
            "exactly one of epsilon (-> delta bounds) or delta (-> epsilon bounds)",
        )
    options = grid.get("options", {})
    if not isinstance(options, dict) or not all(
        isinstance(v, (int, float, str)) for v in options.values()
    ):
        raise InvalidParameter(
            f"{where}.options", options, "a table of method options (numbers or strings)"
        )
    from shufflekit.numeric.accountant import check_options

    methods = grid.get("method")
    for method in methods if isinstance(methods, list) else [methods]:
        if method is not None and method not in _method_names():
            continue  # an unknown method is reported by its own check
        try:
            check_options(method, options)
        except InvalidParameter as exc:
            raise InvalidParameter(
                f"{where}.options.{exc.value}", exc.value, exc.allowed, exc.why
            ) from None


def _clean(where: str, key: str, value: Any) -> Any:
    try:
        return _clean_value(key, value)
    except InvalidParameter as exc:
        raise InvalidParameter(f"{where}.{exc.name}", exc.value, exc.allowed, exc.why) from None


def _method_names() -> list[str]:
    from shufflekit.numeric.accountant import methods

    return [m.name for m in methods()]


def _clean_value(key: str, value: Any) -> Any:
    """One value of a grid, checked against the documented range of the command line's option
    of the same name (:data:`shufflekit.validation.DOMAINS`)."""
    if key == "n":
        return DOMAINS["n"].check(
            "n", round(value) if isinstance(value, float) and math.isfinite(value) else value
        )
    if key in ("mechanism", "method"):
        if not isinstance(value, str) or not value:
            raise InvalidParameter(key, value, "a non-empty string")
        if key == "method":
            names = _method_names()
            if value not in names:
                raise InvalidParameter(
                    key,
                    value,
                    "one of " + ", ".join(names),
                    _nearest(value, names) or "unknown method",
                )
        return value
    if key == "matrix":
        rows = check_matrix(value)
        return (
            value
            if isinstance(value, str)
            else ";".join(",".join(repr(float(x)) for x in r) for r in rows)
        )
    if key in DOMAINS:
        domain = DOMAINS[key]
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise InvalidParameter(key, value, domain.allowed, "a number or a string")
        return domain.check(key, value)
    return value


def expand_grid(grid: dict, index: int = 0) -> list[Task]:
    """The tasks of one ``[[grid]]`` table (cartesian product, or zipped lists), every key and
    value checked first (:func:`check_keys`, :func:`grid_size`, :func:`check_size`)."""
    where = f"grid[{index}]"
    check_keys(grid, where)
    check_size(grid_size(grid, where), where)
    mode = grid.get("mode", "product")
    options = grid.get("options", {})
    target_key = "epsilon" if "epsilon" in grid else "delta"
    keys = [k for k in grid if k not in ("mode", "options")]
    values = {
        k: [_clean(where, k, v) for v in expand_values(f"{where}.{k}", grid[k])] for k in keys
    }
    if mode == "zip":
        size = max(len(v) for v in values.values())
        combos = [
            {k: (v[i] if len(v) > 1 else v[0]) for k, v in values.items()} for i in range(size)
        ]
    else:
        combos = [dict(zip(keys, c)) for c in itertools.product(*(values[k] for k in keys))]
    tasks = []
    for c in combos:
        params = tuple(sorted((k, v) for k, v in c.items() if k not in RESERVED))
        tasks.append(
            Task(
                mechanism=c["mechanism"],
                params=params,
                n=c["n"],
                method=c.get("method"),
                adjacency=c.get("adjacency"),
                quantity="delta" if target_key == "epsilon" else "epsilon",
                target=float(c[target_key]),
                options=tuple(sorted(options.items())),
                sampling_rate=c.get("sampling_rate"),
            )
        )
    return tasks


def parse_spec(data: dict, source: str = "") -> Spec:
    """A :class:`Spec` from the parsed TOML mapping: unknown keys are errors (naming the
    nearest valid key), values are checked against the command line's ranges, and the number
    of points is counted, and capped at :data:`MAX_POINTS`, before anything is expanded."""
    for key in data:
        if key not in TOP_KEYS:
            raise InvalidParameter(
                "spec key",
                key,
                "one of " + ", ".join(TOP_KEYS),
                "unknown key; " + (_nearest(str(key), TOP_KEYS) or "a grid is a [[grid]] table"),
            )
    grids = data.get("grid")
    if not isinstance(grids, list) or not grids:
        raise InvalidParameter("grid", grids, "one or more [[grid]] tables")
    if not isinstance(data.get("title", ""), str):
        raise InvalidParameter("title", data["title"], "a string")
    sizes = []
    for i, g in enumerate(grids):
        if not isinstance(g, dict):
            raise InvalidParameter(f"grid[{i}]", g, "a table")
        check_keys(g, f"grid[{i}]")
        sizes.append(check_size(grid_size(g, f"grid[{i}]"), f"grid[{i}]"))
    check_size(sum(sizes))
    tasks: list[Task] = []
    for i, g in enumerate(grids):
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
