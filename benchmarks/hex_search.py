"""Search strength: the ``search`` bot against three ``uct`` bots (the previous search).

Plays 4-player games on seeded standard maps (map seed ``seed * 1000 + game``), one
``search`` bot against three ``uct`` bots at the same budget per move, the ``search``
bot in seat ``game % 4`` (so it opens as often as each other seat), the games spread
over worker processes. Prints the ``search`` bot's win rate (a win shared by ``k`` tied
winners counts ``1/k``) with its 95 % Wilson interval, its outright wins, its mean margin
over the best other player (VP), and both bots' iterations per second of thinking.
Chance is 25 %. Each game's result and the win rate so far go to stderr as the games end.

The ``search`` options are flags, so each lever can be measured on its own:
``--solver 0`` turns the exact endgame off, ``--no-touching`` the touching rule for
doubles, ``--no-common`` the common random numbers of the playouts; all off leaves the
search's own fast playouts. ``--search-seconds`` and ``--search-iterations`` give the
``search`` bot a budget of its own (to calibrate what more time is worth, or to compare
levers at a fixed ratio of iterations, whatever the machine's load).

Run: ``PYTHONPATH=. python benchmarks/hex_search.py [--games N] [--seconds S | --iterations I]
[--seed K] [--jobs J] [search options]`` from the repository's root; ``--smoke`` is the
smallest run (one game at 5 iterations a move: that it runs, not a figure).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from waddle import COLOURS, Game
from waddle.hex.bots import make_bot
from waddle.hex.tiles import standard_map

PLAYERS = 4


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares: the budget per move (``search_seconds`` and
    ``search_iterations``, if given, replace ``seconds`` and ``iterations`` for the
    ``search`` bot), the seed, the ``search`` options."""

    seconds: float | None
    iterations: int | None
    seed: int
    options: dict
    search_seconds: float | None = None
    search_iterations: int | None = None


@dataclass(frozen=True)
class Outcome:
    """One game as the ``search`` bot saw it.

    ``share`` is its win share (``1/k`` for a win shared by ``k``), ``margin`` its total
    minus the best other total (VP); ``iterations`` and ``thinking`` (seconds) are summed
    over the moves each side searched: ``[search, uct]``.
    """

    share: float
    margin: int
    iterations: tuple[int, int]
    thinking: tuple[float, float]


def play_game(setup: Setup, number: int) -> Outcome:
    """Play game ``number`` of a run to the end."""
    seat = number % PLAYERS
    budget = {"seconds": setup.seconds, "iterations": setup.iterations}
    searching = {"seconds": setup.search_seconds or setup.seconds,
                 "iterations": setup.search_iterations or setup.iterations, **setup.options}
    bots = [make_bot("search", setup.seed * 100_000 + number * 10 + s, **searching)
            if s == seat else make_bot("uct", setup.seed * 100_000 + number * 10 + s, **budget)
            for s in range(PLAYERS)]
    game = Game(standard_map(PLAYERS, setup.seed * 1000 + number), COLOURS[:PLAYERS])
    iterations, thinking = [0, 0], [0.0, 0.0]
    while not game.is_over:
        bot = bots[game.current_seat]
        start = time.perf_counter()
        action = bot.choose(game)
        took = time.perf_counter() - start
        if bot.last_iterations:
            side = 0 if bot is bots[seat] else 1
            iterations[side] += bot.last_iterations
            thinking[side] += took
        game.apply(action)
    totals = game.live_totals()
    best = max(totals)
    share = 1 / totals.count(best) if totals[seat] == best else 0.0
    return Outcome(share, totals[seat] - max(totals[:seat] + totals[seat + 1:]),
                   tuple(iterations), tuple(thinking))


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (95 % for ``z=1.96``)."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play_all(setup: Setup, games: int, jobs: int) -> list[Outcome]:
    """Play ``games`` games, in ``jobs`` worker processes (in this one for 1); each game's
    share and margin, and the win rate so far, are written to stderr as it ends."""
    numbers = range(games)
    if jobs == 1:
        return _followed(map(play_game, [setup] * games, numbers))
    with ProcessPoolExecutor(jobs) as pool:
        return _followed(pool.map(play_game, [setup] * games, numbers))


def _followed(outcomes) -> list[Outcome]:
    done: list[Outcome] = []
    for outcome in outcomes:
        done.append(outcome)
        print(f"game {len(done) - 1}: share {outcome.share:g}, margin {outcome.margin:+d}; "
              f"{sum(o.share for o in done) / len(done):.1%} so far", file=sys.stderr, flush=True)
    return done


def report(outcomes: list[Outcome]) -> str:
    """The run's figures as text."""
    n = len(outcomes)
    share = sum(o.share for o in outcomes)
    low, high = wilson(share, n)
    outright = sum(o.share == 1 for o in outcomes)
    margin = sum(o.margin for o in outcomes) / n
    rates = [sum(o.iterations[i] for o in outcomes) / max(sum(o.thinking[i] for o in outcomes), 1e-9)
             for i in (0, 1)]
    return (f"search win rate {share / n:.1%} (95% {low:.1%}-{high:.1%}), {share:g} of {n} games; "
            f"outright {outright} ({outright / n:.1%}); mean margin {margin:+.2f} VP\n"
            f"iterations/s: search {rates[0]:,.0f}, uct {rates[1]:,.0f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="time budget per move (default 0.1, or none with --iterations)")
    parser.add_argument("--iterations", type=int, default=None, help="iteration budget per move")
    parser.add_argument("--seed", type=int, default=1, help="seed of maps and bots (default 1)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="worker processes (default: 2, or 1 on one core)")
    parser.add_argument("--exploration", type=float, default=0.35,
                        help="search: UCB1 constant (default 0.35)")
    parser.add_argument("--solver", type=int, default=4,
                        help="search: exact endgame from this many placements left (0: off)")
    parser.add_argument("--no-touching", dest="touching", action="store_false",
                        help="search: no touching rule for doubles")
    parser.add_argument("--no-common", dest="common", action="store_false",
                        help="search: no common random numbers across root actions")
    parser.add_argument("--search-seconds", type=float, default=None,
                        help="calibration: a different time budget for the search bot")
    parser.add_argument("--search-iterations", type=int, default=None,
                        help="calibration: a different iteration budget for the search bot")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest setting: one game at 5 iterations a move, one process")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games, args.seconds, args.iterations, args.jobs = 1, None, 5, 1
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    if args.seconds is None and args.iterations is None:
        args.seconds = 0.1
    options = {"exploration": args.exploration, "solver": args.solver, "touching": args.touching,
               "common": args.common}
    setup = Setup(args.seconds, args.iterations, args.seed, options, args.search_seconds,
                  args.search_iterations)
    load, start = os.getloadavg()[0], time.perf_counter()
    outcomes = play_all(setup, args.games, args.jobs)
    searching = "" if args.search_seconds is None else f" (search: {args.search_seconds} s)"
    if args.search_iterations is not None:
        searching += f" (search: {args.search_iterations} iterations)"
    print(f"{args.games} games, budget per move: seconds={args.seconds}{searching} "
          f"iterations={args.iterations}, seed {args.seed}, search options {options}")
    print(report(outcomes))
    print(f"{time.perf_counter() - start:.0f} s on {args.jobs} processes; load average "
          f"{load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
