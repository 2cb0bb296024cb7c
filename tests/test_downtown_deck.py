"""The deck as data: the bundled deck, deck files and their validation messages."""

from __future__ import annotations

import pytest

from waddle.downtown.cards import (
    MAX_DECK_BYTES,
    Card,
    DeckError,
    bundled_deck,
    deck_from_cards,
    load_deck,
    parse_deck,
)
from waddle.downtown.options import DowntownOptions, FileDeck
from waddle.downtown.ruleset import RULESET

#: DOWNTOWN.md "The deck": name, rule, scope, action, points.
RECONSTRUCTION = [
    ("Copy", "copy", None, "copy", 1),
    ("Equal", "equal", "all", "standard", 1),
    ("Consecutive", "consecutive", "active", "standard", 1),
    ("More Red", "more_red", "active", "standard", 1),
    ("More Yellow", "more_yellow", "active", "standard", 1),
    ("Even", "even", "active", "standard", 1),
    ("Full", "full", "all", "standard", 2),
    ("Odd", "odd", "active", "standard", 1),
    ("All Red", "all_red", "active", "standard", 1),
    ("All Yellow", "all_yellow", "active", "standard", 1),
    ("Single", "single", "all", "standard", 1),
    ("Recolour", "mixed", "active", "recolour", 1),
    ("Recall", "empty", "active", "recall", 1),
]


def toml(cards: list[dict]) -> str:
    """A deck file holding ``cards`` (strings, integers and booleans only)."""
    def value(v):
        return ("true" if v else "false") if isinstance(v, bool) else repr(v).replace("'", '"')
    return "\n".join("[[card]]\n" + "".join(f"{k} = {value(v)}\n" for k, v in c.items()) for c in cards)


def cards() -> list[dict]:
    return bundled_deck().to_list()


def refused(items: list[dict], message: str) -> None:
    with pytest.raises(DeckError, match=message):
        parse_deck(toml(items), source="my.toml")


def test_the_bundled_deck_is_the_reconstruction():
    deck = bundled_deck()
    assert [(c.name, c.rule, c.scope, c.action, c.points) for c in deck.cards] == RECONSTRUCTION
    assert deck.source == "waddle/downtown/data/deck.toml" and deck.copy == 0


def test_a_deck_file_loads_and_round_trips(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text(toml(cards()), encoding="utf-8")
    assert load_deck(path) == bundled_deck()
    assert deck_from_cards(bundled_deck().to_list()) == bundled_deck()


def test_a_file_can_rename_repoint_and_rescore_cards_and_give_a_rule_another_action():
    items = cards()
    items[5] = {"name": "Twos and Fours", "rule": "even", "scope": "all", "action": "recall", "points": 3}
    deck = parse_deck(toml(items), source="my.toml")
    assert deck.cards[5] == Card("Twos and Fours", "even", "recall", "all", 3)
    assert deck.tables[5][2 * 6 + 0] == 3 and deck.tables[5][1 * 6 + 0] == 0


@pytest.mark.parametrize(("edit", "message"), [
    (lambda c: c.pop(), "my.toml: a deck has 13 cards, this one 12"),
    (lambda c: c[2].pop("name"), "my.toml: card 3: name: expected a name of 1 to 24 printable characters"),
    (lambda c: c[2].update(name=" Consecutive"), r"card 3: name: .*found ' Consecutive'"),
    (lambda c: c[2].update(name="x" * 25), "card 3: name: expected a name of 1 to 24"),
    (lambda c: c[5].update(colour="red"), r"my.toml: card 6 \(Even\): colour: unknown field; a card has name, rule, scope, action, points"),
    (lambda c: c[5].update(rule="evens"), r"card 6 \(Even\): rule: expected one of equal, .*, copy, found 'evens'"),
    (lambda c: c[5].pop("rule"), r"card 6 \(Even\): rule: expected one of .*, found nothing"),
    (lambda c: c[5].update(action="teleport"), r"card 6 \(Even\): action: expected one of standard, recolour, recall, copy, found 'teleport'"),
    (lambda c: c[5].update(scope="both"), r"card 6 \(Even\): scope: expected one of active, all, found 'both'"),
    (lambda c: c[5].pop("scope"), r"card 6 \(Even\): scope: expected one of active, all, found nothing"),
    (lambda c: c[5].update(points=11), r"card 6 \(Even\): points: expected a whole number from 0 to 10, found 11"),
    (lambda c: c[5].update(points=-1), "points: expected a whole number from 0 to 10, found -1"),
    (lambda c: c[5].update(points="2"), "points: expected a whole number from 0 to 10, found '2'"),
    (lambda c: c[5].update(points=True), "points: expected a whole number from 0 to 10, found True"),
    (lambda c: c[5].update(action="copy"), r"card 6 \(Even\): rule: the rule 'copy' goes with the action 'copy' and no other"),
    (lambda c: c[0].update(action="standard"), r"card 1 \(Copy\): action: the rule 'copy' goes with the action 'copy'"),
    (lambda c: c[0].update(scope="all"), r"card 1 \(Copy\): scope: the Copy card scores as the card it copies, so it has no scope"),
    (lambda c: c[0].update(points=2), r"card 1 \(Copy\): points: .* so it has no points"),
    (lambda c: c[6].update(name="Even"), r"card 7 \(Even\): name: card 6 has the same name"),
    (lambda c: c.__setitem__(1, {**c[0], "name": "Copy Two"}), "exactly one card with the rule 'copy'.*this one 2"),
    (lambda c: c.__setitem__(0, {**c[1], "name": "Equal Two"}), "exactly one card with the rule 'copy'.*this one 0"),
])
def test_a_bad_card_is_refused_naming_the_file_the_card_and_the_field(edit, message):
    items = cards()
    edit(items)
    refused(items, message)


@pytest.mark.parametrize(("text", "message"), [
    ("[[card]\n", "my.toml: not valid TOML"),
    ('name = "mine"\n', "my.toml: name: unknown key; a deck file holds"),
    ("", r"my.toml: no \[\[card\]\] tables"),
    ("card = [1, 2]\n", "my.toml: a deck has 13 cards, this one 2"),
    ("card = 1\n", "my.toml: the cards must be a list of"),
])
def test_a_bad_deck_file_is_refused(text, message):
    with pytest.raises(DeckError, match=message):
        parse_deck(text, source="my.toml")


@pytest.mark.parametrize(("text", "message"), [
    ("card = " + "[" * 100_000 + "]" * 100_000, "^my.toml: not valid TOML: nested too deeply$"),
    ("[[card]]\nname = " + "{a = " * 30_000 + "1" + "}" * 30_000, "^my.toml: not valid TOML: nested too deeply$"),
    ("[[card]]\npoints = " + "9" * 5000, "^my.toml: not valid TOML: Exceeds the limit"),
    ("[[card]]\na" + ".b" * 20_000 + " = 1", r"^my.toml: not valid TOML: line 2: a key nested too deeply"),
])
def test_a_hostile_deck_file_is_refused_naming_it(text, message):
    with pytest.raises(DeckError, match=message):
        parse_deck(text, source="my.toml")


def test_a_deck_file_over_the_cap_is_refused_naming_it_and_the_cap(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(toml(cards()) + "#" * MAX_DECK_BYTES, encoding="utf-8")
    with pytest.raises(DeckError, match=f"big.toml: cannot read the deck: the file is too large: "
                                        f"over the {MAX_DECK_BYTES:,}-byte cap$"):
        load_deck(path)


def test_a_card_that_is_not_a_table_is_refused():
    with pytest.raises(DeckError, match="card 1: a card must be a table"):
        deck_from_cards([1] * 13, source="x")


def test_an_unreadable_deck_file_is_refused_naming_it(tmp_path):
    with pytest.raises(DeckError, match=r"missing.toml: cannot read the deck"):
        load_deck(tmp_path / "missing.toml")
    assert issubclass(DeckError, ValueError)


def test_the_host_loads_a_deck_file_that_a_peer_may_not_name(tmp_path):
    items = cards()
    items[5]["points"] = 4
    path = tmp_path / "mine.toml"
    path.write_text(toml(items), encoding="utf-8")
    options = DowntownOptions(deck=FileDeck(str(path)))
    with pytest.raises(ValueError, match="a deck file can only be chosen on the host"):
        RULESET.check_options(options, 2, from_peer=True)
    RULESET.check_options(options, 2)
    prepared = RULESET.prepare(options, 2, 5)
    assert prepared.data.cards[5].points == 4 and prepared.seed == 5
    path.write_text(toml(items[:-1]), encoding="utf-8")
    with pytest.raises(DeckError, match="mine.toml: a deck has 13 cards"):
        RULESET.prepare(options, 2, 5)
