"""Who an SSH guest is let in as (docs/ssh.md, "Logging in"): the seat a key or a name
takes back (:class:`server.ssh.admission.Admission`, on a host in virtual time), and the
gateway's session limits (:meth:`server.ssh.gate.Gate.may_open`)."""

import trio
from test_server_kit import config, hosting, started_pair

from server.ssh import SshConfig
from server.ssh.admission import MAX_REMEMBERED, Admission
from server.ssh.gate import Gate

KEY = "SHA256:ann's-key"


async def test_without_a_code_a_name_takes_back_only_a_seat_whose_link_dropped_within_the_grace(autojump_clock):
    async with hosting(config(grace=20)) as (host, connect):
        admission = Admission(host)
        with trio.fail_after(60):
            ada, bob = await started_pair(connect)
            admission.remember(None, "Bob", bob.token)
            assert admission.token_for(None, "Bob") is None  # his link is up: a name takes nobody's seat
            await bob.stream.aclose()
            await ada.until(lambda: not ada.lobby.seats[1].connected)
            await trio.sleep(19)
            assert admission.token_for(None, "Bob") == bob.token  # down, within the grace
            await trio.sleep(2)
            assert host.table.seats.by_token(bob.token) is not None  # the seat is still his...
            assert admission.token_for(None, "Bob") is None  # ...but past the grace a name is not enough
            assert admission.token_for(None, "Ada") is None  # nobody remembered under her name


async def test_with_a_code_the_name_takes_its_seat_back_and_a_key_always_does(autojump_clock):
    async with hosting(config(code="fjord")) as (host, connect):
        admission = Admission(host)
        with trio.fail_after(60):
            ada = await connect()
            seated = await ada.join("Ada", code="fjord")
            admission.remember(None, "Ada", seated.token)
            assert admission.token_for(None, "Ada") == seated.token  # the code was given at the login
            admission.remember(KEY, "Ada", seated.token)
            host.table.code = None
            assert admission.token_for(KEY, "someone else") == seated.token  # the key is the proof
            assert admission.token_for("SHA256:another", "Ada") is None  # another key is someone new
            assert admission.token_for(None, "Ada") is None  # without the code, her link up: no


async def test_the_remembered_seats_are_bounded_the_oldest_forgotten(autojump_clock):
    async with hosting(config(code="fjord")) as (host, connect):
        admission = Admission(host)
        with trio.fail_after(60):
            seated = await (await connect()).join("Ada", code="fjord")
            for i in range(MAX_REMEMBERED + 1):
                admission.remember(None, f"guest {i}", seated.token)
            assert admission.token_for(None, "guest 0") is None
            assert admission.token_for(None, "guest 1") == seated.token
            assert admission.token_for(None, f"guest {MAX_REMEMBERED}") == seated.token


def test_ssh_sessions_are_limited_per_address_and_in_all_but_a_returning_guest_always_gets_in():
    gate = Gate(None, SshConfig(max_sessions=3), None, "127.0.0.1", max_per_address=2)
    gate.sessions = {"s1": "127.0.0.1", "s2": "127.0.0.1"}
    assert gate.may_open("127.0.0.1", returning=False) == "too many SSH sessions from your address"
    assert gate.may_open("127.0.0.1", returning=True) is None
    assert gate.may_open("127.0.0.2", returning=False) is None
    gate.sessions["s3"] = "127.0.0.2"
    assert gate.may_open("127.0.0.3", returning=False) == "the host serves as many SSH guests as it can"
    assert gate.may_open("127.0.0.3", returning=True) is None
