"""The actions the search considers: the legal actions less two kinds it leaves out.

- **The touching rule** (optional): a double is considered only next to one of the
  player's own tokens, where it grows a waddle; elsewhere the single is played. It keeps
  the doubles for the waddles and leaves fewer actions to search (about +10 points of
  win rate, docs/benchmarks.md "Hex search bot").
- **No scout in the last round**: a scout places nothing more in its round (RULES.md
  "Turns and rounds"), so in the game's last round it only passes, leaving the ice it
  could take to the others. Solved exactly both ways, the best action was the same in
  every one of 18 positions 5 to 7 placements from the end, and the solve took 3 to 10
  times less time (docs/benchmarks.md).
"""

from __future__ import annotations

from waddle.hex.actions import Action, Place, Scout
from waddle.hex.game import Game


def searched_actions(game: Game, touching: bool = True) -> tuple[Action, ...]:
    """The actions of ``game``'s player to act that the search considers, in
    :meth:`Game.legal_actions` order: the legal ones without a scout in the last round
    (:attr:`Game.last_round`) and, with ``touching``, without doubles away from the
    player's own tokens (:meth:`Game.touches_own`). Empty once the game is over."""
    actions = game.legal_actions()
    if actions and actions[-1].__class__ is Scout and game.last_round:
        actions = actions[:-1]
    if touching:
        actions = tuple(a for a in actions
                        if a.__class__ is not Place or not a.double or game.touches_own(a.hex))
    return actions
