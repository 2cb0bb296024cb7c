"""The fitted evaluation (:mod:`waddle.hex.evaluation`): data, fit, and how well it predicts.

``generate`` plays 4-player games on seeded standard maps (map seed ``seed * 1000 +
game``), one ``search`` bot against three ``uct`` bots at an iteration budget (so the
data do not depend on the machine's load), and writes one JSON line per position met
(every decision of every game): each seat's features and live total, one random
playout's totals from there (the search's playout policy), the mean of 8 such
playouts, and the game's final totals.

``fit`` reads such lines, fits the evaluation's weights by least squares on the games
of the first 80 % and prints, on the held-out 20 %, each estimator's root mean square
error against the final totals: of each seat's total, and of each seat's total minus
the mean of the four (what the search's rewards compare). The weights are printed as
a Python tuple for :data:`waddle.hex.evaluation.WEIGHTS`.

Run: ``PYTHONPATH=. python benchmarks/hex_evaluation.py generate --games 200 --out data.jsonl``,
then ``PYTHONPATH=. python benchmarks/hex_evaluation.py fit data.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from waddle import COLOURS, Game
from waddle.hex.bots import make_bot
from waddle.hex.evaluation import features, terms
from waddle.hex.game import tables_of
from waddle.hex.playout import Playouts
from waddle.hex.search import SearchBot
from waddle.hex.tiles import standard_map

PLAYERS = 4
POLICY = (SearchBot.SCOUT_DAMPING, 0.0, True)


def playout(playouts: Playouts, game: Game, rng: random.Random) -> list[int]:
    """One random playout's final totals from ``game`` (the search's policy)."""
    draws = [rng.random() for _ in range(playouts.decisions(game))]
    return playouts.run(game, draws, 0, *POLICY)


def generate_game(number: int, seed: int, search_iterations: int, uct_iterations: int) -> list[dict]:
    """Every position of game ``number``, as dicts (see the module docstring)."""
    rng = random.Random(seed * 7919 + number)
    seat = number % PLAYERS
    bots = [make_bot("search", seed * 100_000 + number * 10 + s, seconds=None, iterations=search_iterations)
            if s == seat else make_bot("uct", seed * 100_000 + number * 10 + s, seconds=None,
                                       iterations=uct_iterations) for s in range(PLAYERS)]
    game = Game(standard_map(PLAYERS, seed * 1000 + number), COLOURS[:PLAYERS])
    playouts = Playouts(tables_of(game.map), PLAYERS, False)
    rows = []
    while not game.is_over:
        live, feats = features(playouts, game.snapshot())
        runs = [playout(playouts, game, rng) for _ in range(8)]
        rows.append({"game": number, "live": live, "features": feats, "empty": len(game.empty_ice),
                     "ice": len(game.map.ice), "playout": runs[0],
                     "playouts8": [sum(r[s] for r in runs) / 8 for s in range(PLAYERS)]})
        game.apply(bots[game.current_seat].choose(game))
    final = game.live_totals()
    for row in rows:
        row["final"] = final
    return rows


def generate(args) -> None:
    with open(args.out, "a") as out:
        for number in range(args.first, args.first + args.games):
            for row in generate_game(number, args.seed, args.search_iterations, args.uct_iterations):
                out.write(json.dumps(row) + "\n")
            print(f"game {number} done", file=sys.stderr, flush=True)


def _design(rows):
    import numpy as np
    x, y = [], []
    for row in rows:
        share = row["empty"] / row["ice"]
        for seat in range(PLAYERS):
            x.append(terms(row["features"][seat], share))
            y.append(row["final"][seat] - row["live"][seat])
    return np.array(x), np.array(y)


def _errors(rows, predict) -> tuple[float, float]:
    """RMSE of totals and of totals relative to the game's mean, over ``rows``."""
    import numpy as np
    total, relative = [], []
    for row in rows:
        guess = np.array(predict(row), dtype=float)
        final = np.array(row["final"], dtype=float)
        total.extend(guess - final)
        relative.extend((guess - guess.mean()) - (final - final.mean()))
    return float(np.sqrt(np.mean(np.square(total)))), float(np.sqrt(np.mean(np.square(relative))))


def _bias_after(rows, predict) -> dict[str, float]:
    """The mean error (final minus predicted) of the player who just moved, relative to
    the mean of the others, after a scout and after a place: a bias here tilts the
    search between scouting and placing."""
    found: dict[str, list[float]] = {"scout": [], "place": []}
    for before, after in zip(rows, rows[1:]):
        if before["game"] != after["game"]:
            continue
        mover = next(s for s in range(PLAYERS) if before["features"][s][6] == 0.0)
        kind = "scout" if before["empty"] == after["empty"] else "place"
        guess, final = predict(after), after["final"]
        found[kind].append(final[mover] - sum(final) / PLAYERS - (guess[mover] - sum(guess) / PLAYERS))
    return {kind: sum(v) / len(v) for kind, v in found.items()}


def fit(args) -> None:
    import numpy as np
    with open(args.data) as lines:
        rows = [json.loads(line) for line in lines]
    games = sorted({row["game"] for row in rows})
    cut = games[int(len(games) * 0.8)]
    train = [r for r in rows if r["game"] < cut]
    test = [r for r in rows if r["game"] >= cut]
    x, y = _design(train)
    weights, *_ = np.linalg.lstsq(x, y, rcond=None)
    xc = np.array([[1.0, r["empty"] / r["ice"]] for r in train for _ in range(PLAYERS)])
    const, *_ = np.linalg.lstsq(xc, y, rcond=None)

    def fitted(row):
        share = row["empty"] / row["ice"]
        return [row["live"][s] + float(np.dot(weights, terms(row["features"][s], share)))
                for s in range(PLAYERS)]

    def live_plus(row):
        share = row["empty"] / row["ice"]
        return [v + const[0] + const[1] * share for v in row["live"]]

    print(f"{len(train)} training positions ({cut} games), {len(test)} held out "
          f"({len(games) - cut} games)")
    for name, predict in (("live score", lambda r: r["live"]), ("live score + mean gain", live_plus),
                          ("one random playout", lambda r: r["playout"]),
                          ("mean of 8 random playouts", lambda r: r["playouts8"]),
                          ("fitted evaluation", fitted)):
        for label, part in (("all", test), ("early (>2/3 ice empty)", [r for r in test if r["empty"] > 2 * r["ice"] / 3]),
                            ("middle", [r for r in test if r["ice"] / 3 < r["empty"] <= 2 * r["ice"] / 3]),
                            ("late (<=1/3 empty)", [r for r in test if r["empty"] <= r["ice"] / 3])):
            t, rel = _errors(part, predict)
            print(f"{name:28s} {label:24s} RMSE total {t:6.2f}  relative {rel:6.2f}")
        bias = _bias_after(test, predict)
        print(f"{name:28s} mover's relative bias after a scout {bias['scout']:+.2f}, "
              f"after a place {bias['place']:+.2f} VP")
    print("WEIGHTS = (" + ", ".join(f"{w:.4g}" for w in weights) + ")")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play games and write positions")
    gen.add_argument("--games", type=int, default=200)
    gen.add_argument("--first", type=int, default=0, help="number of the first game")
    gen.add_argument("--seed", type=int, default=11)
    gen.add_argument("--search-iterations", type=int, default=300)
    gen.add_argument("--uct-iterations", type=int, default=200)
    gen.add_argument("--out", required=True)
    fitting = sub.add_parser("fit", help="fit the weights and print the errors")
    fitting.add_argument("data")
    args = parser.parse_args(argv)
    (generate if args.command == "generate" else fit)(args)


if __name__ == "__main__":
    main()
