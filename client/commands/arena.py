"""``waddle arena ENTRANT ...``: built-in bots and external bot commands play a schedule
of games, each on a real table on 127.0.0.1, and get a rating table (docs/arena.md).

Entrants (:mod:`client.arena.entrants`): ``[NAME=]KIND[:BUDGET]`` (``greedy``, ``hard``,
``search:0.1`` seconds a move, ``search:500i`` iterations a move) or
``[NAME=]cmd:COMMAND`` (any program that speaks the protocol). A round robin of the
entrants, or ``--candidate C --field F``: each candidate against ``players - 1`` copies
of F. The table goes to stdout, progress to stderr; ``--json`` and ``--csv`` save
everything. Ctrl-C stops and still writes the results so far (exit status 130).
"""

from __future__ import annotations

import argparse
import os

from client.cli import seconds
from client.commands import bots_help, players_help

#: Games a round robin's default (one cycle) may have before --games is asked for.
MAX_DEFAULT_GAMES = 1000

#: The levels' measured strength (docs/arena.md, Measured strength), for the help.
LEVELS_MEASURED = ("Levels, measured in round robins of 60 games (to be re-measured with the new "
                   "search): the hex game, 3 players: hard won 94 %, medium 6 %, easy 0 %; "
                   "Waddle Downtown, 3 players: medium 60 %, hard 40 %, easy 0 %; 2 players: hard "
                   "ahead of medium in 75 % of their games. One hard against three medium: hex "
                   "94 %, Downtown 18 % (chance 25 %).")


def cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from client.commands.serve import add_game_arguments

    parser.epilog = (f"Entrants: KIND[:BUDGET] ({bots_help()}; budget 0.1 = seconds a move, "
                     "500i = iterations a move), "
                     "cmd:COMMAND (an external bot, started with HOST:PORT --name NAME --code CODE "
                     "appended), each optionally NAME=... . Example: waddle arena greedy search:0.1 "
                     "'cmd:python examples/stdlib_bot.py' --players 3 --games 30 --seed 1. "
                     f"{LEVELS_MEASURED} See docs/arena.md.")
    parser.add_argument("entrants", nargs="*", metavar="ENTRANT",
                        help="the entrants of a round robin (at least --players of them)")
    parser.add_argument("--candidate", action="append", default=[], metavar="ENTRANT",
                        help="one against the field: this entrant against --players - 1 copies "
                             "of --field (repeat for several candidates, who take turns)")
    parser.add_argument("--field", metavar="ENTRANT", help="the field's entrant (with --candidate)")
    parser.add_argument("--players", type=int, metavar="N",
                        help=f"seats at each table ({players_help()}; "
                             "default: the number of entrants, at most the game's most; with "
                             "--field 4, or the game's most if fewer)")
    parser.add_argument("--games", type=int, metavar="G",
                        help="games to play (default: one full cycle: every table in every "
                             "rotation; with --field, each candidate once in every seat)")
    parser.add_argument("--seed", type=int,
                        help="seed of the schedule, the deals and the bots (default: random, printed)")
    parser.add_argument("--jobs", type=int, default=cores(), metavar="J",
                        help=f"games played at once in worker processes, 1 to the number of cores "
                             f"(default {cores()}, the cores here)")
    parser.add_argument("--json", metavar="PATH", help="write everything as JSON here")
    parser.add_argument("--csv", metavar="PATH",
                        help="write one CSV row per entrant per game here")
    parser.add_argument("--records", metavar="DIR",
                        help="save every game's record in this folder (waddle replay shows them)")
    parser.add_argument("--move-timeout", type=seconds, metavar="SECONDS",
                        help="seconds a seat has per turn before a stand-in bot plays it "
                             "(default 10, or 5 times the largest time budget if more)")
    parser.add_argument("--join-timeout", type=seconds, default=15.0, metavar="SECONDS",
                        help="seconds an external command has to take its seat (default 15)")
    parser.add_argument("--game-timeout", type=seconds, default=1800.0, metavar="SECONDS",
                        help="seconds a game may last before it is abandoned (default 1800)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_game_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import time

    from client.arena import report, runner
    from client.arena.progress import Progress, clock

    ruleset, arena, plan, players, seed, mode = _prepare(args)
    progress = None if args.quiet else Progress(len(plan))
    jobs = min(args.jobs, len(plan))
    if progress is not None:
        progress.stream.write(f"waddle arena: {len(plan)} games of {ruleset.title}, {players} players, "
                              f"{mode}, seed {seed}, {jobs} at once\n")
    start = time.monotonic()
    results, stopped = runner.run(arena, plan, jobs=jobs, on_result=None if progress is None
                                  else lambda result: progress.step(_note(result, arena.entrants)))
    if progress is not None:
        progress.close()
    title = (f"{ruleset.title}, {players} players, {mode}: {len(results)} of {len(plan)} games "
             f"({sum(r.finished for r in results)} finished), seed {seed}, {clock(time.monotonic() - start)}"
             + (f"; {stopped}" if stopped else ""))
    print(report.text(arena, results, title))
    if args.json is not None:
        _write(args.json, report.to_json(arena, plan, results, mode=mode, seed=seed, players=players,
                                         stopped=stopped))
    if args.csv is not None:
        _write(args.csv, report.to_csv(arena, results))
    return 0 if stopped is None else 130 if stopped == runner.INTERRUPTED else 1


def _prepare(args: argparse.Namespace):
    """Everything checked before a game starts: ``(ruleset, arena, plan, players, seed, mode)``.

    Raises:
        ValueError: a bad entrant, count, option or output path (one line saying which).
    """
    import random

    from client.arena import entrants as parsing
    from client.arena import runner
    from client.arena.table import Limits
    from client.commands import check_writable
    from client.commands.serve import game_options
    from waddle.ruleset import get_ruleset

    ruleset = get_ruleset(args.game)
    field, mode = _entrant_texts(args)
    players = _players(args, ruleset, len(field), mode)
    entrants = tuple(parsing.unique_names([parsing.parse(text, args.game) for text in field]))
    options = game_options(args)
    ruleset.check_options(options, players)
    _check_counts(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    plan = _plan(args, mode, len(entrants), players, seed)
    for path in (args.json, args.csv):
        if path is not None:
            check_writable(path)
    if args.records is not None:
        os.makedirs(args.records, exist_ok=True)
    arena = runner.Arena(args.game, entrants, options, _limits(args, ruleset, entrants, Limits), args.records)
    return ruleset, arena, plan, players, seed, mode


def _entrant_texts(args: argparse.Namespace) -> tuple[list[str], str]:
    """The entrants as given, candidates first and the field last; and the mode's name."""
    if args.candidate or args.field:
        if not args.candidate or not args.field:
            raise ValueError("one against the field needs both --candidate and --field")
        if args.entrants:
            raise ValueError("give either entrants (a round robin) or --candidate and --field, not both")
        return [*args.candidate, args.field], "one against the field"
    if not args.entrants:
        raise ValueError("no entrants: give at least two (e.g. waddle arena greedy random) "
                         "or --candidate and --field")
    if len(args.entrants) < 2:
        raise ValueError("a round robin needs at least 2 entrants (or use --candidate and --field)")
    return list(args.entrants), "round robin"


def _players(args: argparse.Namespace, ruleset, entrants: int, mode: str) -> int:
    low, high = ruleset.players
    players = args.players
    if players is None:
        players = min(high, 4) if mode != "round robin" else min(high, entrants)
    if not low <= players <= high:
        raise ValueError(f"--players must be {low} to {high} for {ruleset.title}, not {players}")
    return players


def _check_counts(args: argparse.Namespace) -> None:
    if not 1 <= args.jobs <= cores():
        raise ValueError(f"--jobs must be 1 to {cores()} (the cores here), not {args.jobs}")
    if args.games is not None and args.games < 1:
        raise ValueError(f"--games must be at least 1, not {args.games}")
    if args.move_timeout is not None and args.move_timeout <= 0 or args.join_timeout <= 0 \
            or args.game_timeout <= 0:
        raise ValueError("the timeouts must be more than 0 seconds")


def _plan(args: argparse.Namespace, mode: str, entrants: int, players: int, seed: int):
    from client.arena import schedule

    if mode == "round robin":
        games = args.games
        if games is None:
            games = schedule.cycle_length(entrants, players) if entrants >= players else 1
            if games > MAX_DEFAULT_GAMES:
                raise ValueError(f"a full cycle of {entrants} entrants at {players}-player tables is "
                                 f"{games} games: choose how many with --games")
        return schedule.round_robin(entrants, players, games, seed)
    candidates = entrants - 1
    return schedule.one_against_field(candidates, players, args.games or candidates * players, seed)


def _limits(args: argparse.Namespace, ruleset, entrants, limits_type):
    """The games' limits: the move timeout defaults to 10 s, or 5 times the largest time
    budget of the built-in entrants (a level's own included) if that is more."""
    budgets = [ruleset.resolve_bot(e.kind, e.options())[1].get("seconds") for e in entrants if not e.external]
    budgets = [b for b in budgets if b is not None]
    move = args.move_timeout if args.move_timeout is not None else max(10.0, 5 * max(budgets, default=0))
    return limits_type(move=move, join=args.join_timeout, game=args.game_timeout)


def _note(result, entrants) -> str:
    """A game's line for a plain progress log: who won, or why it did not finish."""
    from protocol.text import clean

    if not result.finished:
        return f"game {result.index + 1}: not finished: {result.error}"
    won = " and ".join(clean(entrants[result.seats[w].entrant].name) for w in result.winners)
    faults = sum(len(seat.faults) for seat in result.seats)
    return f"game {result.index + 1}: {won} won" + (f", {faults} fault(s)" if faults else "")


def _write(path: str, data) -> None:
    """Write ``data`` (a JSON-ready dict, or CSV text) to ``path`` atomically."""
    from waddle.files import write_json

    if isinstance(data, str):
        tmp = f"{path}.tmp"
        with open(tmp, "w", encoding="utf-8", newline="") as out:
            out.write(data)
        os.replace(tmp, path)
    else:
        write_json(path, data)
