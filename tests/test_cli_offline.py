"""``waddle map`` and ``waddle replay``: output and one-line errors (no network)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from client.cli import main
from waddle import Map, bundled_map, standard_map
from waddle.files import MAX_RECORD_BYTES
from waddle.hex.maps import MAX_MAP_BYTES
from waddle.hex.tiles import tiles_for

RECORDS = Path(__file__).with_name("data") / "records"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# -- waddle map -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_map_json_is_the_record_map_object(capsys, players):
    status, out, _ = run(capsys, "map", "--players", str(players), "--seed", "17", "--json")
    assert status == 0
    data = json.loads(out)
    assert list(data) == ["hexes"]
    map = Map.from_dict(data)
    assert map == standard_map(players, 17)
    assert len(map.numbered) == len(tiles_for(players))


def test_map_text_shows_seed_board_and_pools(capsys):
    status, out, _ = run(capsys, "map", "--players", "3", "--seed", "5")
    assert status == 0
    assert out.startswith("standard map for 3 players, seed 5: 15 tiles;")
    board = [line for line in out.splitlines() if re.match(r"r *-?\d+ q *-?\d+ \|", line)]
    assert board and sum(line.count("~") for line in board) == 15
    assert "pool 1: " in out


def test_map_without_seed_prints_a_seed_that_makes_it_again(capsys):
    _, out, _ = run(capsys, "map", "--players", "4")
    seed = re.match(r"standard map for 4 players, seed (\d+):", out).group(1)
    _, again, _ = run(capsys, "map", "--players", "4", "--seed", seed)
    assert again == out


def test_map_bundled_by_name(capsys):
    status, out, _ = run(capsys, "map", "--bundled", "islands", "--json")
    assert status == 0 and Map.from_dict(json.loads(out)) == bundled_map("islands")
    _, text, _ = run(capsys, "map", "--bundled", "islands")
    assert text.startswith("bundled map islands for 2-4 players;")


def test_map_name_is_kept_as_the_older_spelling_of_bundled(capsys):
    _, text, _ = run(capsys, "map", "--name", "lagoon")
    assert text.startswith("bundled map lagoon for 2-3 players;")


def test_map_list(capsys):
    _, out, _ = run(capsys, "map", "--list")
    assert re.search(r"^islands: 2-4 players\. ", out, re.M)
    assert re.search(r"^lagoon: 2-3 players\. ", out, re.M)
    assert re.search(r"^peninsulas: 3-5 players\. ", out, re.M)


def test_unknown_bundled_map_is_one_line(capsys):
    status, out, err = run(capsys, "map", "--bundled", "atlantis")
    assert status == 2 and out == ""
    assert err == "waddle map: no bundled map 'atlantis'; the bundled maps are: islands, lagoon, peninsulas\n"


def test_map_file_is_checked(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('hexes = [{q = 0, r = 0, terrain = "water", number = 1},\n'
                    '         {q = 1, r = 0, terrain = "ice"}, {q = 3, r = 3, terrain = "ice"}]\n')
    status, out, err = run(capsys, "map", "--file", str(path))
    assert status == 2 and out == ""
    assert err == f"waddle map: {path}: ice hex (3, 3) touches no numbered water hex\n"
    path.write_text('hexes = [{q = 0, r = 0, terrain = "water", number = 1, fish = [2]},\n'
                    '         {q = 1, r = 0, terrain = "ice"}]\n')
    status, out, _ = run(capsys, "map", "--file", str(path))
    assert status == 0 and out.startswith(f"map file {path}; 1 ice and 1 water hexes")


@pytest.mark.parametrize("name, text", [
    ("deep.json", "[" * 100_000 + "]" * 100_000),
    ("deep.toml", "hexes = " + "[" * 100_000 + "]" * 100_000),
    ("big.toml", "#" * (MAX_MAP_BYTES + 1)),
])
def test_a_hostile_map_file_is_one_line_naming_it(tmp_path, capsys, name, text):
    path = tmp_path / name
    path.write_text(text)
    status, out, err = run(capsys, "map", "--file", str(path))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"waddle map: {path}: ") and ("nested too deeply" in err or "too large" in err)


def test_seed_with_a_named_map_is_refused(capsys):
    status, _, err = run(capsys, "map", "--bundled", "islands", "--seed", "3")
    assert status == 2 and "--seed is for the standard map, not with --bundled or --file" in err


# -- waddle replay ----------------------------------------------------------------------

# Hand-checked totals: /work/shared/records/README.md (copied to tests/data/records/README.md).
EXPECTED = {
    "three-players-ranked-pool.json": (
        {"red": (6, 4), "blue": (3, 2), "green": (1, 0)}, ["red"]),
    "three-players-three-way-tie.json": (
        {"red": (3, 4), "blue": (3, 4), "green": (3, 4)}, ["red", "blue", "green"]),
    "two-players-scout-and-fill.json": (
        {"blue": (34, 6), "yellow": (6, 3)}, ["blue"]),
}


def scores(table):
    return {p: {"waddles": w, "pools": f, "total": w + f} for p, (w, f) in table.items()}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_json_of_the_hand_checked_records(capsys, name):
    status, out, _ = run(capsys, "replay", str(RECORDS / name), "--json")
    assert status == 0
    table, winners = EXPECTED[name]
    assert json.loads(out) == {"finished": True, "scores": scores(table), "winners": winners,
                               "halves": [scores(table)]}


def test_replay_json_of_a_mirror_match(capsys):
    """Worked out by hand in tests/data/records/README.md."""
    status, out, _ = run(capsys, "replay", str(RECORDS / "mirror-two-players.json"), "--json")
    assert status == 0
    assert json.loads(out) == {
        "finished": True,
        "scores": scores({"red": (3, 2), "blue": (7, 2)}),
        "winners": ["blue"],
        "halves": [scores({"red": (2, 2), "blue": (1, 0)}), scores({"red": (1, 0), "blue": (6, 2)})],
    }


def test_replay_text_shows_board_and_breakdown(capsys):
    status, out, _ = run(capsys, "replay", str(RECORDS / "two-players-scout-and-fill.json"))
    assert status == 0
    assert "game over" in out and "winners: blue" in out
    # Blue's waddle of 6 hexes with a double: 7 penguins, 28 VP (records README).
    assert re.search(r"^  blue +7 +28 VP  -1,0 -1,1 0,-1 0,1 1,-1 1,0$", out, re.M)
    # The second pool: tied 3-3, both score all its fish (2 and 1).
    assert re.search(r"^  0,3; fish 2 1; strength blue 3, yellow 3; won blue 2\+1, yellow 2\+1$", out, re.M)


def test_replay_text_of_a_mirror_match_shows_both_halves(capsys):
    _, out, _ = run(capsys, "replay", str(RECORDS / "mirror-two-players.json"))
    assert "== half 1 ==" in out and "== half 2 ==" in out
    assert "total of both halves: red 5 (3+2), blue 9 (7+2)" in out


def truncated(tmp_path, name, keep):
    data = json.loads((RECORDS / name).read_text())
    data["actions"] = data["actions"][:keep]
    path = tmp_path / f"cut-{keep}.json"
    path.write_text(json.dumps(data))
    return path


def test_replay_of_an_unfinished_record_gives_the_live_score(tmp_path, capsys):
    # After red (1,0) and blue (0,-1): one penguin each (1 VP), both strength 1 at the
    # pool: one group, so both score its best fish, 4 (friendly tie). Green has nothing.
    path = truncated(tmp_path, "three-players-ranked-pool.json", 2)
    _, out, _ = run(capsys, "replay", str(path), "--json")
    live = scores({"red": (1, 4), "blue": (1, 4), "green": (0, 0)})
    assert json.loads(out) == {"finished": False, "scores": live, "winners": [], "halves": [live]}
    _, text, _ = run(capsys, "replay", str(path))
    assert "the record stops after 2 actions; the game is not over" in text
    _, text, _ = run(capsys, "replay", str(truncated(tmp_path, "three-players-ranked-pool.json", 1)))
    assert "the record stops after 1 action; the game is not over" in text


def test_version_names_the_installed_package(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.strip() == f"waddle {version('waddle')}"


def test_replay_of_no_actions_scores_nothing(tmp_path, capsys):
    _, out, _ = run(capsys, "replay", str(truncated(tmp_path, "two-players-scout-and-fill.json", 0)), "--json")
    zero = scores({"blue": (0, 0), "yellow": (0, 0)})
    assert json.loads(out) == {"finished": False, "scores": zero, "winners": [], "halves": [zero]}


def test_replay_reads_standard_input(monkeypatch, capsys):
    text = (RECORDS / "three-players-three-way-tie.json").read_text()
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status, out, _ = run(capsys, "replay", "-", "--json")
    assert status == 0 and json.loads(out)["winners"] == ["red", "blue", "green"]


def bad_record(tmp_path, change):
    data = json.loads((RECORDS / "three-players-ranked-pool.json").read_text())
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("change, problem", [
    (lambda d: d["actions"][3].update(hex=[0, 0]),
     r"actions\[3\]: place 0,0 by red is illegal: hex 0,0 is water"),
    (lambda d: d["actions"][1].update(player="green"),
     r"actions\[1\]: place 0,-1 by 'green', but it is blue's turn"),
    (lambda d: d["actions"].append({"player": "blue", "type": "scout"}),
     r"actions\[7\]: scout after the game is over"),
    (lambda d: d["actions"][2].update(type="jump"),
     r"actions\[2\]: unknown action type 'jump'"),
    (lambda d: d.update(version=9), r"version: this program reads version 1, found 9"),
    (lambda d: d["map"]["hexes"][0].update(terrain="rock"),
     r"map: hexes\[0\] at \(-1, 0\): unknown terrain 'rock'"),
])
def test_bad_record_is_one_line_naming_file_place_and_problem(tmp_path, capsys, change, problem):
    path = bad_record(tmp_path, change)
    status, out, err = run(capsys, "replay", str(path))
    assert status == 2 and out == ""
    assert re.fullmatch(f"waddle replay: {re.escape(str(path))}: {problem}.*\n", err)
    assert err.count("\n") == 1


def test_record_that_is_not_json(tmp_path, capsys):
    path = tmp_path / "notes.json"
    path.write_text("{not json")
    status, _, err = run(capsys, "replay", str(path), "--json")
    assert status == 2 and err.startswith(f"waddle replay: {path}: not valid JSON")


@pytest.mark.parametrize("form", ["--text", "--json"])
def test_a_record_nested_too_deeply_is_one_line(tmp_path, capsys, form):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    status, out, err = run(capsys, "replay", str(path), form)
    assert status == 2 and out == ""
    assert err == f"waddle replay: {path}: not valid JSON: nested too deeply\n"


def test_a_record_over_the_cap_is_one_line_from_a_file_or_standard_input(tmp_path, capsys, monkeypatch):
    path = tmp_path / "big.json"
    path.write_text(" " * (MAX_RECORD_BYTES + 1))
    status, out, err = run(capsys, "replay", str(path))
    assert status == 2 and out == ""
    assert err == f"waddle replay: {path}: cannot read the record: the file is too large: over the {MAX_RECORD_BYTES:,}-byte cap\n"
    stdin = io.StringIO(" " * (MAX_RECORD_BYTES + 10))
    monkeypatch.setattr("sys.stdin", stdin)
    status, out, err = run(capsys, "replay", "-", "--json")
    assert status == 2 and err.startswith("waddle replay: <stdin>: cannot read the record: the file is too large")
    assert stdin.tell() == MAX_RECORD_BYTES + 1  # read no further


def test_missing_record(tmp_path, capsys):
    path = tmp_path / "gone.json"
    status, _, err = run(capsys, "replay", str(path))
    assert status == 2 and err.startswith(f"waddle replay: {path}: cannot read the record")



def test_map_file_name_and_path_are_printed_without_escape_sequences(tmp_path, capsys):
    path = tmp_path / "evil\x1b[2J.toml"
    path.write_text('name = "\\u001b[31mEVIL\\u202e"\n'
                    'hexes = [{q = 0, r = 0, terrain = "water", number = 1, fish = [2]},\n'
                    '         {q = 1, r = 0, terrain = "ice"}]\n')
    status, out, _ = run(capsys, "map", "--file", str(path))
    assert status == 0 and "EVIL" in out and "\nmap: [31mEVIL\n" in out
    assert "\x1b" not in out and "\u202e" not in out


def test_the_lobby_shows_a_host_map_path_without_escape_sequences():
    from client.games.hex.ui import LOBBY_FIELDS
    from protocol.messages import Settings
    from waddle.hex.options import FileMap, HexOptions

    settings = Settings(options=HexOptions(map=FileMap(path="/m/\x1b]0;x\x07a\u202eb.toml")))
    shown = next(f for f in LOBBY_FIELDS if f.label == "Map").show(settings)
    assert shown == "/m/ab.toml"


def test_hints_are_a_table_option_on_play_host_and_serve():
    import argparse

    from client.commands import serve

    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    assert serve.settings_from(parser.parse_args([])).hints == "auto"
    assert serve.settings_from(parser.parse_args(["--hints", "off"])).hints == "off"
    with pytest.raises(SystemExit):
        parser.parse_args(["--hints", "maybe"])
