"""What the history says of its players: games, wins, average score, rating, the split by
map or deck, and head-to-head (``waddle stats``, the club lobby's ratings).

Every figure is per game (the hex game and Waddle Downtown are rated apart) and per
player: a person by name, a bot by kind (:class:`waddle.history.games.Seat`). A player
is counted once a game, as the ratings count it, however many seats it took (two greedy
bots at one table: one game for ``greedy (bot)``, a win if either seat won, the mean of
their scores in the average). A shared win counts as a win for each winner. Ratings are those the history keeps as it writes
games (:mod:`waddle.history.games`), so reading them costs one query, whatever the
number of games.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

import msgspec

from waddle.rating import FRESH, ordinal

#: How a bot is written where a player is named (``greedy (bot)``; ``bot:greedy`` is read too).
BOT_SUFFIX = " (bot)"


class Rating(msgspec.Struct, frozen=True):
    """A player's openskill rating in one game: ``mu``, ``sigma``, ``ordinal`` (``mu - 3
    sigma``, what people are shown and sorted by) and the ``games`` rated (0: a newcomer)."""

    mu: float
    sigma: float
    ordinal: float
    games: int


NEWCOMER = Rating(*FRESH, ordinal(*FRESH), 0)


class Split(msgspec.Struct, frozen=True):
    """A player's games on one map or deck (``setup``): ``games``, ``wins``, ``average`` score."""

    setup: str
    games: int
    wins: int
    average: float


class PlayerStats(msgspec.Struct, frozen=True):
    """One player's line in one ``game``: ``player`` (a name, or a bot's kind), ``bot``,
    ``games``, ``wins``, ``average`` score, ``rating`` and the ``setups`` split (most
    played first)."""

    game: str
    player: str
    bot: bool
    games: int
    wins: int
    average: float
    rating: Rating
    setups: tuple[Split, ...]

    @property
    def shown(self) -> str:
        """The player as people read it: ``Ann``, ``greedy (bot)``."""
        return shown(self.player, self.bot)


class HeadToHead(msgspec.Struct, frozen=True):
    """Two players' meetings: ``games`` they sat at together, how often each finished
    ahead of the other (``a_ahead``, ``b_ahead``; the rest shared a place) and each one's
    wins in those games."""

    a: str
    b: str
    games: int
    a_ahead: int
    b_ahead: int
    a_wins: int
    b_wins: int


def shown(player: str, bot: bool) -> str:
    """``player`` as people read it: a bot's kind gets :data:`BOT_SUFFIX`."""
    return player + BOT_SUFFIX if bot else player


def player_key(text: str) -> tuple[str, bool]:
    """``(player, bot)`` from a player as a person writes one: ``Ann``, ``greedy (bot)`` or
    ``bot:greedy``."""
    if text.startswith("bot:"):
        return text[4:], True
    if text.endswith(BOT_SUFFIX):
        return text[:-len(BOT_SUFFIX)], True
    return text, False


def players(db: sqlite3.Connection, game: str | None = None) -> list[PlayerStats]:
    """Every player's line, by game, best rating first (``game``: only that one's). A
    player in several seats of one game counts one game, won if any of its seats won,
    scoring the mean of those seats' scores."""
    where, args = ("WHERE g.game = ?", (game,)) if game else ("", ())
    split: dict[tuple[str, str, bool], list[Split]] = {}
    for row in db.execute(
            "SELECT g.game, p.player, p.is_bot, g.setup, count(*), sum(p.won), avg(p.score) "
            "FROM (SELECT game_id, player, bot IS NOT NULL AS is_bot, max(winner) AS won, avg(score) AS score "
            "      FROM players GROUP BY game_id, player, bot IS NOT NULL) p "
            f"JOIN games g ON g.id = p.game_id {where} "
            "GROUP BY g.game, p.player, p.is_bot, g.setup ORDER BY count(*) DESC, g.setup", args):
        split.setdefault((row[0], row[1], bool(row[2])), []).append(Split(row[3], row[4], row[5], row[6]))
    rated = {(r["game"], r["player"], bool(r["bot"])): _rating(r) for r in db.execute(
        "SELECT * FROM ratings" + (" WHERE game = ?" if game else ""), args)}
    lines = []
    for key, setups in split.items():
        games, wins = sum(s.games for s in setups), sum(s.wins for s in setups)
        average = sum(s.average * s.games for s in setups) / games
        lines.append(PlayerStats(*key, games, wins, average, rated.get(key, NEWCOMER), tuple(setups)))
    return sorted(lines, key=lambda s: (s.game, -s.rating.ordinal, s.player, s.bot))


def head_to_head(db: sqlite3.Connection, a: str, b: str, game: str | None = None) -> HeadToHead:
    """How players ``a`` and ``b`` (as :func:`player_key` reads them) did against each
    other, over every game or ``game``'s. Each game both sat at is one meeting; a player
    in several seats of it is placed by its best seat and won it if any of its seats won."""
    (pa, ba), (pb, bb) = player_key(a), player_key(b)
    rows = db.execute(
        "SELECT min(x.place), min(y.place), max(x.winner), max(y.winner) FROM players x "
        "JOIN players y ON y.game_id = x.game_id AND y.seat != x.seat "
        "JOIN games g ON g.id = x.game_id "
        "WHERE x.player = ? AND (x.bot IS NOT NULL) = ? AND y.player = ? AND (y.bot IS NOT NULL) = ?"
        + (" AND g.game = ?" if game else "") + " GROUP BY x.game_id",
        (pa, ba, pb, bb, *([game] if game else []))).fetchall()
    return HeadToHead(shown(pa, ba), shown(pb, bb), len(rows), sum(x < y for x, y, _, _ in rows),
                      sum(y < x for x, y, _, _ in rows), sum(w for _, _, w, _ in rows),
                      sum(w for _, _, _, w in rows))


def ratings(db: sqlite3.Connection, names: Iterable[str], game: str, *,
            bots: Iterable[str] = ()) -> dict[str, Rating]:
    """The ratings in ``game`` of the people ``names`` and the bot kinds ``bots``, by the
    player as people read it (``Ann``, ``greedy (bot)``: :func:`shown`); :data:`NEWCOMER`
    for one the history has not rated."""
    wanted = [(name, False) for name in names] + [(kind, True) for kind in bots]
    found = rated(db, game, wanted)
    return {shown(*key): found.get(key, NEWCOMER) for key in wanted}


def rated(db: sqlite3.Connection, game: str, keys: Iterable[tuple[str, bool]]) -> dict[tuple[str, bool], Rating]:
    """The ratings in ``game`` of the players ``keys`` (``(player, bot)``) that have one."""
    found = {}
    for player, bot in keys:
        row = db.execute("SELECT * FROM ratings WHERE game = ? AND player = ? AND bot = ?",
                         (game, player, bot)).fetchone()
        if row is not None:
            found[player, bot] = _rating(row)
    return found


def all_ratings(db: sqlite3.Connection) -> dict[tuple[str, str, bool], Rating]:
    """Every rating, by ``(game, player, bot)`` (what a host keeps in memory for its lobby)."""
    return {(r["game"], r["player"], bool(r["bot"])): _rating(r) for r in db.execute("SELECT * FROM ratings")}


def _rating(row: sqlite3.Row) -> Rating:
    return Rating(row["mu"], row["sigma"], ordinal(row["mu"], row["sigma"]), row["games"])
