"""Bots: given the game, choose an action.

A bot is any object with a ``name`` and ``choose(game) -> Action`` that returns one of
``game.legal_actions()`` without changing ``game`` (it may push and pop on a copy).
The same bots fill empty seats on the host and run as headless clients.
"""

from __future__ import annotations

import random
from typing import Protocol

from waddle.actions import Action
from waddle.game import Game


class Bot(Protocol):
    """The bot interface: ``choose`` returns a legal action for ``game.current_player``."""

    name: str

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        return self._rng.choice(game.legal_actions())


#: Built-in bots by name: ``BOTS[name](seed=...)``.
BOTS: dict[str, type] = {"random": RandomBot}


def make_bot(kind: str, seed: int | None = None) -> Bot:
    """A new built-in bot of ``kind`` (a key of :data:`BOTS`).

    Raises:
        ValueError: for an unknown kind, naming the known ones.
    """
    try:
        return BOTS[kind](seed=seed)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}: expected one of {', '.join(BOTS)}") from None
