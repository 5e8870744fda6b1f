"""numeric/ is sorted by role: the kernels never reach up to the accountant or the methods, the
methods register when their package is imported, and no module defers imports to its bottom."""

import ast
import pathlib

import pytest

import shufflekit.numeric as numeric

NUMERIC = pathlib.Path(numeric.__file__).parent
ROOMS = ("kernels", "methods", "composition", "design", "export")
#: what each room may import of numeric/ (a room may always import itself)
MAY_IMPORT = {
    "kernels": ("bound",),
    "methods": ("accountant", "bound", "kernels"),
    "composition": ("accountant", "bound", "kernels", "methods"),
    "design": ("accountant", "bound", "kernels", "methods"),
    "export": ("accountant", "bound", "kernels", "methods", "composition"),
}


def numeric_imports(path: pathlib.Path) -> set[str]:
    """The first component below ``shufflekit.numeric`` of every import in ``path``, lazy ones
    (inside functions) included."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["shufflekit", "numeric"] and len(parts) > 2:
                out.add(parts[2])
    return out


def test_numeric_has_the_rooms_and_only_the_shared_contract_at_its_top():
    top = sorted(p.name for p in NUMERIC.glob("*.py"))
    assert top == ["__init__.py", "accountant.py", "bound.py"]
    for room in ROOMS:
        assert (NUMERIC / room / "__init__.py").exists(), room


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_imports_only_the_rooms_below_it(room):
    allowed = set(MAY_IMPORT[room]) | {room}
    for path in (NUMERIC / room).glob("*.py"):
        reached = numeric_imports(path) - allowed
        assert not reached, f"{path.relative_to(NUMERIC)} imports numeric.{sorted(reached)}"


def test_no_module_defers_its_imports_to_its_bottom():
    package = NUMERIC.parent
    offenders = [
        str(p.relative_to(package)) for p in package.rglob("*.py") if "noqa: E402" in p.read_text()
    ]
    assert offenders == []


def test_importing_the_methods_package_registers_every_family():
    import shufflekit.numeric.methods  # noqa: F401
    from shufflekit.numeric.accountant import _REGISTRY

    for name in ("blanket", "blanket-fft", "lower", "clone", "hoeffding", "bmg-blanket", "gdp"):
        assert name in _REGISTRY, name
