"""One SSH guest's session: the terminal UI as a process of its own in a pseudo-terminal.

Isolation: each guest's screen is a separate process (``SshConfig.guest_command``, the
``waddle`` UI over :mod:`client.sshguest`), so a screen that crashes or hangs stops only
that process; the host and the other guests never share its memory or its loop. It
reaches the host as any client does (:meth:`server.ssh.bridge.Bridge.open_link`), and the
host's limits, checks and timeouts apply to it as to any connection.

The pseudo-terminal follows the guest's terminal: its size from ``pty-req`` and every
``window-change`` (the kernel tells the screen, SIGWINCH), its TERM and what it can show
(:mod:`server.ssh.terminal`). Bytes go both ways without interpretation; each way
waits for the other end (a guest who reads slowly stops only its own screen, which then
stops reading the host, whose queue limits apply). The screen process reports each seat
token it is given, with its table, on a pipe (``--seat-fd``), which the gateway remembers
for the guest's key or name (:mod:`server.ssh.admission`); a returning guest's screen is
given its tokens back and, at a club, goes straight to the table of the newest.

When the guest goes (its connection lost), the screen process is ended (SIGTERM, then
SIGKILL after :data:`KILL_AFTER` seconds): the host sees a link drop, the seat is held
as for any dropped link. When the screen process ends by itself, the guest's terminal is
handed back (:data:`server.ssh.terminal.RESET`) and the SSH session closes with its exit
status.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import itertools
import json
import logging
import os
import signal
import struct
import termios

from server.logbudget import peer_log
from server.ssh.admission import Back
from server.ssh.library import asyncssh
from server.ssh.terminal import RESET, term_name, ui_flags

log = logging.getLogger("waddle.server.ssh")

#: Seconds a screen process has to end after SIGTERM before it is killed.
KILL_AFTER = 3.0
#: The longest line the screen process may write on its seat pipe.
MAX_SEAT_LINE = 256
#: The longest join code typed on the screen.
MAX_CODE = 128
#: What of the host's environment the screen process gets (the rest stays with the host):
#: where programs and Python's modules are, and how this Python caches bytecode (a host
#: run with ``PYTHONDONTWRITEBYTECODE`` or ``PYTHONPYCACHEPREFIX`` has its guests' screens
#: write no bytecode, or write it there, as the host does).
KEPT_ENVIRONMENT = ("PATH", "HOME", "PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE",
                    "PYTHONPYCACHEPREFIX", "SYSTEMROOT")

_numbers = itertools.count(1)


class GuestSession(asyncssh.SSHServerSession):
    """The one session of ``server``'s connection (:class:`server.ssh.gate.GuestServer`)."""

    def __init__(self, server) -> None:
        self.server = server
        self.gate = server.gate
        self.chan: asyncssh.SSHServerChannel | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.code: str | None = None       # the code the guest gave on the screen
        self._prompt: _CodePrompt | None = None
        self._pty: _Pty | None = None
        self._gone = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._ended = False

    # -- asyncssh's callbacks -------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size, term_modes) -> bool:
        self.term = term_name(term_type)
        self._resize(*term_size[:2])
        return True

    def shell_requested(self) -> bool:
        if self.term is None:
            self.chan.write_stderr(b"Waddle needs a terminal: run ssh without -T (and without a command).\r\n")
            return False
        return True

    def exec_requested(self, command: str) -> bool:
        peer_log.info("SSH %s@%s: exec refused", self.server.name, self.server.address)
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        peer_log.info("SSH %s@%s: subsystem refused", self.server.name, self.server.address)
        return False

    def session_started(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype) -> None:
        if self._pty is not None:
            self._pty.write(data)
        elif self._prompt is not None:
            self._prompt.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._resize(width, height)
        if self._pty is not None:
            self._pty.resize(*self.size)

    def eof_received(self) -> bool:
        return True  # the guest sends no more: the screen goes on until the connection ends

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        pass  # the guest's keys reach the screen as keys; no signal does

    def pause_writing(self) -> None:
        if self._pty is not None:
            self._pty.pause_output()

    def resume_writing(self) -> None:
        if self._pty is not None:
            self._pty.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone.set()
        if self._prompt is not None:
            self._prompt.cancel()

    # -- the session ------------------------------------------------------------------

    def _resize(self, width: int, height: int) -> None:
        self.size = (max(1, min(width, 1000)), max(1, min(height, 1000)))

    async def end(self, reason: str) -> None:
        """End the session: the screen process stopped, ``reason`` told, the channel closed."""
        if self._task is None:
            self._close(reason, 0)
            return
        self._gone.set()
        if self._prompt is not None:
            self._prompt.cancel()
        with contextlib.suppress(Exception):
            await self._task
        self._close(reason, 0)

    def _close(self, reason: str | None, status: int) -> None:
        if self._ended:
            return
        self._ended = True
        with contextlib.suppress(Exception):
            if reason:
                self.chan.write(RESET + f"\r\nWaddle: {reason}.\r\n".encode())
            self.chan.exit(status if 0 <= status < 256 else 1)

    async def _run(self) -> None:
        server, bridge = self.server, self.gate.bridge
        try:
            backs = await bridge.call(bridge.admission.returning, server.fingerprint, server.name)
            if backs and backs[0].code and not await self._ask_code(backs[0].table):
                backs = []  # a name without its table's code: at the club's lobby as someone new
            if not backs and server.needs_code and not server.admitted and not await self._ask_code():
                return self._close("no join code given", 1)
            why = self.gate.may_open(server.address, returning=bool(backs))
            if why:
                return self._close(why, 1)
            self.gate.sessions[self] = server.address
            try:
                await self._play(backs)
            finally:
                self.gate.sessions.pop(self, None)
        except RuntimeError as exc:  # the host is stopping
            self._close(str(exc), 1)
        except Exception:
            log.exception("SSH session of %s@%s failed", server.name, server.address)
            self._close("the session failed (the host's log says why)", 1)

    async def _ask_code(self, table: str | None = None) -> bool:
        """Ask the guest for a join code on the screen: the host's one table's (``table``
        ``None``: a guest who came with a key) or, at a club, that of the table of id
        ``table`` where the guest's name holds a seat; whether they gave it (within
        :data:`server.ssh.gate.CODE_TRIES` tries)."""
        from server.ssh.gate import CODE_TRIES

        bridge = self.gate.bridge
        question = b"This table has a join code. Join code: " if table is None else \
            b"Your seat is at a table with a join code. Join code (Enter: to the club's lobby): "
        for _ in range(CODE_TRIES):
            self._prompt = _CodePrompt()
            self.chan.write(question)
            code = await self._prompt.answer()
            self._prompt = None
            if code is None or (table is not None and not code):
                self.chan.write(b"\r\n")
                return False
            if await bridge.call(bridge.admission.check_code, self.server.address, code, table):
                self.code = code if table is None else None
                self.chan.write(b"\r\n")
                return True
            self.chan.write(b"\r\nWrong code.\r\n")
        return False

    async def _play(self, backs: list[Back]) -> None:
        server, bridge = self.server, self.gate.bridge
        label = f"#ssh{next(_numbers)} {server.address} ({server.name})"
        path = await bridge.call(bridge.open_link, label, server.address, server.fingerprint)
        try:
            peer_log.info("SSH guest %s from %s%s", server.name, server.address,
                     f" (key {server.fingerprint})" if server.fingerprint else "")
            self._pty = _Pty(self.chan, self.size)
            seats = _SeatPipe(self._remember)
            try:
                process = await self._spawn(path, seats.write_fd, backs)
            finally:
                seats.started()
            try:
                status = await self._wait(process)
            finally:
                seats.close()
        finally:
            bridge.close_link(path)
        if status is not None:
            self._pty.drain()
            self._close(None if status == 0 else "the game's screen ended unexpectedly", status)

    async def _spawn(self, path: str, seat_fd: int, backs: list[Back]) -> asyncio.subprocess.Process:
        server = self.server
        chan_env = self.chan.get_environment()
        env = {name: os.environ[name] for name in KEPT_ENVIRONMENT if name in os.environ}
        env.update(TERM=self.term, LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8")
        code = None if self.gate.bridge.admission.club else server.code or self.code
        if code:
            env["WADDLE_CODE"] = code  # not on the command line: others on the host could read it
        if backs:  # the guest's own tokens, by table: not on the command line either
            env["WADDLE_SEATS"] = json.dumps({back.table: back.token for back in backs})
        club = ["--club", *(["--table", backs[0].table] if backs else [])] if self.gate.bridge.admission.club else []
        argv = [*self.gate.config.guest_command, "--socket", path, "--name", server.name,
                "--seat-fd", str(seat_fd), "--again", self.gate.command(server.name),
                "--at", f"{self.gate.shown}:{self.gate.port}", *club, *ui_flags(self.term, chan_env)]
        slave = self._pty.slave
        try:
            return await asyncio.create_subprocess_exec(
                *argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                start_new_session=True, pass_fds=(seat_fd,))
        finally:
            self._pty.started()

    async def _wait(self, process: asyncio.subprocess.Process) -> int | None:
        """Wait for the screen process to end (its exit status) or the guest to go (``None``:
        the process is then ended)."""
        exited = asyncio.ensure_future(process.wait())
        gone = asyncio.ensure_future(self._gone.wait())
        try:
            await asyncio.wait({exited, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if exited.done():
            return exited.result()
        await _stop(process, exited)
        self._pty.close()
        return None

    def _remember(self, table: str, token: str) -> None:
        bridge = self.gate.bridge
        future = asyncio.ensure_future(bridge.call(bridge.admission.remember, self.server.fingerprint,
                                                   self.server.name, table, token))
        future.add_done_callback(lambda f: f.cancelled() or f.exception())


async def _stop(process: asyncio.subprocess.Process, exited: asyncio.Future) -> None:
    """End ``process``: SIGTERM, then SIGKILL after :data:`KILL_AFTER` seconds."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(sig)
        try:
            await asyncio.wait_for(asyncio.shield(exited), KILL_AFTER)
            return
        except TimeoutError:
            continue


class _Pty:
    """A pseudo-terminal between a channel and a screen process: bytes both ways, each way
    paused while the other end cannot take more."""

    def __init__(self, chan: asyncssh.SSHServerChannel, size: tuple[int, int]) -> None:
        self.chan = chan
        self.loop = asyncio.get_running_loop()
        self._pending = bytearray()  # keys the screen has not taken yet
        self._reading = False
        self._closed = False
        self.master, self.slave = os.openpty()
        os.set_blocking(self.master, False)
        self.resize(*size)
        self.resume_output()

    def started(self) -> None:
        """The screen process has the terminal (or failed to start): close this side's copy."""
        if self.slave >= 0:
            os.close(self.slave)
            self.slave = -1

    def resize(self, width: int, height: int) -> None:
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))

    def write(self, data: bytes) -> None:
        """The guest's keys, to the screen."""
        if self._closed:
            return
        if self._pending:
            self._pending += data
            return
        self._pending += data
        self._flush()

    def _flush(self) -> None:
        try:
            written = os.write(self.master, self._pending)
        except BlockingIOError:
            written = 0
        except OSError:
            self._pending.clear()
            return
        del self._pending[:written]
        if self._pending:
            self.chan.pause_reading()
            self.loop.add_writer(self.master, self._drained)

    def _drained(self) -> None:
        self.loop.remove_writer(self.master)
        self._flush()
        if not self._pending:
            self.chan.resume_reading()

    def pause_output(self) -> None:
        if self._reading:
            self.loop.remove_reader(self.master)
            self._reading = False

    def resume_output(self) -> None:
        if not self._reading and not self._closed:
            self.loop.add_reader(self.master, self._readable)
            self._reading = True

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 1 << 16)
        except BlockingIOError:
            return
        except OSError:  # EIO: the screen process has closed the terminal
            data = b""
        if data:
            self.chan.write(data)
        else:
            self.pause_output()

    def drain(self) -> None:
        """Send what the ended screen process wrote last, then close."""
        for _ in range(64):
            try:
                data = os.read(self.master, 1 << 16)
            except OSError:
                break
            if not data:
                break
            self.chan.write(data)
        self.close()

    def close(self) -> None:
        if self._closed:
            return
        self.pause_output()
        self.loop.remove_writer(self.master)
        self._closed = True
        self.started()
        os.close(self.master)


class _SeatPipe:
    """The pipe on which the screen process reports each seat token it is given (one
    ``seated TABLE TOKEN`` line each time: the table's id and the token), read on the loop."""

    def __init__(self, remember) -> None:
        self.remember = remember
        self.loop = asyncio.get_running_loop()
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)
        self._buffer = bytearray()
        self.loop.add_reader(self.read_fd, self._readable)

    def started(self) -> None:
        if self.write_fd >= 0:
            os.close(self.write_fd)
            self.write_fd = -1

    def _readable(self) -> None:
        try:
            data = os.read(self.read_fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.loop.remove_reader(self.read_fd)
            return
        self._buffer += data
        *lines, rest = self._buffer.split(b"\n")
        self._buffer = bytearray(rest[:MAX_SEAT_LINE])
        for line in lines:
            words = line.decode("ascii", "replace").split(" ")
            if len(words) == 3 and words[0] == "seated" and all(words[1:]) and line.isascii():
                self.remember(words[1], words[2])

    def close(self) -> None:
        self.started()
        if self.read_fd >= 0:
            self.loop.remove_reader(self.read_fd)
            os.close(self.read_fd)
            self.read_fd = -1


class _CodePrompt:
    """A join code typed on the guest's screen (not echoed): Enter ends it, Backspace takes
    back a character, Ctrl-C or Ctrl-D gives up."""

    def __init__(self) -> None:
        self._text = bytearray()
        self._done: asyncio.Future = asyncio.get_running_loop().create_future()

    async def answer(self) -> str | None:
        """The code typed (``None``: the guest gave up or went)."""
        return await self._done

    def cancel(self) -> None:
        if not self._done.done():
            self._done.set_result(None)

    def feed(self, data: bytes) -> None:
        for byte in data:
            if self._done.done():
                return
            if byte in (13, 10):
                self._done.set_result(self._text.decode("utf-8", "replace"))
            elif byte in (3, 4):
                self.cancel()
            elif byte in (8, 127):
                del self._text[-1:]
            elif byte >= 32 and len(self._text) < MAX_CODE:
                self._text.append(byte)


