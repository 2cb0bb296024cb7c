"""The hex game's terminal view: the board, its cursor, keys, hints, help and lobby options.

:class:`GameView` is the hex game's :class:`client.ui.gameview.GameView`. Its own
screen state is the board ``cursor`` (always on a hex the player may place on; a new
hint puts it on the hint's placement), the ``double`` toggle, and ``shown``: how many items on from your own waddles the score view
shows (Tab: each player's waddles, then each pool; your own again whenever the view
opens or the game ends). While playing, the pools the cursor's hex counts for and the
active pool are outlined with their fish and every player's strength there; at
half-time the first half's board and score stay.
"""

from __future__ import annotations

import msgspec
from prompt_toolkit.filters import Filter
from prompt_toolkit.key_binding import KeyBindings

from client.games.hex import panels, scores
from client.games.hex.board import SIZES, board_extent, render_board
from client.ui.gameview import MOVES, Drawn, Field
from client.ui.gameview import GameView as Base
from client.ui.text import Fragments
from protocol.text import clean
from waddle.hex.actions import SCOUT, Place
from waddle.hex.bundled import bundled_maps
from waddle.hex.events import HalfEnded, Placed, RoundEnded, Scouted
from waddle.hex.game import Game, Result
from waddle.hex.hexgrid import Hex, distance
from waddle.hex.options import BundledMap, StandardMap
from waddle.hex.scoring import ScoreSheet

#: The game's keys in the help: (keys, what they do, in short).
HELP = (
    ("arrows / h j k l", "move the cursor between the hexes you may place on", "move the cursor"),
    ("Enter / space", "place a penguin on the cursor's hex (u takes it back)", "place a penguin"),
    ("d", "toggle: the next place uses a double", "toggle double"),
    ("s then y", "scout (asks to confirm, and says what it does)", "scout (asks first)"),
    ("mouse click", "place on the clicked hex (where the terminal has a mouse)", "place there"),
    ("Tab", "score view, game over: the next player's waddles, then each pool", "next in the score view"),
)
#: What the board's marks mean, under the keys in the help when the window has room.
LEGEND = ("Penguins show their player's letter (R B Y G P); a double shows it twice; each "
          "player's last penguin is underlined. [ ] is the cursor, * * the search bot's move (a hint, "
          "a replay's analysis), > < the active water hex, "
          "( ) the water of the pools the cursor's hex counts for, + an ice hex you may place "
          "on, { } what the score view shows. Water shows its number and, below it, its fish.")
#: The rules page of the help (RULES.md, in short).
RULES = (
    "The board: ice hexes for penguins and water hexes, some numbered, some with fish. "
    "Touching water hexes form one fishing pool. The active water hex is marked > <.",
    "Your turn: place a penguin (or one of your 2 doubles, which count as 2) on an empty ice "
    "hex next to the active hex, then go to the back of your turn track. Or scout: go to the "
    "back of the other track; you place no more this round, and next round the scouts go "
    "first, in the order they scouted.",
    "Last player: while you are the only one left on the active track you cannot scout; "
    "you place, turn after turn, until the round ends.",
    "Round end: when no empty ice is left next to the active hex, the next lowest-numbered "
    "water hex with empty ice becomes active. When there is none, the game ends.",
    "Scoring: each waddle (a group of your touching penguins, doubles count 2) scores "
    "1, 3, 6, 10, 15, 21, 28, 36 by size (with 2 players up to 10 penguins, 55). Each pool's "
    "fish go to the players with the most penguins next to it: the strongest take the best "
    "fish, the next strongest the next fish, and so on; players tied share (each scores that "
    "fish). The score view (v) shows every pool and waddle.",
    "2 players: the stronger player at a pool takes all its fish; a tie gives both all of them.",
    "Mirror match: two halves on the same map. After half-time the board is cleared, everyone "
    "gets 2 doubles again, the active hex goes from the highest number down, and the opening "
    "order is reversed. Both halves add up.",
    "Take back (u): your own last move, as long as nobody has acted since.",
)


class GameView(Base):
    """The hex game in the terminal (see the module docstring)."""

    def __init__(self, shell) -> None:
        super().__init__(shell)
        self.cursor: Hex | None = None
        self.double = False
        self.shown = 0
        self._game_number = 0
        self._first: tuple[object, Hex | None] = (None, None)
        self._result: tuple[tuple, Result] | None = None
        self._log: tuple[tuple, panels.Log] | None = None
        self._hinted = None
        self._scores_shown = (False, False)  # (game over, score view shown) at the last change

    @property
    def game(self) -> Game:
        """The engine game of the table's view."""
        return self.state.view.game

    def legal(self) -> frozenset[Hex]:
        """The ice hexes this player may place on now (empty when it is not their turn)."""
        if not self.state.my_turn:
            return frozenset()
        return frozenset(a.hex for a in self.game.legal_actions() if isinstance(a, Place))

    def first_active(self) -> Hex:
        """The game's first active hex (where the event log's places start)."""
        view = self.state.view
        if self._first[0] is not view:
            game = self.game
            self._first = (view, Game(game.map, game.players, mirror_match=game.mirror_match).active_hex)
        return self._first[1]

    def half_time(self) -> bool:
        """Whether the table pauses at half-time (the first half's board stays shown)."""
        return self.state.pause == "half-time" and self.game.half == 2

    def game_result(self) -> Result:
        """The game's :meth:`~waddle.hex.game.Game.result`, worked out once per event."""
        key = (self.state.view, self.state.version)
        if self._result is None or self._result[0] != key:
            self._result = (key, self.game.result())
        return self._result[1]

    def result(self) -> Result:
        """The score shown: half 1's alone at half-time, else the game's (live until the end)."""
        result = self.game_result()
        if self.half_time():
            first = result.halves[0]
            return Result(False, first.scores, (), (), (first,))
        return result

    def score_view(self) -> bool:
        """Whether the score view is shown: at the end always, else when asked (``v``)."""
        return self.state.finished or (self.shell.ui.scores and self.scores_available())

    def selected(self, sheet: ScoreSheet) -> scores.Item:
        """The score view's item: yourself first, then Tab order (players, then pools)."""
        players = self.game.players
        choices = scores.items(sheet, players)
        start = players.index(self.state.label) if self.state.label in players else 0
        return choices[(start + self.shown) % len(choices)]

    def suggested(self) -> Hex | None:
        """The hex of the placement the search bot suggests (a hint, a replay's best move)."""
        action = self.shell.suggestion
        return action.hex if isinstance(action, Place) else None

    def last_placed(self, half: int) -> set[Hex]:
        """The hex of each player's last penguin placed in ``half``."""
        last = {player: action.hex for player, action in self.game.moves_of_half(half)
                if isinstance(action, Place)}
        return set(last.values())

    # -- drawing ----------------------------------------------------------------------------

    def board(self, width: int, height: int) -> Drawn | None:
        game = self.game
        sheet = self.result().halves[-1]
        options = dict(active=game.active_hex, legal=self.legal(), cursor=self.cursor,
                       last=self.last_placed(game.half), suggested=self.suggested())
        tokens = game.tokens
        if self.half_time():
            tokens = game.tokens_of_half(1)
            options = dict(last=self.last_placed(1))
        elif self.score_view():
            options["highlight"] = scores.item_hexes(sheet, self.selected(sheet))
        else:
            pools = scores.outlined(sheet, game.active_hex, self.cursor)
            options["outline"] = {h for i in pools for h in sheet.pools[i].hexes}
        board = render_board(game.map, tokens, width=width, height=height, ascii=self.shell.ascii,
                             **options)
        if board is None:
            return None
        return Drawn(board.lines, board.width, len(board.lines), board.hex_at)

    def needed_size(self) -> tuple[int, int]:
        return board_extent(self.game.map, SIZES[-1])

    def panel_top(self, width: int) -> list[Fragments]:
        ascii = self.shell.ascii
        if self.half_time():
            return ([[("class:heading", "Half 1 is over: its board and score")]]
                    + panels.score_table(self.state, self.result(), None, width, ascii=ascii))
        if self.score_view():
            return self._score_view(width)
        game = self.game
        sheet = self.game_result().halves[-1]
        lines = panels.tracks(self.state, ascii)
        for i in scores.outlined(sheet, game.active_hex, self.cursor):
            note = " (active)" if game.active_hex in sheet.pools[i].hexes else ""
            lines += scores.pool_lines(self.state, game.map, sheet.pools[i], note)
        live = self.game_result() if self.live_score() else None
        return lines + panels.players(self.state, width, live=live, ascii=ascii)

    def _score_view(self, width: int) -> list[Fragments]:
        result = self.result()
        sheet = result.halves[-1]
        item = self.selected(sheet)
        title = "Score" if self.state.finished else "Live score (v closes)"
        lines = [[("class:heading", title), ("class:dim", "  Tab: next waddles or pool")]]
        lines += panels.score_table(self.state, result, item.player, width, ascii=self.shell.ascii)
        return lines + scores.item_lines(self.state, self.game.map, sheet, item)

    def event_lines(self) -> list[Fragments]:
        """The event log, extended by the events since the last frame (laid out anew for
        another view, one with fewer events, or when a seat changed: a name, a stand-in)."""
        state = self.state
        key = (state.view, tuple(state.seats))
        if self._log is None or self._log[0] != key or len(state.view.events) < self._log[1].events:
            self._log = (key, panels.Log(self.first_active()))
        panels.extend_log(state, self._log[1])
        return self._log[1].lines

    def turn_hint(self) -> Fragments:
        return panels.turn_hint(self.state, self.double)

    def status(self) -> Fragments:
        if not self.game.mirror_match:
            return []
        half = 1 if self.half_time() else self.game.half  # the half whose board is shown
        return [("class:dim", f"  half {half} of 2")]

    def pause_hint(self, pause: str) -> Fragments:
        if pause != "half-time":
            return super().pause_hint(pause)
        return [("", " any key goes on to half 2")]  # the panel says half 1 is over; its board stays

    def hints(self) -> list[tuple[str, str]]:
        if self.state.finished:
            return [("Tab next waddles/pool", "Tab next")]
        hints = [("arrows/hjkl move", "arrows move"), ("Enter place", "Enter place"),
                 ("d double", "d double"), ("s scout", "s scout")]
        return hints + ([("Tab next", "Tab next")] if self.score_view() else [])

    def help(self) -> list[tuple[str, str, str]]:
        return list(HELP)

    def legend(self) -> str:
        return LEGEND

    def rules(self) -> list[str]:
        return list(RULES)

    def live_score(self) -> bool:
        """Whether the live score is shown: with real-time score on, and in a replay."""
        return self.state.settings.options.realtime_score or self.shell.replay is not None

    def scores_available(self) -> bool:
        return self.state.finished or self.live_score()

    def score_help(self) -> tuple[str, str]:
        return "score view: every pool and waddle (live with real-time score)", "score view"

    def scores_closed(self) -> str:
        return "the score view opens once the game is over (or with real-time score)"

    def undo_help(self) -> tuple[str, str]:
        return "take back your last move (while nobody has acted since)", "take back"

    def lobby_fields(self) -> list[Field]:
        return list(LOBBY_FIELDS)

    def chapters(self, events: list) -> frozenset[str]:
        ends = {"round" for e in events if isinstance(e, RoundEnded)}
        return frozenset(ends | {"half" for e in events if isinstance(e, HalfEnded)})

    def move_text(self, events: list) -> str:
        first = events[0] if events else None
        if isinstance(first, Placed):
            return self.action_text(Place(first.hex, first.double))
        return "scout" if isinstance(first, Scouted) else "?"

    def action_text(self, action) -> str:
        """``place 1,-2`` (``double 1,-2``), or ``scout``: as the board's cells are named."""
        return str(action)

    # -- input -------------------------------------------------------------------------------

    def bindings(self, playing: Filter, finished: Filter) -> KeyBindings:
        kb = KeyBindings()
        for keys, (dx, dy) in MOVES.items():
            kb.add(*keys, filter=playing)(lambda event, dx=dx, dy=dy: self.move(dx, dy))
        kb.add("enter", filter=playing)(lambda event: self.place())
        kb.add("space", filter=playing)(lambda event: self.place())
        kb.add("d", filter=playing)(lambda event: self.toggle_double())
        kb.add("s", filter=playing)(lambda event: self.ask_scout())
        kb.add("tab", filter=playing)(lambda event: self.show_next(1))
        kb.add("s-tab", filter=playing)(lambda event: self.show_next(-1))
        for key in ("tab", "right", "l"):
            kb.add(key, filter=finished)(lambda event: self.show_next(1))
        for key in ("s-tab", "left", "h"):
            kb.add(key, filter=finished)(lambda event: self.show_next(-1))
        return kb

    def click(self, choice) -> bool:
        if choice in self.legal():
            self.cursor = choice
            self.place(choice)
            return True
        return False

    def changed(self) -> None:
        state = self.state
        if state.game_number != self._game_number:
            self._game_number, self.shown, self.cursor, self.double = state.game_number, 0, None, False
        scores_shown = (state.finished, self.score_view())
        if scores_shown[1] and scores_shown != self._scores_shown:
            self.shown = 0   # opened (v), or the game ended: your own waddles first
        self._scores_shown = scores_shown
        legal = self.legal()
        if self.cursor not in legal:
            old = self.cursor
            self.cursor = min(legal, key=lambda h: (distance(h, old) if old else 0, h)) if legal else None
        if self.double and (not state.my_turn or not self.game.doubles_left(state.label)):
            self.double = False
        self._take_hint(legal)

    def _take_hint(self, legal: frozenset[Hex]) -> None:
        """A new hint on your turn puts the cursor (and the double toggle) on its placement,
        so Enter plays it."""
        hinted = self.shell.suggestion if self.state.my_turn else None
        if hinted != self._hinted and isinstance(hinted, Place) and hinted.hex in legal:
            self.cursor, self.double = hinted.hex, hinted.double
        self._hinted = hinted

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
        """Ask to confirm scouting, saying what it does (only when scouting is legal now)."""
        state = self.state
        if state.my_turn and SCOUT in self.game.legal_actions():
            self.shell.ask(panels.scout_question(state), lambda: self.shell.act(SCOUT))
        else:
            self.shell.notify("last player placing: you cannot scout" if state.my_turn
                              else "it is not your turn")

    def show_next(self, step: int) -> None:
        """Score view: select the next (``step`` 1) or previous item (waddles, pools)."""
        if self.score_view():
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
