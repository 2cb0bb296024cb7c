"""Waddle Downtown behind the ruleset interface: options, matches, views, secrets, records, bots."""

from __future__ import annotations

import json
import random

import msgspec
import pytest
from downtown_kit import DECK, add, play, position

from waddle.downtown.actions import Discard, Play, action_from_dict
from waddle.downtown.events import DiscardChosen, Drew, Event
from waddle.downtown.options import BundledDeck, DowntownOptions, FileDeck
from waddle.downtown.position import Position
from waddle.downtown.record import FORMAT
from waddle.downtown.ruleset import RULESET, DowntownMatch, outcome
from waddle.downtown.state import UNKNOWN
from waddle.downtown.viewdata import DowntownViewData
from waddle.errors import IllegalActionError, RecordError, ViewError
from waddle.ruleset import BUILT_IN, Prepared, get_ruleset, ruleset_of_record

LABELS = ("blue", "green", "purple", "cyan")


def label(match, audience):
    """The seat label of ``audience`` (``None``: the spectators), as a client passes it."""
    return None if audience is None else match.labels[audience]


def new_match(players=2, seed=1, single=False) -> DowntownMatch:
    options = DowntownOptions(single_deck=single)
    return RULESET.new_match(RULESET.prepare(options, players, seed), options, LABELS[:players])


def play_out(match, kind="greedy", stop=None):
    """Play ``match`` with one bot of ``kind`` per seat (lowest seat first) until over
    or ``stop`` actions; return every action's events."""
    bots = [RULESET.make_bot(kind, seat) for seat in range(len(match.labels))]
    out = []
    while not match.is_over and (stop is None or len(match) < stop):
        seat = min(match.to_act())
        out.append(match.apply(seat, bots[seat].choose(match.position(seat))))
    return out


def test_the_ruleset_is_registered_as_downtown():
    assert BUILT_IN["downtown"] == "waddle.downtown.ruleset"
    ruleset = get_ruleset("downtown")
    assert ruleset is RULESET and ruleset.title == "Waddle Downtown" and ruleset.players == (2, 4)
    assert ruleset.bots == ("random", "greedy", "search") and ruleset.record_format == FORMAT
    assert ruleset.options_type is DowntownOptions and ruleset.view_type is DowntownViewData
    assert ruleset_of_record({"format": "waddle-downtown-record"}) is RULESET


def test_options_travel_as_json():
    options = DowntownOptions(single_deck=True)
    assert msgspec.to_builtins(options) == {"single_deck": True, "deck": {"kind": "bundled"}}
    assert msgspec.convert({"deck": {"kind": "file", "path": "d.toml"}}, DowntownOptions) == \
        DowntownOptions(deck=FileDeck("d.toml"))
    assert DowntownOptions().deck == BundledDeck()


def test_prepare_keeps_the_host_seed_or_draws_one():
    assert RULESET.prepare(DowntownOptions(), 2, 42).seed == 42
    seed = RULESET.prepare(DowntownOptions(), 2, None).seed
    assert isinstance(seed, int) and RULESET.prepare(DowntownOptions(), 2, None).data == DECK


def test_the_same_seed_deals_the_same_game():
    assert new_match(3, 8).record() == new_match(3, 8).record()
    assert new_match(3, 8).record()["shuffle"] != new_match(3, 9).record()["shuffle"]


def test_a_seat_sees_its_own_hand_only_and_a_spectator_none():
    match = new_match(3, 4)
    state = match.state
    for seat in range(3):
        view = match.view(seat)
        assert view.hand == tuple(state.name(c) for c in state.hands[seat])
        assert [s.hand for s in view.seats] == [5, 6, 6] and [s.deck for s in view.seats] == [8, 7, 7]
    assert match.view(None).hand == () and match.view(None).audience is None
    assert all(c == UNKNOWN for hand in (0, 2) for c in match.position(1).state.hands[hand])


def test_redaction_hides_a_deck_draw_and_a_setup_discard_from_the_others():
    match = new_match(3, 2)
    card = match.state.name(match.state.hands[2][0])
    events = match.apply(2, Discard(card))
    assert match.redact(events, 2) == [DiscardChosen(2, card)]
    assert match.redact(events, 1) == match.redact(events, None) == [DiscardChosen(2, None)]
    assert match.view(2).discard == card and match.view(1).discard is None
    assert match.view(1).seats[2].discarded and match.view(1).seats[2].pile == ()
    for events in play_out(match, stop=8):
        for event in match.redact(events, 0):
            if isinstance(event, Drew) and event.source == "deck" and event.seat != 0:
                assert event.card is None
    assert match.redact([], 1) == []


def test_a_view_refuses_events_out_of_step_and_stays_unchanged():
    match = new_match(2, 3)
    view = RULESET.follow(match.view(0), match.labels[0])
    events = play_out(match, stop=2)
    before = view.data()
    with pytest.raises(ViewError):
        view.apply(match.redact(events[1], 0))
    with pytest.raises(ViewError, match="start with discard_chosen, played"):
        view.apply([])
    assert view.data() == before
    view.apply(match.redact(events[0], 0))
    view.apply(match.redact(events[1], 0))
    assert view.data() == match.view(0)


def test_follow_refuses_data_that_is_not_a_downtown_view():
    data = new_match(2, 3).view(0)
    with pytest.raises(ViewError, match="for audience 0, not 1"):
        RULESET.follow(data, data.players[1])
    with pytest.raises(ViewError, match="not a view of a Waddle Downtown game"):
        RULESET.follow(msgspec.structs.replace(data, places=data.places[:3]), data.players[0])


def test_events_and_actions_have_a_json_form_with_a_type():
    match = new_match(2, 3)
    for events in play_out(match):
        for event in events:
            form = event.to_dict()
            assert "type" in form and msgspec.convert(form, Event) == event
    seat, action = match.actions[-1]
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action


def test_the_view_lists_its_legal_actions_lazily_and_previews_a_play():
    match = new_match(2, 1)
    play_out(match, stop=1)
    view = RULESET.follow(match.view(0), match.labels[0])
    actions = view.legal_actions()
    assert len(actions) > 1000 and actions[len(actions) - 1] == list(actions)[-1]
    some = actions[len(actions) // 2]
    assert isinstance(some, Play) and some in actions and match.state.is_legal(0, some)
    assert view.preview(some) == match.state.preview(0, some)
    assert RULESET.follow(match.view(1), match.labels[1]).legal_actions() == ()
    assert RULESET.follow(match.view(None), None).legal_actions() == ()


def test_outcome_winners_once_over_and_a_shared_victory_names_both():
    state = position(hands=[["Even", "Odd"], ["Even"]], decks=[[], []], round=8, turn=1, scores=[5, 5])
    assert outcome(state).winners == () and outcome(state).leaders == (0, 1)
    state.apply(1, play("Even", add(state, "ring", P1=(1, 0))))
    assert outcome(state).finished and outcome(state).winners == (0, 1)


def test_match_check_and_apply_refuse_naming_the_rule():
    match = new_match(2, 3)
    with pytest.raises(IllegalActionError, match="blue is the start player"):
        match.apply(0, Discard(match.state.name(match.state.hands[0][0])))
    with pytest.raises(IllegalActionError, match="not an action of Waddle Downtown"):
        match.check(1, "scout")
    with pytest.raises(IllegalActionError, match="no seat 7"):
        match.check(7, Discard("Even"))
    assert len(match) == 0


# -- Records --------------------------------------------------------------------------


def test_a_record_has_the_documented_fields():
    match = new_match(2, 7)
    play_out(match, stop=3)
    record = match.record(host="x")
    assert list(record) == ["format", "version", "players", "options", "seed", "deck", "shuffle",
                            "actions", "host"]
    assert record["format"] == "waddle-downtown-record" and record["version"] == 1
    assert record["players"] == ["blue", "green"] and record["options"] == {"single_deck": False}
    assert record["seed"] == 7 and len(record["deck"]) == 13 and len(record["shuffle"]) == 2
    assert [a["seat"] for a in record["actions"]] == [1, 0, 1]


def test_a_record_that_stops_early_gives_that_position_and_the_seed_alone_deals():
    match = new_match(2, 5)
    play_out(match, stop=5)
    record = match.record()
    del record["shuffle"]
    loaded = RULESET.load(record)
    assert loaded.view(0) == match.view(0) and not loaded.is_over and loaded.outcome().winners == ()


def _bad(record, **changes):
    out = dict(record)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


@pytest.mark.parametrize(("change", "message"), [
    ({"players": ["blue", "red"]}, "game.json: players: expected 2 to 4 different colours"),
    ({"players": ["blue"]}, "game.json: players: expected 2 to 4"),
    ({"options": {"single_deck": "no"}}, "game.json: options.single_deck must be true or false"),
    ({"seed": 8}, "game.json: shuffle: not the shuffle that seed 8 deals"),
    ({"seed": None, "shuffle": None}, "game.json: shuffle: a record without a seed must give the shuffle"),
    ({"seed": None, "shuffle": [["Even"], ["Odd"]]}, "game.json: shuffle: the shuffle must be one deck per player"),
    ({"seed": None, "shuffle": [["Evens"]]}, "game.json: shuffle: no card 'Evens' in the deck"),
    ({"shuffle": "abc"}, "game.json: shuffle: expected a list of deck orders"),
    ({"deck": []}, "game.json: deck: a deck has 13 cards, this one 0"),
])
def test_a_bad_record_is_refused_naming_the_source_the_place_and_the_problem(change, message):
    record = new_match(2, 7).record()
    with pytest.raises(RecordError, match=message):
        RULESET.load(_bad(record, **change), source="game.json")


def test_a_record_with_a_bad_deck_card_names_it():
    record = new_match(2, 7).record()
    record["deck"][3]["rule"] = "lots"
    with pytest.raises(RecordError, match=r"game.json: deck: card 4 \(More Red\): rule: expected one of"):
        RULESET.load(record, source="game.json")


def test_a_record_with_an_illegal_or_malformed_action_is_refused_with_its_index():
    match = new_match(2, 7)
    play_out(match, stop=4)
    record = match.record()
    record["actions"][2] = {**record["actions"][2], "seat": 0}
    with pytest.raises(RecordError, match=r"game.json: actions\[2\]: .* by blue is illegal: it is green's turn"):
        RULESET.load(record, source="game.json")
    record["actions"][2] = {"type": "fly", "seat": 0}
    with pytest.raises(RecordError, match=r"game.json: actions\[2\]: not an action"):
        RULESET.load(record, source="game.json")
    record["actions"][2] = {**match.record()["actions"][2]}
    del record["actions"][2]["seat"]
    with pytest.raises(RecordError, match=r"actions\[2\]: .* needs a 'seat' from 0 to 1, found None"):
        RULESET.load(record, source="game.json")


def test_a_record_seeded_by_prepared_without_a_seed_draws_one():
    match = RULESET.new_match(Prepared(None, DECK), DowntownOptions(), ["blue", "green"])
    assert isinstance(match.seed, int) and RULESET.load(match.record()).view(None) == match.view(None)


# -- Bots ------------------------------------------------------------------------------------


def test_make_bot_refuses_an_unknown_kind_and_bad_options():
    with pytest.raises(ValueError, match="unknown bot 'clever': expected one of random, greedy, search"):
        RULESET.make_bot("clever")
    with pytest.raises(ValueError, match="bad options for the greedy bot"):
        RULESET.make_bot("greedy", 1, seconds=1)
    with pytest.raises(ValueError, match="needs a time budget, an iteration budget or both"):
        RULESET.make_bot("search", 1, seconds=None)
    with pytest.raises(ValueError, match="must be positive, not 0"):
        RULESET.make_bot("search", 1, iterations=0)
    with pytest.raises(ValueError, match="finite number of seconds"):
        RULESET.make_bot("search", 1, seconds=float("nan"))


@pytest.mark.parametrize("kind", ["random", "greedy", "search"])
def test_every_bot_is_seeded_and_leaves_its_position_as_it_was(kind):
    def game(seed):
        match = new_match(3, seed, single=seed % 2 == 1)
        options = {"seconds": None, "iterations": 3} if kind == "search" else {}
        bots = [RULESET.make_bot(kind, seed + s, **options) for s in range(3)]
        while not match.is_over:
            seat = min(match.to_act())
            position = match.position(seat)
            action = bots[seat].choose(position)
            assert position.state.hands == match.position(seat).state.hands   # unchanged
            match.apply(seat, action)
        return match.record()
    assert game(4) == game(4)
    game(5)


def test_the_greedy_bot_plays_the_best_immediate_score():
    state = position(board={"P1": (1, 0), "P2": (1, 1)}, hands=[["Full", "Even", "Odd"], []])
    # Full: at best P1 and P2 to 5 (4 + 3 = 7 penguins, 8 in supply): 2 x 2 = 4 points;
    # Even and Odd reach 5 places at most (5 points): Even by adding 1 to P1 and 2 to
    # P3, P4, P5 (7 penguins), Odd by adding 1 to P2, P3, P4, P5 (4): Odd spends fewest.
    action = RULESET.make_bot("greedy", 1).choose(Position(state, 0))
    assert action.card == "Odd" and state.preview(0, action).points == 5
    assert sum(p.red + p.yellow for p in action.act.penguins) == 4


def test_the_greedy_bot_never_discards_the_copy_at_setup():
    for seed in range(6):
        match = new_match(4, seed)
        for seat in (1, 2, 3):
            assert RULESET.make_bot("greedy", seed).choose(match.position(seat)).card != "Copy"


def test_the_search_bot_chooses_for_its_own_seat_among_simultaneous_discards():
    match = new_match(3, 9)
    position = match.position(2)
    action = RULESET.make_bot("search", 3, seconds=None, iterations=20).choose(position)
    assert match.to_act() == {1, 2} and match.state.is_legal(2, action)
    assert match.state.deck.number(action.card) in match.state.hands[2]


def test_a_position_lists_the_seats_legal_actions():
    match = new_match(2, 9)
    assert match.position(1).legal_actions() == tuple(
        Discard(match.state.name(c)) for c in sorted(set(match.state.hands[1])))
    assert match.position(0).legal_actions() == ()


def test_the_search_bot_returns_a_legal_action_within_one_iteration():
    match = new_match(2, 9)
    play_out(match, stop=1)
    bot = RULESET.make_bot("search", 3, seconds=0.0)
    assert match.state.is_legal(0, bot.choose(match.position(0)))


@pytest.mark.parametrize("players", [2, 3])
def test_a_views_position_deals_the_unseen_cards_after_an_opponent_took_a_display_card(players):
    # a view holds a display card an opponent took as itself (the match's position as
    # UNKNOWN): a bot of the client's seat must deal the rest around it
    match = new_match(players, seed=0, single=True)
    views = [RULESET.follow(match.view(s), label(match, s)) for s in range(players)]
    bots = [RULESET.make_bot("greedy", s) for s in range(players)]
    rng, took = random.Random(0), False
    while not match.is_over:
        seat = min(match.to_act())
        for view in views:
            world = view.position().sample(rng)
            assert all(UNKNOWN not in hand for hand in world.hands)
        events = match.apply(seat, bots[seat].choose(match.position(seat)))
        took = took or any(isinstance(e, Drew) and e.source == "display" for e in events)
        for s, view in enumerate(views):
            view.apply(match.redact(events, s))
    assert took
