"""The committed schema (protocol/schema.json) validates every frame a host sends, checked
by a standard validator (``jsonschema``, Draft 2020-12), over recorded whole games:

- Waddle Downtown through the recording proxy of ``tests/test_downtown_secrets.py``
  (two seats; three seats with a single deck): reconnects that cut frames, spectators
  and a returning player given snapshots with the game's history;
- a Downtown tie-break, played at a table from a hand-built position (random games
  almost never tie);
- a hex mirror match between two people: chat, pings both ways, a refused action, a
  take-back, half-time and ``continue``, a spectator's and a returning player's
  snapshots, a reclaim that catches up by events, the end and a ``leave``; one player,
  the spectator and the returning player asked to be told who acts and what is legal
  (``to_act``, ``legal``; whole games of bots that know no rules, every frame checked
  too, are in ``tests/test_server_turns.py``).

Between them every message type the host sends appears (asserted), and each game's
frames are checked against that game's section (``welcome.game``).
"""

from __future__ import annotations

import json
import random
import struct

import jsonschema
import pytest
import trio
from downtown_kit import add, play, position
from test_downtown_secrets import play_recorded
from test_server_kit import HEX, config, hex_settings, hosting

import protocol
from protocol import schema
from protocol.framing import FramedStream
from server.connection import Limits
from server.table import Table
from waddle.ruleset import get_ruleset

#: Every message type a host sends.
SERVER_TYPES = {getattr(kind, "__origin__", kind).__struct_config__.tag for kind in protocol.ServerMessage.__args__}


def validator(game: str) -> jsonschema.Draft202012Validator:
    """A validator of the host's messages of ``game``, from the committed schema file."""
    doc = json.loads(schema.SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(doc)
    return jsonschema.Draft202012Validator({**doc, "$ref": f"#/rulesets/{game}/server_message"})


def frames(data: bytes) -> list[dict]:
    """The whole frames in ``data`` (a cut connection's last partial frame left out)."""
    out, at = [], 0
    while at + 4 <= len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        if at + 4 + length > len(data):
            break
        out.append(json.loads(data[at + 4:at + 4 + length]))
        at += 4 + length
    return out


def check_all(game: str, messages: list[dict]) -> set[str]:
    """Validate every message of ``game``; return the message types seen."""
    check = validator(game)
    for number, message in enumerate(messages):
        errors = sorted(check.iter_errors(message), key=lambda e: e.path)
        assert not errors, f"{game} message {number} ({message.get('type')}): {errors[0].message}"
    return {m["type"] for m in messages}


def test_the_validator_refuses_an_envelope_in_place_of_a_downtown_event():
    """The bug of issue 27: every Downtown event was checked against the envelope ``played``."""
    check = validator("downtown")
    event = {"type": "played", "seat": 0, "card": "Even", "copied": None, "act": None}
    good = {"type": "played", "version": 3, "seat": 0, "events": [event], "bot": None}
    assert not list(check.iter_errors(good))
    bad = dict(good, events=[dict(good)])  # an envelope where an event belongs
    assert list(check.iter_errors(bad))


@pytest.mark.parametrize("players, single, seed", [(2, False, 1), (3, True, 2)])
async def test_every_frame_of_recorded_downtown_games_is_valid(patient_clock, players, single, seed):
    host, connections = await play_recorded(players, single, seed)
    assert host.table.match.is_over
    messages = [m for c in connections for m in c.messages()]
    seen = check_all("downtown", messages)
    assert {"welcome", "seated", "watching", "lobby", "started", "played", "snapshot", "ack"} <= seen
    histories = [m["view"]["history"] for m in messages if m["type"] == "snapshot" and m["view"]]
    assert any(histories), "no snapshot with history"
    if single:
        assert any(e["type"] == "drew" for m in messages if m["type"] == "played" for e in m["events"])


class RecordingPeer:
    """A peer of a table called directly: keeps every frame it is sent."""

    def __init__(self, name: str) -> None:
        self.label = self.name = name
        self.seat, self.watching, self.address, self.asks = None, False, None, None
        self.fingerprint = None
        self.data = bytearray()

    def send_frames(self, frames) -> None:
        self.data += b"".join(frames)

    def close(self, code: str, message: str) -> None:
        pass

    def log_rejection(self, request: str, code: str, message: str) -> None:
        pass


async def test_every_frame_of_a_downtown_tie_break_is_valid():
    table = Table(protocol.Settings(players=3, seat_order="seated"), ruleset=get_ruleset("downtown"), seed=1)
    peers = [RecordingPeer(name) for name in ("Ada", "Bob", "Cy")]
    for peer in peers:
        table.handle(peer, protocol.Join(name=peer.name))
    table.start()
    # tests/test_downtown_rules.py's tie after the last round: blue and purple on 4
    table.match.state = state = position(3, hands=[["Even", "Odd"]] * 3, decks=[[], [], []],
                                         round=7, turn=2, scores=[4, 2, 4])
    table.apply(2, play("Even", add(state, "dark", D1=(1, 0))), None)
    table.handle(spectator := RecordingPeer("Eve"), protocol.Watch(name="Eve"))  # a snapshot of the tie
    table.apply(0, play("Odd", add(state, "light", L1=(1, 0))), None)
    table.apply(2, play("Odd", add(state, "dark", D2=(0, 1))), None)
    assert table.match.is_over
    messages = [m for peer in (*peers, spectator) for m in frames(bytes(peer.data))]
    check_all("downtown", messages)
    events = [e["type"] for m in messages if m["type"] == "played" for e in m["events"]]
    assert "tie_break" in events and "game_ended" in events
    assert any(m["type"] == "snapshot" for m in messages)


class Recorder(trio.abc.Stream):
    """A stream that keeps every byte it receives."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream, self.data = stream, bytearray()

    async def receive_some(self, max_bytes=None):
        data = await self.stream.receive_some(max_bytes)
        self.data += data
        return data

    async def send_all(self, data) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def aclose(self) -> None:
        await self.stream.aclose()


async def test_every_frame_of_a_recorded_hex_mirror_match_is_valid(autojump_clock):
    recorders: list[Recorder] = []
    cfg = config(settings=hex_settings(2, seat_order="seated", mirror_match=True),
                 limits=Limits(burst=1000))  # the mock clock plays a whole game in no time
    async with hosting(cfg) as (host, connect):

        async def recorded():
            client = await connect()  # its pump reads once this task waits
            recorder = Recorder(client.stream)
            client.framed = FramedStream.for_client(recorder)
            recorders.append(recorder)
            return client

        with trio.fail_after(600):
            ada, bob = await recorded(), await recorded()
            ada.asks = {"legal": True}  # who acts and what is legal, told to Ada and two more
            await ada.join("Ada")
            await bob.join("Bob")
            await ada.send(protocol.Say(text="hi \x1b[31mall"))
            await ada.send(protocol.Ping(nonce=7))
            await ada.expect(protocol.Pong, nonce=7)
            await ada.send(protocol.Start())
            await ada.expect(protocol.Started)
            await bob.expect(protocol.Started)
            rng = random.Random(3)
            id = await ada.act(ada.game.legal_actions()[0], version=0)  # stale... or not yet legal
            await ada.reply(id)
            id = await ada.act(rng.choice(ada.game.legal_actions()))
            await ada.reply(id)
            await ada.send(protocol.Undo(version=ada.version, token=ada.token))
            await ada.expect(protocol.Undone)
            await trio.sleep(11)  # the host pings a silent connection (the mock clock)
            watcher = await recorded()
            watcher.asks = {"to_act": True}
            await watcher.hello()
            await watcher.send(protocol.Watch(name="Eve"))
            await watcher.expect(protocol.Snapshot)
            late = await recorded()
            await late.hello()
            late.version, late.view = ada.version, HEX.follow(host.table.match.view(None), None)
            await late.send(protocol.Watch(name="Late", last_version=ada.version))  # events
            async with trio.open_nursery() as nursery:
                nursery.start_soon(ada.play_randomly, rng)
                nursery.start_soon(bob.play_randomly, random.Random(4))
            back = await recorded()
            back.asks = {"legal": True}
            await back.hello()
            await back.send(protocol.Reclaim(token=bob.token, last_version=0))  # a snapshot
            snapshot = await back.expect(protocol.Snapshot)
            await bob.closed.wait()  # replaced
            again = await recorded()
            await again.hello()
            await again.send(protocol.Reclaim(token=bob.token, last_version=snapshot.version))
            await again.expect(protocol.Seated)
            await again.send(protocol.Leave())
            await again.expect(protocol.Closing, code="bye")
    messages = [m for r in recorders for m in frames(bytes(r.data))]
    seen = check_all("hex", messages)
    told = {m["type"] for m in messages if "legal" in m} | {m["type"] for m in messages if "to_act" in m}
    assert {"started", "played", "undone", "snapshot"} <= told
    club_answers = {"tables", "table_created"}  # a club's lobby's, never a table's (tests/test_club.py)
    assert seen | {"rejected"} | club_answers == SERVER_TYPES, SERVER_TYPES - seen
