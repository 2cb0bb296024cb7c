"""Sending to audiences: what each connection at a table may see, and sending it.

An *audience* is a seat (its number) or the spectators (``None``:
:data:`waddle.ruleset.Audience`); every connection at the table belongs to one, and is
sent only what its audience may see: its view in a :class:`~protocol.messages.Snapshot`,
each event as the game redacts it for that audience (one frame per distinct view,
:mod:`server.log`), and what everybody sees (the lobby, chat). Every frame goes through
the table's :class:`~server.outbox.Outbox`, so what one turn sends reaches each
connection in one write, in order. :class:`AudiencePart` is the part of
:class:`server.table.Table` that does this (a mixin: it reads the table's seats, peers,
match, log and outbox).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol.framing import encode
from protocol.messages import MAX_MESSAGE, Rejected, Snapshot, Sync
from protocol.text import clean
from server.log import Entry, audiences, frame_of
from server.outbox import in_turn
from server.seats import Peer
from server.turns import Asks, Told, retold, told
from waddle.ruleset import Audience


class AudiencePart:
    """The table's audiences and what is sent to them (see the module docstring)."""

    def audience(self, peer: Peer) -> Audience:
        """What ``peer`` may see: its seat's number, or ``None`` for a spectator."""
        return self.seats.number(peer.seat) if peer.seat is not None else None

    def snapshot(self, audience: Audience, asks: Asks = None) -> Snapshot:
        """The whole table now as ``audience`` may see it: version, view (``None`` in the
        lobby) and lobby; who may act and what, for a connection that ``asks``
        (:mod:`server.turns`)."""
        view = self.match.view(audience) if self.match is not None else None
        return Snapshot(version=self.version, view=view, lobby=self.lobby(),
                        bots=list(self.bot_kinds) if view is not None else [],
                        **told(self.match, audience, asks))

    def _sync(self, peer: Peer, message: Sync) -> None:
        """The whole table again, on the same connection: a snapshot for its audience."""
        if peer.seat is None and not peer.watching:
            return self._reject(peer, "sync", "not_joined", "join or watch first")
        self.send(peer, self.snapshot(self.audience(peer), peer.asks))

    def send(self, peer: Peer, message: Any) -> None:
        """Send ``message`` to ``peer`` alone (through the outbox)."""
        self.outbox.send(peer, encode(message))

    def _catch_up(self, peer: Peer, last_version: int) -> None:
        """Send ``peer`` every event after ``last_version`` as its audience sees them (the
        last one told what is true now, if it asked: :func:`server.turns.retold`), or a
        snapshot when the log lacks some (:meth:`server.log.EventLog.frames_after`)."""
        audience = self.audience(peer)
        frames = self.log.frames_after(last_version, audience)
        if frames is None:
            return self.send(peer, self.snapshot(audience, peer.asks))
        for number, frame in enumerate(frames, 1):
            if number == len(frames):
                frame = retold(frame, self.match, audience, peer.asks)
            self.outbox.send(peer, frame)

    def _per_audience(self, make: Callable[[Audience], Any]) -> list[Any]:
        """``make(audience)`` for every audience, in :func:`~server.log.audiences` order;
        made once for all in a game without secrets (every audience sees the same:
        :attr:`waddle.ruleset.Ruleset.secrets`)."""
        every = audiences(len(self.seats))
        if not self.ruleset.secrets:
            return [make(None)] * len(every)
        return [make(audience) for audience in every]

    def _append(self, entry: Entry, turns: Told) -> None:
        """Add the next event (its frames per audience) to the log and send it to everybody
        (``turns``: its frames for the connections that asked who may act and what)."""
        self.log.append(entry)
        self._send_event(entry, turns=turns)

    def _send_event(self, entry: Entry, but: Peer | None = None, turns: Told | None = None) -> None:
        """Send every connection but ``but`` its audience's frame of the event ``entry``:
        ``turns``'s, with who may act and what, to a connection that asked."""
        for peer in list(self.peers):
            if peer is not but:
                audience, asks = self.audience(peer), peer.asks
                self.outbox.send(peer, turns.frame(audience, asks) if asks and turns else frame_of(entry, audience))

    def _broadcast(self, message: Any) -> None:
        """Send ``message`` (what everybody may see) to every connection, encoded once."""
        frame = encode(message)
        for peer in list(self.peers):
            self.outbox.send(peer, frame)

    @in_turn
    def broadcast_lobby(self) -> None:
        """Send everybody the lobby (:meth:`server.lobby.LobbyPart.lobby`); wake the driver
        and the club's listing (:meth:`server.table.Table.shown_changed`)."""
        self.shown_changed()
        self._broadcast(self.lobby())
        self.wake()

    def _reject(self, peer: Peer, request: str, code: str, message: str, id: str | None = None) -> None:
        """Refuse ``request`` of ``peer``. The rules' reason for an ``illegal`` action may
        quote what only that seat may see (its hand), so the log gets its code alone."""
        message = clean(message, MAX_MESSAGE)  # it may quote what the client sent
        peer.log_rejection(request, code, "the rules' reason, for the seat only" if code == "illegal" else message)
        self.send(peer, Rejected(request=request, code=code, message=message, id=id))
