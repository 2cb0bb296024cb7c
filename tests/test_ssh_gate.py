"""The SSH gateway at the library level, with asyncssh's own client on 127.0.0.1: what
it refuses (exec, sftp, a shell without a terminal, agent, X11 and port forwarding), and the
host key."""

import asyncio
import os
import stat
import threading
import time

import pytest
import trio

from protocol.messages import Settings
from server.host import Host, ServerConfig
from server.ssh import SshConfig
from server.ssh.keys import host_key
from server.ssh.library import asyncssh


def test_hosts_starting_at_once_make_one_host_key_and_none_reads_half_of_it(tmp_path):
    import threading

    path = tmp_path / "keys" / "host_key"
    start, found, failed = threading.Barrier(8), [], []

    def host() -> None:
        start.wait()
        try:
            found.append(host_key(path).get_fingerprint())
        except ValueError as exc:
            failed.append(str(exc))

    threads = [threading.Thread(target=host) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failed and len(found) == 8 and len(set(found)) == 1
    assert sorted(p.name for p in path.parent.iterdir()) == ["host_key"]  # no temporary file left


def test_the_host_key_is_made_private_once_and_reused(tmp_path):
    path = tmp_path / "keys" / "host_key"
    first = host_key(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert host_key(path).get_fingerprint() == first.get_fingerprint()
    os.chmod(path, 0o644)
    with pytest.raises(ValueError, match="may be read by others"):
        host_key(path)
    path.write_text("not a key")
    os.chmod(path, 0o600)
    with pytest.raises(ValueError, match="not an SSH private key"):
        host_key(path)


def _client_checks(port: int, results: dict) -> None:
    async def main():
        async with asyncssh.connect("127.0.0.1", port, username="eve", known_hosts=None,
                                    client_keys=None, password="wrong", preferred_auth="password"):
            results["connected"] = True
        return None

    async def refused():
        try:
            await main()
        except asyncssh.PermissionDenied:
            results["wrong code"] = "refused"
        async with asyncssh.connect("127.0.0.1", port, username="eve", known_hosts=None,
                                    client_keys=None, password="fjord", preferred_auth="password") as conn:
            try:
                await conn.run("id", check=False)
                results["exec"] = "granted"
            except asyncssh.ChannelOpenError:
                results["exec"] = "refused"
            try:
                await conn.start_sftp_client()
            except asyncssh.Error:
                results["sftp"] = "refused"
            try:
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", port)
                results["remote"] = "granted"
            except asyncssh.ChannelListenError:
                results["remote"] = "refused"
            try:
                await conn.open_connection("127.0.0.1", port)
                results["direct"] = "granted"
            except asyncssh.Error:
                results["direct"] = "refused"
            for name, request in [
                    ("shell without a terminal", lambda: conn.run(check=False)),
                    ("x11", lambda: conn.create_session(asyncssh.SSHClientSession, term_type="xterm",
                                                        x11_forwarding=True)),
                    ("subsystem", lambda: conn.create_session(asyncssh.SSHClientSession, subsystem="scp")),
                    ("unix direct", lambda: conn.open_unix_connection("/run/anything.sock")),
                    ("unix remote", lambda: conn.forward_remote_path("/tmp/waddle-never.sock", "/tmp/x")),
                    ("tun", lambda: conn.open_tun()),  # what ssh -w asks: a layer-3 tunnel
                    ("tap", lambda: conn.open_tap())]:
                try:
                    await request()
                    results[name] = "granted"
                except (asyncssh.ChannelOpenError, asyncssh.ChannelListenError):
                    results[name] = "refused"

    asyncio.run(asyncio.wait_for(refused(), 30))


async def _against_a_gateway(tmp_path, guest_command: tuple[str, ...], client) -> dict:
    """Run a host with code ``fjord`` and an SSH gateway whose guests run ``guest_command``,
    and ``client(port, results)`` in a thread of its own (its own asyncio loop) against the
    gateway's port, for at most 90 s; return the ``results`` it filled."""
    host = Host(ServerConfig(address="127.0.0.1", port=0, code="fjord", settings=Settings(players=2),
                             ssh=SshConfig(port=0, guest_command=guest_command, key_path=tmp_path / "key")))
    results: dict = {}
    async with trio.open_nursery() as nursery:
        await nursery.start(host.run)
        thread = threading.Thread(target=client, args=(host.ssh.port, results))
        thread.start()
        with trio.fail_after(90):
            await trio.to_thread.run_sync(thread.join)
        nursery.cancel_scope.cancel()
    return results


async def test_wrong_code_exec_sftp_subsystems_x11_a_bare_shell_forwarding_and_tunnels_are_refused(tmp_path):
    results = await _against_a_gateway(tmp_path, ("false",), _client_checks)
    assert results["wrong code"] == "refused" and "connected" not in results
    assert results["exec"] == "refused"
    assert results["sftp"] == "refused"
    assert results["remote"] == "refused"
    assert results["direct"] == "refused"  # what local forwarding (ssh -L) opens
    for name in ("shell without a terminal", "x11", "subsystem", "unix direct", "unix remote", "tun", "tap"):
        assert results[name] == "refused", name


#: A guest's screen that says whether its session was given an agent (``SSH_AUTH_SOCK``),
#: then waits for a line: the gateway adds its options, which ``sh -c`` takes as ``$1``...
AGENT_SCREEN = ("sh", "-c", 'printf "agent=%s\\n" "${SSH_AUTH_SOCK:-none}"; read line', "sh")


class _Collected(asyncssh.SSHClientSession):
    """What a session's screen wrote, and when it closed."""

    def __init__(self) -> None:
        self.text = ""
        self.wrote = asyncio.Event()
        self.closed = asyncio.Event()

    def data_received(self, data: str, datatype) -> None:
        self.text += data
        self.wrote.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()


def _ask_agent_forwarding(port: int, results: dict) -> None:
    """Log in as ``ssh -A`` does (agent forwarding on: ``auth-agent-req@openssh.com`` sent
    with the terminal session), read what the screen says, and ask again wanting a reply."""
    async def main():
        async with asyncssh.connect("127.0.0.1", port, username="ann", known_hosts=None,
                                    client_keys=None, password="fjord", preferred_auth="password",
                                    agent_forwarding="/nonexistent/agent.sock") as conn:
            channel, session = await conn.create_session(_Collected, term_type="xterm")
            while "\n" not in session.text:
                session.wrote.clear()
                await session.wrote.wait()
            results["screen"] = session.text.strip()
            # asyncssh's client, like OpenSSH's, asks without wanting a reply; the same
            # request wanting one (RFC 4254, 6.1) is what shows the client the gateway's answer
            results["agent granted"] = await channel._make_request(b"auth-agent-req@openssh.com")
            channel.write("\r")
            await session.closed.wait()

    asyncio.run(asyncio.wait_for(main(), 30))


async def test_agent_forwarding_is_refused_and_the_screen_gets_no_agent(tmp_path):
    results = await _against_a_gateway(tmp_path, AGENT_SCREEN, _ask_agent_forwarding)
    assert results["screen"] == "agent=none"
    assert results["agent granted"] is False


#: A guest's screen that says what of the host's environment it was given.
ENVIRONMENT_SCREEN = ("sh", "-c", 'printf "bytecode=%s prefix=%s secret=%s\\n" "${PYTHONDONTWRITEBYTECODE:-none}" '
                      '"${PYTHONPYCACHEPREFIX:-none}" "${WADDLE_HOST_SECRET:-none}"; read line', "sh")


def _read_the_screen(port: int, results: dict) -> None:
    """Log in with the code, read the screen's first line into ``results["screen"]``, answer it."""
    async def main():
        async with asyncssh.connect("127.0.0.1", port, username="ann", known_hosts=None,
                                    client_keys=None, password="fjord", preferred_auth="password") as conn:
            channel, session = await conn.create_session(_Collected, term_type="xterm")
            while "\n" not in session.text:
                session.wrote.clear()
                await session.wrote.wait()
            results["screen"] = session.text.strip()
            channel.write("\r")
            await session.closed.wait()

    asyncio.run(asyncio.wait_for(main(), 30))


async def test_the_screen_gets_how_this_python_caches_bytecode_and_nothing_else_of_the_host(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path / "bytecode"))
    monkeypatch.setenv("WADDLE_HOST_SECRET", "the host's own")
    results = await _against_a_gateway(tmp_path, ENVIRONMENT_SCREEN, _read_the_screen)
    assert results["screen"] == f"bytecode=1 prefix={tmp_path / 'bytecode'} secret=none"


def _flood_then_log_in(port: int, results: dict) -> None:
    """1,000 idle TCP connections to the gateway from 127.0.0.2 (none says a word), then a
    guest from 127.0.0.1 logs in with the code and opens a terminal session; then waits
    (bounded) until the gateway has dropped all but a few of the idle ones."""
    async def main():
        idle = [await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
                for _ in range(1000)]
        start = time.monotonic()
        async with asyncssh.connect("127.0.0.1", port, username="ann", known_hosts=None,
                                    client_keys=None, password="fjord", preferred_auth="password") as conn:
            channel, _ = await conn.create_session(asyncssh.SSHClientSession, term_type="xterm")
            results["in after"] = time.monotonic() - start
            channel.close()
        pending = {asyncio.ensure_future(reader.read()) for reader, _ in idle}  # each ends at EOF
        while len(pending) > 64:  # until all but the newest few were dropped by the gateway
            _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        results["idle dropped"] = 1000 - len(pending)
        for task in pending:
            task.cancel()
        for _, writer in idle:
            writer.close()

    asyncio.run(asyncio.wait_for(main(), 60))


async def test_a_flood_of_idle_handshakes_from_one_address_keeps_nobody_else_out(tmp_path):
    results = await _against_a_gateway(tmp_path, ("sleep", "5"), _flood_then_log_in)
    assert "in after" in results, "the guest never got a session"
    print(f"logged in past 1,000 idle handshakes in {results['in after'] * 1000:.0f} ms")
    assert results["idle dropped"] >= 1000 - 64  # the oldest idle ones were dropped
