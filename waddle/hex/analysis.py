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
    """The search bot, also summing each root action's final totals (one list per action)."""

    def __init__(self, seed: int | None, depth: int) -> None:
        super().__init__(seed, seconds=None, iterations=1)
        self.depth = depth
        self.totals: dict[Action, list[float]] = {}

    def _rewards(self, game: Game) -> list[float]:
        totals = game.live_totals()
        sums = self.totals.setdefault(game.moves[self.depth][1], [0.0] * len(totals))
        for i, total in enumerate(totals):
            sums[i] += total
        return super()._rewards(game)


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
    bot = _Tally(seed, len(game))
    root = _Node(None, -1, bot._shuffled(game.legal_actions()))
    seat = {player: i for i, player in enumerate(game.players)}
    deadline = time.perf_counter() + seconds
    done = 0
    while done == 0 or not (stop() or time.perf_counter() >= deadline
                            or iterations is not None and done >= iterations):
        bot._iterate(game, root, seat)
        done += 1
    candidates = [Candidate(child.action, child.visits, tuple(s / child.visits for s in bot.totals[child.action]))
                  for child in root.children]
    return Analysis.of(seat[game.current_player], candidates, done)
