"""The UI's controller: what the keys do, and the shell's side of the game's view.

A :class:`Controller` sits between the session (:class:`client.ui.session.RemoteSession`)
and the screen. The key bindings (:mod:`client.ui.keys`) call its methods; it changes
the shell's :class:`~client.ui.uistate.UIState` or sends a wish through the session. It
is the :class:`~client.ui.gameview.Shell` of the game's view, which it makes once the
host named the game. After every change of the table it brings the UI state in line
(a refusal becomes the notice, a new turn starts the timer's countdown) and asks for a
redraw.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from prompt_toolkit.buffer import Buffer

from client.state import Status, TableState
from client.ui.gameview import GameView, game_view
from client.ui.lobby import fields
from client.ui.uistate import Mode, UIState
from protocol.messages import MAX_CHAT
from protocol.text import clean


class Controller:
    """The UI's behaviour over one session.

    Args:
        session: the table to show and act on.
        ascii: 7-bit characters only.
        redraw: schedules a redraw of the screen.
        focus: called with the new mode, so the screen can move its focus (the chat line).
        exit: leaves the application.
    """

    def __init__(self, session, *, ascii: bool = False, redraw: Callable[[], None] = lambda: None,
                 focus: Callable[[Mode], None] = lambda mode: None,
                 exit: Callable[[], None] = lambda: None) -> None:
        self.session = session
        self.ui = UIState()
        self.ascii = ascii
        self.view: GameView | None = None
        self.chat = Buffer(multiline=False)
        #: Set by :func:`client.ui.app.run_app`: stops the session's trio task.
        self.cancel: Callable[[], None] | None = None
        #: Whether the game's board is on the screen (set by the screen as it draws):
        #: no game key acts on a board the player cannot see.
        self.board_visible = False
        #: Counts changes, so the screen can cache what it drew for one state.
        self.version = 0
        self._redraw, self._focus, self._exit = redraw, focus, exit
        self._asked = None          # settings sent to the host and not yet confirmed (lobby)
        self._rejection = None
        self._events = 0
        self._quitting = False
        session.subscribe(self.changed)

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.session.state

    # -- the shell, as the game's view sees it ------------------------------------------------

    def act(self, action: Any) -> None:
        """Send ``action`` for this client's seat."""
        self._wish(self.session.act, action)

    def ask(self, question: str, on_yes: Callable[[], None]) -> None:
        """Ask a yes/no ``question``; ``on_yes()`` runs on y."""
        self.ui.question, self.ui.on_yes = question, on_yes
        self.set_mode("confirm")

    def notify(self, text: str) -> None:
        """Show ``text`` in the banner."""
        self.ui.notice = clean(text)
        self.redraw()

    def redraw(self) -> None:
        """Schedule a redraw."""
        self.version += 1
        self._redraw()

    # -- following the table --------------------------------------------------------------------

    def changed(self) -> None:
        """The table changed: make the game's view once the game is known, take the
        host's news into the UI state, keep the view's own state in line, redraw."""
        state, ui = self.state, self.ui
        if self.view is None and state.ruleset is not None:
            self.view = game_view(state.ruleset.name, self)
        rejection = state.last_rejection
        if rejection is not None and rejection is not self._rejection:
            self._rejection = rejection
            ui.notice = clean(rejection.message)
            if rejection.request == "configure":
                self._asked = None
        if state.settings == self._asked:
            self._asked = None
        events = state.version if state.view is not None else 0
        if events != self._events:
            self._events = events
            if state.last_played is not None:
                ui.notice = ""
            timer = state.settings.turn_timer if state.settings else None
            ui.turn_deadline = time.monotonic() + timer if timer and not state.finished else None
        if state.status is Status.CLOSED and state.closed_reason:
            ui.notice = clean(state.closed_reason)
        if self.view is not None and state.view is not None:
            self.view.changed()
        self.redraw()

    def _wish(self, wish, *args) -> None:
        """Call a session wish; one that cannot be queued says why in the notice."""
        if not wish(*args):
            self.ui.notice = clean(self.session.error)
        self.redraw()

    # -- modes --------------------------------------------------------------------------------------

    def set_mode(self, mode: Mode) -> None:
        """Switch the UI mode (normal, chat, confirm, help)."""
        self.ui.mode = mode
        self._focus(mode)
        self.redraw()

    def answer(self, yes: bool) -> None:
        """Answer the pending yes/no question."""
        on_yes = self.ui.on_yes
        self.ui.on_yes, self.ui.question = None, ""
        self.set_mode("normal")
        if yes and on_yes is not None:
            on_yes()

    # -- lobby and chat -----------------------------------------------------------------------------

    def lobby_step(self, dy: int, dx: int) -> None:
        """Owner: choose a setting (``dy``) or change the chosen one (``dx``).

        Quick steps build on the settings last asked for, not yet confirmed by the host.
        """
        state, ui = self.state, self.ui
        if not state.is_owner or state.settings is None:
            return
        shown = fields(state, self.view)
        ui.field = (ui.field + dy) % (len(shown) + 1)
        if dx and ui.field < len(shown):
            self._asked = shown[ui.field].step(self._asked or state.settings, dx)
            self._wish(self.session.configure, self._asked)
        self.redraw()

    def lobby_enter(self) -> None:
        """Owner: start the game."""
        if self.state.is_owner:
            self._wish(self.session.start)

    def toggle_ready(self) -> None:
        """Say ready (or not ready any more)."""
        seat = self.state.seat_info(self.state.seat)
        if seat is not None:
            self._wish(self.session.ready, not seat.ready)

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
            self._wish(self.session.say, text)

    # -- quitting -------------------------------------------------------------------------------------

    def request_quit(self, force: bool = False) -> None:
        """``q`` / Ctrl-C: a player in a game is asked first (a second Ctrl-C quits); else quit."""
        state = self.state
        if not force and state.phase == "playing" and state.seat is not None and self.ui.mode != "confirm":
            self.ask("Quit the game?", self.quit)
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
            self._exit()
