"""``waddle host``: host a game on this machine and play it in the terminal UI.

The host (the same one ``waddle serve`` runs, with the same options) runs in this
process; you take the first seat and own the table. Before the UI opens it prints what
the other players type to join (address and join code); the lobby shows it too.
Quitting the UI stops the host. Without ``--code`` a random join code is made
(``--open``: none). The game is saved as ``waddle serve`` saves it (``--save``, default
a new ``waddle-DATE-TIME.waddle.json`` in the data folder,
:func:`client.commands.default_save`, printed at start); quitting mid-game prints the save file and
the ``waddle host --resume FILE`` that continues it.
"""

from __future__ import annotations

import argparse
import os

from client.commands import check_writable, default_save, run_ui, serve
from client.ui import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    serve.add_arguments(parser, code_help="join code players must give (default: a random one)")
    parser.add_argument("--open", action="store_true", help="no join code: anyone may join")
    parser.add_argument("--log", metavar="FILE",
                        help="write the host's log (at --log-level) to FILE; the screen is the UI's")
    parser.add_argument("--name", default=os.environ.get("USER") or "host",
                        help=options.name_help())
    parser.add_argument("--colour", metavar="COLOUR",
                        help="your seat colour (default: the first free one)")
    options.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from client.address import check_port
    from client.ui.session import RemoteSession
    from server.guard import new_code
    from server.host import Host, ServerConfig
    from server.tuning import collect_young, tuned_gc

    if args.port is not None:
        check_port(args.port, any_free=True)
    if serve.club_from(args):
        return host_club(args)
    code = None if args.open else args.code or new_code()
    save = args.save or (None if args.resume else default_save("waddle-%Y%m%d-%H%M%S.waddle.json"))
    server = Host(ServerConfig(address=serve.address_from(args), port=args.port,
                               default_port=serve.DEFAULT_PORT,
                               settings=serve.settings_from(args),
                               code=code, save=save, resume=args.resume, grace=args.grace,
                               lobby_grace=args.lobby_grace, seed=args.seed, game=args.game,
                               limits=serve.limits_from(args), command="waddle host",
                               bot_delay=serve.pace_from(args), tasks=(collect_young,),
                               history=serve.history_from(args, "host"),
                               lan=serve.lan_name(args, options.check_name(args.name)),
                               ssh=serve.ssh_from(args)))
    if args.resume:
        code = _resumed_code(server.table, args)
    if server.table.save_path is not None:
        check_writable(server.table.save_path)
    client_options = {"name": options.check_name(args.name), "label": args.colour, "code": code}
    if args.resume:
        client_options["token"] = _my_token(server.table, args.name)
    address, port = server.address, server.wanted_port
    local = "127.0.0.1" if address in ("0.0.0.0", "") else address
    join = serve.join_command(address, "{port}", code)
    if port:
        print(f"Hosting on {address}:{port}. Others join with:  {join.format(port=port)}{_ssh_too(address, args.ssh)}")
    if args.lan:
        print(f"Hosting {serve.LAN_NOTE}")
    if server.table.save_path is not None:  # before the full-screen UI: still there after it
        print(f"Saving to:  {server.table.save_path}", flush=True)
    if args.ssh is not None:
        join += "  or  {ssh}"
    if code is None:
        join += f"\n({serve.OPEN_NOTE})"
    session = RemoteSession(local, port, client_options=client_options, server=server,
                            record_path=str(server.table.save_path or ""), address=join)
    with tuned_gc():  # this process hosts: see server.tuning
        return run_ui_then_say_saved(session, args, server)


def _ssh_too(address: str, ssh_port: int | None) -> str:
    """The ssh command to add to the first line, when the gateway's port is known before it
    listens (``--ssh PORT``, not 0: the lobby shows that one), e.g.
    ``"  or  ssh -p 2222 NAME@192.168.1.20"`` (with the LAN address when listening on one)."""
    if not ssh_port:
        return ""
    from server.ssh.address import shown_address, ssh_command

    return f"  or  {ssh_command(shown_address(address), ssh_port)}"


def host_club(args: argparse.Namespace) -> int:
    """``waddle host --club``: the club's host (as ``waddle serve --club`` makes it) in a
    thread of this process with its own trio run, and you at its lobby
    (:func:`client.commands.join.club_evening`, showing how others join) until you leave
    it, which stops the host
    (its ``q`` asks first: it stops the club for everybody).

    Raises:
        OSError: the host cannot listen (saying where), or the UI cannot run.
    """
    import threading

    import trio

    from client.commands.join import club_evening
    from client.seats import SeatStore
    from server.host import Host, ServerConfig

    save = args.save or (None if args.resume else default_save("waddle-club-%Y%m%d-%H%M%S"))
    server = Host(ServerConfig(address=serve.address_from(args), port=args.port, default_port=serve.DEFAULT_PORT,
                               settings=serve.settings_from(args), save=save, resume=args.resume,
                               grace=args.grace, lobby_grace=args.lobby_grace, seed=args.seed, game=args.game,
                               limits=serve.limits_from(args), command="waddle host",
                               bot_delay=serve.pace_from(args), history=serve.history_from(args, "host"),
                               lan=serve.lan_name(args, options.check_name(args.name)),
                               ssh=serve.ssh_from(args), club=True, workers=True))
    running: dict = {}
    listening = threading.Event()

    async def host() -> None:
        with trio.CancelScope() as scope:
            running["stop"], running["token"] = scope.cancel, trio.lowlevel.current_trio_token()
            async with trio.open_nursery() as nursery:
                try:
                    running["port"] = await nursery.start(server.run)
                except OSError as exc:  # told before the waiting thread reads it
                    running["error"] = exc
                    raise
                finally:
                    listening.set()

    def serve_club() -> None:
        try:
            trio.run(host)
        except BaseException as exc:  # noqa: BLE001 - said by the thread that waits for it
            running.setdefault("error", exc)
            listening.set()

    thread = threading.Thread(target=serve_club, name="waddle-club-host", daemon=True)
    thread.start()
    listening.wait()
    if "port" not in running:
        error = running.get("error")
        raise OSError(f"cannot host on {server.address}:{server.wanted_port}: "
                      f"{getattr(error, 'strerror', None) or error}")
    port = running["port"]
    hosting = (f"Others join with:  {serve.join_command(server.address, port, None)}"
               f"{f'  or  {server.ssh.command}' if server.ssh else ''}",)
    if server.ssh is not None:
        hosting += (f"SSH host key fingerprint:  {server.ssh.fingerprint}",)
    if server.club.directory is not None:  # where to --resume from after a crash (issue 38)
        hosting += (f"Saving to:  {server.club.directory}",)
    print(f"Hosting a club on {server.address}:{port}. " + "\n".join(hosting), flush=True)
    if args.lan:
        print(f"Hosting {serve.CLUB_LAN_NOTE}", flush=True)
    local = "127.0.0.1" if server.address in ("0.0.0.0", "") else server.address
    args.address, args.wait, args.table = f"{local}:{port}", 10.0, None
    try:
        return club_evening(local, port, args, {"label": args.colour, "seat_store": SeatStore()},
                            hosting=hosting)
    finally:
        trio.from_thread.run_sync(running["stop"], trio_token=running["token"])
        thread.join(30)
        message = serve.club_saved_message(server.club, "host", serve.ways_in(server))
        if message:
            print(message, flush=True)


def run_ui_then_say_saved(session, args, host) -> int:
    """Run the UI; then, unless it showed the finished game's record already, print where
    ``host``'s game is saved and how to continue it, every way in included
    (:func:`client.commands.serve.saved_message`, shared with ``waddle play``)."""
    status = run_ui(session, args)
    message = None if session.record_path else serve.saved_message(host.table, "host", serve.ways_in(host))
    if message:
        print(message, flush=True)
    return status


def _resumed_code(table, args: argparse.Namespace) -> str | None:
    """A resumed table's join code: the saved one (maybe none) unless ``--code`` or
    ``--open`` says otherwise; the table takes it (and saves it from then on)."""
    if args.open or args.code:
        table.code = None if args.open else args.code
    return table.code


def _my_token(table, name: str) -> str:
    """The seat token of the resumed game's seat named ``name`` (else the first human seat).

    Raises:
        ValueError: the saved game has no human seat.
    """
    humans = [seat for seat in table.seats if seat.bot is None]
    if not humans:
        raise ValueError("the saved game has no human seat to play")
    return next((seat for seat in humans if seat.name == name), humans[0]).token
