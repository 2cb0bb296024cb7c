"""The seam between the terminal UI's shell and a game: :class:`GameView`.

The shell (:mod:`client.ui.app`, :mod:`client.ui.controller`, the lobby, chat,
reconnects, banners, the help frame) knows no game. Each game's package in
:mod:`client.games` has a ``ui`` module whose ``GameView`` subclass draws the game's
board and panel, binds its keys, writes its event lines and hints, and offers its lobby
options. It reads the table from :attr:`GameView.state` and acts through the
:class:`Shell` (which sends the action, asks the player a yes/no question, or shows a
notice). Every drawing method is a pure function of the state and the view's own
screen state (a cursor, a selection): prompt-toolkit fragments ``[(style, text), ...]``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from prompt_toolkit.filters import Filter
from prompt_toolkit.key_binding import KeyBindings

from client.state import TableState
from client.ui.text import Fragments
from client.ui.uistate import UIState


class Shell(Protocol):
    """What a game's view may ask of the shell."""

    state: TableState
    ui: UIState
    ascii: bool
    #: The action the search bot suggests (a hint, or the best move of a replay's step),
    #: for the game's view to draw on the board; ``None``: none.
    suggestion: Any
    #: The replay shown (:class:`client.ui.replay.Replay`), ``None`` at a live table: a
    #: replay shows everything a table may (e.g. the live score).
    replay: Any

    def act(self, action: Any) -> None:
        """Send ``action`` for this client's seat (a refusal shows as a notice)."""

    def ask(self, question: str, on_yes: Callable[[], None]) -> None:
        """Ask the player ``question``; ``on_yes()`` runs if they answer y."""

    def notify(self, text: str) -> None:
        """Show ``text`` to the player (in the banner) and redraw."""

    def redraw(self) -> None:
        """Schedule a redraw (after a change of the view's own state)."""


@dataclass(frozen=True, slots=True)
class Field:
    """One lobby setting: its ``label``, how to ``show`` it and how to ``step`` it by
    +1 or -1 (both on the table's :class:`protocol.Settings`)."""

    label: str
    show: Callable[[Any], str]
    step: Callable[[Any, int], Any]


#: Cursor keys every game's view binds: key names -> (dx, dy) on the screen (arrows and
#: h j k l).
MOVES = {
    ("left",): (-1, 0), ("h",): (-1, 0),
    ("right",): (1, 0), ("l",): (1, 0),
    ("up",): (0, -1), ("k",): (0, -1),
    ("down",): (0, 1), ("j",): (0, 1),
}


@dataclass(frozen=True, slots=True)
class Drawn:
    """The game's board drawn for a space: its ``lines`` (each a tuple of ``(style,
    text)`` fragments; a line unchanged since the last frame may be the same object,
    which draws faster), its ``width`` and ``height`` in characters, and ``at(x, y)``:
    what a click at that place of it chooses (``None``: nothing)."""

    lines: tuple[tuple[tuple[str, str], ...], ...]
    width: int
    height: int
    at: Callable[[int, int], Any]


class GameView(ABC):
    """A game's part of the terminal UI (see the module docstring)."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.shell.state

    # -- drawing -------------------------------------------------------------------------

    @abstractmethod
    def board(self, width: int, height: int) -> Drawn | None:
        """The board in at most ``width`` x ``height`` characters, or ``None`` if it does not fit."""

    @abstractmethod
    def needed_size(self) -> tuple[int, int]:
        """The smallest ``(columns, rows)`` the board needs (the panel not counted)."""

    @abstractmethod
    def panel_top(self, width: int) -> list[Fragments]:
        """The side panel's lines above the events (turn order, players, the scores)."""

    @abstractmethod
    def event_lines(self) -> list[Fragments]:
        """One line per event worth a line in the log, oldest first."""

    @abstractmethod
    def turn_hint(self) -> Fragments:
        """What the banner says after "YOUR TURN" (what to do, the options left)."""

    def status(self) -> Fragments:
        """Extra facts for the banner's end (e.g. "half 1 of 2")."""
        return []

    @abstractmethod
    def hints(self) -> list[tuple[str, str]]:
        """The game's key hints for the bottom line, ``(long, short)`` each, for the
        current phase (playing or finished)."""

    @abstractmethod
    def help(self) -> list[tuple[str, str, str]]:
        """The game's keys for the help: ``(keys, what they do, in short)`` each."""

    def legend(self) -> str:
        """What the board's marks mean, for the help (empty: nothing to say)."""
        return ""

    def rules(self) -> list[str]:
        """The game's rules for the help's rules pages, one paragraph a string (a paragraph
        may start with a heading ending in a colon)."""
        return []

    def scores_available(self) -> bool:
        """Whether the score view (the ``v`` key, :attr:`UIState.scores`) can be shown now."""
        return False

    def score_help(self) -> tuple[str, str] | None:
        """What the score view (``v``) shows, for the help: ``(long, short)``; ``None``: the
        game has no score view."""
        return None

    def scores_closed(self) -> str:
        """What ``v`` says while the score view cannot be shown."""
        return "there is no score view now"

    def undo_help(self) -> tuple[str, str] | None:
        """What a take-back (``u``) takes back, for the help: ``(long, short)``; ``None``:
        the game has no take-backs."""
        return None

    def pause_hint(self, pause: str) -> Fragments:
        """What the banner says during the table's pause called ``pause`` (e.g. half-time)."""
        return [("", f" {pause}: press any key to go on")]

    def chapters(self, events: list[Any]) -> frozenset[str]:
        """What an action's ``events`` end, of ``"round"`` and ``"half"`` (where the replay
        viewer's round and half keys stop); the default: nothing."""
        return frozenset()

    def move_text(self, events: list[Any]) -> str:
        """One action in a few words, from its ``events`` as a spectator saw them (the
        replay viewer's move list); the default: the first event's name."""
        return type(events[0]).__name__.lower() if events else "?"

    def action_text(self, action: Any) -> str:
        """An action the search bot suggests, in a few words (default: ``str(action)``)."""
        return str(action)

    def lobby_fields(self) -> list[Field]:
        """The game's own lobby settings (shown between the seat count and the timer)."""
        return []

    # -- input ----------------------------------------------------------------------------

    @abstractmethod
    def bindings(self, playing: Filter, finished: Filter) -> KeyBindings:
        """The game's key bindings; ``playing`` and ``finished`` are true in the normal
        mode of those phases, with the board on the screen."""

    def click(self, choice: Any) -> bool:
        """A click chose ``choice`` (from :attr:`Drawn.at`); return whether it did something."""
        return False

    @abstractmethod
    def changed(self) -> None:
        """The table (or the shell's score view, ``v``) changed: bring the view's own state
        in line (a cursor on a legal place, a score view that opened)."""


def game_view(name: str, shell: Shell) -> GameView:
    """The terminal view of the game called ``name`` (a ruleset name), for ``shell``.

    Raises:
        ValueError: this client cannot show that game.
    """
    from client.games import part

    return part(name, "ui").GameView(shell)
