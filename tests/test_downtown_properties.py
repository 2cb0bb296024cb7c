"""Property tests of Waddle Downtown: random games, checked at every step.

Each example deals a game (2 to 4 players, per-player decks or the single deck, a random
seed) and plays it out with random and greedy bots, checking after every action: the
penguins are conserved and no place holds more than 5; the cards add up; every play kept
the play restriction; the game ends after the right number of rounds or a decided
tie-break; the optimiser finds each block's best play; every audience's view follows the redacted events in step with a fresh view;
no view or redacted event shows an audience another seat's hand, a deck's order or an
unrevealed discard; the record replays the game.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from waddle.downtown.actions import Add, Play
from waddle.downtown.best import make, options
from waddle.downtown.board import ROUNDS
from waddle.downtown.events import DiscardChosen, Drew, GameEnded, RoundEnded, TieBreak
from waddle.downtown.legal import legal_actions
from waddle.downtown.options import DowntownOptions
from waddle.downtown.ruleset import RULESET
from waddle.downtown.state import PLAY, UNKNOWN
from waddle.downtown.viewdata import view_data

PROPERTY = settings(max_examples=60, deadline=None)
LABELS = ("blue", "green", "purple", "cyan")
games = st.tuples(st.integers(2, 4), st.booleans(), st.integers(0, 10**6))


def label(match, audience):
    """The seat label of ``audience`` (``None``: the spectators), as a client passes it."""
    return None if audience is None else match.labels[audience]


def new_match(players, single, seed):
    options = DowntownOptions(single_deck=single)
    return RULESET.new_match(RULESET.prepare(options, players, seed), options, LABELS[:players])


def bots_for(players, seed):
    """Random bots, and one greedy bot so that the boards get busy."""
    return [RULESET.make_bot("greedy" if s == 0 else "random", seed + s) for s in range(players)]


def check_invariants(match):
    state = match.state
    n = state.players
    assert sum(state.red) + sum(state.supply_red) == 4 * n
    assert sum(state.yellow) + sum(state.supply_yellow) == 4 * n
    assert all(min(r, y) >= 0 and r + y <= 5 for r, y in zip(state.red, state.yellow))
    assert min(state.supply_red + state.supply_yellow) >= 0
    pending = [[c] if c is not None else [] for c in state.pending]
    held = [state.hands[s] + state.piles[s] + pending[s] for s in range(n)]
    if state.single:
        everything = Counter(c for cards in held + [state.decks[0], state.display] for c in cards)
        assert everything == Counter({c: n for c in range(13)})
    else:
        assert all(sorted(held[s] + state.decks[s]) == list(range(13)) for s in range(n))
    assert all(state.deck.copy not in deck for deck in state.decks)


def check_play(before, seat, action):
    """The play restriction: no name of an opponent's top card unless every card is one."""
    if not isinstance(action, Play):
        return
    tops = {pile[-1] for s, pile in enumerate(before.piles) if s != seat and pile}
    card = before.deck.number(action.card)
    assert card not in tops or all(c in tops for c in before.hands[seat])


def check_secrets(match, events):
    for audience in (None, *range(len(match.labels))):
        data = match.view(audience)
        assert data.hand == (() if audience is None else
                             tuple(match.state.name(c) for c in match.state.hands[audience]))
        for event in match.redact(events, audience):
            if event.__class__ in (Drew, DiscardChosen) and event.seat != audience:
                assert event.card is None or event.__class__ is Drew and event.source == "display"


def check_end(match, all_events):
    state = match.state
    rounds = ROUNDS[state.players]
    ended = [e.round for e in all_events if isinstance(e, RoundEnded)]
    breaks = [e for e in all_events if isinstance(e, TieBreak)]
    assert ended == list(range(1, rounds + len(breaks) + 1))
    (end,) = [e for e in all_events if isinstance(e, GameEnded)]
    contenders = breaks[-1].seats if breaks else tuple(range(state.players))
    best = max(state.scores[s] for s in contenders)
    assert end.winners == tuple(s for s in contenders if state.scores[s] == best)
    assert end.shared == (len(end.winners) > 1)
    if end.shared:
        assert any(not state.hands[s] for s in end.winners)
    assert match.outcome().winners == end.winners and not match.to_act()


@PROPERTY
@given(games)
def test_random_games_keep_the_rules_at_every_step(game):
    players, single, seed = game
    match = new_match(players, single, seed)
    bots = bots_for(players, seed)
    rng = random.Random(seed)
    all_events = []
    check_invariants(match)
    while not match.is_over:
        seat = rng.choice(sorted(match.to_act()))
        before = match.state.copy()
        action = bots[seat].choose(match.position(seat))
        legal = legal_actions(before, seat)
        assert action in legal
        if len(legal) < 300:
            assert list(legal) == [legal[i] for i in range(len(legal))]
        assert before.is_legal(seat, legal[rng.randrange(len(legal))])
        events = match.apply(seat, action)
        all_events += events
        check_play(before, seat, action)
        check_invariants(match)
        check_secrets(match, events)
        if match.state.phase == PLAY and match.state.current is not None:
            assert match.state.hands[match.state.current]
    check_end(match, all_events)
    loaded = RULESET.load(json.loads(json.dumps(match.record())))
    assert loaded.view(None) == match.view(None) and loaded.record() == match.record()


@settings(max_examples=30, deadline=None)
@given(games)
def test_every_audience_follows_the_redacted_events_in_step(game):
    players, single, seed = game
    match = new_match(players, single, seed)
    bots = bots_for(players, seed)
    audiences = (None, *range(players))
    views = {a: RULESET.follow(match.view(a), label(match, a)) for a in audiences}
    rng = random.Random(seed)
    while not match.is_over:
        seat = rng.choice(sorted(match.to_act()))
        events = match.apply(seat, bots[seat].choose(match.position(seat)))
        for audience in audiences:
            views[audience].apply(match.redact(events, audience))
            expected = match.view(audience)
            assert views[audience].data() == expected
            assert RULESET.follow(expected, label(match, audience)).data() == expected
            assert views[audience].to_act() == match.to_act()


@settings(max_examples=30, deadline=None)
@given(games)
def test_no_view_depends_on_a_card_its_audience_cannot_know(game):
    players, single, seed = game
    match = new_match(players, single, seed)
    bots = bots_for(players, seed)
    rng = random.Random(seed)
    while not match.is_over:
        seat = min(match.to_act())
        match.apply(seat, bots[seat].choose(match.position(seat)))
        for audience in (None, *range(players)):
            known = 0 if audience is None else audience
            world = match.position(known).sample(rng)
            assert view_data(world, audience) == match.view(audience)
            position = match.position(known).state
            assert all(c == UNKNOWN for s in range(players) if s != known for c in position.hands[s])
            assert all(c == UNKNOWN for deck in position.decks for c in deck)


@settings(max_examples=20, deadline=None)
@given(games)
def test_the_optimiser_finds_the_best_play_of_every_block(game):
    players, single, seed = game
    match = new_match(players, single, seed)
    bots = bots_for(players, seed)
    rng = random.Random(seed)
    while not match.is_over:
        seat = min(match.to_act())
        state = match.state
        if state.phase == PLAY and rng.random() < 0.5:
            name = state.name
            for option in options(state, seat):
                play = make(state, option)
                scored = state.preview(seat, play)
                spent = sum(p.red + p.yellow for p in play.act.penguins) if isinstance(play.act, Add) else None
                assert scored.points == option.points and spent in (None, option.spent)
                acts = option.acts.acts
                if len(acts) <= 400:
                    copied = None if option.copied is None else name(option.copied)
                    best = max(state.preview(seat, Play(name(option.card), copied, act)).points for act in acts)
                    assert best == option.points
        match.apply(seat, bots[seat].choose(match.position(seat)))
