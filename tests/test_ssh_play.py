"""Guests who installed nothing: the real OpenSSH client, in pseudo-terminals read by pyte,
plays at a ``waddle serve --ssh`` host on loopback.

Ann and Bob each run ``ssh -p PORT NAME@127.0.0.1`` and answer the join code (Bob types
a wrong one first and is asked again); both are seated under their SSH user names, Ann
starts the game, the first player places a penguin, and the other's screen shows it.
The host key the guests' ssh was offered is the one whose fingerprint the host printed.
Ann, coming with a key against a bot, is asked the code once on the screen; her window is
resized mid-game and the screen follows; her ssh is killed and the same command with the
same key takes her own seat back, her turn still hers, with no code asked. Waiting is for the
screens, bounded by a timeout; no sleeps.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import re
import shutil
import signal
import struct
import subprocess
import termios

import pytest
from test_pty import Terminal, wait

pytestmark = pytest.mark.pty

SSH = shutil.which("ssh")


def guest(port: int, name: str, known_hosts, key=None) -> Terminal:
    """``ssh`` as a guest types it, on a fresh known-hosts file and no user config; with
    the private ``key`` file if given, else with no key at all."""
    login = ["-o", "IdentitiesOnly=yes", "-i", str(key)] if key else ["-o", "PubkeyAuthentication=no"]
    return Terminal(["-F", "/dev/null", "-o", "StrictHostKeyChecking=accept-new",
                     "-o", f"UserKnownHostsFile={known_hosts}", *login,
                     "-p", str(port), f"{name}@127.0.0.1"], command=(SSH,))


def host(tmp_path, *options: str) -> tuple[Terminal, int]:
    """``waddle serve --ssh 0`` for two players on loopback, its host key and save in
    ``tmp_path``; returns it once it printed its ssh line, and the gateway's port."""
    terminal = Terminal(["serve", "--port", "0", "--ssh", "0", "--players", "2", "--no-history",
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
