"""Property tests of Waddle Downtown: random games, checked at every step.

Each example deals a game (2 to 4 players, per-player decks or the single deck, a random
seed) and plays it out with random and greedy bots, checking after every action: the
penguins are conserved and no place holds more than 5; the cards add up; every play kept
the play restriction; the game ends after the right number of rounds or a decided
tie-break; the optimiser finds each block's best play; a bot's position holds no other
seat's hand and no deck's order; the record replays the game. (That every audience's view
follows its redacted events and none shows what its audience may not know is checked for
every game by tests/test_ruleset_contract.py.)
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from property_kit import examples

from waddle.downtown.actions import Add, Play
from waddle.downtown.best import make, options
from waddle.downtown.board import ROUNDS
from waddle.downtown.events import GameEnded, RoundEnded, TieBreak
from waddle.downtown.legal import legal_actions
from waddle.downtown.options import DowntownOptions
from waddle.downtown.ruleset import RULESET
from waddle.downtown.state import PLAY, UNKNOWN

PROPERTY = settings(max_examples=examples(60))
LABELS = ("blue", "green", "purple", "cyan")
games = st.tuples(st.integers(2, 4), st.booleans(), st.integers(0, 10**6))


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


def check_positions(match):
    """What a bot of each seat thinks on holds no card its seat may not know (the views
    and events are checked for every game by tests/test_ruleset_contract.py)."""
    for seat in range(len(match.labels)):
        state = match.position(seat).state
        assert state.hands[seat] == match.state.hands[seat]
        assert all(c == UNKNOWN for s in range(len(match.labels)) if s != seat for c in state.hands[s])
        assert all(c == UNKNOWN for deck in state.decks for c in deck)


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
        check_positions(match)
        if match.state.phase == PLAY and match.state.current is not None:
            assert match.state.hands[match.state.current]
    check_end(match, all_events)
    loaded = RULESET.load(json.loads(json.dumps(match.record())))
    assert loaded.view(None) == match.view(None) and loaded.record() == match.record()


@settings(max_examples=examples(5))  # a whole game per example, each block searched
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
