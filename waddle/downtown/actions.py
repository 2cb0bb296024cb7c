"""Actions: play a card (with its whole action), discard at setup, draw from the display.

A turn's card and what it does travel as one :class:`Play`: the card, for a Copy the card
copied, and the :data:`Act` (standard action A :class:`Add` or B :class:`Move`, or the
special :class:`Recolour` or :class:`Recall`; ``None`` when no action is possible). The
setup discard is a :class:`Discard`; in the single-deck variant a draw with a choice is a
:class:`Draw`. They are msgspec Structs tagged by ``"type"`` (the act inside a play too),
so their JSON form, on the wire and in records, is for example::

    {"type": "play", "card": "Even", "copied": null,
     "act": {"type": "add", "hood": "light",
             "penguins": [{"place": "L1", "red": 1, "yellow": 0},
                          {"place": "L3", "red": 0, "yellow": 2}]}}
    {"type": "play", "card": "Copy", "copied": "Recall",
     "act": {"type": "recall", "hood": "dark", "penguins": [{"place": "D2", "red": 1, "yellow": 1}]}}
    {"type": "discard", "card": "Full"}
    {"type": "draw", "card": null}

A list of :class:`Penguins` names each place at most once, in board order, each with at
least one penguin (the canonical form: the engine refuses any other, so equal moves are
equal actions); :func:`spread` builds one from a mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

import msgspec

from waddle.downtown.board import CAPACITY, Layout
from waddle.downtown.cards import CardName
from waddle.jsonform import json_form

#: A place's name on the wire (``"P1"``, ``"L3"``, ``"C2"``, ``"D5"``).
PlaceName = Annotated[str, msgspec.Meta(min_length=2, max_length=2)]
#: A neighbourhood's name (:func:`waddle.downtown.board.layout`).
HoodName = Literal["ring", "light", "dark"]
Colour = Literal["red", "yellow"]
Count = Annotated[int, msgspec.Meta(ge=0, le=CAPACITY)]


class Penguins(msgspec.Struct, frozen=True):
    """``red`` and ``yellow`` penguins put onto (for :class:`Recall`: taken from) ``place``."""

    place: PlaceName
    red: Count = 0
    yellow: Count = 0

    def __str__(self) -> str:
        return f"{self.place}:{self.red}r{self.yellow}y"


#: Penguins by place, in board order, each place at most once.
Spread = Annotated[tuple[Penguins, ...], msgspec.Meta(max_length=10)]


class _Struct(msgspec.Struct, frozen=True, tag_field="type"):
    def to_dict(self) -> dict[str, Any]:
        """The JSON form: an object with a ``"type"`` field."""
        return json_form(self)


class Add(_Struct, tag="add"):
    """Standard action A: put ``penguins`` from your supply onto places of ``hood`` (active)."""

    hood: HoodName
    penguins: Spread

    def __str__(self) -> str:
        return f"add {' '.join(map(str, self.penguins))} ({self.hood})"


class Move(_Struct, tag="move"):
    """Standard action B: empty ``source`` and put all its penguins, as ``penguins``, onto
    other places of ``hood`` (active)."""

    source: PlaceName
    hood: HoodName
    penguins: Spread

    def __str__(self) -> str:
        return f"move {self.source} to {' '.join(map(str, self.penguins))} ({self.hood})"


class Recolour(_Struct, tag="recolour"):
    """Special action: take ``count`` (1 or 2) ``colour`` penguins off ``place`` into your
    supply and put as many of the other colour from your supply there; ``hood`` (one of
    the place's) is active."""

    place: PlaceName
    colour: Colour
    count: Annotated[int, msgspec.Meta(ge=1, le=2)]
    hood: HoodName

    def __str__(self) -> str:
        return f"recolour {self.count} {self.colour} on {self.place} ({self.hood})"


class Recall(_Struct, tag="recall"):
    """Special action: take ``penguins`` (1 or 2 in all) off places of ``hood`` (active)
    into your supply."""

    hood: HoodName
    penguins: Spread

    def __str__(self) -> str:
        return f"recall {' '.join(map(str, self.penguins))} ({self.hood})"


#: What a played card does.
Act = Add | Move | Recolour | Recall


class Play(_Struct, tag="play"):
    """Play ``card`` from your hand and do ``act`` (``None``: no action is possible).

    ``copied``: for the Copy card, the name of the opponent's face-up top card it copies
    (``None`` when there is none: then a standard action scoring 0).
    """

    card: CardName
    copied: CardName | None = None
    act: Act | None = None

    def __str__(self) -> str:
        card = self.card if self.copied is None else f"{self.card} of {self.copied}"
        return f"{card}: {'no action' if self.act is None else self.act}"


class Discard(_Struct, tag="discard"):
    """Setup: put ``card`` from your hand face up on your scoring pile, unscored."""

    card: CardName

    def __str__(self) -> str:
        return f"discard {self.card}"


class Draw(_Struct, tag="draw"):
    """Single-deck variant: draw the display card called ``card``, or (``None``) the deck's top."""

    card: CardName | None = None

    def __str__(self) -> str:
        return "draw from the deck" if self.card is None else f"draw {self.card} from the display"


Action = Play | Discard | Draw


def spread(layout: Layout, penguins: Mapping[str, tuple[int, int]]) -> tuple[Penguins, ...]:
    """The canonical :class:`Penguins` list of ``{place name: (red, yellow)}``: board order,
    places with no penguins left out.

    Raises:
        ValueError: an unknown place.
    """
    order = sorted(penguins, key=layout.place)
    return tuple(Penguins(name, *penguins[name]) for name in order if any(penguins[name]))


def action_from_dict(data: Any) -> Action:
    """An action from its JSON form (extra keys, such as a record's ``seat``, are ignored).

    Raises:
        ValueError: not an action (the message says where).
    """
    try:
        return msgspec.convert(data, Action)
    except msgspec.ValidationError as exc:
        raise ValueError(f"not an action: {exc}") from None
