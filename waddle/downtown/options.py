"""Waddle Downtown's options: the single-deck variant and which deck (DOWNTOWN.md).

:class:`DowntownOptions` is the ruleset's ``options_type``, the part of a table's settings
that belongs to this game (msgspec Structs, so they travel in the lobby as they are):
``{"single_deck": false, "deck": {"kind": "bundled"}}`` or, on the host only,
``{"deck": {"kind": "file", "path": "my-deck.toml"}}``.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from waddle.downtown.cards import Deck, bundled_deck, load_deck


class BundledDeck(msgspec.Struct, frozen=True, tag="bundled", tag_field="kind"):
    """The deck bundled with the game (``waddle/downtown/data/deck.toml``)."""


class FileDeck(msgspec.Struct, frozen=True, tag="file", tag_field="kind"):
    """A deck file on the host (``path``). Chosen only on the host itself, never by a peer."""

    path: Annotated[str, msgspec.Meta(max_length=4096)]


DeckChoice = BundledDeck | FileDeck


class DowntownOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Waddle Downtown's options.

    ``single_deck``: the single-deck variant (DOWNTOWN.md "Single-deck variant").
    ``deck``: which 13 cards (:data:`DeckChoice`).
    """

    single_deck: bool = False
    deck: DeckChoice = msgspec.field(default_factory=BundledDeck)


def make_deck(choice: DeckChoice) -> Deck:
    """The deck ``choice`` names.

    Raises:
        waddle.downtown.cards.DeckError: a deck file that cannot be read or used (naming the file,
            the card and the field).
    """
    return load_deck(choice.path) if isinstance(choice, FileDeck) else bundled_deck()

