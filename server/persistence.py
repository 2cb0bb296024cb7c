"""Saving and resuming a table: a snapshot (the game's record plus a ``host`` part) and,
beside it, a journal of every action since (:mod:`waddle.journal`), written ahead.

The ``host`` part (:class:`SavedTable`) holds what the record does not: the game's
name, the table's settings, its seats with their names and secret tokens (so it is the
host's private file), each seat's action ids, the bot that chose each action, the join
code and the table's id. Saves from protocol version 1 (before a save named its game)
are read too: the game is the record's, the seats are converted here and the settings by
the game's ruleset (:meth:`~waddle.ruleset.Ruleset.upgrade_settings`). :class:`Saver` keeps both files current;
:func:`read_save` reads them back, recovering from a journal cut short by a crash.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import trio

from protocol.messages import PROTOCOL_VERSION, Settings
from server.flush import File, Flusher, flush
from server.seats import Seat
from waddle.errors import RecordError
from waddle.files import MAX_RECORD_BYTES, parse_json, read_text, write_json
from waddle.journal import Entry, Header, extend, journal_path, line, snapshot_version
from waddle.ruleset import Match, Ruleset, get_ruleset, ruleset_of_record

log = logging.getLogger("waddle.server")
#: Seconds between bringing the journal to the disk (``fsync``) while actions come.
SYNC_INTERVAL = 1.0
#: Seconds between attempts to save again after a failure.
RETRY_INTERVAL = 1.0
#: What a failure means, in the log line: the snapshot is behind, or actions are unsaved.
SNAPSHOT_BEHIND = "the journal beside it holds every action meanwhile"
UNSAVED = "actions are kept in memory, not saved, until it works"


class SavedSeat(msgspec.Struct):
    """One seat in a save file: its label, name, token, bot kind, action ids, its
    player's SSH key fingerprint (``None``: none known, or an older save) and the SSH user
    name of a player who came over SSH without a key (``None``: none)."""

    label: str
    name: str
    token: str
    bot: str | None = None
    acted: dict[str, int] = {}
    fingerprint: str | None = None
    ssh_name: str | None = None


class SavedTable(msgspec.Struct):
    """The ``host`` part of a save file (``docs/protocol.md``, Saving and resuming)."""

    protocol: int
    settings: dict[str, Any]
    seats: list[SavedSeat]
    bots: list[str | None]
    game: str
    code: str | None = None
    table: str = ""
    version: int = 0
    games: int = 1
    #: Where the host listened (address and port), so a resume listens there again and
    #: its players' clients, still trying that address, find it; ``None`` in older saves.
    address: str | None = None
    port: int | None = None
    #: The host's timing (seconds): an absent player's grace, a lobby seat's, the bots'
    #: pace (:class:`server.table.Table`'s ``grace``, ``lobby_grace``, ``bot_delay``), so
    #: a resume keeps them unless its host is given others; ``None`` in older saves.
    grace: float | None = None
    lobby_grace: float | None = None
    pace: float | None = None
    #: When the game began (Unix seconds), for its duration in the history; ``None`` in older saves.
    started: float | None = None


def host_part(ruleset: Ruleset, settings: Settings, seats: list[Seat], bots: list[str | None],
              code: str | None, table: str, *, version: int = 0, games: int = 1,
              listening: tuple[str, int] | None = None,
              timing: tuple[float, float, float] | None = None,
              started: float | None = None) -> dict[str, Any]:
    """The ``host`` part of a save file, JSON-ready (``version``: the table's event
    version, past ``1 + actions`` after take-backs or rematches; ``games``: the game's
    number at the table; ``listening``: the address and port its host listens on, if any;
    ``timing``: its grace, lobby grace and bots' pace in seconds, if known; ``started``:
    when the game began, Unix seconds)."""
    address, port = listening or (None, None)
    grace, lobby_grace, pace = timing or (None, None, None)
    saved = SavedTable(protocol=PROTOCOL_VERSION, game=ruleset.name,
                       settings=msgspec.to_builtins(settings), code=code, table=table,
                       seats=[SavedSeat(s.label, s.name, s.token, s.bot, dict(s.acted), s.fingerprint, s.ssh_name)
                              for s in seats],
                       bots=list(bots), version=version, games=games, address=address, port=port,
                       grace=grace, lobby_grace=lobby_grace, pace=pace, started=started)
    return msgspec.to_builtins(saved)


@dataclass(frozen=True)
class Resumed:
    """A save file read back: the game's ruleset, its match, the table's settings and the rest."""

    ruleset: Ruleset
    match: Match
    settings: Settings
    saved: SavedTable
    #: The event version reached (the snapshot's, then the journal's).
    version: int = 0
    #: The actions and take-backs recovered from the journal (played on ``match``).
    recovered: int = 0


def read_save(path: str | Path) -> Resumed:
    """Read the save file at ``path`` and its journal, and replay the game.

    The journal's actions after the snapshot are played on (their seats' action ids
    and bots added to ``saved``); what the journal could not give (a last line cut
    short by a crash, a damaged line) is logged and left out, never played.

    Raises:
        waddle.RecordError: the file cannot be read, is over
            :data:`~waddle.files.MAX_RECORD_BYTES` or not JSON (nested too deeply
            included), is not a save file (a plain game record is named as such), is of
            an unknown game or protocol version, or does not replay; the message names
            the file.
    """
    path = Path(path)
    try:
        data = parse_json(read_text(path, MAX_RECORD_BYTES))
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: cannot read the saved game: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a saved game must be a JSON object")
    if "host" not in data:
        what = "a game record, not a host save file" if ruleset_of_record(data) \
            else "not a host save file (it has no 'host' part)"
        raise RecordError(f"{path} is {what}: resume needs the file written by the host's --save")
    try:
        saved = msgspec.convert(_upgrade(data["host"], data), SavedTable)
        ruleset = get_ruleset(saved.game)
        settings = msgspec.convert(saved.settings, Settings[ruleset.options_type])
    except (msgspec.ValidationError, ValueError) as exc:
        raise RecordError(f"{path}: host: not a host's save file ({exc})") from None
    if not 1 <= saved.protocol <= PROTOCOL_VERSION:
        raise RecordError(f"{path}: host: saved by protocol version {saved.protocol}; "
                          f"this host reads versions 1 to {PROTOCOL_VERSION}")
    match = ruleset.load({k: v for k, v in data.items() if k != "host"}, source=str(path))
    if [s.label for s in saved.seats] != list(match.labels) or len(saved.bots) != len(match):
        raise RecordError(f"{path}: host: the seats or bots do not match the record")
    recovered, version = _recover(path, match, saved)
    return Resumed(ruleset, match, settings, saved, version, recovered)


def _recover(path: Path, match: Match, saved: SavedTable) -> tuple[int, int]:
    """Play the journal of ``path`` on ``match``, noting each action's bot and id in
    ``saved``; return how many entries it added and the event version reached."""
    try:
        journal = extend(match, path, table=saved.table, version=saved.version)
    except OSError as exc:
        raise RecordError(f"{journal_path(path)}: cannot read the journal: {exc}") from None
    if journal.problem:
        log.warning("%s", journal.problem)
    version = snapshot_version(match, saved.version) if not journal.entries else journal.entries[-1].version
    for entry in journal.entries:
        if entry.undo:
            saved.bots.pop()
            continue
        saved.bots.append(entry.bot)
        if entry.id is not None:
            saved.seats[entry.seat].acted[entry.id] = entry.version
    if journal.entries:
        log.info("%s: %d action(s) recovered from the journal", path, len(journal.entries))
    return len(journal.entries), version


def _upgrade(host: Any, record: dict[str, Any]) -> Any:
    """A version 1 ``host`` part in the shape of today's: it named no game (the game is
    the one whose records have the save's ``format``), its seats had a ``colour`` (now
    ``label``), and its settings are the game's to convert
    (:meth:`~waddle.ruleset.Ruleset.upgrade_settings`). Anything else as it is."""
    if not isinstance(host, dict) or host.get("protocol") != 1:
        return host
    ruleset = ruleset_of_record(record)
    if ruleset is None or not isinstance(host.get("settings"), dict):
        return host
    seats = [{**{k: v for k, v in seat.items() if k != "colour"}, "label": seat.get("colour")}
             if isinstance(seat, dict) else seat for seat in host.get("seats") or []]
    return {**host, "game": ruleset.name, "seats": seats,
            "settings": ruleset.upgrade_settings(host["settings"], 1)}


def restored_seats(resumed: Resumed, looks) -> list[Seat]:
    """The seats of a resumed table, held for their tokens (marked ready)."""
    by_label = {look.label: look for look in looks}
    return [Seat(by_label[s.label], s.name, s.token, s.bot, True, s.fingerprint, s.ssh_name,
                 acted=dict(s.acted))
            for s in resumed.saved.seats]


class Saver:
    """Keeps the save file at ``path`` and its journal (:func:`waddle.journal.journal_path`)
    current, write-ahead: every action reaches the operating system before anybody hears
    of it (``docs/protocol.md``, Saving and resuming).

    ``content()`` is the snapshot to write (the record and the ``host`` part), ``version()``
    the event version it holds and ``table()`` the table's id; ``offload`` runs blocking
    work (a worker thread). :meth:`begin` writes a snapshot and a fresh journal (at the
    start, and when a resumed table first runs); :meth:`append` writes one action's line
    to the journal before the host sends its event; the :meth:`run` task brings the
    journal to the disk (``fsync``) at most every ``sync_interval`` seconds while actions
    come, writes a new snapshot when :meth:`checkpoint` asks (the game's end) and retries
    what failed every ``retry_interval`` seconds; :meth:`close` saves everything at once
    on the way out. A failure is logged once (and once more when saving works again);
    what could not be written stays pending, so :attr:`saved` is false until it is.
    """

    def __init__(self, path: Path, content: Callable[[], dict[str, Any]], version: Callable[[], int],
                 table: Callable[[], str], offload: Callable[..., Awaitable[Any]], *,
                 flusher: Flusher | None = None, sync_interval: float = SYNC_INTERVAL,
                 retry_interval: float = RETRY_INTERVAL) -> None:
        self.path = path
        self.journal = journal_path(path)
        self._content, self._version, self._table = content, version, table
        self._offload = offload
        self._flusher = flusher or Flusher(offload)
        self.sync_interval, self.retry_interval = sync_interval, retry_interval
        self._fd: int | None = None      # the journal, open for appending
        self._pending = bytearray()      # journal bytes not yet written to the operating system
        self._tail: list[tuple[int, bytes]] = []  # (version, line) of each action after the snapshot
        #: The event version the snapshot (the save file alone) holds; 0: none yet.
        self.base = 0
        self._dirty = False              # written, not yet on the disk
        self._unsynced: Path | None = None  # a new save file not yet on the disk
        self._retired: list[int] = []    # replaced journals still open, to close off the loop
        self._wanted = False             # a snapshot is asked for
        self._snapshotting = False
        self._failing: str | None = None
        self._sync_failing = False
        self._closed: bool | None = None
        self._wake = trio.Event()
        self._wake.set()                 # the first run step begins a resumed table
        self._snapshotted = trio.Event()

    @property
    def saved(self) -> bool:
        """Whether every action played is written to the operating system (in the snapshot
        or the journal)."""
        if self._closed is not None:
            return self._closed
        return not self._pending and (self._fd is not None or self.base == self._version())

    # -- on the event loop, never blocking but for begin and close ---------------------------------

    def begin(self) -> bool:
        """Write the snapshot and a fresh journal now, blocking; ``False`` (logged, retried
        by :meth:`run`) if it failed. A new save file (a game's start) reaches the
        operating system now and the disk with the journal's next ``fsync`` (in :meth:`run`,
        off the loop); one that replaces a file reaches the disk before the rename."""
        version = self._version()
        fresh = not self.path.exists()
        try:
            write_json(self.path, self._content(), sync=not fresh)
        except OSError as exc:
            return self._fail(f"cannot write the save file {self.path}: {exc}", self._consequence())
        if fresh:
            self._unsynced = self.path
        return self._snapshot_written(version)

    def append(self, version: int, seat: int, action: Any, bot: str | None, id: str | None) -> None:
        """Write the journal line of the action played as event ``version`` by seat number
        ``seat`` (:class:`waddle.journal.Entry`) through to the operating system. Never
        raises: a failure is logged once, the line kept and retried."""
        self._journal(version, Entry(version=version, seat=seat, action=action, bot=bot, id=id))

    def undo(self, version: int, seat: int) -> None:
        """Write the journal line of seat number ``seat``'s take-back, event ``version``,
        as :meth:`append` does an action's."""
        self._journal(version, Entry(version=version, seat=seat, undo=True))

    def _journal(self, version: int, entry: Entry) -> None:
        data = line(entry)
        self._tail.append((version, data))
        self._pending += data
        if self._fd is None and self.base == 0 and not self._snapshotting:
            self.begin()  # a resumed table's first action, before its run task began it
        else:
            self._write_pending()
        self._written()

    def move(self, path: Path) -> None:
        """Save the game now, blocking, in the current file (its snapshot and journal
        complete and on the disk, as :meth:`close` does), then keep the next game in
        ``path`` (a rematch: its :meth:`begin` comes next)."""
        self._finish()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        self.path, self.journal = path, journal_path(path)
        self.base, self._tail, self._wanted = 0, [], False
        self._pending.clear()

    def checkpoint(self) -> None:
        """Write a new snapshot soon (the save file alone then holds the game; the game's
        end): in the background, the journal going on meanwhile."""
        self._wanted = True
        self._wake.set()

    async def aclose(self) -> bool:
        """:meth:`close`, with the last snapshot, ``fsync`` and closing in a worker thread
        (the loop goes on meanwhile; what is played meanwhile is journaled as ever)."""
        if self._closed is None and self._version() > 0:
            self._write_pending()
            if self.base < self._version() and not self._snapshotting:
                await self._snapshot()
            await self._sync()
        offload = self._offload
        closed = self._stop()
        if self._retired:
            await offload(_close, self._take_retired())
        return closed

    def close(self) -> bool:
        """Save everything now, blocking (the last snapshot, the journal to the disk) and
        stop; return :attr:`saved`. Idempotent: a second call returns the first's answer."""
        closed = self._stop()
        _close(self._take_retired())
        return closed

    def _stop(self) -> bool:
        """Save what is left, blocking, and stop: the files to close are :attr:`_retired`."""
        if self._closed is not None:
            return self._closed
        self._finish()
        self._closed = self.saved
        if self._fd is not None:
            self._retired.append(self._fd)
            self._fd = None
        # the table's callbacks hold the table, which holds this saver: let both go
        self._content = self._version = self._table = self._offload = self._flusher = None
        return self._closed

    def _take_retired(self) -> list[int]:
        retired, self._retired = self._retired, []
        return retired

    def _finish(self) -> None:
        """Write what is pending, the snapshot if it is behind, and the journal to the disk, blocking."""
        if self._version() > 0:
            self._write_pending()
            if self.base < self._version() and not self._snapshotting:
                self.begin()  # (else the journal, complete, extends the snapshot being written)
            if (due := self._due_sync()) is not None:
                self._synced(flush([due])[0])

    def _write_pending(self) -> bool:
        if self._fd is None:
            return False
        try:
            while self._pending:
                del self._pending[:os.write(self._fd, self._pending)]
        except OSError as exc:
            return self._fail(f"cannot write the journal {self.journal}: {exc}", UNSAVED)
        return self._recovered()

    def _snapshot_written(self, version: int) -> bool:
        """The snapshot at ``version`` is on the disk: start a journal of what came after it."""
        self.base = version
        self._tail = [(v, data) for v, data in self._tail if v > version]
        header = line(Header(table=self._table(), base=version))
        temporary = self.journal.with_name(f".{self.journal.name}.tmp")
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
        except OSError as exc:
            return self._fail(f"cannot start the journal {self.journal}: {exc}", self._consequence())
        try:
            data = memoryview(header + b"".join(data for _, data in self._tail))
            while data:
                data = data[os.write(fd, data):]
            os.replace(temporary, self.journal)
        except OSError as exc:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            return self._fail(f"cannot start the journal {self.journal}: {exc}", self._consequence())
        if self._fd is not None:  # closing the replaced journal frees its blocks: slow, so not here
            self._retired.append(self._fd)
            self._wake.set()
        self._fd = fd
        self._pending.clear()
        self._written()
        self._snapshotted.set()
        self._snapshotted = trio.Event()
        return self._recovered()

    def _written(self) -> None:
        """Something was written that is not on the disk yet: :meth:`run` syncs it soon."""
        if not self._dirty:
            self._dirty = True
            self._wake.set()

    def _consequence(self) -> str:
        """What a failure to write a snapshot or start a journal means now."""
        return SNAPSHOT_BEHIND if self._fd is not None else UNSAVED

    def _fail(self, what: str, consequence: str) -> bool:
        """Log ``what`` failed (once, until saving works again) and what it means."""
        if self._failing is None:
            log.error("%s; %s (trying again every %g s)", what, consequence, self.retry_interval)
        self._failing = what
        return False

    def _recovered(self) -> bool:
        if self._failing is not None and not self._pending and self._fd is not None:
            log.warning("saving works again: %s holds the game", self.path)
            self._failing = None
        return True

    def _synced(self, error: OSError | None) -> None:
        """Log a failed ``fsync`` of the journal once, and once when it works again."""
        if error is not None and not self._sync_failing:
            log.error("cannot bring the journal %s to the disk: %s; the operating system holds "
                      "the game, a power cut could lose its last actions", self.journal, error)
        elif error is None and self._sync_failing:
            log.warning("the journal %s reaches the disk again", self.journal)
        self._sync_failing = error is not None

    # -- the task ---------------------------------------------------------------------------------

    async def run(self) -> None:
        """Bring the journal to the disk, write asked-for snapshots and retry failures, until cancelled."""
        synced = trio.current_time()
        while True:
            due = math.inf
            if self._failing is not None:
                due = trio.current_time() + self.retry_interval
            elif self._dirty:
                due = synced + self.sync_interval
            with trio.move_on_at(due):
                await self._wake.wait()
            self._wake = trio.Event()
            started = self._version() > 0
            if started and self.base == 0:
                self.begin()  # a resumed table: blocking, before it plays on
            elif self._wanted and self.base < self._version():
                await self._snapshot()
            elif started and self._fd is None:
                self._snapshot_written(self.base)  # the journal could not be started: again
            if self._pending:
                self._write_pending()
            if self._retired:
                await self._offload(_close, self._take_retired())
            if self._dirty and self._fd is not None and trio.current_time() >= synced + self.sync_interval:
                await self._sync()
                synced = trio.current_time()

    async def _sync(self) -> None:
        """Bring the journal (and a new save file) to the disk in a worker thread, if they
        were written since the last time."""
        if (due := self._due_sync()) is not None:
            self._synced(await self._flusher.sync(*due))

    def _due_sync(self) -> tuple[File, ...] | None:
        """What to bring to the disk (a new save file, the journal), taken as done; ``None``: nothing."""
        if self._fd is None or not (self._dirty or self._unsynced):
            return None
        self._dirty, unsynced, self._unsynced = False, self._unsynced, None
        return (self._fd,) if unsynced is None else (unsynced, self._fd)

    async def _snapshot(self) -> None:
        """Write a snapshot in the background; the journal goes on meanwhile."""
        self._wanted = False
        path, version, data = self.path, self._version(), self._content()
        self._snapshotting = True
        try:
            await self._offload(write_json, path, data)
        except OSError as exc:
            if path == self.path:
                self._wanted = True
                self._fail(f"cannot write the save file {path}: {exc}", self._consequence())
            else:
                log.error("cannot write the save file %s: %s; its journal holds the rest of the "
                          "game", path, exc)
        else:
            if path == self.path and self._closed is None:
                self._snapshot_written(version)
        finally:
            self._snapshotting = False

    async def flush(self) -> None:
        """Wait until the save file alone holds the current version (asking for a snapshot);
        at once after :meth:`close`."""
        if self._closed is not None:
            return
        target = self._version()
        while self.base < target:
            waiting = self._snapshotted
            self.checkpoint()
            await waiting.wait()


def _close(fds: list[int]) -> None:
    """Close the files ``fds`` (in a worker thread: closing a replaced journal frees its blocks)."""
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
