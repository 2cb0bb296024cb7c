"""The hex game's text beside the board: turn tracks, the players table, the score table
at the end, the event log's lines and the banner's turn hint.

Every function is pure: table state (+ sizes) -> prompt-toolkit fragments; but
:func:`extend_log`, which extends the :class:`Log` it is given. The game is
the hex view's engine game (``state.view.game``); events are the engine's typed events
(:mod:`waddle.hex.events`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from client.state import TableState
from client.ui.text import Fragments, fit, letter, player_label
from waddle.hex.actions import Place
from waddle.hex.events import Event, GameEnded, HalfEnded, Placed, RoundEnded, Scouted, TookBack
from waddle.hex.game import Game, Result
from waddle.hex.hexgrid import Hex

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


def scout_question(state: TableState) -> str:
    """What the scout confirm asks: what scouting does (RULES.md "Turns and rounds")."""
    game = game_of(state)
    other = "AB"[1 - game.active_track]
    return f"Scout to track {other}: no more places this round, first next round?"


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


def players(state: TableState, width: int, *, live: Result | None = None,
            ascii: bool = False) -> list[Fragments]:
    """The players table in ``width`` columns: letter, name (and tags), doubles left and,
    given the ``live`` score (real-time score on, or a replay), each player's total in it.
    A narrow panel shortens the name first, then the headings (:data:`PLAYER_COLUMNS`),
    then drops the doubles: the scores stay visible."""
    game = game_of(state)
    scores = {colour: score.total for colour, score in live.scores.items()} if live else {}
    columns = _player_columns(width, live is not None)
    name_column = min(NAME_COLUMN + 1, max(width - 1 - sum(w for _, w in columns), 0))
    out = [[("class:heading", fit("Players", name_column + 1)
             + "".join(f"{heading:>{w}}" for heading, w in columns))]]
    for colour in game.players:
        you = " (you)" if colour == state.label else ""
        name = fit(state.name_of(colour), max(name_column - 1 - len(you), 3), ascii=ascii).rstrip()
        line = [letter(state, colour),
                ("", fit(f" {name}{you}{_away(state, colour)}", name_column, ascii=ascii))]
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


def score_table(state: TableState, result: Result, shown: str | None, width: int, *,
                ascii: bool = False) -> list[Fragments]:
    """Waddles, pools and total per player, best first (each half too in a mirror match),
    winners starred once the game is over, names using what is left of ``width`` columns
    (at least :data:`SCORE_NAME` columns); the player ``shown`` selected."""
    game = game_of(state)
    star = "*" if ascii else "★"
    column = max(SCORE_NAME, width - 1 - len(SCORE_HEADING) - 2)
    out = [[("class:heading", f"{'':{column + 1}}{SCORE_HEADING}")]]
    for colour in sorted(game.players, key=lambda p: -result.scores[p].total):
        score = result.scores[colour]
        name = fit(f" {state.name_of(colour)}", column, ascii=ascii)
        marker = (" " + star) if colour in result.winners else ""
        style = "class:selected" if colour == shown else ""
        out.append([letter(state, colour),
                    (style, f"{name}{score.waddles:>7}{score.pools:>6}{score.total:>6}{marker}")])
        if game.mirror_match and len(result.halves) > 1:
            for half, sheet in enumerate(result.halves, 1):
                s = sheet.scores[colour]
                out.append([("class:dim", f"  {fit(f'half {half}', column - 1)}{s.waddles:>7}{s.pools:>6}{s.total:>6}")])
    return out


@dataclass
class Log:
    """The event log laid out so far (:func:`extend_log`): ``lines``, one per event worth
    one, for the view's first ``events`` events, ``actions`` of them actions; ``active``
    is the active hex after them and ``before`` the active hex each action was taken
    next to (a take-back goes back to it)."""

    active: Hex
    events: int = 0
    actions: int = 0
    before: list[Hex] = field(default_factory=list)
    lines: list[Fragments] = field(default_factory=list)


def log_lines(state: TableState, first_active: Hex) -> list[Fragments]:
    """The event log: one line per event worth one, oldest first (:func:`extend_log` from
    the game's first active hex, ``first_active``)."""
    log = Log(first_active)
    extend_log(state, log)
    return log.lines


def extend_log(state: TableState, log: Log) -> None:
    """Lay out the view's events after the first ``log.events`` into ``log`` (changed in
    place: a frame after an event lays out that event alone). Places are named as the
    board shows them ("next to water 4": the active hex then); an action a bot chose for
    a person's seat (a stand-in, a turn the timer ended) is logged as the bot's
    (``state.choosers``)."""
    events = state.view.events
    for event in events[log.events:]:
        if isinstance(event, (Placed, Scouted)):
            chooser = state.choosers[log.actions] if log.actions < len(state.choosers) else None
            log.actions += 1
            log.before.append(log.active)
            log.lines.append(_who(state, event.player, chooser) + _did(state, event, log.active))
        elif isinstance(event, TookBack):
            log.active = log.before.pop() if log.before else log.active
            log.lines.append(player_label(state, event.player) + _took_back(state, event, log.active))
        elif isinstance(event, RoundEnded) and event.active_hex is not None:
            log.active = event.active_hex
            log.lines.append(event_line(state, event))
        elif not isinstance(event, RoundEnded):
            log.lines.append(event_line(state, event))
    log.events = len(events)


def _who(state: TableState, label: str, chooser: str | None) -> Fragments:
    """The seat's letter and name, and "'s stand-in (KIND bot)" when a bot chose for a person."""
    seat = next((s for s in state.seats if s.label == label), None)
    person = seat is None or seat.bot is None or seat.standin
    stand_in = f"'s stand-in ({chooser} bot)" if chooser and person else ""
    return [letter(state, label), ("", f" {state.name_of(label)}{stand_in}")]


def _water(state: TableState, hex: Hex) -> str:
    return f"water {game_of(state).map.water[hex].number}"


def _did(state: TableState, event: Placed | Scouted, active: Hex) -> Fragments:
    if isinstance(event, Scouted):
        return [("", " scouted ahead")]
    what = "a double" if event.double else "a penguin"
    return [("", f" placed {what} next to {_water(state, active)}")]


def _took_back(state: TableState, event: TookBack, active: Hex) -> Fragments:
    if isinstance(event.action, Place):
        what = "double" if event.action.double else "penguin"
        return [("class:dim", f" took back the {what} next to {_water(state, active)}")]
    return [("class:dim", " took back the scout")]


def event_line(state: TableState, event: Event) -> Fragments:
    """A line of the log for an event that is not an action (round, half or game over)."""
    if isinstance(event, RoundEnded):
        return [("class:dim", f"- round over; next at {_water(state, event.active_hex)}")]
    if isinstance(event, HalfEnded):
        return [("class:dim", "- half 1 over; the board is cleared for half 2")]
    if isinstance(event, GameEnded):
        return [("class:dim", "- game over")]
    return [("class:dim", f"- {type(event).__name__}")]
