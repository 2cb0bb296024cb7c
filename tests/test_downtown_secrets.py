"""Waddle Downtown's secrets on the wire: every byte the host sends to every connection
over whole games is recorded (a proxy between the host and each client, on 127.0.0.1,
cutting some connections so that clients reconnect and catch up), and nothing in it is a
card its audience may not know: another seat's hand, a card drawn from a deck by another
seat, a setup discard before the reveal, or the shuffle (DOWNTOWN.md "What is public and
what is secret"). Snapshots are sent too: spectators joining mid-game, and a seat's
player coming back on a fresh client (a reclaim from version 0). The log keeps the
rules' reason for an illegal play (which quotes the hand) to the seat alone.

The test is the referee: it replays the host's record, which holds the shuffle, to know
at every version what each audience may see.
"""

from __future__ import annotations

import json
import random
import re
import struct

import pytest
import trio

from client.backoff import Backoff
from client.botplay import play
from client.core import connect
from protocol import Settings, server_message
from protocol.framing import decoder_for
from server import Host, ServerConfig
from waddle.downtown.options import DowntownOptions
from waddle.downtown.state import State
from waddle.ruleset import get_ruleset

DOWNTOWN = get_ruleset("downtown")

#: Where a card's name may stand in a view: the deck's cards, the piles, the cards known
#: to be in a hand, the display, the audience's own hand and discard, the public history.
VIEW_PATHS = re.compile(r"^(cards\.\d+\.name|seats\.\d+\.(pile|known)\.\d+|display\.\d+|hand\.\d+|discard"
                        r"|history\.\d+\.(card|copied|refill|cards\.\d+))$")
#: Where a card's name may stand in a ``played`` event.
EVENT_PATHS = re.compile(r"^\d+\.(card|copied|refill|cards\.\d+)$")


class Connection:
    """The bytes the host sent one connection."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.cut = False

    def messages(self) -> list[dict]:
        """The frames, decoded; every byte must belong to a whole frame, but for the
        last frame of a connection the proxy cut."""
        out, at = [], 0
        while at + 4 <= len(self.data):
            (length,) = struct.unpack(">I", self.data[at:at + 4])
            if at + 4 + length > len(self.data):
                break
            out.append(json.loads(self.data[at + 4:at + 4 + length]))
            at += 4 + length
        assert at == len(self.data) or self.cut, "bytes that are no whole frame"
        return out


async def recording_proxy(target: int, rng: random.Random, budget: int, connections: list[Connection],
                          *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Forward 127.0.0.1 connections to the host at ``target``, recording what the host
    sends; cut up to ``budget`` of them a random number of bytes after their first
    ``played`` (so a client's first connection always gets its seat and the table)."""

    async def pipe(source, sink, record: Connection | None, cut_after: int | None, scope) -> None:
        limit = None
        while True:
            data = await source.receive_some(4096)
            if not data:
                break
            if record is not None:
                if limit is None and cut_after is not None and b'{"type":"played","version"' in record.data + data:
                    limit = len(record.data) + len(data) + cut_after
                if limit is not None and len(record.data) + len(data) >= limit:
                    data = data[:limit - len(record.data)]
                    record.data += data
                    record.cut = True
                    await sink.send_all(data)
                    break
                record.data += data
            await sink.send_all(data)
        scope.cancel()

    async def handle(client_stream) -> None:
        record = Connection()
        connections.append(record)
        cut_after = rng.randrange(100, 1500) if len(connections) <= budget else None
        server_stream = await trio.open_tcp_stream("127.0.0.1", target)
        async with client_stream, server_stream, trio.open_nursery() as nursery:
            nursery.start_soon(pipe, client_stream, server_stream, None, None, nursery.cancel_scope)
            nursery.start_soon(pipe, server_stream, client_stream, record, cut_after, nursery.cancel_scope)

    async def guarded(stream) -> None:
        try:
            await handle(stream)
        except* (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    await trio.serve_listeners(guarded, listeners, task_status=task_status)


async def play_recorded(players: int, single: bool, seed: int) -> tuple[Host, list[Connection]]:
    """A whole game of bot clients through the recording proxy, with a spectator from the
    start, one joining mid-game, and seat 0's player leaving mid-game and coming back on a
    fresh client (a snapshot of their seat)."""
    options = DowntownOptions(single_deck=single)
    host = Host(ServerConfig(port=0, settings=Settings(players=players, options=options), seed=seed,
                             game="downtown", grace=5.0))
    connections: list[Connection] = []
    rng = random.Random(seed)

    async def seat(i: int, port: int) -> None:
        bot = DOWNTOWN.make_bot("greedy" if i % 2 else "random", seed + i)
        options = dict(game="downtown", backoff=Backoff(seed=seed + i), dead_after=60.0)
        async with connect("127.0.0.1", port, name=f"bot {i}", **options) as client:
            if i:
                return await play(client, bot)
            token = client.token
            async with trio.open_nursery() as nursery:
                nursery.start_soon(play, client, bot)
                await client.wait_for(lambda state: state.version >= 8)
                nursery.cancel_scope.cancel()
        async with connect("127.0.0.1", port, token=token, **options) as client:  # from version 0
            await play(client, bot)

    async def spectator(port: int, join_at: int, lobby) -> None:
        await host_reached(join_at)
        async with connect("127.0.0.1", port, name=f"watcher {join_at}", watch=True, game="downtown",
                           backoff=Backoff(seed=seed)) as client:
            await client.wait_for(lambda state: state.finished)

    reached: dict[int, trio.Event] = {}   # versions waited for
    appended = host.table.log.append

    def append(entry) -> int:   # the table's log, telling who waits for a version
        version = appended(entry)
        for wanted in [v for v in reached if v <= version]:
            reached.pop(wanted).set()
        return version

    host.table.log.append = append

    async def host_reached(version: int) -> None:
        if host.table.version < version:
            await reached.setdefault(version, trio.Event()).wait()

    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            listeners = await nursery.start(recording_proxy, port, rng, 6, connections)
            proxy = listeners[0].socket.getsockname()[1]
            async with trio.open_nursery() as table:
                table.start_soon(spectator, proxy, 0, None)
                table.start_soon(spectator, proxy, 12, None)
                for i in range(players):
                    table.start_soon(seat, i, proxy)
            nursery.cancel_scope.cancel()
    return host, connections


def truths(record: dict) -> list[State]:
    """The host's state at every version (1: the start), replayed from its record."""
    replay = dict(record, actions=[])
    states = [None, DOWNTOWN.load(replay).state.copy()]
    for i in range(len(record["actions"])):
        states.append(DOWNTOWN.load(dict(record, actions=record["actions"][:i + 1])).state.copy())
    return states


def strings(value, path: str = "") -> list[tuple[str, str]]:
    """Every string in a decoded JSON value, with its path (``seats.1.pile.0``)."""
    if isinstance(value, str):
        return [(path.strip("."), value)]
    if isinstance(value, dict):
        return [item for key, v in value.items() for item in strings(v, f"{path}.{key}")]
    if isinstance(value, list):
        return [item for i, v in enumerate(value) for item in strings(v, f"{path}.{i}")]
    return []


def keys(value) -> set[str]:
    """Every key of every object in a decoded JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def names(state: State, cards) -> list[str]:
    return sorted(state.name(c) for c in cards)


def check_events(events: list[dict], seat: int | None, where: str) -> None:
    """A deck draw or a setup discard names its card only for its own seat."""
    for event in events:
        own = event.get("seat") == seat and seat is not None
        if event["type"] == "discard_chosen" or event["type"] == "drew" and event["source"] == "deck":
            assert event["card"] is None or own, f"{where}: another seat's card: {event}"


def check_view(view: dict, seat: int | None, truth: State, where: str) -> None:
    """A view holds its audience's own hand and discard, every public fact as the host
    has it, nothing of another hand or a deck, and the history in its public form."""
    mine = names(truth, truth.hands[seat]) if seat is not None else []
    assert sorted(view["hand"]) == mine, f"{where}: the hand is not the seat's own"
    pending = truth.pending[seat] if seat is not None else None
    assert view["discard"] == (None if pending is None else truth.name(pending)), where
    for s, data in enumerate(view["seats"]):
        assert data["hand"] == len(truth.hands[s]) and data["pile"] == [truth.name(c) for c in truth.piles[s]]
        assert sorted(data["known"]) == names(truth, truth.known[s]), where
    assert view["display"] == [truth.name(c) for c in truth.display]
    check_events(view["history"], None, f"{where}: history")
    for path, value in strings(view):
        if value in truth.deck.index:
            assert VIEW_PATHS.match(path), f"{where}: a card at {path}: {value}"


def audit(connection: Connection, states: list[State], players: list[str]) -> tuple[int | None, list[str]]:
    """Check every message of ``connection`` (see the module docstring); return its
    audience (a seat, ``None`` for a spectator) and the kinds of message that carried
    the game (``started``, ``snapshot``, ``played``)."""
    seat, version, kinds = None, 0, []
    cards = set(states[1].deck.index)
    for number, message in enumerate(connection.messages()):
        where = f"message {number} ({message['type']})"
        assert "shuffle" not in keys(message) and "actions" not in keys(message), where
        kind = message["type"]
        if kind == "seated":
            seat = players.index(message["label"])
        elif kind in ("started", "snapshot") and message.get("view") is not None:
            version = message["version"]
            check_view(message["view"], seat, states[version], where)
            kinds.append(kind)
        elif kind == "played":
            version = message["version"]
            check_events(message["events"], seat, where)
            for path, value in strings(message["events"]):
                assert value not in cards or EVENT_PATHS.match(path), f"{where}: a card at {path}"
            kinds.append(kind)
        elif kind != "rejected":  # a rejection goes to its sender alone, about its own action
            assert not [v for _, v in strings(message) if v in cards], f"{where}: a card in {message}"
    return seat, kinds


@pytest.mark.parametrize("players, single, seed", [(2, False, 1), (3, True, 2), (4, False, 3)])
async def test_no_byte_sent_to_a_connection_holds_a_card_its_audience_may_not_know(
        patient_clock, players, single, seed):
    host, connections = await play_recorded(players, single, seed)
    match = host.table.match
    assert match.is_over
    record = match.record()
    states = truths(record)
    seen: dict[int | None, list[list[str]]] = {}
    for connection in connections:
        seat, kinds = audit(connection, states, record["players"])
        seen.setdefault(seat, []).append(kinds)
    # every audience followed the game; a spectator arriving mid-game and the player who
    # came back on a fresh client (bot 0) got snapshots of the game; connections were cut
    returned = record["players"].index(next(s.label for s in host.table.seats if s.name == "bot 0"))
    assert set(seen) == {None, *range(players)}
    assert any(kinds and kinds[0] == "snapshot" for kinds in seen[None])
    assert any(kinds and kinds[0] == "snapshot" for kinds in seen[returned])
    assert sum(c.cut for c in connections) >= 2
    assert all(match.state.hands)  # cards stayed hidden to the end: there was something to leak


async def test_the_audit_finds_a_card_drawn_by_another_seat(patient_clock):
    host, connections = await play_recorded(2, False, 5)
    record = host.table.match.record()
    states = truths(record)
    for connection in connections:
        messages = connection.messages()
        seat = next((record["players"].index(m["label"]) for m in messages if m["type"] == "seated"), None)
        draws = [e for m in messages if m["type"] == "played" for e in m["events"]
                 if e["type"] == "drew" and e["seat"] != seat]
        if draws:
            draws[0]["card"] = "Even"  # as if the host had told it
            leaky = Connection()
            for message in messages:
                body = json.dumps(message).encode()
                leaky.data += struct.pack(">I", len(body)) + body
            with pytest.raises(AssertionError, match="another seat's card"):
                audit(leaky, states, record["players"])
            return
    raise AssertionError("no connection saw another seat draw")


class Peer:
    """A connection as the table sees it: what it is sent, and what it would log."""

    def __init__(self) -> None:
        self.seat, self.watching, self.name, self.label, self.address, self.asks = None, False, "", "#1", None, None
        self.fingerprint = None
        self.sent: list = []
        self.logged: list[str] = []

    def send_frames(self, frames) -> None:
        decoder = decoder_for(server_message(DOWNTOWN))
        self.sent += [decoder.decode(frame[4:]) for frame in frames]

    def close(self, code: str, message: str) -> None:
        pass

    def log_rejection(self, request: str, code: str, message: str) -> None:
        self.logged.append(f"rejected {request}: {code} ({message})")


async def test_an_illegal_play_is_refused_to_its_seat_with_the_rule_and_the_log_keeps_it_out():
    from protocol.messages import Act, Join, Rejected, Start, Watch
    from server.table import Table
    from waddle.downtown.actions import Discard, Play

    table = Table(Settings(players=2, bots=["greedy"], seat_order="seated", options=DowntownOptions()),
                  ruleset=DOWNTOWN, seed=4)
    ann, bob = Peer(), Peer()
    table.handle(ann, Join(name="Ann"))
    table.handle(bob, Watch(name="Bob"))
    table.handle(ann, Start())
    state = table.match.state
    table.apply(1, Discard(state.name(state.hands[1][0])), "greedy")  # the bot's setup discard
    blocked = next(c for c in state.hands[0] if c != state.deck.copy)
    state.piles[1].append(blocked)  # green shows it on top: Ann may not play it now
    table.handle(ann, Act(id="1", version=table.version, token=table.seats[0].token,
                          action=Play(state.name(blocked))))
    refusal = ann.sent[-1]
    assert isinstance(refusal, Rejected) and refusal.code == "illegal"
    assert refusal.message.startswith("play restriction:") and "could play" in refusal.message  # Ann's hand
    assert not any(isinstance(m, Rejected) for m in bob.sent)
    assert ann.logged == ["rejected act: illegal (the rules' reason, for the seat only)"]
