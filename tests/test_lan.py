"""Finding a table on the LAN (mDNS/DNS-SD): the advertiser (server.lan), the browser
(client.lan), ``waddle tables --lan`` and ``waddle join`` with no address.

Every test that sends multicast runs its advertiser and its browser inside a private
network namespace (tests/lan_kit.py: ``unshare -rn``, loopback only); the rest build
records in memory. Nothing here browses or advertises on the machine's own interfaces.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import textwrap

import pytest
from lan_kit import namespace_held, stop, wait_for_line
from zeroconf import ServiceInfo

from client.cli import main
from client.commands import tables as tables_command
from client.lan import parse
from protocol.discovery import SERVICE_TYPE
from protocol.messages import PROTOCOL_VERSION, Settings
from server.club import Club
from server.lan import NAME_BYTES, club_txt, instance_name, txt
from server.table import Table

HOSTILE = "\x1b]0;owned\x07\x1b[2J\u202eevil\u202c"
#: What zeroconf lets through in a name (no ASCII controls): 8-bit CSI, bidi, zero width.
HOSTILE_NAME = "\x9b2J\u202eevil\u202c\u200b"


namespace = pytest.fixture(namespace_held)


def record(name: str, properties: dict, address: str = "192.0.2.7", port: int = 7777) -> ServiceInfo:
    """A service record as the browser would resolve it (built here: nothing is sent)."""
    return ServiceInfo(SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=port,
                       addresses=[socket.inet_aton(address)],
                       properties={_bytes(key): _bytes(value) for key, value in properties.items()})


def _bytes(text: str | bytes) -> bytes:
    return text.encode() if isinstance(text, str) else text


# -- the record, in memory ---------------------------------------------------------------------


def test_txt_fields_follow_the_table_as_seats_fill_and_the_game_starts():
    table = Table(Settings(players=3), code="c0de")
    assert txt(table) == {"txtvers": "1", "game": "hex", "seats": "3", "players": "3",
                          "phase": "lobby", "code": "yes", "proto": str(PROTOCOL_VERSION)}
    table.seats.add("Ann")
    assert txt(table)["seats"] == "2"
    table.phase = "playing"
    assert txt(table)["seats"] == "0" and txt(table)["phase"] == "playing"
    assert txt(Table(Settings(players=2)), ssh_port=2222)["code"] == "no"
    assert txt(Table(Settings(players=2)), ssh_port=2222)["ssh"] == "2222"
    assert "ssh" not in txt(table)


def test_an_instance_name_is_one_clean_dns_label():
    assert instance_name("ann on box.example.org") == "ann on box example org"
    assert instance_name(HOSTILE) == "evil"
    long = instance_name("é" * 100)
    assert len(long.encode()) <= NAME_BYTES and long == "é" * (NAME_BYTES // 2)
    assert instance_name("\x1b[0m") == "Waddle"


def test_a_record_read_back_gives_every_field():
    table = parse(record("ann on box", {"txtvers": "1", "game": "downtown", "seats": "1",
                                        "players": "4", "phase": "lobby", "code": "no",
                                        "proto": "2", "ssh": "2222"}))
    assert table.to_json() == {"name": "ann on box", "game": "downtown", "seats_free": 1,
                               "players": 4, "phase": "lobby", "code_required": False,
                               "protocol": 2, "ssh_port": 2222, "address": "192.0.2.7",
                               "port": 7777, "join": "192.0.2.7:7777", "club": False, "tables": None}


def test_a_club_is_advertised_as_a_club_with_its_open_tables_and_listed_as_one():
    club = Club()
    assert club_txt(club) == {"txtvers": "1", "club": "yes", "tables": "0", "proto": str(PROTOCOL_VERSION)}
    club.create("hex")
    assert club_txt(club, ssh_port=2222) == {"txtvers": "1", "club": "yes", "tables": "1",
                                              "proto": str(PROTOCOL_VERSION), "ssh": "2222"}
    found = parse(record("box", club_txt(club)))
    assert (found.club, found.tables, found.game, found.seats_free, found.code_required) == (True, 1, "", None, None)
    line, = tables_command.listing([found])
    assert line.split() == ["1", "box", "club", "of", "tables", "1", "table", "192.0.2.7:7777"]
    assert parse(record("t", {"game": "hex", "club": "no", "tables": "x"})).club is False


def test_hostile_records_are_cleaned_bounded_or_dropped():
    table = parse(record(HOSTILE_NAME, {"game": HOSTILE + "x" * 200, "seats": "99999999",
                                   "players": "-3", "code": "maybe", "proto": "２",
                                   "ssh": "70000", "PHASE": "\x9b31mlobby", b"\xff\xfe": b"\xc0"}))
    assert table.name == "evil"
    assert table.game.startswith("evil") and len(table.game) <= 24
    assert (table.seats_free, table.players, table.code_required, table.protocol, table.ssh_port) == \
        (None, None, None, None, None)
    assert table.phase == "lobby"  # keys are case-insensitive; the 8-bit CSI is removed
    line = "\n".join(tables_command.listing([table]))
    assert "\x1b" not in line and "\x9b" not in line and "\u202e" not in line
    assert "  ? evilxxx" in line  # a game this waddle does not know
    assert parse(record("no port", {}, port=0)) is None


def test_the_listing_names_each_table_and_its_seats():
    tables = [parse(record("ann on box", {"game": "hex", "seats": "2", "players": "4",
                                          "phase": "lobby", "code": "yes",
                                          "proto": str(PROTOCOL_VERSION)})),
              parse(record("bob", {"game": "downtown", "phase": "playing", "code": "no",
                                   "proto": "99"}, port=7000))]
    first, second = tables_command.listing(tables)
    assert first.split() == ["1", "ann", "on", "box", "Waddle", "2/4", "seats", "free",
                             "code", "192.0.2.7:7777"]
    assert second.startswith("2  bob") and "Waddle Downtown" in second and "game in play" in second
    assert "open  192.0.2.7:7000" in second and f"(protocol 99; this waddle speaks {PROTOCOL_VERSION})" in second


def test_the_picker_takes_a_number_enter_or_refuses(monkeypatch):
    found = [parse(record(name, {"game": "hex"}, port=port)) for name, port in (("a", 1), ("b", 2))]
    monkeypatch.setattr(tables_command, "browse", lambda seconds: found)
    said: list[str] = []
    answers = iter(["7", "x", "2"])
    assert tables_command.pick(1, ask=lambda prompt: next(answers), say=said.append).port == 2
    assert "no table numbered '7'" in said and "Which table? 1-2 (Enter: 1, q: none) " not in said
    assert tables_command.pick(1, ask=lambda prompt: "", say=said.append).port == 1
    with pytest.raises(tables_command.UserError, match="no table chosen"):
        tables_command.pick(1, ask=lambda prompt: "q", say=said.append)

    def eof(prompt):
        raise EOFError

    with pytest.raises(tables_command.UserError, match="no table chosen"):
        tables_command.pick(1, ask=eof, say=said.append)
    monkeypatch.setattr(tables_command, "browse", lambda seconds: [])
    with pytest.raises(tables_command.UserError, match="does not cross routers or VPNs such as Tailscale"):
        tables_command.pick(1, ask=eof, say=said.append)


def test_tables_without_lan_browses_nothing_and_says_how(capsys, monkeypatch):
    monkeypatch.setattr(tables_command, "browse", lambda seconds: pytest.fail("browsed"))
    assert main(["tables"]) == 2
    assert "--lan" in capsys.readouterr().err


def test_tables_given_an_address_and_lan_both_is_refused_asking_for_one(capsys, monkeypatch):
    monkeypatch.setattr(tables_command, "browse", lambda seconds: pytest.fail("browsed"))
    monkeypatch.setattr(tables_command, "club_tables", lambda args: pytest.fail("asked the club"))
    assert main(["tables", "127.0.0.1:9", "--lan"]) == 2
    assert "not both" in capsys.readouterr().err


# -- on a private network namespace ----------------------------------------------------------

ADVERTISE_AND_BROWSE = textwrap.dedent("""
    import json, logging, trio
    from client.lan import browse
    from protocol.messages import Settings
    from server.host import Host, ServerConfig

    def show(tables):
        return [t.to_json() for t in tables]

    async def main():
        logging.basicConfig(level="INFO")
        host = Host(ServerConfig(address="0.0.0.0", port=0, lan="Ann's table",
                                 settings=Settings(players=3), code="c0de"))
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            first = await trio.to_thread.run_sync(lambda: browse(30, until=lambda t: t))
            host.table.seats.add("Bob")
            later = await trio.to_thread.run_sync(
                lambda: browse(30, until=lambda t: t and t[0].seats_free == 2))
            nursery.cancel_scope.cancel()
        print(json.dumps({"port": port, "first": show(first), "later": show(later)}))

    trio.run(main)
""")


@pytest.mark.slow
def test_an_advertised_table_is_found_with_its_fields_and_seats_free_follow(namespace):
    done = namespace.run([sys.executable, "-c", ADVERTISE_AND_BROWSE])
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    (first,), (later,) = result["first"], result["later"]
    assert first == {"name": "Ann's table", "game": "hex", "seats_free": 3, "players": 3,
                     "phase": "lobby", "code_required": True, "protocol": PROTOCOL_VERSION,
                     "ssh_port": None, "address": "127.0.0.1", "port": result["port"],
                     "join": f"127.0.0.1:{result['port']}", "club": False, "tables": None}
    assert later == {**first, "seats_free": 2}
    assert "no longer advertised on the LAN" in done.stderr


def _serve(namespace, *options: str) -> subprocess.Popen:
    return namespace.popen(namespace.waddle("serve", "--port", "0", "--players", "2", "--pace", "0",
                                            "--log-level", "info", *options),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0)


def _port(lines: list[str]) -> int:
    return int(next(re.search(r"host on [\d.]+:(\d+)", line).group(1)
                    for line in lines if re.search(r"host on [\d.]+:(\d+)", line)))


@pytest.mark.slow
def test_tables_json_lists_the_lan_table_and_never_one_without_lan(namespace, tmp_path):
    quiet = _serve(namespace, "--save", str(tmp_path / "quiet.json"))
    loud = _serve(namespace, "--lan", "--game", "downtown", "--save", str(tmp_path / "loud.json"))
    try:
        quiet_port = _port(wait_for_line(quiet, "Ctrl-C stops the host"))
        lines = wait_for_line(loud, "advertised on the LAN as")
        loud_port = _port(lines)
        assert any("'waddle join' with no address lists this table" in line for line in lines)
        done = namespace.run(namespace.waddle("tables", "--lan", "--json", "--browse", "30"))
        assert done.returncode == 0, done.stderr
        (table,) = json.loads(done.stdout)
        assert (table["game"], table["port"], table["seats_free"], table["players"],
                table["code_required"], table["address"]) == ("downtown", loud_port, 2, 2, False, "127.0.0.1")
        assert table["name"] == instance_name(socket.gethostname())
        assert quiet_port != loud_port
    finally:
        stop(quiet, loud)


HOSTILE_ADVERTISER = textwrap.dedent("""
    import socket, sys
    from zeroconf import IPVersion, ServiceInfo, Zeroconf
    zc = Zeroconf(ip_version=IPVersion.V4Only)
    name = "\\x9b2J\\u202eevil\\u202c"
    zc.register_service(ServiceInfo("_waddle._tcp.local.", name + "._waddle._tcp.local.",
        port=7777, addresses=[socket.inet_aton("127.0.0.1")], server="evil.local.",
        properties={"game": "\\x1b[31mhex", "seats": "\\x1b[5m9", "code": "yes", "phase": "lobby"}))
    print("registered", flush=True)
    sys.stdin.read()
    zc.unregister_all_services()
    zc.close()
""")


@pytest.mark.slow
def test_a_hostile_record_is_printed_clean(namespace):
    evil = namespace.popen([sys.executable, "-c", HOSTILE_ADVERTISER], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, bufsize=0)
    try:
        wait_for_line(evil, "registered")
        done = namespace.run(namespace.waddle("tables", "--lan", "--browse", "30"))
        assert done.returncode == 0, done.stderr
        assert "\x1b" not in done.stdout and "\x07" not in done.stdout and "\u202e" not in done.stdout
        assert re.search(r"^1  evil +Waddle +\? +code +127\.0\.0\.1:7777$", done.stdout, re.M), \
            done.stdout
    finally:
        evil.stdin.close()  # the advertiser unregisters and ends
        stop(evil)


@pytest.mark.pty
def test_join_with_no_address_lists_the_lan_table_picks_it_and_plays(namespace, tmp_path):
    from test_pty import Terminal, actions, wait

    save = tmp_path / "game.json"
    ann = Terminal(["host", "--lan", "--port", "0", "--players", "2", "--code", "e2e", "--name", "Ann",
                    "--seed", "3", "--seat-order", "seated", "--save", str(save)], prefix=namespace.prefix)
    bob = None
    try:
        wait([ann], lambda: "Ann (you)" in ann.text(), "the host's lobby")
        bob = Terminal(["join", "--name", "Bob", "--browse", "30"], prefix=namespace.prefix)
        wait([ann, bob], lambda: "Which table? 1 (Enter: 1, q: none)" in bob.text(), "the LAN's tables")
        # Ann's own seat shows once the advertiser's next look (within a second) has sent it
        assert re.search(r"^1  Ann on \S.* +Waddle +[12]/2 seats free +code +127\.0\.0\.1:\d+ *$",
                         bob.text(), re.M), bob.text()
        bob.keys("1\r")
        wait([ann, bob], lambda: "Join code:" in bob.text(), "the code asked for")
        bob.keys("e2e\r")
        wait([ann, bob], lambda: "Bob (you)" in bob.text() and "Bob" in ann.text(), "both in the lobby")
        bob.keys("r")
        wait([ann, bob], lambda: "Bob (you)  (blue, ready)" in bob.text(), "Bob ready")
        ann.keys("\x1b[B" * 6 + "\r")  # down to Start, Enter
        wait([ann, bob], lambda: "Track A" in ann.text() and "Track A" in bob.text(), "the game")
        wait([ann, bob], lambda: "YOUR TURN" in ann.text() or "YOUR TURN" in bob.text(), "a turn")
        mover = ann if "YOUR TURN" in ann.text() else bob
        mover.keys("\r")
        wait([ann, bob], lambda: actions(save) >= 1, "the first move saved")
    finally:
        for terminal in (ann, bob):
            if terminal is not None:
                terminal.close()


@pytest.mark.pty
def test_a_club_on_the_lan_is_listed_as_a_club_and_join_with_no_address_opens_its_lobby(namespace, tmp_path):
    from test_pty import Terminal, wait

    club = namespace.popen(namespace.waddle("serve", "--club", "--lan", "--port", "0", "--no-history",
                                            "--log-level", "info", "--save", str(tmp_path / "club")),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, bufsize=0)
    bob = None
    try:
        lines = wait_for_line(club, "advertised on the LAN as")
        port = int(next(re.search(r"Waddle club on [\d.]+:(\d+)", line).group(1)
                        for line in lines if "Waddle club on" in line))
        assert any("'waddle join' with no address lists this club" in line for line in lines)
        done = namespace.run(namespace.waddle("tables", "--lan", "--json", "--browse", "30"))
        assert done.returncode == 0, done.stderr
        (found,) = json.loads(done.stdout)
        assert (found["club"], found["tables"], found["port"], found["game"]) == (True, 0, port, "")
        bob = Terminal(["join", "--name", "Bob", "--browse", "30"], prefix=namespace.prefix)
        wait([bob], lambda: "Which table? 1 (Enter: 1, q: none)" in bob.text(), "the LAN's tables")
        assert re.search(rf"^1  \S.* +club of tables +0 tables +127\.0\.0\.1:{port} *$", bob.text(), re.M), \
            bob.text()
        bob.keys("1\r")
        wait([bob], lambda: f"Waddle club at 127.0.0.1:{port}: 0 tables; you: Bob" in bob.text()
             and "no tables yet: n opens one" in bob.text(), "the club's lobby")
        assert "Join code:" not in bob.text()
    finally:
        if bob is not None:
            bob.close()
        stop(club)
