"""Server authority: every rejection code, the check order, duplicates, reconnects and resume."""

import json
import random
from pathlib import Path

import pytest
import trio
from test_server_kit import (
    HEX,
    MAP2,
    config,
    hex_settings,
    hosting,
    on_map,
    seated_pair,
    started_pair,
)

import protocol
from waddle import SCOUT, Place
from waddle.hex.options import BundledMap, HexOptions
from waddle.hex.record import from_record
from waddle.ruleset import get_ruleset


async def test_every_act_rejection_code_and_nothing_changes(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(20):
            ada, bob = await seated_pair(connect)
            spy = await connect()
            await spy.hello()
            await spy.send(protocol.Watch())
            await spy.expect(protocol.Snapshot)

            async def rejected(client, **kw):
                id = await client.act(kw.pop("action", SCOUT), **kw)
                reply = await client.reply(id)
                assert isinstance(reply, protocol.Rejected), reply
                return reply.code

            assert await rejected(ada) == "not_started"
            await ada.send(protocol.Start())
            await bob.expect(protocol.Started)
            await ada.until(lambda: ada.version == 1)
            table = host.table
            before = table.match.record()
            assert await rejected(spy, token="") == "bad_token"
            assert await rejected(bob, token=ada.token) == "bad_token"
            assert await rejected(ada, token=ada.token + "x") == "bad_token"
            assert await rejected(bob) == "not_your_turn"
            assert await rejected(ada, action=Place((99, 99))) == "illegal"
            water = next(iter(ada.game.map.water))
            assert await rejected(ada, action=Place(water)) == "illegal"
            assert await rejected(ada, action=SCOUT, version=0) == "stale"
            assert await rejected(ada, action=SCOUT, version=7) == "stale"
            assert table.match.record() == before and table.version == 1
            # the order: a stale, illegal action by the wrong seat is "not_your_turn"
            assert await rejected(bob, action=Place((99, 99)), version=0) == "not_your_turn"
            # and with a wrong token, "bad_token" before everything else
            assert await rejected(bob, action=Place((99, 99)), version=0, token="nope") == "bad_token"
            assert table.match.record() == before


async def _first_failed_check(failing: tuple[str, str]) -> str:
    """Send one act that fails both checks of ``failing`` (codes of ``ACT_CHECKS``) and
    return the code the host answers: the earlier check must win."""
    async with hosting() as (host, connect):
        with trio.fail_after(60):
            ada, bob = await seated_pair(connect)  # Ada (red) acts first: seats in seated order
            if "not_started" not in failing:
                await ada.send(protocol.Start())
                await bob.until(lambda: bob.version == 1)
            if "game_over" in failing:
                async with trio.open_nursery() as n:
                    n.start_soon(ada.play_randomly, random.Random(1))
                    n.start_soon(bob.play_randomly, random.Random(2))
            actor = bob if "not_your_turn" in failing and "game_over" not in failing else ada
            id = await actor.act(Place((99, 99)) if "illegal" in failing else SCOUT,
                                 token="nope" if "bad_token" in failing else None,
                                 version=0 if "stale" in failing else None)
            return (await actor.reply(id)).code


@pytest.mark.parametrize("failing", [
    ("bad_token", "not_started"), ("bad_token", "game_over"), ("bad_token", "not_your_turn"),
    ("game_over", "not_your_turn"), ("game_over", "stale"), ("not_your_turn", "illegal"),
    ("not_your_turn", "stale"), ("illegal", "stale"),
])
async def test_the_act_checks_run_in_the_documented_order(autojump_clock, failing):
    # ACT_CHECKS is the order docs/protocol.md documents; each pair here fails both checks
    assert list(failing) == sorted(failing, key=protocol.ACT_CHECKS.index)
    assert await _first_failed_check(failing) == failing[0]


def test_the_documented_check_table_follows_act_checks():
    doc = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = [line for line in doc.split("## Actions and the check order")[1].split("\n## ")[0]
             .splitlines() if line.startswith("| ") and "`" in line]
    codes = [line.split("|")[3].strip().strip("`") for line in table]
    assert [c for c in codes if c in protocol.ACT_CHECKS] == list(protocol.ACT_CHECKS)


async def test_game_over_rejection(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            async with trio.open_nursery() as n:
                n.start_soon(ada.play_randomly, random.Random(5))
                n.start_soon(bob.play_randomly, random.Random(6))
            id = await ada.act(SCOUT)
            reply = await ada.reply(id)
    assert reply.code == "game_over"


async def test_a_bundled_map_is_refused_for_more_players_than_it_suits(autojump_clock):
    async with hosting(config(prepared=None)) as (host, connect):
        with trio.fail_after(20):
            ada = await connect()
            await ada.join("Ada")
            await ada.send(protocol.Configure(settings=hex_settings(5, map=BundledMap(name="lagoon"))))
            reply = await ada.expect(protocol.Rejected)
            assert reply.code == "bad_settings" and "'lagoon' is for 2 to 3 players, not 5" in reply.message
            assert host.table.settings.players == 2


async def test_lobby_rejections(autojump_clock):
    async with hosting(config(code="fjord")) as (host, connect):
        with trio.fail_after(20):
            ada = await connect()
            assert (await ada.hello()).code_required
            await ada.send(protocol.Say(text="hi"))
            assert (await ada.expect(protocol.Rejected)).code == "not_joined"
            await ada.send(protocol.Start())
            assert (await ada.expect(protocol.Rejected)).code == "not_joined"
            await ada.send(protocol.Join(name="Ada", code="wrong"))
            assert (await ada.expect(protocol.Rejected)).code == "bad_code"
            wrong = host.table.guard.wrong
            await ada.send(protocol.Join(name="Ada"))
            refused = await ada.expect(protocol.Rejected)
            assert (refused.code, refused.message) == ("code_required", "this table needs a join code")
            await ada.send(protocol.Watch())
            assert (await ada.expect(protocol.Rejected)).code == "code_required"
            assert host.table.guard.wrong == wrong  # no code is not a wrong guess
            await ada.send(protocol.Watch(code="nope"))
            assert (await ada.expect(protocol.Rejected)).code == "bad_code"
            assert host.table.guard.wrong == wrong + 1  # (counted where this test looks)
            await ada.send(protocol.Join(name="Ada", code="fjord"))
            await ada.expect(protocol.Seated)
            await ada.send(protocol.Join(name="Ada", code="fjord"))
            assert (await ada.expect(protocol.Rejected)).code == "already_joined"
            await ada.send(protocol.Start())
            reply = await ada.expect(protocol.Rejected)
            assert reply.code == "cannot_start" and "no bots" in reply.message
            await ada.send(protocol.Configure(settings=hex_settings(2, map=BundledMap(name="no-such-map"))))
            assert (await ada.expect(protocol.Rejected)).code == "bad_settings"
            bob, cy = await connect(), await connect()
            await bob.join("Bob", code="fjord")
            await cy.hello()
            await cy.send(protocol.Join(name="Cy", code="fjord"))
            assert (await cy.expect(protocol.Rejected)).code == "table_full"
            await ada.send(protocol.Configure(settings=hex_settings(2)))
            await ada.expect(protocol.Lobby)
            await bob.send(protocol.Start())
            assert (await bob.expect(protocol.Rejected)).code == "not_owner"
            await ada.send(protocol.Start())
            await cy.send(protocol.Join(name="Cy", code="fjord"))
            assert (await cy.expect(protocol.Rejected)).code == "started"
            await ada.send(protocol.Ready())
            assert (await ada.expect(protocol.Rejected)).code == "started"
            await ada.send(protocol.Configure(settings=hex_settings()))
            assert (await ada.expect(protocol.Rejected)).code == "started"
            await cy.send(protocol.Reclaim(token="not-a-token", last_version=0))
            assert (await cy.expect(protocol.Rejected)).code == "bad_token"
    # every rejection code is documented
    doc = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text()
    for code in protocol.REJECTIONS:
        assert f"`{code}`" in doc


async def test_duplicate_action_id_is_applied_at_most_once(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(20):
            ada, bob = await started_pair(connect)
            id = await ada.act(SCOUT, id="same")
            first = await ada.reply(id)
            await ada.act(SCOUT, id="same", version=1)
            again = await ada.reply("same")
            await bob.until(lambda: bob.version == 2)
    assert isinstance(first, protocol.Ack) and not first.duplicate
    assert isinstance(again, protocol.Ack) and again.duplicate and again.version == first.version == 2
    assert len(host.table.match.game) == 1


async def test_reconnect_gets_exactly_the_missed_events_and_resends_safely(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            place = ada.game.legal_actions()[0]
            await ada.act(place, id="p1")
            await ada.reply("p1")
            await ada.stream.aclose()  # Ada's link drops
            await bob.until(lambda: not bob.lobby.seats[0].connected)
            seen = ada.version
            for _ in range(3):  # Bob plays on (scouting is legal: Ada is on the other track)
                while bob.my_turn() is False:
                    await bob.until(bob.my_turn)
                id = await bob.act(bob.game.legal_actions()[0])
                await bob.reply(id)
                if not bob.my_turn():
                    break
            missed = host.table.version - seen
            assert missed >= 1
            back = await connect()
            back.view, back.version, back.label = ada.view, ada.version, ada.label
            await back.hello()
            await back.send(protocol.Reclaim(token=ada.token, last_version=seen))
            await back.expect(protocol.Seated, label=ada.label)
            await back.until(lambda: back.version == host.table.version)
            # resending the already-acknowledged action with the same id: acknowledged, not replayed
            await back.act(place, id="p1", version=seen - 1)
            dup = await back.reply("p1")
    events = back.of(protocol.Played)
    assert [e.version for e in events] == list(range(seen + 1, host.table.version + 1))
    assert not back.of(protocol.Snapshot)
    assert dup.duplicate and dup.version == seen
    assert back.game.moves == host.table.match.game.moves


async def test_reclaim_from_version_zero_or_unknown_gets_a_snapshot(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(20):
            ada, bob = await started_pair(connect)
            await ada.act(SCOUT)
            await bob.until(lambda: bob.version == 2)
            for last in (0, 99):
                again = await connect()
                await again.hello()
                await again.send(protocol.Reclaim(token=bob.token, last_version=last))
                snap = await again.expect(protocol.Snapshot)
                assert snap.version == 2 and HEX.follow(snap.view, None).game.moves == host.table.match.game.moves
                # the old connection is told it was replaced
                old = bob
                assert (await old.expect(protocol.Closing)).code == "replaced"
                bob = again
            assert [s.name for s in snap.lobby.seats] == ["Ada", "Bob"]


async def test_tokens_are_never_broadcast_or_logged(autojump_clock, caplog):
    caplog.set_level("DEBUG")
    async with hosting(config(save=None)) as (host, connect):
        with trio.fail_after(20):
            ada, bob = await started_pair(connect)
            await ada.act(SCOUT, token=bob.token)
            await ada.expect(protocol.Rejected)
            await ada.stream.aclose()
            await bob.until(lambda: not bob.lobby.seats[0].connected)
            again = await connect()
            await again.hello()
            await again.send(protocol.Reclaim(token=ada.token, last_version=1))
            await again.expect(protocol.Seated)
    secrets = [ada.token, bob.token]
    for client in (ada, bob):
        others = [t for t in secrets if t != client.token]
        for message in client.received:
            text = protocol.encode(message)[4:].decode()
            assert not any(t in text for t in others)
            if not isinstance(message, protocol.Seated):
                assert client.token not in text
    assert not any(t in caplog.text for t in secrets)


async def test_resume_after_the_host_is_killed_mid_game(tmp_path, autojump_clock):
    save = tmp_path / "game.json"
    with trio.fail_after(120):
        async with hosting(config(save=save)) as (host, connect):
            ada, bob = await started_pair(connect)
            for _ in range(6):
                seat = ada if ada.my_turn() else bob
                await seat.until(seat.my_turn)
                id = await seat.act(seat.game.legal_actions()[-1])
                assert isinstance(await seat.reply(id), protocol.Ack)
            await host.table.flush()
            version, moves = host.table.version, host.table.match.game.moves
            # the host dies here: its nursery is cancelled, nothing more is written
        data = json.loads(save.read_text())
        assert data["format"] == "waddle-record" and len(data["actions"]) == 6
        async with hosting(config(resume=save)) as (host2, connect):
            assert host2.table.version == version and host2.table.match.game.moves == moves
            assert host2.table.phase == "playing"
            back_a, back_b = await connect(), await connect()
            for back, old in ((back_a, ada), (back_b, bob)):
                assert (await back.hello()).phase == "playing"
                back.view, back.version = old.view, old.version
                await back.send(protocol.Reclaim(token=old.token, last_version=old.version))
                await back.expect(protocol.Seated, label=old.label, name=old.lobby.seats[
                    [s.label for s in old.lobby.seats].index(old.label)].name)
            async with trio.open_nursery() as n:
                n.start_soon(back_a.play_randomly, random.Random(7))
                n.start_soon(back_b.play_randomly, random.Random(8))
            await host2.table.flush()
    final = json.loads(save.read_text())
    assert from_record(final).is_over and from_record(final).moves[:6] == moves
    assert back_a.game.moves == back_b.game.moves == from_record(final).moves


async def test_resume_refuses_a_file_that_is_not_a_save(tmp_path):
    from server import Host
    from waddle import RecordError
    bad = tmp_path / "bad.json"
    for text in ("not json", "[]", json.dumps({"format": "waddle-record"})):
        bad.write_text(text)
        with pytest.raises(RecordError, match="bad.json"):
            Host(config(resume=bad))
    # a plain game record (no "host" part) is not a host's save file
    game = HEX.new_match(on_map(MAP2), HexOptions(), ["red", "blue"])
    bad.write_text(json.dumps(game.record()))
    with pytest.raises(RecordError, match=r"bad.json is a game record, not a host save file: resume needs "
                                          r"the file written by the host's --save$"):
        Host(config(resume=bad))
    # a save whose record was tampered with: refused, naming the file and the action
    saved = {**game.record(), "actions": [{"player": "blue", "type": "scout"}],
             "host": {"protocol": 1, "settings": {"players": 2}, "bots": [None],
                      "seats": [{"colour": "red", "name": "A", "token": "t"},
                                {"colour": "blue", "name": "B", "token": "u"}]}}
    bad.write_text(json.dumps(saved))
    with pytest.raises(RecordError, match=r"bad.json: actions\[0\]"):
        Host(config(resume=bad))


def test_resume_refuses_a_save_nested_too_deeply_or_too_large_naming_it(tmp_path):
    from server import Host
    from waddle import RecordError
    from waddle.files import MAX_RECORD_BYTES
    bad = tmp_path / "bad.json"
    bad.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="bad.json: cannot read the saved game: nested too deeply$"):
        Host(config(resume=bad))
    bad.write_text(" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordError, match=f"bad.json: cannot read the saved game: the file is too large: "
                                          f"over the {MAX_RECORD_BYTES:,}-byte cap$"):
        Host(config(resume=bad))


async def test_a_returning_spectator_gets_exactly_the_missed_events(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(30):
            ada, bob = await started_pair(connect)
            eve = await connect()
            await eve.hello()
            await eve.send(protocol.Watch(name="Eve"))
            await eve.expect(protocol.Snapshot)
            await eve.stream.aclose()
            await ada.act(SCOUT)
            await bob.until(lambda: bob.version == 2 and bob.my_turn())
            await bob.act(bob.game.legal_actions()[0])
            await ada.until(lambda: ada.version == 3)
            back = await connect()
            back.view, back.version = eve.view, eve.version
            await back.hello()
            await back.send(protocol.Watch(name="Eve", last_version=eve.version))
            await back.expect(protocol.Watching)
            await back.expect(protocol.Lobby)
            await back.send(protocol.Act(id="x", version=3, token="", action=SCOUT))
            reply = await back.reply("x")
    assert [m.version for m in back.of(protocol.Played)] == [2, 3]
    assert not back.of(protocol.Snapshot) and back.game.moves == host.table.match.game.moves
    assert reply.code == "bad_token"  # spectators cannot act


async def test_a_save_written_by_protocol_1_resumes_and_its_seat_is_reclaimed(tmp_path, autojump_clock):
    # tests/data/save-files/protocol-1.json: written by the host before protocol 2 (seats by
    # colour, the hex options among the settings: real-time score on), 6 actions in, Ada
    # (red) against a bot
    old = json.loads((Path(__file__).parent / "data" / "save-files" / "protocol-1.json").read_text())
    save = tmp_path / "old.json"
    save.write_text(json.dumps(old))
    async with hosting(config(resume=save, prepared=None)) as (host, connect):
        table = host.table
        assert table.phase == "playing" and table.version == 1 + len(old["actions"]) == 7
        assert [s.label for s in table.seats] == ["red", "blue"] and table.settings.players == 2
        with trio.fail_after(20):
            ada = await connect()
            await ada.hello()
            await ada.send(protocol.Reclaim(token=old["host"]["seats"][0]["token"], last_version=0))
            await ada.expect(protocol.Seated, label="red", name="Ada")
            snapshot = await ada.expect(protocol.Snapshot)
    assert len(snapshot.view.moves) == 6
    assert snapshot.lobby.settings.options == HexOptions(realtime_score=True)  # moved into options
    assert snapshot.lobby.settings.bots == ["random"]


def test_the_game_converts_its_own_old_settings_and_the_host_only_the_seats():
    old = json.loads((Path(__file__).parent / "data" / "save-files" / "protocol-1.json").read_text())
    settings = old["host"]["settings"]
    assert get_ruleset("hex").upgrade_settings(settings, 1) == {
        "players": 2, "turn_timer": None, "bots": ["random"], "seat_order": "random",
        "options": {"map": {"kind": "standard", "seed": None}, "mirror_match": False, "realtime_score": True}}
    today = {"players": 3, "options": {"mirror_match": True}}
    assert get_ruleset("hex").upgrade_settings(today, 2) == today
    assert get_ruleset("downtown").upgrade_settings(today, 1) == today
