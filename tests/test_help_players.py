"""The commands that seat players or choose bots take the player counts and the bots
from the registered rulesets (issue 27: their help texts hard-coded both, so a third
game would have edited each)."""

from __future__ import annotations

import pytest

from client.cli import build_parser
from waddle.ruleset import LEVELS, rulesets


def help_of(command: str, capsys) -> str:
    """``waddle COMMAND --help`` as printed, its lines joined."""
    with pytest.raises(SystemExit):
        build_parser(command).parse_args([command, "--help"])
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command", ["serve", "host", "demo", "arena"])
def test_the_players_help_names_each_games_counts(command, capsys):
    text = help_of(command, capsys)
    for ruleset in rulesets().values():
        low, high = ruleset.players
        assert f"{ruleset.title} {low} to {high}" in text, text


def test_a_player_count_no_game_takes_is_refused(capsys):
    everyone = [n for ruleset in rulesets().values() for n in range(ruleset.players[0], ruleset.players[1] + 1)]
    parser = build_parser("serve")
    assert parser.parse_args(["serve", "--players", str(max(everyone))]).players == max(everyone)
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--players", str(max(everyone) + 1)])
    assert "invalid choice" in capsys.readouterr().err


def test_play_names_each_games_count_of_bot_opponents(capsys):
    text = help_of("play", capsys)
    for ruleset in rulesets().values():
        low, high = ruleset.players
        assert f"{ruleset.title} {low - 1} to {high - 1}" in text, text


@pytest.mark.parametrize("command", ["serve", "host", "play", "demo", "bot", "arena"])
def test_the_bots_help_names_the_levels_and_each_games_kinds(command, capsys):
    text = help_of(command, capsys)
    assert f"levels {', '.join(LEVELS)}" in text, text
    for ruleset in rulesets().values():
        assert f"kinds of {ruleset.title}: {', '.join(ruleset.bots)}" in text, text
