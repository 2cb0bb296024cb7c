"""Server: full games between scripted clients, spectators, chat, bots, settings and start."""

import random

import trio
from test_server_kit import (
    MAP2,
    MAP3,
    config,
    hex_settings,
    hosting,
    on_map,
    started_pair,
    view_map,
)

import protocol
from waddle.hex.options import BundledMap, FileMap, StandardMap
from waddle.hex.record import from_record
from waddle.hex.ruleset import RULESET as HEX


async def test_full_game_between_two_scripted_clients_and_a_spectator(autojump_clock):
    async with hosting() as (host, connect):
        ada, bob, eve = await connect(), await connect(), await connect()
        with trio.fail_after(60):
            assert (await ada.join("Ada", "blue")).label == "blue"
            assert (await bob.join("Bob", "blue")).label == "red"
            await eve.hello()
            await eve.send(protocol.Watch(name="Eve"))
            await eve.expect(protocol.Watching)
            await ada.send(protocol.Ready())
            await bob.send(protocol.Ready())
            for c in (ada, bob, eve):
                await c.expect(protocol.Started, version=1)
            async with trio.open_nursery() as n:
                n.start_soon(ada.play_randomly, random.Random(1))
                n.start_soon(bob.play_randomly, random.Random(2))
            for c in (ada, bob, eve):
                await c.until(lambda c=c: c.version == host.table.version and c.lobby.phase == "finished")
    final = host.table.match.record()
    assert host.table.phase == "finished" and from_record(final).is_over
    for c in (ada, bob, eve):
        assert c.game.is_over and c.game.moves == from_record(final).moves
        assert [m.version for m in c.of((protocol.Started, protocol.Played))] == list(
            range(1, host.table.version + 1))
    assert host.table.version == 1 + len(final["actions"])
    # seat_order "seated" (the kit's default): the opening order is the order of joining
    assert final["players"] == ["blue", "red"]


async def test_the_mover_has_its_event_and_ack_before_the_table_announces_the_game_over(autojump_clock):
    async with hosting() as (host, connect):
        ada, bob = await started_pair(connect)
        with trio.fail_after(60):
            async with trio.open_nursery() as n:
                n.start_soon(ada.play_randomly, random.Random(1))
                n.start_soon(bob.play_randomly, random.Random(2))
            for c in (ada, bob):
                await c.until(lambda c=c: c.lobby.phase == "finished")
    last = host.table.version
    mover = next(c for c in (ada, bob) if c.of(protocol.Ack) and c.of(protocol.Ack)[-1].version == last)
    other = bob if mover is ada else ada
    tail = mover.received[[getattr(m, "version", None) for m in mover.received].index(last):]
    assert [type(m) for m in tail[:3]] == [protocol.Played, protocol.Ack, protocol.Lobby]
    assert tail[2].phase == "finished"
    tail = other.received[[getattr(m, "version", None) for m in other.received].index(last):]
    assert [type(m) for m in tail[:2]] == [protocol.Played, protocol.Lobby] and tail[1].phase == "finished"


def test_an_event_s_frames_are_encoded_once_per_distinct_payload_and_a_known_frame_is_reused():
    from server.log import entry_for, frame_of

    made = []

    def message(seen):
        made.append(seen)
        return protocol.Ack(id=seen, version=1)

    public = "all"
    assert entry_for([public] * 3, message) == protocol.encode(protocol.Ack(id="all", version=1))
    assert made == ["all"]
    known = protocol.encode(protocol.Ack(id="all", version=1))
    assert entry_for([public] * 3, message, (public, known)) is known and made == ["all"]
    spectator, mine, theirs = "s", "m", "t"
    entry = entry_for([spectator, mine, theirs], message, (mine, b"sent"))
    assert [frame_of(entry, audience) for audience in (None, 0, 1)] == [
        protocol.encode(protocol.Ack(id=x, version=1)) if x != "m" else b"sent" for x in "smt"]
    assert made == ["all", "s", "t"]


async def test_full_game_over_tcp_on_loopback_with_a_bot_seat():
    cfg = config(prepared=on_map(MAP3), settings=hex_settings(3, bots=["random"]))
    async with hosting(cfg, tcp=True) as (host, connect):
        with trio.fail_after(30):
            ada, bob = await connect(), await connect()
            await ada.join("Ada")
            await bob.join("Bob")
            await ada.send(protocol.Start())
            async with trio.open_nursery() as n:
                n.start_soon(ada.play_randomly, random.Random(3))
                n.start_soon(bob.play_randomly, random.Random(4))
            await ada.until(lambda: ada.version == host.table.version)
    played = ada.of(protocol.Played)
    assert host.table.seats[2].bot == "random"
    assert ada.lobby.seats[2].bot == "random" and not ada.lobby.seats[2].standin  # a bot seat
    assert {p.bot for p in played if p.seat == 2} == {"random"}
    assert {p.bot for p in played if p.seat != 2} == {None}
    assert ada.game.is_over and ada.game.moves == bob.game.moves == host.table.match.game.moves


async def test_owner_configures_and_the_lobby_shows_it(autojump_clock):
    async with hosting() as (host, connect):
        ada, bob = await connect(), await connect()
        with trio.fail_after(10):
            await ada.join("Ada")
            await bob.join("Bob")
            settings = hex_settings(3, mirror_match=True, turn_timer=20.0, bots=["random"])
            await ada.send(protocol.Configure(settings=settings))
            lobby = await bob.expect(protocol.Lobby, settings=settings)
            assert lobby.owner == 0 and lobby.seats[0].label == "red"
            assert [s.name for s in lobby.seats] == ["Ada", "Bob"]
            await bob.send(protocol.Configure(settings=hex_settings(5)))
            assert (await bob.expect(protocol.Rejected)).code == "not_owner"
            await ada.send(protocol.Start())
            started = await bob.expect(protocol.Started)
    assert started.view.mirror_match is True
    assert len(started.view.players) == 3
    assert host.table.seats[2].bot == "random" and host.table.seats[2].name == "Pingu (random bot)"


async def test_ready_starts_only_a_full_table(autojump_clock):
    async with hosting(config(settings=hex_settings(2, bots=["random"]))) as (host, connect):
        ada = await connect()
        with trio.fail_after(10):
            await ada.join("Ada")
            await ada.send(protocol.Ready())
            await ada.until(lambda: ada.lobby.seats[0].ready)
            assert host.table.phase == "lobby"
            bob = await connect()
            await bob.join("Bob")
            await bob.send(protocol.Ready())
            await ada.expect(protocol.Started)


async def test_chat_reaches_everybody_cleaned(autojump_clock):
    async with hosting() as (host, connect):
        ada, eve = await connect(), await connect()
        with trio.fail_after(10):
            await ada.join("\x1b[31mAda\u202e\u200b")
            await eve.hello()
            await eve.send(protocol.Watch(name="Eve\x1b]0;x\x07"))
            await ada.send(protocol.Say(text="hi \x1b[2Jall\u2066!"))
            chat = await eve.expect(protocol.Chat)
            await eve.send(protocol.Say(text="hello"))
            back = await ada.expect(protocol.Chat, text="hello")
    assert (chat.name, chat.label, chat.text) == ("Ada", "red", "hi all!")
    assert (back.name, back.label) == ("Eve", None)
    assert host.table.seats[0].name == "Ada"


async def test_a_name_already_at_the_table_gets_a_number(autojump_clock):
    settings = hex_settings(4, bots=["random"])
    async with hosting(config(settings=settings)) as (host, connect):
        ada, own, eve = await connect(), await connect(), await connect()
        with trio.fail_after(10):
            await ada.join("own")
            assert (await own.join("OWN\u200b")).name == "OWN (2)"
            await eve.hello()
            await eve.send(protocol.Watch(name="own"))
            await own.send(protocol.Say(text="I am red"))
            chat = await ada.expect(protocol.Chat)
            await eve.send(protocol.Say(text="me too"))
            back = await ada.expect(protocol.Chat, text="me too")
            await ada.send(protocol.Start())
            await ada.expect(protocol.Started)
    assert (chat.name, chat.label) == ("OWN (2)", "blue") and (back.name, back.label) == ("own (3)", None)
    assert [s.name for s in host.table.seats if s.bot] == ["Pingu (random bot)", "Tux (random bot)"]


async def test_names_with_escape_sequences_and_rtl_overrides_are_cleaned_everywhere(autojump_clock):
    async with hosting() as (host, connect):
        ada, bob = await connect(), await connect()
        with trio.fail_after(10):
            seated = await ada.join("\u202eevil\x1b[8m\x07" + "x" * 40)
            await bob.join("\x1b[2J\u200b\u2067")
            await ada.until(lambda: ada.lobby is not None and len(ada.lobby.seats) == 2)
    names = [s.name for s in ada.lobby.seats]
    assert seated.name == names[0] == ("evil" + "x" * 40)[:24]
    assert names[1] == "Player 2"
    assert all(c.isprintable() for n in names for c in n)


async def test_leaving_the_lobby_frees_the_seat_and_passes_ownership(autojump_clock):
    async with hosting() as (host, connect):
        ada, bob, cy = await connect(), await connect(), await connect()
        with trio.fail_after(10):
            await ada.join("Ada")
            await bob.join("Bob")
            await ada.send(protocol.Leave())
            closing = await ada.expect(protocol.Closing)
            await bob.until(lambda: [s.name for s in bob.lobby.seats] == ["Bob"])
            assert bob.lobby.owner == 0  # Bob's seat, now the first
            assert (await cy.join("Cy")).label == "red"
    assert closing.code == "bye"


async def test_host_api_file_map_and_bad_settings(tmp_path, autojump_clock):
    import json
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(MAP2.to_dict()))
    async with hosting(config(prepared=None)) as (host, connect):
        ada = await connect()
        with trio.fail_after(10):
            await ada.join("Ada")
            await ada.send(protocol.Configure(settings=hex_settings(map=FileMap(path=str(path)))))
            assert (await ada.expect(protocol.Rejected)).code == "bad_settings"
            await ada.send(protocol.Configure(settings=hex_settings(bots=["nobody"])))
            assert "unknown bot" in (await ada.expect(protocol.Rejected)).message
            host.table.configure(hex_settings(2, bots=["random"], map=FileMap(path=str(path))))
            host.table.start()
            started = await ada.expect(protocol.Started)
    assert view_map(started.view) == MAP2


async def test_ownership_passes_to_a_connected_player_when_the_owner_drops(autojump_clock):
    async with hosting(config(settings=hex_settings(3, bots=["random"]))) as (host, connect):
        ada, bob = await connect(), await connect()
        with trio.fail_after(10):
            await ada.join("Ada")
            await bob.join("Bob")
            await ada.stream.aclose()
            await bob.until(lambda: bob.lobby.owner == 1)
            await bob.send(protocol.Start())
            started = await bob.expect(protocol.Started)
    assert started.view.players == ("red", "blue", "yellow")
    assert host.table.seats[0].name == "Ada"  # the seat stays, held for a reclaim


def test_the_owner_is_who_sat_first_whatever_the_opening_turn_order():
    from server.seats import Seats

    seats = Seats(HEX.seats)
    ada, bob, cy = seats.add("Ada"), seats.add("Bob"), seats.add("Cy")
    seats.reorder([cy.label, bob.label, ada.label])  # the shuffled opening order
    assert list(seats) == [cy, bob, ada] and seats.owner is ada
    seats.remove(ada)
    assert seats.owner is bob


async def test_bundled_map_by_name(autojump_clock):
    from waddle import bundled_map, bundled_maps
    name = bundled_maps()[0]
    async with hosting(config(prepared=None)) as (host, connect):
        ada, bob = await connect(), await connect()
        with trio.fail_after(10):
            await ada.join("Ada")
            await bob.join("Bob")
            await ada.send(protocol.Configure(settings=hex_settings(2, map=BundledMap(name=name))))
            await bob.expect(protocol.Lobby, settings=hex_settings(2, map=BundledMap(name=name)))
            await ada.send(protocol.Start())
            started = await bob.expect(protocol.Started)
    assert view_map(started.view) == bundled_map(name)


async def _opening_order(seed: int | None, seat_order: str = "random",
                         map_seed: int | None = 5) -> tuple[list[str], list[str]]:
    """Ada (blue) seated, three random bots; the started record's players and the lobby's seats."""
    settings = hex_settings(4, bots=["random"], seat_order=seat_order, map=StandardMap(seed=map_seed))
    async with hosting(config(prepared=None, seed=seed, settings=settings)) as (host, connect):
        ada = await connect()
        with trio.fail_after(10):
            await ada.join("Ada", "blue")
            await ada.send(protocol.Start())
            started = await ada.expect(protocol.Started)
            lobby = await ada.expect(protocol.Lobby, phase="playing")
    return list(started.view.players), [s.label for s in lobby.seats]


async def test_the_opening_order_is_random_seeded_by_the_table_seed(autojump_clock):
    # RULES.md Setup: "Seating order is random (seeded) unless given."
    seated = ["blue", "red", "yellow", "green"]  # Ada first, then the bots in colour order
    orders = {}
    for seed in range(8):
        players, seats = await _opening_order(seed)
        assert seats == players and sorted(players) == sorted(seated)
        assert (await _opening_order(seed))[0] == players  # same seed, same order
        orders[seed] = players
    assert any(order != seated for order in orders.values())
    assert len({tuple(order) for order in orders.values()}) > 1
    # without a table seed the standard map's seed decides, so the record's seed reproduces it
    assert (await _opening_order(None, map_seed=11))[0] == (await _opening_order(None, map_seed=11))[0]


async def test_seat_order_seated_keeps_the_order_of_joining(autojump_clock):
    for seed in range(4):
        players, seats = await _opening_order(seed, "seated")
        assert players == seats == ["blue", "red", "yellow", "green"]


async def test_a_table_that_cannot_start_when_all_are_ready_tells_the_last_one_ready(tmp_path, autojump_clock):
    import json
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(MAP2.to_dict()))
    async with hosting(config(prepared=None)) as (host, connect):
        ada, bob = await connect(), await connect()
        with trio.fail_after(10):
            await ada.join("Ada")
            await bob.join("Bob")
            host.table.configure(hex_settings(2, map=FileMap(path=str(path))))
            path.unlink()  # the host's map file is gone before the table starts
            await ada.send(protocol.Ready(ready=True))
            await bob.send(protocol.Ready(ready=True))
            refused = await bob.expect(protocol.Rejected)
            await bob.send(protocol.Say(text="still here"))  # the connection stays
            assert (await ada.expect(protocol.Chat)).text == "still here"
    assert refused.request == "ready" and refused.code == "cannot_start" and "tiny.json" in refused.message
    assert host.table.phase == "lobby"
