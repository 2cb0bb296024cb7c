"""An arena's results for people and programs: the standings as a text table, everything
as JSON (the arena, the schedule, every game, the table) and one CSV row per entrant per
game (docs/arena.md, Output)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

import msgspec

from client.arena.ratings import Finish, Standing, head_to_head, ranks, standings, win_shares
from client.arena.runner import Arena
from client.arena.schedule import Seating
from client.arena.table import GameResult
from protocol.text import clean

#: How the table counts wins, said wherever it is shown.
WINS_NOTE = "a win shared by k tied winners counts 1/k"
#: The CSV's columns, one row per entrant per game.
CSV_COLUMNS = ("game", "seed", "seat", "label", "entrant", "score", "rank", "win", "margin",
               "standin_moves", "faults", "finished")
#: Faults listed under the text table, at most.
FAULT_LINES = 10
#: Entrants up to which the text shows the head-to-head table.
HEAD_TO_HEAD = 8


def finishes(results: Sequence[GameResult]) -> list[Finish]:
    """The finished games of ``results``, as the standings need them."""
    return [Finish(tuple(s.entrant for s in r.seats), tuple(s.score for s in r.seats), r.winners)
            for r in results if r.finished]


def table(arena: Arena, results: Sequence[GameResult]) -> list[Standing]:
    """The standings over the finished games of ``results``."""
    return standings(finishes(results), len(arena.entrants))


def text(arena: Arena, results: Sequence[GameResult], title: str) -> str:
    """The standings as a plain-text table under ``title``, the head-to-head table (3 to
    :data:`HEAD_TO_HEAD` entrants), then the faults and the games not counted."""
    names = [clean(e.name) for e in arena.entrants]
    width = max(7, *map(len, names))
    faults = _faults(arena, results)
    lines = [title, "",
             f"{'#':>2}  {'entrant':<{width}} {'games':>5} {'wins':>6} {'win %':>6}  {'95 % interval':<13}"
             f" {'rating mu ± sigma':>17} {'ordinal':>7} {'score':>6} {'margin':>6} {'faults':>6}"]
    count = {e: sum(1 for _, entrant, _ in faults if entrant == e) for e in range(len(names))}
    for place, s in enumerate(table(arena, results), 1):
        lines.append(f"{place:>2}  {names[s.entrant]:<{width}} {s.games:>5} {_wins(s.wins):>6} "
                     f"{100 * s.win_rate:>6.1f}  {_interval(s):<13} {s.mu:>8.1f} ± {s.sigma:<6.2f}"
                     f" {s.ordinal:>7.1f} {s.score:>6.1f} {s.margin:>+6.1f} {count[s.entrant]:>6}")
    lines += ["", f"Wins: {WINS_NOTE}. Rating: openskill Plackett-Luce over each game's "
                  "places; ordinal = mu - 3 sigma (the order)."]
    if 2 < len(names) <= HEAD_TO_HEAD:
        lines += ["", *_head_to_head(names, finishes(results), width)]
    if faults:
        lines += ["", "Faults:"] + [f"  game {g + 1}, {names[e]}: {why}" for g, e, why in faults[:FAULT_LINES]]
        if len(faults) > FAULT_LINES:
            lines.append(f"  ... and {len(faults) - FAULT_LINES} more (see the JSON)")
    unfinished = [r for r in results if not r.finished]
    if unfinished:
        lines += ["", f"Not counted ({len(unfinished)} games did not finish):"] + [
            f"  game {r.index + 1}: {r.error}" for r in unfinished[:FAULT_LINES]]
    return "\n".join(lines)


def _head_to_head(names: list[str], done: list[Finish], width: int) -> list[str]:
    """Each row's entrant finished ahead of each column's in this % of their meetings."""
    pairs = head_to_head(done, len(names))
    cell = max(6, *map(len, names))
    lines = ["Head to head: % of meetings the row finished ahead of the column (ties half)",
             f"    {'':<{width}} " + " ".join(f"{n:>{cell}}" for n in names)]
    for a, name in enumerate(names):
        cells = [f"{'-':>{cell}}" if not pairs[a][b][1] else f"{100 * pairs[a][b][0] / pairs[a][b][1]:>{cell}.0f}"
                 for b in range(len(names))]
        lines.append(f"    {name:<{width}} " + " ".join(cells))
    return lines


def _wins(wins: float) -> str:
    """Win shares as people count them: ``12`` or ``12.5``, thirds as ``0.33``."""
    return f"{wins:.0f}" if wins == int(wins) else f"{wins:.2f}".rstrip("0")


def _interval(s: Standing) -> str:
    return f"[{100 * s.low:.1f}, {100 * s.high:.1f}]"


def _faults(arena: Arena, results: Sequence[GameResult]) -> list[tuple[int, int, str]]:
    return [(r.index, seat.entrant, clean(why)) for r in results for seat in r.seats for why in seat.faults]


def to_json(arena: Arena, plan: Sequence[Seating], results: Sequence[GameResult], *,
            mode: str, seed: int, players: int, stopped: str | None) -> dict[str, Any]:
    """Everything, JSON-ready: ``arena`` (the game, its options, mode, seed, entrants,
    limits, games planned and played, whether and why the run ``stopped`` early),
    ``schedule`` (every game's
    seed and entrants by seat), ``games`` (every played game's seats, scores, winners,
    faults), ``table`` (the standings, best first, with each entrant's name) and
    ``head_to_head`` (entrant -> entrant -> ``ahead`` of ``meetings``: how often the first
    finished ahead, ties half)."""
    names = [e.name for e in arena.entrants]
    return {
        "arena": {"game": arena.game, "options": msgspec.to_builtins(arena.options), "mode": mode,
                  "seed": seed, "players": players, "games": len(plan), "played": len(results),
                  "finished": sum(r.finished for r in results), "interrupted": stopped is not None,
                  "stopped": stopped,
                  "limits": msgspec.to_builtins(arena.limits), "wins": WINS_NOTE,
                  "entrants": [msgspec.to_builtins(e) for e in arena.entrants]},
        "schedule": [{"game": s.index, "seed": s.seed, "seats": [names[e] for e in s.seats]} for s in plan],
        "games": [{**msgspec.to_builtins(r), "seats": [{**msgspec.to_builtins(seat), "entrant": names[seat.entrant]}
                                                         for seat in r.seats]} for r in results],
        "table": [{"entrant": names[s.entrant], **{k: v for k, v in msgspec.to_builtins(s).items() if k != "entrant"}}
                  for s in table(arena, results)],
        "head_to_head": {names[a]: {names[b]: {"ahead": points, "meetings": meetings}
                                    for b, (points, meetings) in enumerate(row) if meetings}
                         for a, row in enumerate(head_to_head(finishes(results), len(names)))},
    }


def to_csv(arena: Arena, results: Sequence[GameResult]) -> str:
    """One row per entrant per game (:data:`CSV_COLUMNS`): its seat, score, place (1 best),
    share of the win, margin over the best other seat, stand-in moves and faults."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in results:
        scores = [seat.score for seat in r.seats]
        places = ranks(scores, r.winners) if r.finished else [None] * len(scores)
        shares = win_shares(Finish((), tuple(scores), r.winners)) if r.finished else [None] * len(scores)
        for number, seat in enumerate(r.seats):
            margin = seat.score - max(s for i, s in enumerate(scores) if i != number)
            writer.writerow((r.index, r.seed, number, seat.label, arena.entrants[seat.entrant].name,
                             seat.score, places[number], shares[number], margin, seat.standin_moves,
                             "; ".join(seat.faults), r.finished))
    return out.getvalue()
