"""Waddle Downtown behind the ruleset interface (:mod:`waddle.ruleset`).

:data:`RULESET` is registered as ``"downtown"``. A seat is a colour (blue, green, purple,
cyan); seat numbers are the opening turn order, seat 0 the start player. The game has
secrets (DOWNTOWN.md "What is public and what is secret"): :meth:`DowntownMatch.view`
gives a seat its own hand only and a spectator none, :meth:`DowntownMatch.redact` hides a
deck draw from all but the drawer and a setup discard until all are revealed, and a
:class:`DowntownView` follows the redacted events in step with the match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePath
from typing import Any

from waddle.downtown.actions import Action, Discard, Draw, Play
from waddle.downtown.analysis import analyse
from waddle.downtown.bots import BOTS, make_bot
from waddle.downtown.events import (
    DiscardChosen,
    DiscardsRevealed,
    Drew,
    Event,
    Played,
    Scored,
    redact,
)
from waddle.downtown.legal import legal_actions
from waddle.downtown.listing import Legal, listing
from waddle.downtown.options import DowntownOptions, FileDeck, make_deck
from waddle.downtown.position import Position
from waddle.downtown.record import FORMAT, from_record, to_record
from waddle.downtown.state import UNKNOWN, State, shuffle
from waddle.downtown.viewdata import COLOURS, DowntownViewData, state_of, view_data
from waddle.errors import IllegalActionError, ViewError
from waddle.ruleset import (
    Analysis,
    Audience,
    Level,
    Match,
    Outcome,
    Prepared,
    Ruleset,
    SeatLook,
    View,
)


class DowntownRuleset(Ruleset):
    """Waddle Downtown, the card game (DOWNTOWN.md)."""

    name = "downtown"
    title = "Waddle Downtown"
    players = (2, 4)
    seats = tuple(SeatLook(colour, colour) for colour in COLOURS)
    options_type = DowntownOptions
    action_type = Action
    event_type = Event
    view_type = DowntownViewData
    legal_type = Legal
    bots = tuple(BOTS)
    timed_bots = ("search",)
    record_format = FORMAT
    secrets = True
    #: The difficulty levels (a project decision, measured in docs/arena.md).
    levels = {"easy": Level("random"), "medium": Level("greedy"), "hard": Level("search", 1.0)}

    def check_options(self, options: DowntownOptions, players: int, *,
                      prepared: Prepared | None = None, from_peer: bool = False,
                      host: DowntownOptions | None = None) -> None:
        """Raise ``ValueError`` if ``players`` is not 2 to 4, a peer chose a deck file
        other than the host's own (``host.deck``; any deck suits any number of players),
        or the deck file cannot be used (a :class:`~waddle.downtown.cards.DeckError` naming the
        file, the card and the field: read now, so ``serve --deck`` refuses a bad file at
        once, as ``--map`` does)."""
        if from_peer and isinstance(options.deck, FileDeck) and (host is None or options.deck != host.deck):
            raise ValueError("a deck file can only be chosen on the host")
        if not self.players[0] <= players <= self.players[1]:
            raise ValueError(f"Waddle Downtown is for 2 to 4 players, not {players}")
        if isinstance(options.deck, FileDeck):
            make_deck(options.deck)

    def prepare(self, options: DowntownOptions, players: int, seed: int | None) -> Prepared:
        """Load the deck (``data``: a :class:`~waddle.downtown.cards.Deck`); ``seed`` is
        the host's, or a fresh random one, so the record replays the shuffle.

        Raises:
            waddle.downtown.cards.DeckError: (a ``ValueError``) the deck file cannot be used.
        """
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        return Prepared(seed, make_deck(options.deck))

    def new_match(self, prepared: Prepared, options: DowntownOptions,
                  labels: Sequence[str]) -> DowntownMatch:
        """A match dealt from the shuffle of ``prepared.seed``.

        Raises:
            ValueError: not 2 to 4 distinct seat colours.
        """
        for label in labels:
            self.label_look(label)
        seed = prepared.seed if prepared.seed is not None else random.SystemRandom().randrange(2**31)
        orders = shuffle(prepared.data, len(labels), options.single_deck, seed)
        state = State.deal(prepared.data, labels, orders, single=options.single_deck)
        return DowntownMatch(state, seed, orders)

    def load(self, record: Mapping[str, Any], *, source: str = "<record>") -> DowntownMatch:
        replay = from_record(record, source=source)
        return DowntownMatch(replay.state, replay.seed, replay.orders, replay.actions)

    def follow(self, data: DowntownViewData, label: str | None) -> DowntownView:
        audience = data.players.index(label) if label in data.players else None
        return DowntownView(state_of(data, audience), audience)

    def make_bot(self, kind: str, seed: int | None = None, **options: Any):
        kind, options = self.resolve_bot(kind, options)
        return make_bot(kind, seed, **options)

    def replay(self, record: Mapping[str, Any], *, source: str = "<record>") -> tuple[DowntownMatch, list[tuple[int, Action]]]:
        replay = from_record(record, source=source)
        final = replay.state
        start = State.deal(final.deck, final.labels, replay.orders, single=final.single)
        return DowntownMatch(start, replay.seed, replay.orders), replay.actions

    def analyse(self, position: Position, seconds: float, *, seed: int | None = None,
                iterations: int | None = None, stop: Callable[[], bool] = lambda: False) -> Analysis:
        """The information-set search's verdict on what ``position``'s seat knows
        (:func:`waddle.downtown.analysis.analyse`): every seat's expected final score
        and the seat's best action."""
        return analyse(position, seconds, seed=seed, iterations=iterations, stop=stop)

    def setup_name(self, options: DowntownOptions) -> str:
        """The deck: ``"bundled deck"`` or a deck file's name, with ``" (single deck)"``
        for the single-deck variant."""
        name = PurePath(options.deck.path).name if isinstance(options.deck, FileDeck) else "bundled deck"
        return f"{name} (single deck)" if options.single_deck else name


RULESET = DowntownRuleset()


def outcome(state: State) -> Outcome:
    """The score of ``state``: winners once over (a shared victory names every tied seat)."""
    scores = tuple(state.scores)
    best = max(scores)
    leaders = tuple(s for s, score in enumerate(scores) if score == best)
    return Outcome(state.is_over, scores, state.winners, leaders)


class DowntownMatch(Match):
    """A hosted game: its :class:`~waddle.downtown.state.State`, the ``seed`` and shuffle
    (``orders``) it was dealt from, and the ``actions`` played (``(seat, action)``)."""

    ruleset = RULESET

    def __init__(self, state: State, seed: int | None, orders: list[list[int]],
                 actions: list[tuple[int, Action]] | None = None) -> None:
        self.state = state
        self.seed = seed
        self.orders = orders
        self.actions = actions if actions is not None else []
        self.labels = state.labels

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def to_act(self) -> frozenset[int]:
        return self.state.to_act()

    def check(self, seat: int, action: Any) -> None:
        self.state.check(seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        events = self.state.apply(seat, action)
        self.actions.append((seat, action))
        return events

    def legal(self, seat: int) -> list[Legal]:
        """``seat``'s legal list (:func:`waddle.downtown.listing.listing`: compact, each
        entry an action to send as it is), from what the seat may know."""
        return listing(self.state, seat)

    def outdates(self, events: list[Event], seat: int) -> bool:
        """Every action but a setup discard that reveals nothing (not the last one) makes
        every seat decide again: such a discard changes nothing another seat may do (its
        hand, the board and the piles stay as they were; DOWNTOWN.md "Setup" 4: the
        discards are chosen at the same time), and every seat sees which seat chose, so
        the answer tells nothing of the card."""
        first = events[0]
        return len(events) > 1 or first.__class__ is not DiscardChosen or first.seat == seat

    def redact(self, events: list[Event], audience: Audience) -> list[Event]:
        return redact(events, audience)

    def view(self, audience: Audience) -> DowntownViewData:
        return view_data(self.state, audience)

    def sample(self, audience: Audience, rng: random.Random) -> DowntownMatch:
        """The hands, the unrevealed setup discards and the decks' order that ``audience``
        has not seen, dealt afresh (:meth:`Position.sample`; a spectator has seen no
        hand). Its record is not one that replays: only its play is."""
        world = Position(self.state.redacted(audience), audience).sample(rng)
        return DowntownMatch(world, self.seed, self.orders, list(self.actions))

    def record(self, **extra: Any) -> dict[str, Any]:
        return to_record(self.state, self.orders, self.actions, seed=self.seed, **extra)

    def outcome(self) -> Outcome:
        return outcome(self.state)

    def position(self, seat: int) -> Position:
        return Position(self.state.redacted(seat), seat)

    def __len__(self) -> int:
        return len(self.actions)


class DowntownView(View):
    """One audience's replica of a game: a :class:`~waddle.downtown.state.State` holding
    only what the audience knows, advanced by replaying each action the events describe
    (the cards they reveal filled in first) and checking that it yields those events."""

    def __init__(self, state: State, audience: Audience) -> None:
        self.state = state
        self.audience = audience
        self.labels = state.labels
        self.events: list[Event] = []

    def apply(self, events: list[Event]) -> None:
        trial = self.state.copy()
        try:
            action, seat = self._action(trial, events)
            produced = trial.hidden_discard(seat) if action is None else trial.apply(seat, action)
        except IllegalActionError as exc:
            raise ViewError(f"the events describe an illegal action here: {exc}") from None
        except (ValueError, IndexError) as exc:
            raise ViewError(f"the events do not follow here: {exc}") from None
        if redact(produced, self.audience) != list(events):
            raise ViewError(f"{action or 'a hidden discard'} by {self.labels[seat]} yields other events here")
        self.state = trial
        self.events.extend(events)

    def _action(self, trial: State, events: list[Event]) -> tuple[Action | None, int]:
        """The action the events describe and its seat (``None``: another seat's hidden
        setup discard); fills into ``trial`` the hidden cards they reveal."""
        first = events[0] if events else None
        revealed = next((e for e in events if e.__class__ is DiscardsRevealed), None)
        if first.__class__ is DiscardChosen:
            card = first.card if revealed is None else revealed.cards[first.seat]
            if card is not None and first.card is None:
                hand = trial.hands[first.seat]
                hand.remove(UNKNOWN)
                hand.append(trial.deck.number(card))
                hand.sort()
            action: Action | None = None if card is None else Discard(card)
        elif first.__class__ is Played:
            action = Play(first.card, first.copied, first.act)
        elif first.__class__ is Drew and first.source == "display":
            action = Draw(first.card)
        elif first.__class__ is Drew:
            action = Draw()
        else:
            raise ValueError(f"an action's events start with discard_chosen, played (then "
                             f"scored) or drew, not {first!r}")
        for event in events:
            if event.__class__ is Drew:
                card = event.card if event.source == "deck" else event.refill
                if card is not None:
                    trial.deck_of(event.seat)[-1] = trial.deck.number(card)
        if revealed is not None:
            for s, card in enumerate(revealed.cards):
                if card is not None and trial.pending[s] == UNKNOWN:
                    trial.pending[s] = trial.deck.number(card)
        return action, first.seat

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def to_act(self) -> frozenset[int]:
        return self.state.to_act()

    def legal_actions(self) -> Sequence[Action]:
        """The actions this view's seat may play now: lazily made plays (see
        :func:`waddle.downtown.legal.legal_actions`), or empty."""
        return () if self.audience is None else legal_actions(self.state, self.audience)

    def outcome(self) -> Outcome:
        return outcome(self.state)

    def position(self) -> Position:
        if self.audience is None:
            raise ValueError("a spectator's view has no seat to play")
        return Position(self.state.copy(), self.audience)

    def preview(self, play: Play) -> Scored:
        """What ``play`` by this view's seat would score now (see :meth:`State.preview
        <waddle.downtown.state.State.preview>`)."""
        if self.audience is None:
            raise IllegalActionError("a spectator plays no card")
        return self.state.preview(self.audience, play)

    def data(self) -> DowntownViewData:
        """This view's state as view data: equal to the match's view for this audience."""
        return view_data(self.state, self.audience)
