"""Who may come in over SSH, and which seats a guest gets back (the trio side; docs/ssh.md).

A table with a join code takes it as the SSH password (``password`` or
``keyboard-interactive``); a guest who comes with a public key instead is asked for it on
the screen, once, unless the key already holds a seat here. A table without a code
admits anyone, and so does a club (its lobby is open; each of its tables asks its own
code when the guest joins it, :mod:`client.ui.club`). Codes are checked by the host's
guard (:mod:`server.guard`: in constant time, wrong guesses slowed per address and in
all, the same count as TCP's).

Seats are remembered here, in the host's memory, per table (a club's guest may hold seats
at several), by what proved who the guest is:

- a public key (its SHA-256 fingerprint): the same key gets the same seats back, with or
  without a code (the key is the proof, as a seat token is), and so does a seat whose last
  SSH guest was that key (the seat keeps it, in its save too: after a resume the key still
  finds its seats);
- a name (the SSH user name), for a guest without a key: at a table with a code the name
  with the code reclaims its seat (at a host of one table the code was the login's; at a
  club's table it is asked on the screen first); at a table without one, only while that
  seat's link is down, however long ago (a stand-in bot may be playing it meanwhile), so
  a name alone never takes a seat that is in use. A name never takes a seat a key took
  last (:attr:`server.seats.Seat.fingerprint`): that seat goes back to its key only. A
  name gets back one seat, its newest. The seat keeps the name in its save too
  (:attr:`server.seats.Seat.ssh_name`), so after a resume the same rules find it.
  (Until issue 38 the name's right ended with the seat's grace: a guest without a key who
  came back late, or after a resume, was locked out for good.)

The tokens themselves stay on the host (the guest's screen process is told its own
tokens when it starts, :mod:`server.ssh.session`).
"""

from __future__ import annotations

from dataclasses import dataclass

#: Remembered seats kept (the newest): bounded however many guests come and go.
MAX_REMEMBERED = 1024


@dataclass(frozen=True)
class Back:
    """A seat a returning guest may take back: at the table of id ``table``, by ``token``;
    ``code``: whether the guest must first give that table's join code (a name at a club's
    table with a code)."""

    table: str
    token: str
    code: bool = False


class Admission:
    """The gateway's rules of entry over ``host`` (a :class:`server.host.Host`, of one
    table or a club); every method runs in the host's trio run."""

    def __init__(self, host) -> None:
        self.host = host
        self._seats: dict[tuple[str, str, str], str] = {}  # (kind, who, table id) -> token, oldest first

    @property
    def club(self) -> bool:
        """Whether the host is a club (guests see its lobby, :mod:`client.ui.club`); fixed
        when the host is made, so the gateway's loop reads it too."""
        return self.host.club is not None

    def needs_code(self) -> bool:
        """Whether logging in asks for a join code: the host's one table has one (a club's
        lobby is open)."""
        return self.host.table is not None and self.host.table.code is not None

    async def check_code(self, address: str, given: str, table: str | None = None) -> bool:
        """Whether ``given`` (from ``address``) is the join code of the table of id
        ``table`` (``None``: the host's one table; any text when the table has none)."""
        found = self.host.table if table is None else self._table(table)
        code = found.code if found is not None else None
        return code is None or self.host.guard.check(address, given, code).ok

    def returning(self, fingerprint: str | None, name: str) -> list[Back]:
        """The seats a guest gets back, the newest first: by its key's ``fingerprint`` if it
        came with one (those remembered here, then those whose last SSH guest was that key,
        :attr:`server.seats.Seat.fingerprint`: a resumed host's), else by ``name`` as the
        module says (one at most); at a club, only at tables whose game is not over. None:
        it comes as someone new."""
        who = ("key", fingerprint) if fingerprint else ("name", name)
        backs = []
        for (kind, ident, table_id), token in reversed(self._seats.items()):
            table = self._table(table_id) if (kind, ident) == who else None
            seat = table.seats.by_token(token) if table is not None and self._open(table) else None
            if seat is not None and (fingerprint or self._name_may(table, seat)):
                backs.append(Back(table_id, token, not fingerprint and self.club and table.code is not None))
        if not fingerprint:
            return backs[:1] or self._named(name)
        found = {back.table for back in backs}
        return backs + [Back(table.id, seat.token) for table in self._tables() if table.id not in found
                        and self._open(table) for seat in table.seats
                        if seat.fingerprint == fingerprint and seat.bot is None]

    def _named(self, name: str) -> list[Back]:
        """The newest seat whose last SSH guest came without a key as ``name`` (a resumed
        save's: the gateway never saw it taken), if the name may take it back."""
        for table in reversed(self._tables()):
            for seat in table.seats:
                if seat.ssh_name == name and seat.bot is None and self._open(table) and self._name_may(table, seat):
                    return [Back(table.id, seat.token, self.club and table.code is not None)]
        return []

    def _open(self, table) -> bool:
        """Whether a seat at ``table`` is worth going back to: at a club, its game is not
        over (a finished one's rematch is asked at the table); the one table of a host, always."""
        return not self.club or table.phase != "finished"

    def _name_may(self, table, seat) -> bool:
        """Whether a name alone takes back ``seat`` at ``table`` (see the module docstring):
        never a key's seat; with the table's code, yes; without, while its link is down."""
        if seat.fingerprint is not None:
            return False
        return table.code is not None or seat.peer is None

    def _table(self, table_id: str):
        if self.host.club is not None:
            return self.host.club.tables.get(table_id)
        return self.host.table if self.host.table.id == table_id else None

    def _tables(self):
        return list(self.host.club.tables.values()) if self.host.club is not None else [self.host.table]

    def remember(self, fingerprint: str | None, name: str, table: str, token: str) -> None:
        """Remember that the guest of ``fingerprint`` (else ``name``) holds ``token``'s seat
        at the table of id ``table``."""
        key = ("key", fingerprint, table) if fingerprint else ("name", name, table)
        found = self._table(table)
        seat = found.seats.by_token(token) if found is not None else None
        if seat is not None:
            seat.ssh_name = None if fingerprint else name  # kept in the save, for after a resume
        self._seats.pop(key, None)
        self._seats[key] = token
        while len(self._seats) > MAX_REMEMBERED:
            del self._seats[next(iter(self._seats))]
