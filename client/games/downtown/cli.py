"""Waddle Downtown's command-line options (``serve``, ``host``, ``play``): the single-deck
variant and a deck file. Imports only :mod:`argparse` at the top."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--single-deck`` and ``--deck FILE`` (Waddle Downtown only)."""
    parser.add_argument("--single-deck", action="store_true",
                        help="Waddle Downtown: the single-deck variant (one shared deck and a display)")
    parser.add_argument("--deck", metavar="FILE",
                        help="Waddle Downtown: play with this deck file (TOML, docs/downtown.md)")


def options_from(args: argparse.Namespace):
    """The :class:`waddle.downtown.options.DowntownOptions` the command line asks for."""
    from waddle.downtown.options import BundledDeck, DowntownOptions, FileDeck

    deck = FileDeck(path=args.deck) if args.deck else BundledDeck()
    return DowntownOptions(single_deck=args.single_deck, deck=deck)
