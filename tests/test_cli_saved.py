"""``waddle host`` and ``waddle play``: quitting the UI mid-game says where the game is saved."""

import pytest
import trio

import server.host
from client.cli import main
from client.ui import options


@pytest.fixture
def hosts(monkeypatch):
    """The hosts the commands make; the UI, replaced, starts the game and quits mid-game."""
    made = []

    class Recorded(server.host.Host):
        def __init__(self, config):
            super().__init__(config)
            made.append(self)

    async def start(table):
        if table.phase != "lobby":
            return  # resumed
        if not table.seats:
            table.seats.add("Ann")
        table.start()

    def quit_mid_game(session, args):
        trio.run(start, made[-1].table)
        return 0

    monkeypatch.setattr(server.host, "Host", Recorded)
    monkeypatch.setattr(options, "run_ui", quit_mid_game)
    return made


def test_quitting_host_mid_game_says_how_to_continue(hosts, tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["host", "--port", "0", "--open", "--players", "2", "--bots", "greedy",
                 "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"game saved to {path}; continue with: waddle host --resume {path}" in out
    assert path.exists() and not hosts[0].table.match.is_over


def test_quitting_play_mid_game_says_how_to_continue(hosts, tmp_path, capsys):
    path = tmp_path / "p.json"
    assert main(["play", "--bots", "1", "--pace", "0", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"game saved to {path}; continue with: waddle host --resume {path}" in out
    assert path.exists()


def test_quitting_host_in_the_lobby_says_nothing_about_a_save(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(options, "run_ui", lambda session, args: 0)
    assert main(["host", "--port", "0", "--save", str(tmp_path / "g.json")]) == 0
    assert "game saved" not in capsys.readouterr().out


def test_resuming_an_open_table_keeps_it_open(hosts, tmp_path, capsys):
    path = tmp_path / "g.json"
    args = ["--open", "--players", "2", "--bots", "greedy"]
    assert main(["host", "--port", "0", *args, "--save", str(path)]) == 0
    capsys.readouterr()
    assert main(["host", "--port", "7934", "--resume", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Others join with:  waddle join 127.0.0.1:7934\n" in out and "--code" not in out
    assert hosts[-1].table.code is None


def test_resuming_keeps_the_saved_code_unless_one_is_given(hosts, tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["host", "--port", "0", "--code", "fjord", "--players", "2", "--bots", "greedy",
                 "--save", str(path)]) == 0
    assert main(["host", "--port", "7934", "--resume", str(path)]) == 0
    assert "waddle join 127.0.0.1:7934 --code fjord\n" in capsys.readouterr().out
    assert hosts[-1].table.code == "fjord"
    assert main(["host", "--port", "7934", "--resume", str(path), "--open"]) == 0
    assert "--code" not in capsys.readouterr().out.split("Others join with:")[1]
    assert hosts[-1].table.code is None


@pytest.mark.parametrize("command", [["play", "--bots", "1", "--pace", "0"],
                                     ["host", "--port", "0", "--open", "--players", "2", "--bots", "greedy"]])
def test_without_save_play_and_host_save_in_the_data_folder_and_say_so_first(command, hosts, tmp_path,
                                                                           monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)  # not in the current folder, nor in the temporary one
    assert main(command) == 0
    out = capsys.readouterr().out.splitlines()
    saves = tmp_path / "data" / "waddle" / "saves"
    (saved,) = [p for p in saves.iterdir() if p.suffix != ".journal"]  # (the save's write-ahead journal beside it)
    assert f"Saving to:  {saved}" in out[:2]  # at the start, before the game
    assert out[-1] == f"game saved to {saved}; continue with: waddle host --resume {saved}"
    assert saves.stat().st_mode & 0o777 == 0o700  # a save holds the seats' tokens
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
