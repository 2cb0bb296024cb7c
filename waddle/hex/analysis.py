"""The hex game's analysis: what the search bot thinks of a position.

:func:`analyse` runs the search bot (:func:`waddle.hex.search.analyse`: max^n UCT, the
exact endgame when few placements remain) on the game, every legal action weighed at the
root (doubles the bot's touching rule leaves out too), and reports, for each one, every
player's expected final score if it is played (RULES.md "Scoring", both halves of a
mirror match), in seat order; the best action is chosen by
:meth:`Analysis.of <waddle.ruleset.Analysis.of>`. This is the one function the ruleset's
:meth:`~waddle.ruleset.Ruleset.analyse` calls.
"""

from __future__ import annotations

from collections.abc import Callable

from waddle.hex import search
from waddle.hex.game import Game
from waddle.ruleset import Analysis, Candidate


def analyse(game: Game, seconds: float, *, seed: int | None = None, iterations: int | None = None,
            stop: Callable[[], bool] = lambda: False) -> Analysis:
    """The search's verdict on ``game`` for its current player (see the module docstring).

    Searches for ``seconds`` (wall clock) or ``iterations`` (whichever ends first; at
    least one iteration), or until ``stop()`` is true. ``game`` is not changed. A finished
    game gives its final totals, no best action. A position solved exactly gives each
    action's exact max^n totals (its candidates have no visits).
    """
    if game.is_over:
        return Analysis(None, None, tuple(float(t) for t in game.live_totals()))
    found = search.analyse(game, seconds=seconds, iterations=iterations, seed=seed, stop=stop,
                           every_action=True)
    candidates = [Candidate(line.action, line.visits, tuple(line.scores[p] for p in game.players))
                  for line in found.lines]
    return Analysis.of(game.players.index(game.current_player), candidates, found.iterations)
