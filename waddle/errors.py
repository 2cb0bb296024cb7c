"""Exceptions every game shares. All are :class:`ValueError` subclasses.

A game's own errors live in its package and derive from these: the hex game's
:class:`~waddle.hex.maps.MapError` and Waddle Downtown's
:class:`~waddle.downtown.cards.DeckError` are :class:`FileError`\\ s, so whatever hosts
or shows a game catches this module's classes and knows no game's.
"""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that the rules forbid in the current position.

    The message names the rule (the rulebook's section) that forbids it.
    """


class FileError(ValueError):
    """A file (or a file's part, such as a record's map) that cannot be used: a map, a
    deck, a record. The message names the file, the place in it (a field, an index, a
    card, a hex) and the problem: ``"lagoon.toml: hexes[3] at (1, 0): duplicate hex"``."""


class RecordError(FileError):
    """A game record that cannot be read or replayed.

    The message names the file, the place (the field, or the action's index) and the problem.
    """


class ViewError(ValueError):
    """Events or view data that do not follow from what a view knows (a client out of step
    with its host: it should ask for a fresh view). The message says where they part."""
