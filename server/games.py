"""The games at a table: the start, and rematches (a new game at the same table).

A game starts when the owner says so or every seat is ready: bots fill the empty seats,
the seats take the opening turn order (:func:`waddle.ruleset.opening_order`), and event
1 (``started``, each audience's view) goes to everybody once the save file exists. What
the game needs (the hex game: a map) is made in the lobby by the driver, or at the
start. Once a game is over, a rematch starts when every person at the table asked for
one: the same seats but those whose person left the table (filled by bots, as at a
start, or played by fewer), fresh options (:meth:`waddle.ruleset.Ruleset.reseeded`), the
opening order rotated by one, the event version counting on, the finished game's save
file kept and the new one beside it (:func:`numbered`). :class:`GamePart` is this part
of :class:`server.table.Table` (a mixin).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import msgspec
import trio

from protocol.messages import Rematch, Started
from server.log import entry_for
from server.outbox import in_turn
from server.seats import Peer
from server.turns import Told
from waddle.ruleset import Match, Prepared, opening_order

log = logging.getLogger("waddle.server")

#: The names bots take at a table, in order (``waddle demo`` names its bots alike).
BOT_NAMES = ("Pingu", "Tux", "Skipper", "Gunter", "Mumble")


def bot_name(number: int, kind: str) -> str:
    """The name of the ``number``-th bot (from 0) at a table, of ``kind``: ``"Tux (greedy bot)"``."""
    return f"{BOT_NAMES[number % len(BOT_NAMES)]} ({kind} bot)"


def numbered(path: Path, number: int) -> Path:
    """``path`` for the ``number``-th game at the table: ``game.json`` -> ``game-2.json``
    (``x.waddle.json`` -> ``x-2.waddle.json``); the first game keeps ``path``."""
    if number <= 1:
        return path
    stem, dot, rest = path.name.partition(".")
    return path.with_name(f"{stem}-{number}{dot}{rest}")


class GamePart:
    """The table's games: the start and rematches (see the module docstring)."""

    @in_turn
    def start(self) -> None:
        """Start the game: bots fill the empty seats, the seats take the opening turn order
        (shuffled unless ``settings.seat_order`` is ``"seated"``:
        :func:`waddle.ruleset.opening_order`), event 1 (``started``) goes to everybody.

        Raises:
            ValueError: already started, nobody seated, empty seats and no bots, or the
                game cannot be made.
        """
        if self.phase != "lobby":
            raise ValueError("the game has already started")
        if not self.seats:
            raise ValueError("nobody has joined")
        empty = self.settings.players - len(self.seats)
        bots = self.settings.bots
        if empty and not bots:
            raise ValueError(f"{empty} seat(s) empty and no bots to fill them")
        try:
            prepared = self._prepared_now()
            order_seed = self.seed if self.seed is not None else prepared.seed
            for i in range(empty):
                kind = bots[min(i, len(bots) - 1)]
                self.seats.add(self.seats.unique_name(bot_name(i, kind), self._spectator_names()), bot=kind)
            labels = opening_order([s.label for s in self.seats], self.settings.seat_order, order_seed)
            match = self.ruleset.new_match(prepared, self.settings.options, labels)
        except ValueError as exc:
            for seat in [s for s in self.seats if s.bot is not None]:
                self.seats.remove(seat)
            raise ValueError(f"cannot make the game: {exc}") from None
        self._begin(match)

    def _begin(self, match: Match) -> None:
        """Play ``match`` (a new game at the table): seats in its order, ``started`` to all."""
        self.match = match
        self.seats.reorder(match.labels)
        self.phase = "playing"
        self.bot_kinds, self.pause = [], None
        self.standins.clear()
        self.rematch.clear()
        self.turn_started = now = trio.current_time()
        self.started_at = time.time()
        for seat in self.seats:
            if seat.bot is None and seat.peer is None:
                seat.away_since = now
        log.info("game %d started: %s", self.games, ", ".join(f"{s.label} {s.name}" for s in self.seats))
        version = self.version + 1
        self.changed = [version] * len(match.labels)
        entry = entry_for(self._per_audience(match.view),
                          lambda view: Started(version=version, view=view))
        self.log.append(entry)
        if self.saver:
            self.saver.begin()  # blocking: the save file exists before anybody hears of the start
        self._send_event(entry, turns=Told(match, entry))
        self.broadcast_lobby()

    @in_turn
    def new_game(self) -> None:
        """A rematch: a new game at the table once the last is over, the same seats but
        those whose person left (:attr:`server.seats.Seat.left`), the game's options made
        afresh from a new seed (:meth:`waddle.ruleset.Ruleset.reseeded`), the opening order
        rotated by one (the first to act last time acts last); the version goes on
        counting; the finished game's save file stays, and the new one is saved beside it
        (``NAME-2.json``, ...). A seat left is filled by the table's bots, as at a start;
        with none, the game is played by fewer players, when the game allows that many.

        Raises:
            ValueError: the game is not over, too few players are left (and no bots), or
                the new game cannot be made.
        """
        if self.phase != "finished":
            raise ValueError("the game is not over")
        gone = [s for s in self.seats if s.left]
        labels = list(self.match.labels)
        stay = [label for label in labels[1:] + labels[:1] if label not in {s.label for s in gone}]
        bots = self.settings.bots
        players = self.settings.players if bots else len(stay)
        if players < self.ruleset.players[0]:
            raise ValueError(f"{' and '.join(s.name for s in gone)} left the table: {self.ruleset.title} "
                             f"needs {self.ruleset.players[0]} players, and this table has no bots")
        options = self.ruleset.reseeded(self.settings.options, self.rng.randrange(2**31))
        settings = msgspec.structs.replace(self.settings, options=options, players=players)
        if players != self.settings.players:
            self.ruleset.check_options(options, players, prepared=self.fixed, host=self.host_options)
        free = [look.label for look in self.seats.looks if look.label not in stay][:players - len(stay)]
        prepared = self.fixed or self.ruleset.prepare(options, players, None)
        match = self.ruleset.new_match(prepared, options, stay + free)
        for seat in gone:
            self.seats.remove(seat)
        had = sum(s.bot is not None for s in self.seats)
        for i, label in enumerate(free):
            kind = bots[min(i, len(bots) - 1)]
            self.seats.add(self.seats.unique_name(bot_name(had + i, kind), self._spectator_names()), label,
                           bot=kind)
        if self.saver:
            self.saver.move(numbered(self._first_save, self.games + 1))  # the last game kept whole
        self.settings = settings
        self.games += 1
        self._begin(match)

    @property
    def is_prepared(self) -> bool:
        """Whether what the game needs for the current settings is ready (the host's own,
        or made, or failed, in the lobby by the driver)."""
        return self.fixed is not None or (self.prepared is not None and self.prepared[0] is self.settings)

    def _prepared_now(self) -> Prepared:
        """What the match needs: the host's own, the one made in the lobby for these
        settings, or (blocking) made now."""
        if self.fixed is not None:
            return self.fixed
        if self.prepared is not None and self.prepared[0] is self.settings and self.prepared[1]:
            return self.prepared[1]
        return self.ruleset.prepare(self.settings.options, self.settings.players, self.seed)

    def _rematch(self, peer: Peer, message: Rematch) -> None:
        seat = peer.seat
        if seat is None:
            return self._reject(peer, "rematch", "not_joined", "take a seat first")
        if self.phase != "finished":
            return self._reject(peer, "rematch", "not_finished", "the game is not over")
        if message.accept:
            self.rematch.add(seat)
        else:
            self.rematch.discard(seat)
        self.broadcast_lobby()
        self._rematch_if_all_asked()

    def _rematch_if_all_asked(self) -> None:
        """Start the rematch once every connected person asked for it (and somebody did);
        one that cannot be made is refused (``cannot_start``) to everybody who asked."""
        people = {s for s in self.seats if s.bot is None and s.peer is not None}
        if self.phase != "finished" or not self.rematch or not people <= self.rematch:
            return
        try:
            self.new_game()
        except ValueError as exc:
            log.warning("cannot make the rematch: %s", exc)
            asked = [s.peer for s in self.rematch if s.peer is not None]
            self.rematch.clear()
            for peer in asked:
                self._reject(peer, "rematch", "cannot_start", str(exc))
            self.broadcast_lobby()
