"""``waddle join HOST:PORT``: take a seat at a hosted table and play in the terminal UI.

The seat's token is remembered (:mod:`client.seats`): run the same command again (same
address and ``--name``) after the terminal closed, and it takes the seat back.
"""

from __future__ import annotations

import argparse
import os

from client.commands import add_wait_argument, run_ui
from client.ui import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_table_arguments(parser, "player")
    parser.add_argument("--colour", metavar="COLOUR",
                        help="your preferred seat colour (default: the first free one)")


def run(args: argparse.Namespace) -> int:
    from client.seats import SeatStore

    return open_table(args, label=args.colour, seat_store=SeatStore())


def add_table_arguments(parser: argparse.ArgumentParser, default_name: str) -> None:
    """``HOST:PORT``, ``--name``, ``--code`` and the UI options (``join`` and ``watch``)."""
    parser.add_argument("address", metavar="HOST:PORT", help="where the table is hosted")
    parser.add_argument("--name", default=os.environ.get("USER") or default_name,
                        help="your name (default: your login name)")
    parser.add_argument("--code", help="the table's join code, if it has one")
    add_wait_argument(parser)
    options.add_arguments(parser)


def open_table(args: argparse.Namespace, **client_options) -> int:
    """Connect to ``args.address`` as ``args.name`` and run the UI until the player quits.

    Raises:
        ValueError: a malformed ``HOST:PORT``.
        OSError: the host cannot be reached or refuses the client.
    """
    from client.address import parse_address
    from client.ui.session import RemoteSession

    host, port = parse_address(args.address)
    session = RemoteSession(host, port, client_options={
        "name": options.check_name(args.name), "code": args.code, "first_wait": args.wait,
        **client_options})
    status = run_ui(session, args)
    message = come_back(session.state, args)
    if message:
        print(message, flush=True)
    return status


def come_back(state, args: argparse.Namespace) -> str | None:
    """What a player who left a table (``state``, as the UI last saw it) is told on the way
    out: that the seat is kept and the command that takes it back; ``None`` for a
    spectator, a finished game or a client that never sat down."""
    import shlex

    if state.seat is None or state.phase not in ("lobby", "playing"):
        return None
    again = f"waddle join {args.address} --name {shlex.quote(args.name)}"
    if args.code:
        again += f" --code {shlex.quote(args.code)}"
    if state.phase == "lobby":
        return f"You left the lobby; your seat is held for a short while. Join again with:  {again}"
    return ("You left the game; your seat is kept (a bot plays your turns meanwhile). "
            f"Come back with:  {again}")
