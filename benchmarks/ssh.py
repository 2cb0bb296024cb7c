"""SSH guests next to ``waddle join`` (issue 25): from the client's start to the lobby drawn,
and from a key press to the guest's screen showing it, on the same machine in the same run.

Each round starts two hosts (``waddle serve --ssh 0`` for 5 players on 127.0.0.1, no join
code, no bots), one for each kind of guest, and then measures the two kinds alternately,
each on its own host (so each round's first guest of a kind is its table's owner):

- ``start``: from the client's process start, in a pseudo-terminal of 80x24 read by a
  terminal emulator (pyte), to its screen showing the lobby with the guest seated
  (``NAME (you)``). A ``waddle join 127.0.0.1:PORT --name NAME`` against
  ``ssh -p PORT NAME@127.0.0.1`` (OpenSSH, no key, the host key already known after the
  run's first connection): the ssh figure holds the SSH handshake and login and the start of
  the guest's screen process on the host (:mod:`client.sshguest`);
- ``key``: the table's owner presses Down (then Up, and so on) in the lobby; from the key
  written to the pseudo-terminal to the screen showing the lobby's cursor on the next row
  (the key through ssh, the gateway and the guest's pseudo-terminal to its screen, the
  frame drawn and back, against the key straight to ``waddle join``'s screen).

Figures are wall-clock milliseconds: the median, with the lowest and the 90th percentile
beside it, and the ratio of the ssh median to the join median (goal: at most 1.5x). Where
a key's time goes: the CPU time each process on its way used over the key presses (from
Linux's /proc), per press. The machine, the versions and the command to measure again are
printed first, the load average before and after.

Run: ``python benchmarks/ssh.py [--rounds N] [--starts N] [--keys N]``; ``--smoke`` is
the smallest setting (one round, one start and two keys of each: that it runs, not a
figure). Without an OpenSSH client it says so and measures nothing.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import platform
import re
import select
import shlex
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

import pyte

ROOT = Path(__file__).parents[1]
#: Seconds any one wait may take before the run fails, naming what it waited for.
TIMEOUT = 60.0
SSH = shutil.which("ssh")


def _controlling_terminal() -> None:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """``argv`` in a pseudo-terminal of 80x24 read by pyte; ``started``: its start
    (``time.perf_counter``)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT,
                                     start_new_session=True, preexec_fn=_controlling_terminal)
        os.close(slave)
        self.fd = master

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def until(self, predicate, what: str) -> float:
        """Read the screen until ``predicate()`` holds; the moment it did (``perf_counter``).

        Raises:
            TimeoutError: not within :data:`TIMEOUT` seconds (the screen is in the message).
        """
        deadline = time.perf_counter() + TIMEOUT
        while not predicate():
            left = deadline - time.perf_counter()
            ready, _, _ = select.select([self.fd], [], [], max(0.0, min(left, 1.0)))
            if not ready and left <= 0:
                raise TimeoutError(f"no {what} within {TIMEOUT:.0f} s:\n{self.text()}")
            if ready:
                try:
                    data = os.read(self.fd, 1 << 16)
                except OSError:
                    data = b""
                if not data:
                    raise TimeoutError(f"the terminal closed before {what}:\n{self.text()}")
                self.stream.feed(data)
        return time.perf_counter()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.fd)


class Host:
    """``waddle serve --ssh 0`` for 5 players on 127.0.0.1; its TCP and SSH ports."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        folder.mkdir(parents=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "serve", "--port", "0", "--ssh", "0", "--players", "5",
             "--no-history", "--log-level", "warning", "--save", str(folder / "game.waddle.json")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=ROOT, text=True)
        lines = []
        for _ in range(50):
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the host stopped before it listened:\n" + "".join(lines))
            lines.append(line)
            if line.startswith("join with:"):
                break
        text = "".join(lines)
        self.ssh_port = int(re.search(r"ssh -p (\d+) NAME@", text).group(1))
        self.port = int(re.search(r"waddle join 127\.0\.0\.1:(\d+)", text).group(1))

    def close(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


class Kind:
    """One kind of guest: how it is started (``argv(host, name)``), the samples taken, and
    the CPU seconds each process on the key's way spent over the key presses (by role)."""

    def __init__(self, name: str, argv) -> None:
        self.name, self.argv = name, argv
        self.starts: list[float] = []
        self.keys: list[float] = []
        self.cpu: dict[str, float] = {}


def cpu_seconds(pid: int) -> float:
    """The CPU time the threads of process ``pid`` now running have used (Linux's
    ``/proc/PID/task/*/schedstat``, in nanoseconds; 0 where it cannot tell)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            total += int(task.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e9


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux's /proc; none elsewhere)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(child) for child in task.read_text().split()]
    return found


def roles(kind: Kind, owner: Terminal, name: str, host: Host) -> dict[str, int]:
    """The processes a key press of ``kind`` by ``owner`` (named ``name``) goes through, by role."""
    if kind.name == "ssh":
        screens = [pid for pid in children(host.proc.pid)
                   if f"\0--name\0{name}\0" in Path(f"/proc/{pid}/cmdline").read_text()]
        return {"ssh client": owner.proc.pid, "host (its SSH gateway)": host.proc.pid,
                **({"guest's screen process": screens[0]} if screens else {})}
    return {"waddle join": owner.proc.pid, "host": host.proc.pid}


def join_argv(host: Host, name: str) -> list[str]:
    return [sys.executable, "-m", "client.cli", "join", f"127.0.0.1:{host.port}", "--name", name]


def ssh_argv(known_hosts: Path):
    def argv(host: Host, name: str) -> list[str]:
        return [SSH, "-F", "/dev/null", "-o", "StrictHostKeyChecking=accept-new",
                "-o", f"UserKnownHostsFile={known_hosts}", "-o", "PubkeyAuthentication=no",
                "-p", str(host.ssh_port), f"{name}@127.0.0.1"]
    return argv


def start(kind: Kind, host: Host, name: str, env: dict[str, str]) -> Terminal:
    """Start a guest of ``kind`` named ``name`` and time it to the lobby drawn."""
    terminal = Terminal(kind.argv(host, name), env)
    drawn = terminal.until(lambda: f"{name} (you)" in terminal.text(), f"lobby on {kind.name}'s screen")
    kind.starts.append((drawn - terminal.started) * 1000)
    return terminal


def cursor_row(terminal: Terminal) -> int | None:
    return next((y for y, line in enumerate(terminal.screen.display) if line.startswith("▶")), None)


def press(kind: Kind, owner: Terminal, down: bool) -> None:
    """The owner presses Down (or Up): time it to the lobby's cursor on the next row."""
    owner.until(lambda: cursor_row(owner) is not None, "the lobby's cursor")
    row = cursor_row(owner)
    before = time.perf_counter()
    os.write(owner.fd, b"\x1b[B" if down else b"\x1b[A")
    moved = owner.until(lambda: cursor_row(owner) == row + (1 if down else -1), "the cursor moved")
    kind.keys.append((moved - before) * 1000)


def name(number: int, i: int) -> str:
    """The name of round ``number``'s ``i``-th guest of a kind."""
    return f"p{number}x{i}"


def one_round(kinds: list[Kind], folder: Path, env: dict[str, str], starts: int, keys: int, number: int) -> None:
    hosts = [Host(folder / f"round{number}-{k}", env) for k in range(len(kinds))]
    terminals: list[list[Terminal]] = [[] for _ in kinds]
    try:
        for i in range(starts):
            for k, kind in enumerate(kinds):
                terminals[k].append(start(kind, hosts[k], name(number, i), env))
        ways = [roles(kind, terminals[k][0], name(number, 0), hosts[k]) for k, kind in enumerate(kinds)]
        before = [{role: cpu_seconds(pid) for role, pid in way.items()} for way in ways]
        for i in range(keys):
            for k, kind in enumerate(kinds):
                press(kind, terminals[k][0], down=i % 2 == 0)
        for kind, way, then in zip(kinds, ways, before, strict=True):
            for role, pid in way.items():
                kind.cpu[role] = kind.cpu.get(role, 0.0) + cpu_seconds(pid) - then[role]
    finally:
        for terminal in (t for group in terminals for t in group):
            terminal.close()
        for host in hosts:
            host.close()


def figures(samples: list[float]) -> str:
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(ordered):7.1f}  lowest {ordered[0]:7.1f}  p90 {p90:7.1f}  (n={len(ordered)})"


def describe(args: argparse.Namespace) -> None:
    """What the coordinator needs to measure again: the machine, the versions, the command."""
    from importlib.metadata import version

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "unknown"
    ssh = subprocess.run([SSH, "-V"], capture_output=True, text=True).stderr.strip()
    print(f"date {time.strftime('%Y-%m-%d %H:%M:%S %Z')}  commit {commit}  cores {os.cpu_count()}"
          f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"Python {platform.python_version()}  asyncssh {version('asyncssh')}  pyte {version('pyte')}"
          f"  prompt-toolkit {version('prompt-toolkit')}  {ssh}")
    again = ["python", "benchmarks/ssh.py", "--rounds", str(args.rounds), "--starts", str(args.starts),
             "--keys", str(args.keys)]
    print(f"measure again (from the repository's root, on a quiet machine): PYTHONPATH=. {shlex.join(again)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each with two fresh hosts (default 5)")
    parser.add_argument("--starts", type=int, default=4, help="guests started of each kind per round, 1 to 5 (default 4)")
    parser.add_argument("--keys", type=int, default=20, help="key presses of each kind per round (default 20)")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest setting: one round, one start and two keys of each (checks it runs)")
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.starts, args.keys = 1, 1, 2
    if not 1 <= args.starts <= 5:
        parser.error("--starts: 1 to 5 (the hosts have 5 seats)")
    if SSH is None:
        print("no OpenSSH client (ssh) on this machine: nothing measured")
        return
    describe(args)
    with tempfile.TemporaryDirectory(prefix="waddle-bench-ssh-") as tmp:
        folder = Path(tmp)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "LC_ALL": "C.UTF-8",
               "PYTHONIOENCODING": "utf-8", "XDG_DATA_HOME": str(folder / "data"),
               "XDG_STATE_HOME": str(folder / "state")}
        env.pop("NO_COLOR", None)
        kinds = [Kind("waddle join", join_argv), Kind("ssh", ssh_argv(folder / "known_hosts"))]
        for number in range(args.rounds):
            one_round(kinds, folder, env, args.starts, args.keys, number)
    join, ssh = kinds
    print("from the client's start to the lobby drawn, ms:")
    for kind in kinds:
        print(f"  {kind.name:12} {figures(kind.starts)}")
    print(f"  ssh / waddle join: {statistics.median(ssh.starts) / statistics.median(join.starts):.2f}x (goal <= 1.5x)")
    print("from a key press to the screen showing it, ms:")
    for kind in kinds:
        print(f"  {kind.name:12} {figures(kind.keys)}")
    print(f"  ssh / waddle join: {statistics.median(ssh.keys) / statistics.median(join.keys):.2f}x (goal <= 1.5x)")
    print("CPU per key press by the processes on its way, ms (their threads' schedstat over the presses):")
    for kind in kinds:
        print(f"  {kind.name:12} " + "  ".join(f"{role} {seconds * 1000 / len(kind.keys):.2f}"
                                                for role, seconds in kind.cpu.items()))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
