"""The bot arena (``waddle arena``): built-in bots and external bot commands play a
schedule of games, each on a real table on 127.0.0.1, and get a rating table.

One concept a module:

- :mod:`client.arena.entrants`: who plays (``search:0.1``, ``hard``, ``cmd:python bot.py``).
- :mod:`client.arena.schedule`: which entrants sit where in each game, from a seed.
- :mod:`client.arena.table`: one game on a local host (bounded waits, faults reported).
- :mod:`client.arena.ratings`: openskill ratings, Wilson intervals, the standings.
- :mod:`client.arena.runner`: the schedule in parallel worker processes.
- :mod:`client.arena.report`: the table as text, JSON and CSV.
- :mod:`client.arena.progress`: the progress bar.

The Python API (``examples/tournament.py`` is a script around it)::

    from client.arena import entrants, report, runner, schedule
    field = tuple(entrants.parse(text, "hex") for text in ("greedy", "search:200i", "random"))
    plan = schedule.round_robin(len(field), players=3, games=6, seed=1)
    arena = runner.Arena("hex", field)
    results, stopped = runner.run(arena, plan, jobs=1)     # stopped: None, or why it stopped early
    print(report.text(arena, results, "6 games"))
"""
