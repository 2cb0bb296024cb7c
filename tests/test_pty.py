"""The UI as people use it: the real ``waddle`` commands in pseudo-terminals of 80x24,
their screens read by a terminal emulator (pyte), keys only.

Two people on one host (``waddle host`` and ``waddle join``) play a whole game: the owner's
start asks while the guest is not ready, the guest takes back a move, quits and rejoins
(``waddle join`` again takes the seat back), and both ask for a rematch, which starts.
``waddle replay`` steps through a record of each game. A person plays a whole game of
Waddle Downtown against two bots (``waddle play --game
downtown``): the lobby's options, the setup discard while a bot's is already chosen,
a special action, a B and an A, Esc backing out of a card, the points shown before each
play is confirmed agreeing with what it scored, and the end screen.
Waiting is for the screens (or the host's save file, to know an action landed), bounded
by a timeout; no sleeps.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from server.persistence import read_save
from waddle.errors import RecordError

pyte = pytest.importorskip("pyte")
pytestmark = pytest.mark.pty

ROOT = Path(__file__).parents[1]
TIMEOUT = 60.0


class Screen(pyte.Screen):
    """A pyte screen that counts the bells it hears."""

    bells = 0

    def bell(self, *args) -> None:
        self.bells += 1


def foreground_job() -> None:
    """The child as a terminal's foreground job: the pseudo-terminal (its stdin) is its
    controlling terminal, so ``/dev/tty`` opens (ssh asks for a password there), and it has
    Ctrl-C and Ctrl-\\ back: a test run started in the background of a shell (a CI script's
    ``&``) ignores SIGINT and SIGQUIT, and a child would inherit that, so a Ctrl-C sent to
    it would do nothing."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


class Terminal:
    """One command in a pseudo-terminal of ``columns`` x ``rows``, read by pyte: ``waddle``
    with ``argv`` (or ``command``, another program, with them); run through ``prefix`` if
    given (``nsenter`` into a test's network namespace), with ``env`` added to the
    environment."""

    def __init__(self, argv: list[str], columns: int = 80, rows: int = 24, prefix: list[str] = (),
                 command: tuple[str, ...] = (sys.executable, "-m", "client.cli"),
                 env: dict[str, str] | None = None) -> None:
        self.screen = Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.output = bytearray()
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color",
               "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8", **(env or {})}
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen([*prefix, *command, *argv], stdin=slave,
                                     stdout=slave, stderr=slave, env=env, cwd=ROOT,
                                     start_new_session=True, preexec_fn=foreground_job)
        os.close(slave)
        self.fd = master
        self.screen.write_process_input = lambda data: os.write(self.fd, data.encode())

    def read(self) -> None:
        """Take what the command wrote so far."""
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:  # the command ended and the terminal closed
            data = b""
        if not data:
            self.fd_closed = True
        self.output += data
        self.stream.feed(data)

    fd_closed = False

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def keys(self, data: str) -> None:
        os.write(self.fd, data.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.fd)


def wait(terminals: list[Terminal], predicate, what: str, timeout: float = TIMEOUT) -> None:
    """Read every terminal until ``predicate()`` holds (checked after each read), or fail
    after ``timeout`` seconds naming ``what`` and showing the screens."""
    deadline = time.monotonic() + timeout
    while not predicate():
        left = deadline - time.monotonic()
        if left <= 0:
            screens = "\n\n".join(t.text() for t in terminals)
            raise AssertionError(f"timed out waiting for {what}:\n{screens}")
        ready, _, _ = select.select([t.fd for t in terminals if not t.fd_closed], [], [], min(left, 1.0))
        for terminal in terminals:
            if terminal.fd in ready:
                terminal.read()


def saved(save: Path):
    """The host's save file read with its journal, or ``None`` while it is written or a
    snapshot replaced it between the two reads (the old save with the new journal, whose
    entries do not follow it, would read as the game a checkpoint ago)."""
    try:
        file = save.stat().st_ino
        resumed = read_save(save)
        return resumed if save.stat().st_ino == file else None
    except (RecordError, OSError):
        return None


def saved_now(save: Path):
    """:func:`saved` once the save reads whole (it is unreadable only for the moment a
    write takes)."""
    for _ in range(10_000):
        if (resumed := saved(save)) is not None:
            return resumed
    raise AssertionError(f"{save} never read whole")


def actions(save: Path) -> int:
    """How many actions the host's save holds, its journal with it (-1 before it exists or
    while it is written)."""
    resumed = saved(save)
    return -1 if resumed is None else len(resumed.match)


def actions_now(save: Path) -> int:
    """:func:`actions` once the save reads whole: a count to wait beyond, never the -1 of
    a read that met a write, nor the count of a checkpoint ago."""
    return len(saved_now(save).match)


def penguins(terminal: Terminal) -> int:
    """The penguins on the board the screen shows (letters left of the panel's bar)."""
    return sum(line.split("│")[0].count("R") + line.split("│")[0].count("B")
               for line in terminal.screen.display[1:-1])


class Table:
    """The people's terminals: Ann's, and Bob's while he is there."""

    def __init__(self, ann: Terminal) -> None:
        self.ann, self.bob = ann, None

    @property
    def people(self) -> list[Terminal]:
        return [t for t in (self.ann, self.bob) if t is not None]


def test_two_people_play_a_whole_game_take_back_rejoin_and_rematch(tmp_path):
    save = tmp_path / "game.json"
    ann = Terminal(["host", "--port", "0", "--players", "2", "--code", "e2e", "--name", "Ann",
                    "--seed", "3", "--seat-order", "seated", "--grace", "120", "--save", str(save)])
    t = Table(ann)
    try:
        wait(t.people, lambda: re.search(r"waddle join 127\.0\.0\.1:(\d+) --code e2e", ann.text()), "the host's lobby")
        port = int(re.search(r"waddle join 127\.0\.0\.1:(\d+) --code e2e", ann.text()).group(1))
        join = ["join", f"127.0.0.1:{port}", "--name", "Bob", "--code", "e2e"]
        t.bob = Terminal(join)
        wait(t.people, lambda: "Ann (you)" in ann.text() and "Bob" in ann.text() and "Bob (you)" in t.bob.text(),
             "both in the lobby")
        assert f"waddle join 127.0.0.1:{port} --code e2e" in ann.text()
        assert "Lobby: waiting for the host to start" in t.bob.screen.display[0]  # the host owns its table
        ann.keys("\x1b[B" * 6 + "\r")  # down to Start, Enter: Bob is not ready, so it asks
        wait(t.people, lambda: "B Bob is not ready. Start anyway?" in ann.text(), "the start question")
        ann.keys("n")
        t.bob.keys("r")
        wait(t.people, lambda: "Bob (you)  (blue, ready)" in t.bob.text(), "Bob ready")
        ann.keys("\r")
        wait(t.people, lambda: "Track A" in ann.text() and "Track A" in t.bob.text(), "the game")
        wait(t.people, lambda: "YOUR TURN" in ann.text() and ann.screen.title == "Waddle: your turn"
             and ann.screen.bells >= 1, "Ann's turn announced (bell and title)")
        assert "YOUR TURN" not in t.bob.text() and t.bob.screen.title != "Waddle: your turn"

        def in_step(terminals: list[Terminal]) -> bool:  # every screen shows every move saved
            return all(penguins(t) == actions(save) for t in terminals)

        def play_turn(terminal: Terminal) -> None:
            before = actions_now(save)
            terminal.keys("\r")
            wait(t.people, lambda: actions(save) > before and in_step(t.people), "the move on every screen")

        took_back = rejoined = False
        while "GAME OVER" not in ann.text():
            wait(t.people, lambda: in_step(t.people) and ("GAME OVER" in ann.text() and "GAME OVER" in t.bob.text()
                 or "YOUR TURN" in ann.text() or "YOUR TURN" in t.bob.text()), "a turn")
            if "GAME OVER" in ann.text():
                break
            mover = ann if "YOUR TURN" in ann.text() else t.bob
            if mover is t.bob and not took_back:
                played = actions_now(save)
                play_turn(t.bob)
                wait(t.people, lambda: "u undo" in t.bob.text() or "u take back" in t.bob.text(), "the take-back hint")
                t.bob.keys("u")
                wait(t.people, lambda played=played: actions(save) == played and "took back the" in t.bob.text()
                     and "took back the" in ann.text() and in_step(t.people), "the take-back")
                took_back = True
                continue
            if mover is ann and took_back and not rejoined and actions(save) > 10:
                t.bob.keys("q")
                wait(t.people, lambda: "Quit the game?" in t.bob.text(), "the quit question")
                t.bob.keys("y")
                wait(t.people, lambda: t.bob.proc.poll() is not None, "Bob's UI closed")
                t.bob.read()
                out = bytes(t.bob.output).decode("utf-8", "replace")
                assert f"Come back with:  waddle join 127.0.0.1:{port} --name Bob --code e2e" in out
                t.bob.close()
                t.bob = None
                wait(t.people, lambda: "Bob (away)" in ann.text(), "Bob away on Ann's screen")
                play_turn(ann)
                t.bob = Terminal(join)
                wait(t.people, lambda: "Bob (you)" in t.bob.text() and in_step(t.people), "Bob back")
                rejoined = True
                continue
            play_turn(mover)
        assert took_back and rejoined
        wait(t.people, lambda: "GAME OVER" in t.bob.text() and "waddles pools total" in t.bob.text(),
             "the score on both screens")
        assert "Rematch? press r" in ann.text()
        wait(t.people, lambda: any(line.split("│")[-1].startswith("Record: ")
                                   and line.rstrip().endswith("game.json") for line in ann.screen.display),
             "the record's file on the host's screen")
        ann.keys("r")
        wait(t.people, lambda: "Rematch asked by R Ann" in t.bob.text(), "Ann's rematch request seen")
        t.bob.keys("r")
        wait(t.people, lambda: "game 2 starts" in ann.text() and "game 2 starts" in t.bob.text()
             and "Track A" in t.bob.text(), "the rematch")
        first = json.loads(save.read_text())
        second = json.loads((tmp_path / "game-2.json").read_text())
        assert first["players"] == ["red", "blue"] and second["players"] == ["blue", "red"]
        assert first["map"] != second["map"]  # a new seed: a new layout
        for terminal in t.people:
            terminal.keys("qy")
        wait(t.people, lambda: all(p.proc.poll() is not None for p in t.people), "both quit")
        assert "continue with: waddle host --resume" in ann.text() and "game-2.json" in ann.text()
    finally:
        for terminal in t.people:
            terminal.close()


# -- Waddle Downtown: a person and two bots, keys only ------------------------------------------


def downtown_position(record: Path):
    """The host's game so far, replayed from its save file and journal (the test is the
    referee: it reads the shuffle, which no player's screen shows)."""
    return saved_now(record).match.state


def board_text(terminal: Terminal) -> str:
    """The board area of the screen (left of the panel's bar, the column that is a bar on
    every line), below the banner."""
    body = terminal.screen.display[1:-1]
    bar = next((c for c in range(len(body[0])) if all(line[c] == "│" for line in body)), len(body[0]))
    return "\n".join(line[:bar] for line in body)


class Person:
    """Ann at a Downtown table: what she saw and did."""

    def __init__(self, terminal: Terminal, record: Path, seat: int) -> None:
        self.t, self.record, self.seat = terminal, record, seat
        self.done: set[str] = set()
        self.scores_shown: list[int] = []
        self.went_back = False

    def press(self, keys: str, until, what: str) -> None:
        self.t.keys(keys)
        wait([self.t], until, what)

    def shows(self, words: str):
        return lambda: words in self.t.text()

    def discard(self) -> None:
        state = downtown_position(self.record)
        card = state.name(state.hands[self.seat][1])
        self.press("2", self.shows(f"Discard {card} face up on your pile?"), "the discard's question")
        before = actions_now(self.record)
        self.press("\r", lambda: actions(self.record) > before, "the discard played")
        self.done.add("discard")

    def play(self) -> None:
        """One turn: a special action, B and A first, each once, then what is possible."""
        state = downtown_position(self.record)
        seat = self.seat
        plans = []
        for index, card in enumerate(state.hands[seat]):
            if card not in state.playable(seat):
                continue
            targets = state.copy_targets(seat) if card == state.deck.copy else []
            kind = state.kind(state.effective(card, targets[0] if targets else None))
            if kind != "standard":
                special = state.can_act(seat, kind)
                plans.append(("special" if special else "none", kind if special else None, index, bool(targets)))
            else:
                if state.can_add(seat):
                    plans.append(("A", "add", index, bool(targets)))
                if any(state.move_hoods(p) for p in range(len(state.red))):
                    plans.append(("B", "move", index, bool(targets)))
                if not plans or plans[-1][2] != index:
                    plans.append(("none", None, index, bool(targets)))
        order = ["special", "B", "A", "none"]
        goal, kind, index, copies = min(plans, key=lambda p: (p[0] in self.done, order.index(p[0])))
        if not self.went_back:  # Esc backs out of the card just picked
            self.press(str(index + 1), lambda: "Your turn: play a card" not in self.t.text(), "the card picked")
            self.press("\x1b", self.shows("Your turn: play a card"), "Esc back to the hand")
            self.went_back = True
        self.press(str(index + 1), lambda: "Your turn: play a card" not in self.t.text(), "the card picked")
        if copies:
            assert "Copy: which opponent's top card do you copy?" in self.t.text()
            self.press("\r", lambda: "Copy: which" not in self.t.text(), "the card copied")
        if "action A or B?" in self.t.text():
            self.press("a" if kind == "add" else "b", lambda: "action A or B?" not in self.t.text(), "A or B")
        if kind == "move":
            self.press("\r", self.shows("to place:"), "the place emptied")
        if kind in ("add", "move", "recall"):
            self.put(state, kind)
        elif kind == "recolour":
            self.recolour(state)
        assert "Enter plays it, Esc goes back" in self.t.text()
        shown = self.t.text().split("scores ")[1].split(" point")[0] if "scores " in self.t.text() else None
        before = actions_now(self.record)
        self.press("\r", lambda: actions(self.record) > before, "the play")
        history = downtown_position(self.record).history
        scored = [e for e in history if type(e).__name__ == "Scored" and e.seat == seat][-1]
        assert shown is None or int(shown) == scored.points
        self.scores_shown.append(scored.points)
        self.done.add(goal)

    def cursor(self) -> str:
        """The penguins in the cursor's box (drawn with double lines)."""
        line = next((line for line in board_text(self.t).split("\n") if "║" in line), None)
        assert line is not None, f"no cursor on the screen:\n{self.t.text()}"
        return line[line.index("║") + 1:line.rindex("║")]

    def status(self) -> str:
        """The line under the places that says what is left to put."""
        return next((line for line in board_text(self.t).split("\n")
                     if line.startswith(("to place:", "supply left:", "taken off:", "every penguin"))), "")

    def key_or_next_place(self, key: str) -> bool:
        """Press ``key``; if the screen says it was refused (nothing put), Tab to the next
        place. Returns whether it was taken."""
        before, banner = self.status(), self.t.screen.display[0]
        self.t.keys(key)
        wait([self.t], lambda: self.status() != before or self.t.screen.display[0] != banner, "an answer")
        if self.status() != before:
            return True
        board = board_text(self.t)
        self.press("\t", lambda: board_text(self.t) != board, "the cursor on the next place")
        return False

    def put(self, state, kind: str) -> None:
        """Put (Recall: take off) penguins with r and y, to the next place with Tab where
        one is refused, until the play can be confirmed."""
        for _ in range(60):
            status = self.status()
            if "Enter when done" in status:
                self.press("\r", self.shows("Enter plays it"), "the play to confirm")
                return
            if kind == "move":
                key = "r" if "r" in status.split("to place: ")[1].split(";")[0] else "y"
            elif kind == "add":
                key = "r" if state.supply_red[self.seat] else "y"
            else:
                key = "r" if "R" in self.cursor() else "y"
            self.key_or_next_place(key)
        raise AssertionError("the penguins were never all put:\n" + self.t.text())

    def recolour(self, state) -> None:
        """Turn a penguin of the first place that has one the other colour."""
        for _ in range(2 * len(state.red)):
            if "Enter when done" in board_text(self.t):
                self.press("\r", self.shows("Enter plays it"), "the recolour to confirm")
                return
            red = "R" in self.cursor() and state.supply_yellow[self.seat]
            board, banner = board_text(self.t), self.t.screen.display[0]
            self.t.keys("y" if red else "r")
            wait([self.t], lambda board=board, banner=banner: board_text(self.t) != board
                 or self.t.screen.display[0] != banner, "an answer")
            if "Enter when done" not in board_text(self.t):
                self.press("\t", lambda board=board: board_text(self.t) != board, "the next place")
        raise AssertionError("no place could be recoloured:\n" + self.t.text())


def test_a_person_plays_a_whole_downtown_game_against_two_bots_with_keys_only(tmp_path):
    record = tmp_path / "downtown.json"
    ann = Terminal(["play", "--game", "downtown", "--bots", "2", "--seed", "3", "--pace", "0",
                    "--name", "Ann", "--record", str(record)])
    try:
        settings = ("Players               3", "Single deck           off",
                    "Deck                  bundled (13 cards)")
        wait([ann], lambda: "Waddle Downtown: the lobby" in ann.text()
             and all(setting in ann.text() for setting in settings), "the lobby with its settings")
        ann.keys("\x1b[B" * 5 + "\r")
        wait([ann], lambda: "YOUR TURN" in ann.text() and "Setup: discard a card" in ann.text(), "the setup discard")
        assert ann.screen.title == "Waddle Downtown: your turn"
        wait([ann], lambda: "discard chosen" in ann.text() and "choosing..." in ann.text(),
             "the bot's discard chosen, Ann's not yet")
        seat = json.loads(record.read_text())["players"].index("blue")
        person = Person(ann, record, seat)
        person.discard()
        def mine() -> bool:  # the save file has caught up with the screen too
            return seat in downtown_position(record).to_act()

        while True:
            wait([ann], lambda: "GAME OVER" in ann.text() or "YOUR TURN" in ann.text()
                 and "Your turn: play a card" in ann.text() and mine(), "a turn")
            if "GAME OVER" in ann.text():
                break
            assert "too small" not in ann.text()
            person.play()
        assert {"discard", "A", "B", "special"} <= person.done
        wait([ann], lambda: "Points per turn" in ann.text() and "Record: " in ann.text(), "the end screen")
        final = downtown_position(record)  # saved: the record line shows once it is
        winner = final.labels[final.winners[0]]
        screen = ann.text()
        row = next(line for line in board_text(ann).split("\n") if line.startswith(winner[0].upper() + " "))
        assert "★" in row and row.split()[-2] == str(final.scores[final.winners[0]])
        assert f"won by {winner[0].upper()}" in screen.split("\n")[0]
        ann.keys("qy")
        wait([ann], lambda: ann.proc.poll() is not None, "Ann quit")
    finally:
        ann.close()



@pytest.mark.parametrize(("name", "moves", "last"), [
    ("two-players-scout-and-fill.json", 13, "won by B blue"),
    ("downtown-two-players.json", 17, "GAME OVER"),
])
def test_waddle_replay_steps_through_a_record_of_each_game_and_quits(name, moves, last):
    viewer = Terminal(["replay", str(Path(__file__).parent / "data" / "records" / name)])
    try:
        wait([viewer], lambda: f"move 0 of {moves}" in viewer.text() and "Moves" in viewer.text(),
             f"the replay of {name}")
        viewer.keys("\x1b[C")
        wait([viewer], lambda: f"move 1 of {moves}" in viewer.text() and "▶  1 " in viewer.text(),
             "the first move, highlighted in the move list")
        viewer.keys("\x1b[F")
        wait([viewer], lambda: f"move {moves} of {moves}" in viewer.text() and last in viewer.text(), "the end")
        viewer.keys("\x1b[D")
        wait([viewer], lambda: f"move {moves - 1} of {moves}" in viewer.text(), "a step back")
        viewer.keys("q")
        wait([viewer], lambda: viewer.proc.poll() is not None, "the viewer closed")
        assert viewer.proc.returncode == 0
    finally:
        viewer.close()


def history_of(path: Path, games) -> None:
    """Write ``games`` (:class:`waddle.history.FinishedGame`) to a new history at ``path``."""
    from waddle.history import connect, write_game

    db = connect(path, write=True)
    try:
        for game in games:
            write_game(db, game)
    finally:
        db.close()


def test_waddle_replay_without_a_file_lists_the_history_newest_first_and_opens_the_chosen_game(tmp_path):
    from waddle.history import FinishedGame, Seat

    history = tmp_path / "history.sqlite"
    games = []
    for number, (name, kind, names) in enumerate((("two-players-scout-and-fill.json", "hex", ("Ann", "Bob")),
                                                  ("downtown-two-players.json", "downtown", ("Cy", "Di"))), 1):
        record = json.loads((Path(__file__).parent / "data" / "records" / name).read_text())
        games.append(FinishedGame(
            table="t", number=number, game=kind, options={}, setup="standard", started=0.0,
            finished=1_000_000.0 * number, record=record,
            seats=tuple(Seat(seat=i, label=label, name=person, score=10 - i, winner=i == 0)
                        for i, (label, person) in enumerate(zip(record["players"], names)))))
    history_of(history, games)
    viewer = Terminal(["replay", "--history", str(history)])
    try:
        wait([viewer], lambda: "Which game? 1-2" in viewer.text(), "the list of games")
        lines = [line for line in viewer.screen.display if line[:3] in (" 1 ", "1  ", "2  ")]
        assert lines[0].startswith("1 ") and "Waddle Downtown" in lines[0] and "Cy 10*, Di 9" in lines[0]
        assert lines[1].startswith("2 ") and "Waddle " in lines[1] and "Ann 10*, Bob 9" in lines[1]
        viewer.keys("2\r")
        wait([viewer], lambda: "move 0 of 13" in viewer.text() and "Moves" in viewer.text(), "the hex game's replay")
        viewer.keys("\x1b[F")
        # the players' names, as the list showed them, not only the seats' labels (issue 38)
        wait([viewer], lambda: "move 13 of 13" in viewer.text() and "won by B Ann" in viewer.text(), "its end")
        assert "Y Bob" in viewer.text() and "1 B Ann: double 1,0" in viewer.text()
        viewer.keys("q")
        wait([viewer], lambda: viewer.proc.poll() is not None, "the viewer closed")
        assert viewer.proc.returncode == 0
    finally:
        viewer.close()


def test_the_club_s_lobby_lists_tables_with_ratings_and_joins_opens_and_watches_them(tmp_path):
    import trio
    from test_club_cli import WADDLE, start_club, stop

    from client.club import create_table
    from protocol import Settings
    from waddle.history import FinishedGame, Seat, connect, ratings

    history = tmp_path / "history.sqlite"
    history_of(history, [FinishedGame(table="old", number=1, game="hex", options={}, setup="standard", started=0.0,
                                      finished=1.0, record={}, seats=(
                                          Seat(seat=0, label="red", name="Cy", score=60, winner=True),
                                          Seat(seat=1, label="blue", name="Pingu", bot="random", score=40,
                                               winner=False)))])
    db = connect(history)
    try:
        cy = ratings(db, ["Cy"], "hex")["Cy"].ordinal
    finally:
        db.close()
    club, port = start_club("--history", str(history), "--save", str(tmp_path / "club"))
    where = f"127.0.0.1:{port}"
    procs, terminals = [], []
    try:
        friday = trio.run(lambda: create_table("127.0.0.1", port, "hex", Settings(players=2), name="Friday"))
        procs.append(subprocess.Popen([*WADDLE, "bot", where, "--table", friday.table, "--name", "Cy", "--quiet"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        done = subprocess.run([*WADDLE, "bot", where, "--create", "hex", "--players", "2", "--bots", "random",
                               "--start", "--name", "Di", "--table-name", "Quick", "--quiet"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        ann = Terminal(["join", where, "--name", "Ann"], columns=130)
        terminals.append(ann)

        def row(name: str) -> str:
            return next((line for line in ann.screen.display if f" {name} " in line), "")

        wait(terminals, lambda: f"Waddle club at {where}: 2 tables; you: Ann" in ann.text()
             and f"Cy {cy:.1f}" in row("Friday") and "game over" in row("Quick"), "the club's lobby")
        assert "1/2 seated" in row("Friday") and "not started" in row("Friday") and "open" in row("Friday")
        assert row("Friday").startswith("> ") and "2/2 seated" in row("Quick") and "Di" in row("Quick")
        ann.keys("\r")  # join Friday
        wait(terminals, lambda: "Ann (you)" in ann.text() and "Cy" in ann.text()
             and f"waddle join {where} --table {friday.table}" in ann.text(), "Friday's lobby")
        assert "Lobby: waiting for Cy (the table's owner) to start" in ann.screen.display[0]  # not the host
        ann.keys("q")
        wait(terminals, lambda: "Waddle club at" in ann.text() and "Enter join" in ann.text(), "back in the club")
        ann.keys("j")
        wait(terminals, lambda: row("Quick").startswith("> "), "Quick selected")
        ann.keys("w")
        wait(terminals, lambda: "GAME OVER" in ann.text() and "(watching)" in ann.text()
             and "Rematch? press r" in ann.text(), "the finished table, watched")
        ann.keys("q")
        wait(terminals, lambda: "Waddle club at" in ann.text() and "game over" in row("Quick"), "back in the club")
        ann.keys("n")
        wait(terminals, lambda: "New table of: 1 Waddle  2 Waddle Downtown" in ann.text(), "the games to open")
        ann.keys("2")
        wait(terminals, lambda: "Waddle Downtown: the lobby" in ann.text() and "Ann (you)" in ann.text(),
             "the new Downtown table's lobby")
        ann.keys("q")
        wait(terminals, lambda: "3 tables" in ann.text() and "Waddle Downtown" in row("Waddle Downtown 1"),
             "the new table listed")
        ann.keys("q")
        wait(terminals, lambda: ann.proc.poll() is not None, "Ann left the club")
        assert ann.proc.returncode == 0
    finally:
        for terminal in terminals:
            terminal.close()
        for proc in procs:
            proc.kill()
            proc.wait(10)
        stop(club)


def test_the_club_s_lobby_asks_a_table_s_code_without_showing_it(tmp_path):
    import trio
    from test_club_cli import start_club, stop

    from client.club import create_table
    from protocol import Settings

    club, port = start_club("--no-history", "--save", str(tmp_path / "club"))
    ann = eve = None
    try:
        locked = trio.run(lambda: create_table("127.0.0.1", port, "hex", Settings(players=2), name="Locked",
                                               code="s3cret"))
        ann = Terminal(["join", f"127.0.0.1:{port}", "--name", "Ann"], columns=130)
        wait([ann], lambda: "Locked" in ann.text() and "Enter join" in ann.text(), "the club's lobby")
        ann.keys("\r")
        wait([ann], lambda: "Join code:" in ann.text(), "the code asked for")
        ann.keys("\r")  # nothing typed: the lobby again, saying so (no --code to give over ssh)
        wait([ann], lambda: "this table needs a join code" in ann.text() and "Enter join" in ann.text(),
             "the lobby, the code wanted")
        assert "--code" not in ann.text() and "bad_code" not in ann.text()
        ann.keys("\r")
        wait([ann], lambda: bytes(ann.output).count(b"Join code:") == 2, "the code asked for again")
        ann.keys("s3cret\r")
        wait([ann], lambda: "Ann (you)" in ann.text(), "Locked's lobby, the code taken")
        ann.read()
        out = bytes(ann.output).decode("utf-8", "replace")
        asked = out[out.rindex("Join code:"):]
        assert "s3cret" not in asked[:asked.index("\x1b[?1049h")]  # not echoed (the table's lobby shows it after)
        eve = Terminal(["join", f"127.0.0.1:{port}", "--table", locked.table, "--name", "Eve"], columns=130)
        wait([eve], lambda: eve.proc.poll() is not None, "Eve's join, without --code, refused")
        said = " ".join(eve.text().split())
        assert "this table needs a join code: give it with --code" in said and "wrong" not in said
        assert eve.proc.returncode != 0
    finally:
        for terminal in (ann, eve):
            if terminal is not None:
                terminal.close()
        stop(club)


def test_waddle_host_club_puts_you_at_its_lobby_and_leaving_it_asks_then_stops_the_host(tmp_path):
    folder = tmp_path / "club"
    hana = Terminal(["host", "--club", "--port", "0", "--no-history", "--save", str(folder), "--name", "Hana"],
                    columns=100)
    try:
        wait([hana], lambda: "Waddle club at 127.0.0.1:" in hana.text() and "0 tables; you: Hana" in hana.text()
             and "no tables yet: n opens one" in hana.text(), "the club's lobby")
        port = re.search(r"Waddle club at 127\.0\.0\.1:(\d+):", hana.screen.display[0]).group(1)
        assert hana.screen.display[1].rstrip() == f"Others join with:  waddle join 127.0.0.1:{port}"
        assert hana.screen.display[2].rstrip() == f"Saving to:  {folder}"  # where to --resume from
        hana.keys("n")
        wait([hana], lambda: "New table of:" in hana.text(), "the games to open")
        hana.keys("1")
        wait([hana], lambda: "Waddle: the lobby" in hana.text() and "Hana (you)" in hana.text()
             and "--table " in hana.text(), "the new table's lobby, with how others join it")
        hana.keys("q")
        wait([hana], lambda: "1 table; you: Hana" in hana.text() and "Waddle 1" in hana.text(), "back at the club")
        assert "q stop the club" in hana.screen.display[-1]
        hana.keys("q")  # the host's q stops the club for everybody: asked first
        wait([hana], lambda: "Stop the club for everybody? The games in play are saved. y: yes, any other key: no"
             in hana.screen.display[-1], "the question")
        hana.keys("n")  # no: the lobby goes on (the key answers, it opens no table)
        wait([hana], lambda: "q stop the club" in hana.screen.display[-1], "the lobby's keys again")
        assert hana.proc.poll() is None and "New table of:" not in hana.text()
        hana.keys("\x03")  # Ctrl-C asks the same; y stops the club
        wait([hana], lambda: "Stop the club for everybody?" in hana.screen.display[-1], "the question again")
        hana.keys("y")
        wait([hana], lambda: hana.proc.poll() is not None, "the host stopped")
        hana.read()
        out = bytes(hana.output).decode("utf-8", "replace")
        assert hana.proc.returncode == 0 and "Hosting a club on 127.0.0.1:" in out
        assert f"the club's games are saved in {folder}" in out and (folder / "club.json").exists()
    finally:
        hana.close()


def test_a_table_the_resumed_club_did_not_keep_sends_its_player_back_to_the_club_s_lobby(tmp_path):
    import trio
    from test_club_cli import WADDLE, start_club, stop

    from client.club import create_table
    from protocol import Settings

    folder = tmp_path / "club"
    club, port = start_club("--no-history", "--save", str(folder))
    where = f"127.0.0.1:{port}"
    ann = resumed = bo = None
    try:
        friday = trio.run(lambda: create_table("127.0.0.1", port, "hex", Settings(players=3), name="Friday"))
        bo = subprocess.Popen([*WADDLE, "bot", where, "--table", friday.table, "--name", "Bo", "--quiet"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        ann = Terminal(["join", where, "--name", "Ann"], columns=100)
        wait([ann], lambda: "Friday" in ann.text() and "Enter join" in ann.text(), "the club's lobby")
        ann.keys("\r")
        wait([ann], lambda: "Ann (you)" in ann.text() and " Bo  (" in ann.text(), "Friday's lobby, Bo seated")
        stop(club)
        wait([ann], lambda: "The host stopped" in ann.text(), "the host stopped, watched for")
        banner = ann.screen.display[0]
        assert banner.split() == ["The", "host", "stopped", "watching", "for", "it", "to", "come", "back"]  # said once
        resumed = subprocess.Popen([*WADDLE, "serve", "--resume", str(folder), "--no-history"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert resumed.stdout.readline().startswith(f"Waddle club on {where} (0 tables)")
        assert "Enter look for it now" in ann.text()
        ann.keys("\r")  # look for it now, not at the end of the client's wait
        wait([ann], lambda: "Waddle club at" in ann.text() and "Enter join" in ann.text()
             and "no tables yet" in ann.text(), "back at the club's lobby", timeout=90)
        notice = " ".join(ann.text().split())
        assert f"table Friday is gone: the club at {where} no longer has it" in notice
        assert "The host stopped" not in notice
        _, err = bo.communicate(timeout=90)
        said = err.strip().splitlines()[-1]
        assert bo.returncode != 0 and f"table '{friday.table}' is gone: the club at {where} no longer has it" in said
        assert "run it again" not in said and "stopped" not in said
    finally:
        if ann is not None:
            ann.close()
        if bo is not None and bo.poll() is None:
            bo.kill()
        if resumed is not None:
            stop(resumed)


def test_the_lobby_says_an_easy_bot_with_its_article(tmp_path):
    hana = Terminal(["host", "--port", "0", "--no-history", "--players", "3", "--bots", "easy",
                     "--save", str(tmp_path / "t.waddle.json"), "--name", "Hana"])
    try:
        wait([hana], lambda: "Hana (you)" in hana.text() and "seat 3" in hana.text(), "the table's lobby")
        rows = [" ".join(line.split()) for line in hana.screen.display]
        assert "- seat 2: an easy (random) bot at the start" in rows
        assert "- seat 3: an easy (random) bot at the start" in rows
        assert not any(" a easy" in row for row in rows)
    finally:
        hana.close()


@pytest.mark.parametrize("columns", [80, 100])
def test_the_club_s_lobby_shows_every_player_of_a_three_seat_table_with_ratings(tmp_path, columns):
    from test_club_cli import WADDLE, start_club, stop

    from waddle.history import connect, ratings

    history = tmp_path / "history.sqlite"
    club, port = start_club("--history", str(history), "--save", str(tmp_path / "club"))
    where = f"127.0.0.1:{port}"
    ann = None
    try:
        done = subprocess.run([*WADDLE, "bot", where, "--create", "hex", "--players", "3", "--bots", "medium",
                               "--start", "--name", "Annabelle", "--table-name", "Trio", "--quiet"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        ann = Terminal(["join", where, "--name", "Ann"], columns=columns)

        def lines() -> list[str]:
            return [line.rstrip() for line in ann.screen.display]

        # the host's history writer commits the game in its own thread; the lobby shows the
        # rating it learnt then (a newcomer's none)
        wait([ann], lambda: re.search(r"Annabelle -?\d+\.\d", ann.text()), "Annabelle's rating in the lobby")
        db = connect(history)
        try:
            found = ratings(db, ["Annabelle"], "hex", bots=["medium"])
        finally:
            db.close()
        assert found["Annabelle"].games == 1 and found["medium (bot)"].games == 1
        rated = {name: f"{rating.ordinal:.1f}" for name, rating in found.items()}
        want = [f"Annabelle {rated['Annabelle']}", f"Pingu (medium bot) {rated['medium (bot)']}",
                f"Tux (medium bot) {rated['medium (bot)']}"]

        wait([ann], lambda: any(line.startswith("> Trio") and "game over" in line for line in lines())
             and all(any(player in line for line in lines()) for player in want), "Trio's players, each whole")
        assert all(len(line) <= columns for line in lines())
        row = next(line for line in lines() if line.startswith("> Trio"))
        assert row.split()[-1] == "open" or row.endswith(want[-1])  # its columns whole, the code last
    finally:
        if ann is not None:
            ann.close()
        stop(club)


def test_a_colour_code_typed_or_pasted_is_dropped_not_taken_for_a_broken_mouse_report(tmp_path):
    hana = Terminal(["host", "--port", "0", "--no-history", "--players", "3", "--bots", "easy",
                     "--save", str(tmp_path / "t.waddle.json"), "--name", "Hana"])
    try:
        wait([hana], lambda: "Hana (you)" in hana.text() and "c chat" in hana.text(), "the table's lobby")
        hana.keys("\x1b[5m")  # Alt-[ then 5m: prompt-toolkit reads it as a mouse report
        hana.keys("c")
        hana.keys("hi \x1b[31mred\r")  # pasted coloured text
        wait([hana], lambda: "hi red" in hana.text() or "Unhandled" in hana.text(), "the chat line")
        assert "Unhandled exception" not in hana.text()
        assert "Hana: hi red" in " ".join(hana.text().split())
    finally:
        hana.close()
