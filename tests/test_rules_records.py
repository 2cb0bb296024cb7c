"""Game records (issue 2, item 7): the format, replay, and refusal of bad records."""

from __future__ import annotations

import copy
import json

import pytest

from waddle import Game, Map, RecordError, Water, parse_action
from waddle.files import MAX_RECORD_BYTES
from waddle.hex.record import from_record, load_record, save_record, to_record


def small_game():
    # #1 at (0,0) with fish 5 and 1 and an unnumbered water hex at (0,1); ice at (1,0)
    # and (1,-1) (both touch #1), and (-1,1), which touches #1 and (0,1).
    water = {(0, 0): Water(1, (5, 1)), (0, 1): Water()}
    return Game(Map([(1, 0), (1, -1), (-1, 1)], water), ["red", "blue", "yellow"])


def test_record_has_the_documented_fields():
    game = small_game()
    for text in ("place 1,0", "scout", "double 1,-1"):
        game.apply(parse_action(text))
    assert to_record(game, seed=7) == {
        "format": "waddle-record", "version": 1,
        "players": ["red", "blue", "yellow"],
        "options": {"mirror_match": False},
        "seed": 7,
        "map": {"hexes": [
            {"q": -1, "r": 1, "terrain": "ice"},
            {"q": 0, "r": 0, "terrain": "water", "number": 1, "fish": [5, 1]},
            {"q": 0, "r": 1, "terrain": "water", "fish": []},
            {"q": 1, "r": -1, "terrain": "ice"},
            {"q": 1, "r": 0, "terrain": "ice"},
        ]},
        "actions": [
            {"player": "red", "type": "place", "hex": [1, 0], "double": False},
            {"player": "blue", "type": "scout"},
            {"player": "yellow", "type": "place", "hex": [1, -1], "double": True},
        ],
    }


def test_record_that_stops_early_gives_the_live_position(fingerprint):
    game = small_game()
    game.apply(parse_action("place 1,0"))
    again = from_record(json.loads(json.dumps(to_record(game))))
    assert fingerprint(again) == fingerprint(game)
    assert not again.result().finished and again.result().winners == ()


def test_record_file_saves_and_loads(tmp_path, fingerprint):
    game = small_game()
    game.apply(parse_action("double 1,-1"))
    path = tmp_path / "game.json"
    save_record(path, to_record(game, seed=3))
    assert fingerprint(load_record(path)) == fingerprint(game)
    assert json.loads(path.read_text())["seed"] == 3


def record_of(*texts):
    game = small_game()
    for text in texts:
        game.apply(parse_action(text))
    return to_record(game)


def test_record_with_an_illegal_action_is_refused_with_index_and_reason():
    record = record_of("place 1,0", "place 1,-1")
    record["actions"][1]["hex"] = [1, 0]
    with pytest.raises(RecordError, match=r"actions\[1\]: place 1,0 by blue is illegal: "
                                          r"ice hex 1,0 already holds a penguin"):
        from_record(record, source="game.json")


def test_record_action_by_the_wrong_player_is_refused():
    record = record_of("place 1,0", "scout")
    record["actions"][1]["player"] = "yellow"
    with pytest.raises(RecordError, match=r"actions\[1\]: scout by 'yellow', but it is blue's turn"):
        from_record(record)


def test_record_action_without_a_player_names_the_missing_field():
    record = record_of("place 1,0", "scout")
    del record["actions"][1]["player"]
    with pytest.raises(RecordError, match=r"actions\[1\]: scout has no 'player' field \(the colour that played it; here blue\)"):
        from_record(record)


def test_record_action_after_the_game_is_over_is_refused():
    record = record_of("place 1,0", "place 1,-1", "place -1,1")
    record["actions"].append({"player": "blue", "type": "scout"})
    with pytest.raises(RecordError, match=r"actions\[3\]: scout after the game is over"):
        from_record(record)


@pytest.mark.parametrize("field, value, problem", [
    ("players", ["red", "red"], "players: each player needs a different colour"),
    ("options", {"mirror_match": "yes"}, "options.mirror_match must be true or false"),
])
def test_record_with_a_bad_field_is_refused_naming_it(field, value, problem):
    record = copy.deepcopy(record_of("place 1,0"))
    record[field] = value
    with pytest.raises(RecordError, match=f"^game.json: {problem}"):
        from_record(record, source="game.json")


def test_record_with_a_malformed_action_is_refused_with_its_index():
    record = record_of("place 1,0")
    record["actions"].append({"player": "blue", "type": "place", "hex": [1]})
    with pytest.raises(RecordError, match=r"actions\[1\]: 'hex' must be \[q, r\]"):
        from_record(record)


def test_record_file_that_is_not_json_is_refused_naming_it(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(RecordError, match="broken.json: not valid JSON"):
        load_record(path)


def test_record_file_nested_too_deeply_is_refused_naming_it(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="^.*deep.json: not valid JSON: nested too deeply$"):
        load_record(path)


def test_record_file_over_the_cap_is_refused_naming_it_and_the_cap(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(record_of("place 1,0")) + " " * MAX_RECORD_BYTES)
    with pytest.raises(RecordError, match=f"^.*big.json: cannot read the record: the file is too large: "
                                          f"over the {MAX_RECORD_BYTES:,}-byte cap$"):
        load_record(path)
