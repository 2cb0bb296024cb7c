"""A pause of the game at a table: the game asked for one (:meth:`waddle.ruleset.Match.pause_after`,
the hex game's half-time) and the table holds every action and bot until each person it
waits for says to go on (``continue``), or it times out (``docs/protocol.md``, Pauses)."""

from __future__ import annotations

from dataclasses import dataclass, field

from server.seats import Seat


@dataclass
class Pause:
    """A pause called ``name`` (for people, e.g. ``"half-time"``), waiting for the seats in
    ``waiting`` until trio time ``until``."""

    name: str
    until: float
    waiting: set[Seat] = field(default_factory=set)

    def left(self, now: float) -> float:
        """Seconds until the pause ends by itself (0 once due)."""
        return max(0.0, self.until - now)
