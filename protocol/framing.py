"""Framing: each message is a 4-byte big-endian length, then that many bytes of JSON.

The length counts the body only. A receiver checks it against its cap **before**
reading the body (:data:`MAX_CLIENT_FRAME` for what clients send,
:data:`MAX_SERVER_FRAME` for what the host sends) and refuses a zero length.
:class:`FramedStream` sends and receives messages over any trio stream; every failure
is a :class:`ProtocolError`: :class:`BadMessage` (the frame was read whole and the
connection can go on) or a fatal one (:class:`FrameTooLarge`, :class:`TruncatedFrame`,
:class:`ConnectionClosed`).
"""

from __future__ import annotations

import functools
import os
import struct
from typing import Any

import msgspec
import trio

from protocol.messages import MAX_ID, ClientMessage, ServerMessage, client_message
from protocol.text import clean

#: Cap on a frame body sent by a client (bytes).
MAX_CLIENT_FRAME = 16 * 1024
#: Cap on a frame body sent by the host (bytes); a snapshot of the largest game fits.
MAX_SERVER_FRAME = 1024 * 1024

_HEADER = struct.Struct(">I")
_encoder = msgspec.json.Encoder()


class ProtocolError(Exception):
    """Base of every framing and decoding failure."""

    fatal = True


class BadMessage(ProtocolError):
    """A whole frame arrived but is not a valid message (bad JSON or UTF-8, unknown type, wrong field).

    ``request``: ``"act"`` when the body is a JSON object of type ``act``, else ``"?"``;
    ``id``: that act's ``id`` when it is a string of 1 to :data:`~protocol.messages.MAX_ID`
    characters, else ``None`` (so a rejection can still name the action it refuses).
    """

    fatal = False

    def __init__(self, message: str, *, request: str = "?", id: str | None = None) -> None:
        super().__init__(message)
        self.request = request
        self.id = id


class _Envelope(msgspec.Struct):
    """What a malformed body may still tell: its type and action id."""

    type: object = None
    id: object = None


_envelope_decoder = msgspec.json.Decoder(_Envelope)
#: Every error decoding a body may raise (msgspec's, invalid UTF-8, nesting too deep).
_DECODE_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError,
                  ValueError, TypeError)


#: How an SSH server's first line begins (RFC 4253, 4.2): read as a frame's length, far
#: above any cap; a client pointed at a host's SSH port is told so.
SSH_BANNER = b"SSH-"


class FrameTooLarge(ProtocolError):
    """A length prefix above the cap, or zero (an empty frame); the body was not read.
    Either way the host closes the connection with ``frame_too_large``."""


class TruncatedFrame(ProtocolError):
    """The stream ended in the middle of a frame."""


class ConnectionClosed(ProtocolError):
    """The peer closed the stream (cleanly, between frames) or it broke."""


def encode(message: Any) -> bytes:
    """One frame (length prefix and JSON body) carrying ``message``."""
    body = _encoder.encode(message)
    return _HEADER.pack(len(body)) + body


@functools.cache
def decoder_for(kind: Any) -> msgspec.json.Decoder:
    """The shared JSON decoder for ``kind`` (a union of messages, e.g. :data:`ServerMessage`
    or :func:`~protocol.messages.server_message` of a ruleset)."""
    return msgspec.json.Decoder(kind)


def decode(decoder: msgspec.json.Decoder, body: bytes) -> Any:
    """Decode one frame body.

    Raises:
        BadMessage: for any decoding or validation failure (msgspec's errors, invalid
            UTF-8, nesting too deep).
    """
    try:
        return decoder.decode(body)
    except _DECODE_ERRORS as exc:
        # msgspec may quote the bad value: clean it
        raise BadMessage(clean(str(exc), 300), **_salvage(body)) from None


def _salvage(body: bytes) -> dict[str, Any]:
    """``request`` and ``id`` for the :class:`BadMessage` of a malformed ``act`` (none for
    anything else, or an ``id`` that is not a string of acceptable length)."""
    try:
        envelope = _envelope_decoder.decode(body)
    except _DECODE_ERRORS:
        return {}
    if envelope.type != "act":
        return {}
    ok = isinstance(envelope.id, str) and 1 <= len(envelope.id) <= MAX_ID
    return {"request": "act", "id": envelope.id if ok else None}


class FramedStream:
    """Messages over a trio stream.

    Args:
        stream: any ``trio.abc.Stream`` (a TCP stream, a memory stream in tests).
        receives: the union this side receives (``ClientMessage`` on the host).
        max_frame: the cap on received frame bodies (bytes).

    ``send`` must not be called by two tasks at once (give it one writer task). A TCP
    stream's socket is read directly (:func:`_read`), not through the stream's layers.
    """

    def __init__(self, stream: trio.abc.Stream, receives: Any, max_frame: int) -> None:
        self.stream = stream
        self.max_frame = max_frame
        self._decoder = decoder_for(receives)
        self._buffer = bytearray()
        self._socket = stream.socket if isinstance(stream, trio.SocketStream) else None
        self._drained = False  # the last read took all the socket had: wait before the next

    @classmethod
    def for_server(cls, stream: trio.abc.Stream, ruleset: Any) -> FramedStream:
        """The host's side of a table of ``ruleset``: receives its client messages, capped
        at :data:`MAX_CLIENT_FRAME`; ``None`` (a club's lobby): the game's fields as plain
        JSON values until :meth:`receives` names a table's game."""
        return cls(stream, client_message(ruleset) if ruleset is not None else ClientMessage,
                   MAX_CLIENT_FRAME)

    @classmethod
    def for_client(cls, stream: trio.abc.Stream) -> FramedStream:
        """A client's side: receives host messages, capped at :data:`MAX_SERVER_FRAME`; the
        game's fields are plain JSON values until :meth:`receives` names the game's types."""
        return cls(stream, ServerMessage, MAX_SERVER_FRAME)

    def receives(self, kind: Any) -> None:
        """Decode what arrives from now on as ``kind`` (once ``welcome`` named the game:
        :func:`~protocol.messages.server_message` of its ruleset)."""
        self._decoder = decoder_for(kind)

    async def send(self, message: Any) -> None:
        """Send one message.

        Raises:
            ConnectionClosed: the stream is broken or closed.
        """
        await self.send_bytes(encode(message))

    async def send_bytes(self, frame: bytes) -> None:
        """Send an already encoded frame (see :func:`encode`); lets a broadcast encode once."""
        try:
            await self.stream.send_all(frame)
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            raise ConnectionClosed(f"cannot send: {exc}") from None

    async def receive(self) -> Any:
        """Read and decode one message, checking the frame's length against the cap before
        reading its body.

        Raises:
            BadMessage: the frame was consumed; the stream may go on.
            FrameTooLarge, TruncatedFrame, ConnectionClosed: fatal; close the stream.
        """
        while (body := self._take()) is None:
            wanted = self._wanted()
            try:
                if self._socket is None:
                    data = await self.stream.receive_some(wanted)
                else:
                    data = await _read(self._socket, wanted, self._drained)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                raise ConnectionClosed(f"connection lost: {exc}") from None
            if not data:
                if not self._buffer:
                    raise ConnectionClosed("the peer closed the connection")
                raise TruncatedFrame(f"connection closed {len(self._buffer)} bytes into a frame")
            self._drained = len(data) < wanted
            self._buffer += data
        return decode(self._decoder, body)

    def _take(self) -> bytes | None:
        """The next frame's body, taken from the buffer, or ``None`` while it is not all
        there; raises :class:`FrameTooLarge` as soon as its length is known to be wrong."""
        buffer = self._buffer
        if len(buffer) < _HEADER.size:
            return None
        (length,) = _HEADER.unpack_from(buffer)
        if length == 0:
            raise FrameTooLarge("empty frame (length 0): a frame carries one message")
        if length > self.max_frame:
            if buffer.startswith(SSH_BANNER):
                raise FrameTooLarge("this is an SSH server (a host's SSH gateway: guests come in with "
                                    "ssh -p PORT NAME@HOST), not a Waddle host's own port")
            raise FrameTooLarge(f"frame length {length} above the cap of {self.max_frame} bytes")
        end = _HEADER.size + length
        if len(buffer) < end:
            return None
        body = bytes(buffer[_HEADER.size:end])
        del buffer[:end]
        return body

    def _wanted(self) -> int:
        """How many bytes to ask the stream for: what the frame being read still lacks, at
        least 4096."""
        if len(self._buffer) < _HEADER.size:
            return 4096
        (length,) = _HEADER.unpack_from(self._buffer)
        return max(_HEADER.size + length - len(self._buffer), 4096)

    async def aclose(self) -> None:
        """Close the underlying stream."""
        await self.stream.aclose()


async def _read(socket: trio.socket.SocketType, size: int, drained: bool) -> bytes:
    """Up to ``size`` bytes from the non-blocking ``socket``, waiting for some: a checkpoint
    as ``receive_some`` is (cancelled before reading; what is there at once still lets the
    others run first, so a peer flooding its socket cannot starve the loop). ``drained``:
    the last read took all the socket had (it returned less than it asked for), so this
    one waits for the socket to be readable before reading (a read that would find
    nothing is a system call spent). The socket's number is read at each call: a closed
    socket's is -1, never a number since reused.

    Raises:
        OSError: the link broke or the socket is closed; trio.ClosedResourceError: it was
            closed while waiting.
    """
    if not drained:
        await trio.lowlevel.checkpoint_if_cancelled()
        try:
            data = os.read(socket.fileno(), size)
        except BlockingIOError:
            pass
        else:
            await trio.lowlevel.cancel_shielded_checkpoint()
            return data
    while True:
        await trio.lowlevel.wait_readable(socket)
        try:
            return os.read(socket.fileno(), size)
        except BlockingIOError:
            continue
