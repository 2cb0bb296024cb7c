"""The full-screen terminal UI, and trio running as a guest on its asyncio loop.

:class:`WaddleApp` is a prompt-toolkit application over one session
(:class:`client.ui.session.RemoteSession`): the layout reads the table's state
(``session.state``), the shell's :class:`~client.ui.uistate.UIState` and the game's
view (:class:`~client.ui.gameview.GameView`); the key bindings (:mod:`client.ui.keys`)
call the :class:`~client.ui.controller.Controller`, which changes the UI state or sends
a wish through the session. Every change schedules a redraw.

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

from client.state import TableState
from client.ui import analysis, hints, panels, screendiff
from client.ui.canvas import Canvas
from client.ui.controller import Controller
from client.ui.gameview import Drawn
from client.ui.keys import make_bindings
from client.ui.lobby import lobby_screen
from client.ui.style import make_style
from client.ui.text import fit_rows, join_lines, split_lines, wrap_line
from client.ui.uistate import Mode

#: Columns kept for the side panel next to the board, at least.
PANEL_WIDTH = 34
#: On a wide window the side panel keeps this share of the columns, where the board still
#: fits beside it (its event lines are about 55 columns): a third.
PANEL_SHARE = 3
#: Rows the banner may take at most: it wraps into the rows the body spares (the board
#: keeps its size), else it is cut with an ellipsis.
BANNER_ROWS = 3
#: The smallest window the UI draws in (columns, rows); smaller shows a message.
MIN_SIZE = (60, 16)
#: Seconds a lone Esc waits for the rest of an escape sequence (and for a longer key binding)
#: before it counts as Esc.
ESCAPE_WAIT = 0.05


@dataclass(frozen=True, slots=True)
class _Frame:
    """The board drawn for one window size and state version (``board`` None: too small)."""

    columns: int
    rows: int
    board: Drawn | None


class WaddleApp:
    """The terminal UI of one session.

    Args:
        session: the table to show and act on.
        ascii: 7-bit characters only.
        colour: use colour (``False`` for ``NO_COLOR``).
        mouse: ask the terminal for mouse clicks.
        bell: ring the terminal bell when your turn starts (the window title says so too).
        input, output: prompt-toolkit input and output (tests pass a pipe input and a
            dummy output); default: the terminal.
    """

    def __init__(self, session, *, ascii: bool = False, colour: bool = True,
                 mouse: bool = True, bell: bool = True, input=None, output=None) -> None:
        self.session = session
        self.ascii = ascii
        self._frame_cache: tuple[tuple, _Frame] | None = None
        self._banner_cache: tuple[tuple, list] | None = None
        self.output = output or create_output()
        self.controller = Controller(session, ascii=ascii, bell=bell, redraw=self._invalidate,
                                     focus=self._focus_for, exit=self.exit, alert=self._alert,
                                     clear=self._clear, visible=lambda: self._screen() == "game")
        self._focus = Window(FormattedTextControl(self._banner, focusable=True),
                             height=lambda: Dimension.exact(len(self._banner_lines())))
        self._chat_window = Window(BufferControl(self.controller.chat), height=1,
                                   get_line_prefix=lambda *_: [("class:key", " say: ")])
        in_chat = Condition(lambda: self.ui.mode == "chat")
        body = self._body_height
        self._game = VSplit([
            Canvas(lines=self._board, width=self._board_width, height=body, on_mouse=self._mouse),
            Canvas(self._separator, width=1, height=body),
            Canvas(self._panel, width=self._panel_width, height=body),
        ])
        self._text = Window(FormattedTextControl(self._text_screen), height=body)
        root = HSplit([
            self._focus,
            DynamicContainer(lambda: self._game if self._screen() == "game" else self._text),
            ConditionalContainer(self._chat_window, filter=in_chat),
            ConditionalContainer(Canvas(self._hints, height=1), filter=~in_chat),
        ])
        screendiff.install()
        self.application = Application(
            layout=Layout(root, focused_element=self._focus),
            key_bindings=make_bindings(self.controller),
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
        self.application.before_render += lambda _: self.controller.tick()
        self.controller.changed()

    @property
    def state(self) -> TableState:
        """The session's table state."""
        return self.session.state

    @property
    def ui(self):
        """The shell's UI state."""
        return self.controller.ui

    def _invalidate(self) -> None:
        if hasattr(self, "application"):
            self.application.invalidate()

    def _alert(self, ring: bool, title: str) -> None:
        """Set the window title and, if ``ring``, ring the terminal's bell."""
        self.output.set_title(title)
        if ring:
            self.output.bell()
        self.output.flush()

    def _clear(self) -> None:
        """Erase the terminal and draw the whole screen again on the next frame."""
        if hasattr(self, "application") and self.application.is_running:
            self.application.renderer.clear()

    def _focus_for(self, mode: Mode) -> None:
        self.application.layout.focus(self._chat_window if mode == "chat" else self._focus)

    def quit(self) -> None:
        """Stop the session and leave (as ``q`` confirmed)."""
        self.controller.quit()

    def exit(self) -> None:
        """Leave the application (once; safe to call when it is not running)."""
        app = self.application
        if app.is_running and not app.future.done():
            app.exit()

    def _mouse(self, mouse_event) -> object:
        """Mouse handler of the board: a click hands what it points at to the game's view."""
        frame = self._frame()
        if mouse_event.event_type != MouseEventType.MOUSE_UP or frame.board is None:
            return NotImplemented
        x, y = mouse_event.position
        choice = frame.board.at(x, y - self._board_top(frame))
        if choice is not None and self.controller.view.click(choice):
            return None
        return NotImplemented

    # -- drawing -------------------------------------------------------------------------

    def _size(self) -> tuple[int, int]:
        size = self.output.get_size()
        return size.columns, size.rows

    def _screen(self) -> str:
        columns, rows = self._size()
        screen = "game"
        if columns < MIN_SIZE[0] or rows < MIN_SIZE[1]:
            screen = "small"
        elif self.ui.mode == "help":
            screen = "help"
        elif self.state.view is None or self.controller.view is None:
            screen = "lobby"
        elif self._frame().board is None:
            screen = "small"
        return screen

    def _needed_size(self) -> tuple[int, int]:
        """The smallest window ``(columns, rows)`` that shows the game: :data:`MIN_SIZE`,
        or larger when the game's smallest board and the panel need more."""
        if self.state.view is None or self.controller.view is None:
            return MIN_SIZE
        width, height = self.controller.view.needed_size()
        return max(MIN_SIZE[0], width + PANEL_WIDTH + 1), max(MIN_SIZE[1], height + 2)

    def _frame(self) -> _Frame:
        """The board for the window: the largest that leaves the panel its share of a wide
        window (:data:`PANEL_SHARE`), else the largest that leaves it :data:`PANEL_WIDTH`."""
        columns, rows = self._size()
        key = (self.controller.version, columns, rows)
        if self._frame_cache is None or self._frame_cache[0] != key:
            board = None
            for panel in dict.fromkeys((max(PANEL_WIDTH, columns // PANEL_SHARE), PANEL_WIDTH)):
                board = self.controller.view.board(columns - panel - 1, rows - 2)
                if board is not None:
                    break
            self._frame_cache = (key, _Frame(columns, rows, board))
        return self._frame_cache[1]

    def _board_width(self) -> int:
        board = self._frame().board
        return board.width + 1 if board else 1

    def _panel_width(self) -> Dimension:
        return Dimension.exact(max(1, self._size()[0] - self._board_width() - 1))

    def _body_height(self) -> Dimension:
        """The rows between the banner and the bottom line."""
        return Dimension.exact(max(1, self._size()[1] - len(self._banner_lines()) - 1))

    def _board(self) -> tuple:
        """The board's lines, centred vertically in the rows it has."""
        frame = self._frame()
        if frame.board is None:
            return ()
        return ((),) * self._board_top(frame) + frame.board.lines

    def _board_top(self, frame: _Frame) -> int:
        """Blank lines above the board: it is centred vertically under a one-row banner and
        stays where it is under a taller one, as far as the rows above it allow."""
        return max(0, (frame.rows - 2 - frame.board.height) // 2 - (len(self._banner_lines()) - 1))

    def _panel(self):
        controller = self.controller
        width, height = self._panel_width().preferred, self._body_height().preferred
        if controller.replay is not None:
            lines = analysis.replay_panel(self.state, controller.view, controller.replay,
                                          controller.analyst.batch, width, height, ascii=self.ascii)
            return join_lines(lines[:height], width, ascii=self.ascii)
        return panels.side_panel(self.state, controller.view, width, height, extra=self._hint_lines(width),
                                 record_path=self.session.record_path, ascii=self.ascii)

    def _hint_lines(self, width: int) -> list:
        """A live game's lines about hints: whether the table allows them (for everybody,
        spectators too), the hint asked for (or its progress, or why it failed)."""
        controller, state = self.controller, self.state
        lines = [[("class:dim", hints.off_line(state) or
                   ("Hints allowed: e" if state.seat is not None else "Hints allowed for the players"))]]
        if controller.analysis is not None:
            lines += analysis.expected_lines(state, controller.view, controller.analysis, "Hint: expected final score",
                                             width, ascii=self.ascii)
        if controller.analyst.batch is not None:
            lines.append(analysis.progress_line(controller.analyst.batch, width, ascii=self.ascii))
        if controller.analyst.error:
            lines.append([("class:notice", controller.analyst.error)])
        return lines

    def _banner(self):
        return join_lines(self._banner_lines(), self._size()[0], ascii=self.ascii)

    def _banner_lines(self) -> list:
        """The banner's lines for this frame (:func:`panels.banner_lines`): as many as it
        needs, up to :data:`BANNER_ROWS`, where the body spares the rows (the game's: those
        the board leaves; a text screen's: those above the smallest window's)."""
        columns, rows = self._size()
        app = getattr(self, "application", None)
        key = (self.controller.version, columns, rows, app.render_counter if app else 0)
        if self._banner_cache is None or self._banner_cache[0] != key:
            if self._screen() == "game":
                spare = rows - 2 - self._frame().board.height
            else:
                spare = rows - MIN_SIZE[1]
            most = 1 + max(0, min(BANNER_ROWS - 1, spare))
            lines = panels.banner_lines(self.state, self.ui, self.controller.view, columns, most,
                                        self.controller.replay, ascii=self.ascii)
            self._banner_cache = (key, lines)
        return self._banner_cache[1]

    def _separator(self):
        """The line between the board and the panel, the body's height."""
        return [("class:dim", "\n".join(("|" if self.ascii else "│") * self._body_height().preferred))]

    def _hints(self):
        return panels.hints(self.state, self.ui, self.controller.view, self._size()[0], self.controller.replay,
                            ascii=self.ascii)

    def _text_screen(self):
        """The help, the lobby or the window's too small: each line cut to the window's
        columns with an ellipsis (the message about the window wrapped); a lobby taller
        than the window shows the owner's selected line, saying what is above and below
        (:func:`~client.ui.text.fit_rows`)."""
        screen = self._screen()
        columns, rows = self._size()
        height = self._body_height().preferred
        if screen == "help":
            text = panels.help_screen(self.controller.view, columns, height, self.ui.help_page,
                                      ascii=self.ascii, replay=self.controller.replay is not None)
        elif screen == "lobby":
            lines = split_lines(lobby_screen(self.state, self.ui, self.controller.view, height,
                                             address=self.session.address, ascii=self.ascii))
            while lines and not lines[-1]:   # the text's last newline: no row to give it
                lines.pop()
            focus = next((i for i, line in enumerate(lines) if any(s == "class:selected" for s, *_ in line)), 0)
            return join_lines(fit_rows(lines, height, focus, ascii=self.ascii), columns, ascii=self.ascii)
        else:
            need_columns, need_rows = self._needed_size()
            said = (f"The window is too small ({columns}x{rows}).", f"Make it at least {need_columns}x{need_rows}.",
                    "q quits.")
            lines = [row for line in said for row in wrap_line([("class:notice", line)], columns, height, indent="")]
            return join_lines(lines[:height], columns, ascii=self.ascii)
        return join_lines(split_lines(text), columns, ascii=self.ascii)


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
            try:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(app.controller.analyst.run)
                    await app.session.run()
                    nursery.cancel_scope.cancel()
            except* OSError as group:  # the session's one-line error, not a group of it
                raise group.exceptions[0] from None

    def finished(outcome) -> None:
        done.set_result(outcome)
        app.exit()

    app.controller.cancel = scope.cancel
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
        app.output.clear_title()
        app.output.flush()
    outcome.unwrap()
