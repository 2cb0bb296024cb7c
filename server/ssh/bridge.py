"""The boundary between the host's trio run and the SSH gateway's asyncio loop.

trio runs one run per thread, and asyncssh runs on asyncio, so the gateway has a thread
and an event loop of its own (:mod:`server.ssh.gate`), started and stopped by
:func:`run_gateway`, a task of the host. The two loops never block each other: the
asyncio side asks the trio side through :meth:`Bridge.call`, which schedules a trio task
in the gateway's nursery (``TrioToken.run_sync_soon``) and hands its outcome back on the
asyncio loop (``loop.call_soon_threadsafe``); the trio side touches the asyncio loop only
through ``call_soon_threadsafe``. Everything of the table (codes, seats, connections) is
read and changed in the trio run only.

A guest's screen process reaches the host through a Unix socket of its own session, in
a private folder (mode 0700), whose connections :meth:`server.host.Host.serve_stream`
serves as it serves TCP connections: labelled with the guest's name and counted under
the guest's own IP address, so the host's per-address limits (and a club's per-address
limit on the tables opened) apply to SSH guests too; a seat such a connection takes keeps
the guest's key fingerprint, which the history stores.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import outcome
import trio

from server.ssh.admission import Admission


@dataclass
class SshConfig:
    """How to serve the terminal UI over SSH.

    ``port``: the TCP port (0: any free one), on the host's own address.
    ``guest_command``: the program each guest's session runs in its pseudo-terminal, as
    an argv prefix (``waddle`` gives ``python -m client.sshguest``; the session adds its
    options, :mod:`server.ssh.session`). ``key_path``: the host key file
    (``None``: :func:`server.ssh.keys.default_path`). ``max_sessions``: guests' sessions
    at once (a guest whose key or name gets a seat back is let in over it).
    ``login_timeout``: seconds a connection has to finish its handshake and log in.
    """

    port: int = 0
    guest_command: Sequence[str] = ()
    key_path: str | Path | None = None
    max_sessions: int = 32
    login_timeout: float = 20.0


class GatewayError(OSError):
    """The gateway could not listen: ``str()`` says which port and why (``"its SSH port
    2222 (--ssh): Address already in use"``), as :attr:`strerror` does."""

    def __str__(self) -> str:
        return self.strerror


@dataclass(frozen=True)
class SshListening:
    """Where the gateway listens: its ``port``, the host key's ``fingerprint``
    (``"SHA256:..."``) and the ``command`` guests type (``ssh -p PORT NAME@HOST``)."""

    port: int
    fingerprint: str
    command: str


class Bridge:
    """What the asyncio side may ask of the host: :attr:`admission` and the guests' links.

    Made by :func:`run_gateway` in the host's trio run; :meth:`call` is the one door from
    the asyncio loop.
    """

    def __init__(self, host, nursery: trio.Nursery, folder: str) -> None:
        self.host = host
        self.admission = Admission(host)
        self._nursery = nursery
        self._token = trio.lowlevel.current_trio_token()
        self._folder = folder
        self._links = itertools.count(1)
        self._listeners: dict[str, trio.CancelScope] = {}

    async def call(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run ``function(*args)`` in the host's trio run and return its result (awaited if
        it is a coroutine); called on the asyncio loop, which it never blocks.

        Raises:
            whatever ``function`` raised; ``RuntimeError`` once the host's run is ending.
        """
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def done(result: outcome.Outcome) -> None:
            try:
                loop.call_soon_threadsafe(_settle, future, result)
            except RuntimeError:  # the loop has ended: nobody waits for the answer
                pass

        try:
            self._token.run_sync_soon(self._start, function, args, done)
        except trio.RunFinishedError:
            raise RuntimeError("the host has stopped") from None
        return await future

    def _start(self, function, args, done) -> None:
        try:
            self._nursery.start_soon(self._run, function, args, done)
        except RuntimeError as exc:  # the nursery is closed: the host is stopping
            done(outcome.Error(exc))

    @staticmethod
    async def _run(function, args, done) -> None:
        try:
            result = function(*args)
            if inspect.isawaitable(result):
                result = await result
        except trio.Cancelled:
            done(outcome.Error(RuntimeError("the host stopped")))
            raise
        except Exception as exc:
            done(outcome.Error(exc))
        else:
            done(outcome.Value(result))

    # -- the guests' links (trio side) ----------------------------------------------------

    async def open_link(self, label: str, address: str, fingerprint: str | None = None) -> str:
        """A fresh Unix socket path on which each connection is served by the host as a
        client from ``address`` labelled ``label``, whose SSH key is ``fingerprint`` (a seat
        it takes keeps it for the history; ``None``: no key), until :meth:`close_link`."""
        path = os.path.join(self._folder, f"{next(self._links)}.sock")
        sock = trio.socket.socket(trio.socket.AF_UNIX, trio.socket.SOCK_STREAM)
        await sock.bind(path)
        sock.listen(8)
        scope = trio.CancelScope()
        self._listeners[path] = scope
        self._nursery.start_soon(self._serve_link, trio.SocketListener(sock), scope, label, address,
                                 fingerprint)
        return path

    def close_link(self, path: str) -> None:
        """Stop accepting on ``path`` (its connections go on until they end)."""
        scope = self._listeners.pop(path, None)
        if scope is not None:
            scope.cancel()
        try:
            os.unlink(path)
        except OSError:
            pass

    async def _serve_link(self, listener: trio.SocketListener, scope: trio.CancelScope,
                          label: str, address: str, fingerprint: str | None) -> None:
        with scope:
            async with listener:
                while True:
                    stream = await listener.accept()
                    self.host.serve_stream(stream, label, address, fingerprint)


def _settle(future: asyncio.Future, result: outcome.Outcome) -> None:
    if future.cancelled():
        return
    if isinstance(result, outcome.Value):
        future.set_result(result.value)
    else:
        future.set_exception(result.error)


#: The start of a gateway's private folder's name, then its host's process id.
FOLDER_PREFIX = "waddle-ssh-"


def remove_stale_folders(where: str | None = None) -> None:
    """Remove the private folders (in ``where``, default the temporary one) that gateways of
    this user left behind when their host was killed: those whose host process is gone."""
    where = where or tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for entry in os.scandir(where):
            pid = entry.name[len(FOLDER_PREFIX):].partition("-")[0]
            if entry.name.startswith(FOLDER_PREFIX) and pid.isdigit() and not _alive(int(pid)) \
                    and entry.is_dir(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_uid == os.getuid():
                shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def run_gateway(host, config: SshConfig, *,
                      task_status: trio.TaskStatus[SshListening] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve ``host``'s table or club over SSH on ``host.address``:``config.port`` until cancelled;
    ``task_status.started(SshListening)`` once listening. On the way out every guest's
    session ends (its screen process stopped) before this returns.

    Raises:
        GatewayError: the port cannot be bound (within an exception group).
        OSError: the host key cannot be made or read.
        ValueError: the host key file is unusable (:func:`server.ssh.keys.host_key`).
    """
    from server.ssh.gate import Gate
    from server.ssh.keys import fingerprint, host_key

    key = await trio.to_thread.run_sync(host_key, config.key_path)
    remove_stale_folders()
    folder = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-")  # mode 0700: only this user connects
    try:
        async with trio.open_nursery() as nursery:
            bridge = Bridge(host, nursery, folder)
            gate = Gate(bridge, config, key, host.address, host.config.limits.max_per_address)
            thread = _LoopThread(gate)
            try:  # stopped also when cancelled while it starts (a host quit at once)
                try:
                    port = await thread.start()
                except OSError as exc:
                    why = os.strerror(exc.errno) if exc.errno else str(exc)
                    raise GatewayError(exc.errno, f"its SSH port {config.port} (--ssh): {why}") from None
                task_status.started(SshListening(port, fingerprint(key), gate.command()))
                await trio.sleep_forever()
            finally:
                with trio.CancelScope(shield=True):
                    await thread.stop()
                nursery.cancel_scope.cancel()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class _LoopThread:
    """The gateway's asyncio loop in a thread of its own, started and stopped from trio.

    :meth:`stop` may come before the loop runs (the host cancelled while the gate starts):
    the loop then ends as soon as the gate listens, and the thread is waited for, so it
    never reports to a trio run that has ended (``RunFinishedError`` printed by the thread,
    the gate left listening)."""

    def __init__(self, gate) -> None:
        self.gate = gate
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._stopping = False
        self._lock = threading.Lock()  # _loop, _stop and _stopping, between the two threads
        self._thread = threading.Thread(target=self._main, name="waddle-ssh", daemon=True)
        self._listening = trio.Event()
        self._started: outcome.Outcome | None = None
        self._token = trio.lowlevel.current_trio_token()

    async def start(self) -> int:
        """Start the thread; return the port once the gate listens.

        Raises:
            OSError: the gate could not listen.
        """
        self._thread.start()
        await self._listening.wait()
        return self._started.unwrap()

    async def stop(self) -> None:
        """End every session and the loop (at once, or as soon as it runs); wait for the thread."""
        with self._lock:
            self._stopping = True
            loop, stop = self._loop, self._stop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:  # the loop already ended
                pass
        if self._thread.ident is not None:  # started
            await trio.to_thread.run_sync(self._thread.join)

    def _report(self, result: outcome.Outcome) -> None:
        def report():
            self._started = result
            self._listening.set()

        self._token.run_sync_soon(report)

    def _main(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        with self._lock:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            if self._stopping:  # stopped before the loop ran
                self._stop.set()
        try:
            port = await self.gate.listen()
        except BaseException as exc:
            self._report(outcome.Error(exc))
            return
        self._report(outcome.Value(port))
        try:
            await self._stop.wait()
        finally:
            await self.gate.close()
