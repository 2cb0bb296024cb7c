"""The host's log bounded in all: what connections make the host say (a rejection, a
connection closed, a join, a refusal, an SSH guest's wrong code) is let through at most
:attr:`LogBudget.lines` lines per :attr:`LogBudget.interval` seconds over every connection
together (bursts of :attr:`LogBudget.burst`), and what was held back is counted and said
once per interval.

Lines caused by connections go to :data:`peer_log` (the logger ``waddle.server.peers``);
what a person running the host needs (listening, a game started, paused or over, saves,
the history, stopping, every error) goes to ``waddle.server`` and is never held back. A
:class:`LogBudget` is a filter on :data:`peer_log`: a token bucket of ``lines`` lines,
of ``burst`` lines refilled at ``lines`` per ``interval``; INFO and WARNING records over it are dropped and
counted; DEBUG records (logged only when the operator asked for everything) and ERROR
records pass. :meth:`LogBudget.run` writes, once an interval in which lines were dropped,
one WARNING on ``waddle.server``::

    12:01:00 WARNING log budget: 4,212 lines about connections not logged (4,190 INFO,
        22 WARNING; at most 30 a minute are)

With the defaults (30 lines a minute, bursts of 10, lines of about 100 bytes) the host's log
grows by about 3 KB a minute, at most 40 lines in any minute, however many connections
guess codes or send garbage (``docs/security.md``, ``tests/test_log_budget.py``). The filter is thread-safe (the SSH gateway logs from its own
thread) and reads time from ``clock`` (seconds, :func:`time.monotonic`; a trio test passes
``trio.current_time``). :class:`server.host.Host` installs its budget while it runs.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import Counter
from collections.abc import Callable

import trio

#: The logger of every line a connection makes the host write.
peer_log = logging.getLogger("waddle.server.peers")
log = logging.getLogger("waddle.server")


class LogBudget(logging.Filter):
    """At most ``lines`` lines per ``interval`` seconds on :data:`peer_log`, over every
    connection together, in bursts of at most ``burst``; the rest counted by level
    (:meth:`summary`)."""

    def __init__(self, lines: int = 30, interval: float = 60.0, burst: int = 10,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.lines, self.interval, self.burst, self.clock = lines, interval, burst, clock
        self._lock = threading.Lock()
        self._tokens = float(burst)
        self._refilled = -math.inf
        self._dropped: Counter[str] = Counter()
        #: Lines dropped since the budget was made.
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is written (``False``: dropped and counted)."""
        if not logging.INFO <= record.levelno < logging.ERROR:
            return True
        with self._lock:
            now = self.clock()
            gained = (now - self._refilled) * self.lines / self.interval
            self._tokens = min(float(self.burst), self._tokens + gained)
            self._refilled = now
            if self._tokens >= 1:
                self._tokens -= 1
                return True
            self._dropped[record.levelname] += 1
            self.dropped += 1
            return False

    def summary(self) -> str | None:
        """What was dropped since the last summary, as one line (``None``: nothing), and
        start counting again."""
        with self._lock:
            dropped, self._dropped = self._dropped, Counter()
        if not dropped:
            return None
        levels = ", ".join(f"{count:,} {level}" for level, count in sorted(dropped.items()))
        return (f"log budget: {dropped.total():,} lines about connections not logged "
                f"({levels}; at most {self.lines} a {_per(self.interval)} are)")

    async def run(self) -> None:
        """Say what was dropped once per ``interval`` in which lines were (trio time),
        until cancelled; then what was dropped since the last."""
        try:
            while True:
                await trio.sleep(self.interval)
                self._report()
        finally:
            self._report()

    def _report(self) -> None:
        line = self.summary()
        if line is not None:
            log.warning("%s", line)


def _per(interval: float) -> str:
    return "minute" if interval == 60 else f"{interval:g} s"
