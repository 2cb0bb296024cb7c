"""Who plays in an arena: built-in bots at chosen budgets, difficulty levels and external
bot commands, parsed from the command line's entrant syntax (docs/arena.md).

``[NAME=]KIND[:BUDGET]`` is a built-in bot or level of the game: ``greedy``, ``hard``,
``search:0.1`` (0.1 s a move; ``0.1s`` too), ``search:500i`` (500 iterations a move).
``[NAME=]cmd:COMMAND`` is any program that speaks the protocol: it is started once a game
with the table's address, a name and the join code (``HOST:PORT --name NAME --code CODE``
appended, unless COMMAND places them itself with ``{address}``, ``{host}``, ``{port}``,
``{name}``, ``{code}``, ``{seed}``, ``{game}``). A leading ``python`` or ``python3`` runs
this Python (``sys.executable``).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys

import msgspec

from waddle.ruleset import get_ruleset

#: The longest entrant name (names show in tables and at the table: ``protocol`` allows 64).
MAX_NAME = 32
#: The placeholders an external command may use.
PLACEHOLDERS = ("address", "host", "port", "name", "code", "seed", "game")

_NAME = re.compile(rf"^([A-Za-z0-9_.+-]{{1,{MAX_NAME}}})=(.+)$")
_BUDGET = re.compile(r"^(?:(?P<seconds>\d+(?:\.\d*)?|\.\d+)s?|(?P<iterations>\d+)(?:i|it))$")


class Entrant(msgspec.Struct, frozen=True):
    """One entrant: its ``name`` (unique in the arena), the ``spec`` it was given as, and
    either a built-in ``kind`` (a bot kind or level) with its budget (``seconds`` or
    ``iterations`` a move, ``None``: the bot's own) or an external ``command`` (argv)."""

    name: str
    spec: str
    kind: str | None = None
    seconds: float | None = None
    iterations: int | None = None
    command: tuple[str, ...] | None = None

    @property
    def external(self) -> bool:
        """Whether it is a program started per game (``cmd:``)."""
        return self.command is not None

    def options(self) -> dict[str, float | None]:
        """The built-in bot's options (for :meth:`waddle.ruleset.Ruleset.make_bot`): its
        budget; an iteration budget alone switches the time budget off, so that a seed
        reproduces the bot's moves."""
        if self.iterations is not None:
            return {"iterations": self.iterations, "seconds": self.seconds}
        return {} if self.seconds is None else {"seconds": self.seconds}

    def argv(self, **values: str) -> list[str]:
        """The external command for one game: placeholders filled from ``values`` (keys
        :data:`PLACEHOLDERS`), else the address, ``--name`` and ``--code`` appended."""
        assert self.command is not None
        if any("{" in word for word in self.command):
            return [word.format(**values) for word in self.command]
        return [*self.command, values["address"], "--name", values["name"], "--code", values["code"]]


def parse(text: str, game: str) -> Entrant:
    """The entrant ``text`` names for ``game`` (a ruleset name), with its default name.

    Raises:
        ValueError: the syntax, kind, budget or command is wrong (the message quotes
            ``text`` and says what is expected).
    """
    match = _NAME.match(text)
    name, spec = (match.group(1), match.group(2)) if match else (None, text)
    if spec.startswith("cmd:"):
        command = _command(text, spec[4:])
        return Entrant(name or _command_name(command), text, command=command)
    return _built_in(text, spec, name, game)


def _built_in(text: str, spec: str, name: str | None, game: str) -> Entrant:
    ruleset = get_ruleset(game)
    kind, _, budget = spec.partition(":")
    try:
        ruleset.check_bots([kind])
    except ValueError as exc:
        raise ValueError(f"entrant {text!r}: {exc}, or cmd:COMMAND") from None
    seconds = iterations = None
    if budget:
        found = _BUDGET.match(budget)
        if found is None:
            raise ValueError(f"entrant {text!r}: the budget {budget!r} is neither seconds a move "
                             f"(0.1 or 0.1s) nor iterations a move (500i)")
        seconds = float(found["seconds"]) if found["seconds"] else None
        iterations = int(found["iterations"]) if found["iterations"] else None
    entrant = Entrant(name or spec, text, kind=kind, seconds=seconds, iterations=iterations)
    try:
        ruleset.make_bot(kind, 0, **entrant.options())
    except ValueError as exc:
        why = f"the {kind} bot takes no budget" if budget and "bad options" in str(exc) else exc
        raise ValueError(f"entrant {text!r}: {why}") from None
    return entrant


def _command(text: str, command: str) -> tuple[str, ...]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"entrant {text!r}: cannot split the command: {exc}") from None
    if not argv:
        raise ValueError(f"entrant {text!r}: cmd: needs a command, e.g. 'cmd:python examples/stdlib_bot.py'")
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    elif shutil.which(argv[0]) is None:
        raise ValueError(f"entrant {text!r}: no program {argv[0]!r} on PATH")
    try:
        for word in argv:
            word.format(**{key: "" for key in PLACEHOLDERS})
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"entrant {text!r}: bad placeholder {exc} (known: "
                         f"{', '.join('{' + p + '}' for p in PLACEHOLDERS)})") from None
    return tuple(argv)


def _command_name(argv: tuple[str, ...]) -> str:
    """A short default name: the script's (``stdlib_bot``), else the program's."""
    script = next((w for w in argv[1:] if w.endswith(".py")), argv[0])
    return os.path.splitext(os.path.basename(script))[0][:MAX_NAME] or "cmd"


def unique_names(entrants: list[Entrant]) -> list[Entrant]:
    """``entrants`` with names made unique by a ``#2``, ``#3``, ... suffix in order."""
    seen: dict[str, int] = {}
    out = []
    for entrant in entrants:
        count = seen[entrant.name] = seen.get(entrant.name, 0) + 1
        out.append(entrant if count == 1 else msgspec.structs.replace(entrant, name=f"{entrant.name}#{count}"))
    return out
