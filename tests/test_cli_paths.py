"""What the commands that host or save a game check up front, before any host or game
starts: a save path they cannot write (client.commands.check_writable) and the host's port."""

import os

import pytest
import trio

from client.cli import main
from client.ui import options

SAVERS = [
    ["serve", "--port", "0", "--players", "2", "--bots", "random", "--save"],
    ["host", "--port", "0", "--players", "2", "--bots", "random", "--save"],
    ["play", "--bots", "1", "--record"],
    ["demo", "--players", "2", "--pace", "0", "--record"],
    ["arena", "greedy", "random", "--jobs", "1", "--json"],
    ["arena", "greedy", "random", "--jobs", "1", "--csv"],
]


@pytest.fixture
def nothing_starts(monkeypatch):
    """Fail the test if a command gets as far as running a game or the UI."""
    def started(*args, **kwargs):
        raise AssertionError("a game started")

    monkeypatch.setattr(trio, "run", started)
    monkeypatch.setattr(options, "run_ui", started)


def bad_paths(tmp_path):
    return {"no folder": (str(tmp_path / "missing" / "game.json"), f"there is no folder {tmp_path / 'missing'}"),
            "a folder": (str(tmp_path), "it is a folder"),
            "a device": (os.devnull, "it is not a regular file")}


@pytest.mark.parametrize("argv", SAVERS, ids=lambda argv: argv[0])
@pytest.mark.parametrize("case", ["no folder", "a folder", "a device"])
def test_an_unwritable_save_path_is_refused_before_the_game(tmp_path, capsys, nothing_starts, argv, case):
    path, problem = bad_paths(tmp_path)[case]
    assert main([*argv, path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"waddle {argv[0]}: cannot save the game to {path}: {problem}")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
@pytest.mark.parametrize("argv", SAVERS, ids=lambda argv: argv[0])
def test_a_read_only_folder_is_refused(tmp_path, capsys, nothing_starts, argv):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    assert main([*argv, str(folder / "game.json")]) == 2
    assert f"the folder {folder} is not writable" in capsys.readouterr().err



@pytest.mark.parametrize("command", ["serve", "host"])
@pytest.mark.parametrize("port", ["70000", "65536", "-1"])
def test_a_port_outside_0_to_65535_is_refused_in_one_line(capsys, nothing_starts, command, port):
    assert main([command, "--port", port, "--players", "2", "--bots", "random"]) == 2
    err = capsys.readouterr().err
    assert err == f"waddle {command}: bad port {port}: expected a number from 0 to 65535 (0: any free port)\n"


@pytest.mark.parametrize("command", ["serve", "host"])
def test_a_save_file_nested_too_deeply_is_refused_in_one_line(tmp_path, capsys, nothing_starts, command):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main([command, "--port", "0", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"waddle {command}: {path}: cannot read the saved game: nested too deeply\n"


@pytest.mark.parametrize("argv", [["play", "--bots", "1"], ["serve", "--port", "0", "--players", "2"]],
                         ids=lambda argv: argv[0])
def test_a_map_beyond_the_wires_coordinates_is_refused_before_the_game(tmp_path, capsys, nothing_starts, argv,
                                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)  # serve would save here
    path = tmp_path / "q1001.toml"
    path.write_text('hexes = [{q = 1000, r = 0, terrain = "water", number = 1, fish = [2]},\n'
                    '         {q = 1001, r = 0, terrain = "ice"}]\n')
    assert main([*argv, "--map", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"waddle {argv[0]}: {path}: hex (1001, 0): q and r must be from -1000 to 1000\n"
