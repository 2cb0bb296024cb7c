"""The shell's text around a game: banner, side panel frame, help, key hints.

Every function here is pure: table state, UI state, the game's view (:class:`~client.ui.gameview.GameView`,
``None`` before the game is known) and sizes -> prompt-toolkit fragments. What is the
game's own (the turn hint, the panel's top, event lines, its keys) comes from the view.
"""

from __future__ import annotations

import textwrap
import time

from client.state import TableState
from client.ui.gameview import GameView
from client.ui.text import Fragments, chat_line, fit_left, join_lines, player_label
from client.ui.uistate import UIState

#: The shell's keys in the help, after the game's: (keys, what they do, in short).
HELP = (
    ("c or /", "write a chat line; Enter sends, Esc cancels", "chat; Esc cancels"),
    ("?", "this help; any key closes it", "this help"),
    ("q / Ctrl-C", "quit (asks to confirm during a game)", "quit"),
    ("lobby: up/down", "choose a setting (host)", "choose a setting"),
    ("lobby: left/right", "change it (host)", "change it"),
    ("lobby: Enter", "start the game (host) / r: ready", "start / r: ready"),
)


def banner(state: TableState, ui: UIState, view: GameView | None) -> Fragments:
    """The one-line state of the table: your turn, waiting for ..., reconnecting..., game
    over; a host that stopped (what it said: whether the game is saved and how the host
    goes on, e.g. ``waddle host --resume FILE``), while the client watches for its return."""
    if state.host_stopped and state.status != "connected":
        line = [("class:banner.alert", " The host stopped "),
                ("", f" {state.host_stopped.removeprefix('the host stopped').lstrip('; ')}; "),
                ("class:dim", "watching for it to come back")]
    elif state.status == "reconnecting":
        line = [("class:banner.alert", " Reconnecting... ")] + _retry(state)
    elif state.status == "closed":
        line = [("class:banner.alert", " Disconnected from the host ")]
    elif state.phase is None:
        line = [("class:banner", " Connecting... ")] + _retry(state)
    elif state.phase == "lobby":
        line = [("class:banner", " Lobby: waiting for the host to start ")]
        if state.is_owner:
            line = [("class:banner", " Lobby: set up the table, then press Enter on Start ")]
    elif view is None or state.view is None:
        line = [("class:banner", " Connecting... ")]
    elif state.phase == "finished" or state.finished:
        line = [("class:banner.over", " GAME OVER ")] + _winners(state)
    elif state.my_turn:
        line = [("class:banner.turn", " YOUR TURN ")] + view.turn_hint()
    else:
        line = [("class:banner", " Waiting for ")] + _waiting_for(state) + [("", " ...")]
    if state.seat is None and state.phase is not None:
        line.append(("class:dim", "  (watching)"))
    if ui.turn_deadline is not None and state.phase == "playing":
        line.append(("class:dim", f"  {max(0, round(ui.turn_deadline - time.monotonic()))} s left"))
    if view is not None and state.view is not None:
        line += view.status()
    if ui.notice:
        line.append(("class:notice", f"  {ui.notice}"))
    return line


def _retry(state: TableState) -> Fragments:
    """What the client does about a host it cannot reach, if anything (``state.retry``)."""
    return [("class:dim", f" {state.retry}")] if state.retry else []  # after the " ... " of the status


def _waiting_for(state: TableState) -> Fragments:
    out: Fragments = []
    for i, seat in enumerate(sorted(state.view.to_act())):
        out += ([("", ", ")] if i else []) + player_label(state, state.view.labels[seat])
    return out


def _winners(state: TableState) -> Fragments:
    winners = state.outcome().winners
    out: Fragments = [("", " won by " if len(winners) == 1 else " shared by ")]
    for i, seat in enumerate(winners):
        out += ([("", ", ")] if i else []) + player_label(state, state.view.labels[seat])
    return out


def side_panel(state: TableState, view: GameView, width: int, height: int, *,
               record_path: str | None = None, ascii: bool = False) -> Fragments:
    """The game's lines (:meth:`GameView.panel_top`), the ``record_path`` once the game is
    over (and saved there), then the event log and chat to fill ``height`` lines of
    ``width`` columns."""
    if state.view is None:
        return []
    lines = view.panel_top(width)
    if state.finished and record_path:
        label = "Record: "
        lines.append([("class:dim", label), ("", fit_left(record_path, width - len(label), ascii=ascii))])
    lines.append([("class:heading", "Events")])
    rest = height - len(lines) - 1
    chat = [chat_line(state, line) for line in list(state.chat)[-max(rest // 3, 1):]] if state.chat else []
    log = view.event_lines()
    lines += log[-max(rest - len(chat) - (1 if chat else 0), 0):] if rest > len(chat) else []
    if chat:
        lines.append([("class:heading", "Chat")])
        lines += chat
    return join_lines(lines[:height], width)


def help_screen(view: GameView | None, width: int = 80, height: int = 24) -> Fragments:
    """The key help shown by ``?``, fitted to ``width`` x ``height``: the game's keys and
    the shell's, each with its long description where it fits, else its short one; the
    game's legend of the board's marks (wrapped) only where the rows allow."""
    rows = [*(view.help() if view else ()), *HELP]
    keys = [(f"  {k:<20}", what if 22 + len(what) <= width else short) for k, what, short in rows]
    legend = textwrap.wrap(view.legend(), max(width - 1, 20)) if view else []
    out: Fragments = []
    if len(keys) + len(legend) + 5 <= height:
        out.append(("class:heading", "Keys\n\n"))
        tail = ("\n" + "\n".join(legend) if legend else "") + "\n\nPress any key to go back."
    else:
        out += [("class:heading", "Keys"), ("class:dim", " (any key goes back)\n")]
        tail = ""
    for key, what in keys:
        out += [("class:key", key), ("", f"{what}\n")]
    out.append(("", tail))
    return out


def hints(state: TableState, ui: UIState, view: GameView | None, width: int = 0) -> Fragments:
    """The key hints of the bottom line, for the current mode, fitted to ``width`` columns
    (0: no limit): the long forms if they fit, else the short ones, else dropping hints
    from the last before "? help", which (with "q quit") always stays."""
    if ui.mode == "confirm":
        return [("class:banner.alert", f" {ui.question} y: yes, any other key: no ")]
    if state.phase is None:
        return [("class:dim", " connecting...  q quit")]
    common = [("c chat", "c chat")]
    game = view.hints() if view is not None and state.view is not None else []
    if state.phase == "finished":
        items = game + common
    elif state.seat is None:
        items = [("watching", "watching")] + common
    elif state.phase == "lobby" and state.is_owner:
        items = [("up/down choose", "up/down"), ("left/right change", "left/right change"),
                 ("Enter start", "Enter start")] + common
    elif state.phase == "lobby":
        items = [("r ready", "r ready")] + common
    else:
        items = game + common
    return [("class:dim", " " + _fitted_hints(items, ["? help", "q quit"], width - 1 if width else 0))]


def _fitted_hints(items: list[tuple[str, str]], last: list[str], width: int) -> str:
    """``items`` (long, short) then ``last``, two spaces apart, in ``width`` columns if
    they can be (see :func:`hints`)."""
    choices = [[long for long, _ in items], [short for _, short in items]]
    shorts = choices[1]
    choices += [shorts[:n] for n in range(len(shorts) - 1, 0, -1)]
    for words in choices:
        line = "  ".join(words + last)
        if not width or len(line) <= width:
            return line
    return line
