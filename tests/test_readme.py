"""The README's Python example runs, and prints what it shows (a doctest)."""

import doctest
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def test_the_readme_example_runs_as_shown():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0
