"""Waddle Downtown's terminal view: the places, your hand, composing a play, the panel.

:class:`GameView` is Waddle Downtown's :class:`client.ui.gameview.GameView`. The board
area shows the places as the table lays them out (:mod:`client.games.downtown.board`)
and under them your hand or the step of the action you compose
(:mod:`client.games.downtown.compose`): each card with its rule in a few words and the
most it scores now, a card the play restriction blocks marked ``x`` with why; then, for
the card picked, what to copy, A or B, the place to empty, the penguins put on place by
place (supply or penguins left shown), and the whole play with the points it scores
(:meth:`waddle.downtown.ruleset.DowntownView.preview`) before you confirm. Esc backs out
a step. At the end, and with ``v`` at any time, the points of every turn. The panel:
the round, every player's score, hand size, supply and top card, the display (single
deck), the events. Spectators see no hand.
"""

from __future__ import annotations

import textwrap

import msgspec
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings

from client.games.downtown import panels
from client.games.downtown.board import PlaceLook, Places, geometry, hood_title, render_places
from client.games.downtown.compose import BOARD_STEPS, KINDS, LIST_STEPS, Draft
from client.games.downtown.text import (
    act_text,
    action_text,
    card_played,
    card_rule,
    card_text,
    penguins_text,
)
from client.ui.gameview import MOVES, Drawn, Field
from client.ui.gameview import GameView as Base
from client.ui.text import Fragments, cut_line, ellipsis, fit, take, wrap_line
from protocol.text import clean
from waddle.downtown.actions import Move, Play, Recall, Recolour
from waddle.downtown.best import options as best_options
from waddle.downtown.events import RoundEnded, Scored
from waddle.downtown.options import BundledDeck, FileDeck
from waddle.downtown.state import SETUP, State
from waddle.errors import IllegalActionError

#: The least lines under the places: a heading, a hand of 6, two lines of detail; the
#: board keeps the most, so that the places stay put from step to step.
LOWER_LINES = 9
LOWER_MAX = 12
#: The most lines a refusal takes under the places, below the step's heading.
NOTICE_LINES = 3
#: The widest the board area grows (the text under the places wraps within it).
MAX_WIDTH = 72
#: The game's keys in the help: (keys, what they do, in short).
HELP = (
    ("up/down, j/k", "choose a card or a line; on the places, move the cursor", "choose / move"),
    ("left/right, h/l", "move the cursor between the places", "move the cursor"),
    ("Tab / shift-Tab", "the cursor to the next / previous place, in board order", "next place"),
    ("1-9", "pick that card or line at once", "pick a line"),
    ("Enter / space", "pick; on the places: done; at the end of a play: confirm it", "pick / done / confirm"),
    ("Esc", "back one step (what it chose is undone)", "back one step"),
    ("r / y", "put a red / yellow penguin on the place (Recall: take one off; "
              "Recolour: turn one red / yellow)", "red / yellow penguin"),
    ("x / Backspace", "take back the last penguin put", "take back a penguin"),
    ("n", "act in the other neighbourhood (3 players: penguins on centre places only)", "other neighbourhood"),
    ("a / b", "choose standard action A (add) / B (move)", "action A / B"),
    ("mouse click", "choose a place or a line", "choose"),
)
#: What the marks mean, for the help.
LEGEND = ("A place shows its penguins: R red, Y yellow, a dot for room (5 at most); lower case: "
          "put on by the play you compose; * before them: the place counts in the score shown; "
          "the cursor's place has double lines (# in ASCII); > Light < is the active "
          "neighbourhood. In your hand x marks a card the play restriction blocks; \"up to 3\": "
          "the most that card scores now.")
#: The rules page of the help (DOWNTOWN.md, in short); the cards of the table's deck follow.
RULES = (
    "The places: 2 players share one ring of 5 places; 3 players rows of 3, 2 and 3, the Light "
    "and the Dark neighbourhood, the 2 centre places in both; 4 players two rings of 5, Light and "
    "Dark. A place holds 0 to 5 penguins, red and yellow, which belong to nobody.",
    "You have a supply of 4 red and 4 yellow penguins and a hand of cards. At the start every "
    "player but the first draws a 6th card and puts one card face up on their scoring pile, "
    "unscored; the discards are chosen in secret and revealed together.",
    "Your turn: I. Play a card face up on your scoring pile. You may not play a card named like "
    "the top card of an opponent's pile, unless every card in your hand is so named.",
    "II. Act: a card with a special action (Recolour, Recall, Copy) does it; any other card does "
    "A or B. A: put 1 or more penguins from your supply on places of one neighbourhood. B: take "
    "all the penguins of one place and put them on places of one neighbourhood (its other "
    "places, or the other neighbourhood), never back. The neighbourhood you act in is active.",
    "III. Score the card: its rule counts the places of the active neighbourhood (a card marked "
    "all: every place). IV. Draw a card (single deck: a display card or the deck's top).",
    "The game lasts 8 rounds with 2 players, 7 with 3, 6 with 4. The highest score wins; tied "
    "players play on, a round at a time, until one is ahead (none with a card left: they share).",
    "Single-deck variant: one deck of everybody's cards, each player keeps a Copy, 3 cards face "
    "up beside the deck; you draw one of them or the deck's top.",
)


class GameView(Base):
    """Waddle Downtown in the terminal (see the module docstring)."""

    def __init__(self, shell) -> None:
        super().__init__(shell)
        self.draft: Draft | None = None
        self._key: tuple | None = None
        self._actions = panels.Actions()
        self._sent: tuple | None = None
        self._rejection = None
        self._best: tuple[object, dict] | None = None
        self._preview: tuple[object, Scored | None] | None = None
        self._file_deck: FileDeck | None = None

    # -- what the view reads --------------------------------------------------------------

    @property
    def game(self) -> State:
        """The engine state of the table's view (what this client's audience knows)."""
        return self.state.view.state

    @property
    def seat(self) -> int | None:
        """This client's seat, or ``None`` for a spectator."""
        return self.state.view.audience

    def composing(self) -> bool:
        """Whether this seat is composing its action now."""
        return self.draft is not None and self.state.my_turn

    def best(self) -> dict:
        """The most each card of the hand scores now, and each card copied and each of A
        and B for the card picked: ``{card: points, (card, copied): points, (card, copied,
        group): points}``, worked out once per state."""
        game = self.game
        if self._best is None or self._best[0] is not game:
            table: dict = {}
            hand = set(game.hands[self.seat]) - {-1}
            for option in best_options(game, self.seat, hand):
                for key in (option.card, (option.card, option.copied), (option.card, option.copied, option.acts.group)):
                    table[key] = max(table.get(key, 0), option.points)
            self._best = (game, table)
        return self._best[1]

    def preview(self) -> Scored | None:
        """What the play composed scores, when it is a whole legal play."""
        draft = self.draft
        key = (self.game, draft.step, draft.card, draft.copied, draft.kind, draft.hood, draft.source,
               tuple(draft.put), draft.recolour)
        if self._preview is None or self._preview[0] != key:
            scored = None
            if draft.complete():
                try:
                    scored = self.state.view.preview(draft.action())
                except IllegalActionError:
                    scored = None
            self._preview = (key, scored)
        return self._preview[1]

    # -- drawing ------------------------------------------------------------------------------

    def _places(self) -> Places:
        game = self.game
        layout = game.layout
        red, yellow = list(game.red), list(game.yellow)
        new = [[0, 0] for _ in red]
        notes = [""] * len(red)
        draft = self.draft if self.composing() else None
        scored = self._last_scored()
        dim: set[int] = set()
        cursor = None
        active: set[int] = set()
        if draft is not None and (draft.step in (*BOARD_STEPS, "confirm")):
            self._draft_places(draft, red, yellow, new, notes)
            if draft.step in BOARD_STEPS:
                cursor = draft.cursor
                dim = {p for p in range(len(red)) if not draft.usable(p)}
            if draft.hood is not None:
                active = {draft.hood}
            scored = self.preview()
        if draft is None or draft.step not in (*BOARD_STEPS, "confirm"):
            active = self._suggested_places(notes) or active
        if scored is not None and scored.hood is not None and not active:
            active = {layout.hood_names.index(scored.hood)}
        counted = {layout.places.index(p) for p in scored.places} if scored is not None else set()
        looks = [PlaceLook(red[p], yellow[p], new[p][0], new[p][1], notes[p], p == cursor, p in counted,
                           p in dim) for p in range(len(red))]
        return render_places(layout, looks, active=active, ascii=self.shell.ascii)

    def _suggested_places(self, notes: list[str]) -> set[int]:
        """Mark on ``notes`` the places of the play the search bot suggests (``*`` and
        what it puts there); return its neighbourhood (empty: no play suggested)."""
        play = self.shell.suggestion
        act = play.act if isinstance(play, Play) else None
        if act is None:
            return set()
        layout = self.game.layout
        if isinstance(act, Recolour):
            notes[layout.places.index(act.place)] = f"*{act.count}{act.colour[0]}>"
        else:
            if isinstance(act, Move):
                notes[layout.places.index(act.source)] = "*out"
            sign = "-" if isinstance(act, Recall) else "+"
            for penguins in act.penguins:
                notes[layout.places.index(penguins.place)] = f"*{sign}{penguins_text(penguins.red, penguins.yellow)}"
        return {layout.hood_names.index(act.hood)}

    def _last_scored(self) -> Scored | None:
        return next((e for e in reversed(self.game.history) if isinstance(e, Scored)), None)

    def _draft_places(self, draft: Draft, red, yellow, new, notes) -> None:
        """The places as they would be after the act composed so far."""
        if draft.kind == "recolour" and draft.recolour is not None:
            place, off, count = draft.recolour
            sign = 1 if off == "yellow" else -1
            red[place] += sign * count
            yellow[place] -= sign * count
            new[place][0 if off == "yellow" else 1] += count
            notes[place] = f"{count}{off[0]}>{'y' if off == 'red' else 'r'}"
            return
        if draft.kind == "move" and draft.source is not None:
            red[draft.source] = yellow[draft.source] = 0
            notes[draft.source] = "out"
        sign = -1 if draft.kind == "recall" else 1
        for place, (r, y) in draft.totals().items():
            red[place] += sign * r
            yellow[place] += sign * y
            if sign > 0:
                new[place] = [r, y]
            notes[place] = ("+" if sign > 0 else "-") + penguins_text(r, y)

    def board(self, width: int, height: int) -> Drawn | None:
        places = self._places()
        if width < places.width or height < places.height + 1 + LOWER_LINES:
            return None
        wide = max(places.width, min(width, MAX_WIDTH))
        lower, items = self._lower(wide, height - places.height - 1)
        indent = (wide - places.width) // 2
        lines: list[Fragments] = [[("", " " * indent), *line] for line in places.lines] + [[]]
        lines += [cut_line(line, wide, ascii=self.shell.ascii) for line in lower]
        lines += [[] for _ in range(min(height, places.height + 1 + LOWER_MAX) - len(lines))]
        def at(x: int, y: int):
            if y < places.height:
                place = places.place_at(x - indent, y)
                return None if place is None else ("place", place)
            index = y - places.height - 1
            return ("item", items[index]) if 0 <= index < len(items) and items[index] is not None else None

        return Drawn(tuple(map(tuple, lines)), wide, len(lines), at)

    def needed_size(self) -> tuple[int, int]:
        _, width, height, _ = geometry(self.game.layout)
        return max(width, 44), height + 1 + LOWER_LINES

    def _lower(self, width: int, rows: int) -> tuple[list[Fragments], list[int | None]]:
        """The lines under the places and, for each, the list line it shows (or ``None``)."""
        state = self.state
        if state.finished or self.shell.ui.scores or self.seat is None:
            lines = panels.turn_table(state, width, ascii=self.shell.ascii)
            if self.seat is None and not state.finished:
                lines = [[("class:dim", "Watching: every hand is hidden")], *lines]
            return lines[:rows], [None] * len(lines)
        draft = self.draft
        lines, items, top = (self._list if draft.step in LIST_STEPS else self._board_lines)(draft, width, rows)
        notice = self.shell.ui.notice
        if notice and self.composing():  # why a step was refused, whole (the banner cuts it at 80 columns)
            said = [[("class:notice", line)] for line in textwrap.wrap(notice, width)[:NOTICE_LINES]]
            lines, items = lines[:top] + said + lines[top:], items[:top] + [None] * len(said) + items[top:]
        return lines[:rows], items[:rows]

    def _list(self, draft: Draft, width: int, rows: int) -> tuple[list[Fragments], list[int | None], int]:
        """The lines of a list step, for each the list line it shows (or ``None``), and
        how many lines the heading takes (1)."""
        composing = self.composing()
        heading = self._heading(draft) if composing else f"Your hand: {len(self.game.hands[self.seat])} cards"
        lines: list[Fragments] = [[("class:heading", heading)]]
        items: list[int | None] = [None]
        arrow = ">" if self.shell.ascii else "▶"
        entries = draft.items()
        for i, item in enumerate(entries):
            text, note, blocked = self._entry(draft, item, composing)
            selected = i == draft.choice
            digit = str(i + 1) if i < 9 else " "
            flag = "x " if blocked else "  " if draft.step == "card" else ""
            body = fit(f"{arrow if selected else ' '}{digit} {flag}{text}", width - len(note),
                       ascii=self.shell.ascii)
            style = "class:selected" if selected and composing else "class:dim" if blocked else ""
            lines.append([(style, body), ("class:dim", note)])
            items.append(i)
        detail = wrapped(self._detail(draft, entries), width, max(rows - len(lines), 0), self.shell.ascii)
        return lines + detail, items + [None] * len(detail), 1

    def _entry(self, draft: Draft, item, composing: bool) -> tuple[str, str, bool]:
        """A list line: its text, a note at its end (the most it scores), and whether it is
        blocked; the rules start in one column, after the deck's longest name (11 at least)."""
        game = self.game
        step = draft.step
        names = max(11, *(len(card.name) for card in game.deck.cards))
        if step == "kind":
            supply = penguins_text(game.supply_red[self.seat], game.supply_yellow[self.seat])
            text = KINDS[item] + (f" ({supply})" if item == "add" else "")
            return text, self._up_to((draft.card, draft.copied, item)), False
        if step == "draw":
            if item is None:
                return f"the deck's top card (unseen; {len(game.decks[0])} left)", "", False
            return f"{game.name(item):<{names}} {card_rule(game.deck.cards[item])}  (display)", "", False
        card = game.deck.cards[item]
        if step == "copy":
            shown = [game.labels[s] for s, pile in enumerate(game.piles) if pile and pile[-1] == item and s != self.seat]
            return f"{card.name:<{names}} {card_rule(card)} ({', '.join(shown)})", self._up_to((draft.card, item)), False
        blocked = draft.blocked(item) if step == "card" else None
        if blocked:
            owners = blocked.split(" is on top of ", 1)[1].removesuffix("'s pile")
            return f"{card.name:<{names}} blocked: {owners}'s top card", "", True
        note = self._up_to(item) if step == "card" and composing else ""
        return f"{card.name:<{names}} {card_rule(card)}", note, False

    def _up_to(self, key) -> str:
        points = self.best().get(key)
        return "" if points is None else f" up to {points}"

    def _detail(self, draft: Draft, entries: list) -> str:
        """The chosen line in full: a card's rule and action."""
        if not entries:
            return ""
        item = entries[draft.choice % len(entries)]
        if draft.step == "kind":
            card = self.game.deck.cards[self.game.effective(draft.card, draft.copied)]
            return card_text(card)
        if item is None:
            return "Draw the top card of the deck, unseen by the others."
        return card_text(self.game.deck.cards[item])

    def _heading(self, draft: Draft) -> str:
        game = self.game
        card = None if draft.card is None else game.name(draft.card)
        return {
            "discard": "Setup: discard a card (face up, no points)",
            "card": "Your turn: play a card",
            "copy": "Copy: which opponent's top card do you copy?",
            "kind": f"{card_played(card or '', self._copied())}: action A or B?",
            "draw": "Draw a card: a display card or the deck's top",
        }.get(draft.step, "")

    def _copied(self) -> str | None:
        draft = self.draft
        return None if draft is None or draft.copied is None else self.game.name(draft.copied)

    def _board_lines(self, draft: Draft, width: int, rows: int) -> tuple[list[Fragments], list[int | None], int]:
        """The lines of a board step or the confirm step (wrapped to ``width``), ``None``
        for each (no list line), and how many lines the heading, the first, wraps to (a
        notice goes after the whole of it)."""
        game = self.game
        lines: list[Fragments] = []
        card = game.name(draft.card)
        played = card_played(card, self._copied())
        if draft.step == "confirm":
            lines += self._confirm(draft, played)
        else:
            lines.append([("class:heading", f"{played}: {self._doing(draft)}")])
            lines.append([("", self._left(draft))])
            scored = self.preview()
            if scored is not None:
                lines.append(self._scores(scored))
        top = len(wrap_line(lines[0], width, rows, indent=""))
        lines = [part for line in lines for part in wrap_line(line, width, rows, indent="")]
        effective = game.effective(draft.card, draft.copied)
        if effective is not None and draft.opening == "card":
            lines += wrapped(card_text(game.deck.cards[effective]), width, rows - len(lines), self.shell.ascii)
        return lines[:rows], [None] * min(len(lines), rows), top

    def _doing(self, draft: Draft) -> str:
        """What the step asks for, in words."""
        game = self.game
        hood = "" if draft.hood is None or len(game.layout.hoods) == 1 else \
            f" in {hood_title(game.layout.hood_names[draft.hood])}"
        if draft.step == "source":
            return "B, choose the place to empty (Enter)"
        if draft.step == "recolour":
            return f"on a place{hood}, r or y: the colour its penguins become"
        if draft.kind == "move":
            return f"B, the penguins of {game.layout.places[draft.source]} onto places{hood} (r, y)"
        if draft.kind == "recall":
            return f"take 1 or 2 penguins off{hood} (r, y)"
        return f"A, add penguins{hood} (r, y)"

    def _left(self, draft: Draft) -> str:
        if draft.step == "source":
            return "its penguins go on the places of one neighbourhood, never back"
        red, yellow = draft.left()
        if draft.kind == "recolour":
            if draft.recolour is None:
                return "1 or 2 penguins of one colour swap for the other colour from your supply"
            place, off, count = draft.recolour
            other = "yellow" if off == "red" else "red"
            return f"{game_place(self.game, place)}: {count} {off} to {other}; Enter when done"
        if draft.kind == "move":
            left = penguins_text(red, yellow)
            return f"to place: {left}" if left else "to place: none; Enter when done"
        if draft.kind == "recall":
            return f"taken off: {len(draft.put)} of at most 2" + ("; Enter when done" if draft.put else "")
        supply = penguins_text(red, yellow) or "none"
        return f"supply left: {supply}" + ("; Enter when done" if draft.put else "")

    def _scores(self, scored: Scored) -> Fragments:
        places = f" ({', '.join(scored.places)})" if scored.places else ""
        plural = "s" if scored.points != 1 else ""
        return [("class:heading", f"scores {scored.points} point{plural}"), ("", places),
                ("class:dim", f": total {scored.total}")]

    def _confirm(self, draft: Draft, played: str) -> list[Fragments]:
        if draft.opening == "discard":
            return [[("class:heading", f"Discard {played} face up on your pile?")],
                    [("", "It scores nothing; everybody sees it once every discard is chosen.")],
                    [("class:dim", "Enter discards it, Esc goes back")]]
        act = draft.act()
        lines = [[("class:heading", f"Play {played}: {act_text(act)}?")]]
        if act is None:
            lines.append([("class:dim", "no action is possible; the card still scores")])
        scored = self.preview()
        if scored is not None:
            lines.append(self._scores(scored))
        lines.append([("class:dim", "Enter plays it, Esc goes back")])
        return lines

    def panel_top(self, width: int) -> list[Fragments]:
        lines = [panels.round_line(self.state)]
        deck = panels.deck_line(self.state)
        if deck is not None:
            lines.append(deck)
        return lines + panels.players(self.state, width, ascii=self.shell.ascii)

    def event_lines(self) -> list[Fragments]:
        return panels.log_lines(self.state, self._actions.update(self.state))

    def turn_hint(self) -> Fragments:
        draft = self.draft
        if draft is None:
            return []
        if self._sent is not None:
            return [("", " sent; waiting for the host")]
        hints = {
            "discard": " setup: discard a card face up (unscored)",
            "card": " play a card: up/down or 1-9, Enter",
            "copy": " Copy: choose the card to copy",
            "kind": " A (add) or B (move)?",
            "draw": " draw: a display card or the deck's top",
            "source": " B: the place to empty",
            "recolour": " Recolour: a place, then r or y",
            "confirm": " Enter confirms, Esc goes back",
        }
        hint = hints.get(draft.step)
        if hint is None:
            red, yellow = draft.left()
            hint = (f" {'take off' if draft.kind == 'recall' else 'put on'} penguins: r, y; Enter done"
                    f" ({'left' if draft.kind == 'move' else 'supply'} {penguins_text(red, yellow) or 'none'})"
                    if draft.kind != "recall" else " Recall: r, y take a penguin off; Enter done")
        return [("", hint)]

    def status(self) -> Fragments:
        game = self.game
        if game.is_over or game.phase == SETUP:
            return []
        if game.round > game.rounds:
            return [("class:dim", f"  tie-break round {game.round}")]
        return [("class:dim", f"  round {game.round} of {game.rounds}")]

    def hints(self) -> list[tuple[str, str]]:
        if self.state.finished or self.shell.ui.scores:
            return []
        draft = self.draft
        if not self.composing():
            return [("up/down your hand", "up/down hand")] if draft is not None else []
        if draft.step in LIST_STEPS:
            pick = [("a/b A or B", "a/b")] if draft.step == "kind" else []
            back = [("Esc back", "Esc back")] if draft.trail else []  # the first step: nothing to go back to
            return pick + [("up/down choose", "up/down"), ("Enter pick", "Enter"), *back]
        if draft.step == "confirm":
            return [("Enter confirm", "Enter"), ("Esc back", "Esc back")]
        if draft.step == "source":
            return [("arrows move", "arrows"), ("Enter empty it", "Enter"), ("Esc back", "Esc back")]
        verb = {"recall": "off", "recolour": "colour"}.get(draft.kind or "", "add")
        keys = [(f"r/y {verb}", "r/y"), ("x undo", "x undo")]
        if len(self.game.layout.hoods) > 1:
            keys.append(("n hood", "n hood"))
        return keys + [("Enter ok", "Enter ok"), ("Esc back", "Esc back")]

    def help(self) -> list[tuple[str, str, str]]:
        return list(HELP)

    def legend(self) -> str:
        return LEGEND

    def rules(self) -> list[str]:
        cards = ["The cards of this table's deck:"] + [card_text(card) for card in self.game.deck.cards]
        return [*RULES, *cards]

    def scores_available(self) -> bool:
        return True

    def score_help(self) -> tuple[str, str]:
        return "the points of every turn of every player (again: back to your hand)", "points per turn"

    def lobby_fields(self) -> list[Field]:
        return [Field("Single deck", lambda s: "on" if s.options.single_deck else "off", _toggle_single),
                Field("Deck", _show_deck, self._step_deck)]

    def _step_deck(self, settings, step: int):
        """The bundled deck, or back to the deck file the host chose (which a peer may keep,
        never name)."""
        deck = settings.options.deck
        if isinstance(deck, FileDeck):
            self._file_deck = deck
            return _options(settings, deck=BundledDeck())
        return settings if self._file_deck is None else _options(settings, deck=self._file_deck)

    def chapters(self, events: list) -> frozenset[str]:
        return frozenset("round" for e in events if isinstance(e, RoundEnded))

    def move_text(self, events: list) -> str:
        return action_text(events) if events else "?"

    # -- input ---------------------------------------------------------------------------------

    def bindings(self, playing: Filter, finished: Filter) -> KeyBindings:
        # The points per turn (v) take the place of the hand: no key acts on what is hidden.
        playing = playing & Condition(lambda: not self.shell.ui.scores)
        kb = KeyBindings()
        for keys, (dx, dy) in MOVES.items():
            kb.add(*keys, filter=playing)(lambda event, dx=dx, dy=dy: self.move(dx, dy))
        kb.add("tab", filter=playing)(lambda event: self.next_place(1))
        kb.add("s-tab", filter=playing)(lambda event: self.next_place(-1))
        for key in ("enter", "space"):
            kb.add(key, filter=playing)(lambda event: self.enter())
        kb.add("escape", filter=playing)(lambda event: self._turn(lambda d: d.back()))
        for digit in "123456789":
            kb.add(digit, filter=playing)(lambda event, d=int(digit): self.pick_line(d - 1))
        for key, colour in (("r", "red"), ("y", "yellow")):
            kb.add(key, filter=playing)(lambda event, colour=colour: self.penguin(colour))
        for key in ("x", "backspace", "-"):
            kb.add(key, filter=playing)(lambda event: self._board_key(lambda d: d.take_back()))
        kb.add("n", filter=playing)(lambda event: self._board_key(lambda d: d.next_hood()))
        for key, kind in (("a", "add"), ("b", "move")):
            kb.add(key, filter=playing)(lambda event, kind=kind: self._turn(lambda d: d.pick_kind(kind)))
        return kb

    def click(self, choice) -> bool:
        kind, index = choice
        draft = self.draft
        if draft is None or self.shell.ui.scores:
            return False
        if kind == "place" and draft.step in BOARD_STEPS and self.composing():
            draft.cursor = index
        elif kind == "item":
            draft.choose(index)
            if self.composing():
                self._do(draft.pick)
        else:
            return False
        self.shell.redraw()
        return True

    def changed(self) -> None:
        state, game, seat = self.state, self.game, self.seat
        self._actions.update(state)
        if state.last_rejection is not self._rejection:
            self._rejection, self._sent = state.last_rejection, None
        if seat is None:
            self.draft = None
            return
        key = (state.game_number, game.phase, game.round, game.turn, game.order, state.my_turn)
        if key != self._key or self.draft is None:
            old = self.draft
            self._key, self._sent = key, None
            self.draft = Draft.start(game, seat) if state.my_turn else Draft(game, seat, "card")
            if old is not None:
                self.draft.cursor = old.cursor
                if not state.my_turn:
                    self.draft.choose(old.choice)
        else:
            self.draft.state = game

    # -- actions -------------------------------------------------------------------------------

    def _do(self, step) -> None:
        """Run a draft step; a refusal shows as the notice; redraw."""
        if step is None:
            return
        why = step()
        if why:
            self.shell.notify(why)
        else:
            self.shell.notify("")
        self._send_if_done()

    def _turn(self, step) -> None:
        """A step that needs your turn."""
        if not self.composing():
            self.shell.notify(self._not_now())
            return
        self._do(lambda: step(self.draft))

    def _board_key(self, step) -> None:
        """A key of the board steps (r, y, x, n)."""
        if self.composing() and self.draft.step in BOARD_STEPS:
            self._do(lambda: step(self.draft))
        elif not self.composing():
            self.shell.notify(self._not_now())

    def _not_now(self) -> str:
        if self.seat is None:
            return "spectators hold no cards"
        return "it is not your turn" if not self.state.my_turn else ""

    def move(self, dx: int, dy: int) -> None:
        """A direction key: the next line of a list, or the cursor to the nearest place that way."""
        draft = self.draft
        if draft is None:
            return
        if draft.step in LIST_STEPS or not self.composing():
            draft.choose(draft.choice + (dx or dy))
        elif draft.step in BOARD_STEPS:
            boxes, _, _, _ = geometry(self.game.layout)
            draft.cursor = step_cursor(boxes, draft.cursor, dx, dy)
        self.shell.redraw()

    def next_place(self, step: int) -> None:
        """Tab: the cursor to the next (``step`` 1) or previous place in board order."""
        draft = self.draft
        if draft is not None and draft.step in BOARD_STEPS and self.composing():
            draft.cursor = (draft.cursor + step) % len(self.game.red)
            self.shell.redraw()

    def pick_line(self, index: int) -> None:
        """A digit: choose that line of the list and pick it."""
        draft = self.draft
        if draft is None or draft.step not in LIST_STEPS or index >= len(draft.items()):
            return
        draft.choose(index)
        if self.composing():
            self._do(draft.pick)
        else:
            self.shell.redraw()

    def penguin(self, colour: str) -> None:
        """r or y: put (or take off, or recolour to) a penguin of ``colour`` at the cursor."""
        draft = self.draft
        if draft is not None and draft.step == "recolour":
            return self._board_key(lambda d: d.set_recolour(colour))
        self._board_key(lambda d: d.put_penguin(colour))

    def enter(self) -> None:
        """Enter: pick the line, finish the board step, or confirm the play."""
        draft = self.draft
        if not self.composing():
            self.shell.notify(self._not_now())
            return
        if self._sent is not None:
            self.shell.notify("sent; waiting for the host")
            return
        if draft.step in LIST_STEPS:
            self._do(draft.pick)
        elif draft.step == "confirm":
            self._send()
        else:
            self._do(draft.done)

    def _send_if_done(self) -> None:
        if self.draft is not None and self.draft.step == "done":
            self._send()
        else:
            self.shell.redraw()

    def _send(self) -> None:
        self._sent = self._key
        self.shell.act(self.draft.action())


def wrapped(text: str, width: int, rows: int, ascii: bool) -> list[Fragments]:
    """``text`` wrapped to ``width`` in at most ``rows`` dim lines, the last ending in an
    ellipsis if some is left out."""
    lines = textwrap.wrap(text, width)
    if len(lines) > rows:
        lines = lines[:rows]
        if lines:
            lines[-1] = take(lines[-1], width - 1)[0].rstrip() + ellipsis(ascii)
    return [[("class:dim", line)] for line in lines]


def game_place(game: State, place: int) -> str:
    """The name of place number ``place``."""
    return game.layout.places[place]


def step_cursor(boxes: list[tuple[int, int]], cursor: int, dx: int, dy: int) -> int:
    """The place nearest to ``cursor`` in screen direction ``(dx, dy)`` (x right, y down),
    by the boxes' corners; a place counts if it lies ahead, the cost is the distance
    ahead plus the distance sideways (a line counts as 3 columns); none ahead: ``cursor``
    stays."""
    x, y = boxes[cursor]
    best, best_cost = cursor, None
    for place, (px, py) in enumerate(boxes):
        hx, hy = px - x, (py - y) * 3
        ahead = hx * dx + hy * dy
        if ahead <= 0:
            continue
        cost = ahead + abs(hx * dy - hy * dx)
        if best_cost is None or cost < best_cost:
            best, best_cost = place, cost
    return best


# -- the lobby's Downtown options -------------------------------------------------------------


def _options(settings, **changes):
    """``settings`` with its Downtown options changed."""
    return msgspec.structs.replace(settings, options=msgspec.structs.replace(settings.options, **changes))


def _toggle_single(settings, step: int):
    return _options(settings, single_deck=not settings.options.single_deck)


def _show_deck(settings) -> str:
    deck = settings.options.deck
    if isinstance(deck, FileDeck):
        return clean(deck.path) or "?"
    return "bundled (13 cards)"
