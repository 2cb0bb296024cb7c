"""One named test per rule and decision of DOWNTOWN.md, on small hand-built positions.

Expected points are worked out by hand in the comments, never by the code under test.
Places are written ``name: (red, yellow)``; a card's points are per place unless said.
``docs/downtown-rules-notes.md`` lists every rule with its test.
"""

from __future__ import annotations

import pytest
from downtown_kit import DECK, add, board_of, card, move, play, position, recall

from waddle.downtown.actions import Add, Discard, Draw, Penguins, Recolour
from waddle.downtown.board import layout
from waddle.downtown.events import (
    DiscardChosen,
    DiscardsRevealed,
    Drew,
    GameEnded,
    Played,
    RoundEnded,
    Scored,
    TieBreak,
    redact,
)
from waddle.downtown.legal import legal_actions, play_blocks
from waddle.downtown.ruleset import RULESET
from waddle.downtown.state import DRAW, OVER, PLAY, SETUP, UNKNOWN, State, shuffle
from waddle.errors import IllegalActionError
from waddle.ruleset import Prepared, opening_order


def scored(events):
    """The one Scored event of a play's events."""
    (event,) = [e for e in events if isinstance(e, Scored)]
    return event


def refused(state, seat, action, message):
    before = repr((state.red, state.yellow, state.hands, state.piles, state.scores))
    with pytest.raises(IllegalActionError, match=message):
        state.apply(seat, action)
    assert repr((state.red, state.yellow, state.hands, state.piles, state.scores)) == before


# -- Components ----------------------------------------------------------------------


def test_a_place_holds_at_most_five_penguins():
    state = position(board={"P1": (4, 0)}, hands=[["Even", "Odd"], ["Odd"]])
    refused(state, 0, play("Even", add(state, "ring", P1=(0, 2))), "P1 would hold 6 penguins")
    state.apply(0, play("Even", add(state, "ring", P1=(0, 1))))
    assert board_of(state) == {"P1": (4, 1)}


def test_each_player_starts_with_four_red_four_yellow_penguins_and_no_points():
    state = State.deal(DECK, ("blue", "green", "purple"), shuffle(DECK, 3, False, 1))
    assert state.supply_red == state.supply_yellow == [4, 4, 4]
    assert state.scores == [0, 0, 0] and state.round == 1
    assert not any(state.red) and not any(state.yellow)


def test_each_player_has_the_same_13_cards():
    state = State.deal(DECK, ("blue", "green"), shuffle(DECK, 2, False, 5))
    assert len(DECK.cards) == 13
    for seat in (0, 1):
        assert sorted(state.hands[seat] + state.decks[seat]) == list(range(13))


def test_player_colours_are_blue_green_purple_cyan():
    assert [(s.label, s.colour) for s in RULESET.seats] == [
        ("blue", "blue"), ("green", "green"), ("purple", "purple"), ("cyan", "cyan")]
    options = RULESET.options_type()
    with pytest.raises(ValueError, match="unknown seat 'red'"):
        RULESET.new_match(Prepared(1, DECK), options, ["blue", "red"])


# -- Places and neighbourhoods ---------------------------------------------------------


def test_two_players_five_places_in_one_neighbourhood():
    board = layout(2)
    assert board.places == ("P1", "P2", "P3", "P4", "P5")
    assert board.hood_names == ("ring",) and board.hoods == ((0, 1, 2, 3, 4),)


def test_three_players_eight_places_3_2_3_with_the_centres_in_both():
    board = layout(3)
    assert board.places == ("L1", "L2", "L3", "C1", "C2", "D1", "D2", "D3")
    named = {n: {board.places[p] for p in h} for n, h in zip(board.hood_names, board.hoods)}
    assert named == {"light": {"L1", "L2", "L3", "C1", "C2"}, "dark": {"D1", "D2", "D3", "C1", "C2"}}


def test_four_players_ten_places_in_two_rings():
    board = layout(4)
    named = {n: [board.places[p] for p in h] for n, h in zip(board.hood_names, board.hoods)}
    assert named == {"light": ["L1", "L2", "L3", "L4", "L5"], "dark": ["D1", "D2", "D3", "D4", "D5"]}
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        layout(5)


# -- Setup -------------------------------------------------------------------------------


def test_setup_copy_aside_shuffle_twelve_draw_four_and_add_the_copy():
    orders = shuffle(DECK, 2, False, 9)
    assert all(sorted(o) == sorted(set(range(13)) - {DECK.copy}) for o in orders)
    state = State.deal(DECK, ("blue", "green"), orders)
    # The start player: the Copy and the top 4 (hand of 5); its deck is the other 8, in order.
    assert state.hands[0] == sorted([DECK.copy, *orders[0][:4]])
    assert state.decks[0][::-1] == orders[0][4:]
    # The other player draws one more: a hand of 6 and a deck of 7.
    assert state.hands[1] == sorted([DECK.copy, *orders[1][:5]]) and len(state.decks[1]) == 7


def test_the_shuffle_is_seeded():
    assert shuffle(DECK, 3, False, 4) == shuffle(DECK, 3, False, 4)
    assert shuffle(DECK, 3, False, 4) != shuffle(DECK, 3, False, 5)


def test_the_start_player_is_random_and_seeded_unless_seated():
    labels = ["blue", "green", "purple", "cyan"]
    assert opening_order(labels, "random", 3) == opening_order(labels, "random", 3)
    assert opening_order(labels, "seated", 3) == labels
    order = opening_order(labels, "random", 3)
    match = RULESET.new_match(Prepared(3, DECK), RULESET.options_type(), order)
    # Seat 0 (the first of the opening order) is the start player: it discards nothing.
    assert match.labels == tuple(order) and match.to_act() == {1, 2, 3}


def test_setup_discards_are_simultaneous_and_secret_and_revealed_together():
    state = State.deal(DECK, ("blue", "green", "purple", "cyan"), shuffle(DECK, 4, False, 2))
    assert state.phase == SETUP and state.to_act() == {1, 2, 3}
    assert [len(h) for h in state.hands] == [5, 6, 6, 6]
    chosen = {s: state.name(state.hands[s][1]) for s in (1, 2, 3)}
    events = state.apply(2, Discard(chosen[2]))
    assert events == [DiscardChosen(2, chosen[2])]
    assert redact(events, 1) == [DiscardChosen(2, None)] == redact(events, None)
    assert state.to_act() == {1, 3} and state.piles == [[], [], [], []]
    state.apply(1, Discard(chosen[1]))
    events = state.apply(3, Discard(chosen[3]))
    # The last choice reveals them all, face up on the piles, unscored.
    assert events == [DiscardChosen(3, chosen[3]),
                      DiscardsRevealed((None, chosen[1], chosen[2], chosen[3]))]
    assert [[state.name(c) for c in p] for p in state.piles] == [[], [chosen[1]], [chosen[2]], [chosen[3]]]
    assert state.scores == [0, 0, 0, 0] and state.phase == PLAY and state.to_act() == {0}


def test_setup_discard_is_one_card_by_each_player_but_the_start_player():
    state = State.deal(DECK, ("blue", "green", "purple"), shuffle(DECK, 3, False, 2))
    some = state.name(state.hands[1][0])
    refused(state, 0, Discard(state.name(state.hands[0][0])), "blue is the start player")
    refused(state, 0, play(state.name(state.hands[0][0])), "before every setup discard is chosen")
    state.apply(1, Discard(some))
    refused(state, 1, Discard(state.name(state.hands[1][0])), "green has already chosen")
    refused(state, 2, Discard("Nonsense"), "no card 'Nonsense'")


# -- A turn ------------------------------------------------------------------------------


def test_play_passes_in_seat_order_from_the_start_player():
    state = position(3, hands=[["Even"] * 2, ["Odd"] * 2, ["Full"] * 2], decks=[[], [], []])
    seats = []
    for _ in range(4):
        (seat,) = state.to_act()
        seats.append(seat)
        state.apply(seat, play(state.name(state.hands[seat][0]),
                               add(state, "light", L1=(1, 0)) if seat != 1 else add(state, "dark", D1=(1, 0))))
    assert seats == [0, 1, 2, 0] and state.round == 2


def test_the_card_goes_face_up_on_the_scoring_pile():
    state = position(hands=[["Even", "Odd"], ["Odd"]], decks=[[], []])
    events = state.apply(0, play("Even", add(state, "ring", P1=(1, 0))))
    assert state.piles[0] == [card("Even")] and state.hands[0] == [card("Odd")]
    assert events[0] == Played(0, "Even", None, add(state, "ring", P1=(1, 0)))


def test_play_restriction_no_card_named_like_an_opponents_top_card():
    state = position(3, hands=[["Even", "Odd"], [], []], piles=[[], ["Full", "Even"], ["Odd", "Full"]])
    # Green shows Even and purple shows Full on top (Odd is under Full: not a top card).
    refused(state, 0, play("Even", add(state, "light", L1=(1, 0))), "play restriction: Even is on top")
    state.apply(0, play("Odd", add(state, "light", L1=(1, 0))))


def test_play_restriction_lifted_when_every_card_in_hand_is_blocked():
    state = position(3, hands=[["Even", "Odd"], [], []], piles=[[], ["Even"], ["Odd"]])
    assert state.playable(0) == [card("Even"), card("Odd")]
    state.apply(0, play("Even", add(state, "light", L1=(1, 0))))


def test_play_restriction_applies_to_the_copy():
    state = position(hands=[["Copy", "Even"], []], piles=[[], ["Copy"]])
    refused(state, 0, play("Copy", add(state, "ring", P1=(1, 0))), "play restriction: Copy")
    forced = position(hands=[["Copy"], []], piles=[[], ["Copy"]])
    # Forced, with nothing to copy (a Copy is not copied): a standard action, 0 points.
    assert scored(forced.apply(0, play("Copy", add(forced, "ring", P1=(1, 0))))).points == 0


def test_a_special_action_replaces_the_standard_action():
    state = position(board={"P1": (1, 0)}, hands=[["Recall"], []])
    refused(state, 0, play("Recall", add(state, "ring", P2=(1, 0))),
            "Recall does the special action recall, not add")
    refused(state, 0, play("Recall", move(state, "P1", "ring", P2=(1, 0))), "not move")


def test_action_a_adds_from_the_supply_to_one_neighbourhood_which_is_active():
    state = position(4, board={"L1": (1, 0)}, hands=[["All Red"], [], [], []])
    refused(state, 0, play("All Red", add(state, "light", L2=(1, 0), D1=(1, 0))),
            "D1 is not a place of the light neighbourhood")
    events = state.apply(0, play("All Red", add(state, "light", L1=(1, 0), L2=(2, 0), L3=(0, 1))))
    # Light after: L1 (2,0) L2 (2,0) L3 (0,1): All Red = 2 places (L1, L2), light active.
    assert scored(events) == Scored(0, "All Red", "light", ("L1", "L2"), 2, 2)
    assert (state.supply_red[0], state.supply_yellow[0]) == (4 - 3, 4 - 1)


def test_action_a_adds_at_least_one_penguin():
    state = position(hands=[["Even"], []])
    refused(state, 0, play("Even", add(state, "ring")), "add at least one penguin")


def test_action_a_adds_only_penguins_in_the_supply():
    state = position(hands=[["Even"], []], supply={0: (1, 4)})
    refused(state, 0, play("Even", add(state, "ring", P1=(2, 0))), "blue has 1 red penguins in supply, not 2")


def test_action_b_empties_a_place_and_puts_all_its_penguins_in_one_neighbourhood():
    state = position(board={"P1": (2, 1), "P2": (1, 0)}, hands=[["Even"], []])
    events = state.apply(0, play("Even", move(state, "P1", "ring", P2=(1, 0), P3=(1, 1))))
    # After: P2 (2,0) P3 (1,1): Even = 2 places; the supply is untouched.
    assert board_of(state) == {"P2": (2, 0), "P3": (1, 1)}
    assert scored(events).points == 2 and (state.supply_red[0], state.supply_yellow[0]) == (4, 4)


def test_action_b_never_puts_a_penguin_back_onto_the_emptied_place():
    state = position(board={"P1": (2, 0)}, hands=[["Even"], []])
    refused(state, 0, play("Even", move(state, "P1", "ring", P1=(1, 0), P2=(1, 0))),
            "may not go back onto P1, the place emptied")


def test_action_b_places_every_penguin_taken():
    state = position(board={"P1": (2, 1)}, hands=[["Even"], []])
    refused(state, 0, play("Even", move(state, "P1", "ring", P2=(2, 0))),
            r"all the penguins taken from P1 \(2 red, 1 yellow\) must be placed")
    refused(state, 0, play("Even", move(state, "P3", "ring", P2=(1, 0))), "P3 is empty")


def test_action_b_to_the_own_neighbourhood_or_any_place_of_the_other():
    state = position(4, board={"L1": (1, 1)}, hands=[["Even"], [], [], []])
    assert state.is_legal(0, play("Even", move(state, "L1", "light", L2=(1, 1))))
    assert state.is_legal(0, play("Even", move(state, "L1", "dark", D1=(1, 0), D5=(0, 1))))
    refused(state, 0, play("Even", move(state, "L1", "light", L2=(1, 0), D1=(0, 1))),
            "D1 is not a place of the light neighbourhood")


def test_action_b_two_players_only_the_one_neighbourhood():
    state = position(board={"P1": (1, 0)}, hands=[["Even"], []])
    refused(state, 0, play("Even", move(state, "P1", "light", P2=(1, 0))), "no neighbourhood 'light'")
    assert state.move_hoods(0) == [0]


def test_action_b_three_players_the_centre_places_belong_to_both():
    state = position(3, board={"C1": (1, 0), "L1": (0, 1)}, hands=[["Even"], [], []])
    targets = {}
    for block in (b for b in play_blocks(state, 0) if b.acts.group == "move"):
        places = {p.place for a in block.acts.acts for p in a.penguins}
        targets[(state.layout.places[block.acts.source], state.layout.hood_names[block.acts.hood])] = places
    # Emptying a centre: either neighbourhood, its other places. A light place: the four
    # other light places (centres included) or any dark place (centres included).
    assert targets == {("C1", "light"): {"L1", "L2", "L3", "C2"}, ("C1", "dark"): {"D1", "D2", "D3", "C2"},
                       ("L1", "light"): {"L2", "L3", "C1", "C2"},
                       ("L1", "dark"): {"D1", "D2", "D3", "C1", "C2"}}


def test_action_b_that_cannot_place_every_penguin_is_illegal():
    # P1 holds 5; the others have room for 1 + 1 + 1 + 1 = 4 penguins.
    state = position(board={"P1": (5, 0), "P2": (4, 0), "P3": (0, 4), "P4": (2, 2), "P5": (3, 1)},
                     hands=[["Even"], []])
    assert state.move_hoods(0) == []
    refused(state, 0, play("Even", move(state, "P1", "ring", P2=(1, 0), P3=(1, 0), P4=(1, 0), P5=(2, 0))),
            "P5 would hold 6 penguins")


def test_no_action_possible_the_card_still_scores_with_no_active_neighbourhood():
    # Every place full (3 red, 2 yellow): no room for A, nowhere to move for B.
    full = {name: (3, 2) for name in layout(4).places}
    state = position(4, board=full, hands=[["Full", "Even"], ["Odd"], [], []])
    assert not state.can_act(0, "standard")
    # Full (all): 2 points for each of the 10 full places = 20, with no active neighbourhood.
    assert scored(state.apply(0, play("Full"))) == Scored(0, "Full", None, layout(4).places, 20, 20)
    # Odd scores the active neighbourhood: there is none, so 0 (every count 5 is odd).
    assert scored(state.apply(1, play("Odd"))) == Scored(1, "Odd", None, (), 0, 0)


def test_no_action_possible_two_players_the_one_neighbourhood_is_active():
    state = position(board={name: (3, 2) for name in layout(2).places}, hands=[["Odd"], []])
    # Odd: all 5 counts are 5 = 5 points, in the one neighbourhood.
    assert scored(state.apply(0, play("Odd"))).points == 5


def test_no_action_only_when_no_action_is_possible():
    state = position(hands=[["Even"], []])
    refused(state, 0, play("Even"), "Even must do standard action A or B: it is possible")


def test_score_the_active_neighbourhood_or_all_places():
    state = position(4, board={"L1": (1, 1), "D1": (1, 1), "D2": (2, 2)}, hands=[["Equal"], [], [], []])
    # Equal is marked all: L1, D1, D2 (and L3 after adding 1+1) = 4, whatever is active.
    assert scored(state.apply(0, play("Equal", add(state, "light", L3=(1, 1))))).points == 4


def test_all_places_count_a_three_player_centre_place_once():
    state = position(3, board={"C1": (1, 1), "L1": (2, 2)}, hands=[["Equal"], [], []])
    # Equal: C1 (in both neighbourhoods, once), L1, and D1 after the add = 3.
    assert scored(state.apply(0, play("Equal", add(state, "dark", D1=(1, 1))))).places == ("L1", "C1", "D1")


def test_draw_a_card_from_the_own_deck_after_scoring():
    state = position(hands=[["Even"], []], decks=[["Odd", "Full"], []])
    events = state.apply(0, play("Even", add(state, "ring", P1=(1, 0))))
    assert events[2] == Drew(0, "deck", "Odd")
    assert redact(events, 1)[2] == Drew(0, "deck", None)
    assert state.hands[0] == [card("Odd")] and state.decks[0] == [card("Full")]


def test_no_draw_from_an_empty_deck():
    state = position(hands=[["Even", "Odd"], []], decks=[[], []])
    events = state.apply(0, play("Even", add(state, "ring", P1=(1, 0))))
    assert not any(isinstance(e, Drew) for e in events) and state.hands[0] == [card("Odd")]


# -- Rounds, end and winner --------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(2, 8), (3, 7), (4, 6)])
def test_the_game_lasts_8_7_6_rounds_of_one_turn_each(players, rounds):
    match = RULESET.new_match(Prepared(11, DECK), RULESET.options_type(), ["blue", "green", "purple", "cyan"][:players])
    bot = RULESET.make_bot("greedy", 1)
    turns, ended = [], []
    while not match.is_over:
        seat = min(match.to_act())
        events = match.apply(seat, bot.choose(match.position(seat)))
        turns += [e.seat for e in events if isinstance(e, Played)]
        ended += [e.round for e in events if isinstance(e, RoundEnded)]
    regular = turns[:players * rounds]
    assert regular == list(range(players)) * rounds and ended[:rounds] == list(range(1, rounds + 1))


def test_the_highest_score_wins_after_the_last_round():
    state = position(hands=[["Even", "Odd"], ["Even", "Odd"]], decks=[[], []], round=8, turn=1, scores=[3, 5])
    events = state.apply(1, play("Odd", add(state, "ring", P1=(1, 0))))
    # Green: Odd, P1 count 1 = 1 point: 6 to 3.
    assert events[-2:] == [RoundEnded(8, (3, 6)), GameEnded((3, 6), (1,), False)]
    assert state.phase == OVER and state.to_act() == frozenset()


def test_a_tie_after_the_last_round_only_the_tied_players_go_on():
    state = position(3, hands=[["Even", "Odd"], ["Even", "Odd"], ["Even", "Odd"]], decks=[[], [], []],
                     round=7, turn=2, scores=[4, 2, 4])
    events = state.apply(2, play("Even", add(state, "dark", D1=(1, 0))))
    # Purple: D1 count 1, not even: 0. Blue and purple tie on 4: a tie-break round for them.
    assert events[-2:] == [RoundEnded(7, (4, 2, 4)), TieBreak(8, (0, 2))]
    assert state.to_act() == {0}
    state.apply(0, play("Odd", add(state, "light", L1=(1, 0))))       # blue: L1 count 1, odd: 1
    assert state.to_act() == {2}
    events = state.apply(2, play("Odd", add(state, "dark", D2=(0, 1))))  # purple: D1, D2: 2
    assert events[-2:] == [RoundEnded(8, (5, 2, 6)), GameEnded((5, 2, 6), (2,), False)]


def test_a_tie_break_round_goes_on_while_still_tied():
    state = position(hands=[["Even", "Odd"], ["Even", "Odd"]], decks=[[], []], round=9, turn=1,
                     scores=[5, 5])
    state.order = (0, 1)
    # Green: Even, P1 count 1: 0 points; still 5 to 5: another tie-break round.
    events = state.apply(1, play("Even", add(state, "ring", P1=(0, 1))))
    assert events[-1] == TieBreak(10, (0, 1))


def test_a_tie_break_the_seats_still_tied_for_the_lead_go_on():
    state = position(3, hands=[["Even", "Odd"], ["Even", "Odd"], ["Odd", "Even"]], decks=[[], [], []],
                     round=8, turn=2, scores=[5, 5, 5], piles=[[], ["Full"], []])
    state.order = (0, 1, 2)
    # Purple: Odd, D1 count 1 = 1 point (Odd is not on top of any pile: green shows Full).
    # Blue and green have 5, purple 6: purple wins; all three were tied before it.
    events = state.apply(2, play("Odd", add(state, "dark", D1=(1, 0))))
    assert events[-1] == GameEnded((5, 5, 6), (2,), False)
    state = position(3, hands=[["Even", "Odd"], ["Even", "Odd"], ["Even", "Odd"]], decks=[[], [], []],
                     round=8, turn=2, scores=[5, 5, 5])
    state.order = (0, 1, 2)
    # Purple: Even, D1 count 1 = 0 points; all three still tied: all three go on.
    assert state.apply(2, play("Even", add(state, "dark", D1=(1, 0))))[-1] == TieBreak(9, (0, 1, 2))
    state = position(3, hands=[["Even", "Odd"], ["Even", "Odd"], ["Even", "Odd"]], decks=[[], [], []],
                     round=9, turn=1, scores=[5, 3, 4])
    state.order = (0, 2)
    # A tie-break round of blue and purple: purple's Odd (D1 count 1) = 1 point: 5 to 5,
    # so blue and purple go on; green (3) is out. Green's top card still restricts them.
    state.piles[1] = [card("Even")]
    refused(state, 2, play("Even", add(state, "dark", D1=(1, 0))), "play restriction")
    assert state.apply(2, play("Odd", add(state, "dark", D1=(1, 0))))[-1] == TieBreak(10, (0, 2))


def test_tie_break_with_a_tied_player_out_of_cards_is_a_shared_victory():
    state = position(hands=[["Even", "Odd"], ["Even"]], decks=[[], []], round=8, turn=1, scores=[5, 5])
    # Green plays its last card: Even, P1 count 1 = 0 points. Tied 5-5 and green has no
    # card for a tie-break round: blue and green share the victory.
    events = state.apply(1, play("Even", add(state, "ring", P1=(1, 0))))
    assert events[-1] == GameEnded((5, 5), (0, 1), True)
    assert state.winners == (0, 1) and state.shared


# -- Single-deck variant -----------------------------------------------------------------


def test_single_deck_one_copy_each_the_rest_shuffled_together_four_dealt_and_a_display():
    orders = shuffle(DECK, 2, True, 3)
    assert len(orders) == 1 and sorted(orders[0]) == sorted([c for c in range(13) if c != DECK.copy] * 2)
    state = State.deal(DECK, ("blue", "green"), orders, single=True)
    cards = orders[0]
    # Dealt round the table: blue 0, 2, 4, 6; green 1, 3, 5, 7 and its extra card 8.
    assert state.hands[0] == sorted([DECK.copy, *cards[0:8:2]])
    assert state.hands[1] == sorted([DECK.copy, *cards[1:8:2], cards[8]])
    assert state.display == cards[9:12] and state.decks[0][::-1] == cards[12:]
    assert DECK.copy not in state.decks[0]


def test_single_deck_draw_a_display_card_refilled_from_the_deck_or_the_deck_top():
    state = position(single=True, hands=[["Even"], ["Copy"]], decks=[["Full", "Single"]], display=["Odd", "Equal"])
    state.apply(0, play("Even", add(state, "ring", P1=(1, 0))))
    assert state.phase == DRAW and state.to_act() == {0}
    assert legal_actions(state, 0) == (Draw("Odd"), Draw("Equal"), Draw())
    events = state.apply(0, Draw("Equal"))
    # The display card is public, and so is its refill from the deck's top.
    assert events[0] == Drew(0, "display", "Equal", "Full") == redact(events, 1)[0]
    assert [state.name(c) for c in state.display] == ["Odd", "Full"] and state.known[0] == [card("Equal")]
    state.apply(1, play("Copy", add(state, "ring", P2=(1, 0)), copied="Even"))
    events = state.apply(1, Draw())
    assert events[0] == Drew(1, "deck", "Single") and redact(events, 0)[0] == Drew(1, "deck", None)


def test_single_deck_a_draw_without_a_choice_is_made_at_once():
    state = position(single=True, hands=[["Even", "Odd"], ["Odd", "Full"]], decks=[["Full"]], display=[])
    events = state.apply(0, play("Even", add(state, "ring", P1=(1, 0))))
    assert events[2] == Drew(0, "deck", "Full") and state.phase == PLAY and state.to_act() == {1}
    events = position(single=True, hands=[["Even"], ["Odd"]], decks=[[]], display=["Odd", "Odd"]).apply(
        0, play("Even", add(state, "ring", P1=(1, 0))))
    assert events[2] == Drew(0, "display", "Odd", None)


def test_single_deck_no_card_when_deck_and_display_are_empty():
    state = position(single=True, hands=[["Even", "Odd"], ["Odd"]], decks=[[]], display=[])
    events = state.apply(0, play("Even", add(state, "ring", P1=(1, 0))))
    assert not any(isinstance(e, Drew) for e in events) and state.to_act() == {1}


def test_single_deck_the_play_restriction_compares_names():
    state = position(single=True, hands=[["Even", "Odd"], []], piles=[[], ["Even"]], decks=[[]], display=[])
    # Blue's Even is another copy of the card, of another colour: the same name is enough.
    refused(state, 0, play("Even", add(state, "ring", P1=(1, 0))), "play restriction")


# -- The cards -----------------------------------------------------------------------------


def test_copy_copies_an_opponents_top_card_its_action_and_its_rule():
    state = position(board={"P1": (1, 0)}, hands=[["Copy", "Odd"], []], piles=[[], ["Odd", "Even"]])
    events = state.apply(0, play("Copy", add(state, "ring", P1=(1, 0), P2=(0, 2)), copied="Even"))
    # As Even: P1 (2,0) and P2 (0,2) = 2 points.
    assert scored(events) == Scored(0, "Even", "ring", ("P1", "P2"), 2, 2)
    assert state.piles[0] == [card("Copy")]


def test_copy_must_copy_when_an_opponent_shows_a_card():
    state = position(hands=[["Copy"], []], piles=[[], ["Even"]])
    refused(state, 0, play("Copy", add(state, "ring", P1=(1, 0))), "Copy: choose an opponent's face-up top card to copy: Even")
    refused(state, 0, play("Copy", add(state, "ring", P1=(1, 0)), copied="Odd"), "Odd is not an opponent's face-up top card")


def test_copy_does_not_copy_a_copy_and_with_nothing_to_copy_is_standard_and_scores_zero():
    state = position(board={"P1": (1, 0)}, hands=[["Copy", "Odd"], []], piles=[[], ["Copy"]])
    refused(state, 0, play("Copy", add(state, "ring", P1=(1, 0)), copied="Copy"), "play restriction")
    state = position(board={"P1": (1, 0)}, hands=[["Copy"], []], piles=[[], ["Copy"]])
    refused(state, 0, play("Copy", add(state, "ring", P1=(1, 0)), copied="Copy"), "'copied' must be null")
    assert scored(state.apply(0, play("Copy", add(state, "ring", P1=(1, 0))))).points == 0


def test_copying_recall_performs_recall():
    state = position(board={"P1": (1, 1), "P2": (1, 0)}, hands=[["Copy"], []], piles=[[], ["Recall"]])
    refused(state, 0, play("Copy", add(state, "ring", P3=(1, 0)), copied="Recall"), "special action recall")
    events = state.apply(0, play("Copy", recall(state, "ring", P2=(1, 0)), copied="Recall"))
    # Recall's rule: empty places P2 P3 P4 P5 = 4 points; the red penguin back in supply.
    assert scored(events) == Scored(0, "Recall", "ring", ("P2", "P3", "P4", "P5"), 4, 4)
    assert state.supply_red[0] == 5


def test_copy_of_a_card_whose_action_is_impossible_does_no_action_and_scores_its_rule():
    # Recolour needs a penguin of one colour on a place and the other colour in supply:
    # blue's supply is empty. P1 (1,1) and P2 (2,1) have both colours: 2 points.
    state = position(board={"P1": (1, 1), "P2": (2, 1)}, hands=[["Copy"], []], piles=[[], ["Recolour"]],
                     supply={0: (0, 0)})
    assert scored(state.apply(0, play("Copy", copied="Recolour"))) == Scored(0, "Recolour", "ring", ("P1", "P2"), 2, 2)


def test_only_the_copy_copies():
    state = position(hands=[["Even"], []], piles=[[], ["Odd"]])
    refused(state, 0, play("Even", add(state, "ring", P1=(1, 0)), copied="Odd"), "only a Copy card copies")


def test_equal_one_point_per_place_with_as_many_red_as_yellow_all_places():
    state = position(4, board={"L1": (2, 2), "L2": (1, 0), "D3": (0, 0), "D4": (2, 1)},
                     hands=[["Equal"], [], [], []])
    # L1 (2,2) yes; L2 (1,1) after the add yes; D4 (2,1) no; empty places no: 2 points.
    assert scored(state.apply(0, play("Equal", add(state, "light", L2=(0, 1))))).points == 2


def test_consecutive_the_longest_run_of_counts_a_shared_count_once():
    state = position(board={"P1": (1, 0), "P2": (1, 1), "P3": (2, 0), "P4": (2, 1)}, hands=[["Consecutive"], []])
    # Counts after adding 4 to P5: 1, 2, 2, 3, 4 -> the run 1-4: 4 points.
    events = state.apply(0, play("Consecutive", add(state, "ring", P5=(2, 2))))
    assert scored(events).points == 4


def test_more_red_and_more_yellow_places_with_both_colours_and_more_of_one():
    state = position(board={"P1": (2, 1), "P2": (3, 0), "P3": (1, 2), "P4": (1, 1)},
                     hands=[["More Red"], ["More Yellow"]])
    # More Red: P1 (2,1) yes, P2 (3,0) no (no yellow), P3 no, P4 (1,1) no; P5 (2,1) added yes: 2.
    assert scored(state.apply(0, play("More Red", add(state, "ring", P5=(2, 1))))).points == 2
    # More Yellow: P3 (1,2) yes only: 1 (green adds 1 yellow to P4: (1,2) yes: 2).
    assert scored(state.apply(1, play("More Yellow", add(state, "ring", P4=(0, 1))))).points == 2


def test_even_and_odd_count_the_places_with_an_even_or_odd_number():
    state = position(board={"P1": (2, 0), "P2": (3, 1), "P3": (1, 2), "P4": (5, 0)}, hands=[["Even"], ["Odd"]])
    # Even (2 or 4): P1 2, P2 4; P5 gets 1: odd. = 2.  Then Odd (1, 3, 5): P3 3, P4 5, P5 1 = 3.
    assert scored(state.apply(0, play("Even", add(state, "ring", P5=(1, 0))))).points == 2
    assert scored(state.apply(1, play("Odd", add(state, "ring", P1=(0, 2))))).points == 3


def test_full_two_points_per_place_of_five_all_places():
    state = position(4, board={"L1": (5, 0), "D2": (2, 3), "D3": (4, 0)}, hands=[["Full"], [], [], []])
    # L1 5, D2 5, L2 after adding 5: three full places, 2 each = 6 (the dark ones count too).
    assert scored(state.apply(0, play("Full", add(state, "light", L2=(3, 2))))).points == 6


def test_all_red_and_all_yellow_places_of_one_colour_only():
    state = position(board={"P1": (2, 0), "P2": (0, 1), "P3": (1, 1)}, hands=[["All Red"], ["All Yellow"]])
    # All Red: P1, P4 (added) = 2. All Yellow: P2, P5 (added) = 2; P3 is mixed.
    assert scored(state.apply(0, play("All Red", add(state, "ring", P4=(1, 0))))).points == 2
    assert scored(state.apply(1, play("All Yellow", add(state, "ring", P5=(0, 3))))).points == 2


def test_single_one_point_per_place_of_exactly_one_penguin_all_places():
    state = position(3, board={"L1": (1, 0), "D1": (0, 1), "C1": (0, 1), "D2": (2, 0)}, hands=[["Single"], [], []])
    # Single: L1, D1, C1 and L2 (added) = 4.
    assert scored(state.apply(0, play("Single", add(state, "light", L2=(1, 0))))).points == 4


def test_recolour_swaps_one_or_two_penguins_of_a_place_for_the_other_colour():
    state = position(board={"P1": (2, 0), "P2": (1, 1)}, hands=[["Recolour"], []], supply={0: (0, 1)})
    refused(state, 0, play("Recolour", Recolour("P1", "red", 2, "ring")), "blue has 1 yellow penguins in supply, not 2")
    refused(state, 0, play("Recolour", Recolour("P1", "yellow", 1, "ring")), "P1 has 0 yellow penguins")
    events = state.apply(0, play("Recolour", Recolour("P1", "red", 1, "ring")))
    # P1 becomes (1,1): both colours on P1 and P2 = 2 points; supply (0,1) -> (1,0).
    assert board_of(state) == {"P1": (1, 1), "P2": (1, 1)} and scored(events).points == 2
    assert (state.supply_red[0], state.supply_yellow[0]) == (1, 0)


def test_recolour_three_players_a_centre_place_chooses_its_neighbourhood():
    state = position(3, board={"C1": (2, 0), "L1": (1, 1), "D1": (1, 1), "D2": (2, 1)},
                     hands=[["Recolour", "Odd"], ["Recolour"], []])
    refused(state, 0, play("Recolour", Recolour("L1", "red", 1, "dark")), "L1 is not in the dark neighbourhood")
    # C1 becomes (1,1). Light: L1, C1 = 2; dark: C1, D1, D2 = 3.
    assert scored(state.copy().apply(0, play("Recolour", Recolour("C1", "red", 1, "light")))).points == 2
    assert scored(state.apply(0, play("Recolour", Recolour("C1", "red", 1, "dark")))).points == 3


def test_recall_returns_one_or_two_penguins_of_one_neighbourhood_to_the_supply():
    state = position(4, board={"L1": (1, 1), "L2": (0, 1), "D1": (1, 0)}, hands=[["Recall"], [], [], []])
    refused(state, 0, play("Recall", recall(state, "light", L1=(1, 1), L2=(0, 1))), "take 1 or 2 penguins, not 3")
    refused(state, 0, play("Recall", recall(state, "light", D1=(1, 0))), "D1 is not a place of the light")
    refused(state, 0, play("Recall", recall(state, "light", L2=(1, 0))), "L2 has 0 red and 1 yellow")
    events = state.apply(0, play("Recall", recall(state, "light", L1=(1, 0), L2=(0, 1))))
    # Light after: L1 (0,1), L2 empty: empty places L2..L5 = 4 points; supply 5 red, 5 yellow.
    assert scored(events) == Scored(0, "Recall", "light", ("L2", "L3", "L4", "L5"), 4, 4)
    assert (state.supply_red[0], state.supply_yellow[0]) == (5, 5)


# -- The rulebook's scoring examples -------------------------------------------------------


def test_rulebook_example_1_more_red_after_adding_two_yellow_to_light():
    state = position(4, board={"L1": (3, 0), "L2": (2, 0), "L3": (0, 1), "L5": (1, 1), "D1": (3, 1)},
                     hands=[["More Red"], [], [], []])
    events = state.apply(0, play("More Red", add(state, "light", L1=(0, 1), L2=(0, 1))))
    # Light: L1 (3,1) and L2 (2,1) have both colours, more red; L3 (0,1) no, L5 (1,1) no;
    # D1 (3,1) is dark, not active: 2 points.
    assert scored(events) == Scored(0, "More Red", "light", ("L1", "L2"), 2, 2)


def test_rulebook_example_2_equal_counts_both_neighbourhoods_after_a_move_to_light():
    state = position(4, board={"L1": (1, 0), "L2": (0, 1), "L3": (2, 1), "D1": (1, 1), "D2": (2, 2), "D4": (1, 1)},
                     hands=[[], ["Equal"], [], []], turn=1)
    events = state.apply(1, play("Equal", move(state, "D4", "light", L1=(0, 1), L2=(1, 0))))
    # L1 (1,1), L2 (1,1), D1 (1,1), D2 (2,2): 4 places across both neighbourhoods: 4 points.
    assert scored(events) == Scored(1, "Equal", "light", ("L1", "L2", "D1", "D2"), 4, 4)


def test_rulebook_example_3_consecutive_one_to_five_in_dark():
    state = position(3, board={"D1": (1, 0), "D2": (1, 1), "C1": (2, 2), "C2": (3, 2), "L1": (2, 1)},
                     hands=[[], [], ["Consecutive"]], turn=2)
    events = state.apply(2, play("Consecutive", move(state, "L1", "dark", D3=(2, 1))))
    # Dark: D1 1, D2 2, D3 3, C1 4, C2 5: the run 1-5 = 5 points.
    assert scored(events).points == 5


# -- What is public and what is secret -------------------------------------------------------


def test_a_view_holds_its_own_hand_only_and_no_deck_order():
    state = State.deal(DECK, ("blue", "green"), shuffle(DECK, 2, False, 7))
    view = state.redacted(1)
    assert view.hands[1] == state.hands[1] and view.hands[0] == [UNKNOWN] * 5
    assert all(c == UNKNOWN for deck in view.decks for c in deck)
    assert state.redacted(None).hands == [[UNKNOWN] * 5, [UNKNOWN] * 6]


def test_preview_scores_a_play_without_playing_it():
    state = position(board={"P1": (1, 1)}, hands=[["Equal"], []])
    action = play("Equal", add(state, "ring", P2=(2, 2)))
    # P1 (1,1), P2 (2,2): 2 points; nothing changes.
    assert state.preview(0, action) == Scored(0, "Equal", "ring", ("P1", "P2"), 2, 2)
    assert board_of(state) == {"P1": (1, 1)} and state.scores == [0, 0] and state.history == []


def test_penguins_are_listed_once_each_in_board_order():
    state = position(hands=[["Even"], []])
    action = play("Even", Add("ring", (Penguins("P2", 1, 0), Penguins("P1", 1, 0))))
    refused(state, 0, action, "list each place once, in board order")
    action = play("Even", Add("ring", (Penguins("P1", 0, 0),)))
    refused(state, 0, action, "give 1 or more penguins")
