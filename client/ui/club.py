"""The club's lobby on the terminal: the tables of a club host (``waddle serve --club``),
to join, watch or open one (``docs/club.md``).

``waddle join HOST:PORT`` at a club shows it first: every table with its game, seats
taken of its seats, whether its game has started, its spectators, whether it needs a
code, and who sits there with the rating the club's history knows beside each name
(:func:`client.club.table_columns`). Keys: up/down (``k``/``j``) choose a table, Enter
joins it (``waddle watch``: watches it), ``w`` watches it, ``n`` opens a new table (then
the game's number), ``r`` asks for the list at once (it is asked every
:data:`REFRESH` seconds), ``q`` leaves (on the club's own host, ``waddle host --club``,
where leaving stops the club, after asking: :data:`STOP_QUESTION`). :func:`choose` returns what was chosen; the
table's own screen (:class:`client.ui.app.WaddleApp`) then runs, and quitting it comes
back here (:func:`client.commands.join.open_table`).

The list comes from the host (:func:`client.club.list_tables`, in a worker thread: each
request is a short trio run of its own, so this screen's asyncio loop never waits on the
network); every text of it is cleaned before it is shown.
"""

from __future__ import annotations

import asyncio
import functools
import textwrap
from dataclasses import dataclass, field

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth

from client.club import create_table, list_tables, seat_text, table_columns
from client.core import ClientError
from client.ui.mouse import guarded_mouse
from client.ui.style import make_style
from client.ui.text import join_lines, question_line
from protocol.messages import TableInfo
from protocol.text import cells, clean_name, counted, cut, pad, shown

#: Seconds between two requests of the club's list.
REFRESH = 1.0
#: The most rows a notice takes (a long one, such as how to come back to a table, wraps).
NOTICE_ROWS = 3
#: The columns' heading (:func:`client.club.table_columns`' order, without the id).
HEADING = ("table", "game", "seats", "game state", "watching", "code", "players (rating)")
#: The widths of the columns before the players: 78 cells with their gaps, so that with the
#: selection's mark they fill an 80-column terminal.
WIDTHS = (18, 15, 10, 11, 10, 4)
#: What the club's own host is asked before its ``q`` stops the club.
STOP_QUESTION = "Stop the club for everybody? The games in play are saved."
#: Where the rows of a table's players that do not fit beside its columns begin.
INDENT = 2


@dataclass
class Choice:
    """What the person chose at the club's lobby: the ``table`` (its id) to join, or to
    ``watch``, whether it asks for a join ``code``, and its ``name`` as listed (cleaned;
    ``""``: a table just opened)."""

    table: str
    watch: bool = False
    code_required: bool = False
    name: str = ""


@dataclass
class ClubLobby:
    """The club's lobby screen's state: where the club is, who is looking, the tables
    listed last, which is selected, what to say (a refusal, a problem reaching the host)."""

    host: str
    port: int
    name: str
    watching: bool = False
    #: The Unix socket the requests go to (an SSH guest's; ``None``: ``host``:``port``).
    unix_socket: str | None = None
    #: Whether leaving this lobby stops the club (the host's own, ``waddle host --club``):
    #: ``q`` asks first.
    stops_club: bool = False
    #: Lines shown under the title, kept there (the host's own lobby: how others join the
    #: club); one too wide for the screen folds before each ``"  or  "``.
    joins: tuple[str, ...] = ()
    #: Whether :data:`STOP_QUESTION` is asked (the bottom line says it; any key answers).
    asking: bool = False
    tables: list = field(default_factory=list)
    selected: int = 0
    notice: str = ""
    creating: bool = False
    choice: Choice | None = None
    games: list = field(default_factory=list)

    def __post_init__(self) -> None:
        from waddle.ruleset import rulesets

        self.games = list(rulesets().values())

    # -- what it shows ----------------------------------------------------------------------

    def lines(self, columns: int, rows: int) -> list:
        """The screen's lines (prompt-toolkit fragments), cut to ``columns``, at most ``rows``:
        each table takes a row, and the rows under it its players need when they do not fit
        beside it (:func:`entry`)."""
        count = len(self.tables)
        title = (f"Waddle club at {self.host}:{self.port}: {counted(count, 'table')}; "
                 f"you: {shown(clean_name(self.name, '?'))}")
        out = [[("class:banner", cut(title, columns).ljust(columns))]]
        out += [[("", cut(row, columns))] for line in self.joins for row in _fold(line, columns)]
        out.append([])
        out.append([("class:dim", cut("  " + _row(HEADING[:-1], WIDTHS) + "  " + HEADING[-1], columns))])
        notice = textwrap.wrap(self.notice, max(1, columns), break_on_hyphens=False)[:NOTICE_ROWS] or [""]
        body = rows - len(out) - 2 - len(notice)
        entries = [entry(info, columns) for info in self.tables]
        first = self.selected
        while first > 0 and sum(len(e) for e in entries[first - 1:self.selected + 1]) <= body:
            first -= 1
        shown_rows = []
        for n in range(first, len(entries)):
            style = "class:selected" if n == self.selected else ""
            for k, text in enumerate(entries[n]):
                mark = "> " if n == self.selected and k == 0 else "  "
                shown_rows.append([(style, cut(mark + text, columns))])
        out += shown_rows[:max(0, body)]
        if not self.tables:
            out.append([("", "  no tables yet: n opens one")])
        out += [[]] * max(0, rows - len(out) - 1 - len(notice))
        out += [[("class:notice", cut(line, columns))] for line in notice]
        out.append([("class:banner.alert" if self.asking else "class:key", cut(self.hints(columns), columns))])
        return out

    def hints(self, columns: int = 0) -> str:
        """The keys' line (a question being asked: the question, fitted to ``columns``)."""
        if self.asking:
            return question_line(STOP_QUESTION, columns)
        if self.creating:
            games = "  ".join(f"{n} {ruleset.title}" for n, ruleset in enumerate(self.games, 1))
            return f"New table of: {games}   Esc back"
        enter = "watch" if self.watching else "join"
        leave = "stop the club" if self.stops_club else "leave the club"
        return f"Enter {enter}  w watch  n new table  r refresh  q {leave}"

    # -- what keys do -------------------------------------------------------------------------

    def move(self, step: int) -> None:
        if self.tables:
            self.selected = max(0, min(len(self.tables) - 1, self.selected + step))

    def pick(self, watch: bool) -> bool:
        """Choose the selected table (to watch with ``watch``); whether there is one."""
        if not self.tables:
            self.notice = "no table to choose: n opens one"
            return False
        info = self.tables[self.selected]
        self.choice = Choice(info.table, watch or self.watching, info.code_required, table_columns(info)[1])
        return True

    async def refresh(self) -> None:
        """Ask the club for its tables (keeping the selected one selected)."""
        try:
            listed = await asyncio.to_thread(trio.run, functools.partial(
                list_tables, self.host, self.port, unix_socket=self.unix_socket))
        except ClientError as exc:
            self.notice = str(exc)
            return
        chosen = self.tables[self.selected].table if self.tables else None
        self.tables = listed.tables
        ids = [info.table for info in self.tables]
        self.selected = ids.index(chosen) if chosen in ids else min(self.selected, max(0, len(ids) - 1))
        if self.notice.startswith("cannot ask"):
            self.notice = ""

    async def create(self, number: int) -> bool:
        """Open a table of the ``number``-th game (from 1) and choose it; whether it opened."""
        self.creating = False
        if not 1 <= number <= len(self.games):
            return False
        game = self.games[number - 1].name
        try:
            created = await asyncio.to_thread(trio.run, functools.partial(
                create_table, self.host, self.port, game, unix_socket=self.unix_socket))
        except ClientError as exc:
            self.notice = str(exc)
            return False
        self.choice = Choice(created.table)
        return True


def entry(info: TableInfo, columns: int) -> list[str]:
    """A listed table's rows for a screen ``columns`` wide (less the selection's mark):
    its columns (:data:`WIDTHS`), with its players (and their ratings) beside them when
    they fit, else on the rows below, indented, as many whole players a row as fit."""
    row = _row(table_columns(info)[1:-1], WIDTHS)
    players = [seat_text(seat, info.phase) for seat in info.seats]
    width = columns - 2
    if not players or cells(row.rstrip()) + 2 + cells(", ".join(players)) <= width:
        return [(row + "  " + ", ".join(players)).rstrip()]
    rows, line = [row.rstrip()], ""
    for n, player in enumerate(players):
        text = player + ("," if n < len(players) - 1 else "")
        if line and INDENT + cells(line) + 1 + cells(text) > width:
            rows.append(" " * INDENT + line)
            line = text
        else:
            line = f"{line} {text}" if line else text
    return [*rows, " " * INDENT + line]


def _fold(line: str, columns: int) -> list[str]:
    """``line`` in rows of ``columns``: whole when it fits, else a new row (indented) at
    each ``"  or  "`` that does not fit on the row before."""
    first, *others = line.split("  or  ")
    rows = [first]
    for other in others:
        if cells(rows[-1]) + 6 + cells(other) <= columns:
            rows[-1] += "  or  " + other
        else:
            rows.append("    or  " + other)
    return rows


def _row(cells, widths) -> str:
    """``cells`` padded to ``widths``, two spaces apart."""
    return "  ".join(pad(str(cell), width) for cell, width in zip(cells, widths))


def choose(lobby: ClubLobby, *, colour: bool = True) -> Choice | None:
    """Run the club's lobby screen until the person chooses a table (its :class:`Choice`)
    or leaves (``None``)."""
    return asyncio.run(_run(lobby, colour))


async def _run(lobby: ClubLobby, colour: bool) -> Choice | None:
    kb = KeyBindings()
    control = FormattedTextControl(lambda: _screen(lobby, app), focusable=True)
    app = Application(layout=Layout(HSplit([Window(control)])), key_bindings=merge_key_bindings([kb, guarded_mouse()]),
                      full_screen=True,
                      style=make_style(colour), color_depth=None if colour else ColorDepth.MONOCHROME,
                      erase_when_done=True)
    listing = Condition(lambda: not lobby.creating and not lobby.asking)
    creating = Condition(lambda: lobby.creating and not lobby.asking)
    asking = Condition(lambda: lobby.asking)

    @kb.add("up", filter=listing)
    @kb.add("k", filter=listing)
    def _(event):
        lobby.move(-1)

    @kb.add("down", filter=listing)
    @kb.add("j", filter=listing)
    def _(event):
        lobby.move(1)

    @kb.add("enter", filter=listing)
    def _(event):
        if lobby.pick(watch=False):
            app.exit()

    @kb.add("w", filter=listing)
    def _(event):
        if lobby.pick(watch=True):
            app.exit()

    @kb.add("n", filter=listing)
    def _(event):
        lobby.creating = True

    @kb.add("escape", filter=creating)
    def _(event):
        lobby.creating = False

    for digit in "123456789":
        @kb.add(digit, filter=creating)
        async def _(event, number=int(digit)):
            if await lobby.create(number):
                app.exit()
            app.invalidate()

    @kb.add("r", filter=listing)
    async def _(event):
        await lobby.refresh()
        app.invalidate()

    def leave() -> None:
        lobby.choice, lobby.asking = None, False
        app.exit()

    @kb.add("q", filter=listing)
    @kb.add("c-c")
    def _(event):
        if lobby.stops_club and not lobby.asking:  # a second Ctrl-C stops it, as at a table
            lobby.creating, lobby.asking = False, True
        else:
            leave()

    @kb.add(Keys.Any, filter=asking)
    def _(event):
        lobby.asking = False
        if event.data in ("y", "Y"):
            leave()

    async def keep_listing() -> None:
        while True:
            await lobby.refresh()
            app.invalidate()
            await asyncio.sleep(REFRESH)

    lobby.choice = None
    task = asyncio.get_running_loop().create_task(keep_listing())
    try:
        await app.run_async()
    finally:
        task.cancel()
    return lobby.choice


def _screen(lobby: ClubLobby, app: Application):
    size = app.output.get_size()
    return join_lines(lobby.lines(size.columns, size.rows), size.columns)
