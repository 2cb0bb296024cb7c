"""Write-ahead saving: every action is in the save (snapshot + journal) before anybody hears
of it; a host killed at the worst moment, or in the middle of a write, resumes with
everything every client saw; failed saves stay unsaved, are retried and reported once."""

import contextlib
import json
import logging
import os
import random
import select
import signal
import subprocess
import sys
import time

import pytest
import trio
from test_server_cli import Plain, action_of, game_of, start_host
from test_server_kit import MAP2, TablePeer, config, hosting, on_map, started_pair

import protocol
from client.savefile import read_record
from client.ui.replay import Replay
from server.persistence import read_save
from server.table import Table
from waddle.hex.ruleset import RULESET as HEX
from waddle.journal import Entry, journal_path, line


def play(c: Plain, seated: dict, game, version: int, stop) -> int:
    """Play the client's seat (its first legal action) until ``stop(played)`` is true for
    a ``played`` event received; return the version reached."""
    ids = 0
    while not game.is_over:
        if game.current_player == seated["label"]:
            ids += 1
            c.send(type="act", id=f"{version}-{ids}", version=version, token=seated["token"],
                   action=game.legal_actions()[0].to_dict())
        played = c.until("played", version=version + 1)
        game.apply(action_of(played))
        version = played["version"]
        if stop(played):
            break
    return version


def seated_game(port: int) -> tuple[Plain, dict, object]:
    """A plain client seated at a 2-player table with a random bot, the game started."""
    c = Plain(port)
    c.send(type="hello", protocol=2, client="plain")
    c.until("welcome")
    c.send(type="join", name="Ada", label="green")
    seated = c.until("seated")
    c.send(type="start")
    return c, seated, game_of(c.until("started", version=1)["view"])


def kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)


@pytest.mark.slow
def test_killed_right_after_the_last_move_the_save_holds_the_finished_game(tmp_path):
    save = tmp_path / "game.json"
    proc, port = start_host("--players", "2", "--bots", "random", "--seed", "5", "--save", str(save))
    try:
        c, seated, game = seated_game(port)
        play(c, seated, game, 1, lambda played: played["events"][-1]["type"] == "game_ended")
    finally:
        kill(proc)  # the moment the last move reached a client: no goodbye, no last save
    assert game.is_over
    resumed = read_save(save)
    assert resumed.match.is_over and resumed.match.game.moves == game.moves
    out = subprocess.run([sys.executable, "-m", "client.cli", "replay", "--json", str(save)],
                         capture_output=True, text=True, timeout=30)
    assert json.loads(out.stdout)["finished"] is True, out.stderr
    proc, port = start_host("--resume", str(save))
    try:
        c = Plain(port)
        c.send(type="hello", protocol=2, client="plain")
        assert c.until("welcome")["phase"] == "finished"  # not a game the players saw end, going on
    finally:
        kill(proc)


@pytest.mark.slow
def test_killed_at_random_points_nothing_a_client_saw_is_missing(tmp_path):
    rng = random.Random(9)
    for attempt in range(4):
        save = tmp_path / f"game{attempt}.json"
        proc, port = start_host("--players", "2", "--bots", "random", "--seed", str(attempt),
                                "--save", str(save))
        stop_at = rng.randrange(2, 40)
        try:
            c, seated, game = seated_game(port)
            play(c, seated, game, 1, lambda played, stop_at=stop_at: played["version"] >= stop_at)
        finally:
            kill(proc)
        saved = read_save(save).match.game.moves
        assert saved[:len(game.moves)] == game.moves, (attempt, stop_at)
        viewed = Replay(read_record(str(save)), str(save))  # the replay viewer reads the journal too
        assert [action for _, action in viewed.actions][:len(game.moves)] == [a for _, a in game.moves], \
            (attempt, stop_at)


@pytest.mark.slow
def test_killed_in_the_middle_of_a_write_the_half_written_part_is_left_out(tmp_path):
    save = tmp_path / "game.json"
    proc, port = start_host("--players", "2", "--bots", "random", "--seed", "7", "--save", str(save))
    try:
        c, seated, game = seated_game(port)
        play(c, seated, game, 1, lambda played: played["version"] >= 12)
    finally:
        kill(proc)
    seen = list(game.moves)
    resumed = read_save(save)
    match = resumed.match
    # what a host killed while writing leaves: the next action's line cut short in the
    # journal, and a snapshot's temporary file written halfway
    number = 1 + len(match)
    action = match.position(0).legal_actions()[0]
    whole = line(Entry(version=1 + number, seat=sorted(match.to_act())[0], action=action))
    with journal_path(save).open("ab") as journal:
        journal.write(whole[:len(whole) // 2])
    (tmp_path / ".game.json.x1y2z3.tmp").write_text(save.read_text()[:100])
    proc, port = start_host("--resume", str(save))
    try:
        c = Plain(port)
        c.send(type="hello", protocol=2, client="plain")
        c.until("welcome")
        c.send(type="reclaim", token=seated["token"], last_version=0)
        c.until("seated")
        snapshot = c.until("snapshot")
        assert game_of(snapshot["view"]).moves[:len(seen)] == seen
        game = game_of(snapshot["view"])
        play(c, seated, game, snapshot["version"], lambda played: False)
        assert game.is_over
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    assert "cut short" in err and "Traceback" not in err
    final = read_save(save).match
    assert final.is_over and final.game.moves == game.moves and final.game.moves[:len(seen)] == seen


class Spy(TablePeer):
    """A peer that reads the save file back whenever an event is queued to it: what it
    holds at that moment."""

    def __init__(self, table: Table, name: str) -> None:
        super().__init__(name)
        self.table = table
        self.seen: list[tuple[int, int]] = []  # (event version, actions the save held then)

    def received(self, message) -> None:
        if isinstance(message, (protocol.Started, protocol.Played)):
            self.seen.append((message.version, len(read_save(self.table.save_path).match)))


async def test_every_event_is_in_the_save_before_it_is_queued_to_anybody(tmp_path, autojump_clock):
    table = Table(config().settings, ruleset=HEX, save=tmp_path / "g.json", prepared=on_map(MAP2), seed=3)
    ada, bob = Spy(table, "Ada"), Spy(table, "Bob")
    for spy in (ada, bob):
        table.handle(spy, protocol.Join(name=spy.name))
    table.handle(ada, protocol.Start())
    rng = random.Random(4)
    while not table.match.is_over:
        spy = ada if 0 in table.match.to_act() else bob
        action = rng.choice(table.match.position(0).legal_actions())
        table.handle(spy, protocol.Act(id=str(table.version), version=table.version, token=spy.token,
                                       action=action))
    for spy in (ada, bob):
        assert spy.seen == [(v, v - 1) for v in range(1, table.version + 1)]


async def test_a_failed_save_stays_unsaved_is_retried_and_reported_once(tmp_path, autojump_clock,
                                                                          monkeypatch, caplog):
    import server.persistence as persistence

    failing = {"on": True}
    real = persistence.write_json

    def write_json(path, data, **options):
        if failing["on"]:
            raise OSError(24, "Too many open files")
        real(path, data, **options)

    monkeypatch.setattr(persistence, "write_json", write_json)
    # the journal cannot be started either: its temporary file is the full device
    (tmp_path / ".g.json.journal.tmp").symlink_to("/dev/full")
    save = tmp_path / "g.json"
    caplog.set_level(logging.INFO, "waddle.server")
    with trio.fail_after(60):
        async with hosting(config(save=save)) as (host, connect):
            ada, bob = await started_pair(connect)
            for _ in range(4):
                seat = ada if ada.my_turn() else bob
                await seat.until(seat.my_turn)
                reply = await seat.reply(await seat.act(seat.game.legal_actions()[0]))
                assert isinstance(reply, protocol.Ack)  # the game goes on
            saver = host.table.saver
            assert not saver.saved and not save.exists()
            await trio.sleep(10)  # retried every second, still failing
            assert not saver.saved
            errors = [r for r in caplog.records if r.levelno == logging.ERROR]
            assert len(errors) == 1 and "Too many open files" in errors[0].getMessage()
            failing["on"] = False
            await trio.sleep(3)  # the next retries work: the snapshot, then the journal
            assert saver.saved
            assert read_save(save).match.game.moves == host.table.match.game.moves
            assert len(host.table.match) == 4
            assert sum("saving works again" in r.getMessage() for r in caplog.records) == 1
            assert len([r for r in caplog.records if r.levelno == logging.ERROR]) == 1


async def test_resume_folds_the_journal_into_the_save_file_and_keeps_action_ids(tmp_path, autojump_clock):
    save = tmp_path / "g.json"
    with trio.fail_after(60):
        async with hosting(config(save=save)) as (host, connect):
            ada, bob = await started_pair(connect)
            await ada.until(ada.my_turn)
            first = await ada.act(ada.game.legal_actions()[0], id="first")
            assert isinstance(await ada.reply(first), protocol.Ack)
        assert len(json.loads(save.read_text())["actions"]) == 1  # folded in on the way out
        async with hosting(config(resume=save)) as (host, connect):
            back = await connect()
            await back.hello()
            await back.send(protocol.Reclaim(token=ada.token, last_version=0))
            await back.expect(protocol.Snapshot)
            back.label = ada.label
            await back.act(ada.game.legal_actions()[0], id="first", version=2, token=ada.token)
            ack = await back.reply("first")
            assert ack.duplicate and ack.version == 2  # not played twice after the resume


@pytest.mark.slow
def test_out_of_file_descriptors_the_host_backs_off_keeps_the_game_and_saves_once_it_can(tmp_path):
    import resource
    import socket

    save = tmp_path / "game.json"
    log = bytearray()

    def few_descriptors():
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))

    def logged(text: str) -> None:
        """Read the host's log until it says ``text``, or fail after a minute."""
        deadline = time.monotonic() + 60
        while text.encode() not in log:
            left = deadline - time.monotonic()
            assert left > 0, f"the host never logged {text!r}:\n{log.decode()}"
            if select.select([proc.stderr], [], [], left)[0]:
                log.extend(os.read(proc.stderr.fileno(), 65536))

    proc = subprocess.Popen([sys.executable, "-m", "client.cli", "serve", "--port", "0", "--players", "2",
                             "--bots", "random", "--seed", "4", "--pace", "0", "--save", str(save)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=few_descriptors)
    port = int(proc.stdout.readline().split(b":")[1].split()[0])
    idle = []
    try:
        c, seated, game = seated_game(port)
        for i in range(200):  # from 200 addresses: no limit per address stops them, the descriptors do
            sock = socket.socket()
            sock.bind((f"127.3.{i // 100}.{1 + i % 100}", 0))
            sock.setblocking(False)
            try:
                sock.connect(("127.0.0.1", port))
            except BlockingIOError:
                pass
            idle.append(sock)
        logged("cannot accept connections")
        play(c, seated, game, 1, lambda played: False)  # the game goes on to its end meanwhile
        assert game.is_over
        logged("cannot write the save file")  # the last snapshot cannot be written yet
        for sock in idle:
            sock.close()
        logged("saving works again")  # the descriptors are back: retried, and written
        assert len(json.loads(save.read_text())["actions"]) == len(game.moves)  # the save file alone
    finally:
        for sock in idle:
            sock.close()
        proc.send_signal(signal.SIGINT)
        log.extend(proc.communicate(timeout=20)[1])
    err = log.decode()
    assert "Traceback" not in err
    assert 1 <= err.count("cannot accept connections") <= 3  # one line per 10 s, not a flood
    assert err.count("cannot write the save file") == 1  # reported once, though retried every second
    assert "saving works again" in err
    assert read_save(save).match.game.moves == game.moves


async def test_a_resumed_host_listens_where_the_saved_game_s_host_did(tmp_path):
    from server import Host

    save = tmp_path / "g.json"
    with trio.fail_after(30):
        async with hosting(config(save=save, port=0), tcp=True) as (host, connect):
            await started_pair(connect)
            port = host.port
            await host.table.flush()
    saved = json.loads(save.read_text())["host"]
    assert (saved["address"], saved["port"]) == ("127.0.0.1", port)

    resumed = Host(config(resume=save, save=None, prepared=None))
    assert (resumed.address, resumed.wanted_port) == ("127.0.0.1", port)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            assert await nursery.start(resumed.run) == port  # the players' clients try here
            nursery.cancel_scope.cancel()
    assert Host(config(resume=save, port=0, prepared=None)).wanted_port == 0  # given wins

    saved.pop("address"), saved.pop("port")  # a save from before the host kept them
    old = json.loads(save.read_text()) | {"host": saved}
    (tmp_path / "old.json").write_text(json.dumps(old))
    assert Host(config(resume=tmp_path / "old.json", prepared=None, default_port=7777)).wanted_port == 7777


async def test_a_resumed_host_keeps_the_saved_grace_and_pace_unless_given_others(tmp_path):
    from server import Host

    save = tmp_path / "g.json"
    with trio.fail_after(30):
        async with hosting(config(save=save, grace=7.5, lobby_grace=12.0, bot_delay=0.25)) as (host, connect):
            await started_pair(connect)
            await host.table.flush()
    saved = json.loads(save.read_text())["host"]
    assert (saved["grace"], saved["lobby_grace"], saved["pace"]) == (7.5, 12.0, 0.25)

    table = Host(config(resume=save, save=None, prepared=None)).table
    assert (table.grace, table.lobby_grace, table.bot_delay) == (7.5, 12.0, 0.25)
    table = Host(config(resume=save, save=None, prepared=None, grace=3.0, bot_delay=0.0)).table
    assert (table.grace, table.lobby_grace, table.bot_delay) == (3.0, 12.0, 0.0)  # given wins

    for key in ("grace", "lobby_grace", "pace"):  # a save from before the host kept them
        saved.pop(key)
    (tmp_path / "old.json").write_text(json.dumps(json.loads(save.read_text()) | {"host": saved}))
    table = Host(config(resume=tmp_path / "old.json", save=None, prepared=None)).table
    assert (table.grace, table.lobby_grace, table.bot_delay) == (30.0, 30.0, 0.0)  # the table's defaults


async def test_a_new_game_s_save_file_and_its_journal_reach_the_disk_off_the_loop(tmp_path, autojump_clock,
                                                                                 monkeypatch):
    import server.persistence as persistence

    save = tmp_path / "g.json"
    synced: list[tuple[str, bool]] = []  # (the file brought to the disk, in the offloaded work)
    offloading = {"on": False}
    real_fsync = os.fsync

    def fsync(fd):
        synced.append((os.readlink(f"/proc/self/fd/{fd}"), offloading["on"]))
        real_fsync(fd)

    async def offload(function, *args):  # as a worker thread would, inline (virtual time)
        offloading["on"] = True
        try:
            return function(*args)
        finally:
            offloading["on"] = False

    monkeypatch.setattr(persistence.os, "fsync", fsync)
    with trio.fail_after(60):
        async with hosting(config(save=save)) as (host, connect):
            host.table.offload = offload
            ada, bob = await started_pair(connect)
            assert save.exists() and not synced  # the start is written, not yet flushed
            await ada.until(ada.my_turn)
            assert isinstance(await ada.reply(await ada.act(ada.game.legal_actions()[0])), protocol.Ack)
            await trio.sleep(2 * persistence.SYNC_INTERVAL)
            assert {path for path, _ in synced} == {str(save), str(journal_path(save))}
            synced.clear()
        assert read_save(save).match.game.moves == host.table.match.game.moves
    assert synced and all(offloaded for _, offloaded in synced)  # the last save too
    assert not open_files_under(tmp_path)  # every journal closed, the replaced ones too


def open_files_under(folder) -> list[str]:
    """The files under ``folder`` this process has open."""
    paths = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            paths.append(os.readlink(f"/proc/self/fd/{fd}"))
    return [path for path in paths if path.startswith(str(folder))]


async def test_a_seat_keeps_the_ssh_key_it_was_taken_with_through_its_save_and_a_resume(tmp_path, autojump_clock):
    from test_server_kit import Client

    from server import Host

    save, key = tmp_path / "g.json", "SHA256:bob's-key"
    with trio.fail_after(30):
        async with hosting(config(save=save)) as (host, connect):
            ada, bob = await started_pair(connect)
            async with trio.open_nursery() as nursery:  # Bob back through the SSH gateway, with his key
                ours, theirs = trio.testing.memory_stream_pair()
                nursery.start_soon(host.handle, theirs, "#ssh1", "127.0.0.1", key)
                back = Client(ours)
                nursery.start_soon(back.pump)
                await back.hello()
                await back.send(protocol.Reclaim(token=bob.token, last_version=0))
                await back.expect(protocol.Seated)
                assert [s.fingerprint for s in host.table.seats] == [None, key]
                await back.until(lambda: back.game is not None)
                mover = ada if 0 in host.table.match.to_act() else back
                assert isinstance(await mover.reply(await mover.act(mover.game.legal_actions()[0])), protocol.Ack)
                await host.table.flush()  # a snapshot of the game, with its seats
                nursery.cancel_scope.cancel()
    saved = json.loads(save.read_text())["host"]
    assert [s["fingerprint"] for s in saved["seats"]] == [None, key]
    table = Host(config(resume=save, save=None, prepared=None)).table
    assert [s.fingerprint for s in table.seats] == [None, key]
