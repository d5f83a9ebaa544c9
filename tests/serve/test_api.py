"""The JSON endpoints of evoplay serve through Starlette's TestClient: playing, the target game, runs, safety."""
from __future__ import annotations

import json
import os
import time

import pytest
from starlette.testclient import TestClient

from evoplay.agents import make_agent
from evoplay.errors import SpecError
from evoplay.serve.app import MAX_BODY, make_app

from conftest import make_mancala_run, record_line


def new_game(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def play(client, view, **body):
    """POST a move for the ply the view shows."""
    return client.post(f"/api/games/{view['id']}/move", json={**body, "ply": view["ply"]})


def test_catalog_lists_every_builtin_game_and_no_human(client):
    data = client.get("/api/catalog").json()
    names = {g["name"] for g in data["games"]}
    assert {"kalah", "mnk", "sevens", "tron", "gems"} <= names
    assert "human" not in {a["name"] for a in data["agents"]}
    assert [lvl["level"] for lvl in data["target_levels"]] == [1, 2, 3, 4, 5]


def test_pages_are_served(client):
    for path in ("/", "/play", "/target", "/runs", "/run"):
        r = client.get(path)
        assert r.status_code == 200 and "<script type=\"module\"" in r.text
    assert client.get("/static/views/board.js").status_code == 200
    assert client.get("/views/kalah.js").status_code == 200  # a game's own drawing, from its package


def test_whole_kalah_game_against_alphabeta_reports_each_reply_with_its_time(client):
    view = new_game(client, game="kalah", opponent="alphabeta(depth=4)", seat="first")
    assert view["kind"] == "kalah" and view["your_turn"] and view["your_pits"] == [4] * 6
    replies = 0
    for _ in range(200):
        if view["terminal"]:
            break
        choice = view["legal"][-1]["text"]
        r = play(client, view, text=choice)
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["moves"][0] == {"player": 0, "text": choice, "ms": None}
        for m in view["moves"][1:]:
            assert m["player"] == 1 and m["ms"] >= 0
            replies += 1
    assert view["terminal"] and replies > 0
    assert view["your_store"] + view["their_store"] == 48
    assert view["result"]["verdict"] in ("you win", "a draw", "alphabeta(depth=4) wins")


def test_opponent_moves_first_when_you_take_the_second_seat(client):
    view = new_game(client, game="kalah", opponent="alphabeta(depth=2)", seat="second")
    assert view["you"] == 1 and view["your_turn"]
    assert view["moves"] and all(m["player"] == 0 for m in view["moves"])
    assert sum(view["their_pits"]) + view["their_store"] + sum(view["your_pits"]) == 48


def test_illegal_click_is_refused_with_the_reason(client):
    view = new_game(client, game="kalah", opponent="alphabeta(depth=2)")
    first = play(client, view, text="1").json()
    if first["your_turn"] and first["your_pits"][0] == 0:
        r = play(client, first, text="1")
        assert r.status_code == 409 and r.json()["error"] == "pit 1 is empty; sow from a pit that holds seeds"
    r = play(client, first, text="9")
    assert r.status_code == 409 and "not a pit" in r.json()["error"]
    mnk = new_game(client, game="mnk(m=3,n=3,k=3)", opponent="alphabeta(depth=2)")
    after = play(client, mnk, text="b2").json()
    taken = next(after["names"][c] for c, v in enumerate(after["cells"]) if v == 2)
    r = play(client, after, text=taken)
    assert r.status_code == 409 and r.json()["error"] == f"{taken} is taken; place your stone on an empty cell"


def test_sevens_view_shows_only_what_your_seat_observes(client):
    from evoplay.games import load_game

    view = new_game(client, game="sevens", opponent="expert", seat="0", seed=5)
    state = load_game("sevens").new_initial_state(5)
    others = set(range(52)) - set(state.hand(0))
    shown = {c["card"] for c in view["hand"]}
    assert shown and not (shown & others) and view["hand_sizes"][0] == len(shown)
    # no card of another hand appears anywhere except as played on the table
    played = {c for c in range(52) if any(low and low <= c % 13 + 1 <= high
                                          for k, (low, high) in enumerate(view["rows"]) if k == c // 13)}
    named = {e["card"]["card"] for e in view["history"] if e["card"]}
    assert named <= played | set(state.hand(0)) | shown  # plays, and sends from or to you
    hidden_sends = [m for m in view["moves"] if m.get("kind") == "send" and 0 not in (m["player"], m["to"])]
    assert all(m["text"] is None for m in hidden_sends)
    assert "text" in view and "your hand" in view["text"] and view["text"].count("hand:") == 1
    assert view["opponent"] == "specimen(level=expert)"


def test_sevens_hand_played_to_the_end(client):
    view = new_game(client, game="sevens", opponent="easy", seat="0", seed=11)
    for _ in range(200):
        if view["terminal"]:
            break
        view = play(client, view, action=view["legal"][0]["action"]).json()
    assert view["terminal"] and "finishing order" in view["result"]["verdict"]


def test_sevens_card_not_in_hand_is_refused(client):
    view = new_game(client, game="sevens", opponent="easy", seat="0", seed=3)
    absent = next(c for c in range(52) if c not in {h["card"] for h in view["hand"]})
    r = play(client, view, action=absent)
    assert r.status_code == 409 and "is not in your hand" in r.json()["error"]


def test_spec_error_is_the_message_the_cli_prints(client):
    with pytest.raises(SpecError) as cli:
        make_agent("alphabta(depth=4)", "kalah")
    r = client.post("/api/games", json={"game": "kalah", "opponent": "alphabta(depth=4)"})
    assert r.status_code == 400 and r.json()["error"] == str(cli.value)
    r = client.post("/api/games", json={"game": "kalha"})
    assert r.status_code == 400 and r.json()["error"].startswith("unknown game 'kalha' (did you mean 'kalah'?)")
    r = client.post("/api/games", json={"game": "kalah", "opponent": "human"})
    assert r.status_code == 400 and "you take a seat yourself" in r.json()["error"]
    r = client.post("/api/games", json={"game": "kalah", "seat": "third"})
    assert r.status_code == 400 and "seat 'third'" in r.json()["error"]


def test_a_runs_best_plays_through_the_registry(client):
    view = new_game(client, game="kalah", opponent="gp(mancala-1/best.json)")
    assert view["opponent"] == "gp(file=mancala-1/best.json)"  # the canonical spec, with the name as written
    r = client.post("/api/games", json={"game": "kalah", "opponent": "gp(mancala-1/missing.json)"})
    assert r.status_code == 400 and r.json()["error"].startswith("gp: program file 'mancala-1/missing.json' does not")
    found = client.get("/api/opponents?game=kalah").json()["runs"]
    assert found == [{"path": "mancala-1", "recipe": "mancala", "game": "kalah", "agent": "gp(mancala-1/best.json)"}]


@pytest.mark.parametrize("spec", ["gp(../outside.json)", "gp(/etc/passwd)", "gp(file=mancala-1/../../outside.json)",
                                  "weights(~/best.json)", "specimen(path=../x.json)",
                                  "specimen(level=easy,computer=../computer.py)"])
def test_agent_files_outside_runs_cannot_be_named(client, spec):
    r = client.post("/api/games", json={"game": "sevens" if "specimen" in spec else "kalah", "opponent": spec})
    assert r.status_code == 403, r.text
    assert "runs folder" in r.json()["error"]


def test_symlink_out_of_runs_cannot_be_named(client, runs_root, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    make_mancala_run(outside, "secret")
    os.symlink(outside / "secret", runs_root / "link")
    r = client.post("/api/games", json={"game": "kalah", "opponent": "gp(link/best.json)"})
    assert r.status_code == 403 and "outside the runs folder" in r.json()["error"]
    assert client.get("/api/run", params={"path": "link"}).status_code == 403
    assert client.get("/api/run/file", params={"path": "link", "name": "best.json"}).status_code == 403
    assert "link" not in [r["path"] for r in client.get("/api/runs").json()["runs"]]


def test_game_files_outside_runs_cannot_be_named(client):
    r = client.post("/api/games", json={"game": "../evil.py:Game"})
    assert r.status_code == 403 and "'..'" in r.json()["error"]
    r = client.post("/api/games", json={"game": "/tmp/evil.py:Game"})
    assert r.status_code == 403 and "absolute" in r.json()["error"]


@pytest.mark.parametrize("path", ["../", "..", "/etc", "~", "mancala-1/../..", "%2e%2e/", "mancala-1/%2E%2E/%2e%2e"])
def test_run_paths_outside_runs_are_refused(client, path):
    for endpoint in ("/api/run", "/api/run/log", "/api/run/export", "/api/run/file"):
        r = client.get(f"{endpoint}?path={path}&name=fitness.png")
        assert r.status_code == 403, (endpoint, r.text)
        assert "runs folder" in r.json()["error"]


def test_double_encoded_dots_are_just_a_name_inside_runs(client):
    r = client.get("/api/run?path=%252e%252e")  # the name '%2e%2e': no such run folder
    assert r.status_code == 404 and "is not a run folder" in r.json()["error"]


def test_run_files_are_only_the_offered_ones(client):
    ok = client.get("/api/run/file", params={"path": "mancala-1", "name": "fitness.png"})
    assert ok.status_code == 200 and ok.headers["content-type"] == "image/png"
    for name in ("../../etc/passwd", "run.json", "checkpoint.pkl", ".lock"):
        r = client.get("/api/run/file", params={"path": "mancala-1", "name": name})
        assert r.status_code == 400 and "not a file the run page offers" in r.json()["error"]


def test_request_bodies_are_size_limited(client):
    big = json.dumps({"game": "kalah", "pad": "x" * (MAX_BODY + 10)})
    r = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and f"over {MAX_BODY} bytes" in r.json()["error"]

    def chunks():
        yield b'{"game": "kalah", "pad": "'
        for _ in range(40):
            yield b"x" * 1024
        yield b'"}'

    r = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_idle_sessions_expire(runs_root):
    with TestClient(make_app(runs_root, idle_seconds=0.2)) as c:
        view = new_game(c, game="kalah", opponent="random")
        assert c.get(f"/api/games/{view['id']}").status_code == 200
        time.sleep(0.3)
        r = c.get(f"/api/games/{view['id']}")
        assert r.status_code == 404 and "expired" in r.json()["error"]
        assert len(c.app.state.sessions) == 0


def test_open_games_are_capped(runs_root):
    with TestClient(make_app(runs_root, max_sessions=2)) as c:
        new_game(c, game="kalah")
        new_game(c, game="kalah")
        r = c.post("/api/games", json={"game": "kalah"})
        assert r.status_code == 503 and "2 games are open" in r.json()["error"]


def test_target_round_checks_as_you_type_and_scores_the_round(client):
    from evoplay.games.target.solver import solve

    view = client.post("/api/target", json={"level": 1, "seconds": 30, "seed": 4}).json()
    numbers, target = view["numbers"], view["target"]
    sid = view["id"]
    partial = client.post(f"/api/target/{sid}/check", json={"text": f"{numbers[0]} +"}).json()
    assert partial["ok"] is False and partial["error"]["kind"] == "syntax"
    assert partial["error"]["caret"].splitlines()[1].index("^") == partial["error"]["position"]
    undrawn = next(n for n in range(1, 1000) if n not in numbers)
    wrong = client.post(f"/api/target/{sid}/check", json={"text": f"{undrawn}"}).json()
    assert wrong["error"]["kind"] == "input"
    fine = client.post(f"/api/target/{sid}/check", json={"text": f"{numbers[0]} + {numbers[1]}"}).json()
    assert fine == {"ok": True, "value": numbers[0] + numbers[1], "expression": fine["expression"],
                    "unused": sorted(numbers[2:], key=numbers[2:].index)}
    best = solve(numbers, target)
    answer = client.post(f"/api/target/{sid}/submit", json={"text": best.expression}).json()
    assert answer["answer"]["value"] == best.value
    done = client.post(f"/api/target/{sid}/finish", json={}).json()
    assert done["over"] and done["you"]["value"] == best.value
    assert done["verdict"].startswith("you win the round")  # the best possible value ties or beats the CPU
    assert done["cpu_result"]["distance"] >= best.distance


def test_target_round_rejects_bad_levels(client):
    r = client.post("/api/target", json={"level": 9})
    assert r.status_code == 400 and r.json()["error"].startswith("level 9: choose one of 1, 2, 3, 4, 5")


def test_runs_list_detail_and_live_log(client, runs_root):
    runs = client.get("/api/runs").json()["runs"]
    assert [r["path"] for r in runs] == ["mancala-1"] and runs[0]["generations"] == 3
    detail = client.get("/api/run", params={"path": "mancala-1"}).json()
    assert detail["recipe"] == "mancala" and detail["finished"] and "fitness.png" in detail["plots"]
    assert detail["notation"][0]["text"].startswith("(value at")
    assert detail["opponent"] == {"game": "kalah", "agent": "gp(mancala-1/best.json)"}
    first = client.get("/api/run/log", params={"path": "mancala-1", "since": 0}).json()
    assert first["count"] == 3 and [r["generation"] for r in first["records"]] == [0, 1, 2]
    with open(runs_root / "mancala-1" / "log.jsonl", "a", encoding="utf-8") as f:
        f.write(record_line(3))
    more = client.get("/api/run/log", params={"path": "mancala-1", "since": 3}).json()
    assert [r["generation"] for r in more["records"]] == [3] and more["count"] == 4


def test_exports_download_the_best_as_python_and_lua(client, runs_root):
    py = client.get("/api/run/export", params={"path": "mancala-1", "lang": "python"})
    assert py.status_code == 200 and "def " in py.text and "attachment" in py.headers["content-disposition"]
    lua = client.get("/api/run/export", params={"path": "mancala-1", "lang": "lua"})
    assert lua.status_code == 200 and "function" in lua.text
    assert client.get("/api/run/export", params={"path": "mancala-1", "lang": "cobol"}).status_code == 400


def test_unfinished_run_has_no_export_yet(client, runs_root):
    make_mancala_run(runs_root, "live", finished=False)
    r = client.get("/api/run/export", params={"path": "live", "lang": "python"})
    assert r.status_code == 404 and "no best agent yet" in r.json()["error"]
    assert client.get("/api/run", params={"path": "live"}).json()["has_best"] is False


def test_tron_runs_in_real_time_with_your_last_key(client):
    view = new_game(client, game="tron(w=8,h=6)", opponent="random", tick_ms=40)
    assert view["realtime"] and view["kind"] == "grid"
    sid = view["id"]
    assert client.post(f"/api/games/{sid}/move", json={"text": "up"}).status_code == 409
    assert client.post(f"/api/games/{sid}/key", json={"key": "up"}).json() == {"ok": True}
    ticks = []
    with client.stream("GET", f"/api/games/{sid}/events?delay_ms=0") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                ticks.append(json.loads(line[6:]))
            if len(ticks) >= 3 or (ticks and ticks[-1]["terminal"]):
                break
    assert ticks[0]["tick"] == 0 and ticks[1]["tick"] == 1
    head_before = "".join(ticks[0]["rows"]).index("A")
    head_after = "".join(ticks[1]["rows"]).index("A")
    width = len(ticks[0]["rows"][0])
    assert head_after == head_before - width  # the key 'up' moved the cycle one row up
    assert client.post(f"/api/games/{sid}/key", json={"key": "sideways"}).status_code == 409


def test_unknown_game_id_says_how_to_go_on(client):
    r = client.get("/api/games/nope")
    assert r.status_code == 404 and "start a new one" in r.json()["error"]


def test_a_file_game_inside_runs_gets_a_board_drawn_from_its_grid(client, runs_root):
    import shutil
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "othello6.py"
    if not example.is_file():
        pytest.skip("examples/othello6.py is not in this checkout")
    shutil.copy(example, runs_root / "othello6.py")
    view = new_game(client, game="othello6.py:Othello", opponent="random")
    assert view["kind"] == "board" and view["game"] == "othello6.py:Othello"
    assert str(runs_root) not in json.dumps(view)  # the page sees names relative to --runs only
    legal = {a["text"] for a in view["legal"]}
    assert legal == {"c2", "b3", "e4", "d5"} and "a b c d e f" in view["text"]
    assert view["rows"][2:4] == ["..XO..", "..OX.."]  # row 6 on top: d3 (row 3) is the grid's fourth row
    by_text = {a["text"]: view["cells"][str(a["action"])] for a in view["legal"]}
    assert by_text == {"c2": [4, 2], "b3": [3, 1], "e4": [2, 4], "d5": [1, 3]}
    r = play(client, view, text="a1")
    assert r.status_code == 409 and r.json()["error"] == "a1 is not a legal move here; legal: c2, b3, e4, d5"
    after = play(client, view, action=view["legal"][0]["action"]).json()
    assert after["moves"][0]["text"] == view["legal"][0]["text"] and after["moves"][1]["player"] == 1


def test_hidden_chance_outcomes_stay_hidden_in_the_generic_view(client):
    pytest.importorskip("pyspiel")
    view = new_game(client, game="openspiel:kuhn_poker", opponent="random", seat="second", seed=3)
    deals = [m for m in view["moves"] if m["player"] == -1]
    assert len(deals) == 2 and all(m["text"] is None for m in deals)
    assert [a["text"] for a in view["legal"]] == ["Pass", "Bet"]


def test_a_file_game_run_is_offered_with_its_game_named_inside_runs(client, runs_root):
    from evoplay.evolve import RunFolder, load_config

    (runs_root / "games").mkdir()
    (runs_root / "games" / "g.py").write_text("# a game file\n", encoding="utf-8")
    folder = RunFolder.create(runs_root / "ga-file", "mnk", load_config("mnk", None, {}))
    folder.write_json("best.json", {"format": 1, "game": f"{runs_root / 'games' / 'g.py'}:Nim(heaps=3)",
                                    "schema": [], "genome": ""})
    found = {r["path"]: r for r in client.get("/api/opponents").json()["runs"]}
    assert found["ga-file"]["game"] == "games/g.py:Nim(heaps=3)"
    assert found["ga-file"]["agent"] == "weights(ga-file/best.json)"


def test_a_run_whose_game_file_lies_outside_runs_says_in_one_line_what_to_do(client, runs_root, tmp_path):
    from evoplay.evolve import RunFolder, load_config

    outside = tmp_path / "elsewhere" / "mygame.py"
    outside.parent.mkdir()
    outside.write_text("# a game file\n", encoding="utf-8")
    folder = RunFolder.create(runs_root / "ga-outside", "mnk", load_config("mnk", None, {}))
    folder.write_json("best.json", {"format": 1, "game": f"{outside}:Nim", "schema": [], "genome": ""})
    found = {r["path"]: r for r in client.get("/api/runs").json()["runs"]}
    why = found["ga-outside"]["opponent"]["why_not"]
    assert why.startswith("its game file mygame.py lies outside the runs folder") and "copy it into" in why
    assert str(tmp_path) not in json.dumps(found["ga-outside"])


def test_bodies_must_be_json_so_other_sites_cannot_post(client):
    r = client.post("/api/games", content='{"game": "kalah"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "Content-Type: application/json" in r.json()["error"]


def test_loopback_app_refuses_other_host_names(runs_root):
    app = make_app(runs_root, allowed_hosts=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/catalog").status_code == 200
    with TestClient(app, base_url="http://rebound.example") as c:
        assert c.get("/api/catalog").status_code == 400


def test_a_drop_game_is_a_board_whose_columns_are_its_moves(client):
    pytest.importorskip("pyspiel")
    view = new_game(client, game="openspiel:connect_four", opponent="random")
    assert view["kind"] == "board" and view["rows"] == ["......."] * 6
    assert view["cells"] == {str(c): [None, c] for c in range(7)}
    after = play(client, view, action=3).json()
    assert after["rows"][-1][3] == "X"  # the first piece lands at the bottom, in the first player's colour


def test_a_game_without_a_grid_keeps_the_text_view(client):
    pytest.importorskip("pyspiel")
    view = new_game(client, game="openspiel:breakthrough", opponent="random")
    assert view["kind"] == "generic" and "rows" not in view
