"""End to end: a host and four headless bot clients over loopback TCP play to the end.

Every client's view must equal the host's game and the replay of the saved record,
also when a seeded proxy cuts the clients' connections at random points (they reconnect
with backoff, reclaim their seats and resend unacknowledged actions).
"""

from __future__ import annotations

import random

import pytest
import trio
from test_server_kit import inline

from client.backoff import Backoff
from client.botplay import play
from client.core import Client, connect
from protocol import Settings
from server import Host, ServerConfig
from waddle.hex.bots import make_bot
from waddle.hex.events import GameEnded
from waddle.hex.options import HexOptions, StandardMap
from waddle.hex.record import load_record

KINDS = ("greedy", "random", "greedy", "random")


async def cutting_proxy(target_port: int, rng: random.Random, cuts: list[int],
                        budget: int, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Forward 127.0.0.1 connections to ``target_port``; cut up to ``budget`` of them
    after a random number of bytes from the host (each cut appends its byte count to ``cuts``)."""

    async def pipe(source, sink, limit, scope) -> None:
        sent = 0
        while True:
            data = await source.receive_some(4096)
            if not data:
                break
            if limit is not None and sent + len(data) >= limit:
                await sink.send_all(data[:limit - sent])
                cuts.append(limit)
                break
            sent += len(data)
            await sink.send_all(data)
        scope.cancel()

    async def handle(client_stream) -> None:
        limit = rng.randrange(1500, 6000) if len(cuts) < budget else None
        try:
            server_stream = await trio.open_tcp_stream("127.0.0.1", target_port)
        except OSError:
            await client_stream.aclose()
            return
        async with client_stream, server_stream, trio.open_nursery() as nursery:
            nursery.start_soon(pipe, client_stream, server_stream, None, nursery.cancel_scope)
            nursery.start_soon(pipe, server_stream, client_stream, limit, nursery.cancel_scope)

    async def guarded(stream) -> None:
        try:
            await handle(stream)
        except* (trio.BrokenResourceError, trio.ClosedResourceError):
            pass

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    await trio.serve_listeners(guarded, listeners, task_status=task_status)


async def play_table(port: int, seed: int, clients: list[Client], kinds=KINDS) -> None:
    async def seat(i: int) -> None:
        async with connect("127.0.0.1", port, name=f"bot {i}", backoff=Backoff(seed=seed + i),
                           dead_after=60.0) as client:
            clients.append(client)
            await play(client, make_bot(kinds[i], seed + i))

    async with trio.open_nursery() as nursery:
        for i in range(len(kinds)):
            nursery.start_soon(seat, i)


def assert_all_agree(host: Host, clients: list[Client], save, fingerprint) -> None:
    game = host.table.match.game
    assert game.is_over
    saved = load_record(save)
    assert fingerprint(saved) == fingerprint(game)
    assert sorted(c.state.label for c in clients) == sorted(game.players)
    for client in clients:
        ended = client.state.last_played.events[-1]
        assert isinstance(ended, GameEnded)
        assert fingerprint(client.state.view.game) == fingerprint(game)
        assert [ended.scores[p].total for p in game.players] == list(client.state.outcome().scores)


async def test_four_bot_clients_play_a_whole_game_and_agree_with_the_host(tmp_path, fingerprint):
    save = tmp_path / "game.json"
    settings = Settings(players=4, options=HexOptions(map=StandardMap(seed=5)))
    host = Host(ServerConfig(port=0, settings=settings, save=save, seed=5))
    clients: list[Client] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            await play_table(port, 5, clients)
            await host.table.flush()
            nursery.cancel_scope.cancel()
    assert_all_agree(host, clients, save, fingerprint)
    assert all(c.backoff.attempts == 0 for c in clients)


async def test_a_mirror_match_with_three_clients_agrees_through_both_halves(tmp_path, fingerprint):
    save = tmp_path / "game.json"
    settings = Settings(players=3, options=HexOptions(map=StandardMap(seed=3), mirror_match=True))
    host = Host(ServerConfig(port=0, settings=settings, save=save, seed=3))
    clients: list[Client] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            await play_table(port, 3, clients, kinds=("greedy", "random", "greedy"))
            await host.table.flush()
            nursery.cancel_scope.cancel()
    assert_all_agree(host, clients, save, fingerprint)
    assert host.table.match.game.half == 2


@pytest.mark.parametrize("seed", [8, 9, 10])
async def test_clients_cut_off_at_random_points_reconnect_and_finish_identical(
        tmp_path, fingerprint, patient_clock, seed):
    save = tmp_path / "game.json"
    settings = Settings(players=4, options=HexOptions(map=StandardMap(seed=seed)))
    host = Host(ServerConfig(port=0, settings=settings, save=save, seed=seed))
    host.table.offload = inline  # a slow save (fsync) in a thread would let virtual time run away
    clients: list[Client] = []
    cuts: list[int] = []
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            listeners = await nursery.start(cutting_proxy, port, random.Random(seed), cuts, 12)
            await play_table(listeners[0].socket.getsockname()[1], seed, clients)
            await host.table.flush()
            nursery.cancel_scope.cancel()
    assert len(cuts) >= 4 and sum(c.reconnects for c in clients) >= 4
    assert_all_agree(host, clients, save, fingerprint)
