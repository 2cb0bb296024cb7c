"""One client connection: handshake, reading, one writer task, heartbeats and limits.

Everything the connection sends goes through a bounded memory channel drained by its
own writer task, so a slow or frozen client only fills its own queue; when the queue is
full the connection is dropped (it may reconnect and reclaim). :meth:`Connection.run`
catches every error of its own connection: nothing a client sends reaches the others.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import trio

from protocol.framing import BadMessage, FramedStream, FrameTooLarge, ProtocolError, encode
from protocol.messages import PROTOCOL_VERSION, Closing, Hello, Leave, Ping, Pong, Rejected, Welcome

if TYPE_CHECKING:
    from server.seats import Seat
    from server.table import Table

log = logging.getLogger("waddle.server")

SERVER_NAME = "waddle 0.1.0"


@dataclass
class Limits:
    """Timeouts (seconds), queue size (messages), rate limit (messages per second: ``rate``,
    bursts of ``burst``; ``rate_close`` messages over it, forgiven at ``rate``, close the
    connection), the most connections a host serves at once, and how often (seconds) a
    connection's notable rejections may reach the log at INFO (``log_interval``)."""

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


#: Rejection codes a host operator should see (a wrong token or join code, a malformed
#: frame): logged at INFO, at most once per ``Limits.log_interval`` per connection. The
#: other rejections (a request out of turn, before joining, ...) are logged at DEBUG.
NOTABLE_REJECTIONS = frozenset({"bad_token", "bad_code", "bad_message"})


class Connection:
    """A client connected to ``table`` over ``stream`` (the table's :class:`~server.table.Peer`)."""

    def __init__(self, stream: trio.abc.Stream, table: Table, limits: Limits, label: str) -> None:
        self.framed = FramedStream.for_server(stream, table.ruleset)
        self.table = table
        self.limits = limits
        self.label = label
        self.seat: Seat | None = None
        self.watching = False
        self.name = ""
        self._queue_in, self._queue_out = trio.open_memory_channel[bytes | None](limits.queue_size)
        self._scope = trio.CancelScope()
        self._closing = False
        self._tokens = limits.burst
        self._refilled = 0.0
        self._over = 0.0
        self._log_quiet_until = float("-inf")
        self._log_held = 0

    # -- the table's side (never blocks) --------------------------------------------------------

    def send(self, message: Any) -> None:
        """Queue ``message`` for this client."""
        self.send_frame(encode(message))

    def send_frame(self, frame: bytes) -> None:
        """Queue an encoded frame; a full queue drops the connection (``slow``)."""
        if self._closing:
            return
        try:
            self._queue_in.send_nowait(frame)
        except trio.WouldBlock:
            log.warning("%s reads too slowly: disconnected", self.label)
            self._closing = True
            self._scope.cancel()

    def log_rejection(self, request: str, code: str, message: str) -> None:
        """Log a rejection sent to this client without letting it flood the host's log:
        :data:`NOTABLE_REJECTIONS` at INFO, at most one line per ``limits.log_interval``
        seconds (the next line, or the one at the close, counts those held back), the
        others at DEBUG. ``message`` must be cleaned text (no tokens)."""
        notable = code in NOTABLE_REJECTIONS
        now = trio.current_time()
        if not notable or now < self._log_quiet_until:
            self._log_held += notable
            log.debug("rejected %s from %s: %s (%s)", request, self.label, code, message)
            return
        self._log_quiet_until = now + self.limits.log_interval
        log.info("rejected %s from %s: %s (%s)%s", request, self.label, code, message, self._held_note())

    def _held_note(self) -> str:
        held, self._log_held = self._log_held, 0
        return f"; {held} more such rejection(s) not logged" if held else ""

    def close(self, code: str, message: str) -> None:
        """Send ``closing`` (after what is queued) and end the connection."""
        if self._closing:
            return
        self.send(Closing(code=code, message=message))
        self._closing = True
        try:
            self._queue_in.send_nowait(None)
        except trio.WouldBlock:
            self._scope.cancel()

    # -- tasks ----------------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve the connection until it ends; never raises (but for cancellation)."""
        try:
            with self._scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer)
                    if await self._handshake():
                        await self._serve()
                    await trio.sleep(self.limits.flush_timeout)  # the writer ends it sooner
                    nursery.cancel_scope.cancel()
        except Exception:
            log.exception("connection %s failed", self.label)
        finally:
            self.table.disconnect(self)
            await trio.aclose_forcefully(self.framed.stream)
            log.log(logging.INFO if self._log_held else logging.DEBUG, "%s closed%s", self.label, self._held_note())

    async def _writer(self) -> None:
        """Send queued frames in order, what is queued together in one write, until ``None``."""
        async for frame in self._queue_out:
            frames = [frame]
            while frames[-1] is not None:
                try:
                    frames.append(self._queue_out.receive_nowait())
                except trio.WouldBlock:
                    break
            try:
                await self.framed.send_bytes(b"".join(f for f in frames if f is not None))
            except ProtocolError:
                break
            if frames[-1] is None:
                break
        self._scope.cancel()

    async def _receive(self, timeout: float) -> Any:
        """The next message, ``None`` for a bad one (answered), or raise :class:`_End`."""
        with trio.move_on_after(timeout):
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
                self._scope.cancel()
                raise _End from None
        raise _Timeout

    async def _handshake(self) -> bool:
        try:
            message = await self._receive(self.limits.handshake_timeout)
        except _Timeout:
            self.close("handshake", f"no hello within {self.limits.handshake_timeout:g} seconds")
            return False
        except _End:
            return False
        if not isinstance(message, Hello):
            self.close("handshake", "the first message must be hello")
            return False
        if message.protocol != PROTOCOL_VERSION:
            self.close("protocol_version", f"this host speaks protocol {PROTOCOL_VERSION}, "
                                           f"not {message.protocol}")
            return False
        ruleset = self.table.ruleset
        if message.game not in (None, ruleset.name):
            self.close("game", f"this host plays {ruleset.title} ({ruleset.name}), not {message.game}")
            return False
        self.send(Welcome(protocol=PROTOCOL_VERSION, server=SERVER_NAME, game=ruleset.name,
                          title=ruleset.title, code_required=self.table.code is not None,
                          phase=self.table.phase, table=self.table.id))
        return True

    async def _serve(self) -> None:
        """Hand messages to the table; ping after ``ping_interval`` of silence, drop after ``idle_timeout``."""
        heard, nonce = trio.current_time(), 0
        while not self._closing:
            try:
                message = await self._receive(min(self.limits.ping_interval,
                                                  heard + self.limits.idle_timeout - trio.current_time()))
            except _Timeout:
                if trio.current_time() >= heard + self.limits.idle_timeout:
                    return self.close("idle", f"nothing received for {self.limits.idle_timeout:g} seconds")
                nonce += 1
                self.send(Ping(nonce=nonce))
                continue
            except _End:
                return
            heard = trio.current_time()
            if isinstance(message, Ping):
                self.send(Pong(nonce=message.nonce))
            elif isinstance(message, Pong):
                pass
            elif not self._allowed(message):
                if self._over > self.limits.rate_close:
                    return self.close("rate_limited", "far too many messages")
            elif isinstance(message, Leave):
                return self.table.leave(self)
            elif isinstance(message, Hello):
                self.send(Rejected(request="hello", code="bad_message", message="hello was already sent"))
            elif message is not None:
                self.table.handle(self, message)
                await trio.lowlevel.checkpoint()  # let the writers send before the next read

    def _allowed(self, message: Any) -> bool:
        """Token bucket: ``rate`` messages per second, bursts of ``burst``; answers when over."""
        now = trio.current_time()
        gained = (now - self._refilled) * self.limits.rate
        self._tokens = min(self.limits.burst, self._tokens + gained)
        self._over = max(0.0, self._over - gained)  # old excess is forgiven at the same rate
        self._refilled = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self._over += 1
        request = getattr(message, "__struct_config__", None)
        self.send(Rejected(request=request.tag if request else "?", code="rate_limited",
                           message=f"more than {self.limits.rate:g} messages per second",
                           id=getattr(message, "id", None)))
        return False


class _End(Exception):
    """The connection is over (already closed or closing)."""


class _Timeout(Exception):
    """Nothing arrived in time."""
