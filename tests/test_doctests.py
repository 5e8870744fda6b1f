"""The examples in the docstrings of the public facade run and print what they show.

The facade is ``import shufflekit`` and the names it documents (``shufflekit.EXPORTS``): the
module's own docstring and the docstring of each exported function and class (not their
members, not the rest of the package).  Each example is meant to take well under a few seconds.
"""

import doctest
import inspect

import pytest

import shufflekit

#: facade names that must carry a runnable example
REQUIRED = ("make", "accountant", "methods", "compose", "Bound")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def facade_tests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(recurse=False)
    found = finder.find(shufflekit, "shufflekit", globs={})
    for name in sorted(shufflekit.EXPORTS):
        obj = getattr(shufflekit, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            found += finder.find(obj, f"shufflekit.{name}", module=False, globs={})
    return [t for t in found if t.examples]


TESTS = facade_tests()


def test_required_names_have_examples():
    named = {t.name.removeprefix("shufflekit.") for t in TESTS}
    assert set(REQUIRED) <= named
    assert "shufflekit" in named  # the module docstring itself


@pytest.mark.parametrize("test", TESTS, ids=[t.name for t in TESTS])
def test_docstring_example(test):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    out = []
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)
