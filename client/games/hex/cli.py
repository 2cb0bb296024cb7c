"""The hex game's command-line options (``serve``, ``host``, ``play``): the map, mirror
match and real-time score. Imports only :mod:`argparse` at the top."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--map FILE`` / ``--bundled NAME``, ``--mirror`` and ``--realtime-score``
    (on by default; ``--no-realtime-score`` turns it off)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--map", metavar="FILE", help="play on this map file (TOML or JSON)")
    where.add_argument("--bundled", metavar="NAME", help="play on this bundled map")
    parser.add_argument("--mirror", action="store_true", help="mirror match (two halves)")
    parser.add_argument("--realtime-score", action=argparse.BooleanOptionalAction, default=True,
                        help="let clients show live scores and the score view while playing "
                             "(default on)")


def options_from(args: argparse.Namespace):
    """The :class:`waddle.hex.options.HexOptions` the command line asks for: the map
    (``--map``, ``--bundled``, else the standard map seeded by ``--seed``), mirror match,
    real-time score (on unless ``--no-realtime-score``, on every command alike)."""
    from waddle.hex.options import BundledMap, FileMap, HexOptions, StandardMap

    if args.map:
        map = FileMap(path=args.map)
    elif args.bundled:
        map = BundledMap(name=args.bundled)
    else:
        map = StandardMap(seed=args.seed)
    return HexOptions(map=map, mirror_match=args.mirror, realtime_score=args.realtime_score)
