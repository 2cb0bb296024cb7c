"""A Waddle bot with the Python standard library only: socket, json, struct and random.

It shows the wire protocol is language-neutral (docs/protocol.md): a 4-byte big-endian
length prefix, then one JSON object (protocol version 3). It knows no rules of either
game: its ``hello`` asks the host for ``legal``, so every event and snapshot tells it
who may act and, when its seat may, the actions it may send (``legal``); it sends a
random one. So it plays whichever game the host plays (``welcome.game``).

- It sends one action at a time: after an ``act`` it waits for the ``ack`` (or the
  ``rejected``) before sending another, so what it sends was chosen on the latest
  event it read.
- Refused (``stale``, ``paused``, anything), it asks for the table again (``sync``) and
  chooses from the snapshot's ``legal``; while the game is paused (half-time) it says
  ``continue`` and waits for the pause to end.

    python examples/stdlib_bot.py 127.0.0.1:7777 --name Stdlib [--code CODE] [--game downtown]
    python examples/stdlib_bot.py 127.0.0.1:7777 --table ID     # a club's table (waddle tables lists them)
    python examples/stdlib_bot.py 127.0.0.1:7777 --create hex   # opens a table at a club and sits at it

At a club (``welcome.club``) it sends ``join_table`` for ``--table``, or ``create_table``
and then ``join_table`` for the table the ``table_created`` answer names.

Limits: it joins from the lobby (no reclaim after a dropped link) and plays until the
``game_ended`` event, then prints the final scores and leaves.
"""

import argparse
import json
import random
import socket
import struct
import sys

HEADER = struct.Struct(">I")
MAX_FRAME = 1024 * 1024          # the host's frame cap
EVENTS = ("started", "played", "undone", "snapshot")


def send(sock, message):
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    sock.sendall(HEADER.pack(len(body)) + body)


def receive_exactly(sock, size):
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the host closed the connection")
        data += chunk
    return data


def receive(sock):
    (length,) = HEADER.unpack(receive_exactly(sock, HEADER.size))
    if not 0 < length <= MAX_FRAME:
        raise ConnectionError(f"bad frame length {length}")
    return json.loads(receive_exactly(sock, length).decode("utf-8"))


def play(host, port, name, code=None, seed=None, game=None, table=None, create=None):
    """Join (at a club: the ``table`` with that id, or a new table of the game ``create``),
    play to the end; return the seats' labels (in seat order), this bot's label and the
    ``game_ended`` event."""
    rng = random.Random(seed)
    with socket.create_connection((host, port), timeout=60) as sock:
        send(sock, {"type": "hello", "protocol": 3, "client": "stdlib-bot", "game": game, "legal": True})
        welcome = receive(sock)
        if welcome["type"] != "welcome":
            raise ConnectionError(f"refused: {welcome}")
        if welcome.get("club"):
            table = table or open_table(sock, create, code)
            send(sock, {"type": "join_table", "table": table, "name": name, "label": None, "code": code})
        elif table or create:
            raise ConnectionError("--table and --create are for a club; this host has one table")
        else:
            send(sock, {"type": "join", "name": name, "label": None, "code": code})
        token = label = choices = None
        labels, version, ids, paused, waiting = [], 0, 0, False, False
        while True:
            message = receive(sock)
            kind = message["type"]
            if kind == "ping":
                send(sock, {"type": "pong", "nonce": message["nonce"]})
            elif kind == "seated":
                token, label = message["token"], message["label"]
                print(f"seated as {label}", flush=True)
                send(sock, {"type": "ready", "ready": True})
            elif kind == "closing" or (kind == "rejected" and message["request"] != "act"):
                raise ConnectionError(f"{message['code']}: {message['message']}")
            elif kind == "rejected":                     # stale, paused, ...: ask for the table again
                waiting = False
                send(sock, {"type": "sync"})
            elif kind == "ack":
                waiting = False
            if kind in ("lobby", "snapshot"):
                lobby = message.get("lobby", message)
                labels = [seat["label"] for seat in lobby["seats"]]
                paused = lobby.get("pause") is not None  # half-time: say to go on at once
                if any(seat["label"] == label and seat.get("waiting") for seat in lobby["seats"]):
                    send(sock, {"type": "continue"})
            if kind in EVENTS:
                version, choices = message["version"], message.get("legal")
                ended = [e for e in message.get("events", ()) if e["type"] == "game_ended"]
                if ended:
                    send(sock, {"type": "leave"})
                    return labels, label, ended[0]
            if choices and not paused and not waiting:
                ids, waiting = ids + 1, True
                send(sock, {"type": "act", "id": str(ids), "version": version, "token": token,
                            "action": rng.choice(choices)})
                choices = None


def open_table(sock, game, code):
    """At a club's lobby: open a table of ``game`` (the club's default settings for it) with
    join ``code``; its id, from the ``table_created`` answer."""
    if game is None:
        raise ConnectionError("the host is a club: give --table ID (waddle tables HOST:PORT lists "
                              "them) or --create GAME (hex, downtown)")
    send(sock, {"type": "create_table", "game": game, "settings": None, "name": None, "code": code})
    while True:
        message = receive(sock)
        if message["type"] == "table_created":
            print(f"opened table {message['table']}", flush=True)
            return message["table"]
        if message["type"] == "ping":
            send(sock, {"type": "pong", "nonce": message["nonce"]})
        elif message["type"] in ("rejected", "closing"):
            raise ConnectionError(f"{message['code']}: {message['message']}")


def scores(labels, ended):
    """The final score lines of a ``game_ended`` event: each seat's total, then the winners
    (the hex game gives scores and winners by label, Waddle Downtown by seat number)."""
    by_label = ended["scores"]
    if isinstance(by_label, list):
        by_label = dict(zip(labels, by_label))
    totals = {seat: score["total"] if isinstance(score, dict) else score for seat, score in by_label.items()}
    winners = [labels[w] if isinstance(w, int) else w for w in ended["winners"]]
    lines = [f"{seat:<7} {total:>3}" for seat, total in sorted(totals.items(), key=lambda kv: -kv[1])]
    return lines + ["winners: " + " ".join(winners)]


def parse_address(text):
    """``"HOST:PORT"`` (``"[::1]:7777"`` for IPv6) -> ``(host, port)``; a ``ValueError``
    worded as ``waddle join``'s for anything else."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host:
        raise ValueError(f"expected HOST:PORT (e.g. 127.0.0.1:7777), got {text!r}")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"bad port {port!r} in {text!r}: expected a number from 1 to 65535")
    return host.removeprefix("[").removesuffix("]"), int(port)


def main(argv=None):
    parser = argparse.ArgumentParser(description="A Waddle bot using only the standard library.")
    parser.add_argument("address", metavar="HOST:PORT")
    parser.add_argument("--name", default="stdlib bot")
    parser.add_argument("--code", default=None, help="the table's join code")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--game", choices=("hex", "downtown"), default=None,
                        help="play only this game (default: whatever the host plays)")
    at_club = parser.add_mutually_exclusive_group()
    at_club.add_argument("--table", metavar="ID", help="at a club: the table to sit at")
    at_club.add_argument("--create", metavar="GAME", choices=("hex", "downtown"),
                         help="at a club: open a table of GAME and sit at it")
    args = parser.parse_args(argv)
    try:
        labels, _, ended = play(*parse_address(args.address), args.name, args.code, args.seed, args.game,
                                args.table, args.create)
    except (OSError, ValueError) as exc:
        print(f"stdlib_bot: {exc}", file=sys.stderr)
        return 2
    print("\n".join(scores(labels, ended)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
