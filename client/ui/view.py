"""What the terminal UI reads: the table's state and the UI's own state.

A *session* (:class:`Session`) owns a :class:`TableState` and keeps it current from the
network (or, for a local game, from the engine); it calls its listeners after every
change. The UI reads the table state, keeps what only the screen needs (cursor, mode,
the double toggle) in :class:`UIState`, and sends the player's wishes through the
session's non-blocking methods. Seats and settings use the wire protocol's shapes
(:mod:`protocol.messages`) so a network session passes them through unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from protocol.messages import SeatInfo, Settings
from protocol.text import clean_name
from waddle import Action, Game, Place
from waddle.hex.hexgrid import Hex

Phase = Literal["connecting", "lobby", "playing", "finished"]
Connection = Literal["connected", "reconnecting", "closed"]

#: Lines of event log and chat kept for display.
LOG_LINES = 200


@dataclass
class TableState:
    """The table as this client knows it.

    ``phase``: connecting, lobby, playing or finished. ``connection``: connected,
    reconnecting or closed. ``seats`` and ``settings`` as the host sent them; ``owner``
    the seat that configures and starts; ``my_seat`` this client's seat (``None`` for a
    spectator). ``game`` the local engine state once started. ``log`` the game's event
    dicts (``waddle.hex.events`` ``to_dict()`` form, newest last); ``chat``
    ``(name, colour, text)`` lines (``colour``: the speaker's seat, ``None`` for a
    spectator or the host). ``turn_deadline``: with a turn timer, the :func:`time.monotonic` time at
    which a bot plays the current turn (counted from when this client saw the turn
    begin). ``record_path`` where the host saved the record; ``notice`` the last
    message for the player (a rejection, an error); ``address`` what others need to
    join (host only).
    """

    phase: Phase = "connecting"
    connection: Connection = "connected"
    seats: list[SeatInfo] = field(default_factory=list)
    settings: Settings = field(default_factory=Settings)
    owner: int | None = None
    my_seat: int | None = None
    game: Game | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    chat: list[tuple[str, str | None, str]] = field(default_factory=list)
    record_path: str | None = None
    turn_deadline: float | None = None
    notice: str = ""
    address: str = ""

    @property
    def my_colour(self) -> str | None:
        """This client's colour, or ``None`` for a spectator or before a seat is held."""
        seat = self.seat(self.my_seat)
        return seat.colour if seat else None

    @property
    def is_owner(self) -> bool:
        """Whether this client may configure and start the table."""
        return self.my_seat is not None and self.my_seat == self.owner

    @property
    def my_turn(self) -> bool:
        """Whether the game is waiting for this client's action."""
        game = self.game
        return (self.phase == "playing" and game is not None and not game.is_over
                and game.current_player is not None and game.current_player == self.my_colour)

    def seat(self, index: int | None) -> SeatInfo | None:
        """The seat numbered ``index``, or ``None``."""
        return next((s for s in self.seats if s.seat == index), None)

    def name_of(self, colour: str) -> str:
        """The cleaned display name of the player of ``colour`` (the colour if unknown)."""
        seat = next((s for s in self.seats if s.colour == colour), None)
        return clean_name(seat.name, colour) if seat else colour

    def add_log(self, events: list[dict[str, Any]]) -> None:
        """Append event dicts to the log, keeping the last :data:`LOG_LINES`."""
        self.log.extend(events)
        del self.log[:-LOG_LINES]

    def replay_log(self, game: Game) -> None:
        """Replace the log with ``game``'s history (:func:`game_events`), as after a
        snapshot: a player who rejoins sees the events played before."""
        self.log = []
        self.add_log(game_events(game))



def game_events(game: Game) -> list[dict[str, Any]]:
    """Every event of ``game`` so far as event dicts (``waddle.hex.events`` form, oldest
    first), rebuilt by replaying ``game.moves`` into a fresh game of the same map,
    players and mirror option (``game`` itself is left alone)."""
    fresh = Game(game.map, game.players, mirror_match=game.mirror_match)
    return [event.to_dict() for _, action in game.moves for event in fresh.apply(action)]


class Session(Protocol):
    """A table the UI can show and act on; every method but :meth:`run` returns at once.

    The wish methods queue a request for the session's trio task and never raise;
    the answer arrives as a change of :attr:`state` (a rejection, or a request that
    could not be queued, sets ``state.notice``).
    """

    state: TableState

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after every change of :attr:`state`."""

    async def run(self) -> None:
        """Keep :attr:`state` current until cancelled (a trio task)."""

    def act(self, action: Action) -> None:
        """Play ``action`` for this client's seat."""

    def say(self, text: str) -> None:
        """Send a chat line."""

    def configure(self, settings: Settings) -> None:
        """Change the table's settings (owner, lobby)."""

    def start(self) -> None:
        """Start the game (owner, lobby)."""

    def ready(self, ready: bool) -> None:
        """Say whether this seat is ready (lobby)."""


Mode = Literal["normal", "chat", "scout", "help", "quit"]


@dataclass
class UIState:
    """What only the screen needs: ``mode`` (normal, chat input, scout confirmation, help,
    quit confirmation), the board ``cursor``, whether the next place is a ``double``, the
    selected lobby ``field``, how many players on from yourself the waddles shown at the
    end are (``shown``, see :func:`shown_player`)."""

    mode: Mode = "normal"
    cursor: Hex | None = None
    double: bool = False
    field: int = 0
    shown: int = 0


def legal_hexes(game: Game | None) -> frozenset[Hex]:
    """The ice hexes the current player may place on (empty when scouting is all that is left)."""
    if game is None:
        return frozenset()
    return frozenset(a.hex for a in game.legal_actions() if isinstance(a, Place))


def shown_player(state: TableState, ui: UIState) -> str:
    """Game over: the player whose waddles are highlighted (yourself first, then Tab order)."""
    players = state.game.players
    start = players.index(state.my_colour) if state.my_colour in players else 0
    return players[(start + ui.shown) % len(players)]


def last_placed(state: TableState) -> Hex | None:
    """The hex of the last placement in the event log, while it is on the board."""
    for event in reversed(state.log):
        if event.get("type") == "half_ended":
            return None
        if event.get("type") == "placed":
            return tuple(event["hex"])
    return None
