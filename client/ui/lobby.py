"""The lobby screen: the seats, and the table's settings the owner may change.

:data:`FIELDS` lists the settings in screen order; each knows how to show its value
and how to step it (left/right). Stepping makes a new
:class:`~protocol.messages.Settings` that the UI sends with ``session.configure``;
the host decides (protocol: ``configure``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from client.ui.panels import Fragments, chat_line, player_label
from client.ui.view import TableState, UIState
from protocol.messages import BundledMap, Settings, StandardMap
from protocol.text import clean
from waddle.hex.bots import BOTS
from waddle.hex.bundled import bundled_maps

#: Turn timer choices in seconds (``None``: no timer).
TIMERS = (None, 30.0, 60.0, 120.0, 300.0)
#: Chat lines shown under the lobby, at most.
CHAT_LINES = 5
#: Bot kinds for empty seats; ``"none"`` waits for people.
BOT_KINDS = ("none", *BOTS)


@dataclass(frozen=True, slots=True)
class Field:
    """One setting: its ``label``, how to ``show`` it and how to ``step`` it by +1 or -1."""

    label: str
    show: Callable[[Settings], str]
    step: Callable[[Settings, int], Settings]


def _replace(settings: Settings, **changes) -> Settings:
    return msgspec.structs.replace(settings, **changes)


def _cycle(values: tuple, value, step: int):
    index = values.index(value) if value in values else 0
    return values[(index + step) % len(values)]


def _show_map(s: Settings) -> str:
    if isinstance(s.map, StandardMap):
        return "standard"
    return clean(getattr(s.map, "name", None) or getattr(s.map, "path", "")) or "?"


def _step_map(s: Settings, step: int) -> Settings:
    """Cycle: the standard map, then each bundled map (a host's map file is left by stepping)."""
    choices = ("standard", *bundled_maps())
    name = _cycle(choices, _show_map(s), step)
    return _replace(s, map=StandardMap() if name == "standard" else BundledMap(name=name))


def _show_layout(s: Settings) -> str:
    if not isinstance(s.map, StandardMap):
        return "-"
    return "random" if s.map.seed is None else f"seed {s.map.seed}"


def _step_layout(s: Settings, step: int) -> Settings:
    """The standard map's layout seed: random, 0, 1, 2, ... (left from 0: random)."""
    if not isinstance(s.map, StandardMap):
        return s
    seed = s.map.seed
    if seed is None:
        seed = 0 if step > 0 else None
    elif seed + step < 0:
        seed = None
    else:
        seed += step
    return _replace(s, map=StandardMap(seed=seed))


def _bot_kind(s: Settings) -> str:
    return s.bots[0] if s.bots else "none"


def _step_bots(s: Settings, step: int) -> Settings:
    kind = _cycle(BOT_KINDS, _bot_kind(s), step)
    return _replace(s, bots=[] if kind == "none" else [kind] * (s.players - 1))


def _on_off(value: bool) -> str:
    return "on" if value else "off"


def _step_players(s: Settings, step: int) -> Settings:
    players = min(5, max(2, s.players + step))
    return _replace(s, players=players, bots=s.bots[:1] * (players - 1))


FIELDS = (
    Field("Players", lambda s: str(s.players), _step_players),
    Field("Map", _show_map, _step_map),
    Field("Layout", _show_layout, _step_layout),
    Field("Mirror match", lambda s: _on_off(s.mirror_match),
          lambda s, d: _replace(s, mirror_match=not s.mirror_match)),
    Field("Real-time score", lambda s: _on_off(s.realtime_score),
          lambda s, d: _replace(s, realtime_score=not s.realtime_score)),
    Field("Turn timer", lambda s: "off" if s.turn_timer is None else f"{s.turn_timer:g} s",
          lambda s, d: _replace(s, turn_timer=_cycle(TIMERS, s.turn_timer, d))),
    Field("Bots in empty seats", _bot_kind, _step_bots),
)


def lobby_screen(state: TableState, ui: UIState, height: int, *, ascii: bool = False) -> Fragments:
    """Seats (name, "(away)" while a player's connection is down, colour, ready), the settings (the owner's selected field marked), then
    the last chat lines that fit in ``height`` lines."""
    out: Fragments = [("class:heading", "Waddle: the lobby\n\n")]
    if state.address:
        out += [("", "Others join with:  "), ("class:key", state.address), ("", "\n\n")]
    out.append(("class:heading", "Seats\n"))
    for seat in sorted(state.seats, key=lambda s: s.seat):
        ready = "ready" if seat.ready else "not ready"
        who = "bot" if seat.bot and not seat.connected else ready
        away = " (away)" if not seat.connected and not seat.bot else ""
        out += [("", "  "), *player_label(state, seat.colour, you=True), ("", away),
                ("class:dim", f"  ({seat.colour}, {who})\n")]
    bots = state.settings.bots
    for index in range(len(state.seats), state.settings.players):
        who = f"a {bots[0]} bot at the start" if bots else "waiting for a player"
        out.append(("class:dim", f"  - seat {index + 1}: {who}\n"))
    out.append(("class:heading", "\nTable\n"))
    arrow = ">" if ascii else "▶"
    for index, field in enumerate(FIELDS):
        selected = state.is_owner and index == ui.field
        out.append(("class:selected" if selected else "",
                    f"{arrow if selected else ' '} {field.label:<22}{field.show(state.settings)}\n"))
    if state.is_owner:
        selected = ui.field == len(FIELDS)
        out.append(("class:selected" if selected else "", f"{arrow if selected else ' '} [ Start ]\n"))
    room = min(CHAT_LINES, height - sum(text.count("\n") for _, text in out) - 2)
    if state.chat and room > 0:
        out.append(("class:heading", "\nChat\n"))
        for line in state.chat[-room:]:
            out += [("", "  "), *chat_line(*line), ("", "\n")]
    return out
