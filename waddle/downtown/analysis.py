"""Waddle Downtown's analysis: what the search bot thinks of a seat's position.

:func:`analyse` runs the search bot's information-set search
(:class:`waddle.downtown.bots.SearchBot`) on the seat's :class:`~waddle.downtown.position.Position`
alone: every iteration deals the cards the seat has not seen at random
(:meth:`Position.sample`), so nothing secret is used. For the analysis the playouts go
on greedily to the game's end, and for each action at the root the mean final score of
every seat over the playouts through it is kept: its expected final score
(DOWNTOWN.md "Scoring"); the best action is chosen by
:meth:`Analysis.of <waddle.ruleset.Analysis.of>`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from waddle.downtown.bots import SearchBot, _Node
from waddle.downtown.position import Position
from waddle.downtown.state import State
from waddle.ruleset import Analysis, Candidate

#: Plays of an analysis playout: enough to reach the end of any game.
TO_THE_END = 10_000


class _Tally(SearchBot):
    """The search bot, remembering the final scores of the last playout."""

    def __init__(self, seed: int | None) -> None:
        super().__init__(seed, seconds=None, iterations=1, depth=TO_THE_END)
        self.last: list[int] = []

    def _rewards(self, state: State) -> list[float]:
        self.last = list(state.scores)
        return super()._rewards(state)


def analyse(position: Position, seconds: float, *, seed: int | None = None,
            iterations: int | None = None, stop: Callable[[], bool] = lambda: False) -> Analysis:
    """The search's verdict on ``position`` for its seat (see the module docstring).

    Searches for ``seconds`` (wall clock) or ``iterations`` (whichever ends first; at
    least one iteration), or until ``stop()`` is true. A finished game gives its final
    scores, no best action.

    Raises:
        ValueError: the position is not one a game can reach.
    """
    state = position.state
    if state.is_over:
        return Analysis(None, None, tuple(float(s) for s in state.scores))
    bot = _Tally(seed)
    root = _Node(None, -1)
    sums: dict = {}
    deadline = time.perf_counter() + seconds
    done = 0
    while done == 0 or not (stop() or time.perf_counter() >= deadline
                            or iterations is not None and done >= iterations):
        before = {action: child.visits for action, child in root.children.items()}
        bot._iterate(root, position.sample(bot._rng), position.seat)
        done += 1
        visited = next(a for a, child in root.children.items() if child.visits != before.get(a, 0))
        tally = sums.setdefault(visited, [0.0] * state.players)
        for seat, score in enumerate(bot.last):
            tally[seat] += score
    candidates = [Candidate(child.action, child.visits, tuple(s / child.visits for s in sums[child.action]))
                  for child in root.children.values()]
    return Analysis.of(position.seat, candidates, done)
