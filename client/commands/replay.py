"""``waddle replay``: replay a game record, print the final board and the score breakdown.

Every action is checked as it is replayed (``docs/records.md``); a bad record gives one
line naming the file, the place and the problem, exit status 2. ``RECORD`` ``-`` reads
standard input. With ``--json`` it prints only :func:`result_json` of the position
reached, on one line.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from waddle import Game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="the game record (JSON); - for standard input")
    parser.add_argument("--json", action="store_true",
                        help="print only the result: finished, scores, winners, halves")


def result_json(game: Game) -> dict[str, Any]:
    """``{"finished": bool, "scores": {player: {"waddles", "pools", "total"}},
    "winners": [player, ...], "halves": [{player: {"waddles", "pools", "total"}}, ...]}``.

    ``scores`` are game totals (both halves added in a mirror match), the live score of
    the position reached if the game is not over; ``winners`` is empty until it is.
    Players appear in opening turn order.
    """
    result = game.result()
    return {
        "finished": result.finished,
        "scores": {p: s.to_dict() for p, s in result.scores.items()},
        "winners": list(result.winners),
        "halves": [{p: s.to_dict() for p, s in sheet.scores.items()} for sheet in result.halves],
    }


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from waddle.hex.record import from_record, load_record
    from waddle.hex.render import render_game, render_sheet

    if args.record == "-":
        try:
            data = json.loads(sys.stdin.read())
        except ValueError as exc:
            raise ValueError(f"<stdin>: not valid JSON: {exc}") from None
        game = from_record(data, source="<stdin>")
    else:
        game = load_record(args.record)
    if args.json:
        print(json.dumps(result_json(game)))
        return 0
    result = game.result()
    print(render_game(game))
    for number, sheet in enumerate(result.halves, 1):
        print(f"\n== half {number} ==" if game.mirror_match else "")
        print(render_sheet(sheet))
    if game.mirror_match:
        totals = ", ".join(f"{p} {s.total} ({s.waddles}+{s.pools})" for p, s in result.scores.items())
        print(f"\ntotal of both halves: {totals}")
    if not result.finished:
        print(f"\nthe record stops after {len(game)} actions; the game is not over (live score)")
    return 0
