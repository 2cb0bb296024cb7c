"""Who an SSH guest is let in as (docs/ssh.md, "Logging in"): the seat a key or a name
takes back (:class:`server.ssh.admission.Admission`, on a host in virtual time), at a
host of one table and at a club's tables, and the gateway's session limits
(:meth:`server.ssh.gate.Gate.may_open`)."""

import os

import trio
from test_server_kit import config, hosting, started_pair

from client.botplay import play
from client.club import create_table
from client.core import connect
from protocol import Settings
from server import Host, ServerConfig
from server.ssh import SshConfig
from server.ssh.admission import MAX_REMEMBERED, Admission, Back
from server.ssh.gate import Gate
from waddle.ruleset import get_ruleset

KEY = "SHA256:ann's-key"


def token_for(admission: Admission, fingerprint: str | None, name: str) -> str | None:
    """The token of the newest seat the guest gets back at the host's one table (``None``: none)."""
    backs = admission.returning(fingerprint, name)
    assert all(back.table == admission.host.table.id and not back.code for back in backs)
    return backs[0].token if backs else None


async def test_without_a_code_a_name_takes_back_a_seat_whose_link_is_down_however_long_but_never_one_in_use(
        autojump_clock):
    async with hosting(config(grace=20)) as (host, connect):
        admission = Admission(host)
        with trio.fail_after(900):
            ada, bob = await started_pair(connect)
            admission.remember(None, "Bob", host.table.id, bob.token)
            assert token_for(admission, None, "Bob") is None  # his link is up: a name takes nobody's seat
            await bob.stream.aclose()
            await ada.until(lambda: not ada.lobby.seats[1].connected)
            await trio.sleep(19)
            assert token_for(admission, None, "Bob") == bob.token  # down, within the grace
            await trio.sleep(600)
            assert host.table.seats.by_token(bob.token) is not None  # a stand-in plays it meanwhile...
            assert token_for(admission, None, "Bob") == bob.token  # ...and he comes back late: still his
            assert token_for(admission, None, "Ada") is None  # nobody remembered under her name


async def test_a_name_never_takes_a_seat_a_key_took_last(autojump_clock):
    async with hosting(config(grace=20)) as (host, connect):
        admission = Admission(host)
        with trio.fail_after(60):
            ada, bob = await started_pair(connect)
            admission.remember(None, "Bob", host.table.id, bob.token)  # taken first by name...
            host.table.seats.by_token(bob.token).fingerprint = KEY  # ...then by Bob's key
            await bob.stream.aclose()
            await ada.until(lambda: not ada.lobby.seats[1].connected)
            assert token_for(admission, None, "Bob") is None  # an impostor typing "Bob": no
            assert token_for(admission, KEY, "Bob") == bob.token  # the key: yes


async def test_with_a_code_the_name_takes_its_seat_back_and_a_key_always_does(autojump_clock):
    async with hosting(config(code="fjord")) as (host, connect):
        admission = Admission(host)
        with trio.fail_after(60):
            ada = await connect()
            seated = await ada.join("Ada", code="fjord")
            admission.remember(None, "Ada", host.table.id, seated.token)
            assert token_for(admission, None, "Ada") == seated.token  # the code was given at the login
            admission.remember(KEY, "Ada", host.table.id, seated.token)
            host.table.code = None
            assert token_for(admission, KEY, "someone else") == seated.token  # the key is the proof
            assert token_for(admission, "SHA256:another", "Ada") is None  # another key is someone new
            assert token_for(admission, None, "Ada") is None  # without the code, her link up: no


async def test_the_remembered_seats_are_bounded_the_oldest_forgotten(autojump_clock):
    async with hosting(config(code="fjord")) as (host, connect):
        admission = Admission(host)
        with trio.fail_after(60):
            seated = await (await connect()).join("Ada", code="fjord")
            for i in range(MAX_REMEMBERED + 1):
                admission.remember(None, f"guest {i}", host.table.id, seated.token)
            assert token_for(admission, None, "guest 0") is None
            assert token_for(admission, None, "guest 1") == seated.token
            assert token_for(admission, None, f"guest {MAX_REMEMBERED}") == seated.token


async def test_at_a_club_a_key_gets_back_its_seat_at_each_table_and_a_name_its_newest_with_the_code():
    host = Host(ServerConfig(club=True, port=0, seed=1, grace=20))
    admission = Admission(host)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            assert not admission.needs_code() and admission.club  # the club's lobby is open
            friday = (await create_table("127.0.0.1", port, "hex", Settings(players=2))).table
            coded = (await create_table("127.0.0.1", port, "downtown", Settings(players=2), code="fjord")).table
            async with connect("127.0.0.1", port, name="Ann", table=friday) as at_friday, \
                    connect("127.0.0.1", port, name="Ann", table=coded, code="fjord") as at_coded:
                admission.remember(KEY, "Ann", friday, at_friday.token)
                admission.remember(KEY, "Ann", coded, at_coded.token)
                admission.remember(None, "Ann", friday, at_friday.token)
                admission.remember(None, "Ann", coded, at_coded.token)
                assert await admission.check_code("127.0.0.1", "fjord", coded)
                assert not await admission.check_code("127.0.0.1", "fjorb", coded)
                assert await admission.check_code("127.0.0.1", "anything", friday)  # an open table
                # the key: both seats, the newest first, no code asked (the key is the proof)
                assert admission.returning(KEY, "whoever") == [Back(coded, at_coded.token), Back(friday, at_friday.token)]
                # the name: only its newest seat, and that table's code first (its link is up)
                assert admission.returning(None, "Ann") == [Back(coded, at_coded.token, code=True)]
                host.club.remove(host.club.tables[coded])
                assert admission.returning(KEY, "Ann") == [Back(friday, at_friday.token)]  # a closed table's seat is gone
                assert admission.returning(None, "Ann") == []  # Friday has no code and Ann's link there is up
                assert admission.returning("SHA256:another", "Ann") == []
            # Ann left Friday's lobby: the seat is freed, nothing to get back
            assert admission.returning(KEY, "Ann") == admission.returning(None, "Ann") == []
            nursery.cancel_scope.cancel()


async def test_a_key_finds_a_seat_its_ssh_guest_took_as_a_resumed_save_says_and_none_once_the_game_is_over():
    host = Host(ServerConfig(club=True, port=0, seed=1, bot_delay=0))
    admission = Admission(host)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            made = await create_table("127.0.0.1", port, "hex", Settings(players=2, bots=["random"]))
            async with connect("127.0.0.1", port, name="Ann", table=made.table) as ann:
                assert admission.returning(KEY, "Ann") == []  # never remembered, the seat knows no key
                table = host.club.tables[made.table]
                table.seats[0].fingerprint = KEY  # what a resumed save keeps of a seat taken over SSH
                assert admission.returning(KEY, "whoever") == [Back(made.table, ann.token)]
                assert admission.returning("SHA256:another", "Ann") == admission.returning(None, "Ann") == []
                await ann.start()
                await play(ann, get_ruleset("hex").make_bot("random", 1))
                assert table.phase == "finished"
                assert admission.returning(KEY, "Ann") == []  # a game over: nothing to go back to
            nursery.cancel_scope.cancel()


def test_ssh_sessions_are_limited_per_address_and_in_all_but_a_returning_guest_always_gets_in():
    gate = Gate(None, SshConfig(max_sessions=3), None, "127.0.0.1", max_per_address=2)
    gate.sessions = {"s1": "127.0.0.1", "s2": "127.0.0.1"}
    assert gate.may_open("127.0.0.1", returning=False) == "too many SSH sessions from your address"
    assert gate.may_open("127.0.0.1", returning=True) is None
    assert gate.may_open("127.0.0.2", returning=False) is None
    gate.sessions["s3"] = "127.0.0.2"
    assert gate.may_open("127.0.0.3", returning=False) == "the host serves as many SSH guests as it can"
    assert gate.may_open("127.0.0.3", returning=True) is None


async def test_a_name_finds_the_seat_its_keyless_ssh_guest_took_after_the_club_is_resumed_however_late(tmp_path):
    folder = tmp_path / "club"
    host = Host(ServerConfig(club=True, port=0, seed=1, bot_delay=0, save=folder))
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            made = await create_table("127.0.0.1", port, "downtown", Settings(players=2, bots=["random"]))
            async with connect("127.0.0.1", port, name="cy", table=made.table) as cy:
                Admission(host).remember(None, "cy", made.table, cy.token)  # cy came over ssh, no key
                await cy.start()
                await cy.wait_for(lambda state: state.view is not None)
                nursery.cancel_scope.cancel()  # the host stops: cy's link is down
    resumed = Host(ServerConfig(club=True, port=0, resume=folder, bot_delay=3600))
    admission = Admission(resumed)  # a new gateway: it never saw cy take the seat
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            await nursery.start(resumed.run)
            table = resumed.club.tables[made.table]
            assert admission.returning(None, "cy") == [Back(made.table, cy.token)]
            assert admission.returning(None, "dee") == []
            seat = table.seats.by_token(cy.token)
            seat.away_since -= 10 * table.grace  # long since the resume (issue 38: she was locked out)
            assert admission.returning(None, "cy") == [Back(made.table, cy.token)]
            nursery.cancel_scope.cancel()


def test_a_gateway_removes_the_folders_that_killed_hosts_left_but_not_a_running_host_s(tmp_path):
    import subprocess
    import sys

    from server.ssh.bridge import FOLDER_PREFIX, remove_stale_folders

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # a process that ended
    stale = tmp_path / f"{FOLDER_PREFIX}{gone}-abc"
    running = tmp_path / f"{FOLDER_PREFIX}{os.getpid()}-def"
    unknown = tmp_path / f"{FOLDER_PREFIX}x1y2z3"  # an older host's name: whose, nobody can tell
    for folder in (stale, running, unknown):
        folder.mkdir()
        (folder / "1.sock").write_text("")
    remove_stale_folders(str(tmp_path))
    assert not stale.exists() and running.exists() and unknown.exists()
