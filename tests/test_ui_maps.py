"""Hand-built maps for the terminal UI tests (7-hex "flowers": one water hex, six ice).

A hex ``(q, r)`` with ``(q + 3r) % 7 == 0`` is a flower's water hex; every other hex
is next to exactly one of them. Used until the standard tile set is available and to
keep the UI tests independent of its random layout.
"""

from waddle import Map, Water
from waddle.hex.hexgrid import distance, neighbours


def flower_map(radius: int) -> Map:
    """Every hex within ``radius`` of ``(0, 0)`` whose flower centre is on the map."""
    area = {(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
            if distance((0, 0), (q, r)) <= radius}
    centres = sorted(h for h in area if (h[0] + 3 * h[1]) % 7 == 0)
    water = {h: Water(i + 1, tuple(range(i % 4, 0, -1))) for i, h in enumerate(centres)}
    ice = {h for h in area - water.keys() if any(n in water for n in neighbours(h))}
    return Map(ice, water, name=f"flowers-{radius}")


def test_flower_map_has_numbered_water_with_fish_and_ice_around_it():
    map = flower_map(4)
    assert len(map.numbered) == len(map.water) >= 7
    assert any(len(w.fish) > 1 for w in map.water.values())
    assert all(any(n in map.water for n in neighbours(h)) for h in map.ice)
    assert len(map.hexes) > 40
