"""Guests who installed nothing: the real OpenSSH client, in pseudo-terminals read by pyte,
plays at a ``waddle serve --ssh`` host on loopback.

Ann and Bob each run ``ssh -p PORT NAME@127.0.0.1`` and answer the join code (Bob types
a wrong one first and is asked again); both are seated under their SSH user names, Ann
starts the game, the first player places a penguin, and the other's screen shows it.
The host key the guests' ssh was offered is the one whose fingerprint the host printed. Waiting is for the
screens, bounded by a timeout; no sleeps.
"""

from __future__ import annotations

import base64
import hashlib
import re
import shutil

import pytest
from test_pty import Terminal, wait

pytestmark = pytest.mark.pty

SSH = shutil.which("ssh")


def guest(port: int, name: str, known_hosts) -> Terminal:
    """``ssh`` as a guest types it, on a fresh known-hosts file and no user config."""
    return Terminal(["-F", "/dev/null", "-o", "StrictHostKeyChecking=accept-new",
                     "-o", f"UserKnownHostsFile={known_hosts}", "-o", "PubkeyAuthentication=no",
                     "-p", str(port), f"{name}@127.0.0.1"], command=(SSH,))


@pytest.mark.skipif(SSH is None, reason="no OpenSSH client on this machine")
def test_two_guests_join_over_plain_ssh_with_the_code_and_play(tmp_path):
    host = Terminal(["serve", "--port", "0", "--ssh", "0", "--code", "k7mq3x9d", "--players", "2",
                     "--no-history", "--save", str(tmp_path / "game.waddle.json")],
                    columns=120, env={"XDG_DATA_HOME": str(tmp_path)})
    terminals = [host]
    try:
        wait(terminals, lambda: "SSH host key fingerprint:" in host.text(), "the host's ssh lines")
        port = int(re.search(r"ssh -p (\d+) NAME@127\.0\.0\.1", host.text()).group(1))
        fingerprint = re.search(r"fingerprint:\s+(SHA256:\S+)", host.text()).group(1)
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
