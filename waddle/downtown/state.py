"""The game: a position of Waddle Downtown and the rules that change it (DOWNTOWN.md).

A :class:`State` is created by :meth:`State.deal` from a deck, the seats' labels (in
opening turn order: seat 0 is the start player) and the shuffle (:func:`shuffle`).
:meth:`State.apply` checks an action, plays it and returns the events it caused;
:meth:`State.step` is the unchecked fast path for bots.

Cards are numbers into :attr:`State.deck` (its ``cards``); a card nobody in this state
knows is :data:`UNKNOWN`. The host's state knows every card; a seat's view
(:meth:`State.redacted`) knows its own hand and what is public, and the rules read the
same either way: a check that needs a hidden card accepts what could be true, which is
how a view follows the others' plays.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence

from waddle.downtown.actions import Act, Action, Add, Discard, Draw, Move, Play, Recall, Recolour
from waddle.downtown.board import CAPACITY, ROUNDS, Layout, layout
from waddle.downtown.cards import Deck
from waddle.downtown.events import (
    DiscardChosen,
    DiscardsRevealed,
    Drew,
    Event,
    GameEnded,
    Played,
    RoundEnded,
    Scored,
    TieBreak,
    redact,
)
from waddle.errors import IllegalActionError

#: A card nobody in this state knows (an opponent's hand, a deck, a hidden discard).
UNKNOWN = -1
#: Cards dealt to each hand besides the Copy (DOWNTOWN.md "Setup" 2).
HAND = 4
#: Face-up display cards in the single-deck variant.
DISPLAY = 3
#: Supply of each colour per player at the start (DOWNTOWN.md "Setup" 1).
SUPPLY = 4

SETUP, PLAY, DRAW, OVER = "setup", "play", "draw", "over"

#: The longest run of consecutive counts in a set of counts 1-5 (bit ``c - 1`` for count
#: ``c``), and the lowest count of the first such run.
RUNS: list[tuple[int, int]] = []
for _mask in range(32):
    _best, _start, _length = (0, 0), 0, 0
    for _c in range(1, 6):
        if _mask >> (_c - 1) & 1:
            _length += 1
            _start = _start or _c
            if _length > _best[0]:
                _best = (_length, _start)
        else:
            _start, _length = 0, 0
    RUNS.append(_best)


def shuffle(deck: Deck, players: int, single: bool, seed: int) -> list[list[int]]:
    """The seeded shuffle of a game: the deck orders, top card first.

    Each player's 12 cards but the Copy, shuffled in seat order (one list per seat); in
    the single-deck variant one list of every player's 12 cards. The same seed gives the
    same shuffle in any process (``random.Random`` seeded by a string, like
    :func:`waddle.ruleset.opening_order`).
    """
    rng = random.Random(f"waddle downtown shuffle {seed}")
    cards = [i for i in range(len(deck.cards)) if i != deck.copy]
    orders = [cards * players] if single else [list(cards) for _ in range(players)]
    for order in orders:
        rng.shuffle(order)
    return orders


class State:
    """A game of Waddle Downtown in progress (see the module docstring).

    Attributes (read them, do not change them): ``layout`` and ``deck``; ``labels`` by
    seat; ``single`` (the single-deck variant); per place ``red`` and ``yellow``; per seat
    the supply ``supply_red`` and ``supply_yellow``, ``scores``, ``piles`` (face-up, bottom
    first), ``hands`` (sorted), ``known`` (cards everybody knows are in that hand: the Copy
    until it is played, display cards taken), ``pending`` (setup discards: ``None`` until
    chosen); ``decks`` (one per seat, or one shared; top last) and ``display``; ``phase``
    (``"setup"``, ``"play"``, ``"draw"``, ``"over"``), ``round`` (1-based; tie-break rounds
    go on past :attr:`rounds`), ``order`` (the seats playing this round) and ``turn`` (the
    index in it of the seat to act); ``winners`` and ``shared`` once over; ``history``:
    every event so far in its public form.
    """

    __slots__ = ("layout", "deck", "labels", "single", "rounds", "red", "yellow", "supply_red",
                 "supply_yellow", "scores", "piles", "hands", "known", "pending", "decks",
                 "display", "phase", "round", "order", "turn", "winners", "shared", "history")

    layout: Layout
    deck: Deck

    @classmethod
    def deal(cls, deck: Deck, labels: Sequence[str], orders: Sequence[Sequence[int]], *,
             single: bool = False) -> State:
        """The position after the deal (DOWNTOWN.md "Setup"): each hand 4 cards and the
        Copy, the non-start players one more; in the single-deck variant the shared deck
        is dealt round the table, then the extra cards, then the display of 3.

        ``orders`` is the shuffle (:func:`shuffle`): card numbers, top first.

        Raises:
            ValueError: 2 to 4 labels are needed, distinct; ``orders`` is not a shuffle
                of the deck for them.
        """
        labels = tuple(labels)
        n = len(labels)
        board = layout(n)
        if len(set(labels)) != n:
            raise ValueError("each player needs a different colour")
        _check_orders(deck, n, single, orders)
        state = cls.__new__(cls)
        state.layout, state.deck, state.labels, state.single = board, deck, labels, single
        state.rounds = ROUNDS[n]
        places = len(board.places)
        state.red, state.yellow = [0] * places, [0] * places
        state.supply_red, state.supply_yellow = [SUPPLY] * n, [SUPPLY] * n
        state.scores = [0] * n
        state.piles = [[] for _ in range(n)]
        state.known = [[deck.copy] for _ in range(n)]
        state.pending = [None] * n
        state.display = []
        extra = [0] + [1] * (n - 1)
        if single:
            cards = list(orders[0])
            hands = [[deck.copy] + cards[s:HAND * n:n] for s in range(n)]
            for s in range(1, n):
                hands[s].append(cards[HAND * n + s - 1])
            top = HAND * n + n - 1
            state.display = cards[top:top + DISPLAY]
            state.decks = [cards[top + DISPLAY:][::-1]]
        else:
            hands = [[deck.copy, *orders[s][:HAND + extra[s]]] for s in range(n)]
            state.decks = [list(orders[s][HAND + extra[s]:])[::-1] for s in range(n)]
        state.hands = [sorted(hand) for hand in hands]
        state.phase, state.round, state.order, state.turn = SETUP, 1, tuple(range(n)), 0
        state.winners, state.shared = (), False
        state.history = []
        return state

    def copy(self) -> State:
        """An independent copy."""
        other = State.__new__(State)
        for name in ("layout", "deck", "labels", "single", "rounds", "phase", "round", "order",
                     "turn", "winners", "shared"):
            setattr(other, name, getattr(self, name))
        for name in ("red", "yellow", "supply_red", "supply_yellow", "scores", "pending",
                     "display", "history"):
            setattr(other, name, getattr(self, name)[:])
        other.piles = [p[:] for p in self.piles]
        other.hands = [h[:] for h in self.hands]
        other.known = [k[:] for k in self.known]
        other.decks = [d[:] for d in self.decks]
        return other

    def redacted(self, audience: int | None) -> State:
        """A copy holding only what ``audience`` (a seat, or ``None``) may know: the other
        hands, every deck and the others' unrevealed setup discards become :data:`UNKNOWN`."""
        other = self.copy()
        for seat in range(len(self.labels)):
            if seat != audience:
                other.hands[seat] = [UNKNOWN] * len(self.hands[seat])
                if self.pending[seat] is not None:
                    other.pending[seat] = UNKNOWN
        other.decks = [[UNKNOWN] * len(d) for d in self.decks]
        return other

    # -- the position ---------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of players."""
        return len(self.labels)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == OVER

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats still to choose their setup discard (empty after the setup)."""
        if self.phase != SETUP:
            return ()
        return tuple(s for s in range(1, len(self.labels)) if self.pending[s] is None)

    @property
    def current(self) -> int | None:
        """The seat whose turn it is (to play or to draw), ``None`` in the setup and at the end."""
        return self.order[self.turn] if self.phase in (PLAY, DRAW) else None

    def to_act(self) -> frozenset[int]:
        """The seats that may act now: every seat still to choose a setup discard, else
        the seat whose turn it is (none once the game is over)."""
        if self.phase == SETUP:
            return frozenset(self.waiting)
        current = self.current
        return frozenset() if current is None else frozenset((current,))

    def deck_of(self, seat: int) -> list[int]:
        """The deck ``seat`` draws from (its own, or the shared one)."""
        return self.decks[0] if self.single else self.decks[seat]

    def count(self, place: int) -> int:
        """The penguins on ``place``."""
        return self.red[place] + self.yellow[place]

    def name(self, card: int) -> str | None:
        """The name of ``card`` (``None`` for :data:`UNKNOWN`)."""
        return None if card == UNKNOWN else self.deck.cards[card].name

    def tops(self, seat: int) -> set[int]:
        """The face-up top cards of the scoring piles of ``seat``'s opponents."""
        return {pile[-1] for s, pile in enumerate(self.piles) if s != seat and pile}

    def playable(self, seat: int) -> list[int]:
        """The distinct cards ``seat`` may play (DOWNTOWN.md "A turn" I, the play
        restriction: none named like an opponent's top card, unless every card is)."""
        hand = sorted(set(self.hands[seat]) - {UNKNOWN})
        tops = self.tops(seat)
        free = [c for c in hand if c not in tops]
        return free or hand

    def copy_targets(self, seat: int) -> list[int]:
        """The cards a Copy played by ``seat`` may copy: the opponents' face-up top cards
        that are not a Copy, in deck order."""
        return sorted(c for c in self.tops(seat) if self.deck.cards[c].rule != "copy")

    def effective(self, card: int, copied: int | None) -> int | None:
        """The card whose action and rule a play of ``card`` uses: ``card`` itself, the
        ``copied`` card for a Copy, or ``None`` for a Copy with nothing to copy."""
        return copied if card == self.deck.copy else card

    def kind(self, effective: int | None) -> str:
        """The action of the :meth:`effective` card: ``"standard"``, ``"recolour"`` or
        ``"recall"`` (a Copy with nothing to copy takes a standard action)."""
        return "standard" if effective is None else self.deck.cards[effective].action

    def can_act(self, seat: int, kind: str) -> bool:
        """Whether ``seat`` can do an action of ``kind`` (``"standard"``: A or B)."""
        if kind == "recolour":
            r, y = self.supply_red[seat], self.supply_yellow[seat]
            return any(self.red[p] and y or self.yellow[p] and r for p in range(len(self.red)))
        if kind == "recall":
            return any(self.red) or any(self.yellow)
        return self.can_add(seat) or any(self.move_hoods(p) for p in range(len(self.red)))

    def can_add(self, seat: int, hood: int | None = None) -> bool:
        """Whether action A is possible (in ``hood``, or anywhere): a penguin in the supply
        and a place with room."""
        places = range(len(self.red)) if hood is None else self.layout.hoods[hood]
        return (self.supply_red[seat] + self.supply_yellow[seat] > 0
                and any(self.count(p) < CAPACITY for p in places))

    def move_hoods(self, source: int) -> list[int]:
        """The neighbourhoods that can take every penguin of ``source`` (action B); empty
        when ``source`` is empty."""
        taken = self.count(source)
        if not taken:
            return []
        return [h for h, places in enumerate(self.layout.hoods)
                if sum(CAPACITY - self.count(p) for p in places if p != source) >= taken]

    def active(self, hood: int | None) -> int | None:
        """The active neighbourhood after an act that made ``hood`` active (``None``: no
        action): with 2 players the one neighbourhood is always active (DOWNTOWN.md "A
        turn" II, no action possible)."""
        return 0 if hood is None and len(self.layout.hoods) == 1 else hood

    def score(self, card: int | None, hood: int | None) -> tuple[int, tuple[int, ...]]:
        """The points the rule of ``card`` gives now, with ``hood`` active (``None``: no
        active neighbourhood, see :meth:`active`), and the places that counted.

        DOWNTOWN.md "A turn" III: an ``"all"`` card scores every place (a 3-player centre
        place once); an ``"active"`` card the active neighbourhood, and 0 with none.
        ``card`` ``None`` (a Copy with nothing to copy) scores 0.
        """
        if card is None:
            return 0, ()
        rule = self.deck.cards[card]
        if rule.scope == "all":
            places: Sequence[int] = range(len(self.red))
        elif hood is not None:
            places = self.layout.hoods[hood]
        else:
            return 0, ()
        red, yellow = self.red, self.yellow
        table = self.deck.tables[card]
        if table is not None:
            counted = tuple(p for p in places if table[red[p] * 6 + yellow[p]])
            return sum(table[red[p] * 6 + yellow[p]] for p in counted), counted
        mask = 0
        for p in places:
            if red[p] + yellow[p]:
                mask |= 1 << (red[p] + yellow[p] - 1)
        length, low = RUNS[mask]
        counted = tuple(p for p in places if low <= red[p] + yellow[p] < low + length)
        return rule.points * length, counted

    # -- checks -----------------------------------------------------------------------

    def check(self, seat: int, action: Action) -> None:
        """Do nothing if ``seat`` may play ``action`` now.

        Raises:
            IllegalActionError: naming the rule that forbids it (see the ``_check_*``
                methods); the state is unchanged.
        """
        if not 0 <= seat < len(self.labels):
            raise IllegalActionError(f"no seat {seat}: the seats are 0 to {len(self.labels) - 1}")
        if self.phase == OVER:
            raise IllegalActionError("the game is over")
        cls = action.__class__
        if cls is Discard:
            self._check_discard(seat, action)
        elif cls is Play:
            self._check_turn(seat, PLAY, "play a card")
            self._check_play(seat, action)
        elif cls is Draw:
            self._check_turn(seat, DRAW, "draw")
            self._check_draw(action)
        else:
            raise IllegalActionError(f"not an action of Waddle Downtown: {action!r}")

    def _check_turn(self, seat: int, phase: str, what: str) -> None:
        label = self.labels[seat]
        if self.phase == SETUP:
            waiting = ", ".join(self.labels[s] for s in self.waiting)
            raise IllegalActionError(f"setup: {label} cannot {what} before every setup discard is "
                                     f"chosen (waiting for {waiting})")
        current = self.labels[self.current]
        if self.current != seat:
            raise IllegalActionError(f"it is {current}'s turn, not {label}'s")
        if self.phase != phase:
            raise IllegalActionError(f"{label} has played a card and must now draw (a display "
                                     "card or the deck's top)" if self.phase == DRAW
                                     else f"{label} must play a card before drawing")

    def _card(self, seat: int, name: str, what: str) -> int:
        card = self.deck.index.get(name)
        if card is None:
            raise IllegalActionError(f"{what}: no card {name!r} in this deck")
        hand = self.hands[seat]
        if card not in hand and UNKNOWN not in hand:
            raise IllegalActionError(f"{what}: {self.labels[seat]} has no {name} in hand")
        return card

    def _check_discard(self, seat: int, action: Discard) -> None:
        """DOWNTOWN.md "Setup" 4: every player but the start player discards one card, once."""
        label = self.labels[seat]
        if self.phase != SETUP:
            raise IllegalActionError("setup: the setup discards are over")
        if seat == 0:
            raise IllegalActionError(f"setup: {label} is the start player and discards no card")
        if self.pending[seat] is not None:
            raise IllegalActionError(f"setup: {label} has already chosen a discard")
        self._card(seat, action.card, "setup")

    def _check_draw(self, action: Draw) -> None:
        """DOWNTOWN.md "Single-deck variant": a display card or the top of the deck."""
        if action.card is None:
            if not self.decks[0]:
                raise IllegalActionError("draw: the deck is empty; take a display card")
            return
        card = self.deck.index.get(action.card)
        if card not in self.display:
            shown = ", ".join(self.name(c) for c in self.display)
            raise IllegalActionError(f"draw: {action.card} is not in the display ({shown})")

    def _check_play(self, seat: int, play: Play) -> None:
        """DOWNTOWN.md "A turn" I and II: a card in hand, the play restriction, what a
        Copy copies, and the action the card calls for."""
        card = self._card(seat, play.card, "play")
        tops = self.tops(seat)
        if card in tops:
            free = [c for c in self.hands[seat] if c != UNKNOWN and c not in tops]
            if free:
                shown = ", ".join(self.labels[s] for s, p in enumerate(self.piles) if s != seat and p and p[-1] == card)
                raise IllegalActionError(
                    f"play restriction: {play.card} is on top of the scoring pile of {shown}; "
                    f"it may be played only when every card in hand is such a card "
                    f"({self.labels[seat]} could play {', '.join(sorted({self.name(c) for c in free}))})")
        copied = None
        if card == self.deck.copy:
            targets = self.copy_targets(seat)
            names = ", ".join(self.name(c) for c in targets)
            if play.copied is None and targets:
                raise IllegalActionError(f"Copy: choose an opponent's face-up top card to copy: {names}")
            if play.copied is not None:
                copied = self.deck.index.get(play.copied)
                if not targets:
                    raise IllegalActionError("Copy: no opponent shows a card to copy (a Copy is not "
                                             "copied), so 'copied' must be null: a standard action, 0 points")
                if copied not in targets:
                    raise IllegalActionError(f"Copy: {play.copied} is not an opponent's face-up top "
                                             f"card that can be copied ({names})")
        elif play.copied is not None:
            raise IllegalActionError(f"only a Copy card copies, not {play.card}: 'copied' must be null")
        self._check_act(seat, play, self.kind(self.effective(card, copied)))

    def _check_act(self, seat: int, play: Play, kind: str) -> None:
        act = play.act
        if act is None:
            if self.can_act(seat, kind):
                what = "standard action A or B" if kind == "standard" else f"its special action ({kind})"
                raise IllegalActionError(f"no action: {play.card} must do {what}: it is possible")
            return
        expected = {"standard": (Add, Move), "recolour": (Recolour,), "recall": (Recall,)}[kind]
        if act.__class__ not in expected:
            want = "standard action A (add) or B (move)" if kind == "standard" else f"the special action {kind}"
            raise IllegalActionError(f"{play.card} does {want}, not {act.__class__.__name__.lower()}")
        checks = {Add: self._check_add, Move: self._check_move, Recolour: self._check_recolour,
                  Recall: self._check_recall}
        checks[act.__class__](seat, act)

    def _hood(self, name: str, what: str) -> int:
        try:
            return self.layout.hood(name)
        except ValueError as exc:
            raise IllegalActionError(f"{what}: {exc}") from None

    def _place(self, name: str, what: str) -> int:
        try:
            return self.layout.place(name)
        except ValueError as exc:
            raise IllegalActionError(f"{what}: {exc}") from None

    def _spread(self, act: Add | Move | Recall, allowed: Sequence[int], what: str) -> list[tuple[int, int, int]]:
        """``act.penguins`` as ``(place, red, yellow)``, checked: known places among
        ``allowed``, each once and in board order, each with 1 penguin or more."""
        out: list[tuple[int, int, int]] = []
        for penguins in act.penguins:
            place = self._place(penguins.place, what)
            r, y = penguins.red, penguins.yellow
            if not (isinstance(r, int) and isinstance(y, int) and r >= 0 and y >= 0 and r + y >= 1):
                raise IllegalActionError(f"{what}: {penguins.place}: give 1 or more penguins, "
                                         f"each colour 0 or more (found {r!r} red, {y!r} yellow)")
            if place not in allowed:
                if act.__class__ is Move and place == self.layout.place(act.source):
                    raise IllegalActionError(f"{what}: the penguins may not go back onto "
                                             f"{act.source}, the place emptied")
                raise IllegalActionError(f"{what}: {penguins.place} is not a place of the "
                                         f"{act.hood} neighbourhood that the action may use")
            if out and place <= out[-1][0]:
                raise IllegalActionError(f"{what}: list each place once, in board order "
                                         f"({', '.join(self.layout.places)})")
            out.append((place, r, y))
        return out

    def _check_room(self, what: str, spread: list[tuple[int, int, int]]) -> None:
        for place, r, y in spread:
            total = self.count(place) + r + y
            if total > CAPACITY:
                raise IllegalActionError(f"{what}: {self.layout.places[place]} would hold {total} "
                                         f"penguins; a place holds at most {CAPACITY}")

    def _check_add(self, seat: int, act: Add) -> None:
        """Action A: 1 or more penguins from the supply onto places of one neighbourhood."""
        hood = self._hood(act.hood, "action A")
        spread = self._spread(act, self.layout.hoods[hood], "action A")
        if not spread:
            raise IllegalActionError("action A: add at least one penguin")
        self._check_room("action A", spread)
        for colour, supply, i in (("red", self.supply_red, 1), ("yellow", self.supply_yellow, 2)):
            wanted = sum(item[i] for item in spread)
            if wanted > supply[seat]:
                raise IllegalActionError(f"action A: {self.labels[seat]} has {supply[seat]} {colour} "
                                         f"penguins in supply, not {wanted}")

    def _check_move(self, seat: int, act: Move) -> None:
        """Action B: empty a place; all its penguins onto other places of one neighbourhood."""
        source = self._place(act.source, "action B")
        if not self.count(source):
            raise IllegalActionError(f"action B: {act.source} is empty; empty a place with at least 1 penguin")
        hood = self._hood(act.hood, "action B")
        targets = [p for p in self.layout.hoods[hood] if p != source]
        spread = self._spread(act, targets, "action B")
        r, y = sum(item[1] for item in spread), sum(item[2] for item in spread)
        if (r, y) != (self.red[source], self.yellow[source]):
            raise IllegalActionError(f"action B: all the penguins taken from {act.source} "
                                     f"({self.red[source]} red, {self.yellow[source]} yellow) must be "
                                     f"placed, not {r} red, {y} yellow")
        self._check_room("action B", spread)

    def _check_recolour(self, seat: int, act: Recolour) -> None:
        """Recolour: 1 or 2 penguins of one colour on a place swapped for the other colour
        from the supply; one of the place's neighbourhoods is active."""
        place, hood = self._place(act.place, "recolour"), self._hood(act.hood, "recolour")
        if place not in self.layout.hoods[hood]:
            raise IllegalActionError(f"recolour: {act.place} is not in the {act.hood} neighbourhood")
        if act.colour not in ("red", "yellow") or act.count not in (1, 2):
            raise IllegalActionError(f"recolour: exchange 1 or 2 red or yellow penguins, not "
                                     f"{act.count!r} {act.colour!r}")
        red = act.colour == "red"
        have = (self.red if red else self.yellow)[place]
        if have < act.count:
            raise IllegalActionError(f"recolour: {act.place} has {have} {act.colour} penguins, not {act.count}")
        other, supply = ("yellow", self.supply_yellow) if red else ("red", self.supply_red)
        if supply[seat] < act.count:
            raise IllegalActionError(f"recolour: {self.labels[seat]} has {supply[seat]} {other} "
                                     f"penguins in supply, not {act.count}")

    def _check_recall(self, seat: int, act: Recall) -> None:
        """Recall: 1 or 2 penguins off places of one neighbourhood into the supply."""
        hood = self._hood(act.hood, "recall")
        spread = self._spread(act, self.layout.hoods[hood], "recall")
        total = sum(r + y for _, r, y in spread)
        if not 1 <= total <= 2:
            raise IllegalActionError(f"recall: take 1 or 2 penguins, not {total}")
        for place, r, y in spread:
            if r > self.red[place] or y > self.yellow[place]:
                raise IllegalActionError(f"recall: {self.layout.places[place]} has {self.red[place]} "
                                         f"red and {self.yellow[place]} yellow penguins")

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may play ``action`` now."""
        try:
            self.check(seat, action)
        except IllegalActionError:
            return False
        return True

    # -- playing ------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Check and play ``action`` for ``seat``; return the events it caused, in order.

        A :class:`Discard`: :class:`DiscardChosen`, and with the last one
        :class:`DiscardsRevealed`. A :class:`Play`: :class:`Played`, :class:`Scored`, then
        the draw (:class:`Drew`, unless there is none or it is a choice), the round's end
        (:class:`RoundEnded`, then :class:`TieBreak` or :class:`GameEnded`). A
        :class:`Draw`: :class:`Drew` and the round's end.

        Raises:
            IllegalActionError: see :meth:`check`; the state is unchanged.
        """
        self.check(seat, action)
        events: list[Event] = []
        self._step(seat, action, events)
        return self._logged(events)

    def _logged(self, events: list[Event]) -> list[Event]:
        self.history.extend(redact(events, None))
        return events

    def hidden_discard(self, seat: int) -> list[Event]:
        """A view's replay of another seat's setup discard, the card unseen (not the last
        one: that one reveals them all).

        Raises:
            IllegalActionError: ``seat`` is not choosing a discard now.
        """
        if seat not in self.waiting or UNKNOWN not in self.hands[seat] or len(self.waiting) == 1:
            raise IllegalActionError(f"setup: {self.labels[seat]} is not choosing a hidden discard now")
        events: list[Event] = []
        self.discard(seat, UNKNOWN, events)
        return self._logged(events)

    def preview(self, seat: int, play: Play) -> Scored:
        """What ``play`` by ``seat`` would score now (the state is unchanged): the
        :class:`Scored` event it would cause, with the points, the places that count and
        the total. For a UI to show before the play is confirmed.

        Raises:
            IllegalActionError: ``play`` is illegal (see :meth:`check`).
        """
        self.check(seat, play)
        events: list[Event] = []
        self.copy()._step(seat, play, events)
        return events[1]

    def step(self, seat: int, action: Action) -> None:
        """Play a legal ``action`` without checking it or making events (the fast path
        for bots). Anything :meth:`check` refuses leaves the state undefined."""
        self._step(seat, action, None)

    def _step(self, seat: int, action: Action, events: list[Event] | None) -> None:
        cls = action.__class__
        if cls is Play:
            self._play(seat, action, events)
        elif cls is Draw:
            self._draw(seat, None if action.card is None else self.deck.index[action.card], events)
            self._end_turn(events)
        else:
            card = self.deck.index[action.card]
            self.discard(seat, card if card in self.hands[seat] else UNKNOWN, events)

    def discard(self, seat: int, card: int, events: list[Event] | None) -> None:
        """Set ``card`` (or :data:`UNKNOWN`, for a view of another seat's choice) of
        ``seat``'s hand aside as its setup discard; the last one reveals them all."""
        self.hands[seat].remove(card)
        self.pending[seat] = card
        if events is not None:
            events.append(DiscardChosen(seat, self.name(card)))
        if self.waiting:
            return
        for s in range(1, len(self.labels)):
            self._to_pile(s, self.pending[s])
        if events is not None:
            events.append(DiscardsRevealed((None, *(self.name(c) for c in self.pending[1:]))))
        self.pending = [None] * len(self.labels)
        self.phase = PLAY

    def _to_pile(self, seat: int, card: int) -> None:
        self.piles[seat].append(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)

    def _play(self, seat: int, play: Play, events: list[Event] | None) -> None:
        index = self.deck.index
        card = index[play.card]
        hand = self.hands[seat]
        hand.remove(card if card in hand else UNKNOWN)
        effective = self.effective(card, None if play.copied is None else index[play.copied])
        self._to_pile(seat, card)
        hood = self.active(None if play.act is None else self.perform(seat, play.act))
        points, places = self.score(effective, hood)
        self.scores[seat] += points
        if events is not None:
            names = self.layout.places
            scorer = play.card if effective is None else self.name(effective)
            events.append(Played(seat, play.card, play.copied, play.act))
            events.append(Scored(seat, scorer, None if hood is None else self.layout.hood_names[hood],
                                 tuple(names[p] for p in places), points, self.scores[seat]))
        options = self.draw_options()
        if len(options) > 1:
            self.phase = DRAW
            return
        if options:
            self._draw(seat, options[0], events)
        self._end_turn(events)

    def perform(self, seat: int, act: Act) -> int:
        """Do ``act`` for ``seat``, unchecked (the board and supply only: no card, score or
        draw); return the active neighbourhood."""
        board = self.layout
        red, yellow = self.red, self.yellow
        cls = act.__class__
        if cls is Recolour:
            place, count = board.places.index(act.place), act.count
            sign = 1 if act.colour == "red" else -1
            red[place] -= sign * count
            yellow[place] += sign * count
            self.supply_red[seat] += sign * count
            self.supply_yellow[seat] -= sign * count
            return board.hood_names.index(act.hood)
        sign = 1
        if cls is Move:
            source = board.places.index(act.source)
            red[source] = yellow[source] = 0
        elif cls is Add:
            self.supply_red[seat] -= sum(p.red for p in act.penguins)
            self.supply_yellow[seat] -= sum(p.yellow for p in act.penguins)
        else:
            sign = -1
            self.supply_red[seat] += sum(p.red for p in act.penguins)
            self.supply_yellow[seat] += sum(p.yellow for p in act.penguins)
        for penguins in act.penguins:
            place = board.places.index(penguins.place)
            red[place] += sign * penguins.red
            yellow[place] += sign * penguins.yellow
        return board.hood_names.index(act.hood)

    def draw_options(self) -> list[int | None]:
        """What the seat whose turn it is may draw (DOWNTOWN.md "A turn" IV): its deck's
        top (``None``) if it has one; in the single-deck variant also each distinct
        display card. More than one option makes the draw a choice (a :class:`Draw`)."""
        seat = self.order[self.turn]
        options: list[int | None] = []
        if self.single:
            for card in self.display:
                if card not in options:
                    options.append(card)
        if self.deck_of(seat):
            options.append(None)
        return options

    def _draw(self, seat: int, card: int | None, events: list[Event] | None) -> None:
        """``seat`` takes display ``card``, refilled from the deck, or (``None``) the deck's top."""
        deck = self.deck_of(seat)
        if card is None:
            drawn = deck.pop()
            insort(self.hands[seat], drawn)
            if events is not None:
                events.append(Drew(seat, "deck", self.name(drawn)))
            return
        slot = self.display.index(card)
        insort(self.hands[seat], card)
        self.known[seat].append(card)
        if deck:
            refill = deck.pop()
            self.display[slot] = refill
        else:
            refill = None
            del self.display[slot]
        if events is not None:
            events.append(Drew(seat, "display", self.name(card), None if refill is None else self.name(refill)))

    def _end_turn(self, events: list[Event] | None) -> None:
        """The next seat's turn; at a round's end the next round, a tie-break round or the
        end (DOWNTOWN.md "Rounds, end and winner")."""
        self.phase = PLAY
        self.turn += 1
        if self.turn < len(self.order):
            return
        if events is not None:
            events.append(RoundEnded(self.round, tuple(self.scores)))
        self.turn = 0
        if self.round < self.rounds:
            self.round += 1
            return
        best = max(self.scores[s] for s in self.order)
        top = tuple(s for s in self.order if self.scores[s] == best)
        if len(top) == 1 or any(not self.hands[s] for s in top):
            self.phase, self.winners, self.shared = OVER, top, len(top) > 1
            if events is not None:
                events.append(GameEnded(tuple(self.scores), top, self.shared))
            return
        self.round += 1
        self.order = top
        if events is not None:
            events.append(TieBreak(self.round, top))

    def __repr__(self) -> str:
        if self.phase == OVER:
            where = f"over, won by {'/'.join(self.labels[s] for s in self.winners)}"
        elif self.phase == SETUP:
            where = "setup"
        else:
            where = f"round {self.round}, {self.labels[self.current]} to {self.phase}"
        return f"<State {'/'.join(self.labels)}{' single deck' if self.single else ''}, {where}>"


def _check_orders(deck: Deck, players: int, single: bool, orders: Sequence[Sequence[int]]) -> None:
    cards = sorted(i for i in range(len(deck.cards)) if i != deck.copy)
    expected = [sorted(cards * players)] if single else [cards] * players
    if [sorted(order) for order in orders] != expected:
        raise ValueError(f"the shuffle must be {'one deck of every player' if single else 'one deck per player'}"
                         f"'s cards but the Copy ({len(cards) * (players if single else 1)} cards"
                         f"{'' if single else ' each'})")
