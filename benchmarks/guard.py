"""The join-code guard measured over TCP (issue 28): how many guesses of a join code a host
compares a minute when one address, or 1,000 addresses, guess as fast as the host lets
them, and how soon a player who mistypes the code once gets in.

A real :class:`server.Host` on 127.0.0.1 (its code made by :func:`server.guard.new_code`),
its guard reading trio's clock. Guessers make short connections (as the issue's attacker
did): ``hello``, then 15 ``join``s with random wrong codes, one every 0.05 s (the most a
connection may send: 20 messages a second), then a new connection; from one address 15
connections at once (under its 16), from 1,000 addresses (127.7.x.y) 100 at once, each
connection from the next address. Each answer is counted: ``bad_code`` (the guess was
compared) or ``rate_limited`` (refused unseen). These runs use trio's ``MockClock``
(autojump): the host's timers and the guessers' pace are virtual, so ``--minutes`` of
guessing cost a few seconds of wall time, and the figures are exactly what the guard's
policy allows, not what this machine's speed allows.

Then the same run's baseline, on the real clock: the same guessers against a host whose
guard allows every guess (no delays), for ``--baseline-seconds``: the guesses a second a
host without the guard compares on this machine. And a player from 127.0.0.1 who sends
one wrong code and then the right one, on a quiet host and during the 1,000-address flood
(waiting the time a ``rate_limited`` answer names, then trying again).

Run: ``PYTHONPATH=. python benchmarks/guard.py [--minutes M] [--baseline-seconds S]``;
``--smoke``: a few virtual seconds (that it runs, not a figure).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from pathlib import Path

import trio
import trio.testing

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's server, not benchmarks/server.py

import protocol  # noqa: E402
from protocol import FramedStream  # noqa: E402
from server import Host, ServerConfig  # noqa: E402
from server.guard import CODE_BITS, Guard, Policy, new_code  # noqa: E402
from waddle.hex.tiles import standard_map  # noqa: E402
from waddle.ruleset import Prepared  # noqa: E402

GUESSES_PER_CONNECTION = 15
PACE = 0.05  # seconds between a connection's guesses: 20 a second, its rate limit


class Tally:
    """Answers to guesses: compared ones by the minute they came in (trio time), refused ones."""

    def __init__(self) -> None:
        self.compared: Counter[int] = Counter()
        self.refused = 0
        self.attempts = 0
        self.closed = 0  # connections the host closed (full, idle)

    def add(self, code: str, now: float) -> None:
        self.attempts += 1
        if code == "bad_code":
            self.compared[int(now // 60)] += 1
        elif code == "rate_limited":
            self.refused += 1


async def guesser(port: int, addresses, tally: Tally, stop: trio.Event, rng: random.Random,
                  pace: float | None) -> None:
    """Short connections of wrong codes from the next of ``addresses`` until ``stop``."""
    while not stop.is_set():
        try:
            stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=next(addresses))
        except OSError:
            await trio.sleep(pace or 0)
            continue
        framed = FramedStream.for_client(stream)
        async with stream:
            try:
                await framed.send(protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="guess"))
                if not isinstance(await framed.receive(), protocol.Welcome):
                    continue
                for _ in range(GUESSES_PER_CONNECTION):
                    if stop.is_set():
                        break
                    await framed.send(protocol.Join(name="eve", code=f"{rng.getrandbits(CODE_BITS):010x}"))
                    answer = await framed.receive()
                    if isinstance(answer, protocol.Closing):
                        tally.closed += 1
                        break
                    tally.add(answer.code, trio.current_time())
                    if pace:
                        await trio.sleep(pace)
            except (protocol.ProtocolError, trio.BrokenResourceError):
                pass
        await trio.sleep(pace or 0)


def new_host(code: str, guard: Guard) -> Host:
    return Host(ServerConfig(port=0, code=code, guard=guard, prepared=Prepared(None, standard_map(2, 1)),
                             settings=protocol.Settings(players=2)))


async def flood(addresses: list[str], tasks: int, seconds: float, guard: Guard, *, pace: float | None,
                player: bool = False) -> tuple[Tally, float | None]:
    """``tasks`` guessers over ``addresses`` for ``seconds`` (trio time); with ``player``,
    a player who mistypes once comes in after 10 s: the tally and how long the player took."""
    code, tally, stop = new_code(), Tally(), trio.Event()
    host = new_host(code, guard)
    took = None
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        cycle = itertools.cycle(addresses)
        rng = random.Random(1)
        for _ in range(tasks):
            nursery.start_soon(guesser, port, cycle, tally, stop, random.Random(rng.random()), pace)
        began = trio.current_time()
        if player:
            await trio.sleep(10)
            took = await mistype_once(port, code, seconds - 10)
        await trio.sleep(max(0.0, began + seconds - trio.current_time()))
        stop.set()
        nursery.cancel_scope.cancel()
    return tally, took


async def mistype_once(port: int, code: str, patience: float = 120.0) -> float | None:
    """A player from 127.0.0.1: one wrong code, then the right one (again after the wait a
    ``rate_limited`` answer names): seconds from the wrong code to the seat (trio time);
    ``None``: not seated within ``patience`` seconds."""
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address="127.0.0.1")
    framed = FramedStream.for_client(stream)
    async with stream:
        await framed.send(protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="ada"))
        await framed.receive()
        began = trio.current_time()
        await framed.send(protocol.Join(name="Ada", code=code[::-1] if code[::-1] != code else "wrong"))
        await framed.receive()
        while trio.current_time() < began + patience:
            await framed.send(protocol.Join(name="Ada", code=code))
            answer = await framed.receive()
            if isinstance(answer, protocol.Seated):
                return trio.current_time() - began
            wait = float(answer.message.rsplit("in ", 1)[-1].split(" s")[0]) if "try again in" in answer.message else 1
            await trio.sleep(wait)
            await framed.send(protocol.Ping(nonce=1))  # the idle timeout
            await framed.receive()
    return None


def virtual(function, *args, **kwargs):
    """Run ``function`` under trio's autojump clock, jumping once every task has waited
    3 ms of real time (with 0 the clock would jump while frames are still on their way
    through loopback, and the guessers would guess less than they ask to)."""
    return trio.run(lambda: function(*args, **kwargs), clock=trio.testing.MockClock(autojump_threshold=0.003))


def per_minute(tally: Tally, minutes: int) -> str:
    counts = [tally.compared.get(m, 0) for m in range(minutes)]
    later = counts[1:] or [0]
    return (f"compared a minute: first {counts[0]}, then at most {max(later)} (mean {sum(later) / len(later):.1f}); "
            f"{tally.attempts / max(1, minutes):,.0f} tried a minute, {tally.refused:,} refused unseen, "
            f"{tally.closed} connections closed by the host")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=10, help="virtual minutes of each flood (default 10)")
    parser.add_argument("--baseline-seconds", type=float, default=3.0,
                        help="wall seconds of the unguarded baseline (default 3)")
    parser.add_argument("--smoke", action="store_true", help="the smallest setting")
    args = parser.parse_args()
    minutes = 1 if args.smoke else args.minutes
    seconds = 5.0 if args.smoke else 60.0 * minutes
    baseline_seconds = 0.3 if args.smoke else args.baseline_seconds
    policy = Policy()
    print(f"policy: {policy.free} free then {policy.delay:g} s doubling to {policy.max_delay:g} s per address; "
          f"{policy.overall_free} free then {policy.overall_delay:g} s doubling to {policy.overall_max_delay:g} s "
          f"in all: at most {policy.guesses_per_minute():g} compared a minute in the long run")

    one = ["127.0.0.2"]
    many = [f"127.7.{n // 250}.{1 + n % 250}" for n in range(1000)]

    async def baseline() -> float:
        tally, _ = await flood(one, 15, baseline_seconds, Guard(Policy(free=10**9, overall_free=10**9)), pace=None)
        return tally.attempts / baseline_seconds

    started = time.perf_counter()
    rate = trio.run(baseline)
    print(f"baseline, no guard (real clock, {baseline_seconds:g} s): {rate:,.0f} guesses compared a second "
          f"from one address, 15 connections of {GUESSES_PER_CONNECTION} guesses at once")
    quiet = virtual(mistype_on_a_quiet_host)
    print(f"mistyped once, quiet host: in {quiet:.3f} s after the wrong code")
    for name, addresses, tasks in (("one address", one, 15), ("1,000 addresses", many, 10 if args.smoke else 100)):
        tally, took = virtual(flood, addresses, tasks, seconds, Guard(clock=trio.current_time), pace=PACE,
                              player=not args.smoke)
        print(f"{name}, {tasks} connections at 20 guesses/s for {minutes} virtual min: {per_minute(tally, minutes)}")
        total = sum(tally.compared.values())
        chance = min(1.0, (total / minutes) * 60 * 12 / 2.0 ** CODE_BITS)
        print(f"  at that rate a {CODE_BITS}-bit code is found in a 12-hour night with chance {chance:.1e}")
        if not args.smoke:
            print("  a player from another address who mistyped once 10 s in: " + (
                f"in {took:.2f} s after the wrong code" if took is not None else
                f"not in after {seconds - 10:g} s (every right code refused rate_limited: the guessers "
                f"take each guess the host compares in all)"))
    print(f"wall time {time.perf_counter() - started:.1f} s")


async def mistype_on_a_quiet_host() -> float:
    code = new_code()
    host = new_host(code, Guard(clock=trio.current_time))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        took = await mistype_once(port, code)
        nursery.cancel_scope.cancel()
    return took


if __name__ == "__main__":
    main()
