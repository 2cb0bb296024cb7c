"""The join code's guard (server/guard.py): delays per address and in all, counted over a
window, bounded state, the default code's length."""

from __future__ import annotations

import threading

import pytest

from server.guard import CODE_ALPHABET, CODE_BITS, CODE_LENGTH, Guard, Policy, address_key, new_code

SECRET = "k7mq3x9d"


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_a_player_who_mistypes_once_gets_in_at_once(clock):
    guard = Guard(clock=clock)
    wrong = guard.check("10.0.0.2", "k7mq3x9e", SECRET)
    assert (wrong.ok, wrong.checked, wrong.wait) == (False, True, 0.0)
    assert wrong.why == "the join code is wrong"
    assert guard.check("10.0.0.2", SECRET, SECRET).ok


def test_wrong_codes_past_the_free_ones_wait_twice_as_long_each_time_up_to_the_cap(clock):
    guard = Guard(Policy(free=3, delay=1.0, max_delay=8.0, overall_free=1000), clock=clock)
    waits = []
    for _ in range(8):
        verdict = guard.check("10.0.0.2", "nope", SECRET)
        assert verdict.checked and not verdict.ok
        waits.append(verdict.wait)
        clock.now += verdict.wait
    assert waits == [0, 0, 0, 1, 2, 4, 8, 8]


def test_a_guess_while_waiting_is_refused_unseen_even_the_right_code(clock):
    guard = Guard(Policy(free=0, delay=10.0), clock=clock)
    guard.check("10.0.0.2", "nope", SECRET)
    clock.now += 4
    early = guard.check("10.0.0.2", SECRET, SECRET)
    assert (early.ok, early.checked) == (False, False)
    assert early.wait == pytest.approx(6.0)
    assert early.why == "too many wrong join codes from your address: try again in 6 s"
    assert (guard.wrong, guard.refused) == (1, 1)
    clock.now += 6
    assert guard.check("10.0.0.2", SECRET, SECRET).ok


def test_another_address_is_not_slowed_by_one_that_guesses(clock):
    guard = Guard(Policy(free=0, delay=60.0), clock=clock)
    guard.check("10.0.0.2", "nope", SECRET)
    assert guard.check("10.0.0.3", SECRET, SECRET).ok


def test_the_right_code_clears_its_address_count(clock):
    guard = Guard(clock=clock)
    for _ in range(3):
        guard.check("10.0.0.2", "nope", SECRET)
    assert guard.wrong_codes("10.0.0.2") == 3
    assert guard.check("10.0.0.2", SECRET, SECRET).ok
    assert guard.wrong_codes("10.0.0.2") == 0


def test_wrong_codes_are_forgotten_after_a_quiet_window(clock):
    guard = Guard(Policy(free=2, delay=5.0, window=100.0), clock=clock)
    for _ in range(3):
        guard.check("10.0.0.2", "nope", SECRET)
    assert guard.wrong_codes("10.0.0.2") == 3
    clock.now += 99
    assert guard.wrong_codes("10.0.0.2") == 3
    clock.now += 1
    assert guard.wrong_codes("10.0.0.2") == 0
    assert guard.check("10.0.0.2", "nope", SECRET).wait == 0


def test_many_addresses_together_are_slowed_like_one(clock):
    guard = Guard(Policy(free=1000, overall_free=5, overall_delay=0.5, overall_max_delay=2.0), clock=clock)
    waits = [guard.check(f"10.0.{n // 250}.{n % 250}", "nope", SECRET).wait for n in range(7)]
    assert waits == [0, 0, 0, 0, 0, 0.5, 0.5]  # the 7th came while the 6th's wait ran: refused unseen
    assert (guard.wrong, guard.refused) == (6, 1)
    refused = guard.check("10.9.9.9", SECRET, SECRET)
    assert refused.why == "too many wrong join codes at this host: try again in 1 s"
    clock.now += 0.5
    assert guard.check("10.9.9.9", SECRET, SECRET).ok


def test_the_guard_remembers_at_most_max_addresses(clock):
    guard = Guard(Policy(max_addresses=100, overall_free=10**6), clock=clock)
    for n in range(1000):
        guard.check(f"127.0.{n // 256}.{n % 256}", "nope", SECRET)
    assert len(guard) == 100
    assert guard.wrong_codes("127.0.3.231") == 1  # the last one (n = 999) is kept
    assert guard.wrong_codes("127.0.0.0") == 0  # the first is forgotten


@pytest.mark.parametrize(("address", "key"), [
    ("192.168.1.7", "192.168.1.7"),
    ("::ffff:192.168.1.7", "192.168.1.7"),
    ("fe80::1:2:3:4%eth0", "fe80::/64"),
    ("2001:db8:0:1:aaaa::1", "2001:db8:0:1::/64"),
    (None, ""),
    ("not an address", "not an address"),
])
def test_an_ipv6_address_counts_as_its_64_network(address, key):
    assert address_key(address) == key


def test_addresses_of_one_ipv6_network_share_one_count(clock):
    guard = Guard(Policy(free=1, delay=30.0), clock=clock)
    guard.check("2001:db8::1", "nope", SECRET)
    guard.check("2001:db8::2", "nope", SECRET)
    assert guard.check("2001:db8::ffff:3", SECRET, SECRET).checked is False


@pytest.mark.parametrize("given", [None, "", "k7mq3x9d" * 10_000, "k7mq3x9\u00e9", "\x00", "K7MQ3X9D"])
def test_anything_but_the_code_is_wrong(clock, given):
    verdict = Guard(clock=clock).check("10.0.0.2", given, SECRET)
    assert (verdict.ok, verdict.checked) == (False, True)


def test_guesses_from_threads_are_all_counted():
    guard = Guard(Policy(free=10**6, overall_free=10**6))

    def guess() -> None:
        for _ in range(500):
            guard.check("10.0.0.2", "nope", SECRET)

    threads = [threading.Thread(target=guess) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert guard.wrong == guard.wrong_codes("10.0.0.2") == 2000


def test_a_made_up_code_has_40_random_bits():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(len(code) == CODE_LENGTH == 8 and set(code) <= set(CODE_ALPHABET) for code in codes)
    assert len(set(CODE_ALPHABET)) == 32 and CODE_BITS == 40
    assert not set("ilou") & set(CODE_ALPHABET)


def test_the_default_policy_leaves_a_night_of_guessing_a_tiny_chance():
    policy = Policy()
    assert policy.guesses_per_minute() == 30  # one per 2 s in all
    # 30 a minute for 720 minutes, plus 30 + 3 free ones: 21,633 of 2**40 codes
    assert policy.night_chance() == pytest.approx(21_633 / 2**40)
    assert policy.night_chance() < 2e-8
    assert policy.night_chance(bits=24) > 1e-3  # the old six hex digits: not enough



async def test_over_tcp_a_guesser_is_refused_unseen_and_another_address_still_gets_in():
    import trio
    from test_server_kit import Client, config

    import protocol
    from server import Host

    host = Host(config(code=SECRET, guard=Guard(Policy(delay=600.0, max_delay=600.0))))  # waits outlast the test

    async def connect(nursery, address: str) -> Client:
        client = Client(await trio.open_tcp_stream("127.0.0.1", port, local_address=address))
        nursery.start_soon(client.pump)
        return client

    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        with trio.fail_after(30):
            eve = await connect(nursery, "127.0.0.1")
            await eve.hello()
            codes = []
            for guess in ("aaaa", "bbbb", "cccc", "dddd", "eeee", SECRET):
                await eve.send(protocol.Join(name="Eve", code=guess))
                codes.append((await eve.expect(protocol.Rejected)).code)
            # 3 free wrong codes, the 4th compared and costs a wait; while it lasts, nothing
            # is compared, not even the right code
            assert codes == ["bad_code"] * 4 + ["rate_limited"] * 2
            ada = await connect(nursery, "127.0.0.2")
            assert (await ada.join("Ada", code=SECRET)).label
        nursery.cancel_scope.cancel()


def test_a_host_s_one_guard_is_its_tables_and_its_gateway_s_even_while_it_has_counted_nothing():
    from server import Host, ServerConfig
    from tests.test_server_kit import config

    given = Guard(Policy(delay=600.0))
    assert len(given) == 0  # an empty guard has a length of 0 (so it is falsy)
    host = Host(config(code=SECRET, guard=given))
    assert host.guard is given and host.table.guard is given
    club = Host(ServerConfig(club=True, port=0))
    table = club.club.create("hex", name="Friday", code=SECRET)
    assert table.guard is club.guard
    table.guard.check("192.0.2.7", "wrong", SECRET)
    assert club.guard.wrong_codes("192.0.2.7") == 1  # counted where the gateway's passwords are
