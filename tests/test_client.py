"""The client core against a scripted fake host over loopback: handshake, seat, replica,
acknowledgements, rejections, reconnect with backoff and resend by action id, dead
links, resync after a desync, final refusals. And against the real host: reclaim.
"""

from __future__ import annotations

import pytest
import trio
from test_server_kit import inline

import protocol
from client import ActionRejected, ClientError, Status, connect
from client.address import check_port, parse_address
from client.backoff import Backoff
from protocol import FramedStream, Lobby, Settings
from server import Host, ServerConfig
from waddle import Game, Map, Water, parse_action
from waddle.hex.events import Scouted
from waddle.hex.hexgrid import neighbours
from waddle.hex.options import HexOptions
from waddle.hex.ruleset import RULESET as HEX
from waddle.hex.ruleset import HexMatch
from waddle.ruleset import Prepared

W1, W2 = (0, 0), (3, 0)
TWO_ISLES = Map([h for w in (W1, W2) for h in neighbours(w)], {W1: Water(1, (3,)), W2: Water(2, ())})
PLAYERS = ["red", "blue"]


def new_game() -> Game:
    return Game(TWO_ISLES, PLAYERS)


def lobby(phase: str = "lobby") -> Lobby:
    seats = [protocol.SeatInfo(seat=i, label=c, colour=c, name=c.title(), connected=True, ready=False)
             for i, c in enumerate(PLAYERS)]
    return Lobby(phase=phase, settings=Settings(players=2, options=HexOptions()), seats=seats, owner=0)


def view_of(game: Game):
    """The view data a host sends of ``game``."""
    return HexMatch(game).view(None)


ON_ISLES = Prepared(None, TWO_ISLES)


def welcome(phase: str = "lobby", game: str = "hex") -> protocol.Welcome:
    return protocol.Welcome(protocol=protocol.PROTOCOL_VERSION, server="fake", game=game,
                            code_required=False, phase=phase)


class FakeHost:
    """Serves 127.0.0.1:0; connection ``i`` runs ``script(host, framed, i)``; keeps what arrived."""

    def __init__(self, script) -> None:
        self.script = script
        self.connections = 0
        self.received: list = []

    async def serve(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        async def handler(stream) -> None:
            index = self.connections
            self.connections += 1
            async with stream:
                try:
                    await self.script(self, FramedStream.for_server(stream, HEX), index)
                except* protocol.ProtocolError:
                    pass

        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        await trio.serve_listeners(handler, listeners, task_status=task_status)

    async def expect(self, framed: FramedStream, kind):
        """The next message of type ``kind``, skipping heartbeats and ``ready``."""
        while True:
            message = await framed.receive()
            self.received.append(message)
            if isinstance(message, kind):
                return message
            assert isinstance(message, (protocol.Ping, protocol.Pong, protocol.Ready)), message

    async def greet(self, framed: FramedStream, phase: str = "lobby"):
        """Handshake; return the seat request (join, reclaim or watch)."""
        await self.expect(framed, protocol.Hello)
        await framed.send(welcome(phase))
        return await self.expect(framed, (protocol.Join, protocol.Reclaim, protocol.Watch))

    async def seat(self, framed: FramedStream, *, version: int = 0, view=None,
                   phase: str = "lobby") -> None:
        await framed.send(protocol.Seated(seat=0, label="red", name="Red", token="secret"))
        await framed.send(protocol.Snapshot(version=version, view=view, lobby=lobby(phase)))


@pytest.fixture
async def fake(nursery):
    """Start a FakeHost with a script; returns ``(host, port)``."""
    async def start(script):
        host = FakeHost(script)
        listeners = await nursery.start(host.serve)
        return host, listeners[0].socket.getsockname()[1]
    return start


def played(game: Game, text: str, version: int) -> protocol.Played:
    seat = game.players.index(game.current_player)
    return protocol.Played(version=version, seat=seat, events=game.apply(parse_action(text)))


async def test_join_follows_the_game_and_acts_with_an_ack(fake, autojump_clock):
    host_game = new_game()

    async def script(host, framed, i):
        join = await host.greet(framed)
        assert join.name == "Ada"
        await host.seat(framed)
        await framed.send(protocol.Started(version=1, view=view_of(host_game)))
        act = await host.expect(framed, protocol.Act)
        assert (act.version, act.token) == (1, "secret")
        await framed.send(played(host_game, "place 1,0", 2))
        await framed.send(protocol.Ack(id=act.id, version=2))
        await framed.send(played(host_game, "scout", 3))
        await trio.sleep_forever()

    host, port = await fake(script)
    with trio.fail_after(30):
        async with connect("127.0.0.1", port, name="Ada") as client:
            assert client.state.label == "red"
            await client.wait_for(lambda s: s.my_turn)
            assert client.state.version == 1
            ack = await client.act(parse_action("place 1,0"))
            assert ack.version == 2 and client.state.version >= 2
            await client.wait_for(lambda s: s.version == 3)
            assert client.state.view.game.moves == host_game.moves
            assert client.state.status is Status.CONNECTED


async def test_a_rejected_action_raises_with_its_code_and_changes_nothing(fake, autojump_clock):
    async def script(host, framed, i):
        await host.greet(framed)
        await host.seat(framed, version=1, view=view_of(new_game()), phase="playing")
        act = await host.expect(framed, protocol.Act)
        await framed.send(protocol.Rejected(request="act", code="illegal", id=act.id,
                                            message="hex 9,9 is not on the map"))
        await trio.sleep_forever()

    _, port = await fake(script)
    with trio.fail_after(30):
        async with connect("127.0.0.1", port, name="Ada") as client:
            with pytest.raises(ActionRejected) as caught:
                await client.act(parse_action("place 9,9"))
            assert caught.value.code == "illegal"
            assert client.state.last_rejection.code == "illegal"
            assert client.state.version == 1 and len(client.state.view.game) == 0


async def test_an_unacknowledged_action_is_resent_with_the_same_id_after_a_reconnect(
        fake, autojump_clock):
    host_game = new_game()
    ids = []

    async def script(host, framed, i):
        request = await host.greet(framed, "playing")
        if i == 0:
            await host.seat(framed, version=1, view=view_of(host_game), phase="playing")
            ids.append((await host.expect(framed, protocol.Act)).id)
            return                                       # the link drops before any answer
        assert request == protocol.Reclaim(token="secret", last_version=1)
        await framed.send(protocol.Seated(seat=0, label="red", name="Red", token="secret"))
        await framed.send(lobby("playing"))
        act = await host.expect(framed, protocol.Act)
        ids.append(act.id)
        await framed.send(played(host_game, "place 1,0", 2))
        await framed.send(protocol.Ack(id=act.id, version=2))
        await trio.sleep_forever()

    host, port = await fake(script)
    with trio.fail_after(60):
        async with connect("127.0.0.1", port, name="Ada", backoff=Backoff(seed=1)) as client:
            ack = await client.act(parse_action("place 1,0"))
            assert ack.version == 2 and client.state.version == 2
    assert len(ids) == 2 and ids[0] == ids[1]
    assert client.reconnects == 1 and host.connections == 2


async def test_a_reconnect_sends_its_reclaim_with_the_hello_before_any_welcome(fake, autojump_clock):
    async def script(host, framed, i):
        if i == 0:
            await host.greet(framed)
            await host.seat(framed)
            return  # the link drops
        # a crowded host: nothing is answered until the seat request is in hand
        assert isinstance(await host.expect(framed, protocol.Hello), protocol.Hello)
        assert await host.expect(framed, protocol.Reclaim) == protocol.Reclaim(token="secret", last_version=0)
        await framed.send(welcome())
        await host.seat(framed)
        await trio.sleep_forever()

    host, port = await fake(script)
    with trio.fail_after(60):
        async with connect("127.0.0.1", port, name="Ada", backoff=Backoff(seed=1)) as client:
            await client.wait_for(lambda s: client.reconnects == 1)
    assert host.connections == 2 and client.token == "secret"


async def test_a_silent_host_counts_as_a_dead_link_and_the_client_reconnects(fake, autojump_clock):
    reclaimed = trio.Event()

    async def script(host, framed, i):
        request = await host.greet(framed)
        if i == 0:
            await host.seat(framed)
            await trio.sleep_forever()                    # no pings, nothing
        assert isinstance(request, protocol.Reclaim)
        await host.seat(framed)
        reclaimed.set()
        await trio.sleep_forever()

    _, port = await fake(script)
    with trio.fail_after(200):
        async with connect("127.0.0.1", port, name="Ada", dead_after=30) as client:
            start = trio.current_time()
            await reclaimed.wait()
            await client.wait_for(lambda s: s.status is Status.CONNECTED and client.reconnects == 1)
            assert trio.current_time() - start >= 30
            assert "no word from the host" in client.last_error


async def test_the_client_answers_pings(fake, autojump_clock):
    async def script(host, framed, i):
        await host.greet(framed)
        await host.seat(framed)
        await framed.send(protocol.Ping(nonce=42))
        assert (await host.expect(framed, protocol.Pong)).nonce == 42
        await framed.send(protocol.Closing(code="bye", message="goodbye"))

    _, port = await fake(script)
    with trio.fail_after(30):
        async with connect("127.0.0.1", port, name="Ada") as client:
            await client.wait_for(lambda s: s.status is Status.CLOSED)
            assert "bye" in client.state.closed_reason


async def test_a_desync_asks_for_a_snapshot(fake, autojump_clock):
    host_game = new_game()

    async def script(host, framed, i):
        request = await host.greet(framed, "playing")
        if i == 0:
            await host.seat(framed, version=1, view=view_of(host_game), phase="playing")
            wrong = played(new_game(), "place 1,0", 2)
            await framed.send(protocol.Played(version=2, seat=wrong.seat,
                                              events=[Scouted(player="red"), *wrong.events]))
            await trio.sleep_forever()
        assert request == protocol.Reclaim(token="secret", last_version=0)
        played(host_game, "place 1,0", 2)
        await host.seat(framed, version=2, view=view_of(host_game), phase="playing")
        await trio.sleep_forever()

    _, port = await fake(script)
    with trio.fail_after(60):
        async with connect("127.0.0.1", port, name="Ada") as client:
            await client.wait_for(lambda s: s.version == 2 and client.reconnects == 1)
            assert client.state.view.game.moves == host_game.moves
            assert "out of step" in client.last_error


@pytest.mark.parametrize("answer, words", [
    (protocol.Closing(code="protocol_version", message="this host speaks 2"), "protocol_version"),
    (protocol.Rejected(request="join", code="table_full", message="every seat is taken"),
     "table_full"),
])
async def test_a_final_refusal_fails_connect_with_one_attempt(fake, autojump_clock, answer, words):
    async def script(host, framed, i):
        await host.expect(framed, protocol.Hello)
        if isinstance(answer, protocol.Rejected):
            await framed.send(welcome())
            await host.expect(framed, protocol.Join)
        await framed.send(answer)
        await trio.sleep_forever()

    host, port = await fake(script)
    with trio.fail_after(30), pytest.raises(ClientError, match=words):
        async with connect("127.0.0.1", port, name="Ada"):
            pass
    assert host.connections == 1


async def test_a_host_of_an_unknown_game_is_refused_in_one_line(fake, autojump_clock):
    async def script(host, framed, i):
        await host.expect(framed, protocol.Hello)
        await framed.send(welcome(game="chess"))
        await trio.sleep_forever()

    host, port = await fake(script)
    with trio.fail_after(30), pytest.raises(ClientError, match="a game this client does not know: "
                                                                "unknown game 'chess'"):
        async with connect("127.0.0.1", port, name="Ada"):
            pass
    assert host.connections == 1


async def test_a_full_host_is_retried_with_backoff_before_and_after_the_first_seat(
        fake, autojump_clock):
    full = protocol.Closing(code="full", message="the host serves too many connections")

    async def script(host, framed, i):
        await host.expect(framed, protocol.Hello)
        if i in (0, 1, 3):  # busy twice before the first seat, once after the link drops
            await framed.send(full)
            return
        await framed.send(welcome())
        await host.expect(framed, (protocol.Join, protocol.Reclaim))
        await host.seat(framed)
        if i == 4:
            await trio.sleep_forever()

    host, port = await fake(script)
    with trio.fail_after(120):
        async with connect("127.0.0.1", port, name="Ada", backoff=Backoff(seed=1)) as client:
            assert client.state.label == "red" and host.connections == 3
            await client.wait_for(lambda s: client.reconnects == 1)
            assert client.state.status is Status.CONNECTED and host.connections == 5
    requests = [m for m in host.received if isinstance(m, (protocol.Join, protocol.Reclaim))]
    assert [type(m) for m in requests] == [protocol.Join, protocol.Reclaim]
    assert requests[1].token == "secret"


async def test_a_host_that_stays_full_fails_connect_after_its_attempts(fake, autojump_clock):
    async def script(host, framed, i):
        await host.expect(framed, protocol.Hello)
        await framed.send(protocol.Closing(code="full", message="busy"))

    host, port = await fake(script)
    with trio.fail_after(600), pytest.raises(ClientError, match=r"cannot connect .*\(full\)"):
        async with connect("127.0.0.1", port, name="Ada", max_attempts=3):
            pass
    assert host.connections == 4


async def free_port() -> int:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    await listeners[0].aclose()
    return port


async def test_a_host_not_answering_is_tried_for_first_wait_saying_so_then_one_clear_error(patient_clock):
    port = await free_port()
    lines: list[str] = []
    started = trio.current_time()
    with trio.fail_after(120), pytest.raises(ClientError, match=f"cannot connect to 127.0.0.1:{port}: "
                                                                 f"connection refused$"):
        async with connect("127.0.0.1", port, name="Ada", first_wait=20, on_retry=lines.append):
            pass
    assert trio.current_time() - started <= 20  # it gives up when the next try would come later
    assert len(lines) >= 4
    for number, line in enumerate(lines, 1):
        assert line.startswith(f"host not answering (connection refused), retry {number} in ")
        assert line.endswith(" s; Ctrl-C stops")


async def test_the_first_connection_reaches_a_host_that_comes_up_late(patient_clock):
    port = await free_port()
    async with trio.open_nursery() as nursery:
        async def host_later():
            await trio.sleep(8)
            host = Host(ServerConfig(port=port, settings=Settings(players=2, bots=["random"]),
                                     prepared=ON_ISLES, seed=1))
            await host.run()

        nursery.start_soon(host_later)
        with trio.fail_after(60):
            async with connect("127.0.0.1", port, name="Ada", first_wait=30) as client:
                assert client.state.label is not None and trio.current_time() >= 8
                assert client.state.retry is None
        nursery.cancel_scope.cancel()


async def test_a_reset_before_the_seat_is_tried_again(fake, patient_clock):
    async def script(host, framed, i):
        await host.expect(framed, protocol.Hello)
        if i < 2:
            return  # the link is cut before the welcome
        await framed.send(welcome())
        await host.expect(framed, protocol.Join)
        await host.seat(framed)
        await trio.sleep_forever()

    host, port = await fake(script)
    with trio.fail_after(60):
        async with connect("127.0.0.1", port, name="Ada") as client:
            assert client.state.label == "red" and host.connections == 3


@pytest.mark.parametrize("seed", range(6))
async def test_reconnects_to_a_dead_host_make_at_most_8_attempts_in_the_first_minute(fake, patient_clock, seed):
    attempts: list[float] = []

    async def script(host, framed, i):
        if i == 0:
            await host.greet(framed)
            await host.seat(framed)
            await trio.sleep(1)
            return  # the host dies: every later connection is cut at once
        attempts.append(trio.current_time())

    host, port = await fake(script)
    with trio.fail_after(300):
        async with connect("127.0.0.1", port, name="Ada", backoff=Backoff(seed=seed)) as client:
            await client.wait_for(lambda s: s.status is Status.RECONNECTING)
            lost = trio.current_time()
            await trio.sleep(60)
            assert "connection lost" in client.state.retry
    assert 6 <= len([t for t in attempts if t - lost <= 60]) <= 8


def test_the_shortest_backoff_delays_allow_8_attempts_in_a_minute(monkeypatch):
    backoff = Backoff()
    monkeypatch.setattr(backoff._rng, "random", lambda: 0.0)  # every delay at its shortest
    at, attempts = 0.0, 0
    while (at := at + backoff.next()) <= 60:
        attempts += 1
    assert attempts == 8
    assert 0.25 <= Backoff(seed=1).next() <= 0.5  # a lost link is tried again within half a second


async def test_seat_replaced_closes_the_client_and_ends_its_events(fake, autojump_clock):
    async def script(host, framed, i):
        await host.greet(framed)
        await host.seat(framed)
        await framed.send(protocol.Closing(code="replaced", message="reclaimed elsewhere"))

    host, port = await fake(script)
    with trio.fail_after(30):
        async with connect("127.0.0.1", port, name="Ada") as client:
            seen = [m async for m in client.events()]
            assert client.state.status is Status.CLOSED
            assert "replaced" in client.state.closed_reason
            assert client.act_nowait(parse_action("scout")) is False
            assert client.say_nowait("hi") is False and client.last_error
    assert host.connections == 1 and all(not isinstance(m, protocol.Closing) for m in seen)


async def test_gives_up_after_max_attempts(fake, autojump_clock):
    async def script(host, framed, i):
        if i == 0:
            await host.greet(framed)
            await host.seat(framed)

    host, port = await fake(script)
    with trio.fail_after(600):
        async with connect("127.0.0.1", port, name="Ada", max_attempts=3) as client:
            await client.wait_for(lambda s: s.status is Status.CLOSED)
    assert "gave up after 3 attempts" in client.state.closed_reason
    assert host.connections == 4


async def test_listeners_hear_every_change_and_chat_is_cleaned(fake, autojump_clock):
    async def script(host, framed, i):
        await host.greet(framed)
        await host.seat(framed)
        say = await host.expect(framed, protocol.Say)
        await framed.send(protocol.Chat(name="Ada\x1b[31m", label="red", text=say.text))
        await trio.sleep_forever()

    _, port = await fake(script)
    calls = []
    with trio.fail_after(30):
        async with connect("127.0.0.1", port, name="Ada") as client:
            client.state.listeners.append(lambda: calls.append(len(client.state.chat)))
            assert client.say_nowait("hello \u202eworld")
            await client.wait_for(lambda s: len(s.chat) == 1)
    line = client.state.chat[0]
    assert (line.name, line.text) == ("Ada", "hello world")
    assert calls and calls[-1] >= 1


async def test_reclaim_on_the_real_host_gets_the_same_seat_and_the_game(patient_clock):
    settings = Settings(players=2, bots=["random"])
    host = Host(ServerConfig(port=0, settings=settings, prepared=ON_ISLES, seed=1))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            async with connect("127.0.0.1", port, name="Ada") as first:
                await first.start()
                await first.wait_for(lambda s: s.my_turn)
                await first.act(first.state.legal_actions()[0])
                token, colour, version = first.token, first.state.label, first.state.version
            async with connect("127.0.0.1", port, token=token) as again:
                assert again.state.label == colour
                assert again.state.version >= version
                assert again.state.view.game.moves[:1] == first.state.view.game.moves[:1]
            nursery.cancel_scope.cancel()


async def test_a_spectator_follows_the_game_to_the_end_and_cannot_act(patient_clock, fingerprint):
    settings = Settings(players=2, bots=["greedy"])
    host = Host(ServerConfig(port=0, settings=settings, prepared=ON_ISLES, seed=2))
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            async with connect("127.0.0.1", port, name="Ada") as ada, \
                    connect("127.0.0.1", port, name="Eve", watch=True) as eve:
                assert eve.state.spectator and eve.state.label is None
                await ada.start()
                while not ada.state.finished:
                    await ada.wait_for(lambda s: s.my_turn or s.finished)
                    if ada.state.my_turn:
                        await ada.act(ada.state.legal_actions()[-1])
                await eve.wait_for(lambda s: s.finished)
                with pytest.raises(ClientError, match="no seat"):
                    await eve.act(parse_action("scout"))
            nursery.cancel_scope.cancel()
    assert fingerprint(eve.state.view.game) == fingerprint(host.table.match.game)
    assert eve.state.phase == "finished" and not eve.state.legal_actions()


def test_backoff_doubles_with_jitter_up_to_the_cap_and_resets():
    backoff = Backoff(first=0.5, factor=2, cap=4, seed=3)
    delays = [backoff.next() for _ in range(6)]
    for delay, bound in zip(delays, [0.5, 1, 2, 4, 4, 4]):
        assert bound / 2 <= delay <= bound
    assert len(set(delays)) == len(delays)              # jittered, not in step
    assert [Backoff(seed=3).next() for _ in range(2)] == [Backoff(seed=3).next()] * 2
    backoff.reset()
    assert 0.25 <= backoff.next() <= 0.5
    with pytest.raises(ValueError):
        Backoff(first=2, cap=1)


@pytest.mark.parametrize("text, expected", [
    ("127.0.0.1:7777", ("127.0.0.1", 7777)), ("localhost:1", ("localhost", 1)),
    ("[::1]:80", ("::1", 80)), (" 127.0.0.1:65535 ", ("127.0.0.1", 65535)),
])
def test_parse_address(text, expected):
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["127.0.0.1", ":7777", "host:0", "host:70000", "host:x", "::1:80"])
def test_parse_address_refuses(text):
    with pytest.raises(ValueError, match="HOST:PORT|port"):
        parse_address(text)


@pytest.mark.parametrize("text, port", [("host:0", "0"), ("host:65536", "65536"), ("host:x", "x")])
def test_parse_address_names_the_bad_port_and_the_address(text, port):
    with pytest.raises(ValueError) as error:
        parse_address(text)
    assert str(error.value) == f"bad port '{port}' in '{text}': expected a number from 1 to 65535"


def test_check_port_allows_zero_only_for_any_free_port():
    assert check_port(0, any_free=True) == 0 and check_port("65535") == 65535 and check_port(1) == 1
    with pytest.raises(ValueError, match=r"^bad port 0: expected a number from 1 to 65535$"):
        check_port(0)
    for bad in (-1, 65536):
        with pytest.raises(ValueError, match=r"from 0 to 65535 \(0: any free port\)$"):
            check_port(bad, any_free=True)


async def test_bot_start_refused_for_empty_seats_starts_once_the_table_fills(patient_clock, capsys):
    from argparse import Namespace

    from client.commands.bot import _play

    host = Host(ServerConfig(port=0, settings=Settings(players=2), prepared=ON_ISLES, seed=3))
    codes = []

    async def bot(name: str, start: bool) -> None:
        args = Namespace(name=name, colour=None, code=None, token=None, strategy="random",
                         start=start, quiet=True, game=None, seed=1, seconds=0.1, wait=10.0,
                         table=None, create=None, follow=None)
        codes.append(await _play("127.0.0.1", port, args))

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            async with trio.open_nursery() as bots:
                bots.start_soon(bot, "b1", True)
                while not host.table.seats:
                    await trio.sleep(0.01)
                bots.start_soon(bot, "b2", False)
            nursery.cancel_scope.cancel()
    assert codes == [0, 0] and host.table.match.game.is_over
    refusals = [line for line in capsys.readouterr().out.splitlines() if "refused" in line]
    assert len(refusals) == 1 and "cannot_start" in refusals[0] and "empty" in refusals[0]


def bot_args(name: str, **options):
    from argparse import Namespace

    return Namespace(**{**dict(name=name, colour=None, code=None, token=None, strategy="random",
                               start=True, quiet=True, game=None, seed=1, seconds=0.1, wait=10.0,
                               table=None, create=None, follow=None), **options})


async def bot_until_the_host_stops(tmp_path, args, *, resume: bool):
    """``waddle bot`` (``args``) against a host's bot; the host stops after the first moves
    and, if ``resume``, is resumed from its save: the bot's exit code (or the error it
    ended with), the host that ran last and the version the first one stopped at."""
    from client.cli import UserError
    from client.commands.bot import _play

    save = tmp_path / "night.json"
    first = Host(ServerConfig(port=0, settings=Settings(players=2, bots=["random"]), prepared=ON_ISLES,
                              seed=3, save=save, bot_delay=1.0))
    first.table.offload = inline  # a save in a worker thread would let virtual time run away
    outcome, done = [], trio.Event()

    async def bot() -> None:
        try:
            outcome.append(await _play("127.0.0.1", port, args))
        except UserError as exc:
            outcome.append(str(exc))
        done.set()

    hosting = trio.CancelScope()

    async def host_first(task_status) -> None:
        with hosting:
            await first.run(task_status=task_status)
        stopped.set()

    stopped = trio.Event()
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host_first)
            nursery.start_soon(bot)
            while first.table.version < 3:
                await trio.sleep(0.1)
            hosting.cancel()
            await stopped.wait()
            last = first
            if resume:
                last = Host(ServerConfig(resume=save, bot_delay=0.0))
                last.table.offload = inline
                await nursery.start(last.run)
                assert last.port == port  # where the save says the host listened
            await done.wait()
            nursery.cancel_scope.cancel()
    return outcome[0], last, first.table.version


async def test_waddle_bot_waits_for_a_stopped_host_and_plays_on_once_it_is_resumed(
        tmp_path, patient_clock, capsys):
    code, host, stopped_at = await bot_until_the_host_stops(tmp_path, bot_args("b1"), resume=True)
    assert code == 0 and host.table.match.game.is_over and host.table.version > stopped_at
    said = capsys.readouterr().err
    assert "waddle bot: the host stopped; the game is saved: it goes on when the host runs" in said
    assert "looking for it again in" in said
    assert f"waddle bot: back at the host as {host.table.seats[0].label}" in said


@pytest.mark.parametrize(("follow", "words"), [
    (0.0, "the host stopped; the game is saved"),
    (45.0, "it did not come back within 45 s"),
])
async def test_waddle_bot_stops_when_told_not_to_wait_or_the_host_stays_away(
        tmp_path, patient_clock, follow, words):  # patient: the real sockets keep up with virtual time
    said, _, _ = await bot_until_the_host_stops(tmp_path, bot_args("b1", follow=follow), resume=False)
    assert words in said and said.endswith("this bot stops (run it again then: it takes its seat back)")


def stops_once(stopped: protocol.Closing, attempts: list[float], away: tuple[int, ...] = ()):
    """A fake host's script: each connection's time goes in ``attempts``; the first is
    seated and told ``stopped``; those numbered in ``away`` are hung up on at once (the
    host not back yet); the others are seated and kept."""
    async def script(host, framed, i):
        attempts.append(trio.current_time())
        if i in away:
            return
        await host.greet(framed)
        await host.seat(framed)
        if i == 0:
            await framed.send(stopped)
            return
        await trio.sleep_forever()
    return script


async def test_a_stopped_host_is_looked_for_gently_until_it_is_resumed(fake, patient_clock):
    stopped = protocol.Closing(code="host_stopped", message="the host stopped; the game is saved: it goes "
                                                            "on when the host runs waddle host --resume g.json")
    attempts: list[float] = []
    host, port = await fake(stops_once(stopped, attempts, away=(1, 2, 3)))
    lines: list[str] = []
    with trio.fail_after(600):
        async with connect("127.0.0.1", port, name="Ada", on_retry=lines.append) as client:
            await client.wait_for(lambda s: s.status is Status.RECONNECTING)
            assert client.state.host_stopped == stopped.message
            await client.wait_for(lambda s: client.reconnects == 1)
            assert client.state.host_stopped is None and client.state.status is Status.CONNECTED
    gaps = [b - a for a, b in zip(attempts, attempts[1:])]
    # the n-th wait in [d/2, d], d = 5 s * 1.5**n: 2.5-5, 3.75-7.5, 5.6-11.3, 8.4-16.9 s (never every second)
    bounds = [5.0 * 1.5 ** n for n in range(4)]
    assert len(gaps) == 4 and all(d / 2 - 0.2 <= gap <= d + 0.2 for gap, d in zip(gaps, bounds)), gaps
    assert lines[0].startswith(f"{stopped.message}; looking for it again in ")
    assert lines[-1] == f"back at the host as {client.state.label}" and len(lines) == 5


async def test_look_now_tries_a_stopped_host_at_once_instead_of_at_the_end_of_the_wait(fake, patient_clock):
    stopped = protocol.Closing(code="host_stopped", message="the host stopped")
    attempts: list[float] = []
    host, port = await fake(stops_once(stopped, attempts))
    with trio.fail_after(600):
        async with connect("127.0.0.1", port, name="Ada") as client:
            assert not client.look_now()  # connected: nothing to look for
            await client.wait_for(lambda s: s.status is Status.RECONNECTING)
            asked = trio.current_time()
            assert client.look_now()
            await client.wait_for(lambda s: client.reconnects == 1)
            assert client.state.status is Status.CONNECTED
    assert len(attempts) == 2 and attempts[1] - asked < 1.0  # not the 2.5-5 s wait


async def test_without_follow_resume_a_stopped_host_closes_the_client_saying_why(fake, autojump_clock):
    async def script(host, framed, i):
        await host.greet(framed)
        await host.seat(framed)
        await framed.send(protocol.Closing(code="host_stopped", message="the host stopped\x1b[2J"))

    host, port = await fake(script)
    with trio.fail_after(60):
        async with connect("127.0.0.1", port, name="Ada", follow_resume=False) as client:
            await client.wait_for(lambda s: s.status is Status.CLOSED)
    assert client.state.closed_reason == "the host stopped" and host.connections == 1
