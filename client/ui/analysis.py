"""The search bot's analysis on the screen: the expected scores, the progress of a search,
and the replay viewer's evaluation graph and move list.

Pure functions of the table state, the game's view and what was analysed, giving
prompt-toolkit fragment lines (:mod:`client.ui.panels` joins them into the side panel).
Expected scores are every seat's expected final score in points
(:class:`waddle.ruleset.Analysis`); the graph draws each seat's across the game's steps.
"""

from __future__ import annotations

import textwrap

from prompt_toolkit.utils import get_cwidth

from client.state import TableState
from client.ui.analyst import Batch
from client.ui.gameview import GameView
from client.ui.replay import IN_PLAY_LINE
from client.ui.text import Fragments, fit, letter
from protocol.text import clean

#: The graph's levels, lowest first (and in ASCII).
BARS, ASCII_BARS = " ▁▂▃▄▅▆▇█", " .-=+*#%@"


def expected_lines(state: TableState, view: GameView, analysis, title: str, width: int, *,
                   ascii: bool = False) -> list[Fragments]:
    """``title``, every seat's expected final score (the names in one column, fitted to
    ``width``, so the scores line up), then the best action and whose it is."""
    labels = state.view.labels
    values = [f"{value:.1f}" for value in analysis.expected]
    digits = max(map(len, values))
    room = width - len("  R ") - len("  ") - digits
    names = min(max(get_cwidth(state.name_of(label)) for label in labels), max(room, 4))
    lines: list[Fragments] = [[("class:heading", title)]]
    for seat in sorted(range(len(values)), key=lambda seat: -analysis.expected[seat]):
        name = fit(state.name_of(labels[seat]), names, ascii=ascii)
        lines.append([("", "  "), letter(state, labels[seat]), ("", f" {name}  {values[seat]:>{digits}}")])
    if analysis.best is not None:
        lines.append([("", "  best for "), letter(state, labels[analysis.seat]),
                      ("class:suggest", f" {view.action_text(analysis.best)} ")])
    return lines


def progress_line(batch: Batch, width: int, *, ascii: bool = False) -> Fragments:
    """``Analysing the whole game [####....] 3/35  Esc stops``, fitted to ``width``."""
    total = len(batch.jobs)
    head, tail = f"Analysing {batch.what} ", f" {batch.done}/{total}  Esc stops"
    room = max(width - len(head) - len(tail) - 2, 4)
    filled = round(room * batch.progress)
    full, empty = ("#", ".") if ascii else ("█", "░")
    return [("class:dim", head), ("class:graph", f"[{full * filled}{empty * (room - filled)}]"),
            ("class:dim", tail)]


def graph_lines(state: TableState, replay, width: int, *, ascii: bool = False) -> list[Fragments]:
    """The evaluation graph: one row per seat, one column per step (steps share a column
    when there are more than fit), the height of each bar that seat's expected final score
    (from the lowest to the highest of the game); a blank column: not analysed yet. The
    row under it marks the step shown."""
    if not replay.analyses:
        return []
    labels = state.view.labels
    bars = ASCII_BARS if ascii else BARS
    steps = len(replay) + 1
    columns = max(1, min(steps, width - 3))
    values = [v for a in replay.analyses.values() for v in a.expected]
    low, high = min(values), max(values)
    lines: list[Fragments] = [[("class:heading", "Expected final score")]]
    for seat, label in enumerate(labels):
        row = ""
        for column in range(columns):
            analysis = replay.analyses.get(column * steps // columns)
            if analysis is None:
                row += " "
            else:
                share = (analysis.expected[seat] - low) / (high - low) if high > low else 1.0
                row += bars[1 + round(share * (len(bars) - 2))]
        lines.append([letter(state, label), ("", " "), ("class:graph", row)])
    at = replay.step * columns // steps
    lines.append([("", "  " + " " * at), ("class:dim", "^" if ascii else "▲")])
    return lines


def move_lines(state: TableState, view: GameView, replay, width: int, rows: int, *,
               ascii: bool = False) -> list[Fragments]:
    """The move list in ``rows`` lines around the step shown: ``12 R Ann place 1,2 ??``,
    the last action played marked and highlighted, blunders and mistakes marked."""
    labels, marks = state.view.labels, replay.marks()
    arrow = ">" if ascii else "▶"
    current = replay.step - 1
    first = max(0, min(current - rows // 2, len(replay) - rows))
    lines: list[Fragments] = []
    for number in range(first, min(len(replay), first + max(rows, 0))):
        seat = replay.actions[number][0]
        mark = marks.get(number, "")
        here = number == current
        text = fit(f" {state.name_of(labels[seat])}: {view.move_text(replay.events[number])}",
                   width - 7 - len(mark), ascii=ascii)
        lines.append([("class:selected" if here else "", f"{arrow if here else ' '}{number + 1:>3} "),
                      letter(state, labels[seat]), ("class:selected" if here else "", text),
                      ("class:blunder", f" {mark}" if mark else "")])
    return lines


def replay_panel(state: TableState, view: GameView, replay, batch: Batch | None, width: int,
                 height: int, *, ascii: bool = False) -> list[Fragments]:
    """The replay viewer's side panel: the game's lines at the step shown (tracks, players,
    the live score), why there is no analysis (a game with secrets in play) or the
    analysis of the step, the progress of a search, the evaluation graph, what of the
    file's journal was left out, then the move list filling the rest of ``height``."""
    lines = view.panel_top(width)
    if not replay.analysable:
        lines += [[("class:dim", row)] for row in textwrap.wrap(IN_PLAY_LINE, max(width, 10))]
    analysis = replay.analyses.get(replay.step)
    if analysis is not None:
        lines += expected_lines(state, view, analysis, "Search bot: expected final score", width, ascii=ascii)
    if batch is not None:
        lines.append(progress_line(batch, width, ascii=ascii))
    lines += graph_lines(state, replay, width, ascii=ascii)
    lines += [[("class:notice", row)] for row in textwrap.wrap(clean(replay.left_out), max(width, 10))]
    lines.append([("class:heading", f"Moves ({replay.step}/{len(replay)})")])
    return lines + move_lines(state, view, replay, width, height - len(lines), ascii=ascii)
