"""The hex game's analysis: what the search bot thinks of a position.

:func:`analyse` runs the search bot's UCT search (:class:`waddle.hex.bots.SearchBot`) on a
copy of the game and keeps, for each action at the root, the mean final score of every
player over the playouts through it: the expected final score if that action is played
(RULES.md "Scoring", both halves of a mirror match); the best action is chosen by
:meth:`Analysis.of <waddle.ruleset.Analysis.of>`. This is the one function the ruleset's
:meth:`~waddle.ruleset.Ruleset.analyse` calls, so a stronger search can take its place.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from waddle.hex.actions import Action
from waddle.hex.bots import SearchBot, _Node
from waddle.hex.game import Game
from waddle.ruleset import Analysis, Candidate


class _Tally(SearchBot):
    """The search bot, remembering the root action each iteration went through (``chosen``)
    and the final totals of its playout (``last``)."""

    def __init__(self, seed: int | None, root: _Node) -> None:
        super().__init__(seed, seconds=None, iterations=1)
        self.root, self.chosen, self.last = root, None, []

    def _select(self, node: _Node) -> _Node:
        child = super()._select(node)
        if node is self.root:
            self.chosen = child
        return child

    def _rewards(self, game: Game) -> list[float]:
        self.last = game.live_totals()
        return super()._rewards(_Totals(self.last))  # the totals worked out once


class _Totals:
    """A finished playout's totals, read as the bot's reward reads a game."""

    __slots__ = ("totals",)

    def __init__(self, totals: list[int]) -> None:
        self.totals = totals

    def live_totals(self) -> list[int]:
        return self.totals


def analyse(game: Game, seconds: float, *, seed: int | None = None, iterations: int | None = None,
            stop: Callable[[], bool] = lambda: False) -> Analysis:
    """The search's verdict on ``game`` for its current player (see the module docstring).

    Searches for ``seconds`` (wall clock) or ``iterations`` (whichever ends first; at
    least one iteration), or until ``stop()`` is true. ``game`` is not changed. A finished
    game gives its final totals, no best action.
    """
    if game.is_over:
        return Analysis(None, None, tuple(float(t) for t in game.live_totals()))
    game = game.copy()
    root = _Node(None, -1, [])
    bot = _Tally(seed, root)
    root.untried = bot._shuffled(game.legal_actions())
    seat = {player: i for i, player in enumerate(game.players)}
    sums: dict[Action, list[float]] = {}
    deadline = time.perf_counter() + seconds
    done = 0
    while done == 0 or not (stop() or time.perf_counter() >= deadline
                            or iterations is not None and done >= iterations):
        expanded = len(root.children)
        bot._iterate(game, root, seat)
        done += 1
        child = root.children[-1] if len(root.children) > expanded else bot.chosen
        tally = sums.setdefault(child.action, [0.0] * len(bot.last))
        for i, total in enumerate(bot.last):
            tally[i] += total
    candidates = [Candidate(child.action, child.visits, tuple(s / child.visits for s in sums[child.action]))
                  for child in root.children]
    return Analysis.of(seat[game.current_player], candidates, done)
