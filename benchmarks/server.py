"""Server benchmark: action round trip next to a TCP echo, and concurrent 4-bot games.

1. Round trip over 127.0.0.1, the server in its own process: a client sends ``act`` and
   waits for its ``played`` event on a two-seat table (the other seat is a second client
   in the same client process); in the same run, a plain trio TCP echo server (also in
   its own process) echoes a frame of the same size. p50 and p99 of each, and the ratio.
2. Capacity: a host process holds N four-seat tables; this process connects four
   headless bot clients to each over TCP. Bots think 0.25-0.75 s (uniform) before each
   action, like quick players; a game lasts about 25 s. After every client connected and
   the games started, for a window: p50/p99/max of every action's round trip, actions
   per second, CPU share and event-loop lag (how late a 10 ms sleep wakes) of both
   processes. The capacity is the largest N with p99 under 50 ms.

The host process tunes its garbage collector as ``waddle serve`` does
(:func:`server.tuning.tune_gc` once the tables are set up); ``--default-gc`` (or
``WADDLE_BENCH_DEFAULT_GC=1``) leaves CPython's defaults, for comparison. ``--freeze``
(or ``WADDLE_BENCH_FREEZE=1``) also calls ``gc.freeze()`` in both processes once the
connections are set up and the games started, so the collector's full passes skip them.

Run: ``python benchmarks/server.py`` (about 6 minutes); ``--quick`` for a short run;
``--smoke`` for the smallest (a few seconds: that it runs, not a figure);
``--tables 50 100`` to choose N.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time

import trio

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


import protocol  # noqa: E402
from protocol.framing import FramedStream, ProtocolError  # noqa: E402
from server import Host, ServerConfig  # noqa: E402
from server.tuning import tune_gc  # noqa: E402
from waddle.hex.actions import Place  # noqa: E402
from waddle.hex.ruleset import RULESET as HEX  # noqa: E402

#: ``gc.freeze()`` once the games started (host) and the clients connected: ``--freeze``.
FREEZE = "--freeze" in sys.argv or os.environ.get("WADDLE_BENCH_FREEZE") == "1"
if FREEZE:
    os.environ["WADDLE_BENCH_FREEZE"] = "1"  # the server processes inherit it
#: CPython's collector settings in the host process, not ``tune_gc``: ``--default-gc``.
DEFAULT_GC = "--default-gc" in sys.argv or os.environ.get("WADDLE_BENCH_DEFAULT_GC") == "1"
if DEFAULT_GC:
    os.environ["WADDLE_BENCH_DEFAULT_GC"] = "1"


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


# -- clients ---------------------------------------------------------------------------------


class BotClient:
    """A headless bot over TCP: joins, readies, plays random legal actions after ``think``."""

    def __init__(self, port: int, name: str, think: tuple[float, float], rng: random.Random,
                 samples: list[float], gate: trio.Semaphore | None = None) -> None:
        self.port, self.name, self.think, self.rng, self.samples = port, name, think, rng, samples
        self.gate = gate  # if given, every act waits for one of its permits
        self.view = None
        self.version = 0
        self.label = self.token = None
        self.sent: dict[int, float] = {}
        self.finished = False
        self.lock = trio.Lock()
        self.ids = 0

    async def send(self, framed: FramedStream, message) -> None:
        async with self.lock:
            await framed.send(message)

    async def run(self) -> None:
        stream = await trio.open_tcp_stream("127.0.0.1", self.port)
        framed = FramedStream.for_client(stream)
        async with trio.open_nursery() as nursery:
            await self.send(framed, protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="bench"))
            await self.send(framed, protocol.Join(name=self.name))
            await self.send(framed, protocol.Ready())
            try:
                while not self.finished:
                    self.handle(await framed.receive(), framed, nursery)
            except ProtocolError:
                pass
            nursery.cancel_scope.cancel()
        await stream.aclose()

    def handle(self, message, framed, nursery) -> None:
        now = time.perf_counter()
        if isinstance(message, protocol.Welcome):
            framed.receives(protocol.server_message(HEX))
        elif isinstance(message, protocol.Seated):
            self.label, self.token = message.label, message.token
        elif isinstance(message, protocol.Started):
            self.view, self.version = HEX.follow(message.view, self.label), message.version
            self.maybe_act(framed, nursery)
        elif isinstance(message, protocol.Played):
            sent = self.sent.pop(message.version, None)
            if sent is not None:
                self.samples.append(now - sent)
            self.view.apply(message.events)
            self.version = message.version
            self.finished = self.view.is_over
            self.maybe_act(framed, nursery)
        elif isinstance(message, protocol.Ping):
            nursery.start_soon(self.send, framed, protocol.Pong(nonce=message.nonce))
        elif isinstance(message, (protocol.Rejected, protocol.Closing)):
            raise RuntimeError(f"{self.name}: {message}")

    def maybe_act(self, framed, nursery) -> None:
        if not self.view.is_over and self.view.audience in self.view.to_act():
            nursery.start_soon(self.act, framed, self.version)

    async def act(self, framed, version: int) -> None:
        await trio.sleep(self.rng.uniform(*self.think))
        if self.gate is not None:
            await self.gate.acquire()
        self.ids += 1
        action = self.rng.choice(self.view.legal_actions())
        self.sent[version + 1] = time.perf_counter()
        await self.send(framed, protocol.Act(id=str(self.ids), version=version, token=self.token,
                                             action=action))


# -- 1. round trip next to echo ----------------------------------------------------------------


async def echo_server(tables: int, players: int) -> None:
    """A plain trio TCP echo server; print its port; run until stdin closes."""
    async def echo(stream):
        try:
            async for data in stream:
                await stream.send_all(data)
        except trio.BrokenResourceError:
            pass

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(functools.partial(trio.serve_tcp, echo, 0, host="127.0.0.1"))
        print(json.dumps([listeners[0].socket.getsockname()[1]]), flush=True)
        await trio.to_thread.run_sync(sys.stdin.read)
        nursery.cancel_scope.cancel()


async def round_trips(echo_port: int, ports: list[int], count: int, batch: int = 50):
    """Echo and action round trips, interleaved in batches so both meet the same conditions."""
    frame = protocol.encode(protocol.Act(id="123", version=17, token="x" * 32,
                                         action=Place((1, -2))))
    echo: list[float] = []
    action: list[float] = []
    gate = trio.Semaphore(0)
    stream = await trio.open_tcp_stream("127.0.0.1", echo_port)
    framed = FramedStream(stream, protocol.ClientMessage, protocol.MAX_CLIENT_FRAME)

    async def games():
        rng = random.Random(1)
        for port in ports:
            async with trio.open_nursery() as players:
                for name in ("a", "b"):
                    players.start_soon(BotClient(port, name, (0, 0), rng, action, gate).run)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(games)
        while len(action) < count:
            for _ in range(batch):
                start = time.perf_counter()
                await framed.send_bytes(frame)
                await framed.receive()
                echo.append(time.perf_counter() - start)
            goal = len(action) + batch
            for _ in range(batch):
                gate.release()
            while len(action) < goal:
                await trio.sleep(0.001)
        nursery.cancel_scope.cancel()
    await stream.aclose()
    return echo, action[:count]


class Subprocess:
    """This script in another process, in one of its server modes; ``ports`` once it listens."""

    def __init__(self, mode: str, tables: int, players: int) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, mode, str(tables), str(players)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ports = json.loads(self.proc.stdout.readline())

    def close(self) -> dict:
        """Stop the process; what it printed on the way out (its loop lag), if anything."""
        self.proc.stdin.close()
        out = self.proc.stdout.read()
        self.proc.wait(30)
        return json.loads(out) if out.strip() else {}


def round_trip(count: int) -> None:
    echo_host = Subprocess("--echo-process", 1, 0)
    host = Subprocess("--host-process", count // 25 + 10, 2)
    try:
        echo, action = trio.run(round_trips, echo_host.ports[0], host.ports, count)
    finally:
        echo_host.close()
        host.close()
    e50, a50 = statistics.median(echo), statistics.median(action)
    print(f"round trip over 127.0.0.1, {count} samples each, interleaved in batches of 50 "
          f"(each server in its own process):")
    print(f"  plain trio TCP echo of an act frame: p50 {ms(e50)}  p99 {ms(percentile(echo, 99))}")
    print(f"  act -> played (host checks, applies, broadcasts to 2 seats, acks):"
          f" p50 {ms(a50)}  p99 {ms(percentile(action, 99))}")
    print(f"  p50 ratio act/echo: {a50 / e50:.2f}x (target <= 2x)")


# -- 2. capacity -------------------------------------------------------------------------------


async def host_process(tables: int, players: int) -> None:
    """Hold ``tables`` tables of ``players`` seats; print their ports; run until stdin closes."""
    async with trio.open_nursery() as nursery:
        hosts = [Host(ServerConfig(settings=protocol.Settings(players=players), seed=i))
                 for i in range(tables)]
        ports = [await nursery.start(host.run) for host in hosts]
        while not all(host.table.is_prepared for host in hosts):  # maps are made while lobbies fill
            await trio.sleep(0.1)
        if not DEFAULT_GC:
            tune_gc()  # as waddle serve does once its table is set up
        if FREEZE:
            nursery.start_soon(freeze_later, tables * 4 * 0.002 + 2)
        print(json.dumps(ports), flush=True)
        lags: list[float] = []
        pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        gc.callbacks.append(functools.partial(time_collections, pauses, {}))
        nursery.start_soon(loop_lag, lags)
        await trio.to_thread.run_sync(sys.stdin.read)
        print(json.dumps({"lag_p99": percentile(lags, 99), "lag_max": max(lags),
                          "gc": {g: [len(p), max(p, default=0)] for g, p in pauses.items()}}), flush=True)
        nursery.cancel_scope.cancel()


def time_collections(pauses: dict[int, list[float]], started: dict, phase: str, info: dict) -> None:
    """A ``gc.callbacks`` entry: append each collection's duration to ``pauses[generation]``."""
    if phase == "start":
        started["at"] = time.perf_counter()
    elif "at" in started:
        pauses[info["generation"]].append(time.perf_counter() - started.pop("at"))


async def freeze_later(seconds: float) -> None:
    """Freeze again once the clients are connected and the games started."""
    await trio.sleep(seconds)
    gc.freeze()


async def loop_lag(lags: list[float], every: float = 0.01) -> None:
    """Record how late the event loop wakes a task that sleeps ``every`` seconds."""
    while True:
        start = time.perf_counter()
        await trio.sleep(every)
        lags.append(time.perf_counter() - start - every)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def load(ports: list[int], warmup: float, window: float) -> dict:
    samples: list[float] = []
    rng = random.Random(7)
    clients = [BotClient(port, f"bot{i}", (0.25, 0.75), random.Random(rng.random()), samples)
               for port in ports for i in range(4)]
    async with trio.open_nursery() as nursery:
        for client in clients:
            nursery.start_soon(client.run)
            await trio.sleep(0.002)  # connect gradually
        await trio.sleep(warmup)
        if FREEZE:
            gc.freeze()
        del samples[:]
        lags: list[float] = []
        nursery.start_soon(loop_lag, lags)
        started, cpu = time.perf_counter(), sum(os.times()[:2])
        await trio.sleep(window)
        measured = list(samples)
        elapsed = time.perf_counter() - started
        cpu = (sum(os.times()[:2]) - cpu) / elapsed
        nursery.cancel_scope.cancel()
    return {"samples": measured, "elapsed": elapsed, "cpu": cpu, "lag_p99": percentile(lags, 99),
            "lag_max": max(lags),
            "playing": sum(1 for c in clients if c.view is not None) // 4}


def capacity(counts: list[int], warmup: float, window: float) -> None:
    print(f"\nconcurrent 4-bot games (host in its own process; 4 TCP bot clients per table in "
          f"this process; think 0.25-0.75 s; window {window:g} s after {warmup:g} s warm-up):")
    print(f"  host GC: {'CPython defaults' if DEFAULT_GC else 'tune_gc() after set-up'}"
          f"{'; gc.freeze() in both processes once the games started' if FREEZE else ''}")
    print(f"  {'tables':>6} {'clients':>7} {'actions/s':>9} {'p50':>9} {'p99':>9} {'max':>9}"
          f" {'host CPU':>8} {'host lag p99':>12} {'clients CPU':>11} {'clients lag p99':>15}")
    best = 0
    for n in counts:
        host = Subprocess("--host-process", n, 4)
        try:
            cpu0 = cpu_seconds(host.proc.pid)
            result = trio.run(load, host.ports, warmup, window)
            cpu = (cpu_seconds(host.proc.pid) - cpu0) / (result["elapsed"] + warmup + n * 4 * 0.002)
        finally:
            lag = host.close()
        s = result["samples"]
        p99 = percentile(s, 99) if s else float("inf")
        print(f"  {n:>6} {4 * n:>7} {len(s) / result['elapsed']:>9.0f} {ms(statistics.median(s)):>9} "
              f"{ms(p99):>9} {ms(max(s)):>9} {cpu:>8.0%} {ms(lag.get('lag_p99', 0)):>12} "
              f"{result['cpu']:>11.0%} {ms(result['lag_p99']):>15}")
        print(f"         loop lag max: host {ms(lag.get('lag_max', 0))}, clients {ms(result['lag_max'])}")
        collections = lag.get("gc", {})
        print("         host collections (count, longest) since set-up: " + ", ".join(
            f"gen {g} {count} {ms(longest)}" for g, (count, longest) in sorted(collections.items())))
        if result["playing"] != n:
            print(f"         only {result['playing']} of {n} tables were playing")
        if p99 < 0.050 and result["playing"] == n:
            best = n
    print(f"  largest measured count with p99 < 50 ms: {best} tables (target 500)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest setting: 50 round trips, 2 tables for a second (checks it runs)")
    parser.add_argument("--freeze", action="store_true",
                        help="gc.freeze() again once the games started (see above)")
    parser.add_argument("--default-gc", action="store_true",
                        help="CPython's collector settings in the host, not tune_gc (see above)")
    parser.add_argument("--tables", type=int, nargs="+")
    parser.add_argument("--host-process", type=int, nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--echo-process", type=int, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.host_process or args.echo_process:
        trio.run(host_process if args.host_process else echo_server,
                 *(args.host_process or args.echo_process))
        return
    if args.smoke:
        round_trip(50)
        capacity(args.tables or [2], warmup=1.0, window=0.5)
        return
    round_trip(500 if args.quick else 3000)
    counts = args.tables or ([50, 200] if args.quick else [100, 250, 500, 750])
    # games last about 25 s (50 actions, 0.5 s a move): measure after every client has
    # connected and before the first games end
    capacity(counts, warmup=3.0 if args.quick else 8.0, window=5.0 if args.quick else 12.0)


if __name__ == "__main__":
    main()
