"""Subcommands of the ``waddle`` command line: each module has ``add_arguments(parser)`` and ``run(args)``; top-level imports stay light.

Shared by the commands that write a file as the game goes (``serve``/``host --save``,
``play``/``demo --record``): :func:`check_writable`, run before any game starts. Shared
by the commands that connect to a host (``join``, ``watch``, ``bot``):
:func:`add_wait_argument`. Shared by the commands that seat players (``serve``, ``host``,
``play``, ``demo``, ``arena``): :func:`player_counts` and :func:`players_help`; by those
that choose bots (``serve``, ``host``, ``play``, ``demo``, ``bot``, ``arena``):
:func:`bots_help` (and ``play``'s :func:`opponents_help`). Both from the registered rulesets, so that a game's help names what it
has and no command names a game.
"""

from __future__ import annotations

import argparse
import os

from client.cli import seconds


def default_save(pattern: str) -> str:
    """Where a game (or a club, a folder) is saved when ``--save``/``--record`` does not
    say: one rule for ``serve``, ``host`` and ``play`` (issue 38: ``play`` saved in the
    temporary directory and ``host`` in the current one). The user's data folder,
    ``$XDG_DATA_HOME/waddle/saves/`` (else ``~/.local/share/waddle/saves/``, beside the
    history), made if missing and readable by its owner only (a save holds the seats'
    tokens); the name is ``pattern`` (a ``time.strftime`` pattern) at the time it starts,
    e.g. ``.../saves/waddle-20261207-2130.waddle.json``. Each command prints it at start."""
    import time

    from waddle.history import default_path

    folder = default_path().parent / "saves"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return str(folder / time.strftime(pattern))


def add_wait_argument(parser: argparse.ArgumentParser) -> None:
    """``--wait SECONDS``: how long the first connection is tried (refused, reset, timed
    out, the host full) before the command gives up (:class:`client.core.Client` ``first_wait``)."""
    parser.add_argument("--wait", type=seconds, default=60.0, metavar="SECONDS",
                        help="keep trying to reach the host for this long at first (default 60)")


def player_counts() -> range:
    """Every player count some registered game takes (:attr:`waddle.ruleset.Ruleset.players`)."""
    from waddle.ruleset import rulesets

    counts = [ruleset.players for ruleset in rulesets().values()]
    return range(min(low for low, _ in counts), max(high for _, high in counts) + 1)


def players_help() -> str:
    """The player counts of each registered game for a help text: ``"Waddle 2 to 5,
    Waddle Downtown 2 to 4"``."""
    from waddle.ruleset import rulesets

    return ", ".join(f"{ruleset.title} {ruleset.players[0]} to {ruleset.players[1]}"
                     for ruleset in rulesets().values())


def opponents_help() -> str:
    """The bot opponents each registered game takes beside one person, for a help text:
    ``"Waddle 1 to 4, Waddle Downtown 1 to 3"``."""
    from waddle.ruleset import rulesets

    return ", ".join(f"{ruleset.title} {ruleset.players[0] - 1} to {ruleset.players[1] - 1}"
                     for ruleset in rulesets().values())


def bots_help() -> str:
    """The bots players may choose, for a help text: the difficulty levels every game
    has, then each registered game's bot kinds (:attr:`waddle.ruleset.Ruleset.bots`):
    ``"levels easy, medium, hard; kinds of Waddle: random, greedy, search, uct; ..."``."""
    from waddle.ruleset import LEVELS, rulesets

    kinds = "; ".join(f"kinds of {ruleset.title}: {', '.join(ruleset.bots)}" for ruleset in rulesets().values())
    return f"levels {', '.join(LEVELS)}; {kinds}"


def check_writable(path: str | os.PathLike) -> None:
    """Check up front that a file can be written at ``path``, as the user gave it.

    The file is written atomically (a temporary file in the same folder, then renamed),
    so the folder must exist and be writable, and ``path`` must not be a folder or anything
    but a regular file (``/dev/null`` would be replaced by a file); an existing file must be
    writable too.

    Raises:
        ValueError: one line naming ``path`` and the problem.
    """
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        problem = "it is a folder; give a file name"
    elif not os.path.isdir(parent):
        problem = f"there is no folder {parent}"
    elif not os.access(parent, os.W_OK | os.X_OK):
        problem = f"the folder {parent} is not writable"
    elif os.path.exists(path) and not os.path.isfile(path):
        problem = "it is not a regular file (saving replaces the file: give a file name)"
    elif os.path.exists(path) and not os.access(path, os.W_OK):
        problem = "the file is not writable"
    else:
        return
    raise ValueError(f"cannot save the game to {os.fspath(path)}: {problem}")


def run_ui(session, args) -> int:
    """Run the terminal UI over ``session`` (:func:`client.ui.options.run_ui`), then, back
    on the normal screen, print where the finished game's record was saved, if the
    session knows (``play`` and ``host``), so it can be copied.

    Raises:
        OSError: as :func:`client.ui.options.run_ui`.
    """
    from client.ui import options

    status = options.run_ui(session, args)
    path = session.record_path
    if path:
        print(f"record saved to {path}  (see it again: waddle replay {path})")
    return status
