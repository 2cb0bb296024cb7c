"""The example bots play whole games against an in-process host on 127.0.0.1 (port 0),
the standard-library bot imports nothing but the standard library, and the tournament
script (the arena's Python API) ranks the bots."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest
import trio
from test_cli_demo import host_in_thread, other_player

from protocol import Settings
from server import ServerConfig
from waddle.hex.options import HexOptions, StandardMap

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def two_seats(seed: int) -> ServerConfig:
    return ServerConfig(port=0, settings=Settings(players=2, options=HexOptions(map=StandardMap(seed=seed))), seed=seed)


def test_stdlib_bot_imports_only_the_standard_library():
    tree = ast.parse((EXAMPLES / "stdlib_bot.py").read_text(encoding="utf-8"))
    roots = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    roots |= {node.module.split(".")[0] for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module}
    assert roots and roots <= set(sys.stdlib_module_names)


def test_stdlib_bot_plays_a_whole_game():
    stdlib_bot = load("stdlib_bot")
    with host_in_thread(two_seats(6), other_player) as (host, port):
        labels, mine, ended = stdlib_bot.play("127.0.0.1", port, "Stdlib", seed=1)
        game = host.table.match.game
    result = game.result()
    assert game.is_over and labels == list(game.players)
    assert ended["scores"] == {p: s.to_dict() for p, s in result.scores.items()}
    assert ended["winners"] == list(result.winners)
    assert mine == next(s.label for s in host.table.seats if s.name == "Stdlib")
    assert any(player == mine for player, _ in game.moves)
    assert host.table.bot_kinds.count(None) == len(game.moves)  # every move its player's: no stand-in


async def downtown_player(port: int) -> None:
    from client.botplay import play
    from client.core import connect
    from waddle.ruleset import get_ruleset

    async with connect("127.0.0.1", port, name="Other") as client:
        await play(client, get_ruleset("downtown").make_bot("greedy", 1))


@pytest.mark.parametrize("players, single", [(2, False), (3, True), (4, False)])
def test_stdlib_bot_plays_a_whole_game_of_downtown(players, single, capsys):
    from waddle.downtown.options import DowntownOptions

    stdlib_bot = load("stdlib_bot")
    settings = Settings(players=players, options=DowntownOptions(single_deck=single))
    config = ServerConfig(port=0, settings=settings, seed=players, game="downtown")

    async def others(port: int) -> None:  # the other seats: bot clients
        async with trio.open_nursery() as nursery:
            for _ in range(players - 1):
                nursery.start_soon(downtown_player, port)

    with host_in_thread(config, others) as (host, port):
        labels, mine, ended = stdlib_bot.play("127.0.0.1", port, "Stdlib", seed=players, game="downtown")
        match = host.table.match
    assert match.is_over and list(ended["scores"]) == list(match.state.scores)
    assert ended["winners"] == list(match.state.winners) and labels == list(match.labels)
    seat = match.labels.index(mine)
    assert mine == next(s.label for s in host.table.seats if s.name == "Stdlib")
    assert sum(1 for s, action in match.actions if s == seat) >= match.state.rounds  # every turn its own
    assert all(bot is None for (s, _), bot in zip(match.actions, host.table.bot_kinds) if s == seat)


def test_stdlib_bot_prints_each_seats_total_and_the_winners():
    stdlib_bot = load("stdlib_bot")
    hex_end = {"type": "game_ended", "winners": ["blue"], "halves": [],
               "scores": {"red": {"waddles": 3, "pools": 4, "total": 7}, "blue": {"waddles": 9, "pools": 0, "total": 9}}}
    assert stdlib_bot.scores(["red", "blue"], hex_end) == ["blue      9", "red       7", "winners: blue"]
    downtown_end = {"type": "game_ended", "scores": [11, 11, 4], "winners": [0, 1], "shared": True}
    assert stdlib_bot.scores(["blue", "green", "purple"], downtown_end) == [
        "blue     11", "green    11", "purple    4", "winners: blue green"]


@pytest.mark.parametrize("address", ["nonsense", "127.0.0.1:notaport", "127.0.0.1:0", ":7777"])
def test_stdlib_bot_refuses_a_bad_address_as_waddle_join_does(capsys, address):
    from client.address import parse_address

    stdlib_bot = load("stdlib_bot")
    assert stdlib_bot.main([address]) == 2
    with pytest.raises(ValueError) as join:
        parse_address(address)
    assert capsys.readouterr().err == f"stdlib_bot: {join.value}\n"


def test_simple_bot_plays_a_whole_game(capsys):
    simple_bot = load("simple_bot")
    with host_in_thread(two_seats(7), other_player) as (host, port):
        trio.run(simple_bot.main, "127.0.0.1", port, "Simple")
        game = host.table.match.game
    assert game.is_over
    assert capsys.readouterr().out.strip() == str(dict(zip(game.players, game.live_totals())))


def test_tournament_greedy_beats_random_and_the_table_lists_every_bot(capsys):
    tournament = load("tournament")
    arena, results = tournament.run_tournament(["greedy", "random"], games=4, seed=1)
    assert [e.name for e in arena.entrants] == ["greedy", "random"]
    assert len(results) == 4 and all(r.finished for r in results)
    greedy_scores = [s.score for r in results for s in r.seats if s.entrant == 0]
    random_scores = [s.score for r in results for s in r.seats if s.entrant == 1]
    assert sum(greedy_scores) > sum(random_scores)
    assert sum(0 in [r.seats[w].entrant for w in r.winners] for r in results) >= 3
    assert tournament.main(["--bots", "greedy", "random", "greedy", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "greedy#2" in out and "random" in out and out.startswith("2 games, 3 players")
    assert tournament.main(["--bots", "greedy", "nobot"]) == 2


@pytest.mark.slow
def test_stdlib_bot_opens_a_table_at_a_club_another_sits_at_it_by_id_and_they_play_it_out():
    import subprocess

    config = ServerConfig(port=0, settings=Settings(players=2), seed=3, club=True)
    with host_in_thread(config) as (host, port):
        bot = [sys.executable, str(EXAMPLES / "stdlib_bot.py"), f"127.0.0.1:{port}"]
        lost = subprocess.run(bot, capture_output=True, text=True, timeout=60)  # a club, neither option
        opener = subprocess.Popen([*bot, "--create", "hex", "--name", "Std", "--seed", "1"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        joiner = None
        try:
            first = opener.stdout.readline()
            assert first.startswith("opened table "), first + opener.stderr.read()
            table = first.split()[2]
            joiner = subprocess.Popen([*bot, "--table", table, "--name", "Lib", "--seed", "2"],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            joined, joiner_err = joiner.communicate(timeout=120)
            opened, opener_err = opener.communicate(timeout=120)
        finally:
            for proc in (opener, joiner):
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.communicate()
        finished = host.club.tables[table]
    assert lost.returncode == 2 and "the host is a club: give --table ID" in lost.stderr
    assert opener.returncode == 0 and joiner.returncode == 0, opener_err + joiner_err
    assert finished.phase == "finished" and {s.name for s in finished.seats} == {"Std", "Lib"}
    scores = opened.splitlines()[-3:]  # two seats' totals, then the winners: the same for both
    assert scores == joined.splitlines()[-3:] and scores[-1].startswith("winners: ")
