"""How many connections a host serves, and who gets in when it is full: a seat holder
always does (the oldest connection without a seat yields); connections per address are
limited; a failing accept backs off and logs one line per interval; a stopping host tells
everybody it stopped and that the game is saved."""

import errno
import functools
import logging
from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing
from test_server_kit import (
    Client,
    config,
    hex_settings,
    hosting,
    seated_pair,
    started_pair,
    tcp_client,
)

import protocol
from server import Host, Limits
from server.host import ACCEPT_LOG_INTERVAL


@asynccontextmanager
async def hosting_from(cfg):
    """``(host, connect)`` with the table running; ``connect(address)`` gives a kit client
    over a memory stream that the host sees as coming from ``address``."""
    async with hosting(cfg) as (host, _), trio.open_nursery() as nursery:
        async def connect(address: str | None = None) -> Client:
            ours, theirs = trio.testing.memory_stream_pair()
            nursery.start_soon(host.handle, theirs, None, address)
            client = Client(ours)
            nursery.start_soon(client.pump)
            return client

        yield host, connect
        nursery.cancel_scope.cancel()


async def idle(client: Client) -> None:
    """Say hello and nothing more (a connection that only takes room)."""
    await client.hello()


async def test_a_seat_holder_gets_in_when_the_host_is_full_and_the_oldest_idle_connection_yields(autojump_clock):
    async with hosting_from(config(limits=Limits(max_connections=4))) as (host, connect):
        with trio.fail_after(30):
            ada, bob = await connect(), await connect()
            await ada.join("Ada")
            await bob.join("Bob")
            eve = await connect()
            await idle(eve)
            mallory = await connect()
            await idle(mallory)
            await ada.send(protocol.Start())
            await bob.expect(protocol.Started)
            # full: a fifth that asks for nothing waits, then is told so
            extra = await connect()
            await extra.hello()
            await extra.send(protocol.Ping(nonce=1))
            assert (await extra.expect(protocol.Closing)).code == "full"
            watcher = await connect()
            await watcher.hello()
            await watcher.send(protocol.Watch(name="W"))
            assert (await watcher.expect(protocol.Closing)).code == "full"
            # Ada from a second device, with her seat's token: in, and Eve (the oldest
            # without a seat) yields; Ada's old link is replaced
            back = await connect()
            await back.hello()
            await back.send(protocol.Reclaim(token=ada.token, last_version=ada.version))
            assert (await back.expect(protocol.Seated)).label == ada.label
            closing = await eve.expect(protocol.Closing)
            assert closing.code == "full" and "made room" in closing.message
            assert (await ada.expect(protocol.Closing)).code == "replaced"
            assert not mallory.closed.is_set()
            back.label, back.token, back.view, back.version = ada.label, ada.token, ada.view, ada.version
            for _ in range(4):  # and the game goes on
                seat = back if back.my_turn() else bob
                await seat.until(seat.my_turn)
                assert isinstance(await seat.reply(await seat.act(seat.game.legal_actions()[0])),
                                  protocol.Ack)
            while host.connections != 3:  # Bob, Ada's new link, Mallory
                await trio.sleep(0.1)


async def test_a_newcomer_takes_a_free_seat_in_a_full_host(autojump_clock):
    cfg = config(limits=Limits(max_connections=2), settings=hex_settings(3, seat_order="seated"),
                 code="fjord")
    async with hosting_from(cfg) as (host, connect):
        with trio.fail_after(30):
            ada, spectator = await connect(), await connect()
            await ada.join("Ada", code="fjord")
            await spectator.hello()
            await spectator.send(protocol.Watch(name="Sam", code="fjord"))
            await spectator.expect(protocol.Watching)
            carol = await connect()
            assert (await carol.join("Carol", code="fjord")).label == "blue"
            assert (await spectator.expect(protocol.Closing)).code == "full"
            wrong = await connect()  # a join the table refuses does not get in
            await wrong.hello()
            await wrong.send(protocol.Join(name="Dan", code="nope"))
            assert (await wrong.expect(protocol.Closing)).code == "full"


async def test_connections_per_address_are_limited_and_a_seat_holder_there_still_gets_in(autojump_clock):
    limits = Limits(max_per_address=3, waiting_per_address=1)
    async with hosting_from(config(limits=limits)) as (host, connect):
        with trio.fail_after(30):
            ada, bob = await seated_pair(_same(connect, "10.0.0.5"))
            crowd = [await connect("10.0.0.9") for _ in range(3)]
            for client in crowd:
                await idle(client)
            early = await connect("10.0.0.9")  # a fourth from there waits; a fifth takes its place
            await early.hello()
            late = await connect("10.0.0.9")
            assert (await early.expect(protocol.Closing)).message == "the host made room for a newer connection"
            await late.hello()
            await late.send(protocol.Ping(nonce=1))
            assert (await late.expect(protocol.Closing)).code == "full"
            other = await connect("10.0.0.7")  # another address is not crowded
            assert (await other.hello()).protocol == protocol.PROTOCOL_VERSION
            # Ada moves to the crowded address with her token: one of its idle connections yields
            back = await connect("10.0.0.9")
            await back.hello()
            await back.send(protocol.Reclaim(token=ada.token, last_version=0))
            assert (await back.expect(protocol.Seated)).label == ada.label
            await trio.sleep(5)
            assert [c.of(protocol.Closing)[0].code for c in crowd if c.closed.is_set()] == ["full"]
            assert not other.closed.is_set() and ada.of(protocol.Closing)[0].code == "replaced"


def _same(connect, address):
    async def at_address():
        return await connect(address)
    return at_address


class FailingListener:
    """A listener whose ``accept`` fails with EMFILE ``failures`` times, gives one
    connection, then waits forever."""

    def __init__(self, failures: int) -> None:
        self.failures, self.calls = failures, []

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False

    async def accept(self):
        self.calls.append(trio.current_time())
        if len(self.calls) <= self.failures:
            raise OSError(errno.EMFILE, "Too many open files")
        if len(self.calls) == self.failures + 1:
            return trio.testing.memory_stream_pair()[1]
        await trio.sleep_forever()


async def test_running_out_of_file_descriptors_the_accept_loop_backs_off_and_logs_one_line_an_interval(
        autojump_clock, caplog):
    host = Host(config())
    listener = FailingListener(failures=20)
    caplog.set_level(logging.INFO, "waddle.server")
    async with trio.open_nursery() as nursery:
        host._connections = nursery
        host._handle_tcp = trio.aclose_forcefully  # the one connection given: not served here
        nursery.start_soon(host._accept, listener)
        await trio.sleep(200)
        nursery.cancel_scope.cancel()
    waits = [b - a for a, b in zip(listener.calls, listener.calls[1:])]
    assert waits[:6] == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.2]) and max(waits) == pytest.approx(5.0)
    lines = [r.getMessage() for r in caplog.records if "cannot accept" in r.getMessage()]
    failing_for = listener.calls[20] - listener.calls[0]
    assert len(lines) <= failing_for / ACCEPT_LOG_INTERVAL + 1 and len(lines) >= 2
    assert "Too many open files" in lines[0] and all(r.exc_info is None for r in caplog.records)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO][-1] == \
        "accepting connections again"


async def test_a_stopping_host_tells_every_connection_the_game_is_saved_and_how_it_goes_on(tmp_path):
    save = tmp_path / "night.json"
    host = Host(config(save=save, command="waddle host"))
    scope = trio.CancelScope()

    async def run_host(task_status):
        with scope:
            await host.run(task_status=task_status)

    async with trio.open_nursery() as nursery:
        port = await nursery.start(run_host)

        connect = functools.partial(tcp_client, nursery, port)

        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            await ada.until(ada.my_turn)
            assert isinstance(await ada.reply(await ada.act(ada.game.legal_actions()[0])), protocol.Ack)
            eve = await connect()
            await idle(eve)
            scope.cancel()
            for client in (ada, bob, eve):
                closing = await client.expect(protocol.Closing)
                assert closing.code == "host_stopped"
                assert closing.message == ("the host stopped; the game is saved: it goes on when the "
                                           "host runs waddle host --resume night.json")
                await client.closed.wait()
    import json
    assert len(json.loads(save.read_text())["actions"]) == 1  # the save file alone holds it


async def test_a_host_stopped_in_the_lobby_says_so(autojump_clock):
    async with hosting() as (host, connect):
        ada, bob = await seated_pair(connect)
    from server.host import stopped_message
    assert stopped_message(host.table, "waddle serve") == "the host stopped before the game started"


async def test_a_host_stopped_while_it_starts_ends(autojump_clock, monkeypatch):
    import server.host
    real = server.host.run_table

    async def slow_start(table, *, task_status):  # the table's driver is still starting
        await trio.sleep(10)
        await real(table, task_status=task_status)

    monkeypatch.setattr(server.host, "run_table", slow_start)
    host = Host(config(port=0))
    # (a host whose stop waits, shielded, for a part that never began hangs here for good:
    # no deadline reaches into a shielded scope)
    with trio.fail_after(60):
        with trio.move_on_after(1) as stopping:
            await host.run()
    assert stopping.cancelled_caught and host.connections == 0


async def test_all_closed_waits_for_the_last_connection_to_end_not_for_the_first(autojump_clock):
    async with hosting_from(config()) as (host, connect):
        with trio.fail_after(30):
            ended = trio.Event()

            async def wait() -> None:
                await host.all_closed()
                ended.set()

            async with trio.open_nursery() as nursery:
                nursery.start_soon(wait)
                ada, bob = await connect(), await connect()
                await ada.hello()
                await bob.hello()
                await ada.send(protocol.Leave())
                await ada.closed.wait()
                await trio.testing.wait_all_tasks_blocked()
                assert not ended.is_set() and host.connections == 1
                await bob.send(protocol.Leave())
                await ended.wait()
                assert host.connections == 0
