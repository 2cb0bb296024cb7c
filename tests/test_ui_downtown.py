"""Waddle Downtown in the terminal, without a network: the places as the table lays them
out, the hand with its rules and the blocked cards, composing a play step by step (the
points shown before confirming, Esc backing out), the setup discard, the draw of the
single-deck variant, spectators, the end screen, the lobby's options, the help. The
client's state is fed what a host sends (``downtown_ui_kit``); keys are the view's
methods the key bindings call."""

from __future__ import annotations

from pathlib import Path

import pytest
from downtown_kit import position
from downtown_ui_kit import bots_play, play_turn, table
from test_ui_kit import board_text, text

from client.games.downtown.board import CELL, PlaceLook, render_places
from client.ui import panels
from client.ui.lobby import fields
from waddle.downtown.actions import Add, Move, Penguins, Play, Recall, Recolour
from waddle.downtown.board import layout
from waddle.downtown.events import DiscardChosen, Scored
from waddle.downtown.options import BundledDeck, FileDeck


def screen(control, width: int = 45, height: int = 22) -> str:
    """The board area's text as drawn for ``width`` x ``height``."""
    drawn = control.view.board(width, height)
    assert drawn is not None, "the board does not fit"
    return board_text(drawn)


def box(places, name: str) -> tuple[int, int]:
    """The corner of the box of the place called ``name``, found by its label."""
    for y, line in enumerate(places.text().split("\n")):
        for top in "─-═=":
            x = line.find(f"{top} {name} ")
            if x >= 0:
                return x - 1, y
    raise AssertionError(f"no place {name}")


def penguins_of(places, name: str) -> str:
    """The 5 characters of penguins and room inside the box of ``name``."""
    x, y = box(places, name)
    return places.text().split("\n")[y + 1][x + 2:x + 7]


# -- the places -------------------------------------------------------------------------------


def test_two_players_share_one_ring_drawn_clockwise_from_the_top():
    places = render_places(layout(2), [PlaceLook(0, 0)] * 5)
    (x1, y1), (x2, y2), (x3, y3), (x4, y4), (x5, y5) = (box(places, f"P{i}") for i in range(1, 6))
    assert y1 < y2 == y5 < y3 == y4          # P1 on top, P5 and P2 beside, P4 and P3 below
    assert x5 < x1 < x2 and x4 < x3          # clockwise: P2 right, P3 below it, P4, P5 left
    assert "Light" not in places.text() and "Dark" not in places.text()


def test_three_players_in_rows_of_3_2_3_with_the_centre_places_in_both_neighbourhoods():
    places = render_places(layout(3), [PlaceLook(0, 0)] * 8)
    rows = {name: box(places, name)[1] for name in ("L1", "L2", "L3", "C1", "C2", "D1", "D2", "D3")}
    assert rows["L1"] == rows["L2"] == rows["L3"] < rows["C1"] == rows["C2"] < rows["D1"] == rows["D2"] == rows["D3"]
    assert box(places, "L1")[0] < box(places, "C1")[0] < box(places, "L2")[0] < box(places, "C2")[0] < box(places, "L3")[0]
    text_ = places.text()
    assert "Light (L1 L2 L3 C1 C2)" in text_ and "Dark (C1 C2 D1 D2 D3)" in text_


def test_four_players_two_rings_light_beside_dark():
    places = render_places(layout(4), [PlaceLook(0, 0)] * 10)
    assert max(box(places, f"L{i}")[0] for i in range(1, 6)) + CELL <= min(box(places, f"D{i}")[0] for i in range(1, 6))
    first = places.text().split("\n")[0]
    assert first.index("Light") < first.index("Dark")
    assert places.width <= 45  # beside the panel at 80 columns


@pytest.mark.parametrize("ascii, room", [(False, "·"), (True, ".")])
def test_a_place_shows_its_red_and_yellow_penguins_and_its_room(ascii, room):
    state = position(3, board={"L1": (2, 1), "C2": (3, 2), "D3": (0, 1)})
    host, control = table(3, 0, position=state, ascii=ascii)
    places = control.view._places()
    assert penguins_of(places, "L1") == "RRY" + room * 2
    assert penguins_of(places, "C2") == "RRRYY"
    assert penguins_of(places, "D3") == "Y" + room * 4
    assert penguins_of(places, "L2") == room * 5
    styles = {t: s for line in places.lines for s, t in line if t in ("RR", "RRR", "Y")}
    assert "class:player.red" in styles["RR"] and "class:player.yellow" in styles["Y"]
    if ascii:
        assert all(ord(c) < 128 for c in screen(control))


# -- the hand -----------------------------------------------------------------------------------


def test_the_hand_lists_each_card_with_its_rule_and_marks_a_blocked_card_with_why():
    state = position(2, hands=[["Even", "Odd", "Full"], ["Single"]], piles=[[], ["Even"]],
                     board={"P1": (1, 0)}, supply={0: (1, 1)})
    host, control = table(2, 0, position=state)
    shown = screen(control).split("\n")
    even = next(line for line in shown if " Even " in line)
    odd = next(line for line in shown if " Odd " in line)
    full = next(line for line in shown if " Full " in line)
    assert even[3:5] == "x " and even.rstrip().endswith("blocked: green's top card")
    four = position(4, hands=[["Even", "Odd"], ["Single"], ["Single"], ["Single"]], piles=[[], [], ["Even"], []])
    _, control4 = table(4, 0, position=four)
    blocked = next(line for line in screen(control4).split("\n") if " Even " in line)
    assert blocked.rstrip().endswith("blocked: purple's top card")  # whole in an 80-column window
    assert blocked.startswith(" 1 x") and next(line for line in screen(control4).split("\n")
                                               if " Odd " in line).startswith("▶2")  # the first playable chosen
    assert odd[3:5] == "  "
    assert "1, 3 or 5 penguins" in odd and "5 penguins x2, all" in full
    # "up to N": the most the card scores now, the best of every legal play of it
    best = max(state.preview(0, play).points for play in control.state.view.legal_actions()
               if play.card == "Odd")
    assert odd.rstrip().endswith(f"up to {best}")
    play_card(control, "Even")
    assert "green's pile" in control.ui.notice and control.view.draft.step == "card"
    # the reason whole under the heading, wrapped (the banner cuts it in an 80-column window)
    shown = screen(control).split("\n")
    heading = shown.index("Your turn: play a card")
    said = " ".join(line.strip() for line in shown[heading + 1:heading + 4] if not line.startswith(("▶", " ")))
    assert said == control.ui.notice
    assert any(" Even " in line for line in shown)


def test_the_rules_of_the_hand_start_in_one_column_with_a_deck_of_longer_names(tmp_path):
    from waddle.downtown.options import FileDeck

    path = tmp_path / "mine.toml"
    bundled = (Path(__file__).parents[1] / "waddle" / "downtown" / "data" / "deck.toml").read_text()
    path.write_text(bundled.replace('name = "Even"', 'name = "Twos and Fours"'))
    host, control = table(2, 1, seed=1, deck=FileDeck(str(path)))  # the long name in the hand
    hand = [line for line in screen(control, 60).split("\n") if line[:1] in "▶ " and line[1:2].isdigit()]
    game = control.view.game
    names = [game.name(c) for c in game.hands[1]]
    assert len(hand) == len(names) >= 5 and "Twos and Fours" in " ".join(names)
    rules = {len(line) - len(line[line.index(name) + len(name):].lstrip()) for line, name in zip(hand, names)}
    assert len(rules) == 1  # where each rule starts


def test_the_card_chosen_is_explained_in_full_under_the_hand():
    state = position(2, hands=[["Consecutive", "Recall"], ["Single"]])
    host, control = table(2, 0, position=state)
    control.view.move(0, 1)
    assert "longest run of consecutive counts" not in screen(control)
    shown = " ".join(screen(control).split())
    # the action first, then the score, as a turn goes (the text said "scores ...; then action A or B")
    assert ("Recall: special action: take 1 or 2 penguins off one neighbourhood into your supply; "
            "then 1 point for each place of the active neighbourhood with no penguin.") in shown
    control.view.move(0, -1)
    assert ("Consecutive: action A (add) or B (move); then 1 point per count in the longest run of "
            "consecutive counts") in " ".join(screen(control).split())


# -- composing a play -----------------------------------------------------------------------------


def play_card(control, name: str) -> None:
    """Press the digit of the card called ``name`` in the hand."""
    draft = control.view.draft
    names = [draft.state.name(c) for c in draft.items()]
    control.view.pick_line(names.index(name))


def to_place(control, name: str) -> None:
    """Tab to the place called ``name``."""
    view = control.view
    for _ in range(len(view.game.red)):
        if view.game.layout.places[view.draft.cursor] == name:
            return
        view.next_place(1)
    raise AssertionError(f"the cursor never reached {name}")


def test_action_a_adds_penguins_from_the_supply_and_shows_the_points_before_confirming():
    state = position(3, hands=[["Odd", "Even"], ["Single"], ["Single"]], board={"L2": (1, 1)},
                     supply={0: (2, 1)})
    host, control = table(3, 0, position=state)
    view = control.view
    play_card(control, "Odd")
    assert view.draft.step == "kind"
    view._turn(lambda d: d.pick_kind("add"))        # a
    assert view.draft.step == "spread" and "supply left: 2r1y" in screen(control)
    to_place(control, "L1")
    view.penguin("red")
    to_place(control, "L2")
    view.penguin("yellow")
    shown = screen(control)
    assert "supply left: 1r" in shown and "scores 2 points (L1, L2)" in shown  # 1 and 3 penguins
    view.penguin("yellow")                          # no yellow left
    assert control.ui.notice == "no yellow penguin left in your supply"
    view.enter()
    shown = screen(control)
    assert "Play Odd: add L1 1r, L2 1y in Light?" in shown
    points = int(shown.split("scores ")[1].split(" point")[0])
    assert host.wishes == []
    view.enter()
    assert host.wishes == [("act", Play("Odd", None, Add("light", (Penguins("L1", 1, 0), Penguins("L2", 0, 1)))))]
    scored = next(e for e in host.match.state.history if isinstance(e, Scored))
    assert scored.points == points


def test_esc_backs_out_one_step_at_a_time_and_keeps_what_the_steps_before_chose():
    state = position(2, hands=[["Odd", "Even"], ["Single"]], supply={0: (2, 2)})
    host, control = table(2, 0, position=state)
    view = control.view
    play_card(control, "Even")
    view.penguin("red")
    view.enter()
    assert view.draft.step == "confirm"
    view._turn(lambda d: d.back())                  # Esc
    assert view.draft.step == "spread" and view.draft.put == [(0, "red")]
    view._turn(lambda d: d.back())
    assert view.draft.step == "card" and view.draft.put == []
    assert view.draft.state.name(view.draft.items()[view.draft.choice]) == "Even"
    view._turn(lambda d: d.back())
    assert control.ui.notice == "nothing to go back to" and host.wishes == []


def test_action_b_empties_a_place_and_puts_every_penguin_elsewhere_in_one_neighbourhood():
    state = position(2, hands=[["Even", "Odd"], ["Single"]], board={"P1": (1, 1), "P2": (0, 2)},
                     supply={0: (1, 1)})
    host, control = table(2, 0, position=state)
    view = control.view
    play_card(control, "Even")
    assert view.draft.step == "kind" and "A: add" in screen(control) and "B: move" in screen(control)
    view._turn(lambda d: d.pick_kind("move"))
    assert view.draft.step == "source"
    to_place(control, "P3")
    view.enter()
    assert control.ui.notice == "P3 is empty: choose a place with penguins"
    to_place(control, "P1")
    view.enter()
    assert view.draft.step == "spread" and "to place: 1r1y" in screen(control)
    assert view.game.layout.places[view.draft.cursor] == "P2"  # the first place it may use
    to_place(control, "P1")
    view.penguin("red")
    assert control.ui.notice == "not back onto P1, the place you emptied"
    to_place(control, "P2")
    view.penguin("red")
    view.enter()
    assert control.ui.notice == "place the rest of the penguins taken: 1y"
    to_place(control, "P4")
    view.penguin("yellow")
    view.enter()
    assert "Play Even: move P1 to P2 1r, P4 1y?" in screen(control)
    view.enter()
    assert host.wishes[-1] == ("act", Play("Even", None, Move("P1", "ring", (Penguins("P2", 1, 0), Penguins("P4", 0, 1)))))
    assert host.match.state.red[1] == 1 and host.match.state.yellow[1] == 2


def test_n_takes_the_cursor_into_the_other_neighbourhood_and_it_starts_on_a_place_with_room():
    state = position(4, hands=[["Even"], ["Single"], ["Single"], ["Single"]],
                     board={"L1": (1, 4), "L2": (2, 3)})
    host, control = table(4, 0, position=state)
    view = control.view
    layout = view.game.layout
    play_card(control, "Even")
    view._turn(lambda d: d.pick_kind("move"))
    to_place(control, "L2")
    view.enter()
    assert view.draft.step == "spread"
    assert layout.places[view.draft.cursor] == "L3"  # not L1: full
    assert "L1" in screen(control) and not view.draft.usable(layout.place("L1"))
    view._board_key(lambda d: d.next_hood())         # n: B may go to the other neighbourhood
    assert layout.hood_names[view.draft.hood] == "dark" and layout.places[view.draft.cursor] == "D1"
    view.penguin("red")
    assert control.ui.notice == "" and view.draft.put == [(layout.place("D1"), "red")]
    assert layout.hood_names[view.draft.hood] == "dark"
    view._board_key(lambda d: d.next_hood())         # a penguin on D1: Dark only
    assert layout.hood_names[view.draft.hood] == "dark"
    assert control.ui.notice == "no other neighbourhood can take these penguins"


def test_n_goes_only_to_a_neighbourhood_the_act_can_use():
    state = position(4, hands=[["Recall"], ["Single"], ["Single"], ["Single"]], board={"L1": (1, 1)})
    host, control = table(4, 0, position=state)
    view = control.view
    play_card(control, "Recall")
    view._board_key(lambda d: d.next_hood())  # Dark has no penguin: the cursor would stay out of it
    assert control.ui.notice == "no other neighbourhood has a penguin to take off"
    assert view.draft.hood is None and view.game.layout.places[view.draft.cursor] == "L1"


def test_recolour_swaps_penguins_on_a_place_for_the_other_colour():
    state = position(3, hands=[["Recolour"], ["Single"], ["Single"]], board={"C1": (2, 0)},
                     supply={0: (0, 2)})
    host, control = table(3, 0, position=state)
    view = control.view
    play_card(control, "Recolour")
    assert view.draft.step == "recolour"
    to_place(control, "C1")
    view.penguin("yellow")
    view.penguin("yellow")
    view.penguin("yellow")
    assert control.ui.notice == "Recolour swaps 1 or 2 penguins"
    assert "C1: 2 red to yellow" in screen(control)
    view._board_key(lambda d: d.next_hood())        # n: a centre place is in both
    view.enter()
    view.enter()
    assert host.wishes[-1] == ("act", Play("Recolour", None, Recolour("C1", "red", 2, "dark")))


def test_what_a_board_step_asks_for_is_wrapped_never_cut_in_an_80_column_window():
    state = position(4, hands=[["Recolour"], ["Single"], ["Single"], ["Single"]], board={"L1": (0, 1)})
    host, control = table(4, 0, position=state)
    play_card(control, "Recolour")
    shown = " ".join(screen(control).split())
    assert "Recolour: on a place, r or y: the colour its penguins become" in shown
    assert "1 or 2 penguins of one colour swap for the other colour from your supply" in shown


def test_recall_takes_one_or_two_penguins_off_one_neighbourhood():
    state = position(4, hands=[["Recall"], ["Single"], ["Single"], ["Single"]],
                     board={"L1": (1, 1), "D1": (1, 0)})
    host, control = table(4, 0, position=state)
    view = control.view
    play_card(control, "Recall")
    to_place(control, "L1")
    view.penguin("red")
    to_place(control, "D1")
    view.penguin("red")
    assert control.ui.notice.startswith("every penguin goes into one neighbourhood: Light")
    to_place(control, "L1")
    view.penguin("yellow")
    view.penguin("yellow")
    assert control.ui.notice == "Recall takes 1 or 2 penguins"
    view.enter()
    assert "Play Recall: recall L1 1r1y in Light?" in screen(control)
    view.enter()
    assert host.wishes[-1] == ("act", Play("Recall", None, Recall("light", (Penguins("L1", 1, 1),))))


def test_a_refusal_follows_the_whole_wrapped_heading_in_an_80_column_window():
    state = position(3, hands=[["Recall"], ["Single"], ["Single"]], board={"L1": (0, 3)})
    host, control = table(3, 0, position=state)
    play_card(control, "Recall")
    to_place(control, "L1")
    for _ in range(3):                                   # one more than Recall takes
        control.view.penguin("yellow")
    assert control.ui.notice == "Recall takes 1 or 2 penguins"
    shown = [line.rstrip() for line in screen(control).split("\n")]
    start = next(i for i, line in enumerate(shown) if line.startswith("Recall: take 1 or 2"))
    said = shown.index("Recall takes 1 or 2 penguins")
    heading = " ".join(line.strip() for line in shown[start:said])
    assert heading == "Recall: take 1 or 2 penguins off in Light (r, y)"   # whole, then the notice
    assert said - start == 2                                              # it wraps at 45 columns


def test_copy_asks_which_top_card_and_does_its_action():
    state = position(2, hands=[["Copy", "Odd"], ["Single"]], piles=[[], ["Recall"]],
                     board={"P3": (0, 1)})
    host, control = table(2, 0, position=state)
    view = control.view
    play_card(control, "Copy")
    assert view.draft.step == "copy" and "Recall" in screen(control)
    view.enter()
    assert view.draft.step == "spread" and view.draft.kind == "recall"
    to_place(control, "P3")
    view.penguin("yellow")
    view.enter()
    assert "Play Copy of Recall: recall P3 1y?" in screen(control)
    view.enter()
    assert host.wishes[-1] == ("act", Play("Copy", "Recall", Recall("ring", (Penguins("P3", 0, 1),))))


def test_an_illegal_play_is_refused_with_the_rule_and_loses_nothing():
    state = position(2, hands=[["Odd", "Even"], ["Single"]], supply={0: (1, 0)})
    host, control = table(2, 0, position=state)
    view = control.view
    play_card(control, "Odd")
    view.penguin("red")
    view.enter()
    host.match.state.supply_red[0] = 0              # the host knows better: no red left
    view.enter()
    assert "action A: blue has 0 red penguins in supply, not 1" in control.ui.notice
    assert view.draft.step == "confirm" and view.turn_hint() != [("", " sent; waiting for the host")]
    view._turn(lambda d: d.back())
    assert view.draft.put == [(0, "red")]


def test_keys_that_need_your_turn_say_so():
    state = position(2, hands=[["Odd"], ["Even"]], turn=1)
    host, control = table(2, 0, position=state)
    control.view.enter()
    assert control.ui.notice == "it is not your turn"
    control.view.move(0, 1)                        # the hand can still be read
    assert " Odd " in screen(control)


# -- the setup discard, the draw, spectators -------------------------------------------------------


def test_the_setup_discard_is_chosen_in_secret_and_the_panel_shows_who_has_chosen():
    host, control = table(3, 1, seed=5)
    view = control.view
    assert control.state.my_turn and view.draft.step == "discard"
    assert "Setup: discard a card (face up, no points)\n" in screen(control)   # whole, not cut
    bots_play(host, until=lambda match: match.state.pending[2] is not None)
    panel = text(panels.side_panel(control.state, view, 34, 22))
    assert "choosing..." in panel and "discard chosen" in panel
    assert "P Cy discards a card (in secret)" in panel
    hidden = next(e for e in view.game.history if isinstance(e, DiscardChosen))
    assert hidden.card is None
    view.pick_line(1)
    card = view.draft.state.name(view.draft.card)
    assert f"Discard {card} face up on your pile?" in screen(control)
    view.enter()
    assert host.wishes == [("act", host.match.actions[-1][1])]
    revealed = text(panels.side_panel(control.state, view, 60, 22))
    assert f"- discards: G {card} P " in revealed
    assert f"discards {card} (in secret)" in revealed and "(hidden)" not in revealed   # your own, named


def test_the_single_deck_draw_offers_the_display_and_the_deck_top():
    host, control = table(2, 0, seed=2, single=True)
    bots_play(host)
    view = control.view
    play = next(iter(control.state.view.legal_actions()))
    host.act(play)
    assert control.state.view.state.phase == "draw" and view.draft.step == "draw"
    shown = screen(control)
    display = [view.game.name(c) for c in view.game.display]
    assert all(f" {name} " in shown for name in display) and "the deck's top card (unseen" in shown
    view.pick_line(len(view.draft.items()) - 1)     # the deck's top
    assert host.wishes[-1][1].card is None


def test_a_spectator_sees_every_place_and_score_but_no_hand():
    host, control = table(2, None, seed=2)
    shown = screen(control)
    assert "Watching: every hand is hidden" in shown and "P1" in shown
    assert not any(host.match.state.name(c) in shown.split("Points per turn")[0]
                   for c in host.match.state.hands[0])
    control.view.enter()
    assert control.ui.notice == "spectators hold no cards"


# -- the end, the score view -------------------------------------------------------------------


def test_the_end_shows_the_totals_the_winner_and_the_points_of_every_turn():
    host, control = table(3, None, seed=8)
    bots_play(host)
    match = host.match
    assert match.is_over
    rows = [line for line in screen(control).split("\n")[12:] if line.strip()]
    assert rows[0].startswith("Points per turn") and rows[0].split()[3:-1] == [str(r) for r in range(1, 8)]
    for line in rows[1:4]:
        numbers = [int(n) for n in line.replace("★", "").split()[2:]]
        *turns, total = numbers
        seat = next(s for s, label in enumerate(match.labels) if line.startswith(label[0].upper()))
        assert sum(turns) == total == match.state.scores[seat]
        assert ("★" in line) == (seat in match.state.winners)
    assert "GAME OVER" in text(panels.banner(control.state, control.ui, control.view))


def test_eight_rounds_in_a_narrow_window_keep_the_title_of_the_points_per_turn_whole():
    host, control = table(2, None, seed=8)  # 2 players: 8 rounds
    bots_play(host)
    rows = [line for line in screen(control).split("\n") if line.strip()]
    title = next(i for i, line in enumerate(rows) if "Points per" in line)
    assert rows[title].strip() == "Points per turn"
    assert rows[title + 1].split() == [*(str(r) for r in range(1, host.match.state.round + 1)), "total"]


def test_v_shows_the_points_per_turn_while_playing_and_again_the_hand():
    host, control = table(2, 0, seed=3)
    bots_play(host)
    control.toggle_scores()
    assert "Points per turn" in screen(control)
    control.toggle_scores()
    assert "Your turn: play a card" in screen(control)


def test_no_key_acts_on_the_hand_while_the_points_per_turn_hide_it():
    from prompt_toolkit.filters import Always

    host, control = table(2, 0, seed=3)
    bots_play(host)
    view = control.view
    keys = view.bindings(Always(), Always()).bindings
    control.toggle_scores()
    assert "Your turn: play a card" not in screen(control)
    assert not [b.keys for b in keys if b.filter()]  # "2" picked a card from the hidden hand
    assert view.hints() == []
    control.toggle_scores()
    assert all(b.filter() for b in keys) and "Your turn: play a card" in screen(control)


def test_esc_is_offered_only_when_there_is_a_step_to_go_back_to():
    host, control = table(2, 0, seed=3)
    bots_play(host)
    view = control.view
    assert view.draft.step == "card" and ("Esc back", "Esc back") not in view.hints()
    play_card(control, next(view.game.name(c) for c in view.draft.items() if not view.draft.blocked(c)))
    assert view.draft.step != "card" and ("Esc back", "Esc back") in view.hints()


# -- the log, the help, the lobby, the size --------------------------------------------------------


def test_event_lines_name_the_cards_the_places_and_the_points():
    state = position(3, hands=[["Odd"], ["Single"], ["Single"]], supply={0: (1, 0)})
    host, control = table(3, 0, position=state)
    play_card(control, "Odd")
    to_place(control, "C2")
    control.view.penguin("red")
    control.view.enter()
    control.view.enter()
    log = [text(line) for line in control.view.event_lines()]
    assert log[-2] == "B Ann Odd +1 (1)" and log[-1].strip().startswith("add C2 1r in Light")


def test_the_help_teaches_downtown_and_lists_its_keys_but_no_take_back():
    host, control = table(2, 0)
    view = control.view
    pages = [line for page in panels.help_pages(view, 80, 24) for line in page]
    keys = [line[0].strip() for line in pages if isinstance(line, tuple)]
    assert "Esc" in keys and "r / y" in keys and "v" in keys and "u" not in keys
    words = " ".join(line for line in pages if isinstance(line, str))
    for rule in ("Play a card face up", "may not play a card named like", "special action", "8 rounds",
                 "Single-deck variant"):
        assert rule in words
    assert all(card.name + ":" in words for card in view.game.deck.cards)


def test_the_lobby_offers_the_players_the_single_deck_variant_and_the_deck():
    host, control = table(2, 0)
    state = control.state
    shown = fields(state, control.view)
    assert [f.label for f in shown] == ["Players", "Single deck", "Deck", "Turn timer", "Bots in empty seats", "Hints"]
    settings = state.settings
    players, single, deck = shown[:3]
    assert players.step(players.step(players.step(settings, 1), 1), 1).players == 4  # at most 4
    assert players.step(settings, -1).players == 2
    assert single.show(single.step(settings, 1)) == "on"
    assert deck.show(settings) == "bundled (13 cards)" and deck.step(settings, 1) == settings
    mine = single.step(settings, 1)
    import msgspec
    filed = msgspec.structs.replace(mine, options=msgspec.structs.replace(mine.options, deck=FileDeck("my\x1b[2J.toml")))
    assert deck.show(filed) == "my.toml"  # cleaned of the escape sequence
    bundled = deck.step(filed, 1)
    assert bundled.options.deck == BundledDeck() and bundled.options.single_deck
    assert deck.step(bundled, 1).options.deck == FileDeck("my\x1b[2J.toml")  # back to the host's file


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_step_of_a_whole_game_fits_80_by_24_beside_the_panel(players):
    from client.ui.app import PANEL_WIDTH

    host, control = table(players, 1, seed=4)
    width, height = control.view.needed_size()
    assert width + PANEL_WIDTH + 1 <= 80 and height + 2 <= 24
    steps = set()

    def fits():
        steps.add(control.view.draft.step)
        assert all(len(line) <= 45 for line in screen(control, 45, 22).split("\n"))

    while not host.match.is_over:
        bots_play(host)
        if not host.match.is_over:
            play_turn(control, fits)
    assert {"discard", "card", "confirm", "spread"} <= steps
