"""The trio client core: one connection to a Waddle host that survives network trouble.

For scripts::

    async with connect("127.0.0.1", 7777, name="Ada") as client:
        await client.ready()
        async for message in client.events():     # every host message, after the state took it
            if client.state.finished:
                break
            if client.state.my_turn:
                await client.act(my_choice(client.state.view))

:func:`connect` returns once the client holds a seat (or watches) and has the table's
state. :attr:`Client.state` (a :class:`client.state.TableState`) is the table as this
client sees it: status, the game, lobby, seats, its seat, the game's view, version, chat, the
last rejection; readable synchronously at any time, with ``state.listeners`` called on
every change.

The client reconnects by itself when the link breaks or goes silent: exponential
backoff with jitter (:class:`client.backoff.Backoff`: at most 8 attempts in the first
minute against a host that is gone), ``reclaim`` with the seat token and the last
version seen, so the host sends exactly the missing events or a snapshot; then it
resends every unacknowledged action with its original client action id (the host
applies an action id at most once, ``docs/protocol.md``). The first connection is tried
again too (refused, reset, timed out, a full host) for ``first_wait`` seconds. A host
that says it stopped (``closing`` ``host_stopped``) is looked for again after 2.5-5 s, then
less and less often up to every 15-30 s (:data:`STOPPED_BACKOFF`), until it is resumed
(``state.host_stopped`` says what the host said meanwhile); :meth:`Client.look_now`
looks at once (the UI's Enter). While
it waits, ``state.retry`` (and ``on_retry``) says what the client is doing, e.g. "host
not answering (connection refused), retry 3 in 4 s; Ctrl-C stops".

With a ``seat_store`` (:class:`client.seats.SeatStore`, as ``waddle join`` and
``waddle bot`` use) the seat survives the program too: its token is remembered in a
private per-user file, keyed by the host's address, the table's id and the name, and the
next client for that table reclaims it before trying a fresh ``join``.

From a UI on the same trio run (guest mode), never block: :meth:`Client.act_nowait`,
:meth:`Client.say_nowait` and :meth:`Client.send_nowait` queue work for the client's
tasks and return ``False`` (recording why in ``state.last_error``) when they cannot.
"""

from __future__ import annotations

import itertools
import math
import os
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import trio

from client.backoff import Backoff
from client.seats import SeatStore
from client.state import Desync, Status, TableState
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Act,
    Closing,
    Configure,
    ConnectionClosed,
    FramedStream,
    Hello,
    Join,
    Leave,
    Lobby,
    Ping,
    Pong,
    ProtocolError,
    Ready,
    Reclaim,
    Rejected,
    Say,
    Seated,
    Settings,
    Snapshot,
    Start,
    TruncatedFrame,
    Watch,
    Watching,
    Welcome,
    clean,
    encode,
    server_message,
)
from protocol.messages import MAX_LABEL, MAX_MESSAGE

#: Closing codes after which reconnecting cannot help.
FINAL_CLOSINGS = frozenset({"protocol_version", "replaced", "bye", "handshake", "unknown_table"})
#: The closing code of a host that stopped (it may be resumed: looked for gently).
HOST_STOPPED = "host_stopped"
#: Seconds the first connection is tried for (refused, reset, timed out, full) by default.
FIRST_WAIT = 60.0
#: Join/reclaim/watch rejections after which reconnecting cannot help.
FINAL_REJECTIONS = frozenset({"code_required", "bad_code", "table_full", "started", "bad_token",
                              "already_joined", "bad_message"})
#: Messages queued by the ``*_nowait`` methods and not yet sent (more are refused).
OUTBOX_SIZE = 64


#: How a host that said it stopped is looked for (:class:`Backoff` ``first, factor, cap``):
#: the first look after 2.5-5 s, so a host resumed at once (the common case: stopped by
#: mistake, run again with ``--resume``) has its players back in seconds; then each wait
#: half as long again, up to 15-30 s, so a host that stays away for the evening is not
#: asked every second (a decision: docs/protocol.md, "The host stops").
STOPPED_BACKOFF = (5.0, 1.5, 30.0)


class ClientError(Exception):
    """The client cannot go on (refused by the host, closed); ``str()`` says why."""


class AtClub(ClientError, OSError):
    """The host is a club of many tables and the client named none (``table``): choose one
    (:mod:`client.club`, the club's lobby :mod:`client.ui.club`). An ``OSError`` too, so
    that it comes out of the terminal UI as itself (:func:`client.ui.app.run_app`)."""


class TableGone(ClientError, OSError):
    """The club has no table ``table`` (``closing`` ``unknown_table``): it closed (a club
    resumed from its folder keeps only its games in play; a table nobody is at closes), or
    it never was. ``seated``: the client had a seat or watched there before. Final: a
    client does not look for the table again. An ``OSError`` too, so that it comes out of
    the terminal UI as itself (the club's lobby says it, :func:`client.commands.join.club_evening`)."""

    def __init__(self, where: str, table: str, seated: bool) -> None:
        self.where, self.table, self.seated = where, table, seated
        super().__init__(self.describe(repr(table)))

    def describe(self, table: str) -> str:
        """What happened, naming the table as ``table`` (its id, or its name from a listing)."""
        if not self.seated:
            return (f"refused by {self.where} (unknown_table): no table {table} at this club "
                    f"(waddle tables {self.where} lists them)")
        return (f"table {table} is gone: the club at {self.where} no longer has it (a club resumed "
                f"from its folder keeps only the games in play, and a table nobody is at closes)")


class _SeatRefused(ClientError):
    """The host refused the seat request for good (``code``: a rejection code)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class ActionRejected(ClientError):
    """The host rejected an action; ``rejected`` is its :class:`protocol.Rejected`
    (``code`` is one of ``protocol.REJECTIONS``)."""

    def __init__(self, rejected: Rejected) -> None:
        super().__init__(f"{clean(rejected.code, MAX_LABEL)}: {clean(rejected.message, MAX_MESSAGE)}")
        self.rejected = rejected
        self.code = rejected.code


@dataclass
class _Pending:
    """An action sent (or to send) and not yet answered."""

    act: Act
    done: trio.Event = field(default_factory=trio.Event)
    ack: Ack | None = None
    rejected: Rejected | None = None


class _Reconnect(Exception):
    """End this connection and connect again (``resync``: ask for a full snapshot;
    ``stopped``: the host said it stopped, so look for it gently)."""

    def __init__(self, reason: str, resync: bool = False, stopped: bool = False) -> None:
        super().__init__(reason)
        self.resync, self.stopped = resync, stopped


class Client:
    """A client of one Waddle host: a seat (``name``, ``label``, ``code``), a reclaim
    (``token``) or a spectator (``watch=True``).

    Args:
        host, port: where the host listens.
        name: the player's or spectator's name (the host cleans it).
        label: preferred seat label, a colour (``None``: the first free seat).
        game: the game to play (a ruleset name); a host of another game refuses the
            client (``closing`` ``game``). ``None``: whatever the host plays.
        code: the table's join code, if it needs one.
        table: the table's id at a club (``hello.table``; ``None``: the host's one table).
        token: a seat token from an earlier connection: reclaim that seat.
        watch: watch instead of taking a seat.
        reconnect: reconnect after losing the link (else close).
        backoff: reconnect delays (default :class:`Backoff` with a random seed).
        max_attempts: consecutive failed reconnects before giving up (``None``: never).
        first_wait: seconds the first connection is tried again for (refused, reset, timed
            out, the host full), with the same backoff, before :meth:`run` raises.
        follow_resume: after the host says it stopped (``host_stopped``), look for it
            again (:data:`STOPPED_BACKOFF`) until it is resumed (``False``: close at once).
        resume_wait: with ``follow_resume``, the seconds to look for a stopped host before
            closing (the last look at the end; :attr:`state` ``closed_reason`` says it did not
            come back); ``None``: until it comes back.
        on_retry: called with one line (e.g. "host not answering (connection refused),
            retry 3 in 4 s; Ctrl-C stops") each time the client waits to try again, and once
            more when it is back after such waits ("back at the host as red").
        heartbeat: seconds between pings sent to the host.
        dead_after: seconds of silence from the host after which the link counts as dead.
        connect_timeout: seconds allowed for the TCP connect and the handshake.
        software: the ``hello.client`` string.
        unix_socket: connect to this Unix socket path instead of ``host:port`` (the SSH
            gateway's guests, :mod:`client.sshguest`).
        seat_store: where seat tokens are remembered across runs
            (:class:`client.seats.SeatStore`; ``None``: nowhere). With one, a client
            without ``token`` first reclaims the seat remembered for this host, table
            and ``name`` (falling back to ``join`` if the host refuses the token), and
            every seat it is given is remembered.

    Run it with :meth:`run` in a nursery (``nursery.start(client.run)``), or use
    :func:`connect`. Read :attr:`state` at any time; :attr:`token` is the seat's secret
    token (keep it to reclaim the seat later), :attr:`reconnects` counts successful
    reconnections and :attr:`last_error` says what last went wrong.
    """

    def __init__(self, host: str, port: int, *, name: str = "", label: str | None = None,
                 game: str | None = None, table: str | None = None,
                 code: str | None = None, token: str | None = None, watch: bool = False,
                 reconnect: bool = True, backoff: Backoff | None = None,
                 max_attempts: int | None = None, heartbeat: float = 10.0,
                 dead_after: float = 30.0, connect_timeout: float = 10.0,
                 software: str = "waddle-client", seat_store: SeatStore | None = None,
                 first_wait: float = FIRST_WAIT, follow_resume: bool = True,
                 resume_wait: float | None = None,
                 on_retry: Callable[[str], None] | None = None,
                 unix_socket: str | None = None) -> None:
        self.host, self.port = host, port
        self.unix_socket = unix_socket
        self.name, self.label, self.code = name, label, code
        self.game = game
        self.table = table
        self.token = token
        self.watch = watch
        self.reconnect = reconnect
        self.backoff = backoff or Backoff()
        self._stopped_backoff = Backoff(*STOPPED_BACKOFF)
        self._look_now: trio.Event | None = None  # set while waiting to try again
        self.max_attempts = max_attempts
        self.first_wait, self.follow_resume, self.on_retry = first_wait, follow_resume, on_retry
        self._retried = False  # on_retry was told of a wait since the last connection
        self.resume_wait = resume_wait
        self._stopped_at: float | None = None  # when the host said it stopped, until connected again
        self.heartbeat, self.dead_after, self.connect_timeout = heartbeat, dead_after, connect_timeout
        self.software = software
        self.seat_store = seat_store
        self._table_id = ""
        self.state = TableState()
        self.last_error: str | None = None
        self._ids = itertools.count(1)
        self._id_prefix = secrets.token_hex(4)
        self._pending: dict[str, _Pending] = {}
        self._outbox_send, self._outbox = trio.open_memory_channel(OUTBOX_SIZE)
        self._subscribers: list[trio.MemorySendChannel] = []
        self._progress = trio.Event()       # set (and replaced) on every state change
        self.state.listeners.append(self._progressed)
        self._framed: FramedStream | None = None
        self._cancel = trio.CancelScope()
        self._want_ready: bool | None = None
        self._seated_once = False
        self.reconnects = 0
        self._ping_nonce = 0

    # -- running ------------------------------------------------------------------------

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Connect, take the seat and follow the table until closed.

        ``task_status.started()`` is called once the first connection holds its seat
        and the table's state. Returns when the client closes (:meth:`close`, a final
        refusal, the game over and the link gone, or ``max_attempts`` used up); the
        reason is in ``state.closed_reason``.

        Raises:
            ClientError: only before ``started``: the first connection failed or was refused.
            TableGone: at any time: the club has no such table (any more).
        """
        reason = "closed by the client"
        try:
            with self._cancel:
                reason = await self._connect_loop(task_status)
        except ClientError as exc:
            reason = str(exc)
            raise
        finally:
            self._finish(reason)

    async def _connect_loop(self, task_status) -> str:
        resync = False
        give_up_at = trio.current_time() + self.first_wait
        while True:
            stopped = False
            try:
                await self._session(resync, task_status)
                reason, resync = "the host closed the connection", False
            except _Reconnect as exc:
                reason, resync, stopped = str(exc), exc.resync, exc.stopped
            except (AtClub, TableGone):
                raise
            except (OSError, ConnectionClosed, TruncatedFrame, trio.TooSlowError) as exc:
                reason, resync = _describe(exc), False
            except ProtocolError as exc:  # not a Waddle host: trying again cannot help
                if not self._seated_once:
                    raise ClientError(f"cannot connect to {self.host}:{self.port}: {exc}") from None
                reason, resync = _describe(exc), False
            except ClientError as exc:
                if not self._seated_once:
                    raise
                return str(exc)
            self._framed = None
            self.last_error = reason
            if self._seated_once and (not self.reconnect or self.state.finished):
                return reason
            if self.max_attempts is not None and self.backoff.attempts >= self.max_attempts:
                if not self._seated_once:
                    raise ClientError(f"cannot connect to {self.host}:{self.port}: {reason}")
                return f"gave up after {self.backoff.attempts} attempts: {reason}"
            if resync:
                self.state.set_status(Status.RECONNECTING, "resyncing with the host")
                continue
            if self._seated_once and self._stopped_at is not None and self.resume_wait is not None and \
                    trio.current_time() >= self._stopped_at + self.resume_wait:
                return f"{self.state.host_stopped}; it did not come back within {_seconds(self.resume_wait)}"
            await self._wait_to_retry(reason, stopped, give_up_at)

    async def _wait_to_retry(self, reason: str, stopped: bool, give_up_at: float) -> None:
        """Wait before the next attempt, saying so (``state.retry``, :attr:`on_retry`).

        Raises:
            ClientError: before the first seat, when the next attempt would come after
                ``first_wait`` seconds.
        """
        gentle = stopped or self.state.host_stopped is not None  # until it is back
        if stopped:
            self.backoff.reset()
        attempt = self.backoff.attempts + self._stopped_backoff.attempts + 1
        delay = (self._stopped_backoff if gentle else self.backoff).next()
        if gentle and self._stopped_at is not None and self.resume_wait is not None:
            delay = max(0.0, min(delay, self._stopped_at + self.resume_wait - trio.current_time()))
        if not self._seated_once:
            if trio.current_time() + delay > give_up_at:
                raise ClientError(f"cannot connect to {self.host}:{self.port}: {reason}")
            line = f"host not answering ({reason}), retry {attempt} in {_seconds(delay)}; Ctrl-C stops"
            status = Status.CONNECTING
        elif gentle:
            line = f"{self.state.host_stopped}; looking for it again in {_seconds(delay)}"
            status = Status.RECONNECTING
        else:
            line = f"connection lost ({reason}), retry {attempt} in {_seconds(delay)}"
            status = Status.RECONNECTING
        self.state.set_status(status, line)
        if self.on_retry is not None:
            self.on_retry(line)
            self._retried = True
        self._look_now = trio.Event()
        try:
            with trio.move_on_after(delay):
                await self._look_now.wait()
        finally:
            self._look_now = None

    def look_now(self) -> bool:
        """Try the host again at once instead of at the end of the wait (a person who knows
        the host is back, pressing Enter). Returns ``False`` when the client is not waiting
        to try again."""
        if self._look_now is None:
            return False
        self._look_now.set()
        return True

    def _say_back(self) -> None:
        """Tell :attr:`on_retry` the client is back, if it was told of waits since."""
        if self.on_retry is not None and self._retried:
            label = self.state.label
            self.on_retry(f"back at the host as {label}" if label is not None else "back at the host, watching")
        self._retried = False

    def close(self) -> None:
        """Stop the client (its :meth:`run` returns); pending actions fail with :class:`ClientError`."""
        self._cancel.cancel()

    async def aclose(self, timeout: float = 1.0) -> None:
        """Leave politely if connected (``leave``: a lobby seat is freed, a game seat held),
        wait up to ``timeout`` seconds for the host's goodbye, then :meth:`close`."""
        if self._framed is not None and self.send_nowait(Leave()):
            self.reconnect = False
            with trio.move_on_after(timeout):
                try:
                    await self.wait_for(lambda state: state.status is Status.CLOSED)
                except ClientError:
                    pass
        self.close()

    def _finish(self, reason: str) -> None:
        self._framed = None
        for pending in self._pending.values():
            pending.done.set()
        for channel in self._subscribers:
            channel.close()
        self._subscribers.clear()
        self.state.set_status(Status.CLOSED, reason)
        self._progress.set()

    async def _session(self, resync: bool, task_status) -> None:
        """One connection: handshake, seat, then messages until it ends."""
        with trio.fail_after(self.connect_timeout):
            if self.unix_socket is not None:
                stream = await trio.open_unix_socket(self.unix_socket)
            else:
                stream = await trio.open_tcp_stream(self.host, self.port)
        framed = FramedStream.for_client(stream)
        async with stream:
            with trio.fail_after(self.connect_timeout):
                hello = encode(Hello(protocol=PROTOCOL_VERSION, client=self.software, game=self.game,
                                     table=self.table))
                early = self._seat_request(resync) if self.token is not None else None
                await framed.send_bytes(hello + (encode(early) if early is not None else b""))
                await self._take_seat(framed, await framed.receive(), resync, sent=early is not None)
            self._framed = framed
            self.backoff.reset()
            self._stopped_backoff.reset()
            self._stopped_at = None
            self.state.set_status(Status.CONNECTED)
            self._resend_pending()
            self._resend_ready()
            if self._seated_once:
                self.reconnects += 1
                self._say_back()
            else:
                self._seated_once = True
                task_status.started()
            try:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer, framed)
                    nursery.start_soon(self._pinger)
                    await self._reader(framed)
            except BaseExceptionGroup as group:
                raise _leaf(group) from None

    async def _take_seat(self, framed: FramedStream, welcome, resync: bool, sent: bool = False) -> None:
        """After ``welcome``: join, reclaim or watch (``sent``: the reclaim went with the
        ``hello``), and receive up to the table's state.

        With a token the ``reclaim`` goes in the same write as the ``hello``: a host full of
        connections that only take room hears it before it can make room for newer ones
        (docs/protocol.md, "Connection limits"). Without one, a seat remembered in
        :attr:`seat_store` is reclaimed first; if the host refuses that token it is
        forgotten and the client joins.
        """
        self._check_welcome(framed, welcome)
        self._table_id = welcome.table
        remembered = None if sent else self._remembered()
        if not sent:
            await framed.send(self._seat_request(resync, remembered))
        try:
            await self._await_seat(framed)
        except _SeatRefused as exc:
            if remembered is None or exc.code != "bad_token":
                raise
            self.seat_store.forget(remembered)
            await framed.send(self._seat_request(resync))
            await self._await_seat(framed)

    def _check_welcome(self, framed: FramedStream, message) -> None:
        """Take the host's ``welcome``: from now on ``framed`` decodes the game's messages.

        Raises:
            ClientError: the host plays a game this client does not know.
        """
        if isinstance(message, Closing):
            self._closing(message)
        if not isinstance(message, Welcome):
            raise ProtocolError(f"expected welcome, got {type(message).__name__}")
        if message.club and not message.table:
            raise AtClub(f"{self.host}:{self.port} is a club of many tables: choose one "
                         f"(waddle tables {self.host}:{self.port}, then --table ID)")
        try:
            self.state.apply(message)
        except ValueError as exc:
            raise ClientError(f"the host plays a game this client does not know: {exc}") from None
        framed.receives(server_message(self.state.ruleset))

    def _store_key(self) -> tuple[str, str, str] | None:
        """``(HOST:PORT, table id, name)`` for :attr:`seat_store`, or ``None`` (no store, a
        spectator, or a host that gives no table id)."""
        if self.seat_store is None or self.watch or not self._table_id:
            return None
        return f"{self.host}:{self.port}", self._table_id, self.name

    def _remembered(self) -> str | None:
        key = self._store_key()
        return self.seat_store.lookup(*key) if key and self.token is None else None

    def _seat_request(self, resync: bool, token: str | None = None):
        last = 0 if resync else self.state.version
        token = token or self.token
        if token is not None:
            return Reclaim(token=token, last_version=last)
        if self.watch:
            return Watch(name=self.name, code=self.code, last_version=last)
        return Join(name=self.name, label=self.label, code=self.code)

    async def _await_seat(self, framed: FramedStream) -> None:
        """Receive up to the first lobby or snapshot after ``seated``/``watching``."""
        seated = False
        while True:
            message = await framed.receive()
            if isinstance(message, Rejected):
                error = f"refused by the host ({clean(message.code, MAX_LABEL)}): " \
                        f"{clean(message.message, MAX_MESSAGE)}"
                if message.code == "code_required":
                    error += ": give it with --code"
                if message.code in FINAL_REJECTIONS:
                    raise _SeatRefused(error, message.code)
                raise _Reconnect(error)
            if isinstance(message, Closing):
                self._closing(message)
            if isinstance(message, Seated):
                self.token = message.token
                key = self._store_key()
                if key:
                    self.seat_store.remember(*key, message.label, message.token)
            seated = seated or isinstance(message, (Seated, Watching))
            self._handle(message)
            if seated and isinstance(message, (Lobby, Snapshot)):
                return

    # -- the connection's tasks -------------------------------------------------------

    async def _reader(self, framed: FramedStream) -> None:
        while True:
            with trio.move_on_after(self.dead_after) as silent:
                try:
                    message = await framed.receive()
                except ProtocolError as exc:
                    if exc.fatal:
                        raise
                    continue                   # a bad frame from the host: skip it
            if silent.cancelled_caught:
                raise _Reconnect(f"no word from the host for {self.dead_after:g} s")
            if isinstance(message, Closing):
                self._closing(message)
            self._handle(message)

    def _handle(self, message) -> None:
        if isinstance(message, Ping):
            self._queue(Pong(nonce=message.nonce))
            return
        if isinstance(message, Ack):
            self._answer(message.id, ack=message)
        elif isinstance(message, Rejected) and message.id is not None:
            self._answer(message.id, rejected=message)
        try:
            self.state.apply(message)
        except Desync as exc:
            raise _Reconnect(f"out of step with the host ({exc}); resyncing", resync=True) from None
        self._publish(message)

    def _closing(self, message: Closing) -> None:
        """Act on the host's ``closing`` (its text cleaned: it is the host's)."""
        code, said = clean(message.code, MAX_LABEL), clean(message.message, MAX_MESSAGE)
        if message.code == HOST_STOPPED:
            self.state.host_stopped = said or "the host stopped"
            if self._stopped_at is None:
                self._stopped_at = trio.current_time()
            if not self.follow_resume:
                raise ClientError(self.state.host_stopped)
            raise _Reconnect(self.state.host_stopped, stopped=True)
        if message.code == "unknown_table" and self.table:
            self.state.host_stopped = None  # a host answered: it runs, without the table
            raise TableGone(f"{self.host}:{self.port}", clean(self.table, MAX_LABEL), self._seated_once)
        text = f"the host closed the connection ({code}): {said}"
        if message.code in FINAL_CLOSINGS:
            raise ClientError(text)
        raise _Reconnect(text)

    async def _writer(self, framed: FramedStream) -> None:
        async for message in self._outbox:
            await framed.send(message)

    async def _pinger(self) -> None:
        while True:
            await trio.sleep(self.heartbeat)
            self._ping_nonce += 1
            self._queue(Ping(nonce=self._ping_nonce))

    def _resend_pending(self) -> None:
        for pending in self._pending.values():
            self._queue(pending.act)

    def _resend_ready(self) -> None:
        if self._want_ready is None:
            return
        seat = self.state.seat_info(self.state.seat)
        if self.state.phase == "lobby" and seat is not None and seat.ready != self._want_ready:
            self._queue(Ready(ready=self._want_ready))

    def _answer(self, id: str, *, ack: Ack | None = None, rejected: Rejected | None = None) -> None:
        pending = self._pending.pop(id, None)
        if pending is not None:
            pending.ack, pending.rejected = ack, rejected
            pending.done.set()

    def _publish(self, message) -> None:
        for channel in list(self._subscribers):
            try:
                channel.send_nowait(message)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                self._subscribers.remove(channel)
        self._progressed()

    def _progressed(self) -> None:
        """Wake everybody waiting for a change (:meth:`wait_for`)."""
        self._progress.set()
        self._progress = trio.Event()

    def _queue(self, message) -> bool:
        try:
            self._outbox_send.send_nowait(message)
        except trio.WouldBlock:
            self.last_error = "too many messages waiting to be sent"
            return False
        return True

    # -- for scripts ----------------------------------------------------------------------

    def events(self) -> trio.MemoryReceiveChannel:
        """A new subscription to every host message, delivered after :attr:`state` took it.

        Iterate it with ``async for``; it ends when the client closes. Ping, pong and
        handshake messages are not included.
        """
        send, receive = trio.open_memory_channel(math.inf)
        if self.state.status is Status.CLOSED:
            send.close()
        else:
            self._subscribers.append(send)
        return receive

    async def act(self, action: Any) -> Ack:
        """Play ``action`` for this seat, decided on the current version; wait for the answer.

        Survives reconnects: the action is resent with the same id until answered. On
        return the replica includes the action.

        Returns:
            the host's :class:`protocol.Ack`.

        Raises:
            ActionRejected: the host refused it (``.code``: ``not_your_turn``, ``illegal``,
                ``stale``, ...); nothing changed.
            ClientError: this client holds no seat, or closed before the answer.
        """
        pending = self._submit(action)
        await pending.done.wait()
        if pending.rejected is not None:
            raise ActionRejected(pending.rejected)
        if pending.ack is None:
            raise ClientError(f"closed before the host answered: {self.state.closed_reason}")
        while self.state.version < pending.ack.version and self.state.status is not Status.CLOSED:
            await self._progress.wait()
        return pending.ack

    def _submit(self, action: Any) -> _Pending:
        if self.token is None:
            raise ClientError("this client holds no seat")
        if self.state.status is Status.CLOSED:
            raise ClientError(f"the client is closed: {self.state.closed_reason}")
        act = Act(id=f"{self._id_prefix}-{next(self._ids)}", version=self.state.version,
                  token=self.token, action=action)
        pending = self._pending[act.id] = _Pending(act)
        if self._framed is not None:
            self._queue(act)                 # else: sent on the next connection
        return pending

    async def wait_for(self, predicate) -> None:
        """Wait until ``predicate(state)`` is true (checked after every change).

        Raises:
            ClientError: the client closed first.
        """
        while not predicate(self.state):
            if self.state.status is Status.CLOSED:
                raise ClientError(f"the client is closed: {self.state.closed_reason}")
            await self._progress.wait()

    async def say(self, text: str) -> None:
        """Send a chat line."""
        self._send_or_raise(Say(text=text))

    async def ready(self, ready: bool = True) -> None:
        """Say this seat is (or is not) ready; repeated after a reconnect in the lobby."""
        self._want_ready = ready
        self._send_or_raise(Ready(ready=ready))

    async def start(self) -> None:
        """Ask to start the game (the table's owner only; a refusal lands in ``state.last_rejection``)."""
        self._send_or_raise(Start())

    async def configure(self, settings: Settings) -> None:
        """Change the table's settings (the owner, in the lobby)."""
        self._send_or_raise(Configure(settings=settings))

    def _send_or_raise(self, message) -> None:
        if not self.send_nowait(message):
            raise ClientError(self.last_error)

    # -- for a UI: never blocks -----------------------------------------------------------

    def send_nowait(self, message) -> bool:
        """Queue any client message (``Say``, ``Ready``, ``Start``, ``Configure``).

        Returns ``False`` (reason in :attr:`last_error`) if not connected or the queue is full.
        """
        if self._framed is None:
            self.last_error = f"not connected ({self.state.status})"
            return False
        return self._queue(message)

    def act_nowait(self, action: Any) -> bool:
        """Submit ``action`` without waiting; the answer shows in :attr:`state`
        (``last_rejection``, or the replica advancing). Returns ``False`` (reason in
        :attr:`last_error`) if it cannot be submitted."""
        try:
            self._submit(action)
        except ClientError as exc:
            self.last_error = str(exc)
            return False
        return True

    def say_nowait(self, text: str) -> bool:
        """Queue a chat line; ``False`` (reason in :attr:`last_error`) if it cannot be sent."""
        return self.send_nowait(Say(text=text))


def _leaf(group: BaseExceptionGroup) -> BaseException:
    """The exception that ended a connection's tasks: a :class:`TableGone` (what ended the
    rest, the game's end not reached among them), else the first that is not a cancellation."""
    leaves = []
    stack = [group]
    while stack:
        item = stack.pop(0)
        if isinstance(item, BaseExceptionGroup):
            stack.extend(item.exceptions)
        else:
            leaves.append(item)
    return next((e for e in leaves if isinstance(e, TableGone)),
                next((e for e in leaves if not isinstance(e, trio.Cancelled)), leaves[0]))


def _describe(exc: BaseException) -> str:
    """``exc`` in a few words: "timed out", "connection refused", ..."""
    if isinstance(exc, trio.TooSlowError):
        return "timed out"
    cause = exc.__cause__
    while isinstance(cause, BaseExceptionGroup):  # trio's "all attempts to connect ... failed"
        cause = cause.exceptions[-1]
    if isinstance(cause, OSError) and cause.errno:
        exc = cause
    if isinstance(exc, OSError) and exc.errno:
        text = os.strerror(exc.errno)
        return text[:1].lower() + text[1:]
    return clean(str(exc)) or type(exc).__name__


def _seconds(delay: float) -> str:
    """A delay for people: "0.4 s", "4 s"."""
    return f"{delay:.1f} s" if delay < 1 else f"{delay:.0f} s"


@asynccontextmanager
async def connect(host: str, port: int, **options) -> AsyncIterator[Client]:
    """Connect a :class:`Client` (``options`` as its arguments) and yield it once seated.

    Leaving the block normally leaves the table politely (:meth:`Client.aclose`); an
    exception closes the client at once and comes out as itself (not wrapped in an
    exception group).

    Raises:
        ClientError: the host could not be reached or refused the seat.
    """
    client = Client(host, port, **options)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(client.run)
            try:
                yield client
                await client.aclose()
            finally:
                client.close()
    except BaseExceptionGroup as group:
        raise _leaf(group) from None
