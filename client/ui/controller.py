"""The UI's controller: what the keys do, and the shell's side of the game's view.

A :class:`Controller` sits between the session (:class:`client.ui.session.RemoteSession`)
and the screen. The key bindings (:mod:`client.ui.keys`) call its methods; it changes
the shell's :class:`~client.ui.uistate.UIState` or sends a wish through the session. It
is the :class:`~client.ui.gameview.Shell` of the game's view, which it makes once the
host named the game. After every change of the table it brings the UI state in line
(a refusal becomes the notice, a new turn starts the timer's countdown, your turn rings
the bell and sets the window title, a settings change names who must say ready again)
and asks for a redraw.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from prompt_toolkit.buffer import Buffer

from client.state import Status, TableState
from client.ui import hints
from client.ui.analyst import Analyst, Batch
from client.ui.gameview import GameView, game_view
from client.ui.lobby import fields
from client.ui.text import player_names
from client.ui.uistate import Mode, UIState
from protocol.messages import MAX_CHAT
from protocol.text import clean

#: Seconds before the turn timer runs out at which your turn is announced again.
WARN_BEFORE = 10.0
#: Seconds of search for a hint or the analysis of one step of a replay.
ANALYSIS_SECONDS = 2.0
#: Seconds of search for each step of a full-game pass.
PASS_SECONDS = 0.5


class Controller:
    """The UI's behaviour over one session.

    Args:
        session: the table to show and act on.
        ascii: 7-bit characters only.
        bell: ring the terminal bell when your turn starts (and before its timer runs out).
        redraw: schedules a redraw of the screen.
        focus: called with the new mode, so the screen can move its focus (the chat line).
        exit: leaves the application.
        alert: ``alert(ring, title)``: ring the bell (if ``ring``) and set the window title.
        clear: clears the terminal and draws everything again (Ctrl-L).
        visible: whether the game's board is on the screen now.
    """

    def __init__(self, session, *, ascii: bool = False, bell: bool = True,
                 redraw: Callable[[], None] = lambda: None,
                 focus: Callable[[Mode], None] = lambda mode: None,
                 exit: Callable[[], None] = lambda: None,
                 alert: Callable[[bool, str], None] = lambda ring, title: None,
                 clear: Callable[[], None] = lambda: None,
                 visible: Callable[[], bool] = lambda: True) -> None:
        self.session = session
        self.ui = UIState()
        self.ascii = ascii
        self.view: GameView | None = None
        self.chat = Buffer(multiline=False)
        #: Set by :func:`client.ui.app.run_app`: stops the session's trio task.
        self.cancel: Callable[[], None] | None = None
        self.bell = bell
        #: Counts changes, so the screen can cache what it drew for one state.
        self.version = 0
        self._redraw, self._focus, self._exit = redraw, focus, exit
        self._alert, self._clear, self._visible = alert, clear, visible
        self._asked = None          # settings sent to the host and not yet confirmed (lobby)
        self._rejection = None
        self._events = 0
        self._mine = False          # whether it was this seat's turn at the last change
        self._pause: tuple | None = None
        self._lobby: tuple | None = None  # (settings, the labels ready) at the last change
        self._game = 1
        self._quitting = False
        #: Runs the search bot's analysis off the UI's loop (started by :func:`client.ui.app.run_app`).
        self.analyst = Analyst(self._analysed, self.redraw)
        #: Seconds of search for a hint or one step, and for each step of a full-game pass.
        self.seconds, self.pass_seconds = ANALYSIS_SECONDS, PASS_SECONDS
        #: The last hint: ``(version, analysis)``, shown while the game is at that version.
        self.hint = None
        session.subscribe(self.changed)

    @property
    def board_visible(self) -> bool:
        """Whether the game's board is on the screen now: no game key acts on a board the
        player cannot see (a window too small, the help)."""
        return self.ui.mode != "help" and self._visible()

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.session.state

    @property
    def replay(self):
        """The replay shown (:class:`client.ui.replay.Replay`), or ``None`` at a live table."""
        return getattr(self.session, "replay", None)

    @property
    def suggestion(self) -> Any:
        """The action the search bot suggests now, for the board: the analysed best move
        of the replay's step, or this turn's hint."""
        analysis = self.analysis
        return analysis.best if analysis is not None else None

    @property
    def analysis(self):
        """The :class:`~waddle.ruleset.Analysis` that goes with the screen: the replay
        step's, or this turn's hint; ``None`` if there is none."""
        replay = self.replay
        if replay is not None:
            return replay.analyses.get(replay.step)
        if self.hint is not None and self.hint[0] == self.state.version and self.state.my_turn:
            return self.hint[1]
        return None

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
        self._lobby_news()
        if state.game_number != self._game:
            self._game, ui.scores = state.game_number, False
            ui.notice = f"game {state.game_number} starts"
        pause = (state.pause, state.pause_left) if state.pause else None
        events = state.version if state.view is not None else 0
        if events != self._events or (self._pause and not pause):
            self._events = events
            if self.replay is None:
                self.analyst.cancel()  # a hint is for the turn it was asked in
            if state.last_played is not None and not pause:
                ui.notice = ""
            timer = state.settings.turn_timer if state.settings else None
            ui.turn_deadline = time.monotonic() + timer if timer and not state.finished else None
            ui.warned = False
        if pause != self._pause:
            self._pause = pause
            ui.pause_deadline = time.monotonic() + state.pause_left if pause and state.pause_left else None
        if state.status is Status.CLOSED and state.closed_reason:
            ui.notice = clean(state.closed_reason)
        if self.view is not None and state.view is not None:
            self.view.changed()
        self._announce_turn()
        self.redraw()

    def _lobby_news(self) -> None:
        """In the lobby: once the settings changed, say who was ready and must say so again."""
        state = self.state
        if state.phase != "lobby" or state.settings is None:
            self._lobby = None
            return
        ready = {s.label for s in state.seats if s.ready}
        before, self._lobby = self._lobby, (state.settings, ready)
        if before is None or before[0] == state.settings:
            return
        again = sorted((s for s in state.seats if s.label in before[1] - ready), key=lambda s: s.seat)
        if again:
            mine = any(s.label == state.label for s in again)
            self.ui.notice = (f"the settings changed: {player_names(state, [s.label for s in again])} "
                              "must say ready again" + (" (r)" if mine else ""))

    def _announce_turn(self) -> None:
        """When this seat's turn starts: the bell (unless off) and the window title."""
        mine = self.state.my_turn
        if mine != self._mine:
            self._mine = mine
            self._alert(mine and self.bell, self.title())

    def title(self) -> str:
        """The window title: the game's name, and "your turn" while it is."""
        name = self.state.ruleset.title if self.state.ruleset else "Waddle"
        return f"{name}: your turn" if self.state.my_turn else name

    def tick(self) -> None:
        """Before each frame: warn once, :data:`WARN_BEFORE` seconds before the turn timer
        runs out on your turn (bell, title, notice)."""
        ui = self.ui
        if ui.turn_deadline is None or ui.warned or not self.state.my_turn:
            return
        left = ui.turn_deadline - time.monotonic()
        if left <= WARN_BEFORE:
            ui.warned = True
            ui.notice = f"{max(0, round(left))} s left: then a bot plays your turn"
            self._alert(self.bell, f"{self.title()} ({max(0, round(left))} s left)")

    def _wish(self, wish, *args) -> None:
        """Call a session wish; one that cannot be queued says why in the notice."""
        if not wish(*args):
            self.ui.notice = clean(self.session.error)
        self.redraw()

    # -- modes --------------------------------------------------------------------------------------

    def set_mode(self, mode: Mode) -> None:
        """Switch the UI mode (normal, chat, confirm, help: from its first page)."""
        self.ui.mode = mode
        self.ui.help_page = 0
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
        """Owner: start the game; first ask, when people at the table are not ready."""
        state = self.state
        if not state.is_owner:
            return
        waiting = [s.label for s in sorted(state.seats, key=lambda s: s.seat)
                   if not s.ready and s.bot is None and s.label != state.label]
        if waiting:
            verb = "is" if len(waiting) == 1 else "are"
            self.ask(f"{player_names(state, waiting)} {verb} not ready. Start anyway?",
                     lambda: self._wish(self.session.start))
        else:
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

    # -- the game: take-backs, pauses, rematches, the score view -------------------------------------

    def undo(self) -> None:
        """Take back your last action, if you may (the host decides)."""
        if self.state.can_undo:
            self._wish(self.session.undo)
        else:
            self.notify("nothing of yours to take back now")

    def look_now(self) -> None:
        """Look for a host that stopped at once, not at the end of the client's wait (Enter
        while the banner says the host stopped)."""
        if self.session.look_now():
            self.notify("looking for the host now")

    def go_on(self) -> None:
        """End the table's pause (half-time) for this seat."""
        if self.state.waiting_for_me:
            self._wish(self.session.go_on)

    def toggle_rematch(self) -> None:
        """Game over: ask for a rematch, or withdraw the request."""
        seat = self.state.seat_info(self.state.seat)
        if seat is not None and self.state.finished:
            self._wish(self.session.rematch, not seat.rematch)

    def toggle_scores(self) -> None:
        """Show or hide the game's score view (where the game offers one now)."""
        if self.view is not None and self.state.view is not None and self.view.scores_available():
            self.ui.scores = not self.ui.scores
            self.view.changed()   # a score view opened afresh starts where the game's view says
            self.redraw()
        else:
            self.notify(self.view.scores_closed() if self.view is not None else "no game yet")

    def help_page(self, step: int) -> None:
        """Help: show the next (``step`` 1) or previous page."""
        self.ui.help_page += step
        self.redraw()

    def refresh(self) -> None:
        """Ctrl-L: clear the terminal and draw everything again."""
        self._clear()
        self.redraw()

    # -- the replay viewer ------------------------------------------------------------------------------

    def step(self, delta: int) -> None:
        """Replay: show the step ``delta`` steps on (back, if negative)."""
        if self.replay is not None:
            self.go(self.replay.step + delta)

    def go(self, step: int) -> None:
        """Replay: show ``step`` (0: the start; past the end: the end)."""
        if self.replay is not None:
            self.session.go(step)

    def jump(self, chapter: str, direction: int) -> None:
        """Replay: show the next (``direction`` 1) or previous end of a ``chapter``
        (``"round"`` or ``"half"``, :meth:`GameView.chapters`), or the end or start."""
        replay, view = self.replay, self.view
        if replay is None or view is None:
            return
        ends = [k for k in range(1, len(replay) + 1) if chapter in view.chapters(replay.events[k - 1])]
        if direction > 0:
            target = next((k for k in ends if k > replay.step), len(replay))
        else:
            target = next((k for k in reversed(ends) if k < replay.step), 0)
        self.go(target)

    # -- the search bot's analysis and hints ------------------------------------------------------------

    def analyse(self) -> None:
        """``e``: the replay's step analysed (once a game with secrets is over), or a hint
        on your turn (if the table allows)."""
        replay, state = self.replay, self.state
        if replay is not None:
            if replay.refusal:
                self.notify(replay.refusal)
                return
            step = replay.step
            self.analyst.request(Batch(replay.ruleset, [(step, replay.positions[step])], self.seconds,
                                       f"step {step}", into=replay.analyses))
            return
        why = hints.refusal(state)
        if why:
            self.notify(why)
            return
        self.analyst.request(Batch(state.ruleset, [(("hint", state.version), state.view.position())],
                                   self.seconds, "a hint"))

    def analyse_game(self) -> None:
        """``E``: replay: analyse every step not analysed yet, from the start, filling the
        evaluation graph and the blunder marks as it goes (once a game with secrets is over)."""
        replay = self.replay
        if replay is None:
            self.notify("the whole-game analysis is for replays (waddle replay FILE)")
            return
        if replay.refusal:
            self.notify(replay.refusal)
            return
        jobs = [(k, replay.positions[k]) for k in range(len(replay) + 1) if k not in replay.analyses]
        if not jobs:
            self.notify("every step is analysed")
            return
        self.analyst.request(Batch(replay.ruleset, jobs, self.pass_seconds, "the whole game",
                                   into=replay.analyses))

    def cancel_analysis(self) -> None:
        """Esc: stop the analysis running."""
        if self.analyst.cancel():
            self.notify("analysis stopped")

    def _analysed(self, key, analysis) -> None:
        """An analysis is done (a replay's step is kept by its batch): a hint is this
        turn's; redraw."""
        if isinstance(key, tuple) and key[0] == "hint":
            self.hint = (key[1], analysis)
            if self.view is not None:
                self.view.changed()
        self.redraw()

    # -- quitting -------------------------------------------------------------------------------------

    def request_quit(self, force: bool = False) -> None:
        """``q`` / Ctrl-C: a player in a game is asked first (a second Ctrl-C quits); else quit."""
        state = self.state
        if not force and state.phase == "playing" and state.seat is not None and self.ui.mode != "confirm" \
                and self.replay is None:
            self.ask("Quit the game?", self.quit)
        else:
            self.quit()

    def quit(self) -> None:
        """Stop the session's trio task (and any analysis); the application exits once
        trio has finished."""
        if self._quitting:
            return
        self._quitting = True
        self.analyst.cancel()
        if self.cancel is not None:
            self.cancel()
        else:
            self._exit()
