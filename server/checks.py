"""The checks a table runs on an ``act`` (and, in part, an ``undo``), in the order of
:data:`protocol.messages.ACT_CHECKS` (``docs/protocol.md``, The act pipeline).

Each check is a function of the table, the sender's seat (``None``: the connection holds
none) and the message; it returns ``None`` to pass, else why not (the rejection's message).
``bad_message`` is the decoder's and has none here. :func:`first_failure` runs them up to
the rules: the rules' own check (``illegal``) is left to the action's apply when the
action is not stale, so a legal action's rules are checked once (``Match.apply`` checks
them and changes nothing when it raises).
"""

from __future__ import annotations

from typing import Any

from server.seats import Seat, same_secret
from waddle.errors import IllegalActionError

#: The table a check reads (a :class:`server.table.Table`; not imported: the table imports this).
Table = Any


def bad_token(table: Table, seat: Seat | None, message: Any) -> str | None:
    if seat is None or not same_secret(message.token, seat.token):
        return "the token is not this connection's seat token"
    return None


def not_started(table: Table, seat: Seat, message: Any) -> str | None:
    return "the game has not started" if table.match is None else None


def game_over(table: Table, seat: Seat, message: Any) -> str | None:
    return "the game is over" if table.match.is_over else None


def paused(table: Table, seat: Seat, message: Any) -> str | None:
    if table.pause is None:
        return None
    names = ", ".join(s.name for s in table.seats if s in table.pause.waiting)
    return f"{table.pause.name}: waiting for {names or 'the pause to end'} to go on"


def not_your_turn(table: Table, seat: Seat, message: Any) -> str | None:
    to_act = table.match.to_act()
    if table.seats.number(seat) in to_act:
        return None
    names = " and ".join(table.seats[n].label for n in sorted(to_act))
    return f"it is {names}'s turn"


def illegal(table: Table, seat: Seat, message: Any) -> str | None:
    try:
        table.match.check(table.seats.number(seat), message.action)
    except IllegalActionError as exc:
        return str(exc)
    return None


def stale(table: Table, seat: Seat, message: Any) -> str | None:
    """Decided on a version ahead of the table, or before the last event that made this
    seat decide again (:attr:`server.table.Table.changed`: every event, but in a
    simultaneous phase another seat's hidden choice, ``Match.outdates``)."""
    version, since = message.version, table.changed[table.seats.number(seat)]
    if version > table.version:
        return f"decided on version {version}, the table is at version {table.version}"
    if version < since:
        return f"decided on version {version}, before version {since}, which changed what you may do"
    return None


#: Each check of :data:`~protocol.messages.ACT_CHECKS` after ``bad_message``, by code.
CHECKS = {"bad_token": bad_token, "not_started": not_started, "game_over": game_over,
          "paused": paused, "not_your_turn": not_your_turn, "illegal": illegal, "stale": stale}
#: The checks before the rules', in order.
BEFORE_RULES = ("bad_token", "not_started", "game_over", "paused", "not_your_turn")


def first_failure(table: Table, seat: Seat | None, message: Any,
                  codes: tuple[str, ...]) -> tuple[str, str] | None:
    """The first of the checks ``codes`` (in that order) that ``message`` fails, as
    ``(code, why)``, or ``None``."""
    for code in codes:
        why = CHECKS[code](table, seat, message)
        if why is not None:
            return code, why
    return None
