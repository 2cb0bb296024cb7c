"""What a client knows about the table, in one object, readable synchronously.

:class:`TableState` is fed the host's messages (``docs/protocol.md``) by the connection
(:mod:`client.core`) and keeps: the connection :class:`Status`, the game (its ruleset,
named by ``welcome``), the lobby (phase, settings, seats, owner), this client's seat
(label, name) or spectator role, the game's :class:`waddle.ruleset.View` for this
client's audience (built from the ``started``/``snapshot`` view data and advanced by
each ``played`` event), the event version, the chat and the last rejection. It is the
only record of the table on the client: scripts, bots and the terminal UI all read it.
It does no I/O, so a UI can read it at any time and tests can drive it without a network.

Listeners (``state.listeners``, plain callables with no arguments) are called after
every change; the terminal UI adds one that schedules a redraw.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

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
    Undone,
    Watching,
    Welcome,
    clean,
    clean_name,
    shown,
)
from waddle.errors import ViewError
from waddle.ruleset import Outcome, Ruleset, View, get_ruleset

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
    """One chat line, cleaned again on arrival and as printed (:func:`protocol.clean`,
    :func:`protocol.text.shown`): the speaker's ``name``, their seat's ``label``
    (``None``: a spectator or the host) and the ``text``."""

    name: str
    label: str | None
    text: str


class Desync(Exception):
    """An event does not follow from the view (a gap in versions, or events the game's
    view refuses); the client must resync."""


@lru_cache(maxsize=256)
def _printed_name(name: str, label: str) -> str:
    """A seat's name cleaned and as printed (cached: every frame names each seat often)."""
    return shown(clean_name(name, label))


class TableState:
    """The table as one client sees it. Read any attribute at any time.

    Attributes:
        status: the connection :class:`Status`.
        closed_reason: why the client closed for good (``None`` while not closed).
        retry: while connecting or reconnecting, what the client is doing about it (e.g.
            "host not answering (connection refused), retry 3 in 4 s; Ctrl-C stops"),
            else ``None``.
        host_stopped: what the host said when it stopped (``closing`` ``host_stopped``:
            whether the game is saved and how it goes on, cleaned), until the client is
            connected again; else ``None``.
        ruleset: the table's game (``None`` before ``welcome``).
        club: whether the table is one of a club's (``welcome`` ``club``): its owner, not
            the host, starts it.
        phase: ``"lobby"``, ``"playing"`` or ``"finished"`` (``None`` before the first lobby).
        settings: the table's :class:`protocol.Settings` (``None`` before the first lobby).
        seats: the seats, in seat order (:class:`protocol.SeatInfo`).
        owner: the number of the seat that may configure and start, or ``None``.
        label, name: this client's seat label and (cleaned) name once seated (``None`` otherwise).
        spectator: whether this client watches.
        view: the game as this client may know it (``None`` in the lobby).
        version: the last event version applied (0 in the lobby).
        chat: the last :data:`CHAT_LINES` chat lines, oldest first.
        last_rejection: the last :class:`protocol.Rejected` received, or ``None``.
        last_played: the last :class:`protocol.Played` event applied, or ``None``.
        last_undone: the last :class:`protocol.Undone` event applied, or ``None``.
        bots: for each action of the game so far, the bot kind that chose it (``None``:
            its player); a take-back removes the last.
        choosers: the same for every action the view's events show, taken-back ones
            included, in the order they came (what the event log shows).
        pause: what the game is paused for (``"half-time"``), else ``None``; ``pause_left``:
            its seconds left when the host said so.
        game_number: the game's number at the table (1, then 2 after a rematch, ...).
        listeners: callables run (no arguments) after every change.
    """

    def __init__(self) -> None:
        self.status = Status.CONNECTING
        self.closed_reason: str | None = None
        self.retry: str | None = None
        self.host_stopped: str | None = None
        self.ruleset: Ruleset | None = None
        self.club = False
        self.phase: str | None = None
        self.settings: Settings | None = None
        self.seats: list[SeatInfo] = []
        self.owner: int | None = None
        self.label: str | None = None
        self.name: str | None = None
        self.spectator = False
        self.view: View | None = None
        self.version = 0
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_LINES)
        self.last_rejection: Rejected | None = None
        self.last_played: Played | None = None
        self.last_undone: Undone | None = None
        self.bots: list[str | None] = []
        self.choosers: list[str | None] = []
        self.pause: str | None = None
        self.pause_left: float | None = None
        self.game_number = 1
        self.listeners: list[Callable[[], None]] = []

    # -- derived views ----------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        """This client's seat number, or ``None`` (a spectator, or not seated yet)."""
        return next((s.seat for s in self.seats if s.label == self.label), None) \
            if self.label is not None else None

    @property
    def is_owner(self) -> bool:
        """Whether this client may configure and start the table."""
        return self.seat is not None and self.seat == self.owner

    @property
    def my_turn(self) -> bool:
        """Whether the game is on, not paused, and this client's seat may act (in the view)."""
        view = self.view
        return view is not None and not view.is_over and view.audience is not None \
            and view.audience in view.to_act() and self.pause is None

    @property
    def can_undo(self) -> bool:
        """Whether this seat may take back its last action (its player chose it, nobody
        acted since, the game allows it; the host decides)."""
        view = self.view
        return view is not None and self.seat is not None and bool(self.bots) \
            and self.bots[-1] is None and view.can_undo(self.seat)

    @property
    def waiting_for_me(self) -> bool:
        """Whether the table's pause waits for this seat to go on."""
        seat = self.seat_info(self.seat)
        return self.pause is not None and seat is not None and seat.waiting

    @property
    def finished(self) -> bool:
        """Whether the game has ended (the view reached its end)."""
        return self.view is not None and self.view.is_over

    def legal_actions(self) -> Sequence[Any]:
        """This seat's legal actions now (empty unless :attr:`my_turn`)."""
        return self.view.legal_actions() if self.my_turn else ()

    def outcome(self) -> Outcome | None:
        """The score as this client knows it (final once finished); ``None`` in the lobby."""
        return self.view.outcome() if self.view is not None else None

    def seat_info(self, number: int | None) -> SeatInfo | None:
        """The seat numbered ``number``, or ``None``."""
        return next((s for s in self.seats if s.seat == number), None)

    def name_of(self, label: str) -> str:
        """The name at the seat labelled ``label``, cleaned and as printed
        (:func:`protocol.text.shown`; the label itself if unknown)."""
        seat = next((s for s in self.seats if s.label == label), None)
        return _printed_name(seat.name, label) if seat else label

    # -- changes ----------------------------------------------------------------------

    def changed(self) -> None:
        """Run every listener (after a change)."""
        for listener in list(self.listeners):
            listener()

    def set_status(self, status: Status, reason: str | None = None) -> None:
        """Set the connection status and notify: ``reason`` is why it closed (``closed``)
        or what the client does about it (``connecting``, ``reconnecting``: :attr:`retry`).
        Connected again, :attr:`host_stopped` is forgotten."""
        self.status = status
        if status is Status.CLOSED:
            self.closed_reason = reason
        self.retry = reason if status in (Status.CONNECTING, Status.RECONNECTING) else None
        if status is Status.CONNECTED:
            self.host_stopped = None
        self.changed()

    def apply(self, message: object) -> None:
        """Update from one host message and notify the listeners.

        Messages that carry no table state (``ack``, ``ping``, ...) are ignored.

        Raises:
            Desync: ``played`` (or a ``started``/``snapshot`` view) does not follow (the
                caller resyncs).
            ValueError: ``welcome`` names a game this client does not know.
        """
        match message:
            case Welcome():
                self.ruleset, self.club = get_ruleset(message.game), message.club
            case Seated():
                self.label, self.name, self.spectator = message.label, shown(clean(message.name)), False
            case Watching():
                self.label, self.spectator = None, True
            case Lobby():
                self._lobby(message)
            case Snapshot():
                self._lobby(message.lobby)
                self.view = None if message.view is None else self._follow(message.view)
                self.version = message.version
                self.bots, self.choosers = list(message.bots), list(message.bots)
            case Started():
                self.view = self._follow(message.view)
                self.version = message.version
                self.phase = "playing"
                self.bots, self.choosers = [], []
                self.last_played = self.last_undone = None
            case Played():
                self._played(message)
            case Undone():
                self._undone(message)
            case Chat():
                self.chat.append(ChatLine(shown(clean(message.name)), message.label, shown(clean(message.text))))
            case Rejected():
                self.last_rejection = message
            case _:
                return
        self.changed()

    def _lobby(self, lobby: Lobby) -> None:
        self.phase, self.settings, self.owner = lobby.phase, lobby.settings, lobby.owner
        self.seats = list(lobby.seats)
        self.pause, self.pause_left, self.game_number = lobby.pause, lobby.pause_left, lobby.game

    def _follow(self, data: Any) -> View:
        try:
            return self.ruleset.follow(data, self.label)
        except ViewError as exc:
            raise Desync(f"the game's view does not replay here: {exc}") from None

    def _next(self, event: Played | Undone, follow: Callable[[list[Any]], None]) -> bool:
        """Apply one numbered event with ``follow`` (the view's ``apply`` or ``undo``);
        ``False`` if it was already applied.

        Raises:
            Desync: a gap in versions, or the view refuses the events.
        """
        if event.version <= self.version:
            return False                 # already applied (a resend after a resync)
        if self.view is None or event.version != self.version + 1:
            raise Desync(f"event {event.version} after version {self.version}")
        try:
            follow(event.events)
        except ViewError as exc:
            raise Desync(f"event {event.version}: {exc}") from None
        self.version = event.version
        return True

    def _played(self, played: Played) -> None:
        if self._next(played, self.view.apply if self.view else None):
            self.last_played = played
            self.bots.append(played.bot)
            self.choosers.append(played.bot)
            if self.view.is_over:
                self.phase = "finished"

    def _undone(self, undone: Undone) -> None:
        if self._next(undone, self.view.undo if self.view else None):
            self.last_undone = undone
            if self.bots:
                self.bots.pop()
