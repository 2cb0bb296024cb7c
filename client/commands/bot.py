"""``waddle bot HOST:PORT --name N --strategy KIND``: a headless bot client.

Joins the table at HOST:PORT (or reclaims a seat with ``--token``), says it is ready,
plays every turn of its seat with one of the game's built-in bots (the game is the
host's, or ``--game``) and prints its moves and the final scores. A host not answering
yet is tried again for ``--wait`` seconds, and a dropped link is reconnected, each
retry said in one line on stderr. When the host stops (``closing`` ``host_stopped``) it
looks for it again (after 2.5-5 s, then less often, up to every 15-30 s), saying so on stderr, as ``waddle join`` does, and plays
on once the host is resumed; ``--follow SECONDS`` bounds how long (0: it ends at once), and
when it gives up it ends with one line saying so. The seat's token is remembered (:mod:`client.seats`, never
printed): run it again with the same address and ``--name`` and it takes its seat back.
Everything printed that came from the host is cleaned first (:func:`protocol.clean`):
no escape, control or bidi character of a hostile host reaches the terminal.
"""

from __future__ import annotations

import argparse

from client.cli import seconds
from client.commands import add_wait_argument, bots_help


def strategies() -> tuple[str, ...]:
    """The difficulty levels, easiest first, then every bot kind of any game, sorted."""
    from waddle.ruleset import LEVELS, rulesets

    return (*LEVELS, *sorted({kind for ruleset in rulesets().values() for kind in ruleset.bots}))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from waddle.ruleset import BUILT_IN

    parser.add_argument("address", metavar="HOST:PORT", help="the host, e.g. 127.0.0.1:7777")
    parser.add_argument("--name", default="bot", help="the bot's name at the table (default: bot)")
    parser.add_argument("--game", choices=tuple(BUILT_IN),
                        help="play only this game (default: whatever the host plays)")
    parser.add_argument("--strategy", default="greedy", choices=strategies(),
                        help=f"a difficulty level (see docs/arena.md) or one of the game's "
                             f"built-in bots ({bots_help()}; default: greedy)")
    parser.add_argument("--code", help="the table's join code, if it has one (with --create: the "
                                       "new table's)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--table", metavar="ID",
                       help="at a club (waddle serve --club), sit at the table with this id "
                            "(waddle tables HOST:PORT lists them)")
    where.add_argument("--create", metavar="GAME", choices=tuple(BUILT_IN),
                       help="at a club, open a table of GAME with the options "
                            "below, as waddle serve takes them, and sit at it")
    parser.add_argument("--colour", metavar="COLOUR",
                        help="preferred seat colour (default: the first free one)")
    parser.add_argument("--token", help="reclaim the seat with this token (default: the seat "
                                        "remembered for this address and --name, else join)")
    parser.add_argument("--seed", type=int, help="seed for the bot's choices")
    parser.add_argument("--seconds", type=seconds, default=0.5,
                        help="search bot's time budget per move, seconds (default 0.5; a level "
                             "keeps its own)")
    parser.add_argument("--start", action="store_true",
                        help="as the table's owner, start the game at once (the host's bots "
                             "fill the empty seats); if the host refuses, say ready and start "
                             "once every seat is filled")
    add_wait_argument(parser)
    parser.add_argument("--follow", type=seconds, default=None, metavar="SECONDS",
                        help="after the host says it stopped, look for it again (after 2.5-5 s, then up to every 30 s) "
                             "for this long; 0: stop at once (default: until it is resumed)")
    parser.add_argument("--quiet", action="store_true", help="print only the final scores")
    add_create_arguments(parser)


def add_create_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a table ``--create`` opens, as ``waddle serve`` takes them (its seats,
    turns and the game's own options; ``--seed`` seeds the game as well as the bot)."""
    from client.commands import serve

    group = parser.add_argument_group("a table opened with --create GAME (as waddle serve takes "
                                      "them; --seed seeds its game too)")
    group.add_argument("--table-name", metavar="NAME",
                       help="the new table's name in the club's list (default: the game's title "
                            "and a number; unique in the club)")
    serve.add_seat_arguments(group)
    serve.add_turn_arguments(group)
    serve.add_game_arguments(parser, choose=False)


def run(args: argparse.Namespace) -> int:
    import trio

    from client.address import parse_address
    from client.ui.options import check_name

    host, port = parse_address(args.address)
    check_name(args.name)
    settings = created_settings(args) if args.create else None
    return trio.run(_play, host, port, args, settings)


def created_settings(args: argparse.Namespace):
    """The settings of the table ``--create GAME`` opens (:func:`client.commands.serve.settings_from`).

    Raises:
        ValueError: as ``settings_from``; ``--game`` naming another game than ``--create``.
    """
    from client.commands import serve

    if args.game is not None and args.game != args.create:
        raise ValueError(f"--game {args.game} and --create {args.create} name two games")
    args.game = args.create
    return serve.settings_from(args)


async def open_table(host: str, port: int, args: argparse.Namespace, settings) -> str:
    """Open the table ``--create`` asks for at the club at ``host``:``port``; its id.

    Raises:
        client.cli.UserError: the club refused (``too_many_tables``, ``bad_settings``...) or
            cannot be reached, saying why.
    """
    from client.cli import UserError
    from client.club import create_table
    from client.core import ClientError
    from protocol.text import clean

    try:
        created = await create_table(host, port, args.create, settings, name=args.table_name, code=args.code)
    except ClientError as exc:
        raise UserError(str(exc)) from None
    if not args.quiet:
        print(f"opened table {clean(created.table)} ({clean(created.name)}) at {host}:{port}", flush=True)
    return created.table


def make_bot(ruleset, kind: str, seed: int | None, seconds: float):
    """A bot of ``kind`` for ``ruleset``'s game (a search bot with ``seconds`` a move; a
    level, :attr:`waddle.ruleset.Ruleset.levels`, with its own budget).

    Raises:
        ValueError: the game has no such bot.
    """
    return ruleset.make_bot(kind, seed, **({"seconds": seconds} if kind in ruleset.timed_bots else {}))


async def _play(host: str, port: int, args: argparse.Namespace, settings=None) -> int:
    import functools

    import trio

    from client.botplay import play, start_when_full
    from client.cli import UserError
    from client.core import ClientError, connect
    from client.games import part
    from client.seats import SeatStore
    from protocol.text import clean

    client = None  # bound once seated
    table = await open_table(host, port, args, settings) if args.create else args.table
    try:
        async with connect(host, port, name=args.name, label=args.colour, code=args.code,
                           game=args.game, table=table, token=args.token, software=f"waddle-bot/{args.strategy}",
                           seat_store=SeatStore(), first_wait=args.wait,
                           follow_resume=args.follow != 0, resume_wait=args.follow,
                           on_retry=say_retry) as client:
            state = client.state
            bot = make_bot(state.ruleset, args.strategy, args.seed, args.seconds)
            if not args.quiet:
                print(f"seated as {clean(state.label)} ({clean(state.name)}) at {state.ruleset.title}",
                      flush=True)
            if args.start:
                await start_when_full(client, on_refused=print_refusal)
            async with trio.open_nursery() as nursery:
                if not args.quiet:
                    await nursery.start(functools.partial(print_moves, client))
                await play(client, bot, ready=not args.start,
                           on_rejected=lambda exc: print(f"rejected: {clean(str(exc))}"))
                nursery.cancel_scope.cancel()
            text = part(state.ruleset.name, "text")
            print("\n".join(text.score_lines(state.outcome(), state.view.labels, state.name_of)))
    except ClientError as exc:
        stopped = client.state.host_stopped if client is not None else None
        if stopped:
            said = clean(client.state.closed_reason or stopped)
            raise UserError(f"{said}; this bot stops (run it again then: it takes its seat back)") from None
        raise UserError(clean(str(exc))) from None
    return 0


def say_retry(line: str) -> None:
    """Say on stderr what the client does about a host it cannot reach (``on_retry``)."""
    import sys

    from protocol.text import clean

    print(f"waddle bot: {clean(line)}", file=sys.stderr, flush=True)


def print_refusal(rejected) -> None:
    """Print a refused ``start`` as one line (the bot then waits for every seat to be filled)."""
    from protocol.text import clean

    print(f"start refused: {clean(rejected.code)} ({clean(rejected.message)}); ready, "
          f"starting once every seat is filled", flush=True)


async def print_moves(client, *, task_status=None) -> None:
    """Print every ``played`` (and, in a game with take-backs, ``undone``) event of
    ``client`` as a line, as it arrives, until the game is over; for ``nursery.start``
    (started once it follows the events).

    If the output's reader goes away (``waddle demo | head``), standard output is sent
    to the null device from then on and the game plays on.
    """
    import os
    import sys

    from client.games import part
    from protocol import Played, Undone

    text = part(client.state.ruleset.name, "text")
    lines = {Played: text.move_line, Undone: getattr(text, "undo_line", None)}
    events = client.events()
    if task_status is not None:
        task_status.started()
    if client.state.finished:
        return
    async for message in events:
        line = lines.get(type(message))
        if line is not None:
            try:
                print(line(message, client.state.view.labels, client.state.name_of), flush=True)
            except BrokenPipeError:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return
        if client.state.finished:
            return
