"""The examples in the docstrings of the public facade run and print what they show.

The facade is ``import shufflekit`` and the names it documents (``shufflekit.EXPORTS``): the
module's own docstring and the docstring of each exported function and class (not their
members, not the rest of the package).  Each example is meant to take well under a few seconds.
"""

import doctest
import importlib
import inspect

import pytest

import shufflekit

#: facade names that must carry a runnable example
REQUIRED = ("make", "accountant", "methods", "compose", "Bound", "ShuffleAccountant")
#: facade classes whose every public member carries a docstring with a runnable example
#: (those examples run here too)
MEMBERS = ("ShuffleAccountant",)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def facade_tests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(recurse=False)
    found = finder.find(shufflekit, "shufflekit", globs={})
    for name in sorted(shufflekit.EXPORTS):
        obj = getattr(shufflekit, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            found += finder.find(obj, f"shufflekit.{name}", module=False, globs={})
    for name in MEMBERS:
        cls = getattr(shufflekit, name)
        for member in public_members(cls):
            found += finder.find(
                inspect.getattr_static(cls, member),
                f"shufflekit.{name}.{member}",
                module=False,
                globs={},
            )
    for module in MODULES:  # the recipes of these modules' docstrings
        mod = importlib.import_module(module)
        found += finder.find(mod, module, globs={})
    for name, member in EXTRA:
        found += finder.find(
            inspect.getattr_static(getattr(shufflekit, name), member),
            f"shufflekit.{name}.{member}",
            module=False,
            globs={},
        )
    return [t for t in found if t.examples]


#: further members whose examples run here
EXTRA = (("Accountant", "get_rdp"),)
#: modules whose docstring recipes run here (the module docstring only)
MODULES = ("shufflekit.numeric.export.pld_export",)


def public_members(cls) -> list[str]:
    """The public methods and properties ``cls`` defines itself (not inherited ones)."""
    return sorted(
        m
        for m, v in vars(cls).items()
        if (not m.startswith("_") or m == "__repr__") and (callable(v) or isinstance(v, property))
    )


TESTS = facade_tests()


def test_required_names_have_examples():
    named = {t.name.removeprefix("shufflekit.") for t in TESTS}
    assert set(REQUIRED) <= named
    assert "shufflekit" in named  # the module docstring itself


@pytest.mark.parametrize("name", MEMBERS)
def test_every_public_member_has_a_docstring_with_an_example(name):
    cls = getattr(shufflekit, name)
    for member in public_members(cls):
        doc = inspect.getdoc(inspect.getattr_static(cls, member)) or ""
        if member == "__repr__":
            assert doc, f"{name}.__repr__ has no docstring"
            continue
        assert ">>>" in doc, f"{name}.{member} has no runnable example"


@pytest.mark.parametrize("test", TESTS, ids=[t.name for t in TESTS])
def test_docstring_example(test):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    out = []
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)
