"""The ruleset contract (``waddle/ruleset.py``), checked over every registered game.

Whatever a game's rules, its ruleset must: take its options and every player count it
claims and refuse others; give options, views, events and records that travel as JSON;
keep every audience's :class:`~waddle.ruleset.View` in step with the match through the
redacted events (take-backs too, where the game has them) and refuse events out of step;
have bots that play legal actions for whole games; refuse a bad record naming the source,
the place and the problem; and keep secrets per audience: what a seat or a spectator gets
(its view, its events) is the same in every match it cannot tell from the real one
(:meth:`~waddle.ruleset.Match.sample`), and a game without secrets sends everyone the same.

The games are played at their fewest and most players, with their default options and
with each of their yes/no options turned the other way (the hex game's mirror match,
Downtown's single deck), by the levels every game has (one ``medium``, the rest
``easy``). A game's own rules are tested in its own files; a third game is checked here
by registering it. The last tests break a game on purpose and see each check fail.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from protocol.messages import PROTOCOL_VERSION, Settings
from waddle.errors import IllegalActionError, RecordError, ViewError
from waddle.ruleset import LEVELS, Match, Ruleset, rulesets

RULESETS = rulesets()
GAMES = sorted(RULESETS)
#: The most actions a game may last before the check gives up on it.
LONGEST = 5000
#: Seconds a move for a bot that searches (only legality is checked, not strength).
BUDGET = 0.002


def variants(ruleset: Ruleset) -> list[Any]:
    """The game's default options, then each yes/no option turned the other way."""
    default = ruleset.options_type()
    return [default, *(msgspec.structs.replace(default, **{f.name: not getattr(default, f.name)})
                       for f in msgspec.structs.fields(ruleset.options_type) if f.type is bool)]


#: The parameters of a case: the game's name, the players, the number of the options' variant.
CASE = ("game", "players", "options")


def cases() -> list[Any]:
    """``(game, players, options)`` for every game: its fewest and most players, each variant."""
    return [pytest.param(name, players, number, id=f"{name}-{players}p-options{number}")
            for name, ruleset in RULESETS.items() for players in sorted(set(ruleset.players))
            for number in range(len(variants(ruleset)))]


def new_match(ruleset: Ruleset, players: int, options: Any = None, seed: int = 1) -> Match:
    options = ruleset.options_type() if options is None else options
    prepared = ruleset.prepare(options, players, seed)
    ruleset.check_options(options, players, prepared=prepared)
    return ruleset.new_match(prepared, options, [look.label for look in ruleset.seats[:players]])


def match_of(case: tuple[str, int, int], seed: int = 1) -> tuple[Ruleset, Match]:
    name, players, number = case
    ruleset = RULESETS[name]
    return ruleset, new_match(ruleset, players, variants(ruleset)[number], seed)


def audiences(match: Match) -> tuple[int | None, ...]:
    return (None, *range(len(match.labels)))


def label(match: Match, audience: int | None) -> str | None:
    """The label a client passes to :meth:`Ruleset.follow` (``None``: a spectator)."""
    return None if audience is None else match.labels[audience]


def make_bot(ruleset: Ruleset, kind: str, seed: int):
    options = {"seconds": BUDGET} if ruleset.resolve_bot(kind, {})[0] in ruleset.timed_bots else {}
    return ruleset.make_bot(kind, seed, **options)


def moves(match: Match, seed: int, kinds: list[str] | None = None) -> Iterator[tuple[int, Any]]:
    """The next seat and its bot's action, until the match is over (the caller plays
    each): one ``medium`` bot and ``easy`` ones, or a bot of ``kinds`` per seat; a seat
    of those that may act picked at random."""
    ruleset = match.ruleset
    kinds = kinds or ["medium", *["easy"] * (len(match.labels) - 1)]
    bots = [make_bot(ruleset, kind, seed + seat) for seat, kind in enumerate(kinds)]
    rng = random.Random(seed)
    for _ in range(LONGEST):
        if match.is_over:
            return
        seat = rng.choice(sorted(match.to_act()))
        yield seat, bots[seat].choose(match.position(seat))
    raise AssertionError(f"{ruleset.title}: not over after {LONGEST} actions")


def travelled(value: Any, type: Any) -> Any:
    """``value`` after a trip through JSON text, decoded as ``type`` (as the wire does)."""
    return msgspec.json.decode(msgspec.json.encode(value), type=type)


def play_out(match: Match, seed: int = 1, stop: int | None = None) -> Match:
    for seat, action in moves(match, seed):
        if stop is not None and len(match) >= stop:
            break
        match.apply(seat, action)
    return match


# -- options --------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_options_travel_as_json_and_every_player_count_claimed_is_taken(game):
    ruleset = RULESETS[game]
    low, high = ruleset.players
    assert 1 <= low <= high <= len(ruleset.seats)
    for options in variants(ruleset):
        assert travelled(options, ruleset.options_type) == options
        for players in range(low, high + 1):
            ruleset.check_options(options, players)
            settings = msgspec.to_builtins(Settings(players=players, options=options))
            assert ruleset.upgrade_settings(settings, PROTOCOL_VERSION) == settings
        for players in (low - 1, high + 1):
            with pytest.raises(ValueError):
                ruleset.check_options(options, players)


# -- views follow the redacted events -------------------------------------------------


def check_views_follow(match: Match, seed: int = 1) -> None:
    """Play ``match`` out: after each action (and each take-back the game allows, tried
    now and then), every audience's view, fed the redacted events as JSON carried them,
    holds the match's view for it; a view refuses events out of step and stays as it was;
    events travel as JSON, and now and then the view data, followed afresh."""
    ruleset = match.ruleset
    events_type = list[ruleset.event_type]
    views = {a: ruleset.follow(travelled(match.view(a), ruleset.view_type), label(match, a))
             for a in audiences(match)}
    rng = random.Random(seed)

    def tell(events: list[Any], undo: bool) -> None:
        for audience, view in views.items():
            redacted = match.redact(events, audience)
            assert travelled(redacted, events_type) == redacted
            (view.undo if undo else view.apply)(travelled(redacted, events_type))
            expected = match.view(audience)
            assert view.data() == expected
            assert view.to_act() == match.to_act() and view.is_over == match.is_over
            if rng.random() < 0.1 or match.is_over:      # a client's fresh view, now and then
                assert travelled(expected, ruleset.view_type) == expected
                assert ruleset.follow(expected, label(match, audience)).data() == expected
            if redacted and not undo:
                with pytest.raises(ViewError):
                    view.apply(redacted)          # the same action again: out of step
                assert view.data() == expected

    for seat, action in moves(match, seed):
        tell(match.apply(seat, action), undo=False)
        try:
            match.check_undo(seat)
        except IllegalActionError:
            assert not any(view.can_undo(seat) for view in views.values())
            continue
        assert all(view.can_undo(seat) for view in views.values())
        if rng.random() < 0.2:
            tell(match.undo(seat), undo=True)
    for view in views.values():
        with pytest.raises(ViewError):
            view.apply([])
        assert view.is_over and view.outcome() == match.outcome()


@pytest.mark.parametrize(CASE, cases())
def test_every_audience_follows_the_redacted_events_in_step(game, players, options):
    check_views_follow(match_of((game, players, options))[1])


# -- bots -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_level_is_one_of_the_games_bots_and_every_seat_look_is_its_own(game):
    ruleset = RULESETS[game]
    assert tuple(ruleset.levels) == LEVELS and ruleset.bots
    assert all(level.kind in ruleset.bots for level in ruleset.levels.values())
    ruleset.check_bots([*LEVELS, *ruleset.bots])
    assert set(ruleset.timed_bots) <= set(ruleset.bots)
    labels = [look.label for look in ruleset.seats]
    assert len(set(labels)) == len(labels) >= ruleset.players[1]


def check_bots_play_legally(match: Match, kind: str, seed: int = 3) -> None:
    """Bots of ``kind`` in every seat play ``match`` to its end: every choice is legal,
    and choosing changes nothing of the match."""
    for seat, action in moves(match, seed, [kind] * len(match.labels)):
        before = [match.view(a) for a in audiences(match)]
        match.check(seat, action)
        assert [match.view(a) for a in audiences(match)] == before
        match.apply(seat, action)
    outcome = match.outcome()
    assert outcome.finished and outcome.winners and set(outcome.winners) <= set(range(len(match.labels)))


@pytest.mark.parametrize(("game", "kind"), [(name, kind) for name in GAMES for kind in RULESETS[name].bots])
def test_every_bot_plays_legal_actions_for_whole_games(game, kind):
    ruleset = RULESETS[game]
    for players in sorted(set(ruleset.players)):
        check_bots_play_legally(new_match(ruleset, players), kind)


# -- records --------------------------------------------------------------------------


def same_match(one: Match, other: Match) -> bool:
    """Whether two matches are alike for every audience and in their scores."""
    return one.outcome() == other.outcome() and all(one.view(a) == other.view(a) for a in audiences(one))


@pytest.mark.parametrize(CASE, cases())
def test_a_record_travels_as_json_and_replays_to_the_same_match(game, players, options):
    case = (game, players, options)
    ruleset, match = match_of(case)
    play_out(match)
    halfway = play_out(match_of(case)[1], stop=len(match) // 2)
    for played in (match, halfway):
        record = played.record()
        loaded = ruleset.load(json.loads(json.dumps(record)), source="game.json")
        assert loaded.record() == record and same_match(loaded, played)
    try:
        start, actions = ruleset.replay(match.record())
    except NotImplementedError:
        return                                  # replays are optional
    assert len(start) == 0 and len(actions) == len(match)
    for seat, action in actions:
        start.apply(seat, action)
    assert same_match(start, match)


def spoil(record: dict[str, Any], how: str, at: int) -> tuple[Any, str]:
    """``record`` spoiled as ``how`` says, and the start of the message refusing it."""
    record = copy.deepcopy(record)
    actions = record["actions"]
    if how == "not an object":
        return [record], "game.json: a record must be a JSON object"
    if how == "format":
        expected, record["format"] = record["format"], "chess-pgn"
        return record, f"game.json: format: expected {expected!r}, found 'chess-pgn'"
    if how == "version":
        record["version"] += 1
        return record, "game.json: version: this program reads version"
    if how == "seed":
        record["seed"] = "seven"
        return record, "game.json: seed must be an integer or null"
    if how == "actions":
        record["actions"] = {"0": actions[0]}
        return record, "game.json: actions must be a list"
    if how == "an action twice":
        actions.insert(at + 1, actions[at])
        return record, f"game.json: actions[{at + 1}]: "
    assert how == "an unknown action"
    actions[at] = {**actions[at], "type": "fly"}
    return record, f"game.json: actions[{at}]: "


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("how", ["not an object", "format", "version", "seed", "actions",
                                 "an action twice", "an unknown action"])
def test_a_bad_record_is_refused_naming_the_source_the_place_and_the_problem(game, how):
    ruleset = RULESETS[game]
    match = play_out(new_match(ruleset, ruleset.players[0]))
    for at in (0, len(match) // 2):
        record, message = spoil(match.record(), how, at)
        with pytest.raises(RecordError) as refused:
            ruleset.load(record, source="game.json")
        assert str(refused.value).startswith(message), (str(refused.value), message)


# -- secrets --------------------------------------------------------------------------


def check_secrets(match: Match, seed: int = 1) -> None:
    """Play ``match`` out; before each action, for each audience, a match it cannot tell
    from this one (:meth:`Match.sample`): its view there is the same, and when the
    action is legal there too and leaves the audience's view the same in both, so are
    the events it gets. A game with secrets must have worlds that differ (another seat's
    view somewhere); a game without gives everybody the same view and events."""
    ruleset = match.ruleset
    rng = random.Random(seed)
    differed = compared = 0
    for seat, action in moves(match, seed):
        if not ruleset.secrets:
            views = [match.view(a) for a in audiences(match)]
            assert all(view == views[0] for view in views)
            events = match.apply(seat, action)
            assert all(match.redact(events, a) == events for a in audiences(match))
            continue
        worlds = {a: match.sample(a, rng) for a in audiences(match)}
        for audience, world in worlds.items():
            assert world.view(audience) == match.view(audience)
            differed += any(world.view(b) != match.view(b) for b in audiences(match) if b != audience)
        events = match.apply(seat, action)
        for audience, world in worlds.items():
            try:
                other = world.apply(seat, action)
            except IllegalActionError:
                continue                  # the seat held something else in that world
            if world.view(audience) == match.view(audience):
                assert match.redact(events, audience) == world.redact(other, audience)
                compared += 1
    assert not ruleset.secrets or (differed and compared), (differed, compared)


@pytest.mark.parametrize(CASE, cases())
def test_no_audience_gets_what_it_may_not_know(game, players, options):
    case = (game, players, options)
    for seed in (1, 2):
        check_secrets(match_of(case, seed)[1], seed)


# -- the checks fail on a game that breaks the contract -------------------------------


def test_the_secrets_check_finds_a_draw_shown_to_the_other_seats(monkeypatch):
    downtown = RULESETS["downtown"]
    kind = type(new_match(downtown, 2))
    monkeypatch.setattr(kind, "redact", lambda self, events, audience: events)
    with pytest.raises(AssertionError):
        check_secrets(new_match(downtown, 3))


def test_the_secrets_check_finds_a_hand_shown_to_a_spectator(monkeypatch):
    downtown = RULESETS["downtown"]
    kind = type(new_match(downtown, 2))
    view = kind.view
    monkeypatch.setattr(kind, "view", lambda self, audience: view(self, 0 if audience is None else audience))
    with pytest.raises(AssertionError):
        check_secrets(new_match(downtown, 2))


def test_the_secrets_check_finds_a_game_that_keeps_secrets_it_does_not_sample(monkeypatch):
    downtown = RULESETS["downtown"]
    kind = type(new_match(downtown, 2))
    monkeypatch.setattr(kind, "sample", lambda self, audience, rng: downtown.load(self.record()))
    with pytest.raises(AssertionError):
        check_secrets(new_match(downtown, 2))


def test_the_secrets_check_finds_a_game_without_secrets_that_tells_audiences_apart(monkeypatch):
    hex = RULESETS["hex"]
    kind = type(new_match(hex, 2))
    redact = kind.redact
    monkeypatch.setattr(kind, "redact", lambda self, events, audience: [] if audience is None
                        else redact(self, events, audience))
    with pytest.raises(AssertionError):
        check_secrets(new_match(hex, 2))


@pytest.mark.parametrize("game", GAMES)
def test_the_follow_check_finds_a_view_that_drops_events(game, monkeypatch):
    ruleset = RULESETS[game]
    match = new_match(ruleset, ruleset.players[0])
    kind = type(ruleset.follow(match.view(0), match.labels[0]))
    monkeypatch.setattr(kind, "apply", lambda self, events: None)
    with pytest.raises(AssertionError):
        check_views_follow(match)


class Stuck:
    """A bot that plays one action again and again (legal once at most)."""

    name = "stuck"

    def __init__(self, action: Any) -> None:
        self.action = action

    def choose(self, position: Any) -> Any:
        return self.action


@pytest.mark.parametrize("game", GAMES)
def test_the_bot_check_finds_an_illegal_choice(game, monkeypatch):
    ruleset = RULESETS[game]
    match = new_match(ruleset, ruleset.players[0])
    first = make_bot(ruleset, "easy", 1).choose(match.position(min(match.to_act())))
    monkeypatch.setattr(ruleset, "make_bot", lambda kind, seed=None, **options: Stuck(first))
    assert isinstance(make_bot(ruleset, "easy", 2), Stuck)
    with pytest.raises(IllegalActionError):
        check_bots_play_legally(match, "easy")
