"""``waddle replay``: step through a game record in the terminal UI, or print it.

Without a file, ``waddle replay`` lists the games the history holds (``--history FILE``,
else the default: ``docs/history.md``), newest first, asks which one and opens it (or,
with ``--text``/``--json``, prints it).

In a terminal, ``waddle replay FILE`` opens the replay viewer (:mod:`client.ui.replay`,
``docs/replay.md``): the game step by step as the table showed it, the search bot's
analysis on a key. A record of a game still going on (a running host's save file) is
followed as the host adds to it. ``--text`` (and any run whose input or output is not a
terminal, or that reads the record from standard input, ``-``) prints the final board and
the score breakdown instead; ``--json`` prints only the game's ``result_json`` of the
position reached, on one line.

Every action is checked as it is replayed (``docs/records.md``); a bad record gives one
line naming the file, the place and the problem, exit status 2. The record's ``format``
names its game (:func:`waddle.ruleset.ruleset_of_record`); the game's text module
(:mod:`client.games`) prints it. A host's save file is read with its journal
(``FILE.journal``, :mod:`waddle.journal`; :func:`client.savefile.read_record`), so a game
whose host was killed shows every action it saved.
"""

from __future__ import annotations

import argparse

from client.ui import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from waddle.history import default_path

    parser.add_argument("record", metavar="RECORD", nargs="?",
                        help="the game record (JSON); - for standard input; none: choose one of "
                             "the recent games in the history")
    parser.add_argument("--history", metavar="FILE",
                        help=f"without RECORD, the history to choose from (default {default_path()})")
    parser.add_argument("--recent", type=int, default=20, metavar="N",
                        help="without RECORD, how many of the latest games to list (default 20)")
    parser.add_argument("--json", action="store_true",
                        help="print only the result: finished, scores, winners (and the game's own parts, "
                             "such as a mirror match's halves)")
    parser.add_argument("--text", action="store_true",
                        help="print the final board and the score breakdown instead of opening the viewer")
    parser.add_argument("--seconds", dest="search_seconds", type=float, default=2.0, metavar="S",
                        help="the viewer's search time for one step (e), seconds (default 2)")
    parser.add_argument("--pass-seconds", type=float, default=0.5, metavar="S",
                        help="the search time for each step of the whole-game analysis (E), "
                             "seconds (default 0.5)")
    parser.add_argument("--no-follow", action="store_true",
                        help="do not follow a record that is still growing (a running host's save)")
    options.add_arguments(parser)


#: The ``source`` a game of the history is named by, in messages and on the viewer's screen.
HISTORY_SOURCE = "history game {id}"


def load(path: str, record: dict | None = None):
    """The match a record file (``-``: standard input), or ``record`` (a game of the
    history, named ``path``), reaches.

    Raises:
        waddle.errors.RecordError: the file cannot be read, is not JSON, is of no known
            game or does not replay (naming the file, the place and the problem).
    """
    import sys

    from client.savefile import read_record
    from client.ui.replay import record_ruleset
    from protocol.text import clean

    source = "<stdin>" if path == "-" else path
    data = record if record is not None else read_record(
        path, problem=lambda text: print(f"waddle replay: {clean(text)}", file=sys.stderr))
    return record_ruleset(data, source).load(data, source=source)


def run(args: argparse.Namespace) -> int:
    import sys

    for flag, value in (("--seconds", args.search_seconds), ("--pass-seconds", args.pass_seconds)):
        if not 0 < value <= 600:
            raise ValueError(f"{flag} must be more than 0 and at most 600 seconds, not {value}")
    if args.recent < 1:
        raise ValueError(f"--recent must be 1 or more, not {args.recent}")
    record = choose_from_history(args) if args.record is None else None
    if args.record is None:
        return 0  # none chosen: nothing to show
    viewer = not (args.text or args.json or args.record == "-") and sys.stdin.isatty() and sys.stdout.isatty()
    if viewer:
        return _view(args, record)
    return _print(args, record)


def choose_from_history(args: argparse.Namespace, ask=input, say=print) -> dict | None:
    """List the history's latest ``args.recent`` games, newest first (:func:`recent_lines`),
    ask with ``ask`` which one, and return its record; ``args.record`` becomes its name
    (:data:`HISTORY_SOURCE`). ``None`` when the person chose none (``q``).

    Raises:
        client.cli.UserError: the history cannot be read (naming the file) or holds no game.
    """
    from client.cli import UserError
    from client.commands.tables import ask_number
    from waddle.history import HistoryError, connect, default_path, recent, record

    path = args.history or default_path()
    try:
        db = connect(path)
    except HistoryError as exc:
        raise UserError(f"{exc} (or give a record file: waddle replay FILE)") from None
    try:
        games = recent(db, args.recent)
        if not games:
            raise UserError(f"{path}: no finished games in the history yet")
        say(f"The latest games in {path}, newest first:")
        say("\n".join(recent_lines(games)))
        number = ask_number(len(games), "game", ask, say)
        if number is None:
            return None
        chosen = games[number]
        args.record = HISTORY_SOURCE.format(id=chosen.id)
        return record(db, chosen.id)
    finally:
        db.close()


def recent_lines(games) -> list[str]:
    """One numbered line a game of the history (:class:`waddle.history.Summary`), e.g.
    ``" 1  2026-12-04 18:22  Waddle Downtown  bundled deck    Ann 34*, Bob 20"`` (a star:
    a winner); names cleaned (they are the players')."""
    import time

    from protocol.text import clean_name, pad, shown
    from waddle.ruleset import BUILT_IN, get_ruleset

    width = len(str(len(games)))
    lines = []
    for number, game in enumerate(games, 1):
        title = get_ruleset(game.game).title if game.game in BUILT_IN else f"? {game.game}"
        seats = ", ".join(f"{shown(clean_name(name, '?'))} {score}{'*' if seat in game.winners else ''}"
                          for seat, (name, score) in enumerate(zip(game.names, game.scores)))
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.finished))
        lines.append(f"{number:>{width}}  {when}  {pad(title, 15)}  {pad(shown(clean_name(game.setup, '')), 14)}  {seats}")
    return lines


def _print(args: argparse.Namespace, record: dict | None = None) -> int:
    """``--text`` (or ``--json``): print the position the record reaches."""
    import json

    from client.games import part

    match = load(args.record, record)
    text = part(match.ruleset.name, "text")
    print(json.dumps(text.result_json(match)) if args.json else text.report(match))
    return 0


def _view(args: argparse.Namespace, record: dict | None = None) -> int:
    from client.ui.replay import ReplaySession

    try:
        session = ReplaySession(args.record, follow=not args.no_follow, record=record)
    except NotImplementedError:  # a game without replays: print it
        return _print(args, record)
    return options.run_ui(session, args)
