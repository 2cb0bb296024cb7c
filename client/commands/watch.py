"""``waddle watch HOST:PORT``: watch a hosted table as a spectator in the terminal UI."""

from __future__ import annotations

import argparse

from client.commands import join


def add_arguments(parser: argparse.ArgumentParser) -> None:
    join.add_table_arguments(parser, "spectator")


def run(args: argparse.Namespace) -> int:
    return join.open_table(args, watch=True)
