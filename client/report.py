"""Text lines for headless clients: one line per move, and the final score table.

Names come from the host (already cleaned there) and are cleaned again here
(:func:`protocol.clean`) before printing.
"""

from __future__ import annotations

from collections.abc import Callable

from protocol import Played, clean
from protocol.actions import to_engine
from waddle import Game

NameOf = Callable[[str], str]


def describe_played(played: Played, name_of: NameOf) -> str:
    """``"  12  red    Ada         place 1,-1   round ends"`` for one ``played`` event.

    Moves are numbered from 1: the action's place in the game (its event version - 1,
    since event 1 is the start).
    """
    after = [e["type"] for e in played.events[1:]]
    notes = {"round_ended": "round ends", "half_ended": "half ends", "game_ended": "game over"}
    note = ", ".join(notes[t] for t in after if t in notes)
    who = clean(name_of(played.player))[:24] + (f" [{played.bot}]" if played.bot else "")
    return f"{played.version - 1:>4}  {played.player:<6} {who:<24} {str(to_engine(played.action)):<14} {note}".rstrip()


def score_lines(game: Game, name_of: NameOf) -> list[str]:
    """The score table: one row per player (waddles, pools, total), winners marked ``*``."""
    result = game.result()
    title = "final score" if result.finished else "live score"
    lines = [f"{title}:", f"  {'player':<34} {'waddles':>7} {'pools':>5} {'total':>5}"]
    ranked = sorted(game.players, key=lambda p: -result.scores[p].total)
    for player in ranked:
        score = result.scores[player]
        mark = "*" if player in result.winners else " "
        who = f"{player} ({clean(name_of(player))[:24]})"
        lines.append(f"{mark} {who:<34} {score.waddles:>7} {score.pools:>5} {score.total:>5}")
    if result.finished:
        winners = ", ".join(f"{p} ({clean(name_of(p))[:24]})" for p in result.winners)
        lines.append(f"{'winners' if len(result.winners) > 1 else 'winner'}: {winners}")
    return lines
