"""A host crowded out by idle connections (loopback, trio's autojump clock: every socket is
in this process, so what one sends is there before the clock moves): 1,000 from 127.0.0.2
and 256 spread over other 127.x.y.z addresses, each saying hello and pinging, each
stopping by itself. Seated players whose links went silent reclaim their seats within 2 s
(no timer stands in their way), a newcomer takes the free seat, and the game goes on to
its end. And crowds that keep coming and going (squatters that reconnect when told to go):
256 connections and the over-limit pool of 64 filled from 1,000 addresses, or from the seat
holder's own address, while her link goes silent and she comes back 20 times, each within
2 s; a newcomer still takes a free seat."""

import functools
import itertools
import random
from collections import Counter

import pytest
import trio
from test_server_kit import Client, config, hex_settings, on_map, tcp_client

import protocol
from protocol import FramedStream, ProtocolError
from server import Host, Limits
from waddle.hex.tiles import standard_map

#: The longest an idle connection stays (it ends sooner when told to stop).
HOLD = 90.0


async def idle_connection(port: int, address: str, stop: trio.Event, seen: Counter,
                          task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Connect from ``address``, say hello, ping every 2 s until ``stop``, ``HOLD`` s or the host hangs up."""
    try:
        stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=address)
    except OSError:
        seen["not connected"] += 1
        task_status.started()
        return
    task_status.started()
    framed = FramedStream.for_client(stream)
    async with stream:
        with trio.move_on_after(HOLD):
            try:
                await framed.send(protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="idle"))
                while not stop.is_set():
                    with trio.move_on_after(2):
                        message = await framed.receive()
                        if isinstance(message, protocol.Closing):
                            seen[message.code] += 1
                            return
                        seen[type(message).__name__] += 1
                        continue
                    await framed.send(protocol.Ping(nonce=1))
            except (ProtocolError, trio.BrokenResourceError):
                seen["dropped"] += 1


async def reclaim(port: int, old: Client, nursery) -> tuple[Client, float]:
    """``old``'s player on a new connection (the old one gone silent): the new client and
    how long the seat took."""
    old.frozen = True
    started = trio.current_time()
    client = Client(await trio.open_tcp_stream("127.0.0.1", port))
    nursery.start_soon(client.pump)
    await client.hello()
    client.label, client.token, client.view, client.version = old.label, old.token, old.view, old.version
    await client.send(protocol.Reclaim(token=old.token, last_version=old.version))
    await client.expect(protocol.Seated, label=old.label)
    return client, trio.current_time() - started


async def test_idle_crowds_never_keep_a_seated_player_or_a_newcomer_out(autojump_clock):
    cfg = config(code="fjord", prepared=on_map(standard_map(3, 5)),
                 settings=hex_settings(3, seat_order="seated"), lobby_grace=120.0, grace=120.0)
    host = Host(cfg)
    stop, seen = trio.Event(), Counter()
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)

        connect = functools.partial(tcp_client, nursery, port)

        with trio.fail_after(120):
            ada, bob = await connect(), await connect()
            await ada.join("Ada", code="fjord")
            await bob.join("Bob", code="fjord")
            addresses = ["127.0.0.2"] * 1000 + [f"127.1.{i // 200}.{1 + i % 200}" for i in range(256)]
            random.Random(1).shuffle(addresses)
            for address in addresses:  # each connected before the next
                await nursery.start(idle_connection, port, address, stop, seen)
            while host.connections > 2 + 256 + 64 or seen["full"] < 1000 - 16 - 4:
                await trio.sleep(0.1)  # the refused ones are told at once
            assert host.connections >= 256  # the host is full of idle connections

            ada, ada_took = await reclaim(port, ada, nursery)
            bob, bob_took = await reclaim(port, bob, nursery)
            assert ada_took < 2 and bob_took < 2, (ada_took, bob_took)
            print(f"reclaimed in {ada_took * 1000:.0f} ms and {bob_took * 1000:.0f} ms")

            carol = await connect()
            assert (await carol.join("Carol", code="fjord")).label == "yellow"
            for player in (ada, bob, carol):
                await player.send(protocol.Ready())
            for player in (ada, bob, carol):
                await player.expect(protocol.Started)
            rng = random.Random(2)
            async with trio.open_nursery() as game:
                for player in (ada, bob, carol):
                    game.start_soon(player.play_randomly, rng)
            assert ada.game.is_over and host.table.phase == "finished"
            assert ada.game.moves == bob.game.moves == carol.game.moves == host.table.match.game.moves
            stop.set()
            while host.connections > 3:
                await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    assert seen["full"] >= 1000 - 16 - 4  # from 127.0.0.2: 16 in, 4 waiting, the rest told at once
    assert seen["Welcome"] >= 256


#: Rounds of a seat holder's link dropping and coming back while the host is crowded.
ROUNDS = 10


async def squatter(port: int, addresses, stop: trio.Event, seen: Counter, *, hold: float) -> None:
    """Take room until ``stop``: connect from the next of ``addresses``, say hello, ping
    every 2 s until the host hangs up (or ``hold`` s), then again 0.1 s later; at most 500
    connections."""
    for _ in range(500):
        if stop.is_set():
            return
        try:
            stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=next(addresses))
        except OSError:
            seen["not connected"] += 1
            await trio.sleep(0.1)
            continue
        framed = FramedStream.for_client(stream)
        async with stream:
            with trio.move_on_after(hold):
                try:
                    await framed.send(protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="squat"))
                    while not stop.is_set():
                        with trio.move_on_after(2):
                            message = await framed.receive()
                            if isinstance(message, protocol.Closing):
                                seen[message.message] += 1
                                break
                            continue
                        await framed.send(protocol.Ping(nonce=1))
                except (ProtocolError, trio.BrokenResourceError):
                    seen["dropped"] += 1
        await trio.sleep(0.1)


async def seat_request(port: int, address: str, request) -> tuple[Client, int]:
    """A new connection from ``address`` sending ``hello`` and ``request`` in one write
    (as client.core does when it knows what it asks for), again after 0.1, 0.2, 0.4 ... s
    while told ``full``, until seated (at most 12 tries): the client and the tries it took."""
    delay = 0.1
    for attempt in range(1, 13):
        client = Client(await trio.open_tcp_stream("127.0.0.1", port, local_address=address))
        await client.send_raw(protocol.encode(protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="t"))
                              + protocol.encode(request))
        async with trio.open_nursery() as nursery:
            nursery.start_soon(client.pump)
            await client.until(lambda c=client: c.of(protocol.Seated) or c.of(protocol.Closing))
            if client.of(protocol.Seated):
                await client.expect(protocol.Lobby)
                nursery.cancel_scope.cancel()
                return client, attempt
        assert client.of(protocol.Closing)[0].code == "full"
        await client.stream.aclose()
        await trio.sleep(delay)
        delay *= 2
    raise AssertionError(f"{type(request).__name__} from {address}: told full 12 times")


CROWDS = {
    # 256 connections and the over-limit pool of 64 filled from 1,000 addresses
    "1000 addresses": (Limits(), [f"127.3.{i // 250}.{1 + i % 250}" for i in range(1000)], 254, 80),
    # from the seat holder's own address: its 16 and its pool of 4
    "one address": (Limits(), ["127.0.0.1"], 14, 8),
    # one address allowed everything: 256 and 64, all from the seat holder's address
    "one address, every cap": (Limits(max_per_address=256, waiting_per_address=64), ["127.0.0.1"], 254, 80),
}


@pytest.mark.parametrize("crowd", CROWDS)
async def test_a_seat_holder_gets_back_in_every_time_whatever_crowds_the_host(crowd, autojump_clock):
    limits, addresses, holders, churners = CROWDS[crowd]
    cfg = config(code="fjord", settings=hex_settings(3, seat_order="seated"), lobby_grace=3600.0,
                 limits=limits)
    host = Host(cfg)
    stop, seen = trio.Event(), Counter()
    pool = limits.max_waiting if len(addresses) > 1 else min(limits.max_waiting, limits.waiting_per_address)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        with trio.fail_after(600):
            ada, _ = await seat_request(port, "127.0.0.1", protocol.Join(name="Ada", code="fjord"))
            bob, _ = await seat_request(port, "127.0.0.1", protocol.Join(name="Bob", code="fjord"))
            nursery.start_soon(bob.pump)
            cycle = itertools.cycle(addresses)
            for _ in range(holders):
                nursery.start_soon(functools.partial(squatter, port, cycle, stop, seen, hold=HOLD * 10))
            while host.connections < 2 + holders:
                await trio.sleep(0.1)
            for _ in range(churners):
                nursery.start_soon(functools.partial(squatter, port, cycle, stop, seen, hold=HOLD * 10))
            attempts = []
            for _ in range(ROUNDS):
                while host.waiting < pool:
                    await trio.sleep(0.05)
                # Ada's link goes silent (her old connection still counted); she comes back with her token
                began, old = trio.current_time(), ada
                ada, tries = await seat_request(port, "127.0.0.1", protocol.Reclaim(token=ada.token, last_version=0))
                await old.stream.aclose()
                assert trio.current_time() - began < 2
                attempts.append(tries)
                await trio.sleep(1)  # the crowd goes on coming and going
            assert host.connections >= 2 + holders and seen["the host made room for a newer connection"] > 0
            carol, _ = await seat_request(port, "127.0.0.1", protocol.Join(name="Carol", code="fjord"))
            assert carol.of(protocol.Seated)[0].label == "yellow"
            await bob.until(lambda: [s.name for s in bob.lobby.seats] == ["Ada", "Bob", "Carol"]
                            and all(s.connected for s in bob.lobby.seats))
            print(f"{crowd}: {ROUNDS} reclaims, attempts {Counter(attempts)}, {seen.total()} crowd closings")
            stop.set()
        nursery.cancel_scope.cancel()
