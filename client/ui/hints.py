"""Hints in a live game: whether the table allows them, and the lobby's setting.

The table's owner chooses in the lobby (:attr:`protocol.messages.Settings.hints`):
``"auto"`` (the default) allows hints only at a table where a bot plays (a bot seat, or
bots to fill the empty seats at the start; a stand-in playing for an absent person does
not count), ``"on"`` always, ``"off"`` never. The host cannot stop a client from running
its own search, so it enforces nothing: the official client refuses the hint key when
hints are forbidden and says why, and shows everybody, in the lobby and in the game's
panel, whether they are allowed.
"""

from __future__ import annotations

import msgspec

from client.state import TableState
from client.ui.gameview import Field

#: The setting's values, in the order left/right steps through them.
CHOICES = ("auto", "on", "off")
#: How the lobby shows each value.
SHOWN = {"auto": "auto (allowed with a bot at the table)", "on": "allowed", "off": "forbidden"}


def bot_at_table(state: TableState) -> bool:
    """Whether a bot plays at the table (or will fill an empty seat at the start)."""
    if any(seat.bot is not None and not seat.standin for seat in state.seats):
        return True
    settings = state.settings
    return (state.phase == "lobby" and settings is not None and bool(settings.bots)
            and len(state.seats) < settings.players)


def allowed(state: TableState) -> bool:
    """Whether the table allows hints now (see the module docstring)."""
    choice = state.settings.hints if state.settings is not None else "auto"
    return choice == "on" or choice == "auto" and bot_at_table(state)


def off_line(state: TableState) -> str:
    """The game panel's line when the table does not allow hints, with why in short (the
    refusal of the hint key may be cut in a narrow window's banner); "" if it does."""
    if allowed(state):
        return ""
    owner = state.settings is not None and state.settings.hints == "off"
    return "Hints off: the owner's choice" if owner else "Hints off: no bot at this table"


def refusal(state: TableState) -> str:
    """Why this client may not ask for a hint now ("" if it may)."""
    if not allowed(state):
        why = "the table's owner turned them off" if state.settings.hints == "off" else \
            "no bot plays at this table (the owner may allow them in the lobby)"
        return f"hints are not allowed: {why}"
    if state.seat is None or state.view is None:
        return "hints are for the players"
    if not state.my_turn:
        return "a hint is for your turn"
    return ""


def _step(settings, step: int):
    index = CHOICES.index(settings.hints) if settings.hints in CHOICES else 0
    return msgspec.structs.replace(settings, hints=CHOICES[(index + step) % len(CHOICES)])


#: The lobby's field for the setting.
FIELD = Field("Hints", lambda settings: SHOWN.get(settings.hints, settings.hints), _step)
