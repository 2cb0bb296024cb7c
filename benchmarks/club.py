"""Club benchmark: one club host of many 4-bot tables, half hex half Downtown, its lobby
listed 10 times a second, with the history written and without (issue 26).

The club host runs in its own process (``Host(ServerConfig(club=True, workers=True))``,
its collector and its worker process preparing each game as ``waddle serve`` runs them), saving every table to a temporary folder (the write-ahead
journal on; every connection comes from 127.0.0.1, so the connection limits are raised
past the bots'), and writing every finished game to an SQLite history in the same folder, or,
for the side-by-side run, keeping none (``--no-history``). This process opens the tables
over TCP (``create_table``) and fills them:

- **hex tables**: four lean bots each (``benchmarks/server.py``'s :class:`Lean`: raw
  frames, one engine per table), thinking 0.25-0.75 s before each move; each move's round
  trip (``act`` sent -> its ``played`` read) is a sample;
- **Downtown tables**: played by the host's own bots (``random``, one move each
  ``--pace`` 0.5 s): a lean owner joins, starts (the host's bots fill the other seats) and
  leaves (its seat goes on as a stand-in at once: grace 0), a lean spectator reads every
  event, so the host applies, redacts for each audience, journals and sends as at a
  table of people; and on one Downtown table in 10 (at least one) a real client
  (:class:`client.core.Client`, the decoding and view a player's client has) plays one
  seat, thinking 0.25-0.75 s: its moves' round trips (``act`` -> ``ack`` with the state
  caught up) are the Downtown samples.

A finished table's players leave and open a fresh table of the same game (the finished
one is closed as idle); each table's first game starts at a random time in the warm-up.
One connection asks the club's lobby for its tables (``list_tables``) every 0.1 s
throughout; each answer's wait is a sample.

Printed for each run, after the warm-up, over the window: hex and Downtown move round
trips (p50, p99, max) and the list's, actions a second, games ended and written to the
history, host CPU and loop lag, host RSS, this process's CPU, the load average before and
after (the machine may be shared: read the figures with it). The target: p99 move round
trip under 50 ms at 1,000 tables with the history on, and the history adding nothing
beside ``--no-history``.

Run: ``python benchmarks/club.py`` (1,000 tables, 30 s warm-up, 60 s windows, history
on then off: about 4 minutes); ``--tables N``, ``--window S``, ``--warmup S``;
``--quick`` (100 tables); ``--smoke`` (the suite's: 4 tables, 0.6 s).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import protocol  # noqa: E402
from client.club import create_table  # noqa: E402
from client.core import ClientError, connect  # noqa: E402
from server import Host, ServerConfig  # noqa: E402
from server.club import ClubLimits  # noqa: E402
from server.connection import Limits  # noqa: E402
from waddle.hex.ruleset import RULESET as HEX  # noqa: E402
from waddle.ruleset import get_ruleset  # noqa: E402

_spec = importlib.util.spec_from_file_location("bench_server", ROOT / "benchmarks" / "server.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
Lean, Pacer, percentile, ms = bench.Lean, bench.Pacer, bench.percentile, bench.ms

#: Seconds the bots think before a move (uniform), and the host's bots' pace.
THINK = (0.25, 0.75)
PACE = 0.5
#: One Downtown table in this many has a real client playing a seat (its moves are sampled).
PROBE_EVERY = 10
#: Seconds between two requests of the club's list.
LIST_EVERY = 0.1


# -- the club host, in its own process ---------------------------------------------------------


async def club_process(tables: int, folder: str, history: bool) -> None:
    """Host a club saving to ``folder`` (and writing its history there, with ``history``);
    print its port; measure the loop lag from the line ``window`` to ``end`` on stdin and
    print it, with the games written, when stdin closes."""
    host = Host(ServerConfig(club=True, port=0, save=folder, bot_delay=PACE, grace=0.0, lobby_grace=0.0,
                             settings=protocol.Settings(players=4),
                             history=os.path.join(folder, "history.sqlite") if history else None, workers=True,
                             limits=Limits(max_connections=10 * tables + 100, max_per_address=10 * tables + 100),
                             club_limits=ClubLimits(per_connection=10**6, per_address=10**6,
                                                    tables=4 * tables + 100, idle=20.0, sweep=2.0)))
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host.run)
        bench.tune_like_serve(nursery)
        lags: list[float] = []
        nursery.start_soon(bench.loop_lag, lags)
        print(json.dumps({"ports": [port]}), flush=True)
        await trio.to_thread.run_sync(sys.stdin.readline)  # "window"
        del lags[:]
        written = host.history.written if host.history else 0
        await trio.to_thread.run_sync(sys.stdin.readline)  # "end"
        print(json.dumps({"lag_p99": percentile(lags, 99) if lags else 0.0, "lag_max": max(lags, default=0.0),
                          "written": (host.history.written if host.history else 0) - written}), flush=True)
        nursery.cancel_scope.cancel()


class Club:
    """The club host's process."""

    def __init__(self, tables: int, folder: str, history: bool) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__, "--club-process", str(tables), folder,
                                      "on" if history else "off"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.port = json.loads(self.proc.stdout.readline())["ports"][0]

    def say(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def close(self) -> dict:
        self.proc.stdin.close()
        out = self.proc.stdout.read()
        self.proc.wait(60)
        return json.loads(out.strip().splitlines()[-1]) if out.strip() else {}


# -- the players, in this process ----------------------------------------------------------------


async def lean_at(port: int, table: str, name: str, request) -> Lean:
    """A lean connection at ``table`` that sent ``request`` (a join or a watch); once seated or watching."""
    lean = Lean(await trio.open_tcp_stream("127.0.0.1", port))
    hello = protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="bench", table=table)
    await lean.send(bench._encode(hello) + bench._encode(request) + bench._encode(protocol.Ready()))
    while True:
        body = await lean.body()
        head = bench._head(body)
        if head.type == "seated":
            seated = bench._typed(body)
            lean.token, lean.label = seated.token, seated.label
            return lean
        if head.type == "watching":
            return lean
        if head.type in ("rejected", "closing"):
            await lean.stream.aclose()
            raise LookupError(body.decode())


async def opened(port: int, game: str, settings, run: dict) -> str:
    """A new table of ``game`` at the club (asked again, counted in ``run["slow"]``, while
    the club does not answer within :data:`client.club.TIMEOUT`)."""
    while True:
        try:
            return (await create_table("127.0.0.1", port, game, settings)).table
        except ClientError:
            run["slow"] += 1


#: What ends a table's game early in this process (the host closed a connection or a table
#: it could not serve in time): counted, and the table's players open another.
LOST = (OSError, EOFError, LookupError, trio.BrokenResourceError, ClientError)


async def hex_table(port: int, rng: random.Random, pacer: Pacer, run: dict) -> None:
    """Four lean bots at a fresh hex table, game after game."""
    while True:
        table = await opened(port, "hex", protocol.Settings(players=4), run)
        seats: list[Lean] = []
        try:
            for i in range(4):
                seats.append(await lean_at(port, table, f"p{i}", protocol.Join(name=f"p{i}")))
            started = [bench._typed(await seat.until("started")) for seat in seats][0]
            await hex_game(seats, HEX.follow(started.view, None).game, rng, pacer, run)
        except LOST:
            run["lost"] += 1
        for seat in seats:
            await trio.aclose_forcefully(seat.stream)
        await trio.sleep(0.5 + rng.random())


async def hex_game(seats: list[Lean], game, rng: random.Random, pacer: Pacer, run: dict) -> None:
    """Play ``game`` to its end with the lean ``seats``, each move's round trip a sample."""
    by_label = {seat.label: seat for seat in seats}
    seats = [by_label[label] for label in game.players]
    run["playing"] += 1
    try:
        while not game.is_over:
            await pacer.sleep(rng.uniform(*THINK))
            actor = seats[game.players.index(game.current_player)]
            version = 1 + len(game)
            action = rng.choice(game.legal_actions())
            frame = bench.act_frame(actor, version, action)
            start = time.perf_counter()
            await actor.send(frame)
            await actor.until("played", version + 1)
            run["hex"].append(time.perf_counter() - start)
            run["actions"] += 1
            game.apply(action)
        run["games"] += 1
    finally:
        run["playing"] -= 1


async def downtown_table(port: int, rng: random.Random, pacer: Pacer, run: dict, probe: bool) -> None:
    """A Downtown table of the host's bots (and, with ``probe``, a real client in one seat),
    a lean spectator reading every event, game after game."""
    settings = protocol.Settings(players=4, bots=["random"])
    while True:
        table = await opened(port, "downtown", settings, run)
        spectator = None
        run["playing"] += 1
        try:
            spectator = await lean_at(port, table, "watcher", protocol.Watch(name="watcher"))
            if probe:
                await probe_game(port, table, rng, pacer, run)
            else:
                owner = await lean_at(port, table, "owner", protocol.Join(name="owner"))
                await owner.send(bench._encode(protocol.Start()))
                await owner.until("started")
                await owner.stream.aclose()  # its seat plays on as a stand-in (grace 0)
            await watch_to_the_end(spectator, run, count=not probe)
            run["games"] += 1
        except LOST:
            run["lost"] += 1
        finally:
            run["playing"] -= 1
        if spectator is not None:
            await trio.aclose_forcefully(spectator.stream)
        await trio.sleep(0.5 + rng.random())


async def watch_to_the_end(spectator: Lean, run: dict, count: bool) -> None:
    """Read every frame a spectator gets until the game is over (counting its actions)."""
    while True:
        body = await spectator.body()
        head = bench._head(body)
        if head.type == "played":
            run["actions"] += count
        elif head.type == "lobby" and b'"phase":"finished"' in body:
            return
        elif head.type == "ping":
            await spectator.send(bench._encode(protocol.Pong(nonce=bench._typed(body).nonce)))
        elif head.type == "closing":
            raise EOFError(body.decode())


async def probe_game(port: int, table: str, rng: random.Random, pacer: Pacer, run: dict) -> None:
    """A real client plays one seat of ``table`` to the end, its moves' round trips sampled."""
    from client.botplay import start_when_full

    bot = get_ruleset("downtown").make_bot("random", rng.randrange(1 << 30))
    async with connect("127.0.0.1", port, name="probe", table=table, follow_resume=False) as client:
        await start_when_full(client)
        state = client.state
        while not state.finished:
            if not state.my_turn:
                await client.wait_for(lambda s: s.my_turn or s.finished)
                continue
            await pacer.sleep(rng.uniform(*THINK))
            action = bot.choose(state.view.position())
            start = time.perf_counter()
            await client.act(action)
            run["downtown"].append(time.perf_counter() - start)
            run["actions"] += 1


async def lister(port: int, run: dict) -> None:
    """Ask the club's lobby for its tables every :data:`LIST_EVERY` seconds, on one
    connection (a new one if the host closes it, counted in ``run["lost"]``)."""
    request = bench._encode(protocol.ListTables())
    while True:
        try:
            lean = Lean(await trio.open_tcp_stream("127.0.0.1", port))
            await lean.send(bench._encode(protocol.Hello(protocol=protocol.PROTOCOL_VERSION, client="bench")))
            await lean.until("welcome")
            while True:
                start = time.perf_counter()
                await lean.send(request)
                body = await lean.until("tables")
                run["list"].append(time.perf_counter() - start)
                run["listed"] = body.count(b'"table":')
                await trio.sleep(max(0.0, LIST_EVERY - (time.perf_counter() - start)))
        except LOST:
            run["lost"] += 1


async def evening(club: Club, tables: int, warmup: float, window: float) -> dict:
    run = {"hex": [], "downtown": [], "list": [], "actions": 0, "games": 0, "playing": 0, "listed": 0, "lost": 0, "slow": 0}
    rng = random.Random(7)
    pacer = Pacer()

    async def later(delay: float, table, *args) -> None:
        await trio.sleep(delay)
        await table(*args)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(pacer.run)
        bench.tune_like_serve(nursery)
        for n in range(tables):
            own = random.Random(rng.random())
            if n % 2 == 0:
                nursery.start_soon(later, rng.uniform(0, warmup), hex_table, club.port, own, pacer, run)
            else:
                probe = (n // 2) % PROBE_EVERY == 0
                nursery.start_soon(later, rng.uniform(0, warmup), downtown_table, club.port, own, pacer, run, probe)
        nursery.start_soon(lister, club.port, run)
        await trio.sleep(warmup)
        club.say("window")
        for key in ("hex", "downtown", "list"):
            del run[key][:]
        started, actions, games = time.perf_counter(), run["actions"], run["games"]
        cpu, host_cpu = sum(os.times()[:2]), bench.cpu_seconds(club.proc.pid)
        rss_start = bench.rss_mb(club.proc.pid)
        playing = []
        while time.perf_counter() - started < window:
            await trio.sleep(min(1.0, window))
            playing.append(run["playing"])
        elapsed = time.perf_counter() - started
        result = {key: list(run[key]) for key in ("hex", "downtown", "list")}
        result.update(elapsed=elapsed, actions=(run["actions"] - actions) / elapsed, games=run["games"] - games,
                      cpu=(sum(os.times()[:2]) - cpu) / elapsed,
                      host_cpu=(bench.cpu_seconds(club.proc.pid) - host_cpu) / elapsed,
                      rss=(rss_start, bench.rss_mb(club.proc.pid)), playing=statistics.mean(playing),
                      listed=run["listed"], lost=run["lost"], slow=run["slow"])
        club.say("end")
        nursery.cancel_scope.cancel()
    return result


def figures(values: list[float]) -> str:
    if not values:
        return "no samples"
    return f"p50 {ms(statistics.median(values))}  p99 {ms(percentile(values, 99))}  max {ms(max(values))}  ({len(values)})"


def measure(tables: int, warmup: float, window: float, history: bool) -> dict:
    before = bench.load_average()
    with tempfile.TemporaryDirectory() as folder:
        club = Club(tables, folder, history)
        try:
            result = trio.run(evening, club, tables, warmup, window)
        finally:
            host = club.close()
    print(f"\n{tables} tables ({tables // 2} hex of 4 lean bots, {tables - tables // 2} Downtown of the host's "
          f"bots with a spectator, 1 in {PROBE_EVERY} with a real client), history "
          f"{'ON (SQLite, its writer thread)' if history else 'OFF (--no-history)'}, "
          f"window {window:g} s after {warmup:g} s warm-up:")
    print(f"  hex move round trip:       {figures(result['hex'])}")
    print(f"  Downtown move round trip:  {figures(result['downtown'])}")
    print(f"  list_tables (every {LIST_EVERY:g} s, {result['listed']} tables listed): {figures(result['list'])}")
    print(f"  {result['actions']:.0f} actions/s, {result['games']} games ended, {host.get('written', 0)} written "
          f"to the history; tables playing {result['playing']:.0f} on average; games cut short (a "
          f"connection or table the host closed; its players opened another): {result['lost']}; table "
          f"openings not answered within 10 s (asked again): {result['slow']}")
    print(f"  host CPU {result['host_cpu']:.0%}, loop lag p99 {ms(host.get('lag_p99', 0))} max "
          f"{ms(host.get('lag_max', 0))}; host RSS {result['rss'][0]:.0f} -> {result['rss'][1]:.0f} MB; "
          f"this process's CPU {result['cpu']:.0%}")
    print(f"  load average before {before}, after {bench.load_average()} ({os.cpu_count()} cores; "
          "a shared machine's other work counts here)")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="the smallest run (the test suite's)")
    parser.add_argument("--quick", action="store_true", help="100 tables, short windows")
    parser.add_argument("--tables", type=int, help="tables in the club (default 1000)")
    parser.add_argument("--warmup", type=float, help="seconds before the window (default 30)")
    parser.add_argument("--window", type=float, help="seconds measured (default 60)")
    parser.add_argument("--history", choices=("both", "on", "off"), default="both",
                        help="measure with the history, without, or both (default), side by side")
    parser.add_argument("--club-process", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.club_process:
        tables, folder, history = args.club_process
        return trio.run(club_process, int(tables), folder, history == "on")
    size = "smoke" if args.smoke else "quick" if args.quick else "full"
    tables = args.tables or {"smoke": 4, "quick": 100, "full": 1000}[size]
    warmup = args.warmup if args.warmup is not None else {"smoke": 0.3, "quick": 10.0, "full": 30.0}[size]
    window = args.window or {"smoke": 0.6, "quick": 20.0, "full": 60.0}[size]
    print(f"club benchmark: python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{bench.load_average()}, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    runs = {"both": (True, False), "on": (True,), "off": (False,)}[args.history]
    results = {history: measure(tables, warmup, window, history) for history in runs}
    if len(results) == 2:
        on, off = results[True], results[False]
        for kind in ("hex", "downtown"):
            if on[kind] and off[kind]:
                print(f"  {kind} p99 with the history / without: {ms(percentile(on[kind], 99))} / "
                      f"{ms(percentile(off[kind], 99))}")


if __name__ == "__main__":
    main()
