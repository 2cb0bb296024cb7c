"""``waddle demo`` and ``waddle bot``: complete games over loopback, output that agrees with
the saved record, and one-line errors."""

from __future__ import annotations

import json
import queue
import re
import socket
import threading
from contextlib import contextmanager

import pytest
import trio

from client.botplay import play
from client.cli import main
from client.core import connect
from protocol import Settings
from server import Host, ServerConfig
from waddle.hex.bots import make_bot
from waddle.hex.options import HexOptions, StandardMap
from waddle.hex.record import load_record
from waddle.hex.render import render_game


def test_demo_json_agrees_with_replaying_the_saved_record(tmp_path, capsys):
    path = tmp_path / "demo.json"
    assert main(["demo", "--players", "3", "--seed", "4", "--json", "--record", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    game = load_record(path)
    result = game.result()
    assert out["record"] == str(path)
    assert out["finished"] is True and game.is_over
    assert out["scores"] == {p: s.to_dict() for p, s in result.scores.items()}
    assert out["winners"] == list(result.winners)
    assert len(out["halves"]) == 1


def test_demo_prints_moves_the_final_board_scores_and_the_record(tmp_path, capsys):
    path = tmp_path / "demo.json"
    assert main(["demo", "--players", "2", "--seed", "1", "--pace", "0", "--bots", "greedy",
                 "random", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    game = load_record(path)
    assert render_game(game) in out
    assert f"record saved to {path}" in out
    moves = [line for line in out.splitlines() if re.match(r"\s*\d+\s+(red|blue)\s", line)]
    assert len(moves) == len(game)
    assert [int(line.split()[0]) for line in moves] == list(range(1, len(game) + 1))
    for line, (player, action) in zip(moves, game.moves):
        assert player in line and str(action) in line
    for player, score in game.result().scores.items():
        assert re.search(rf"{player} \(.*\)\s+{score.waddles}\s+{score.pools}\s+{score.total}$",
                         out, re.M)


def test_demo_bad_bots_is_one_line(capsys):
    assert main(["demo", "--bots", "clever"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown bot 'clever'" in err
    assert main(["demo", "--players", "2", "--bots", "random", "random", "greedy"]) == 2
    assert "3 bots for 2 players" in capsys.readouterr().err


def test_demo_bot_that_fails_is_one_line_not_a_traceback(monkeypatch, capsys):
    from waddle.hex.ruleset import RULESET

    class Broken:
        name = "broken"

        def choose(self, game):
            raise ZeroDivisionError("the bot divided by zero")

    real = RULESET.make_bot
    monkeypatch.setattr(RULESET, "make_bot",
                        lambda kind, seed, **kw: Broken() if seed % 10 == 1 else real(kind, seed, **kw))
    assert main(["demo", "--players", "2", "--seed", "3", "--pace", "0", "--bots", "random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "Tux (random bot) stopped: ZeroDivisionError: the bot divided by zero" in err


def test_demo_gives_both_search_kinds_its_time_budget_and_no_other_bot(monkeypatch, capsys):
    from waddle.hex.ruleset import RULESET

    made = []
    real = RULESET.make_bot

    def spy(kind, seed, **options):
        made.append((kind, options))
        return real("random", seed)

    monkeypatch.setattr(RULESET, "make_bot", spy)
    assert main(["demo", "--players", "4", "--seed", "3", "--pace", "0", "--seconds", "0.02",
                 "--bots", "search", "uct", "greedy", "random"]) == 0
    assert sorted(made) == [("greedy", {}), ("random", {}), ("search", {"seconds": 0.02}),
                            ("uct", {"seconds": 0.02})]


@contextmanager
def host_in_thread(config: ServerConfig, also=None):
    """Run a host (and ``also(port)``, a coroutine function) in a trio run on another
    thread; yield ``(host, port)``."""
    ports: queue.Queue = queue.Queue()
    stop = threading.Event()
    host = Host(config)

    async def serve() -> None:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            if also is not None:
                nursery.start_soon(also, port)
            ports.put(port)
            await trio.to_thread.run_sync(stop.wait)
            nursery.cancel_scope.cancel()

    thread = threading.Thread(target=trio.run, args=(serve,))
    thread.start()
    try:
        yield host, ports.get(timeout=10)
    finally:
        stop.set()
        thread.join(timeout=10)


async def other_player(port: int) -> None:
    async with connect("127.0.0.1", port, name="Other") as client:
        await play(client, make_bot("random", 1))


def test_bot_command_plays_a_seat_to_the_end(capsys):
    settings = Settings(players=2, options=HexOptions(map=StandardMap(seed=2)))
    config = ServerConfig(port=0, settings=settings, seed=2)
    with host_in_thread(config, other_player) as (host, port):
        assert main(["bot", f"127.0.0.1:{port}", "--name", "Robo", "--strategy", "greedy",
                     "--seed", "3"]) == 0
        game = host.table.match.game
    out = capsys.readouterr().out
    assert game.is_over
    assert re.search(r"seated as \w+ \(Robo\)", out)
    # the seat's token is remembered for a restart, never printed
    from client.seats import SeatStore
    token = next(seat.token for seat in host.table.seats if seat.name == "Robo")
    assert token not in out and SeatStore().lookup(f"127.0.0.1:{port}", host.table.id, "Robo") == token
    for player, score in game.result().scores.items():
        assert re.search(rf"{player} \(.*\)\s+{score.waddles}\s+{score.pools}\s+{score.total}$",
                         out, re.M)


def test_bot_command_errors_are_one_line(capsys):
    assert main(["bot", "nowhere", "--strategy", "random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected HOST:PORT" in err
    with socket.socket() as probe:                 # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["bot", f"127.0.0.1:{port}", "--strategy", "random", "--wait", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot connect to 127.0.0.1:{port}: connection refused" in err
    # with time to wait, each retry is one line, then the error
    assert main(["bot", f"127.0.0.1:{port}", "--strategy", "random", "--wait", "2"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= 3 and lines[-1].endswith("connection refused")
    assert all(line.startswith("waddle bot: host not answering (connection refused), retry ")
               for line in lines[:-1])


def test_demo_output_cut_short_by_its_reader_is_no_traceback():
    import subprocess
    import sys

    with subprocess.Popen([sys.executable, "-m", "client.cli", "demo", "--players", "2", "--seed", "1",
                           "--pace", "0", "--bots", "random"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        first = [proc.stdout.readline() for _ in range(2)]
        proc.stdout.close()                      # as `waddle demo | head -2` does
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0 and "Traceback" not in err and err == ""
    assert first[0].startswith("waddle demo: 2 bots on 127.0.0.1:")



@pytest.mark.parametrize("argv", [
    ["demo", "--seconds", "nan"], ["demo", "--pace", "inf"], ["bot", "127.0.0.1:1", "--seconds", "nan"],
    ["serve", "--grace", "nan"], ["serve", "--turn-timer", "inf"], ["play", "--pace", "-1"],
])
def test_seconds_that_are_not_finite_or_are_negative_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2 and "finite number of seconds" in capsys.readouterr().err


def test_a_search_bot_without_a_finite_budget_is_refused():
    for budget in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError, match="finite number of seconds, 0 or more"):
            make_bot("search", 1, seconds=budget)
