"""Protocol: framing over trio streams, decoding every kind of bad frame, text cleaning, schema drift."""

import re
import struct
from pathlib import Path

import msgspec
import pytest
import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st
from property_kit import examples

import protocol
from protocol import schema
from protocol.framing import (
    BadMessage,
    ConnectionClosed,
    FramedStream,
    FrameTooLarge,
    TruncatedFrame,
)
from protocol.text import clean, clean_name
from waddle import SCOUT, Place
from waddle.hex.events import Scouted
from waddle.hex.options import BundledMap, HexOptions
from waddle.hex.ruleset import HexViewData, MapData
from waddle.ruleset import get_ruleset


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


HEX = get_ruleset("hex")


def server_side():
    client, server = trio.testing.memory_stream_pair()
    return client, FramedStream.for_server(server, HEX)


async def test_round_trip_every_client_message_trickled_one_byte_at_a_time():
    messages = [
        protocol.Hello(protocol=2, client="t", game="hex"),
        protocol.Join(name="Ada", label="blue", code="x"),
        protocol.Reclaim(token="tok", last_version=3),
        protocol.Watch(name="w"),
        protocol.Configure(settings=protocol.Settings(
            players=3, options=HexOptions(map=BundledMap(name="isles")))),
        protocol.Start(), protocol.Ready(ready=False), protocol.Say(text="hi"),
        protocol.Act(id="1", version=2, token="t", action=Place((1, -1), double=True)),
        protocol.Act(id="2", version=2, token="t", action=SCOUT),
        protocol.Ping(nonce=5), protocol.Pong(nonce=5), protocol.Leave(),
    ]
    data = b"".join(protocol.encode(m) for m in messages)
    a, b = trio.testing.lockstep_stream_pair()
    reader = FramedStream.for_server(b, HEX)
    received = []

    async def trickle():
        for i in range(len(data)):
            await a.send_all(data[i:i + 1])
        await a.aclose()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(trickle)
        with pytest.raises(ConnectionClosed):
            while True:
                received.append(await reader.receive())
    assert received == messages


async def test_server_messages_round_trip_on_the_client_side():
    lobby = protocol.Lobby(phase="lobby", settings=protocol.Settings(options=HexOptions()), seats=[
        protocol.SeatInfo(seat=0, label="red", colour="red", name="A", connected=True, ready=False)])
    view = HexViewData(map=MapData(hexes=()), players=("red", "blue"))
    messages = [
        protocol.Seated(seat=0, label="red", name="A", token="t"), protocol.Watching(), lobby,
        protocol.Snapshot(version=0, view=None, lobby=lobby),
        protocol.Started(version=1, view=view),
        protocol.Played(version=2, seat=0, events=[Scouted(player="red")]),
        protocol.Ack(id="1", version=2), protocol.Rejected(request="act", code="stale", message="m", id="1"),
        protocol.Chat(name="A", label=None, text="x"), protocol.Closing(code="bye", message="m"),
    ]
    a, b = trio.testing.memory_stream_pair()
    reader = FramedStream.for_client(b)
    welcome = protocol.Welcome(protocol=2, server="s", game="hex", code_required=False, phase="lobby")
    await a.send_all(protocol.encode(welcome))
    assert await reader.receive() == welcome
    reader.receives(protocol.server_message(HEX))  # the client, once welcome named the game
    for m in messages:
        await a.send_all(protocol.encode(m))
    assert [await reader.receive() for _ in messages] == messages


@pytest.mark.parametrize("body", [
    b"garbage", b"\xff\xfe\xfd", b"[]", b"{}", b'{"type": "teleport"}',
    b'{"type": "hello", "protocol": "one"}',
    b'{"type": "join", "name": "' + b"n" * 65 + b'"}',
    b'{"type": "say", "text": "\xc3\x28"}',
    b'{"type": "join", "name": "x", "label": 5}',
    b'{"type": "act", "id": "1", "version": -1, "token": "t", "action": {"type": "scout"}}',
    b'{"type": "act", "id": "1", "version": 1, "token": "t", "action": {"type": "place", "hex": [1]}}',
    b'{"type": "act", "id": "1", "version": 1, "token": "t", "action": {"type": "fly"}}',
    b'{"type": "configure", "settings": {"players": 9}}',
    b'{"type": "configure", "settings": {"options": {"map": {"kind": "moon"}}}}',
    b'{"type": "configure", "settings": {"bots": ["a","a","a","a","a","a"]}}',
    b"[" * 10000,
])
async def test_every_bad_body_is_a_bad_message_and_the_stream_goes_on(body):
    client, reader = server_side()
    await client.send_all(frame(body) + protocol.encode(protocol.Ping(nonce=7)))
    with pytest.raises(BadMessage):
        await reader.receive()
    assert await reader.receive() == protocol.Ping(nonce=7)


def test_bad_message_text_is_clean_even_when_msgspec_quotes_the_value():
    decoder = protocol.decoder_for(protocol.client_message(HEX))
    with pytest.raises(BadMessage) as info:
        protocol.decode(decoder, b'{"type": "\\u001b[2J\\u202eevil"}')
    assert "\x1b" not in str(info.value) and "\u202e" not in str(info.value)
    assert "evil" in str(info.value)


@pytest.mark.parametrize(("body", "request_type", "id"), [
    (b'{"type": "act", "id": "a7", "version": -1, "token": "t", "action": {"type": "scout"}}',
     "act", "a7"),
    (b'{"type": "act", "id": "a8", "version": 1, "token": "t", "action": {"type": "fly"}}',
     "act", "a8"),
    (b'{"action": {"type": "place", "hex": [1]}, "id": "a9", "type": "act"}', "act", "a9"),
    (b'{"type": "act", "id": 5, "version": 1, "token": "t", "action": {"type": "scout"}}',
     "act", None),
    (b'{"type": "act", "id": "", "version": 1, "token": "t", "action": {"type": "scout"}}',
     "act", None),
    (b'{"type": "act", "id": "' + b"x" * 65 + b'", "version": "1"}', "act", None),
    (b'{"type": "say", "id": "a1", "text": 5}', "?", None),
    (b'{"type": "act", "id": "a1", "version": 1', "?", None),
    (b'["act", "a1"]', "?", None),
])
def test_a_malformed_act_keeps_its_request_type_and_a_well_formed_id(body, request_type, id):
    decoder = protocol.decoder_for(protocol.client_message(HEX))
    with pytest.raises(BadMessage) as info:
        protocol.decode(decoder, body)
    assert (info.value.request, info.value.id) == (request_type, id)


async def test_unknown_fields_are_ignored():
    client, reader = server_side()
    await client.send_all(frame(b'{"type": "ping", "nonce": 1, "future": [1, 2]}'))
    assert await reader.receive() == protocol.Ping(nonce=1)


@pytest.mark.parametrize("length, problem", [
    (0, "empty frame (length 0)"),
    (protocol.MAX_CLIENT_FRAME + 1, f"frame length 16385 above the cap of {protocol.MAX_CLIENT_FRAME} bytes"),
    (2**32 - 1, "frame length 4294967295 above the cap"),
])
async def test_length_outside_the_cap_fails_before_the_body_is_read(length, problem):
    client, reader = server_side()
    await client.send_all(struct.pack(">I", length))  # no body follows: reading it would hang
    with trio.fail_after(1):
        with pytest.raises(FrameTooLarge, match=re.escape(problem)):
            await reader.receive()


async def test_a_client_pointed_at_an_ssh_port_is_told_it_is_one_not_a_frame_length():
    client, reader = server_side()
    await client.send_all(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")  # what an SSH server says first
    with trio.fail_after(1):
        with pytest.raises(FrameTooLarge, match="this is an SSH server .* not a Waddle host's own port"):
            await reader.receive()


def test_frame_too_large_is_documented_for_a_zero_length_too():
    doc = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `frame_too_large` |"))
    assert "zero" in row and "zero" in protocol.CLOSINGS["frame_too_large"]


async def test_a_frame_at_the_cap_is_read():
    client, reader = server_side()
    body = b'{"type":"ping","nonce":1}'
    body += b" " * (protocol.MAX_CLIENT_FRAME - len(body))
    await client.send_all(frame(body))
    assert await reader.receive() == protocol.Ping(nonce=1)


async def test_truncated_frame_and_clean_close_are_told_apart():
    client, reader = server_side()
    await client.send_all(frame(b'{"type":"ping"}')[:7])
    await client.aclose()
    with pytest.raises(TruncatedFrame):
        await reader.receive()
    client, reader = server_side()
    await client.aclose()
    with pytest.raises(ConnectionClosed):
        await reader.receive()


async def tcp_pair() -> tuple[trio.SocketStream, FramedStream]:
    """A client stream and the host's framed side of one TCP connection on 127.0.0.1."""
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    client = await trio.open_tcp_stream("127.0.0.1", listener.socket.getsockname()[1])
    server = await listener.accept()
    await listener.aclose()
    return client, FramedStream.for_server(server, HEX)


async def test_over_tcp_frames_split_and_joined_anyhow_arrive_whole_and_in_order():
    client, reader = await tcp_pair()
    messages = [protocol.Ping(nonce=n) for n in range(40)]
    data = b"".join(protocol.encode(m) for m in messages)
    async with client:
        for start in range(0, len(data), 7):  # cuts inside headers and bodies
            await client.send_all(data[start:start + 7])
        received = [await reader.receive() for _ in messages]
    assert received == messages
    with pytest.raises(ConnectionClosed):
        await reader.receive()
    await reader.aclose()


async def test_over_tcp_a_read_cancelled_before_data_loses_nothing():
    client, reader = await tcp_pair()
    async with client:
        await client.send_all(protocol.encode(protocol.Ping(nonce=1)))
        with trio.CancelScope() as scope:
            scope.cancel()
            await reader.receive()
        assert scope.cancelled_caught
        assert await reader.receive() == protocol.Ping(nonce=1)
    await reader.aclose()


async def test_over_tcp_reading_a_closed_stream_is_connection_closed_not_another_socket():
    client, reader = await tcp_pair()
    await reader.aclose()
    other, other_reader = await tcp_pair()  # may take the closed socket's number
    async with other:
        await other.send_all(protocol.encode(protocol.Ping(nonce=2)))
        with trio.fail_after(5), pytest.raises(ConnectionClosed):
            await reader.receive()
    await other_reader.aclose()
    await client.aclose()


async def test_over_tcp_a_flooding_peer_does_not_starve_the_loop():
    client, reader = await tcp_pair()
    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            await trio.lowlevel.checkpoint()
            ticks += 1

    async with client, trio.open_nursery() as nursery:
        nursery.start_soon(client.send_all, protocol.encode(protocol.Ping(nonce=3)) * 3000)  # ~20 reads
        nursery.start_soon(ticker)
        for _ in range(3000):
            await reader.receive()
        nursery.cancel_scope.cancel()
    assert ticks >= 5
    await reader.aclose()


async def test_sending_on_a_closed_stream_is_connection_closed():
    client, reader = server_side()
    await client.aclose()
    with pytest.raises(ConnectionClosed):
        await reader.send(protocol.Pong())


def test_every_framing_error_is_a_protocol_error_and_only_bad_message_is_recoverable():
    for kind in (BadMessage, FrameTooLarge, TruncatedFrame, ConnectionClosed):
        assert issubclass(kind, protocol.ProtocolError)
    assert not BadMessage.fatal and FrameTooLarge.fatal and TruncatedFrame.fatal


def test_the_wire_action_is_the_record_action_form():
    for action in (Place((2, -1), True), Place((0, 3)), SCOUT):
        wire = msgspec.json.decode(msgspec.json.encode(action))
        assert wire == action.to_dict()
        assert msgspec.json.decode(msgspec.json.encode(wire), type=HEX.action_type) == action


# -- text cleaning ------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    ("\x1b[31mRed\x1b[0m Baron", "Red Baron"),
    ("\x1b]0;pwned\x07Ada", "Ada"),
    ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
    ("\x9b2JBob", "Bob"),
    ("evil\u202eexe.txt", "evilexe.txt"),
    ("\u2066iso\u2069late", "isolate"),
    ("ze\u200bro\u200dwidth\ufeff", "zerowidth"),
    ("bell\x07 and\x00nul\x7f", "bell andnul"),
    ("line\nbreak\r\n\ttab\u2028sep", "line break tab sep"),
    ("  lots   of   space  ", "lots of space"),
    ("Zoe\u0308", "Zo\u00eb"),
    ("penguin \U0001f427", "penguin \U0001f427"),
])
def test_clean(raw, expected):
    assert clean(raw) == expected


def test_clean_name_cuts_and_defaults():
    assert clean_name("x" * 64, "P") == "x" * protocol.messages.NAME_SHOWN
    assert clean_name("\x1b[2J\u202e\u200b", "Player 2") == "Player 2"


@settings(max_examples=examples(200))
@given(st.text())
def test_clean_leaves_nothing_unprintable(text):
    import unicodedata
    out = clean(text)
    assert "\x1b" not in out
    assert all(unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in out)
    assert out == out.strip() and "  " not in out
    assert clean(out) == out


@settings(max_examples=examples(300))
@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e)),
       st.none() | st.integers(0, 40))
def test_plain_ascii_text_is_cleaned_as_any_text_is(text, max_length):
    from protocol.text import _clean_all  # the long way: clean's fast path must agree with it

    assert clean(text, max_length) == _clean_all(text, max_length)


# -- schema -------------------------------------------------------------------------------

def test_committed_schema_matches_the_code():
    assert schema.SCHEMA_PATH.read_text(encoding="utf-8") == schema.render(), \
        "protocol/schema.json is stale: run python -m protocol.schema"


def test_schema_covers_every_message_type_for_every_game():
    doc = schema.schema()
    for name, section in doc["rulesets"].items():
        names = {d["properties"]["type"]["const"] for d in section["$defs"].values()
                 if "const" in d.get("properties", {}).get("type", {})}
        for union in (protocol.ClientMessage, protocol.ServerMessage):
            for kind in union.__args__:
                kind = getattr(kind, "__origin__", kind)
                assert kind.__struct_config__.tag in names, (name, kind)


def test_the_schema_types_each_game_s_actions_events_and_views():
    section = schema.schema()["rulesets"]["hex"]
    defs = section["$defs"]
    action = defs["Act"]["properties"]["action"]
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in action["oneOf"]} == {"Place", "Scout"}
    events = defs["Played"]["properties"]["events"]["items"]["oneOf"]
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in events} == {
        "Placed", "Scouted", "RoundEnded", "HalfEnded", "GameEnded", "TookBack"}
    assert defs["Started"]["properties"]["view"]["$ref"].endswith("/HexViewData")
    assert defs["Settings"]["properties"]["options"]["anyOf"][0]["$ref"].endswith("/HexOptions")


def test_schema_check_command_detects_drift(tmp_path, monkeypatch):
    stale = tmp_path / "schema.json"
    stale.write_text("{}\n")
    monkeypatch.setattr(schema, "SCHEMA_PATH", stale)
    assert schema.main(["--check"]) == 1
    assert schema.main([]) == 0
    assert schema.main(["--check"]) == 0
