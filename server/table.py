"""The table: one hosted game from lobby to finished, the only authority over it.

A :class:`Table` holds the seats (with their secret tokens), the spectators, the
numbered events and the :class:`~server.match.Match`. Connections hand it decoded
messages (:meth:`Table.handle`); it answers and broadcasts through each connection's
non-blocking ``send`` (a bounded queue drained by that connection's writer task), so no
client can stall another. :meth:`Table.run` plays bot seats and stand-ins for absent
players and saves the game after every action. Checks and codes: ``docs/protocol.md``.
"""

from __future__ import annotations

import hmac
import json
import logging
import random
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec
import trio

from protocol.framing import encode
from protocol.messages import (
    MAX_CHAT,
    MAX_MESSAGE,
    PROTOCOL_VERSION,
    Ack,
    Act,
    Chat,
    Configure,
    FileMap,
    Join,
    Lobby,
    Played,
    Ready,
    Reclaim,
    Rejected,
    Say,
    Seated,
    SeatInfo,
    Settings,
    Snapshot,
    Start,
    Started,
    Watch,
    Watching,
)
from protocol.text import clean, clean_name
from server.match import SEAT_COLOURS, Chooser, Match, check_settings, make_chooser, make_map
from waddle import RecordError
from waddle.hex.maps import Map
from waddle.hex.record import save_record

log = logging.getLogger("waddle.server")


class Peer(Protocol):
    """What the table needs of a connection (:class:`server.connection.Connection`)."""

    label: str
    seat: Seat | None
    watching: bool
    name: str

    def send(self, message: Any) -> None: ...

    def send_frame(self, frame: bytes) -> None: ...

    def close(self, code: str, message: str) -> None: ...

    def log_rejection(self, request: str, code: str, message: str) -> None: ...


@dataclass(eq=False)
class Seat:
    """A seat: its colour, its player's name, its secret token and who plays it now."""

    colour: str
    name: str
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24), repr=False)
    bot: str | None = None
    ready: bool = False
    peer: Peer | None = field(default=None, repr=False)
    away_since: float | None = None
    acted: dict[str, int] = field(default_factory=dict, repr=False)


class _SavedSeat(msgspec.Struct):
    colour: str
    name: str
    token: str
    bot: str | None = None
    acted: dict[str, int] = {}


class _SavedTable(msgspec.Struct):
    protocol: int
    settings: Settings
    seats: list[_SavedSeat]
    bots: list[str | None]
    code: str | None = None
    table: str = ""


class Table:
    """One table.

    Args:
        settings: the starting settings (the owner may change them in the lobby).
        code: the join code, or ``None`` for an open table.
        save: the file the game is saved to after every action (``None``: not saved).
            It holds the seat tokens: it is the host's private file.
        grace: seconds a disconnected player's turn waits before a stand-in bot plays.
        lobby_grace: seconds a seat whose connection dropped in the lobby stays held for a
            reclaim before it is freed (its token then stops working).
        standin: the bot kind that plays for absent or timed-out players (``None``: the
            table's bot kind, :attr:`standin_kind`).
        bot_delay: seconds a bot seat waits before acting (0 in tests and benchmarks).
        map: a map to use instead of the one ``settings`` choose (hosts and tests).
        seed: seeds the bots and the opening turn order (``None``: random bots; the order
            then follows the standard map's seed, or is random).
    """

    def __init__(self, settings: Settings | None = None, *, code: str | None = None,
                 save: str | Path | None = None, grace: float = 30.0, lobby_grace: float = 30.0,
                 standin: str | None = None,
                 bot_delay: float = 0.0, map: Map | None = None, seed: int | None = None) -> None:
        self.settings = settings or Settings()
        self.code = code or None
        self.save_path = Path(save) if save else None
        self.grace = grace
        self.lobby_grace = lobby_grace
        self.standin = standin
        self.bot_delay = bot_delay
        #: The table's id (``welcome.table``): random, kept by a resume.
        self.id = secrets.token_hex(8)
        self.phase = "lobby"
        self.seats: list[Seat] = []
        self.peers: set[Peer] = set()
        self.match: Match | None = None
        self._frames: list[bytes] = []  # event v is _frames[v - 1], encoded once (and few objects for the GC)
        self._bot_kinds: list[str | None] = []
        self._map = map
        self._prepared: tuple[Settings, Map | None, int | None] | None = None
        self._seed = seed
        self._rng = random.Random(seed)
        self._choosers: dict[str, Chooser] = {}
        self._standins: set[str] = set()
        self._turn_started: float | None = None
        self._driver_due: float | None = None
        self._wake = trio.Event()
        self._save_needed = trio.Event()
        self._saved = trio.Event()
        self._saved_version = 0
        #: How blocking work runs (a bot's choice, making a map, writing the save file):
        #: ``await offload(function, *args)``. By default in a worker thread, so a slow
        #: search bot or disk never blocks the host; tests may run it inline.
        self.offload = trio.to_thread.run_sync
        self._handlers = {Join: self._join, Reclaim: self._reclaim, Watch: self._watch,
                          Configure: self._configure, Start: self._start, Ready: self._ready,
                          Say: self._say, Act: self._act}

    # -- state ------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The event version: 0 in the lobby, 1 at the start, +1 per action."""
        return len(self._frames)

    @property
    def owner(self) -> Seat | None:
        """The seat that may configure and start: the longest-seated connected player (or,
        with nobody connected, the longest-seated player)."""
        humans = [s for s in self.seats if s.bot is None]
        return next((s for s in humans if s.peer is not None), humans[0] if humans else None)

    def lobby(self) -> Lobby:
        """The table as everybody sees it (no tokens)."""
        owner = self.owner
        return Lobby(phase=self.phase, settings=self.settings,
                     seats=[self._seat_info(i, s) for i, s in enumerate(self.seats)],
                     owner=owner.colour if owner else None, code_required=self.code is not None)

    @property
    def standin_kind(self) -> str:
        """The bot kind that plays for absent players and turns the timer ends: the
        ``standin`` given, else the table's bot kind (the last of ``settings.bots``, the
        one that repeats for the empty seats), else ``"random"`` (``docs/protocol.md``)."""
        return self.standin or (self.settings.bots[-1] if self.settings.bots else "random")

    def _seat_info(self, index: int, seat: Seat) -> SeatInfo:
        standin = seat.colour in self._standins
        return SeatInfo(seat=index, colour=seat.colour, name=seat.name,
                        connected=seat.peer is not None, ready=seat.ready,
                        bot=seat.bot or (self.standin_kind if standin else None), standin=standin)

    def snapshot(self) -> Snapshot:
        """The whole table now: version, record (``None`` in the lobby) and lobby."""
        record = self.match.record() if self.match else None
        return Snapshot(version=self.version, record=record, lobby=self.lobby())

    def seat_of(self, colour: str | None) -> Seat | None:
        """The seat of ``colour``, if any."""
        return next((s for s in self.seats if s.colour == colour), None)

    # -- host-side API (also used by the owner's messages) ----------------------------------

    def configure(self, settings: Settings) -> None:
        """Replace the settings (lobby only); every seat becomes not ready.

        Raises:
            ValueError: after the start, fewer seats than players already seated, an
                unknown bot kind, a map that cannot be made or is not for that many players.
        """
        if self.phase != "lobby":
            raise ValueError("the game has started")
        if settings.players < len(self.seats):
            raise ValueError(f"{len(self.seats)} players are already seated")
        check_settings(settings, self._map)
        self.settings = settings
        for seat in self.seats:
            seat.ready = False
        self._broadcast_lobby()

    def start(self) -> None:
        """Start the game: bots fill the empty seats, the seats take the opening turn order
        (shuffled unless ``settings.seat_order`` is ``"seated"``: :func:`server.match.opening_order`),
        event 1 (``started``) goes to everybody.

        Raises:
            ValueError: already started, nobody seated, empty seats and no bots, or the
                map cannot be made.
        """
        if self.phase != "lobby":
            raise ValueError("the game has already started")
        if not self.seats:
            raise ValueError("nobody has joined")
        empty = self.settings.players - len(self.seats)
        bots = self.settings.bots
        if empty and not bots:
            raise ValueError(f"{empty} seat(s) empty and no bots to fill them")
        free = [c for c in SEAT_COLOURS if not self.seat_of(c)]
        added: list[Seat] = []
        for colour, kind in zip(free, [bots[min(i, len(bots) - 1)] for i in range(empty)]):
            added.append(Seat(colour, self._unique_name(f"{kind} bot", added), bot=kind, ready=True))
        map, seed = self._map, None
        if map is None and self.map_ready:
            map, seed = self._prepared[1:]
        try:
            self.match = Match.new(self.settings, [s.colour for s in self.seats + added], map, seed,
                                   order_seed=self._seed)
        except ValueError as exc:
            raise ValueError(f"cannot make the game: {exc}") from None
        self.seats = sorted(self.seats + added, key=lambda s: self.match.players.index(s.colour))
        self.phase = "playing"
        self._turn_started = trio.current_time()
        now = self._turn_started
        for seat in self.seats:
            if seat.bot is None and seat.peer is None:
                seat.away_since = now
        log.info("game started: %s", ", ".join(f"{s.colour} {s.name}" for s in self.seats))
        self._append(Started(version=1, record=self.match.record()))
        self._save_now()  # blocking: the file exists before any writer task sends the start
        self._broadcast_lobby()

    # -- connections ------------------------------------------------------------------------

    def handle(self, peer: Peer, message: Any) -> None:
        """Act on a decoded client message from ``peer`` (not hello, ping, pong or leave)."""
        self._handlers[type(message)](peer, message)

    def disconnect(self, peer: Peer) -> None:
        """``peer``'s connection ended: its seat (if any) is held for a reclaim (in the
        lobby for ``lobby_grace`` seconds, then freed by :meth:`run`)."""
        self.peers.discard(peer)
        seat = peer.seat
        if seat is not None and seat.peer is peer:
            seat.peer = None
            seat.away_since = trio.current_time()
            log.info("%s (%s) disconnected", seat.name, seat.colour)
            self._broadcast_lobby()

    def leave(self, peer: Peer) -> None:
        """``peer`` leaves: in the lobby its seat is freed; in a game it is held."""
        seat = peer.seat
        if seat is not None and self.phase == "lobby":
            self.seats.remove(seat)
            seat.peer = None
            peer.seat = None
            self.peers.discard(peer)
            self._broadcast_lobby()
        else:
            self.disconnect(peer)
        peer.close("bye", "goodbye")

    def _reject(self, peer: Peer, request: str, code: str, message: str, id: str | None = None) -> None:
        message = clean(message, MAX_MESSAGE)  # it may quote what the client sent
        peer.log_rejection(request, code, message)
        peer.send(Rejected(request=request, code=code, message=message, id=id))

    def _code_ok(self, code: str | None) -> bool:
        return self.code is None or (code is not None and hmac.compare_digest(
            code.encode(), self.code.encode()))

    def _attach(self, seat: Seat, peer: Peer) -> None:
        old = seat.peer
        if old is not None and old is not peer:
            old.seat = None
            self.peers.discard(old)
            old.close("replaced", "the seat was reclaimed by another connection")
        seat.peer, seat.away_since, peer.seat = peer, None, seat
        self.peers.add(peer)
        self._standins.discard(seat.colour)
        self._wake.set()

    def _catch_up(self, peer: Peer, last_version: int) -> None:
        if 1 <= last_version <= self.version:
            for frame in self._frames[last_version:]:
                peer.send_frame(frame)
        else:
            peer.send(self.snapshot())

    def _join(self, peer: Peer, message: Join) -> None:
        if peer.seat or peer.watching:
            return self._reject(peer, "join", "already_joined", "this connection already joined")
        if not self._code_ok(message.code):
            return self._reject(peer, "join", "bad_code", "the join code is wrong")
        if self.phase != "lobby":
            return self._reject(peer, "join", "started", "the game has started: reclaim your seat or watch")
        if len(self.seats) >= self.settings.players:
            return self._reject(peer, "join", "table_full", f"all {self.settings.players} seats are taken")
        free = [c for c in SEAT_COLOURS if not self.seat_of(c)]
        colour = message.colour if message.colour in free else free[0]
        seat = Seat(colour, self._unique_name(clean_name(message.name, f"Player {len(self.seats) + 1}")))
        self.seats.append(seat)
        self._attach(seat, peer)
        log.info("%s joined as %s", seat.name, colour)
        peer.send(Seated(colour=colour, name=seat.name, token=seat.token))
        peer.send(self.snapshot())
        self._broadcast_lobby()

    def _reclaim(self, peer: Peer, message: Reclaim) -> None:
        if peer.seat or peer.watching:
            return self._reject(peer, "reclaim", "already_joined", "this connection already joined")
        token = message.token.encode()
        found = [s for s in self.seats if hmac.compare_digest(token, s.token.encode()) and s.bot is None]
        if not found:
            return self._reject(peer, "reclaim", "bad_token", "no seat has this token")
        seat = found[0]
        self._attach(seat, peer)
        log.info("%s reclaimed %s", seat.name, seat.colour)
        peer.send(Seated(colour=seat.colour, name=seat.name, token=seat.token))
        self._catch_up(peer, message.last_version)
        self._broadcast_lobby()

    def _watch(self, peer: Peer, message: Watch) -> None:
        if peer.seat or peer.watching:
            return self._reject(peer, "watch", "already_joined", "this connection already joined")
        if not self._code_ok(message.code):
            return self._reject(peer, "watch", "bad_code", "the join code is wrong")
        peer.watching = True
        peer.name = self._unique_name(clean_name(message.name, "spectator"))
        self.peers.add(peer)
        peer.send(Watching())
        self._catch_up(peer, message.last_version)
        peer.send(self.lobby())

    def _unique_name(self, name: str, more: list[Seat] | None = None) -> str:
        """``name``, or ``name (2)``, ``name (3)``, ... if a seat (or one of ``more``) or a
        spectator already has it, ignoring case: nobody can speak in another's name."""
        taken = {s.name.casefold() for s in [*self.seats, *(more or [])]}
        taken |= {p.name.casefold() for p in self.peers if p.watching}
        unique, n = name, 1
        while unique.casefold() in taken:
            n += 1
            unique = f"{name} ({n})"
        return unique

    def _owner_request(self, peer: Peer, request: str) -> bool:
        if peer.seat is None:
            self._reject(peer, request, "not_joined", "take a seat first")
        elif peer.seat is not self.owner:
            self._reject(peer, request, "not_owner", f"only {self.owner.name} may do this")
        elif self.phase != "lobby":
            self._reject(peer, request, "started", "the game has started")
        else:
            return True
        return False

    def _configure(self, peer: Peer, message: Configure) -> None:
        if not self._owner_request(peer, "configure"):
            return
        if isinstance(message.settings.map, FileMap):
            return self._reject(peer, "configure", "bad_settings", "a map file can only be chosen on the host")
        try:
            self.configure(message.settings)
        except ValueError as exc:
            self._reject(peer, "configure", "bad_settings", str(exc))

    def _start(self, peer: Peer, message: Start) -> None:
        if self._owner_request(peer, "start"):
            try:
                self.start()
            except ValueError as exc:
                self._reject(peer, "start", "cannot_start", str(exc))

    def _ready(self, peer: Peer, message: Ready) -> None:
        if peer.seat is None:
            return self._reject(peer, "ready", "not_joined", "take a seat first")
        if self.phase != "lobby":
            return self._reject(peer, "ready", "started", "the game has started")
        peer.seat.ready = message.ready
        self._broadcast_lobby()
        if len(self.seats) == self.settings.players and all(s.ready for s in self.seats):
            self.start()

    def _say(self, peer: Peer, message: Say) -> None:
        if peer.seat is None and not peer.watching:
            return self._reject(peer, "say", "not_joined", "join or watch first")
        text = clean(message.text, MAX_CHAT)
        if not text:
            return self._reject(peer, "say", "bad_message", "the chat line is empty")
        seat = peer.seat
        self._broadcast(Chat(name=seat.name if seat else peer.name,
                             colour=seat.colour if seat else None, text=text))

    def _act(self, peer: Peer, message: Act) -> None:
        def reject(code: str, why: str) -> None:
            self._reject(peer, "act", code, why, message.id)

        seat = peer.seat
        if seat is None or not hmac.compare_digest(message.token.encode(), seat.token.encode()):
            return reject("bad_token", "the token is not this connection's seat token")
        if message.id in seat.acted:
            return peer.send(Ack(id=message.id, version=seat.acted[message.id], duplicate=True))
        if self.match is None:
            return reject("not_started", "the game has not started")
        if self.match.is_over:
            return reject("game_over", "the game is over")
        if self.match.current_player != seat.colour:
            return reject("not_your_turn", f"it is {self.match.current_player}'s turn")
        why = self.match.illegal(message.action)
        if why is not None:
            return reject("illegal", why)
        if message.version != self.version:
            return reject("stale", f"decided on version {message.version}, "
                                   f"the table is at version {self.version}")
        seat.acted[message.id] = self._apply(message.action, None)
        peer.send(Ack(id=message.id, version=self.version))

    # -- events -----------------------------------------------------------------------------

    def _apply(self, action, bot: str | None) -> int:
        player, events = self.match.apply(action)
        self._append(Played(version=self.version + 1, player=player, action=action,
                            events=events, bot=bot))
        self._bot_kinds.append(bot)
        self._turn_started = trio.current_time()
        if self.match.is_over:
            self.phase = "finished"
            log.info("game over: %s", events[-1].get("winners"))
            self._broadcast_lobby()
        self._save_needed.set()
        if self._driver_due is not None or self._bot_due() is not None:
            self._wake.set()  # the driver has a deadline to move, or a bot to run
        return self.version

    def _append(self, event: Started | Played) -> None:
        frame = encode(event)
        self._frames.append(frame)
        for peer in list(self.peers):
            peer.send_frame(frame)

    def _broadcast(self, message: Any) -> None:
        frame = encode(message)
        for peer in list(self.peers):
            peer.send_frame(frame)

    def _broadcast_lobby(self) -> None:
        self._broadcast(self.lobby())
        self._wake.set()

    # -- bots and stand-ins ---------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Play bot seats and stand-ins, and save after every action, until cancelled."""
        now = trio.current_time()
        if self.phase == "playing":
            self._turn_started = now
            for seat in self.seats:
                if seat.bot is None and seat.peer is None:
                    seat.away_since = now
        try:
            async with trio.open_nursery() as nursery:
                if self.save_path is not None:
                    nursery.start_soon(self._saver)
                task_status.started()
                await self._drive()
        finally:
            if self._saved_version < self.version:
                self._save_now()  # the last save on the way out

    @property
    def map_ready(self) -> bool:
        """Whether the map for the current settings was made (or failed) in the background."""
        return self._map is not None or (self._prepared is not None and self._prepared[0] is self.settings)

    async def _prepare_map(self) -> None:
        """Make the map for the current settings in a worker thread while the lobby fills."""
        settings = self.settings
        try:
            map, seed = await self.offload(make_map, settings, settings.players)
        except ValueError:
            map, seed = None, None  # start() tries again and reports the problem
        self._prepared = (settings, map, seed)

    async def _drive(self) -> None:
        while True:
            self._wake = trio.Event()
            if self.phase == "lobby" and not self.map_ready:
                await self._prepare_map()
                continue
            due = self._driver_due = self._lobby_due() if self.phase == "lobby" else self._bot_due()
            if due is None:
                await self._wake.wait()
            elif due > trio.current_time():
                with trio.move_on_at(due):
                    await self._wake.wait()
            elif self.phase == "lobby":
                self._free_lost_seats()
            else:
                await self._bot_turn()

    def _lobby_due(self) -> float | None:
        """When the first seat whose connection dropped in the lobby is to be freed, or ``None``."""
        return min((s.away_since + self.lobby_grace for s in self.seats
                    if s.peer is None and s.away_since is not None), default=None)

    def _free_lost_seats(self) -> None:
        """Free the lobby seats whose connection dropped ``lobby_grace`` seconds ago or more."""
        now = trio.current_time()
        lost = [s for s in self.seats if s.peer is None and s.away_since is not None
                and s.away_since + self.lobby_grace <= now]
        for seat in lost:
            self.seats.remove(seat)
            log.info("%s (%s) did not come back: the seat is free", seat.name, seat.colour)
        self._broadcast_lobby()

    def _bot_due(self) -> float | None:
        """When a bot should act for the current seat, or ``None``."""
        if self.phase != "playing":
            return None
        seat = self.seat_of(self.match.current_player)
        if seat.bot is not None:
            return self._turn_started + self.bot_delay
        times = []
        if seat.peer is None:
            times.append(seat.away_since + self.grace)
        if self.settings.turn_timer is not None:
            times.append(self._turn_started + self.settings.turn_timer)
        return min(times, default=None)

    async def _bot_turn(self) -> None:
        seat = self.seat_of(self.match.current_player)
        kind = seat.bot or self.standin_kind
        version = self.version
        chooser = self._choosers.get(seat.colour)
        if chooser is None:
            chooser = self._choosers[seat.colour] = make_chooser(kind, self._rng.randrange(2**31))
        try:
            action = await self.offload(chooser, self.match.position())
        except Exception:
            log.exception("bot %s failed for %s; a random bot plays instead", kind, seat.colour)
            action = await self.offload(make_chooser("random", None), self.match.position())
        due = self._bot_due() if self.version == version else None
        if due is None or due > trio.current_time():
            return  # somebody acted, or the player came back, while the bot was thinking
        if seat.bot is None and seat.peer is None and seat.colour not in self._standins:
            self._standins.add(seat.colour)
            log.info("a %s bot plays for %s (%s) while they are away", kind, seat.name, seat.colour)
            self._broadcast_lobby()
        self._apply(action, kind)

    # -- saving and resuming --------------------------------------------------------------------

    def save_data(self) -> dict[str, Any]:
        """The save file's content: the game record plus ``host`` (settings, seats with tokens)."""
        host = _SavedTable(
            protocol=PROTOCOL_VERSION, settings=self.settings, code=self.code, table=self.id,
            seats=[_SavedSeat(s.colour, s.name, s.token, s.bot, dict(s.acted)) for s in self.seats],
            bots=list(self._bot_kinds))
        return self.match.record(host=msgspec.to_builtins(host))

    def _save_now(self) -> None:
        """Save at once, blocking (at the start and on shutdown; actions save in :meth:`_saver`)."""
        if self.save_path is None or self.match is None:
            return
        try:
            save_record(self.save_path, self.save_data())
        except OSError as exc:
            log.error("cannot save the game to %s: %s", self.save_path, exc)
        self._saved_version = self.version

    async def _saver(self) -> None:
        while True:
            await self._save_needed.wait()
            self._save_needed = trio.Event()
            version, data = self.version, self.save_data()
            try:
                await self.offload(save_record, self.save_path, data)
            except OSError as exc:
                log.error("cannot save the game to %s: %s", self.save_path, exc)
            self._saved_version = version
            self._saved.set()
            self._saved = trio.Event()

    async def flush(self) -> None:
        """Wait until the save file holds the current version (returns at once without a file)."""
        while self.save_path is not None and self.match is not None and self._saved_version < self.version:
            await self._saved.wait()

    @classmethod
    def resume(cls, path: str | Path, **options: Any) -> Table:
        """The table saved in ``path``, seats held for their tokens; saving goes on to ``path``.

        Raises:
            waddle.RecordError: the file cannot be read, is not a save file, or does not
                replay; the message names the file.
        """
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise RecordError(f"{path}: cannot read the saved game: {exc}") from None
        if not isinstance(data, dict):
            raise RecordError(f"{path}: a saved game must be a JSON object")
        if "host" not in data:
            what = "a game record, not a host save file" if data.get("format") == "waddle-record" \
                else "not a host save file (it has no 'host' part)"
            raise RecordError(f"{path} is {what}: resume needs the file written by the host's --save")
        try:
            saved = msgspec.convert(data.get("host"), _SavedTable)
        except msgspec.ValidationError as exc:
            raise RecordError(f"{path}: host: not a host's save file ({exc})") from None
        match, initial, played = Match.replay({k: v for k, v in data.items() if k != "host"}, str(path))
        if [s.colour for s in saved.seats] != list(match.players) or len(saved.bots) != len(played):
            raise RecordError(f"{path}: host: the seats or bots do not match the record")
        table = cls(saved.settings, code=saved.code, save=options.pop("save", path), **options)
        table.id = saved.table or table.id
        table.match = match
        table.seats = [Seat(s.colour, s.name, s.token, s.bot, True, acted=dict(s.acted))
                       for s in saved.seats]
        table._append(Started(version=1, record=initial))
        for (player, action, events), bot in zip(played, saved.bots):
            table._append(Played(version=table.version + 1, player=player, action=action,
                                 events=events, bot=bot))
        table._bot_kinds = list(saved.bots)
        table.phase = "finished" if match.is_over else "playing"
        table._saved_version = table.version
        return table
