"""Subcommands of the ``waddle`` command line: each module has ``add_arguments(parser)`` and ``run(args)``; top-level imports stay light."""
