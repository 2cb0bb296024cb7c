"""The hex game as plain text: one line per move, the score table, the final report.

Everything from the host (names, seat labels, bot kinds; already cleaned there) is
cleaned again here (:func:`protocol.clean`) before printing, and columns are counted in
terminal cells (:func:`protocol.text.pad`), so wide names keep the table straight.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from client.games.movers import mover
from protocol import Played, Undone, clean
from protocol.messages import NAME_SHOWN
from protocol.text import counted, cut, pad
from waddle.hex.events import GameEnded, HalfEnded, Placed, RoundEnded
from waddle.hex.render import render_game, render_sheet
from waddle.hex.ruleset import HexMatch
from waddle.ruleset import Outcome

NameOf = Callable[[str], str]

_NOTES = {RoundEnded: "round ends", HalfEnded: "half ends", GameEnded: "game over"}


def move_line(played: Played, labels: Sequence[str], name_of: NameOf) -> str:
    """``"  12  red    Ada         place 1,-1   round ends"`` for one ``played`` event
    (``labels``: the seats' labels by number).

    Moves are numbered from 1: the action's place in the game (its event version - 1,
    since event 1 is the start).
    """
    first = played.events[0]
    action = ("double " if first.double else "place ") + f"{first.hex[0]},{first.hex[1]}" \
        if isinstance(first, Placed) else "scout"
    note = ", ".join(_NOTES[type(e)] for e in played.events[1:] if type(e) in _NOTES)
    label = labels[played.seat]
    who = mover(name_of(label), played.bot)
    return f"{played.version - 1:>4}  {pad(clean(label), 6)} {pad(who, 24)} {action:<14} {note}".rstrip()


def undo_line(undone: Undone, labels: Sequence[str], name_of: NameOf) -> str:
    """``"  13  red    Ada         took back place 1,-1"`` for one ``undone`` event (numbered
    as the event it is)."""
    label = labels[undone.seat]
    who = _name(name_of(label))
    return f"{undone.version - 1:>4}  {pad(clean(label), 6)} {pad(who, 24)} took back {undone.events[0].action}"


def _name(name: str) -> str:
    """A name from the host, cleaned and cut to :data:`~protocol.messages.NAME_SHOWN` cells."""
    return cut(clean(name), NAME_SHOWN)


def score_lines(outcome: Outcome, labels: Sequence[str], name_of: NameOf) -> list[str]:
    """The score table: one row per player (waddles, pools, total), winners marked ``*``."""
    result = outcome.detail
    title = "final score" if result.finished else "live score"
    lines = [f"{title}:", f"  {'player':<34} {'waddles':>7} {'pools':>5} {'total':>5}"]
    for player in sorted(labels, key=lambda p: -result.scores[p].total):
        score = result.scores[player]
        mark = "*" if player in result.winners else " "
        who = f"{clean(player)} ({_name(name_of(player))})"
        lines.append(f"{mark} {pad(who, 34)} {score.waddles:>7} {score.pools:>5} {score.total:>5}")
    if result.finished:
        winners = ", ".join(f"{clean(p)} ({_name(name_of(p))})" for p in result.winners)
        lines.append(f"{'winners' if len(result.winners) > 1 else 'winner'}: {winners}")
    return lines


def report(match: HexMatch) -> str:
    """The board reached and each half's score breakdown (``waddle replay``)."""
    game = match.game
    result = game.result()
    parts = [render_game(game)]
    for number, sheet in enumerate(result.halves, 1):
        parts.append(f"\n== half {number} ==" if game.mirror_match else "")
        parts.append(render_sheet(sheet))
    if game.mirror_match:
        totals = ", ".join(f"{p} {s.total} ({s.waddles}+{s.pools})" for p, s in result.scores.items())
        parts.append(f"\ntotal of both halves: {totals}")
    if not result.finished:
        parts.append(f"\nthe record stops after {counted(len(game), 'action')}; "
                     "the game is not over (live score)")
    return "\n".join(parts)


def result_json(match: HexMatch) -> dict[str, Any]:
    """``{"finished": bool, "scores": {player: {"waddles", "pools", "total"}},
    "winners": [player, ...], "halves": [{player: {"waddles", "pools", "total"}}, ...]}``.

    ``scores`` are game totals (both halves added in a mirror match), the live score of
    the position reached if the game is not over; ``winners`` is empty until it is.
    Players appear in opening turn order.
    """
    result = match.game.result()
    return {
        "finished": result.finished,
        "scores": {p: s.to_dict() for p, s in result.scores.items()},
        "winners": list(result.winners),
        "halves": [{p: s.to_dict() for p, s in sheet.scores.items()} for sheet in result.halves],
    }
