"""The club: many tables of any game on one host, and the lobby a connection sees first.

A :class:`Club` holds tables (:class:`server.table.Table`), each run by its own driver
(:func:`server.driver.run`) in the club's nursery, and answers the club's requests
(``list_tables``, ``create_table``, ``join_table``, ``watch_table``, ``leave_table``:
``docs/club.md``). A connection (:class:`server.connection.Connection`) is at the club's
lobby or at one table; joining or watching moves it to the table (the table's
``welcome``, then what the table answers), ``leave_table`` back. Every table keeps what
a single table guarantees: it is the only authority over its game, writes its actions
ahead to its own journal, and sends each audience only what it may see.

Persistence: with a ``directory``, every table saves to its own file there
(``ID.waddle.json`` and its journal, ``ID-2.waddle.json`` after a rematch), and
``club.json`` names the tables and where the club listens. :meth:`Club.resume` reads
the folder back: every table whose latest game is in play continues, its seats held for
their tokens (a table that had not started, or had finished, is not kept).

Limits: a connection may have :attr:`ClubLimits.per_connection` open tables it created,
an address :attr:`ClubLimits.per_address`, the club :attr:`ClubLimits.tables` in all
(``too_many_tables``). A table nobody is at, that has not started and has no seat taken
or that has finished, is closed after :attr:`ClubLimits.idle` seconds.
"""

from __future__ import annotations

import functools
import itertools
import logging
import math
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec
import trio

from protocol.messages import (
    CreateTable,
    Join,
    JoinTable,
    LeaveTable,
    ListTables,
    Settings,
    TableCreated,
    TableInfo,
    Tables,
    TableSeat,
    Watch,
    WatchTable,
)
from protocol.text import clean, clean_name
from server.driver import run as run_table
from server.logbudget import peer_log
from server.table import Table
from waddle.errors import RecordError
from waddle.files import MAX_RECORD_BYTES, parse_json, read_text, write_json
from waddle.history.stats import shown
from waddle.ruleset import BUILT_IN, get_ruleset

log = logging.getLogger("waddle.server")

#: The club's own file in its folder: where it listens and its tables' names.
CLUB_FILE = "club.json"
#: What a table's save file is called in the club's folder (``ID.waddle.json``).
SAVE_SUFFIX = ".waddle.json"

#: ``ratings(names, game, bots)``: the ratings in ``game`` of the people ``names`` and the
#: bot kinds ``bots``, keyed as people read them (``Ann``, ``greedy (bot)``), those known
#: (:meth:`server.history.History.ratings`, each's ``ordinal``).
Ratings = Callable[[list[str], str, list[str]], dict[str, float]]
#: Seconds the ratings in the club's listing are kept while their tables show the same.
RATINGS_FRESH = 5.0


@dataclass
class ClubLimits:
    """How many tables: open tables a connection created (``per_connection``), an address
    created (``per_address``), in the club (``tables``); seconds an idle table is kept
    (``idle``: nobody at it, not started with no seat taken, or finished) and between two
    looks for idle tables (``sweep``)."""

    per_connection: int = 4
    per_address: int = 16
    tables: int = 2000
    idle: float = 60.0
    sweep: float = 10.0


class Guest(Protocol):
    """What the club needs of a connection (:class:`server.connection.Connection`)."""

    table: Table | None
    address: str | None
    seat: Any
    watching: bool

    def send(self, message: Any) -> None: ...

    def enter(self, table: Table) -> None:
        """Be at ``table`` from now on (its ``welcome`` sent, its messages decoded)."""

    def to_club(self) -> None:
        """Be at the club's lobby from now on (the club's ``welcome`` sent)."""

    def reject(self, request: str, code: str, message: str) -> None: ...


@dataclass
class _Opened:
    """Who opened a table (counted against their limits while it is open)."""

    guest: Any
    address: str | None


@dataclass
class Club:
    """The tables of one club host (see the module docstring).

    ``directory``: where every table saves (``None``: nothing saved). ``limits``: how many
    tables (:class:`ClubLimits`). ``defaults``: each game's settings for a table created
    without any (else the game's own defaults). ``table_options``: what every table is
    made with (grace, lobby grace, bots' pace, stand-in kind, seed:
    :class:`server.table.Table`'s arguments). ``ratings``: the history's ratings of names
    (``None``: no ratings shown).
    """

    directory: Path | None = None
    limits: ClubLimits = field(default_factory=ClubLimits)
    defaults: dict[str, Settings] = field(default_factory=dict)
    table_options: dict[str, Any] = field(default_factory=dict)
    ratings: Ratings | None = None
    #: Called with each table whose game just ended (the host's history), or ``None``.
    game_over: Callable[[Table], None] | None = None
    #: The tables, oldest first, by id.
    tables: dict[str, Table] = field(default_factory=dict)
    #: Where the club's host listens (address, port), once known; kept in ``club.json``.
    listening: tuple[str, int] | None = None
    #: The finished tables :meth:`resume` read (not kept: the host's history writes each
    #: game it does not hold yet, as after a crash before its row was committed).
    finished: list[Table] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.names: dict[str, str] = {}  # table id -> its name
        self._opened: dict[str, _Opened] = {}
        self._per_guest: Counter[int] = Counter()  # by id() of the guest
        self._per_address: Counter[str | None] = Counter()
        self._scopes: dict[str, trio.CancelScope] = {}
        self._idle_since: dict[str, float] = {}
        self._nursery: trio.Nursery | None = None
        self._index_wanted = trio.Event()  # set: club.json is older than the club
        self._numbers: dict[str, itertools.count] = {}  # by title: the next table's number
        self._listed: dict[str, msgspec.Raw] = {}  # by table id: its entry in the listing, encoded
        self._stale: set[str] = set()  # the tables whose entry is to be made again
        self._rerate: deque[str] = deque()  # table ids, the entry whose ratings are oldest first
        self._listed_at: float | None = None  # when the listing was last made (trio's clock)
        self._folded: set[str] = set()  # the tables' names, casefolded

    # -- running ---------------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run every table's driver (those there now and those created later) and close idle
        tables, until cancelled (each table's last save on the way out); for
        ``nursery.start``."""
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                for table in self.tables.values():
                    self._drive(table)
                nursery.start_soon(self._write_index_when_wanted)
                task_status.started()
                while True:
                    await trio.sleep(self.limits.sweep)
                    self.close_idle()
        finally:
            self._nursery = None
            if self._index_wanted.is_set():
                self._write_index_now()

    def _drive(self, table: Table) -> None:
        scope = self._scopes[table.id] = trio.CancelScope()

        async def drive() -> None:
            with scope:
                await run_table(table)

        self._nursery.start_soon(drive)

    def close_idle(self) -> None:
        """Close the tables idle for :attr:`ClubLimits.idle` seconds (see the module docstring)."""
        now = trio.current_time()
        for table in list(self.tables.values()):
            if not _idle(table):
                self._idle_since.pop(table.id, None)
            elif now - self._idle_since.setdefault(table.id, now) >= self.limits.idle:
                self.remove(table)

    def remove(self, table: Table) -> None:
        """Close ``table``: its driver ends (its last save written), it is listed no more."""
        del self.tables[table.id]
        self._folded.discard(self.names.pop(table.id, "").casefold())
        self._listed.pop(table.id, None)
        self._stale.discard(table.id)
        self._idle_since.pop(table.id, None)
        opened = self._opened.pop(table.id, None)
        if opened is not None:
            self._per_guest[id(opened.guest)] -= 1
            self._per_address[opened.address] -= 1
        scope = self._scopes.pop(table.id, None)
        if scope is not None:
            scope.cancel()
        peer_log.info("table %s (%s) closed", table.id, table.ruleset.name)
        self.write_index()

    # -- tables ----------------------------------------------------------------------------

    def create(self, game: str, settings: Settings | None = None, *, name: str | None = None,
               code: str | None = None, from_peer: bool = False) -> Table:
        """Open a table of ``game`` with ``settings`` (``None``: :attr:`defaults`), named
        ``name`` (``None``: the game's title and a number) with join ``code``.

        Raises:
            ValueError: an unknown game, settings the game refuses (``from_peer``: sent by
                a client, which may not name a file on the host; the club's own defaults,
                used for ``settings`` ``None``, may: ``serve --club --map FILE``), or a
                name another table has (ignoring case; the message says which).
        """
        ruleset = get_ruleset(game)
        name = name or self._free_name(ruleset.title)
        if self.name_taken(name):
            raise ValueError(f"a table is already named {name!r}")
        table_id = _new_id(self.tables)
        save = self.directory / f"{table_id}{SAVE_SUFFIX}" if self.directory else None
        table = Table(ruleset=ruleset, code=code, save=save, **self.table_options)
        table.id = table_id
        table.listening = self.listening
        table.configure(settings or self.defaults.get(game) or Settings(players=min(4, ruleset.players[1])),
                        from_peer=from_peer and settings is not None)
        self._add(table, name)
        peer_log.info("table %s (%s, %s) opened", table_id, game, name)
        return table

    def _add(self, table: Table, name: str) -> None:
        self.tables[table.id] = table
        self.names[table.id] = name
        self._folded.add(name.casefold())
        table.on_game_over = self.game_over
        table.on_shown = functools.partial(self._stale.add, table.id)
        self._stale.add(table.id)
        self._rerate.append(table.id)
        if self._nursery is not None:
            self._drive(table)
        self.write_index()

    def name_taken(self, name: str) -> bool:
        """Whether a table of the club is named ``name`` (ignoring case)."""
        return name.casefold() in self._folded

    def _free_name(self, title: str) -> str:
        numbers = self._numbers.setdefault(title, itertools.count(1))
        while True:
            name = f"{title} {next(numbers)}"
            if not self.name_taken(name):
                return name

    def info(self, table: Table) -> TableInfo:
        """``table`` as the club's lobby lists it (names, never tokens), with the names'
        ratings in its game when the club has a history."""
        people = [seat.name for seat in table.seats if seat.bot is None]
        bots = [seat.bot for seat in table.seats if seat.bot is not None]
        ratings = self.ratings(people, table.ruleset.name, bots) if self.ratings and table.seats else {}
        seats = [TableSeat(name=seat.name, bot=seat.bot, connected=seat.peer is not None,
                           rating=ratings.get(seat.name if seat.bot is None else shown(seat.bot, True)))
                 for seat in table.seats]
        return TableInfo(table=table.id, name=self.names.get(table.id, table.id), game=table.ruleset.name,
                         title=table.ruleset.title, phase=table.phase, players=table.settings.players,
                         seats=seats, spectators=sum(1 for peer in table.peers if peer.watching),
                         code_required=table.code is not None, game_number=table.games)

    def listing(self) -> Tables:
        """Every table, oldest first, as :meth:`info` gives it. Each entry is kept, encoded
        (a ``msgspec.Raw``: encoding the message copies it), until its table says what it
        shows changed (:attr:`server.table.Table.on_shown`), and made again at the latest
        when its ratings are :data:`RATINGS_FRESH` seconds old (a game finished elsewhere
        may have moved them; one here changes the table): each listing makes again its
        share of the oldest, so that no listing makes them all at once."""
        now = trio.current_time()
        if self.ratings:
            self._stale.update(self._oldest_rated(now))
        self._listed_at = now
        for table_id in self._stale:
            self._listed[table_id] = msgspec.Raw(msgspec.json.encode(self.info(self.tables[table_id])))
        self._stale.clear()
        return Tables(tables=[self._listed[table_id] for table_id in self.tables])

    def _oldest_rated(self, now: float) -> list[str]:
        """The tables whose entry's ratings are due again, for a listing made at ``now``:
        as many as make every entry again in :data:`RATINGS_FRESH` seconds, oldest first."""
        since = math.inf if self._listed_at is None else now - self._listed_at
        due = len(self._rerate) if since >= RATINGS_FRESH else math.ceil(len(self._rerate) * since / RATINGS_FRESH)
        oldest = []
        for _ in range(due):
            table_id = self._rerate.popleft()
            if table_id in self.tables:
                oldest.append(table_id)
                self._rerate.append(table_id)
        return oldest

    # -- requests ----------------------------------------------------------------------------

    def handle(self, guest: Guest, message: Any) -> None:
        """Answer one of the club's requests (:data:`protocol.messages.CLUB_REQUESTS`)."""
        if isinstance(message, LeaveTable):
            return self._leave_table(guest)
        if guest.table is not None and not isinstance(message, ListTables):
            return guest.reject(_tag(message), "at_table", "leave this table first (leave_table)")
        if isinstance(message, ListTables):
            guest.send(self.listing())
        elif isinstance(message, CreateTable):
            self._create_table(guest, message)
        elif isinstance(message, JoinTable):
            self._join_table(guest, message)
        elif isinstance(message, WatchTable):
            self._watch_table(guest, message)

    def _create_table(self, guest: Guest, message: CreateTable) -> None:
        refusal = self._over_limits(guest)
        if refusal is not None:
            return guest.reject("create_table", "too_many_tables", refusal)
        name = clean_name(message.name, "") if message.name is not None else None
        if name is not None and self.name_taken(name):
            return guest.reject("create_table", "name_taken", f"a table is already named {name!r}")
        try:
            settings = _settings(message.game, message.settings)
            table = self.create(message.game, settings, name=name or None, code=message.code or None,
                                from_peer=True)
        except ValueError as exc:
            return guest.reject("create_table", "bad_settings", str(exc))
        self._opened[table.id] = _Opened(guest, guest.address)
        self._per_guest[id(guest)] += 1
        self._per_address[guest.address] += 1
        guest.send(TableCreated(table=table.id, name=self.names[table.id]))

    def _over_limits(self, guest: Guest) -> str | None:
        limits = self.limits
        if self._per_guest[id(guest)] >= limits.per_connection:
            return f"this connection has {limits.per_connection} open tables, the most it may"
        if guest.address is not None and self._per_address[guest.address] >= limits.per_address:
            return f"your address has {limits.per_address} open tables, the most it may"
        if len(self.tables) >= limits.tables:
            return f"the club has {limits.tables} tables, the most it holds"
        return None

    def _table(self, guest: Guest, request: str, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is None:
            guest.reject(request, "unknown_table", f"no table {clean(table_id)!r} at this club")
        return table

    def _join_table(self, guest: Guest, message: JoinTable) -> None:
        table = self._table(guest, "join_table", message.table)
        if table is None:
            return
        refusal = table.join_refusal(message.code, guest.address)
        if refusal is not None:
            return guest.reject("join_table", *refusal)
        guest.enter(table)
        table.handle(guest, Join(name=message.name, label=message.label, code=message.code))

    def _watch_table(self, guest: Guest, message: WatchTable) -> None:
        table = self._table(guest, "watch_table", message.table)
        if table is None:
            return
        refusal = table.code_refusal(message.code, guest.address)
        if refusal is not None:
            return guest.reject("watch_table", *refusal)
        guest.enter(table)
        table.handle(guest, Watch(name=message.name, code=message.code))

    def _leave_table(self, guest: Guest) -> None:
        if guest.table is None:
            return guest.reject("leave_table", "not_at_table", "this connection is at the club's lobby")
        guest.table.depart(guest)
        guest.to_club()

    # -- the folder ----------------------------------------------------------------------------

    def write_index(self) -> None:
        """Have ``club.json`` written (where the club listens, its tables' names): while the
        club runs, by its writer task in a worker thread, one write for the changes made
        meanwhile (the loop never waits for the disk: a busy club opens and closes tables
        many times a second); else at once. A failure is logged, the tables' own saves go on
        (a table the index does not name is resumed last, under a new name)."""
        if self.directory is None:
            return
        if self._nursery is None:
            self._write_index_now()
        else:
            self._index_wanted.set()

    async def _write_index_when_wanted(self) -> None:
        while True:
            await self._index_wanted.wait()
            self._index_wanted = trio.Event()
            await trio.to_thread.run_sync(self._write_index, self._index_data())

    def _write_index_now(self) -> None:
        self._index_wanted = trio.Event()
        self._write_index(self._index_data())

    def _index_data(self) -> dict[str, Any]:
        return {"club": 1, "listening": list(self.listening) if self.listening else None,
                "names": dict(self.names)}

    def _write_index(self, data: dict[str, Any]) -> None:
        try:
            write_json(self.directory / CLUB_FILE, data)
        except OSError as exc:
            log.warning("cannot write %s: %s", self.directory / CLUB_FILE, exc.strerror or exc)

    @classmethod
    def resume(cls, directory: str | Path, **options: Any) -> Club:
        """The club saved in ``directory``: each table whose latest game is in play, its
        seats held for their tokens, in the order the club listed them (``options`` as the
        constructor's); those whose game is over in :attr:`finished`. A save that cannot
        be read is skipped, naming the file, in the log.

        Raises:
            waddle.RecordError: ``directory`` is not a folder, or its ``club.json`` is not a
                club's (the message names the file).
        """
        directory = Path(directory)
        if not directory.is_dir():
            raise RecordError(f"{directory}: not a club's folder (no such folder)")
        index = _read_index(directory / CLUB_FILE)
        club = cls(directory=directory, **options)
        listening = index.get("listening")
        club.listening = tuple(listening) if listening else None
        names = index.get("names") or {}
        order = {table_id: n for n, table_id in enumerate(names)}
        kept = []
        for path in _latest_saves(directory):
            try:
                table = Table.resume(path, **club.table_options)
            except RecordError as exc:
                log.warning("skipping a table: %s", exc)
                continue
            if table.phase == "finished":
                club.finished.append(table)
            elif table.phase == "playing":
                kept.append((order.get(table.id, len(order)), path, table))
        for _, path, table in sorted(kept, key=lambda item: item[0]):  # as the club listed them
            name = str(names.get(table.id) or "")
            club._add(table, name if name and not club.name_taken(name) else club._free_name(table.ruleset.title))
            log.info("table %s (%s) resumed from %s", table.id, table.ruleset.name, path.name)
        return club


def _idle(table: Table) -> bool:
    """Whether nobody is at ``table`` and it has not started with no seat taken, or has finished."""
    if table.peers:
        return False
    return table.phase == "finished" or (table.phase == "lobby" and not table.seats)


def _new_id(taken: dict[str, Table]) -> str:
    import secrets

    while True:
        table_id = secrets.token_hex(8)
        if table_id not in taken:
            return table_id


def _settings(game: str, settings: Settings | None) -> Settings | None:
    """A ``create_table``'s settings, their options in ``game``'s own type (``None`` stays).

    Raises:
        ValueError: an unknown game, or options that are not the game's (the message says why).
    """
    if game not in BUILT_IN:
        raise ValueError(f"unknown game {game!r}: expected one of {', '.join(BUILT_IN)}")
    if settings is None:
        return None
    try:
        return msgspec.convert(msgspec.to_builtins(settings), Settings[get_ruleset(game).options_type])
    except msgspec.ValidationError as exc:
        raise ValueError(f"settings: {exc}") from None


def _tag(message: Any) -> str:
    return message.__struct_config__.tag


def _read_index(path: Path) -> dict[str, Any]:
    """``club.json`` (an empty one when there is none).

    Raises:
        waddle.RecordError: it cannot be read or is not a club's file.
    """
    if not path.exists():
        return {}
    try:
        data = parse_json(read_text(path, MAX_RECORD_BYTES))
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: cannot read the club's file: {exc}") from None
    if not isinstance(data, dict) or data.get("club") != 1:
        raise RecordError(f"{path}: not a club's file (expected \"club\": 1)")
    return data


def _latest_saves(directory: Path) -> list[Path]:
    """Each table's latest save file in ``directory`` (the highest game number of its id),
    oldest table first. Files that cannot be read are left to :meth:`Table.resume` to name."""
    latest: dict[str, tuple[int, Path]] = {}
    for path in sorted(directory.glob(f"*{SAVE_SUFFIX}"), key=lambda p: (p.stat().st_mtime, p.name)):
        try:
            host = parse_json(read_text(path, MAX_RECORD_BYTES)).get("host") or {}
            key, games = str(host.get("table") or path.name), int(host.get("games") or 1)
        except (OSError, ValueError, AttributeError, TypeError):
            key, games = path.name, 1
        if key not in latest or games > latest[key][0]:
            latest[key] = games, path
    return [path for _, path in latest.values()]
