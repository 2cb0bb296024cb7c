"""``waddle demo``: a complete game between bots over TCP on this machine.

Starts a host on 127.0.0.1 (any free port), connects one headless bot client per seat
over TCP, prints each move as it happens, then the final board, the score breakdown
and where the game record was saved (``waddle replay PATH`` shows it again). With
``--json`` it prints only the object ``waddle replay --json`` prints for that record,
plus ``"record": PATH``.
"""

from __future__ import annotations

import argparse

from client.cli import seconds
from client.commands import check_writable

#: Bots seated by default, by seat (the first N for N players).
DEFAULT_BOTS = ("search", "greedy", "greedy", "random", "greedy")
#: Names of the demo's bots, by seat.
NAMES = ("Pingu", "Tux", "Skipper", "Gunter", "Mumble")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=4, choices=range(2, 6), metavar="N",
                        help="players, 2 to 5 (default 4)")
    parser.add_argument("--seed", type=int, help="seed for the map and the bots (default: random)")
    parser.add_argument("--bots", nargs="+", metavar="KIND",
                        help="bot kinds by seat: random, greedy, search or uct (repeated to fill "
                             "the seats; default: search greedy greedy random greedy)")
    parser.add_argument("--json", action="store_true",
                        help="print only the result as JSON (as waddle replay --json, plus record)")
    parser.add_argument("--record", metavar="PATH",
                        help="where to save the game record (default: waddle-demo-SEED.json "
                             "in the system's temporary directory)")
    parser.add_argument("--seconds", type=seconds, default=0.05,
                        help="search bot's time budget per move, seconds (default 0.05)")
    parser.add_argument("--pace", type=seconds, default=0.04,
                        help="pause before each move so you can watch, seconds "
                             "(default 0.04; 0 with --json)")


def run(args: argparse.Namespace) -> int:
    import json
    import random
    import tempfile
    from pathlib import Path

    import trio

    from waddle.hex.bots import BOTS
    from waddle.hex.record import save_record, to_record

    kinds = list(args.bots or DEFAULT_BOTS[:args.players])
    for kind in kinds:
        if kind not in BOTS:
            raise ValueError(f"unknown bot {kind!r}: expected one of {', '.join(BOTS)}")
    if len(kinds) > args.players:
        raise ValueError(f"{len(kinds)} bots for {args.players} players: give at most one per seat")
    kinds = [kinds[i % len(kinds)] for i in range(args.players)]
    if args.seconds <= 0 or args.pace < 0:
        raise ValueError("--seconds must be positive and --pace not negative")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    path = Path(args.record or Path(tempfile.gettempdir()) / f"waddle-demo-{seed}.json")
    check_writable(path)
    pace = 0.0 if args.json else args.pace
    from client.cli import UserError
    from client.core import ClientError

    try:
        game, names = trio.run(play_demo, kinds, seed, args.seconds, pace, not args.json)
    except ClientError as exc:
        raise UserError(str(exc)) from None
    save_record(path, to_record(game, seed=seed))
    if args.json:
        from client.commands.replay import result_json

        print(json.dumps({**result_json(game), "record": str(path)}))
    else:
        show_end(game, names, path)
    return 0


async def play_demo(kinds: list[str], seed: int, seconds: float, pace: float, verbose: bool):
    """Host a table on 127.0.0.1, play it with one bot client per kind (``verbose``:
    print the address and every move as it happens).

    Returns ``(game, names)``: the host's finished game and each colour's seat name.

    Raises:
        client.core.ClientError: a bot client failed (lost its connection, or its bot
            raised: the message names the seat and the error), or a client's replica
            disagrees with the host's game.
    """
    import trio

    from client.botplay import play
    from client.commands.bot import print_moves
    from client.core import ClientError, connect
    from protocol import Settings, StandardMap
    from server.host import Host, ServerConfig
    from waddle.hex.bots import SEARCHES, make_bot
    from waddle.hex.record import to_record

    settings = Settings(players=len(kinds), map=StandardMap(seed=seed))
    host = Host(ServerConfig(address="127.0.0.1", port=0, settings=settings, seed=seed))
    clients = []
    failures: list[str] = []
    stop = trio.CancelScope()

    async def seat(i: int, kind: str, task_status=trio.TASK_STATUS_IGNORED) -> None:
        options = {"seconds": seconds} if kind in SEARCHES else {}
        bot = make_bot(kind, seed * 10 + i, **options)
        seated = False
        try:
            async with connect("127.0.0.1", port, name=f"{NAMES[i]} ({kind})",
                               software=f"waddle-demo/{kind}") as client:
                clients.append(client)
                seated = True
                task_status.started()
                await play(client, bot, pace=pace)
        except Exception as exc:  # one line for the user, whatever went wrong in a seat
            why = str(exc) if isinstance(exc, ClientError) else f"{type(exc).__name__}: {exc}"
            failures.append(f"{NAMES[i]} ({kind}) stopped: {why}")
            stop.cancel()
            if not seated:
                task_status.started()

    with stop:
        async with trio.open_nursery() as nursery:
            port = await nursery.start(host.run)
            if verbose:
                print(f"waddle demo: {len(kinds)} bots on 127.0.0.1:{port}, seed {seed}", flush=True)
            async with trio.open_nursery() as players:
                await players.start(seat, 0, kinds[0])
                if verbose and clients:
                    players.start_soon(print_moves, clients[0])
                for i, kind in enumerate(kinds[1:], 1):
                    await players.start(seat, i, kind)
            nursery.cancel_scope.cancel()
    if failures:
        raise ClientError(failures[0])
    game = host.table.match.position()
    for client in clients:
        if to_record(client.state.game) != to_record(game):
            raise ClientError(f"{client.state.colour}'s game differs from the host's")
    return game, {s.colour: s.name for s in clients[0].state.seats}


def show_end(game, names: dict[str, str], path) -> None:
    """Print the final board, the score breakdown and the record's path."""
    from client.report import score_lines
    from waddle.hex.render import render_game

    print()
    print(render_game(game))
    print()
    print("\n".join(score_lines(game, lambda colour: names.get(colour, colour))))
    print(f"\nrecord saved to {path}  (see it again: waddle replay {path})")
