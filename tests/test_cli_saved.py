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
