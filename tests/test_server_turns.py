"""A host tells the connections that asked who may act and what their seat may send
(``hello.to_act``, ``hello.legal``; docs/protocol.md, "Whose turn, and what is legal"),
answers ``sync`` with a snapshot, and in Waddle Downtown's simultaneous setup judges a
seat's action stale only by what that seat sees.

Whole games are played by bots that know no rules (``examples/stdlib_bot.py``: it sends
a random entry of ``legal``) on every seat of a real host on 127.0.0.1, port 0, and
every frame they got is checked against the committed schema.
"""

from __future__ import annotations

import json
import threading

import msgspec
import pytest
import trio
from msgspec import UNSET
from test_cli_demo import host_in_thread
from test_examples import load
from test_schema_frames import RecordingPeer, check_all, frames
from test_server_kit import HEX, hex_settings, hosting, started_pair

import protocol
from server import ServerConfig
from server.connection import Limits
from server.table import Table
from server.turns import with_fields
from waddle.downtown.actions import Discard
from waddle.downtown.options import DowntownOptions
from waddle.hex.options import StandardMap
from waddle.ruleset import get_ruleset

DOWNTOWN = get_ruleset("downtown")
#: Bots that play each other as fast as the host answers send more than the 20 messages a
#: second a person's client is allowed.
FAST = Limits(burst=1000, rate=1000)


# -- a frame told who acts ---------------------------------------------------------------------


@pytest.mark.parametrize("game", ["hex", "downtown"])
def test_a_frame_told_who_acts_is_the_plain_frame_with_the_fields_appended_byte_for_byte(game):
    ruleset = get_ruleset(game)
    options = ruleset.options_type()
    labels = [look.label for look in ruleset.seats[:3]]
    match = ruleset.new_match(ruleset.prepare(options, 3, 2), options, labels)
    seat = min(match.to_act())
    legal = match.legal(seat)
    events = match.apply(seat, msgspec.json.decode(msgspec.json.encode(legal[0]), type=ruleset.action_type))
    messages = [protocol.Started(version=1, view=match.view(1)),
                protocol.Played(version=2, seat=seat, events=match.redact(events, 1), bot="random"),
                protocol.Undone(version=3, seat=seat, events=match.redact(events, None))]
    for message in messages:
        for fields in ({}, {"to_act": [1]}, {"to_act": [0, 2], "legal": legal}):
            assert with_fields(protocol.encode(message), fields) == \
                protocol.encode(msgspec.structs.replace(message, **fields))


# -- the hex game, over the host's connections ------------------------------------------------


async def test_the_seat_to_act_is_told_its_legal_actions_a_watcher_who_acts_a_lean_client_nothing(autojump_clock):
    async with hosting() as (host, connect):
        ada, bob, eve = await connect(), await connect(), await connect()
        ada.asks, eve.asks = {"legal": True}, {"to_act": True}
        with trio.fail_after(60):
            await ada.join("Ada")  # seat 0 (seats as seated): red, first to act
            await bob.join("Bob")
            await eve.hello()
            await eve.send(protocol.Watch(name="Eve"))
            await eve.expect(protocol.Watching)
            await ada.send(protocol.Start())
            started = [await c.expect(protocol.Started) for c in (ada, bob, eve)]
            assert (started[0].to_act, started[0].legal) == ([0], list(ada.game.legal_actions()))
            assert (started[1].to_act, started[1].legal) == (UNSET, UNSET)
            assert (started[2].to_act, started[2].legal) == ([0], UNSET)
            await ada.reply(await ada.act(started[0].legal[0]))  # a place: then Bob's turn
            played = [c.of(protocol.Played)[-1] for c in (ada, bob, eve)]
            assert [(p.to_act, p.legal) for p in played] == [([1], UNSET), (UNSET, UNSET), ([1], UNSET)]
            await bob.reply(await bob.act(bob.game.legal_actions()[0]))
            await ada.until(lambda: ada.version == 3)
            mine = ada.of(protocol.Played)[-1]
            assert (mine.to_act, mine.legal) == ([0], list(ada.game.legal_actions()))
            await ada.reply(await ada.act(ada.game.legal_actions()[0]))
            await ada.send(protocol.Undo(version=4, token=ada.token))  # ada's turn again: told so
            undone = await ada.expect(protocol.Undone)
            assert (undone.to_act, undone.legal) == ([0], list(ada.game.legal_actions()))
    assert not any(b"to_act" in protocol.encode(m) for m in bob.received)


async def test_sync_answers_a_snapshot_on_the_same_connection_and_needs_a_seat_or_a_watcher(autojump_clock):
    async with hosting() as (host, connect):
        ada, bob, stranger = await connect(), await connect(), await connect()
        ada.asks = {"legal": True}
        with trio.fail_after(60):
            await ada.join("Ada")
            await bob.join("Bob")
            await bob.send(protocol.Sync())  # in the lobby: no view, nobody to act
            lobby = await bob.expect(protocol.Snapshot, version=0)
            assert lobby.view is None and lobby.to_act is UNSET
            await ada.send(protocol.Start())
            await ada.expect(protocol.Started)
            await bob.expect(protocol.Started)
            await bob.reply(await bob.act(bob.game.legal_actions()[0]))  # not bob's turn: refused
            await ada.send(protocol.Sync())
            again = await ada.expect(protocol.Snapshot, version=1)
            assert again.view == host.table.match.view(0)
            assert (again.to_act, again.legal) == ([0], list(ada.game.legal_actions()))
            await bob.send(protocol.Sync())
            assert (await bob.expect(protocol.Snapshot, version=1)).to_act is UNSET
            await stranger.hello()
            await stranger.send(protocol.Sync())
            refused = await stranger.expect(protocol.Rejected)
            assert (refused.request, refused.code) == ("sync", "not_joined")


async def test_a_reclaim_that_catches_up_by_events_tells_who_acts_with_the_last(autojump_clock):
    async with hosting() as (host, connect):
        with trio.fail_after(60):
            ada, bob = await started_pair(connect)
            await ada.reply(await ada.act(ada.game.legal_actions()[0]))
            await bob.until(lambda: bob.version == 2)
            await bob.reply(await bob.act(bob.game.legal_actions()[0]))
            back = await connect()
            back.asks = {"legal": True}
            await back.hello()
            back.version, back.view = 1, HEX.follow(ada.of(protocol.Started)[0].view, ada.label)
            await back.send(protocol.Reclaim(token=ada.token, last_version=1))
            await back.until(lambda: len(back.of(protocol.Played)) == 2)
            missed = back.of(protocol.Played)
            assert [m.version for m in missed] == [2, 3]
            assert (missed[0].to_act, missed[0].legal) == (UNSET, UNSET)
            assert (missed[1].to_act, missed[1].legal) == ([0], list(host.table.match.legal(0)))


# -- Waddle Downtown's simultaneous setup, at a table called directly ---------------------------


def downtown_table(seed: int = 1) -> tuple[Table, list[RecordingPeer]]:
    """A started three-seat Downtown table (seats as seated: Ada the start player, then Bob
    and Cy, who choose their setup discards at the same time), every peer asking for legal."""
    table = Table(protocol.Settings(players=3, seat_order="seated"), ruleset=DOWNTOWN, seed=seed)
    peers = [RecordingPeer(name) for name in ("Ada", "Bob", "Cy")]
    for peer in peers:
        peer.asks = "legal"
        table.handle(peer, protocol.Join(name=peer.name))
    table.start()
    return table, peers


def act(table: Table, peer: RecordingPeer, version: int, action, id: str = "1") -> dict:
    """``peer``'s act decided on ``version``, ``action`` (an entry of a legal list) as the
    host decodes it from the wire; the host's answer (its ``ack`` or ``rejected``)."""
    action = msgspec.json.decode(msgspec.json.encode(action), type=DOWNTOWN.action_type)
    table.handle(peer, protocol.Act(id=id, version=version, token=peer.seat.token, action=action))
    return next(m for m in reversed(frames(bytes(peer.data))) if m["type"] in ("ack", "rejected"))


async def test_downtown_another_seats_hidden_discard_leaves_a_seats_decision_fresh():
    table, (ada, bob, cy) = downtown_table()
    started = {p.name: next(m for m in frames(bytes(p.data)) if m["type"] == "started") for p in (ada, bob, cy)}
    hand = table.match.state.hands[1]
    assert started["Bob"]["to_act"] == [1, 2]
    assert started["Bob"]["legal"] == [{"type": "discard", "card": table.match.state.name(c)} for c in sorted(set(hand))]
    assert started["Ada"]["to_act"] == [1, 2] and "legal" not in started["Ada"]  # the start player discards none
    choice = Discard(started["Bob"]["legal"][0]["card"])
    assert act(table, cy, 1, Discard(started["Cy"]["legal"][0]["card"]))["type"] == "ack"  # version 2
    assert act(table, bob, 1, choice) == {"type": "ack", "id": "1", "version": 3, "duplicate": False}
    assert table.match.state.phase == "play"  # the last discard revealed them all


async def test_downtown_an_action_decided_before_an_event_that_changed_the_seats_options_is_stale():
    table, (ada, bob, cy) = downtown_table()
    for peer, seat in ((bob, 1), (cy, 2)):
        act(table, peer, 1, table.match.legal(seat)[0])
    assert table.version == 3 and table.match.to_act() == {0}
    bobs = frames(bytes(bob.data))[-1]  # the reveal (Cy's discard, the last): Ada to act
    assert bobs["type"] == "played" and bobs["to_act"] == [0] and "legal" not in bobs
    assert act(table, ada, 3, table.match.legal(0)[0])["type"] == "ack"  # version 4: Bob's turn
    told = frames(bytes(bob.data))[-1]
    assert told["to_act"] == [1] and told["legal"] == json.loads(msgspec.json.encode(table.match.legal(1)))
    refused = act(table, bob, 3, table.match.legal(1)[0], id="2")  # decided before Ada's play
    assert (refused["code"], refused["message"]) == (
        "stale", "decided on version 3, before version 4, which changed what you may do")
    assert act(table, bob, 9, table.match.legal(1)[0], id="3")["code"] == "stale"  # ahead of the table
    assert act(table, bob, 4, table.match.legal(1)[0], id="4")["type"] == "ack"


async def test_downtown_a_seat_learns_nothing_of_the_hidden_discard_it_was_spared_for():
    """Two tables dealt alike, where Cy discards different cards: Bob's frames (but his
    seat's random token), and the answer to his own discard decided before Cy's, are the
    same until the reveal."""
    seen = []
    for pick in (0, -1):
        table, (ada, bob, cy) = downtown_table(seed=5)
        act(table, cy, 1, table.match.legal(2)[pick])
        before = [m for m in frames(bytes(bob.data)) if m["type"] != "seated"]  # (a random token)
        answer = act(table, bob, 1, table.match.legal(1)[0])
        seen.append((before, answer["type"], answer["version"]))
    assert seen[0] == seen[1] and seen[0][1:] == ("ack", 3)


# -- whole games played by bots that know no rules -----------------------------------------------


def rules_free_bots(config: ServerConfig, seats: int) -> tuple[object, list[list[dict]]]:
    """A whole game on a real host (127.0.0.1, port 0) with ``examples/stdlib_bot.py`` on
    every seat, each in its own thread; the host and every message each bot received."""
    received: list[list[dict]] = [[] for _ in range(seats)]
    failures: list[BaseException] = []
    with host_in_thread(config) as (host, port):
        def bot(number: int) -> None:
            module = load("stdlib_bot")  # a module of its own, its receive recording
            receive = module.receive

            def recorded(sock):
                message = receive(sock)
                received[number].append(message)
                return message

            module.receive = recorded
            try:
                module.play("127.0.0.1", port, f"Bot {number}", seed=number)
            except BaseException as exc:  # reported by the test
                failures.append(exc)

        threads = [threading.Thread(target=bot, args=(n,)) for n in range(seats)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not any(t.is_alive() for t in threads), "a bot did not finish in 120 s"
    assert not failures, failures
    return host, received


def test_rules_free_bots_play_a_whole_hex_mirror_match_through_half_time():
    settings = hex_settings(2, mirror_match=True, map=StandardMap(seed=3))
    host, received = rules_free_bots(ServerConfig(port=0, settings=settings, seed=3, limits=FAST), 2)
    match = host.table.match
    assert match.is_over and host.table.bot_kinds == [None] * len(match)  # every move a bot's own
    messages = [m for got in received for m in got]
    check_all("hex", messages)
    assert any(m.get("pause") == "half-time" for m in messages if m["type"] == "lobby")
    assert sum(1 for m in messages if "legal" in m) >= len(match)


@pytest.mark.parametrize("players, single", [(3, True), (4, False)])
def test_rules_free_bots_play_a_whole_game_of_downtown(players, single):
    settings = protocol.Settings(players=players, options=DowntownOptions(single_deck=single))
    config = ServerConfig(port=0, settings=settings, seed=players, game="downtown", limits=FAST)
    host, received = rules_free_bots(config, players)
    match = host.table.match
    assert match.is_over and host.table.bot_kinds == [None] * len(match)
    messages = [m for got in received for m in got]
    check_all("downtown", messages)
    legal = [e for m in messages for e in m.get("legal", ())]
    assert any(e["type"] == "discard" for e in legal) and any(e.get("spread") for e in legal)
    if single:
        assert any(e["type"] == "draw" for e in legal)
