"""The shell's text around a game: banner, side panel frame, help, key hints.

Every function here is pure: table state, UI state, the game's view (:class:`~client.ui.gameview.GameView`,
``None`` before the game is known) and sizes -> prompt-toolkit fragments. What is the
game's own (the turn hint, the panel's top, event lines, its keys) comes from the view.
"""

from __future__ import annotations

import re
import textwrap
import time

from prompt_toolkit.utils import get_cwidth

from client.state import TableState
from client.ui.gameview import GameView
from client.ui.text import (
    Fragments,
    chat_line,
    cut_line,
    fit_left,
    join_lines,
    player_label,
    player_names,
    question_line,
    wrap_line,
)
from client.ui.uistate import UIState
from protocol.text import clean

#: The shell's keys in the help, after the game's and its take-back (``u``) and score
#: view (``v``), if it has them: (keys, what they do, in short).
HELP = (
    ("r", "game over: ask for a rematch (again: withdraw)", "rematch"),
    ("c or /", "write a chat line; Enter sends, Esc cancels", "chat; Esc cancels"),
    ("?", "this help (Tab: the rules); any other key closes it", "this help"),
    ("Ctrl-L", "draw the whole screen again", "redraw"),
    ("q / Ctrl-C", "quit (asks to confirm during a game)", "quit"),
    ("lobby: up/down", "choose a setting (host)", "choose a setting"),
    ("lobby: left/right", "change it (host)", "change it"),
    ("lobby: Enter", "start the game (host) / r: ready", "start / r: ready"),
)

#: The fewest columns the replay's note is shortened to at the end of the banner's last line.
NOTE_LEAST = 16
#: The start of a stopped host's ``closing`` that the banner's " The host stopped " says
#: already: "the host stopped; " (one table), "the club's host stopped; " (a club).
STOPPED_SAID = re.compile(r"^the (club's )?host stopped[;,.]? *", re.IGNORECASE)


def banner(state: TableState, ui: UIState, view: GameView | None, replay=None) -> Fragments:
    """The one-line state of the table: your turn, waiting for ..., reconnecting..., game
    over; a host that stopped (what it said: whether the game is saved and how the host
    goes on, e.g. ``waddle host --resume FILE``), while the client watches for its return;
    in the replay viewer (``replay``, a :class:`client.ui.replay.Replay`): the step shown
    and whose move comes next, then the replay's note (the file followed).
    :func:`banner_lines` fits it to the screen."""
    return _banner(state, ui, view, replay) + _note(replay)


def banner_lines(state: TableState, ui: UIState, view: GameView | None, width: int, most: int,
                 replay=None, *, ascii: bool = False) -> list[Fragments]:
    """:func:`banner` in ``width`` terminal columns: wrapped at spaces onto at most
    ``most`` lines, the last cut with an ellipsis if text is still left
    (:func:`~client.ui.text.wrap_line`). The replay's note comes last, whole where it
    fits, else on a line of its own, else shortened in the middle (``following …/save.json``:
    its first word and its end, a path's file name)."""
    lines = wrap_line(_banner(state, ui, view, replay), width, most, ascii=ascii)
    note = _note(replay)
    if not note:
        return lines
    last, text = lines[-1], note[0][1].lstrip()
    room = width - sum(get_cwidth(t) for _, t in last) - 2
    if get_cwidth(text) <= room:
        last.append(("class:dim", f"  {text}"))
    elif len(lines) < most:
        lines.append([("class:dim", " " + _shorten(text, width - 1, ascii))])
    elif room >= NOTE_LEAST:
        last.append(("class:dim", "  " + _shorten(text, room, ascii)))
    else:
        lines[-1] = cut_line(last + note, width, ascii=ascii)
    return lines


def _shorten(text: str, width: int, ascii: bool) -> str:
    """``text`` in ``width`` columns: its first word, then as much of its end as fits
    after an ellipsis (:func:`~client.ui.text.fit_left`)."""
    word, _, rest = text.partition(" ")
    if get_cwidth(text) <= width or not rest or get_cwidth(word) + 1 >= width // 2:
        return fit_left(text, width, ascii=ascii)
    return f"{word} " + fit_left(rest, width - get_cwidth(word) - 1, ascii=ascii)


def _note(replay) -> Fragments:
    """The replay's note for the banner's end (``"following FILE"``), if any."""
    if replay is not None and replay.note:   # last: a long file name must not push the rest off
        return [("class:dim", f"  {clean(replay.note)}")]
    return []


def _banner(state: TableState, ui: UIState, view: GameView | None, replay) -> Fragments:
    """:func:`banner` without the replay's note."""
    if replay is not None and view is not None and state.view is not None:
        line = _replay_banner(state, replay)
    elif state.host_stopped and state.status != "connected":
        said = STOPPED_SAID.sub("", state.host_stopped)  # what it said beyond that it stopped
        line = [("class:banner.alert", " The host stopped "), ("", f" {said}; " if said else " "),
                ("class:dim", "watching for it to come back")]
    elif state.status == "reconnecting":
        line = [("class:banner.alert", " Reconnecting... ")] + _retry(state)
    elif state.status == "closed":
        line = [("class:banner.alert", " Disconnected from the host ")]
    elif state.phase is None:
        line = [("class:banner", " Connecting... ")] + _retry(state)
    elif state.phase == "lobby":
        line = [("class:banner", f" Lobby: waiting for {_starter(state)} to start ")]
        if state.is_owner:
            line = [("class:banner", " Lobby: set up the table, then press Enter on Start ")]
    elif view is None or state.view is None:
        line = [("class:banner", " Connecting... ")]
    elif state.phase == "finished" or state.finished:
        line = [("class:banner.over", " GAME OVER ")] + _winners(state)
    elif state.pause is not None:
        line = [("class:banner.over", f" {state.pause.upper()} ")] + _pause(state, ui, view)
    elif state.my_turn:
        line = [("class:banner.turn", " YOUR TURN ")] + view.turn_hint()
    else:
        line = [("class:banner", " Waiting for ")] + _waiting_for(state) + [("", " ...")]
    if state.seat is None and state.phase is not None and replay is None:
        line.append(("class:dim", "  (watching)"))
    if ui.turn_deadline is not None and state.phase == "playing" and state.pause is None:
        # no turn timer runs while the table pauses: the pause says when it ends itself
        line.append(("class:dim", f"  {max(0, round(ui.turn_deadline - time.monotonic()))} s left"))
    if view is not None and state.view is not None:
        line += view.status()
    if ui.notice:
        line.append(("class:notice", f"  {ui.notice}"))
    return line


def _starter(state: TableState) -> str:
    """Who starts the game in the lobby: the host at a table of its own; at a club's, the
    table's owner (``"Ann (the table's owner)"``)."""
    if not state.club:
        return "the host"
    owner = state.seat_info(state.owner)
    return f"{state.name_of(owner.label)} (the table's owner)" if owner else "the table's owner"


def _retry(state: TableState) -> Fragments:
    """What the client does about a host it cannot reach, if anything (``state.retry``)."""
    return [("class:dim", f" {state.retry}")] if state.retry else []  # after the " ... " of the status


def _replay_banner(state: TableState, replay) -> Fragments:
    """``REPLAY  move 12 of 35  next: R Ann`` (at the last step: game over and the winners,
    or "the game goes on" in a record that stops before the end); the replay's note (the
    file followed) comes at the end of the banner."""
    line: Fragments = [("class:banner", " REPLAY "), ("", f" move {replay.step} of {len(replay)}")]
    mover = replay.mover(replay.step)
    if state.finished:
        line += [("class:banner.over", " GAME OVER ")] + _winners(state)
    elif mover is not None:
        line += [("class:dim", "  next: ")] + player_label(state, state.view.labels[mover])
    else:
        line.append(("class:dim", "  (the game goes on)"))
    return line


def _pause(state: TableState, ui: UIState, view: GameView) -> Fragments:
    """During a pause: the game's hint if it waits for you, then whom it waits for and how long."""
    line = view.pause_hint(state.pause) if state.waiting_for_me else []
    waiting = [s.label for s in sorted(state.seats, key=lambda s: s.seat)
               if s.waiting and s.label != state.label]
    if waiting:
        line.append(("class:dim", f"  waiting for {player_names(state, waiting)}"))
    if ui.pause_deadline is not None:
        line.append(("class:dim", f"  {max(0, round(ui.pause_deadline - time.monotonic()))} s"))
    return line


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
               record_path: str | None = None, extra: list[Fragments] = (), ascii: bool = False) -> Fragments:
    """The game's lines (:meth:`GameView.panel_top`), ``extra`` lines (hints), the
    ``record_path`` once the game is over (and saved there), then the event log and chat
    to fill ``height`` lines of ``width`` columns."""
    if state.view is None:
        return []
    lines = view.panel_top(width) + list(extra)
    if state.finished and record_path:
        label = "Record: "
        lines.append([("class:dim", label), ("", fit_left(record_path, width - len(label), ascii=ascii))])
    if state.finished:
        lines.append(rematch_line(state))
    lines.append([("class:heading", "Events")])
    rest = height - len(lines) - 1
    chat = [chat_line(state, line) for line in list(state.chat)[-max(rest // 3, 1):]] if state.chat else []
    log = view.event_lines()
    lines += log[-max(rest - len(chat) - (1 if chat else 0), 0):] if rest > len(chat) else []
    if chat:
        lines.append([("class:heading", "Chat")])
        lines += chat
    return join_lines(lines[:height], width, ascii=ascii)


def rematch_line(state: TableState) -> Fragments:
    """Game over: who asked for a rematch and whom it waits for (``r`` asks)."""
    people = [s for s in sorted(state.seats, key=lambda s: s.seat) if s.bot is None or s.standin]
    asked = [s.label for s in people if s.rematch]
    waiting = [s.label for s in people if not s.rematch and s.connected]
    if not asked:
        return [("class:dim", "Rematch? press r")]
    line: Fragments = [("class:dim", f"Rematch asked by {player_names(state, asked)}")]
    if waiting:
        mine = state.label in waiting
        line.append(("class:dim", f"; waiting for {player_names(state, waiting)}" + (" (r)" if mine else "")))
    return line


def help_pages(view: GameView | None, width: int = 80, height: int = 24,
               replay: bool = False) -> list[list[str | tuple[str, str]]]:
    """The help's pages for ``width`` x ``height``: the keys first (the game's and the
    shell's, long descriptions where they fit, with the game's legend of the board's marks
    where the rows allow), then the game's rules (:meth:`GameView.rules`) wrapped and cut
    into pages. Each page is a list of lines: a key row is ``(keys, what)``."""
    if replay:
        rows = [*REPLAY_HELP, *(r for r in _optional_keys(view) if r[0] == "v"), *HELP[2:4], REPLAY_QUIT]
    else:
        rows = [*(view.help() if view else ()), *_optional_keys(view), HINT_HELP, *HELP]
    keys: list[str | tuple[str, str]] = [
        (f"  {k:<20}", what if 22 + len(what) <= width else short) for k, what, short in rows]
    legend = textwrap.wrap(view.legend(), max(width - 1, 20)) if view else []
    room = max(height - 3, 4)
    first = ["Keys", *keys] + (["", *legend] if len(keys) + len(legend) + 2 <= room else [])
    pages = [first[i:i + room] for i in range(0, len(first), room)]
    rules: list[str | tuple[str, str]] = ["Rules"]
    for paragraph in (view.rules() if view else ()):
        rules += [*textwrap.wrap(paragraph, max(width - 1, 20)), ""]
    if len(rules) > 1:
        pages += [rules[i:i + room] for i in range(0, len(rules), room)]
    return pages


def _optional_keys(view: GameView | None) -> list[tuple[str, str, str]]:
    """The help's rows for ``u`` and ``v``, where the game has take-backs and a score view."""
    rows = []
    for key, what in (("u", view.undo_help() if view else None), ("v", view.score_help() if view else None)):
        if what is not None:
            rows.append((key, *what))
    return rows


def help_screen(view: GameView | None, width: int = 80, height: int = 24, page: int = 0, *,
                ascii: bool = False, replay: bool = False) -> Fragments:
    """Page ``page`` (any number: it wraps around) of :func:`help_pages`, with a line that
    says how to turn pages and go back."""
    pages = help_pages(view, width, height, replay)
    number = page % len(pages)
    out: Fragments = []
    for i, line in enumerate(pages[number]):
        if isinstance(line, tuple):
            out += [("class:key", line[0]), ("", line[1])]
        else:
            out.append(("class:heading" if i == 0 or line.endswith(":") else "", line))
        out.append(("", "\n"))
    more = f"page {number + 1}/{len(pages)}, Tab: next page, " if len(pages) > 1 else ""
    out.append(("class:dim", f"\n{more}any other key goes back"))
    return out


#: The replay viewer's key hints, (long, short) each.
REPLAY_HINTS = [("left/right step", "</> step"), ("Home/End", "Home/End"), ("up/down round", "up/down round")]
#: The analysis keys' hints in the replay viewer (left out while the game may not be
#: analysed: :attr:`client.ui.replay.Replay.refusal`).
ANALYSIS_HINTS = [("e analyse", "e analyse"), ("E whole game", "E game")]
#: The replay viewer's keys in the help: (keys, what they do, in short).
REPLAY_HELP = (
    ("left / right", "the previous / next move", "step back / on"),
    ("Home / End, g / G", "the start / the end of the game", "start / end"),
    ("up / down", "the previous / next end of a round", "previous / next round"),
    ("PageUp / PageDown", "the previous / next end of a half (a mirror match)", "previous / next half"),
    ("e", "the search bot's evaluation of this step and its best move, marked on the board",
     "analyse this step"),
    ("E", "analyse the whole game: evaluation graph, blunders (??) and mistakes (?)",
     "analyse the whole game"),
    ("Esc", "stop the analysis running", "stop the analysis"),
)
#: Quitting the replay viewer (nothing to lose: it never asks).
REPLAY_QUIT = ("q / Ctrl-C", "quit the viewer", "quit")
#: The hint key in the help of a live game.
HINT_HELP = ("e", "hint: the search bot's move and expected score (if the table allows)", "hint")


def hints(state: TableState, ui: UIState, view: GameView | None, width: int = 0, replay=None, *,
          ascii: bool = False) -> Fragments:
    """The key hints of the bottom line, for the current mode, fitted to ``width`` columns
    (0: no limit): the long forms if they fit, else the short ones, else dropping hints
    from the last before "? help", which (with "q quit") always stays."""
    if ui.mode == "confirm":
        line = question_line(ui.question, width)
        return cut_line([("class:banner.alert", line)], width, ascii=ascii) if width else [("class:banner.alert", line)]
    if state.phase is None:
        return [("class:dim", " connecting...  q quit")]
    if replay is not None:
        items = REPLAY_HINTS + ([] if replay.refusal else ANALYSIS_HINTS) + _score_hint(state, view)
        return _hint_line(_fitted_hints(items, ["? help", "q quit"], width - 1 if width else 0), width, ascii)
    common = [("c chat", "c chat")]
    if state.host_stopped and state.status != "connected" and replay is None:
        return _hint_line(_fitted_hints([("Enter look for it now", "Enter look now")] + common,
                                        ["? help", "q quit"], width - 1 if width else 0), width, ascii)
    game = view.hints() if view is not None and state.view is not None else []
    if state.phase == "finished":
        rematch = [("r rematch", "r rematch")] if state.seat is not None else []  # a spectator's is not asked
        items = game + rematch + _score_hint(state, view) + common
    elif state.pause is not None and state.waiting_for_me:
        items = [("any key: go on", "any key: go on")] + common
    elif state.pause is not None:
        items = [(f"{state.pause}: waiting for the others", "waiting")] + common
    elif state.seat is None:
        items = [("watching", "watching")] + common
    elif state.phase == "lobby" and state.is_owner:
        items = [("up/down choose", "up/down"), ("left/right change", "left/right change"),
                 ("Enter start", "Enter start")] + common
    elif state.phase == "lobby":
        items = [("r ready", "r ready")] + common
    else:
        undo = [("u take back", "u undo")] if state.can_undo else []
        items = undo + game + _score_hint(state, view) + common
    return _hint_line(_fitted_hints(items, ["? help", "q quit"], width - 1 if width else 0), width, ascii)


def _hint_line(hints: str, width: int, ascii: bool) -> Fragments:
    """The hints line; one still too wide for ``width`` columns (0: no limit) is cut with an ellipsis."""
    line = [("class:dim", " " + hints)]
    return cut_line(line, width, ascii=ascii) if width else line


def _score_hint(state: TableState, view: GameView | None) -> list[tuple[str, str]]:
    if view is None or state.view is None or not view.scores_available():
        return []
    return [("v scores", "v scores")]


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
