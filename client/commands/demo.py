"""``waddle demo``: a complete game between bots over TCP on this machine.

Starts a host on 127.0.0.1 (any free port) for the game (``--game``: the hex game by
default, or Waddle Downtown), connects one headless bot client per seat over TCP and a
spectator that prints each move as it happens (what any spectator may see: no hand, no
card drawn from a deck), then the final position, the score breakdown and where the game
record was saved (``waddle replay PATH`` shows it again). With ``--json`` it prints only
the object ``waddle replay --json`` prints for that record, plus ``"record": PATH``.
"""

from __future__ import annotations

import argparse

from client.cli import seconds
from client.commands import bots_help, check_writable, player_counts, players_help

#: Bots seated by default, by seat (the first N for N players): levels, which every game has.
DEFAULT_BOTS = ("hard", "medium", "medium", "easy", "medium")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from client.commands.serve import add_game_arguments

    parser.add_argument("--players", type=int, default=4, choices=player_counts(), metavar="N",
                        help=f"players ({players_help()}; default 4)")
    parser.add_argument("--seed", type=int,
                        help="seed for the game (the map, the shuffles) and the bots (default: random)")
    parser.add_argument("--bots", nargs="+", metavar="KIND",
                        help=f"bots by seat: {bots_help()} (repeated to fill the seats; "
                             f"default: {' '.join(DEFAULT_BOTS)})")
    parser.add_argument("--json", action="store_true",
                        help="print only the result as JSON (as waddle replay --json, plus record)")
    parser.add_argument("--record", metavar="PATH",
                        help="where to save the game record (default: waddle-demo-SEED.json "
                             "in the system's temporary directory)")
    parser.add_argument("--seconds", type=seconds, default=0.05,
                        help="time budget per move of the bots that search (the hard level's too), "
                             "seconds (default 0.05)")
    parser.add_argument("--pace", type=seconds, default=0.04,
                        help="pause before each move so you can watch, seconds "
                             "(default 0.04; 0 with --json)")
    add_game_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import json
    import random
    import tempfile
    from pathlib import Path

    import trio

    from client.commands.serve import game_options
    from client.games import part
    from protocol import Settings
    from waddle.files import write_json
    from waddle.ruleset import get_ruleset

    ruleset = get_ruleset(args.game)
    kinds = list(args.bots or DEFAULT_BOTS[:args.players])
    ruleset.check_bots(kinds)
    if len(kinds) > args.players:
        raise ValueError(f"{len(kinds)} bots for {args.players} players: give at most one per seat")
    kinds = [kinds[i % len(kinds)] for i in range(args.players)]
    if args.seconds <= 0 or args.pace < 0:
        raise ValueError("--seconds must be positive and --pace not negative")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    args.seed = seed
    settings = Settings(players=args.players, options=game_options(args))
    ruleset.check_options(settings.options, settings.players)
    path = Path(args.record or Path(tempfile.gettempdir()) / f"waddle-demo-{seed}.json")
    check_writable(path)
    pace = 0.0 if args.json else args.pace
    from client.cli import UserError
    from client.core import ClientError

    try:
        match, names = trio.run(play_demo, ruleset, settings, kinds, seed, args.seconds, pace,
                                not args.json)
    except ClientError as exc:
        raise UserError(str(exc)) from None
    write_json(path, match.record())
    text = part(ruleset.name, "text")
    if args.json:
        print(json.dumps({**text.result_json(match), "record": str(path)}))
    else:
        show_end(match, names, path)
    return 0


async def play_demo(ruleset, settings, kinds: list[str], seed: int, seconds: float, pace: float,
                    verbose: bool):
    """Host a table of ``ruleset``'s game with ``settings`` on 127.0.0.1, play it with one
    bot client per kind (``verbose``: print the address, then every move as a spectator
    sees it).

    Returns ``(match, names)``: the host's finished match and each seat label's name.

    Raises:
        client.core.ClientError: a bot client failed (lost its connection, or its bot
            raised: the message names the seat and the error), or a client's view
            disagrees with the host's game.
    """
    import trio

    from client.botplay import play
    from client.commands.bot import print_moves
    from client.core import ClientError, connect
    from protocol import clean
    from server.games import bot_name
    from server.host import Host, ServerConfig

    host = Host(ServerConfig(address="127.0.0.1", port=0, settings=settings, seed=seed,
                             game=ruleset.name))
    clients = []
    failures: list[str] = []
    stop = trio.CancelScope()

    async def seat(i: int, kind: str, task_status=trio.TASK_STATUS_IGNORED) -> None:
        options = {"seconds": seconds} if ruleset.resolve_bot(kind, {})[0] in ruleset.timed_bots else {}
        bot = ruleset.make_bot(kind, seed * 10 + i, **options)
        seated = False
        try:
            async with connect("127.0.0.1", port, name=bot_name(i, kind),
                               software=f"waddle-demo/{kind}") as client:
                clients.append(client)
                seated = True
                task_status.started()
                await play(client, bot, pace=pace)
        except Exception as exc:  # one line for the user, whatever went wrong in a seat
            why = clean(str(exc) if isinstance(exc, ClientError) else f"{type(exc).__name__}: {exc}")
            failures.append(f"{bot_name(i, kind)} stopped: {why}")
            stop.cancel()
            if not seated:
                task_status.started()

    async def spectator(task_status=trio.TASK_STATUS_IGNORED) -> None:
        async with connect("127.0.0.1", port, name="demo", watch=True,
                           software="waddle-demo/watch") as client:
            await print_moves(client, task_status=task_status)

    with stop:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            if verbose:
                print(f"waddle demo: {len(kinds)} bots on 127.0.0.1:{port}, seed {seed}", flush=True)
            async with trio.open_nursery() as players:
                if verbose:
                    await players.start(spectator)
                for i, kind in enumerate(kinds):
                    await players.start(seat, i, kind)
            nursery.cancel_scope.cancel()
    if failures:
        raise ClientError(failures[0])
    match = host.table.match
    for client in clients:
        state = client.state
        if state.version != host.table.version or state.outcome() != match.outcome():
            raise ClientError(f"{state.label}'s game differs from the host's")
    return match, {s.label: s.name for s in clients[0].state.seats}


def show_end(match, names: dict[str, str], path) -> None:
    """Print the final position and its score breakdown (the game's ``report``), the
    score table and the record's path."""
    from client.games import part

    text = part(match.ruleset.name, "text")
    print()
    print(text.report(match))
    print()
    print("\n".join(text.score_lines(match.outcome(), match.labels, lambda label: names.get(label, label))))
    print(f"\nrecord saved to {path}  (see it again: waddle replay {path})")
