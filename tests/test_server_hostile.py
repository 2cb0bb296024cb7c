"""Hostile and broken clients: malformed frames, floods, timeouts, frozen readers, leavers.

Whatever one client sends, the server keeps serving the others and the game is unchanged.
"""

import copy
import json
import random
import struct

import pytest
import trio
import trio.testing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_kit import examples
from test_server_kit import config, hex_settings, hosting, started_pair

import protocol
from server import Limits
from waddle import SCOUT


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


MALFORMED = [
    frame(b"garbage"),
    frame(b"\xff\xfe\x00\x01"),
    frame(b'{"type": "act", "id": "x", "version": 1, "token": "t", "action": {"type": "place", "hex": "a,b"}}'),
    frame(b'{"type": "act", "id": 5, "version": 1, "token": "t", "action": {"type": "scout"}}'),
    frame(b'{"type": "act", "id": "x", "version": true, "token": "t", "action": {"type": "scout"}}'),
    frame(b'{"type": "act", "id": "", "version": 1, "token": "t", "action": {"type": "scout"}}'),
    frame(b'{"type": "act", "id": "x", "version": 1, "token": "t", "action": {"type": "place", "hex": [1e9, 0]}}'),
    frame(b'{"type": "summon_dragon", "power": 9000}'),
    frame(b'{"type": "say", "text": "' + b"x" * 5000 + b'"}'),
    frame(b'{"type": "join", "name": "' + b"n" * 1000 + b'"}'),
    frame(b'{"type": "say", "text": "bad \xed\xa0\x80 surrogate"}'),
    frame(b'{"type": "say", "text": "\xc0\xaf"}'),
    frame(b"[" * 15000),
    frame(b'{"type": "reclaim", "token": {"$gt": ""}, "last_version": 0}'),
    frame(b"null"),
]


@pytest.mark.parametrize("junk", MALFORMED, ids=range(len(MALFORMED)))
async def test_malformed_frames_are_rejected_and_the_game_goes_on(junk, autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            before = host.table.match.record()
            await ada.send_raw(junk)
            reply = await ada.expect(protocol.Rejected)
            assert reply.code == "bad_message"
            assert host.table.match.record() == before and host.table.version == 1
            # the same connection still plays
            id = await ada.act(SCOUT)
            assert isinstance(await ada.reply(id), protocol.Ack)
            await bob.until(lambda: bob.version == 2)


async def test_a_malformed_act_is_rejected_with_its_id(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(30):
            ada, _ = await started_pair(connect)
            await ada.send_raw(frame(b'{"type": "act", "id": "mine-1", "version": 1, "token": "t",'
                                     b' "action": {"type": "place", "hex": "a,b"}}'))
            reply = await ada.expect(protocol.Rejected)
            assert (reply.request, reply.code, reply.id) == ("act", "bad_message", "mine-1")
            await ada.send_raw(frame(b'{"type": "say", "id": "mine-2", "text": 5}'))
            reply = await ada.expect(protocol.Rejected)
            assert (reply.request, reply.code, reply.id) == ("?", "bad_message", None)


@pytest.mark.parametrize("junk", [
    struct.pack(">I", protocol.MAX_CLIENT_FRAME + 1) + b"{",
    struct.pack(">I", 0),
    struct.pack(">I", 2**32 - 1),
], ids=["over-cap", "zero", "4GiB"])
async def test_bad_length_closes_only_that_connection(junk, autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            before = host.table.match.record()
            await bob.send_raw(junk)
            closing = await bob.expect(protocol.Closing)
            await bob.closed.wait()
            await ada.until(lambda: not ada.lobby.seats[1].connected)
            id = await ada.act(SCOUT)
            assert isinstance(await ada.reply(id), protocol.Ack)
    assert closing.code == "frame_too_large"
    assert host.table.match.record()["actions"] == before["actions"] + [{"player": ada.label, "type": "scout"}]


async def test_truncated_frame_then_reset_leaves_the_seat_held(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            await bob.send_raw(frame(b'{"type": "say", "text": "half')[:12])
            await bob.stream.aclose()
            await ada.until(lambda: not ada.lobby.seats[1].connected)
            id = await ada.act(SCOUT)
            assert isinstance(await ada.reply(id), protocol.Ack)
            again = await connect()
            again.view, again.version = bob.view, bob.version
            await again.hello()
            await again.send(protocol.Reclaim(token=bob.token, last_version=1))
            await again.expect(protocol.Seated)
            await again.expect(protocol.Played, version=2)
    assert not any(isinstance(m, protocol.Chat) for m in ada.received)


async def test_garbage_over_tcp_and_the_server_keeps_serving():
    async with hosting(tcp=True) as (host, connect):
        with trio.fail_after(20):
            port = host.port
            for junk in (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", b"\x00\x00\x00\x05{\"ty", b"\x16\x03\x01\x02\x00",
                         struct.pack(">I", 10) + b"\xff" * 10):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                await stream.send_all(junk)
                await stream.aclose()
            ada, bob = await started_pair(connect)
            await ada.act(SCOUT)
            await bob.until(lambda: bob.version == 2)


@pytest.mark.parametrize("hello", [
    b'{"type":"hello","protocol":1,"client":"waddle 0.1 (protocol 1)"}',  # a v1 peer, byte for byte
    b'{"type":"hello","protocol":4,"client":"future"}',
])
async def test_protocol_version_mismatch_is_refused_cleanly(autojump_clock, hello):
    async with hosting() as (host, connect):
        with trio.fail_after(10):
            c = await connect()
            await c.send_raw(struct.pack(">I", len(hello)) + hello)
            closing = await c.expect(protocol.Closing)
            await c.closed.wait()
    assert closing.code == "protocol_version" and "protocol 3 (and 2)" in closing.message


async def test_a_client_asking_for_another_game_is_refused_naming_this_one(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(10):
            c = await connect()
            await c.send(protocol.Hello(protocol=protocol.PROTOCOL_VERSION, game="downtown"))
            closing = await c.expect(protocol.Closing)
            await c.closed.wait()
    assert closing.code == "game" and "Waddle (hex)" in closing.message and "downtown" in closing.message


async def test_first_message_must_be_hello(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(10):
            c = await connect()
            await c.send(protocol.Join(name="x"))
            assert (await c.expect(protocol.Closing)).code == "handshake"
            await c.closed.wait()


async def test_handshake_timeout(autojump_clock):
    async with hosting() as (host, connect):
        c = await connect()
        start = trio.current_time()
        with trio.fail_after(60):
            closing = await c.expect(protocol.Closing)
            await c.closed.wait()
    assert closing.code == "handshake"
    assert trio.current_time() - start == pytest.approx(Limits().handshake_timeout, abs=0.5)


async def test_dead_link_is_detected_by_the_idle_timeout(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(120):
            ada, bob = await started_pair(connect)
            bob.answer_pings = False  # the link is dead: nothing comes back, no FIN, no RST
            start = trio.current_time()
            closing = await bob.expect(protocol.Closing)
            await ada.until(lambda: not ada.lobby.seats[1].connected)
    assert closing.code == "idle"
    assert trio.current_time() - start == pytest.approx(Limits().idle_timeout, abs=1)
    pings = [m for m in bob.received if isinstance(m, protocol.Ping)]
    assert len(pings) >= 2  # the host pinged before giving up


async def test_the_host_pings_one_interval_after_the_last_message_however_many_came(autojump_clock):
    """Messages every 3 s for 12 s, then silence: the host's ping comes 10 s (the ping
    interval) after the last one, not after the first."""
    async with hosting() as (host, connect):
        with trio.fail_after(60):
            c = await connect()
            await c.hello()
            for nonce in range(1, 5):
                await trio.sleep(3.0)
                await c.send(protocol.Ping(nonce=nonce))
                await c.expect(protocol.Pong, nonce=nonce)
            last = trio.current_time()
            ping = await c.expect(protocol.Ping)
    assert trio.current_time() - last == pytest.approx(Limits().ping_interval, abs=0.01)
    assert ping.nonce == 1


async def test_server_answers_client_pings(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(10):
            c = await connect()
            await c.hello()
            await c.send(protocol.Ping(nonce=42))
            assert (await c.expect(protocol.Pong)).nonce == 42


async def test_flood_is_rate_limited_then_closed_while_others_play(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            flood = b"".join(protocol.encode(protocol.Say(text="spam")) for _ in range(300))
            await bob.send_raw(flood)
            closing = await bob.expect(protocol.Closing)
            id = await ada.act(SCOUT)
            assert isinstance(await ada.reply(id), protocol.Ack)
    limited = [m for m in bob.received if isinstance(m, protocol.Rejected) and m.code == "rate_limited"]
    chats = [m for m in ada.received if isinstance(m, protocol.Chat)]
    assert closing.code == "rate_limited"
    assert len(chats) <= Limits().burst + 1 and len(limited) > 100


async def test_frozen_client_is_dropped_while_the_others_play_on(autojump_clock, caplog):
    cfg = config(limits=Limits(queue_size=8))
    async with hosting(cfg) as (host, connect):
        with trio.fail_after(120):
            ada, bob = await started_pair(connect)
            frozen = await connect(lockstep=True)
            await frozen.hello()
            await frozen.send(protocol.Watch(name="ice"))
            await frozen.expect(protocol.Watching)
            frozen.frozen = True
            async with trio.open_nursery() as n:
                n.start_soon(ada.play_randomly, random.Random(1))
                n.start_soon(bob.play_randomly, random.Random(2))
            assert len(host.table.peers) == 2 and all(p.seat for p in host.table.peers)
    assert ada.game.is_over and ada.game.moves == host.table.match.game.moves
    assert "reads too slowly" in caplog.text


async def test_a_stand_in_bot_plays_for_a_leaver_after_the_grace_period(autojump_clock):
    async with hosting(config(grace=30.0)) as (host, connect):
        with trio.fail_after(600):
            ada, bob = await started_pair(connect)
            await ada.act(SCOUT)  # Ada scouts: Bob is last player placing until the round ends
            await bob.until(lambda: bob.version == 2 and bob.my_turn())
            await bob.stream.aclose()
            await ada.until(lambda: not ada.lobby.seats[1].connected)
            away = ada.lobby.seats[1]
            left = trio.current_time()
            first = await ada.expect(protocol.Played, version=3)
            waited = trio.current_time() - left
            assert ada.lobby.seats[1].bot == "random" and ada.lobby.seats[1].standin
            await ada.until(lambda: ada.version >= 4)
            eve = await connect()  # a spectator arriving while the stand-in plays
            await eve.hello()
            await eve.send(protocol.Watch(name="Eve"))
            await eve.expect(protocol.Watching)
            await eve.until(lambda: eve.lobby is not None)
            late = eve.lobby.seats[1]
            back = await connect()
            back.view, back.version = copy.deepcopy(ada.view), ada.version
            await back.hello()
            await back.send(protocol.Reclaim(token=bob.token, last_version=back.version))
            await back.expect(protocol.Seated)
            await ada.until(lambda: ada.lobby.seats[1].connected and ada.lobby.seats[1].bot is None)
            assert not ada.lobby.seats[1].standin
            await back.until(lambda: back.version == host.table.version)
            if not host.table.match.is_over and back.my_turn():
                before = host.table.version
                id = await back.act(back.game.legal_actions()[0])
                ack = await back.reply(id)
                assert isinstance(ack, protocol.Ack) and ack.version == before + 1
                assert back.of(protocol.Played)[-1].bot is None
    assert first.events[0].player == "blue" and first.bot == "random"
    assert away.bot is None and not away.standin  # away, but within the grace period
    assert late.bot == "random" and late.standin and not late.connected
    assert waited == pytest.approx(30.0, abs=0.01)


async def test_turn_timer_lets_a_bot_play_a_slow_turn(autojump_clock):
    cfg = config(settings=hex_settings(2, turn_timer=15.0))
    async with hosting(cfg) as (host, connect):
        with trio.fail_after(600):
            ada, bob = await started_pair(connect)
            start = trio.current_time()
            played = await bob.expect(protocol.Played, version=2)
            elapsed = trio.current_time() - start
    assert played.events[0].player == ada.label and played.bot == "random"
    assert elapsed == pytest.approx(15.0, abs=0.01)
    assert ada.lobby.seats[0].connected and not ada.lobby.seats[0].standin


async def test_the_turn_timer_starts_again_with_each_move(autojump_clock):
    """A move 10 s into a 15-second turn gives the next player the whole 15 s (the
    driver, asleep until the first turn's end, learns that its deadline moved)."""
    cfg = config(settings=hex_settings(2, turn_timer=15.0))
    async with hosting(cfg) as (host, connect):
        with trio.fail_after(600):
            ada, bob = await started_pair(connect)
            await trio.sleep(10.0)
            assert ada.my_turn()
            id = await ada.act(ada.game.legal_actions()[0])
            assert isinstance(await ada.reply(id), protocol.Ack)
            moved = trio.current_time()
            played = await ada.expect(protocol.Played, version=3)
            waited = trio.current_time() - moved
    assert played.bot == "random" and played.seat == 1
    assert waited == pytest.approx(15.0, abs=0.01)


async def test_a_connection_handler_error_stays_in_that_connection(autojump_clock, monkeypatch):
    async with hosting() as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            original = host.table.handle

            def explode(peer, message):
                if isinstance(message, protocol.Say):
                    raise RuntimeError("boom")
                return original(peer, message)

            monkeypatch.setattr(host.table, "handle", explode)
            await bob.send(protocol.Say(text="boom"))
            await bob.closed.wait()
            id = await ada.act(SCOUT)
            assert isinstance(await ada.reply(id), protocol.Ack)


@settings(max_examples=examples(40),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.one_of(
    st.binary(max_size=64).map(lambda b: struct.pack(">I", len(b) or 1) + (b or b"x")),
    st.dictionaries(st.sampled_from(["type", "id", "version", "token", "action", "name", "text",
                                     "settings", "last_version", "protocol", "hex"]),
                    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                              st.sampled_from(["act", "join", "say", "reclaim", "configure",
                                               "place", "scout", "start", "watch"]),
                              st.lists(st.integers(), max_size=3)),
                    max_size=5).map(lambda d: frame(json.dumps(d).encode())),
), max_size=12))
def test_fuzzed_frames_never_hurt_the_table(frames):
    async def main():
        async with hosting() as (host, connect):
            with trio.fail_after(60):
                ada, bob = await started_pair(connect)
                before = host.table.match.record()
                mallory = await connect()
                await mallory.hello()
                for data in frames:
                    if mallory.closed.is_set():
                        break
                    await mallory.send_raw(data)
                await mallory.send(protocol.Ping(nonce=1))
                assert host.table.match.record() == before
                id = await ada.act(SCOUT)
                assert isinstance(await ada.reply(id), protocol.Ack)
                await bob.until(lambda: bob.version == 2)

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


async def test_connections_over_the_limit_are_told_the_host_is_full(autojump_clock):
    async with hosting(config(limits=Limits(max_connections=2))) as (host, connect):
        with trio.fail_after(10):
            ada, bob = await connect(), await connect()
            await ada.hello()
            await bob.hello()
            third = await connect()
            closing = await third.expect(protocol.Closing)
            await third.closed.wait()
            await bob.stream.aclose()
            while host.connections != 1:
                await trio.sleep(0.1)  # virtual time
            again = await connect()
            assert (await again.hello()).protocol == protocol.PROTOCOL_VERSION
    assert closing.code == "full"


async def test_rate_limit_forgives_occasional_bursts(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(600):
            ada, bob = await started_pair(connect)
            for _ in range(6):  # 6 bursts of 70: 30 over the limit each, 180 in all
                await ada.send_raw(b"".join(protocol.encode(protocol.Say(text="x")) for _ in range(70)))
                await ada.until(lambda: sum(isinstance(m, protocol.Chat) for m in ada.received) > 0)
                await trio.sleep(5)
            id = await ada.act(SCOUT)
            assert isinstance(await ada.reply(id), protocol.Ack)
    assert not ada.of(protocol.Closing)
    assert len(ada.of(protocol.Rejected)) >= 6 * 29


async def test_rejections_cannot_flood_the_host_log(autojump_clock, caplog):
    caplog.set_level("INFO", logger="waddle.server")
    async with hosting() as (host, connect):
        with trio.fail_after(200):
            pest = await connect()
            await pest.hello()
            for _ in range(300):                       # under the rate limit: 0.06 s apart
                await pest.send(protocol.Ready())
                assert (await pest.expect(protocol.Rejected)).code == "not_joined"
                await trio.sleep(0.06)
            for i in range(100):                       # 10 s of wrong tokens
                await pest.send(protocol.Reclaim(token=f"guess-{i}", last_version=0))
                assert (await pest.expect(protocol.Rejected)).code == "bad_token"
                await trio.sleep(0.1)
            await pest.stream.aclose()
            await trio.testing.wait_all_tasks_blocked()
            while host.table.peers:
                await trio.sleep(0.1)
    lines = [r.getMessage() for r in caplog.records if r.levelname == "INFO"]
    assert not any("not_joined" in line for line in lines)
    bad_token = [line for line in lines if "bad_token" in line]
    assert len(bad_token) == 1 and "guess-" not in bad_token[0]
    assert any(line.endswith("closed; 99 more such rejection(s) not logged") for line in lines)


@given(st.text(max_size=40), st.text(max_size=40))
def test_a_secret_matches_only_itself_whatever_the_text(given_text, secret):
    from server.seats import same_secret

    assert same_secret(secret, secret)
    assert same_secret(given_text, secret) == (given_text == secret)  # never raises on non-ASCII


def test_a_join_code_outside_ascii_is_compared_as_text():
    from server.seats import same_secret

    assert same_secret("café", "café") and not same_secret("cafe", "café")
    assert not same_secret("x" * 32, "x" * 31 + "é")
