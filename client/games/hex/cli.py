"""The hex game's command-line options (``serve``, ``host``, ``play``, ``demo``): the map,
mirror match and real-time score. Imports only :mod:`argparse` at the top."""

from __future__ import annotations

import argparse

#: Each option's destination and flag; unset (``None``) unless given.
FLAGS = {"map": "--map", "bundled": "--bundled", "mirror": "--mirror"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--map FILE`` / ``--bundled NAME``, ``--mirror`` and ``--realtime-score``
    (on by default; ``--no-realtime-score`` turns it off), in a group of their own. Each
    is ``None`` unless given (:func:`given`)."""
    group = parser.add_argument_group("Waddle, the hex game (--game hex)")
    where = group.add_mutually_exclusive_group()
    where.add_argument("--map", metavar="FILE", help="play on this map file (TOML or JSON)")
    where.add_argument("--bundled", metavar="NAME", help="play on this bundled map")
    group.add_argument("--mirror", action="store_true", default=None, help="mirror match (two halves)")
    group.add_argument("--realtime-score", action=argparse.BooleanOptionalAction, default=None,
                       help="let clients show live scores and the score view while playing "
                            "(default on)")


def given(args: argparse.Namespace) -> list[str]:
    """The hex game's options given on the command line, as their flags."""
    flags = [flag for dest, flag in FLAGS.items() if getattr(args, dest, None) is not None]
    realtime = getattr(args, "realtime_score", None)
    if realtime is not None:
        flags.append("--realtime-score" if realtime else "--no-realtime-score")
    return flags


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
    return HexOptions(map=map, mirror_match=bool(args.mirror),
                      realtime_score=args.realtime_score is not False)
