"""The UI as people use it: the real ``waddle`` commands in pseudo-terminals of 80x24,
their screens read by a terminal emulator (pyte), keys only.

Two people on one host (``waddle host`` and ``waddle join``) play a whole game: the owner's
start asks while the guest is not ready, the guest takes back a move, quits and rejoins
(``waddle join`` again takes the seat back), and both ask for a rematch, which starts.
Waiting is for the screens (or the host's save file, to know an action landed), bounded
by a timeout; no sleeps.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

pyte = pytest.importorskip("pyte")

ROOT = Path(__file__).parents[1]
TIMEOUT = 60.0


class Screen(pyte.Screen):
    """A pyte screen that counts the bells it hears."""

    bells = 0

    def bell(self, *args) -> None:
        self.bells += 1


class Terminal:
    """One command in a pseudo-terminal of ``columns`` x ``rows``, read by pyte."""

    def __init__(self, argv: list[str], columns: int = 80, rows: int = 24) -> None:
        self.screen = Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.output = bytearray()
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color",
               "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "client.cli", *argv], stdin=slave,
                                     stdout=slave, stderr=slave, env=env, cwd=ROOT,
                                     start_new_session=True)
        os.close(slave)
        self.fd = master
        self.screen.write_process_input = lambda data: os.write(self.fd, data.encode())

    def read(self) -> None:
        """Take what the command wrote so far."""
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:  # the command ended and the terminal closed
            data = b""
        if not data:
            self.fd_closed = True
        self.output += data
        self.stream.feed(data)

    fd_closed = False

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def keys(self, data: str) -> None:
        os.write(self.fd, data.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.fd)


def wait(terminals: list[Terminal], predicate, what: str, timeout: float = TIMEOUT) -> None:
    """Read every terminal until ``predicate()`` holds (checked after each read), or fail
    after ``timeout`` seconds naming ``what`` and showing the screens."""
    deadline = time.monotonic() + timeout
    while not predicate():
        left = deadline - time.monotonic()
        if left <= 0:
            screens = "\n\n".join(t.text() for t in terminals)
            raise AssertionError(f"timed out waiting for {what}:\n{screens}")
        ready, _, _ = select.select([t.fd for t in terminals if not t.fd_closed], [], [], min(left, 1.0))
        for terminal in terminals:
            if terminal.fd in ready:
                terminal.read()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def actions(save: Path) -> int:
    """How many actions the host's save file holds (-1 before it exists or while it is written)."""
    try:
        return len(json.loads(save.read_text())["actions"])
    except (OSError, ValueError, KeyError):
        return -1


def penguins(terminal: Terminal) -> int:
    """The penguins on the board the screen shows (letters left of the panel's bar)."""
    return sum(line.split("│")[0].count("R") + line.split("│")[0].count("B")
               for line in terminal.screen.display[1:-1])


class Table:
    """The people's terminals: Ann's, and Bob's while he is there."""

    def __init__(self, ann: Terminal) -> None:
        self.ann, self.bob = ann, None

    @property
    def people(self) -> list[Terminal]:
        return [t for t in (self.ann, self.bob) if t is not None]


def test_two_people_play_a_whole_game_take_back_rejoin_and_rematch(tmp_path):
    port, save = free_port(), tmp_path / "game.json"
    ann = Terminal(["host", "--port", str(port), "--players", "2", "--code", "e2e", "--name", "Ann",
                    "--seed", "3", "--seat-order", "seated", "--grace", "120", "--save", str(save)])
    join = ["join", f"127.0.0.1:{port}", "--name", "Bob", "--code", "e2e"]
    t = Table(ann)
    try:
        wait(t.people, lambda: "Others join with" in ann.text(), "the host's lobby")
        t.bob = Terminal(join)
        wait(t.people, lambda: "Ann (you)" in ann.text() and "Bob" in ann.text() and "Bob (you)" in t.bob.text(),
             "both in the lobby")
        assert f"waddle join 127.0.0.1:{port} --code e2e" in ann.text()
        ann.keys("\x1b[B" * 6 + "\r")  # down to Start, Enter: Bob is not ready, so it asks
        wait(t.people, lambda: "B Bob is not ready. Start anyway?" in ann.text(), "the start question")
        ann.keys("n")
        t.bob.keys("r")
        wait(t.people, lambda: "Bob (you)  (blue, ready)" in t.bob.text(), "Bob ready")
        ann.keys("\r")
        wait(t.people, lambda: "Track A" in ann.text() and "Track A" in t.bob.text(), "the game")
        wait(t.people, lambda: "YOUR TURN" in ann.text() and ann.screen.title == "Waddle: your turn"
             and ann.screen.bells >= 1, "Ann's turn announced (bell and title)")
        assert "YOUR TURN" not in t.bob.text() and t.bob.screen.title != "Waddle: your turn"

        def in_step(terminals: list[Terminal]) -> bool:  # every screen shows every move saved
            return all(penguins(t) == actions(save) for t in terminals)

        def play_turn(terminal: Terminal) -> None:
            before = actions(save)
            terminal.keys("\r")
            wait(t.people, lambda: actions(save) > before and in_step(t.people), "the move on every screen")

        took_back = rejoined = False
        while "GAME OVER" not in ann.text():
            wait(t.people, lambda: in_step(t.people) and ("GAME OVER" in ann.text() and "GAME OVER" in t.bob.text()
                 or "YOUR TURN" in ann.text() or "YOUR TURN" in t.bob.text()), "a turn")
            if "GAME OVER" in ann.text():
                break
            mover = ann if "YOUR TURN" in ann.text() else t.bob
            if mover is t.bob and not took_back:
                played = actions(save)
                play_turn(t.bob)
                wait(t.people, lambda: "u undo" in t.bob.text() or "u take back" in t.bob.text(), "the take-back hint")
                t.bob.keys("u")
                wait(t.people, lambda played=played: actions(save) == played and "took back the" in t.bob.text()
                     and "took back the" in ann.text() and in_step(t.people), "the take-back")
                took_back = True
                continue
            if mover is ann and took_back and not rejoined and actions(save) > 10:
                t.bob.keys("q")
                wait(t.people, lambda: "Quit the game?" in t.bob.text(), "the quit question")
                t.bob.keys("y")
                wait(t.people, lambda: t.bob.proc.poll() is not None, "Bob's UI closed")
                t.bob.read()
                out = bytes(t.bob.output).decode("utf-8", "replace")
                assert f"Come back with:  waddle join 127.0.0.1:{port} --name Bob --code e2e" in out
                t.bob.close()
                t.bob = None
                wait(t.people, lambda: "Bob (away)" in ann.text(), "Bob away on Ann's screen")
                play_turn(ann)
                t.bob = Terminal(join)
                wait(t.people, lambda: "Bob (you)" in t.bob.text() and in_step(t.people), "Bob back")
                rejoined = True
                continue
            play_turn(mover)
        assert took_back and rejoined
        wait(t.people, lambda: "GAME OVER" in t.bob.text() and "waddles pools total" in t.bob.text(),
             "the score on both screens")
        assert "Rematch? press r" in ann.text()
        wait(t.people, lambda: any(line.split("│")[-1].startswith("Record: ")
                                   and line.rstrip().endswith("game.json") for line in ann.screen.display),
             "the record's file on the host's screen")
        ann.keys("r")
        wait(t.people, lambda: "Rematch asked by R Ann" in t.bob.text(), "Ann's rematch request seen")
        t.bob.keys("r")
        wait(t.people, lambda: "game 2 starts" in ann.text() and "game 2 starts" in t.bob.text()
             and "Track A" in t.bob.text(), "the rematch")
        first = json.loads(save.read_text())
        second = json.loads((tmp_path / "game-2.json").read_text())
        assert first["players"] == ["red", "blue"] and second["players"] == ["blue", "red"]
        assert first["map"] != second["map"]  # a new seed: a new layout
        for terminal in t.people:
            terminal.keys("qy")
        wait(t.people, lambda: all(p.proc.poll() is not None for p in t.people), "both quit")
    finally:
        for terminal in t.people:
            terminal.close()
