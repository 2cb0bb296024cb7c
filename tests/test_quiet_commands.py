"""Every ``waddle`` command, started as a user starts it, says nothing on stderr but its own.

Each command runs as a real process (``python -m client.cli``, as the other process tests
start it) with ``PYTHONWARNINGS`` taken out of its environment, so Python's default
warning filters apply as on a user's machine, and its stderr is read apart from its
screen. What it wrote there may hold no line of a Python warning
(``file.py:12: SomeWarning: ...``), no traceback, no "Exception ignored in", nothing naming
``site-packages``: a library's deprecation (cryptography 51 made ``import asyncssh`` print
ten lines before ``waddle serve --ssh``'s first) or an error inside one shows here first.
Where a command's stderr is known exactly it is asserted exactly (nothing at all, for most);
a host's is its log, each line one of its records.

Covered: serve and host (a table, ``--ssh``, ``--club --ssh``; ``--lan`` inside a private
network namespace, tests/lan_kit.py, skipped where none can be made, with ``tables --lan``
finding the served table), play (and ``--ssh``), join, watch, bot, tables, stats, replay
(``--text``, and the history's list then the viewer), arena (its worker processes), demo,
map. The full-screen commands run in a pseudo-terminal of 80x24, stderr a separate file;
each is quit with its keys (``q``, and ``y`` if asked) once its first screen shows. join,
watch, bot, tables, stats and replay use one club of this module (``waddle serve
--club``), where ``waddle bot`` plays one quick game; the club's own log is checked when it
stops. Two checks of the check: a library's warning and a traceback are seen; and the
cause of the one traceback this found (the SSH gateway's thread, left running by a host
quit while it started) stays fixed. Waiting is for lines and screens, bounded by a
timeout; no sleeps.
"""

from __future__ import annotations

import fcntl
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest
from lan_kit import namespace_held
from test_pty import Screen as PyteScreen
from test_pty import Terminal, foreground_job, pyte, wait

ROOT = Path(__file__).parents[1]
TIMEOUT = 60.0

#: What only Python or a library writes: a warning's first line (``path.py:12:
#: CategoryWarning: message``), a traceback, an error ignored at exit, a crash.
FOREIGN = re.compile(r":\d+: \w*Warning: |Traceback \(most recent call last\)|^Exception ignored in"
                     r"|^Fatal Python error|site-packages")
#: A host's log record on stderr (``waddle serve``'s format: time, level, message).
LOG_LINE = re.compile(r"\d\d:\d\d:\d\d (DEBUG|INFO|WARNING|ERROR|CRITICAL) \S.*")


def foreign(stderr: str) -> list[str]:
    """The lines of ``stderr`` that are not the project's own (see :data:`FOREIGN`)."""
    return [line for line in stderr.splitlines() if FOREIGN.search(line)]


def assert_quiet(stderr: str, exactly: str | None = None, lines: re.Pattern | None = None) -> None:
    """``stderr`` holds no foreign line; it is ``exactly`` if given; each of its lines
    matches ``lines`` if given."""
    assert not foreign(stderr), "foreign lines on stderr:\n" + stderr
    if exactly is not None:
        assert stderr == exactly
    if lines is not None:
        odd = [line for line in stderr.splitlines() if not lines.fullmatch(line)]
        assert not odd, f"lines on stderr that are not the command's own: {odd}\n{stderr}"


def quiet_env(**extra: str) -> dict[str, str]:
    """The environment a user's shell gives: no ``PYTHONWARNINGS`` (a test run's must not
    hide a warning, nor add one), the checkout importable, UTF-8."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
           **extra}
    env.pop("PYTHONWARNINGS", None)
    return env


def waddle(*argv: str) -> list[str]:
    return [sys.executable, "-m", "client.cli", *argv]


def run(*argv: str, env: dict[str, str] | None = None, prefix: list[str] = ()) -> subprocess.CompletedProcess:
    """``waddle argv`` to its end (stdin closed), bounded by :data:`TIMEOUT`; output as text."""
    return subprocess.run([*prefix, *waddle(*argv)], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=TIMEOUT, env=env or quiet_env(), cwd=ROOT)


class Process:
    """A long-running ``waddle`` (a host): stdout and stderr each read by a thread into
    lines, so that a test waits for a line of either, then stops it with SIGINT."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=ROOT, text=True)
        self.out: list[str] = []
        self.err: list[str] = []
        self.changed = threading.Condition()
        self.readers = [threading.Thread(target=self._read, args=(stream, lines), daemon=True)
                        for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for reader in self.readers:
            reader.start()

    def _read(self, stream, lines: list[str]) -> None:
        for line in stream:
            with self.changed:
                lines.append(line)
                self.changed.notify_all()
        with self.changed:
            lines.append("")  # the end
            self.changed.notify_all()

    def wait_for(self, text: str, where: str = "out", timeout: float = TIMEOUT) -> str:
        """The first line of stdout (``where="out"``) or stderr (``"err"``) holding ``text``,
        once it came; fails naming ``text`` after ``timeout`` or at the end of the output."""
        lines = self.out if where == "out" else self.err
        with self.changed:
            self.changed.wait_for(lambda: any(text in line for line in lines) or "" in lines, timeout)
            for line in lines:
                if text in line:
                    return line
        raise AssertionError(f"no line with {text!r} on std{where}; stdout:\n{''.join(self.out)}\n"
                             f"stderr:\n{''.join(self.err)}")

    def stop(self) -> str:
        """SIGINT (Ctrl-C), as a user stops a host; its exit status asserted 0; its stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(10)
        for reader in self.readers:
            reader.join(10)
        self.proc.stdout.close()
        self.proc.stderr.close()
        assert self.proc.returncode == 0, "".join(self.err)
        return "".join(self.err)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class FullScreen(Terminal):
    """``waddle argv`` in a pseudo-terminal (tests/test_pty.py's :class:`Terminal`), its
    stderr not on the screen but in the file ``stderr``, environment ``env``."""

    def __init__(self, argv: list[str], stderr: Path, env: dict[str, str], prefix: list[str] = ()) -> None:
        self.screen = PyteScreen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.output = bytearray()
        self.stderr = stderr
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {**env, "TERM": "xterm-256color"}
        env.pop("NO_COLOR", None)
        with open(stderr, "wb") as file:
            self.proc = subprocess.Popen([*prefix, *waddle(*argv)], stdin=slave, stdout=slave,
                                         stderr=file, env=env, cwd=ROOT, start_new_session=True,
                                         preexec_fn=foreground_job)
        os.close(slave)
        self.fd = master
        self.screen.write_process_input = lambda data: os.write(self.fd, data.encode())

    def ended(self) -> bool:
        """Whether the command closed its terminal or ended."""
        return self.fd_closed or self.proc.poll() is not None

    def quit(self, keys: str = "q") -> str:
        """Press ``keys``, answer ``y`` if asked to be sure, wait for the command to end
        (exit status 0); its stderr."""
        self.keys(keys)
        wait([self], lambda: self.ended() or ASKED.search(self.screen.display[-1]),
             "the command ending or asking to be sure")
        if not self.ended():
            self.keys("y")
            wait([self], self.ended, "the command ending")
        self.proc.wait(TIMEOUT)  # its terminal closed: it is ending
        assert self.proc.returncode == 0, self.stderr.read_text()
        return self.stderr.read_text()


#: A question a full-screen command asks on its last line before it quits.
ASKED = re.compile(r"\? .*(y: yes, any other key: no|y/n) *$")


def screen(argv: list[str], first: str, tmp_path: Path, env: dict[str, str] | None = None,
           prefix: list[str] = (), keys: str = "q") -> str:
    """``waddle argv`` on a screen until ``first`` shows, then quit with ``keys``; its stderr."""
    terminal = FullScreen(argv, tmp_path / "stderr", env or quiet_env(), prefix)
    try:
        wait([terminal], lambda: first in terminal.text() or terminal.ended(),
             f"{first!r} on the first screen")
        assert first in terminal.text(), (f"the command ended (status {terminal.proc.returncode}) "
                                          f"before {first!r} showed; stderr:\n{terminal.stderr.read_text()}")
        return terminal.quit(keys)
    finally:
        terminal.close()


# -- one club for the clients: join, watch, bot, tables, stats, replay ---------------------------


class Club:
    """The module's club (``waddle serve --club`` on a free port), its folder and history."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.history = folder / "history.sqlite"
        self.saves = folder / "club"
        self.env = quiet_env(XDG_STATE_HOME=str(folder / "state"), XDG_DATA_HOME=str(folder / "data"))
        self.host = Process(waddle("serve", "--club", "--port", "0", "--pace", "0", "--log-level", "info",
                                   "--history", str(self.history), "--save", str(self.saves)), self.env)
        try:
            first = self.host.wait_for("Waddle club on 127.0.0.1:")
        except BaseException:
            self.host.kill()
            raise
        self.where = re.search(r"127\.0\.0\.1:\d+", first).group(0)


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """The module's club; stopped at the end, when its own stderr (its log, while every
    client here came and went) must be quiet too."""
    club = Club(tmp_path_factory.mktemp("quiet-club"))
    yield club
    assert_quiet(club.host.stop(), lines=LOG_LINE)  # stop() kills it if it does not end


@pytest.fixture(scope="module")
def played(club):
    """``waddle bot`` opening a table of two at the club and playing it to its end against
    the club's random bot; the finished process, and the table's save file."""
    done = run("bot", club.where, "--create", "hex", "--players", "2", "--bots", "random", "--strategy",
               "random", "--start", env=club.env)
    assert done.returncode == 0, done.stderr
    assert "winner:" in done.stdout
    (save,) = club.saves.glob("*.waddle.json")
    return done, save


namespace = pytest.fixture(namespace_held, scope="module")


# -- on the LAN: first, so that their waits (mDNS's probes, a browse) overlap the other tests ------


@pytest.mark.slow
def test_serve_on_the_lan_and_tables_lan_write_only_their_own_on_stderr(namespace, tmp_path):
    """``waddle serve --lan`` advertises its table; ``waddle tables --lan`` lists it."""
    host = Process([*namespace.prefix, *waddle("serve", "--lan", "--port", "0", "--players", "2", "--no-history",
                                               "--log-level", "info", "--save", str(tmp_path / "save"))],
                   quiet_env())
    try:
        port = re.search(r" on [\d.]+:(\d+)", host.wait_for("Waddle host on ")).group(1)
        host.wait_for("advertised on the LAN as", where="err")
        found = run("tables", "--lan", "--json", "--browse", str(TIMEOUT), prefix=namespace.prefix)
        assert found.returncode == 0, found.stderr
        assert re.findall(r'"port": (\d+)', found.stdout) == [port]
        assert_quiet(found.stderr, exactly="")
        stderr = host.stop()
    finally:
        host.kill()
    assert_quiet(stderr, lines=LOG_LINE)


@pytest.mark.pty
def test_host_on_the_lan_writes_nothing_on_stderr(namespace, tmp_path):
    stderr = screen(["host", "--lan", "--port", "0", "--players", "2", "--no-history", "--name", "Ann",
                     "--save", str(tmp_path / "save")], "waddle join ", tmp_path, prefix=namespace.prefix)
    assert_quiet(stderr, exactly="")


# -- commands that print and end -----------------------------------------------------------------


@pytest.mark.slow
def test_map_writes_nothing_on_stderr():
    done = run("map", "--players", "3", "--seed", "1")
    assert done.returncode == 0 and done.stdout
    assert_quiet(done.stderr, exactly="")


@pytest.mark.slow
def test_demo_writes_nothing_on_stderr(tmp_path):
    done = run("demo", "--players", "2", "--seed", "1", "--pace", "0", "--bots", "random",
               "--record", str(tmp_path / "demo.json"))
    assert done.returncode == 0 and "record saved to" in done.stdout
    assert_quiet(done.stderr, exactly="")


@pytest.mark.slow
def test_arena_writes_only_its_progress_on_stderr(tmp_path):
    done = run("arena", "random", "greedy", "--games", "2", "--seed", "1", "--records", str(tmp_path))
    assert done.returncode == 0, done.stderr
    header, *progress = done.stderr.splitlines()
    assert re.fullmatch(r"waddle arena: 2 games of Waddle, 2 players, round robin, seed 1, \d at once", header)
    assert [line.split()[0] for line in progress] == ["1/2", "2/2"]
    assert_quiet(done.stderr, lines=re.compile(r"waddle arena: .*|\d/2 games  \d+:\d\d elapsed  ETA \d+:\d\d  "
                                               r"game \d: .+"))


@pytest.mark.slow
def test_bot_writes_nothing_on_stderr(played):
    done, _ = played
    assert_quiet(done.stderr, exactly="")


@pytest.mark.slow
def test_tables_of_a_club_write_nothing_on_stderr(club, played):
    done = run("tables", club.where, env=club.env)
    assert done.returncode == 0 and "Waddle 1" in done.stdout
    assert_quiet(done.stderr, exactly="")


@pytest.mark.slow
def test_stats_write_nothing_on_stderr(club, played):
    club.host.wait_for("written to the history", where="err")
    done = run("stats", "--history", str(club.history), env=club.env)
    assert done.returncode == 0 and "random (bot)" in done.stdout
    assert_quiet(done.stderr, exactly="")


@pytest.mark.slow
def test_replay_as_text_writes_nothing_on_stderr(played):
    _, save = played
    done = run("replay", str(save), "--text")
    assert done.returncode == 0 and "points: " in done.stdout
    assert_quiet(done.stderr, exactly="")


# -- hosts without a screen ------------------------------------------------------------------------

SERVES = {"table": (), "ssh": ("--ssh", "0"), "club-ssh": ("--club", "--ssh", "0")}


@pytest.mark.slow
@pytest.mark.parametrize("options", SERVES.values(), ids=SERVES.keys())
def test_serve_writes_only_its_log_on_stderr(tmp_path, options):
    host = Process(waddle("serve", "--port", "0", "--players", "2", "--no-history", "--log-level", "info",
                          "--save", str(tmp_path / "save"), *options), quiet_env())
    try:
        port = re.search(r" on 127\.0\.0\.1:(\d+)", host.wait_for("Waddle ")).group(1)
        host.wait_for("Ctrl-C stops the host")
        host.wait_for(f"listening on 127.0.0.1:{port}", where="err")
        stderr = host.stop()
    finally:
        host.kill()
    assert_quiet(stderr, lines=LOG_LINE)
    if "--ssh" in options:
        assert "SSH gateway listening on 127.0.0.1:" in stderr


# -- full-screen commands --------------------------------------------------------------------------

HOSTS = {"table": (), "ssh": ("--ssh", "0"), "club-ssh": ("--club", "--ssh", "0")}


@pytest.mark.pty
@pytest.mark.parametrize("options", HOSTS.values(), ids=HOSTS.keys())
def test_host_writes_nothing_on_stderr(tmp_path, options):
    first = "ssh -p" if "--ssh" in options else "waddle join 127.0.0.1:"
    stderr = screen(["host", "--port", "0", "--players", "2", "--no-history", "--name", "Ann",
                     "--save", str(tmp_path / "save"), *options], first, tmp_path)
    assert_quiet(stderr, exactly="")


PLAYS = {"bots": (), "ssh": ("--ssh", "0")}


@pytest.mark.pty
@pytest.mark.parametrize("options", PLAYS.values(), ids=PLAYS.keys())
def test_play_writes_nothing_on_stderr(tmp_path, options):
    stderr = screen(["play", "--bots", "1", "--seed", "1", "--no-history", "--name", "Ann",
                     "--record", str(tmp_path / "game.json"), *options], "Waddle: the lobby", tmp_path)
    assert_quiet(stderr, exactly="")


@pytest.mark.pty
def test_join_a_club_writes_nothing_on_stderr(club, tmp_path):
    stderr = screen(["join", club.where, "--name", "Ann"], f"Waddle club at {club.where}", tmp_path, club.env)
    assert_quiet(stderr, exactly="")


@pytest.mark.pty
def test_watch_writes_nothing_on_stderr(club, played, tmp_path):
    _, save = played
    table = save.name.removesuffix(".waddle.json")
    stderr = screen(["watch", club.where, "--table", table], "GAME OVER", tmp_path, club.env)
    assert_quiet(stderr, exactly="")


@pytest.mark.pty
def test_replay_from_the_history_writes_only_its_question_on_stderr(club, played, tmp_path):
    club.host.wait_for("written to the history", where="err")
    terminal = FullScreen(["replay", "--history", str(club.history)], tmp_path / "stderr", club.env)
    try:
        wait([terminal], lambda: "The latest games in" in terminal.text(), "the history's games")
        terminal.keys("\r")  # Enter: the first
        wait([terminal], lambda: "REPLAY  move 0 of" in terminal.text(), "the viewer")
        stderr = terminal.quit()
    finally:
        terminal.close()
    # input() asks on stderr when stdin and stdout are a terminal and readline is not loaded
    assert_quiet(stderr, lines=re.compile(r"(Which game\? 1 \(Enter: 1, q: none\) )?"))


# -- the check itself, and a cause it found ------------------------------------------------------

LIBRARY = '''
import warnings


class LibraryDeprecationWarning(UserWarning):  # as cryptography's is
    pass


warnings.warn("names a deprecated thing", LibraryDeprecationWarning)
'''


@pytest.mark.slow
def test_the_check_sees_a_library_warning_and_a_traceback(tmp_path):
    """A library warning as it imports (a ``sitecustomize`` in a ``site-packages`` folder,
    imported by every Python the command starts) makes ``waddle map``'s stderr foreign;
    so does a traceback, in Python's own format."""
    library = tmp_path / "site-packages"
    library.mkdir()
    (library / "sitecustomize.py").write_text(LIBRARY)
    (library / "brokenlib.py").write_text("def call():\n    return 1 / 0\n")
    env = quiet_env(PYTHONPATH=f"{ROOT}{os.pathsep}{library}")
    done = run("map", "--players", "3", "--seed", "1", env=env)
    assert done.returncode == 0
    assert [line.split(": ", 1)[1] for line in foreign(done.stderr)] == \
        ["LibraryDeprecationWarning: names a deprecated thing"]
    with pytest.raises(AssertionError, match="foreign lines on stderr"):
        assert_quiet(done.stderr, exactly="")
    crashed = subprocess.run([sys.executable, "-c", "import brokenlib; brokenlib.call()"], env=env,
                             capture_output=True, text=True, timeout=TIMEOUT)
    assert "Traceback (most recent call last):" in foreign(crashed.stderr)
    assert foreign("12:15:03 INFO listening on 127.0.0.1:38133\nwaddle map: no map named 'x'\n") == []


async def test_a_gateway_cancelled_while_it_starts_stops_its_thread(tmp_path, monkeypatch):
    """``waddle play --ssh 0`` quit at once (on a busy machine) printed ``Exception in thread
    waddle-ssh: ... RunFinishedError``: the host was cancelled while its SSH gate started,
    the gateway's thread was never stopped, and reported its port to a trio run that had
    ended. Now the thread is stopped and waited for, its gate closed."""
    import asyncio
    import functools
    import threading
    from types import SimpleNamespace

    import trio

    import server.ssh.gate
    from server.ssh.bridge import SshConfig, run_gateway

    entered, release = threading.Event(), threading.Event()
    closed: list[bool] = []

    class SlowGate:
        """A gate whose listening takes until the test releases it."""

        def __init__(self, *args) -> None:
            pass

        async def listen(self) -> int:
            entered.set()
            await asyncio.get_running_loop().run_in_executor(None, release.wait, TIMEOUT)
            return 2222

        async def close(self) -> None:
            closed.append(True)

        def command(self) -> str:
            return "ssh -p 2222 NAME@127.0.0.1"

    monkeypatch.setattr(server.ssh.gate, "Gate", SlowGate)
    raised: list = []
    monkeypatch.setattr(threading, "excepthook", raised.append)
    before = {thread for thread in threading.enumerate() if thread.name == "waddle-ssh"}
    host = SimpleNamespace(address="127.0.0.1", club=None,
                           config=SimpleNamespace(limits=SimpleNamespace(max_per_address=16)))
    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(functools.partial(run_gateway, host, SshConfig(key_path=tmp_path / "key")))
            await trio.to_thread.run_sync(entered.wait, TIMEOUT)
            nursery.cancel_scope.cancel()  # the host quits while its gate starts
            release.set()
    left = {thread for thread in threading.enumerate() if thread.name == "waddle-ssh"} - before
    assert not left and closed == [True] and raised == []
