"""Who may come in over SSH, and which seat a guest gets back (the trio side; docs/ssh.md).

A table with a join code takes it as the SSH password (``password`` or
``keyboard-interactive``); a guest who comes with a public key instead is asked for it on
the screen, once, unless the key already holds a seat here. A table without a code
admits anyone. Codes are checked by the host's guard (:mod:`server.guard`: in constant time, wrong
guesses slowed per address and in all, the same count as TCP's).

Seats are remembered here, in the host's memory, by what proved who the guest is:

- a public key (its SHA-256 fingerprint): the same key gets the same seat back, at any
  table, with or without a code (the key is the proof, as a seat token is);
- a name (the SSH user name), for a guest without a key: at a table with a code the name
  (with the code) reclaims its seat; at a table without one, only while that seat's link
  is down and within the grace (:attr:`server.table.Table.lobby_grace` in the lobby,
  :attr:`~server.table.Table.grace` in a game), so a name alone never takes a seat that
  is in use or long given up.

The tokens themselves stay on the host (the guest's screen process is told its own
token when it starts, :mod:`server.ssh.session`).
"""

from __future__ import annotations

import trio

#: Remembered seats kept (the newest): bounded however many guests come and go.
MAX_REMEMBERED = 1024


class Admission:
    """The gateway's rules of entry over ``host`` (a :class:`server.host.Host`); every
    method runs in the host's trio run."""

    def __init__(self, host) -> None:
        self.host = host
        self._seats: dict[tuple[str, str], str] = {}  # ("key", fingerprint) or ("name", name) -> token

    def needs_code(self) -> bool:
        """Whether the table asks for a join code."""
        return self.host.table.code is not None

    async def check_code(self, address: str, given: str) -> bool:
        """Whether ``given`` (from ``address``) is the table's join code (any text when it
        has none)."""
        code = self.host.table.code
        return code is None or self.host.guard.check(address, given, code).ok

    def token_for(self, fingerprint: str | None, name: str) -> str | None:
        """The seat token a guest gets back: by its key's ``fingerprint`` if it came with
        one, else by ``name`` as the module says; ``None``: it joins as someone new."""
        table = self.host.table
        token = self._seats.get(("key", fingerprint) if fingerprint else ("name", name))
        seat = table.seats.by_token(token) if token else None
        if seat is None:
            return None
        if fingerprint or table.code is not None:
            return token
        if seat.peer is not None or seat.away_since is None:
            return None
        grace = table.lobby_grace if table.phase == "lobby" else table.grace
        return token if trio.current_time() - seat.away_since < grace else None

    def remember(self, fingerprint: str | None, name: str, token: str) -> None:
        """Remember that the guest of ``fingerprint`` (else ``name``) holds ``token``'s seat."""
        key = ("key", fingerprint) if fingerprint else ("name", name)
        self._seats.pop(key, None)
        self._seats[key] = token
        while len(self._seats) > MAX_REMEMBERED:
            del self._seats[next(iter(self._seats))]
