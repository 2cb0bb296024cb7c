"""Remembered seat tokens (``client.seats``): the private file, its lookups, and a player
who closed the program reclaiming the seat from a real host on 127.0.0.1."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
import time

import pytest
import trio

import client.seats
from client import ClientError, connect
from client.seats import MAX_AGE, MAX_BYTES, SeatStore, default_path
from protocol import Settings
from server import Host, ServerConfig
from waddle import Map, Water
from waddle.hex.hexgrid import neighbours
from waddle.ruleset import Prepared

W1, W2 = (0, 0), (3, 0)
TWO_ISLES = Map([h for w in (W1, W2) for h in neighbours(w)], {W1: Water(1, (3,)), W2: Water(2, ())})
HERE = "127.0.0.1:7777"


@pytest.fixture
def store(tmp_path) -> SeatStore:
    return SeatStore(tmp_path / "state" / "waddle" / "seats.json")


def test_the_default_file_is_under_xdg_state_home_else_local_state(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_path() == tmp_path / "waddle" / "seats.json"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / ".local" / "state" / "waddle" / "seats.json"


def test_a_token_is_found_only_for_its_address_table_and_name(store):
    assert store.lookup(HERE, "t1", "Ada") is None
    assert store.remember(HERE, "t1", "Ada", "red", "tok-a")
    assert store.remember(HERE, "t1", "Bob", "blue", "tok-b")
    assert store.lookup(HERE, "t1", "Ada") == "tok-a"
    assert store.lookup(HERE, "t1", "Bob") == "tok-b"
    assert store.lookup(HERE, "t2", "Ada") is None            # another game at the same address
    assert store.lookup("127.0.0.1:7778", "t1", "Ada") is None
    assert store.remember(HERE, "t1", "Ada", "red", "tok-a2")  # a newer seat replaces the old
    assert store.lookup(HERE, "t1", "Ada") == "tok-a2"
    assert store.forget("tok-a2")
    assert store.lookup(HERE, "t1", "Ada") is None and store.lookup(HERE, "t1", "Bob") == "tok-b"


def test_the_file_is_private_and_replaced_atomically(store, monkeypatch):
    assert store.remember(HERE, "t1", "Ada", "red", "tok-a")
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
    before = store.path.read_bytes()

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(client.seats.os, "replace", broken_replace)
    assert store.remember(HERE, "t1", "Bob", "blue", "tok-b") is False
    assert store.path.read_bytes() == before                    # the old file, whole
    assert sorted(p.name for p in store.path.parent.iterdir()) == ["seats.json", "seats.lock"]
    monkeypatch.undo()
    assert store.remember(HERE, "t1", "Bob", "blue", "tok-b")
    assert {e["token"] for e in json.loads(store.path.read_text())["seats"]} == {"tok-a", "tok-b"}


def test_a_malformed_or_unwritable_file_loses_nothing_but_the_memory(store):
    store.path.parent.mkdir(parents=True)
    store.path.write_text("{not json")
    assert store.lookup(HERE, "t1", "Ada") is None
    assert store.remember(HERE, "t1", "Ada", "red", "tok-a")
    assert store.lookup(HERE, "t1", "Ada") == "tok-a"
    blocked = SeatStore(store.path / "not-a-folder" / "seats.json")  # its parent is a file
    assert blocked.remember(HERE, "t1", "Ada", "red", "tok-a") is False
    assert blocked.lookup(HERE, "t1", "Ada") is None


def test_a_file_nested_too_deeply_or_too_large_counts_as_empty(store):
    assert store.remember(HERE, "t1", "Ada", "red", "tok-a")
    whole = store.path.read_text()
    store.path.write_text(whole + " " * MAX_BYTES)  # still JSON, but over the cap: not read
    assert store.lookup(HERE, "t1", "Ada") is None
    store.path.write_text("[" * 100_000 + "]" * 100_000)
    assert store.lookup(HERE, "t1", "Ada") is None
    assert store.remember(HERE, "t1", "Ada", "red", "tok-a")
    assert store.lookup(HERE, "t1", "Ada") == "tok-a"


def test_old_entries_and_seats_held_by_a_running_process_are_not_offered(store):
    assert store.remember(HERE, "t1", "Ada", "red", "tok-a")
    data = json.loads(store.path.read_text())
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        data["seats"][0]["pid"] = other.pid                    # another terminal plays it
        store.path.write_text(json.dumps(data))
        assert store.lookup(HERE, "t1", "Ada") is None
    finally:
        other.kill()
        other.wait()
    assert store.lookup(HERE, "t1", "Ada") == "tok-a"          # that terminal closed
    data["seats"][0]["time"] = time.time() - MAX_AGE - 1
    store.path.write_text(json.dumps(data))
    assert store.lookup(HERE, "t1", "Ada") is None


async def test_a_player_who_closed_the_program_reclaims_the_seat(store, patient_clock):
    host = Host(ServerConfig(port=0, settings=Settings(players=2, bots=["random"]), prepared=Prepared(None, TWO_ISLES),
                             seed=1))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            async with connect("127.0.0.1", port, name="Ada", seat_store=store) as first:
                await first.start()
                await first.wait_for(lambda s: s.my_turn)
                await first.act(first.state.legal_actions()[0])
                label, version, moves = first.state.label, first.state.version, first.state.view.game.moves
            # the program ends; a new one starts with no token, only the remembered seat
            async with connect("127.0.0.1", port, name="Ada", seat_store=store) as again:
                assert again.state.label == label and again.state.version >= version
                assert again.state.view.game.moves[:len(moves)] == moves
                assert [s.bot for s in again.state.seats if s.label == label] == [None]
            # another name at the same table is not given Ada's seat: the game has started
            with pytest.raises(ClientError, match="started"):
                async with connect("127.0.0.1", port, name="Eve", seat_store=store):
                    pass
            nursery.cancel_scope.cancel()
    assert len(host.table.seats) == 2
    assert not any(seat.token in store.path.read_text() for seat in host.table.seats if seat.bot)


async def test_a_refused_or_foreign_token_falls_back_to_a_fresh_join(store, patient_clock):
    host = Host(ServerConfig(port=0, settings=Settings(players=3), prepared=Prepared(None, TWO_ISLES), seed=1))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            here = f"127.0.0.1:{port}"
            store.remember(here, host.table.id, "Ada", "red", "a-token-the-host-never-gave")
            async with connect("127.0.0.1", port, name="Ada", seat_store=store) as ada:
                assert ada.state.label == "red" and len(host.table.seats) == 1
                assert store.lookup(here, host.table.id, "Ada") == ada.token
                # a real token of this table, remembered for another game at this address
                store.remember(here, "another-game", "Bob", "red", ada.token)
                async with connect("127.0.0.1", port, name="Bob", seat_store=store) as bob:
                    assert bob.state.label == "blue" and ada.state.status.value == "connected"
            nursery.cancel_scope.cancel()
    assert "a-token-the-host-never-gave" not in store.path.read_text()


async def test_the_table_id_survives_a_resume(tmp_path, autojump_clock):
    from test_server_kit import config, hosting, started_pair

    save = tmp_path / "game.json"
    async with hosting(config(save=save)) as (host, connect):
        with trio.fail_after(10):
            await started_pair(connect)
            await host.table.flush()
            assert (await (await connect()).hello()).table == host.table.id
    assert Host(config(resume=save)).table.id == host.table.id
    assert Host(config()).table.id != host.table.id


def test_waddle_join_remembers_its_seat_and_waddle_watch_has_none(monkeypatch):
    from client.cli import main
    from client.ui import options

    sessions = []
    monkeypatch.setattr(options, "run_ui", lambda session, args: sessions.append(session) or 0)
    assert main(["join", "127.0.0.1:7777", "--name", "Ada"]) == 0
    assert main(["watch", "127.0.0.1:7777"]) == 0
    join, watch = (session._options for session in sessions)
    assert isinstance(join["seat_store"], SeatStore) and join["seat_store"].path == default_path()
    assert "seat_store" not in watch and watch["watch"] is True
