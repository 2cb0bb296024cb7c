"""Waddle Downtown as plain text: cards and plays in words, one line per action, the
score table, the points of every turn and the final report.

The words are the rulebook's (DOWNTOWN.md): places by name (``L1``), neighbourhoods as
Light and Dark, cards by name, penguins as ``1r2y`` (1 red, 2 yellow). A line says only
what its audience saw: a card drawn from a deck or a setup discard before the reveal is
named only when the events name it (for the seat that drew or chose it). Names come from
the host (already cleaned there) and are cleaned again here (:func:`protocol.clean`)
before printing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from client.games.downtown.board import PlaceLook, hood_title, render_places
from client.games.movers import mover
from protocol import Played, clean
from protocol.messages import NAME_SHOWN
from protocol.text import counted, cut, pad
from waddle.downtown.actions import Act, Add, Move, Penguins, Recolour
from waddle.downtown.cards import Card
from waddle.downtown.events import (
    DiscardChosen,
    DiscardsRevealed,
    Drew,
    Event,
    GameEnded,
    RoundEnded,
    Scored,
    TieBreak,
)
from waddle.downtown.events import Played as PlayedEvent
from waddle.downtown.ruleset import DowntownMatch
from waddle.downtown.state import SETUP, State
from waddle.ruleset import Outcome

NameOf = Callable[[str], str]

#: Each scoring rule's condition on a place, in a few words (DOWNTOWN.md "The deck").
RULE_WORDS = {
    "equal": "red = yellow", "more_red": "more red", "more_yellow": "more yellow",
    "even": "2 or 4 penguins", "full": "5 penguins", "odd": "1, 3 or 5 penguins",
    "all_red": "red only", "all_yellow": "yellow only", "single": "1 penguin",
    "mixed": "both colours", "empty": "empty", "consecutive": "run of counts",
    "copy": "copy a top card",
}
#: Each scoring rule's condition on a place, in a sentence's words.
RULE_TEXT = {
    "equal": "as many red as yellow penguins (1 or more)", "more_red": "more red than yellow "
    "penguins (and a yellow)", "more_yellow": "more yellow than red penguins (and a red)",
    "even": "2 or 4 penguins", "full": "5 penguins", "odd": "1, 3 or 5 penguins",
    "all_red": "red penguins only", "all_yellow": "yellow penguins only", "single": "exactly 1 penguin",
    "mixed": "penguins of both colours", "empty": "no penguin",
}
#: Each action in a sentence.
ACTION_TEXT = {
    "standard": "action A (add) or B (move)",
    "recolour": "special action: on one place, swap 1 or 2 penguins of one colour for the "
                "other colour from your supply",
    "recall": "special action: take 1 or 2 penguins off one neighbourhood into your supply",
    "copy": "special action: choose an opponent's face-up top card (not a Copy), do its action "
            "and score by its rule; with none to copy, a standard action for 0 points",
}


def card_rule(card: Card) -> str:
    """``card``'s rule in a few words: ``"2 or 4 penguins"``, ``"5 penguins x2, all"`` (2
    points each, every place counts), ``"both colours, recolour"`` (a special action)."""
    words = RULE_WORDS.get(card.rule, card.rule)
    if card.rule == "copy":
        return words
    words += f" x{card.points}" if card.points != 1 else ""
    words += ", all" if card.scope == "all" else ""
    return words + (f", {card.action}" if card.action not in ("standard", "copy") else "")


def card_text(card: Card) -> str:
    """``card`` in a sentence, in the order of the turn: its action, then what it scores
    and where."""
    if card.rule == "copy":
        return f"{card.name}: {ACTION_TEXT['copy']}."
    where = "on the whole board" if card.scope == "all" else "of the active neighbourhood"
    points = f"{card.points} point{'s' if card.points != 1 else ''}"
    if card.rule == "consecutive":
        scores = f"{points} per count in the longest run of consecutive counts (1 to 5) {where}"
    else:
        scores = f"{points} for each place {where} with {RULE_TEXT[card.rule]}"
    return f"{card.name}: {ACTION_TEXT.get(card.action, card.action)}; then {scores}."


def penguins_text(red: int, yellow: int) -> str:
    """``"1r2y"``, ``"2r"``, ``"1y"``."""
    return (f"{red}r" if red else "") + (f"{yellow}y" if yellow else "")


def _spread(penguins: Sequence[Penguins]) -> str:
    return ", ".join(f"{p.place} {penguins_text(p.red, p.yellow)}" for p in penguins)


def act_text(act: Act | None) -> str:
    """What ``act`` did, in words: ``"add L1 1r, L3 2y in Light"``, ``"move P3 to P1 1r1y"``,
    ``"recolour C1: 2 red to yellow"``, ``"recall D2 1r"``, ``"no action"``."""
    if act is None:
        return "no action"
    if isinstance(act, Recolour):
        other = "yellow" if act.colour == "red" else "red"
        words = f"recolour {act.place}: {act.count} {act.colour} to {other}"
    elif isinstance(act, Move):
        words = f"move {act.source} to {_spread(act.penguins)}"
    else:
        words = f"{'add' if isinstance(act, Add) else 'recall'} {_spread(act.penguins)}"
    title = hood_title(act.hood)
    return f"{words} in {title}" if title else words


def card_played(card: str, copied: str | None) -> str:
    """``"Even"``, or for a Copy ``"Copy of Even"``."""
    return card if copied is None else f"{card} of {copied}"


def scored_text(scored: Scored) -> str:
    """``"+3 (12)"``: the points and the new total."""
    return f"+{scored.points} ({scored.total})"


def drew_text(drew: Drew) -> str:
    """A draw as its audience saw it: ``"drew a card"`` (a deck card not shown),
    ``"drew Odd"``, ``"took Odd from the display (Even refills it)"``."""
    if drew.source == "display":
        refill = f" ({drew.refill} refills it)" if drew.refill else ""
        return f"took {drew.card} from the display{refill}"
    return "drew a card" if drew.card is None else f"drew {drew.card}"


def event_note(event: Event, labels: Sequence[str]) -> str | None:
    """A note for an event that follows an action's first: a draw, a reveal, a round's end."""
    if isinstance(event, Drew):
        return drew_text(event)
    if isinstance(event, DiscardsRevealed):
        shown = ", ".join(f"{labels[s]} {c}" for s, c in enumerate(event.cards) if c is not None)
        return f"discards revealed: {shown}"
    if isinstance(event, RoundEnded):
        return f"round {event.round} ends"
    if isinstance(event, TieBreak):
        return f"tie-break round {event.round}: {', '.join(labels[s] for s in event.seats)}"
    if isinstance(event, GameEnded):
        return "game over" + (" (a shared victory)" if event.shared else "")
    return None


def action_text(events: Sequence[Event]) -> str:
    """What one action's first events tell: a discard, a play and its score, or a draw."""
    first = events[0]
    if isinstance(first, DiscardChosen):
        card = "a card" if first.card is None else first.card
        return f"discards {card}, face down until every discard is chosen"
    if isinstance(first, PlayedEvent):
        scored = next(e for e in events if isinstance(e, Scored))
        return f"{card_played(first.card, first.copied)} {scored_text(scored)}: {act_text(first.act)}"
    return drew_text(first)


def move_line(played: Played, labels: Sequence[str], name_of: NameOf) -> str:
    """``"   3  green  Bob        Even +3 (12): add L1 1r in Light; drew a card"`` for one
    ``played`` event (numbered from 1 as the hex game's: its version - 1)."""
    label = labels[played.seat]
    who = mover(name_of(label), played.bot)
    notes = [clean(n) for e in played.events[1:] if (n := event_note(e, labels)) is not None]
    line = f"{played.version - 1:>4}  {pad(clean(label), 6)} {pad(who, 24)} {clean(action_text(played.events))}"
    return "; ".join([line, *notes])


def _name(name: str) -> str:
    """A name from the host, cleaned and cut to :data:`~protocol.messages.NAME_SHOWN` cells."""
    return cut(clean(name), NAME_SHOWN)


def turn_points(history: Sequence[Event], players: int) -> list[list[int | None]]:
    """The points of every turn by seat and round (``None``: no turn that round, e.g. a
    tie-break round without that seat), from the events of a game."""
    rounds: list[list[int | None]] = [[None] * players]
    for event in history:
        if isinstance(event, Scored):
            rounds[-1][event.seat] = event.points
        elif isinstance(event, RoundEnded):
            rounds.append([None] * players)
    if len(rounds) > 1 and all(p is None for p in rounds[-1]):
        rounds.pop()
    return [[row[seat] for row in rounds] for seat in range(players)]


def _who(label: str, name_of: NameOf) -> str:
    """``"blue (Ada)"``, or the label alone when there is no name but it."""
    label, name = clean(label), _name(name_of(label))
    return label if name == label else f"{label} ({name})"


def score_lines(outcome: Outcome, labels: Sequence[str], name_of: NameOf) -> list[str]:
    """The score table: one row per player, best first, winners marked ``*``."""
    title = "final score" if outcome.finished else "score"
    lines = [f"{title}:", f"  {'player':<34} {'points':>6}"]
    for seat in sorted(range(len(labels)), key=lambda s: -outcome.scores[s]):
        mark = "*" if seat in outcome.winners else " "
        lines.append(f"{mark} {pad(_who(labels[seat], name_of), 34)} {outcome.scores[seat]:>6}")
    if outcome.finished:
        winners = ", ".join(_who(labels[s], name_of) for s in outcome.winners)
        lines.append(f"{'winners (shared)' if len(outcome.winners) > 1 else 'winner'}: {winners}")
    return lines


def turn_table(history: Sequence[Event], labels: Sequence[str], scores: Sequence[int],
               name_of: NameOf) -> list[str]:
    """The points of every turn: a row per player (their rounds, then the total)."""
    points = turn_points(history, len(labels))
    rounds = max((len(p) for p in points), default=0)
    lines = [f"  {'round':<20}" + "".join(f"{r:>4}" for r in range(1, rounds + 1)) + f"{'total':>7}"]
    for seat, label in enumerate(labels):
        row = "".join(f"{'-' if p is None else p:>4}" for p in points[seat])
        lines.append(f"  {pad(_who(label, name_of), 20)}{row:<{4 * rounds}}{scores[seat]:>7}")
    return lines


def places_text(state: State) -> str:
    """The places and their penguins, drawn in ASCII as the table lays them out."""
    looks = [PlaceLook(r, y) for r, y in zip(state.red, state.yellow)]
    return render_places(state.layout, looks, ascii=True).text()


def report(match: DowntownMatch) -> str:
    """The places reached, each scoring pile, the points of every turn and the score
    (``waddle replay``)."""
    state = match.state
    variant = ", the single-deck variant" if state.single else ""
    parts = [f"Waddle Downtown, {state.players} players, {state.rounds} rounds{variant}", "",
             places_text(state), "", "scoring piles (bottom first):"]
    for seat, label in enumerate(state.labels):
        pile = ", ".join(state.name(c) for c in match.state.piles[seat]) or "(none)"
        parts.append(f"  {label:<7}{pile}")
    parts += ["", "points per turn:", *turn_table(state.history, state.labels, state.scores, str)]
    if state.is_over:
        winners = ", ".join(state.labels[s] for s in state.winners)
        parts.append(f"\n{'winners (shared)' if state.shared else 'winner'}: {winners}")
    if not state.is_over:
        parts.append(f"\nthe record stops after {counted(len(match), 'action')}; "
                     f"the game is not over ({stopped(state)})")
    return "\n".join(parts)


def stopped(state: State) -> str:
    """Where an unfinished game stands, in words: ``"the setup discards"``, ``"round 3,
    blue to play"``, ``"round 3, blue to draw"``."""
    if state.phase == SETUP:
        return "the setup discards"
    return f"round {state.round}, {state.labels[state.current]} to {state.phase}"


def result_json(match: DowntownMatch) -> dict[str, Any]:
    """``{"finished": bool, "scores": {colour: points}, "winners": [colour, ...],
    "shared": bool, "turns": {colour: [points or null, ...]}}``: the score reached (the
    game so far if it is not over; ``winners`` is empty until it is), ``shared`` a
    shared victory (no tie-break possible), ``turns`` each player's points turn by turn
    (``null``: no turn that round). Players appear in opening turn order."""
    state = match.state
    points = turn_points(state.history, state.players)
    return {
        "finished": state.is_over,
        "scores": dict(zip(state.labels, state.scores)),
        "winners": [state.labels[s] for s in state.winners],
        "shared": state.shared,
        "turns": dict(zip(state.labels, points)),
    }
