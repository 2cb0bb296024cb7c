"""Waddle Downtown on the command line: ``waddle demo --game downtown`` plays a whole
networked game of bots, ``waddle replay`` reads its record, ``waddle bot`` plays a seat
and prints only what its seat saw, each game's options are refused with the other game,
and a table's owner may keep the deck file the host chose."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_cli_demo import host_in_thread

from client.botplay import play
from client.cli import main
from client.core import connect
from protocol import Settings
from server import ServerConfig
from waddle.downtown.cards import MAX_DECK_BYTES
from waddle.downtown.options import BundledDeck, DowntownOptions, FileDeck
from waddle.downtown.record import from_record
from waddle.ruleset import get_ruleset

DOWNTOWN = get_ruleset("downtown")


def test_demo_of_downtown_json_agrees_with_replaying_its_record(tmp_path, capsys):
    path = tmp_path / "demo.json"
    assert main(["demo", "--game", "downtown", "--players", "3", "--seed", "4", "--json",
                 "--record", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    record = json.loads(path.read_text())
    state = from_record(record).state
    assert record["format"] == "waddle-downtown-record" and state.is_over
    assert out["record"] == str(path) and out["finished"] is True
    assert out["scores"] == dict(zip(state.labels, state.scores))
    assert out["winners"] == [state.labels[s] for s in state.winners]
    for label, turns in out["turns"].items():  # rounds past the 7th: a tie-break (None: not in it)
        assert len(turns) == state.round and sum(t or 0 for t in turns) == out["scores"][label]


def test_demo_of_downtown_prints_each_move_as_a_spectator_sees_it_then_the_end(tmp_path, capsys):
    path = tmp_path / "demo.json"
    assert main(["demo", "--game", "downtown", "--players", "2", "--seed", "2", "--pace", "0",
                 "--single-deck", "--bots", "greedy", "random", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    record = json.loads(path.read_text())
    assert record["options"] == {"single_deck": True}
    moves = [line for line in out.splitlines() if re.match(r"\s*\d+\s+(blue|green)\s", line)]
    assert [int(line.split()[0]) for line in moves] == list(range(1, len(record["actions"]) + 1))
    for line, action in zip(moves, record["actions"]):
        assert record["players"][action["seat"]] == line.split()[1]
        if action["type"] == "play":
            assert f" {action['card']}" in line
    deck_draws = re.findall(r"\bdrew (\S+)", out)
    assert deck_draws and set(deck_draws) == {"a"}  # "drew a card": no deck card is named
    assert "points per turn:" in out and "final score:" in out
    assert f"record saved to {path}" in out


def test_replay_of_a_downtown_record_shows_the_places_piles_turns_and_winner(tmp_path, capsys):
    path = tmp_path / "demo.json"
    assert main(["demo", "--game", "downtown", "--players", "4", "--seed", "6", "--json",
                 "--record", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    state = from_record(json.loads(path.read_text())).state
    assert "Waddle Downtown, 4 players, 6 rounds" in out
    for name in state.layout.places:
        assert f"- {name} -" in out
    for seat, label in enumerate(state.labels):
        pile = ", ".join(state.name(c) for c in state.piles[seat])
        assert f"  {label:<7}{pile}" in out
    winner = state.labels[state.winners[0]]
    assert re.search(rf"^winners?( \(shared\))?: .*{winner}", out, re.M)
    assert main(["replay", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["winners"] == [state.labels[s] for s in state.winners]


def test_replay_of_an_unfinished_downtown_record_says_so(tmp_path, capsys):
    path = tmp_path / "demo.json"
    assert main(["demo", "--game", "downtown", "--players", "2", "--seed", "3", "--json",
                 "--record", str(path)]) == 0
    capsys.readouterr()
    record = json.loads(path.read_text())
    record["actions"] = record["actions"][:5]
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"the record stops after 5 actions; the game is not over \(round \d, \w+ to play\)", out)
    assert "<State" not in out  # an object's repr is no sentence
    assert main(["replay", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] is False and result["winners"] == []


async def downtown_player(port: int) -> None:
    async with connect("127.0.0.1", port, name="Other") as client:
        await play(client, DOWNTOWN.make_bot("random", 1))


def test_bot_command_plays_a_downtown_seat_and_prints_only_what_its_seat_saw(capsys):
    settings = Settings(players=2, options=DowntownOptions())
    config = ServerConfig(port=0, settings=settings, seed=5, game="downtown")
    with host_in_thread(config, downtown_player) as (host, port):
        assert main(["bot", f"127.0.0.1:{port}", "--game", "downtown", "--name", "Robo",
                     "--strategy", "greedy", "--seed", "3"]) == 0
        match = host.table.match
    out = capsys.readouterr().out
    mine = next(s.label for s in host.table.seats if s.name == "Robo")
    assert match.is_over and f"seated as {mine} (Robo) at Waddle Downtown" in out
    moves = [line for line in out.splitlines() if re.match(r"\s*\d+\s+(blue|green)\s", line)]
    assert len(moves) == len(match)
    for line in moves:
        draws = re.findall(r"\bdrew (\S+)", line)
        if line.split()[1] == mine:
            assert all(card != "a" for card in draws)  # its own draws, by name
        else:
            assert set(draws) <= {"a"}                 # the other seat's: "drew a card"
    for seat, label in enumerate(match.labels):
        assert re.search(rf"^.\s{label} \(.*\)\s+{match.state.scores[seat]}$", out, re.M)


@pytest.mark.parametrize("argv, message", [
    (["serve", "--game", "downtown", "--map", "x.toml"], "--map is an option of Waddle (--game hex), not of Waddle Downtown"),
    (["host", "--game", "downtown", "--mirror"], "--mirror is an option of Waddle (--game hex), not of Waddle Downtown"),
    (["play", "--game", "downtown", "--no-realtime-score"], "--no-realtime-score is an option of Waddle (--game hex)"),
    (["demo", "--game", "downtown", "--bundled", "lagoon"], "--bundled is an option of Waddle (--game hex)"),
    (["serve", "--single-deck"], "--single-deck is an option of Waddle Downtown (--game downtown), not of Waddle"),
    (["play", "--deck", "my.toml"], "--deck is an option of Waddle Downtown (--game downtown), not of Waddle"),
    (["play", "--game", "downtown", "--bots", "4"], "--bots must be 1 to 3 for Waddle Downtown (2 to 4 players), not 4"),
    (["play", "--bots", "5"], "--bots must be 1 to 4 for Waddle (2 to 5 players), not 5"),
    (["serve", "--game", "downtown", "--players", "5"], "Waddle Downtown is for 2 to 4 players, not 5"),
    (["demo", "--game", "downtown", "--players", "5"], "Waddle Downtown is for 2 to 4 players, not 5"),
    (["play", "--game", "downtown", "--strategy", "clever"], "unknown bot 'clever'"),
    (["serve", "--game", "downtown", "--deck", "/no/such/deck.toml", "--port", "0"], "/no/such/deck.toml: cannot read the deck"),
])
def test_an_option_of_the_other_game_or_out_of_range_is_refused_in_one_line(argv, message, capsys, tmp_path,
                                                                            monkeypatch):
    monkeypatch.chdir(tmp_path)  # serve would save here
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


@pytest.mark.parametrize("text", ["card = " + "[" * 100_000 + "]" * 100_000, "#" * (MAX_DECK_BYTES + 1)])
def test_a_hostile_deck_file_is_refused_in_one_line_naming_it(text, capsys, tmp_path):
    deck = tmp_path / "deep.toml"
    deck.write_text(text)
    assert main(["play", "--game", "downtown", "--deck", str(deck)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{deck}: " in err and ("nested too deeply" in err or "too large" in err)


@pytest.mark.parametrize("command", ["serve", "host", "play"])
def test_a_bad_deck_file_is_refused_on_the_command_line_naming_the_file_the_card_and_the_field(command,
                                                                                               tmp_path):
    from client.cli import build_parser
    from client.commands.serve import settings_from

    deck = tmp_path / "mine.toml"
    bundled = (Path(__file__).parents[1] / "waddle" / "downtown" / "data" / "deck.toml").read_text()
    deck.write_text(bundled.replace('name = "Odd"', 'name = "Even"', 1))
    args = build_parser(command).parse_args([command, "--game", "downtown", "--deck", str(deck)])
    if command == "play":
        args.players, args.bots = 2, ["greedy"]
    with pytest.raises(ValueError, match=re.escape(f"{deck}: card 8 (Even): name: card 6 has the same name")):
        settings_from(args)  # before any host listens (it was read only when the owner started)


def test_serve_host_and_play_take_the_downtown_options(tmp_path):
    from client.cli import build_parser
    from client.commands.serve import settings_from

    deck = tmp_path / "my.toml"
    deck.write_text((Path(__file__).parents[1] / "waddle" / "downtown" / "data" / "deck.toml").read_text())
    for command in ("serve", "host", "play"):
        args = build_parser(command).parse_args([command, "--game", "downtown", "--single-deck",
                                                 "--deck", str(deck)])
        if command == "play":
            args.players, args.bots = 2, ["greedy"]
        options = settings_from(args).options
        assert options == DowntownOptions(single_deck=True, deck=FileDeck(str(deck)))
    args = build_parser("serve").parse_args(["serve", "--game", "downtown"])
    assert settings_from(args).options == DowntownOptions(single_deck=False, deck=BundledDeck())


async def test_the_owner_may_keep_the_hosts_deck_file_but_name_no_other(tmp_path):
    from test_downtown_secrets import Peer

    from protocol.messages import Configure, Join
    from server.table import Table

    deck = tmp_path / "deck.toml"
    deck.write_text((Path(__file__).parents[1] / "waddle" / "downtown" / "data" / "deck.toml").read_text())
    host_choice = DowntownOptions(deck=FileDeck(str(deck)))
    table = Table(Settings(players=2, options=host_choice), ruleset=DOWNTOWN)
    ann = Peer()
    table.handle(ann, Join(name="Ann"))
    kept = Settings(players=3, options=DowntownOptions(single_deck=True, deck=FileDeck(str(deck))))
    table.handle(ann, Configure(settings=kept))
    assert table.settings.options.single_deck and table.settings.players == 3
    other = Settings(players=3, options=DowntownOptions(deck=FileDeck("/etc/passwd")))
    table.handle(ann, Configure(settings=other))
    assert ann.sent[-1].code == "bad_settings" and "only be chosen on the host" in ann.sent[-1].message
    assert table.settings == kept
