"""What the host tells a seat that asks (docs/protocol.md, "Whose turn, and what is legal"),
from each game's ruleset: ``Match.legal`` and ``Match.outdates``, on small hand-built
positions worked by hand (RULES.md, DOWNTOWN.md), then checked over random games.

Waddle Downtown's legal list is compact: a family of action A or B plays is one entry
with its spread's limits (``waddle/downtown/listing.py``); every entry must be an action
the host accepts as it is, the families must hold exactly the legal plays, and a seat's
list must come from what that seat may know.
"""

from __future__ import annotations

import functools
import random

import msgspec
import pytest
from downtown_kit import DECK, position
from test_rules import flowers, ring

from waddle import SCOUT, Game, Place
from waddle.downtown.actions import Action, Discard, Draw, Penguins, Play, Recall, Recolour
from waddle.downtown.listing import LegalPlay, PlaceRoom, SpreadLimits
from waddle.downtown.ruleset import RULESET as DOWNTOWN
from waddle.downtown.ruleset import DowntownMatch
from waddle.downtown.state import DRAW
from waddle.hex.ruleset import HexMatch
from waddle.ruleset import get_ruleset

LABELS = ("blue", "green", "purple", "cyan")


def as_sent(entry) -> Action:
    """``entry`` as the host decodes it when a bot sends it back as its action."""
    return msgspec.json.decode(msgspec.json.encode(entry), type=Action)


def tag(struct) -> str:
    """The ``type`` of a tagged Struct on the wire."""
    return struct.__struct_config__.tag


def match_of(state) -> DowntownMatch:
    return DowntownMatch(state, 0, [])


# -- the hex game -------------------------------------------------------------------------


def test_hex_lists_every_place_single_and_double_and_scout_for_the_seat_to_act_only():
    # one flower: water (0,0) ringed by six ice; two players, both on track A, two doubles each
    match = HexMatch(Game(flowers([1]), ["red", "blue"]))
    expected = [Place(h, double) for h in sorted(ring((0, 0))) for double in (False, True)] + [SCOUT]
    assert match.to_act() == {0}
    assert list(match.legal(0)) == expected  # 6 hexes x (single, double), then scout: 13
    assert list(match.legal(1)) == []
    for action in match.legal(0):
        match.check(0, as_sent_hex(action))


def test_hex_the_last_player_placing_is_not_offered_scout_and_a_taken_hex_is_gone():
    match = HexMatch(Game(flowers([1]), ["red", "blue"]))
    match.apply(0, SCOUT)  # red scouts: blue is the last on track A and must place
    assert match.to_act() == {1}
    offered = list(match.legal(1))
    assert SCOUT not in offered and len(offered) == 12
    match.apply(1, Place((1, 0), False))
    assert all(a.hex != (1, 0) for a in match.legal(1) if isinstance(a, Place))


def as_sent_hex(action):
    return msgspec.json.decode(msgspec.json.encode(action), type=get_ruleset("hex").action_type)


def test_hex_every_action_outdates_every_seat():
    match = HexMatch(Game(flowers([1]), ["red", "blue"]))
    events = match.apply(0, Place((1, 0), False))
    assert match.outdates(events, 0) and match.outdates(events, 1)


# -- Waddle Downtown: the listing on hand-built positions ----------------------------------


def test_downtown_lists_a_spread_family_per_a_and_b_block_and_every_recall():
    # 2 players, the ring P1..P5: P1 holds 2 red, P3 1 yellow; blue has 1 red, 2 yellow left
    state = position(2, board={"P1": (2, 0), "P3": (0, 1)}, hands=[["Even", "Recall"], ["Odd"]],
                     supply={0: (1, 2)})
    listed = match_of(state).legal(0)
    rooms = dict(P1=3, P2=5, P3=4, P4=5, P5=5)

    def limits(*names, red, yellow, exact):
        return SpreadLimits(places=tuple(PlaceRoom(n, rooms[n]) for n in names), red=red,
                            yellow=yellow, exact=exact)

    # Even (deck order before Recall): A onto any ring place from the supply (1 red, 2
    # yellow); B emptying P1 (2 red onto P2-P5) or P3 (1 yellow onto P1, P2, P4, P5)
    assert [(e.card, tag(e.act), e.spread) for e in listed[:3]] == [
        ("Even", "add", limits("P1", "P2", "P3", "P4", "P5", red=1, yellow=2, exact=False)),
        ("Even", "move", limits("P2", "P3", "P4", "P5", red=2, yellow=0, exact=True)),
        ("Even", "move", limits("P1", "P2", "P4", "P5", red=0, yellow=1, exact=True)),
    ]
    assert [listed[1].act.source, listed[2].act.source] == ["P1", "P3"]
    # Recall: 1 or 2 penguins off the ring: 1 red or 2 red off P1, 1 yellow off P3, or 1 red
    # off P1 and 1 yellow off P3: four plays, each listed whole
    recalls = {e.act.penguins for e in listed[3:]}
    assert all(e.card == "Recall" and e.spread is None for e in listed[3:])
    assert recalls == {(Penguins("P1", 1, 0),), (Penguins("P1", 2, 0),), (Penguins("P3", 0, 1),),
                       (Penguins("P1", 1, 0), Penguins("P3", 0, 1))}
    assert len(listed) == 7
    for entry in listed:
        state.check(0, as_sent(entry))


def test_downtown_lists_what_a_copy_copies_and_leaves_out_a_full_place():
    # green's top card is Recolour; blue holds Copy and Full, 2 red and no yellow in supply;
    # P2 holds 1 red and 1 yellow, P5 is full (3 red, 2 yellow). A Copy must copy Recolour:
    # swap 1 yellow on P2, or 1 or 2 on P5, for red (no yellow in supply to swap a red)
    state = position(2, board={"P2": (1, 1), "P5": (3, 2)}, hands=[["Copy", "Full"], ["Odd"]],
                     piles=[[], ["Recolour"]], supply={0: (2, 0)})
    listed = match_of(state).legal(0)
    assert listed[:3] == [LegalPlay("Copy", "Recolour", Recolour(place, "yellow", count, "ring"))
                          for place, count in (("P2", 1), ("P5", 1), ("P5", 2))]
    # Full: A onto P1-P4 (P5 has no room), B emptying P2 (onto P1, P3, P4) or P5 (onto P1-P4)
    assert [(e.card, tag(e.act), getattr(e.act, "source", None)) for e in listed[3:]] == [
        ("Full", "add", None), ("Full", "move", "P2"), ("Full", "move", "P5")]
    assert [e.spread for e in listed[3:]] == [
        SpreadLimits(places=(PlaceRoom("P1", 5), PlaceRoom("P2", 3), PlaceRoom("P3", 5), PlaceRoom("P4", 5)),
                     red=2, yellow=0, exact=False),
        SpreadLimits(places=(PlaceRoom("P1", 5), PlaceRoom("P3", 5), PlaceRoom("P4", 5)), red=1, yellow=1,
                     exact=True),
        SpreadLimits(places=(PlaceRoom("P1", 5), PlaceRoom("P2", 3), PlaceRoom("P3", 5), PlaceRoom("P4", 5)),
                     red=3, yellow=2, exact=True)]
    # the play restriction: Even is on green's pile, so blue (holding Odd too) may not play it
    state = position(2, hands=[["Even", "Odd"], ["Full"]], piles=[[], ["Even"]])
    assert {e.card for e in match_of(state).legal(0)} == {"Odd"}


def test_downtown_lists_a_play_with_no_action_when_none_is_possible():
    # an empty board and a Recall: nothing to take back, so the card is played without an act
    state = position(2, hands=[["Recall"], ["Odd"]])
    assert match_of(state).legal(0) == [LegalPlay("Recall", None, None)]


def test_downtown_lists_the_setup_discards_of_each_seat_still_choosing():
    match = DOWNTOWN.new_match(DOWNTOWN.prepare(DOWNTOWN.options_type(), 3, 4), DOWNTOWN.options_type(),
                               LABELS[:3])
    hands = match.state.hands
    assert match.to_act() == {1, 2}
    assert match.legal(0) == []  # the start player discards none
    for seat in (1, 2):
        assert match.legal(seat) == [Discard(DECK.cards[c].name) for c in sorted(set(hands[seat]))]


def test_downtown_lists_the_draws_of_the_single_deck_display_and_deck():
    state = position(2, hands=[["Even"], ["Odd"]], single=True, decks=[["Full", "Odd"]],
                     display=["Single", "Equal", "Single"])
    state.phase = DRAW
    assert match_of(state).legal(0) == [Draw("Single"), Draw("Equal"), Draw(None)]
    assert match_of(state).legal(1) == []


# -- Waddle Downtown: staleness in the simultaneous setup -----------------------------------


def test_downtown_a_hidden_setup_discard_outdates_only_its_own_seat_and_the_last_outdates_all():
    match = DOWNTOWN.new_match(DOWNTOWN.prepare(DOWNTOWN.options_type(), 4, 2), DOWNTOWN.options_type(),
                               LABELS)
    first = match.apply(2, match.legal(2)[0])  # purple discards: green and cyan may still choose
    assert [match.outdates(first, seat) for seat in range(4)] == [False, False, True, False]
    match.apply(1, match.legal(1)[0])
    last = match.apply(3, match.legal(3)[0])  # the last discard reveals them all: play begins
    assert [match.outdates(last, seat) for seat in range(4)] == [True] * 4
    play = match.apply(0, as_sent(match.legal(0)[0]))
    assert all(match.outdates(play, seat) for seat in range(4))


# -- Waddle Downtown: over random games -------------------------------------------------------


@functools.cache
def family_size(rooms: tuple[int, ...], red: int, yellow: int, exact: bool) -> int:
    """How many penguins lists the documented limits allow (the empty list included)."""
    if not rooms:
        return 1 if not exact or red == yellow == 0 else 0
    return sum(family_size(rooms[1:], red - r, yellow - y, exact)
               for r in range(min(rooms[0], red) + 1) for y in range(min(rooms[0] - r, yellow) + 1))


def in_family(entry: LegalPlay, play: Play) -> bool:
    """Whether ``play`` is ``entry``'s play with a penguins list its limits allow."""
    act, limits = entry.act, entry.spread
    if (play.card, play.copied, type(play.act)) != (entry.card, entry.copied, type(act)) or \
            play.act.hood != act.hood or getattr(play.act, "source", None) != getattr(act, "source", None):
        return False
    order = [p.place for p in limits.places]
    room = {p.place: p.room for p in limits.places}
    places = [p.place for p in play.act.penguins]
    if not set(places) <= set(order) or places != sorted(places, key=order.index) or len(set(places)) != len(places):
        return False
    if any(not 1 <= p.red + p.yellow <= room[p.place] for p in play.act.penguins):
        return False
    red, yellow = sum(p.red for p in play.act.penguins), sum(p.yellow for p in play.act.penguins)
    if limits.exact:
        return (red, yellow) == (limits.red, limits.yellow)
    return red <= limits.red and yellow <= limits.yellow and red + yellow >= 1


def random_member(entry: LegalPlay, rng: random.Random) -> Play | None:
    """A random penguins list within ``entry``'s limits, as a play (``None``: missed)."""
    limits, chosen = entry.spread, []
    red, yellow = limits.red, limits.yellow
    for place in limits.places:
        r = rng.randint(0, min(place.room, red))
        y = rng.randint(0, min(place.room - r, yellow))
        if r or y:
            chosen.append(Penguins(place.place, r, y))
        red, yellow = red - r, yellow - y
    if limits.exact and (red or yellow) or not chosen:
        return None
    act = msgspec.structs.replace(entry.act, penguins=tuple(chosen))
    return Play(entry.card, entry.copied, act)


@pytest.mark.parametrize("players, single", [(2, False), (3, True), (4, False)])
def test_downtown_listing_holds_exactly_the_legal_plays_and_only_what_the_seat_knows(players, single):
    rng = random.Random(players)
    options = DOWNTOWN.options_type(single_deck=single)
    for game in range(3):
        match = DOWNTOWN.new_match(DOWNTOWN.prepare(options, players, game), options, LABELS[:players])
        while not match.is_over:
            state = match.state
            for seat in range(players):
                listed = match.legal(seat)
                view = DOWNTOWN.follow(match.view(seat), LABELS[seat])
                assert listed == match_of_view(view).legal(seat)  # from what the seat knows
                assert bool(listed) == (seat in match.to_act())
                for entry in listed:
                    state.check(seat, as_sent(entry))
                plays = view.legal_actions()
                if listed and isinstance(listed[0], LegalPlay):
                    families = [e for e in listed if e.spread is not None]
                    whole = [as_sent(e) for e in listed if e.spread is None]
                    sizes = sum(family_size(tuple(p.room for p in e.spread.places), e.spread.red, e.spread.yellow,
                                            e.spread.exact) - (not e.spread.exact) for e in families)
                    assert len(whole) + sizes == len(plays)
                    for _ in range(20):
                        play = plays[rng.randrange(len(plays))]
                        assert play in whole or any(in_family(e, play) for e in families)
                    for entry in families:
                        member = random_member(entry, rng)
                        assert member is None or state.is_legal(seat, member)
            seat = min(match.to_act())
            match.apply(seat, as_sent(rng.choice(match.legal(seat))))


def match_of_view(view) -> DowntownMatch:
    """A match over what a view's seat knows (other hands and the decks unknown)."""
    return DowntownMatch(view.state, None, [])


def test_downtown_a_recall_entry_is_whole_and_a_recolour_entry_too():
    # P4 holds 2 red and 2 yellow; blue's supply 1 red, 1 yellow. Recall: 1 red, 1 yellow,
    # 2 red, 1 of each or 2 yellow off P4 (5). Recolour: 1 red or 1 yellow on P4 swapped
    # (2: the supply has one of each, so never 2)
    state = position(2, board={"P4": (2, 2)}, hands=[["Recall", "Recolour"], ["Odd"]], supply={0: (1, 1)})
    listed = match_of(state).legal(0)
    assert all(e.spread is None for e in listed)
    assert [type(e.act) for e in listed] == [Recolour] * 2 + [Recall] * 5  # deck order: Recolour first
    assert {(e.act.colour, e.act.count) for e in listed[:2]} == {("red", 1), ("yellow", 1)}
