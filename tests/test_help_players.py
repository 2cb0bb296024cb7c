"""The commands that seat players take the player counts from the registered rulesets
(issue 27: five help texts hard-coded them, so a third game would have edited each)."""

from __future__ import annotations

import pytest

from client.cli import build_parser
from waddle.ruleset import rulesets


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
