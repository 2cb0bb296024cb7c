"""The host: a :class:`~server.table.Table` served over TCP.

Use from another trio program (``waddle host`` runs it in-process)::

    host = Host(ServerConfig(port=0, settings=Settings(players=3, bots=["random"])))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)     # listening on 127.0.0.1:port
        host.table.start()                       # or let the owner send "start"

or ``port = await nursery.start(serve, config)`` when the :class:`Host` object is not
needed. :meth:`Host.handle` serves one already-open stream (tests use memory streams).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import itertools
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from protocol.framing import encode
from protocol.messages import Closing, JoinTable, Settings
from protocol.text import counted
from server.club import CLUB_FILE, Club, ClubLimits, Ratings
from server.connection import Connection, Limits
from server.driver import run as run_table
from server.flush import Flusher
from server.guard import Guard
from server.history import History, finished_game, last_written
from server.logbudget import LogBudget, peer_log
from server.table import Table
from server.throttle import Throttle
from server.workers import Workers
from waddle.ruleset import DEFAULT_RULESET, Prepared, get_ruleset

log = logging.getLogger("waddle.server")

#: ``accept`` errors that mean "no room now" (file descriptors, memory): wait and try again.
ACCEPT_CAPACITY_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
#: The first and the longest wait (seconds) before accepting again after such an error.
ACCEPT_RETRY = (0.1, 5.0)
#: Seconds between log lines about failing ``accept`` calls, and about refused connections.
ACCEPT_LOG_INTERVAL = 10.0


@dataclass
class ServerConfig:
    """How to host.

    ``address``/``port``: where to listen (port 0: any free port; use ``0.0.0.0`` for
    the LAN only on purpose); ``None``: where the resumed game's host listened (its save
    file says), else ``127.0.0.1`` and ``default_port``. ``settings``: the table's starting settings. ``code``: join
    code or ``None``. ``save``: the save file (``None``: not saved). ``resume``: a save
    file to continue (its settings, seats and tokens win over ``settings``; saving goes
    on to ``save`` or, without it, to ``resume``). ``grace``: seconds before a stand-in
    bot plays for an absent player, ``lobby_grace``: a lobby seat's, ``bot_delay``: the
    seconds a bot seat waits before it moves (each ``None``: the resumed game's, else the
    table's default: 30, 30 and 0); ``standin``: the stand-in's kind (``None``: the table's bot
    kind, :attr:`server.table.Table.standin_kind`). ``game``: the game's ruleset name
    (:func:`waddle.ruleset.get_ruleset`). ``prepared``: what the game needs, made ready by
    the host (the hex game: a map; overrides what ``settings`` choose). ``limits``:
    per-connection timeouts and limits, and how many connections, from one address and
    in all. ``command``: what the host's operator runs to continue a saved game (told to
    every connection when the host stops: ``COMMAND --resume FILE``). ``tasks``: async
    functions of no arguments the program runs beside the host while it serves (``waddle
    serve``: :func:`server.tuning.collect_young`). ``workers``: prepare each game (a
    hex map) in a worker process (:mod:`server.workers`), not a thread (``waddle serve``
    and ``waddle host`` at a club: many games start there). ``history``: the history file every
    finished game is written to (:mod:`server.history`; ``None``: none). ``lan``: the name the table is
    advertised under on the LAN by mDNS/DNS-SD (:mod:`server.lan`); ``None``: not advertised.
    ``club``: host a club of many tables
    (:mod:`server.club`) instead of one: ``save`` and ``resume`` are then the club's
    folder, ``settings`` the defaults of a ``game`` table created without any,
    ``club_limits`` how many tables, ``ratings`` the history's ratings shown in its lobby;
    ``code`` and ``prepared`` are each table's own.
    ``guard``: what slows down guesses of the join code (:class:`server.guard.Guard`,
    shared by every table and every way in: TCP and SSH; ``None``: a new one with the
    default policy).
    ``log_budget``: how many lines about connections the host's log takes, over every
    connection together (:class:`server.logbudget.LogBudget`; ``None``: a new one, 30
    a minute).
    ``ssh``: also serve the terminal UI over SSH on the same address
    (:class:`server.ssh.SshConfig`; ``None``: not).
    """

    address: str | None = None
    port: int | None = None
    default_port: int = 0
    settings: Settings = field(default_factory=Settings)
    code: str | None = None
    save: str | Path | None = None
    resume: str | Path | None = None
    grace: float | None = None
    lobby_grace: float | None = None
    standin: str | None = None
    bot_delay: float | None = None
    seed: int | None = None
    game: str = DEFAULT_RULESET
    prepared: Prepared | None = None
    limits: Limits = field(default_factory=Limits)
    command: str = "waddle serve"
    tasks: tuple[Callable[[], Awaitable[None]], ...] = ()
    workers: bool = False
    history: str | Path | None = None
    lan: str | None = None
    club: bool = False
    club_limits: ClubLimits = field(default_factory=ClubLimits)
    ratings: Ratings | None = None
    guard: Guard | None = None
    log_budget: LogBudget | None = None
    ssh: Any = None


class Host:
    """A table and its listener.

    Connections are limited (:class:`~server.connection.Limits`): at most
    ``max_connections`` in all and ``max_per_address`` from one address. One over a
    limit is not turned away at once: it waits (at most ``admit_timeout`` seconds;
    ``max_waiting`` such in all, ``waiting_per_address`` from one address, the oldest
    making room for a newer one beyond that) for its first request, and if that takes a seat (a ``reclaim`` with a seat's token, or a ``join``
    the table accepts) it is let in and the oldest connection without a seat yields
    (from the same address when that limit was the one reached; spectators last):
    a host never refuses a seat holder. Anything else is told ``full``.

    When the host stops (:meth:`run` is cancelled), the table saves the game first, then
    every connection is told so (``closing`` ``host_stopped``, saying how the game goes
    on) before the connections end.

    Raises (on construction):
        waddle.RecordError: ``config.resume`` names a file that is not a usable save.
        ValueError: ``config.game`` names no game.
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        options = {name: value for name, value in dict(
            grace=config.grace, lobby_grace=config.lobby_grace, standin=config.standin,
            bot_delay=config.bot_delay, seed=config.seed).items() if value is not None}
        #: Checks every guess of the join code, at every table and from every way in (TCP's
        #: join and watch, the SSH gateway's passwords): ``guard.check(address, given, code)``.
        self.guard = options["guard"] = config.guard if config.guard is not None else Guard()
        if config.club:
            options["flusher"] = Flusher()  # one flush for all its tables' saves
        #: The worker process that prepares each game (``config.workers``), else ``None``.
        self.workers = Workers() if config.workers else None
        if self.workers is not None:
            options["compute"] = self.workers.run
        #: Bounds the lines connections make the host log, in all, while :meth:`run` runs.
        self.log_budget = config.log_budget or LogBudget()
        #: The history writer (``None``: no history), fed each game a table finishes.
        self.history = History(config.history) if config.history else None
        #: The club (``config.club``), else ``None``; then :attr:`table` is ``None``.
        self.club: Club | None = None
        self.table: Table | None = None
        #: The club's folder this host made (``None``: it was there, or none), removed
        #: again if the host cannot listen and nothing was written to it.
        self._new_folder = _new_folder(config)
        if config.club:
            self.club = _club(config, options, self._game_over if self.history else None,
                              self._ratings if self.history else None)
            saved = self.club.listening
        else:
            if config.resume:
                if config.save:
                    options["save"] = config.save
                self.table = Table.resume(config.resume, **options)
            else:
                self.table = Table(config.settings, ruleset=get_ruleset(config.game), code=config.code,
                                   save=config.save, prepared=config.prepared, **options)
            saved = self.table.listening
            if self.history is not None:
                self.table.on_game_over = self._game_over
        #: Where the host listens: ``config``'s, else the resumed game's, else the defaults.
        self.address = config.address if config.address is not None else (saved[0] if saved else "127.0.0.1")
        self.wanted_port = config.port if config.port is not None else (
            saved[1] if saved else config.default_port)
        #: The port it listens on, once :meth:`run` has bound it.
        self.port: int | None = None
        #: The table's service on the LAN (:class:`server.lan.Advertiser`) while
        #: :meth:`run` advertises it (``config.lan``), else ``None``.
        self.advertiser = None
        #: Where its SSH gateway listens (:class:`server.ssh.bridge.SshListening`), once
        #: :meth:`run` started it (with ``config.ssh``).
        self.ssh = None
        self._ids = itertools.count(1)
        self._live: dict[Connection, str | None] = {}  # every connection, oldest first: its address
        self._per_address: Counter[str | None] = Counter()
        self._waiting: Counter[str | None] = Counter()  # over a limit, waiting for their first request
        self._connections: trio.Nursery | None = None
        self._table_done = trio.Event()
        self._all_closed = trio.Event()
        self._released = trio.Event()
        self._driving = False  # the table's driver began (its end is then waited for)
        self._serving = False  # run began serving (its listeners and gateway up)
        self._accept_log = Throttle(ACCEPT_LOG_INTERVAL, "failure")
        self._accept_failing = False
        self._refusal_log = Throttle(ACCEPT_LOG_INTERVAL, "refusal")

    @property
    def connections(self) -> int:
        """Connections being served now."""
        return len(self._live)

    @property
    def waiting(self) -> int:
        """Connections over a limit waiting now for a first request that takes a seat."""
        return sum(c.waiting and not c.closing for c in self._live)

    async def all_closed(self) -> None:
        """Wait until the next time the last connection being served ends (with none served
        now: until one comes and goes)."""
        await self._all_closed.wait()

    async def run(self, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until cancelled; ``task_status.started(port)`` once listening.
        On the way out the table saves and every connection is told the host stopped.

        Raises:
            OSError: the address cannot be bound; :class:`server.ssh.bridge.GatewayError`: the
                SSH gateway's port cannot.
        """
        try:
            listeners = await trio.open_tcp_listeners(self.wanted_port, host=self.address)
        except OSError:
            _remove_empty(self._new_folder)
            raise
        self.port = listeners[0].socket.getsockname()[1]
        if self.club is not None:
            self.club.listening = self.address, self.port
            self.club.write_index()
        else:
            self.table.listening = self.address, self.port
        peer_log.addFilter(self.log_budget)
        try:
            await self._serve(listeners, task_status)
        except* OSError as group:  # the SSH gateway's port taken, or the listener failing
            if not self._serving:
                _remove_empty(self._new_folder)
            raise _first(group) from None
        finally:
            for listener in listeners:  # closed here too: a host stopped while it starts
                listener.socket.close()  # never began to accept on them
            peer_log.removeFilter(self.log_budget)
            if self.workers is not None:
                self.workers.close()

    async def _serve(self, listeners: list[trio.SocketListener], task_status: trio.TaskStatus[int]) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._stop_when_cancelled)  # first: a host stopped while it starts ends
            nursery.start_soon(self.log_budget.run)
            self._connections = await nursery.start(self._keep_connections)
            if self.history is not None:
                await nursery.start(self.history.run)
                resumed = self.club.finished if self.club is not None else [self.table]
                for table in resumed:
                    if table.phase == "finished":  # resumed: written once, if not yet
                        self.history.submit(finished_game(table, last_written(table.save_path)))
            await nursery.start(self._drive)
            if self.config.ssh is not None:
                from server.ssh import run_gateway

                self.ssh = await nursery.start(run_gateway, self, self.config.ssh)
            for task in self.config.tasks:
                nursery.start_soon(task)
            if self.config.lan is not None:
                nursery.start_soon(self._advertise)
            for listener in listeners:
                nursery.start_soon(self._accept, listener)
            log.info("listening on %s:%d", self.address, self.port)
            self._serving = True
            task_status.started(self.port)

    def _game_over(self, table: Table) -> None:
        self.history.submit(finished_game(table))

    def _ratings(self, names: list[str], game: str, bots: list[str]) -> dict[str, float]:
        """The club lobby's ratings (:data:`server.club.Ratings`) from the history, in memory:
        those of players with a rated game (a newcomer has none to show)."""
        return {player: rating.ordinal for player, rating in self.history.ratings(names, game, bots=bots).items()
                if rating.games}

    async def _advertise(self) -> None:
        """Advertise the table, or the club, on the LAN (:mod:`server.lan`) while the host runs."""
        from server.lan import Advertiser, club_txt, txt

        ssh_port = self.ssh.port if self.ssh is not None else None
        fields = functools.partial(club_txt, self.club, ssh_port) if self.club is not None else \
            functools.partial(txt, self.table, ssh_port)
        self.advertiser = Advertiser(self.config.lan, self.address, self.port, fields)
        await self.advertiser.run()

    async def _keep_connections(self, *, task_status: trio.TaskStatus[trio.Nursery]) -> None:
        """A nursery for the connections that outlives the host's cancellation until every
        connection has been told the host stopped (:meth:`_stop_when_cancelled`)."""
        with trio.CancelScope(shield=True):
            async with trio.open_nursery() as connections:
                task_status.started(connections)
                await self._released.wait()
                connections.cancel_scope.cancel()

    async def _drive(self, *, task_status: trio.TaskStatus[None]) -> None:
        self._driving = True
        try:
            if self.club is not None:
                await self.club.run(task_status=task_status)
            else:
                await run_table(self.table, task_status=task_status)
        finally:
            self._table_done.set()

    async def _stop_when_cancelled(self) -> None:
        try:
            await trio.sleep_forever()
        finally:
            with trio.CancelScope(shield=True):
                if self._driving:
                    await self._table_done.wait()  # the table's last save is written
                if self.club is None:
                    message = stopped_message(self.table, self.config.command)
                    log.info("%s", message)
                else:
                    log.info("the club stopped; %s", counted(len(self.club.tables), "table"))
                for connection in list(self._live):
                    connection.close("host_stopped", message if self.club is None else
                                     club_stopped_message(connection.table, self.config.command))
                with trio.move_on_after(self.config.limits.flush_timeout):
                    while self._live:
                        await self._all_closed.wait()
                self._released.set()

    async def _accept(self, listener: trio.SocketListener) -> None:
        """Accept connections until cancelled. When the system runs out of file descriptors
        or memory, wait (0.1 s, doubling up to 5 s) and try again, logging one line per
        :data:`ACCEPT_LOG_INTERVAL`."""
        delay = ACCEPT_RETRY[0]
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as exc:
                    if exc.errno not in ACCEPT_CAPACITY_ERRNOS:
                        raise
                    self._accept_failed(exc)
                    await trio.sleep(delay)
                    delay = min(delay * 2, ACCEPT_RETRY[1])
                    continue
                if self._accept_failing:
                    log.info("accepting connections again%s", self._accept_log.note())
                    self._accept_failing = False
                delay = ACCEPT_RETRY[0]
                self._connections.start_soon(self._handle_tcp, stream)

    def serve_stream(self, stream: trio.abc.Stream, label: str, address: str | None = None,
                     fingerprint: str | None = None) -> None:
        """Serve ``stream`` from ``address`` as one more connection, among the host's
        connections: counted and limited per address and in all, and told when the host
        stops, as a TCP connection is (the SSH gateway's guests, :mod:`server.ssh`, whose key
        is ``fingerprint``: a seat the connection takes keeps it). Call it in the host's trio
        run while :meth:`run` serves."""
        self._connections.start_soon(self._serve_safely, stream, label, address, fingerprint)

    def _accept_failed(self, exc: OSError) -> None:
        self._accept_failing = True
        if self._accept_log.allow():
            log.error("cannot accept connections: %s; trying again with back-off%s",
                      exc.strerror or exc, self._accept_log.note())

    async def _handle_tcp(self, stream: trio.SocketStream) -> None:
        """Serve one accepted connection."""
        try:
            peer = stream.socket.getpeername()
        except OSError:
            await self._serve_safely(stream, f"#{next(self._ids)}", None)
            return
        await self._serve_safely(stream, f"#{next(self._ids)} {peer[0]}:{peer[1]}", peer[0])

    async def _serve_safely(self, stream: trio.abc.Stream, label: str, address: str | None,
                            fingerprint: str | None = None) -> None:
        """:meth:`handle`, where an error ends only this connection."""
        try:
            await self.handle(stream, label, address, fingerprint)
        except Exception:
            log.exception("serving a connection failed")
            await trio.aclose_forcefully(stream)

    async def handle(self, stream: trio.abc.Stream, label: str | None = None,
                     address: str | None = None, fingerprint: str | None = None) -> None:
        """Serve one client over ``stream`` from ``address`` (``None``: not limited per
        address), whose SSH key is ``fingerprint`` if it came through the gateway, until it
        ends (never raises but cancellation)."""
        label = label or f"#{next(self._ids)}"
        limits = self.config.limits
        crowded = address is not None and \
            self._per_address[address] - self._waiting[address] >= limits.max_per_address
        full = len(self._live) - sum(self._waiting.values()) >= limits.max_connections
        if crowded or full:
            why = "too many connections from your address" if crowded else \
                "the host serves as many connections as it can"
            if not self._make_room_to_wait(address):
                if self._refusal_log.allow():
                    peer_log.warning("%s refused: %s%s", label, why, self._refusal_log.note())
                await _refuse(stream, why)
                return
            admit = functools.partial(self._admit, address=address if crowded else None, why=why)
        else:
            admit = None
        peer_log.debug("%s connected%s", label, " (over a limit: waiting for a seat request)" if admit else "")
        connection = Connection(stream, self.table, limits, label, admit=admit, club=self.club,
                                address=address, fingerprint=fingerprint)
        self._live[connection] = address
        self._per_address[address] += 1
        self._waiting[address] += admit is not None
        try:
            await connection.run()
        finally:
            del self._live[connection]
            self._per_address[address] -= 1
            if connection.waiting:
                self._waiting[address] -= 1
            if not self._live:
                self._all_closed.set()
                self._all_closed = trio.Event()

    def _make_room_to_wait(self, address: str | None) -> bool:
        """Whether a new connection from ``address``, over a limit, may wait for its first
        request: at once while fewer than ``waiting_per_address`` from there and
        ``max_waiting`` in all wait; else the oldest waiting connection (from ``address``
        when its share is the one used up) is told ``full`` and makes room. ``False`` only
        when none can (``max_waiting`` 0).

        So connections that only take room never keep a new one from being heard: a
        player's ``reclaim`` sent with its ``hello`` gets in however fast others connect."""
        limits = self.config.limits
        waiting = [c for c in self._live if c.waiting and not c.closing]
        here = [c for c in waiting if self._live[c] == address]
        if len(here) >= limits.waiting_per_address:
            waiting = here
        elif len(waiting) < limits.max_waiting:
            return True
        if not waiting:
            return False
        peer_log.debug("%s makes room for a newer connection", waiting[0].label)
        waiting[0].close("full", "the host made room for a newer connection")
        return True

    def _admit(self, connection: Connection, message: Any, *, address: str | None, why: str) -> str | None:
        """Whether ``connection``, over a limit (per ``address``, or in all when ``None``),
        is let in for its first request ``message``: ``None`` if it is (the oldest
        connection without a seat yields), else why not."""
        if connection.closing or not _takes_seat(connection, message):
            return why
        self._waiting[self._live[connection]] -= 1
        yielding = [c for c in self._live if c is not connection and c.seat is None and not c.waiting
                    and (address is None or self._live[c] == address)]
        if yielding:
            oldest = min(yielding, key=lambda c: c.watching)  # the first without a role, else a spectator
            peer_log.info("%s yields to %s, which takes a seat", oldest.label, connection.label)
            oldest.close("full", "the host made room for a player taking a seat")
        return None


def _takes_seat(connection: Connection, message: Any) -> bool:
    """Whether ``message``, a connection's first request, takes a seat: at its table
    (:meth:`~server.table.Table.can_seat`), or at a club's lobby a ``join_table`` the
    table would accept."""
    if connection.table is not None:
        return connection.table.can_seat(connection, message)
    if isinstance(message, JoinTable) and connection.club is not None:
        table = connection.club.tables.get(message.table)
        return table is not None and table.join_refusal(message.code, connection.address) is None
    return False


def _club(config: ServerConfig, options: dict[str, Any], game_over: Callable[[Table], None] | None,
          ratings: Ratings | None) -> Club:
    """The club ``config`` asks for: resumed from its folder, else a new one saving to
    ``config.save`` (made if missing; ``None``: nothing saved); its lobby shows
    ``config.ratings``, else ``ratings`` (the host's history's).

    Raises:
        waddle.RecordError: ``config.resume`` is not a club's folder.
        OSError: the folder cannot be made.
    """
    made = dict(limits=config.club_limits, defaults={config.game: config.settings},
                table_options=options, ratings=config.ratings or ratings, game_over=game_over)
    if config.resume:
        return Club.resume(config.resume, **made)
    directory = Path(config.save) if config.save else None
    if directory is not None:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    return Club(directory=directory, **made)


def _new_folder(config: ServerConfig) -> Path | None:
    """The folder a new club saving to ``config.save`` will make (``None``: none, or it is there)."""
    if not config.club or config.resume or not config.save or Path(config.save).exists():
        return None
    return Path(config.save)


def _remove_empty(folder: Path | None) -> None:
    """Remove ``folder``, a new club's that never served, if it holds nothing but the index
    written as it began to listen; keep it otherwise."""
    if folder is not None:
        with contextlib.suppress(OSError):
            if {path.name for path in folder.iterdir()} <= {CLUB_FILE}:
                (folder / CLUB_FILE).unlink(missing_ok=True)
            folder.rmdir()


def _first(group: BaseExceptionGroup) -> BaseException:
    """The first exception in ``group`` that is not itself a group."""
    while isinstance(group, BaseExceptionGroup):
        group = group.exceptions[0]
    return group


def club_stopped_message(table: Table | None, command: str) -> str:
    """What a stopping club tells a connection at ``table`` (``None``: its lobby): whether
    the table's game is saved, and that the club goes on with ``command --resume FOLDER``."""
    if table is None or table.match is None:
        return "the club's host stopped"
    if table.saver is None:
        return "the club's host stopped; the game was not saved"
    if not table.saver.close():
        return "the club's host stopped and could not save the whole game (its log says why)"
    folder = table.save_path.parent.name
    if table.phase == "finished":
        return f"the club's host stopped; the finished game is saved ({folder}/{table.save_path.name})"
    return f"the club's host stopped; the game is saved: it goes on when the host runs {command} --resume {folder}"


def stopped_message(table: Table, command: str) -> str:
    """What a stopping host tells every connection: whether the game is saved (the table's
    last save, :meth:`server.persistence.Saver.close`) and how it goes on (``command
    --resume FILE``)."""
    if table.match is None:
        return "the host stopped before the game started"
    if table.saver is None:
        return "the host stopped; the game was not saved"
    if not table.saver.close():
        return "the host stopped and could not save the whole game (its log says why)"
    if table.phase == "finished":
        return f"the host stopped; the finished game is saved ({table.save_path.name})"
    name = table.save_path.name
    return f"the host stopped; the game is saved: it goes on when the host runs {command} --resume {name}"


async def _refuse(stream: trio.abc.Stream, why: str) -> None:
    """Tell a connection over the limits that the host is full, and hang up."""
    with trio.move_on_after(1):
        try:
            await stream.send_all(encode(Closing(code="full", message=why)))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
    await trio.aclose_forcefully(stream)


async def serve(config: ServerConfig, *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Host a table as ``config`` says until cancelled; for ``nursery.start``, which returns the port."""
    await Host(config).run(task_status=task_status)
