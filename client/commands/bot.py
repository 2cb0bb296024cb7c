"""``waddle bot HOST:PORT --name N --strategy KIND``: a headless bot client.

Joins the table at HOST:PORT (or reclaims a seat with ``--token``), says it is ready,
plays every turn of its seat with a built-in bot (``waddle.hex.bots``) and prints its moves
and the final scores. Reconnects by itself if the link drops. The seat's token is
remembered (:mod:`client.seats`, never printed): run it again with the same address and
``--name`` and it takes its seat back.
"""

from __future__ import annotations

import argparse

from client.cli import seconds

STRATEGIES = ("random", "greedy", "search")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST:PORT", help="the host, e.g. 127.0.0.1:7777")
    parser.add_argument("--name", default="bot", help="the bot's name at the table (default: bot)")
    parser.add_argument("--strategy", default="greedy", choices=STRATEGIES,
                        help="which built-in bot plays (default: greedy)")
    parser.add_argument("--code", help="the table's join code, if it has one")
    parser.add_argument("--colour", choices=("red", "blue", "yellow", "green", "purple"),
                        help="preferred colour (default: the first free one)")
    parser.add_argument("--token", help="reclaim the seat with this token (default: the seat "
                                        "remembered for this address and --name, else join)")
    parser.add_argument("--seed", type=int, help="seed for the bot's choices")
    parser.add_argument("--seconds", type=seconds, default=0.5,
                        help="search bot's time budget per move, seconds (default 0.5)")
    parser.add_argument("--start", action="store_true",
                        help="as the table's owner, start the game at once (the host's bots "
                             "fill the empty seats); if the host refuses, say ready and start "
                             "once every seat is filled")
    parser.add_argument("--quiet", action="store_true", help="print only the final scores")


def run(args: argparse.Namespace) -> int:
    import trio

    from client.address import parse_address
    from waddle.hex.bots import make_bot

    host, port = parse_address(args.address)
    options = {"seconds": args.seconds} if args.strategy == "search" else {}
    bot = make_bot(args.strategy, args.seed, **options)
    return trio.run(_play, host, port, bot, args)


async def _play(host: str, port: int, bot, args: argparse.Namespace) -> int:
    import trio

    from client.botplay import play, start_when_full
    from client.cli import UserError
    from client.core import ClientError, connect
    from client.report import score_lines
    from client.seats import SeatStore

    try:
        async with connect(host, port, name=args.name, colour=args.colour, code=args.code,
                           token=args.token, software=f"waddle-bot/{args.strategy}",
                           seat_store=SeatStore()) as client:
            state = client.state
            if not args.quiet:
                print(f"seated as {state.colour} ({state.name})", flush=True)
            if args.start:
                await start_when_full(client, on_refused=print_refusal)
            async with trio.open_nursery() as nursery:
                if not args.quiet:
                    nursery.start_soon(print_moves, client)
                await play(client, bot, ready=not args.start,
                           on_rejected=lambda exc: print(f"rejected: {exc}"))
                nursery.cancel_scope.cancel()
            print("\n".join(score_lines(state.game, state.seat_name)))
    except ClientError as exc:
        raise UserError(str(exc)) from None
    return 0


def print_refusal(rejected) -> None:
    """Print a refused ``start`` as one line (the bot then waits for every seat to be filled)."""
    from protocol.text import clean

    print(f"start refused: {clean(rejected.code)} ({clean(rejected.message)}); ready, "
          f"starting once every seat is filled", flush=True)


async def print_moves(client) -> None:
    """Print every ``played`` event of ``client`` as a line, as it arrives.

    If the output's reader goes away (``waddle demo | head``), standard output is sent
    to the null device from then on and the game plays on.
    """
    import os
    import sys

    from client.report import describe_played
    from protocol import Played

    async for message in client.events():
        if isinstance(message, Played):
            try:
                print(describe_played(message, client.state.seat_name), flush=True)
            except BrokenPipeError:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return
