"""``waddle play``: a game against built-in bots in the terminal UI, on this machine.

Runs a host on 127.0.0.1 (any free port) in this process with a bot in every other
seat, and the terminal UI as the one human client; the record is saved as the game goes.
"""

from __future__ import annotations

import argparse
import os

from client.cli import seconds
from client.commands import check_writable
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
    parser.add_argument("--record", metavar="PATH",
                        help="where to save the game record (default: waddle-play-TIME.json "
                             "in the system's temporary directory)")
    parser.add_argument("--pace", type=seconds, default=0.5, metavar="SECONDS",
                        help="pause before each bot move so you can follow (default 0.5)")
    options.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from waddle.hex.bots import BOTS

    if not 1 <= args.bots <= 4:
        raise ValueError(f"--bots must be 1 to 4, not {args.bots}")
    if args.strategy not in BOTS:
        raise ValueError(f"unknown strategy {args.strategy!r}: expected one of {', '.join(BOTS)}")
    if args.pace < 0:
        raise ValueError("--pace must not be negative")
    from client.ui.session import RemoteSession
    from protocol.messages import Settings
    from server.host import Host, ServerConfig
    from server.tuning import collect_young, tune_gc
    from waddle.hex.options import HexOptions, StandardMap

    hex_options = HexOptions(map=StandardMap(seed=args.seed), mirror_match=args.mirror, realtime_score=True)
    settings = Settings(players=args.bots + 1, bots=[args.strategy] * args.bots, options=hex_options)
    record = args.record or _temporary_record()
    check_writable(record)
    server = Host(ServerConfig(address="127.0.0.1", port=0, settings=settings, save=record,
                               seed=args.seed, bot_delay=args.pace, tasks=(collect_young,)))
    tune_gc()  # this process hosts: see server.tuning
    session = RemoteSession("127.0.0.1", 0, client_options={"name": options.check_name(args.name)},
                            server=server, record_path=record)
    from client.commands.host import run_ui_then_say_saved

    return run_ui_then_say_saved(session, args, server.table)


def _temporary_record() -> str:
    """``waddle-play-DATE-TIME.json`` in the system's temporary directory."""
    import tempfile
    import time
    from pathlib import Path

    return str(Path(tempfile.gettempdir()) / time.strftime("waddle-play-%Y%m%d-%H%M%S.json"))
