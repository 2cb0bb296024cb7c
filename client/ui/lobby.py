"""The lobby screen: the seats, and the table's settings the owner may change.

:func:`fields` lists the settings in screen order: the seat count, the game's own
(:meth:`~client.ui.gameview.GameView.lobby_fields`), the turn timer, the bots and
whether hints are allowed (:mod:`client.ui.hints`). Each
knows how to show its value and how to step it (left/right). Stepping makes a new
:class:`~protocol.messages.Settings` that the UI sends with ``session.configure``; the
host decides (protocol: ``configure``).
"""

from __future__ import annotations

import msgspec

from client.state import TableState
from client.ui import hints
from client.ui.gameview import Field, GameView
from client.ui.text import Fragments, chat_line, player_label
from client.ui.uistate import UIState
from protocol.text import with_article

#: Turn timer choices in seconds (``None``: no timer).
TIMERS = (None, 30.0, 60.0, 120.0, 300.0)
#: Chat lines shown under the lobby, at most.
CHAT_LINES = 5


def _replace(settings, **changes):
    return msgspec.structs.replace(settings, **changes)


def _cycle(values: tuple, value, step: int):
    index = values.index(value) if value in values else 0
    return values[(index + step) % len(values)]


def _bot_kind(settings) -> str:
    return settings.bots[0] if settings.bots else "none"


def _bot_title(state: TableState, kind: str) -> str:
    return state.ruleset.describe_bot(kind) if state.ruleset else kind


def fields(state: TableState, view: GameView | None) -> list[Field]:
    """The lobby's settings for the table's game, in screen order."""
    low, high = state.ruleset.players if state.ruleset else (2, 5)
    kinds = ("none", *(state.ruleset.bot_choices() if state.ruleset else ()))

    def step_players(s, step: int):
        players = min(high, max(low, s.players + step))
        return _replace(s, players=players, bots=s.bots[:1] * (players - 1))

    def step_bots(s, step: int):
        kind = _cycle(kinds, _bot_kind(s), step)
        return _replace(s, bots=[] if kind == "none" else [kind] * (s.players - 1))

    return [
        Field("Players", lambda s: str(s.players), step_players),
        *(view.lobby_fields() if view is not None else ()),
        Field("Turn timer", lambda s: "off" if s.turn_timer is None else f"{s.turn_timer:g} s",
              lambda s, d: _replace(s, turn_timer=_cycle(TIMERS, s.turn_timer, d))),
        Field("Bots in empty seats", lambda s: _bot_title(state, _bot_kind(s)), step_bots),
        hints.FIELD,
    ]


def lobby_screen(state: TableState, ui: UIState, view: GameView | None, height: int, *,
                 address: str = "", ascii: bool = False) -> Fragments:
    """What others type to join (``address``, on the host), the seats (name, "(away)"
    while a player's connection is down, colour, ready), the settings (the owner's
    selected field marked), then the last chat lines that fit in ``height`` lines."""
    joins: Fragments = [("", "Others join with:  "), ("class:key", address), ("", "\n\n")] if address else []
    if state.settings is None:  # no lobby yet (connecting): no heading of one, no empty seats
        return joins + [("class:dim", "The table's lobby shows here once the host answers.\n")]
    title = state.ruleset.title if state.ruleset else "Waddle"
    out: Fragments = [("class:heading", f"{title}: the lobby\n\n"), *joins]
    out.append(("class:heading", "Seats\n"))
    for seat in sorted(state.seats, key=lambda s: s.seat):
        ready = "ready" if seat.ready else "not ready"
        who = "bot" if seat.bot and not seat.connected else ready
        away = " (away)" if not seat.connected and not seat.bot else ""
        out += [("", "  "), *player_label(state, seat.label, you=True), ("", away),
                ("class:dim", f"  ({seat.colour}, {who})\n")]
    settings = state.settings
    if settings is None:
        return out
    bots = settings.bots
    for index in range(len(state.seats), settings.players):
        who = f"{with_article(_bot_title(state, bots[0]))} bot at the start" if bots else "waiting for a player"
        out.append(("class:dim", f"  - seat {index + 1}: {who}\n"))
    out.append(("class:heading", "\nTable\n"))
    arrow = ">" if ascii else "▶"
    shown = fields(state, view)
    for index, field in enumerate(shown):
        selected = state.is_owner and index == ui.field
        out.append(("class:selected" if selected else "",
                    f"{arrow if selected else ' '} {field.label:<22}{field.show(settings)}\n"))
    if state.is_owner:
        selected = ui.field == len(shown)
        out.append(("class:selected" if selected else "", f"{arrow if selected else ' '} [ Start ]\n"))
    room = min(CHAT_LINES, height - sum(text.count("\n") for _, text in out) - 2)
    if state.chat and room > 0:
        out.append(("class:heading", "\nChat\n"))
        for line in list(state.chat)[-room:]:
            out += [("", "  "), *chat_line(state, line), ("", "\n")]
    return out
