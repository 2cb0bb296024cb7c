"""Each game's client side, one package per ruleset (``client/games/<name>/``).

A game's package holds the modules the game-neutral client finds by the ruleset's name
(:func:`part`):

- ``text``: the game as plain text for headless clients and the command line:
  ``move_line(played, labels, name_of)``, ``undo_line(undone, labels, name_of)`` (a game
  with take-backs), ``score_lines(outcome, labels, name_of)``, ``report(match)`` (the
  board and the score breakdown), ``result_json(match)``.
- ``cli``: its command-line options: ``add_arguments(parser)`` (each ``None`` unless
  given), ``given(args)`` (the flags of its options given, so that another game's
  command refuses them) and ``options_from(args)`` (the ruleset's options).
- ``style``: its style classes, ``COLOUR`` and ``PLAIN`` (class name to prompt-toolkit
  style; terrain and ``player.<colour>`` for each of its seats' colours,
  :attr:`waddle.ruleset.SeatLook.colour`), merged by :func:`client.ui.style.make_style`.
- ``ui``: its terminal view (:class:`client.ui.gameview.GameView`): board, panels,
  keys, hints, help, lobby fields and event lines.

The package itself (its ``__init__``, kept free of imports so that ``waddle --help``
starts fast) may hold ``COMMANDS``: the game's own ``waddle`` subcommands, name ->
``(module, one-line help)``, each module with ``add_arguments(parser)`` and ``run(args)``
as :mod:`client.commands`' (the hex game's ``waddle map``). :func:`commands` gathers them.

The shell (lobby, chat, reconnects, banners, help frame) knows no game; a second game
adds a package here.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def commands() -> dict[str, tuple[str, str]]:
    """Every registered game's own subcommands (its package's ``COMMANDS``): name ->
    ``(module, one-line help)``.

    Raises:
        ValueError: two games name the same subcommand.
    """
    from waddle.ruleset import BUILT_IN

    found: dict[str, tuple[str, str]] = {}
    for game in BUILT_IN:
        for name, command in getattr(importlib.import_module(f"client.games.{game}"), "COMMANDS", {}).items():
            if name in found:
                raise ValueError(f"two games add the subcommand {name!r}")
            found[name] = command
    return found


def part(game: str, name: str) -> ModuleType:
    """The module ``name`` (``"text"``, ``"cli"``, ``"style"`` or ``"ui"``) of the client side of the
    game called ``game`` (a ruleset name).

    Raises:
        ValueError: this client has no such game.
    """
    try:
        return importlib.import_module(f"client.games.{game}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("client.games"):
            raise ValueError(f"this client cannot show the game {game!r}") from None
        raise
