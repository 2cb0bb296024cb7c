"""Server: seats whose connection drops in the lobby, and the stand-in's bot kind."""

import pytest
import trio
from test_server_kit import MAP3, config, hex_settings, hosting, on_map, seated_pair, started_pair

import protocol


async def test_a_seat_dropped_in_the_lobby_is_freed_after_the_lobby_grace(autojump_clock):
    async with hosting(config(lobby_grace=30.0)) as (host, connect):
        with trio.fail_after(600):
            ada, bob = await seated_pair(connect)
            await bob.stream.aclose()
            await ada.until(lambda: len(ada.lobby.seats) == 2 and not ada.lobby.seats[1].connected)
            dropped = trio.current_time()
            carl = await connect()
            await carl.hello()
            await carl.send(protocol.Join(name="Carl"))
            assert (await carl.expect(protocol.Rejected)).code == "table_full"  # held for a reclaim
            await ada.until(lambda: len(ada.lobby.seats) == 1)
            freed_after = trio.current_time() - dropped
            late = await connect()
            await late.hello()
            await late.send(protocol.Reclaim(token=bob.token))
            assert (await late.expect(protocol.Rejected)).code == "bad_token"
            dan = await connect()
            seated = await dan.join("Dan")
    assert freed_after == pytest.approx(30.0, abs=0.01)
    assert seated.label == "blue" and [s.name for s in host.table.seats] == ["Ada", "Dan"]


async def test_a_seat_dropped_in_the_lobby_can_be_reclaimed_within_the_lobby_grace(autojump_clock):
    async with hosting(config(lobby_grace=30.0)) as (host, connect):
        with trio.fail_after(600):
            ada, bob = await seated_pair(connect)
            await bob.stream.aclose()
            await ada.until(lambda: not ada.lobby.seats[1].connected)
            await trio.sleep(20)
            back = await connect()
            await back.hello()
            await back.send(protocol.Reclaim(token=bob.token))
            await back.expect(protocol.Seated, label="blue")
            await trio.sleep(60)
            await ada.until(lambda: ada.lobby.seats[1].connected)
    assert [s.name for s in host.table.seats] == ["Ada", "Bob"]


async def test_a_game_seat_is_still_held_past_the_lobby_grace(autojump_clock):
    async with hosting(config(lobby_grace=5.0, grace=1000.0)) as (host, connect):
        with trio.fail_after(600):
            ada, bob = await started_pair(connect)
            await bob.stream.aclose()
            await ada.until(lambda: not ada.lobby.seats[1].connected)
            await trio.sleep(60)
    assert [s.name for s in host.table.seats] == ["Ada", "Bob"]


async def test_the_turn_timer_and_stand_ins_play_the_table_s_bot_kind(autojump_clock):
    settings = hex_settings(3, turn_timer=15.0, bots=["random", "greedy"], seat_order="seated")
    async with hosting(config(settings=settings, prepared=on_map(MAP3))) as (host, connect):
        with trio.fail_after(600):
            ada, bob = await seated_pair(connect)
            await ada.send(protocol.Start())
            await bob.expect(protocol.Started)
            timed = await bob.expect(protocol.Played, version=2)  # Ada's turn runs out
            await bob.stream.aclose()  # Bob is away: after the timer a stand-in plays for him
            away = await ada.expect(protocol.Played, version=3)
            await ada.until(lambda: ada.lobby.seats[1].standin)
    assert host.table.standin_kind == "greedy"
    assert (timed.events[0].player, timed.bot) == ("red", "greedy")
    assert (away.events[0].player, away.bot) == ("blue", "greedy")
    assert ada.lobby.seats[1].bot == "greedy"
