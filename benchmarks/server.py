"""Server benchmark: action round trip next to a TCP echo, and concurrent 4-bot games.

Every client here is *lean*: it reads raw frames and looks only at their ``type`` and
``version`` (a two-field msgspec decode), though its ``hello`` asks for ``legal`` (so the
host tells every connection who may act and the seat to act its legal actions, with
each event: the host's work for them is measured; ``--lean``: it asks for nothing, as
before issue 27), sends frames encoded ahead of the clock,
follows each table's game once (one engine per table, not per client), and reads a
seat's socket only when it acts (through what came since), so what is measured is the
host, not the clients' own work.

1. Round trip over 127.0.0.1, the server in its own process: a client sends ``act`` and
   waits for its ``played`` event on a two-seat table (the other seat is a second lean
   connection, drained after each sample), with the host's write-ahead on (every table
   saves to a file in a temporary folder: the action's journal line is written before
   the event is sent) and, for comparison, off; in the same run a plain trio TCP echo
   server (also in its own process) echoes a frame of the same size. The three are
   measured in alternating batches of 50 so they meet the same machine load. p50 and
   p99 of each, and the ratios.
2. Capacity: a host process holds N four-seat tables; this process plays four lean bots
   at each over TCP. Bots think 0.25-0.75 s (uniform, rounded up to 10 ms: one task
   wakes them, :class:`Pacer`) before each action, like quick players; a game lasts about 30 s, then its four bots leave, the host process puts a
   fresh table on the same port and the bots join again. Each table's first game starts
   at a random time in the warm-up, so games end at random times, as at a host whose
   tables were not all opened in the same second (started together, all the games of a
   run end within a few seconds of each other, and 4,000 bots leave and join at once).
   This process's collector is managed as the host's is, so its pauses do not count as
   the host's time. After the warm-up, for a window: p50/p99/max of every action's round trip, actions per second, CPU share and
   event-loop lag (how late a 10 ms sleep wakes) of both processes, the host's garbage
   collections by generation, and the host's resident memory (RSS) at the start and the
   end of the window. The capacity is the largest N with p99 under 50 ms.
3. Reference cycles: games played in this one process with the collector off, then one
   collection: the objects only it frees, per game (what the host's generational
   freezing, :mod:`server.tuning`, would never free).

The host process manages its garbage collector as ``waddle serve`` does
(:func:`server.tuning.tune_gc` once the tables are set up, then
:func:`~server.tuning.collect_young`: a young collection every 0.1 s, and what survives
each frozen); ``--default-gc`` leaves CPython's defaults, for comparison.

Run: ``python benchmarks/server.py`` (about 5 minutes); ``--rounds N`` repeats the round
trip N times with fresh servers and gives each round's ratio and their median;
``--quick`` for a short run; ``--smoke`` for the smallest (what the test suite runs);
``--tables 500 1000`` to choose N; ``--window SECONDS`` for the measured window of each
(``--window 600``: ten minutes).
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import json
import math
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time

import msgspec
import trio

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


import protocol  # noqa: E402
from server import Host, ServerConfig  # noqa: E402
from server.tuning import collect_young, tune_gc  # noqa: E402
from waddle.hex.actions import Place  # noqa: E402
from waddle.hex.ruleset import RULESET as HEX  # noqa: E402
from waddle.hex.tiles import standard_map  # noqa: E402
from waddle.ruleset import Prepared  # noqa: E402

#: CPython's collector settings in the host process, not ``tune_gc``: ``--default-gc``.
DEFAULT_GC = "--default-gc" in sys.argv
#: Whether the clients ask the host for ``to_act`` and ``legal`` (not with ``--lean``).
LEGAL = "--lean" not in sys.argv
ASKED = "told to_act and legal" if LEGAL else "asking for nothing (--lean)"
#: Standard maps the capacity tables share (seeds 0 .. MAPS-1).
MAPS = 16
#: A file for the capacity host's profile of its measured window (``--profile``), or "".
PROFILE = os.environ.get("WADDLE_BENCH_PROFILE", "")
profiler = cProfile.Profile()


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def load_average() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def cpu_times() -> tuple[int, int]:
    """The machine's CPU time (clock ticks, all cores): all of it, and what the hypervisor
    stole (given to other guests while this one wanted to run: a stall no process here
    can see but in its latency)."""
    with open("/proc/stat") as f:
        ticks = [int(t) for t in f.readline().split()[1:]]
    return sum(ticks), ticks[7] if len(ticks) > 7 else 0


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        line = next(line for line in f if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


# -- lean clients ----------------------------------------------------------------------------


class _Head(msgspec.Struct):
    """What a lean client reads of a host frame."""

    type: str
    version: int = 0


_head = msgspec.json.Decoder(_Head).decode
_typed = protocol.framing.decoder_for(protocol.server_message(HEX)).decode
_encode = protocol.encode


class Lean:
    """One raw connection: frames in as bytes, pre-encoded frames out."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = bytearray()
        self.token = self.label = None
        self.version = 0

    async def send(self, frame: bytes) -> None:
        """Send a frame (one task a connection: its acts and its pongs never meet)."""
        await self.stream.send_all(frame)

    @classmethod
    async def seat(cls, port: int, name: str) -> Lean:
        """Connected, joined and ready (the ``seated`` frame read)."""
        lean = cls(await trio.open_tcp_stream("127.0.0.1", port))
        hello = protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="bench", legal=LEGAL)
        await lean.stream.send_all(_encode(hello)
                                   + _encode(protocol.Join(name=name)) + _encode(protocol.Ready()))
        while True:
            body = await lean.body()
            head = _head(body)
            if head.type == "seated":
                seated = _typed(body)
                lean.token, lean.label = seated.token, seated.label
                return lean
            if head.type in ("rejected", "closing"):
                await lean.stream.aclose()
                raise LookupError(body.decode())

    async def body(self) -> bytes:
        """The next frame's body."""
        buffer = self.buffer
        while True:
            if len(buffer) >= 4:
                end = 4 + int.from_bytes(buffer[:4], "big")
                if len(buffer) >= end:
                    body = bytes(buffer[4:end])
                    del buffer[:end]
                    return body
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError("the host closed the connection")
            buffer += data

    async def until(self, kind: str, version: int = 0) -> bytes:
        """Read up to the frame of ``kind`` (at ``version`` or later), answering pings."""
        while True:
            body = await self.body()
            head = _head(body)
            if head.type == kind and head.version >= version:
                self.version = max(self.version, head.version)
                return body
            if head.type == "ping":
                await self.send(_encode(protocol.Pong(nonce=_typed(body).nonce)))
            elif head.type == "closing":
                raise EOFError(body.decode())


async def start_table(port: int, players: int) -> tuple[list[Lean], object]:
    """``players`` lean seats at the table on ``port``, the game started: the seats and the
    engine game (if anything fails, the seats taken so far leave)."""
    seats: list[Lean] = []
    try:
        for i in range(players):
            seats.append(await Lean.seat(port, f"p{i}"))
        started = _typed(await seats[0].until("started"))
        for seat in seats[1:]:
            await seat.until("started")
    except BaseException:
        for seat in seats:
            await trio.aclose_forcefully(seat.stream)
        raise
    game = HEX.follow(started.view, None).game
    by_label = {seat.label: seat for seat in seats}
    return [by_label[label] for label in game.players], game


def act_frame(seat: Lean, version: int, action) -> bytes:
    return _encode(protocol.Act(id=str(version), version=version, token=seat.token, action=action))


# -- 1. round trip next to echo ----------------------------------------------------------------


async def echo_server() -> None:
    """A plain trio TCP echo server; print its port; run until stdin closes."""
    async def echo(stream):
        try:
            async for data in stream:
                await stream.send_all(data)
        except trio.BrokenResourceError:
            pass

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(functools.partial(trio.serve_tcp, echo, 0, host="127.0.0.1"))
        print(json.dumps({"ports": [listeners[0].socket.getsockname()[1]]}), flush=True)
        await trio.to_thread.run_sync(sys.stdin.read)
        nursery.cancel_scope.cancel()


class Games:
    """Two-seat games on the host's ``ports``, one after another; :meth:`sample` plays one
    action (a new game when one ends) and returns its act -> played time."""

    def __init__(self, ports: list[int], rng: random.Random) -> None:
        self.ports, self.rng = iter(ports), rng
        self.seats = self.game = None

    async def sample(self) -> float:
        if self.game is None or self.game.is_over:
            self.seats, self.game = await start_table(next(self.ports), 2)
        game, seats = self.game, self.seats
        actor = seats[game.players.index(game.current_player)]
        version = 1 + len(game)
        action = self.rng.choice(game.legal_actions())
        frame = act_frame(actor, version, action)
        start = time.perf_counter()
        await actor.stream.send_all(frame)  # as the echo client sends: no lock (one task here)
        await actor.until("played", version + 1)
        took = time.perf_counter() - start
        game.apply(action)
        for seat in seats:
            if seat is not actor:
                await seat.until("played", version + 1)  # drained, not timed
        return took


async def round_trips(echo_port: int, saved: list[int], unsaved: list[int], count: int, batch: int = 50):
    """Echo and action round trips (write-ahead on, and off), interleaved in batches."""
    frame = _encode(protocol.Act(id="123", version=17, token="x" * 32, action=Place((1, -2))))
    stream = await trio.open_tcp_stream("127.0.0.1", echo_port)
    echoes: list[float] = []
    results = {"echo": echoes, "saved": [], "unsaved": []}
    games = {"saved": Games(saved, random.Random(1)), "unsaved": Games(unsaved, random.Random(1))}
    while len(echoes) < count:
        for _ in range(batch):
            start = time.perf_counter()
            await stream.send_all(frame)
            got = 0
            while got < len(frame):
                got += len(await stream.receive_some(65536))
            echoes.append(time.perf_counter() - start)
        for name, game in games.items():
            for _ in range(batch):
                results[name].append(await game.sample())
    await stream.aclose()
    return results


class Subprocess:
    """This script in another process, in one of its server modes; ``ports`` once it listens."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, *args, *(["--default-gc"] if DEFAULT_GC else [])],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ports = json.loads(self.proc.stdout.readline())["ports"]

    def close(self) -> dict:
        """Stop the process; what it printed on the way out (its loop lag, collections), if anything."""
        self.proc.stdin.close()
        out = self.proc.stdout.read()
        self.proc.wait(60)
        return json.loads(out) if out.strip() else {}


def round_trip(count: int) -> float:
    """One round of the round trip (fresh server processes); print it; return the
    write-ahead-on p50 ratio to the echo."""
    tables = count // 20 + 10
    with tempfile.TemporaryDirectory() as folder:
        echo_host = Subprocess("--echo-process")
        saved = Subprocess("--host-process", str(tables), "2", "--save-dir", folder)
        unsaved = Subprocess("--host-process", str(tables), "2")
        try:
            results = trio.run(round_trips, echo_host.ports[0], saved.ports, unsaved.ports, count)
        finally:
            for process in (echo_host, saved, unsaved):
                process.close()
    echo = results["echo"]
    e50 = statistics.median(echo)
    print(f"round trip over 127.0.0.1, {count} samples each, interleaved in batches of 50, lean "
          f"clients ({ASKED}), each server in its own process (load average {load_average()}):")
    print(f"  plain trio TCP echo of an act frame:   p50 {ms(e50)}  p99 {ms(percentile(echo, 99))}")
    ratios = {}
    for name, words in (("saved", "write-ahead on "), ("unsaved", "write-ahead off")):
        values = results[name]
        a50 = statistics.median(values)
        ratios[name] = a50 / e50
        print(f"  act -> played, {words}:         p50 {ms(a50)}  p99 {ms(percentile(values, 99))}"
              f"  p50 ratio to echo {a50 / e50:.2f}x")
    print("  (target: write-ahead on within 2x of the echo)")
    return ratios["saved"]


def round_trips_in_rounds(count: int, rounds: int) -> None:
    """``rounds`` rounds of :func:`round_trip`, then the write-ahead-on ratio of each and
    their median (the machine's speed moves the ratio by up to 0.2 within minutes)."""
    ratios = [round_trip(count) for _ in range(rounds)]
    if rounds > 1:
        print(f"write-ahead on, p50 ratio to echo in each of {rounds} rounds: "
              f"{', '.join(f'{r:.2f}x' for r in ratios)}; median {statistics.median(ratios):.2f}x")


async def host_process(tables: int, players: int, save_dir: str | None) -> None:
    """Hold ``tables`` one-game tables of ``players`` seats; print their ports; run until stdin closes."""
    async with trio.open_nursery() as nursery:
        hosts = [Host(ServerConfig(settings=protocol.Settings(players=players), seed=i,
                                   save=os.path.join(save_dir, f"t{i}.json") if save_dir else None))
                 for i in range(tables)]
        ports = [await nursery.start(host.run) for host in hosts]
        while not all(host.table.is_prepared for host in hosts):  # maps are made while lobbies fill
            await trio.sleep(0.1)
        tune_like_serve(nursery)
        print(json.dumps({"ports": ports}), flush=True)
        if PROFILE:
            profiler.enable()
        await trio.to_thread.run_sync(sys.stdin.read)
        if PROFILE:
            profiler.disable()
            profiler.dump_stats(f"{PROFILE}.{'on' if save_dir else 'off'}")  # write-ahead on or off
        nursery.cancel_scope.cancel()


def tune_like_serve(nursery: trio.Nursery) -> None:
    """The collector as ``waddle serve`` runs it once its table is set up (not with ``--default-gc``)."""
    if not DEFAULT_GC:
        tune_gc()
        nursery.start_soon(collect_young)


# -- 2. capacity -------------------------------------------------------------------------------


async def slots_process(tables: int) -> None:
    """Hold ``tables`` four-seat tables, each on its own port, a fresh one once a game is
    over and its players left; print the ports; measure the loop lag and the collections
    (and profile, with ``--profile``) from the line ``window`` to the line ``end`` on
    stdin; print them when stdin closes."""
    listening = []
    maps = [Prepared(seed, standard_map(4, seed)) for seed in range(MAPS)]
    async with trio.open_nursery() as nursery:
        for i in range(tables):
            listening.append(await nursery.start(slot, i, maps[i % MAPS]))
        tune_like_serve(nursery)
        lags: list[float] = []
        pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        nursery.start_soon(loop_lag, lags)
        print(json.dumps({"ports": listening}), flush=True)
        await trio.to_thread.run_sync(sys.stdin.readline)  # "window": it starts
        del lags[:]
        timing = functools.partial(time_collections, pauses, {})
        gc.callbacks.append(timing)
        if PROFILE:
            profiler.enable()
        await trio.to_thread.run_sync(sys.stdin.readline)  # "end" (before the bots leave), or EOF
        if PROFILE:
            profiler.disable()
            profiler.dump_stats(PROFILE)
        gc.callbacks.remove(timing)
        print(json.dumps({"lag_p99": percentile(lags, 99) if lags else 0, "lag_max": max(lags, default=0),
                          "gc": {g: [len(p), max(p, default=(0, 0))] for g, p in pauses.items()}}),
              flush=True)
        nursery.cancel_scope.cancel()


async def slot(number: int, prepared: Prepared, *, task_status: trio.TaskStatus[int]) -> None:
    """One table's port: a host, replaced by a fresh one once its game is over and nobody
    is left; every game on ``prepared``, a map made once for many tables (making a
    standard map takes about 40 ms: a fresh one for each of the 30 games that end each
    second at 1,000 tables would need more than a core)."""
    port = 0
    while True:
        host = Host(ServerConfig(port=port, settings=protocol.Settings(players=4), seed=number,
                                 prepared=prepared, lobby_grace=0.0))
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as nursery:
                port = await nursery.start(host.run)
                if task_status is not trio.TASK_STATUS_IGNORED:
                    task_status.started(port)
                    task_status = trio.TASK_STATUS_IGNORED
                while not (host.table.phase == "finished" and host.connections == 0):
                    await host.all_closed()  # renewed before its bots come back (0.2 s or more)
                scope.cancel()


def time_collections(pauses: dict[int, list[float]], started: dict, phase: str, info: dict) -> None:
    """A ``gc.callbacks`` entry: append each collection's duration (wall clock, and the
    process's CPU time: a long pause with little CPU was the process waiting for a core)
    to ``pauses[generation]``."""
    if phase == "start":
        started["at"] = time.perf_counter(), time.process_time()
    elif "at" in started:
        wall, cpu = started.pop("at")
        pauses[info["generation"]].append((time.perf_counter() - wall, time.process_time() - cpu))


async def loop_lag(lags: list[float], every: float = 0.01) -> None:
    """Record how late the event loop wakes a task that sleeps ``every`` seconds."""
    while True:
        start = time.perf_counter()
        await trio.sleep(every)
        lags.append(time.perf_counter() - start - every)


class Pacer:
    """The bots' think times, on a grid of ``tick`` seconds: one task wakes every bot
    whose time is up at each tick (a trio sleep is a cancellation, about 60 us of this
    process's CPU; one a bot, 1,900 a second at 1,000 tables, is a tenth of its core,
    and its queue would count against the host's round trips)."""

    def __init__(self, tick: float = 0.01) -> None:
        self.tick = tick
        self._ticks: dict[int, trio.Event] = {}

    async def sleep(self, seconds: float) -> None:
        """Until the first tick at least ``seconds`` from now."""
        tick = math.ceil((trio.current_time() + seconds) / self.tick)
        event = self._ticks.get(tick)
        if event is None:
            event = self._ticks[tick] = trio.Event()
        await event.wait()

    async def run(self) -> None:
        """Wake each tick's sleepers, until cancelled."""
        done = math.floor(trio.current_time() / self.tick)
        while True:
            await trio.sleep_until((done + 1) * self.tick)
            now = math.floor(trio.current_time() / self.tick)
            for tick in range(done + 1, now + 1):
                event = self._ticks.pop(tick, None)
                if event is not None:
                    event.set()
            done = max(done, now)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def bots_at(port: int, think: tuple[float, float], rng: random.Random, samples: list[float],
                  counts: dict[str, int], delay: float, pacer: Pacer) -> None:
    """Four lean bots at the table on ``port``, game after game, the first after ``delay``
    seconds; they think on ``pacer``'s grid."""
    await trio.sleep(delay)
    while True:
        try:
            seats, game = await start_table(port, 4)
        except (OSError, EOFError, LookupError, trio.BrokenResourceError):
            await trio.sleep(0.2 + rng.random() * 0.3)  # the next table is not there yet
            continue
        counts["playing"] += 1
        while not game.is_over:
            await pacer.sleep(rng.uniform(*think))
            actor = seats[game.players.index(game.current_player)]
            version = 1 + len(game)
            action = rng.choice(game.legal_actions())
            frame = act_frame(actor, version, action)
            start = time.perf_counter()
            await actor.send(frame)
            await actor.until("played", version + 1)  # through the events since it last acted
            samples.append(time.perf_counter() - start)
            game.apply(action)
        counts["playing"] -= 1
        counts["games"] += 1
        for seat in seats:
            await seat.stream.aclose()
        await trio.sleep(0.5 + rng.random())


async def load(host: Subprocess, warmup: float, window: float) -> dict:
    samples: list[float] = []
    counts = {"playing": 0, "games": 0}
    rng = random.Random(7)
    pacer = Pacer()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(pacer.run)
        for port in host.ports:  # tables start at random times through the warm-up
            nursery.start_soon(bots_at, port, (0.25, 0.75), random.Random(rng.random()), samples, counts,
                               rng.uniform(0, warmup), pacer)
        tune_like_serve(nursery)  # the clients' own collections would count as the host's time
        await trio.sleep(warmup)
        host.proc.stdin.write("window\n")
        host.proc.stdin.flush()
        del samples[:]
        lags: list[float] = []
        nursery.start_soon(loop_lag, lags)
        started, cpu, games = time.perf_counter(), sum(os.times()[:2]), counts["games"]
        machine = cpu_times()
        rss_start, host_cpu = rss_mb(host.proc.pid), cpu_seconds(host.proc.pid)
        playing, rss = [], [(0, rss_start)]
        while time.perf_counter() - started < window:
            await trio.sleep(min(1.0, window))
            playing.append(counts["playing"])
            rss.append((counts["games"] - games, rss_mb(host.proc.pid)))
        measured = list(samples)
        elapsed = time.perf_counter() - started
        total, stolen = (now - then for now, then in zip(cpu_times(), machine))
        host.proc.stdin.write("end\n")
        host.proc.stdin.flush()
        result = {"samples": measured, "elapsed": elapsed, "cpu": (sum(os.times()[:2]) - cpu) / elapsed,
                  "host_cpu": (cpu_seconds(host.proc.pid) - host_cpu) / elapsed,
                  "lag_p99": percentile(lags, 99), "lag_max": max(lags), "rss": (rss_start, rss_mb(host.proc.pid)), "rss_by_games": rss,
                  "playing": (min(playing), statistics.mean(playing)), "games": counts["games"] - games,
                  "stolen": stolen / total if total else 0.0}
        nursery.cancel_scope.cancel()
    return result


def capacity(counts: list[int], warmup: float, window: float) -> None:
    print(f"\nconcurrent 4-bot games (host in its own process; 4 lean TCP bots per table in this "
          f"process; think 0.25-0.75 s; a fresh table when a game ends; window {window:g} s after "
          f"{warmup:g} s warm-up):")
    print(f"  host GC: {'CPython defaults' if DEFAULT_GC else 'tune_gc() after set-up, collect_young (what survives a collection is frozen)'}")
    print(f"  clients: {ASKED}")
    print(f"  {'tables':>6} {'clients':>7} {'actions/s':>9} {'p50':>9} {'p99':>9} {'max':>9}"
          f" {'host CPU':>8} {'host lag p99':>12} {'clients CPU':>11} {'clients lag p99':>15}")
    best = 0
    for n in counts:
        before = load_average()
        host = Subprocess("--slots-process", str(n))
        try:
            result = trio.run(load, host, warmup, window)
        finally:
            lag = host.close()
        s = result["samples"]
        p99 = percentile(s, 99) if s else float("inf")
        print(f"  {n:>6} {4 * n:>7} {len(s) / result['elapsed']:>9.0f} {ms(statistics.median(s)):>9} "
              f"{ms(p99):>9} {ms(max(s)):>9} {result['host_cpu']:>8.0%} {ms(lag.get('lag_p99', 0)):>12} "
              f"{result['cpu']:>11.0%} {ms(result['lag_p99']):>15}")
        print(f"         loop lag max: host {ms(lag.get('lag_max', 0))}, clients {ms(result['lag_max'])}; "
              f"host RSS {result['rss'][0]:.0f} MB at the window's start, {result['rss'][1]:.0f} MB at its end; "
              f"{result['games']} games ended in the window; tables playing: {result['playing'][1]:.0f} "
              f"on average, {result['playing'][0]} at the fewest")
        steps = result["rss_by_games"][::max(1, len(result["rss_by_games"]) // 6)]
        print("         host RSS by games ended in the window: " + ", ".join(
            f"{games}: {mb:.0f} MB" for games, mb in steps))
        collections = lag.get("gc", {})
        print("         host collections (count, longest: wall clock / CPU) in the window: " + ", ".join(
            f"gen {g} {count} {ms(wall)} / {ms(cpu)}" for g, (count, (wall, cpu)) in sorted(collections.items())))
        print(f"         load average before {before}, after {load_average()}; CPU time stolen by the "
              f"hypervisor in the window: {result['stolen']:.1%} of the machine's")
        if p99 < 0.050 and result["playing"][1] >= n * 0.8:  # tables between two games are not playing
            best = n
    print(f"  largest measured count with p99 < 50 ms: {best} tables (target 1000)")


# -- 3. reference cycles ---------------------------------------------------------------------


async def cycles(games: int) -> tuple[int, int]:
    """Play ``games`` four-bot games in this process with the collector off, the hosts
    started and stopped, the bots' connections coming and going; then collect: how many
    objects were garbage only a collection finds (reference cycles), and how many games.
    (One game is played first, not counted: the first of anything sets up caches.)"""
    prepared = Prepared(1, standard_map(4, 1))
    if games > 1:
        await cycles(1)
    gc.collect()
    gc.disable()
    try:
        async with trio.open_nursery() as nursery:
            hosts = [Host(ServerConfig(settings=protocol.Settings(players=4), seed=i, prepared=prepared))
                     for i in range(games)]
            ports = [await nursery.start(host.run) for host in hosts]
            async with trio.open_nursery() as players:
                for port in ports:
                    players.start_soon(one_game, port, random.Random(port))
            for host in hosts:
                while host.connections:
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()  # the hosts stop
        del hosts
        found = gc.collect()
    finally:
        gc.enable()
    return found, games


async def one_game(port: int, rng: random.Random) -> None:
    """Four lean bots play one game at the table on ``port``, then leave."""
    seats, game = await start_table(port, 4)
    while not game.is_over:
        actor = seats[game.players.index(game.current_player)]
        version = 1 + len(game)
        action = rng.choice(game.legal_actions())
        await actor.send(act_frame(actor, version, action))
        await actor.until("played", version + 1)
        game.apply(action)
    for seat in seats:
        await seat.stream.aclose()


def reference_cycles(games: int) -> None:
    found, played = trio.run(cycles, games)
    print(f"\nreference cycles: {played} four-bot games (hosts and bots in this process, the "
          f"collector off, each host stopped after its game) left {found} objects that only a "
          f"collection frees: {found / played:.1f} per game (all the rest is freed by reference counting)")


#: The three measurements, in the order they run.
PARTS = ("round-trip", "capacity", "cycles")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--smoke", action="store_true", help="the smallest run (the test suite's)")
    parser.add_argument("--default-gc", action="store_true",
                        help="CPython's collector settings in the host (see above)")
    parser.add_argument("--lean", action="store_true",
                        help="the clients ask for neither to_act nor legal (see above)")
    parser.add_argument("--tables", type=int, nargs="+", help="table counts to measure")
    parser.add_argument("--window", type=float, help="seconds measured at each table count")
    parser.add_argument("--samples", type=int, help="round trips of each kind")
    parser.add_argument("--rounds", type=int, default=1,
                        help="round-trip rounds, each with fresh servers (their ratios and median)")
    parser.add_argument("--part", choices=PARTS, nargs="+", default=list(PARTS),
                        help="what to measure (all three by default)")
    parser.add_argument("--profile", metavar="FILE",
                        help="profile the hosts (cProfile; slows them): the capacity host in its "
                             "window, to FILE; the round trip's, to FILE.on and FILE.off")
    parser.add_argument("--host-process", type=int, nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--save-dir", help=argparse.SUPPRESS)
    parser.add_argument("--slots-process", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--echo-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_process:
        return trio.run(echo_server)
    if args.host_process:
        return trio.run(host_process, *args.host_process, args.save_dir)
    if args.slots_process:
        return trio.run(slots_process, args.slots_process)
    size = "smoke" if args.smoke else "quick" if args.quick else "full"
    if args.profile:
        os.environ["WADDLE_BENCH_PROFILE"] = os.path.abspath(args.profile)
    if "round-trip" in args.part:
        round_trips_in_rounds(args.samples or {"smoke": 100, "quick": 1000, "full": 3000}[size], args.rounds)
    if "capacity" in args.part:
        counts = args.tables or {"smoke": [5], "quick": [100, 500], "full": [250, 500, 1000]}[size]
        warmup = {"smoke": 0.25, "quick": 10.0, "full": 35.0}[size]
        capacity(counts, warmup=warmup, window=args.window or {"smoke": 0.5, "quick": 10.0, "full": 30.0}[size])
        if args.profile:
            pstats.Stats(args.profile).sort_stats("tottime").print_stats(25)
    if "cycles" in args.part:
        reference_cycles({"smoke": 2, "quick": 10, "full": 20}[size])


if __name__ == "__main__":
    main()
