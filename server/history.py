"""The host's history writer: every finished game goes to the history file
(:mod:`waddle.history`) from one worker thread, so the host's loop never waits on the
database (``docs/history.md``).

The table hands over a finished game (:func:`finished_game`) with :meth:`History.submit`,
which only puts it on a queue. The thread writes it in one transaction, with its players'
new ratings; until that commits, the game's save file and journal hold it, and a host
resumed from them submits it again (a game is written once: its table's id and number
are its key). A file that cannot be used (damaged, another program's, newer, read-only)
is logged once, naming it, and the host plays on without a history; a locked one is
tried again every :data:`RETRY_INTERVAL` seconds.
"""

from __future__ import annotations

import logging
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import trio

from waddle.history import NEWCOMER, FinishedGame, HistoryError, Rating, Seat, connect, write_game
from waddle.history.stats import all_ratings, rated, shown

if TYPE_CHECKING:
    from server.table import Table

log = logging.getLogger("waddle.server")

#: Seconds between tries to write to a locked history file.
RETRY_INTERVAL = 5.0
#: Seconds a stopping host waits for the games it submitted to be written.
CLOSE_TIMEOUT = 10.0

_STOP = object()


def finished_game(table: Table, finished: float | None = None) -> FinishedGame:
    """What the history keeps of ``table``'s finished game: its record (no host part, so
    no tokens), options, map or deck, seats, scores, winners and the SSH key fingerprints
    of the guests who came through the gateway; ``finished``: when it
    ended (Unix seconds; ``None``: now)."""
    match, ruleset = table.match, table.ruleset
    outcome = match.outcome()
    seats = tuple(Seat(seat=n, label=s.label, name=s.name, bot=s.bot, score=outcome.scores[n],
                       winner=n in outcome.winners, fingerprint=s.fingerprint) for n, s in enumerate(table.seats))
    return FinishedGame(table=table.id, number=table.games, game=ruleset.name,
                        options=msgspec.to_builtins(table.settings.options),
                        setup=ruleset.setup_name(table.settings.options), started=table.started_at,
                        finished=time.time() if finished is None else finished,
                        record=match.record(), seats=seats)


def last_written(path: Path | None) -> float | None:
    """When a save file or its journal was last written (Unix seconds; ``None``: neither
    exists): a resumed game's end, as near as the files know it."""
    if path is None:
        return None
    times = [os.stat(p).st_mtime for p in (path, path.with_name(path.name + ".journal")) if p.exists()]
    return max(times, default=None)


class History:
    """The one writer of the history file at ``path``, in its own thread.

    :meth:`run` (a task of the host) starts the thread and, when cancelled, lets it write
    what was submitted (at most :data:`CLOSE_TIMEOUT` seconds). :meth:`submit` and
    :meth:`ratings` never block. :attr:`written` counts the games this writer added.
    """

    def __init__(self, path: str | Path, *, retry_interval: float = RETRY_INTERVAL) -> None:
        self.path = Path(path)
        #: Seconds between tries to write to a locked file.
        self.retry_interval = retry_interval
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._ratings: dict[tuple[str, str, bool], Rating] = {}
        self._thread = threading.Thread(target=self._work, name="waddle-history", daemon=True)
        #: Games written to the file by this writer (not those it held already).
        self.written = 0
        #: Why the file is not used (``None``: it is, or will be once unlocked).
        self.problem: str | None = None
        self._idle = threading.Event()
        self._idle.set()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Start the writer's thread; on cancellation stop it once the queue is written."""
        self._thread.start()
        task_status.started()
        try:
            await trio.sleep_forever()
        finally:
            self._queue.put(_STOP)
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(self._thread.join, CLOSE_TIMEOUT)
            if self._thread.is_alive():
                log.error("the history %s is still not written after %g s; the finished games' "
                          "save files hold them", self.path, CLOSE_TIMEOUT)

    def submit(self, game: FinishedGame) -> None:
        """Write ``game`` to the history soon (never blocks; a game the file holds already
        is left as it is)."""
        self._idle.clear()
        self._queue.put(game)

    def idle(self, timeout: float | None = None) -> bool:
        """Wait (blocking: from a worker thread or a test) until every game submitted is
        written or given up; whether it is."""
        return self._idle.wait(timeout)

    def ratings(self, names: Iterable[str], game: str, *, bots: Iterable[str] = ()) -> dict[str, Rating]:
        """The ratings in ``game`` (a ruleset's name) of the people ``names`` and the bot
        kinds ``bots``, by the player as people read it (``Ann``, ``greedy (bot)``), as the history held them when this host started
        plus the games it wrote since (:data:`waddle.history.NEWCOMER` for one not rated).
        For the club's lobby: in memory, never blocks."""
        wanted = [(name, False) for name in names] + [(kind, True) for kind in bots]
        with self._lock:
            return {shown(*key): self._ratings.get((game, *key), NEWCOMER) for key in wanted}

    # -- in the writer's thread -------------------------------------------------------------------

    def _work(self) -> None:
        db = self._open()
        pending: list[FinishedGame] = []
        stopping = False
        while not (stopping and not pending):
            try:
                item = self._queue.get(timeout=self.retry_interval if pending else None)
            except queue.Empty:
                item = None
            if item is _STOP:
                stopping = True
            elif item is not None:
                pending.append(item)
            if db is None and self.problem is None:
                db = self._open()
            try:
                pending = self._write(db, pending) if db is not None else self._skip(pending)
            except Exception as exc:  # noqa: BLE001 - the writer's thread must go on: the host never learns of it
                pending = self._refuse(pending, exc)
            if not pending and self._queue.empty():
                self._idle.set()
            if stopping and pending:
                log.error("%d finished game(s) not written to the history %s; their save files "
                          "hold them (resuming one writes it)", len(pending), self.path)
                break
        self._idle.set()
        if db is not None:
            db.close()

    def _open(self) -> sqlite3.Connection | None:
        """The database, its ratings read; ``None`` (logged) if it cannot be used now."""
        try:
            db = connect(self.path, write=True)
            ratings = all_ratings(db)
        except (HistoryError, sqlite3.Error, OSError) as exc:
            text = str(exc) if isinstance(exc, HistoryError) else f"{self.path}: {exc}"
            if "locked" in text:
                log.warning("history %s; trying again every %g s", text, self.retry_interval)
            else:
                self.problem = text
                log.error("history %s; finished games are not written to it (their save files "
                          "keep them)", text)
            return None
        with self._lock:
            self._ratings.update(ratings)
        return db

    def _write(self, db: sqlite3.Connection, games: list[FinishedGame]) -> list[FinishedGame]:
        """Write ``games`` in order; return those that could not be written yet (locked)."""
        for n, game in enumerate(games):
            try:
                if write_game(db, game):
                    self.written += 1
                    self._learn(db, game)
                    log.info("game %d of table %s written to the history %s", game.number, game.table, self.path)
                else:
                    log.info("game %d of table %s is in the history %s already", game.number, game.table,
                             self.path)
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    return self._refuse(games[n:], exc)
                log.warning("history %s: locked by another program (%s); trying again in %g s",
                            self.path, exc, self.retry_interval)
                return games[n:]
            except sqlite3.Error as exc:
                return self._refuse(games[n:], exc)
        return []

    def _refuse(self, games: list[FinishedGame], exc: Exception) -> list[FinishedGame]:
        self.problem = f"{self.path}: {exc}"
        log.error("cannot write to the history %s: %s; finished games are not written to it "
                  "(their save files keep them)", self.path, exc)
        return self._skip(games)

    def _skip(self, games: list[FinishedGame]) -> list[FinishedGame]:
        """Drop ``games`` when the file cannot be used (its problem was logged); keep them
        while it is only locked."""
        if self.problem is None:
            return games
        for game in games:
            log.info("game %d of table %s is not in the history (%s)", game.number, game.table, self.problem)
        return []

    def _learn(self, db: sqlite3.Connection, game: FinishedGame) -> None:
        """Read back the new ratings of ``game``'s players."""
        found = rated(db, game.game, {(s.player, s.bot is not None) for s in game.seats})
        with self._lock:
            self._ratings.update({(game.game, *key): rating for key, rating in found.items()})
