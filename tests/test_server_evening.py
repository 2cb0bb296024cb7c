"""Take-backs, half-time and rematches at a hosted table (``docs/protocol.md``: Take-backs,
Pauses, Rematch), over memory streams on the mock clock."""

from __future__ import annotations

import json
import random

import trio

import protocol
from server.games import numbered
from tests.test_server_kit import config, hex_settings, hosting, started_pair
from waddle import SCOUT, Place
from waddle.hex.events import HalfEnded, TookBack


async def test_a_player_takes_back_their_own_last_action_and_nobody_elses(autojump_clock, tmp_path):
    save = tmp_path / "game.json"
    async with hosting(config(save=save)) as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            place = next(a for a in ada.game.legal_actions() if isinstance(a, Place))
            assert isinstance(await ada.reply(await ada.act(place)), protocol.Ack)
            # Bob did not act last: refused, nothing changed
            await bob.send(protocol.Undo(version=bob.version, token=bob.token))
            refused = await bob.expect(protocol.Rejected, request="undo")
            assert refused.code == "cannot_undo" and "red acted last" in refused.message
            # a stale take-back (decided on an old version) is refused too
            await ada.send(protocol.Undo(version=1, token=ada.token))
            assert (await ada.expect(protocol.Rejected, request="undo")).code == "stale"
            await ada.send(protocol.Undo(version=ada.version, token=ada.token))
            undone = await bob.expect(protocol.Undone)
            assert undone.version == 3 and undone.seat == 0
            assert undone.events == [TookBack("red", place)]
            await ada.until(lambda: ada.version == 3)
            assert len(ada.game) == len(bob.game) == len(host.table.match) == 0
            assert ada.game.current_player == "red"
            await host.table.flush()
            saved = json.loads(save.read_text())
            assert saved["actions"] == [] and saved["host"]["version"] == 3
            # once Bob acted, Ada's last action is not hers to take back
            assert isinstance(await ada.reply(await ada.act(SCOUT)), protocol.Ack)
            assert isinstance(await bob.reply(await bob.act(bob.game.legal_actions()[0])), protocol.Ack)
            await ada.until(lambda: ada.version == 5)
            await ada.send(protocol.Undo(version=ada.version, token=ada.token))
            assert (await ada.expect(protocol.Rejected, request="undo")).code == "cannot_undo"
            assert len(host.table.match) == 2


async def test_a_bot_chosen_action_is_not_the_players_to_take_back(autojump_clock):
    async with hosting(config(settings=hex_settings(2, seat_order="seated", turn_timer=5.0))) as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            played = await ada.expect(protocol.Played)  # the timer ran out: a bot played for Ada
            assert played.seat == 0 and played.bot is not None
            await ada.send(protocol.Undo(version=played.version, token=ada.token))
            refused = await ada.expect(protocol.Rejected, request="undo")
            assert refused.code == "cannot_undo" and "bot" in refused.message


async def test_a_resumed_table_after_a_take_back_gives_an_old_client_a_snapshot(autojump_clock, tmp_path):
    save = tmp_path / "game.json"
    async with hosting(config(save=save)) as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            await ada.reply(await ada.act(SCOUT))
            await ada.send(protocol.Undo(version=ada.version, token=ada.token))
            await ada.expect(protocol.Undone)
            await ada.reply(await ada.act(ada.game.legal_actions()[0]))
            await host.table.flush()
            token, seen = bob.token, 2  # Bob saw version 2 (Ada's scout), then lost the link
    async with hosting(config(resume=save)) as (host, connect):
        with trio.fail_after(30):
            assert host.table.version == 4
            bob = await connect()
            await bob.hello()
            await bob.send(protocol.Reclaim(token=token, last_version=seen))
            snapshot = await bob.expect(protocol.Snapshot)
            assert snapshot.version == 4 and len(snapshot.view.moves) == 1
            assert snapshot.bots == [None]


async def test_half_time_holds_the_game_until_every_person_goes_on(autojump_clock):
    settings = hex_settings(2, seat_order="seated", mirror_match=True)
    async with hosting(config(settings=settings)) as (host, connect):
        with trio.fail_after(60):
            ada, bob = await started_pair(connect)
            rng = random.Random(3)
            while not any(isinstance(e, HalfEnded) for e in ada.view.events):
                mover = ada if ada.my_turn() else bob
                await mover.reply(await mover.act(rng.choice(mover.game.legal_actions())))
                await ada.until(lambda: ada.version == host.table.version)
            lobby = await ada.expect(protocol.Lobby, pause="half-time")
            assert {s.label for s in lobby.seats if s.waiting} == {"red", "blue"}
            mover = ada if ada.my_turn() else bob
            refused = await mover.reply(await mover.act(mover.game.legal_actions()[0]))
            assert refused.code == "paused" and "Ada, Bob" in refused.message
            await ada.send(protocol.Continue())
            lobby = await bob.expect(protocol.Lobby, pause="half-time")
            while [s.label for s in lobby.seats if s.waiting] != ["blue"]:
                lobby = await bob.expect(protocol.Lobby)
            await bob.send(protocol.Continue())
            await bob.expect(protocol.Lobby, pause=None)
            assert isinstance(await mover.reply(await mover.act(mover.game.legal_actions()[0])), protocol.Ack)


async def test_half_time_ends_by_itself_after_its_timeout(autojump_clock):
    settings = hex_settings(2, seat_order="seated", mirror_match=True, bots=["random"])
    async with hosting(config(settings=settings)) as (host, connect):
        with trio.fail_after(120):
            ada = await connect()
            await ada.join("Ada")
            await ada.send(protocol.Start())
            await ada.expect(protocol.Started)
            rng = random.Random(4)
            while not any(isinstance(e, HalfEnded) for e in ada.view.events):
                await ada.until(lambda: ada.my_turn() or any(isinstance(e, HalfEnded) for e in ada.view.events))
                if ada.my_turn():
                    await ada.reply(await ada.act(rng.choice(ada.game.legal_actions())))
            await ada.until(lambda: any(lobby.pause for lobby in ada.of(protocol.Lobby)))
            paused = next(lobby for lobby in ada.of(protocol.Lobby) if lobby.pause)
            assert paused.pause == "half-time" and paused.pause_left == host.table.pause_timeout
            assert [s.label for s in paused.seats if s.waiting] == [ada.label]  # not the bot
            ends = host.table.pause.until
            await ada.until(lambda: ada.lobby.pause is None)
            assert trio.current_time() == ends
            await ada.until(lambda: ada.my_turn() or bool(ada.game.tokens))  # play goes on


async def test_a_rematch_starts_when_every_person_asked_with_the_order_rotated(autojump_clock, tmp_path):
    save = tmp_path / "game.json"
    async with hosting(config(save=save)) as (host, connect):
        with trio.fail_after(60):
            ada, bob = await started_pair(connect)
            first = host.table.match
            await ada.send(protocol.Rematch())
            assert (await ada.expect(protocol.Rejected, request="rematch")).code == "not_finished"
            async with trio.open_nursery() as n:
                n.start_soon(ada.play_randomly, random.Random(1))
                n.start_soon(bob.play_randomly, random.Random(2))
            version = host.table.version
            await host.table.flush()
            finished = save.read_text()
            await ada.send(protocol.Rematch())
            lobby = await bob.expect(protocol.Lobby, phase="finished")
            while not any(s.rematch for s in lobby.seats):
                lobby = await bob.expect(protocol.Lobby)
            assert [s.label for s in lobby.seats if s.rematch] == ["red"]
            await bob.send(protocol.Rematch())
            started = await bob.expect(protocol.Started)
            assert started.version == version + 1
            await ada.expect(protocol.Started)
            lobby = await bob.expect(protocol.Lobby, phase="playing")
            assert lobby.game == 2 and not any(s.rematch for s in lobby.seats)
            assert host.table.match is not first
            assert list(host.table.match.labels) == list(first.labels[1:] + first.labels[:1])
            assert save.read_text() == finished  # the finished game's file is kept as it was
            assert json.loads(numbered(save, 2).read_text())["actions"] == []


def test_numbered_save_files_keep_the_extension():
    from pathlib import Path

    assert numbered(Path("d/game.json"), 1) == Path("d/game.json")
    assert numbered(Path("d/game.json"), 2) == Path("d/game-2.json")
    assert numbered(Path("w-1.waddle.json"), 3) == Path("w-1-3.waddle.json")


async def test_a_rematch_waits_only_for_the_people_still_at_the_table(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(60):
            ada, bob = await started_pair(connect)
            async with trio.open_nursery() as n:
                n.start_soon(ada.play_randomly, random.Random(3))
                n.start_soon(bob.play_randomly, random.Random(4))
            await ada.send(protocol.Rematch())
            await ada.until(lambda: any(s.rematch for s in ada.lobby.seats))
            assert host.table.phase == "finished"  # Bob has not asked
            await bob.stream.aclose()  # his link drops: his seat is held for a reclaim
            started = await ada.expect(protocol.Started)
            assert host.table.games == 2 and started.version == host.table.version
            assert [s.name for s in host.table.seats] == ["Bob", "Ada"]


async def play_to_the_end(clients) -> None:
    async with trio.open_nursery() as n:
        for i, client in enumerate(clients):
            n.start_soon(client.play_randomly, random.Random(10 + i))


async def test_a_player_who_left_the_finished_table_is_not_seated_in_the_rematch_a_bot_is(autojump_clock):
    async with hosting(config(settings=hex_settings(2, seat_order="seated", bots=["greedy"]))) as (host, connect):
        with trio.fail_after(60):
            ada, bob = await started_pair(connect)
            await play_to_the_end([ada, bob])
            await bob.send(protocol.Leave())  # q at GAME OVER
            await ada.until(lambda: not any(s.connected for s in ada.lobby.seats if s.name == "Bob"))
            await ada.send(protocol.Rematch())
            await ada.expect(protocol.Started)
            lobby = await ada.expect(protocol.Lobby, phase="playing")
            assert [(s.name, s.bot) for s in lobby.seats] == [("Ada", None), ("Pingu (greedy bot)", "greedy")]
            assert lobby.game == 2 and host.table.settings.players == 2
            assert not host.table.standins  # nobody away is played for


async def test_a_rematch_without_bots_is_played_by_the_people_still_at_the_table(autojump_clock):
    async with hosting(config(prepared=None, settings=hex_settings(4, seat_order="seated"))) as (host, connect):
        with trio.fail_after(120):
            clients = [await connect() for _ in range(4)]
            for client, name in zip(clients, ("Ada", "Bob", "Cy", "Di")):
                await client.join(name)
            ada, bob, cy, di = clients
            await ada.send(protocol.Start())
            for client in clients:
                await client.expect(protocol.Started)
            await play_to_the_end(clients)
            await cy.send(protocol.Rematch())
            await cy.until(lambda: any(s.rematch for s in cy.lobby.seats))
            await cy.send(protocol.Leave())  # asked, then pressed q after all
            for client in (ada, bob, di):
                await client.send(protocol.Rematch())
            await ada.expect(protocol.Started)
            lobby = await ada.expect(protocol.Lobby, phase="playing")
            assert [s.name for s in lobby.seats] == ["Bob", "Di", "Ada"]  # rotated: Ada opened game 1
            assert lobby.settings.players == 3 and lobby.game == 2
            assert list(host.table.match.labels) == [s.label for s in lobby.seats]


async def test_a_rematch_too_few_are_left_for_is_refused_saying_who_left(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(60):
            ada, bob = await started_pair(connect)
            await play_to_the_end([ada, bob])
            await ada.send(protocol.Rematch())
            await ada.until(lambda: any(s.rematch for s in ada.lobby.seats))
            await bob.send(protocol.Leave())
            refused = await ada.expect(protocol.Rejected, request="rematch")
            assert refused.code == "cannot_start"
            assert "Bob left the table" in refused.message and "needs 2 players" in refused.message
            assert host.table.phase == "finished" and host.table.games == 1
            await ada.until(lambda: not any(s.rematch for s in ada.lobby.seats))


async def test_a_player_who_left_and_came_back_to_the_finished_table_plays_the_rematch(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(60):
            ada, bob = await started_pair(connect)
            await play_to_the_end([ada, bob])
            await bob.send(protocol.Leave())
            again = await connect()
            await again.hello()
            await again.send(protocol.Reclaim(token=bob.token, last_version=0))
            await again.expect(protocol.Seated)
            await ada.send(protocol.Rematch())
            await again.send(protocol.Rematch())
            await again.expect(protocol.Started)
            assert [s.name for s in host.table.seats] == ["Bob", "Ada"]
