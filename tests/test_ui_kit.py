"""UI test kit: a table state built from host messages, and a controller over it (no
network, no screen). Imported by the UI tests; no tests here.

The state is the client's one :class:`client.state.TableState`, fed the messages a host
would send (``welcome``, ``seated``, ``lobby``, ``started``, ``played``...), so the UI
is tested on exactly what it reads in a game.
"""

from __future__ import annotations

from typing import Any

from client.state import TableState
from client.ui.controller import Controller
from protocol.messages import Lobby, Played, Seated, SeatInfo, Settings, Snapshot, Started, Welcome
from waddle.hex.game import Game
from waddle.hex.options import HexOptions
from waddle.hex.ruleset import HexMatch


def text(fragments) -> str:
    return "".join(t for _, t in fragments)


def board_text(drawn) -> str:
    """A drawn board's text, its lines joined by line breaks."""
    return "\n".join(text(line) for line in drawn.lines)


def lines(fragments) -> list[str]:
    return text(fragments).split("\n")


def seat(i: int, label: str, name: str, *, bot: str | None = None, connected: bool = False,
         standin: bool = False, ready: bool = True) -> SeatInfo:
    return SeatInfo(seat=i, label=label, colour=label, name=name, connected=connected, ready=ready,
                    bot=bot, standin=standin)


def hex_settings(players: int, **options: Any) -> Settings:
    table = {k: options.pop(k) for k in ("turn_timer", "bots", "seat_order") if k in options}
    return Settings(players=players, options=HexOptions(**options), **table)


def lobby(seats: list[SeatInfo], *, phase: str = "lobby", owner: int | None = 0,
          settings: Settings | None = None) -> Lobby:
    return Lobby(phase=phase, settings=settings or hex_settings(len(seats)), seats=seats, owner=owner)


def table_state(seats: list[SeatInfo], *, label: str | None = None, game: Game | None = None,
                phase: str | None = None, owner: int | None = 0,
                settings: Settings | None = None) -> TableState:
    """A hex table as a client seated at ``label`` (``None``: a spectator) knows it:
    the lobby, and with ``game`` the game so far (a ``snapshot`` of it)."""
    state = TableState()
    state.apply(Welcome(protocol=2, server="test", game="hex", code_required=False, phase="lobby"))
    if label is not None:
        state.apply(Seated(seat=0, label=label, name=label, token="t"))
    phase = phase or ("lobby" if game is None else "finished" if game.is_over else "playing")
    table = lobby(seats, phase=phase, owner=owner, settings=settings)
    if game is None:
        state.apply(table)
    else:
        state.apply(Snapshot(version=1 + len(game), view=HexMatch(game).view(None), lobby=table))
    return state


def start(state: TableState, game: Game) -> None:
    """The host starts ``game`` (no moves yet)."""
    state.apply(Started(version=1, view=HexMatch(game).view(None)))


def play(state: TableState, game: Game, action) -> list:
    """The host plays ``action`` in ``game`` and tells ``state``; return the events."""
    seat = game.players.index(game.current_player)
    events = game.apply(action)
    state.apply(Played(version=state.version + 1, seat=seat, events=events))
    return events


class FakeSession:
    """A session with no network: ``state`` as given; wishes are recorded (``wishes``)
    and succeed unless ``refuse`` says why not."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.wishes: list[tuple[str, Any]] = []
        self.refuse: str | None = None
        self.address = ""
        self.record_path: str | None = None

    @property
    def error(self) -> str:
        return self.refuse or ""

    def subscribe(self, listener) -> None:
        self.state.listeners.append(listener)

    def _wish(self, name: str, value: Any = None) -> bool:
        if self.refuse:
            return False
        self.wishes.append((name, value))
        return True

    def act(self, action) -> bool:
        return self._wish("act", action)

    def say(self, text: str) -> bool:
        return self._wish("say", text)

    def configure(self, settings) -> bool:
        return self._wish("configure", settings)

    def start(self) -> bool:
        return self._wish("start")

    def ready(self, ready: bool) -> bool:
        return self._wish("ready", ready)

    def undo(self) -> bool:
        return self._wish("undo")

    def go_on(self) -> bool:
        return self._wish("go_on")

    def rematch(self, accept: bool) -> bool:
        return self._wish("rematch", accept)


def controller(state: TableState, **options) -> Controller:
    """A controller over ``state`` (its game's view made), with a :class:`FakeSession`."""
    control = Controller(FakeSession(state), **options)
    control.changed()
    return control
