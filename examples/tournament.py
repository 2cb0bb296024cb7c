"""A small bot tournament through the arena's Python API: what ``waddle arena`` runs,
as a script you can change (docs/arena.md has the command and its options).

Every game is a real table on 127.0.0.1; the entrants (built-in bots at budgets, levels,
``cmd:`` external bots) play a seeded round robin, seats rotated so each opens as often
as the others, and the table rates them (openskill) with 95 % intervals on win rates.

    python examples/tournament.py --bots search:200i greedy greedy greedy --games 8 --seed 1
"""

from __future__ import annotations

import argparse
import sys

from client.arena import entrants, report, runner, schedule


def run_tournament(specs: list[str], games: int, seed: int = 0, *, game: str = "hex",
                   jobs: int = 1) -> tuple[runner.Arena, list]:
    """Play ``games`` games of a round robin among ``specs`` (entrant texts, one per seat:
    ``waddle arena``'s syntax) of ``game``; return the arena and the games' results.

    Raises:
        ValueError: a bad entrant, or not 2 to the game's most players.
    """
    field = tuple(entrants.unique_names([entrants.parse(spec, game) for spec in specs]))
    plan = schedule.round_robin(len(field), len(field), games, seed)
    arena = runner.Arena(game, field)
    results, _ = runner.run(arena, plan, jobs=jobs)
    return arena, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", nargs="+", default=["search:0.1", "greedy", "greedy", "greedy"],
                        metavar="ENTRANT", help="2 to 5 entrants, one per seat (default: "
                                                "search:0.1 greedy greedy greedy)")
    parser.add_argument("--games", type=int, default=8, help="games to play (default 8)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the schedule and games (default 0)")
    args = parser.parse_args(argv)
    try:
        arena, results = run_tournament(args.bots, args.games, args.seed)
    except ValueError as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    print(report.text(arena, results, f"{len(results)} games, {len(arena.entrants)} players, seed {args.seed}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
