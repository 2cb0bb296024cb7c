"""The hex game *Waddle* (2024, Corné van Moorsel): maps, tiles, the game, scoring,
records and bots (RULES.md). :mod:`waddle.hex.ruleset` plugs it into the host.
"""
