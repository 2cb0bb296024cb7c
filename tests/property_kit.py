"""Sizes of property tests, relative to the hypothesis profile in use (``tests/conftest.py``)."""

from __future__ import annotations

from hypothesis import settings

#: hypothesis's own default ``max_examples``, against which a profile's is a scale.
_DEFAULT = 100


def examples(n: int) -> int:
    """A property test's ``max_examples``: ``n`` under the "suite" profile (the default,
    100 examples), ``n`` times the profile's ``max_examples`` / 100 under another
    ("thorough": ten times ``n``). Read when the test module is imported, after pytest
    loaded the profile."""
    return max(1, n * settings().max_examples // _DEFAULT)
