"""``waddle play``: a game against built-in bots in the terminal UI, on this machine.

Runs a host on 127.0.0.1 (any free port) in this process with a bot in every other
seat, and the terminal UI as the one human client; the record is saved as the game goes.
The game (``--game``, the hex game by default) and its options are those of ``waddle
serve`` and ``waddle host``, with the same defaults
(:func:`client.commands.serve.add_table_arguments`): the game's own (the hex game: map,
mirror match, real-time score; Waddle Downtown: single deck, deck file), seed, turn
timer, seat order and the bots' pace.
"""

from __future__ import annotations

import argparse
import os

from client.commands import bots_help, check_writable, default_save, opponents_help, serve
from client.ui import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", type=int, default=3, metavar="N",
                        help=f"bot opponents ({opponents_help()}; default 3)")
    parser.add_argument("--strategy", default="greedy", metavar="KIND",
                        help=f"the bots' difficulty level or kind ({bots_help()}; default greedy)")
    serve.add_table_arguments(parser)
    serve.add_history_arguments(parser)
    serve.add_ssh_argument(parser)
    parser.add_argument("--name", default=os.environ.get("USER") or "player",
                        help=options.name_help())
    parser.add_argument("--record", metavar="PATH",
                        help="where to save the game record (default: waddle-play-TIME.json "
                             "in ~/.local/share/waddle/saves, where host and serve save too)")
    options.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from waddle.ruleset import get_ruleset

    ruleset = get_ruleset(args.game)
    low, high = ruleset.players
    if not low - 1 <= args.bots <= high - 1:
        raise ValueError(f"--bots must be {low - 1} to {high - 1} for {ruleset.title} "
                         f"({low} to {high} players), not {args.bots}")
    from client.ui.session import RemoteSession
    from server.host import Host, ServerConfig
    from server.tuning import collect_young, tuned_gc

    players, kinds = args.bots + 1, [args.strategy] * args.bots
    args.players, args.bots = players, kinds
    settings = serve.settings_from(args)
    record = args.record or default_save("waddle-play-%Y%m%d-%H%M%S.json")
    check_writable(record)
    print(f"Saving to:  {record}", flush=True)  # before the full-screen UI: still there after it
    server = Host(ServerConfig(address="127.0.0.1", port=0, settings=settings, save=record,
                               seed=args.seed, bot_delay=serve.pace_from(args), game=args.game,
                               tasks=(collect_young,), history=serve.history_from(args, "play"),
                               ssh=serve.ssh_from(args)))
    session = RemoteSession("127.0.0.1", 0, client_options={"name": options.check_name(args.name)},
                            server=server, record_path=record, address=f"{{ssh}}\n({serve.OPEN_NOTE})" if args.ssh is not None else "")
    from client.commands.host import run_ui_then_say_saved

    with tuned_gc():  # this process hosts: see server.tuning
        return run_ui_then_say_saved(session, args, server)


