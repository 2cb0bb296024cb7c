"""Exact endgame: the max^n value of every action when few placements remain.

In max^n each player, on their turn, takes the action whose final totals give them the
highest reward (:func:`waddle.hex.rewards.rewards`); a tie goes to the action listed
first by :meth:`Game.legal_actions`. The value of a position is the final totals (VP,
seat order) that this play reaches. Positions met again by another order of actions
are looked up, not searched again (:meth:`Game.key`).

The cost grows about fourfold with each placement left on a 4-player standard map
(typically 5 ms for 3 placements left, 20 ms for 4, 80 ms for 5, 0.3 s for 6), so a
solve can be given a deadline.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from waddle.hex.actions import Action
from waddle.hex.game import Game
from waddle.hex.rewards import rewards


def placements_left(game: Game) -> int:
    """Tokens still to be placed until the end: the empty ice hexes, plus every ice hex
    again while the first half of a mirror match goes on."""
    left = len(game.empty_ice)
    if game.mirror_match and game.half == 1:
        left += len(game.map.ice)
    return left


def solve(game: Game, deadline: float | None = None,
          score: Callable[[Game], Sequence[int]] = Game.live_totals,
          actions: Callable[[Game], Sequence[Action]] = Game.legal_actions
          ) -> list[tuple[Action, tuple[int, ...]]]:
    """Every legal action with the final totals (VP, seat order) max^n play reaches after
    it, in :meth:`Game.legal_actions` order; ``game`` is unchanged. ``score`` gives a
    finished game's totals: :meth:`Game.live_totals` or a faster equal
    (:meth:`waddle.hex.playout.Playouts.live_totals`). Below the root every player
    chooses among ``actions(game)`` (a non-empty part of the legal actions, in their
    order: all of them, or :func:`waddle.hex.pruning.searched_actions`, whose max^n
    value is then exact for players who follow its rules).

    Its cost is exponential in :func:`placements_left`: meant for the last few.

    Raises:
        ValueError: if the game is over.
        TimeoutError: if :func:`time.perf_counter` passes ``deadline`` (``None``: no
            limit) before the solve is done.
    """
    if game.is_over:
        raise ValueError("the game is over: nothing to solve")
    return _Solver(game.copy(), deadline, score, actions).root()


class _Solver:
    """One solve: the game it works on, the values found so far, its deadline and scoring."""

    __slots__ = ("game", "values", "rewards", "deadline", "score", "actions")

    #: Positions solved between two looks at the clock.
    CHECK_EVERY = 64

    def __init__(self, game: Game, deadline: float | None, score: Callable[[Game], Sequence[int]],
                 actions: Callable[[Game], Sequence[Action]]) -> None:
        self.game = game
        self.values: dict[tuple, tuple[int, ...]] = {}
        self.rewards: dict[tuple[int, ...], list[float]] = {}
        self.deadline = deadline
        self.score = score
        self.actions = actions

    def root(self) -> list[tuple[Action, tuple[int, ...]]]:
        return [(action, self.after(action)) for action in self.game.legal_actions()]

    def after(self, action: Action) -> tuple[int, ...]:
        """The value of the position after ``action``."""
        game = self.game
        game.push(action)
        value = self.value()
        game.pop()
        return value

    def value(self) -> tuple[int, ...]:
        """The value of the game's position (looked up, or found and remembered)."""
        key = self.game.key()
        found = self.values.get(key)
        if found is None:
            found = self.values[key] = self.search()
            if self.deadline is not None and not len(self.values) % self.CHECK_EVERY \
                    and time.perf_counter() > self.deadline:
                raise TimeoutError("the endgame took longer than its deadline")
        return found

    def search(self) -> tuple[int, ...]:
        """The value of the game's position, from its final score or its actions' values."""
        game = self.game
        if game.is_over:
            return tuple(self.score(game))
        seat = game.current_seat
        return max((self.after(action) for action in self.actions(game)),
                   key=lambda totals: self.reward(totals)[seat])

    def reward(self, totals: tuple[int, ...]) -> list[float]:
        found = self.rewards.get(totals)
        if found is None:
            found = self.rewards[totals] = rewards(totals)
        return found
