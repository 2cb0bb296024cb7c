"""Difficulty levels: every game maps easy, medium and hard onto one of its bots (hard
the search bot, with its own budget), wherever a bot kind is taken: ``make_bot``,
``check_bots``, the host's bot seats, ``waddle bot --strategy``, ``waddle demo --bots``
and the lobby's bot field, which shows the bot a level is; unknown names are refused."""

from __future__ import annotations

import json

import pytest
from test_ui_kit import controller, lines, seat, table_state

from client import cli
from client.commands.bot import strategies
from client.ui.lobby import fields, lobby_screen
from protocol import Settings
from server.table import Table
from waddle.hex.options import HexOptions
from waddle.ruleset import LEVELS, Level, get_ruleset, rulesets


@pytest.mark.parametrize("game", ["hex", "downtown"])
def test_every_game_maps_every_level_onto_one_of_its_bots(game):
    ruleset = get_ruleset(game)
    assert tuple(ruleset.levels) == LEVELS == ("easy", "medium", "hard")
    assert all(level.kind in ruleset.bots for level in ruleset.levels.values())
    assert ruleset.levels["hard"] == Level("search", 1.0)
    hard = ruleset.make_bot("hard", 1)
    assert hard.name == "search" and hard.seconds == 1.0
    assert ruleset.make_bot("hard", 1, seconds=0.2).seconds == 0.2       # options given win
    assert ruleset.make_bot("easy", 1).name == "random" and ruleset.make_bot("medium").name == "greedy"
    assert ruleset.bot_choices()[:3] == LEVELS
    assert ruleset.describe_bot("hard") == "hard (search, 1 s a move)"
    assert ruleset.describe_bot("greedy") == "greedy"
    ruleset.check_bots(["easy", "medium", "hard", "greedy"])


@pytest.mark.parametrize("name", ["harder", "Easy", "", "expert"])
def test_unknown_levels_are_refused_naming_the_levels_and_kinds(name):
    for ruleset in rulesets().values():
        with pytest.raises(ValueError, match=r"expected a level \(easy, medium, hard\) or a bot kind"):
            ruleset.check_bots([name])
        with pytest.raises(ValueError, match="unknown bot"):
            ruleset.make_bot(name)


async def test_the_host_fills_empty_seats_with_a_level_and_names_it():
    table = Table(Settings(players=3, bots=["hard", "easy"], seat_order="seated"),
                  ruleset=get_ruleset("hex"), seed=1)
    table.seats.add("Ann")
    table.start()
    bots = [s for s in table.seats if s.bot is not None]
    assert [s.bot for s in bots] == ["hard", "easy"]
    assert all(f"({s.bot} bot)" in s.name for s in bots)
    assert table.ruleset.make_bot(bots[0].bot).seconds == 1.0
    fresh = Table(Settings(players=3), ruleset=get_ruleset("downtown"))
    with pytest.raises(ValueError, match="unknown bot 'expert'"):
        fresh.configure(Settings(players=3, bots=["expert"]))


def test_the_command_line_takes_levels_and_refuses_other_names(capsys, tmp_path):
    assert strategies()[:3] == LEVELS
    assert cli.main(["demo", "--players", "2", "--bots", "easy", "medium", "--json", "--seed", "3",
                     "--record", str(tmp_path / "demo.json")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["scores"]) == 2
    assert cli.main(["demo", "--bots", "expert", "--json"]) == 2
    assert "unknown bot 'expert'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["bot", "127.0.0.1:1", "--strategy", "expert"])
    assert "invalid choice: 'expert'" in capsys.readouterr().err


def test_the_lobby_steps_through_the_levels_and_shows_the_bot_each_is():
    state = table_state([seat(0, "red", "Ann", connected=True, ready=False)], label="red",
                        settings=Settings(players=3, bots=["hard", "hard"], options=HexOptions()))
    control = controller(state)
    bots = next(f for f in fields(state, control.view) if f.label == "Bots in empty seats")
    settings = state.settings
    assert bots.show(settings) == "hard (search, 1 s a move)"
    assert bots.step(settings, -1).bots == ["medium", "medium"]
    assert bots.step(settings, 1).bots == ["random", "random"]
    assert bots.show(bots.step(settings, -3)) == "none"
    shown = "\n".join(lines(lobby_screen(state, control.ui, control.view, 40)))
    assert "a hard (search, 1 s a move) bot at the start" in shown
