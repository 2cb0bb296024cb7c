"""The seats of a table: who sits where, their secret tokens, names and the owner, and
the :class:`Peer` (a connection) that holds a seat.

A :class:`Seat` is a number (its place in :class:`Seats`, the opening turn order once
the game starts) with a label and colour that the game's ruleset supplies
(:attr:`waddle.ruleset.Ruleset.seats`). Tokens are random, compared in constant time,
and never logged or broadcast.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol.messages import SeatInfo
from waddle.ruleset import SeatLook


def new_token() -> str:
    """A fresh secret seat token (192 random bits, URL-safe text)."""
    return secrets.token_urlsafe(24)


def same_secret(given: str, secret: str) -> bool:
    """Whether ``given`` equals ``secret``, in time that does not depend on where they differ
    (ASCII text, a token's, compared as it is; other text as UTF-8)."""
    if given.isascii() and secret.isascii():
        return hmac.compare_digest(given, secret)
    return hmac.compare_digest(given.encode(), secret.encode())


class Peer(Protocol):
    """What the table needs of a connection (:class:`server.connection.Connection`);
    ``address``: the peer's IP address text (``None``: unknown), whose join-code guesses
    are counted together (:mod:`server.guard`); ``fingerprint``: the SSH key of a guest
    who came through the gateway (:mod:`server.ssh`; ``None``: none known)."""

    label: str
    address: str | None
    fingerprint: str | None
    seat: Seat | None
    watching: bool
    name: str
    #: What it asked to be told with each event (``hello.to_act``, ``hello.legal``:
    #: :data:`server.turns.Asks`).
    asks: str | None

    def send_frames(self, frames: Sequence[bytes]) -> None:
        """Write encoded ``frames`` to the peer, in order, in one write, never blocking
        (the table's :class:`server.outbox.Outbox` hands it each turn's frames)."""

    def close(self, code: str, message: str) -> None: ...

    def log_rejection(self, request: str, code: str, message: str) -> None: ...


@dataclass(eq=False)
class Seat:
    """A seat: its look (label, colour), its player's name, its secret token and who plays it now.

    ``bot``: the bot kind of a bot seat (``None``: a person's seat). ``fingerprint``: the
    SSH key of the guest who took it last through the gateway (``None``: none known; kept
    in the save and written to the history); ``ssh_name``: the SSH user name of that guest
    if it came without a key (kept in the save: after a resume the name still finds the
    seat, :mod:`server.ssh.admission`). ``peer``: the connection holding it
    (``None``: away). ``away_since``: when its connection went (trio time). ``left``: its
    person left the table in a game (``leave``, a club's ``leave_table``) and has not come
    back: the next game (a rematch) is played without them. ``acted``: the action ids it played, with their event versions;
    ``actions``: the actions of those ids played since this host started (not saved: a
    resumed table compares a resent action by its version only).
    """

    look: SeatLook
    name: str
    token: str = field(default_factory=new_token, repr=False)
    bot: str | None = None
    ready: bool = False
    fingerprint: str | None = None
    ssh_name: str | None = None
    peer: Peer | None = field(default=None, repr=False)
    away_since: float | None = None
    acted: dict[str, int] = field(default_factory=dict, repr=False)
    actions: dict[str, Any] = field(default_factory=dict, repr=False)
    left: bool = False

    @property
    def label(self) -> str:
        """The seat's label in the game (e.g. ``"red"``)."""
        return self.look.label


class Seats:
    """The seats of one table, in seat order, for a game whose seats look like ``looks``;
    the order they were taken in is kept too (the owner's), whatever the seat order."""

    def __init__(self, looks: Sequence[SeatLook]) -> None:
        self.looks = tuple(looks)
        self._seats: list[Seat] = []
        self._taken: list[Seat] = []  # the same seats, in the order they were taken

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._seats)

    def __len__(self) -> int:
        return len(self._seats)

    def __getitem__(self, number: int) -> Seat:
        return self._seats[number]

    def number(self, seat: Seat) -> int:
        """The seat's number (its place in seat order)."""
        return self._seats.index(seat)

    @property
    def owner(self) -> Seat | None:
        """The seat that may configure and start: the longest-seated connected person (or,
        with nobody connected, the longest-seated person); the opening turn order, which
        reorders the seats, does not change it."""
        people = [s for s in self._taken if s.bot is None]
        return next((s for s in people if s.peer is not None), people[0] if people else None)

    def free_looks(self) -> list[SeatLook]:
        """The looks no seat has, in the order free seats take them."""
        taken = {s.label for s in self._seats}
        return [look for look in self.looks if look.label not in taken]

    def add(self, name: str, label: str | None = None, *, bot: str | None = None) -> Seat:
        """Seat ``name`` at the free seat labelled ``label`` if there is one, else the first free seat.

        Raises:
            IndexError: no seat is free.
        """
        free = self.free_looks()
        look = next((f for f in free if f.label == label), None) or free[0]
        seat = Seat(look, name, bot=bot, ready=bot is not None)
        self._seats.append(seat)
        self._taken.append(seat)
        return seat

    def remove(self, seat: Seat) -> None:
        """Free ``seat``; the seats after it move up one number."""
        self._seats.remove(seat)
        self._taken.remove(seat)

    def restore(self, seats: Iterable[Seat]) -> None:
        """Replace every seat (a resumed table: taken in seat order, as far as it knows)."""
        self._seats = list(seats)
        self._taken = list(self._seats)

    def reorder(self, labels: Sequence[str]) -> None:
        """Put the seats in the order of ``labels`` (the opening turn order)."""
        by_label = {s.label: s for s in self._seats}
        self._seats = [by_label[label] for label in labels]

    def by_token(self, token: str) -> Seat | None:
        """The person's seat whose token is ``token`` (every token compared, in constant time)."""
        found = [s for s in self._seats if same_secret(token, s.token) and s.bot is None]
        return found[0] if found else None

    def unique_name(self, name: str, taken: Iterable[str] = ()) -> str:
        """``name``, or ``name (2)``, ``name (3)``, ... if a seat or one of ``taken`` (the
        spectators' names) already has it, ignoring case: nobody can speak in another's name."""
        used = {s.name.casefold() for s in self._seats} | {t.casefold() for t in taken}
        unique, n = name, 1
        while unique.casefold() in used:
            n += 1
            unique = f"{name} ({n})"
        return unique

    def info(self, standins: Collection[Seat], standin_kind: str) -> list[SeatInfo]:
        """Every seat as everybody sees it; ``standins``: the seats whose absent player a
        bot of ``standin_kind`` plays for."""
        return [SeatInfo(seat=i, label=s.label, colour=s.look.colour, name=s.name,
                         connected=s.peer is not None, ready=s.ready,
                         bot=s.bot or (standin_kind if s in standins else None),
                         standin=s in standins)
                for i, s in enumerate(self._seats)]
