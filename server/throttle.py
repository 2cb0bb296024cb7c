"""A log line that repeats (a peer's bad frames, refused connections, failing accepts) let
through at most once per interval, with a count of the ones held back, so nobody can
flood the host's log."""

from __future__ import annotations

import math

import trio


class Throttle:
    """At most one line per ``interval`` seconds (trio time); :meth:`allow` says whether
    this one may go out, :meth:`held` how many were held back since the last that did
    (``what`` they are, for :meth:`note`: ``"rejection"``)."""

    def __init__(self, interval: float, what: str = "line") -> None:
        self.interval, self.what = interval, what
        self._quiet_until = -math.inf
        self._held = 0

    def allow(self) -> bool:
        """Whether a line may be logged now (then the next waits ``interval`` seconds);
        ``False`` counts one held back."""
        now = trio.current_time()
        if now < self._quiet_until:
            self._held += 1
            return False
        self._quiet_until = now + self.interval
        return True

    def held(self) -> int:
        """How many lines were held back since the last one let through (and start again)."""
        held, self._held = self._held, 0
        return held

    def note(self) -> str:
        """``"; N more such rejection(s) not logged"`` for the lines held back (see
        :meth:`held`), or ``""``."""
        held = self.held()
        return f"; {held} more such {self.what}(s) not logged" if held else ""
