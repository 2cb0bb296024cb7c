"""The arena's progress on stderr: a bar redrawn in place on a terminal (games done of
all, elapsed, estimated time left), else one plain line per game."""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO

#: Characters of the bar, at most.
BAR = 30


def clock(seconds: float) -> str:
    """``seconds`` as ``M:SS`` or ``H:MM:SS``."""
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Progress:
    """Tells ``stream`` (default stderr) how far ``total`` games are: call :meth:`step`
    as each ends, :meth:`close` at the end. ``bar``: redraw one line in place (default:
    whether ``stream`` is a terminal)."""

    def __init__(self, total: int, stream: TextIO | None = None, bar: bool | None = None) -> None:
        self.total, self.done = total, 0
        self.stream = stream or sys.stderr
        self.bar = self.stream.isatty() if bar is None else bar
        self.start = time.monotonic()

    def line(self) -> str:
        """Where the run is: ``"12/200 games  0:42 elapsed  ETA 10:58"``."""
        elapsed = time.monotonic() - self.start
        left = elapsed / self.done * (self.total - self.done) if self.done else None
        eta = "ETA --:--" if left is None else f"ETA {clock(left)}"
        return f"{self.done}/{self.total} games  {clock(elapsed)} elapsed  {eta}"

    def step(self, note: str = "") -> None:
        """One more game ended (``note``: what to say about it on a plain line)."""
        self.done += 1
        if self.bar:
            filled = BAR * self.done // self.total
            text = f"[{'#' * filled}{'.' * (BAR - filled)}] {self.line()}"
            width = shutil.get_terminal_size((80, 24)).columns - 1
            self.stream.write(f"\r{text[:width]:<{width}}")
        else:
            self.stream.write(f"{self.line()}{'  ' + note if note else ''}\n")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line (nothing for plain lines)."""
        if self.bar and self.done:
            self.stream.write("\n")
            self.stream.flush()
