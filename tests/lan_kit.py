"""A private network namespace for LAN discovery tests: multicast never leaves it.

:func:`namespace` makes a user and network namespace (``unshare -rn``) whose only
interface is loopback, up and with multicast on, held open by a process that ends when the
test closes its stdin (or dies). Commands join it with :attr:`Namespace.prefix`
(``nsenter``). Where namespaces cannot be made, the test is skipped saying why.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SETUP = "ip link set lo up && ip link set lo multicast on && echo ready && exec cat"


class Namespace:
    """A running namespace: ``prefix`` runs a command inside it."""

    def __init__(self, holder: subprocess.Popen) -> None:
        self.holder = holder
        self.prefix = ["nsenter", "-t", str(holder.pid), "-U", "-n", "--preserve-credentials"]

    def run(self, argv: list[str], timeout: float = 60, **options) -> subprocess.CompletedProcess:
        """Run ``argv`` inside, bounded by ``timeout``; output captured as text."""
        return subprocess.run([*self.prefix, *argv], capture_output=True, text=True,
                              timeout=timeout, env=env(), cwd=tempfile.gettempdir(), **options)

    def popen(self, argv: list[str], **options) -> subprocess.Popen:
        return subprocess.Popen([*self.prefix, *argv], env=env(), cwd=tempfile.gettempdir(), **options)

    def waddle(self, *argv: str) -> list[str]:
        return [sys.executable, "-m", "client.cli", *argv]

    def close(self) -> None:
        self.holder.stdin.close()
        try:
            self.holder.wait(10)
        except subprocess.TimeoutExpired:
            self.holder.kill()
            self.holder.wait(10)
        self.holder.stdout.close()
        self.holder.stderr.close()


def namespace_held() -> Iterator[Namespace]:
    """What a ``namespace`` fixture yields (at the scope the test module chooses): a new
    namespace, closed after its tests."""
    space = make_namespace()
    try:
        yield space
    finally:
        space.close()


def stop(*procs: subprocess.Popen) -> None:
    """Kill ``procs`` (if still running), wait for them and close their pipes."""
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}


def make_namespace() -> Namespace:
    """A new namespace (see the module docstring); skips the test where none can be made."""
    missing = [tool for tool in ("unshare", "nsenter", "ip") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"LAN tests need a private network namespace: {', '.join(missing)} not found")
    holder = subprocess.Popen(["unshare", "-rn", "sh", "-c", SETUP], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ready, _, _ = select.select([holder.stdout], [], [], 20)
    line = holder.stdout.readline() if ready else b""
    if line.strip() != b"ready":
        holder.kill()
        _, err = holder.communicate(timeout=10)
        pytest.skip(f"LAN tests need a private network namespace (unshare -rn), which cannot be "
                    f"made here: {err.decode(errors='replace').strip() or 'no answer'}")
    return Namespace(holder)


def wait_for_line(proc: subprocess.Popen, text: str, timeout: float = 30) -> list[str]:
    """Read ``proc``'s stdout (a pipe, unbuffered bytes) until a line holds ``text``; the
    lines read. Fails naming ``text`` after ``timeout`` seconds or at the end of the output."""
    import time

    fd = proc.stdout.fileno()
    data = b""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0 and text.encode() not in data:
        ready, _, _ = select.select([fd], [], [], left)
        chunk = os.read(fd, 1 << 16) if ready else b""
        if not chunk:
            break
        data += chunk
    lines = data.decode("utf-8", "replace").splitlines()
    if not any(text in line for line in lines):
        raise AssertionError(f"no line with {text!r}; got:\n" + "\n".join(lines))
    return lines
