"""The ``waddle`` command line.

Each subcommand lives in its own module of :mod:`client.commands`, or of a game's client
side for a game's own (:func:`client.games.commands`: the hex game's ``waddle map``),
imported only when it runs (so ``waddle --help`` starts fast). Every error is one clear line on stderr (cleaned:
it may quote what a host sent) and exit status 2; no tracebacks for user mistakes.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

#: subcommand -> (module in client.commands, one-line help); the games add their own
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo", "play a complete game between bots over TCP on this machine"),
    "play": ("play", "play a local game against bots in the terminal UI"),
    "host": ("host", "host a game on this machine and play in the terminal UI"),
    "join": ("join", "join a game hosted at HOST:PORT (or found on the LAN) in the terminal UI"),
    "watch": ("watch", "watch a game hosted at HOST:PORT (or found on the LAN) as a spectator"),
    "tables": ("tables", "list a club's tables (HOST:PORT) or those advertised on this LAN (--lan)"),
    "serve": ("serve", "run a dedicated host without a UI"),
    "bot": ("bot", "run a headless bot client against HOST:PORT"),
    "replay": ("replay", "step through a game record or save in the terminal viewer (--text: print it)"),
    "stats": ("stats", "players' games, wins, scores and ratings from the history of finished games"),
    "arena": ("arena", "play bots against each other and rate them (built-in and your own)"),
}


class UserError(Exception):
    """A mistake the user can fix; printed as one line, exit status 2."""


def seconds(text: str) -> float:
    """An ``argparse`` type: a finite, non-negative number of seconds (not ``nan``/``inf``).

    Raises:
        argparse.ArgumentTypeError: anything else (argparse prints it and exits 2).
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds, 0 or more: {text!r}")
    return value


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; only ``command``'s module is imported, for its arguments."""
    parser = argparse.ArgumentParser(
        prog="waddle", description="Waddle: penguins, ice and fishing pools, in your terminal.",
        epilog="Start with 'waddle demo' (bots play a game) or 'waddle play' (you against bots). "
               "'waddle COMMAND --help' tells more.")
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, help) in _commands().items():
        sub_parser = sub.add_parser(name, help=help, description=help)
        sub_parser.set_defaults(module=module)
        if name == command:
            _module(module).add_arguments(sub_parser)
    return parser


class _Version(argparse.Action):
    """``--version``: print ``waddle VERSION`` and exit, the version read only then
    (:mod:`importlib.metadata` takes about 85 ms to import: every command paid it)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs) -> None:
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0,
                         help="show the version and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"waddle {_version()}")
        parser.exit()


def _version() -> str:
    """The installed package's version (``pyproject.toml``), or ``unknown`` when not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("waddle")
    except PackageNotFoundError:
        return "unknown"


def _commands() -> dict[str, tuple[str, str]]:
    """The shell's subcommands and then every game's, as (module's full name, help).

    Raises:
        ValueError: a game's subcommand has a shell command's name.
    """
    from client.games import commands

    games = commands()
    clash = sorted(games.keys() & COMMANDS.keys())
    if clash:
        raise ValueError(f"a game adds the subcommand {clash[0]!r}, which waddle has already")
    return {**{name: (f"client.commands.{module}", help) for name, (module, help) in COMMANDS.items()},
            **games}


def _module(name: str):
    return importlib.import_module(name)


def main(argv: list[str] | None = None) -> int:
    """Run the ``waddle`` command; return its exit status."""
    argv = sys.argv[1:] if argv is None else argv
    command = next((word for word in argv if not word.startswith("-")), None)
    parser = build_parser(command)
    if not argv:
        parser.print_help()
        return 0
    args = parser.parse_args(argv)
    try:
        return _module(args.module).run(args) or 0
    except BrokenPipeError:
        _silence_stdout()
        return 141
    except (UserError, ValueError, OSError) as exc:
        from protocol.text import clean  # the message may quote a host or a file

        print(f"waddle {args.command}: {clean(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _silence_stdout() -> None:
    """The reader of our output went away (``waddle replay R | head``): stop quietly, as
    Unix tools do, without a second error when Python flushes stdout at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    # ``python -m client.cli``: run the module the commands import, so that the
    # UserError they raise is the one main() catches
    from client import cli

    sys.exit(cli.main())
