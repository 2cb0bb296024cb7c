"""The cards: scoring rules, actions, and the deck as data (DOWNTOWN.md "The deck").

A deck is 13 cards, read from a TOML file (the bundled ``waddle/downtown/data/deck.toml``
by default, or a user's own with :func:`load_deck`)::

    [[card]]
    name = "More Red"     # unique, 1 to 24 characters
    rule = "more_red"     # how it scores: a key of RULES
    scope = "active"      # "active": the active neighbourhood; "all": every place
    action = "standard"   # "standard" (A or B), or a special: "recolour", "recall", "copy"
    points = 1            # per place (per count of the run for "consecutive"); default 1

Exactly one card has the rule ``"copy"``, and it alone the action ``"copy"``; it has no
``scope`` and no ``points`` (it scores as the card it copies). A file can rename,
re-point and re-score cards and give a scoring rule another of the known actions; it
cannot add rules or actions. Every way in goes through :func:`deck_from_cards`, which
refuses a bad deck with a :class:`DeckError` naming the file, the card
(its number from 1, and its name) and the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from waddle.downtown.board import CAPACITY
from waddle.errors import FileError
from waddle.files import parse_toml, read_text

#: Cards in a deck (DOWNTOWN.md "Components": 13 cards of each colour).
DECK_SIZE = 13
#: Longest card name, in characters.
NAME_MAX = 24
#: Most points a card may score per place.
POINTS_MAX = 10
#: The largest deck file read, in bytes (the bundled deck's is under 2 KiB).
MAX_DECK_BYTES = 64 * 1024


class DeckError(FileError):
    """A deck of Waddle Downtown cards that cannot be played. The message names the file,
    the card (its number and name) and the field."""


#: A card's name, as actions, events and views bound it.
CardName = Annotated[str, msgspec.Meta(min_length=1, max_length=NAME_MAX)]

#: The scoring rules that count places one by one: rule -> the condition on a place's
#: ``(red, yellow)`` penguins (DOWNTOWN.md "The deck", cards 2 and 4-13).
PLACE_RULES: dict[str, Callable[[int, int], bool]] = {
    "equal": lambda r, y: r == y >= 1,
    "more_red": lambda r, y: r > y >= 1,
    "more_yellow": lambda r, y: y > r >= 1,
    "even": lambda r, y: r + y in (2, 4),
    "full": lambda r, y: r + y == 5,
    "odd": lambda r, y: r + y in (1, 3, 5),
    "all_red": lambda r, y: r >= 1 and y == 0,
    "all_yellow": lambda r, y: y >= 1 and r == 0,
    "single": lambda r, y: r + y == 1,
    "mixed": lambda r, y: r >= 1 and y >= 1,
    "empty": lambda r, y: r + y == 0,
}
#: Every scoring rule: the place rules, "consecutive" (the longest run of consecutive
#: counts 1-5, card 3) and "copy" (as the copied card, card 1).
RULES = (*PLACE_RULES, "consecutive", "copy")
#: The actions a card can have: "standard" (A or B) or a special action.
ACTIONS = ("standard", "recolour", "recall", "copy")
SCOPES = ("active", "all")
_FIELDS = ("name", "rule", "scope", "action", "points")


class Card(msgspec.Struct, frozen=True, omit_defaults=True):
    """One card: its JSON form is the file's ``[[card]]`` table (``scope`` absent for the Copy card)."""

    name: CardName
    rule: str
    action: str
    scope: Literal["active", "all"] | None = None
    points: int = 1


def _table(rule: str, points: int) -> tuple[int, ...] | None:
    """Points a place rule gives a place, indexed by ``red * 6 + yellow``; ``None`` for the others."""
    test = PLACE_RULES.get(rule)
    if test is None:
        return None
    return tuple(points if r + y <= CAPACITY and test(r, y) else 0
                 for r in range(CAPACITY + 1) for y in range(CAPACITY + 1))


@dataclass(frozen=True, eq=False)
class Deck:
    """A validated deck of :data:`DECK_SIZE` cards; cards are numbers ``0..12`` into ``cards``.

    ``source`` names where it came from (messages); ``copy`` is the Copy card's number;
    ``tables[i]`` the per-place points of card ``i`` (``None`` for consecutive and copy).
    """

    cards: tuple[Card, ...]
    source: str
    copy: int = field(init=False)
    index: dict[str, int] = field(init=False)
    tables: tuple[tuple[int, ...] | None, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "copy", next(i for i, c in enumerate(self.cards) if c.rule == "copy"))
        object.__setattr__(self, "index", {c.name: i for i, c in enumerate(self.cards)})
        object.__setattr__(self, "tables", tuple(_table(c.rule, c.points) for c in self.cards))

    def number(self, name: str) -> int:
        """The number of the card called ``name``.

        Raises:
            ValueError: no card has that name (the message lists them).
        """
        try:
            return self.index[name]
        except KeyError:
            raise ValueError(f"no card {name!r} in the deck: the cards are "
                             f"{', '.join(c.name for c in self.cards)}") from None

    def to_list(self) -> list[dict[str, Any]]:
        """The cards in their JSON (file) form, in deck order."""
        return list(msgspec.to_builtins(self.cards))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self.cards == other.cards

    def __hash__(self) -> int:
        return hash(self.cards)


def deck_from_cards(items: Any, *, source: str = "<deck>") -> Deck:
    """Validate ``items`` (the list of card tables of a deck file, or a record's ``deck``).

    Raises:
        DeckError: naming ``source``, the card (``card 3 (Even)``) and the
            field: not 13 cards, an unknown or missing field, a wrong type, an unknown
            rule or action, a Copy card not alone with its rule and action, a scope or
            points on the Copy card, points outside 0..10, a repeated name.
    """
    if not isinstance(items, list):
        raise DeckError(f"{source}: the cards must be a list of [[card]] tables")
    if len(items) != DECK_SIZE:
        raise DeckError(f"{source}: a deck has {DECK_SIZE} cards, this one {len(items)}")
    cards = tuple(_card(item, f"{source}: card {i}") for i, item in enumerate(items, 1))
    seen: dict[str, int] = {}
    for i, card in enumerate(cards, 1):
        if card.name in seen:
            raise DeckError(f"{source}: card {i} ({card.name}): name: card {seen[card.name]} "
                            "has the same name (the play restriction compares names)")
        seen[card.name] = i
    copies = [i for i, card in enumerate(cards, 1) if card.rule == "copy"]
    if len(copies) != 1:
        raise DeckError(f"{source}: a deck has exactly one card with the rule 'copy' "
                        f"(set aside at setup), this one {len(copies)}")
    return Deck(cards, source)


def _card(item: Any, where: str) -> Card:
    if not isinstance(item, Mapping):
        raise DeckError(f"{where}: a card must be a table of {', '.join(_FIELDS)}")
    name = item.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX or name != name.strip() \
            or not name.isprintable():
        raise DeckError(f"{where}: name: expected a name of 1 to {NAME_MAX} printable characters "
                        f"without spaces around it, found {name!r}")
    where = f"{where} ({name})"
    for key in item:
        if key not in _FIELDS:
            raise DeckError(f"{where}: {key}: unknown field; a card has {', '.join(_FIELDS)}")
    rule, action = _choice(item, "rule", RULES, where), _choice(item, "action", ACTIONS, where)
    if (rule == "copy") != (action == "copy"):
        raise DeckError(f"{where}: {'action' if rule == 'copy' else 'rule'}: the rule 'copy' goes "
                        f"with the action 'copy' and no other (found rule {rule!r}, action {action!r})")
    if rule == "copy":
        for key in ("scope", "points"):
            if key in item:
                raise DeckError(f"{where}: {key}: the Copy card scores as the card it copies, "
                                f"so it has no {key}")
        return Card(name, rule, action)
    scope = _choice(item, "scope", SCOPES, where)
    points = item.get("points", 1)
    if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= POINTS_MAX:
        raise DeckError(f"{where}: points: expected a whole number from 0 to {POINTS_MAX}, "
                        f"found {points!r}")
    return Card(name, rule, action, scope, points)


def _choice(item: Mapping, key: str, allowed: tuple[str, ...], where: str) -> str:
    value = item.get(key)
    if value not in allowed or not isinstance(value, str):
        found = "nothing" if key not in item else repr(value)
        raise DeckError(f"{where}: {key}: expected one of {', '.join(allowed)}, found {found}")
    return value


def parse_deck(text: str, *, source: str = "<deck>") -> Deck:
    """The deck in the TOML ``text`` of a deck file (``[[card]]`` tables, nothing else).

    Raises:
        DeckError: not TOML (nested too deeply included:
            :func:`waddle.files.parse_toml`), other top-level keys, or a bad card (see
            :func:`deck_from_cards`).
    """
    try:
        data = parse_toml(text)
    except ValueError as exc:
        raise DeckError(f"{source}: not valid TOML: {exc}") from None
    for key in data:
        if key != "card":
            raise DeckError(f"{source}: {key}: unknown key; a deck file holds [[card]] tables only")
    if "card" not in data:
        raise DeckError(f"{source}: no [[card]] tables")
    return deck_from_cards(data["card"], source=source)


def load_deck(path: str | Path) -> Deck:
    """Read and validate the deck file at ``path`` (``--deck FILE``).

    Raises:
        DeckError: the file cannot be read, is over :data:`MAX_DECK_BYTES`,
            or is not a valid deck (see :func:`parse_deck`); the message names the file.
    """
    try:
        text = read_text(path, MAX_DECK_BYTES)
    except (OSError, ValueError) as exc:
        raise DeckError(f"{path}: cannot read the deck: {exc}") from None
    return parse_deck(text, source=str(path))


@cache
def bundled_deck() -> Deck:
    """The bundled deck (the reconstruction of DOWNTOWN.md), from ``waddle/downtown/data/deck.toml``."""
    text = resources.files("waddle.downtown").joinpath("data/deck.toml").read_text(encoding="utf-8")
    return parse_deck(text, source="waddle/downtown/data/deck.toml")
