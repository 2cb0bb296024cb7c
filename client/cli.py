"""The ``waddle`` command line.

Each subcommand lives in its own module of :mod:`client.commands`, imported only when
it runs (so ``waddle --help`` starts fast). Every error is one clear line on stderr and
exit status 2; no tracebacks for user mistakes.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: subcommand -> (module in client.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "play a complete game between bots over TCP on this machine"),
    "play": ("play", "play a local game against bots in the terminal UI"),
    "host": ("host", "host a game on this machine and play in the terminal UI"),
    "join": ("join", "join a game hosted at HOST:PORT in the terminal UI"),
    "watch": ("watch", "watch a game hosted at HOST:PORT as a spectator"),
    "serve": ("serve", "run a dedicated host without a UI"),
    "bot": ("bot", "run a headless bot client against HOST:PORT"),
    "map": ("map", "print a generated standard map"),
    "replay": ("replay", "replay a game record and print the board and scores"),
}


class UserError(Exception):
    """A mistake the user can fix; printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="waddle", description="Waddle: penguins, ice and fishing pools, in your terminal.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, help) in COMMANDS.items():
        command = sub.add_parser(name, help=help, description=help)
        command.set_defaults(module=module)
        _module(module).add_arguments(command)
    return parser


def _module(name: str):
    return importlib.import_module(f"client.commands.{name}")


def main(argv: list[str] | None = None) -> int:
    """Run the ``waddle`` command; return its exit status."""
    args = build_parser().parse_args(argv)
    try:
        return _module(args.module).run(args) or 0
    except (UserError, ValueError, OSError) as exc:
        print(f"waddle {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
