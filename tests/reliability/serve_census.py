"""Hostile requests by the thousand against ``evoplay serve``'s app: file tricks in game and agent specs and run
paths, symlinks out of the runs folder, cross-site posts, malformed and oversized bodies, stale and repeated moves.

Each case is classified by its status (2xx accepted, 4xx refused with a reason, 5xx a crash: a traceback in the
server's log) and watched for the two things that must never happen: a Python file outside ``--runs`` imported
(it leaves a marker file), and a cross-site request that changes anything (a game started, a move played, a game
closed). The tests run a sample; run it as a script for the counts in docs/reliability.md::

    python -m tests.reliability.serve_census [N]
"""
from __future__ import annotations

import json
import random
import sys
import tempfile
import warnings
from collections import Counter
from pathlib import Path

from tests.serve.conftest import make_mancala_run

warnings.filterwarnings("ignore", message=".*httpx.*")

EVIL = "import pathlib\npathlib.Path({marker!r}).write_text('imported')\n"
#: a minimal game the run folder's best.json could name, were it imported
GAME_CLASS = "Evil"


def setup(base: Path) -> tuple[Path, Path]:
    """A runs folder with one finished Kalah run and symlinks out, beside an outside folder holding a Python file
    that leaves ``marker`` when imported, a best.json naming that file's game, and a run folder. Returns (runs,
    marker)."""
    runs, outside = base / "runs", base / "outside"
    runs.mkdir()
    outside.mkdir()
    marker = base / "IMPORTED"
    (outside / "evil.py").write_text(EVIL.format(marker=str(marker)), encoding="utf-8")
    make_mancala_run(runs)
    make_mancala_run(outside, "run")
    doc = json.loads((runs / "mancala-1" / "best.json").read_text())
    doc["game"] = f"{outside / 'evil.py'}:{GAME_CLASS}"
    (outside / "best.json").write_text(json.dumps(doc))
    (runs / "link").symlink_to(outside)  # a folder symlink out
    (runs / "mancala-1" / "evil.json").symlink_to(outside / "best.json")  # a file symlink out
    (runs / "bad-run").mkdir()
    for name in ("run.json", "config.toml", "log.jsonl"):
        (runs / "bad-run" / name).symlink_to(outside / "run" / name)
    return runs, marker


def _paths(outside: str) -> list[str]:
    return ["../outside/evil.py", f"{outside}/evil.py", "/../outside/evil.py", "link/evil.py", "~/evil.py",
            "%2e%2e/outside/evil.py", "mancala-1/../../outside/evil.py", "x:/../../outside/evil.py",
            "..\\outside\\evil.py", "evil.py\x00", "a/" + "b" * 300 + ".py", "c" * 5000 + ".py",
            f"x(/../../../../../../../../../../..{outside}/evil.py", "mancala-1/evil.json", "link/best.json",
            "../outside/best.json", f"{outside}/best.json", "mancala-1/best.json", "mancala-1", "", " ", ".", "/"]


def _run_paths() -> list[str]:
    return ["mancala-1", "bad-run", "link", "link/run", "../outside/run", "/etc", "~", "%2e%2e", "..", ".",
            "mancala-1/../..", "x" * 5000, "a/" + "y" * 300, "mancala-1\x00", "", "mancala-1/evil.json"]


JUNK = [None, True, -1, 0, 3, 2**70, 1.5, "nan", "inf", "9" * 5000, "", " ", "x" * 3000, [], [1, 2], {"a": 1},
        "\u0663", "first", "second", "2"]


def random_case(rng: random.Random, outside: str, game_id: str, ply: int) -> dict:
    """One hostile request: method, path, and what httpx's request() takes (json, content, headers, params)."""
    kind = rng.choice(["game-file", "agent-file", "run-path", "body", "cross-site", "move", "target"])
    case: dict = {"kind": kind, "method": "POST", "headers": {}, "params": None, "json": None, "content": None}
    path = rng.choice(_paths(outside))
    if kind == "game-file":
        head = rng.choice(["", "x:", "x(", "openspiel:", "kalah(", "mnk:"])
        tail = rng.choice([f":{GAME_CLASS}", f":{GAME_CLASS}(a=1)", ":", f":{GAME_CLASS})", ""])
        case.update(url="/api/games", json={"game": head + path + tail, "opponent": "random"})
    elif kind == "agent-file":
        spec = rng.choice(["gp({})", "gp(file={})", "weights({})", "specimen(path={})",
                           "specimen(level=easy,computer={})", "random(seed={})", "alphabeta(eval={})"])
        game = "sevens" if spec.startswith("specimen") else "kalah"
        case.update(url="/api/games", json={"game": game, "opponent": spec.format(path), "seat": "second"})
    elif kind == "run-path":
        endpoint = rng.choice(["/api/run", "/api/run/log", "/api/run/file", "/api/run/export", "/api/opponents"])
        params = {"path": rng.choice(_run_paths()), "name": rng.choice(["best.json", "config.toml", "fitness.png",
                                                                        "evil.json", "../x", "run.json", ""]),
                  "since": rng.choice(["0", "-5", "9" * 5000, "x", "3"]), "lang": rng.choice(["python", "lua", "x"]),
                  "game": rng.choice(["kalah", "", "x" * 500])}
        case.update(method="GET", url=endpoint, params=params)
    elif kind == "body":
        shape = rng.random()
        if shape < 0.2:
            depth = rng.randint(100, 6000)
            case["content"] = "[" * depth + "]" * depth
        elif shape < 0.35:
            case["content"] = rng.choice(["{", "nul", "\xff\xfe", '"a"', "[]", "1e999", '{"a": NaN}'])
        else:
            case["json"] = {key: rng.choice(JUNK) for key in rng.sample(["game", "opponent", "seat", "seed", "tick_ms",
                                                                      "level", "seconds", "mode", "large"],
                                                                     rng.randint(1, 5))}
        case["headers"] = {"content-type": "application/json"}
        case["url"] = rng.choice(["/api/games", "/api/target", f"/api/games/{game_id}/move",
                                  f"/api/games/{game_id}/key", "/api/target/nope/submit"])
    elif kind == "cross-site":
        headers = rng.choice([{"content-type": "text/plain"}, {}, {"content-type": "multipart/form-data"},
                              {"content-type": "application/x-www-form-urlencoded"},
                              {"content-type": "application/json", "origin": "https://evil.example"},
                              {"content-type": "application/json", "origin": "null"},
                              {"content-type": "application/json", "origin": "http://testserver.evil.example"},
                              {"content-type": "application/json", "sec-fetch-site": "cross-site"}])
        target = rng.choice([("POST", "/api/games", {"game": "kalah"}),
                             ("POST", f"/api/games/{game_id}/move", {"text": "1", "ply": ply}),
                             ("DELETE", f"/api/games/{game_id}", {}), ("POST", "/api/target", {"level": 1})])
        method, url, body = target
        case.update(method=method, url=url, headers=headers, cross_site=True,
                    content=rng.choice(["", json.dumps(body)]))
    elif kind == "move":
        body = {rng.choice(["text", "action", "key"]): rng.choice(JUNK + ["1", "6", "7", "a1"]),
                "ply": rng.choice([ply, ply, ply - 1, ply + 1, None, "0", -1, 2**70])}
        case.update(url=f"/api/games/{game_id}/move", json=body)
    else:
        case.update(url="/api/target", json={"level": rng.choice(JUNK), "seconds": rng.choice(JUNK),
                                             "mode": rng.choice(JUNK + ["countdown"]), "seed": rng.choice(JUNK)})
    return case


def serve_census(n: int, seed: int = 0) -> tuple[Counter, list[str]]:
    """Counts over ``n`` hostile requests: accepted (2xx), refused (4xx), crash (5xx), imports outside --runs and
    cross-site changes; and the first crashes' requests."""
    from starlette.testclient import TestClient

    from evoplay.serve.app import make_app

    rng = random.Random(seed)
    counts: Counter = Counter()
    crashes: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        runs, marker = setup(Path(tmp))
        outside = str(Path(tmp) / "outside")
        try:
            app = make_app(runs, move_seconds=0.05, max_sessions=50)
        except TypeError:  # an evoplay from before the move time (to count what it let through)
            app = make_app(runs, max_sessions=50)
        with TestClient(app, raise_server_exceptions=False) as client:
            game = client.post("/api/games", json={"game": "kalah", "opponent": "random"}).json()
            for _ in range(n):
                view = client.get(f"/api/games/{game['id']}")
                if view.status_code != 200 or view.json()["terminal"]:
                    game = client.post("/api/games", json={"game": "kalah", "opponent": "random"}).json()
                    view = client.get(f"/api/games/{game['id']}")
                ply = view.json().get("ply", 0)
                case = random_case(rng, outside, game["id"], ply)
                before = (len(app.state.sessions), ply)
                r = client.request(case["method"], case["url"], params=case["params"], json=case["json"],
                                   content=case["content"], headers=case["headers"])
                counts["cases"] += 1
                counts["accepted" if r.status_code < 400 else "refused" if r.status_code < 500 else "crash"] += 1
                if r.status_code >= 500 and len(crashes) < 10:
                    crashes.append(f"{case!r:.300} -> {r.status_code} {r.text[:200]}")
                if marker.exists():
                    counts["imports outside --runs"] += 1
                    marker.unlink()
                if case.get("cross_site"):
                    after = client.get(f"/api/games/{game['id']}")
                    now = (len(app.state.sessions), after.json().get("ply", 0) if after.status_code == 200 else None)
                    counts["cross-site changes"] += now != before
                for sid, session in list(app.state.sessions._items.items()):
                    if sid != game["id"]:
                        app.state.sessions.remove(sid)  # keep the table small: the cap is not what is tested
    for key in ("imports outside --runs", "cross-site changes", "crash"):
        counts.setdefault(key, 0)
    return counts, crashes


if __name__ == "__main__":
    count, found = serve_census(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
    print(dict(count))
    for c in found:
        print("  ", c)
