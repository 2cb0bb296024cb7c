"""The text around the board: banner, side panel, score table, help, key hints.

Every function here is pure: table state (+ UI state, sizes) -> prompt-toolkit
fragments ``[(style, text), ...]``. Names and chat come from
:class:`~client.ui.view.TableState`, which cleans them (:mod:`protocol.text`); the
event log is written from the engine's event dicts (``waddle.hex.events``).
"""

from __future__ import annotations

import textwrap
import time
from typing import Any

from prompt_toolkit.utils import get_cwidth

from client.ui.view import TableState, UIState, shown_player
from waddle.hex.hexgrid import format_hex
from waddle.hex.render import LETTERS

Fragments = list[tuple[str, str]]

#: Characters for a player's name (and "(you)") in the players table.
NAME_COLUMN = 20
#: The players table's forms, widest first: the columns (with the leading space) a name
#: keeps before the next form is used, then the number columns, (heading, width) each.
#: The last form, the live score alone (without it, the doubles alone), is for the
#: narrowest panel.
PLAYER_COLUMNS = (
    (9, (("doubles", 8), ("score", 7))),
    (5, (("dbl", 4), ("score", 6))),
    (0, (("score", 6),)),
)
_PLAYER_VALUE = {"doubles": "doubles", "dbl": "doubles", "score": "score"}
#: The score table's columns after the name, and the name's least width.
SCORE_HEADING = "waddles pools total"
SCORE_NAME = 8

#: Key help: (keys, what they do, in short), in the order shown by ``?``.
HELP = (
    ("arrows / h j k l", "move the cursor between the hexes you may place on", "move the cursor"),
    ("Enter / space", "place a penguin on the cursor's hex", "place a penguin"),
    ("d", "toggle: the next place uses a double", "toggle double"),
    ("s then y", "scout (asks to confirm)", "scout (asks first)"),
    ("mouse click", "place on the clicked hex (where the terminal has a mouse)", "place there"),
    ("c or /", "write a chat line; Enter sends, Esc cancels", "chat; Esc cancels"),
    ("Tab", "game over: show the next player's waddles", "next player's waddles"),
    ("?", "this help; any key closes it", "this help"),
    ("q / Ctrl-C", "quit (asks to confirm during a game)", "quit"),
    ("lobby: up/down", "choose a setting (host)", "choose a setting"),
    ("lobby: left/right", "change it (host)", "change it"),
    ("lobby: Enter", "start the game (host) / r: ready", "start / r: ready"),
)
#: What the board's marks mean, under the keys in the help when the window has room.
LEGEND = ("Penguins show their player's letter (R B Y G P); a double shows it twice. "
          "[ ] is the cursor, > < the active water hex, + an ice hex you may place on, "
          "{ } a waddle of the player shown at the end of the game. "
          "Water shows its number and, below it, its fish.")


def fit(text: str, width: int) -> str:
    """``text`` cut or padded with spaces to ``width`` terminal columns (wide characters count 2)."""
    head, used = _take(text, width)
    return head + " " * (width - used)


def _take(chars, width: int) -> tuple[str, int]:
    """The leading ``chars`` that fit ``width`` terminal columns, and the columns they use."""
    out, used = [], 0
    for char in chars:
        w = get_cwidth(char)
        if used + w > width:
            break
        out.append(char)
        used += w
    return "".join(out), used


def letter(colour: str, style: str = "") -> tuple[str, str]:
    """A player's letter in their colour (``style`` adds classes)."""
    return (f"class:player.{colour} class:letter{style}", LETTERS.get(colour, "?"))


def player_label(state: TableState, colour: str, *, you: bool = False) -> Fragments:
    """A player's letter in their colour, then their cleaned name (and "(you)" if ``you``)."""
    you = " (you)" if you and colour == state.my_colour else ""
    return [letter(colour), ("", f" {state.name_of(colour)}{you}")]


def banner(state: TableState, ui: UIState) -> Fragments:
    """The one-line state of the table: your turn, waiting for ..., reconnecting..., game over."""
    game = state.game
    if state.connection == "reconnecting":
        line = [("class:banner.alert", " Reconnecting... ")]
    elif state.connection == "closed":
        line = [("class:banner.alert", " Disconnected from the host ")]
    elif state.phase == "connecting":
        line = [("class:banner", " Connecting... ")]
    elif state.phase == "lobby":
        line = [("class:banner", " Lobby: waiting for the host to start ")]
        if state.is_owner:
            line = [("class:banner", " Lobby: set up the table, then press Enter on Start ")]
    elif state.phase == "finished" or game is None or game.is_over:
        line = [("class:banner.over", " GAME OVER ")] + _winners(state)
    elif state.my_turn:
        line = [("class:banner.turn", " YOUR TURN ")] + _turn_hint(state, ui)
    else:
        line = [("class:banner", " Waiting for ")] + player_label(state, game.current_player) + [("", " ...")]
    if state.my_seat is None and state.phase != "connecting":
        line.append(("class:dim", "  (watching)"))
    if state.turn_deadline is not None and state.phase == "playing":
        line.append(("class:dim", f"  {max(0, round(state.turn_deadline - time.monotonic()))} s left"))
    if game is not None and game.mirror_match:
        line.append(("class:dim", f"  half {game.half} of 2"))
    if state.notice:
        line.append(("class:notice", f"  {state.notice}"))
    return line


def _turn_hint(state: TableState, ui: UIState) -> Fragments:
    game = state.game
    number = game.map.water[game.active_hex].number
    left = game.doubles_left(state.my_colour)
    double = "ON" if ui.double else "off"
    return [("", f" place next to water {number}, double {double} ({left} left)")]


def _winners(state: TableState) -> Fragments:
    game = state.game
    if game is None:
        return []
    winners = game.result().winners
    out: Fragments = [("", " won by " if len(winners) == 1 else " shared by ")]
    for i, colour in enumerate(winners):
        out += ([("", ", ")] if i else []) + player_label(state, colour)
    return out


def side_panel(state: TableState, ui: UIState, width: int, height: int, *, ascii: bool = False
               ) -> Fragments:
    """Tracks, players (doubles, live scores), then event log and chat to fill ``height`` lines
    of ``width`` columns."""
    game = state.game
    if game is None:
        return []
    lines: list[Fragments] = []
    if game.is_over:
        lines += score_table(state, ui, width, ascii=ascii)
    else:
        lines += _tracks(state, ascii)
        lines += _players(state, width)
    lines.append([("class:heading", "Events")])
    rest = height - len(lines) - 1
    chat = [chat_line(*line) for line in state.chat[-max(rest // 3, 1):]] if state.chat else []
    log = [event_line(state, e) for e in state.log if e.get("type") != "round_ended" or e.get("active_hex")]
    lines += log[-max(rest - len(chat) - (1 if chat else 0), 0):] if rest > len(chat) else []
    if chat:
        lines.append([("class:heading", "Chat")])
        lines += chat
    return _join(lines[:height], width)


def _tracks(state: TableState, ascii: bool) -> list[Fragments]:
    game = state.game
    arrow = ">" if ascii else "▶"
    out = []
    for i, track in enumerate(game.tracks):
        active = i == game.active_track
        line: Fragments = [("class:heading" if active else "class:dim",
                            f"{arrow if active else ' '} Track {'AB'[i]}{' (active)' if active else '         '} ")]
        for j, colour in enumerate(track):
            line += [letter(colour, " class:current" if active and j == 0 else ""), ("", " ")]
        out.append(line)
    number = game.map.water[game.active_hex].number
    fish = game.map.water[game.active_hex].fish
    out.append([("class:dim", f"  active hex: water {number}"
                 + (f", fish {','.join(map(str, fish))}" if fish else ""))])
    return out


def _players(state: TableState, width: int) -> list[Fragments]:
    """The players table in ``width`` columns: letter, name (and tags), doubles left and,
    with real-time score on, live score. A narrow panel shortens the name first, then the
    headings (:data:`PLAYER_COLUMNS`), then drops the doubles: the scores stay visible."""
    game = state.game
    live = state.settings.realtime_score
    scores = dict(zip(game.players, game.live_totals())) if live else {}
    columns = _player_columns(width, live)
    name_column = min(NAME_COLUMN + 1, max(width - 1 - sum(w for _, w in columns), 0))
    out = [[("class:heading", fit("Players", name_column + 1)
             + "".join(f"{heading:>{w}}" for heading, w in columns))]]
    for colour in game.players:
        you = " (you)" if colour == state.my_colour else ""
        name = fit(state.name_of(colour), max(name_column - 1 - len(you), 3)).rstrip()
        line = [letter(colour), ("", fit(f" {name}{you}{_away(state, colour)}", name_column))]
        values = {"doubles": game.doubles_left(colour), "score": scores.get(colour)}
        line += [("", f"{values[_PLAYER_VALUE[heading]]:>{w}}") for heading, w in columns]
        out.append(line)
    return out


def _player_columns(width: int, live: bool) -> tuple[tuple[str, int], ...]:
    """The players table's number columns, (heading, width) each: those of the first form of
    :data:`PLAYER_COLUMNS` that leaves its name columns in ``width``, else the last form's
    (without the live score when it is off)."""
    forms = [(name, tuple(c for c in columns if live or _PLAYER_VALUE[c[0]] != "score"))
             for name, columns in PLAYER_COLUMNS]
    forms = [form for form in forms if form[1]]
    return next((columns for name, columns in forms if width - 1 - sum(w for _, w in columns) >= name),
                forms[-1][1])


def _away(state: TableState, colour: str) -> str:
    """" (bot plays)" for a stand-in (the host's ``SeatInfo.standin``), " (away)" for a player
    gone with no stand-in yet; nothing for a bot seat or a connected player."""
    seat = next((s for s in state.seats if s.colour == colour), None)
    if seat is None or seat.connected:
        return ""
    if seat.standin:
        return " (bot plays)"
    return "" if seat.bot else " (away)"


def score_table(state: TableState, ui: UIState, width: int, *, ascii: bool = False
                ) -> list[Fragments]:
    """End of game: waddles, pools and total per player (each half too in a mirror match),
    names using what is left of ``width`` columns (at least :data:`SCORE_NAME` columns); the
    record's path last, shortened from the left to fit ``width``."""
    game = state.game
    result = game.result()
    shown = shown_player(state, ui)
    star = "*" if ascii else "★"
    column = max(SCORE_NAME, width - 1 - len(SCORE_HEADING) - 2)
    out = [[("class:heading", f"{'':{column + 1}}{SCORE_HEADING}")]]
    for colour in sorted(game.players, key=lambda p: -result.scores[p].total):
        score = result.scores[colour]
        name = fit(f" {state.name_of(colour)}", column)
        marker = (" " + star) if colour in result.winners else ""
        style = "class:selected" if colour == shown else ""
        out.append([letter(colour),
                    (style, f"{name}{score.waddles:>7}{score.pools:>6}{score.total:>6}{marker}")])
        if game.mirror_match:
            for half, sheet in enumerate(result.halves, 1):
                s = sheet.scores[colour]
                out.append([("class:dim", f"  {fit(f'half {half}', column - 1)}{s.waddles:>7}{s.pools:>6}{s.total:>6}")])
    sizes = [w.size for w in result.halves[-1].waddles if w.player == shown]
    out.append([letter(shown),
                ("", f" waddles {{ }}: {','.join(map(str, sorted(sizes, reverse=True))) or 'none'} (Tab)")])
    if state.record_path:
        label = "Record: "
        out.append([("class:dim", label),
                     ("", fit_left(state.record_path, width - len(label), ascii=ascii))])
    return out


def fit_left(text: str, width: int, *, ascii: bool = False) -> str:
    """``text`` if it fits ``width`` columns (or ``width`` is 0), else its end after an
    ellipsis (``...`` with ``ascii``), ``width`` columns in all: a path keeps its file name."""
    if not width or get_cwidth(text) <= width:
        return text
    dots = "..." if ascii else "…"
    tail, _ = _take(reversed(text), max(width - len(dots), 0))
    return dots + tail[::-1]


def event_line(state: TableState, event: dict[str, Any]) -> Fragments:
    """One event dict (``waddle.hex.events`` form) as a line of the log."""
    kind = event.get("type")
    if kind == "placed":
        what = "a double" if event["double"] else "a penguin"
        return player_label(state, event["player"]) + [("", f" placed {what} at {format_hex(tuple(event['hex']))}")]
    if kind == "scouted":
        return player_label(state, event["player"]) + [("", " scouted ahead")]
    if kind == "round_ended":
        hex = event.get("active_hex")
        number = state.game.map.water[tuple(hex)].number if hex and state.game else "?"
        return [("class:dim", f"- round over; next at water {number}")]
    if kind == "half_ended":
        return [("class:dim", "- half 1 over; the board is cleared for half 2")]
    if kind == "game_ended":
        return [("class:dim", "- game over")]
    return [("class:dim", f"- {kind}")]


def chat_line(name: str, colour: str | None, text: str) -> Fragments:
    """A chat line: the speaker's seat letter in their colour (``-`` for a spectator or
    the host), so two people cannot pass for one another by name, then name and text."""
    who = letter(colour) if colour is not None else ("class:chat.name", "-")
    return [who, ("class:chat.name", f" {name}"), ("", f": {text}")]


def help_screen(width: int = 80, height: int = 24) -> Fragments:
    """The key help shown by ``?``, fitted to ``width`` x ``height``: each key's long
    description where it fits, else its short one; the legend of the board's marks
    (:data:`LEGEND`, wrapped) only where the rows allow."""
    keys = [(f"  {k:<20}", what if 22 + len(what) <= width else short) for k, what, short in HELP]
    legend = textwrap.wrap(LEGEND, max(width - 1, 20))
    out: Fragments = []
    if len(keys) + len(legend) + 5 <= height:
        out.append(("class:heading", "Keys\n\n"))
        tail = "\n" + "\n".join(legend) + "\n\nPress any key to go back."
    else:
        out += [("class:heading", "Keys"), ("class:dim", " (any key goes back)\n")]
        tail = ""
    for key, what in keys:
        out += [("class:key", key), ("", f"{what}\n")]
    out.append(("", tail))
    return out


def hints(state: TableState, ui: UIState, width: int = 0) -> Fragments:
    """The key hints of the bottom line, for the current mode, fitted to ``width`` columns
    (0: no limit): the long forms if they fit, else the short ones, else dropping hints
    from the last before "? help", which (with "q quit") always stays."""
    if ui.mode == "scout":
        return [("class:banner.alert", " Scout ahead? y: yes, any other key: no ")]
    if ui.mode == "quit":
        return [("class:banner.alert", " Quit the game? y: yes, any other key: no ")]
    if state.phase == "connecting":
        return [("class:dim", " connecting...  q quit")]
    common = [("c chat", "c chat")]
    if state.phase == "finished":
        items = [("Tab next player's waddles", "Tab next waddles")] + common
    elif state.my_seat is None:
        items = [("watching", "watching")] + common
    elif state.phase == "lobby" and state.is_owner:
        items = [("up/down choose", "up/down"), ("left/right change", "left/right change"),
                 ("Enter start", "Enter start")] + common
    elif state.phase == "lobby":
        items = [("r ready", "r ready")] + common
    else:
        items = [("arrows/hjkl move", "arrows move"), ("Enter place", "Enter place"),
                 ("d double", "d double"), ("s scout", "s scout")] + common
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


def _join(lines: list[Fragments], width: int) -> Fragments:
    """Lines into one fragment list, each cut to ``width`` characters."""
    out: Fragments = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        room = width
        for style, text in line:
            if room <= 0:
                break
            out.append((style, text[:room]))
            room -= len(text[:room])
    return out
