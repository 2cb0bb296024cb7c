"""Events: what applying an action caused, in the order it happened.

:meth:`waddle.hex.game.Game.apply` returns them so the server can broadcast them and
clients can follow the game without re-deriving it. Each has ``to_dict()`` giving
its JSON form with a ``"type"`` field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from waddle.hex.hexgrid import Hex
from waddle.hex.scoring import Score, ScoreSheet


@dataclass(frozen=True, slots=True)
class Placed:
    """``player`` put a single or a ``double`` on ``hex``; ``doubles_left`` after it."""

    player: str
    hex: Hex
    double: bool
    doubles_left: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "placed", "player": self.player, "hex": list(self.hex),
                "double": self.double, "doubles_left": self.doubles_left}


@dataclass(frozen=True, slots=True)
class Scouted:
    """``player`` scouted ahead to the back of the other turn track."""

    player: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "scouted", "player": self.player}


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round ended; the next round (if any) is at ``active_hex`` with this turn order.

    ``tracks`` are turn tracks A and B, front (next to act) first; ``active_track`` is
    0 for A, 1 for B. ``active_hex`` is ``None`` when the game (or half) ended.
    """

    active_hex: Hex | None
    tracks: tuple[tuple[str, ...], tuple[str, ...]]
    active_track: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "round_ended",
                "active_hex": list(self.active_hex) if self.active_hex else None,
                "tracks": [list(t) for t in self.tracks], "active_track": self.active_track}


@dataclass(frozen=True, slots=True)
class HalfEnded:
    """Half ``half`` (1) of a mirror match ended with ``sheet``; the board is cleared."""

    half: int
    sheet: ScoreSheet

    def to_dict(self) -> dict[str, Any]:
        return {"type": "half_ended", "half": self.half, "sheet": self.sheet.to_dict()}


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game ended: final ``scores`` (halves added), ``winners`` and each half's sheet."""

    scores: dict[str, Score]
    winners: tuple[str, ...]
    halves: tuple[ScoreSheet, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": "game_ended", "scores": {p: s.to_dict() for p, s in self.scores.items()},
                "winners": list(self.winners), "halves": [h.to_dict() for h in self.halves]}


Event = Placed | Scouted | RoundEnded | HalfEnded | GameEnded
