"""Waddle Downtown: the rules engine of the card game *Waddle* (2021), DOWNTOWN.md.

Pure Python, no I/O but loading a deck file (:func:`load_deck`). The game is played
through :data:`waddle.downtown.ruleset.RULESET` (the :mod:`waddle.ruleset` interface);
the engine itself is :class:`waddle.downtown.state.State`.
"""
