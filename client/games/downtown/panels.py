"""Waddle Downtown's text beside the places: the round, the players (score, hand size,
supply, the top of the scoring pile), the single-deck display, the points of every
turn and the event log.

Every function is pure: table state (+ sizes) -> prompt-toolkit fragments. The game is
the view's engine state (``state.view.state``, what this client's audience knows); the
log reads the events grouped by action (:class:`Actions`).
"""

from __future__ import annotations

from collections.abc import Sequence

from client.games.downtown.text import act_text, card_played, drew_text, penguins_text, turn_points
from client.state import TableState
from client.ui.text import Fragments, fit, letter
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
)
from waddle.downtown.state import SETUP, State


def game_of(state: TableState) -> State:
    """The engine state of the table's view (what this client's audience knows)."""
    return state.view.state


def round_line(state: TableState) -> Fragments:
    """``"Round 3 of 8"``, ``"Tie-break round 9: B, G"``, ``"Setup: discards"``, ``"Game over"``."""
    game = game_of(state)
    if game.is_over:
        return [("class:heading", f"Game over after round {game.round}")]
    if game.phase == SETUP:
        return [("class:heading", "Setup: "), ("", "the discards")]
    if game.round > game.rounds:
        line: Fragments = [("class:heading", f"Tie-break round {game.round}:")]
        for seat in game.order:
            line += [("", " "), letter(state, game.labels[seat])]
        return line
    return [("class:heading", f"Round {game.round} of {game.rounds}")]


def deck_line(state: TableState) -> Fragments | None:
    """Single-deck variant: the shared deck's size and the display; else ``None``."""
    game = game_of(state)
    if not game.single:
        return None
    shown = ", ".join(game.name(c) for c in game.display) or "empty"
    return [("class:dim", f"Deck {len(game.decks[0])}, display: "), ("", shown)]


def _tag(state: TableState, label: str) -> str:
    """" (bot plays)" for a stand-in, " (away)" for a player gone; else nothing."""
    seat = next((s for s in state.seats if s.label == label), None)
    if seat is None or seat.connected:
        return ""
    if seat.standin:
        return " (bot plays)"
    return "" if seat.bot else " (away)"


def players(state: TableState, width: int, *, ascii: bool = False) -> list[Fragments]:
    """Two lines a player, in turn order: the one to act marked, letter, name, score;
    then hand size, supply, the top of the scoring pile, the cards known to be in the
    hand (the Copy until played, display cards taken) and, during the setup, whether
    the discard is chosen."""
    game = game_of(state)
    acting = game.to_act()
    arrow = ">" if ascii else "▶"
    out: list[Fragments] = []
    for seat, label in enumerate(game.labels):
        you = " (you)" if label == state.label else ""
        score = f"{game.scores[seat]:>3}"
        name = fit(f" {state.name_of(label)}{you}{_tag(state, label)}", max(width - 3 - len(score), 4),
                   ascii=ascii)
        mark = (arrow if seat in acting else " ")
        out.append([("class:heading" if seat in acting else "", mark), letter(state, label),
                    ("class:current" if seat in acting else "", name), ("class:heading", score)])
        out.append([("class:dim", "  " + _seat_facts(game, seat))])
    return out


def _seat_facts(game: State, seat: int) -> str:
    """``"5 cards, 4r3y, top Even; has Copy"``: hand size, supply, the pile's top card (in
    the setup: whether the discard is chosen), the cards known to be in the hand."""
    facts = [f"{len(game.hands[seat])} cards",
             penguins_text(game.supply_red[seat], game.supply_yellow[seat]) or "no supply"]
    pile = game.piles[seat]
    if game.phase == SETUP and seat:
        facts.append("discard chosen" if game.pending[seat] is not None else "choosing...")
    else:
        facts.append(f"top {game.name(pile[-1])}" if pile else "no pile")
    known = [game.name(c) for c in game.known[seat]]
    return ", ".join(facts) + ("; has " + ", ".join(known) if known else "")


#: The title of the points of every turn.
TURN_TITLE = "Points per turn"


def turn_table(state: TableState, width: int, *, ascii: bool = False) -> list[Fragments]:
    """The points of every turn: a heading with the rounds, then a row per player (their
    points round by round, ``-`` for no turn, then the total), winners starred at the end.
    When the names' column is too narrow for the title (8 rounds or more in a narrow
    window), the title takes a line of its own above the rounds."""
    game = game_of(state)
    points = turn_points(game.history, game.players)
    rounds = max((len(p) for p in points), default=0)
    star = "*" if ascii else "★"
    name = max(6, width - 3 * rounds - 11)
    columns = "".join(f"{r:>3}" for r in range(1, rounds + 1)) + "  total"
    if name + 2 >= len(TURN_TITLE):
        out = [[("class:heading", f"{TURN_TITLE:<{name + 2}}" + columns)]]
    else:
        out = [[("class:heading", TURN_TITLE)], [("class:heading", " " * (name + 2) + columns)]]
    for seat in sorted(range(game.players), key=lambda s: -game.scores[s]):
        label = game.labels[seat]
        row = "".join(f"{'-' if p is None else p:>3}" for p in points[seat])
        won = f" {star}" if seat in game.winners else ""
        out.append([letter(state, label), ("", fit(f" {state.name_of(label)}", name + 1, ascii=ascii)),
                    ("", f"{row:<{3 * rounds}}"), ("class:heading", f"{game.scores[seat]:>7}"), ("", won)])
    return out


class Actions:
    """The game's events grouped by action (a discard, a play with its score and draw, a
    draw), followed from the table's state: each ``played`` event as it arrives, and
    after a ``started`` or ``snapshot`` the public history (where a draw chosen after a
    play joins the play)."""

    def __init__(self) -> None:
        self._view = None
        self._version = 0
        self.groups: list[list[Event]] = []

    def update(self, state: TableState) -> list[list[Event]]:
        """The groups of the table's game now."""
        view, played = state.view, state.last_played
        if view is not self._view or state.version != self._version:
            follows = (view is self._view and played is not None and played.version == state.version
                       == self._version + 1)
            self.groups = [*self.groups, list(played.events)] if follows else groups_of(view.state.history)
            self._view, self._version = view, state.version
        return self.groups


def groups_of(history: Sequence[Event]) -> list[list[Event]]:
    """Events by action: a new one at each discard and play; a draw that follows a
    play's score, and the reveals and ends of rounds, join the action before."""
    groups: list[list[Event]] = []
    for event in history:
        starts = isinstance(event, (DiscardChosen, Played)) or (
            isinstance(event, Drew) and not (groups and isinstance(groups[-1][-1], Scored)))
        if starts or not groups:
            groups.append([event])
        else:
            groups[-1].append(event)
    return groups


def log_lines(state: TableState, groups: list[list[Event]]) -> list[Fragments]:
    """The event log, oldest first: a line per discard and draw, two per play (the card
    and its points; what it did and the draw after it), a line per reveal and round's end.
    An action a bot chose for a person (a stand-in, a turn the timer ended) names the bot
    (``state.choosers``, when it lines up with the actions)."""
    game = game_of(state)
    labels = game.labels
    choosers = state.choosers if len(state.choosers) == len(groups) else [None] * len(groups)
    out: list[Fragments] = []
    for group, chooser in zip(groups, choosers):
        first = group[0]
        who = _who(state, labels[first.seat], chooser) if hasattr(first, "seat") else []
        if isinstance(first, DiscardChosen):
            card = "a card" if first.card is None else first.card
            out.append(who + [("", f" discards {card}"), ("class:dim", " (in secret)")])
        elif isinstance(first, Played):
            scored = next(e for e in group if isinstance(e, Scored))
            out.append(who + [("", f" {card_played(first.card, first.copied)} "),
                              ("class:heading", f"+{scored.points}"), ("class:dim", f" ({scored.total})")])
            draws = [drew_text(e) for e in group if isinstance(e, Drew)]
            out.append([("class:dim", "  " + "; ".join([act_text(first.act), *draws]))])
        elif isinstance(first, Drew):
            out.append(who + [("", " " + drew_text(first))])
        out += [_note(state, e) for e in group[1:] if isinstance(e, (DiscardsRevealed, RoundEnded, TieBreak, GameEnded))]
    return out


def _who(state: TableState, label: str, chooser: str | None) -> Fragments:
    seat = next((s for s in state.seats if s.label == label), None)
    person = seat is None or seat.bot is None or seat.standin
    stand_in = f"'s stand-in ({chooser} bot)" if chooser and person else ""
    return [letter(state, label), ("", f" {state.name_of(label)}{stand_in}")]


def _note(state: TableState, event: Event) -> Fragments:
    game = game_of(state)
    if isinstance(event, DiscardsRevealed):
        line: Fragments = [("class:dim", "- discards:")]
        for seat, card in enumerate(event.cards):
            if card is not None:
                line += [("", " "), letter(state, game.labels[seat]), ("", f" {card}")]
        return line
    if isinstance(event, RoundEnded):
        return [("class:dim", f"- round {event.round} over")]
    if isinstance(event, TieBreak):
        line = [("class:dim", f"- tie-break round {event.round}:")]
        for seat in event.seats:
            line += [("", " "), letter(state, game.labels[seat])]
        return line
    return [("class:dim", "- game over" + (": a shared victory" if event.shared else ""))]
