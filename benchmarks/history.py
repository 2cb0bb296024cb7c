"""``waddle stats`` over a large history: 10,000 finished games by default.

A history of ``--games`` games (4 seats each, drawn from 40 people and two bot kinds,
both games, three maps or decks; each record a few hundred bytes) is written once, then,
in milliseconds (median of ``--runs``):

- ``stats``: the real command, ``python -m client.cli stats --history FILE`` in a fresh
  process (start-up included), next to the same-run baseline ``start``: ``python -m
  client.cli --version`` (the command's start-up alone);
- ``players``: :func:`waddle.history.players` in this process (the queries alone).

Run: ``PYTHONPATH=. python benchmarks/history.py [--games N] [--runs N]``; ``--smoke``
is the smallest setting (that it runs, not a figure).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from waddle.history import FinishedGame, Seat, connect, players, write_game


def fill(path: Path, games: int, seed: int = 1) -> None:
    """Write ``games`` random finished games to the history at ``path``."""
    rng = random.Random(seed)
    people = [f"player{n}" for n in range(40)]
    db = connect(path, write=True)
    for number in range(games):
        kind = rng.choice(("hex", "downtown"))
        names = rng.sample(people, 3) + [rng.choice(("greedy", "hard"))]
        scores = [rng.randrange(60) for _ in names]
        best = max(scores)
        seats = tuple(Seat(seat=i, label=f"s{i}", name=name, bot=name if i == 3 else None, score=score,
                           winner=score == best) for i, (name, score) in enumerate(zip(names, scores)))
        write_game(db, FinishedGame(table="bench", number=number, game=kind, options={},
                                    setup=rng.choice(("standard", "lagoon", "bundled deck")), started=0.0,
                                    finished=float(number), record={"actions": list(range(60))}, seats=seats))
    db.close()


def timed(run, runs: int) -> float:
    """The median milliseconds of ``runs`` calls of ``run``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="the smallest setting")
    args = parser.parse_args(argv)
    if args.smoke:
        args.games, args.runs = 50, 1
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "history.sqlite"
        start = time.perf_counter()
        fill(path, args.games)
        print(f"history: {args.games} games written in {time.perf_counter() - start:.1f} s, "
              f"{path.stat().st_size / 1e6:.1f} MB")

        def command(*words: str) -> None:
            subprocess.run([sys.executable, "-m", "client.cli", *words], check=True, capture_output=True)

        baseline = timed(lambda: command("--version"), args.runs)
        stats = timed(lambda: command("stats", "--history", str(path)), args.runs)
        db = connect(path)
        queries = timed(lambda: players(db), args.runs)
        db.close()
        print(f"stats: {stats:.0f} ms (baseline start: {baseline:.0f} ms); players(): {queries:.0f} ms")


if __name__ == "__main__":
    main()
