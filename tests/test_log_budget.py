"""The host's log is bounded in all (server/logbudget.py): lines about connections at most
30 a minute (bursts of 10) over every connection, what was dropped counted once a minute, and what a
person needs (listening, a game started and over, the host stopped and the game saved)
never dropped: under a join-code brute force and a frame fuzz over a whole game, on
loopback with trio's autojump clock."""

from __future__ import annotations

import functools
import itertools
import logging
import random
import re
import struct

import trio
from test_server_kit import Client, config, tcp_client

import protocol
from server import Host
from server.guard import Guard
from server.logbudget import LogBudget, peer_log


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def record(level: int = logging.INFO) -> logging.LogRecord:
    return logging.LogRecord("waddle.server.peers", level, __file__, 1, "a line", None, None)


def test_thirty_lines_a_minute_pass_in_bursts_of_ten_the_rest_are_counted_by_level():
    clock = Clock()
    budget = LogBudget(lines=30, interval=60.0, burst=10, clock=clock)
    assert [budget.filter(record()) for _ in range(15)] == [True] * 10 + [False] * 5
    assert not budget.filter(record(logging.WARNING))
    clock.now += 10  # 10 s bring 5 more
    assert [budget.filter(record()) for _ in range(6)] == [True] * 5 + [False]
    clock.now += 3600  # an hour brings no more than a burst
    assert sum(budget.filter(record()) for _ in range(20)) == 10
    assert budget.summary() == ("log budget: 17 lines about connections not logged "
                                "(16 INFO, 1 WARNING; at most 30 a minute are)")
    assert budget.summary() is None and budget.dropped == 17


def test_errors_and_debug_lines_always_pass():
    budget = LogBudget(burst=1, clock=Clock())
    assert budget.filter(record())
    assert all(budget.filter(record(logging.ERROR)) for _ in range(100))
    assert all(budget.filter(record(logging.DEBUG)) for _ in range(100))
    assert not budget.filter(record()) and budget.dropped == 1


class Lines(logging.Handler):
    """Every line written to the log, with its trio time."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        self.lines: list[tuple[float, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((trio.current_time(), self.format(record)))


class Attempts(logging.Filter):
    """Counts the lines about connections the host tried to write (before the budget)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        self.count += logging.INFO <= record.levelno < logging.ERROR
        return True


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


JUNK = [frame(b"garbage"), frame(b'{"type": "summon_dragon"}'), frame(b"[" * 3000),
        frame(b'{"type": "act", "id": "x", "version": true, "token": "t", "action": {}}')]


async def guesser(port: int, addresses, stop: trio.Event, rng: random.Random) -> None:
    """Short connections of 15 wrong codes each, one every 0.5 s, until ``stop``."""
    while not stop.is_set():
        stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=next(addresses))
        framed = protocol.FramedStream.for_client(stream)
        async with stream:
            try:
                await framed.send(protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="guess"))
                for _ in range(15):
                    await framed.send(protocol.Join(name="eve", code=f"{rng.getrandbits(40):010x}"))
            except trio.BrokenResourceError:
                pass
        await trio.sleep(0.5)


async def fuzzer(port: int, addresses, stop: trio.Event) -> None:
    """Short connections of garbage frames, one a second, until ``stop``."""
    while not stop.is_set():
        stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=next(addresses))
        async with stream:
            try:
                await stream.send_all(frame(protocol.encode(protocol.Hello(
                    protocol=protocol.PROTOCOL_VERSION, client="fuzz"))[4:]) + b"".join(JUNK * 4))
            except trio.BrokenResourceError:
                pass
        await trio.sleep(1)


async def play_slowly(player: Client, rng: random.Random) -> None:
    """A random legal action 3 s after each turn of ``player`` comes, to the game's end."""
    while True:
        await player.until(lambda: player.game is not None and (player.game.is_over or player.my_turn()))
        if player.game.is_over:
            return
        await trio.sleep(3)
        reply = await player.reply(await player.act(rng.choice(player.game.legal_actions())))
        assert isinstance(reply, protocol.Ack), reply


async def test_guessing_and_garbage_leave_a_few_kilobytes_a_minute_and_nothing_needed_out(
        tmp_path, autojump_clock):
    lines, attempts = Lines(), Attempts()
    loggers = [logging.getLogger(name) for name in ("waddle", "waddle.server", "waddle.server.peers")]
    kept = [(logger.level, logger.propagate, logger.disabled) for logger in loggers]
    for logger in loggers:  # as a host's program has them, whatever tests before left
        logger.propagate, logger.disabled = True, False
        logger.setLevel(logging.NOTSET)
    loggers[0].setLevel(logging.INFO)
    loggers[0].addHandler(lines)
    peer_log.addFilter(attempts)  # before the host's budget, so it counts every attempt
    budget = LogBudget(clock=trio.current_time)
    host = Host(config(code="k7mq3x9d", save=tmp_path / "night.json", log_budget=budget,
                       guard=Guard(clock=trio.current_time)))
    stop, rng = trio.Event(), random.Random(5)
    try:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)

            connect = functools.partial(tcp_client, nursery, port)

            with trio.fail_after(3600):
                ada, bob = await connect(), await connect()
                await ada.join("Ada", code="k7mq3x9d")
                await bob.join("Bob", code="k7mq3x9d")
                addresses = itertools.cycle(f"127.6.{i // 250}.{1 + i % 250}" for i in range(1000))
                for _ in range(4):
                    nursery.start_soon(guesser, port, addresses, stop, random.Random(rng.random()))
                for _ in range(2):
                    nursery.start_soon(fuzzer, port, addresses, stop)
                await trio.sleep(30)  # a flood in the lobby first
                await ada.send(protocol.Start())
                async with trio.open_nursery() as game:
                    game.start_soon(play_slowly, ada, random.Random(1))
                    game.start_soon(play_slowly, bob, random.Random(2))
                assert host.table.phase == "finished"
                stop.set()
                await trio.sleep(61)  # the last minute's count
            nursery.cancel_scope.cancel()
    finally:
        loggers[0].removeHandler(lines)
        for logger, (level, propagate, disabled) in zip(loggers, kept):
            logger.propagate, logger.disabled = propagate, disabled
            logger.setLevel(level)
        peer_log.removeFilter(attempts)
    began, ended = lines.lines[0][0], lines.lines[-1][0]
    minutes = (ended - began) / 60
    written = sum(len(text) + 1 for _, text in lines.lines)
    per_window = max(sum(len(text) + 1 for t, text in lines.lines if start <= t < start + 60)
                     for start, _ in lines.lines)
    texts = [text for _, text in lines.lines]
    counted = sum(int(m.group(1).replace(",", "")) for text in texts
                  if (m := re.search(r"log budget: ([\d,]+) lines", text)))
    peer_lines = attempts.count - budget.dropped
    print(f"{attempts.count} lines about connections tried in {minutes:.1f} min, {peer_lines} written, "
          f"{counted} counted as dropped; log {written} bytes, at most {per_window} in any minute")
    assert minutes > 2 and attempts.count > 30 * minutes * 10  # a flood: ten times the budget
    assert per_window <= 5 * 1024  # 30 lines a minute, 10 more at once, a count, what is needed
    assert counted == budget.dropped == attempts.count - peer_lines > 0
    for needed in ("listening on 127.0.0.1", "game 1 started", "game over: won by",
                   "the host stopped; the finished game is saved (night.json)"):
        assert sum(needed in text for text in texts) == 1, needed
