"""Property tests: random legal play on random maps, checked against a reference model.

The reference (:class:`Reference`) restates RULES.md as plainly as possible, with lists
and dicts and no shared code with the engine, so that every random game checks the
engine's turn order, active hex, legal actions and scores.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from property_kit import examples

from waddle import (
    COLOURS,
    SCOUT,
    Game,
    GameEnded,
    HalfEnded,
    Map,
    Place,
    RoundEnded,
    Scout,
    Water,
)
from waddle.hex.hexgrid import DIRECTIONS
from waddle.hex.record import from_record, to_record
from waddle.hex.tiles import standard_map

PROPERTY = settings(max_examples=examples(100))


def around(hex):
    return [(hex[0] + dq, hex[1] + dr) for dq, dr in DIRECTIONS]


def random_map(rng: random.Random) -> Map:
    """A random connected map of 4 to 22 hexes where every ice hex touches numbered water."""
    while True:
        size = rng.randint(4, 22)
        cells, seen = [(0, 0)], {(0, 0)}
        while len(cells) < size:
            hex = rng.choice(around(rng.choice(cells)))
            if hex not in seen:
                seen.add(hex)
                cells.append(hex)
        numbers = rng.sample(range(1, 3 * size), size)
        water = {}
        for hex, number in zip(cells, numbers):
            if rng.random() < 0.35:
                fish = tuple(rng.choices(range(1, 6), k=rng.randint(0, 3)))
                water[hex] = Water(number if rng.random() < 0.75 else None, fish)
        for hex, number in zip(cells, numbers):
            if hex not in water and not any(
                    n in water and water[n].number is not None for n in around(hex)):
                water[hex] = Water(number, (rng.randint(1, 5),))
        ice = [h for h in cells if h not in water]
        if ice:
            return Map(ice, water)


class Reference:
    """RULES.md, restated plainly: the position after each action and the score."""

    def __init__(self, map: Map, players, mirror: bool) -> None:
        self.ice = set(map.ice)
        self.water = {h: (w.number, w.fish) for h, w in map.water.items()}
        self.players = list(players)
        self.mirror = mirror
        self.boards = []
        self.over = False
        self.start_half(0, list(players))

    def start_half(self, half, order):
        self.half = half
        self.tokens = {}
        self.doubles = dict.fromkeys(self.players, 2)
        self.tracks = [order, []]
        self.at = 0
        self.scouted = False
        self.active = self.next_active()

    def empty_around(self, hex):
        return [n for n in around(hex) if n in self.ice and n not in self.tokens]

    def next_active(self):
        numbered = sorted(((w[0], h) for h, w in self.water.items() if w[0] is not None),
                          reverse=self.half == 1)
        return next((h for _, h in numbered if self.empty_around(h)), None)

    def legal(self):
        if self.over:
            return set()
        track = self.tracks[self.at]
        out = {Place(h, False) for h in self.empty_around(self.active)}
        if self.doubles[track[0]]:
            out |= {Place(h, True) for h in self.empty_around(self.active)}
        if len(track) > 1:
            out.add(SCOUT)
        return out

    def play(self, action):
        track = self.tracks[self.at]
        player = track.pop(0)
        if isinstance(action, Scout):
            self.tracks[1 - self.at].append(player)
            self.scouted = True
            return
        self.tokens[action.hex] = (player, action.double)
        self.doubles[player] -= action.double
        track.append(player)
        if self.empty_around(self.active):
            return
        if self.scouted:
            self.tracks[1 - self.at] += track
            self.tracks[self.at] = []
            self.at = 1 - self.at
            self.scouted = False
        self.active = self.next_active()
        if self.active is None:
            self.boards.append(self.tokens)
            if self.mirror and self.half == 0:
                self.start_half(1, self.players[::-1])
            else:
                self.over = True

    def score(self):
        """``{player: [waddles, pools]}``, both halves added."""
        out = {p: [0, 0] for p in self.players}
        for tokens in self.boards + ([] if self.over else [self.tokens]):
            for p, (waddles, pools) in self.score_board(tokens).items():
                out[p][0] += waddles
                out[p][1] += pools
        return out

    def score_board(self, tokens):
        weight = {h: 2 if double else 1 for h, (_, double) in tokens.items()}
        cap = 10 if len(self.players) == 2 else 8
        out = {p: [0, 0] for p in self.players}
        for group in self.groups(tokens, lambda a, b: tokens[a][0] == tokens[b][0]):
            n = min(sum(weight[h] for h in group), cap)
            out[tokens[group[0]][0]][0] += n * (n + 1) // 2
        for pool in self.groups(self.water, lambda a, b: True):
            fish = sorted((f for h in pool for f in self.water[h][1]), reverse=True)
            shore = {n for h in pool for n in around(h) if n in tokens}
            strength = {p: sum(weight[h] for h in shore if tokens[h][0] == p) for p in self.players}
            if len(self.players) == 2:
                best = max(strength.values())
                for p in self.players:
                    if best and strength[p] == best:
                        out[p][1] += sum(fish)
                continue
            levels = sorted({s for s in strength.values() if s}, reverse=True)
            for value, level in zip(fish, levels):
                for p in self.players:
                    if strength[p] == level:
                        out[p][1] += value
        return out

    @staticmethod
    def groups(hexes, same):
        seen, out = set(), []
        for start in hexes:
            if start in seen:
                continue
            group, todo = [start], [start]
            seen.add(start)
            while todo:
                for n in around(todo.pop()):
                    if n in hexes and n not in seen and same(start, n):
                        seen.add(n)
                        group.append(n)
                        todo.append(n)
            out.append(group)
        return out


def check_against_reference(game: Game, ref: Reference, events) -> None:
    assert game.is_over == ref.over
    assert set(game.legal_actions()) == ref.legal()
    assert len(set(game.legal_actions())) == len(game.legal_actions())
    if not ref.over:
        assert game.active_hex == ref.active
        assert game.half == ref.half + 1
        assert game.active_track == ref.at
        assert game.tracks == tuple(tuple(t) for t in ref.tracks)
        assert game.tokens == ref.tokens
    assert all(0 <= game.doubles_left(p) <= 2 for p in game.players)
    expected = ref.score()
    result = game.result()
    assert {p: [s.waddles, s.pools] for p, s in result.scores.items()} == expected
    assert game.live_totals() == [s.total for s in result.scores.values()]
    for event in events:
        if isinstance(event, HalfEnded):
            assert sum(len(w.hexes) for w in event.sheet.waddles) == len(ref.ice)
        if isinstance(event, RoundEnded):
            assert event.active_hex == game.active_hex
        if isinstance(event, GameEnded):
            assert event.scores == result.scores and event.winners == result.winners
    json.dumps([e.to_dict() for e in events])


def random_game(seed: int, players: int, mirror: bool) -> tuple[Game, random.Random]:
    rng = random.Random(seed)
    return Game(random_map(rng), COLOURS[:players], mirror_match=mirror), rng


games = dict(seed=st.integers(0, 2**32), players=st.integers(2, 5), mirror=st.booleans())


@PROPERTY
@given(**games)
def test_random_play_follows_the_reference_rules_and_ends_full(seed, players, mirror, fingerprint):
    game, rng = random_game(seed, players, mirror)
    ref = Reference(game.map, game.players, mirror)
    fast = Game(game.map, game.players, mirror_match=mirror)
    limit = (len(game.map.ice) + 5 * len(game.map.water)) * (1 + mirror) * players
    for _ in range(limit):
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        events = game.apply(action)
        ref.play(action)
        fast.push(action)
        check_against_reference(game, ref, events)
        assert fingerprint(fast) == fingerprint(game)
    assert game.is_over and game.empty_ice == []
    assert len(game.result().halves) == 1 + mirror and game.result().winners
    text = json.dumps(to_record(game, seed=seed))
    assert fingerprint(from_record(json.loads(text))) == fingerprint(game)


@PROPERTY
@given(**games)
def test_pop_after_any_action_restores_the_state(seed, players, mirror, fingerprint):
    game, rng = random_game(seed, players, mirror)
    while not game.is_over:
        before = fingerprint(game)
        for action in game.legal_actions():
            game.push(action)
            game.pop()
            assert fingerprint(game) == before
        game.push(rng.choice(game.legal_actions()))
    while len(game):
        game.pop()
    assert fingerprint(game) == fingerprint(Game(game.map, game.players, mirror_match=mirror))


@PROPERTY
@given(**games)
def test_legal_actions_are_exactly_the_actions_check_accepts(seed, players, mirror):
    game, rng = random_game(seed, players, mirror)
    candidates = [SCOUT] + [Place(h, d) for h in game.map.hexes | {(99, 99)} for d in (False, True)]
    while True:
        legal = set(game.legal_actions())
        assert {a for a in candidates if game.is_legal(a)} == legal
        if game.is_over:
            break
        game.apply(rng.choice(sorted(legal, key=str)))


@settings(max_examples=examples(8))
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), mirror=st.booleans())
def test_random_play_on_standard_maps_follows_the_reference(seed, players, mirror):
    rng = random.Random(seed)
    game = Game(standard_map(players, seed), COLOURS[:players], mirror_match=mirror)
    ref = Reference(game.map, game.players, mirror)
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        events = game.apply(action)
        ref.play(action)
        check_against_reference(game, ref, events)
    assert ref.over and game.empty_ice == []
