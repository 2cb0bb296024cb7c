"""What a client knows about the table, readable synchronously from one object.

:class:`TableState` is fed the host's messages (``docs/protocol.md``) by the connection
(:mod:`client.core`) and keeps: the connection :class:`Status`, the lobby (phase,
settings, seats, owner), this client's seat (colour, name) or spectator role, a replica
of the game (a :class:`waddle.Game` rebuilt from the ``started``/``snapshot`` record with
:func:`waddle.hex.record.from_record` and advanced by applying each ``played`` action), the
event version, the chat log and the last rejection. It does no I/O, so a UI can read it
at any time and tests can drive it without a network.

Listeners (``state.listeners``, plain callables with no arguments) are called after
every change; the terminal UI adds one that calls ``app.invalidate()``.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from protocol import (
    Chat,
    Lobby,
    Played,
    Rejected,
    Seated,
    SeatInfo,
    Settings,
    Snapshot,
    Started,
    Watching,
    clean,
)
from protocol.actions import to_engine
from waddle import Action, Game
from waddle.errors import IllegalActionError
from waddle.hex.record import from_record

#: Chat lines kept (the oldest are dropped first).
CHAT_LINES = 200


class Status(enum.StrEnum):
    """The connection's status: ``connecting`` (first attempt), ``connected``,
    ``reconnecting`` (lost, trying again with backoff) or ``closed`` (for good)."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat line; ``name`` and ``text`` cleaned again on arrival (:func:`protocol.clean`)."""

    name: str
    colour: str | None
    text: str


class Desync(Exception):
    """An event does not follow from the replica (a gap in versions, or an action the
    local engine refuses or that yields other events); the client must resync."""


class TableState:
    """The table as one client sees it. Read any attribute at any time.

    Attributes:
        status: the connection :class:`Status`.
        closed_reason: why the client closed for good (``None`` while not closed).
        phase: ``"lobby"``, ``"playing"`` or ``"finished"`` (``None`` before the first lobby).
        settings: the table's :class:`protocol.Settings` (``None`` before the first lobby).
        seats: the seats, in turn order (:class:`protocol.SeatInfo`).
        owner: the colour of the seat that may configure and start, or ``None``.
        colour, name: this client's seat and (cleaned) name once seated (``None`` otherwise).
        spectator: whether this client watches.
        game: the local replica of the game (``None`` in the lobby).
        version: the last event version applied (0 in the lobby).
        chat: the last :data:`CHAT_LINES` chat lines, oldest first.
        last_rejection: the last :class:`protocol.Rejected` received, or ``None``.
        last_played: the last :class:`protocol.Played` event applied, or ``None``.
        listeners: callables run (no arguments) after every change.
    """

    def __init__(self) -> None:
        self.status = Status.CONNECTING
        self.closed_reason: str | None = None
        self.phase: str | None = None
        self.settings: Settings | None = None
        self.seats: list[SeatInfo] = []
        self.owner: str | None = None
        self.colour: str | None = None
        self.name: str | None = None
        self.spectator = False
        self.game: Game | None = None
        self.version = 0
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_LINES)
        self.last_rejection: Rejected | None = None
        self.last_played: Played | None = None
        self.listeners: list[Callable[[], None]] = []

    # -- derived views ----------------------------------------------------------------

    @property
    def my_turn(self) -> bool:
        """Whether the game is on and this client's seat is to act (in the replica)."""
        game = self.game
        return (game is not None and not game.is_over and self.colour is not None
                and game.current_player == self.colour)

    @property
    def finished(self) -> bool:
        """Whether the game has ended (the replica reached its end)."""
        return self.game is not None and self.game.is_over

    def legal_actions(self) -> tuple[Action, ...]:
        """This seat's legal actions now (empty unless :attr:`my_turn`)."""
        return self.game.legal_actions() if self.my_turn else ()

    def live_scores(self) -> dict[str, int]:
        """Each player's live total VP (final once finished); empty in the lobby."""
        if self.game is None:
            return {}
        return dict(zip(self.game.players, self.game.live_totals()))

    def seat_name(self, colour: str) -> str:
        """The name at ``colour``'s seat (the colour itself if unknown)."""
        return next((s.name for s in self.seats if s.colour == colour), colour)

    # -- changes ----------------------------------------------------------------------

    def changed(self) -> None:
        """Run every listener (after a change)."""
        for listener in list(self.listeners):
            listener()

    def set_status(self, status: Status, reason: str | None = None) -> None:
        """Set the connection status (and the reason when closing); notify."""
        self.status = status
        if status is Status.CLOSED:
            self.closed_reason = reason
        self.changed()

    def apply(self, message: object) -> None:
        """Update from one host message and notify the listeners.

        Messages that carry no table state (``welcome``, ``ack``, ``ping``, ...) are ignored.

        Raises:
            Desync: ``played`` does not follow from the replica (the caller resyncs).
            waddle.RecordError: a ``started``/``snapshot`` record does not replay.
        """
        match message:
            case Seated():
                self.colour, self.name, self.spectator = message.colour, clean(message.name), False
            case Watching():
                self.colour, self.spectator = None, True
            case Lobby():
                self._lobby(message)
            case Snapshot():
                self._lobby(message.lobby)
                self.game = None if message.record is None else from_record(message.record,
                                                                            source="snapshot")
                self.version = message.version
            case Started():
                self.game = from_record(message.record, source="started")
                self.version = message.version
                self.phase = "playing"
            case Played():
                self._played(message)
            case Chat():
                self.chat.append(ChatLine(clean(message.name), message.colour, clean(message.text)))
            case Rejected():
                self.last_rejection = message
            case _:
                return
        self.changed()

    def _lobby(self, lobby: Lobby) -> None:
        self.phase, self.settings, self.owner = lobby.phase, lobby.settings, lobby.owner
        self.seats = list(lobby.seats)

    def _played(self, played: Played) -> None:
        if played.version <= self.version:
            return                       # already applied (a resend after a resync)
        game = self.game
        if game is None or played.version != self.version + 1:
            raise Desync(f"event {played.version} after version {self.version}")
        action = to_engine(played.action)
        if game.current_player != played.player:
            raise Desync(f"event {played.version}: {played.player} played, "
                         f"but it is {game.current_player}'s turn here")
        try:
            events = game.apply(action)
        except IllegalActionError as exc:
            raise Desync(f"event {played.version}: {action} is illegal here: {exc}") from None
        if [_json(e.to_dict()) for e in events] != _json(played.events):
            game.pop()
            raise Desync(f"event {played.version}: {action} yields other events here")
        self.version = played.version
        self.last_played = played
        if game.is_over:
            self.phase = "finished"


def _json(value):
    """``value`` with tuples as lists (engine dicts hold tuples, wire dicts lists)."""
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value

