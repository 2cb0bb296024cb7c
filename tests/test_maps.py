"""Map files: the TOML format of docs/maps.md, validation errors, bundled maps."""

from __future__ import annotations

import json
import os
import re

import msgspec
import pytest

from waddle import Game, Map, MapError, bundled_map, bundled_maps, load_map
from waddle.hex.bundled import bundled_info
from waddle.hex.hexgrid import components, neighbours
from waddle.hex.maps import MAX_COORD, MAX_MAP_BYTES
from waddle.hex.ruleset import HexData, MapData

GOOD = """\
name = "little bay"
description = "two pools"
players = [2, 3]

hexes = [
  {q = 0, r = 0, terrain = "water", number = 1, fish = [5, 1]},
  {q = 1, r = 0, terrain = "ice"},
  {q = 0, r = 1, terrain = "ice"},
  {q = -1, r = 1, terrain = "water"},
  {q = 1, r = 1, terrain = "water", number = 2, fish = [2]},
  {q = 2, r = 0, terrain = "ice"},
]
"""


def write(tmp_path, text, name="map.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def hexes_file(tmp_path, *lines):
    return write(tmp_path, "hexes = [\n" + "".join(f"  {line},\n" for line in lines) + "]\n")


def test_good_map_file(tmp_path):
    map = load_map(write(tmp_path, GOOD))
    assert map.name == "little bay"
    assert map.ice == {(1, 0), (0, 1), (2, 0)}
    assert map.numbered == ((0, 0), (1, 1))
    assert map.water[(-1, 1)].number is None
    # (0, 0) and (-1, 1) are neighbours: one pool with both hexes' fish, best first.
    pools = {p.hexes: p.fish for p in map.pools}
    assert pools == {frozenset({(0, 0), (-1, 1)}): (5, 1), frozenset({(1, 1)}): (2,)}


def test_a_game_keeps_to_the_map_players_range(tmp_path):
    map = load_map(write(tmp_path, GOOD))
    assert map.players == (2, 3) and load_map(hexes_file(tmp_path, "{q=0, r=0, terrain='water', number=1}",
                                                         "{q=1, r=0, terrain='ice'}")).players == (2, 5)
    Game(map, ["red", "blue", "yellow"])
    with pytest.raises(ValueError, match="this map is for 2 to 3 players, not 5"):
        Game(map, ["red", "blue", "yellow", "green", "purple"])
    assert bundled_map("lagoon").players == bundled_info("lagoon").players == (2, 3)


def test_json_map_file_is_a_record_map_object(tmp_path):
    toml_map = load_map(write(tmp_path, GOOD))
    path = write(tmp_path, json.dumps(toml_map.to_dict()), "map.json")
    assert load_map(path) == toml_map


def test_to_dict_round_trips():
    map = bundled_map("islands")
    assert Map.from_dict(json.loads(json.dumps(map.to_dict()))) == map


@pytest.mark.parametrize("lines, problem", [
    (['{q = 0, r = 0, terrain = "water", number = 1}', '{q = 1, r = 0, terrain = "lava"}'],
     r"hexes\[1\] at \(1, 0\): unknown terrain 'lava'"),
    (['{q = 0, r = 0, terrain = "water", number = 1}', '{q = 1, r = 0, terrain = "ice"}',
      '{q = 1, r = 0, terrain = "ice"}'],
     r"hexes\[2\] at \(1, 0\): duplicate hex"),
    (['{q = 0, r = 0, terrain = "water", number = 1}', '{q = 1, r = 0, terrain = "ice"}',
      '{q = 2, r = 0, terrain = "water", number = 1}'],
     r"water hex \(2, 0\): duplicate number 1 \(also at \(0, 0\)\)"),
    (['{q = 0, r = 0, terrain = "water", number = 1, fish = [3, 0]}', '{q = 1, r = 0, terrain = "ice"}'],
     r"water hex \(0, 0\): fish value 0 is below 1"),
    (['{q = 0, r = 0, terrain = "water", number = 1, fish = [3, 100]}', '{q = 1, r = 0, terrain = "ice"}'],
     r"water hex \(0, 0\): fish value 100 is above 99"),
    (['{q = 0, r = 0, terrain = "water", number = 1}', '{q = 1, r = 0, terrain = "ice"}',
      '{q = 0, r = 1, terrain = "water", fish = [99999999999999999999999999]}'],
     r"water hex \(0, 1\): fish value 99999999999999999999999999 is above 99$"),
    (['{q = 0, r = 0, terrain = "water", number = 1000}', '{q = 1, r = 0, terrain = "ice"}'],
     r"water hex \(0, 0\): number 1000 is above 999$"),
    (['{q = 0, r = 0, terrain = "water", number = 1, fish = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}',
      '{q = 1, r = 0, terrain = "ice"}'],
     r"water hex \(0, 0\): 10 fish, more than 9$"),
    (['{q = 0, r = 0, terrain = "water", number = 1}', '{q = 1, r = 0, terrain = "ice"}',
      '{q = 5, r = 5, terrain = "ice"}'],
     r"ice hex \(5, 5\) touches no numbered water hex"),
    (['{q = 0, r = 0, terrain = "water"}', '{q = 1, r = 0, terrain = "ice"}'],
     r"the map has no numbered water hex"),
    (['{q = 0, r = 0, terrain = "water", number = 1}', '{q = 1, r = 0, terrain = "ice", fish = [2]}'],
     r"hexes\[1\] at \(1, 0\): an ice hex has no number and no fish"),
    (['{q = 0, r = 0, terrain = "water", number = 1}', '{q = 1, r = "a", terrain = "ice"}'],
     r"hexes\[1\]: q and r must be integers"),
    (['{q = 0, r = 0, terrain = "water", number = 1}', '{q = 1, r = 0, terrain = "ice"}',
      '{q = 1001, r = 0, terrain = "ice"}'],
     r"hex \(1001, 0\): q and r must be from -1000 to 1000"),
    (['{q = 0, r = -1001, terrain = "water", number = 1}', '{q = 1, r = -1001, terrain = "ice"}'],
     r"hex \(0, -1001\): q and r must be from -1000 to 1000"),
])
def test_validation_names_file_place_and_problem(tmp_path, lines, problem):
    path = hexes_file(tmp_path, *lines)
    with pytest.raises(MapError, match=f"^{re.escape(str(path))}: .*{problem}") as caught:
        load_map(path)
    assert "\n" not in str(caught.value)


def test_the_loader_keeps_to_the_coordinates_the_wire_carries(tmp_path):
    # `waddle play --map` showed msgspec's "Expected int <= 1000" in the lobby: the view could not carry the map
    edge = load_map(hexes_file(tmp_path, "{q = 1000, r = -1000, terrain = 'water', number = 1}",
                               "{q = 999, r = -1000, terrain = 'ice'}"))
    assert msgspec.convert(edge.to_dict(), MapData).hexes[1] == HexData(1000, -1000, "water", 1)
    beyond = {"q": MAX_COORD + 1, "r": 0, "terrain": "ice"}
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(beyond, HexData)
    with pytest.raises(MapError, match=rf"hex \({MAX_COORD + 1}, 0\): q and r must be from"):
        Map.from_dict({"hexes": [{"q": MAX_COORD, "r": 0, "terrain": "water", "number": 1}, beyond]})


def test_fish_values_from_1_to_99_are_kept(tmp_path):
    map = load_map(hexes_file(tmp_path, "{q = 0, r = 0, terrain = 'water', number = 1, fish = [1, 99]}",
                              "{q = 1, r = 0, terrain = 'ice'}"))
    assert map.pools[0].fish == (99, 1)


def test_an_ice_hex_next_to_unnumbered_water_only_is_refused(tmp_path):
    path = hexes_file(tmp_path, '{q = 0, r = 0, terrain = "water", number = 1}',
                      '{q = 1, r = 0, terrain = "ice"}', '{q = 3, r = 0, terrain = "water"}',
                      '{q = 4, r = 0, terrain = "ice"}')
    with pytest.raises(MapError, match=r"ice hex \(4, 0\) touches no numbered water hex"):
        load_map(path)


def test_bad_toml_names_the_file(tmp_path):
    path = write(tmp_path, 'hexes = [ {q = 0, r = 0, terrain = "water" ')
    with pytest.raises(MapError, match=f"^{re.escape(str(path))}: not a valid toml file"):
        load_map(path)


@pytest.mark.parametrize("name, text", [
    ("deep.json", "[" * 100_000 + "]" * 100_000),
    ("deep.toml", "hexes = " + "[" * 100_000 + "]" * 100_000),
    ("deep.toml", "hexes = [{q = 0, r = 0, terrain = " + "{a = " * 30_000 + "1" + "}" * 30_000 + "}]"),
])
def test_a_file_nested_too_deeply_is_refused_naming_the_file(tmp_path, name, text):
    path = write(tmp_path, text, name)
    with pytest.raises(MapError, match=f"^{re.escape(str(path))}: not a valid (json|toml) file: nested too deeply$"):
        load_map(path)


def test_a_file_over_the_cap_is_refused_naming_the_cap(tmp_path):
    path = write(tmp_path, GOOD + "#" * (MAX_MAP_BYTES - len(GOOD.encode())))
    assert load_map(path).name == "little bay"  # at the cap
    path = write(tmp_path, GOOD + "#" * (MAX_MAP_BYTES + 1 - len(GOOD.encode())))
    with pytest.raises(MapError, match=f"^{re.escape(str(path))}: cannot read the map file: "
                                       f"the file is too large: over the {MAX_MAP_BYTES:,}-byte cap$"):
        load_map(path)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_an_endless_file_is_refused_as_too_large():
    with pytest.raises(MapError, match="^/dev/zero: cannot read the map file: the file is too large"):
        load_map("/dev/zero")


def test_missing_file_names_the_file(tmp_path):
    path = tmp_path / "nowhere.toml"
    with pytest.raises(MapError, match=f"^{re.escape(str(path))}: cannot read the map file"):
        load_map(path)


@pytest.mark.parametrize("header, problem", [
    ("players = [1, 3]", "players must be"),
    ("players = [4, 3]", "players must be"),
    ("players = 3", "players must be"),
    ("description = 5", "description must be a string"),
    ("name = [1]", "name must be a string"),
])
def test_bad_header_fields(tmp_path, header, problem):
    path = write(tmp_path, header + "\n" + GOOD.split("\n", 3)[3])
    with pytest.raises(MapError, match=f"^{re.escape(str(path))}: {problem}"):
        load_map(path)


def test_the_map_needs_a_hexes_list(tmp_path):
    with pytest.raises(MapError, match="a map needs a list 'hexes'"):
        load_map(write(tmp_path, 'name = "empty"\n'))


# -- bundled maps ---------------------------------------------------------------------


def test_at_least_two_bundled_maps():
    assert len(bundled_maps()) >= 2
    assert bundled_maps() == sorted(bundled_maps())


@pytest.mark.parametrize("name", bundled_maps())
def test_bundled_map_is_valid_and_described(name):
    map = bundled_map(name)
    info = bundled_info(name)
    assert map.name == info.name == name
    assert info.description
    low, high = info.players
    assert 2 <= low <= high <= 5


def test_islands_are_separate_islands():
    """"Separate islands" (rulebook, creative layouts): more than one landmass."""
    assert len(components(bundled_map("islands").hexes)) >= 3


def test_peninsulas_have_bays():
    """Peninsulas: off-map hexes reach in between the arms (a hex off the map with
    map hexes on both sides of it, east and west, in the same row)."""
    map = bundled_map("peninsulas")
    hexes = map.hexes
    bays = [(q, r) for q, r in {(q, r) for q in range(-20, 20) for r in range(-10, 10)} - hexes
            if any((q - k, r) in hexes for k in range(1, 3)) and any((q + k, r) in hexes for k in range(1, 3))]
    assert len(bays) >= 4


def test_lagoon_has_gaps_in_its_reef():
    """Gaps: hexes off the map that the map closes in on all six sides."""
    hexes = bundled_map("lagoon").hexes
    gaps = {n for h in hexes for n in neighbours(h) if n not in hexes
            and all(m in hexes for m in neighbours(n))}
    assert len(gaps) >= 2


@pytest.mark.parametrize("name", bundled_maps())
def test_bundled_map_plays_to_the_end(name):
    map = bundled_map(name)
    low, high = bundled_info(name).players
    for players in (low, high):
        game = Game(map, ["red", "blue", "yellow", "green", "purple"][:players])
        while not game.is_over:
            game.apply(game.legal_actions()[-1])  # scouts whenever it may
        assert set(game.tokens) == set(map.ice)


def test_unknown_bundled_map_lists_the_names():
    with pytest.raises(MapError, match="no bundled map 'atlantis'; the bundled maps are: islands"):
        bundled_map("atlantis")


def test_bundled_maps_are_package_data():
    """Loaded through importlib.resources from inside the package, so a wheel carries them."""
    from importlib import resources

    folder = resources.files("waddle.hex").joinpath("data")
    assert folder.joinpath("tiles.toml").is_file()
    assert {f"{name}.toml" for name in bundled_maps()} <= {f.name for f in folder.joinpath("maps").iterdir()}
