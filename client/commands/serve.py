"""``waddle serve``: a dedicated host without a UI.

Listens on ``--address`` (default 127.0.0.1: this machine only; ``--address 0.0.0.0``
opens it to the LAN, your choice) and ``--port``, prints the join address and code, and
logs the table's life through :mod:`logging` on stderr. The game is saved after every
action (``--save``, default a new ``waddle-YYYYmmdd-HHMMSS.waddle.json`` here), and
``--resume FILE`` continues a saved game: players reclaim their seats with their tokens.
Stop it with Ctrl-C.
"""

from __future__ import annotations

import argparse

from client.address import check_port
from client.cli import seconds
from client.commands import bots_help, check_writable, default_save, player_counts, players_help

DEFAULT_PORT = 7777
#: Seconds the host's bots wait before each move (``--pace``).
DEFAULT_PACE = 1.0


def add_arguments(parser: argparse.ArgumentParser,
                  code_help: str = "join code players must give (default: none)") -> None:
    """The host's options (shared with ``waddle host``, which gives its own ``--code`` help)."""
    parser.add_argument("--address",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN; "
                             "with --resume: the saved game's)")
    parser.add_argument("--lan", action="store_true",
                        help="listen on the LAN (address 0.0.0.0 unless --address says) and "
                             "advertise the table there by mDNS, so that 'waddle join' with no "
                             "address finds it (docs/lan.md)")
    parser.add_argument("--port", type=int,
                        help=f"TCP port (default {DEFAULT_PORT}; 0: any free port; with "
                             "--resume: the saved game's, where its players wait)")
    add_seat_arguments(parser)
    add_table_arguments(parser)
    parser.add_argument("--code", help=code_help)
    parser.add_argument("--grace", type=seconds, metavar="SECONDS",
                        help="seconds an absent player's turn waits before a bot plays it "
                             "(default 30; with --resume: the saved game's)")
    parser.add_argument("--lobby-grace", type=seconds, metavar="SECONDS",
                        help="seconds a seat whose connection dropped in the lobby is held "
                             "for its player before it is freed (default 30; with --resume: "
                             "the saved game's)")
    parser.add_argument("--max-per-address", type=int, default=16, metavar="N",
                        help="most connections from one address (default 16; a player "
                             "reclaiming a seat always gets in)")
    parser.add_argument("--club", action="store_true",
                        help="host a club: any number of tables of either game on this one port, "
                             "opened by the players (--save and --resume then name the club's "
                             "folder; the game's options are a new table's defaults; docs/club.md)")
    parser.add_argument("--resume", metavar="FILE",
                        help="continue the game saved in FILE (a folder: the club saved there)")
    parser.add_argument("--save", metavar="FILE",
                        help="save the game here after every action (default: a new "
                             "waddle-DATE-TIME.waddle.json in ~/.local/share/waddle/saves, or the "
                             "--resume file; a club: a new folder waddle-club-DATE-TIME there)")
    add_history_arguments(parser)
    parser.add_argument("--log-level", default="info",
                        choices=("debug", "info", "warning", "error"), help="default info")
    add_ssh_argument(parser)


def add_ssh_argument(parser: argparse.ArgumentParser) -> None:
    """``--ssh PORT``: serve the terminal UI over SSH too (``serve``, ``host``, ``play``)."""
    parser.add_argument("--ssh", type=int, metavar="PORT",
                        help="also let guests play with plain ssh on this TCP port (0: any "
                             "free port): ssh -p PORT NAME@HOST; see docs/ssh.md")


def ssh_from(args: argparse.Namespace):
    """The host's :class:`server.ssh.SshConfig` from ``--ssh`` (``None`` without it); the
    host key is made or checked now, before anything starts.

    Raises:
        ValueError: a bad port, or an unusable host key file (naming it).
        OSError: the host key cannot be made or read.
    """
    if args.ssh is None:
        return None
    import sys

    from server.ssh import SshConfig
    from server.ssh.keys import host_key

    check_port(args.ssh, any_free=True)
    host_key()
    return SshConfig(port=args.ssh, guest_command=(sys.executable, "-m", "client.sshguest"))


def ssh_lines(host) -> list[str]:
    """What a host with an SSH gateway prints first: the ssh command (to a club: its
    lobby), the host key's fingerprint, and that anyone may come in when the table has no
    code (a club's lobby is open to all: each table asks its own code)."""
    lines = []
    if host.ssh is not None:
        where = "; the club's lobby" if host.club is not None else ""
        lines += [f"ssh guests:  {host.ssh.command}  (NAME: the name to play under{where})",
                  f"SSH host key fingerprint:  {host.ssh.fingerprint}"]
        if host.table is not None and host.table.code is None:
            lines.append(OPEN_NOTE)
    return lines


def add_history_arguments(parser: argparse.ArgumentParser) -> None:
    """``--history FILE`` and ``--no-history``: where the host writes every finished game
    (``docs/history.md``; shared by ``serve``, ``host`` and ``play``)."""
    from waddle.history import default_path

    group = parser.add_mutually_exclusive_group()
    group.add_argument("--history", metavar="FILE",
                       help=f"write every finished game to this history database (default {default_path()})")
    group.add_argument("--no-history", action="store_true", help="keep no history of the games")


def history_from(args: argparse.Namespace, command: str):
    """The history file the host writes to, checked up front: ``--history``, else the
    default (:func:`waddle.history.default_path`); ``None`` with ``--no-history``, or
    when the file cannot be used (a line on stderr names it and says why: the games are
    played and saved all the same)."""
    import sys

    from protocol.text import clean
    from waddle.history import HistoryError, connect, default_path

    if args.no_history:
        return None
    path = args.history or default_path()
    try:
        connect(path, write=True).close()
    except HistoryError as exc:
        print(f"waddle {command}: history {clean(str(exc))}; the games are not written to it "
              "(their save files keep them)", file=sys.stderr, flush=True)
        return None
    return path


def add_seat_arguments(parser) -> None:
    """``--players N`` and ``--bots KIND...``: a table's seats (``serve``, ``host``, and
    ``bot --create``)."""
    parser.add_argument("--players", type=int, default=4, choices=player_counts(), metavar="N",
                        help=f"seats at the table ({players_help()}; default 4)")
    parser.add_argument("--bots", nargs="+", metavar="KIND", default=[],
                        help="bots that fill empty seats when the owner starts, in seat order; "
                             f"the last repeats: {bots_help()}")


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the game at the table, the same on ``serve``, ``host`` and ``play``:
    the game and its own options (:func:`add_game_arguments`), ``--seed``, the turn's
    (:func:`add_turn_arguments`) and ``--pace``."""
    add_game_arguments(parser)
    parser.add_argument("--seed", type=int,
                        help="seed of the game (the standard map, the shuffles), the opening "
                             "order and the host's bots (default: random)")
    add_turn_arguments(parser)
    parser.add_argument("--pace", type=seconds, metavar="SECONDS",
                        help="pause before each move of the host's bots, so people can follow "
                             f"and take back (default {DEFAULT_PACE:g}; with --resume: the saved "
                             "game's)")


def add_turn_arguments(parser) -> None:
    """``--turn-timer``, ``--seat-order`` and ``--hints`` (``serve``, ``host``, ``play`` and
    ``bot --create``)."""
    parser.add_argument("--turn-timer", type=seconds, metavar="SECONDS",
                        help="seconds per turn before a bot plays it (default: no timer)")
    parser.add_argument("--seat-order", choices=("random", "seated"), default="random",
                        help="opening turn order: shuffled at the start, seeded by --seed "
                             "(default), or as seated (the order of joining, then the bots)")
    parser.add_argument("--hints", choices=("auto", "on", "off"), default="auto",
                        help="whether players may ask the search bot for a hint (e): auto "
                             "allows them only at a table with bots (default), on, off")


def add_game_arguments(parser: argparse.ArgumentParser, choose: bool = True) -> None:
    """``--game`` (unless not ``choose``: ``bot --create GAME`` names it) and every game's
    own options (:mod:`client.games`), each game's in a group of its own;
    :func:`game_options` refuses another game's."""
    from client.games import part
    from waddle.ruleset import BUILT_IN, DEFAULT_RULESET

    if choose:
        parser.add_argument("--game", choices=tuple(BUILT_IN), default=DEFAULT_RULESET,
                            help=f"which game (default {DEFAULT_RULESET})")
    for game in BUILT_IN:
        part(game, "cli").add_arguments(parser)


def game_options(args: argparse.Namespace):
    """The options of ``args.game`` from its :mod:`client.games` ``cli`` module.

    Raises:
        ValueError: an option of another game was given (naming it and its game).
    """
    from client.games import part
    from waddle.ruleset import BUILT_IN, get_ruleset

    for game in BUILT_IN:
        flags = part(game, "cli").given(args) if game != args.game else []
        if flags:
            raise ValueError(f"{flags[0]} is an option of {get_ruleset(game).title} (--game {game}), "
                             f"not of {get_ruleset(args.game).title}")
    return part(args.game, "cli").options_from(args)


def settings_from(args: argparse.Namespace):
    """The table's :class:`protocol.Settings` from the command line (the game's options:
    :func:`game_options`).

    Raises:
        ValueError: a bad timer, bot kind, number of players or game option, or an
            option of another game (naming it).
    """
    from protocol.messages import Settings
    from waddle.ruleset import get_ruleset

    if args.turn_timer is not None and not 0 < args.turn_timer <= 86400:
        raise ValueError("--turn-timer must be between 0 and 86400 seconds")
    if getattr(args, "max_per_address", 1) < 1:
        raise ValueError("--max-per-address must be 1 or more")
    ruleset = get_ruleset(args.game)
    options = game_options(args)
    settings = Settings(players=args.players, turn_timer=args.turn_timer, bots=list(args.bots),
                        seat_order=args.seat_order, hints=args.hints, options=options)
    ruleset.check_bots(settings.bots)
    ruleset.check_options(options, settings.players)
    return settings


def pace_from(args: argparse.Namespace) -> float | None:
    """The host's bots' pace in seconds: ``--pace``, else the saved game's with
    ``--resume`` (``None``), else :data:`DEFAULT_PACE`."""
    if args.pace is not None:
        return args.pace
    return None if getattr(args, "resume", None) else DEFAULT_PACE


def address_from(args: argparse.Namespace) -> str | None:
    """Where the host listens: ``--address``, else every interface with ``--lan``, else
    ``None`` (the resumed game's address, or 127.0.0.1: :class:`server.host.ServerConfig`)."""
    if args.address is not None:
        return args.address
    return "0.0.0.0" if args.lan else None


def lan_name(args: argparse.Namespace, player: str | None = None) -> str | None:
    """The name the table is advertised under with ``--lan`` (else ``None``): this
    machine's name, after the ``player`` who hosts it if one does (``"ann on box"``)."""
    if not args.lan:
        return None
    import socket

    machine = socket.gethostname()
    return f"{player} on {machine}" if player else machine


LAN_NOTE = "on the LAN too (mDNS): 'waddle join' with no address lists this table"
#: What a club advertised on the LAN says at start (``serve --club --lan``, ``host --club --lan``).
CLUB_LAN_NOTE = "on the LAN too (mDNS): 'waddle join' with no address lists this club"
#: What a host without a join code says at start (``serve``; the lobby of ``host --open``
#: and of ``play --ssh``).
OPEN_NOTE = "no join code: anyone who reaches this address may join"


def limits_from(args: argparse.Namespace):
    """The host's connection limits from the command line (``--max-per-address``)."""
    from server.connection import Limits

    return Limits(max_per_address=args.max_per_address)


def run(args: argparse.Namespace) -> int:
    import logging

    import trio

    from server.host import Host, ServerConfig
    from server.tuning import collect_young, tuned_gc

    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(message)s", datefmt="%H:%M:%S")
    if args.port is not None:
        check_port(args.port, any_free=True)
    club = club_from(args)
    save = args.save
    if save is None and args.resume is None:
        save = default_save("waddle-club-%Y%m%d-%H%M%S" if club else "waddle-%Y%m%d-%H%M%S.waddle.json")
    host = Host(ServerConfig(address=address_from(args), port=args.port, default_port=DEFAULT_PORT,
                             settings=settings_from(args),
                             code=args.code, save=save, resume=args.resume, grace=args.grace,
                             lobby_grace=args.lobby_grace, seed=args.seed, game=args.game,
                             limits=limits_from(args), command="waddle serve",
                             bot_delay=pace_from(args), tasks=(collect_young,),
                             history=history_from(args, "serve"),
                             lan=lan_name(args),
                             ssh=ssh_from(args), club=club, workers=club))
    if not club:
        if args.resume and args.code:
            host.table.code = args.code  # else the saved code (maybe none) stays
        if host.table.save_path is not None:
            check_writable(host.table.save_path)
    try:
        with tuned_gc():  # this process hosts: see server.tuning
            trio.run(_serve, host)
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is None:
            raise
    except KeyboardInterrupt:
        pass
    ways = ways_in(host)
    message = club_saved_message(host.club, "serve", ways) if club else saved_message(host.table, "serve", ways)
    if message:
        print(f"host stopped; {message}", flush=True)
    return 0


def club_from(args: argparse.Namespace) -> bool:
    """Whether the command hosts a club: ``--club``, or ``--resume`` of a folder (a club's).

    Raises:
        ValueError: an option a club does not take (``--code``: each table has its own).
    """
    import os

    club = args.club or bool(args.resume and os.path.isdir(args.resume))
    if club and args.code:
        raise ValueError("a club's tables have their own join codes, given when a table is opened "
                         "(waddle bot --create GAME --code CODE, or in the club's lobby): --code is "
                         "for a host of one table")
    return club


def ways_in(host) -> str:
    """The options that bring a resumed host back everywhere its players came in, as
    typed after ``--resume PATH``: ``" --lan"`` when it was advertised on the LAN and
    ``" --ssh PORT"`` (the port its gateway listened on) with an SSH gateway; ``""`` for
    neither. The address and the table's port come back from the save by themselves
    (issue 38: a club resumed as printed came back without its SSH listener)."""
    options = " --lan" if host.config.lan is not None else ""
    if host.ssh is not None and host.ssh.port:
        options += f" --ssh {host.ssh.port}"
    return options


def club_saved_message(club, command: str, ways: str = "") -> str | None:
    """What to tell the user once a club's host stopped: where its tables are saved and how
    they go on (``waddle serve --resume FOLDER`` and the host's :func:`ways_in`,
    ``ways``); ``None`` when nothing is saved."""
    from protocol.text import counted

    if club.directory is None:
        return None
    playing = sum(1 for table in club.tables.values() if table.phase == "playing")
    if not playing:
        return f"the club's games are saved in {club.directory}"
    return (f"the club's {counted(playing, 'game')} in play {'is' if playing == 1 else 'are'} saved in "
            f"{club.directory}; continue with: waddle {command} --resume {club.directory}{ways}")


def saved_message(table, command: str, ways: str = "") -> str | None:
    """What to tell the user once a host stopped: where the game is saved and how to go on,
    e.g. ``"game saved to g.json; continue with: waddle serve --resume g.json --ssh 2222"``
    (with ``command`` ``"serve"`` and the host's :func:`ways_in`, ``ways``), or how to see
    a finished game again; ``None`` when the game did not start or is not saved (shared by
    ``serve``, ``host`` and ``play``)."""
    path = table.save_path
    if table.match is None or path is None:
        return None
    if table.phase == "finished":
        return f"game saved to {path}; see it again: waddle replay {path}"
    return f"game saved to {path}; continue with: waddle {command} --resume {path}{ways}"


async def _serve(host) -> None:
    import trio

    error = None
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_stop_on_signal, nursery.cancel_scope)
        try:
            port = await nursery.start(host.run)
        except OSError as exc:
            hint = "" if host.port is not None else _choose_port(host)  # (the SSH port, when it failed)
            error = OSError(f"cannot listen on {host.address}:{host.wanted_port}: {exc.strerror or exc}{hint}")
            nursery.cancel_scope.cancel()
        else:
            _announce(host, port)
    if error is not None:
        raise error


async def _stop_on_signal(scope) -> None:
    """Cancel ``scope`` (the host) at the first Ctrl-C (SIGINT) or SIGTERM. The signal is
    received as a message: raised as ``KeyboardInterrupt`` wherever it lands, it was lost
    when it landed in a finalizer (Python ignores an exception raised there), and the host
    went on after a Ctrl-C."""
    import signal

    import trio

    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for _ in signals:
            scope.cancel()
            return


def _announce(host, port: int) -> None:
    if host.club is not None:
        return _announce_club(host, port)
    table = host.table
    for line in ssh_lines(host):
        print(line, flush=True)
    print(f"{table.ruleset.title} host on {host.address}:{port} ({table.phase}, "
          f"{table.settings.players} seats)", flush=True)
    print(f"join with:  {join_command(host.address, port, table.code)}", flush=True)
    if host.config.lan is not None:
        print(LAN_NOTE, flush=True)
    if table.save_path:
        print(f"saving to:  {table.save_path}", flush=True)
    print("Ctrl-C stops the host; --resume FILE continues the game.", flush=True)


def _announce_club(host, port: int) -> None:
    """What ``serve --club`` prints once it listens: where, how to list, join and open tables."""
    from waddle.ruleset import DEFAULT_RULESET

    club = host.club
    join = join_command(host.address, port, None)
    where = join.removeprefix("waddle join ")
    for line in ssh_lines(host):
        print(line, flush=True)
    print(f"Waddle club on {host.address}:{port} ({len(club.tables)} tables)", flush=True)
    print(f"join with:  {join}  (the club's lobby: its tables, open one, join or watch)", flush=True)
    print(f"tables:     waddle tables {where}  (then: waddle join {where} --table ID)", flush=True)
    print(f"a bot:      waddle bot {where} --create {DEFAULT_RULESET}  (opens a table and sits at it)", flush=True)
    if host.config.lan is not None:
        print(CLUB_LAN_NOTE, flush=True)
    if club.directory is not None:
        print(f"saving to:  {club.directory}", flush=True)
    print("Ctrl-C stops the host; --resume FOLDER continues the tables in play.", flush=True)


def _choose_port(host) -> str:
    """What to add to a failure to listen on a resumed game's own port: how to choose another."""
    listening = host.club.listening if host.club is not None else host.table.listening
    if host.config.port is None and listening is not None:
        return " (the saved game's port: choose another with --port)"
    return ""


def join_command(address: str, port: int | str, code: str | None) -> str:
    """What players type to join a host listening on ``address``:``port`` with ``code``,
    e.g. ``"waddle join 127.0.0.1:7777 --code k7mq3x9d"``.

    The address shown is the listening one, or this machine's name when the host listens
    on every interface; an IPv6 address is bracketed. ``port`` may be a placeholder such
    as ``"{port}"`` for a port not known yet.
    """
    if address in ("0.0.0.0", "::", ""):
        import socket

        shown = socket.gethostname()
    else:
        shown = f"[{address}]" if ":" in address else address
    return f"waddle join {shown}:{port}" + (f" --code {code}" if code else "")
