"""The club from the command line: ``waddle serve --club`` as a process, ``waddle bot
--create GAME`` and ``--table ID``, ``waddle tables HOST:PORT [--json]``, and the club's
typed rejections as one clean line each."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import pytest
import trio
from test_server_cli import Plain, closed_after_test, start_host

from client.botplay import play, start_when_full
from client.club import create_table, table_line
from client.core import connect
from client.state import Status
from protocol import Settings
from protocol.messages import TableInfo, TableSeat
from server.persistence import read_save
from waddle.ruleset import get_ruleset

WADDLE = (sys.executable, "-m", "client.cli")


def start_club(*args: str, port: int | None = 0) -> tuple[subprocess.Popen, int]:
    """``waddle serve --club`` on a free port (``port``; ``None``: as the club's folder says),
    its bots moving at once; the process and its port once it says where it listens."""
    where = () if port is None else ("--port", str(port))
    proc = subprocess.Popen([*WADDLE, "serve", "--club", *where, "--pace", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    closed_after_test(proc)
    line = proc.stdout.readline()
    if not line.startswith("Waddle club on 127.0.0.1:"):
        proc.kill()
        raise AssertionError(line + proc.stderr.read())
    return proc, int(line.split(":")[1].split()[0])


def stop(proc: subprocess.Popen) -> str:
    """Stop a host with Ctrl-C; what it printed on stdout."""
    if proc.poll() is None:
        proc.send_signal(2)
    out, _ = proc.communicate(timeout=30)
    return out


def waddle(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*WADDLE, *args], capture_output=True, text=True, timeout=timeout)


def listed(port: int) -> list[dict]:
    out = waddle("tables", f"127.0.0.1:{port}", "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.slow
def test_bots_open_tables_of_both_games_and_join_one_by_id_and_tables_lists_them(tmp_path):
    proc, port = start_club("--no-history", "--save", str(tmp_path / "club"))
    where = f"127.0.0.1:{port}"
    try:
        assert listed(port) == []
        assert "no tables at" in waddle("tables", where).stdout
        openers = [subprocess.Popen([*WADDLE, "bot", where, "--create", game, "--players", "2", "--bots", "random",
                                     "--start", "--seed", "1", "--name", name, *extra],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for game, name, extra in (("hex", "Ann", ()), ("downtown", "Bea", ("--single-deck",)))]
        opened = []
        for opener in openers:
            out, err = opener.communicate(timeout=120)
            assert opener.returncode == 0, err
            assert out.startswith("opened table ") and "final score:" in out
            opened.append(out.split()[2])
        created = trio.run(create_table, "127.0.0.1", port, "hex", Settings(players=2))
        players = [subprocess.Popen([*WADDLE, "bot", where, "--table", created.table, "--name", name, "--quiet"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for name in ("Cy", "Di")]
        for player in players:
            out, err = player.communicate(timeout=120)
            assert player.returncode == 0, err
            assert "final score:" in out and "Cy" in out and "Di" in out
        tables = listed(port)
        lines = waddle("tables", where).stdout.splitlines()
    finally:
        out = stop(proc)
    by_id = {t["table"]: t for t in tables}
    assert sorted(by_id) == sorted([*opened, created.table]) and tables[-1]["table"] == created.table
    for table, game, names in ((opened[0], "hex", {"Ann"}), (opened[1], "downtown", {"Bea"}),
                               (created.table, "hex", {"Cy", "Di"})):
        t = by_id[table]
        assert (t["game"], t["phase"], t["players"]) == (game, "finished", 2)
        assert {s["name"] for s in t["seats"] if s["bot"] is None} == names
        assert all(s["bot"] == "random" for s in t["seats"] if s["name"] not in names)
    assert len(lines) == 3 and all(line.split()[0] == t["table"] and "game over" in line
                                   for line, t in zip(lines, tables))
    assert "the club's games are saved in" in out


@pytest.mark.slow
def test_the_club_s_refusals_reach_the_user_as_one_clean_line(tmp_path):
    proc, port = start_club("--no-history", "--save", str(tmp_path / "club"))
    where = f"127.0.0.1:{port}"
    try:
        unknown = waddle("bot", where, "--table", "nope\x1b[2J", "--wait", "0")
        assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
        assert "(unknown_table)" in unknown.stderr and "\x1b" not in unknown.stderr

        full = trio.run(create_table, "127.0.0.1", port, "hex", None)
        seated = []
        for name in ("Ann", "Bob", "Cy", "Di"):  # a full lobby nobody started
            plain = Plain(port)
            plain.send(type="hello", protocol=3, client="plain")
            plain.until("welcome")
            plain.send(type="join_table", table=full.table, name=name)
            plain.until("seated")
            seated.append(plain)
        refused = waddle("bot", where, "--table", full.table, "--wait", "0")
        assert refused.returncode == 2 and "(table_full)" in refused.stderr and "all 4 seats are taken" in refused.stderr

        trio.run(lambda: create_table("127.0.0.1", port, "hex", name="Friday"))
        taken = waddle("bot", where, "--create", "hex", "--table-name", "friday")
        assert taken.returncode == 2 and "(name_taken)" in taken.stderr and "'friday'" in taken.stderr

        for _ in range(16 - 2):  # an address opens 16 tables at most
            trio.run(create_table, "127.0.0.1", port, "downtown", None)
        flood = waddle("bot", where, "--create", "downtown")
        assert flood.returncode == 2 and "(too_many_tables)" in flood.stderr
        assert "your address has 16 open tables" in flood.stderr
        assert len(listed(port)) == 16
    finally:
        stop(proc)
    single, port = start_host("--no-history", "--save", str(tmp_path / "one.waddle.json"))
    try:
        not_club = waddle("tables", f"127.0.0.1:{port}")
        assert not_club.returncode == 2 and "hosts one table, not a club" in not_club.stderr
    finally:
        stop(single)


def test_a_club_s_listing_line_cleans_the_host_s_text_and_shows_ratings_beside_names():
    info = TableInfo(table="t1\x1b[31m", name="Fri\u202eday", game="hex", title="Waddle", phase="lobby",
                     players=3, spectators=1, code_required=True,
                     seats=[TableSeat(name="Ann", connected=True, rating=12.345),
                            TableSeat(name="Bob\x07", connected=False),
                            TableSeat(name="Pingu (greedy bot)", bot="greedy", rating=3.0)])
    line = table_line(info)
    assert "\x1b" not in line and "\u202e" not in line and "\x07" not in line
    assert line.startswith("t1 ") and "Friday" in line
    assert "3/3 seated" in line and "not started" in line and "1 watching" in line and "code" in line
    assert line.endswith("Ann 12.3, Bob (away), Pingu (greedy bot) 3.0")


@pytest.mark.slow
def test_a_club_host_killed_with_three_tables_in_play_resumes_every_table_with_its_seats(tmp_path):
    folder = tmp_path / "club"
    proc, port = start_club("--no-history", "--save", str(folder))
    tables = [("hex", Settings(players=2, bots=["random"]), "Ann"),
              ("downtown", Settings(players=2, bots=["random"]), "Bea"),
              ("hex", Settings(players=3, bots=["greedy"]), "Cy")]
    before, after = {}, {}
    resumed = []

    async def sit(table: str, game: str, name: str, arrived: trio.Event) -> None:
        bot = get_ruleset(game).make_bot("random", 1)
        async with connect("127.0.0.1", port, name=name, table=table, first_wait=10) as client:
            await start_when_full(client)
            for _ in range(2):
                await client.wait_for(lambda s: s.my_turn)
                await client.act(await trio.to_thread.run_sync(bot.choose, client.state.view.position()))
            await client.wait_for(lambda s: s.my_turn)  # the host's bots have moved: its turn again
            before[table] = (client.state.label, client.token, client.state.version)
            arrived.set()
            await client.wait_for(lambda s: s.status is Status.RECONNECTING)  # the host was killed
            await client.wait_for(lambda s: s.status is Status.CONNECTED)  # ...and is back
            assert client.state.version >= before[table][2]
            await play(client, bot, ready=False)
            after[table] = (client.state.label, client.reconnects, client.state.outcome().scores,
                            [seat.name for seat in client.state.seats])

    async def evening() -> None:
        nonlocal proc
        with trio.fail_after(180):
            created = [await create_table("127.0.0.1", port, game, settings) for game, settings, _ in tables]
            async with trio.open_nursery() as nursery:
                arrived = [trio.Event() for _ in tables]
                for made, (game, _, name), event in zip(created, tables, arrived):
                    nursery.start_soon(sit, made.table, game, name, event)
                for event in arrived:
                    await event.wait()
                proc.kill()  # SIGKILL: no goodbye, no last save
                await trio.to_thread.run_sync(proc.wait)
                for made in created:
                    resumed.append(read_save(folder / f"{made.table}.waddle.json"))
                proc, again = await trio.to_thread.run_sync(
                    lambda: start_club("--no-history", "--resume", str(folder), port=None))
                assert again == port  # where the players' clients are trying
            return created

    try:
        created = trio.run(evening)
        listing = listed(port)
    finally:
        stop(proc)
    for made, (_, _, name), saved in zip(created, tables, resumed):
        label, token, version = before[made.table]
        assert saved.match.is_over is False and saved.version >= version  # nothing a client saw is lost
        seat = next(s for s in saved.saved.seats if s.name == name)
        assert (seat.label, seat.token) == (label, token)
        again_label, reconnects, scores, names = after[made.table]
        assert again_label == label and reconnects >= 1
        assert names == [s.name for s in saved.saved.seats]  # every seat kept, in its place
        final = read_save(folder / f"{made.table}.waddle.json")
        assert final.match.is_over and final.match.outcome().scores == scores
    assert [(t["table"], t["phase"]) for t in listing] == [(m.table, "finished") for m in created]


def test_the_club_s_lobby_wraps_a_long_notice_such_as_how_to_come_back_instead_of_cutting_it():
    from client.ui.club import ClubLobby

    back = "Come back with:  waddle join 127.0.0.1:47811 --name Ann --table 2f8157b578818895"
    lobby = ClubLobby("127.0.0.1", 47811, "Ann", notice=back)
    screen = ["".join(text for _, text in line) for line in lobby.lines(40, 12)]
    assert len(screen) == 12 and all(len(line) <= 40 for line in screen)
    assert " ".join(line.strip() for line in screen[-4:-1]) == back  # the notice, whole, above the keys


def test_the_club_host_s_lobby_keeps_how_others_join_under_its_title_folding_a_long_line_before_or():
    from client.ui.club import ClubLobby

    joins = ("Others join with:  waddle join 127.0.0.1:7777  or  ssh -p 2222 NAME@127.0.0.1",
             "SSH host key fingerprint:  SHA256:abc")
    lobby = ClubLobby("127.0.0.1", 7777, "Hank", stops_club=True, joins=joins)
    wide = ["".join(text for _, text in line).rstrip() for line in lobby.lines(100, 12)]
    assert wide[1:4] == [*joins, ""] and wide[4].startswith("  table")
    narrow = ["".join(text for _, text in line).rstrip() for line in lobby.lines(60, 12)]
    assert narrow[1:4] == ["Others join with:  waddle join 127.0.0.1:7777", "    or  ssh -p 2222 NAME@127.0.0.1",
                           "SSH host key fingerprint:  SHA256:abc"]
    assert len(narrow) == 12 and narrow[-1].endswith("q stop the club")


def test_a_club_that_cannot_listen_leaves_no_save_folder_behind(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    with taken:
        for folder, args in (("default", ()), ("given", ("--save", str(tmp_path / "given" / "club")))):
            (tmp_path / folder).mkdir(exist_ok=True)
            out = subprocess.run([*WADDLE, "serve", "--club", "--port", str(port), "--no-history", *args],
                                 capture_output=True, text=True, timeout=60, cwd=tmp_path / folder)
            assert out.returncode != 0 and f"cannot listen on 127.0.0.1:{port}" in out.stderr
            assert list((tmp_path / folder).iterdir()) == []
        host = subprocess.run([*WADDLE, "host", "--club", "--port", str(port), "--no-history", "--save",
                               str(tmp_path / "hosted")], capture_output=True, text=True, timeout=60)
        assert host.returncode != 0 and not (tmp_path / "hosted").exists()
        assert f"cannot host on 127.0.0.1:{port}: Address already in use" in host.stderr
        kept = tmp_path / "kept"
        kept.mkdir()
        (kept / "notes.txt").write_text("mine")
        out = subprocess.run([*WADDLE, "serve", "--club", "--port", str(port), "--no-history", "--save", str(kept)],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode != 0 and [p.name for p in kept.iterdir()] == ["notes.txt"]


def test_the_bot_s_log_names_each_host_bot_whole_and_once(tmp_path):
    proc, port = start_club("--no-history", "--save", str(tmp_path / "club"))
    try:
        out = waddle("bot", f"127.0.0.1:{port}", "--create", "hex", "--players", "3", "--bots", "medium",
                     "--start", "--seed", "2", "--name", "Ann")
        assert out.returncode == 0, out.stderr
        moves = [line for line in out.stdout.splitlines() if line[:4].strip().isdigit()]
        bots = {line.split()[2] for line in moves if "bot)" in line}
        assert bots == {"Pingu", "Tux"}
        for line in moves:
            if "bot)" in line:  # "   2  blue   Pingu (medium bot)        double 0,-2"
                name = line[13:38].rstrip()
                assert name in ("Pingu (medium bot)", "Tux (medium bot)"), line
    finally:
        stop(proc)
