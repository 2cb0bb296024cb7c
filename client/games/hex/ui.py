"""The hex game's terminal view: the board, its cursor, keys, hints, help and lobby options.

:class:`GameView` is the hex game's :class:`client.ui.gameview.GameView`. Its own
screen state is the board ``cursor`` (always on a hex the player may place on), the
``double`` toggle, and at the end ``shown``: how many players on from yourself the
waddles highlighted are (Tab).
"""

from __future__ import annotations

import msgspec
from prompt_toolkit.filters import Filter
from prompt_toolkit.key_binding import KeyBindings

from client.games.hex import panels
from client.games.hex.board import SIZES, board_extent, render_board
from client.ui.gameview import Drawn, Field
from client.ui.gameview import GameView as Base
from client.ui.text import Fragments
from protocol.text import clean
from waddle.hex.actions import SCOUT, Place
from waddle.hex.bundled import bundled_maps
from waddle.hex.events import HalfEnded, Placed
from waddle.hex.game import Game
from waddle.hex.hexgrid import Hex, distance
from waddle.hex.options import BundledMap, StandardMap

#: Cursor directions: key names -> (dx, dy) on the screen.
MOVES = {
    ("left",): (-1, 0), ("h",): (-1, 0),
    ("right",): (1, 0), ("l",): (1, 0),
    ("up",): (0, -1), ("k",): (0, -1),
    ("down",): (0, 1), ("j",): (0, 1),
}

#: The game's keys in the help: (keys, what they do, in short).
HELP = (
    ("arrows / h j k l", "move the cursor between the hexes you may place on", "move the cursor"),
    ("Enter / space", "place a penguin on the cursor's hex", "place a penguin"),
    ("d", "toggle: the next place uses a double", "toggle double"),
    ("s then y", "scout (asks to confirm)", "scout (asks first)"),
    ("mouse click", "place on the clicked hex (where the terminal has a mouse)", "place there"),
    ("Tab", "game over: show the next player's waddles", "next player's waddles"),
)
#: What the board's marks mean, under the keys in the help when the window has room.
LEGEND = ("Penguins show their player's letter (R B Y G P); a double shows it twice. "
          "[ ] is the cursor, > < the active water hex, + an ice hex you may place on, "
          "{ } a waddle of the player shown at the end of the game. "
          "Water shows its number and, below it, its fish.")


class GameView(Base):
    """The hex game in the terminal (see the module docstring)."""

    def __init__(self, shell) -> None:
        super().__init__(shell)
        self.cursor: Hex | None = None
        self.double = False
        self.shown = 0

    @property
    def game(self) -> Game:
        """The engine game of the table's view."""
        return self.state.view.game

    def legal(self) -> frozenset[Hex]:
        """The ice hexes this player may place on now (empty when it is not their turn)."""
        if not self.state.my_turn:
            return frozenset()
        return frozenset(a.hex for a in self.game.legal_actions() if isinstance(a, Place))

    def shown_player(self) -> str:
        """Game over: the player whose waddles are highlighted (yourself first, then Tab order)."""
        players = self.game.players
        start = players.index(self.state.label) if self.state.label in players else 0
        return players[(start + self.shown) % len(players)]

    def last_placed(self) -> Hex | None:
        """The hex of the last placement, while it is on the board."""
        for event in reversed(self.state.view.events):
            if isinstance(event, HalfEnded):
                return None
            if isinstance(event, Placed):
                return event.hex
        return None

    # -- drawing ----------------------------------------------------------------------------

    def board(self, width: int, height: int) -> Drawn | None:
        game = self.game
        highlight: set[Hex] = set()
        if game.is_over:
            shown = self.shown_player()
            highlight = {h for w in game.result().halves[-1].waddles if w.player == shown for h in w.hexes}
        board = render_board(game.map, game.tokens, width=width, height=height, active=game.active_hex,
                             legal=self.legal(), cursor=self.cursor, highlight=highlight,
                             last=self.last_placed(), ascii=self.shell.ascii)
        if board is None:
            return None
        return Drawn(board.fragments(), board.width, len(board.lines), board.hex_at)

    def needed_size(self) -> tuple[int, int]:
        return board_extent(self.game.map, SIZES[-1])

    def panel_top(self, width: int) -> list[Fragments]:
        if self.game.is_over:
            return panels.score_table(self.state, self.shown_player(), width, ascii=self.shell.ascii)
        return panels.tracks(self.state, self.shell.ascii) + panels.players(self.state, width)

    def event_lines(self) -> list[Fragments]:
        return [panels.event_line(self.state, e) for e in self.state.view.events if panels.logged(e)]

    def turn_hint(self) -> Fragments:
        return panels.turn_hint(self.state, self.double)

    def status(self) -> Fragments:
        game = self.game
        return [("class:dim", f"  half {game.half} of 2")] if game.mirror_match else []

    def hints(self) -> list[tuple[str, str]]:
        if self.state.finished:
            return [("Tab next player's waddles", "Tab next waddles")]
        return [("arrows/hjkl move", "arrows move"), ("Enter place", "Enter place"),
                ("d double", "d double"), ("s scout", "s scout")]

    def help(self) -> list[tuple[str, str, str]]:
        return list(HELP)

    def legend(self) -> str:
        return LEGEND

    def lobby_fields(self) -> list[Field]:
        return list(LOBBY_FIELDS)

    # -- input -------------------------------------------------------------------------------

    def bindings(self, playing: Filter, finished: Filter) -> KeyBindings:
        kb = KeyBindings()
        for keys, (dx, dy) in MOVES.items():
            kb.add(*keys, filter=playing)(lambda event, dx=dx, dy=dy: self.move(dx, dy))
        kb.add("enter", filter=playing)(lambda event: self.place())
        kb.add("space", filter=playing)(lambda event: self.place())
        kb.add("d", filter=playing)(lambda event: self.toggle_double())
        kb.add("s", filter=playing)(lambda event: self.ask_scout())
        for key in ("tab", "right", "l"):
            kb.add(key, filter=finished)(lambda event: self.show_next_waddles(1))
        for key in ("s-tab", "left", "h"):
            kb.add(key, filter=finished)(lambda event: self.show_next_waddles(-1))
        return kb

    def click(self, choice) -> bool:
        if choice in self.legal():
            self.cursor = choice
            self.place(choice)
            return True
        return False

    def changed(self) -> None:
        legal = self.legal()
        if self.cursor not in legal:
            old = self.cursor
            self.cursor = min(legal, key=lambda h: (distance(h, old) if old else 0, h)) if legal else None
        state = self.state
        if self.double and (not state.my_turn or not self.game.doubles_left(state.label)):
            self.double = False

    # -- actions ------------------------------------------------------------------------------

    def move(self, dx: int, dy: int) -> None:
        """Move the cursor to the nearest legal hex in screen direction ``(dx, dy)``."""
        self.cursor = step_cursor(self.cursor, self.legal(), dx, dy)
        self.shell.redraw()

    def place(self, hex: Hex | None = None) -> None:
        """Place on ``hex`` (default: the cursor), a double if the toggle is on."""
        hex = hex or self.cursor
        if not self.state.my_turn or hex is None:
            self.shell.notify("it is not your turn" if not self.state.my_turn else "")
            return
        double, self.double = self.double, False
        self.shell.act(Place(hex, double))

    def toggle_double(self) -> None:
        """Toggle whether the next place uses a double (only with doubles left)."""
        state = self.state
        if state.my_turn and self.game.doubles_left(state.label):
            self.double = not self.double
            self.shell.redraw()
        else:
            self.shell.notify("no doubles left" if state.my_turn else "it is not your turn")

    def ask_scout(self) -> None:
        """Ask to confirm scouting (only when scouting is legal now)."""
        state = self.state
        if state.my_turn and SCOUT in self.game.legal_actions():
            self.shell.ask("Scout ahead?", lambda: self.shell.act(SCOUT))
        else:
            self.shell.notify("last player placing: you cannot scout" if state.my_turn
                              else "it is not your turn")

    def show_next_waddles(self, step: int) -> None:
        """Game over: highlight the waddles of the next (``step`` 1) or previous player."""
        self.shown += step
        self.shell.redraw()


def step_cursor(cursor: Hex | None, legal: frozenset[Hex], dx: int, dy: int) -> Hex | None:
    """The legal hex nearest to ``cursor`` in screen direction ``(dx, dy)`` (x right, y down).

    Screen position of ``(q, r)`` is ``(2q + r, 2r)`` in half-cells (the brick layout of
    :mod:`client.games.hex.board`); a hex counts if it lies ahead, and the cost is the distance
    ahead plus twice the distance sideways. With no cursor, the first legal hex.
    """
    if cursor is None or cursor not in legal:
        return min(legal) if legal else None
    x, y = 2 * cursor[0] + cursor[1], 2 * cursor[1]
    best, best_cost = cursor, None
    for hex in legal:
        hx, hy = 2 * hex[0] + hex[1] - x, 2 * hex[1] - y
        ahead = hx * dx + hy * dy
        if ahead <= 0:
            continue
        cost = ahead + 2 * abs(hx * dy - hy * dx)
        if best_cost is None or cost < best_cost:
            best, best_cost = hex, cost
    return best


# -- the lobby's hex options -------------------------------------------------------------------


def _options(settings, **changes):
    """``settings`` with its hex options changed."""
    return msgspec.structs.replace(settings, options=msgspec.structs.replace(settings.options, **changes))


def _cycle(values: tuple, value, step: int):
    index = values.index(value) if value in values else 0
    return values[(index + step) % len(values)]


def _show_map(settings) -> str:
    choice = settings.options.map
    if isinstance(choice, StandardMap):
        return "standard"
    return clean(getattr(choice, "name", None) or getattr(choice, "path", "")) or "?"


def _step_map(settings, step: int):
    """Cycle: the standard map, then each bundled map (a host's map file is left by stepping)."""
    name = _cycle(("standard", *bundled_maps()), _show_map(settings), step)
    return _options(settings, map=StandardMap() if name == "standard" else BundledMap(name=name))


def _show_layout(settings) -> str:
    choice = settings.options.map
    if not isinstance(choice, StandardMap):
        return "-"
    return "random" if choice.seed is None else f"seed {choice.seed}"


def _step_layout(settings, step: int):
    """The standard map's layout seed: random, 0, 1, 2, ... (left from 0: random)."""
    choice = settings.options.map
    if not isinstance(choice, StandardMap):
        return settings
    seed = choice.seed
    if seed is None:
        seed = 0 if step > 0 else None
    elif seed + step < 0:
        seed = None
    else:
        seed += step
    return _options(settings, map=StandardMap(seed=seed))


def _on_off(value: bool) -> str:
    return "on" if value else "off"


LOBBY_FIELDS = (
    Field("Map", _show_map, _step_map),
    Field("Layout", _show_layout, _step_layout),
    Field("Mirror match", lambda s: _on_off(s.options.mirror_match),
          lambda s, d: _options(s, mirror_match=not s.options.mirror_match)),
    Field("Real-time score", lambda s: _on_off(s.options.realtime_score),
          lambda s, d: _options(s, realtime_score=not s.options.realtime_score)),
)
