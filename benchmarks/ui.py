"""Terminal UI speed: one frame of a 5-player game (the hex game; Waddle Downtown: 4
players), and the start-up time of ``waddle --help``.

Frame: a 5-player game on the standard map, half played, the player's turn with the
cursor on a legal hex, real-time score on, a full event log and chat. Measured, in
milliseconds per frame (median of many):

- ``board``: the hex game view's board alone (:func:`client.games.hex.board.render_board`, pure);
- ``panels``: banner, side panel and key hints (:mod:`client.ui.panels`);
- ``frame``: the real frame after a change: the cursor moves to another hex (what a key
  does), so the controller's version changes and the board is drawn anew, and every
  control is asked for its text again (prompt-toolkit's per-frame caches are keyed by
  its render counter, which a frame advances); then layout, the screen buffer and the
  diff to a dummy terminal;
- ``event``: the frame after another player's move that starts the player's turn, in a
  game going on (the event reaches the view, the legal hexes appear, the log scrolls and
  the live score changes; then the frame as above);
- ``first event``: the frame after another player's move on a fresh table and terminal
  (the first move drawn: styles not met before, no line kept but the first frame's);
- ``whole``: the same change drawn with nothing kept from the frame before (the canvas's
  lines and the terminal's screen drawn anew, as after a resize): the most a frame costs;
- ``cached``: the same screen drawn again with nothing changed and the render counter
  kept, so prompt-toolkit serves every control's text from its caches (our functions
  are not called): what an unchanged redraw costs.

Waddle Downtown: a 4-player game in round 3, the player composing action A with two
penguins put (the board shows the play's score: :meth:`DowntownView.preview`):
``board`` and ``frame`` as above, the change being Tab (the cursor to the next place); and
``new state``: what an event costs the view once (the most each card of the hand scores
now, :func:`waddle.downtown.best.options`, worked out once per state, then the board
with the hand).

Same-run baseline: ``plain``: prompt-toolkit drawing one full-screen window of the
same size holding one short line (the framework's own floor).

Start-up: ``waddle --help`` next to ``python -c pass`` (median wall time of several
runs of a new process each).

``frame`` and ``event`` are measured in ``--rounds`` rounds one after the other and the
best round is the figure (:func:`best_of`), the slowest printed beside it.

Run: ``python benchmarks/ui.py [--frames N] [--runs N] [--rounds N]``; ``--smoke`` is the
smallest setting (3 frames, 1 start-up, 1 round: that it runs, not a figure). Target (issue 10): the real
frame in at most 5 ms at 200x60.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import statistics
import subprocess
import sys
import time
from typing import NamedTuple

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import DummyInput
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from prompt_toolkit.output import DummyOutput

from client.state import TableState
from client.ui import panels
from client.ui.app import WaddleApp
from protocol.messages import Chat, Lobby, Played, Seated, SeatInfo, Settings, Snapshot, Welcome
from waddle import COLOURS, Game
from waddle.hex.options import HexOptions
from waddle.hex.ruleset import HexMatch
from waddle.hex.tiles import standard_map


class Screen(DummyOutput):
    def __init__(self, columns: int, rows: int) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


class Still:
    """A session that never changes: the benchmark's table."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.address = ""
        self.record_path = None

    def subscribe(self, listener) -> None:
        pass


def table() -> TableState:
    """A 5-player game half played, the player (red) to act, twenty chat lines."""
    return table_and_game()[0]


def table_and_game(to_act: str = "red", seed: int = 1) -> tuple[TableState, Game]:
    """:func:`table`, ``to_act`` to act, and the host's game (``seed``: its moves so far)."""
    game = Game(standard_map(5, 1), COLOURS)
    rng = random.Random(seed)
    while len(game.empty_ice) > len(game.map.ice) // 2 or game.current_player != to_act:
        game.apply(rng.choice(game.legal_actions()))
    seats = [SeatInfo(seat=i, label=c, colour=c, name=f"player {c}", connected=True, ready=True)
             for i, c in enumerate(COLOURS)]
    settings = Settings(players=5, options=HexOptions(realtime_score=True))
    state = TableState()
    state.apply(Welcome(protocol=2, server="bench", game="hex", code_required=False, phase="playing"))
    state.apply(Seated(seat=0, label="red", name="player red", token="t"))
    state.apply(Snapshot(version=1 + len(game), view=HexMatch(game).view(None),
                         lobby=Lobby(phase="playing", settings=settings, seats=seats, owner=0)))
    for i in range(20):
        state.apply(Chat(name="player blue", label="blue", text=f"chat line {i}"))
    return state, game


def event_ms(columns: int, rows: int, n: int, *, first: bool = False) -> float:
    """The median CPU time (ms) of the frame after another player's move that makes it the
    player's (red's) turn: the event, the view, the board with the legal hexes, the log
    and the scores drawn anew. The tables play on from :func:`table` (seeds 1, 2, ...) and
    every move is drawn as it arrives, as in a game; only those frames are timed (the
    garbage of the untimed ones collected first).

    ``first``: each sample on a fresh table and terminal instead, timing the frame after
    the next player's (blue's) move, whose only frame before is the first: as if no move
    had been drawn yet (the renderer has not met the log's and the markers' styles)."""
    times: list[float] = []
    for seed in itertools.count(1):
        state, game = table_and_game("blue" if first else "red", seed)
        ui_app = WaddleApp(Still(state), input=DummyInput(), output=Screen(columns, rows))
        app, rng = ui_app.application, random.Random(seed)
        with set_app(app):
            app.renderer.reset()
            app.renderer.render(app, app.layout)
            while not game.is_over and len(times) < n:
                seat = game.players.index(game.current_player)
                events = game.apply(rng.choice(game.legal_actions()))
                yours = seat != 0 and not game.is_over and game.current_player == "red"
                gc.collect()
                start = time.process_time()
                state.apply(Played(version=state.version + 1, seat=seat, events=events))
                ui_app.controller.redraw()
                app_frame(app, lambda: None)()
                if yours or first:
                    times.append(time.process_time() - start)
                if first:
                    break
        if len(times) >= n:
            return statistics.median(times) * 1000


class Spread(NamedTuple):
    """A measure taken in several rounds: the best round and the slowest (ms)."""

    best: float
    worst: float

    def __format__(self, spec: str) -> str:
        if self.best == self.worst:
            return format(self.best, spec)
        return f"{self.best:{spec}} ({self.best:{spec}}-{self.worst:{spec}})"


def best_of(rounds: int, measure) -> Spread:
    """``measure()`` taken ``rounds`` times, one after the other. The best round is the
    figure, as ``timeit`` reports its best repeat: on this shared virtual machine the
    speed of a whole run moves by half between runs (``plain`` moves with it), and a
    slower round says how busy the machine was, not what the code costs."""
    figures = [measure() for _ in range(rounds)]
    return Spread(min(figures), max(figures))


def median_ms(fn, n: int) -> float:
    """The median CPU time of ``n`` calls of ``fn``, in ms (this process's CPU time, so
    other processes on a shared machine count less than in wall time)."""
    times = []
    for _ in range(n):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def app_frame(app: Application, before, *, new_frame: bool = True) -> callable:
    """Draw one frame after ``before()``; ``new_frame``: advance the render counter as
    :meth:`Application.invalidate` does, so no control's text comes from a cache."""
    def frame() -> None:
        before()
        if new_frame:
            app.render_counter += 1
        app.renderer.render(app, app.layout)
    return frame


def frames(columns: int, rows: int, n: int, rounds: int = 1) -> dict[str, float | Spread]:
    state = table()
    ui_app = WaddleApp(Still(state), input=DummyInput(), output=Screen(columns, rows))
    control = ui_app.controller
    view = control.view
    legal = sorted(view.legal())
    out = {
        "board": median_ms(lambda: view.board(columns - 35, rows - 2), n),
        "panels": median_ms(lambda: (panels.banner(state, control.ui, view),
                                     panels.hints(state, control.ui, view),
                                     panels.side_panel(state, view, 34, rows - 2)), n),
    }
    moves = iter(range(10**9))

    def move_cursor() -> None:  # what an arrow key does: another hex, a new version
        view.cursor = legal[next(moves) % len(legal)]
        control.redraw()

    app = ui_app.application
    with set_app(app):
        app.renderer.reset()
        out["frame"] = best_of(rounds, lambda: median_ms(app_frame(app, move_cursor), n))

        def everything_anew() -> None:  # as after a resize: no line or cell kept
            move_cursor()
            app.renderer.reset()
            app.layout.reset()

        out["whole"] = median_ms(app_frame(app, everything_anew), n)
        out["event"] = best_of(rounds, lambda: event_ms(columns, rows, max(3, n // 10)))
        out["first event"] = event_ms(columns, rows, max(3, n // 10), first=True)
        out["cached"] = median_ms(app_frame(app, lambda: None, new_frame=False), n)
    plain = Application(layout=Layout(Window(FormattedTextControl("Waddle"))), full_screen=True,
                        input=DummyInput(), output=Screen(columns, rows))
    with set_app(plain):
        plain.renderer.reset()
        out["plain"] = median_ms(app_frame(plain, plain.renderer.reset), n)
    return out


def downtown_table() -> TableState:
    """A 4-player Downtown game in round 3, the player (blue) to play, composing action A
    with two penguins put."""
    from waddle.downtown.options import DowntownOptions
    from waddle.ruleset import get_ruleset

    downtown = get_ruleset("downtown")
    options = DowntownOptions()
    labels = [look.label for look in downtown.seats]
    match = downtown.new_match(downtown.prepare(options, 4, 1), options, labels)
    bots = [downtown.make_bot("greedy", seat) for seat in range(4)]
    while match.state.round < 3 or match.state.current != 0:
        seat = min(match.to_act())
        match.apply(seat, bots[seat].choose(match.position(seat)))
    seats = [SeatInfo(seat=i, label=c, colour=c, name=f"player {c}", connected=True, ready=True)
             for i, c in enumerate(labels)]
    state = TableState()
    state.apply(Welcome(protocol=2, server="bench", game="downtown", code_required=False, phase="playing"))
    state.apply(Seated(seat=0, label="blue", name="player blue", token="t"))
    state.apply(Snapshot(version=1 + len(match), view=match.view(0),
                         lobby=Lobby(phase="playing", settings=Settings(players=4, options=options),
                                     seats=seats, owner=0)))
    return state


def downtown_frames(columns: int, rows: int, n: int) -> dict[str, float]:
    state = downtown_table()
    ui_app = WaddleApp(Still(state), input=DummyInput(), output=Screen(columns, rows))
    control = ui_app.controller
    view = control.view

    def new_state() -> None:  # as after an event: the hand's best scores worked out again
        view._best = None
        view.board(columns - 35, rows - 2)

    out = {"new state": median_ms(new_state, max(n // 10, 1))}
    draft = view.draft
    draft.choose(next(i for i, card in enumerate(draft.items()) if not draft.blocked(card)))
    draft.pick()
    if draft.step == "kind":
        draft.pick_kind("add")
    for colour in ("red", "yellow"):
        draft.put_penguin(colour)
    out["board"] = median_ms(lambda: view.board(columns - 35, rows - 2), n)
    app = ui_app.application
    with set_app(app):
        app.renderer.reset()
        out["frame"] = median_ms(app_frame(app, lambda: view.next_place(1)), n)
    return out


def startup(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="frames per measure (default 300)")
    parser.add_argument("--runs", type=int, default=15, help="process starts per command (default 15)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds of the frame and event measures; the best is the figure (default 5)")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest setting: 3 frames, 1 start-up (checks it runs)")
    args = parser.parse_args()
    if args.smoke:
        args.frames, args.runs, args.rounds = 3, 1, 1
    print("frame of a 5-player game, median ms (target: frame <= 5 ms at 200x60);"
          f" frame and event: best of {args.rounds} rounds (best-slowest)")
    for columns, rows in ((80, 24), (200, 60)):
        figures = frames(columns, rows, args.frames, args.rounds)
        print(f"  {columns}x{rows}: " + "  ".join(f"{k} {v:.2f}" for k, v in figures.items()))
    print("Waddle Downtown, 4 players, composing action A, median ms")
    for columns, rows in ((80, 24), (200, 60)):
        figures = downtown_frames(columns, rows, args.frames)
        print(f"  {columns}x{rows}: " + "  ".join(f"{k} {v:.2f}" for k, v in figures.items()))
    python = startup([sys.executable, "-c", "pass"], args.runs)
    help = startup([sys.executable, "-m", "client.cli", "--help"], args.runs)
    print(f"start-up, median ms: python -c pass {python:.1f}   waddle --help {help:.1f}")


if __name__ == "__main__":
    main()
