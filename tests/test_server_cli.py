"""``waddle serve`` as a process: a plain-socket client (as docs/protocol.md describes) plays,
the host is killed mid-game (SIGKILL), ``--resume`` continues, the seat is reclaimed."""

import json
import re
import signal
import socket
import struct
import subprocess
import sys

import msgspec
import pytest

from server.persistence import read_save
from waddle import SCOUT, Place
from waddle.hex.record import from_record
from waddle.hex.ruleset import RULESET as HEX
from waddle.hex.ruleset import HexViewData

#: What this module's helpers opened, closed by :func:`close_after_test` (hosts' pipes, sockets).
_OPENED: list[subprocess.Popen | socket.socket] = []


def closed_after_test(thing):
    """``thing`` (a process with pipes, a socket), to be closed by :func:`close_after_test`."""
    _OPENED.append(thing)
    return thing


def close_after_test() -> None:
    """Close the pipes of every host :func:`start_host` started (killing one still running)
    and the socket of every :class:`Plain` client (tests/conftest.py calls it after each test)."""
    while _OPENED:
        thing = _OPENED.pop()
        if isinstance(thing, socket.socket):
            thing.close()
            continue
        if thing.poll() is None:
            thing.kill()
            thing.wait(timeout=30)
        for pipe in (thing.stdin, thing.stdout, thing.stderr):
            if pipe is not None:
                pipe.close()


def start_host(*args: str) -> tuple[subprocess.Popen, int]:
    """``waddle serve`` on a free port with ``args``, its bots moving at once (``--pace 0``
    unless ``args`` give a pace); the process and its port, once it says it listens."""
    pace = () if "--pace" in args else ("--pace", "0")
    proc = subprocess.Popen([sys.executable, "-m", "client.cli", "serve", "--port", "0", *pace, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    closed_after_test(proc)
    line = proc.stdout.readline()
    if not line.startswith("Waddle host on 127.0.0.1:"):
        proc.kill()
        raise AssertionError(line + proc.stderr.read())
    return proc, int(line.split(":")[1].split()[0])


class Plain:
    """A client in the stdlib only: 4-byte big-endian length, then JSON."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        closed_after_test(self.sock)
        self.buffer = b""

    def send(self, **message) -> None:
        body = json.dumps(message).encode()
        self.sock.sendall(struct.pack(">I", len(body)) + body)

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            data = self.sock.recv(65536)
            assert data, "host closed the connection"
            self.buffer += data
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self) -> dict:
        (length,) = struct.unpack(">I", self._read(4))
        return json.loads(self._read(length))

    def until(self, type: str, **fields) -> dict:
        for _ in range(10000):
            message = self.receive()
            if message["type"] == "ping":
                self.send(type="pong", nonce=message["nonce"])
            if message["type"] == type and all(message.get(k) == v for k, v in fields.items()):
                return message
        raise AssertionError(f"no {type}")


def plain_started(port: int) -> Plain:
    """A stdlib client that joined the host on ``port`` as Ada and started the game."""
    c = Plain(port)
    c.send(type="hello", protocol=2, client="plain")
    c.until("welcome")
    c.send(type="join", name="Ada")
    c.until("seated")
    c.send(type="start")
    c.until("started", version=1)
    return c


def game_of(view: dict):
    """The engine game of a ``started``/``snapshot`` view, as plain JSON."""
    return HEX.follow(msgspec.convert(view, HexViewData), None).game


def action_of(played: dict):
    """The action a ``played`` event's first event tells (plain JSON)."""
    first = played["events"][0]
    return Place(tuple(first["hex"]), first["double"]) if first["type"] == "placed" else SCOUT


@pytest.mark.slow
def test_serve_kill_and_resume(tmp_path):
    save = tmp_path / "game.waddle.json"
    proc, port = start_host("--players", "2", "--bots", "random", "--code", "fjord",
                            "--seed", "3", "--save", str(save))
    try:
        c = Plain(port)
        c.send(type="hello", protocol=2, client="plain")
        assert c.until("welcome")["code_required"] is True
        c.send(type="join", name="Ada\u202e", label="green", code="fjord")
        seated = c.until("seated")
        assert seated["label"] == "green" and seated["name"] == "Ada"
        c.send(type="start")
        started = c.until("started", version=1)
        game = game_of(started["view"])
        version, ids = 1, 0
        while len(game) < 6:
            if game.current_player == "green":
                ids += 1
                action = game.legal_actions()[0].to_dict()
                c.send(type="act", id=str(ids), version=version, token=seated["token"], action=action)
            played = c.until("played", version=version + 1)
            game.apply(action_of(played))
            version = played["version"]
    finally:
        proc.send_signal(signal.SIGKILL)  # killed mid-game: no goodbye, no last save
        proc.wait(10)
    kept = read_save(save).match.game
    # every action is saved before it is sent (the journal beside the save file): the
    # save holds all the client saw, and maybe a bot's move sent after the last it read
    assert not kept.is_over and kept.moves[:len(game)] == game.moves

    proc, port = start_host("--resume", str(save))
    try:
        c = Plain(port)
        c.send(type="hello", protocol=2, client="plain")
        assert c.until("welcome")["phase"] == "playing"
        c.send(type="reclaim", token="wrong", last_version=0)
        assert c.until("rejected")["code"] == "bad_token"
        c.send(type="reclaim", token=seated["token"], last_version=0)
        assert c.until("seated")["label"] == "green"
        snapshot = c.until("snapshot")
        assert snapshot["version"] >= 1 + len(kept)  # the red bot may have played on already
        assert game_of(snapshot["view"]).moves[:len(kept)] == kept.moves
        assert seated["token"] not in json.dumps(snapshot)
        game = game_of(snapshot["view"])
        version = snapshot["version"]
        while not game.is_over:
            if game.current_player == "green":
                ids += 1
                action = game.legal_actions()[-1].to_dict()
                c.send(type="act", id=str(ids), version=version, token=seated["token"], action=action)
            played = c.until("played", version=version + 1)
            game.apply(action_of(played))
            version = played["version"]
        assert c.until("lobby", phase="finished")
        c.send(type="leave")
        assert c.until("closing")["code"] == "bye"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0 and "Traceback" not in err
    final = json.loads(save.read_text())
    assert from_record(final).is_over and from_record(final).moves == game.moves
    assert seated["token"] not in err and "fjord" not in err


@pytest.mark.slow
def test_serve_resumed_without_a_port_listens_where_its_players_wait(tmp_path):
    save = tmp_path / "game.waddle.json"
    proc, port = start_host("--players", "2", "--bots", "random", "--seed", "3", "--save", str(save))
    try:
        plain_started(port)
    finally:
        proc.send_signal(signal.SIGINT)  # the host stops and says how the game goes on
        out, _ = proc.communicate(timeout=10)
    assert f"continue with: waddle serve --resume {save}" in out
    proc = subprocess.Popen([sys.executable, "-m", "client.cli", "serve", "--resume", str(save)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith(f"Waddle host on 127.0.0.1:{port} (playing")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=10)


@pytest.mark.parametrize("args, message", [
    (["--bots", "nobody"], "unknown bot"),
    (["--turn-timer", "0"], "--turn-timer"),
    (["--map", "/no/such/map.toml"], "cannot read the map file"),
    (["--bundled", "lagoon", "--players", "5"], "the bundled map 'lagoon' is for 2 to 3 players, not 5"),
    (["--pace", "-1"], "--pace: expected a finite number of seconds, 0 or more"),
    (["--grace", "nan"], "--grace: expected a finite number of seconds, 0 or more"),
])
def test_serve_refuses_bad_options_in_one_line(args, message):
    proc = subprocess.run([sys.executable, "-m", "client.cli", "serve", "--port", "0", *args],
                          capture_output=True, text=True, timeout=20)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("args, seat_order", [([], "random"), (["--seat-order", "seated"], "seated")])
def test_serve_and_host_take_the_seat_order(args, seat_order):
    from client.cli import build_parser
    from client.commands.serve import settings_from

    for command in ("serve", "host"):
        parsed = build_parser(command).parse_args([command, *args])
        assert settings_from(parsed).seat_order == seat_order


@pytest.mark.parametrize("args, pace", [([], 1.0), (["--pace", "0.5"], 0.5), (["--resume", "g.json"], None),
                                        (["--resume", "g.json", "--pace", "0"], 0.0)])
def test_the_bots_pace_is_the_option_else_the_saved_game_s_else_the_default(args, pace):
    from client.cli import build_parser
    from client.commands.serve import pace_from

    for command in ("serve", "host"):
        parsed = build_parser(command).parse_args([command, *args])
        assert pace_from(parsed) == pace and parsed.grace is None   # None: the saved game's, else 30


def test_join_command_and_the_hosts_own_code_help(capsys):
    import socket

    from client.cli import build_parser
    from client.commands.serve import join_command

    assert join_command("127.0.0.1", 7777, "fjord") == "waddle join 127.0.0.1:7777 --code fjord"
    assert join_command("::1", "{port}", None) == "waddle join [::1]:{port}"
    assert join_command("0.0.0.0", 1, None) == f"waddle join {socket.gethostname()}:1"
    for command, words in (("serve", "(default: none)"), ("host", "(default: a random one)")):
        with pytest.raises(SystemExit):
            build_parser(command).parse_args([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert f"--code CODE join code players must give {words}" in out


TUNED = """
import gc
from server.tuning import GEN0_THRESHOLD, tune_gc

before = gc.get_threshold()
tune_gc()
frozen = gc.get_freeze_count()
print(frozen > 1000, gc.get_threshold() == (GEN0_THRESHOLD, *before[1:]))

class Node:
    pass

kept = [Node() for _ in range(3 * GEN0_THRESHOLD)]  # survives young collections: frozen
print(gc.get_freeze_count() >= frozen + 2 * GEN0_THRESHOLD, gc.get_count()[1:] == (0, 0))
loop = Node()
loop.me = loop  # a cycle that dies young is still collected
del loop
print(gc.collect(0) >= 1)
"""


def test_tune_gc_freezes_what_survives_each_collection_and_still_collects_young_cycles():
    out = subprocess.run([sys.executable, "-c", TUNED], capture_output=True, text=True, timeout=20)
    assert out.stdout.split() == ["True"] * 5, out.stderr


YOUNG = """
import gc
import trio
import trio.testing
from server.tuning import YOUNG_INTERVAL, collect_young, tune_gc

tune_gc()
collections = []
gc.callbacks.append(lambda phase, info: phase == "stop" and collections.append(info["generation"]))

async def main():
    kept = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(collect_young)
        for _ in range(10):
            kept.append({"made": []})  # a little survives each interval
            await trio.sleep(YOUNG_INTERVAL)
        marker = {"last": []}
        young = any(o is marker for o in gc.get_objects())
        await trio.sleep(2 * YOUNG_INTERVAL)  # a collection comes in between: it survives, frozen
        frozen = gc.is_tracked(marker) and not any(o is marker for o in gc.get_objects())
        print(10 <= len(collections) <= 13, set(collections) == {0}, young and frozen)
        nursery.cancel_scope.cancel()

trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))
"""


def test_collect_young_runs_a_young_collection_every_tenth_of_a_second_and_freezes_what_survives():
    out = subprocess.run([sys.executable, "-c", YOUNG], capture_output=True, text=True, timeout=20)
    assert out.stdout.split() == ["True"] * 3, out.stderr


def test_serve_tunes_its_garbage_collector_once_the_host_is_set_up():
    proc, port = start_host("--log-level", "debug")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0 and "garbage collector tuned" in err
    assert err.index("garbage collector tuned") < err.index("listening on")


@pytest.mark.slow
def test_sigterm_stops_serve_as_ctrl_c_does_telling_the_players_and_saving(tmp_path):
    save = tmp_path / "game.waddle.json"
    proc, port = start_host("--players", "2", "--bots", "random", "--save", str(save))
    try:
        c = plain_started(port)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert c.until("closing")["code"] == "host_stopped"
    assert f"host stopped; game saved to {save}" in out
    assert read_save(save).match is not None


UNDONE = """
import gc
from server.tuning import tuned_gc

before = gc.get_threshold(), list(gc.callbacks)
try:
    with tuned_gc():
        print(gc.get_freeze_count() > 1000, gc.get_threshold() != before[0])
        raise KeyboardInterrupt  # the host's own way out
except KeyboardInterrupt:
    pass
print(gc.get_freeze_count() == 0, (gc.get_threshold(), gc.callbacks) == before)
"""


def test_the_tuned_collector_is_left_as_it_was_found_however_the_host_stops():
    out = subprocess.run([sys.executable, "-c", UNDONE], capture_output=True, text=True, timeout=20)
    assert out.stdout.split() == ["True"] * 4, out.stderr


@pytest.mark.slow
def test_the_resume_line_names_the_ssh_port_the_guests_came_in_by(tmp_path):
    save = tmp_path / "game.waddle.json"
    proc = subprocess.Popen([sys.executable, "-m", "client.cli", "serve", "--port", "0", "--pace", "0",
                             "--ssh", "0", "--players", "2", "--bots", "random", "--seed", "3",
                             "--save", str(save)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    closed_after_test(proc)
    try:
        lines = [proc.stdout.readline()]
        while "host on" not in lines[-1] and len(lines) < 6:  # the ssh lines come first
            lines.append(proc.stdout.readline())
        ssh_port = int(re.search(r"ssh -p (\d+) ", lines[0]).group(1))
        port = int(re.search(r"host on 127\.0\.0\.1:(\d+)", lines[-1]).group(1))
        plain_started(port)
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=10)
    assert f"continue with: waddle serve --resume {save} --ssh {ssh_port}\n" in out


def test_a_club_s_resume_line_names_every_way_in_and_counts_its_games_in_play():
    from types import SimpleNamespace

    from client.commands.serve import club_saved_message, ways_in

    host = SimpleNamespace(config=SimpleNamespace(lan="ann on box"), ssh=SimpleNamespace(port=2222))
    assert ways_in(host) == " --lan --ssh 2222"
    assert ways_in(SimpleNamespace(config=SimpleNamespace(lan=None), ssh=None)) == ""
    one = SimpleNamespace(directory="club-1", tables={"a": SimpleNamespace(phase="playing"),
                                                      "b": SimpleNamespace(phase="finished")})
    assert club_saved_message(one, "host", ways_in(host)) == (
        "the club's 1 game in play is saved in club-1; continue with: "
        "waddle host --resume club-1 --lan --ssh 2222")
    two = SimpleNamespace(directory="club-2", tables={"a": SimpleNamespace(phase="playing"),
                                                      "b": SimpleNamespace(phase="playing")})
    assert club_saved_message(two, "serve").startswith("the club's 2 games in play are saved in club-2")
