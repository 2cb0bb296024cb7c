"""A host crowded out by idle connections (loopback, trio's autojump clock: every socket is
in this process, so what one sends is there before the clock moves): 1,000 from 127.0.0.2
and 256 spread over other 127.x.y.z addresses, each saying hello and pinging, each
stopping by itself. Seated players whose links went silent reclaim their seats within 2 s
(no timer stands in their way), a newcomer takes the free seat, and the game goes on to
its end."""

import random
from collections import Counter

import trio
from test_server_kit import Client, config, hex_settings, on_map

import protocol
from protocol import FramedStream, ProtocolError
from server import Host
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

        async def connect() -> Client:
            client = Client(await trio.open_tcp_stream("127.0.0.1", port))
            nursery.start_soon(client.pump)
            return client

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
