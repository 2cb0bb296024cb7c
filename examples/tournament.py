"""A small bot tournament on the engine alone (no network), with a results table.

Each game is played on a fresh seeded standard map; the bots change seats every game
(bot ``i`` sits at seat ``(i + game) % players``), so each one opens as often as the
others. A shared first place counts as a win for everyone in it.

    python examples/tournament.py --bots search greedy greedy greedy --games 20 --seconds 0.1

prints one row per bot: games, wins, win rate, average score and average margin over
the best other player (VP).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

from waddle import COLOURS, Game
from waddle.hex.bots import BOTS, SEARCHES, make_bot
from waddle.hex.tiles import standard_map


@dataclass
class Standing:
    """One bot's results: ``label`` (kind and entry number), wins and scores per game."""

    label: str
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)


def play_game(bots: list, seed: int, mirror_match: bool = False) -> list[int]:
    """Play one game with ``bots`` in seat order on ``standard_map(len(bots), seed)``; return totals."""
    game = Game(standard_map(len(bots), seed), COLOURS[:len(bots)], mirror_match=mirror_match)
    while not game.is_over:
        game.apply(bots[game.players.index(game.current_player)].choose(game))
    return game.live_totals()


def run_tournament(kinds: list[str], games: int, seed: int = 0, *,
                   seconds: float | None = 0.1, iterations: int | None = None,
                   mirror_match: bool = False) -> list[Standing]:
    """Play ``games`` games between bots of ``kinds`` (2 to 5); return their standings.

    ``seconds`` and ``iterations`` are the search bots' budgets per move.

    Raises:
        ValueError: for an unknown bot kind or a player count outside 2..5.
    """
    n = len(kinds)
    if not 2 <= n <= 5:
        raise ValueError(f"a tournament table seats 2 to 5 bots, not {n}")
    options = dict.fromkeys(SEARCHES, {"seconds": seconds, "iterations": iterations})
    standings = [Standing(f"{kind}#{i + 1}") for i, kind in enumerate(kinds)]
    for g in range(games):
        entrants = [(g + s) % n for s in range(n)]       # seat s -> entry number
        bots = [make_bot(kinds[e], seed * 1000 + g * 10 + e, **options.get(kinds[e], {}))
                for e in entrants]
        totals = play_game(bots, seed * 1000 + g, mirror_match)
        best = max(totals)
        for s, e in enumerate(entrants):
            standings[e].wins += totals[s] == best
            standings[e].scores.append(totals[s])
            standings[e].margins.append(totals[s] - max(totals[:s] + totals[s + 1:]))
    return standings


def table(standings: list[Standing]) -> str:
    """The results as a plain-text table, best win rate first."""
    rows = [f"{'bot':<10} {'games':>5} {'wins':>5} {'win %':>6} {'avg score':>9} {'avg margin':>10}"]
    for s in sorted(standings, key=lambda s: (-s.wins, s.label)):
        n = len(s.scores)
        rows.append(f"{s.label:<10} {n:>5} {s.wins:>5} {100 * s.wins / n:>6.1f} "
                    f"{sum(s.scores) / n:>9.1f} {sum(s.margins) / n:>+10.1f}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", nargs="+", default=["search", "greedy", "greedy", "greedy"],
                        choices=sorted(BOTS), metavar="KIND",
                        help=f"2 to 5 bot kinds, one per seat ({', '.join(BOTS)})")
    parser.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed for maps and bots (default 0)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="search bots' time budget per move, seconds "
                             "(default 0.1, or none with --iterations)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="search bots' iteration budget per move (default: none)")
    parser.add_argument("--mirror-match", action="store_true", help="play mirror matches")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.seconds is None and args.iterations is None:
        args.seconds = 0.1
    start = time.perf_counter()
    try:
        standings = run_tournament(args.bots, args.games, args.seed, seconds=args.seconds,
                                   iterations=args.iterations, mirror_match=args.mirror_match)
    except ValueError as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    print(table(standings))
    budget = " and ".join(b for b in (args.seconds and f"{args.seconds} s",
                                      args.iterations and f"{args.iterations} iterations") if b)
    search = f", search budget {budget} per move" if set(SEARCHES) & set(args.bots) else ""
    print(f"{args.games} games, {len(args.bots)} players{search}, "
          f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
