"""``waddle stats``: what the history says of its players (``docs/history.md``).

Per game (the hex game and Waddle Downtown are rated apart), each player's games, wins,
average score and openskill rating (the conservative ``mu - 3 sigma``), best first, and
the split of their games by map or deck; ``--vs A B``: how two players did against each
other. A bot is shown, and named, as ``greedy (bot)``. ``--json`` prints the same as one
JSON object. The history is read only (an older schema is first brought up to date).
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from waddle.history import default_path

    parser.add_argument("--history", metavar="FILE", help=f"the history to read (default {default_path()})")
    parser.add_argument("--game", help="only this game's players (hex, downtown)")
    parser.add_argument("--vs", nargs=2, metavar=("A", "B"),
                        help="head-to-head between two players (a bot as 'greedy (bot)')")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    import json

    import msgspec

    from protocol.text import clean
    from waddle.history import HistoryError, connect, default_path, head_to_head, players
    from waddle.ruleset import get_ruleset

    try:
        db = connect(args.history or default_path())
    except HistoryError as exc:
        raise ValueError(str(exc)) from None
    game = get_ruleset(args.game).name if args.game else None  # an unknown game: ValueError, named
    try:
        lines = players(db, game)
        if args.vs:
            _check_known(args.vs, lines, clean)
        vs = head_to_head(db, *args.vs, game=game) if args.vs else None
    finally:
        db.close()
    if args.json:
        out = {"players": [{**msgspec.to_builtins(s), "shown": s.shown} for s in lines],
               "vs": msgspec.to_builtins(vs) if vs else None}
        print(json.dumps(out))
        return 0
    for line in _versus(vs, clean) if vs else _table(lines, clean, game):
        print(line)
    return 0


def _check_known(names, lines, clean) -> None:
    """Refuse a name of ``--vs`` the history does not hold, with the one it holds that
    differs only in case, if any.

    Raises:
        ValueError: naming the player.
    """
    known = {s.shown for s in lines}
    for name in names:
        if name not in known:
            like = next((k for k in sorted(known) if k.casefold() == name.casefold()), None)
            hint = f" (did you mean {clean(like)!r}? names are as the history holds them)" if like else ""
            raise ValueError(f"no player {clean(name)!r} in the history{hint}; waddle stats lists them")


def _table(lines, clean, only: str | None) -> list[str]:
    import textwrap

    from protocol.text import counted
    from waddle.ruleset import get_ruleset

    out, game = [], None
    for s in lines:
        if s.game != game:
            game = s.game
            out += ["" if out else None, f"{get_ruleset(game).title}",
                    f"  {'player':<24} {'games':>5} {'wins':>5} {'avg':>6} {'rating':>7}"]
            out = [x for x in out if x is not None]
        rating = round(s.rating.ordinal, 1) + 0.0  # + 0.0: a rating just under zero prints 0.0, not -0.0
        # scores of different variants are not comparable (a mirror match is two halves):
        # an average over one variant only, else each variant's on its split line
        average = f"{s.average:>6.1f}" if len(s.setups) <= 1 else f"{'-':>6}"
        out.append(f"  {clean(s.shown)[:24]:<24} {s.games:>5} {s.wins:>5} {average} {rating:>7.1f}")
        out += [f"      {clean(split.setup)[:30]}: {counted(split.games, 'game')}, {counted(split.wins, 'win')}, "
                f"avg {split.average:.1f}" for split in s.setups]
    if not out:
        return [f"no finished {get_ruleset(only).title + ' ' if only else ''}games in the history yet"]
    notes = [RATING_NOTE] + ([AVERAGE_NOTE] if any(len(s.setups) > 1 for s in lines) else [])
    return out + [line for note in notes for line in ["", *textwrap.wrap(note, 78)]]  # whole words, 80 columns


#: What the rating column is (issue 38: a negative number, said without a word).
RATING_NOTE = ("rating: openskill's conservative estimate of skill, mu - 3 sigma: a newcomer "
               "starts at 0.0; winning, above all against strong players, raises it, and "
               "losing takes it below 0")
#: Why a player of several variants has no average of all (issue 38: 45.0 from 30 and 75).
AVERAGE_NOTE = ("avg: the average score over one variant (a map or a deck; a mirror match apart). "
                "A player of several variants shows '-' there, and each variant's average on its "
                "own line below")


def _versus(vs, clean) -> list[str]:
    from protocol.text import counted

    a, b = clean(vs.a), clean(vs.b)
    shared = vs.games - vs.a_ahead - vs.b_ahead
    return [f"{a} vs {b}: {counted(vs.games, 'game')} together; {a} ahead {vs.a_ahead}, "
                f"{b} ahead {vs.b_ahead}, level {shared}; wins {vs.a_wins} to {vs.b_wins}"]
