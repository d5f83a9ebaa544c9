"""evoplay serve with expensive agents everywhere: is another client still answered within a second?

    python3 benchmarks/serve_expensive.py [--games 45] [--seconds 30] [--json out.json]

Starts ``evoplay serve`` (its defaults: an agent has 2 s a move) on a free port of 127.0.0.1, opens GAMES Kalah games
against ``alphabeta(depth=30)`` (a search of hours without the move time) from as many client threads, and has each
play moves for SECONDS: every reply is a 2 s search, and a move the agents have no room for is answered 503 at
once (the client waits half a second and sends it again). Meanwhile one more client, the observer, asks every
0.2 s for the runs list, for its own game's view, and plays a move in its own game against ``random`` (15,15,5: a game
long enough, begun before the others, so its agent is known to be quick). Reports the observer's latency per request kind (p50,
p99, max) with the statuses it got, what the expensive clients got, and the load average.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import threading
import time

from serve_load import Client, percentile, start_server

OBSERVER_GAME = "mnk(m=15,n=15,k=5)"  # long enough for the observer to move every 0.2 s throughout


def expensive(port: int, seed: int, until: float, out: dict, lock: threading.Lock) -> None:
    client = Client(port)
    status, view = client.call("POST", "/api/games", {"game": "kalah", "opponent": "alphabeta(depth=30)",
                                                      "seat": "first", "seed": seed})
    counts: dict = {}
    rng = random.Random(seed)
    while status == 200 and not view["terminal"] and time.monotonic() < until:
        move = {"text": rng.choice(view["legal"])["text"], "ply": view["ply"]}
        status, reply = client.call("POST", f"/api/games/{view['id']}/move", move)
        counts[status] = counts.get(status, 0) + 1
        if status == 200:
            view = reply
        elif status == 503:
            time.sleep(0.5)
            status = 200  # the same move again
    with lock:
        for k, v in counts.items():
            out[k] = out.get(k, 0) + v


def observer_game(port: int) -> tuple[Client, dict]:
    """The observer's game against random, its first move played (before the expensive games open: a game's
    first move queues for the agents like any other; then its agent is known to be quick)."""
    client = Client(port)
    _, view = client.call("POST", "/api/games", {"game": OBSERVER_GAME, "opponent": "random", "seed": 7})
    _, view = client.call("POST", f"/api/games/{view['id']}/move", {"text": view["legal"][0]["text"], "ply": 0})
    return client, view


def observe(client: Client, view: dict, until: float, out: dict) -> None:
    rng = random.Random(7)
    while time.monotonic() < until:
        for kind, method, path, body in (
                ("runs list", "GET", "/api/runs", None),
                ("own game", "GET", f"/api/games/{view['id']}", None),
                ("own move", "POST", f"/api/games/{view['id']}/move",
                 {"text": rng.choice(view["legal"])["text"], "ply": view["ply"]} if view["legal"] else None)):
            if body is None and method == "POST":
                continue
            t0 = time.perf_counter()
            status, reply = client.call(method, path, body)
            out.setdefault(kind, []).append(((time.perf_counter() - t0) * 1000.0, status))
            if kind == "own move" and status == 200:
                view = reply
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=45)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--json", default=None, help="also write the figures here")
    args = parser.parse_args()
    server, port = start_server()
    try:
        Client(port).call("POST", "/api/games", {"game": "kalah", "opponent": "alphabeta(depth=4)", "seat": "second"})
        watcher, view = observer_game(port)
        load_before = os.getloadavg()
        until = time.monotonic() + args.seconds
        lock, answered, seen = threading.Lock(), {}, {}
        threads = [threading.Thread(target=expensive, args=(port, 100 + i, until, answered, lock))
                   for i in range(args.games)]
        threads.append(threading.Thread(target=observe, args=(watcher, view, until, seen)))
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        load_after = os.getloadavg()
    finally:
        server.terminate()
        server.wait(timeout=20)

    def stats(samples):
        ms = [m for m, _ in samples]
        statuses: dict = {}
        for _, s in samples:
            statuses[str(s)] = statuses.get(str(s), 0) + 1
        return {"n": len(ms), "p50_ms": round(percentile(ms, 50), 1), "p99_ms": round(percentile(ms, 99), 1),
                "max_ms": round(max(ms), 1) if ms else None, "statuses": statuses}

    result = {"games": args.games, "seconds": args.seconds, "cores": os.cpu_count(),
              "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
              "expensive_moves": {str(k): v for k, v in sorted(answered.items())},
              "observer": {kind: stats(samples) for kind, samples in seen.items()}}
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
