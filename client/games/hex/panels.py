"""The hex game's text beside the board: turn tracks, the players table, the score table
at the end, the event log's lines and the banner's turn hint.

Every function is pure: table state (+ sizes) -> prompt-toolkit fragments. The game is
the hex view's engine game (``state.view.game``); events are the engine's typed events
(:mod:`waddle.hex.events`).
"""

from __future__ import annotations

from client.state import TableState
from client.ui.text import Fragments, fit, letter, player_label
from waddle.hex.events import Event, GameEnded, HalfEnded, Placed, RoundEnded, Scouted
from waddle.hex.game import Game
from waddle.hex.hexgrid import format_hex

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


def game_of(state: TableState) -> Game:
    """The engine game of the table's hex view."""
    return state.view.game


def turn_hint(state: TableState, double: bool) -> Fragments:
    """After "YOUR TURN": where to place, whether the double toggle is on, doubles left."""
    game = game_of(state)
    number = game.map.water[game.active_hex].number
    left = game.doubles_left(state.label)
    return [("", f" place next to water {number}, double {'ON' if double else 'off'} ({left} left)")]


def tracks(state: TableState, ascii: bool) -> list[Fragments]:
    """Turn tracks A and B (the active one marked, its front player underlined) and the active hex."""
    game = game_of(state)
    arrow = ">" if ascii else "▶"
    out = []
    for i, track in enumerate(game.tracks):
        active = i == game.active_track
        line: Fragments = [("class:heading" if active else "class:dim",
                            f"{arrow if active else ' '} Track {'AB'[i]}{' (active)' if active else '         '} ")]
        for j, colour in enumerate(track):
            line += [letter(state, colour, " class:current" if active and j == 0 else ""), ("", " ")]
        out.append(line)
    water = game.map.water[game.active_hex]
    out.append([("class:dim", f"  active hex: water {water.number}"
                 + (f", fish {','.join(map(str, water.fish))}" if water.fish else ""))])
    return out


def players(state: TableState, width: int) -> list[Fragments]:
    """The players table in ``width`` columns: letter, name (and tags), doubles left and,
    with real-time score on, live score. A narrow panel shortens the name first, then the
    headings (:data:`PLAYER_COLUMNS`), then drops the doubles: the scores stay visible."""
    game = game_of(state)
    live = state.settings.options.realtime_score
    scores = dict(zip(game.players, game.live_totals())) if live else {}
    columns = _player_columns(width, live)
    name_column = min(NAME_COLUMN + 1, max(width - 1 - sum(w for _, w in columns), 0))
    out = [[("class:heading", fit("Players", name_column + 1)
             + "".join(f"{heading:>{w}}" for heading, w in columns))]]
    for colour in game.players:
        you = " (you)" if colour == state.label else ""
        name = fit(state.name_of(colour), max(name_column - 1 - len(you), 3)).rstrip()
        line = [letter(state, colour), ("", fit(f" {name}{you}{_away(state, colour)}", name_column))]
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


def _away(state: TableState, label: str) -> str:
    """" (bot plays)" for a stand-in (the host's ``SeatInfo.standin``), " (away)" for a player
    gone with no stand-in yet; nothing for a bot seat or a connected player."""
    seat = next((s for s in state.seats if s.label == label), None)
    if seat is None or seat.connected:
        return ""
    if seat.standin:
        return " (bot plays)"
    return "" if seat.bot else " (away)"


def score_table(state: TableState, shown: str, width: int, *, ascii: bool = False) -> list[Fragments]:
    """End of game: waddles, pools and total per player (each half too in a mirror match),
    names using what is left of ``width`` columns (at least :data:`SCORE_NAME` columns);
    the player ``shown`` (whose waddles are highlighted) selected, with their waddle sizes."""
    game = game_of(state)
    result = game.result()
    star = "*" if ascii else "★"
    column = max(SCORE_NAME, width - 1 - len(SCORE_HEADING) - 2)
    out = [[("class:heading", f"{'':{column + 1}}{SCORE_HEADING}")]]
    for colour in sorted(game.players, key=lambda p: -result.scores[p].total):
        score = result.scores[colour]
        name = fit(f" {state.name_of(colour)}", column)
        marker = (" " + star) if colour in result.winners else ""
        style = "class:selected" if colour == shown else ""
        out.append([letter(state, colour),
                    (style, f"{name}{score.waddles:>7}{score.pools:>6}{score.total:>6}{marker}")])
        if game.mirror_match:
            for half, sheet in enumerate(result.halves, 1):
                s = sheet.scores[colour]
                out.append([("class:dim", f"  {fit(f'half {half}', column - 1)}{s.waddles:>7}{s.pools:>6}{s.total:>6}")])
    sizes = [w.size for w in result.halves[-1].waddles if w.player == shown]
    out.append([letter(state, shown),
                ("", f" waddles {{ }}: {','.join(map(str, sorted(sizes, reverse=True))) or 'none'} (Tab)")])
    return out


def logged(event: Event) -> bool:
    """Whether ``event`` gets a line in the log (the round end that ends the game does not)."""
    return not isinstance(event, RoundEnded) or event.active_hex is not None


def event_line(state: TableState, event: Event) -> Fragments:
    """One event as a line of the log."""
    if isinstance(event, Placed):
        what = "a double" if event.double else "a penguin"
        return player_label(state, event.player) + [("", f" placed {what} at {format_hex(event.hex)}")]
    if isinstance(event, Scouted):
        return player_label(state, event.player) + [("", " scouted ahead")]
    if isinstance(event, RoundEnded):
        number = game_of(state).map.water[event.active_hex].number if event.active_hex else "?"
        return [("class:dim", f"- round over; next at water {number}")]
    if isinstance(event, HalfEnded):
        return [("class:dim", "- half 1 over; the board is cleared for half 2")]
    if isinstance(event, GameEnded):
        return [("class:dim", "- game over")]
    return [("class:dim", f"- {type(event).__name__}")]
