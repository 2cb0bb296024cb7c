"""The full-screen terminal UI, and trio running as a guest on its asyncio loop.

:class:`WaddleApp` is a prompt-toolkit application over one
:class:`~client.ui.view.Session`: the layout reads ``session.state`` and the app's
:class:`~client.ui.view.UIState`; the key bindings (:mod:`client.ui.keys`) call the
methods below, which change the UI state or send a wish through the session's
non-blocking methods. The session calls :meth:`WaddleApp.changed` after every change,
which schedules a redraw.

:func:`run_app` runs it: prompt-toolkit owns the asyncio loop of the one thread, and
trio (the session's task) runs as a guest on it (trio's "guest mode"). Quitting
cancels trio's scope, waits for trio to finish, then leaves the application, which
blanks the alternate screen, leaves it and restores the terminal.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.mouse_events import MouseEventType
from prompt_toolkit.output import ColorDepth, create_output

from client.ui import panels
from client.ui.board import SIZES, Board, board_extent, render_board
from client.ui.keys import make_bindings
from client.ui.lobby import FIELDS, lobby_screen
from client.ui.style import make_style
from client.ui.view import (
    Mode,
    Session,
    TableState,
    UIState,
    last_placed,
    legal_hexes,
    shown_player,
)
from protocol.messages import MAX_CHAT
from waddle import SCOUT, Place
from waddle.hex.hexgrid import Hex, distance

#: Columns kept for the side panel next to the board, at least.
PANEL_WIDTH = 34
#: The smallest window the UI draws in (columns, rows); smaller shows a message.
MIN_SIZE = (60, 16)
#: Seconds a lone Esc waits for the rest of an escape sequence (and for a longer key binding)
#: before it counts as Esc.
ESCAPE_WAIT = 0.05


class _BoardControl(FormattedTextControl):
    """The board's text with one mouse handler for the whole board."""

    def __init__(self, text, on_mouse) -> None:
        super().__init__(text)
        self._on_mouse = on_mouse

    def mouse_handler(self, mouse_event):
        return self._on_mouse(mouse_event)


@dataclass(frozen=True, slots=True)
class _Frame:
    """The board drawn for one window size and state version (``board`` None: too small)."""

    columns: int
    rows: int
    board: Board | None


class WaddleApp:
    """The terminal UI of one session.

    Args:
        session: the table to show and act on.
        ascii: 7-bit characters only.
        colour: use colour (``False`` for ``NO_COLOR``).
        mouse: ask the terminal for mouse clicks.
        input, output: prompt-toolkit input and output (tests pass a pipe input and a
            dummy output); default: the terminal.
    """

    def __init__(self, session: Session, *, ascii: bool = False, colour: bool = True,
                 mouse: bool = True, input=None, output=None) -> None:
        self.session = session
        self.ui = UIState()
        self.ascii = ascii
        self.cancel = None
        self._version = 0
        self._frame_cache: tuple[tuple, _Frame] | None = None
        self._quitting = False
        self._asked = None  # settings sent to the host and not yet confirmed (lobby)
        self._notice = ""  # the notice already seen (a new one may be the host refusing them)
        self.output = output or create_output()
        self.chat = Buffer(multiline=False)
        self._focus = Window(FormattedTextControl(self._banner, focusable=True), height=1)
        self._chat_window = Window(BufferControl(self.chat), height=1,
                                   get_line_prefix=lambda *_: [("class:key", " say: ")])
        in_chat = Condition(lambda: self.ui.mode == "chat")
        body = self._body_height
        self._game = VSplit([
            Window(_BoardControl(self._board, self._mouse), width=self._board_width, height=body),
            Window(width=1, char="|" if ascii else "│", style="class:dim", height=body),
            Window(FormattedTextControl(self._panel), width=self._panel_width, height=body),
        ])
        self._text = Window(FormattedTextControl(self._text_screen), height=body)
        root = HSplit([
            self._focus,
            DynamicContainer(lambda: self._game if self._screen() == "game" else self._text),
            ConditionalContainer(self._chat_window, filter=in_chat),
            ConditionalContainer(Window(FormattedTextControl(self._hints), height=1), filter=~in_chat),
        ])
        self.application = Application(
            layout=Layout(root, focused_element=self._focus),
            key_bindings=make_bindings(self),
            style=make_style(colour),
            color_depth=None if colour else ColorDepth.MONOCHROME,
            full_screen=True,
            # Leave the alternate screen blank: some terminals (tmux 3.3) reflow it to the
            # size it was entered at before restoring the shell's screen, and lines wider
            # than that then spill into the shell's screen (after an enlarged window).
            erase_when_done=True,
            mouse_support=mouse,
            refresh_interval=1.0,  # the turn timer's countdown
            input=input,
            output=self.output,
        )
        # Esc alone is also how escape sequences start: prompt-toolkit waits ttimeoutlen
        # (default 0.5 s) and then timeoutlen (1 s) before taking it as Esc, and a key typed
        # meanwhile joined it (Esc on the chat line was slow and could be swallowed).
        self.application.ttimeoutlen = ESCAPE_WAIT
        self.application.timeoutlen = ESCAPE_WAIT
        session.subscribe(self.changed)
        self.changed()

    @property
    def state(self) -> TableState:
        """The session's table state."""
        return self.session.state

    # -- state changes -----------------------------------------------------------------

    def changed(self) -> None:
        """Something changed: keep the cursor on a legal hex and schedule a redraw."""
        self._version += 1
        state, ui = self.state, self.ui
        if state.settings == self._asked or state.notice not in ("", self._notice):
            self._asked = None
        self._notice = state.notice
        legal = legal_hexes(state.game) if state.my_turn else frozenset()
        if ui.cursor not in legal:
            old = ui.cursor
            ui.cursor = min(legal, key=lambda h: (distance(h, old) if old else 0, h)) if legal else None
        if ui.double and (not state.my_turn or not state.game.doubles_left(state.my_colour)):
            ui.double = False
        self.application.invalidate()

    def set_mode(self, mode: Mode) -> None:
        """Switch the UI mode (normal, chat, scout, help, quit)."""
        self.ui.mode = mode
        self.application.layout.focus(self._chat_window if mode == "chat" else self._focus)
        self.changed()

    def _send(self, wish, *args) -> None:
        """Call a session wish method (it returns at once; refusals land in ``state.notice``)."""
        wish(*args)
        self.changed()

    # -- game actions ---------------------------------------------------------------------

    def move(self, dx: int, dy: int) -> None:
        """Move the cursor to the nearest legal hex in screen direction ``(dx, dy)``."""
        legal = legal_hexes(self.state.game) if self.state.my_turn else frozenset()
        self.ui.cursor = step_cursor(self.ui.cursor, legal, dx, dy)
        self.changed()

    def place(self, hex: Hex | None = None) -> None:
        """Place on ``hex`` (default: the cursor), a double if the toggle is on."""
        hex = hex or self.ui.cursor
        if not self.state.my_turn or hex is None:
            self.state.notice = "it is not your turn" if not self.state.my_turn else ""
            self.changed()
            return
        double, self.ui.double = self.ui.double, False
        self._send(self.session.act, Place(hex, double))

    def toggle_double(self) -> None:
        """Toggle whether the next place uses a double (only with doubles left)."""
        state = self.state
        if state.my_turn and state.game.doubles_left(state.my_colour):
            self.ui.double = not self.ui.double
        else:
            state.notice = "no doubles left" if state.my_turn else "it is not your turn"
        self.changed()

    def ask_scout(self) -> None:
        """Ask to confirm scouting (only when scouting is legal now)."""
        state = self.state
        if state.my_turn and SCOUT in state.game.legal_actions():
            self.set_mode("scout")
        else:
            state.notice = ("last player placing: you cannot scout" if state.my_turn
                            else "it is not your turn")
            self.changed()

    def confirm(self, yes: bool) -> None:
        """Answer the scout or quit question."""
        mode = self.ui.mode
        self.set_mode("normal")
        if yes and mode == "scout":
            self._send(self.session.act, SCOUT)
        elif yes and mode == "quit":
            self.quit()

    def _mouse(self, mouse_event) -> object:
        """Mouse handler of the board: a click on a legal hex places there."""
        frame = self._frame()
        if mouse_event.event_type != MouseEventType.MOUSE_UP or frame.board is None:
            return NotImplemented
        x, y = mouse_event.position
        hex = frame.board.hex_at(x, y - self._board_top(frame))
        if self.state.my_turn and hex in legal_hexes(self.state.game):
            self.ui.cursor = hex
            self.place(hex)
            return None
        return NotImplemented

    def show_next_waddles(self, step: int) -> None:
        """Game over: highlight the waddles of the next (``step`` 1) or previous player."""
        self.ui.shown += step
        self.changed()

    # -- lobby and chat -------------------------------------------------------------------

    def lobby_step(self, dy: int, dx: int) -> None:
        """Owner: choose a setting (``dy``) or change the chosen one (``dx``).

        Quick steps build on the settings last asked for, not yet confirmed by the host.
        """
        state, ui = self.state, self.ui
        if not state.is_owner:
            return
        ui.field = (ui.field + dy) % (len(FIELDS) + 1)
        if dx and ui.field < len(FIELDS):
            self._asked = FIELDS[ui.field].step(self._asked or state.settings, dx)
            self._send(self.session.configure, self._asked)
        self.changed()

    def lobby_enter(self) -> None:
        """Owner: start the game."""
        if self.state.is_owner:
            self._send(self.session.start)

    def toggle_ready(self) -> None:
        """Say ready (or not ready any more)."""
        seat = self.state.seat(self.state.my_seat)
        if seat is not None:
            self._send(self.session.ready, not seat.ready)

    def start_chat(self) -> None:
        """Open the chat line."""
        self.chat.reset()
        self.set_mode("chat")

    def send_chat(self) -> None:
        """Send the chat line (if not empty) and close it."""
        text = self.chat.text.strip()[:MAX_CHAT]
        self.chat.reset()
        self.set_mode("normal")
        if text:
            self._send(self.session.say, text)

    # -- quitting ------------------------------------------------------------------------

    def request_quit(self, force: bool = False) -> None:
        """``q`` / Ctrl-C: a player in a game is asked first (a second Ctrl-C quits); else quit."""
        state = self.state
        if not force and state.phase == "playing" and state.my_seat is not None and self.ui.mode != "quit":
            self.set_mode("quit")
        else:
            self.quit()

    def quit(self) -> None:
        """Stop the session's trio task; the application exits once trio has finished."""
        if self._quitting:
            return
        self._quitting = True
        if self.cancel is not None:
            self.cancel()
        else:
            self.exit()

    def exit(self) -> None:
        """Leave the application (once; safe to call when it is not running)."""
        app = self.application
        if app.is_running and not app.future.done():
            app.exit()

    # -- drawing -------------------------------------------------------------------------

    def _size(self) -> tuple[int, int]:
        size = self.output.get_size()
        return size.columns, size.rows

    def _screen(self) -> str:
        columns, rows = self._size()
        if columns < MIN_SIZE[0] or rows < MIN_SIZE[1]:
            return "small"
        if self.ui.mode == "help":
            return "help"
        if self.state.game is None:
            return "lobby"
        return "game" if self._frame().board is not None else "small"

    def _needed_size(self) -> tuple[int, int]:
        """The smallest window ``(columns, rows)`` that shows the game: :data:`MIN_SIZE`,
        or larger when the map with the smallest cells and the panel need more."""
        if self.state.game is None:
            return MIN_SIZE
        width, height = board_extent(self.state.game.map, SIZES[-1])
        return max(MIN_SIZE[0], width + PANEL_WIDTH + 1), max(MIN_SIZE[1], height + 2)

    def _frame(self) -> _Frame:
        columns, rows = self._size()
        key = (self._version, columns, rows)
        if self._frame_cache is None or self._frame_cache[0] != key:
            self._frame_cache = (key, _Frame(columns, rows, self._draw_board(columns - PANEL_WIDTH - 1, rows - 2)))
        return self._frame_cache[1]

    def _draw_board(self, width: int, height: int) -> Board | None:
        state, ui = self.state, self.ui
        game = state.game
        highlight: set[Hex] = set()
        if game.is_over:
            shown = shown_player(state, ui)
            highlight = {h for w in game.result().halves[-1].waddles if w.player == shown for h in w.hexes}
        return render_board(
            game.map, game.tokens, width=width, height=height, active=game.active_hex,
            legal=legal_hexes(game) if state.my_turn else (), cursor=ui.cursor,
            highlight=highlight, last=last_placed(state), ascii=self.ascii)

    def _board_width(self) -> int:
        board = self._frame().board
        return board.width + 1 if board else 1

    def _panel_width(self) -> Dimension:
        return Dimension.exact(max(1, self._size()[0] - self._board_width() - 1))

    def _body_height(self) -> Dimension:
        return Dimension.exact(max(1, self._size()[1] - 2))

    def _board(self):
        """The board's fragments, centred vertically in the rows it has."""
        frame = self._frame()
        if frame.board is None:
            return []
        return [("", "\n" * self._board_top(frame))] + frame.board.fragments()

    @staticmethod
    def _board_top(frame: _Frame) -> int:
        """Blank lines above the board (it is centred vertically)."""
        return (frame.rows - 2 - len(frame.board.lines)) // 2

    def _panel(self):
        frame = self._frame()
        return panels.side_panel(self.state, self.ui, self._panel_width().preferred, frame.rows - 2,
                                 ascii=self.ascii)

    def _banner(self):
        return panels.banner(self.state, self.ui)

    def _hints(self):
        return panels.hints(self.state, self.ui, self._size()[0])

    def _text_screen(self):
        screen = self._screen()
        columns, rows = self._size()
        if screen == "help":
            return panels.help_screen(columns, rows - 2)
        if screen == "lobby":
            return lobby_screen(self.state, self.ui, rows - 2, ascii=self.ascii)
        need_columns, need_rows = self._needed_size()
        return [("class:notice", f"The window is too small ({columns}x{rows}).\n"
                                 f"Make it at least {need_columns}x{need_rows}.\n"
                                 "q quits.")]


def step_cursor(cursor: Hex | None, legal: frozenset[Hex], dx: int, dy: int) -> Hex | None:
    """The legal hex nearest to ``cursor`` in screen direction ``(dx, dy)`` (x right, y down).

    Screen position of ``(q, r)`` is ``(2q + r, 2r)`` in half-cells (the brick layout of
    :mod:`client.ui.board`); a hex counts if it lies ahead, and the cost is the distance
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


async def run_app(app: WaddleApp) -> None:
    """Run ``app`` with its session's trio task as a guest on this asyncio loop.

    Returns when the player quits or the session ends; an error of the session is
    raised here, after the terminal has been restored.
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future = loop.create_future()
    scope = trio.CancelScope()

    async def main() -> None:
        with scope:
            await app.session.run()

    def finished(outcome) -> None:
        done.set_result(outcome)
        app.exit()

    app.cancel = scope.cancel
    trio.lowlevel.start_guest_run(
        main,
        done_callback=finished,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        run_sync_soon_not_threadsafe=loop.call_soon,
        host_uses_signal_set_wakeup_fd=True,
    )
    try:
        await app.application.run_async(pre_run=lambda: done.done() and app.exit())
    finally:
        scope.cancel()
        outcome = await done
    outcome.unwrap()
