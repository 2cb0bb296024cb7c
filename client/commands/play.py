"""``waddle play``: a game against built-in bots in the terminal UI, on this machine."""

from __future__ import annotations

import argparse
import os

from client.ui import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", type=int, default=3, metavar="N",
                        help="bot opponents, 1 to 4 (default 3)")
    parser.add_argument("--strategy", default="greedy", metavar="KIND",
                        help="the bots' strategy: random, greedy or search (default greedy)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed of the map layout and the bots (default: random)")
    parser.add_argument("--mirror", action="store_true", help="play a mirror match (two halves)")
    parser.add_argument("--name", default=os.environ.get("USER") or "player",
                        help="your name (default: your login name)")
    parser.add_argument("--records", default=".", metavar="DIR",
                        help="folder for the finished game's record (default: here)")
    options.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from waddle.bots import BOTS

    if not 1 <= args.bots <= 4:
        raise ValueError(f"--bots must be 1 to 4, not {args.bots}")
    if args.strategy not in BOTS:
        raise ValueError(f"unknown strategy {args.strategy!r}: expected one of {', '.join(BOTS)}")
    from protocol.messages import Settings, StandardMap

    from client.ui.local import LocalSession

    settings = Settings(players=args.bots + 1, map=StandardMap(seed=args.seed),
                        mirror_match=args.mirror, realtime_score=True,
                        bots=[args.strategy] * args.bots)
    session = LocalSession(args.name, settings, seed=args.seed, records=args.records)
    return options.run_ui(session, args)
