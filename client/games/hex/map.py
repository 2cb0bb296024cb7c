"""``waddle map``, the hex game's own subcommand (:data:`client.games.hex.COMMANDS`):
print a standard map, a bundled map or a map file.

As text (the board of :mod:`waddle.hex.render` and its fishing pools), or with ``--json``
as the ``map`` object of a game record (``docs/records.md``), on one line. Without
``--seed`` a seed is drawn and printed, so the map can be made again. ``--file`` checks
a map file: a bad one gives one line naming the file, the hex and the problem.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from waddle.ruleset import get_ruleset

    low, high = get_ruleset("hex").players
    parser.add_argument("--players", type=int, default=4, choices=range(low, high + 1), metavar="N",
                        help=f"players, {low} to {high}: picks the standard tiles (default 4)")
    parser.add_argument("--seed", type=int, help="seed of the standard map (default: random)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--bundled", "--name", dest="bundled", metavar="NAME",
                       help="print this bundled map instead (as serve/host --bundled; "
                            "--name is the older spelling)")
    which.add_argument("--file", metavar="FILE", help="check and print this map file (TOML or JSON)")
    which.add_argument("--list", action="store_true", help="list the bundled maps")
    parser.add_argument("--json", action="store_true",
                        help="print the map as a game record's map object")


def run(args: argparse.Namespace) -> int:
    import json
    import random

    from protocol.text import clean
    from waddle.hex.bundled import bundled_info, bundled_map, bundled_maps
    from waddle.hex.maps import load_map
    from waddle.hex.render import render_map
    from waddle.hex.tiles import standard_map, tiles_for

    if args.list:
        for name in bundled_maps():
            info = bundled_info(name)
            print(f"{name}: {info.players[0]}-{info.players[1]} players. {clean(info.description)}")
        return 0
    if (args.bundled or args.file) and args.seed is not None:
        raise ValueError("--seed is for the standard map, not with --bundled or --file")
    if args.bundled:
        map = bundled_map(args.bundled)
        info = bundled_info(args.bundled)
        about = f"bundled map {args.bundled} for {info.players[0]}-{info.players[1]} players"
    elif args.file:
        map = load_map(args.file)
        about = f"map file {clean(args.file)}"
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        map = standard_map(args.players, seed)
        about = (f"standard map for {args.players} players, seed {seed}: "
                 f"{len(tiles_for(args.players))} tiles")
    if args.json:
        print(json.dumps(map.to_dict()))
        return 0
    print(f"{about}; {len(map.ice)} ice and {len(map.water)} water hexes, "
          f"{len(map.numbered)} numbered, {len(map.pools)} fishing pools")
    print(render_map(map))
    return 0
