"""The table: one hosted game from lobby to finished, the only authority over it.

A :class:`Table` plays one game (a :class:`waddle.ruleset.Ruleset`) and knows it only
through that interface. It holds the seats (:mod:`server.seats`), the spectators, the
event log (:mod:`server.log`) and the :class:`~waddle.ruleset.Match`. Connections hand
it decoded messages (:meth:`Table.handle`); it answers and sends each connection what
its audience (its seat, or the spectators) may see, through the connection's
non-blocking ``send`` (a bounded queue drained by that connection's writer task), so no
client can stall another. Besides actions it takes back a seat's last action (the
game's policy), holds the game in a pause the game asks for (half-time) and starts a
rematch once every person asked. :func:`server.driver.run` runs it: the driver (bots,
stand-ins, timers, pauses) and the saver (:mod:`server.persistence`). Checks and codes:
``docs/protocol.md``.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import trio

from protocol.framing import encode
from protocol.messages import (
    MAX_CHAT,
    MAX_MESSAGE,
    Ack,
    Act,
    Chat,
    Configure,
    Continue,
    Join,
    Lobby,
    Played,
    Ready,
    Reclaim,
    Rejected,
    Rematch,
    Say,
    Seated,
    Settings,
    Snapshot,
    Start,
    Started,
    Undo,
    Undone,
    Watch,
    Watching,
)
from protocol.text import clean, clean_name
from server.checks import BEFORE_RULES, first_failure
from server.guard import Guard
from server.log import Entry, EventLog, audiences, entry_for, frame_of
from server.pause import Pause
from server.persistence import Saver, host_part, read_save, restored_seats
from server.seats import Peer, Seat, Seats, same_secret
from waddle.errors import IllegalActionError
from waddle.ruleset import (
    DEFAULT_RULESET,
    Audience,
    Match,
    Prepared,
    Ruleset,
    get_ruleset,
    opening_order,
)

log = logging.getLogger("waddle.server")

#: The names bots take at a table, in order (``waddle demo`` names its bots alike).
BOT_NAMES = ("Pingu", "Tux", "Skipper", "Gunter", "Mumble")


def bot_name(number: int, kind: str) -> str:
    """The name of the ``number``-th bot (from 0) at a table, of ``kind``: ``"Tux (greedy bot)"``."""
    return f"{BOT_NAMES[number % len(BOT_NAMES)]} ({kind} bot)"


class Table:
    """One table.

    Args:
        settings: the starting settings (the owner may change them in the lobby); their
            ``options`` ``None`` means the game's defaults.
        ruleset: the game (default: :data:`waddle.ruleset.DEFAULT_RULESET`).
        code: the join code, or ``None`` for an open table.
        save: the file the game is saved to after every action (``None``: not saved).
            It holds the seat tokens: it is the host's private file.
        grace: seconds a disconnected player's turn waits before a stand-in bot plays.
        lobby_grace: seconds a seat whose connection dropped in the lobby stays held for a
            reclaim before it is freed (its token then stops working).
        standin: the bot kind that plays for absent or timed-out players (``None``: the
            table's bot kind, :attr:`standin_kind`).
        bot_delay: seconds a bot seat waits before acting (0 in tests and benchmarks).
        prepared: what the game needs, made ready by the host itself (the hex game: a
            map), used instead of what the settings choose.
        seed: seeds the bots, the opening turn order and the game (``None``: random; the
            order then follows the game's own seed, e.g. the standard map's).
        pause: seconds a pause the game asks for (the hex game: half-time) lasts at most
            while people have not all said to go on.
    """

    def __init__(self, settings: Settings | None = None, *, ruleset: Ruleset | None = None,
                 code: str | None = None, save: str | Path | None = None, grace: float = 30.0,
                 lobby_grace: float = 30.0, standin: str | None = None, bot_delay: float = 0.0,
                 prepared: Prepared | None = None, seed: int | None = None,
                 pause: float = 20.0, guard: Guard | None = None) -> None:
        self.ruleset = ruleset or get_ruleset(DEFAULT_RULESET)
        self.settings = self._complete(settings or Settings())
        #: The game's options the host itself chose (a file they name, the owner may keep).
        self.host_options = self.settings.options
        self.code = code or None
        #: Slows down guesses of the join code (:mod:`server.guard`): ``guard``, shared by
        #: a host's tables and ways in (SSH), else one of the table's own.
        self.guard = guard or Guard()
        self.grace = grace
        self.lobby_grace = lobby_grace
        self.standin = standin
        self.bot_delay = bot_delay
        self.pause_timeout = pause
        #: The pause the game is in (half-time), or ``None``.
        self.pause: Pause | None = None
        #: The game's number at this table: 1, then one more for each rematch.
        self.games = 1
        #: The people who asked for a rematch of the finished game.
        self.rematch: set[Seat] = set()
        #: The table's id (``welcome.table``): random, kept by a resume.
        self.id = secrets.token_hex(8)
        self.phase = "lobby"
        self.seats = Seats(self.ruleset.seats)
        self.peers: set[Peer] = set()
        self.match: Match | None = None
        self.log = EventLog()
        #: The seats a stand-in bot plays for while their player is away.
        self.standins: set[Seat] = set()
        self.bot_kinds: list[str | None] = []  # per action: the bot that chose it
        self.fixed = prepared
        self.prepared: tuple[Settings, Prepared | None] | None = None  # made in the lobby
        self.seed = seed
        self.rng = random.Random(seed)
        self.turn_started: float | None = None
        #: When the game at the table began (Unix seconds; ``None``: not yet, or not known).
        self.started_at: float | None = None
        #: Where the table's host listens (address, port), saved so a resume listens there
        #: again (:class:`server.host.Host`); ``None``: not known.
        self.listening: tuple[str, int] | None = None
        #: How blocking work runs (a bot's choice, preparing a map, writing the save file):
        #: ``await offload(function, *args)``. By default in a worker thread, so a slow
        #: search bot or disk never blocks the host; tests may run it inline.
        self.offload = trio.to_thread.run_sync
        self.saver = Saver(Path(save), self.save_data, lambda: self.version, lambda: self.id,
                           lambda *a: self.offload(*a)) if save else None
        self._first_save = Path(save) if save else None

    def wake(self) -> None:
        """Tell the table's driver that the table changed in a way it may act on (who is to
        act, a timer, a pause, the lobby): :class:`server.driver.Driver` puts its own in
        this method's place while it runs; without a driver there is nobody to tell."""

    def game_over(self) -> None:
        """The game just ended (its last action written ahead): the host puts its own in
        this method's place (:class:`server.history.History`); by default nothing."""

    def _complete(self, settings: Settings) -> Settings:
        """``settings`` with the game's default options where they have none."""
        if settings.options is None:
            settings = msgspec.structs.replace(settings, options=self.ruleset.options_type())
        return settings

    # -- state ------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The event version: 0 in the lobby, 1 at the start, +1 per action."""
        return self.log.version

    @property
    def save_path(self) -> Path | None:
        """The save file, or ``None``."""
        return self.saver.path if self.saver else None

    @property
    def standin_kind(self) -> str:
        """The bot kind that plays for absent players and turns the timer ends: the
        ``standin`` given, else the table's bot kind (the last of ``settings.bots``, the
        one that repeats for the empty seats), else ``"random"`` (``docs/protocol.md``)."""
        return self.standin or (self.settings.bots[-1] if self.settings.bots else "random")

    def lobby(self) -> Lobby:
        """The table as everybody sees it (no tokens)."""
        owner = self.seats.owner
        pause = self.pause
        waiting = pause.waiting if pause else set()
        seats = [msgspec.structs.replace(info, rematch=seat in self.rematch, waiting=seat in waiting)
                 for seat, info in zip(self.seats, self.seats.info(self.standins, self.standin_kind))]
        return Lobby(phase=self.phase, settings=self.settings, seats=seats,
                     owner=self.seats.number(owner) if owner else None,
                     code_required=self.code is not None, game=self.games,
                     pause=pause.name if pause else None,
                     pause_left=pause.left(trio.current_time()) if pause else None)

    def audience(self, peer: Peer) -> Audience:
        """What ``peer`` may see: its seat's number, or ``None`` for a spectator."""
        return self.seats.number(peer.seat) if peer.seat is not None else None

    def snapshot(self, audience: Audience) -> Snapshot:
        """The whole table now as ``audience`` may see it: version, view (``None`` in the
        lobby) and lobby."""
        view = self.match.view(audience) if self.match is not None else None
        return Snapshot(version=self.version, view=view, lobby=self.lobby(),
                        bots=list(self.bot_kinds) if view is not None else [])

    def seat_of(self, label: str | None) -> Seat | None:
        """The seat labelled ``label``, if any."""
        return next((s for s in self.seats if s.label == label), None)

    # -- host-side API (also used by the owner's messages) ----------------------------------

    def configure(self, settings: Settings, *, from_peer: bool = False) -> None:
        """Replace the settings (lobby only); every seat becomes not ready.

        Raises:
            ValueError: after the start, fewer seats than players already seated, an
                unknown bot kind, options the game refuses (``from_peer``: sent by a
                client, which may not name files on the host but may keep the host's).
        """
        if self.phase != "lobby":
            raise ValueError("the game has started")
        settings = self._complete(settings)
        if settings.players < len(self.seats):
            raise ValueError(f"{len(self.seats)} players are already seated")
        self.ruleset.check_bots(settings.bots)
        self.ruleset.check_options(settings.options, settings.players, prepared=self.fixed,
                                   from_peer=from_peer, host=self.host_options)
        self.settings = settings
        if not from_peer:
            self.host_options = settings.options
        for seat in self.seats:
            seat.ready = False
        self.broadcast_lobby()

    def start(self) -> None:
        """Start the game: bots fill the empty seats, the seats take the opening turn order
        (shuffled unless ``settings.seat_order`` is ``"seated"``:
        :func:`waddle.ruleset.opening_order`), event 1 (``started``) goes to everybody.

        Raises:
            ValueError: already started, nobody seated, empty seats and no bots, or the
                game cannot be made.
        """
        if self.phase != "lobby":
            raise ValueError("the game has already started")
        if not self.seats:
            raise ValueError("nobody has joined")
        empty = self.settings.players - len(self.seats)
        bots = self.settings.bots
        if empty and not bots:
            raise ValueError(f"{empty} seat(s) empty and no bots to fill them")
        try:
            prepared = self._prepared_now()
            order_seed = self.seed if self.seed is not None else prepared.seed
            for i in range(empty):
                kind = bots[min(i, len(bots) - 1)]
                self.seats.add(self.seats.unique_name(bot_name(i, kind), self._spectator_names()), bot=kind)
            labels = opening_order([s.label for s in self.seats], self.settings.seat_order, order_seed)
            match = self.ruleset.new_match(prepared, self.settings.options, labels)
        except ValueError as exc:
            for seat in [s for s in self.seats if s.bot is not None]:
                self.seats.remove(seat)
            raise ValueError(f"cannot make the game: {exc}") from None
        self._begin(match)

    def _begin(self, match: Match) -> None:
        """Play ``match`` (a new game at the table): seats in its order, ``started`` to all."""
        self.match = match
        self.seats.reorder(match.labels)
        self.phase = "playing"
        self.bot_kinds, self.pause = [], None
        self.standins.clear()
        self.rematch.clear()
        self.turn_started = now = trio.current_time()
        self.started_at = time.time()
        for seat in self.seats:
            if seat.bot is None and seat.peer is None:
                seat.away_since = now
        log.info("game %d started: %s", self.games, ", ".join(f"{s.label} {s.name}" for s in self.seats))
        version = self.version + 1
        entry = entry_for(self._per_audience(match.view),
                          lambda view: Started(version=version, view=view))
        self.log.append(entry)
        if self.saver:
            self.saver.begin()  # blocking: the save file exists before anybody hears of the start
        self._send(entry)
        self.broadcast_lobby()

    def new_game(self) -> None:
        """A rematch: a new game at the table once the last is over, the same seats, the
        game's options made afresh from a new seed (:meth:`waddle.ruleset.Ruleset.reseeded`),
        the opening order rotated by one (the first to act last time acts last); the version
        goes on counting; the finished game's save file stays, and the new one is saved beside
        it (``NAME-2.json``, ...).

        Raises:
            ValueError: the game is not over, or the new game cannot be made.
        """
        if self.phase != "finished":
            raise ValueError("the game is not over")
        labels = list(self.match.labels)
        options = self.ruleset.reseeded(self.settings.options, self.rng.randrange(2**31))
        settings = msgspec.structs.replace(self.settings, options=options)
        prepared = self.fixed or self.ruleset.prepare(options, settings.players, None)
        match = self.ruleset.new_match(prepared, options, labels[1:] + labels[:1])
        if self.saver:
            self.saver.move(numbered(self._first_save, self.games + 1))  # the last game kept whole
        self.settings = settings
        self.games += 1
        self._begin(match)

    @property
    def is_prepared(self) -> bool:
        """Whether what the game needs for the current settings is ready (the host's own,
        or made, or failed, in the lobby by the driver)."""
        return self.fixed is not None or (self.prepared is not None and self.prepared[0] is self.settings)

    def _prepared_now(self) -> Prepared:
        """What the match needs: the host's own, the one made in the lobby for these
        settings, or (blocking) made now."""
        if self.fixed is not None:
            return self.fixed
        if self.prepared is not None and self.prepared[0] is self.settings and self.prepared[1]:
            return self.prepared[1]
        return self.ruleset.prepare(self.settings.options, self.settings.players, self.seed)

    # -- connections ------------------------------------------------------------------------

    def handle(self, peer: Peer, message: Any) -> None:
        """Act on a decoded client message from ``peer`` (not hello, ping, pong or leave)."""
        self._handlers[type(message)](self, peer, message)

    def can_seat(self, peer: Peer, message: Any) -> bool:
        """Whether ``message`` from ``peer`` would take a seat now: a ``reclaim`` with a
        seat's token, or a ``join`` with the right code (a guess: :attr:`guard`) in the
        lobby while a seat is free."""
        if isinstance(message, Reclaim):
            return self.seats.by_token(message.token) is not None
        return isinstance(message, Join) and self.join_refusal(message.code, peer.address) is None

    def disconnect(self, peer: Peer) -> None:
        """``peer``'s connection ended: its seat (if any) is held for a reclaim (in the
        lobby for ``lobby_grace`` seconds, then freed by the driver); a pause or a rematch
        no longer waits for it."""
        self.peers.discard(peer)
        seat = peer.seat
        if seat is not None and seat.peer is peer:
            seat.peer = None
            seat.away_since = trio.current_time()
            log.info("%s (%s) disconnected", seat.name, seat.label)
            if self.pause is not None:
                self.go_on(seat)
            self.broadcast_lobby()
            try:
                self._rematch_if_all_asked()
            except ValueError as exc:
                self.rematch.clear()
                log.warning("cannot make the rematch: %s", exc)
                self.broadcast_lobby()

    def leave(self, peer: Peer) -> None:
        """``peer`` leaves: in the lobby its seat is freed; in a game it is held."""
        self.depart(peer)
        peer.close("bye", "goodbye")

    def depart(self, peer: Peer) -> None:
        """``peer`` is no longer at the table, its connection open (a club's ``leave_table``):
        in the lobby its seat is freed; in a game it is held for a reclaim."""
        seat = peer.seat
        if seat is not None and self.phase == "lobby":
            self.seats.remove(seat)
            seat.peer = None
            peer.seat = None
            self.peers.discard(peer)
            self.broadcast_lobby()
        else:
            self.disconnect(peer)
        peer.seat, peer.watching = None, False

    def _reject(self, peer: Peer, request: str, code: str, message: str, id: str | None = None) -> None:
        """Refuse ``request`` of ``peer``. The rules' reason for an ``illegal`` action may
        quote what only that seat may see (its hand), so the log gets its code alone."""
        message = clean(message, MAX_MESSAGE)  # it may quote what the client sent
        peer.log_rejection(request, code, "the rules' reason, for the seat only" if code == "illegal" else message)
        peer.send(Rejected(request=request, code=code, message=message, id=id))

    def code_refusal(self, code: str | None, address: str | None) -> tuple[str, str] | None:
        """``None`` when ``code`` lets a guest from ``address`` in (an open table, or the
        right code), else the rejection's code and message: ``bad_code``, or
        ``rate_limited`` when the guess was not even compared (too many wrong codes from
        there or in all: :class:`server.guard.Guard`)."""
        if self.code is None:
            return None
        verdict = self.guard.check(address, code, self.code)
        if verdict.ok:
            return None
        return ("bad_code" if verdict.checked else "rate_limited"), verdict.why

    def _attach(self, seat: Seat, peer: Peer) -> None:
        old = seat.peer
        if old is not None and old is not peer:
            old.seat = None
            self.peers.discard(old)
            old.close("replaced", "the seat was reclaimed by another connection")
        seat.peer, seat.away_since, peer.seat = peer, None, seat
        self.peers.add(peer)
        self.standins.discard(seat)
        self.wake()

    def _catch_up(self, peer: Peer, last_version: int) -> None:
        audience = self.audience(peer)
        frames = self.log.frames_after(last_version, audience)
        if frames is None:
            peer.send(self.snapshot(audience))
            return
        for frame in frames:
            peer.send_frame(frame)

    def _seated(self, peer: Peer, seat: Seat) -> None:
        peer.send(Seated(seat=self.seats.number(seat), label=seat.label, name=seat.name,
                         token=seat.token))

    def _spectator_names(self) -> list[str]:
        return [p.name for p in self.peers if p.watching]

    def join_refusal(self, code: str | None, address: str | None) -> tuple[str, str] | None:
        """Why a ``join`` with ``code`` from ``address`` would be refused now (a rejection
        code and message: ``bad_code``, ``rate_limited``, ``started``, ``table_full``), or
        ``None``."""
        refusal = self.code_refusal(code, address)
        if refusal is not None:
            return refusal
        if self.phase != "lobby":
            return "started", "the game has started: reclaim your seat or watch"
        if len(self.seats) >= self.settings.players:
            return "table_full", f"all {self.settings.players} seats are taken"
        return None

    def _join(self, peer: Peer, message: Join) -> None:
        if peer.seat or peer.watching:
            return self._reject(peer, "join", "already_joined", "this connection already joined")
        refusal = self.join_refusal(message.code, peer.address)
        if refusal is not None:
            return self._reject(peer, "join", *refusal)
        name = clean_name(message.name, f"Player {len(self.seats) + 1}")
        seat = self.seats.add(self.seats.unique_name(name, self._spectator_names()), message.label)
        self._attach(seat, peer)
        log.info("%s joined as %s", seat.name, seat.label)
        self._seated(peer, seat)
        peer.send(self.snapshot(self.audience(peer)))
        self.broadcast_lobby()

    def _reclaim(self, peer: Peer, message: Reclaim) -> None:
        if peer.seat or peer.watching:
            return self._reject(peer, "reclaim", "already_joined", "this connection already joined")
        seat = self.seats.by_token(message.token)
        if seat is None:
            return self._reject(peer, "reclaim", "bad_token", "no seat has this token")
        self._attach(seat, peer)
        log.info("%s reclaimed %s", seat.name, seat.label)
        self._seated(peer, seat)
        self._catch_up(peer, message.last_version)
        self.broadcast_lobby()

    def _watch(self, peer: Peer, message: Watch) -> None:
        if peer.seat or peer.watching:
            return self._reject(peer, "watch", "already_joined", "this connection already joined")
        refusal = self.code_refusal(message.code, peer.address)
        if refusal is not None:
            return self._reject(peer, "watch", *refusal)
        peer.watching = True
        peer.name = self.seats.unique_name(clean_name(message.name, "spectator"), self._spectator_names())
        self.peers.add(peer)
        peer.send(Watching())
        self._catch_up(peer, message.last_version)
        peer.send(self.lobby())

    def _owner_request(self, peer: Peer, request: str) -> bool:
        if peer.seat is None:
            self._reject(peer, request, "not_joined", "take a seat first")
        elif peer.seat is not self.seats.owner:
            self._reject(peer, request, "not_owner", f"only {self.seats.owner.name} may do this")
        elif self.phase != "lobby":
            self._reject(peer, request, "started", "the game has started")
        else:
            return True
        return False

    def _configure(self, peer: Peer, message: Configure) -> None:
        if not self._owner_request(peer, "configure"):
            return
        try:
            self.configure(message.settings, from_peer=True)
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
        self.broadcast_lobby()
        if len(self.seats) == self.settings.players and all(s.ready for s in self.seats):
            try:
                self.start()
            except ValueError as exc:  # e.g. the map or deck file gone since the host began
                self._reject(peer, "ready", "cannot_start", str(exc))

    def _say(self, peer: Peer, message: Say) -> None:
        if peer.seat is None and not peer.watching:
            return self._reject(peer, "say", "not_joined", "join or watch first")
        text = clean(message.text, MAX_CHAT)
        if not text:
            return self._reject(peer, "say", "bad_message", "the chat line is empty")
        seat = peer.seat
        self._broadcast(Chat(name=seat.name if seat else peer.name,
                             label=seat.label if seat else None, text=text))

    # -- actions ------------------------------------------------------------------------------

    def _act(self, peer: Peer, message: Act) -> None:
        """The act pipeline: the checks of :data:`protocol.messages.ACT_CHECKS` in that
        order (``bad_message`` was the decoder's; :mod:`server.checks`), a duplicate id
        answered at once after the token check; then apply (which checks the rules: a
        stale action's rules are checked first, so ``illegal`` still comes before
        ``stale``), broadcast and ack."""
        seat = peer.seat
        if seat is not None and message.id in seat.acted and same_secret(message.token, seat.token):
            return self._duplicate(peer, seat, message)
        failed = first_failure(self, seat, message, BEFORE_RULES)
        if failed is None and message.version != self.version:
            failed = first_failure(self, seat, message, ("illegal", "stale"))
        if failed is not None:
            return self._reject(peer, "act", *failed, message.id)
        try:
            events = self._play(self.seats.number(seat), message.action, None, message.id, peer)
        except IllegalActionError as exc:
            return self._reject(peer, "act", "illegal", str(exc), message.id)
        self._settle(events)

    def _duplicate(self, peer: Peer, seat: Seat, message: Act) -> None:
        """An ``act`` whose id ``seat`` played: the same action resent is answered ``ack``
        ``duplicate``; another action under that id is refused (``bad_message``), never
        acknowledged. (After a resume the actions played before it are not remembered:
        any act under their ids is answered ``duplicate``, as it is not applied.)"""
        version = seat.acted[message.id]
        if seat.actions.get(message.id, message.action) != message.action:
            return self._reject(peer, "act", "bad_message", f"this seat's action id was used for another "
                                f"action (version {version}): send each action with a fresh id", message.id)
        peer.send(Ack(id=message.id, version=version, duplicate=True))

    # -- take-backs, pauses and rematches ------------------------------------------------------

    def _undo(self, peer: Peer, message: Undo) -> None:
        """A take-back: the token, started, over and stale checks of an act, then
        the game's own policy (:meth:`waddle.ruleset.Match.check_undo`)."""
        failed = first_failure(self, peer.seat, message, ("bad_token", "not_started", "game_over", "stale"))
        if failed is not None:
            return self._reject(peer, "undo", *failed)
        seat = peer.seat
        try:
            self.undo(self.seats.number(seat))
        except IllegalActionError as exc:
            self._reject(peer, "undo", "cannot_undo", str(exc))

    def undo(self, seat: int) -> int:
        """Take back the last action of seat number ``seat``, which its player chose
        (a bot's or stand-in's choice is not theirs to take back); ``undone`` to every
        audience; a pause that action began ends. Return the new version.

        Raises:
            waddle.errors.IllegalActionError: not allowed now (the message says why).
        """
        if self.bot_kinds and self.bot_kinds[-1] is not None:
            raise IllegalActionError(f"a {self.bot_kinds[-1]} bot chose the last action, not you")
        events = self.match.undo(seat)
        version = self.version + 1
        if self.saver:
            self.saver.undo(version, seat)
        self._append(entry_for(self._per_audience(lambda a: self.match.redact(events, a)),
                               lambda seen: Undone(version=version, seat=seat, events=seen)))
        self.bot_kinds.pop()
        self.turn_started = trio.current_time()
        log.info("%s took back their last action", self.seats[seat].name)
        if self.pause is not None:
            self.pause = None
            self.broadcast_lobby()
        self.wake()
        return self.version

    def _continue(self, peer: Peer, message: Continue) -> None:
        if peer.seat is None:
            return self._reject(peer, "continue", "not_joined", "take a seat first")
        if self.pause is not None:
            self.go_on(peer.seat)
            self.broadcast_lobby()

    def go_on(self, seat: Seat | None = None) -> None:
        """``seat``'s player says the pause may end (``None``: the pause timed out); it ends
        once nobody is waited for. Does nothing without a pause."""
        pause = self.pause
        if pause is None:
            return
        pause.waiting.discard(seat)
        if seat is None or not pause.waiting:
            log.info("%s is over", pause.name)
            self.pause = None
            self.turn_started = trio.current_time()
            self.broadcast_lobby()

    def _rematch(self, peer: Peer, message: Rematch) -> None:
        seat = peer.seat
        if seat is None:
            return self._reject(peer, "rematch", "not_joined", "take a seat first")
        if self.phase != "finished":
            return self._reject(peer, "rematch", "not_finished", "the game is not over")
        if message.accept:
            self.rematch.add(seat)
        else:
            self.rematch.discard(seat)
        self.broadcast_lobby()
        try:
            self._rematch_if_all_asked()
        except ValueError as exc:
            self.rematch.clear()
            self._reject(peer, "rematch", "cannot_start", str(exc))
            self.broadcast_lobby()

    def _rematch_if_all_asked(self) -> None:
        """Start the rematch once every connected person asked for it (and somebody did).

        Raises:
            ValueError: the new game cannot be made.
        """
        people = {s for s in self.seats if s.bot is None and s.peer is not None}
        if self.phase == "finished" and self.rematch and people <= self.rematch:
            self.new_game()

    #: What each client message does (functions of the class, so a table holds no
    #: reference to itself and is freed as soon as it is dropped, without a collection).
    _handlers = {Join: _join, Reclaim: _reclaim, Watch: _watch, Configure: _configure,
                 Start: _start, Ready: _ready, Say: _say, Act: _act, Undo: _undo,
                 Rematch: _rematch, Continue: _continue}

    def apply(self, seat: int, action: Any, bot: str | None, id: str | None = None) -> int:
        """Play a legal ``action`` for seat number ``seat`` (chosen by ``bot``, ``None``:
        its player, whose action ``id`` it is); write it ahead to the save file's journal,
        then send each audience its events; return the new version.

        Raises:
            waddle.errors.IllegalActionError: the action is not legal now; nothing changed.
        """
        self._settle(self._play(seat, action, bot, id))
        return self.version

    def _play(self, seat: int, action: Any, bot: str | None, id: str | None,
              mover: Peer | None = None) -> list[Any]:
        """:meth:`apply`'s first part: play ``action``, write it ahead, send each audience
        its events; return the events (raises as :meth:`apply` does). ``mover``: the
        connection that sent the action (its ``id``), written to first, its event and
        ``ack`` at once, before the table works out what the others see."""
        events = self.match.apply(seat, action)
        version = self.version + 1
        if id is not None:
            self.seats[seat].acted[id] = version
            self.seats[seat].actions[id] = action
        self.bot_kinds.append(bot)
        if self.saver:
            self.saver.append(version, seat, action, bot, id)

        def played(seen: list[Any]) -> Played:
            return Played(version=version, seat=seat, events=seen, bot=bot)

        known = None
        if mover is not None:
            mine = self.match.redact(events, seat)
            known = mine, encode(played(mine))
            mover.send_frame(known[1])
            mover.send(Ack(id=id, version=version))
            mover.flush()
        payloads = self._per_audience(lambda a: self.match.redact(events, a))
        entry = entry_for(payloads, played, known)
        self.log.append(entry)
        self._send(entry, but=mover)
        return events

    def _settle(self, events: list[Any]) -> None:
        """:meth:`apply`'s second part, after the played ``events``: the turn's clock, a
        pause, the game's end (each saved before it is announced) and the driver's wake."""
        self.turn_started = now = trio.current_time()
        pause = self.match.pause_after(events)
        if pause is not None and self.saver:
            self.saver.checkpoint()  # the half is over: the save file alone holds it
        people = {s for s in self.seats if s.bot is None and s.peer is not None}
        if pause is not None and people and not self.match.is_over:
            self.pause = Pause(pause, now + self.pause_timeout, people)
            log.info("%s: waiting for every player to go on", pause)
            self.broadcast_lobby()
        if self.match.is_over:
            self.phase = "finished"
            winners = [self.seats[n].label for n in self.match.outcome().winners]
            log.info("game over: won by %s", ", ".join(winners))
            self.broadcast_lobby()
            if self.saver:
                self.saver.checkpoint()  # the save file alone holds the whole game
            self.game_over()
        self.wake()  # the driver may have a bot to run or a deadline to move

    def _per_audience(self, make: Callable[[Audience], Any]) -> list[Any]:
        """``make(audience)`` for every audience, in :func:`~server.log.audiences` order;
        made once for all in a game without secrets (every audience sees the same:
        :attr:`waddle.ruleset.Ruleset.secrets`)."""
        every = audiences(len(self.seats))
        if not self.ruleset.secrets:
            return [make(None)] * len(every)
        return [make(audience) for audience in every]

    def _append(self, entry: Entry) -> None:
        self.log.append(entry)
        self._send(entry)

    def _send(self, entry: Entry, but: Peer | None = None) -> None:
        for peer in list(self.peers):
            if peer is not but:
                peer.send_frame(frame_of(entry, self.audience(peer)))

    def _broadcast(self, message: Any) -> None:
        frame = encode(message)
        for peer in list(self.peers):
            peer.send_frame(frame)

    def broadcast_lobby(self) -> None:
        self._broadcast(self.lobby())
        self.wake()

    # -- saving and resuming ----------------------------------------------------------------------

    def save_data(self) -> dict[str, Any]:
        """The save file's content: the game record plus ``host`` (settings, seats with
        tokens, the event version, the game's number at the table, where the host listens)."""
        return self.match.record(host=host_part(self.ruleset, self.settings, list(self.seats),
                                                self.bot_kinds, self.code, self.id,
                                                version=self.version, games=self.games,
                                                listening=self.listening, started=self.started_at,
                                                timing=(self.grace, self.lobby_grace, self.bot_delay)))

    async def flush(self) -> None:
        """Wait until the save file alone holds the current version, its journal folded
        in (returns at once without a file)."""
        if self.saver is not None and self.match is not None:
            await self.saver.flush()

    @classmethod
    def resume(cls, path: str | Path, **options: Any) -> Table:
        """The table saved in ``path``, seats held for their tokens; saving goes on to
        ``path`` (or ``options["save"]``). The saved grace, lobby grace and bots' pace
        stand where ``options`` gives none. A client that saw events before the resume
        gets a snapshot.

        Raises:
            waddle.RecordError: the file cannot be read, is not a save file, or does not
                replay; the message names the file.
        """
        resumed = read_save(path)
        saved = resumed.saved
        for name, value in (("grace", saved.grace), ("lobby_grace", saved.lobby_grace), ("bot_delay", saved.pace)):
            if value is not None:
                options.setdefault(name, value)
        table = cls(resumed.settings, ruleset=resumed.ruleset, code=resumed.saved.code,
                    save=options.pop("save", None) or path, **options)
        table.id = resumed.saved.table or table.id
        table.match = resumed.match
        table.seats.restore(restored_seats(resumed, table.ruleset.seats))
        table.log = EventLog(base=resumed.version)  # take-backs are events too
        table.games = resumed.saved.games
        table.started_at = resumed.saved.started
        table.bot_kinds = list(resumed.saved.bots)
        if resumed.saved.address is not None and resumed.saved.port is not None:
            table.listening = resumed.saved.address, resumed.saved.port
        table.phase = "finished" if resumed.match.is_over else "playing"
        return table


def numbered(path: Path, number: int) -> Path:
    """``path`` for the ``number``-th game at the table: ``game.json`` -> ``game-2.json``
    (``x.waddle.json`` -> ``x-2.waddle.json``); the first game keeps ``path``."""
    if number <= 1:
        return path
    stem, dot, rest = path.name.partition(".")
    return path.with_name(f"{stem}-{number}{dot}{rest}")
