"""Guests who installed nothing: the real OpenSSH client, in pseudo-terminals read by pyte,
plays at a ``waddle serve --ssh`` host on loopback.

Ann and Bob each run ``ssh -p PORT NAME@127.0.0.1`` and answer the join code (Bob types
a wrong one first and is asked again); both are seated under their SSH user names, Ann
starts the game, the first player places a penguin, and the other's screen shows it.
The host key the guests' ssh was offered is the one whose fingerprint the host printed.
Ann, coming with a key against a bot, is asked the code once on the screen; her window is
resized mid-game and the screen follows; her ssh is killed and the same command with the
same key takes her own seat back, her turn still hers, with no code asked. Ann, Bob and an
easy host bot play a whole game on a hand-made pond (one pool, six ice hexes: the fewest
turns a game of three has) at a table without a code, each guest's turns by keys (Bob's
first by a mouse click on a hex), each turn ringing the guest's bell and naming the window,
to the final scores on both guests' screens, the host's. Waiting is for the screens (and
the host's save, to know a move landed). A vt100 guest gets the screen in ASCII without
colour, a guest whose ssh sends a Latin-1 ``LANG`` in ASCII with colour. Inside a private
network namespace whose machine has a LAN address, a host listening on every interface
prints the ssh command with that address as its first line (``serve``, and ``host`` with
``--ssh PORT``), and the command as printed brings a guest in. Ann's screen process is
stopped (a hang), then killed (a crash): the host and the two other guests go on (a chat
goes from one to the other each time), ann is told, her ssh ends, and the same command
gives her seat back. ``ssh -A`` with an agent asks to forward it and the host denies it.
Without a code, ``host --open`` and ``play --ssh`` say anyone may come in, beside the ssh
command. The real ssh is refused a command, sftp, remote forwarding and local forwarding
(the channel it opens). Waiting is bounded by a timeout; no sleeps.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import signal
import socket
import string
import struct
import subprocess
import termios
from pathlib import Path

import pytest
from lan_kit import make_namespace, stop, wait_for_line
from test_pty import Terminal, actions, actions_now, saved_now, wait

pytestmark = pytest.mark.pty

SSH = shutil.which("ssh")


def guest(port: int, name: str, known_hosts, key=None, *options: str, env: dict[str, str] | None = None,
          columns: int = 80) -> Terminal:
    """``ssh`` as a guest types it, on a fresh known-hosts file and no user config; with
    the private ``key`` file if given, else with no key at all; ``options`` and ``env``
    (the guest's own terminal's, e.g. its ``TERM``) added; in a window ``columns`` wide."""
    login = ["-o", "IdentitiesOnly=yes", "-i", str(key)] if key else ["-o", "PubkeyAuthentication=no"]
    return Terminal(["-F", "/dev/null", "-o", "StrictHostKeyChecking=accept-new",
                     "-o", f"UserKnownHostsFile={known_hosts}", *login, *options,
                     "-p", str(port), f"{name}@127.0.0.1"], command=(SSH,), env=env, columns=columns)


def host(tmp_path, *options: str, players: int = 2) -> tuple[Terminal, int]:
    """``waddle serve --ssh 0`` for ``players`` on loopback, its host key and save in
    ``tmp_path``; returns it once it printed its ssh line, and the gateway's port."""
    terminal = Terminal(["serve", "--port", "0", "--ssh", "0", "--players", str(players), "--no-history",
                         "--save", str(tmp_path / "game.waddle.json"), *options],
                        columns=120, env={"XDG_DATA_HOME": str(tmp_path)})
    wait([terminal], lambda: "SSH host key fingerprint:" in terminal.text(), "the host's ssh lines")
    return terminal, int(re.search(r"ssh -p (\d+) NAME@127\.0\.0\.1", terminal.text()).group(1))


def resize(terminal: Terminal, columns: int, rows: int) -> None:
    """What a terminal window does when dragged to ``columns`` x ``rows``."""
    terminal.screen.resize(rows, columns)
    fcntl.ioctl(terminal.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    terminal.proc.send_signal(signal.SIGWINCH)


@pytest.mark.skipif(SSH is None, reason="no OpenSSH client on this machine")
def test_two_guests_join_over_plain_ssh_with_the_code_and_play(tmp_path):
    server, port = host(tmp_path, "--code", "k7mq3x9d")
    terminals = [server]
    try:
        fingerprint = re.search(r"fingerprint:\s+(SHA256:\S+)", server.text()).group(1)
        assert (tmp_path / "waddle" / "ssh_host_ed25519_key").stat().st_mode & 0o077 == 0

        ann = guest(port, "ann", tmp_path / "known_hosts")
        terminals.append(ann)
        wait(terminals, lambda: "Join code:" in ann.text(), "ann's code prompt")
        ann.keys("k7mq3x9d\r")
        wait(terminals, lambda: "ann (you)" in ann.text(), "ann seated in the lobby")

        bob = guest(port, "bob", tmp_path / "known_hosts")
        terminals.append(bob)
        wait(terminals, lambda: "Join code:" in bob.text(), "bob's code prompt")
        bob.keys("wrong\r")
        wait(terminals, lambda: bob.text().count("Join code:") == 2, "bob asked again")
        bob.keys("k7mq3x9d\r")
        wait(terminals, lambda: "bob (you)" in bob.text() and "bob" in ann.text(), "bob seated")

        ann.keys("\x1b[B" * 9 + "\r")  # down to [ Start ]
        wait(terminals, lambda: "Start anyway?" in ann.text(), "the owner asked: bob is not ready")
        ann.keys("y")
        wait(terminals, lambda: "YOUR TURN" in ann.text() + bob.text(), "the game started")
        mover, other, name = (ann, bob, "ann") if "YOUR TURN" in ann.text() else (bob, ann, "bob")
        mover.keys("\r")
        wait(terminals, lambda: f"{name} placed a penguin" in other.text(), "the move on the other's screen")
        assert "YOUR TURN" in other.text()
        known = (tmp_path / "known_hosts").read_text()
        assert f"[127.0.0.1]:{port} ssh-ed25519 " in known
    finally:
        for terminal in terminals:
            terminal.close()
    key = base64.b64decode(known.split()[2])
    assert "SHA256:" + base64.b64encode(hashlib.sha256(key).digest()).decode().rstrip("=") == fingerprint


@pytest.mark.skipif(SSH is None, reason="no OpenSSH client on this machine")
def test_a_guest_with_a_key_resizes_is_cut_off_and_gets_its_seat_back_by_the_key(tmp_path):
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    server, port = host(tmp_path, "--code", "k7mq3x9d", "--bots", "easy")
    known = tmp_path / "known_hosts"
    terminals = [server]
    try:
        ann = guest(port, "ann", known, key)
        terminals.append(ann)
        wait(terminals, lambda: "code" in ann.text().lower(), "the code asked on ann's screen (a new key)")
        ann.keys("k7mq3x9d\r")
        wait(terminals, lambda: "ann (you)" in ann.text(), "ann seated in the lobby")
        ann.keys("\x1b[B" * 9 + "\r")
        wait(terminals, lambda: "YOUR TURN" in ann.text(), "ann's first turn")

        resize(ann, 100, 30)
        wait(terminals, lambda: ann.text().splitlines()[29].rstrip().endswith("q quit"),
             "the screen redrawn at 100x30, its key line on the last of 30 rows")

        ann.proc.kill()  # the laptop's lid closes
        ann.proc.wait(10)
        again = guest(port, "ann", known, key)
        terminals.append(again)
        wait(terminals, lambda: "YOUR TURN" in again.text() and "ann (you)" in again.text(),
             "ann back in her own seat, her turn still hers, without being asked the code")
        assert "code" not in again.text().lower()
    finally:
        for terminal in terminals:
            terminal.close()


#: The smallest whole game three players can have (tests/data/pond.toml): one pool and the
#: six ice hexes round it, so two turns each (fewer with a double or a scout).
POND = (Path(__file__).parent / "data" / "pond.toml").read_text()


def logged(terminal: Terminal) -> int:
    """The moves in the event log on ``terminal``'s screen (a penguin, a double, a scout)."""
    return sum(" placed a " in line or " scouted" in line for line in terminal.screen.display)


def score_rows(terminal: Terminal) -> dict[str, list[str]]:
    """The final score table of the side panel: each row's seat letter and its waddles,
    pools and total (and a star for a winner)."""
    panel = [line.split("│")[-1] for line in terminal.screen.display[1:-1]]
    start = next(i for i, line in enumerate(panel) if line.split() == ["waddles", "pools", "total"])
    rows = {}
    for line in panel[start + 1:]:
        words = line.split()
        star = words[-1:] == ["★"]
        numbers = words[-4:-1] if star else words[-3:]
        if len(words) < 4 or not all(word.isdigit() for word in numbers):
            break
        rows[words[0]] = numbers + ["★"] * star
    return rows


@pytest.mark.skipif(SSH is None, reason="no OpenSSH client on this machine")
def test_two_ssh_guests_and_a_host_bot_play_a_whole_game_to_the_final_scores(tmp_path):
    (tmp_path / "pond.toml").write_text(POND)
    server, port = host(tmp_path, "--bots", "easy", "--pace", "0", "--seed", "1",
                        "--map", str(tmp_path / "pond.toml"), players=3)
    save = tmp_path / "game.waddle.json"
    terminals = [server]
    try:
        wait(terminals, lambda: "no join code: anyone who reaches this address may join" in server.text(),
             "the host saying that anyone may join")  # printed after the lines host() waits for
        ann = guest(port, "ann", tmp_path / "known_hosts")
        terminals.append(ann)
        wait(terminals, lambda: "ann (you)" in ann.text(), "ann seated, asked no code")
        bob = guest(port, "bob", tmp_path / "known_hosts")
        terminals.append(bob)
        wait(terminals, lambda: "bob (you)" in bob.text(), "bob seated")
        assert b"\x1b[?1000h" in bob.output  # the screen asks the guest's terminal for the mouse
        bob.keys("r")
        wait(terminals, lambda: "B bob  (blue, ready)" in ann.text(), "bob ready on ann's screen")
        ann.keys("\x1b[B" * 9 + "\r")  # down to [ Start ]: the bot takes the empty seat
        guests = [ann, bob]

        def in_step() -> bool:  # each guest's log shows every move the host saved
            done = actions(save)
            return done >= 0 and all(logged(g) == done for g in guests)

        announced, clicked = set(), False
        for _ in range(12):  # 6 ice hexes: at most 6 placements and a scout a round
            wait(terminals, lambda: in_step() and (all("GAME OVER" in g.text() for g in guests)
                                                   or any("YOUR TURN" in g.text() for g in guests)),
                 "a guest's turn or the end on both screens")
            if "GAME OVER" in ann.text():
                break
            mover = ann if "YOUR TURN" in ann.text() else bob
            if mover not in announced:  # a turn rings the guest's bell and names the window
                wait(terminals, lambda mover=mover: mover.screen.title == "Waddle: your turn" and mover.screen.bells >= 1,
                     "the turn's bell and title on the guest's terminal")
                announced.add(mover)
            before = actions_now(save)
            if mover is bob and not clicked:  # bob clicks a hex he may place on (not the cursor's)
                y, x = next((y, line.index("+")) for y, line in enumerate(bob.screen.display)
                            if "+" in line and "[" not in line)
                bob.keys(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")  # SGR press, release
                wait(terminals, lambda y=y, x=x: bob.screen.display[y][x] == "B", "bob's penguin on the hex he clicked")
                clicked = True
            else:
                mover.keys("\r")
            wait(terminals, lambda before=before: actions(save) > before, "the move saved by the host")
        else:
            raise AssertionError("the game did not end within 12 turns")
        assert announced == {ann, bob} and clicked
        final = saved_now(save).match.game
        result = final.result()
        expected = {colour[0].upper(): [str(result.scores[colour].waddles), str(result.scores[colour].pools),
                                        str(result.scores[colour].total), *(["★"] if colour in result.winners else [])]
                    for colour in final.players}
        assert final.is_over and len(expected) == 3
        for g in guests:
            assert score_rows(g) == expected, g.text()
        winner = next(letter for letter, row in expected.items() if row[-1] == "★")
        assert all(f"won by {winner} " in g.screen.display[0] for g in guests)
    finally:
        for terminal in terminals:
            terminal.close()


def coloured(terminal: Terminal) -> int:
    """How many cells of the screen have a colour of their own (text or background)."""
    return sum(cell.fg != "default" or cell.bg != "default"
               for row in terminal.screen.buffer.values() for cell in row.values())


@pytest.mark.skipif(SSH is None, reason="no OpenSSH client on this machine")
def test_a_terminal_without_colour_or_without_utf8_gets_the_plain_screen(tmp_path):
    server, port = host(tmp_path, "--bots", "easy", "--pace", "0", players=3)
    known = tmp_path / "known_hosts"
    terminals = [server]
    try:
        vt = guest(port, "vt", known, env={"TERM": "vt100"})  # an old terminal: ASCII, no colour
        terminals.append(vt)
        wait(terminals, lambda: "vt (you)" in vt.text(), "vt seated")
        latin = guest(port, "latin", known, None, "-o", "SendEnv=LANG", env={"LANG": "en_US.ISO-8859-1"})
        terminals.append(latin)  # a Latin-1 terminal (its locale sent): ASCII, in colour
        wait(terminals, lambda: "latin (you)" in latin.text(), "latin seated")
        vt.keys("\x1b[B" * 9 + "\r")
        wait(terminals, lambda: "Start anyway?" in vt.text(), "the owner asked: latin is not ready")
        vt.keys("y")
        wait(terminals, lambda: all("Track A" in t.text() for t in (vt, latin))
             and "YOUR TURN" in vt.text() + latin.text(), "the game on both screens")
        for terminal in (vt, latin):
            assert set(terminal.text()) <= set(string.printable), terminal.text()
            assert "|" in terminal.text()  # the panel's bar, in ASCII
        assert coloured(vt) == 0
        assert coloured(latin) > 100  # the board's ice and water
    finally:
        for terminal in terminals:
            terminal.close()


#: The LAN address of the namespace's machine (a documentation address, on its loopback,
#: where its default route leads: nothing leaves the namespace).
LAN = "198.51.100.7"


@pytest.mark.skipif(SSH is None, reason="no OpenSSH client on this machine")
def test_listening_on_the_lan_the_first_line_is_the_ssh_command_with_the_lan_address(tmp_path):
    namespace = make_namespace()
    processes = []
    try:
        for route in (["addr", "add", f"{LAN}/32", "dev", "lo"], ["route", "add", "default", "dev", "lo", "src", LAN]):
            namespace.run(["ip", *route], check=True)
        server = namespace.popen(namespace.waddle("serve", "--address", "0.0.0.0", "--port", "0", "--ssh", "0",
                                                  "--players", "2", "--no-history", "--save", str(tmp_path / "s.json")),
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        processes.append(server)
        first = wait_for_line(server, "join with:")[0]
        command = re.fullmatch(r"ssh guests:  (ssh -p \d+ NAME@(\S+))  \(NAME: the name to play under\)", first)
        assert command and command.group(2) == LAN, first
        ann = Terminal(["-F", "/dev/null", "-o", "StrictHostKeyChecking=accept-new", "-o", "PubkeyAuthentication=no",
                        "-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}",
                        *shlex.split(command.group(1).replace("NAME", "ann"))[1:]],
                       command=(SSH,), prefix=namespace.prefix)  # the command exactly as printed
        processes.append(ann)
        wait([ann], lambda: "ann (you)" in ann.text(), "ann in the lobby by the printed command")

        hosting = Terminal(["host", "--address", "0.0.0.0", "--port", "7777", "--ssh", "2222", "--no-history",
                            "--save", str(tmp_path / "h.json")], prefix=namespace.prefix)  # fixed ports: the namespace's own
        processes.append(hosting)
        wait([hosting], lambda: "Others join with:" in hosting.text(), "the host's lobby")
        line = bytes(hosting.output).decode("utf-8", "replace").split("\r\n")[0]
        assert line.startswith("Hosting on 0.0.0.0:7777. Others join with:  waddle join ")
        assert line.endswith(f"  or  ssh -p 2222 NAME@{LAN}")
        assert f"ssh -p 2222 NAME@{LAN}" in hosting.text()
    finally:
        for process in reversed(processes):
            if isinstance(process, Terminal):
                process.close()
            else:
                stop(process)
        namespace.close()


def screen_process(server: Terminal, name: str) -> int:
    """The process id of the guest ``name``'s screen, a child of the host (Linux's /proc)."""
    tasks = Path(f"/proc/{server.proc.pid}/task")
    pids = [int(pid) for task in tasks.iterdir() for pid in (task / "children").read_text().split()]
    found = [pid for pid in pids if f"\0--name\0{name}\0" in Path(f"/proc/{pid}/cmdline").read_text()]
    assert len(found) == 1, (name, pids)
    return found[0]


@pytest.mark.skipif(SSH is None, reason="no OpenSSH client on this machine")
def test_a_guest_screen_that_hangs_or_crashes_touches_neither_the_host_nor_the_other_guests(tmp_path):
    server, port = host(tmp_path, players=3)
    known = tmp_path / "known_hosts"
    terminals = [server]
    try:
        guests = {}
        for name in ("ann", "bob", "cy"):
            guests[name] = guest(port, name, known)
            terminals.append(guests[name])
            wait(terminals, lambda name=name: f"{name} (you)" in guests[name].text(), f"{name} seated")
        ann, bob, cy = guests.values()
        screen = screen_process(server, "ann")

        os.kill(screen, signal.SIGSTOP)  # ann's screen hangs
        bob.keys("c")
        wait(terminals, lambda: "say:" in bob.text(), "bob's chat line")
        bob.keys("while ann hangs\r")
        wait(terminals, lambda: "bob: while ann hangs" in cy.text(), "bob's chat on cy's screen")

        os.kill(screen, signal.SIGKILL)  # and crashes
        wait(terminals, lambda: "the game's screen ended unexpectedly" in ann.text() and ann.proc.poll() is not None,
             "ann told, and her ssh ended")
        wait(terminals, lambda: any(line.startswith("  R ann") and "away" in line for line in cy.screen.display),
             "ann away on cy's screen")
        bob.keys("c")
        wait(terminals, lambda: "say:" in bob.text(), "bob's chat line again")
        bob.keys("after ann crashed\r")
        wait(terminals, lambda: "bob: after ann crashed" in cy.text(), "bob's second chat on cy's screen")
        assert server.proc.poll() is None

        again = guest(port, "ann", known)  # within the lobby's grace, her name takes her seat back
        terminals.append(again)
        wait(terminals, lambda: "R ann (you)  (red" in again.text() and "R ann  (red" in cy.text(),
             "ann back in her own seat, on cy's screen too")
    finally:
        for terminal in terminals:
            terminal.close()


def test_a_host_or_a_play_without_a_code_says_anyone_may_come_in_beside_the_ssh_command(tmp_path):
    hosting = Terminal(["host", "--open", "--port", "0", "--ssh", "0", "--no-history",
                        "--save", str(tmp_path / "h.json")])
    playing = Terminal(["play", "--bots", "1", "--ssh", "0", "--no-history", "--record", str(tmp_path / "p.json")])
    try:
        for terminal in (hosting, playing):
            wait([terminal], lambda terminal=terminal: re.search(r"ssh -p \d+ NAME@127\.0\.0\.1", terminal.text())
                 and "(no join code: anyone who reaches this address may join)" in terminal.text(),
                 "the lobby's ssh command and that the table has no code")
    finally:
        hosting.close()
        playing.close()


@pytest.mark.skipif(SSH is None or shutil.which("ssh-agent") is None, reason="no OpenSSH client and agent here")
def test_ssh_dash_a_asks_for_agent_forwarding_and_the_gateway_denies_it(tmp_path):
    agent_socket = tmp_path / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(agent_socket)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    server, port = host(tmp_path)
    terminals = [server]
    try:
        ann = guest(port, "ann", tmp_path / "known_hosts", None, "-A", "-v", env={"SSH_AUTH_SOCK": str(agent_socket)})
        terminals.append(ann)
        wait(terminals, lambda: "Requesting authentication agent forwarding." in bytes(ann.output).decode(errors="replace")
             and b"Agent forwarding request denied" in server.output,  # the host's log (asyncssh's line)
             "ssh asking for its agent, and the host denying it")
        wait(terminals, lambda: "ann (you)" in ann.text(), "ann in the lobby all the same")
    finally:
        for terminal in terminals:
            terminal.close()
        agent.kill()
        agent.wait(10)


def plain_ssh(port: int, known_hosts, key, *argv: str) -> subprocess.Popen:
    """The real ssh without a terminal, logging in with ``key`` and asking nothing
    (``BatchMode``); its output and errors pipes."""
    return subprocess.Popen([SSH, "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new",
                             "-o", f"UserKnownHostsFile={known_hosts}", "-o", "IdentitiesOnly=yes", "-i", str(key),
                             "-p", str(port), *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


class local_stderr:  # noqa: N801 (what wait_for_line reads: a process's stderr as its stdout)
    def __init__(self, process: subprocess.Popen) -> None:
        self.stdout = process.stderr


@pytest.mark.skipif(SSH is None, reason="no OpenSSH client on this machine")
def test_the_real_ssh_is_refused_a_command_sftp_and_forwarding_either_way(tmp_path):
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    server, port = host(tmp_path)
    known = tmp_path / "known_hosts"
    processes = []
    try:
        for argv, refusal in [(["ann@127.0.0.1", "id"], "exec request failed"),
                              (["-s", "ann@127.0.0.1", "sftp"], "subsystem request failed"),
                              (["-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:9", "ann@127.0.0.1"],
                               "remote port forwarding failed")]:
            done = plain_ssh(port, known, key, *argv)
            processes.append(done)
            out, err = done.communicate(timeout=60)
            assert done.returncode != 0 and refusal in err, (argv, out, err)
            assert out == ""

        forward = tmp_path / "forward.sock"  # ssh -L: the client listens, the gateway must open
        local = plain_ssh(port, known, key, "-N", "-v", "-L", f"{forward}:127.0.0.1:{port}", "ann@127.0.0.1")
        processes.append(local)
        wait_for_line(local_stderr(local), "Local forwarding listening on")
        with socket.socket(socket.AF_UNIX) as client:
            client.settimeout(60)
            client.connect(str(forward))
            assert client.recv(1024) == b""  # closed at once: nothing of the gateway's port came through
        refused = [line for line in wait_for_line(local_stderr(local), "open failed") if "open failed" in line]
        assert refused and "open failed: connect failed" in refused[0]  # the gateway refused the channel
    finally:
        stop(*processes)
        server.close()
