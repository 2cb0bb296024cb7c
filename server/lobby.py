"""The lobby and seats of a table: who sits where, who watches, who comes and goes.

People join a free seat (with the join code, if the table has one: its guesses are
slowed by :mod:`server.guard`), reclaim their seat with its token (catching up on the
events they missed), watch as spectators, say they are ready, talk (``say``), and leave
or drop; the owner (:attr:`server.seats.Seats.owner`) changes the settings and starts.
The lobby message (:meth:`LobbyPart.lobby`) is the table as everybody sees it, in the
lobby and after: seats, settings, the pause, who asked for a rematch. A seat whose
connection drops is held for a reclaim (freed after the lobby grace, in the lobby, by
:mod:`server.driver`). :class:`LobbyPart` is this part of :class:`server.table.Table` (a
mixin: it reads and changes the table's seats, peers, settings and phase). Rejection
codes: ``docs/protocol.md``.
"""

from __future__ import annotations

from typing import Any

import msgspec
import trio

from protocol.messages import (
    MAX_CHAT,
    Chat,
    Configure,
    Join,
    Lobby,
    Ready,
    Reclaim,
    Say,
    Seated,
    Settings,
    Start,
    Watch,
    Watching,
)
from protocol.text import clean, clean_name
from server.logbudget import peer_log
from server.outbox import in_turn
from server.seats import Peer, Seat


class LobbyPart:
    """The table's lobby and seats (see the module docstring)."""

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

    @in_turn
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

    # -- who may come in --------------------------------------------------------------------

    def can_seat(self, peer: Peer, message: Any) -> bool:
        """Whether ``message`` from ``peer`` would take a seat now: a ``reclaim`` with a
        seat's token, or a ``join`` with the right code (a guess: :attr:`guard`) in the
        lobby while a seat is free."""
        if isinstance(message, Reclaim):
            return self.seats.by_token(message.token) is not None
        return isinstance(message, Join) and self.join_refusal(message.code, peer.address) is None

    def code_refusal(self, code: str | None, address: str | None) -> tuple[str, str] | None:
        """``None`` when ``code`` lets a guest from ``address`` in (an open table, or the
        right code), else the rejection's code and message: ``code_required`` when none
        was given (not a guess: the table says it has a code), ``bad_code``, or
        ``rate_limited`` when the guess was not even compared (too many wrong codes from
        there or in all: :class:`server.guard.Guard`)."""
        if self.code is None:
            return None
        if not code:
            return "code_required", "this table needs a join code"
        verdict = self.guard.check(address, code, self.code)
        if verdict.ok:
            return None
        return ("bad_code" if verdict.checked else "rate_limited"), verdict.why

    def join_refusal(self, code: str | None, address: str | None) -> tuple[str, str] | None:
        """Why a ``join`` with ``code`` from ``address`` would be refused now (a rejection
        code and message: ``code_required``, ``bad_code``, ``rate_limited``, ``started``,
        ``table_full``), or
        ``None``."""
        refusal = self.code_refusal(code, address)
        if refusal is not None:
            return refusal
        if self.phase != "lobby":
            return "started", "the game has started: reclaim your seat or watch"
        if len(self.seats) >= self.settings.players:
            return "table_full", f"all {self.settings.players} seats are taken"
        return None

    # -- comings and goings -----------------------------------------------------------------

    @in_turn
    def disconnect(self, peer: Peer) -> None:
        """``peer``'s connection ended: its seat (if any) is held for a reclaim (in the
        lobby for ``lobby_grace`` seconds, then freed by the driver); a pause or a rematch
        no longer waits for it."""
        self._go(peer)
        seat = peer.seat
        if seat is not None and seat.peer is peer:
            seat.peer = None
            seat.away_since = trio.current_time()
            peer_log.info("%s (%s) disconnected", seat.name, seat.label)
            if self.pause is not None:
                self.go_on(seat)
            self.broadcast_lobby()
            self._rematch_if_all_asked()

    @in_turn
    def leave(self, peer: Peer) -> None:
        """``peer`` leaves: in the lobby its seat is freed; in a game it is held."""
        self.depart(peer)
        self.outbox.close(peer, "bye", "goodbye")

    @in_turn
    def depart(self, peer: Peer) -> None:
        """``peer`` is no longer at the table, its connection open (a club's ``leave_table``):
        in the lobby its seat is freed; in a game it is held for a reclaim, and the next
        game (a rematch) is played without it unless its person comes back first."""
        seat = peer.seat
        if seat is not None and self.phase == "lobby":
            self.seats.remove(seat)
            seat.peer = None
            peer.seat = None
            self._go(peer)
            self.broadcast_lobby()
        else:
            if seat is not None and seat.peer is peer:
                seat.left = True
                self.rematch.discard(seat)
            self.disconnect(peer)
        peer.seat, peer.watching = None, False

    def _come(self, peer: Peer) -> None:
        """``peer`` is at the table from now on (seated or watching)."""
        self.peers.add(peer)
        self.shown_changed()

    def _go(self, peer: Peer) -> None:
        """``peer`` is no longer at the table."""
        if peer in self.peers:
            self.peers.discard(peer)
            self.shown_changed()

    def _attach(self, seat: Seat, peer: Peer) -> None:
        """``peer`` holds ``seat`` from now on (and the seat its SSH key, if it has one); a
        connection that held it is closed."""
        old = seat.peer
        if old is not None and old is not peer:
            old.seat = None
            self._go(old)
            self.outbox.close(old, "replaced", "the seat was reclaimed by another connection")
        seat.peer, seat.away_since, seat.left, peer.seat = peer, None, False, seat
        seat.fingerprint = peer.fingerprint or seat.fingerprint
        self._come(peer)
        self.standins.discard(seat)
        self.wake()

    def _seated(self, peer: Peer, seat: Seat) -> None:
        self.send(peer, Seated(seat=self.seats.number(seat), label=seat.label, name=seat.name,
                               token=seat.token))

    def _spectator_names(self) -> list[str]:
        return [p.name for p in self.peers if p.watching]

    # -- the lobby's messages ---------------------------------------------------------------

    def _joined_already(self, peer: Peer, request: str) -> bool:
        """Whether ``peer`` has a seat or watches already (then ``request`` is refused
        ``already_joined``): one connection, one place at the table."""
        if not (peer.seat or peer.watching):
            return False
        self._reject(peer, request, "already_joined", "this connection already joined")
        return True

    def _join(self, peer: Peer, message: Join) -> None:
        if self._joined_already(peer, "join"):
            return
        refusal = self.join_refusal(message.code, peer.address)
        if refusal is not None:
            return self._reject(peer, "join", *refusal)
        name = clean_name(message.name, f"Player {len(self.seats) + 1}")
        seat = self.seats.add(self.seats.unique_name(name, self._spectator_names()), message.label)
        self._attach(seat, peer)
        peer_log.info("%s joined as %s", seat.name, seat.label)
        self._seated(peer, seat)
        self.send(peer, self.snapshot(self.audience(peer), peer.asks))
        self.broadcast_lobby()

    def _reclaim(self, peer: Peer, message: Reclaim) -> None:
        if self._joined_already(peer, "reclaim"):
            return
        seat = self.seats.by_token(message.token)
        if seat is None:
            return self._reject(peer, "reclaim", "bad_token", "no seat has this token")
        self._attach(seat, peer)
        peer_log.info("%s reclaimed %s", seat.name, seat.label)
        self._seated(peer, seat)
        self._catch_up(peer, message.last_version)
        self.broadcast_lobby()

    def _watch(self, peer: Peer, message: Watch) -> None:
        if self._joined_already(peer, "watch"):
            return
        refusal = self.code_refusal(message.code, peer.address)
        if refusal is not None:
            return self._reject(peer, "watch", *refusal)
        peer.watching = True
        peer.name = self.seats.unique_name(clean_name(message.name, "spectator"), self._spectator_names())
        self._come(peer)
        self.send(peer, Watching())
        self._catch_up(peer, message.last_version)
        self.send(peer, self.lobby())

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
