"""A Waddle bot with the Python standard library only: socket, json and struct.

It shows the wire protocol is language-neutral (docs/protocol.md): 4-byte big-endian
length prefix, then one JSON object (protocol version 2). It follows the game from the
events alone: the map comes from the ``started`` view, the active hex and turn tracks from
``round_ended``, each ``placed``/``scouted`` moves its player along the tracks. On its
turn it places a single penguin on an empty ice hex next to the active hex, preferring
hexes that touch its own penguins (bigger waddles). It never scouts and never uses a
double, so it needs no other rule. When a player takes back a move (``undone``) it puts
back what that move changed; at half-time it says ``continue`` at once.

    python examples/stdlib_bot.py 127.0.0.1:7777 --name Stdlib [--code CODE]

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
NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


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


def around(hex):
    q, r = hex
    return [(q + dq, r + dr) for dq, dr in NEIGHBOURS]


class Table:
    """The little the bot needs to know: the board, the active hex, the turn tracks."""

    def __init__(self, view):
        hexes = view["map"]["hexes"]
        self.ice = {(h["q"], h["r"]) for h in hexes if h["terrain"] == "ice"}
        numbered = sorted((h["number"], (h["q"], h["r"])) for h in hexes
                          if h["terrain"] == "water" and h.get("number") is not None)
        self.owner = {}                                    # hex -> colour
        self.active = next(w for _, w in numbered if any(n in self.ice for n in around(w)))
        self.tracks = [list(view["players"]), []]
        self.active_track = 0

    def to_act(self):
        return self.tracks[self.active_track][0]

    def follow(self, event):
        kind = event["type"]
        track = self.tracks[self.active_track]
        if kind == "placed":
            self.owner[tuple(event["hex"])] = event["player"]
            track.append(track.pop(0))
        elif kind == "scouted":
            self.tracks[1 - self.active_track].append(track.pop(0))
        elif kind == "half_ended":
            self.owner.clear()
        elif kind == "round_ended":
            self.active = tuple(event["active_hex"]) if event["active_hex"] else None
            self.tracks = [list(t) for t in event["tracks"]]
            self.active_track = event["active_track"]

    def copy(self):
        """What :meth:`follow` changes, to put back after a take-back (``undone``)."""
        return dict(self.owner), [list(t) for t in self.tracks], self.active, self.active_track

    def restore(self, saved):
        owner, tracks, self.active, self.active_track = saved
        self.owner, self.tracks = dict(owner), [list(t) for t in tracks]

    def choose(self, colour, rng):
        empty = [h for h in around(self.active) if h in self.ice and h not in self.owner]
        friendly = [h for h in empty if any(self.owner.get(n) == colour for n in around(h))]
        return {"type": "place", "hex": list(rng.choice(friendly or empty)), "double": False}


def play(host, port, name, code=None, seed=None):
    """Join, play to the end; return the ``game_ended`` event."""
    rng = random.Random(seed)
    with socket.create_connection((host, port), timeout=60) as sock:
        send(sock, {"type": "hello", "protocol": 2, "client": "stdlib-bot", "game": "hex"})
        welcome = receive(sock)
        if welcome["type"] != "welcome":
            raise ConnectionError(f"refused: {welcome}")
        send(sock, {"type": "join", "name": name, "label": None, "code": code})
        token = colour = table = None
        version, acted_on, ids, paused, before = 0, None, 0, False, []
        while True:
            message = receive(sock)
            kind = message["type"]
            if kind == "ping":
                send(sock, {"type": "pong", "nonce": message["nonce"]})
            elif kind == "seated":
                token, colour = message["token"], message["label"]
                print(f"seated as {colour}", flush=True)
                send(sock, {"type": "ready", "ready": True})
            elif kind in ("closing",) or (kind == "rejected" and message["request"] != "act"):
                raise ConnectionError(f"{message['code']}: {message['message']}")
            elif kind == "rejected":
                acted_on = None                          # decide again
            elif kind == "started":
                table, version, before = Table(message["view"]), message["version"], []
            elif kind == "lobby":                        # half-time: say to go on at once
                paused = message.get("pause") is not None
                if any(s["label"] == colour and s.get("waiting") for s in message["seats"]):
                    send(sock, {"type": "continue"})
            elif kind == "undone":                       # a player took back their last action
                version = message["version"]
                table.restore(before.pop())
            elif kind == "played":
                version = message["version"]
                before.append(table.copy())
                for event in message["events"]:
                    table.follow(event)
                    if event["type"] == "game_ended":
                        send(sock, {"type": "leave"})
                        return event
            if table and table.active and not paused and table.to_act() == colour and acted_on != version:
                ids += 1
                acted_on = version
                send(sock, {"type": "act", "id": str(ids), "version": version, "token": token,
                            "action": table.choose(colour, rng)})


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
    args = parser.parse_args(argv)
    try:
        ended = play(*parse_address(args.address), args.name, args.code, args.seed)
    except (OSError, ValueError) as exc:
        print(f"stdlib_bot: {exc}", file=sys.stderr)
        return 2
    for player, score in sorted(ended["scores"].items(), key=lambda kv: -kv[1]["total"]):
        print(f"{player:<7} {score['waddles']:>3} + {score['pools']:>3} = {score['total']:>3}")
    print("winners:", " ".join(ended["winners"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
