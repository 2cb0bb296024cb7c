"""A seat's legal actions as the host lists them on the wire (``docs/protocol.md``,
"Waddle Downtown's legal list"): compact, and every entry an action to send as it is.

Every play would be too many to list (action A alone spreads penguins thousands of ways:
up to about half a million plays in one turn), so :func:`listing` gives a seat's setup
discards and draws as they are, its Recolour and Recall plays each (a few dozen at
most), and each family of action A or B plays (one card, one neighbourhood, for B one
place emptied) as one :class:`LegalPlay`: a play of the family, with :class:`SpreadLimits`
saying which other ``penguins`` lists make the rest of it. So a bot that picks an entry
and sends it plays legally without knowing a rule, and one that wants another spread has
its limits at hand. At most about 200 entries in random games of 2 to 4 players (53 on
average), against 28,000 plays.

The listing is built from what the seat may know (its hand, the public board and piles,
the display): a seat's list reveals nothing of another's hand or of a deck.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from waddle.downtown.actions import Act, Count, Discard, Draw, PlaceName
from waddle.downtown.cards import CardName
from waddle.downtown.legal import Acts, legal_actions, play_blocks
from waddle.downtown.state import PLAY, State


class PlaceRoom(msgspec.Struct, frozen=True):
    """A place penguins may go to, and its ``room``: how many more it holds (1 to 5)."""

    place: PlaceName
    room: Count


class SpreadLimits(msgspec.Struct, frozen=True, kw_only=True):
    """The ``penguins`` lists of a family of action A (``add``) or B (``move``) plays.

    A list is in the family when it names only ``places``, each at most once and in
    their order (board order), each with 1 or more penguins and at most its ``room``, and
    its penguins add up to at most ``red`` red and ``yellow`` yellow with at least one in
    all (``exact`` false: action A, from the supply), or to exactly ``red`` and
    ``yellow`` (``exact`` true: action B, every penguin of the place emptied).
    """

    places: Annotated[tuple[PlaceRoom, ...], msgspec.Meta(max_length=10)]
    red: Annotated[int, msgspec.Meta(ge=0)]
    yellow: Annotated[int, msgspec.Meta(ge=0)]
    exact: bool


class LegalPlay(msgspec.Struct, frozen=True, tag_field="type", tag="play"):
    """A legal play, to send as it is (an action ``play``: the host ignores ``spread``).

    ``spread`` (action A and B only, else ``None``): the same play with ``act.penguins``
    replaced by any list within these limits is legal too.
    """

    card: CardName
    copied: CardName | None = None
    act: Act | None = None
    spread: SpreadLimits | None = None


#: An entry of a seat's legal list.
Legal = LegalPlay | Discard | Draw


def listing(state: State, seat: int) -> list[Legal]:
    """The legal list of ``seat`` now (empty when it may not act), in the order of
    :func:`waddle.downtown.legal.play_blocks` for plays (card by card in deck order, for a
    Copy by card copied, then action A by neighbourhood, B by place emptied and
    neighbourhood, then the special actions)."""
    if state.phase != PLAY or seat not in state.to_act():
        return list(legal_actions(state, seat))
    name = state.name
    out: list[Legal] = []
    for block in play_blocks(state, seat):
        card, copied = name(block.card), None if block.copied is None else name(block.copied)
        acts = block.acts
        if acts.spreads is None:
            out.extend(LegalPlay(card, copied, act) for act in acts.acts)
        else:
            out.append(LegalPlay(card, copied, acts.acts[0], limits(acts)))
    return out


def limits(acts: Acts) -> SpreadLimits:
    """The limits of an action A or B block's spreads (places with no room left out)."""
    spreads = acts.spreads
    return SpreadLimits(places=tuple(PlaceRoom(place, room) for place, room in zip(spreads.names, spreads.rooms) if room),
                        red=spreads.red, yellow=spreads.yellow, exact=spreads.exact)

