"""The style sheets paint every seat of every registered game (issue 27: Downtown's
fourth seat, cyan, drew uncoloured when the seat palette lived in the shell)."""

from __future__ import annotations

import pytest

from client.ui.style import make_style
from waddle.ruleset import rulesets


@pytest.mark.parametrize("game", sorted(rulesets()))
def test_every_seat_of_every_game_has_a_colour_of_its_own(game):
    sheet = make_style(colour=True)
    seats = rulesets()[game].seats
    backgrounds = [sheet.get_attrs_for_style_str(f"class:player.{seat.colour} class:letter").bgcolor
                   for seat in seats]
    assert all(backgrounds), dict(zip((s.colour for s in seats), backgrounds))
    assert len(set(backgrounds)) == len(seats)


@pytest.mark.parametrize("game", sorted(rulesets()))
def test_without_colour_every_seat_letter_is_still_bold_and_uncoloured(game):
    sheet = make_style(colour=False)
    for seat in rulesets()[game].seats:
        attrs = sheet.get_attrs_for_style_str(f"class:player.{seat.colour} class:letter")
        assert attrs.bold and not attrs.bgcolor


def test_the_hex_terrain_and_downtowns_penguins_are_painted():
    sheet = make_style(colour=True)
    ice, water = (sheet.get_attrs_for_style_str(f"class:{name}").bgcolor for name in ("ice", "water"))
    red, yellow = (sheet.get_attrs_for_style_str(f"class:player.{name}").bgcolor for name in ("red", "yellow"))
    assert ice and water and ice != water
    assert red and yellow and red != yellow
