"""``waddle watch HOST:PORT``: watch a hosted table as a spectator in the terminal UI."""

from __future__ import annotations

import argparse
import os

from client.ui import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", metavar="HOST:PORT", help="where the table is hosted")
    parser.add_argument("--name", default=os.environ.get("USER") or "spectator",
                        help="your name in the chat (default: your login name)")
    parser.add_argument("--code", help="the table's join code, if it has one")
    options.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from client.address import parse_address
    from client.ui.remote import RemoteSession

    host, port = parse_address(args.address)
    session = RemoteSession(host, port, client_options={
        "name": args.name, "code": args.code, "watch": True})
    return options.run_ui(session, args)
