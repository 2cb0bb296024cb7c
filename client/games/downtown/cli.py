"""Waddle Downtown's command-line options (``serve``, ``host``, ``play``, ``demo``): the
single-deck variant and a deck file. Imports only :mod:`argparse` at the top."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--single-deck`` and ``--deck FILE``, in a group of their own. Each is
    ``None`` unless given (:func:`given`)."""
    group = parser.add_argument_group("Waddle Downtown, the card game (--game downtown)")
    group.add_argument("--single-deck", action="store_true", default=None,
                       help="the single-deck variant (one shared deck and a display of 3 cards)")
    group.add_argument("--deck", metavar="FILE",
                       help="play with this deck file (TOML, docs/downtown.md) instead of the bundled deck")


def given(args: argparse.Namespace) -> list[str]:
    """Waddle Downtown's options given on the command line, as their flags."""
    flags = {"single_deck": "--single-deck", "deck": "--deck"}
    return [flag for dest, flag in flags.items() if getattr(args, dest, None) is not None]


def options_from(args: argparse.Namespace):
    """The :class:`waddle.downtown.options.DowntownOptions` the command line asks for."""
    from waddle.downtown.options import BundledDeck, DowntownOptions, FileDeck

    deck = FileDeck(path=args.deck) if args.deck else BundledDeck()
    return DowntownOptions(single_deck=bool(args.single_deck), deck=deck)
