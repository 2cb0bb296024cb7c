"""The club: many tables of both games on one host (server/club.py, client/club.py)."""

from __future__ import annotations

from pathlib import Path

import trio

from client.botplay import play
from client.club import create_table, list_tables
from client.core import ClientError, TableGone, connect
from protocol import Settings
from server import Host, ServerConfig
from waddle.ruleset import get_ruleset


async def test_two_clients_create_and_fill_tables_of_both_games_and_play_them_to_the_end_at_once():
    host = Host(ServerConfig(club=True, port=0, seed=1, bot_delay=0))
    outcomes = {}
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            hexed = await create_table("127.0.0.1", port, "hex", Settings(players=2))
            town = await create_table("127.0.0.1", port, "downtown", Settings(players=2))
            listed = await list_tables("127.0.0.1", port)
            assert [(t.table, t.game, t.phase, t.seats) for t in listed.tables] == [
                (hexed.table, "hex", "lobby", []), (town.table, "downtown", "lobby", [])]

            async def seat(name: str, table: str, game: str) -> None:
                async with connect("127.0.0.1", port, name=name, table=table) as client:
                    await play(client, get_ruleset(game).make_bot("random", 1))
                    outcomes[name, game] = client.state.outcome().scores

            async with trio.open_nursery() as players:
                for table, game in ((hexed.table, "hex"), (town.table, "downtown")):
                    for name in ("Ada", "Bob"):
                        players.start_soon(seat, name, table, game)
            listed = await list_tables("127.0.0.1", port)
            nursery.cancel_scope.cancel()
    assert [t.phase for t in listed.tables] == ["finished", "finished"]
    assert sorted(s.name for s in listed.tables[0].seats) == ["Ada", "Bob"]
    for game in ("hex", "downtown"):
        table = host.club.tables[hexed.table if game == "hex" else town.table]
        assert table.match.is_over
        assert outcomes["Ada", game] == outcomes["Bob", game] == table.match.outcome().scores


async def test_club_requests_get_typed_rejections():
    host = Host(ServerConfig(club=True, port=0, seed=1))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            await create_table("127.0.0.1", port, "hex", name="Friday")
            for request, code in (
                    (create_table("127.0.0.1", port, "hex", name="FRIDAY"), "name_taken"),
                    (create_table("127.0.0.1", port, "chess"), "bad_settings"),
                    (create_table("127.0.0.1", port, "hex", Settings(players=5)) , None)):
                try:
                    await request
                except ClientError as exc:
                    assert f"({code})" in str(exc)
                else:
                    assert code is None
            try:
                async with connect("127.0.0.1", port, name="Ada", table="nope", first_wait=0):
                    raise AssertionError("joined an unknown table")
            except TableGone as exc:
                assert "unknown_table" in str(exc) and "'nope'" in str(exc) and not exc.seated
            nursery.cancel_scope.cancel()


async def test_the_club_s_lobby_shows_each_player_s_rating_from_the_host_s_history(tmp_path):
    from client.botplay import start_when_full
    from waddle.history import connect as open_history
    from waddle.history import ratings

    path = tmp_path / "history.sqlite"
    host = Host(ServerConfig(club=True, port=0, seed=1, bot_delay=0, history=path))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            first = await create_table("127.0.0.1", port, "hex", Settings(players=2, bots=["random"]))
            second = await create_table("127.0.0.1", port, "hex", Settings(players=2, bots=["greedy"]))
            async with connect("127.0.0.1", port, name="Ada", table=first.table) as client:
                await start_when_full(client)
                await play(client, get_ruleset("hex").make_bot("random", 1), ready=False)
            assert await trio.to_thread.run_sync(host.history.idle, 30)
            async with connect("127.0.0.1", port, name="Ada", table=second.table) as client:
                listed = await list_tables("127.0.0.1", port)
            nursery.cancel_scope.cancel()
    db = open_history(path)
    try:
        rated = ratings(db, ["Ada"], "hex", bots=["random"])
    finally:
        db.close()
    done, waiting = listed.tables
    assert [(s.name, s.rating) for s in done.seats if s.bot is None] == [("Ada", rated["Ada"].ordinal)]
    assert [s.rating for s in done.seats if s.bot == "random"] == [rated["random (bot)"].ordinal]
    assert [(s.name, s.rating) for s in waiting.seats] == [("Ada", rated["Ada"].ordinal)]


async def test_a_resumed_club_writes_the_finished_games_its_history_does_not_hold_yet(tmp_path):
    from waddle.history import connect as open_history
    from waddle.history import recent

    folder, path = tmp_path / "club", tmp_path / "history.sqlite"
    host = Host(ServerConfig(club=True, port=0, seed=1, bot_delay=0, save=folder))  # its history lost
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            made, scores = await downtown_played(port)
            nursery.cancel_scope.cancel()
        for _ in range(2):  # resumed twice: written once
            again = Host(ServerConfig(club=True, port=0, resume=folder, history=path))
            assert again.club.tables == {} and [t.id for t in again.club.finished] == [made.table]
            async with trio.open_nursery() as nursery:
                await nursery.start(again.run)
                assert await trio.to_thread.run_sync(again.history.idle, 30)
                nursery.cancel_scope.cancel()
    db = open_history(path)
    try:
        games = recent(db)
    finally:
        db.close()
    assert [(g.game, "Ada" in g.names, g.scores) for g in games] == [("downtown", True, tuple(scores))]


async def test_a_running_club_writes_its_index_off_the_loop_and_the_last_names_are_on_the_disk(tmp_path, monkeypatch):
    import json
    import threading

    from server import club as club_module
    from server.club import Club

    loop_thread, writers, written = threading.current_thread(), [], trio.Event()
    real = club_module.write_json

    def write_json(path, data):
        writers.append(threading.current_thread())
        real(path, data)
        if threading.current_thread() is not loop_thread:
            trio.from_thread.run_sync(written.set)

    monkeypatch.setattr(club_module, "write_json", write_json)
    club = Club(directory=tmp_path)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            await nursery.start(club.run)
            made = [club.create("hex", name=f"Pond {n}") for n in range(5)]
            club.remove(made[0])
            await written.wait()
            club.create("downtown", name="Corner")
            nursery.cancel_scope.cancel()
    names = json.loads((tmp_path / "club.json").read_text())["names"]
    assert sorted(names.values()) == ["Corner", "Pond 1", "Pond 2", "Pond 3", "Pond 4"]
    assert writers[0] is not loop_thread and len(writers) <= 3  # seven changes: two or three writes


async def test_the_club_s_listing_shows_a_table_s_change_at_once_and_a_rating_moved_elsewhere_within_seconds(mock_clock):
    from server.club import RATINGS_FRESH

    known = {"Ada": 1.0}

    def ratings(names, game, bots):
        return {name: known[name] for name in names if name in known}

    def seats(listed):
        (table,) = listed.tables
        return [(seat.name, seat.rating) for seat in table.seats]

    host = Host(ServerConfig(club=True, port=0, ratings=ratings))
    with trio.fail_after(60):  # the mock clock moves only when the test jumps it
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            made = await create_table("127.0.0.1", port, "hex", Settings(players=3))
            async with connect("127.0.0.1", port, name="Ada", table=made.table):
                first = await list_tables("127.0.0.1", port)
                known.update(Ada=2.0, Bo=3.0)
                async with connect("127.0.0.1", port, name="Bo", table=made.table):
                    joined = await list_tables("127.0.0.1", port)  # the table changed: made again
                    known["Ada"] = 4.0  # a game Ada finished at another table
                    kept = await list_tables("127.0.0.1", port)
                    mock_clock.jump(RATINGS_FRESH)
                    fresh = await list_tables("127.0.0.1", port)
            nursery.cancel_scope.cancel()
    assert seats(first) == [("Ada", 1.0)]
    assert seats(joined) == [("Ada", 2.0), ("Bo", 3.0)]
    assert seats(kept) == [("Ada", 2.0), ("Bo", 3.0)]
    assert seats(fresh) == [("Ada", 4.0), ("Bo", 3.0)]


async def test_a_table_opened_without_settings_takes_the_club_s_own_even_a_map_file_a_client_may_not_name():
    from waddle.hex.options import FileMap, HexOptions

    pond = str(Path(__file__).parent / "data" / "pond.toml")
    host = Host(ServerConfig(club=True, port=0, seed=1,
                             settings=Settings(players=2, options=HexOptions(map=FileMap(path=pond)))))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            opened = await create_table("127.0.0.1", port, "hex")  # the club's lobby's "n 1"
            table = host.club.tables[opened.table]
            assert table.settings.players == 2 and table.settings.options.map == FileMap(path=pond)
            try:
                await create_table("127.0.0.1", port, "hex", Settings(players=2, options=HexOptions(map=FileMap(path=pond))))
            except ClientError as exc:
                assert "(bad_settings)" in str(exc) and "map file" in str(exc)
            else:
                raise AssertionError("a client named a file on the host")
            nursery.cancel_scope.cancel()


async def test_the_club_s_listing_follows_every_change_at_a_table_it_keeps_the_entry_of():
    from client.botplay import start_when_full

    host = Host(ServerConfig(club=True, port=0, seed=1, bot_delay=0))
    listed = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            made = await create_table("127.0.0.1", port, "hex", Settings(players=2))

            async def look() -> None:
                for _ in range(2):  # the second from the entry kept
                    (table,) = (await list_tables("127.0.0.1", port)).tables
                    listed.append((table.phase, [(s.name, s.connected) for s in table.seats], table.spectators))

            async with connect("127.0.0.1", port, name="Ada", table=made.table) as ada:
                await look()
                async with connect("127.0.0.1", port, name="Sam", table=made.table, watch=True):
                    await look()
                    async with connect("127.0.0.1", port, name="Bo", table=made.table):
                        await look()
                        await start_when_full(ada)
                        await look()
                    await look()  # Bo left the game: his seat is held, nobody at it
                await look()
            nursery.cancel_scope.cancel()
    assert listed[::2] == listed[1::2]
    assert listed[::2] == [
        ("lobby", [("Ada", True)], 0),
        ("lobby", [("Ada", True)], 1),
        ("lobby", [("Ada", True), ("Bo", True)], 1),
        ("playing", [("Ada", True), ("Bo", True)], 1),
        ("playing", [("Ada", True), ("Bo", False)], 1),
        ("playing", [("Ada", True), ("Bo", False)], 0),
    ]


async def test_a_closed_table_of_a_club_with_a_history_is_freed_at_once_not_kept_by_a_cycle(tmp_path):
    import gc
    import weakref


    host = Host(ServerConfig(club=True, port=0, seed=1, bot_delay=0, history=tmp_path / "history.sqlite"))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            made, _ = await downtown_played(port)
            table = weakref.ref(host.club.tables[made.table])
            gc.disable()  # freed by reference counting alone (a host's collector never walks it again)
            try:
                host.club.remove(table())
                with trio.move_on_after(10):
                    while table() is not None:  # its driver saves it and ends
                        await trio.testing.wait_all_tasks_blocked(cushion=0.01)
            finally:
                gc.enable()
            nursery.cancel_scope.cancel()
    assert table() is None


async def test_the_club_s_listing_makes_its_ratings_again_a_share_at_a_time_not_all_at_once(mock_clock):
    from contextlib import AsyncExitStack

    from server.club import RATINGS_FRESH

    asked: list[str] = []
    known = {"p0": 1.0, "p1": 1.0, "p2": 1.0, "p3": 1.0}

    def ratings(names, game, bots):
        asked.extend(names)
        return {name: known[name] for name in names}

    host = Host(ServerConfig(club=True, port=0, ratings=ratings))
    made_again = []
    with trio.fail_after(60):  # the mock clock moves only when the test jumps it
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            async with AsyncExitStack() as seated:
                for n in range(4):
                    made = await create_table("127.0.0.1", port, "hex", Settings(players=2))
                    await seated.enter_async_context(connect("127.0.0.1", port, name=f"p{n}", table=made.table))
                await list_tables("127.0.0.1", port)
                known.update({name: 2.0 for name in known})  # games finished elsewhere
                for _ in range(3):
                    asked.clear()
                    mock_clock.jump(RATINGS_FRESH / 2)
                    listed = await list_tables("127.0.0.1", port)
                    made_again.append(sorted(asked))
            nursery.cancel_scope.cancel()
    assert [len(names) for names in made_again] == [2, 2, 2]  # half of them each half-time
    assert sorted(made_again[0] + made_again[1]) == ["p0", "p1", "p2", "p3"]  # oldest first: every one
    assert made_again[2] == made_again[0]
    assert [seat.rating for table in listed.tables for seat in table.seats] == [2.0] * 4


async def downtown_played(port: int):
    """A Downtown table opened at the club on ``port`` and played to its end by Ada against
    a random bot: its ``table_created`` and the scores."""
    from client.botplay import start_when_full

    made = await create_table("127.0.0.1", port, "downtown", Settings(players=2, bots=["random"]))
    async with connect("127.0.0.1", port, name="Ada", table=made.table) as client:
        await start_when_full(client)
        await play(client, get_ruleset("downtown").make_bot("random", 1), ready=False)
        return made, client.state.outcome().scores
