"""The hex game's client side: text (:mod:`.text`), options (:mod:`.cli`) and terminal view
(:mod:`.ui`), and its own subcommand ``waddle map`` (:mod:`.map`)."""

#: The game's own ``waddle`` subcommands: name -> (module, one-line help); see :mod:`client.games`.
COMMANDS: dict[str, tuple[str, str]] = {
    "map": ("client.games.hex.map", "print a map of the hex game: a generated standard map, a "
                                    "bundled map or a map file"),
}
