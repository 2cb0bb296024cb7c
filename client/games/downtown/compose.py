"""Composing an action step by step, as a player does at the table (DOWNTOWN.md "A turn").

A :class:`Draft` is the action a seat is putting together, one step at a time, over what
the seat knows (its view's :class:`~waddle.downtown.state.State`):

- ``discard`` (setup): choose the card to put face up on your pile; then ``confirm``.
- ``card``: choose a card to play (the play restriction marks the others); for a Copy
  ``copy``: the opponent's top card to copy (none to copy: a standard action for 0).
- ``kind`` for a standard action: A (add) or B (move), when both are possible.
- ``spread``: put penguins on the places (A: from your supply; B: those taken from the
  ``source`` place, chosen first), or take them off (Recall), one at a time with
  :meth:`Draft.put`, all in one neighbourhood; ``recolour``: the place, the colour and
  how many (1 or 2).
- ``confirm``: the whole play and what it scores; then it is sent.
- ``draw`` (single-deck variant, when there is a choice): a display card or the deck's top.

Every method that can be refused returns the reason as a sentence for the player (else
``None``) and changes nothing; :meth:`Draft.back` goes back one step (Esc). Nothing here
sends anything: :meth:`Draft.action` is the finished action.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from client.games.downtown.board import hood_title
from client.games.downtown.text import penguins_text
from waddle.downtown.actions import (
    Action,
    Add,
    Discard,
    Draw,
    Move,
    Penguins,
    Play,
    Recall,
    Recolour,
)
from waddle.downtown.board import CAPACITY
from waddle.downtown.state import DRAW, SETUP, State
from waddle.errors import IllegalActionError

#: The steps that are a list to choose from (up/down, digits, Enter).
LIST_STEPS = ("card", "copy", "kind", "discard", "draw")
#: The steps that choose on the board (a cursor on the places).
BOARD_STEPS = ("source", "spread", "recolour")
#: Standard actions by key.
KINDS = {"add": "A: add penguins from your supply", "move": "B: move the penguins of one place"}


@dataclass
class Draft:
    """A seat's action in the making (see the module docstring).

    ``step``; ``choice``: the line chosen in a list step; ``card`` and ``copied`` (card
    numbers); ``kind``: ``"add"``, ``"move"``, ``"recolour"``, ``"recall"``, or ``None``
    (no action possible); ``hood`` the neighbourhood acted in; ``source``: B's place;
    ``put``: the penguins put on (A, B) or taken off (Recall), in order, as ``(place,
    colour)``; ``recolour``: ``(place, colour taken off, count)``; ``cursor``: the place
    chosen on the board; ``trail``: the steps before this one (for :meth:`back`) and
    ``picked`` the line chosen in each.
    """

    state: State
    seat: int
    step: str = "card"
    choice: int = 0
    card: int | None = None
    copied: int | None = None
    kind: str | None = None
    hood: int | None = None
    source: int | None = None
    put: list[tuple[int, str]] = field(default_factory=list)
    recolour: tuple[int, str, int] | None = None
    cursor: int = 0
    trail: list[str] = field(default_factory=list)
    picked: dict[str, int] = field(default_factory=dict)

    @classmethod
    def start(cls, state: State, seat: int) -> Draft:
        """A fresh draft for ``seat`` in ``state``: a setup discard, a draw or a play."""
        step = "discard" if state.phase == SETUP else "draw" if state.phase == DRAW else "card"
        return cls(state, seat, step)

    # -- the lists -------------------------------------------------------------------------

    def items(self) -> list:
        """What the list step offers: cards of the hand (``card``, ``discard``), cards to
        copy (``copy``), ``"add"``/``"move"`` (``kind``), display cards or ``None`` for the
        deck's top (``draw``); empty in the other steps."""
        state = self.state
        if self.step in ("card", "discard"):
            return list(state.hands[self.seat])
        if self.step == "copy":
            return state.copy_targets(self.seat)
        if self.step == "kind":
            return [kind for kind in KINDS if self._possible(kind)]
        if self.step == "draw":
            return state.draw_options()
        return []

    def choose(self, index: int) -> None:
        """Choose line ``index`` of the list (wrapping round)."""
        items = self.items()
        if items:
            self.choice = index % len(items)

    def blocked(self, card: int) -> str | None:
        """Why ``card`` may not be played now (the play restriction), or ``None``."""
        state = self.state
        if card in state.playable(self.seat):
            return None
        shown = [state.labels[s] for s, pile in enumerate(state.piles) if s != self.seat and pile and pile[-1] == card]
        return f"{state.name(card)} is on top of {' and '.join(shown)}'s pile"

    def pick(self) -> str | None:
        """Take the chosen line and go on to the next step (a draw: the draft is done)."""
        items = self.items()
        if not items:
            return None
        item = items[self.choice % len(items)]
        if self.step == "discard":
            self.card = item
            return self._advance("confirm")
        if self.step == "draw":
            self.card = item
            return self._advance("done")
        if self.step == "card":
            why = self.blocked(item)
            if why:
                return f"{why}: you may play it only when every card in your hand is blocked so"
            self.card = item
            if item == self.state.deck.copy and self.state.copy_targets(self.seat):
                return self._advance("copy")
            return self._after_card()
        if self.step == "copy":
            self.copied = item
            return self._after_card()
        return self._begin(item)

    def pick_kind(self, kind: str) -> str | None:
        """In the ``kind`` step: choose ``"add"`` (A) or ``"move"`` (B) directly."""
        if self.step != "kind":
            return None
        if kind not in self.items():
            return f"{KINDS[kind][:1]} is not possible now"
        return self._begin(kind)

    def _after_card(self) -> str | None:
        state = self.state
        kind = state.kind(state.effective(self.card, self.copied))
        if kind != "standard":
            return self._begin(kind if state.can_act(self.seat, kind) else None)
        kinds = [k for k in KINDS if self._possible(k)]
        if len(kinds) > 1:
            self.choice = 0
            return self._advance("kind")
        return self._begin(kinds[0] if kinds else None)

    def _possible(self, kind: str) -> bool:
        state = self.state
        if kind == "add":
            return state.can_add(self.seat)
        return any(state.move_hoods(p) for p in range(len(state.red)))

    def _begin(self, kind: str | None) -> str | None:
        """Go on to the step that does ``kind`` (``None``: no action, straight to confirm)."""
        self.kind, self.hood, self.source, self.put, self.recolour = kind, None, None, [], None
        step = {None: "confirm", "add": "spread", "recall": "spread", "move": "source",
                "recolour": "recolour"}[kind]
        return self._advance(step)

    def _advance(self, step: str) -> None:
        self.trail.append(self.step)
        self.picked[self.step] = self.choice
        self.step, self.choice = step, 0
        if step in BOARD_STEPS and not self.usable(self.cursor):
            self.cursor = next((p for p in range(len(self.state.red)) if self.usable(p)), 0)
        return None

    def usable(self, place: int) -> bool:
        """Whether the board step can use ``place``: a place to empty (B), one with
        penguins (Recolour), one that fits the penguins put so far (A, B, Recall)."""
        state = self.state
        if self.step == "source":
            return bool(state.move_hoods(place))
        if self.step == "recolour":
            return bool(state.count(place))
        if self.step == "spread":
            if self.kind == "recall" and not state.count(place):
                return False
            return place != self.source and bool(self.hoods_for({p for p, _ in self.put} | {place}))
        return False

    @property
    def opening(self) -> str:
        """The draft's first step: ``"discard"``, ``"draw"`` or ``"card"`` (a play)."""
        return self.trail[0] if self.trail else self.step

    def back(self) -> str | None:
        """Esc: back to the step before, undoing what this step chose."""
        if not self.trail:
            return "nothing to go back to"
        step = self.trail.pop()
        if self.step in ("spread", "recolour"):
            self.put, self.recolour = [], None
        if step == "source":
            self.source = None
        if step in LIST_STEPS:
            self.kind = None
        if step in ("card", "discard"):
            self.card = self.copied = None
        elif step == "copy":
            self.copied = None
        self.step, self.choice = step, self.picked.get(step, 0)
        return None

    # -- the board steps -------------------------------------------------------------------------

    def totals(self) -> dict[int, list[int]]:
        """The penguins put on (or taken off) by place: ``[red, yellow]``."""
        out: dict[int, list[int]] = {}
        for place, colour in self.put:
            out.setdefault(place, [0, 0])[colour == "yellow"] += 1
        return out

    def left(self) -> tuple[int, int]:
        """What may still be put: A, the supply left; B, the penguins taken not yet placed;
        Recall, how many more may be taken (in both colours)."""
        state, seat = self.state, self.seat
        reds = sum(1 for _, colour in self.put if colour == "red")
        yellows = len(self.put) - reds
        if self.kind == "move":
            return state.red[self.source] - reds, state.yellow[self.source] - yellows
        if self.kind == "recall":
            return 2 - len(self.put), 2 - len(self.put)
        return state.supply_red[seat] - reds, state.supply_yellow[seat] - yellows

    def hoods_for(self, places: set[int]) -> list[int]:
        """The neighbourhoods the act could use with penguins on ``places``."""
        layout = self.state.layout
        hoods = self.state.move_hoods(self.source) if self.kind == "move" else range(len(layout.hoods))
        return [h for h in hoods if places <= set(layout.hoods[h])]

    def select_source(self) -> str | None:
        """B: empty the place at the cursor."""
        state, place = self.state, self.cursor
        name = state.layout.places[place]
        if not state.count(place):
            return f"{name} is empty: choose a place with penguins"
        if not state.move_hoods(place):
            return f"the penguins of {name} fit in no neighbourhood"
        self.source = place
        return self._advance("spread")

    def put_penguin(self, colour: str) -> str | None:
        """Put one penguin of ``colour`` on the place at the cursor (A: from the supply; B:
        one taken from the source), or take one off it (Recall)."""
        state, place = self.state, self.cursor
        name = state.layout.places[place]
        if self.kind == "move" and place == self.source:
            return f"not back onto {name}, the place you emptied"
        hoods = self.hoods_for({p for p, _ in self.put} | {place})
        if not hoods and self.hood is None:
            source = state.layout.places[self.source]
            return f"the penguins of {source} do not all fit in the neighbourhood of {name}"
        if not hoods:
            title = hood_title(state.layout.hood_names[self.hood])
            return f"every penguin goes into one neighbourhood: {title} (x takes one back)"
        red, yellow = self.left()
        if (red if colour == "red" else yellow) <= 0:
            return {"add": f"no {colour} penguin left in your supply",
                    "move": f"every {colour} penguin taken is placed",
                    "recall": "Recall takes 1 or 2 penguins"}[self.kind]
        done = self.totals().get(place, [0, 0])
        if self.kind == "recall":
            there = state.red[place] if colour == "red" else state.yellow[place]
            if there - done[colour == "yellow"] <= 0:
                return f"no {colour} penguin on {name} to take"
        elif state.count(place) + sum(done) >= CAPACITY:
            return f"{name} is full: a place holds at most {CAPACITY} penguins"
        self.put.append((place, colour))
        self.hood = self.hood if self.hood in hoods else hoods[0]
        return None

    def take_back(self) -> str | None:
        """Take back the last penguin put (or the recolour chosen)."""
        if self.step == "recolour":
            if self.recolour is None:
                return "nothing to take back"
            self.recolour = None
            return None
        if not self.put:
            return "nothing to take back"
        self.put.pop()
        return None

    def next_hood(self) -> str | None:
        """Act in the next neighbourhood that can take what is chosen so far (3 players:
        penguins only on the centre places belong to both)."""
        if self.step == "recolour":
            if self.recolour is None:
                return "choose the penguins to recolour first"
            hoods = list(self.state.layout.hoods_of[self.recolour[0]])
        else:
            hoods = self.hoods_for({p for p, _ in self.put})
        if len(hoods) < 2:
            return "no other neighbourhood can take these penguins"
        self.hood = hoods[(hoods.index(self.hood) + 1) % len(hoods)] if self.hood in hoods else hoods[0]
        return None

    def set_recolour(self, colour: str) -> str | None:
        """Recolour the place at the cursor: one more of its penguins to ``colour`` (taken
        off are those of the other colour; 1 or 2 in all)."""
        state, place = self.state, self.cursor
        name = state.layout.places[place]
        off = "yellow" if colour == "red" else "red"
        count = 1
        if self.recolour is not None and self.recolour[:2] == (place, off):
            count = self.recolour[2] + 1
        if count > 2:
            return "Recolour swaps 1 or 2 penguins"
        there = state.red[place] if off == "red" else state.yellow[place]
        supply = (state.supply_red if colour == "red" else state.supply_yellow)[self.seat]
        if there < count:
            return (f"{name} has no {off} penguin to turn {colour}" if count == 1
                    else f"{name} has only 1 {off} penguin to turn {colour}")
        if supply < count:
            return f"you have {supply} {colour} penguin{'s' if supply != 1 else ''} in your supply"
        self.recolour = (place, off, count)
        hoods = state.layout.hoods_of[place]
        self.hood = self.hood if self.hood in hoods else hoods[0]
        return None

    def done(self) -> str | None:
        """Enter on the board: the act is complete, on to ``confirm`` (or why not)."""
        if self.step == "source":
            return self.select_source()
        if self.step == "recolour" and self.recolour is None:
            return "choose a place, then r or y: the colour its penguins become"
        if self.step == "spread":
            red, yellow = self.left()
            if self.kind == "move" and red + yellow:
                return f"place the rest of the penguins taken: {penguins_text(red, yellow)}"
            if not self.put:
                verb = "take a penguin off" if self.kind == "recall" else "put a penguin on"
                return f"{verb} a place first: r red, y yellow"
        try:
            self.state.check(self.seat, self.action())
        except IllegalActionError as exc:
            return str(exc)
        return self._advance("confirm")

    # -- the result -----------------------------------------------------------------------------

    def act(self):
        """The act composed so far (``None``: none yet, or no action)."""
        state = self.state
        layout = state.layout
        if self.kind == "recolour":
            if self.recolour is None:
                return None
            place, colour, count = self.recolour
            return Recolour(layout.places[place], colour, count, layout.hood_names[self.hood])
        if self.kind is None or not self.put:
            return None
        penguins = tuple(Penguins(layout.places[p], r, y) for p, (r, y) in sorted(self.totals().items()))
        hood = layout.hood_names[self.hood]
        if self.kind == "move":
            return Move(layout.places[self.source], hood, penguins)
        return (Add if self.kind == "add" else Recall)(hood, penguins)

    def action(self) -> Action:
        """The action this draft stands for (for a play, the act chosen so far)."""
        state = self.state
        if self.opening == "draw":
            return Draw(None if self.card is None else state.name(self.card))
        if self.opening == "discard":
            return Discard(state.name(self.card))
        copied = None if self.copied is None else state.name(self.copied)
        return Play(state.name(self.card), copied, self.act())

    def complete(self) -> bool:
        """Whether the play composed so far is a whole legal play (so it can be scored)."""
        if self.card is None or self.step in LIST_STEPS or self.opening != "card":
            return False
        try:
            self.state.check(self.seat, self.action())
        except IllegalActionError:
            return False
        return True
