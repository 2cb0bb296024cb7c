"""``waddle arena``: the schedules (every entrant plays, seats rotated, a seed reproduces
them), the ratings and intervals on hand-made results, the entrant syntax and its
refusals, and real arenas on 127.0.0.1 through the command line: built-in bots with
iteration budgets, the standard-library example bot, a command that crashes and one
that never joins (reported, never hanging)."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from client import cli
from client.arena import entrants, runner, schedule
from client.arena.progress import Progress, clock
from client.arena.ratings import Finish, ranks, rate, standings, wilson
from client.arena.table import Limits

ROOT = Path(__file__).resolve().parent.parent
STDLIB_BOT = f"cmd:python {ROOT / 'examples' / 'stdlib_bot.py'}"


# -- schedules --------------------------------------------------------------------------

@pytest.mark.parametrize(("k", "players"), [(2, 2), (3, 2), (4, 4), (5, 3), (5, 4), (6, 5)])
def test_a_round_robin_cycle_seats_everyone_equally_in_every_seat(k, players):
    cycle = schedule.cycle_length(k, players)
    plan = schedule.round_robin(k, players, cycle, seed=3)
    assert [g.index for g in plan] == list(range(cycle))
    assert all(len(set(g.seats)) == players for g in plan)        # nobody twice at a table
    per_seat = Counter((seat, e) for g in plan for seat, e in enumerate(g.seats))
    assert len(set(per_seat.values())) == 1 and len(per_seat) == k * players
    meetings = Counter(frozenset((a, b)) for g in plan for a in g.seats for b in g.seats if a < b)
    assert len(meetings) == k * (k - 1) // 2 and len(set(meetings.values())) == 1


def test_the_rotations_of_a_table_share_a_deal_and_each_opens_once():
    plan = schedule.round_robin(4, 4, 4, seed=9)
    assert len({g.seed for g in plan}) == 1
    assert sorted(g.seats[0] for g in plan) == [0, 1, 2, 3]


def test_the_seed_reproduces_the_schedule_and_another_seed_changes_it():
    assert schedule.round_robin(5, 3, 40, seed=1) == schedule.round_robin(5, 3, 40, seed=1)
    assert schedule.round_robin(5, 3, 40, seed=1) != schedule.round_robin(5, 3, 40, seed=2)
    assert schedule.one_against_field(2, 4, 16, 1) == schedule.one_against_field(2, 4, 16, 1)


def test_a_short_round_robin_is_near_balanced_and_a_long_one_goes_on_cycling():
    plan = schedule.round_robin(5, 4, 7, seed=1)
    games = Counter(e for g in plan for e in g.seats)
    assert len(plan) == 7 and max(games.values()) - min(games.values()) <= 2
    long = schedule.round_robin(3, 2, 20, seed=1)
    assert len(long) == 20 and set(Counter(e for g in long[:18] for e in g.seats).values()) == {12}


def test_one_against_the_field_rotates_the_candidate_through_every_seat():
    plan = schedule.one_against_field(1, 4, 8, seed=5)
    assert [g.seats.index(0) for g in plan] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert all(Counter(g.seats) == Counter({0: 1, 1: 3}) for g in plan)
    two = schedule.one_against_field(2, 3, 6, seed=5)
    assert [g.seats for g in two] == [(0, 2, 2), (1, 2, 2), (2, 0, 2), (2, 1, 2), (2, 2, 0), (2, 2, 1)]


def test_schedules_refuse_too_few_entrants_or_games():
    with pytest.raises(ValueError, match="at least 4 entrants"):
        schedule.round_robin(3, 4, 10, seed=1)
    with pytest.raises(ValueError, match="at least one game"):
        schedule.round_robin(3, 3, 0, seed=1)
    with pytest.raises(ValueError, match="needs a candidate"):
        schedule.one_against_field(0, 3, 3, seed=1)


# -- ratings and intervals --------------------------------------------------------------

def test_wilson_intervals_on_known_numbers():
    # Newcombe, "Two-sided confidence intervals for the single proportion", Statistics in
    # Medicine 17 (1998), table I, method 3 (Wilson's score interval): 81/263 and 0/20
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_ranks_put_the_games_winners_first_and_share_ties():
    assert ranks([10, 20, 20, 5], winners=[1, 2]) == [3, 1, 1, 4]
    assert ranks([10, 20, 20], winners=[2]) == [3, 2, 1]     # the game broke the tie
    assert ranks([7, 7], winners=[0, 1]) == [1, 1]


def test_ratings_follow_openskill_over_each_games_places():
    finishes = [Finish((0, 1, 2), (30, 20, 10), (0,)), Finish((2, 0, 1), (5, 25, 15), (1,))]
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    [[a], [b], [c]] = model.rate([[a], [b], [c]], ranks=[1, 2, 3])
    [[c], [a], [b]] = model.rate([[c], [a], [b]], ranks=[3, 1, 2])
    expected = [x for r in (a, b, c) for x in (r.mu, r.sigma)]
    assert [x for pair in rate(finishes, 3) for x in pair] == pytest.approx(expected)
    table = standings(finishes, 3)
    assert [s.entrant for s in table] == [0, 1, 2]
    assert table[0].wins == 2 and table[0].margin == pytest.approx(10.0)
    assert table[2].score == pytest.approx(7.5) and table[2].games == 2


def test_a_shared_win_counts_a_share_and_the_fields_copies_rate_as_one_entrant():
    finishes = [Finish((0, 1, 1), (20, 20, 10), (0, 1)), Finish((1, 0, 1), (9, 30, 9), (1,))]
    table = {s.entrant: s for s in standings(finishes, 2)}
    assert table[0].wins == pytest.approx(1.5) and table[1].wins == pytest.approx(0.5)
    assert table[0].games == 2 and table[1].games == 4
    assert table[0].mu > 25 > table[1].mu


# -- entrants ---------------------------------------------------------------------------

def test_entrants_name_kinds_levels_budgets_and_commands():
    assert entrants.parse("search:0.1", "hex").options() == {"seconds": 0.1}
    assert entrants.parse("search:250i", "hex").options() == {"iterations": 250, "seconds": None}
    hard = entrants.parse("boss=hard", "downtown")
    assert (hard.name, hard.kind, hard.options()) == ("boss", "hard", {})
    bot = entrants.parse(STDLIB_BOT, "hex")
    assert bot.external and bot.name == "stdlib_bot" and bot.command[0] == sys.executable
    assert bot.argv(address="h:1", name="n", code="c")[-5:] == ["h:1", "--name", "n", "--code", "c"]
    placed = entrants.parse("me=cmd:python bot.py --at {address} --seat {name}", "hex")
    assert placed.argv(address="h:1", name="me", code="c")[-4:] == ["--at", "h:1", "--seat", "me"]
    names = [e.name for e in entrants.unique_names([entrants.parse(t, "hex") for t in ("greedy",) * 3])]
    assert names == ["greedy", "greedy#2", "greedy#3"]


@pytest.mark.parametrize(("text", "message"), [
    ("nobot", "unknown bot 'nobot': expected a level"),
    ("greedy:0.5", "the greedy bot takes no budget"),
    ("search:fast", "neither seconds a move"),
    ("search:0i", "iteration budget must be positive"),
    ("cmd:", "cmd: needs a command"),
    ("cmd:no-such-program-here --x", "no program 'no-such-program-here' on PATH"),
    ("cmd:python bot.py {where}", "bad placeholder 'where'"),
    ("cmd:python 'bot.py", "cannot split the command"),
])
def test_bad_entrants_are_refused_with_the_text_and_the_reason(text, message):
    with pytest.raises(ValueError, match="entrant .*" + message.replace("(", r"\(")):
        entrants.parse(text, "hex")


# -- progress ---------------------------------------------------------------------------

def test_progress_is_plain_lines_off_a_terminal_and_a_bar_on_one():
    plain = io.StringIO()
    progress = Progress(2, plain)
    progress.step("game 1 done")
    progress.step()
    lines = plain.getvalue().splitlines()
    assert lines[0].startswith("1/2 games") and lines[0].endswith("game 1 done") and "ETA" in lines[0]
    assert lines[1].startswith("2/2 games")
    bar = io.StringIO()
    progress = Progress(4, bar, bar=True)
    progress.step()
    progress.close()
    assert bar.getvalue().startswith("\r[#######") and "1/4 games" in bar.getvalue()
    assert bar.getvalue().endswith("\n") and clock(3725) == "1:02:05" and clock(65) == "1:05"


# -- real arenas ------------------------------------------------------------------------

def arena_cli(tmp_path, *argv: str) -> tuple[int, dict, list[dict], str]:
    out = tmp_path / "out.json"
    table = tmp_path / "out.csv"
    status = cli.main(["arena", *argv, "--jobs", "1", "--quiet", "--json", str(out), "--csv", str(table)])
    with table.open(newline="") as rows_file:
        rows = list(csv.DictReader(rows_file))
    return status, json.loads(out.read_text()), rows, ""


def test_an_arena_of_built_in_bots_writes_json_and_csv_that_agree(tmp_path, capsys):
    status, data, rows, _ = arena_cli(tmp_path, "random", "greedy", "search:20i", "--players", "3",
                                      "--games", "3", "--seed", "5")
    out = capsys.readouterr().out
    assert status == 0
    assert data["arena"]["played"] == data["arena"]["finished"] == 3 and data["arena"]["seed"] == 5
    assert [e["name"] for e in data["arena"]["entrants"]] == ["random", "greedy", "search:20i"]
    assert len(data["games"]) == len(data["schedule"]) == 3 and len(rows) == 9
    for game in data["games"]:
        scores = [s["score"] for s in game["seats"]]
        assert game["finished"] and game["winners"]
        assert all(scores[w] == max(scores) for w in game["winners"])
        assert [s["entrant"] for s in game["seats"]] == data["schedule"][game["index"]]["seats"]
        mine = [r for r in rows if int(r["game"]) == game["index"]]
        assert [int(r["score"]) for r in mine] == scores
    assert sorted(s["games"] for s in data["table"]) == [3, 3, 3]
    assert sum(s["wins"] for s in data["table"]) == pytest.approx(3)
    assert sum(float(r["win"]) for r in rows) == pytest.approx(3)
    for name in ("random", "greedy", "search:20i", "95 % interval", "ordinal"):
        assert name in out


def test_each_deal_has_its_own_map_and_its_rotations_share_it(tmp_path):
    records = tmp_path / "records"
    for seed in ([], ["--seed", "3"]):
        shutil.rmtree(records, ignore_errors=True)
        data = arena_cli(tmp_path, "greedy", "random", "--games", "4", "--records", str(records), *seed)[1]
        maps = [json.loads(p.read_text())["map"] for p in sorted(records.iterdir())]
        deals = [game["seed"] for game in data["schedule"]]
        assert deals[0] == deals[1] != deals[2] == deals[3]      # two deals, two rotations each
        assert maps[0] == maps[1] != maps[2] == maps[3], seed


def test_the_seed_reproduces_the_games_with_iteration_budgets(tmp_path):
    first = arena_cli(tmp_path, "greedy", "search:15i", "--game", "downtown", "--games", "2", "--seed", "8")[1]
    again = arena_cli(tmp_path, "greedy", "search:15i", "--game", "downtown", "--games", "2", "--seed", "8")[1]
    def scores(data):
        return [[(s["entrant"], s["score"]) for s in g["seats"]] for g in data["games"]]
    assert scores(first) == scores(again) and first["schedule"] == again["schedule"]


def test_the_standard_library_bot_enters_as_a_command(tmp_path):
    status, data, rows, _ = arena_cli(tmp_path, "greedy", STDLIB_BOT, "--players", "2", "--games", "2",
                                      "--seed", "2")
    assert status == 0 and data["arena"]["finished"] == 2
    seats = [s for g in data["games"] for s in g["seats"] if s["entrant"] == "stdlib_bot"]
    assert len(seats) == 2 and all(not s["faults"] and s["standin_moves"] == 0 for s in seats)
    assert sorted(int(r["seat"]) for r in rows if r["entrant"] == "stdlib_bot") == [0, 1]


@pytest.mark.slow
def test_a_crashing_command_and_one_that_never_joins_are_reported_and_stood_in_for(tmp_path, capsys):
    crash = "crash=cmd:python -c \"import sys; print('boom', file=sys.stderr); sys.exit(3)\""
    sleeper = "sleeper=cmd:python -c 'import threading; threading.Event().wait()'"   # never joins
    status, data, rows, _ = arena_cli(tmp_path, "greedy", crash, sleeper, "--players", "3", "--games", "1",
                                      "--seed", "4", "--join-timeout", "1.5")
    out = capsys.readouterr().out
    assert status == 0 and data["arena"]["finished"] == 1
    faults = {s["entrant"]: s["faults"] for s in data["games"][0]["seats"]}
    assert faults["greedy"] == []
    assert "exited with status 3 before the game ended: boom" in faults["crash"]
    assert any("did not join within 1.5 s" in f for f in faults["sleeper"])
    assert "Faults:" in out and "crash: exited with status 3" in out
    assert all(r["faults"] for r in rows if r["entrant"] != "greedy")


def test_ctrl_c_stops_the_run_with_the_results_so_far():
    field = tuple(entrants.parse(t, "hex") for t in ("random", "random"))
    plan = schedule.round_robin(2, 2, 4, seed=1)
    seen = []

    def interrupt(result):
        seen.append(result)
        raise KeyboardInterrupt

    results, stopped = runner.run(runner.Arena("hex", field, limits=Limits()), plan, on_result=interrupt)
    assert stopped == runner.INTERRUPTED and results == seen and len(results) == 1 and results[0].finished


@pytest.mark.parametrize(("argv", "message"), [
    (["greedy"], "needs at least 2 entrants"),
    (["greedy", "random", "--players", "6"], "--players must be 2 to 5"),
    (["greedy", "random", "--game", "downtown", "--players", "5"], "--players must be 2 to 4"),
    (["--candidate", "greedy"], "needs both --candidate and --field"),
    (["greedy", "--candidate", "greedy", "--field", "random"], "not both"),
    ([], "no entrants"),
    (["greedy", "random", "--jobs", "0"], "--jobs must be 1 to"),
    (["greedy", "random", "--games", "0"], "--games must be at least 1"),
    (["greedy", "hard:x"], "entrant 'hard:x'"),
])
def test_the_command_refuses_bad_arenas_in_one_line(argv, message, capsys):
    assert cli.main(["arena", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("waddle arena: ") and message in err and err.count("\n") == 1


def test_head_to_head_counts_who_finished_ahead_ties_half():
    from client.arena.ratings import head_to_head

    pairs = head_to_head([Finish((0, 1, 2), (30, 20, 20), (0,)), Finish((2, 1, 0), (9, 8, 1), (0,))], 3)
    assert pairs[0][1] == (1.0, 2) and pairs[1][0] == (1.0, 2)
    assert pairs[1][2] == (0.5, 2) and pairs[2][1] == (1.5, 2) and pairs[0][0] == (0.0, 0)


SILENT_BOT = """
import itertools
import sys
sys.path.insert(0, {examples!r})
from stdlib_bot import parse_address, receive, send
import socket
host, port = parse_address(sys.argv[1])
code = sys.argv[sys.argv.index("--code") + 1]
ILLEGAL, ids, version, rejected = {illegal!r}, itertools.count(1), 0, 0
with socket.create_connection((host, port), timeout=60) as sock:
    send(sock, {{"type": "hello", "protocol": 2, "client": "silent"}})
    receive(sock)
    send(sock, {{"type": "join", "name": "silent", "label": None, "code": code}})
    while True:
        message = receive(sock)
        if message["type"] == "ping":
            send(sock, {{"type": "pong", "nonce": message["nonce"]}})
        elif message["type"] == "seated":
            token = message["token"]
            send(sock, {{"type": "ready", "ready": True}})
        elif message["type"] == "played" and message["events"][-1].get("type") == "game_ended":
            break
        if message["type"] == "rejected":
            rejected += 1
        if ILLEGAL and message["type"] in ("started", "played"):
            version = message["version"]
            send(sock, {{"type": "act", "id": str(next(ids)), "version": version, "token": token,
                         "action": {{"type": "place", "hex": [99, 99], "double": False}}}})
if rejected:
    sys.exit(f"{{rejected}} moves rejected")
"""


@pytest.mark.slow
@pytest.mark.parametrize("illegal", [False, True], ids=["silent", "illegal moves"])
def test_a_command_that_never_plays_a_legal_move_loses_its_turns_to_the_stand_in(tmp_path, illegal):
    script = tmp_path / "silent_bot.py"
    script.write_text(SILENT_BOT.format(examples=str(ROOT / "examples"), illegal=illegal))
    status, data, rows, _ = arena_cli(tmp_path, "greedy", f"cmd:python {script}", "--players", "2",
                                      "--games", "1", "--seed", "6", "--move-timeout", "0.05")
    assert status == 0 and data["arena"]["finished"] == 1
    silent = next(s for s in data["games"][0]["seats"] if s["entrant"] == "silent_bot")
    assert silent["standin_moves"] > 0
    assert any("stand-in played" in fault for fault in silent["faults"])
    rejected = [f for f in silent["faults"] if "moves rejected" in f]
    assert bool(rejected) == illegal and all(f.startswith("exited with status 1: ") for f in rejected)


@pytest.mark.pty
def test_in_a_terminal_the_bar_shows_progress_and_ctrl_c_keeps_the_results_so_far(tmp_path):
    import os
    import signal

    from test_pty import Terminal, wait

    out = tmp_path / "out.json"
    terminal = Terminal(["arena", "random", "greedy", "--games", "2000", "--seed", "1", "--jobs", "2",
                         "--json", str(out)], columns=100)
    try:
        def done() -> int:
            found = re.search(r"\] (\d+)/2000 games", terminal.text())
            return int(found.group(1)) if found else 0

        wait([terminal], lambda: done() >= 3, "the progress bar at 3 games")
        assert "elapsed  ETA " in terminal.text() and "[" in terminal.text()
        os.killpg(terminal.proc.pid, signal.SIGINT)              # Ctrl-C: the whole foreground group
        wait([terminal], lambda: "stopped by Ctrl-C" in terminal.text(), "the table after Ctrl-C")
        assert terminal.proc.wait(30) == 130
    finally:
        terminal.close()
    data = json.loads(out.read_text())
    assert data["arena"]["interrupted"] and data["arena"]["stopped"] == "stopped by Ctrl-C"
    assert 3 <= data["arena"]["played"] < 2000
    assert len(data["games"]) == data["arena"]["played"] and all(g["finished"] for g in data["games"])
    assert sum(s["games"] for s in data["table"]) == 2 * data["arena"]["played"]


def test_one_against_the_field_through_the_command_line(tmp_path, capsys):
    status, data, rows, _ = arena_cli(tmp_path, "--candidate", "search:10i", "--field", "greedy",
                                      "--players", "3", "--seed", "3")
    out = capsys.readouterr().out
    assert status == 0 and data["arena"]["mode"] == "one against the field"
    assert data["arena"]["games"] == 3 and len({g["seed"] for g in data["schedule"]}) == 1
    assert [g["seats"].index("search:10i") for g in data["schedule"]] == [0, 1, 2]
    games = {s["entrant"]: s["games"] for s in data["table"]}
    assert games == {"search:10i": 3, "greedy": 6} and len(rows) == 9
    assert "one against the field" in out and "Head to head" not in out


def arena_with_killer(signal: str, limits: Limits) -> tuple[list, str | None]:
    """Two games of a field whose second entrant's command sends ``signal`` to its worker."""
    killer = f"killer=cmd:python -c 'import os, signal; os.kill(os.getppid(), signal.{signal})'"
    field = tuple(entrants.parse(t, "hex") for t in ("random", killer))
    plan = schedule.round_robin(2, 2, 2, seed=1)
    return runner.run(runner.Arena("hex", field, limits=limits), plan, jobs=2)


@pytest.mark.slow
def test_a_worker_process_that_dies_stops_the_run_at_once_with_the_reason():
    # the default limits' patience (a minute and more) is never reached: the death ends the
    # run as it happens, however long the workers take to start under load
    assert arena_with_killer("SIGKILL", Limits()) == ([], "stopped: a worker process died")


@pytest.mark.slow
def test_a_worker_process_that_hangs_stops_the_run_after_the_patience(monkeypatch):
    monkeypatch.setattr(runner, "PATIENCE", 0.5)
    limits = Limits(join=0.5, game=1.0)         # patience: 1 + 2 * 0.5 + 0.5 s
    assert arena_with_killer("SIGSTOP", limits) == ([], "stopped: no game ended for 2.5 s")


def test_off_a_terminal_progress_is_a_line_a_game_and_records_replay(tmp_path, capsys):
    records = tmp_path / "records"
    assert cli.main(["arena", "greedy", "random", "--games", "2", "--seed", "3", "--jobs", "1",
                     "--records", str(records)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "waddle arena: 2 games of Waddle, 2 players, round robin, seed 3, 1 at once"
    assert [line.split("  ")[0] for line in err[1:]] == ["1/2 games", "2/2 games"]
    assert all(line.endswith(" won") for line in err[1:])
    saved = sorted(records.iterdir())
    assert [p.name for p in saved] == ["arena-0001.json", "arena-0002.json"]
    assert cli.main(["replay", str(saved[0]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"]
