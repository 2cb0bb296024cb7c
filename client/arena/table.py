"""One arena game on a real table: a host on 127.0.0.1 (any free port, a join code), the
entrants seated in the schedule's order, played to the end with bounded waits.

Built-in bots play as headless clients of this process (:func:`client.botplay.play`), so
each gets its own budget; an external command is started once for its seat with the
table's address, a name and the code (:meth:`client.arena.entrants.Entrant.argv`). The
host's turn timer (``Limits.move``) and grace period (``Limits.grace``) hand the turns of
a seat that is too slow, plays illegal moves or is gone to a random stand-in bot; a
command that has not joined within ``Limits.join`` is stopped and a random bot takes its
seat. Every such fault is reported with the seat; nothing waits without a bound.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import subprocess
import time
from typing import Any

import msgspec
import trio

from client.arena.entrants import Entrant
from client.arena.schedule import Seating
from client.botplay import play
from client.core import ClientError, connect
from protocol import Played, Settings
from protocol.text import clean
from server.host import Host, ServerConfig
from waddle.files import write_json
from waddle.ruleset import get_ruleset

#: The kind of bot that stands in for a seat that failed (weakest: a fault never pays).
STAND_IN = "random"
#: Seconds an external command may take to leave once the game ended.
EXIT_GRACE = 3.0
#: Seconds between looks at the table while waiting for a command to join.
POLL = 0.02
#: The process groups of the external commands running now (killed if a worker is stopped).
RUNNING: set[int] = set()


class Limits(msgspec.Struct, frozen=True):
    """The bounds of one game, seconds: ``move`` (the host's turn timer: a stand-in plays
    a turn not played by then), ``join`` (for an external command to take its seat),
    ``grace`` (a seat whose connection dropped, before a stand-in plays for it) and
    ``game`` (the whole game; then it is abandoned, unfinished)."""

    move: float = 10.0
    join: float = 15.0
    grace: float = 2.0
    game: float = 1800.0


class Job(msgspec.Struct, frozen=True):
    """One game to play: the ``game`` (a ruleset name) with its ``options`` (``None``: the
    defaults), all the arena's ``entrants``, the ``seating``, the ``limits`` and
    ``records``, a directory to save the game record in (``None``: not saved)."""

    game: str
    entrants: tuple[Entrant, ...]
    seating: Seating
    options: Any = None
    limits: Limits = Limits()
    records: str | None = None


class SeatResult(msgspec.Struct, frozen=True):
    """One seat's part of a game: the ``entrant`` (index), the seat's ``label`` and
    ``name`` at the table, its ``score``, the moves a stand-in bot played for it
    (``standin_moves``) and what went wrong (``faults``, sentences)."""

    entrant: int
    label: str
    name: str
    score: int
    standin_moves: int = 0
    faults: tuple[str, ...] = ()


class GameResult(msgspec.Struct, frozen=True):
    """A played game: its schedule ``index`` and ``seed``, the ``seats`` in turn order,
    the ``winners`` (seat numbers), whether it ``finished``, the ``error`` that stopped
    it (``None``), its wall-clock ``seconds``, its ``actions`` and the saved ``record``
    path (``None``)."""

    index: int
    seed: int
    seats: tuple[SeatResult, ...]
    winners: tuple[int, ...]
    finished: bool
    seconds: float
    actions: int = 0
    error: str | None = None
    record: str | None = None


def play_game(job: Job) -> GameResult:
    """Play ``job``'s game to its end on a new local host; never raises but ``KeyboardInterrupt``
    (an error becomes the result's ``error``). For a worker process, or inline."""
    start = time.monotonic()
    logger = logging.getLogger("waddle")
    level = logger.level
    logger.setLevel(logging.CRITICAL)  # the host's warnings: faults are reported in the result
    try:
        return trio.run(_game, job, start)
    except KeyboardInterrupt:
        raise
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is not None:
            raise KeyboardInterrupt from None
        return _failed(job, start, group.exceptions[0] if len(group.exceptions) == 1 else group)
    except Exception as exc:  # one game's failure is a line in the results, not the arena's end
        return _failed(job, start, exc)
    finally:
        logger.setLevel(level)


def _failed(job: Job, start: float, exc: BaseException) -> GameResult:
    return GameResult(job.seating.index, job.seating.seed, (), (), False, time.monotonic() - start,
                      error=f"{type(exc).__name__}: {clean(str(exc))}")


def quiet_worker() -> None:
    """A worker process's initializer: Ctrl-C is the parent's to handle; stopped by the
    parent (``SIGTERM``), kill the external commands first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_worker)


def _stop_worker(signum, frame) -> None:
    for group in list(RUNNING):
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    os._exit(1)


class _Seat:
    """What the game learns about one seat while it plays."""

    def __init__(self, entrant: int, name: str) -> None:
        self.entrant, self.name = entrant, name
        self.faults: list[str] = []
        self.standin_moves = 0
        self.exited = trio.Event()


async def _game(job: Job, start: float) -> GameResult:
    seating = job.seating
    code = secrets.token_hex(4)
    ruleset = get_ruleset(job.game)
    # the deal's own layout (the hex game's standard map), shared by the deal's rotations;
    # the arena's options hold one seed for every game (--seed), or none: a random map each
    options = ruleset.reseeded(ruleset.options_type() if job.options is None else job.options, seating.seed)
    settings = Settings(players=len(seating.seats), turn_timer=job.limits.move, seat_order="seated",
                        options=options)
    host = Host(ServerConfig(settings=settings, code=code, seed=seating.seed, game=job.game,
                             grace=job.limits.grace, lobby_grace=job.limits.grace, standin=STAND_IN))
    seats = [_Seat(e, job.entrants[e].name) for e in seating.seats]
    finished = trio.Event()
    with trio.move_on_after(job.limits.game):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            await nursery.start(_watch, port, code, seats, finished)
            for number, seat in enumerate(seats):
                await _take_seat(nursery, host, port, code, job, number, seat)
            await finished.wait()
            with trio.move_on_after(EXIT_GRACE):
                for seat in seats:
                    if job.entrants[seat.entrant].external:
                        await seat.exited.wait()
            nursery.cancel_scope.cancel()
    return _result(job, host.table, seats, time.monotonic() - start)


async def _take_seat(nursery, host, port: int, code: str, job: Job, number: int, seat: _Seat) -> None:
    """Seat ``seat`` as seat ``number``: a built-in bot client, or the entrant's command
    once it has joined (else a stand-in bot, and a fault)."""
    entrant = job.entrants[seat.entrant]
    if not entrant.external:
        bot = host.table.ruleset.make_bot(entrant.kind, job.seating.seed * 10 + number, **entrant.options())
        await nursery.start(_built_in, port, code, seat, bot)
        return
    values = {"address": f"127.0.0.1:{port}", "host": "127.0.0.1", "port": str(port),
              "name": entrant.name, "code": code, "seed": str(job.seating.seed * 10 + number),
              "game": job.game}
    scope = await nursery.start(_external, entrant.argv(**values), seat, host.table)
    with trio.move_on_after(job.limits.join):
        # the host has no event for a join to wait on; bounded by the join limit
        while len(host.table.seats) <= number and not seat.exited.is_set():  # noqa: ASYNC110
            await trio.sleep(POLL)
    if len(host.table.seats) <= number:
        scope.cancel()
        if not seat.exited.is_set():
            seat.faults.append(f"did not join within {job.limits.join:g} s; a {STAND_IN} bot took the seat")
        else:
            seat.faults.append(f"a {STAND_IN} bot took the seat")
        bot = host.table.ruleset.make_bot(STAND_IN, job.seating.seed * 10 + number)
        await nursery.start(_built_in, port, code, seat, bot)


async def _built_in(port: int, code: str, seat: _Seat, bot, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    try:
        async with connect("127.0.0.1", port, name=seat.name, code=code,
                           software=f"waddle-arena/{bot.name}") as client:
            task_status.started()
            await play(client, bot)
    except ClientError as exc:
        seat.faults.append(f"the bot client stopped: {clean(str(exc))}")
        task_status.started()


async def _external(argv: list[str], seat: _Seat, table, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Run one external command until it exits (a fault if before the game ended, or with
    a failing status: its last line on stderr told) or is cancelled (then killed)."""
    with trio.CancelScope() as scope:
        task_status.started(scope)
        try:
            process = await trio.lowlevel.open_process(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                start_new_session=True)
        except OSError as exc:
            seat.faults.append(f"could not start: {clean(str(exc))}")
            seat.exited.set()
            return
        RUNNING.add(process.pid)
        try:
            errors = await _read_all(process.stderr)
            status = await process.wait()
        finally:
            if process.returncode is None:
                _kill(process.pid)
                with trio.CancelScope(shield=True):
                    await process.wait()
            RUNNING.discard(process.pid)
        last = clean(errors.decode("utf-8", "replace").strip().splitlines()[-1], 200) if errors.strip() else ""
        why = f": {last}" if last else ""
        if table.phase != "finished":
            seat.faults.append(f"exited with status {status} before the game ended{why}")
        elif status != 0:
            seat.faults.append(f"exited with status {status}{why}")
        seat.exited.set()


def _kill(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass


async def _read_all(stream, limit: int = 64 * 1024) -> bytes:
    """Everything ``stream`` gives until it ends, keeping only the last ``limit`` bytes."""
    data = b""
    async with stream:
        while chunk := await stream.receive_some():
            data = (data + chunk)[-limit:]
    return data


async def _watch(port: int, code: str, seats: list[_Seat], finished: trio.Event, *,
                 task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Follow the game as a spectator: count the moves stand-in bots play for each seat;
    set ``finished`` once the game is over."""
    async with connect("127.0.0.1", port, name="arena", code=code, watch=True,
                       software="waddle-arena/watch") as client:
        events = client.events()
        task_status.started()
        async for message in events:
            if isinstance(message, Played) and message.bot is not None:
                seats[message.seat].standin_moves += 1
            if client.state.finished:
                break
    finished.set()


def _result(job: Job, table, seats: list[_Seat], seconds: float) -> GameResult:
    match = table.match
    seating = job.seating
    if match is None:
        return GameResult(seating.index, seating.seed, (), (), False, seconds,
                          error=f"the game did not start within {job.limits.game:g} s")
    outcome = match.outcome()
    names = {seat.label: seat.name for seat in table.seats}
    for seat in seats:
        if seat.standin_moves:
            seat.faults.append(f"a {STAND_IN} stand-in played {seat.standin_moves} of its moves "
                               f"(too slow, illegal moves or gone)")
    results = tuple(SeatResult(seat.entrant, label, clean(names.get(label, seat.name)), score,
                               seat.standin_moves, tuple(seat.faults))
                    for seat, label, score in zip(seats, match.labels, outcome.scores))
    record = None
    if job.records is not None:
        record = os.path.join(job.records, f"arena-{seating.index + 1:04d}.json")
        write_json(record, match.record(arena={"game": seating.index, "seed": seating.seed}))
    error = None if match.is_over else f"the game did not finish within {job.limits.game:g} s"
    return GameResult(seating.index, seating.seed, results, tuple(outcome.winners), match.is_over,
                      seconds, len(match), error, record)
