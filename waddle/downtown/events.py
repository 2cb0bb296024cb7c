"""Events: what an action caused, in the order it happened.

:meth:`waddle.downtown.state.State.apply` returns them; the host sends each audience its
redacted form (:func:`redact`) and a :class:`~waddle.ruleset.View` follows them. Seats are
seat numbers. They are msgspec Structs tagged by ``"type"``:

- ``{"type": "discard_chosen", "seat": 1, "card": "Even"}``: a setup discard, its ``card``
  ``null`` for everybody but the chooser until all are revealed;
- ``{"type": "discards_revealed", "cards": [null, "Even", "Full"]}``: every setup discard
  by seat (``null`` for the start player, who discards none);
- ``{"type": "played", "seat": 0, "card": "Copy", "copied": "Even", "act": {...}}``: a
  card played and what it did (the :class:`~waddle.downtown.actions.Play`'s fields);
- ``{"type": "scored", "seat": 0, "card": "Even", "hood": "light", "places": ["L1", "L4"],
  "points": 2, "total": 9}``: the points of the card whose rule scored (for a Copy, the
  copied card), the active neighbourhood (``null``: none), the places that counted, and
  the seat's new total;
- ``{"type": "drew", "seat": 0, "source": "deck", "card": "Odd", "refill": null}``: a draw
  (``card`` ``null`` for everybody but the drawer when it came from a deck; a display card
  is public, and so is the ``refill`` that replaced it from the deck);
- ``{"type": "round_ended", "round": 3, "scores": [9, 7]}``;
- ``{"type": "tie_break", "round": 9, "seats": [0, 1]}``: a tie-break round begins among ``seats``;
- ``{"type": "game_ended", "scores": [..], "winners": [1], "shared": false}``: ``shared``:
  the tied players share the victory, a tie-break being impossible.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from waddle.downtown.actions import Act, HoodName, PlaceName
from waddle.downtown.cards import CardName
from waddle.jsonform import json_form
from waddle.ruleset import Audience


class _Event(msgspec.Struct, frozen=True, tag_field="type"):
    def to_dict(self) -> dict[str, Any]:
        """The JSON form: an object with a ``"type"`` field."""
        return json_form(self)


class DiscardChosen(_Event, tag="discard_chosen"):
    """``seat`` chose its setup discard ``card`` (``None`` when hidden from this audience)."""

    seat: int
    card: CardName | None


class DiscardsRevealed(_Event, tag="discards_revealed"):
    """Every setup discard is turned face up: ``cards[seat]`` (``None`` for the start player)."""

    cards: tuple[CardName | None, ...]


class Played(_Event, tag="played"):
    """``seat`` played ``card`` (``copied``: what a Copy copied) and did ``act`` (``None``: nothing)."""

    seat: int
    card: CardName
    copied: CardName | None
    act: Act | None


class Scored(_Event, tag="scored"):
    """``seat`` scored ``points`` by the rule of ``card`` in ``hood`` (``None``: no active
    neighbourhood) from ``places``, making ``total``."""

    seat: int
    card: CardName
    hood: HoodName | None
    places: tuple[PlaceName, ...]
    points: int
    total: int


class Drew(_Event, tag="drew"):
    """``seat`` drew ``card`` from ``source`` (``None``: a deck card this audience may not
    see); ``refill``: the deck card that replaced a display card, if any."""

    seat: int
    source: Literal["deck", "display"]
    card: CardName | None
    refill: CardName | None = None


class RoundEnded(_Event, tag="round_ended"):
    """Round ``round`` ended with these ``scores`` (by seat)."""

    round: int
    scores: tuple[int, ...]


class TieBreak(_Event, tag="tie_break"):
    """Tie-break round ``round`` begins: only ``seats`` (tied for the lead) play it."""

    round: int
    seats: tuple[int, ...]


class GameEnded(_Event, tag="game_ended"):
    """The game ended: final ``scores``, the ``winners``; ``shared``: a tied lead that no
    tie-break round could settle (a tied player had no card)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    shared: bool


Event = DiscardChosen | DiscardsRevealed | Played | Scored | Drew | RoundEnded | TieBreak | GameEnded


def redact(events: list[Event], audience: Audience) -> list[Event]:
    """``events`` as ``audience`` may see them: a deck draw's card and a setup discard
    (before the reveal) only for their own seat. The list itself when nothing is hidden."""
    out = [_redact(event, audience) for event in events]
    return events if all(a is b for a, b in zip(out, events)) else out


def _redact(event: Event, audience: Audience) -> Event:
    if event.__class__ is Drew and event.source == "deck" and event.card is not None \
            and event.seat != audience:
        return msgspec.structs.replace(event, card=None)
    if event.__class__ is DiscardChosen and event.card is not None and event.seat != audience:
        return msgspec.structs.replace(event, card=None)
    return event
