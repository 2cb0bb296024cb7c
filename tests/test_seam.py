"""The seam keeps the promise of docs/architecture.md ("Where another game plugs in"): the
code that hosts or shows a game knows none by name, and a game brings its own subcommands
(issue 27, item 6: a third game would also have touched the shell's ``waddle map``, the v1
save upgrade and the engine's errors)."""

from __future__ import annotations

import ast
import importlib.util
import sys
import types
from pathlib import Path

import pytest

from client import cli
from client.cli import build_parser, main
from waddle.errors import FileError
from waddle.ruleset import BUILT_IN

ROOT = Path(__file__).parents[1]
#: The game-blind code: everything but the games' own packages, and the engine's facade
#: ``waddle/__init__.py`` (the hex engine's public names, README's example).
BLIND = [path for folder in ("server", "protocol", "client", "waddle") for path in (ROOT / folder).rglob("*.py")
         if not any(part in BUILT_IN for part in path.relative_to(ROOT).parts[:-1])
         and path != ROOT / "waddle" / "__init__.py"]


def names_of_games(path: Path) -> list[str]:
    """What ``path`` says of a game by name, docstrings and comments aside: imports of a
    game's modules (``waddle.hex``, ``client.games.downtown``) and string constants that
    are a game's name, but for the registry's own (``BUILT_IN``, ``DEFAULT_RULESET``)."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    registry = {id(c) for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign))
                and any(isinstance(t, ast.Name) and t.id in ("BUILT_IN", "DEFAULT_RULESET")
                        for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))
                for c in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        found += [m for m in modules for game in BUILT_IN
                  if m.startswith((f"waddle.{game}", f"client.games.{game}"))]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings | registry:
            found += [repr(node.value) for game in BUILT_IN
                      if node.value == game or f"waddle.{game}." in node.value or f"games.{game}." in node.value]
    return found


def test_the_game_blind_code_names_no_game():
    assert len(BLIND) > 80 and ROOT / "server" / "persistence.py" in BLIND
    assert ROOT / "client" / "cli.py" in BLIND and ROOT / "client" / "games" / "__init__.py" in BLIND
    named = {str(path.relative_to(ROOT)): names for path in BLIND if (names := names_of_games(path))}
    assert named == {}


def test_the_check_finds_a_game_named_in_code(tmp_path):
    code = tmp_path / "leak.py"
    code.write_text('"""Docstrings may say "hex"."""\nimport waddle.hex.maps\n'
                    'from client.games.downtown import text\n\ndef f():\n    """hex"""\n'
                    '    return {"game": "hex", "module": "client.games.downtown.ui"}\n')
    assert names_of_games(code) == ["waddle.hex.maps", "client.games.downtown", "'hex'",
                                    "'client.games.downtown.ui'"]


def test_waddle_map_is_the_hex_games_own_subcommand(capsys):
    assert importlib.util.find_spec("client.commands.map") is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    assert "map " in capsys.readouterr().out
    assert main(["map", "--players", "3", "--seed", "5"]) == 0
    assert capsys.readouterr().out.startswith("standard map for 3 players, seed 5")


@pytest.fixture
def third_game(monkeypatch):
    """A third game registered by its one line, whose client package adds ``waddle
    dance`` (a module of its own): the modules ``run`` calls are recorded."""
    ran = []
    command = types.ModuleType("client.games.third.dance")
    command.add_arguments = lambda parser: parser.add_argument("--steps", type=int, default=1)
    command.run = lambda args: ran.append(args.steps) or 0
    package = types.ModuleType("client.games.third")
    package.COMMANDS = {"dance": ("client.games.third.dance", "dance the third game's dance")}
    monkeypatch.setitem(sys.modules, "client.games.third", package)
    monkeypatch.setitem(sys.modules, "client.games.third.dance", command)
    monkeypatch.setitem(BUILT_IN, "third", "waddle.third.ruleset")
    return package, ran


def test_a_game_adds_its_own_subcommand_through_its_client_package(third_game, capsys):
    _, ran = third_game
    assert main(["dance", "--steps", "3"]) == 0 and ran == [3]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    assert "dance the third game's dance" in capsys.readouterr().out


def test_a_games_subcommand_may_not_take_a_shells_name(third_game):
    package, _ = third_game
    package.COMMANDS = {"serve": ("client.games.third.dance", "serve differently")}
    with pytest.raises(ValueError, match="'serve', which waddle has already"):
        cli.build_parser()


def test_the_games_file_errors_share_the_base_the_shell_catches(tmp_path, capsys):
    from waddle.downtown.cards import DeckError
    from waddle.hex.maps import MapError

    assert issubclass(MapError, FileError) and issubclass(DeckError, FileError)
    deck = tmp_path / "deck.toml"
    deck.write_text("[[card]]\nname = 'x'\n")
    assert main(["serve", "--game", "downtown", "--deck", str(deck), "--port", "0"]) == 2
    assert capsys.readouterr().err.startswith(f"waddle serve: {deck}: ")
