"""Load on evoplay serve: concurrent Kalah games against alphabeta(depth=6), every request checked, latencies.

    python3 benchmarks/serve_load.py [--games 20] [--depth 6] [--json out.json]

Starts ``evoplay serve`` on a free port of 127.0.0.1 (a subprocess with a temporary runs folder), then plays
the games at once from as many client threads, each with its own keep-alive connection. The person's side picks
a legal pit at random (seeded) and the move request returns after the agent's reply, so one request = one
person's move + the agent's moves until it is the person's turn again. Loops are bounded (a game has at most 200
moves). Reports, for the same run: the latency the client sees per move request, the server's own time per
request (``server_ms``: the lock, the thread hop and the agents' moves), and the agent's own time per decision
(``ms`` of each reply), first with one game alone (4 x ROUNDS games, one after another) and then with GAMES
games at once (ROUNDS times); and the load average.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

MAX_MOVES = 200


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, q):
    if not values:
        return float("nan")
    v = sorted(values)
    k = (len(v) - 1) * q / 100.0
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method: str, path: str, body=None):
        data = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"} if method != "GET" else {}
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        payload = response.read()
        return response.status, json.loads(payload) if payload else None


def play_one(port: int, depth: int, seed: int, out: dict, lock: threading.Lock, start: threading.Barrier | None):
    client = Client(port)
    rng = random.Random(seed)
    latencies, server, agent, failures = [], [], [], []
    status, view = client.call("POST", "/api/games", {"game": "kalah", "opponent": f"alphabeta(depth={depth})",
                                                      "seat": seed % 2, "seed": seed})
    if start is not None:
        start.wait()  # every game is created (or refused) before the moves start
    if status != 200:
        failures.append((status, view))
    else:
        agent += [m["ms"] for m in view["moves"] if m["ms"] is not None]
        for _ in range(MAX_MOVES):
            if view["terminal"]:
                break
            choice = rng.choice(view["legal"])["text"]
            t0 = time.perf_counter()
            status, reply = client.call("POST", f"/api/games/{view['id']}/move", {"text": choice, "ply": view["ply"]})
            latencies.append((time.perf_counter() - t0) * 1000.0)
            if status != 200:
                failures.append((status, reply))
                break
            view = reply
            server.append(view["server_ms"])
            agent += [m["ms"] for m in view["moves"][1:] if m["ms"] is not None]
        if not view["terminal"]:
            failures.append(("unfinished", view.get("id")))
        client.call("DELETE", f"/api/games/{view['id']}")
    with lock:
        out["latency"] += latencies
        out["server"] += server
        out["agent"] += agent
        out["failures"] += failures
        out["games"] += 1


def run_round(port: int, games: int, depth: int, base_seed: int) -> dict:
    out = {"latency": [], "server": [], "agent": [], "failures": [], "games": 0}
    lock = threading.Lock()
    barrier = threading.Barrier(games) if games > 1 else None
    threads = [threading.Thread(target=play_one, args=(port, depth, base_seed + i, out, lock, barrier))
               for i in range(games)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out["seconds"] = time.perf_counter() - t0
    return out


def merge(outs: list[dict]) -> dict:
    merged = {"latency": [], "server": [], "agent": [], "failures": [], "games": 0, "seconds": 0.0}
    for o in outs:
        for k in merged:
            merged[k] += o[k]
    return merged


def summary(out: dict) -> dict:
    def stats(xs):
        return {"n": len(xs), "p50": round(percentile(xs, 50), 2), "p99": round(percentile(xs, 99), 2),
                "max": round(max(xs), 2) if xs else None}

    return {"games": out["games"], "requests": len(out["latency"]), "failures": len(out["failures"]),
            "seconds": round(out["seconds"], 2), "client_ms": stats(out["latency"]),
            "server_ms": stats(out["server"]), "agent_ms": stats(out["agent"])}


def start_server(*options: str) -> tuple[subprocess.Popen, int]:
    """``evoplay serve`` (with ``options``) on a free port of 127.0.0.1 over a temporary runs folder, once it
    accepts connections: (the process, the port)."""
    port = free_port()
    runs = tempfile.mkdtemp(prefix="evoplay-load-")
    server = subprocess.Popen([sys.executable, "-m", "evoplay.cli", "serve", "--port", str(port), "--runs", runs,
                               *options], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server, port
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise SystemExit(f"the server did not start: {server.stdout.read() if server.stdout else ''}")
            time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of GAMES concurrent games (more samples)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="also write the figures here")
    args = parser.parse_args()
    server, port = start_server()
    try:
        run_round(port, 1, args.depth, 10_000)  # warm-up: Numba's compiled kernels load from the cache
        load_before = os.getloadavg()
        alone = summary(merge([run_round(port, 1, args.depth, args.seed + r) for r in range(args.rounds * 4)]))
        together = summary(merge([run_round(port, args.games, args.depth, args.seed + 1000 * r)
                                  for r in range(args.rounds)]))
        load_after = os.getloadavg()
    finally:
        server.terminate()
        server.wait(timeout=20)
    result = {"games": args.games, "rounds": args.rounds, "depth": args.depth, "cores": os.cpu_count(),
              "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
              "alone": alone, "concurrent": together}
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
    if together["failures"] or alone["failures"]:
        raise SystemExit("some requests were not answered with 200")


if __name__ == "__main__":
    main()
