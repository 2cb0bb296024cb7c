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
from protocol.messages import MAX_MESSAGE, Rejected, Snapshot
from protocol.text import clean
from server.log import Entry, audiences, frame_of
from server.outbox import in_turn
from server.seats import Peer
from waddle.ruleset import Audience


class AudiencePart:
    """The table's audiences and what is sent to them (see the module docstring)."""

    def audience(self, peer: Peer) -> Audience:
        """What ``peer`` may see: its seat's number, or ``None`` for a spectator."""
        return self.seats.number(peer.seat) if peer.seat is not None else None

    def snapshot(self, audience: Audience) -> Snapshot:
        """The whole table now as ``audience`` may see it: version, view (``None`` in the
        lobby) and lobby."""
        view = self.match.view(audience) if self.match is not None else None
        return Snapshot(version=self.version, view=view, lobby=self.lobby(),
                        bots=list(self.bot_kinds) if view is not None else [])

    def send(self, peer: Peer, message: Any) -> None:
        """Send ``message`` to ``peer`` alone (through the outbox)."""
        self.outbox.send(peer, encode(message))

    def _catch_up(self, peer: Peer, last_version: int) -> None:
        """Send ``peer`` every event after ``last_version`` as its audience sees them, or a
        snapshot when the log lacks some (:meth:`server.log.EventLog.frames_after`)."""
        audience = self.audience(peer)
        frames = self.log.frames_after(last_version, audience)
        if frames is None:
            return self.send(peer, self.snapshot(audience))
        for frame in frames:
            self.outbox.send(peer, frame)

    def _per_audience(self, make: Callable[[Audience], Any]) -> list[Any]:
        """``make(audience)`` for every audience, in :func:`~server.log.audiences` order;
        made once for all in a game without secrets (every audience sees the same:
        :attr:`waddle.ruleset.Ruleset.secrets`)."""
        every = audiences(len(self.seats))
        if not self.ruleset.secrets:
            return [make(None)] * len(every)
        return [make(audience) for audience in every]

    def _append(self, entry: Entry) -> None:
        """Add the next event (its frames per audience) to the log and send it to everybody."""
        self.log.append(entry)
        self._send_event(entry)

    def _send_event(self, entry: Entry, but: Peer | None = None) -> None:
        """Send every connection but ``but`` its audience's frame of the event ``entry``."""
        for peer in list(self.peers):
            if peer is not but:
                self.outbox.send(peer, frame_of(entry, self.audience(peer)))

    def _broadcast(self, message: Any) -> None:
        """Send ``message`` (what everybody may see) to every connection, encoded once."""
        frame = encode(message)
        for peer in list(self.peers):
            self.outbox.send(peer, frame)

    @in_turn
    def broadcast_lobby(self) -> None:
        """Send everybody the lobby (:meth:`server.lobby.LobbyPart.lobby`); wake the driver."""
        self._broadcast(self.lobby())
        self.wake()

    def _reject(self, peer: Peer, request: str, code: str, message: str, id: str | None = None) -> None:
        """Refuse ``request`` of ``peer``. The rules' reason for an ``illegal`` action may
        quote what only that seat may see (its hand), so the log gets its code alone."""
        message = clean(message, MAX_MESSAGE)  # it may quote what the client sent
        peer.log_rejection(request, code, "the rules' reason, for the seat only" if code == "illegal" else message)
        self.send(peer, Rejected(request=request, code=code, message=message, id=id))
