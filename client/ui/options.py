"""Command-line options shared by the UI commands (``play``, ``host``, ``join``, ``watch``,
``replay``).

Imports only :mod:`argparse` at the top, so ``waddle --help`` stays fast; the UI is
imported when :func:`run_ui` runs.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--ascii`` (also when the terminal's encoding is not UTF-8), ``--no-color``
    (``NO_COLOR`` in the environment does the same), ``--no-mouse`` and ``--no-bell``."""
    parser.add_argument("--ascii", action="store_true",
                        help="draw with plain ASCII characters only")
    parser.add_argument("--no-color", action="store_true",
                        help="no colour (also when the NO_COLOR environment variable is set)")
    parser.add_argument("--no-mouse", action="store_true",
                        help="leave the mouse to the terminal (to select text); keys do everything")
    parser.add_argument("--no-bell", action="store_true",
                        help="no terminal bell when your turn starts (the window title still says so)")


def name_help() -> str:
    """The help of a person's ``--name``: its limit (:func:`check_name`)."""
    from protocol.messages import NAME_SHOWN

    return f"your name, at most {NAME_SHOWN} characters (default: your login name)"


def check_name(name: str) -> str:
    """``name`` if a host keeps it whole: at most
    :data:`~protocol.messages.NAME_SHOWN` terminal cells once cleaned (a host cuts a
    longer one, and two names alike in their first cells would show, and be rated, as
    one).

    Raises:
        ValueError: a longer name (the message names the limit).
    """
    from protocol.messages import NAME_SHOWN
    from protocol.text import cells, clean

    width = cells(clean(name).rstrip())
    if width > NAME_SHOWN:
        wide = "" if width == len(name) else " (terminal cells: a wide character counts 2)"
        raise ValueError(f"--name is {width} characters long{wide}; a host keeps at most {NAME_SHOWN}: "
                         f"choose a shorter one")
    return name


def run_ui(session, args: argparse.Namespace) -> int:
    """Run the full-screen UI over ``session`` until the player quits; return 0.

    Log records of the host and client go to ``args.log`` (a file, at
    ``args.log_level``) if there is one, else nowhere: the UI owns the screen.

    Raises:
        OSError: when standard input or output is not a terminal, or the session
            could not connect.
    """
    import asyncio
    import logging
    import sys

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise OSError("the terminal UI needs a terminal (standard input and output are not one)")
    logger = logging.getLogger("waddle")
    logger.propagate = False
    log = getattr(args, "log", None)
    if log:
        handler = logging.FileHandler(log, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(args.log_level.upper())
    else:
        logger.addHandler(logging.NullHandler())
    from client.ui.app import WaddleApp, run_app
    from client.ui.style import want_colour

    utf8 = (sys.stdout.encoding or "").lower().replace("-", "") == "utf8"
    app = WaddleApp(session, ascii=args.ascii or not utf8, colour=want_colour(args.no_color),
                    mouse=not args.no_mouse, bell=not args.no_bell)
    controller = app.controller
    controller.seconds = getattr(args, "search_seconds", None) or controller.seconds  # the search's budgets
    controller.pass_seconds = getattr(args, "pass_seconds", None) or controller.pass_seconds
    asyncio.run(run_app(app))
    return 0
