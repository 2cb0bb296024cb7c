"""One client connection: handshake, reading, one writer task, heartbeats and limits.

What the connection sends goes straight into its socket when that needs no waiting (a
non-blocking write: nothing is queued or being written, and the socket's buffer has
room), else through a bounded memory channel drained by its own writer task, in order;
so a slow or frozen client only fills its own queue, never stalls a broadcast, and when
the queue is full the connection is dropped (it may reconnect and reclaim). What the
table sends comes through its outbox (:mod:`server.outbox`): what one client message
causes reaches each connection in one write (:meth:`Connection.send_frames`), the
sender's first.
:meth:`Connection.run` catches every error of its own connection: nothing a client
sends reaches the others.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import trio

from protocol.framing import BadMessage, FramedStream, FrameTooLarge, ProtocolError, encode
from protocol.messages import (
    CLUB_REQUESTS,
    PROTOCOL_VERSION,
    SPOKEN_VERSIONS,
    ClientMessage,
    Closing,
    Hello,
    Leave,
    Ping,
    Pong,
    Rejected,
    Welcome,
    client_message,
)
from protocol.text import clean
from server.logbudget import peer_log as log
from server.throttle import Throttle
from server.turns import Asks, asks_of

if TYPE_CHECKING:
    from server.club import Club
    from server.seats import Seat
    from server.table import Table

SERVER_NAME = "waddle 0.1.0"


@dataclass
class Limits:
    """Timeouts (seconds), queue size (messages), rate limit (messages per second: ``rate``,
    bursts of ``burst``; ``rate_close`` messages over it, forgiven at ``rate``, close the
    connection), how often (seconds) a connection's notable rejections may reach the log
    at INFO (``log_interval``), and how many connections a host serves: in all
    (``max_connections``) and from one address (``max_per_address``). A connection over
    either limit waits at most ``admit_timeout`` seconds for a first request that takes a
    seat (``max_waiting`` such at once, ``waiting_per_address`` from one address;
    :class:`server.host.Host`)."""

    handshake_timeout: float = 10.0
    idle_timeout: float = 30.0
    ping_interval: float = 10.0
    flush_timeout: float = 2.0
    queue_size: int = 256
    rate: float = 20.0
    burst: float = 40.0
    rate_close: int = 200
    max_connections: int = 256
    log_interval: float = 60.0
    max_per_address: int = 16
    admit_timeout: float = 3.0
    max_waiting: int = 64
    waiting_per_address: int = 4


#: Rejection codes a host operator should see (a wrong token or join code, a malformed
#: frame): logged at INFO, at most once per ``Limits.log_interval`` per connection. The
#: other rejections (a request out of turn, before joining, ...) are logged at DEBUG.
NOTABLE_REJECTIONS = frozenset({"bad_token", "bad_code", "bad_message"})


class Connection:
    """A client connected to ``table`` over ``stream`` (the table's :class:`~server.table.Peer`),
    or to a ``club`` (``table`` ``None``: at the club's lobby until it joins or watches
    one, or names one in ``hello``; the club's :class:`~server.club.Guest`).

    ``admit``: for a connection over the host's limits, asked about its first request
    after ``hello`` (within ``limits.admit_timeout`` seconds): ``None`` lets it in, a
    reason closes it (``full``). ``address``: the client's IP address (``None``:
    unknown), whose join-code guesses are counted (:mod:`server.guard`) and whose
    tables a club counts. ``fingerprint``: an SSH guest's key (the seat it takes keeps it).
    """

    def __init__(self, stream: trio.abc.Stream, table: Table | None, limits: Limits, label: str, *,
                 admit: Callable[[Connection, Any], str | None] | None = None,
                 club: Club | None = None, address: str | None = None,
                 fingerprint: str | None = None) -> None:
        self.framed = FramedStream.for_server(stream, table.ruleset if table is not None else None)
        self.table = table
        self.club = club
        self.address = address
        #: The SSH key of a guest of the gateway (:mod:`server.ssh`; ``None``: none).
        self.fingerprint = fingerprint
        self.limits = limits
        self.label = label
        #: The protocol version the client said in ``hello`` (each ``welcome`` names it).
        self.protocol = PROTOCOL_VERSION
        self.seat: Seat | None = None
        self.watching = False
        self.name = ""
        #: What the client asked to be told with each event (``hello``; :mod:`server.turns`).
        self.asks: Asks = None
        self._queue_in, self._queue_out = trio.open_memory_channel[bytes | None](limits.queue_size)
        self._unsent = 0  # frames given to the writer and not yet written
        # the socket, for writes that need no waiting (None: a stream without one, or closing)
        self._fd = stream.socket.fileno() if isinstance(stream, trio.SocketStream) else None
        self._scope = trio.CancelScope()
        self._reading = True  # the client is still read (run's handshake and serving)
        self._closing = False
        self._tokens = limits.burst
        self._refilled = 0.0
        self._over = 0.0
        self._log = Throttle(limits.log_interval, "rejection")
        self._admit = admit
        self._admit_by = trio.current_time() + limits.admit_timeout if admit else math.inf

    @property
    def waiting(self) -> bool:
        """Whether the connection is over the host's limits, waiting to be let in."""
        return self._admit is not None

    @property
    def closing(self) -> bool:
        """Whether the connection is ending (told ``closing``, or gone): it sends nothing more."""
        return self._closing

    # -- the table's side (never blocks) --------------------------------------------------------

    def send(self, message: Any) -> None:
        """Send ``message`` to this client now (:meth:`_write`); the table sends through its
        outbox instead (:mod:`server.outbox`), which hands its frames to :meth:`send_frames`."""
        if not self._closing:
            self._write(encode(message))

    def send_frames(self, frames: Sequence[bytes]) -> None:
        """Send encoded frames, in order, in one write (:meth:`_write`)."""
        if not self._closing:
            self._write(frames[0] if len(frames) == 1 else b"".join(frames))

    def _write(self, frame: bytes) -> None:
        """Into the socket at once if that needs no waiting, else (what did not fit) queued
        for the writer; a full queue drops the connection (``slow``)."""
        if self._fd is not None and not self._unsent:
            try:
                sent = os.write(self._fd, frame)
            except OSError:  # no room (BlockingIOError), or the link is gone: the writer finds out
                sent = 0
            if sent == len(frame):
                return
            frame = frame[sent:]
        try:
            self._queue_in.send_nowait(frame)
            self._unsent += 1
        except trio.WouldBlock:
            log.warning("%s reads too slowly: disconnected", self.label)
            self._closing = True
            self._scope.cancel()

    def log_rejection(self, request: str, code: str, message: str) -> None:
        """Log a rejection sent to this client without letting it flood the host's log:
        :data:`NOTABLE_REJECTIONS` at INFO, at most one line per ``limits.log_interval``
        seconds (the next line, or the one at the close, counts those held back), the
        others at DEBUG. ``message`` must be cleaned text (no tokens)."""
        if code not in NOTABLE_REJECTIONS or not self._log.allow():
            log.debug("rejected %s from %s: %s (%s)", request, self.label, code, message)
            return
        log.info("rejected %s from %s: %s (%s)%s", request, self.label, code, message, self._log.note())

    def reject(self, request: str, code: str, message: str) -> None:
        """Refuse ``request`` (a message type) with ``code``; ``message`` is the host's own
        text (it may quote the client's: cleaned by whoever made it)."""
        self.log_rejection(request, code, message)
        self.send(Rejected(request=request, code=code, message=message))

    def enter(self, table: Table) -> None:
        """Be at ``table`` (of the club) from now on: its ``welcome``, its game's messages."""
        self.table = table
        self.framed.receives(client_message(table.ruleset))
        self.send(self._welcome(table))

    def to_club(self) -> None:
        """Be at the club's lobby from now on: the club's ``welcome``, the game's fields
        decoded as plain JSON values."""
        self.table = None
        self.framed.receives(ClientMessage)
        self.send(self._welcome(None))

    def _welcome(self, table: Table | None) -> Welcome:
        """The ``welcome`` of ``table``, or of the club's lobby (``None``: no game, no table)."""
        club = self.club is not None
        if table is None:
            return Welcome(protocol=self.protocol, server=SERVER_NAME, game="", title="Waddle club",
                           code_required=False, phase="lobby", table="", club=True)
        ruleset = table.ruleset
        return Welcome(protocol=self.protocol, server=SERVER_NAME, game=ruleset.name,
                       title=ruleset.title, code_required=table.code is not None,
                       phase=table.phase, table=table.id, club=club)

    def close(self, code: str, message: str) -> None:
        """Send ``closing`` (after what is queued) and end the connection."""
        if self._closing:
            return
        self._write(encode(Closing(code=code, message=message)))
        self._closing = True
        try:
            self._queue_in.send_nowait(None)
        except trio.WouldBlock:
            self._scope.cancel()

    # -- tasks ----------------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the connection until it ends; never raises (but for cancellation).

        Once the reading is over, the writer sends what is queued (at most
        ``limits.flush_timeout`` seconds) and ends: a connection ends without cancelling its
        tasks unless the host closes it, or a write fails, while the client is still read
        (a host with many tables ends many connections a second, and each cancellation
        leaves tracebacks for the garbage collector to walk: :mod:`server.tuning`)."""
        try:
            with self._scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer)
                    if await self._handshake():
                        await self._serve()
                    self._reading = False
                    self._end_writes()
                    nursery.cancel_scope.deadline = trio.current_time() + self.limits.flush_timeout
        except Exception:
            log.exception("connection %s failed", self.label)
        finally:
            self._closing, self._fd = True, None  # nothing more is written but by the writer
            if self.table is not None:
                self.table.disconnect(self)
            await trio.aclose_forcefully(self.framed.stream)
            note = self._log.note()
            log.log(logging.INFO if note else logging.DEBUG, "%s closed%s", self.label, note)

    def _end_writes(self) -> None:
        """Nothing more is sent: the writer sends what is queued, then ends."""
        self._closing = True
        self._queue_in.close()

    async def _writer(self) -> None:
        """Send queued frames in order, what is queued together in one write, until ``None``
        or the end of the queue; then, if the client is still read, stop reading."""
        async for frame in self._queue_out:
            frames = [frame]
            while frames[-1] is not None:
                try:
                    frames.append(self._queue_out.receive_nowait())
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
            try:
                await self.framed.send_bytes(b"".join(f for f in frames if f is not None))
            except ProtocolError:
                break
            self._unsent -= len(frames) - (frames[-1] is None)
            if frames[-1] is None:
                break
        if self._reading:
            self._scope.cancel()

    async def _receive(self, timeout: float) -> Any:
        """The next message within ``timeout`` seconds (else raise :class:`_Timeout`)."""
        with trio.move_on_after(timeout):
            return await self._next()
        raise _Timeout

    async def _next(self) -> Any:
        """The next message, ``None`` for a bad one (answered), or raise :class:`_End`."""
        try:
            return await self.framed.receive()
        except BadMessage as exc:
            self.log_rejection(exc.request, "bad_message", str(exc))
            self.send(Rejected(request=exc.request, code="bad_message", message=str(exc), id=exc.id))
            return None
        except FrameTooLarge as exc:
            self.close("frame_too_large", str(exc))
            raise _End from None
        except ProtocolError as exc:
            log.info("%s: %s", self.label, exc)
            raise _End from None

    async def _handshake(self) -> bool:
        try:
            message = await self._receive(max(0.0, min(self.limits.handshake_timeout,
                                                       self._admit_by - trio.current_time())))
        except _Timeout:
            if self.waiting:
                self.close("full", "the host serves as many connections as it can")
                return False
            self.close("handshake", f"no hello within {self.limits.handshake_timeout:g} seconds")
            return False
        except _End:
            return False
        if not isinstance(message, Hello):
            self.close("handshake", "the first message must be hello")
            return False
        if message.protocol not in SPOKEN_VERSIONS:
            self.close("protocol_version", f"this host speaks protocol {PROTOCOL_VERSION} "
                                           f"(and {', '.join(map(str, SPOKEN_VERSIONS[:-1]))}), "
                                           f"not {message.protocol}")
            return False
        if message.table is not None:
            table = self._table_named(message.table)
            if table is None:
                self.close("unknown_table", f"this host has no table {clean(message.table)!r}")
                return False
            if self.club is not None:
                self.table = table
                self.framed.receives(client_message(table.ruleset))
        self.protocol, self.asks = message.protocol, asks_of(message)
        if message.table is None and self.table is None:
            self.send(self._welcome(None))  # a club's lobby
            return True
        ruleset = self.table.ruleset
        if message.game not in (None, ruleset.name):
            self.close("game", f"this host plays {ruleset.title} ({ruleset.name}), not {message.game}")
            return False
        self.send(self._welcome(self.table))
        return True

    def _table_named(self, table_id: str) -> Table | None:
        """The host's table with id ``table_id`` (a club's, or the one table's), if any."""
        if self.club is not None:
            return self.club.tables.get(table_id)
        return self.table if self.table.id == table_id else None

    async def _serve(self) -> None:
        """Hand messages to the table; ping after ``ping_interval`` of silence (and every
        ``ping_interval`` after), drop after ``idle_timeout``, refuse a connection still
        waiting to be let in at ``admit_by``. One timer covers many messages: a message
        notes when it came and moves the timer only once it is less than half a ping
        interval away (a timer that goes off cancels the read: a client that talks every
        few seconds never sets it off), and a timer that finds a message came since starts
        the next."""
        heard, pings, nonce = trio.current_time(), 0, 0
        while not self._closing:
            with trio.CancelScope(deadline=self._due(heard, pings)) as timer:
                while not self._closing:
                    try:
                        message = await self._next()
                    except _End:
                        return
                    heard, pings = trio.current_time(), 0
                    if timer.deadline < heard + self.limits.ping_interval / 2:
                        timer.deadline = self._due(heard, pings)
                    if self._dispatch(message, heard):
                        return
            now, limits = trio.current_time(), self.limits
            if self._closing:
                return
            if self.waiting and now >= self._admit_by:
                return self.close("full", "the host serves as many connections as it can")
            if now >= heard + limits.idle_timeout:
                return self.close("idle", f"nothing received for {limits.idle_timeout:g} seconds")
            if now >= heard + limits.ping_interval * (pings + 1):
                pings, nonce = pings + 1, nonce + 1
                self.send(Ping(nonce=nonce))

    def _due(self, heard: float, pings: int) -> float:
        """When :meth:`_serve` next looks at the connection (trio time): the admission's
        end, the idle timeout or the next ping, whichever comes first, the last message
        having come at ``heard`` and ``pings`` pings having gone unanswered since."""
        limits = self.limits
        return min(self._admit_by, heard + limits.idle_timeout, heard + limits.ping_interval * (pings + 1))

    def _dispatch(self, message: Any, now: float) -> bool:
        """Act on one message, received at ``now`` (trio time); ``True`` when the
        connection is to end."""
        if isinstance(message, Ping):
            self.send(Pong(nonce=message.nonce))
        elif isinstance(message, Pong):
            pass
        elif not self._allowed(message, now):  # bad frames (None, answered already) count too
            if self._over > self.limits.rate_close:
                self.close("rate_limited", "far too many messages")
                return True
        elif isinstance(message, Leave):
            if self.table is not None:
                self.table.leave(self)
            else:
                self.close("bye", "goodbye")
            return True
        elif isinstance(message, Hello):
            self.send(Rejected(request="hello", code="bad_message", message="hello was already sent"))
        elif message is None:
            pass
        elif self.table is None and not isinstance(message, CLUB_REQUESTS):
            self.reject(_tag(message), "not_at_table", "join or watch one of the club's tables first "
                                                       "(join_table, watch_table)")
        elif isinstance(message, CLUB_REQUESTS) and self.club is None:
            self.reject(_tag(message), "not_a_club", "this host is one table, not a club")
        else:
            if self.waiting:
                why = self._admit(self, message)
                if why is not None:
                    self.close("full", why)
                    return True
                self._admit, self._admit_by = None, math.inf
            self._handle(message)
        return False

    def _handle(self, message: Any) -> None:
        """Hand ``message`` to the club (its requests) or the table."""
        if isinstance(message, CLUB_REQUESTS):
            self.club.handle(self, message)
        else:
            self.table.handle(self, message)

    def _allowed(self, message: Any, now: float) -> bool:
        """Token bucket: ``rate`` messages per second, bursts of ``burst``; answers when
        over (``now``: when ``message`` came, trio time)."""
        gained = (now - self._refilled) * self.limits.rate
        self._tokens = min(self.limits.burst, self._tokens + gained)
        self._over = max(0.0, self._over - gained)  # old excess is forgiven at the same rate
        self._refilled = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self._over += 1
        self.send(Rejected(request=_tag(message), code="rate_limited",
                           message=f"more than {self.limits.rate:g} messages per second",
                           id=getattr(message, "id", None)))
        return False


def _tag(message: Any) -> str:
    """The ``type`` of a decoded message (``"?"`` for one that could not be decoded)."""
    config = getattr(message, "__struct_config__", None)
    return config.tag if config else "?"


class _End(Exception):
    """The connection is over (already closed or closing)."""


class _Timeout(Exception):
    """Nothing arrived in time."""
