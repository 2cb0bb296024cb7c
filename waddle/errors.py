"""Exceptions raised by the engine. All are :class:`ValueError` subclasses."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that the rules forbid in the current position.

    The message names the rule (RULES.md section) that forbids it.
    """


class MapError(ValueError):
    """A map that cannot be played. The message names the file, the place and the problem."""


class RecordError(ValueError):
    """A game record that cannot be read or replayed.

    The message names the file, the place (the field, or the action's index) and the problem.
    """


class ViewError(ValueError):
    """Events or view data that do not follow from what a view knows (a client out of step
    with its host: it should ask for a fresh view). The message says where they part."""


class DeckError(ValueError):
    """A deck of Waddle Downtown cards that cannot be played. The message names the file,
    the card (its number and name) and the field."""
