"""SSH guests at a club: ``waddle serve --club --ssh 0`` on loopback, the real OpenSSH
client in pseudo-terminals read by pyte.

Ann (with a key) and Bob (without one) each run ``ssh -p PORT NAME@127.0.0.1`` and see
the club's lobby, a table opened over TCP listed in it. Ann opens a hex table there
(``n 1``: the club's own settings, a map file on the host's disk: the pond, the smallest
whole game), Bob chooses it and joins; he is ready, she starts. After the first move
Bob's ssh is killed, and the same command takes him straight back to his seat at that
table (not the lobby, not the other table), by his name, as his link is down. They play
to the final scores, the same on both screens as in the host's save; both ask for a
rematch, which starts; Ann quits it to the club's lobby (told how to come back), chooses
the table again and is back in her seat by its token, quits again and leaves the club:
her ssh ends, printing how to come back. The history holds the first game with Ann's
key's fingerprint beside her seat and none beside Bob's.

At a club's table with a join code, a guest who types a wrong one is refused in the
lobby (``bad_code``), the right one seats her. Her ssh killed, a guest coming back by
that name is asked the table's code by the gateway first: a stranger with wrong codes
lands at the lobby as somebody new, the seat still hers; she, with the code, is back in
her seat. ``serve --club --ssh`` prints the ssh command first, and ``host --club --ssh``
beside the join command on its first line, with the host key's fingerprint; a guest's
ssh reaches that club's lobby and opens a table the host sees. A club stopped mid-game
and resumed (a new gateway, which never saw her sit down) takes Ann's key straight back to
her seat: the save kept the key's fingerprint with the seat. Waiting is for the
screens (and the host's save and the club's listing), bounded by a timeout; no sleeps.
An SSH port already taken stops ``serve`` (a club or a table) and ``host --club`` with one
line naming it, and a new club's folder is not left behind.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import signal
import socket
import sqlite3
import subprocess
from pathlib import Path

import pytest
import trio
from test_club_cli import WADDLE
from test_pty import Terminal, actions, actions_now, saved_now, wait
from test_ssh_play import SSH, guest, logged, score_rows

from client.club import create_table, list_tables
from protocol import Settings

pytestmark = [pytest.mark.pty, pytest.mark.skipif(SSH is None, reason="no OpenSSH client on this machine")]

POND = Path(__file__).parent / "data" / "pond.toml"
#: The guests' windows' width: the club's lobby shows who sits at each table.
WIDE = 120


def club_host(tmp_path, *options: str) -> tuple[Terminal, int, int]:
    """``waddle serve --club --ssh 0`` on loopback, its host key and folder in ``tmp_path``,
    bots at once; once it printed where it listens: it, its TCP port and its SSH port."""
    terminal = Terminal(["serve", "--club", "--port", "0", "--ssh", "0", "--pace", "0",
                         "--save", str(tmp_path / "club"), *options],
                        columns=130, env={"XDG_DATA_HOME": str(tmp_path)})
    wait([terminal], lambda: "Waddle club on 127.0.0.1:" in terminal.text(), "the club's start-up lines")
    text = terminal.text()
    printed = [line for line in text.splitlines() if not re.match(r"\d\d:\d\d:\d\d ", line)]  # not the log's
    assert printed[0].startswith("ssh guests:  ssh -p ")  # the ssh command first, as for a table
    assert "(NAME: the name to play under; the club's lobby)" in text
    return (terminal, int(re.search(r"Waddle club on 127\.0\.0\.1:(\d+)", text).group(1)),
            int(re.search(r"ssh -p (\d+) NAME@127\.0\.0\.1", text).group(1)))


def row(terminal: Terminal, name: str) -> str:
    """The club lobby's line of the table called ``name`` on ``terminal`` ("" if none)."""
    return next((line for line in terminal.screen.display if f" {name} " in line), "")


def listing(port: int) -> dict:
    """The club's tables by name, as ``waddle tables`` gets them."""
    return {info.name: info for info in trio.run(lambda: list_tables("127.0.0.1", port)).tables}


def to_start(terminal: Terminal, terminals: list[Terminal]) -> None:
    """Down through the owner's lobby fields to ``[ Start ]``."""
    def selected() -> str:
        return next((line for line in terminal.screen.display if line.startswith("▶")), "")

    for _ in range(16):
        if "[ Start ]" in selected():
            return
        before = selected()
        terminal.keys("\x1b[B")
        wait(terminals, lambda before=before: selected() and selected() != before, "the next lobby field")
    raise AssertionError("no [ Start ] in the owner's lobby:\n" + terminal.text())


def key_fingerprint(public: Path) -> str:
    """The SHA-256 fingerprint of an OpenSSH public key file, as ssh prints it."""
    blob = base64.b64decode(public.read_text().split()[1])
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def test_ssh_guests_at_a_club_open_a_table_play_it_to_the_end_come_back_to_it_and_rematch(tmp_path):
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    history = tmp_path / "history.sqlite"
    server, port, ssh_port = club_host(tmp_path, "--players", "2", "--map", str(POND), "--seed", "1",
                                       "--history", str(history))
    known = tmp_path / "known_hosts"
    terminals, bots = [server], []
    try:
        elsewhere = trio.run(lambda: create_table("127.0.0.1", port, "downtown", Settings(players=2), name="Elsewhere"))
        bots.append(subprocess.Popen([*WADDLE, "bot", f"127.0.0.1:{port}", "--table", elsewhere.table, "--name", "Cy",
                                      "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        ann = guest(ssh_port, "ann", known, key, columns=WIDE)
        terminals.append(ann)
        wait(terminals, lambda: f"Waddle club at 127.0.0.1:{ssh_port}: 1 table; you: ann" in ann.text()
                  and "1/2 seated" in row(ann, "Elsewhere"), "the club's lobby on ann's screen, asked no code")
        ann.keys("n")
        wait(terminals, lambda: "New table of: 1 Waddle  2 Waddle Downtown" in ann.text(), "the games to open")
        ann.keys("1")
        wait(terminals, lambda: "Waddle: the lobby" in ann.text() and "ann (you)" in ann.text()
             and "pond" in ann.text(), "ann at her new table, on the club's own map")
        table = listing(port)["Waddle 1"].table
        save = tmp_path / "club" / f"{table}.waddle.json"

        bob = guest(ssh_port, "bob", known, columns=WIDE)
        terminals.append(bob)
        wait(terminals, lambda: "1/2 seated" in row(bob, "Waddle 1") and "ann" in row(bob, "Waddle 1"),
             "ann's table in bob's lobby")
        bob.keys("j")
        wait(terminals, lambda: row(bob, "Waddle 1").startswith("> "), "bob choosing it")
        bob.keys("\r")
        wait(terminals, lambda: "bob (you)" in bob.text() and "bob" in ann.text(), "bob seated at ann's table")
        bob.keys("r")
        wait(terminals, lambda: "bob  (blue, ready)" in ann.text(), "bob ready on ann's screen")
        to_start(ann, terminals)
        ann.keys("\r")

        guests = [ann, bob]

        def in_step() -> bool:  # each guest's log shows every move the host saved
            done = actions(save)
            return done >= 0 and all(logged(g) == done for g in guests)

        dropped = False
        for _ in range(12):  # 6 ice hexes: at most 6 placements and a scout a round
            wait(terminals, lambda: in_step() and (all("GAME OVER" in g.text() for g in guests)
                                                   or any("YOUR TURN" in g.text() for g in guests)),
                 "a guest's turn or the end on both screens")
            if "GAME OVER" in ann.text():
                break
            if actions(save) > 0 and not dropped:  # bob's connection is cut
                guests[1].close()
                terminals.remove(guests[1])
                wait(terminals, lambda: "bob (away)" in ann.text(), "bob away on ann's screen")
                guests[1] = guest(ssh_port, "bob", known, columns=WIDE)
                terminals.append(guests[1])
                wait(terminals, lambda: "bob (you)" in guests[1].text() and "Track A" in guests[1].text()
                     and in_step(), "bob straight back in his seat at that table, caught up")
                assert "Waddle club at" not in guests[1].text()
                dropped = True
                continue
            mover = ann if "YOUR TURN" in ann.text() else guests[1]
            before = actions_now(save)
            mover.keys("\r")
            wait(terminals, lambda before=before: actions(save) > before, "the move saved by the host")
        else:
            raise AssertionError("the game did not end within 12 turns")
        bob = guests[1]
        assert dropped
        final = saved_now(save).match.game
        result = final.result()
        expected = {colour[0].upper(): [str(result.scores[colour].waddles), str(result.scores[colour].pools),
                                        str(result.scores[colour].total), *(["★"] if colour in result.winners else [])]
                    for colour in final.players}
        assert final.is_over
        for g in (ann, bob):
            assert score_rows(g) == expected, g.text()

        ann.keys("r")
        wait(terminals, lambda: "Rematch asked by" in bob.text(), "ann's rematch request on bob's screen")
        bob.keys("r")
        wait(terminals, lambda: "game 2 starts" in ann.text() and "game 2 starts" in bob.text(), "the rematch")
        ann.keys("q")
        wait(terminals, lambda: "Quit the game?" in ann.text(), "the quit question")
        ann.keys("y")
        wait(terminals, lambda: "Waddle club at" in ann.text() and "in play" in row(ann, "Waddle 1")
             and f"Come back with:  ssh -p {ssh_port} ann@127.0.0.1" in ann.text().replace("\n", ""),
             "ann back at the club's lobby, told how to come back")
        ann.keys("j")
        wait(terminals, lambda: row(ann, "Waddle 1").startswith("> "), "ann choosing her table again")
        ann.keys("\r")
        wait(terminals, lambda: "ann (you)" in ann.text() and "Track A" in ann.text(), "ann back in her seat")
        ann.keys("q")
        wait(terminals, lambda: "Quit the game?" in ann.text(), "the quit question")
        ann.keys("y")
        wait(terminals, lambda: "Waddle club at" in ann.text(), "the club's lobby")
        ann.keys("q")
        wait(terminals, lambda: ann.proc.poll() is not None, "ann's ssh ended with the club's lobby")
        ann.read()
        out = bytes(ann.output).decode("utf-8", "replace")
        assert f"Come back with:  ssh -p {ssh_port} ann@127.0.0.1" in out[out.rindex("\x1b[?1049l"):]  # after the lobby
        server.proc.send_signal(signal.SIGINT)  # the history written as the host stops
        wait(terminals, lambda: server.proc.poll() is not None, "the host stopped")
    finally:
        for terminal in terminals:
            terminal.close()
        for proc in bots:
            proc.kill()
            proc.wait(10)
    db = sqlite3.connect(history)
    try:
        seats = dict(db.execute("SELECT p.name, p.fingerprint FROM players p JOIN games g ON g.id = p.game_id "
                                "WHERE g.table_id = ? AND g.number = 1", (table,)).fetchall())
    finally:
        db.close()
    assert seats == {"ann": key_fingerprint(key.with_suffix(".pub")), "bob": None}


def test_at_a_club_s_table_with_a_code_a_wrong_code_is_refused_and_a_name_needs_the_code_to_come_back(tmp_path):
    server, port, ssh_port = club_host(tmp_path, "--no-history")
    known = tmp_path / "known_hosts"
    terminals = [server]
    try:
        trio.run(lambda: create_table("127.0.0.1", port, "hex", Settings(players=2), name="Locked", code="fjord"))
        ann = guest(ssh_port, "ann", known, columns=WIDE)
        terminals.append(ann)
        wait(terminals, lambda: "code" in row(ann, "Locked") and "Enter join" in ann.text(), "the club's lobby")
        ann.keys("\r")
        wait(terminals, lambda: "Join code:" in ann.text() and "Enter join" not in ann.text(), "the code asked")
        ann.keys("fjorb\r")
        wait(terminals, lambda: "(bad_code)" in ann.text() and "Enter join" in ann.text(),
             "the wrong code refused, in the lobby")
        ann.keys("\r")
        wait(terminals, lambda: "Join code:" in ann.text() and "Enter join" not in ann.text(), "asked again")
        ann.keys("fjord\r")
        wait(terminals, lambda: "ann (you)" in ann.text() and "Waddle: the lobby" in ann.text(), "ann seated")

        ann.close()  # her connection is cut
        terminals.remove(ann)
        wait(terminals, lambda: not listing(port)["Locked"].seats[0].connected, "ann's seat away")
        stranger = guest(ssh_port, "ann", known, columns=WIDE)
        terminals.append(stranger)
        for tries in range(3):
            wait(terminals, lambda tries=tries: stranger.text().count("Join code (Enter: to the club's lobby):")
                 == tries + 1, "the gateway asking a name for its table's code")
            stranger.keys("guess\r")
        wait(terminals, lambda: "Waddle club at" in stranger.text() and "ann (away)" in row(stranger, "Locked"),
             "the stranger at the lobby as somebody new, the seat still ann's")
        assert bytes(stranger.output).count(b"Wrong code.") == 3
        stranger.keys("q")
        wait(terminals, lambda: stranger.proc.poll() is not None, "the stranger gone")

        ann = guest(ssh_port, "ann", known, columns=WIDE)
        terminals.append(ann)
        wait(terminals, lambda: "Join code (Enter: to the club's lobby):" in ann.text(), "ann asked the code")
        ann.keys("fjord\r")
        wait(terminals, lambda: "ann (you)" in ann.text() and "Waddle: the lobby" in ann.text(),
             "ann back in her own seat")
        assert "(2)" not in ann.text() and len(listing(port)["Locked"].seats) == 1
    finally:
        for terminal in terminals:
            terminal.close()


def test_waddle_host_club_with_ssh_prints_the_ssh_command_beside_the_join_command_and_lets_guests_in(tmp_path):
    hana = Terminal(["host", "--club", "--port", "0", "--ssh", "0", "--no-history", "--save", str(tmp_path / "club"),
                     "--name", "Hana"], columns=WIDE, env={"XDG_DATA_HOME": str(tmp_path)})
    terminals = [hana]
    try:
        wait(terminals, lambda: "0 tables; you: Hana" in hana.text(), "the host at the club's lobby")
        hana.read()
        printed = bytes(hana.output).decode("utf-8", "replace")
        first = re.search(r"Hosting a club on 127\.0\.0\.1:(\d+)\. Others join with:  waddle join 127\.0\.0\.1:\1"
                          r"  or  ssh -p (\d+) NAME@127\.0\.0\.1\r?\n", printed)
        key = re.search(r"SSH host key fingerprint:  (SHA256:\S+)\r?\n", printed)
        assert first and key
        assert [line.rstrip() for line in hana.screen.display[1:3]] == [  # and in the lobby, kept there
            f"Others join with:  waddle join 127.0.0.1:{first.group(1)}  or  ssh -p {first.group(2)} NAME@127.0.0.1",
            f"SSH host key fingerprint:  {key.group(1)}"]
        ann = guest(int(first.group(2)), "ann", tmp_path / "known_hosts", columns=WIDE)
        terminals.append(ann)
        wait(terminals, lambda: f"Waddle club at 127.0.0.1:{first.group(2)}: 0 tables; you: ann" in ann.text(),
             "a guest at the host's club")
        assert "Others join with" not in ann.text() and "q leave the club" in ann.text()
        ann.keys("n1")
        wait(terminals, lambda: "Waddle 1" in hana.text() and "ann" in row(hana, "Waddle 1"),
             "the guest's table in the host's lobby")
    finally:
        for terminal in terminals:
            terminal.close()


def test_a_key_finds_its_seat_at_a_resumed_club_by_the_fingerprint_its_save_kept(tmp_path):
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    server, _, ssh_port = club_host(tmp_path, "--players", "2", "--bots", "easy", "--no-history")
    terminals = [server]
    try:
        ann = guest(ssh_port, "ann", tmp_path / "known_hosts", key, columns=WIDE)
        terminals.append(ann)
        wait(terminals, lambda: "0 tables; you: ann" in ann.text(), "the club's lobby")
        ann.keys("n1")
        wait(terminals, lambda: "ann (you)" in ann.text() and "Waddle: the lobby" in ann.text(), "ann's table")
        to_start(ann, terminals)
        ann.keys("\r")
        wait(terminals, lambda: "Track A" in ann.text(), "the game against the host's bot")
        server.proc.send_signal(signal.SIGINT)
        wait(terminals, lambda: server.proc.poll() is not None and ann.proc.poll() is not None,
             "the host stopped, ann's ssh ended")
        resumed = Terminal(["serve", "--resume", str(tmp_path / "club"), "--ssh", "0", "--no-history"],
                           columns=130, env={"XDG_DATA_HOME": str(tmp_path)})
        terminals.append(resumed)
        wait(terminals, lambda: "Waddle club on 127.0.0.1:" in resumed.text() and "(1 tables)" in resumed.text(),
             "the club resumed with its table")
        again = int(re.search(r"ssh -p (\d+) NAME@127\.0\.0\.1", resumed.text()).group(1))
        ann = guest(again, "ann", tmp_path / "known_hosts2", key, columns=WIDE)
        terminals.append(ann)
        wait(terminals, lambda: "ann (you)" in ann.text() and "Track A" in ann.text(),
             "ann's key straight back to her seat, which the new gateway never saw her take")
    finally:
        for terminal in terminals:
            terminal.close()


@pytest.mark.parametrize("command", [["serve", "--club"], ["serve"], ["host", "--club"]])
def test_an_ssh_port_already_taken_is_one_clear_line_and_a_new_club_leaves_no_folder(tmp_path, command):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    save = tmp_path / ("club" if "--club" in command else "game.waddle.json")
    try:
        done = subprocess.run([*WADDLE, *command, "--port", "0", "--ssh", str(port), "--no-history",
                               "--save", str(save)], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "XDG_DATA_HOME": str(tmp_path)}, stdin=subprocess.DEVNULL)
    finally:
        taken.close()
    said = [line for line in done.stderr.splitlines() if not re.match(r"\d\d:\d\d:\d\d ", line)]
    assert done.returncode != 0 and said == [
        f"waddle {command[0]}: cannot {'host' if command[0] == 'host' else 'listen'} on 127.0.0.1:0: "
        f"its SSH port {port} (--ssh): Address already in use"], done.stderr
    assert not save.exists()
