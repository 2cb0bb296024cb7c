"""Events: what applying an action caused, in the order it happened.

:meth:`waddle.hex.game.Game.apply` returns them so the host can broadcast them and
clients can follow the game without re-deriving it. They are msgspec Structs tagged by
``"type"``, so their JSON form (on the wire, and ``to_dict()``) is one object with a
``"type"`` field.
"""

from __future__ import annotations

from typing import Any

import msgspec

from waddle.hex.actions import Action
from waddle.hex.hexgrid import Hex
from waddle.hex.scoring import Score, ScoreSheet
from waddle.jsonform import json_form


class _Event(msgspec.Struct, frozen=True, tag_field="type"):
    def to_dict(self) -> dict[str, Any]:
        """The JSON form: an object with a ``"type"`` field."""
        return json_form(self)


class Placed(_Event, tag="placed"):
    """``player`` put a single or a ``double`` on ``hex``; ``doubles_left`` after it."""

    player: str
    hex: Hex
    double: bool
    doubles_left: int


class Scouted(_Event, tag="scouted"):
    """``player`` scouted ahead to the back of the other turn track."""

    player: str


class RoundEnded(_Event, tag="round_ended"):
    """A round ended; the next round (if any) is at ``active_hex`` with this turn order.

    ``tracks`` are turn tracks A and B, front (next to act) first; ``active_track`` is
    0 for A, 1 for B. ``active_hex`` is ``None`` when the game (or half) ended.
    """

    active_hex: Hex | None
    tracks: tuple[tuple[str, ...], tuple[str, ...]]
    active_track: int


class HalfEnded(_Event, tag="half_ended"):
    """Half ``half`` (1) of a mirror match ended with ``sheet``; the board is cleared."""

    half: int
    sheet: ScoreSheet


class GameEnded(_Event, tag="game_ended"):
    """The game ended: final ``scores`` (halves added), ``winners`` and each half's sheet."""

    scores: dict[str, Score]
    winners: tuple[str, ...]
    halves: tuple[ScoreSheet, ...]


class TookBack(_Event, tag="took_back"):
    """``player`` took back their last ``action`` (nobody had acted since); the game is
    exactly as it was before it (:meth:`waddle.hex.ruleset.HexMatch.undo`)."""

    player: str
    action: Action


Event = Placed | Scouted | RoundEnded | HalfEnded | GameEnded | TookBack
