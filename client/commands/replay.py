"""``waddle replay``: step through a game record in the terminal UI, or print it.

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
    parser.add_argument("record", metavar="RECORD", help="the game record (JSON); - for standard input")
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


def load(path: str):
    """The match a record file (``-``: standard input) reaches.

    Raises:
        waddle.errors.RecordError: the file cannot be read, is not JSON, is of no known
            game or does not replay (naming the file, the place and the problem).
    """
    import sys

    from client.savefile import read_record
    from client.ui.replay import record_ruleset
    from protocol.text import clean

    source = "<stdin>" if path == "-" else path
    data = read_record(path, problem=lambda text: print(f"waddle replay: {clean(text)}", file=sys.stderr))
    return record_ruleset(data, source).load(data, source=source)


def run(args: argparse.Namespace) -> int:
    import sys

    for flag, value in (("--seconds", args.search_seconds), ("--pass-seconds", args.pass_seconds)):
        if not 0 < value <= 600:
            raise ValueError(f"{flag} must be more than 0 and at most 600 seconds, not {value}")
    viewer = not (args.text or args.json or args.record == "-") and sys.stdin.isatty() and sys.stdout.isatty()
    if viewer:
        return _view(args)
    return _print(args)


def _print(args: argparse.Namespace) -> int:
    """``--text`` (or ``--json``): print the position the record reaches."""
    import json

    from client.games import part

    match = load(args.record)
    text = part(match.ruleset.name, "text")
    print(json.dumps(text.result_json(match)) if args.json else text.report(match))
    return 0


def _view(args: argparse.Namespace) -> int:
    from client.ui.replay import ReplaySession

    try:
        session = ReplaySession(args.record, follow=not args.no_follow)
    except NotImplementedError:  # a game without replays: print it
        return _print(args)
    return options.run_ui(session, args)
