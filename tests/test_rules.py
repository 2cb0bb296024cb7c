"""One named test per rule and decision of RULES.md, on small hand-built maps.

Expected scores are worked out by hand in the comments, never by the code under test.
Hex layout reminder: the ring of ``(q, r)`` in DIRECTIONS order is ``(q+1, r)``,
``(q+1, r-1)``, ``(q, r-1)``, ``(q-1, r)``, ``(q-1, r+1)``, ``(q, r+1)``; ring hexes
next to each other in that cycle are neighbours, the others are 2 apart.
"""

from __future__ import annotations

import json

import pytest

from waddle import (
    COLOURS,
    SCOUT,
    Game,
    GameEnded,
    HalfEnded,
    IllegalActionError,
    Map,
    MapError,
    Place,
    Placed,
    RoundEnded,
    Scouted,
    Water,
    action_from_dict,
    neighbours,
    parse_action,
)
from waddle.hex.hexgrid import DIRECTIONS

A, B = (0, 0), (3, 0)  # the two flower centres used by most maps


def ring(center):
    """The six neighbours of ``center`` in DIRECTIONS order."""
    return [(center[0] + dq, center[1] + dr) for dq, dr in DIRECTIONS]


def flowers(*fish, extra_water=None):
    """Water hexes at (0,0), (3,0), (6,0), ... numbered 1, 2, 3, ..., each ringed by six ice.

    ``fish[k]`` are the fish of flower ``k``. The rings are disjoint; the ice of flower
    ``k`` touches the ice of flower ``k+1`` only at ``(3k+1, 0)``-``(3k+2, 0)``.
    """
    centres = [(3 * k, 0) for k in range(len(fish))]
    water = {c: Water(k + 1, tuple(f)) for k, (c, f) in enumerate(zip(centres, fish))}
    water.update(extra_water or {})
    return Map([h for c in centres for h in ring(c)], water)


def play(game, *texts):
    """Apply each action text in turn; return all the events, in order."""
    events = []
    for text in texts:
        events += game.apply(parse_action(text))
    return events


def one_player_fills(game, placer, *, doubles=0):
    """Everyone else scouts whenever it is their turn; ``placer`` places on every ice hex.

    The first ``doubles`` placements are doubles. Returns how many tokens ``placer`` placed.
    """
    placed = 0
    while not game.is_over:
        if game.current_player != placer:
            game.apply(SCOUT)
            continue
        hex = game.legal_actions()[0].hex
        game.apply(Place(hex, placed < doubles))
        placed += 1
    return placed


def scores(game):
    """``{player: (waddles, pools)}`` of the game's result."""
    return {p: (s.waddles, s.pools) for p, s in game.result().scores.items()}


# -- Board ---------------------------------------------------------------------------


def test_neighbours_are_the_six_axial_offsets():
    assert set(neighbours((2, -1))) == {(3, -1), (1, -1), (2, 0), (2, -2), (3, -2), (1, 0)}
    assert len(list(neighbours((0, 0)))) == 6


def pool_map():
    # Pool P = {(0,0) #1 fish 3, (1,0) unnumbered fish 2}; pool Q = {(3,0) #2 fish 1}.
    # Ice: the ring of (0,0) but (1,0), plus (2,0), which touches (1,0) and (3,0) only.
    water = {(0, 0): Water(1, (3,)), (1, 0): Water(None, (2,)), (3, 0): Water(2, (1,))}
    return Map([h for h in ring(A) if h != (1, 0)] + [(2, 0)], water)


def test_pools_are_maximal_connected_water_including_unnumbered():
    pools = {p.hexes: p.fish for p in pool_map().pools}
    assert pools == {frozenset({(0, 0), (1, 0)}): (3, 2), frozenset({(3, 0)}): (1,)}


def test_penguin_next_to_unnumbered_water_counts_for_its_pool():
    game = Game(pool_map(), ["red", "blue"])
    # Round 1 at (0,0): red and blue alternate on its 5 ice hexes.
    play(game, "place 1,-1", "place 0,-1", "place -1,0", "place -1,1", "place 0,1")
    # Round 2 at (3,0): blue (next in rotation) takes (2,0), next to (1,0) and (3,0).
    assert game.active_hex == (3, 0) and game.current_player == "blue"
    play(game, "place 2,0")
    assert game.is_over
    pool = next(p for p in game.result().halves[0].pools if (1, 0) in p.hexes)
    # Red 3 penguins; blue 2 + 1 via the unnumbered hex = 3: a 2-player tie, both score 3+2.
    assert pool.strengths == {"red": 3, "blue": 3}
    # Red: 3 lone penguins (1+1+1) + pool P 5 = 8.
    # Blue: 3 lone penguins 3 + pool P 5 + pool Q (strength 1 to 0) 1 = 9.
    assert scores(game) == {"red": (3, 5), "blue": (3, 6)}


def test_one_token_per_ice_hex():
    game = Game(flowers(()), ["red", "blue"])
    play(game, "place 1,0")
    with pytest.raises(IllegalActionError, match="already holds a penguin"):
        game.apply(parse_action("double 1,0"))
    assert game.tokens == {(1, 0): ("red", False)}


def test_ice_hex_touching_no_numbered_water_is_rejected():
    with pytest.raises(MapError, match=r"ice hex \(5, 5\) touches no numbered water"):
        Map(ring(A) + [(5, 5)], {A: Water(1)})
    # Touching only unnumbered water is not enough either.
    with pytest.raises(MapError, match=r"ice hex \(6, 0\) touches no numbered water"):
        Map(ring(A) + [(6, 0)], {A: Water(1), (5, 0): Water()})


# -- Setup ----------------------------------------------------------------------------


def test_start_on_lowest_numbered_water_with_empty_ice_neighbour():
    # #1 at (10,10) has no ice at all: skipped. #4 at (3,0) comes before #7 at (0,0).
    water = {(10, 10): Water(1), B: Water(4), A: Water(7)}
    game = Game(Map(ring(A) + ring(B), water), ["red", "blue"])
    assert game.active_hex == B


def test_players_are_distinct_known_colours_two_to_five():
    map = flowers(())
    assert COLOURS == ("red", "blue", "yellow", "green", "purple")
    for players in (["red"], list(COLOURS) + ["red"], ["red", "red"], ["red", "pink"]):
        with pytest.raises(ValueError):
            Game(map, players)
    assert Game(map, list(COLOURS)).players == COLOURS


def test_two_doubles_per_player_singles_unlimited():
    game = Game(flowers((), (), (), ()), ["red", "blue"])  # 24 ice hexes
    play(game, "double 1,0", "scout", "double 1,-1")
    assert game.doubles_left("red") == 0 and game.doubles_left("blue") == 2
    assert not any(a.double for a in game.legal_actions() if isinstance(a, Place))
    with pytest.raises(IllegalActionError, match="red has no doubles left"):
        game.apply(parse_action("double 0,-1"))
    # Blue scouts every round; red places all 22 other tokens as singles (more than 18).
    assert one_player_fills(game, "red") == 22
    assert set(game.tokens.values()) == {("red", False), ("red", True)}
    assert len(game.tokens) == 24


# -- Turns and rounds -----------------------------------------------------------------


def test_place_goes_to_back_of_active_track():
    game = Game(flowers(()), ["red", "blue", "yellow"])
    play(game, "place 1,0")
    assert game.tracks == (("blue", "yellow", "red"), ())
    assert game.current_player == "blue"


def test_scout_moves_to_back_of_other_track_and_places_no_more_this_round():
    game = Game(flowers((), ()), ["red", "blue", "yellow"])
    play(game, "scout")
    assert game.tracks == (("blue", "yellow"), ("red",))
    play(game, "place 1,0", "scout")
    assert game.tracks == (("blue",), ("red", "yellow"))
    seen = set()
    while game.active_hex == A:
        seen.add(game.current_player)
        play(game, str(game.legal_actions()[0]))
    assert seen == {"blue"}


def test_last_player_placing_forbids_scout():
    game = Game(flowers(()), ["red", "blue"])
    play(game, "scout")
    assert SCOUT not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="last player placing"):
        game.apply(SCOUT)
    # Blue keeps placing, one turn at a time, until the round (here the game) ends.
    for hex in ring(A):
        assert game.current_player == "blue"
        game.apply(Place(hex))
    assert game.is_over


def test_scout_legal_after_placing_earlier_in_round():
    game = Game(flowers(()), ["red", "blue", "yellow"])
    play(game, "place 1,0", "place 1,-1", "place 0,-1")
    assert SCOUT in game.legal_actions()
    play(game, "scout")
    assert game.tracks == (("blue", "yellow"), ("red",))


def test_scout_legal_in_last_round():
    game = Game(flowers((), ()), ["red", "blue"])
    for hex in ring(A):
        game.apply(Place(hex))
    assert game.active_hex == B  # the last round: no other hex has empty ice
    assert SCOUT in game.legal_actions()
    play(game, "scout")
    assert game.tracks == (("blue",), ("red",))


def test_round_ends_immediately_after_the_filling_placement():
    game = Game(flowers((), ()), ["red", "blue"])
    for hex in ring(A)[:5]:
        assert game.apply(Place(hex))[1:] == []
    assert game.active_hex == A
    events = game.apply(Place(ring(A)[5]))  # blue fills the sixth ice hex
    assert events == [Placed("blue", ring(A)[5], False, 2),
                      RoundEnded(B, (("red", "blue"), ()), 0)]
    assert game.active_hex == B and game.current_player == "red"


def test_round_end_scouts_first_in_scouting_order_then_the_others():
    game = Game(flowers((), ()), ["red", "blue", "yellow", "green"])
    play(game, "place 1,0", "scout", "place 1,-1", "scout")
    assert game.tracks == (("red", "yellow"), ("blue", "green"))
    events = play(game, "place 0,-1", "place -1,0", "place -1,1", "place 0,1")
    # Yellow filled the ring with the track at (red, yellow): scouts blue, green go
    # first, then red and yellow in their current order, on track B.
    assert events[-1] == RoundEnded(B, ((), ("blue", "green", "red", "yellow")), 1)
    assert game.current_player == "blue" and game.active_track == 1
    assert not game.scouted


def test_round_end_without_scouts_keeps_order_next_in_rotation_starts():
    game = Game(flowers((), ()), ["red", "blue", "yellow", "green"])
    events = play(game, *(f"place {q},{r}" for q, r in ring(A)))
    # Placements: red, blue, yellow, green, red, blue; yellow is next in rotation.
    assert events[-1] == RoundEnded(B, (("yellow", "green", "red", "blue"), ()), 0)
    assert game.current_player == "yellow"


def skip_map(extra_ice):
    # #1 at (0,0) with its ring; #2 at (1,1), whose only ice neighbours are (1,0) and
    # (0,1) of that ring, plus ``extra_ice``; #3 at (-3,0) with its own ring.
    water = {A: Water(1), (1, 1): Water(2), (-3, 0): Water(3)}
    return Map(ring(A) + ring((-3, 0)) + extra_ice, water)


def test_next_active_hex_skips_numbered_hexes_with_no_empty_ice():
    game = Game(skip_map([]), ["red", "blue"])
    play(game, *(f"place {q},{r}" for q, r in ring(A)))
    assert game.active_hex == (-3, 0)  # #2's ice was all filled in round 1


def test_next_active_hex_is_lowest_numbered_with_empty_ice():
    game = Game(skip_map([(2, 0)]), ["red", "blue"])  # (2,0) touches #2 only
    play(game, *(f"place {q},{r}" for q, r in ring(A)))
    assert game.active_hex == (1, 1)
    # The round at #2 ends after one placement: its other ice was filled earlier.
    events = play(game, "place 2,0")
    assert events[-1].active_hex == (-3, 0)


def test_game_ends_when_no_water_hex_has_empty_ice():
    game = Game(flowers((2,)), ["red", "blue"])
    events = play(game, *(f"place {q},{r}" for q, r in ring(A)))
    assert game.is_over and game.empty_ice == []
    assert game.active_hex is None and game.current_player is None
    assert game.legal_actions() == ()
    assert isinstance(events[-1], GameEnded) and game.result().finished
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(SCOUT)


# -- Scoring: waddles -----------------------------------------------------------------


def test_waddle_scores_triangular_number_doubles_count_two():
    game = Game(flowers(()), ["red", "blue"])
    one_player_fills(game, "red", doubles=1)
    # One waddle of 5 singles + 1 double = 7 penguins: T(7) = 7*8/2 = 28.
    assert scores(game) == {"red": (28, 0), "blue": (0, 0)}
    [waddle] = game.result().halves[0].waddles
    assert (waddle.size, waddle.points, len(waddle.hexes)) == (7, 28, 6)


def test_waddle_cap_is_8_with_3_to_5_players():
    game = Game(flowers((), ()), ["red", "blue", "yellow"])
    one_player_fills(game, "red")
    # One waddle of 12 (the rings touch at (1,0)-(2,0)): T(8) = 36, not T(12) = 78,
    # and not split into waddles of 8 + 4 (36 + 10).
    assert scores(game)["red"] == (36, 0)
    assert [w.size for w in game.result().halves[0].waddles] == [12]


def test_waddle_cap_is_10_with_2_players():
    game = Game(flowers((), ()), ["red", "blue"])
    one_player_fills(game, "red", doubles=2)
    # One waddle of 10 singles + 2 doubles = 14 penguins: T(10) = 55.
    assert scores(game) == {"red": (55, 0), "blue": (0, 0)}


# -- Scoring: fishing pools -----------------------------------------------------------


def test_pool_strength_counts_a_hex_next_to_two_pool_hexes_once():
    # One pool: #1 (0,0) with fish 3 and #2 (1,0) with fish 5, neighbours of each other.
    # Its 8 ice hexes; (1,-1) and (0,1) touch both water hexes.
    water = {A: Water(1, (3,)), (1, 0): Water(2, (5,))}
    ice = {h for c in water for h in ring(c)} - water.keys()
    game = Game(Map(ice, water), ["red", "blue", "yellow"])
    play(game, "place 1,-1", "place 0,-1", "place -1,0", "place 0,1", "place -1,1")
    assert game.active_hex == (1, 0)
    play(game, "place 2,0", "scout", "place 2,-1", "place 1,1")
    assert game.is_over
    [pool] = game.result().halves[0].pools
    assert pool.fish == (5, 3)
    # Red's two penguins each touch two pool hexes but count once: 2 < 3 = 3.
    assert pool.strengths == {"red": 2, "blue": 3, "yellow": 3}
    assert pool.won == {"red": (3,), "blue": (5,), "yellow": (5,)}
    # Waddles: red (1,-1), (0,1) apart: 2; blue (0,-1), (-1,1), (2,-1) apart: 3;
    # yellow (-1,0) alone 1 + (2,0)-(1,1) adjacent T(2) = 3: 4.
    assert scores(game) == {"red": (2, 3), "blue": (3, 5), "yellow": (4, 5)}


def four_player_pool_game():
    game = Game(flowers((1, 5, 4)), ["red", "blue", "yellow", "green"])
    play(game, "double 1,0", "double 1,-1", "double 0,-1", "place -1,0", "place -1,1",
         "place 0,1")
    return game


def test_pool_strength_counts_a_double_as_two():
    [pool] = four_player_pool_game().result().halves[0].pools
    # red double + single, blue double + single, yellow double, green single.
    assert pool.strengths == {"red": 3, "blue": 3, "yellow": 2, "green": 1}


def test_pool_ranked_groups_friendly_tie_uses_one_fish():
    game = four_player_pool_game()
    [pool] = game.result().halves[0].pools
    # Fish 5, 4, 1. Red and blue tie at 3: both score 5; yellow (2) the next fish, 4;
    # green (1) the last, 1.
    assert pool.won == {"red": (5,), "blue": (5,), "yellow": (4,), "green": (1,)}
    # Waddles: red double 3 + single 1; blue the same; yellow double 3; green 1.
    assert scores(game) == {"red": (4, 5), "blue": (4, 5), "yellow": (3, 4), "green": (1, 1)}


def test_tied_totals_share_the_victory():
    result = four_player_pool_game().result()
    # Totals: red 9, blue 9, yellow 7, green 2.
    assert result.winners == ("red", "blue")


def test_pool_leftover_fish_unscored_and_strength_zero_scores_nothing():
    game = Game(flowers((2, 5, 1, 4)), ["red", "blue", "yellow"])
    play(game, "double 1,0", "place 1,-1", "scout", "place 0,-1", "place -1,0",
         "place -1,1", "place 0,1")
    assert game.is_over
    [pool] = game.result().halves[0].pools
    assert pool.fish == (5, 4, 2, 1)
    assert pool.strengths == {"red": 4, "blue": 3, "yellow": 0}
    # Red 5, blue 4; fish 2 and 1 are left unscored, yellow (strength 0) gets none.
    assert pool.won == {"red": (5,), "blue": (4,), "yellow": ()}
    # Waddles: red double T(2) = 3 + two lone singles = 5; blue three lone singles = 3.
    assert scores(game) == {"red": (5, 5), "blue": (3, 4), "yellow": (0, 0)}
    assert game.result().winners == ("red",)


def test_two_players_stronger_scores_all_fish():
    game = Game(flowers((3, 2)), ["red", "blue"])
    play(game, "double 1,0", "place 1,-1", "place 0,-1", "place -1,0", "place -1,1",
         "place 0,1")
    # Strength red 4, blue 3: red scores 3 + 2 = 5. Waddles: red 3 + 1 + 1, blue 3.
    assert scores(game) == {"red": (5, 5), "blue": (3, 0)}


def test_two_players_tie_both_score_all_fish():
    game = Game(flowers((3, 2)), ["red", "blue"])
    play(game, *(f"place {q},{r}" for q, r in ring(A)))
    # Strength 3 each: both score 3 + 2 = 5. Six lone penguins: 3 each.
    assert scores(game) == {"red": (3, 5), "blue": (3, 5)}
    assert game.result().winners == ("red", "blue")


@pytest.mark.parametrize("players", [["red", "blue"], ["red", "blue", "yellow"]])
def test_pool_with_strength_zero_everywhere_scores_nothing(players):
    # An unnumbered water hex far away with a fish of 9 and no ice around it.
    game = Game(flowers((3,), extra_water={(10, 10): Water(None, (9,))}), players)
    assert all(s.total == 0 for s in game.result().scores.values())
    one_player_fills(game, "red")
    # Red alone at the flower: T(6) = 21 and its fish 3; nobody scores the 9.
    assert scores(game)["red"] == (21, 3)
    assert sum(s.pools for s in game.result().scores.values()) == 3


def test_highest_total_wins_and_winners_empty_until_the_end():
    game = Game(flowers((3, 2)), ["red", "blue"])
    play(game, "double 1,0", "place 1,-1", "place 0,-1", "place -1,0", "place -1,1")
    result = game.result()
    # Live: red 3 + 1 + 1 = 5 and pools 5 (strength 4 to 2); blue 2 lone = 2.
    assert not result.finished and result.winners == () and result.leaders == ("red",)
    assert scores(game) == {"red": (5, 5), "blue": (2, 0)}
    play(game, "place 0,1")
    assert game.result().winners == ("red",)  # 10 to 3


def test_live_totals_equal_the_live_score():
    game = Game(flowers((3, 2)), ["red", "blue"])
    play(game, "double 1,0", "place 1,-1", "place 0,-1")
    # Red: double at (1,0) T(2) = 3, single at (0,-1) 1; pool strength 3 to 1: 5.
    assert game.live_totals() == [9, 1]
    assert [s.total for s in game.result().scores.values()] == [9, 1]


# -- Mirror match ---------------------------------------------------------------------

MIRROR_FIRST_HALF = (
    # Round at #1 (0,0), then at #2 (3,0); no scouts, players red, blue, yellow.
    "double 1,0", "place 1,-1", "place 0,-1", "double -1,0", "place -1,1", "place 0,1",
    "place 4,0", "place 4,-1", "place 3,-1", "place 2,0", "place 2,1", "place 3,1",
)
MIRROR_SECOND_HALF = (
    # Round at #2 (3,0), then at #1 (0,0); order yellow, blue, red.
    "place 4,0", "place 4,-1", "place 3,-1", "place 2,0", "place 2,1", "place 3,1",
    "place 1,0", "place 1,-1", "place 0,-1", "place -1,0", "place -1,1", "place 0,1",
)


def mirror_game():
    # #3 at (10,10) is the highest number but has no ice: skipped in the second half.
    map = flowers((3,), (2,), extra_water={(10, 10): Water(3, (9,))})
    return Game(map, ["red", "blue", "yellow"], mirror_match=True)


# Half 1 by hand. Waddles: red (1,0)d + (2,0) T(3) = 6, (-1,0)d T(2) = 3, (4,0) 1: 10;
# blue and yellow 4 lone singles each: 4. Pool #1 (fish 3): red 4, blue 2, yellow 2:
# red 3. Pool #2 (fish 2): 2 each, tie: all 2. Half 1: red 10+5, blue 4+2, yellow 4+2.
HALF_1 = {"red": (10, 5), "blue": (4, 2), "yellow": (4, 2)}


def test_mirror_first_half_scored_then_board_cleared():
    game = mirror_game()
    events = play(game, *MIRROR_FIRST_HALF)
    half_ended = events[-2]
    assert isinstance(half_ended, HalfEnded) and half_ended.half == 1
    assert {p: (s.waddles, s.pools) for p, s in half_ended.sheet.scores.items()} == HALF_1
    assert game.half == 2 and not game.is_over
    assert game.tokens == {} and len(game.empty_ice) == 12


def test_mirror_doubles_reset_for_second_half():
    game = mirror_game()
    play(game, *MIRROR_FIRST_HALF[:-1])
    assert game.doubles_left("red") == 0
    play(game, MIRROR_FIRST_HALF[-1])
    assert [game.doubles_left(p) for p in game.players] == [2, 2, 2]


def test_mirror_second_half_goes_from_highest_numbered_down():
    game = mirror_game()
    events = play(game, *MIRROR_FIRST_HALF)
    assert events[-1].active_hex == B == game.active_hex  # #3 has no ice: #2 first
    play(game, *MIRROR_SECOND_HALF[:6])
    assert game.active_hex == A


def test_mirror_second_half_opening_order_is_reversed():
    game = mirror_game()
    events = play(game, *MIRROR_FIRST_HALF)
    assert events[-1] == RoundEnded(B, (("yellow", "blue", "red"), ()), 0)
    assert game.tracks == (("yellow", "blue", "red"), ())


def test_mirror_result_is_sum_of_halves_with_both_breakdowns():
    game = mirror_game()
    play(game, *MIRROR_FIRST_HALF)
    events = play(game, *MIRROR_SECOND_HALF)
    assert game.is_over
    # Half 2 is half 1 without doubles and with red and yellow swapped: yellow
    # (4,0), (2,0)-(1,0) T(2), (-1,0): 5; blue 4; red 4. Every pool a 2-2-2 tie: 3 + 2.
    half_2 = {"red": (4, 5), "blue": (4, 5), "yellow": (5, 5)}
    result = game.result()
    assert [{p: (s.waddles, s.pools) for p, s in h.scores.items()} for h in result.halves] \
        == [HALF_1, half_2]
    # Totals: red 15 + 9 = 24, blue 6 + 9 = 15, yellow 6 + 10 = 16.
    assert scores(game) == {"red": (14, 10), "blue": (8, 7), "yellow": (9, 7)}
    assert result.winners == ("red",)
    assert events[-1] == GameEnded(result.scores, ("red",), result.halves)


def test_copy_is_independent_across_mirror_halves(fingerprint):
    game = mirror_game()
    play(game, *MIRROR_FIRST_HALF)
    before = fingerprint(game)
    other = game.copy()
    other.pop()
    other.pop()
    assert fingerprint(game) == before


# -- Illegal actions ------------------------------------------------------------------

ILLEGAL = [
    ((), "place 9,9", "hex 9,9 is not on the map"),
    ((), "place 0,0", "hex 0,0 is water"),
    (("place 1,0",), "place 1,0", "ice hex 1,0 already holds a penguin"),
    ((), "place 4,0", "ice hex 4,0 is not next to the active hex 0,0"),
    (("double 1,0", "place 1,-1", "double 0,-1", "place -1,0"), "double -1,1",
     "red has no doubles left"),
    (("scout",), "scout", "last player placing"),
    (tuple(f"place {q},{r}" for c in (A, B) for q, r in ring(c)), "scout", "the game is over"),
]


@pytest.mark.parametrize("before, action, rule", ILLEGAL, ids=[r for *_, r in ILLEGAL])
def test_illegal_action_raises_naming_the_rule(before, action, rule, fingerprint):
    game = Game(flowers((), ()), ["red", "blue"])
    play(game, *before)
    state = fingerprint(game)
    with pytest.raises(IllegalActionError, match=rule) as caught:
        game.apply(parse_action(action))
    assert isinstance(caught.value, ValueError)
    assert not game.is_legal(parse_action(action))
    assert fingerprint(game) == state


# -- Actions, undo and events ---------------------------------------------------------


@pytest.mark.parametrize("action, text, record", [
    (Place((1, -1)), "place 1,-1", {"type": "place", "hex": [1, -1], "double": False}),
    (Place((-12, 3), True), "double -12,3", {"type": "place", "hex": [-12, 3], "double": True}),
    (SCOUT, "scout", {"type": "scout"}),
])
def test_action_text_and_record_forms_round_trip(action, text, record):
    assert str(action) == text and parse_action(text) == action
    assert action.to_dict() == record and action_from_dict(record) == action
    assert parse_action(f"  {text.replace(' ', '  ')} ") == action


@pytest.mark.parametrize("text", ["", "place", "place 1", "place a,b", "scout 1,0", "pass"])
def test_bad_action_text_raises_value_error(text):
    with pytest.raises(ValueError, match="not a"):
        parse_action(text)


def test_pop_restores_the_state_exactly(fingerprint):
    game = mirror_game()
    # Scouts, round ends, doubles, the half's end and the game's end.
    moves = ("scout",) + MIRROR_FIRST_HALF[:-1] + ("double 3,1", "scout") + MIRROR_SECOND_HALF
    for text in moves:
        before = fingerprint(game)
        action = parse_action(text)
        game.check(action)
        game.push(action)
        after = fingerprint(game)
        assert game.pop() == action
        assert fingerprint(game) == before
        game.apply(action)
        assert fingerprint(game) == after
    assert game.is_over


def test_events_in_documented_order_with_their_content():
    game = Game(flowers((4,), ()), ["red", "blue"])
    assert game.apply(parse_action("double 1,0")) == [Placed("red", (1, 0), True, 1)]
    assert game.apply(SCOUT) == [Scouted("blue")]
    events = play(game, *(f"place {q},{r}" for q, r in ring(A)[1:]))
    assert events[-2:] == [Placed("red", (0, 1), False, 1),
                           RoundEnded(B, ((), ("blue", "red")), 1)]
    events = play(game, *(f"place {q},{r}" for q, r in ring(B)))
    result = game.result()
    # Round at (3,0): blue, red alternate; red takes (4,-1), (2,0) and (3,1). Red's ring
    # of (0,0) (7 penguins) joins (2,0) at (1,0): 8 -> T(8) = 36, plus 2 lone: 38; and
    # the fish 4 (strength 7 to 0). Blue: 3 lone penguins.
    assert events[-3:] == [Placed("red", (3, 1), False, 1), RoundEnded(None, ((), ("blue", "red")), 1),
                           GameEnded(result.scores, ("red",), result.halves)]
    assert scores(game) == {"red": (38, 4), "blue": (3, 0)}
    for event in events:
        assert json.loads(json.dumps(event.to_dict()))["type"] in (
            "placed", "round_ended", "game_ended")
