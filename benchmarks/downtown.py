"""Waddle Downtown: engine speed, search speed and search against greedy, on one core.

Prints, for 2, 3 and 4 players, per-player decks and the single deck:

- ``step/s``: random games per second from the deal to the end through the fast path
  (:func:`~waddle.downtown.legal.random_action` and :meth:`State.step`), what search
  playouts use; ``apply/s``: the same through the checked :meth:`State.apply` (events);
- ``bare``: the same-run baseline, the bare Python loop drawing as many ``random.choice``
  from a fixed tuple as a game has actions, in µs per game.

Then the search bot's iterations per second at the first play of a 2-player and a
4-player game (the same-run baseline: the greedy bot's moves per second over the plays of
a few random games, each position once: an iteration costs about two greedy moves and a
deal), and with
``--match N``: N 2-player games of ``search`` (``--move-seconds`` a move) against
``greedy``, alternating who starts, with the search bot's win rate and its 95 % Wilson
interval (a shared victory counts half).

Run: ``python benchmarks/downtown.py [--seconds S] [--iterations N] [--match N
[--move-seconds S]]``; the full match: ``--match 200 --move-seconds 0.5``. Goal: search
wins at least 60 %. Smallest run (a test): ``--seconds 0.01 --iterations 1 --match 1
--move-seconds 0.01``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Sequence
from functools import partial

from waddle.downtown.bots import GreedyBot, SearchBot
from waddle.downtown.cards import bundled_deck
from waddle.downtown.legal import random_action
from waddle.downtown.options import DowntownOptions
from waddle.downtown.position import Position
from waddle.downtown.ruleset import RULESET
from waddle.downtown.state import PLAY, State, shuffle

LABELS = ("blue", "green", "purple", "cyan")


def deal(players: int, single: bool, seed: int) -> State:
    deck = bundled_deck()
    return State.deal(deck, LABELS[:players], shuffle(deck, players, single, seed), single=single)


def random_game(start: State, rng: random.Random, checked: bool) -> int:
    """Play a random game from ``start`` (a copy) to the end; return its number of actions."""
    state = start.copy()
    actions = 0
    while not state.is_over:
        seat = min(state.to_act())
        action = random_action(state, seat, rng)
        if checked:
            state.apply(seat, action)
        else:
            state.step(seat, action)
        actions += 1
    return actions


def random_games(start: State, rng: random.Random, checked: bool, count: int) -> None:
    for _ in range(count):
        random_game(start, rng, checked)


def bare_loop(actions: int, rng: random.Random, count: int) -> None:
    fixed = tuple(range(7))
    choice = rng.choice
    for _ in range(count):
        for _ in range(actions):
            choice(fixed)


def rate(run: Callable[[int], object], seconds: float) -> float:
    """Runs per second of ``run(count)``: the best of batches over about ``seconds``."""
    count, best, spent = 4, 0.0, 0.0
    while spent < seconds or best == 0.0:
        start = time.perf_counter()
        run(count)
        took = time.perf_counter() - start
        spent += took
        best = max(best, count / took)
        count = min(count * 2, 128)
    return best


def speed(seconds: float) -> None:
    print(f"{'players':>7} {'deck':>7} {'actions':>7} {'step/s':>8} {'apply/s':>8} {'bare us/game':>12}")
    for players in (2, 3, 4):
        for single in (False, True):
            start, rng = deal(players, single, 1), random.Random(players)
            actions = sum(random_game(start, rng, False) for _ in range(20)) / 20
            step = rate(partial(random_games, start, rng, False), seconds)
            checked = rate(partial(random_games, start, rng, True), seconds / 2)
            bare = rate(partial(bare_loop, round(actions), rng), seconds / 2)
            print(f"{players:>7} {'single' if single else 'own':>7} {actions:>7.1f} {step:>8,.0f} "
                  f"{checked:>8,.0f} {1e6 / bare:>12.1f}")


def first_play(players: int, seed: int) -> Position:
    """The position of the start player's first play (the setup discards made by greedy)."""
    state = deal(players, False, seed)
    greedy = GreedyBot(seed)
    while state.phase != PLAY:
        seat = min(state.to_act())
        state.apply(seat, greedy.choose(Position(state.redacted(seat), seat)))
    return Position(state.redacted(0), 0)


def play_positions(players: int, games: int, seed: int) -> list[Position]:
    """The position of every play of ``games`` random games, for the seat to play."""
    rng, out = random.Random(seed), []
    for game in range(games):
        state = deal(players, False, seed + game)
        while not state.is_over:
            seat = min(state.to_act())
            if state.phase == PLAY:
                out.append(Position(state.redacted(seat), seat))
            state.step(seat, random_action(state, seat, rng))
    return out


def search_speed(iterations: int) -> None:
    print(f"\n{'players':>7} {'search it/s':>11} {'greedy moves/s':>14}")
    for players in (2, 4):
        position = first_play(players, 3)
        bot = SearchBot(1, seconds=None, iterations=iterations)
        start = time.perf_counter()
        bot.choose(position)
        searched = iterations / (time.perf_counter() - start)
        positions = play_positions(players, 4, 5)
        greedy = GreedyBot(1)
        start = time.perf_counter()
        for each in positions:
            greedy.choose(each)
        moves = len(positions) / (time.perf_counter() - start)
        print(f"{players:>7} {searched:>11,.0f} {moves:>14,.1f}")


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate of ``wins`` in ``games``."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def duel(seed: int, search_first: bool, move_seconds: float) -> tuple[float, int]:
    """One 2-player game of search against greedy: the search bot's win share and margin."""
    options = DowntownOptions()
    match = RULESET.new_match(RULESET.prepare(options, 2, seed), options, LABELS[:2])
    me = 0 if search_first else 1
    bots = {me: SearchBot(seed, seconds=move_seconds), 1 - me: GreedyBot(seed)}
    while not match.is_over:
        seat = min(match.to_act())
        match.apply(seat, bots[seat].choose(match.position(seat)))
    outcome = match.outcome()
    share = 1 / len(outcome.winners) if me in outcome.winners else 0.0
    return share, outcome.scores[me] - outcome.scores[1 - me]


def search_match(games: int, move_seconds: float, seed: int) -> None:
    print(f"\nsearch ({move_seconds} s a move) against greedy, 2 players, {games} games, "
          f"seeds {seed}..{seed + games - 1}")
    wins = margin = 0.0
    started = time.perf_counter()
    for game in range(games):
        share, points = duel(seed + game, game % 2 == 0, move_seconds)
        wins += share
        margin += points
        if (game + 1) % 20 == 0 or game + 1 == games:
            low, high = wilson(wins, game + 1)
            print(f"  after {game + 1:>4} games: search won {wins:g} ({wins / (game + 1):.1%}, "
                  f"95 % interval {low:.1%}-{high:.1%}), average margin {margin / (game + 1):+.2f} "
                  f"points, {time.perf_counter() - started:.0f} s", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per speed measurement")
    parser.add_argument("--iterations", type=int, default=300, help="search iterations timed")
    parser.add_argument("--match", type=int, default=0, help="games of search against greedy")
    parser.add_argument("--move-seconds", type=float, default=0.5, help="search time a move in the match")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the match's first game")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest setting: that it runs, not a figure (one game of each)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.seconds, args.iterations, args.match, args.move_seconds = 0.01, 1, 1, 0.01
    speed(args.seconds)
    search_speed(args.iterations)
    if args.match:
        search_match(args.match, args.move_seconds, args.seed)


if __name__ == "__main__":
    main()
