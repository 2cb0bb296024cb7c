"""The terminal UI driven by keys through a pipe input, drawn to a dummy output.

Each test runs the real application with its trio guest run on an asyncio loop: a host
on 127.0.0.1 (port 0, bots without delay) and the UI's client core in the same trio
run, as ``waddle play`` does; it reads what the renderer last drew. Waiting is on
renders and state, bounded by a timeout; no sleeps.
"""

import asyncio
import json
import re
import string
from pathlib import Path

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.utils import get_cwidth

from client.games.hex.ui import step_cursor
from client.ui.app import WaddleApp, run_app
from client.ui.session import RemoteSession
from protocol.messages import Settings
from server.host import Host, ServerConfig
from waddle import SCOUT
from waddle.hex.bundled import bundled_maps
from waddle.hex.options import HexOptions, StandardMap

TIMEOUT = 20


class Screen(DummyOutput):
    """A dummy output with a size the test can change."""

    def __init__(self, columns=80, rows=24):
        self.size = Size(rows=rows, columns=columns)

    def get_size(self):
        return self.size


class Terminal:
    """A small model of a terminal with an alternate screen, enough for what prompt-toolkit
    writes: text (no autowrap), CR, LF (scrolling at the bottom), cursor moves, erasing
    and modes. ``left_alternate`` is the alternate screen's text when it was last left."""

    CODE = re.compile(r"\x1b\[([?\d;]*)[ -/]*([@-~])|\x1b.|(.)", re.S)

    def __init__(self, columns, rows):
        self.columns, self.rows = columns, rows
        self.x = self.y = 0
        self.cells = [[" "] * columns for _ in range(rows)]
        self.left_alternate = None

    def resize(self, columns, rows):
        self.cells = [(line + [" "] * columns)[:columns] for line in self.cells[-rows:]]
        self.cells += [[" "] * columns for _ in range(rows - len(self.cells))]
        self.columns, self.rows = columns, rows
        self.x, self.y = min(self.x, columns - 1), min(self.y, rows - 1)

    def text(self) -> str:
        return "\n".join("".join(line).rstrip() for line in self.cells)

    def write(self, data: str) -> None:
        for match in self.CODE.finditer(data):
            params, final, char = match.groups()
            if char is not None:
                self._char(char)
            elif final is not None:
                self._control(params, final)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False  # no cursor position reports

    def _char(self, char):
        if char == "\r":
            self.x = 0
        elif char == "\n" and self.y == self.rows - 1:
            self.cells = self.cells[1:] + [[" "] * self.columns]
        elif char == "\n":
            self.y += 1
        elif char >= " " and self.x < self.columns:
            self.cells[self.y][self.x] = char
            self.x += get_cwidth(char)

    def _control(self, params, final):
        n = int(params) if params.isdigit() else 1
        if final in "ABCD":
            dx, dy = {"A": (0, -n), "B": (0, n), "C": (n, 0), "D": (-n, 0)}[final]
            self.x = max(0, min(self.columns - 1, self.x + dx))
            self.y = max(0, min(self.rows - 1, self.y + dy))
        elif final == "H":
            row, _, column = params.partition(";")
            self.y, self.x = int(row or 1) - 1, int(column or 1) - 1
        elif final == "K":
            self.cells[self.y][self.x:] = [" "] * (self.columns - self.x)
        elif final == "J":
            top = 0 if params == "2" else self.y + 1
            self.cells[self.y][self.x:] = [" "] * (self.columns - self.x)
            self.cells[top:] = [[" "] * self.columns for _ in self.cells[top:]]
        elif params == "?1049" and final in "hl":
            if final == "l":
                self.left_alternate = self.text()
            self.cells = [[" "] * self.columns for _ in range(self.rows)]


class TerminalScreen(Vt100_Output):
    """A VT100 output drawing into a :class:`Terminal` whose size the test can change."""

    def __init__(self, columns=80, rows=24):
        self.terminal = Terminal(columns, rows)
        super().__init__(self.terminal, lambda: self.size, term="xterm-256color")

    @property
    def size(self):
        return Size(rows=self.terminal.rows, columns=self.terminal.columns)

    @size.setter
    def size(self, size):
        self.terminal.resize(size.columns, size.rows)


class Driver:
    """Runs the UI over a local session; sends keys; waits for what the screen shows."""

    def __init__(self, session, inp, screen, **options):
        self.session, self.input, self.screen = session, inp, screen
        self.app = WaddleApp(session, input=inp, output=screen, **options)
        self.rendered = asyncio.Event()
        self.app.application.after_render += lambda _: self.rendered.set()
        self.session.subscribe(self.rendered.set)

    @property
    def state(self):
        return self.session.state

    def text(self) -> str:
        """What the renderer last drew, as plain text lines."""
        screen = self.app.application.renderer._last_screen
        if screen is None:
            return ""
        size = self.screen.size
        return "\n".join("".join(screen.data_buffer[y][x].char for x in range(size.columns)).rstrip()
                         for y in range(size.rows))

    async def until(self, predicate, what="the screen"):
        """Wait (bounded) until ``predicate()`` holds after a render."""
        try:
            async with asyncio.timeout(TIMEOUT):
                while True:
                    self.rendered.clear()
                    if predicate() and self.app.application.renderer._last_screen is not None:
                        self.app.application.invalidate()
                        await self.rendered.wait()
                        if predicate():
                            return
                    await self.rendered.wait()
        except TimeoutError:
            raise AssertionError(f"timed out waiting for {what} ({self.app.ui.notice!r}):\n{self.text()}") from None

    async def shows(self, *texts):
        await self.until(lambda: all(t in self.text() for t in texts), f"{texts}")

    def keys(self, data: str):
        self.input.send_text(data)


def drive(session, test, screen, *, ready=None, **options):
    """Run the app over ``session`` drawn to ``screen``: ``await ready(driver)`` (if
    given), then ``await test(driver)``, then quit it, waiting at most :data:`TIMEOUT`."""
    async def main():
        with create_pipe_input() as inp:
            driver = Driver(session, inp, screen, **options)
            task = driver.task = asyncio.create_task(run_app(driver.app))
            try:
                if ready is not None:
                    await ready(driver)
                await test(driver)
            finally:
                driver.app.quit()
                async with asyncio.timeout(TIMEOUT):
                    await task

    asyncio.run(main())


def play(test, *, players=3, bots="random", name="alice", columns=80, rows=24, tmp=None,
         session=None, screen=None, **options):
    """Run ``test(driver)`` against a table hosted in-process (or over ``session``), drawn
    to ``screen`` (default: a dummy output of ``columns`` x ``rows``), then quit; return
    the session."""
    if session is None:
        settings = Settings(players=players, bots=[bots] * (players - 1),
                            options=HexOptions(map=StandardMap(seed=5), realtime_score=True))
        save = tmp / "game.json" if tmp else None
        server = Host(ServerConfig(address="127.0.0.1", port=0, settings=settings, seed=2, save=save))
        session = RemoteSession("127.0.0.1", 0, client_options={"name": name}, server=server,
                                record_path=str(save) if save else None)

    async def lobby(driver):
        await driver.until(lambda: "Lobby" in driver.text(), "the lobby")

    drive(session, test, screen or Screen(columns, rows), ready=lobby, **options)
    return session


def command_session(monkeypatch, argv):
    """The session ``waddle ARGV`` would show in the UI (the UI itself is not run)."""
    from client.cli import main
    from client.ui import options

    sessions = []
    monkeypatch.setattr(options, "run_ui", lambda session, args: sessions.append(session) or 0)
    assert main(argv) == 0
    return sessions[0]


async def start(driver):
    driver.keys("\r")
    await driver.until(lambda: driver.state.phase == "playing" and "Track A" in driver.text(), "the game")


async def first_turn(driver) -> int:
    """Start the game, wait for the player's first turn; the number of actions played."""
    await start(driver)
    await driver.until(lambda: driver.state.my_turn and "YOUR TURN" in driver.text(), "my turn")
    return len(driver.state.view.game)


def test_lobby_shows_seats_and_the_owner_changes_settings_then_starts(tmp_path):
    async def test(d):
        await d.shows("Seats", "alice", "random bot", "Players", "Mirror match", "Turn timer", "Start")
        d.keys("\x1b[D")  # left: 3 -> 2 players
        await d.until(lambda: d.state.settings.players == 2, "two players")
        assert d.text().count("random bot") == 1
        d.keys("\x1b[B\x1b[C")  # down to "Map", right: the first bundled map
        await d.until(lambda: getattr(d.state.settings.options.map, "name", None) == bundled_maps()[0], "a bundled map")
        d.keys("\x1b[D\x1b[B\x1b[C")  # back to standard; down to "Layout", right: seed 0
        await d.until(lambda: getattr(d.state.settings.options.map, "seed", None) == 0, "layout seed 0")
        d.keys("\x1b[B\x1b[C")  # down to "Mirror match", right: on
        await d.until(lambda: d.state.settings.options.mirror_match, "mirror match on")
        await d.shows("Mirror match          on")
        d.keys("\x1b[B\x1b[B\x1b[C")  # turn timer: 30 s
        await d.until(lambda: d.state.settings.turn_timer == 30, "the timer")
        await start(d)
        assert d.state.view.game.mirror_match and len(d.state.view.game.players) == 2
        await d.shows("half 1 of 2")

    play(test, tmp=tmp_path)


async def play_to_the_end(driver):
    """Start the game and press Enter on every turn of the player until the game is over."""
    d = driver
    await start(d)
    while d.state.phase != "finished":
        await d.until(lambda: d.state.phase == "finished" or (
            d.state.my_turn and "YOUR TURN" in d.text()), "my turn or the end")
        if d.state.phase == "finished":
            break
        moves = len(d.state.view.game)
        d.keys("\r")
        await d.until(lambda moves=moves: len(d.state.view.game) > moves, "my move applied")


def test_a_refused_join_ends_the_ui_with_the_hosts_reason_as_one_error():
    """``waddle join`` with a wrong code (or to a started game) prints the host's reason
    on one line (client.cli catches an OSError); an exception group would be a traceback."""
    server = Host(ServerConfig(address="127.0.0.1", port=0, settings=Settings(players=2), code="right"))
    session = RemoteSession("127.0.0.1", 0, client_options={"name": "alice", "code": "wrong"},
                            server=server)

    async def main():
        with create_pipe_input() as inp:
            async with asyncio.timeout(TIMEOUT):
                await run_app(Driver(session, inp, Screen(80, 24)).app)

    with pytest.raises(OSError, match="the join code is wrong"):
        asyncio.run(main())


def test_a_full_game_against_bots_to_the_score_table(tmp_path):
    async def test(d):
        await play_to_the_end(d)
        await d.shows("GAME OVER", "waddles pools total", "Record:")
        result = d.state.view.game.result()
        for colour in d.state.view.game.players:
            assert str(result.scores[colour].total) in d.text()
        assert ("{" in d.text()) == any(w.player == d.state.view.game.players[0]
                                        for w in result.halves[-1].waddles)
        d.keys("\t")
        await d.until(lambda: d.app.controller.view.shown == 1, "the next player's waddles")
        record = json.loads(Path(d.session.record_path).read_text())
        assert len(record["actions"]) == len(d.state.view.game)
        d.keys("q")  # a finished game quits without asking

    session = play(test, tmp=tmp_path)
    assert session.state.view.game.is_over


def test_scout_asks_for_confirmation():
    async def test(d):
        moves = await first_turn(d)
        d.keys("s")
        await d.shows("Scout to track B: no more places this round, first next round? y/n")
        d.keys("n")
        await d.until(lambda: "Scout to" not in d.text(), "the question closed")
        assert len(d.state.view.game) == moves
        d.keys("s")
        await d.shows("Scout to track B")
        d.keys("y")
        await d.until(lambda: len(d.state.view.game) > moves, "the scout applied")
        assert d.state.view.game.moves[moves] == ("red", SCOUT)

    play(test)


def test_help_opens_and_any_key_closes_it():
    async def test(d):
        d.keys("?")
        await d.shows("Keys", "scout (asks", "Tab: next page")
        d.keys("\t")
        await d.shows("Rules", "Your turn:")
        d.keys("x")
        await d.shows("Seats")
        await start(d)
        d.keys("?")
        await d.shows("Keys")
        d.keys(" ")
        await d.shows("Track A")

    play(test)


def test_resize_to_a_large_window_draws_bigger_cells_and_too_small_shows_a_message():
    async def test(d):
        await start(d)
        small = d.app._frame().board
        d.screen.size = Size(rows=60, columns=200)
        d.app.application.invalidate()
        await d.until(lambda: d.app._frame().board is not None
                      and d.app._frame().board.width > small.width, "bigger cells")
        d.screen.size = Size(rows=10, columns=40)
        d.app.application.invalidate()
        await d.shows("too small")
        d.keys("\x1b[A\x1b[Bjk")  # keys while too small do no harm
        d.screen.size = Size(rows=24, columns=80)
        d.app.application.invalidate()
        await d.shows("Track A")

    play(test)


def test_quitting_after_the_window_grew_leaves_the_alternate_screen_blank(tmp_path):
    """Regression: quitting from the score table after the window grew left the UI in the
    shell's screen under tmux 3.3, which reflows the alternate screen to the size it was
    entered at (lines wider than that spill into the shell's screen) before restoring."""
    screen = TerminalScreen(80, 24)

    async def test(d):
        await play_to_the_end(d)
        screen.size = Size(rows=60, columns=200)
        d.app.application.invalidate()
        await d.shows("GAME OVER", "Record:")
        assert max(len(line) for line in screen.terminal.text().split("\n")) > 80
        d.keys("q")
        async with asyncio.timeout(TIMEOUT):
            await asyncio.shield(d.task)

    play(test, players=2, tmp=tmp_path, screen=screen)
    assert screen.terminal.left_alternate is not None
    assert screen.terminal.left_alternate.strip() == ""


def test_ctrl_l_draws_the_whole_screen_again_after_stray_output():
    screen = TerminalScreen(80, 24)

    async def test(d):
        await start(d)
        await d.until(lambda: "Track A" in screen.terminal.text(), "the game on the terminal")
        screen.terminal.write("\x1b[5;50Hstray output from somewhere\x1b[12;1Hmore of it")
        assert "stray output" in screen.terminal.text()
        d.keys("\x0c")  # Ctrl-L
        await d.until(lambda: "stray output" not in screen.terminal.text()
                      and "more of it" not in screen.terminal.text()
                      and "Track A" in screen.terminal.text(), "the screen drawn again")

    play(test, screen=screen)


def test_too_small_names_the_smallest_window_that_shows_this_map():
    async def test(d):
        await start(d)
        d.screen.size = Size(rows=16, columns=60)
        d.app.application.invalidate()
        await d.shows("too small (60x16)")
        found = re.search(r"at least (\d+)x(\d+)", d.text())
        columns, rows = int(found[1]), int(found[2])
        assert (columns, rows) > (60, 16)
        for size in (Size(rows=rows, columns=columns - 1), Size(rows=rows - 1, columns=columns)):
            d.screen.size = size
            d.app.application.invalidate()
            await d.shows(f"at least {columns}x{rows}")
        d.screen.size = Size(rows=rows, columns=columns)
        d.app.application.invalidate()
        await d.shows("Track A")

    play(test)


def test_double_toggle_places_a_double():
    async def test(d):
        moves = await first_turn(d)
        d.keys("d")
        await d.shows("double ON")
        d.keys("\x1b[C\r")
        await d.until(lambda: len(d.state.view.game) > moves, "the double applied")
        assert d.state.view.game.moves[moves][1].double
        assert d.state.view.game.doubles_left("red") == 1

    play(test)


def test_chat_line_is_sent_and_user_text_is_cleaned():
    async def test(d):
        await d.shows("evil")
        assert "\x1b" not in d.text() and "\u202e" not in d.text()
        d.keys("c")
        await d.shows("say:")
        d.keys("hello table\r")
        await d.shows("hello table")
        assert d.state.chat[-1].text == "hello table"

    play(test, name="evil\x1b[2J\u202ename")


def test_esc_cancels_the_chat_line_at_once_and_the_next_key_is_not_swallowed():
    async def test(d):
        d.keys("c")
        await d.shows("say:")
        d.keys("abc")
        await d.shows("say: abc")
        d.keys("\x1b")
        # prompt-toolkit's default waits (0.5 s for an escape sequence, then 1 s for a longer
        # binding) held Esc for 1.5 s, and a key typed meanwhile joined it.
        async with asyncio.timeout(1.0):
            await d.until(lambda: "say:" not in d.text(), "the chat line closed")
        d.keys("c")
        await d.shows("say:")
        d.keys("\r")
        await d.until(lambda: "say:" not in d.text(), "the chat line closed")
        assert not d.state.chat

    play(test)


def test_quit_during_a_game_asks_first():
    async def test(d):
        await start(d)
        d.keys("q")
        await d.shows("Quit the game?")
        d.keys("n")
        await d.until(lambda: "Quit the game?" not in d.text(), "the question closed")
        d.keys("qy")
        async with asyncio.timeout(TIMEOUT):
            await asyncio.shield(d.task)
        assert not d.app.application.is_running

    play(test)


def test_ascii_mode_draws_only_ascii():
    async def test(d):
        await start(d)
        await d.shows("Track A")
        assert all(c in string.printable for c in d.text())

    play(test, ascii=True, colour=False)


def test_step_cursor_moves_towards_the_direction_pressed():
    legal = frozenset({(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)})
    assert step_cursor((-1, 0), legal, 1, 0) in {(1, 0), (0, -1), (0, 1)}
    assert step_cursor((1, 0), legal, -1, 0) in {(-1, 0), (0, -1), (0, 1)}
    assert step_cursor((1, 0), legal, 1, 0) == (1, 0)  # nothing further right
    assert step_cursor((0, 1), legal, 0, -1)[1] < 1
    assert step_cursor(None, legal, 0, 1) in legal
    assert step_cursor(None, frozenset(), 0, 1) is None


def test_a_mouse_click_on_a_legal_hex_places_there():
    async def test(d):
        moves = await first_turn(d)
        lines = d.text().split("\n")
        y, x = next((y, line.index("+")) for y, line in enumerate(lines) if "+" in line)
        d.keys(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")  # SGR press, release
        await d.until(lambda: len(d.state.view.game) > moves, "the click placed")
        player, action = d.state.view.game.moves[moves]
        board = d.app._frame().board
        pad = (d.screen.size.rows - 2 - board.height) // 2
        assert player == "red" and board.at(x, y - 1 - pad) == action.hex

    play(test)


def test_no_color_turns_colour_off_and_the_plain_style_has_no_colours(monkeypatch):
    from client.ui.style import make_style, want_colour

    monkeypatch.setenv("NO_COLOR", "1")
    assert not want_colour()
    monkeypatch.setenv("NO_COLOR", "")
    assert want_colour() and not want_colour(no_color_flag=True)
    rules = " ".join(style for _, style in make_style(False).style_rules)
    assert "#" not in rules and "bg:" not in rules
    assert "bg:" in " ".join(style for _, style in make_style(True).style_rules)


def test_waddle_host_shows_the_join_line_with_its_port_and_code(monkeypatch, tmp_path):
    session = command_session(monkeypatch, [
        "host", "--port", "0", "--players", "3", "--bots", "random", "--code", "penguin",
        "--name", "Ann", "--save", str(tmp_path / "game.json")])

    async def test(d):
        port = session._server.port
        await d.shows(f"waddle join 127.0.0.1:{port} --code penguin", "Ann (you)")
        assert d.state.is_owner
        await start(d)
        assert sorted(s.bot or "you" for s in d.state.seats) == ["random", "random", "you"]

    play(test, session=session)


def test_waddle_play_seats_you_against_the_bots_asked_for(monkeypatch, tmp_path):
    session = command_session(monkeypatch, [
        "play", "--bots", "2", "--strategy", "greedy", "--seed", "3", "--pace", "0",
        "--name", "Zed", "--record", str(tmp_path / "game.json")])

    async def test(d):
        await d.shows("Zed (you)", "greedy bot at the start")
        await start(d)
        assert sorted(s.bot or "you" for s in d.state.seats) == ["greedy", "greedy", "you"]
        assert d.state.settings.options.realtime_score

    play(test, session=session)


def test_a_spectator_sees_the_lobby_marked_watching_and_quits_without_a_question():
    settings = Settings(players=2, bots=["random"], options=HexOptions())
    server = Host(ServerConfig(address="127.0.0.1", port=0, settings=settings))
    session = RemoteSession("127.0.0.1", 0, client_options={"name": "Eve", "watch": True},
                            server=server)

    async def test(d):
        await d.shows("(watching)", "watching  c chat")
        assert d.state.seat is None and not d.state.is_owner
        d.keys("q")
        async with asyncio.timeout(TIMEOUT):
            await asyncio.shield(d.task)

    play(test, session=session)


def test_names_are_fitted_by_terminal_columns_so_wide_characters_keep_the_columns():
    from client.ui.text import fit

    assert fit("ab", 4) == "ab  "
    assert fit("企鹅x", 4) == "企… "  # cut: an ellipsis takes the last column
    assert fit("企鹅", 3) == "企…"
    assert fit("abcdef", 3) == "ab…"
    assert fit("abcdef", 3, ascii=True) == "ab~"


def test_half_time_keeps_the_first_half_on_screen_until_a_key():
    settings = Settings(players=2, bots=["random"],
                        options=HexOptions(map=StandardMap(seed=5), mirror_match=True))
    server = Host(ServerConfig(address="127.0.0.1", port=0, settings=settings, seed=2))
    session = RemoteSession("127.0.0.1", 0, client_options={"name": "alice"}, server=server)

    async def test(d):
        await start(d)
        while d.state.pause is None:
            await d.until(lambda: d.state.pause is not None or (
                d.state.my_turn and "YOUR TURN" in d.text()), "my turn or half-time")
            if d.state.pause is None:
                moves = len(d.state.view.game)
                d.keys("\r")
                await d.until(lambda moves=moves: len(d.state.view.game) > moves or d.state.pause, "my move")
        await d.shows("HALF-TIME", "any key goes on to half 2", "Half 1 is over")
        half = d.state.view.game.moves_of_half(1)
        assert d.state.view.game.half == 2 and d.text().count("waddles pools total") == 1
        assert len(d.state.view.game.moves_of_half(2)) == 0  # nobody plays meanwhile, not even the bot
        d.keys("x")
        await d.until(lambda: d.state.pause is None, "the second half")
        await d.until(lambda: "HALF-TIME" not in d.text() and "half 2 of 2" in d.text(), "half 2 on screen")
        assert d.state.view.game.moves_of_half(1) == half

    play(test, session=session)
