"""``waddle replay``: replay a game record, print the final board and the score breakdown.

Every action is checked as it is replayed (``docs/records.md``); a bad record gives one
line naming the file, the place and the problem, exit status 2. ``RECORD`` ``-`` reads
standard input. The record's ``format`` names its game (:func:`waddle.ruleset.ruleset_of_record`);
the game's text module (:mod:`client.games`) prints it. With ``--json`` it prints only the
game's ``result_json`` of the position reached, on one line. A host's save file is read
with its journal (``FILE.journal``, :mod:`waddle.journal`), so a game whose host was
killed shows every action it saved.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="RECORD", help="the game record (JSON); - for standard input")
    parser.add_argument("--json", action="store_true",
                        help="print only the result: finished, scores, winners (the hex game: halves)")


def load(path: str):
    """The match a record file (``-``: standard input) reaches.

    Raises:
        waddle.errors.RecordError: the file cannot be read, is not JSON, is of no known
            game or does not replay (naming the file, the place and the problem).
    """
    import json
    import sys
    from pathlib import Path

    from waddle.errors import RecordError
    from waddle.ruleset import ruleset_of_record, rulesets

    source = "<stdin>" if path == "-" else path
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{source}: cannot read the record: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise RecordError(f"{source}: not valid JSON: {exc}") from None
    ruleset = ruleset_of_record(data)
    if ruleset is None:
        known = " or ".join(repr(r.record_format) for r in rulesets().values())
        found = data.get("format") if isinstance(data, dict) else None
        raise RecordError(f"{source}: format: expected {known}, found {found!r}")
    match = ruleset.load(data, source=source)
    host = data.get("host")
    if path != "-" and isinstance(host, dict):
        _follow_journal(match, path, host)
    return match


def _follow_journal(match, path: str, host: dict) -> None:
    """Play on ``match`` the actions and take-backs of the host's journal beside the save
    file ``path`` (``host``: its ``host`` part; a host stopped mid-game keeps its last
    actions there); what it leaves out is one line on stderr."""
    import sys

    from protocol.text import clean
    from waddle.errors import RecordError
    from waddle.journal import extend

    try:
        version = host.get("version")
        journal = extend(match, path, table=str(host.get("table", "")),
                         version=version if type(version) is int else 0)
    except OSError as exc:
        raise RecordError(f"{path}: cannot read its journal: {exc}") from None
    if journal.problem:
        print(f"waddle replay: {clean(journal.problem)}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    import json

    from client.games import part

    match = load(args.record)
    text = part(match.ruleset.name, "text")
    print(json.dumps(text.result_json(match)) if args.json else text.report(match))
    return 0
