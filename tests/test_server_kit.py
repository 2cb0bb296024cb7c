"""Server test kit: a scripted test client and a hosting helper (imported by the server tests; no tests here).

:class:`Client` reads in a background task, answers pings, keeps every message, and
follows the game in the game's view from the events it receives (the hex view checks
that each ``played`` event's derived events are what its local engine produces).
"""

from __future__ import annotations

import itertools
import os
import random
from contextlib import asynccontextmanager
from typing import Any

import trio
import trio.testing

import protocol
from protocol.framing import FramedStream, ProtocolError
from server import Host, ServerConfig
from server.driver import run as run_table
from waddle.hex.maps import Map
from waddle.hex.options import HexOptions
from waddle.hex.tiles import standard_map
from waddle.jsonform import json_form
from waddle.ruleset import Prepared, get_ruleset

HEX = get_ruleset("hex")
#: Action ids, unique over every client (a seat's ids must not repeat, across its connections too).
_IDS = itertools.count(1)
MAP2 = standard_map(2, 11)
MAP3 = standard_map(3, 5)


def on_map(map) -> Prepared:
    """A host's own map for the hex game (``ServerConfig.prepared``)."""
    return Prepared(None, map)


def hex_settings(players: int = 4, **options: Any) -> protocol.Settings:
    """Hex-game table settings: ``players`` seats, ``options`` split between the table
    (turn_timer, bots, seat_order) and the game (HexOptions: map, mirror_match, realtime_score)."""
    table = {k: options.pop(k) for k in ("turn_timer", "bots", "seat_order") if k in options}
    return protocol.Settings(players=players, options=HexOptions(**options), **table)


def view_map(view) -> Map:
    """The map a ``started``/``snapshot`` view carries."""
    return Map.from_dict(json_form(view.map))


#: Every TCP stream a :class:`Client` was given, until :func:`close_sockets` (after each test).
_SOCKETS: list[trio.SocketStream] = []


def close_sockets() -> None:
    """Close the TCP streams of every :class:`Client` made since the last call (the
    ``_clients_closed`` fixture of tests/conftest.py calls it after each test: a test
    ends its clients' tasks by cancelling them, which closes no socket)."""
    while _SOCKETS:
        sock = _SOCKETS.pop().socket
        if sock.fileno() != -1:  # outside trio's run: detach, then close the descriptor
            os.close(sock.detach())


class Client:
    """One scripted client over ``stream``; call :meth:`start` in a nursery."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        if isinstance(stream, trio.SocketStream):
            _SOCKETS[:] = [s for s in _SOCKETS if s.socket.fileno() != -1]  # drop those closed since
            _SOCKETS.append(stream)
        self.stream = stream
        self.framed = FramedStream.for_client(stream)
        self.received: list[Any] = []
        self.view = None
        self.version = 0
        self.token: str | None = None
        self.label: str | None = None
        self.lobby: protocol.Lobby | None = None
        self.closed = trio.Event()
        self.answer_pings = True
        self.asks: dict[str, bool] = {}  # what hello asks for: {"to_act": True}, {"legal": True}
        self.frozen = False  # True: stop reading (a frozen client)
        self._ids = _IDS
        self._lock = trio.Lock()
        self._new = trio.Event()
        self._cursor = 0

    async def pump(self) -> None:
        try:
            while True:
                if self.frozen:
                    await trio.sleep_forever()
                message = await self.framed.receive()
                self._follow(message)
                self.received.append(message)
                self._new.set()
                self._new = trio.Event()
                if isinstance(message, protocol.Ping) and self.answer_pings:
                    await self.send(protocol.Pong(nonce=message.nonce))
        except ProtocolError:
            pass
        finally:
            self.closed.set()
            self._new.set()

    @property
    def game(self):
        """The hex view's engine game (``None`` before the start)."""
        return self.view.game if self.view is not None else None

    def _follow(self, message: Any) -> None:
        if isinstance(message, protocol.Welcome):
            self.framed.receives(protocol.server_message(get_ruleset(message.game)))
        elif isinstance(message, protocol.Seated):
            self.token, self.label = message.token, message.label
        elif isinstance(message, protocol.Lobby):
            self.lobby = message
        elif isinstance(message, protocol.Snapshot):
            self.lobby = message.lobby
            self.version = message.version
            self.view = HEX.follow(message.view, self.label) if message.view else None
        elif isinstance(message, protocol.Started):
            assert message.version == self.version + 1
            self.version, self.view = message.version, HEX.follow(message.view, self.label)
        elif isinstance(message, protocol.Played):
            assert message.version == self.version + 1, (message.version, self.version)
            assert message.seat in self.view.to_act()
            self.view.apply(message.events)
            self.version = message.version
        elif isinstance(message, protocol.Undone):
            assert message.version == self.version + 1, (message.version, self.version)
            self.view.undo(message.events)
            self.version = message.version

    async def send(self, message: Any) -> None:
        async with self._lock:
            await self.framed.send(message)

    async def send_raw(self, data: bytes) -> None:
        async with self._lock:
            await self.stream.send_all(data)

    async def expect(self, kind: type, **fields: Any) -> Any:
        """The next unread message of ``kind`` whose ``fields`` match (skipping others)."""
        while True:
            while self._cursor < len(self.received):
                message = self.received[self._cursor]
                self._cursor += 1
                if isinstance(message, kind) and all(getattr(message, k) == v for k, v in fields.items()):
                    return message
            if self.closed.is_set():
                raise AssertionError(f"connection closed while waiting for {kind.__name__} {fields}")
            await self._new.wait()

    def of(self, kind: type) -> list[Any]:
        return [m for m in self.received if isinstance(m, kind)]

    async def until(self, predicate) -> None:
        while not predicate():
            if self.closed.is_set():
                raise AssertionError("connection closed")
            await self._new.wait()

    async def hello(self) -> protocol.Welcome:
        await self.send(protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="test", **self.asks))
        return await self.expect(protocol.Welcome)

    async def join(self, name: str, label: str | None = None, code: str | None = None) -> protocol.Seated:
        await self.hello()
        await self.send(protocol.Join(name=name, label=label, code=code))
        seated = await self.expect(protocol.Seated)
        await self.expect(protocol.Snapshot)
        return seated

    async def act(self, action, *, version: int | None = None, id: str | None = None,
                  token: str | None = None) -> str:
        id = id or f"a{next(self._ids)}"
        await self.send(protocol.Act(id=id, version=self.version if version is None else version,
                                     token=self.token if token is None else token, action=action))
        return id

    async def reply(self, id: str) -> Any:
        """The ack or rejection of action ``id``."""
        while True:
            message = await self.expect((protocol.Ack, protocol.Rejected))
            if message.id == id:
                return message

    def my_turn(self) -> bool:
        return self.game is not None and not self.game.is_over and self.game.current_player == self.label

    def waited_for(self) -> bool:
        """Whether the table's pause waits for this seat."""
        return self.lobby is not None and self.lobby.pause is not None and any(
            s.waiting and s.label == self.label for s in self.lobby.seats)

    async def play_randomly(self, rng: random.Random) -> None:
        """Play random legal actions on this seat's turns until the game ends."""
        while True:
            await self.until(lambda: self.game is not None and (self.game.is_over or self.my_turn()
                                                                 or self.waited_for()))
            if self.game.is_over:
                return
            if self.waited_for():
                await self.send(protocol.Continue())
                await self.until(lambda: not self.waited_for())
                continue
            if self.lobby.pause is not None:
                await self.until(lambda: self.lobby.pause is None)
            id = await self.act(rng.choice(self.game.legal_actions()))
            reply = await self.reply(id)
            if isinstance(reply, protocol.Rejected) and reply.code == "paused":
                await self.until(lambda: self.lobby.pause is not None)  # the pause's lobby comes next
                continue
            assert isinstance(reply, protocol.Ack), reply


class TablePeer:
    """A peer (:class:`server.seats.Peer`) of a table called directly, no connection: each
    frame it is sent is decoded and handed to :meth:`received`; it keeps its seat's token."""

    def __init__(self, name: str) -> None:
        self.label = self.name = name
        self.seat, self.watching, self.token, self.address, self.asks = None, False, None, None, None
        self.fingerprint = None

    def send_frames(self, frames) -> None:
        decoder = protocol.framing.decoder_for(protocol.server_message(HEX))
        for frame in frames:
            message = decoder.decode(frame[4:])
            if isinstance(message, protocol.Seated):
                self.token = message.token
            self.received(message)

    def received(self, message) -> None:
        """What a subclass does with each message it is sent (nothing here)."""

    def close(self, code: str, message: str) -> None:
        pass

    def log_rejection(self, request: str, code: str, message: str) -> None:
        pass


def config(**kw: Any) -> ServerConfig:
    kw.setdefault("prepared", on_map(MAP2))
    kw.setdefault("settings", hex_settings(2, seat_order="seated"))
    kw.setdefault("seed", 1)
    return ServerConfig(**kw)


async def inline(function, *args):
    """Run blocking work in the event loop: under the autojump clock, waiting for a worker
    thread lets virtual time run away (every idle moment jumps to the next timer)."""
    return function(*args)


async def tcp_client(nursery: trio.Nursery, port: int) -> Client:
    """A :class:`Client` over TCP to the host on 127.0.0.1:``port``, pumped in ``nursery``."""
    client = Client(await trio.open_tcp_stream("127.0.0.1", port))
    nursery.start_soon(client.pump)
    return client


@asynccontextmanager
async def hosting(cfg: ServerConfig | None = None, *, tcp: bool = False):
    """Yield ``(host, connect)`` with the table running; ``connect(lockstep=False)`` -> Client.

    Over memory streams blocking work runs inline (deterministic virtual time); over ``tcp``
    (real clock) in worker threads, as in production.
    """
    host = Host(cfg or config())
    if not tcp:
        host.table.offload = inline
    async with trio.open_nursery() as nursery:
        if tcp:
            port = await nursery.start(host.run)
        else:
            await nursery.start(run_table, host.table)

        async def connect(lockstep: bool = False) -> Client:
            if tcp:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
            else:
                pair = trio.testing.lockstep_stream_pair if lockstep else trio.testing.memory_stream_pair
                stream, theirs = pair()
                nursery.start_soon(host.handle, theirs)
            client = Client(stream)
            nursery.start_soon(client.pump)
            return client

        yield host, connect
        nursery.cancel_scope.cancel()


async def seated_pair(connect) -> tuple[Client, Client]:
    """Ada (red, the owner) and Bob (blue) seated in the lobby."""
    ada, bob = await connect(), await connect()
    await ada.join("Ada")
    await bob.join("Bob")
    return ada, bob


async def started_pair(connect) -> tuple[Client, Client]:
    """Ada and Bob with the game started (both saw ``started``)."""
    ada, bob = await seated_pair(connect)
    await ada.send(protocol.Start())
    await ada.expect(protocol.Started)
    await bob.expect(protocol.Started)
    return ada, bob
