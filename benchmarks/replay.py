"""The replay viewer and the analysis: what a step, a jump and an analysis cost.

A record of each game played by greedy bots (the hex game: 5 players on the standard map;
Waddle Downtown: 4 players), then, in milliseconds (median of several):

- ``load``: :class:`client.ui.replay.Replay` from the record (every action replayed
  through the rules, each step's spectator events and mover's position kept), next to the
  same-run baseline ``Ruleset.load`` (the record replayed once);
- ``step``: one step on (:meth:`ReplaySession.go`: one ``played`` applied to the state);
- ``jump``: to the start and back to the middle (the table state built afresh twice);

and the analysis of the middle step: ``analyse`` (``Ruleset.analyse`` with an iteration
budget, the root actions' final scores tallied) next to the same-run baseline ``bot``
(the game's search bot choosing with the same budget), in iterations per second.

Run: ``PYTHONPATH=. python benchmarks/replay.py [--iterations N] [--runs N]``;
``--smoke`` is the smallest setting (that it runs, not a figure).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from client.ui.replay import Replay, ReplaySession
from waddle.files import write_json
from waddle.ruleset import get_ruleset

#: The games measured: ruleset name -> players, and the share of ``--iterations`` its
#: analysis gets (Waddle Downtown's playouts go greedily to the game's end: much slower).
GAMES = {"hex": (5, 1.0), "downtown": (4, 0.02)}


def record(name: str, players: int, seed: int) -> dict:
    """A whole game of ``players`` greedy bots, as a record."""
    ruleset = get_ruleset(name)
    options = ruleset.options_type()
    labels = [look.label for look in ruleset.seats[:players]]
    match = ruleset.new_match(ruleset.prepare(options, players, seed), options, labels)
    bots = [ruleset.make_bot("greedy", seed + i) for i in range(players)]
    while not match.is_over:
        seat = min(match.to_act())
        match.apply(seat, bots[seat].choose(match.position(seat)))
    return match.record()


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def per_second(fn: Callable[[], object], iterations: int, runs: int) -> float:
    return iterations / (median_ms(fn, runs) / 1000)


def measure(name: str, players: int, iterations: int, runs: int, folder: Path) -> None:
    ruleset = get_ruleset(name)
    data = record(name, players, 7)
    path = folder / f"{name}.json"
    write_json(path, data)
    replay = Replay(data, str(path))
    session = ReplaySession(str(path))
    middle = len(replay) // 2

    def step() -> None:
        session.go(middle - 1)
        start = time.perf_counter()
        session.go(middle)
        step.took.append(time.perf_counter() - start)

    step.took = []
    for _ in range(runs):
        step()

    def jump() -> None:
        session.go(0)
        session.go(middle)
    figures = {
        "load": median_ms(lambda: Replay(data, str(path)), runs),
        "baseline load": median_ms(lambda: ruleset.load(data), runs),
        "step": statistics.median(step.took) * 1000,
        "jump": median_ms(jump, runs),
    }
    position = replay.positions[middle]
    seeds = iter(range(runs))
    bot = ruleset.make_bot("search", 1, seconds=None, iterations=iterations)
    baseline = per_second(lambda: bot.choose(position), iterations, runs)
    analyse = per_second(lambda: ruleset.analyse(position, 3600, seed=next(seeds), iterations=iterations),
                         iterations, runs)
    print(f"{name:>9} {players:>7} {len(replay):>7} "
          + " ".join(f"{figures[k]:>9.2f}" for k in ("load", "baseline load", "step", "jump"))
          + f" {analyse:>11,.0f} {baseline:>11,.0f}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=2000, help="search iterations of one analysis")
    parser.add_argument("--runs", type=int, default=7, help="runs of each figure (the median is shown)")
    parser.add_argument("--smoke", action="store_true", help="the smallest setting: that it runs")
    args = parser.parse_args(argv)
    iterations, runs = (20, 1) if args.smoke else (args.iterations, args.runs)
    print(f"{'game':>9} {'players':>7} {'actions':>7} {'load ms':>9} {'base ms':>9} {'step ms':>9} "
          f"{'jump ms':>9} {'analyse it/s':>11} {'bot it/s':>11}")
    with tempfile.TemporaryDirectory() as folder:
        for name, (players, share) in GAMES.items():
            measure(name, players, max(1, round(iterations * share)), runs, Path(folder))


if __name__ == "__main__":
    main()
