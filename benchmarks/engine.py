"""Engine speed: random full games per second on the standard maps, on one core.

For 2, 4 and 5 players and several map seeds, plays random games from the empty board
to the end through the fast path (``legal_actions`` and ``push``, one ``random.choice``
an action) and then scores them, and prints games per second for:

- ``score``: the final score by :meth:`Game.live_totals` (what bots use);
- ``result``: the final :meth:`Game.result`, with the full breakdown (every waddle and
  pool as objects);
- ``apply``: the checked path, :meth:`Game.apply` (checks, events, and the
  ``GameEnded`` event's result at the end).

Same-run baseline: ``bare``, the bare Python loop drawing the same number of
``random.choice`` from a fixed 7-item tuple, per game: the floor any engine pays here.

Run: ``python benchmarks/engine.py [--seconds S] [--seeds N]``; ``--smoke`` is the
smallest setting (one seed, a few milliseconds a measure: that it runs, not a figure).
Target (issue 2): at least 10,000 random 4-player games per second.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial

from waddle import COLOURS, Game
from waddle.hex.tiles import standard_map


def play(map, players, rng):
    """One random game to the end with legal_actions and push; returns the game."""
    game = Game(map, players)
    legal, push, choice = game.legal_actions, game.push, rng.choice
    moves = legal()
    while moves:
        push(choice(moves))
        moves = legal()
    return game


def score_games(map, players, rng, count):
    for _ in range(count):
        play(map, players, rng).live_totals()


def result_games(map, players, rng, count):
    for _ in range(count):
        play(map, players, rng).result()


def apply_games(map, players, rng, count):
    for _ in range(count):
        game = Game(map, players)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))


def bare_loop(actions, rng, count):
    fixed = tuple(range(7))
    choice = rng.choice
    for _ in range(count):
        moves = fixed
        for _ in range(actions):
            choice(moves)


def rate(run, seconds):
    """Games per second of ``run(count)``: the best of batches over about ``seconds``."""
    count, best, spent = 16, 0.0, 0.0
    while spent < seconds:
        start = time.perf_counter()
        run(count)
        took = time.perf_counter() - start
        spent += took
        best = max(best, count / took)
        count = min(count * 2, 256)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--seeds", type=int, default=3, help="map seeds per player count")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest setting: one seed, 0.02 s a measure (checks it runs)")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.seeds = 0.02, 1
    samples = 5 if args.smoke else 200
    print(f"{'players':>7} {'seed':>4} {'ice':>4} {'actions':>7} {'score/s':>8} "
          f"{'us/action':>9} {'result/s':>8} {'apply/s':>8} {'bare us/game':>12}")
    for n in (2, 4, 5):
        players = COLOURS[:n]
        for seed in range(1, args.seeds + 1):
            map = standard_map(n, seed)
            rng = random.Random(seed)
            actions = sum(len(play(map, players, rng)) for _ in range(samples)) / samples
            score = rate(partial(score_games, map, players, rng), args.seconds)
            result = rate(partial(result_games, map, players, rng), args.seconds)
            checked = rate(partial(apply_games, map, players, rng), args.seconds / 2)
            bare = rate(partial(bare_loop, round(actions), rng), args.seconds / 2)
            print(f"{n:>7} {seed:>4} {len(map.ice):>4} {actions:>7.1f} {score:>8,.0f} "
                  f"{1e6 / score / actions:>9.2f} {result:>8,.0f} {checked:>8,.0f} "
                  f"{1e6 / bare:>12.1f}")


if __name__ == "__main__":
    main()
