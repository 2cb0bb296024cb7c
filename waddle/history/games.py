"""Finished games in the history: writing one (with its players' ratings), reading them back.

A game is known by its table's id and its number at the table (``welcome.table``, 1 then
one more per rematch): writing it again (a host resumed after it crashed before its row
was committed) changes nothing. A player is a person, known by name, or a bot, known by
its kind (``greedy``, ``hard``): the seats a player took are rated as one player, per game
(:mod:`waddle.rating`), in the order the games were written.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

import msgspec

from waddle.rating import FRESH, ranks, rate_game


class Seat(msgspec.Struct, frozen=True, kw_only=True):
    """One seat of a finished game: its number (opening turn order), ``label``, the
    ``name`` it was played under, ``bot`` (a host bot's kind; ``None``: a person's),
    ``score`` (points), whether it won, and its player's SSH key ``fingerprint`` if known."""

    seat: int
    label: str
    name: str
    bot: str | None = None
    score: int
    winner: bool
    fingerprint: str | None = None

    @property
    def player(self) -> str:
        """Who is rated: a person by name, a bot by kind."""
        return self.bot if self.bot is not None else self.name


class FinishedGame(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game as the history stores it.

    ``table``: the table's id; ``number``: the game's number at it; ``game``: the
    ruleset's name; ``options``: the game's options (JSON-ready); ``setup``: the map or
    deck in a few words (:meth:`waddle.ruleset.Ruleset.setup_name`); ``started``,
    ``finished``: Unix times in seconds (``started`` ``None``: not known); ``record``: the
    game record (JSON-ready, no host part: no tokens); ``seats``: in seat order.
    """

    table: str
    number: int
    game: str
    options: Any
    setup: str
    started: float | None
    finished: float
    record: dict[str, Any]
    seats: tuple[Seat, ...]


def write_game(db: sqlite3.Connection, game: FinishedGame) -> bool:
    """Write ``game`` and its players' new ratings in one transaction; ``False`` when the
    history holds it already (nothing changed).

    Raises:
        sqlite3.Error: the database refused (locked, read-only, full, damaged): nothing
            was written.
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        written = _insert(db, game)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return written


def _insert(db: sqlite3.Connection, game: FinishedGame) -> bool:
    cursor = db.execute(
        "INSERT OR IGNORE INTO games (table_id, number, game, options, setup, started, finished, record) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (game.table, game.number, game.game, json.dumps(game.options), game.setup, game.started,
         game.finished, json.dumps(game.record, separators=(",", ":"))))
    if cursor.rowcount == 0:
        return False
    places = ranks([s.score for s in game.seats], [s.seat for s in game.seats if s.winner])
    db.executemany(
        "INSERT INTO players (game_id, seat, label, name, bot, player, score, winner, place, fingerprint) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(cursor.lastrowid, s.seat, s.label, s.name, s.bot, s.player, s.score, s.winner, place,
          s.fingerprint) for s, place in zip(game.seats, places)])
    _rate(db, game.game, [(s.player, s.bot is not None) for s in game.seats], places)
    return True


def _rate(db: sqlite3.Connection, game: str, players: Sequence[tuple[str, bool]],
          places: Sequence[int]) -> None:
    """Update the ratings of ``players`` (by seat: ``(player, bot)``) after a game of
    ``game`` with ``places``; a player in several seats takes the mean of their ratings."""
    before = {key: ((row["mu"], row["sigma"]), row["games"]) for key in set(players)
              for row in [db.execute("SELECT mu, sigma, games FROM ratings WHERE game = ? AND player = ? "
                                     "AND bot = ?", (game, *key)).fetchone()] if row is not None}
    rated = rate_game([before.get(key, (FRESH, 0))[0] for key in players], places)
    for key in set(players):
        mine = [r for r, seat_key in zip(rated, players) if seat_key == key]
        mu, sigma = (sum(m for m, _ in mine) / len(mine), sum(s for _, s in mine) / len(mine))
        db.execute("INSERT OR REPLACE INTO ratings (game, player, bot, mu, sigma, games) "
                   "VALUES (?, ?, ?, ?, ?, ?)", (game, *key, mu, sigma, before.get(key, (FRESH, 0))[1] + 1))


def rebuild_ratings(db: sqlite3.Connection) -> None:
    """Rate every game afresh, in the order written (inside the caller's transaction)."""
    db.execute("DELETE FROM ratings")
    seats: dict[int, list[sqlite3.Row]] = {}
    for row in db.execute("SELECT game_id, player, bot IS NOT NULL AS is_bot, place FROM players "
                          "ORDER BY game_id, seat"):
        seats.setdefault(row["game_id"], []).append(row)
    games = dict(db.execute("SELECT id, game FROM games").fetchall())
    for game_id, rows in seats.items():
        _rate(db, games[game_id], [(r["player"], bool(r["is_bot"])) for r in rows], [r["place"] for r in rows])


class Summary(msgspec.Struct, frozen=True):
    """One game in a list: its ``id`` in the history, ``game``, ``setup``, ``finished``
    (Unix seconds), its seats' ``names``, ``scores`` and ``winners`` (seat numbers), in
    seat order."""

    id: int
    game: str
    setup: str
    finished: float
    names: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]


def recent(db: sqlite3.Connection, limit: int = 20) -> list[Summary]:
    """The ``limit`` games that finished last, newest first."""
    games = db.execute("SELECT id, game, setup, finished FROM games ORDER BY finished DESC, id DESC LIMIT ?",
                       (limit,)).fetchall()
    seats: dict[int, list[sqlite3.Row]] = {g["id"]: [] for g in games}
    marks = ",".join("?" * len(games))
    for row in db.execute(f"SELECT game_id, seat, name, score, winner FROM players WHERE game_id IN ({marks}) "
                          "ORDER BY game_id, seat", list(seats)):
        seats[row["game_id"]].append(row)
    return [Summary(g["id"], g["game"], g["setup"], g["finished"], tuple(r["name"] for r in seats[g["id"]]),
                    tuple(r["score"] for r in seats[g["id"]]),
                    tuple(r["seat"] for r in seats[g["id"]] if r["winner"])) for g in games]


def record(db: sqlite3.Connection, game_id: int) -> dict[str, Any]:
    """The game record of the history's game ``game_id``, with a ``host`` part that names
    its players as a save file's does (``{"seats": [{"seat", "label", "name"}, ...]}``,
    no tokens), so a replay shows who played, not only the seats' labels (issue 38).

    Raises:
        KeyError: no such game.
    """
    row = db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise KeyError(game_id)
    seats = db.execute("SELECT seat, label, name FROM players WHERE game_id = ? ORDER BY seat", (game_id,))
    return {**json.loads(row["record"]),
            "host": {"seats": [{"seat": s["seat"], "label": s["label"], "name": s["name"]} for s in seats]}}
