"""Every finished run of every recipe is played in the browser as ``evoplay play`` plays it (issue 33), a run whose
game lies elsewhere breaks no endpoint, and a run page counts in its budget's units."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from evoplay.evolve import RunFolder, load_config
from evoplay.serve.app import make_app

from conftest import HEXAPAWN, evolve_run, make_mancala_run, make_mnk_run, make_sevens_run

#: run folder -> (recipe, the game the page names)
RUNS = {
    "ga-hexapawn": ("ga", "games/hexapawn.py:Hexapawn"),
    "gp-openspiel": ("gp", "openspiel:tic_tac_toe(engine=openspiel)"),
    "mancala-1": ("mancala", "kalah"),
    "mnk-1": ("mnk", "mnk"),
    "mnk-kalah": ("mnk", "kalah"),
    "sevens-1": ("sevens", "sevens(players=3)"),
}


@pytest.fixture(scope="module")
def recipe_runs(tmp_path_factory):
    """A runs folder with a finished run of each recipe (ga and gp evolved for real, on a file game kept in the
    runs folder and on an OpenSpiel game), and the Hexapawn game file."""
    root = tmp_path_factory.mktemp("recipes") / "runs"
    (root / "games").mkdir(parents=True)
    shutil.copy(HEXAPAWN, root / "games" / "hexapawn.py")
    evolve_run(root, "ga", "ga-hexapawn", str(root / "games" / "hexapawn.py") + ":Hexapawn")
    evolve_run(root, "gp", "gp-openspiel", "openspiel:tic_tac_toe(engine=openspiel)")
    make_mancala_run(root)
    make_mnk_run(root, "mnk-1")
    make_mnk_run(root, "mnk-kalah", "kalah")
    make_sevens_run(root, "sevens-1")
    return root


@pytest.fixture(scope="module")
def recipe_client(recipe_runs):
    with TestClient(make_app(recipe_runs)) as c:
        yield c


def report_spec(folder) -> tuple[str, Path]:
    """The player the recipe's report tells the user to play (``play it: evoplay play GAME --vs 'SPEC'``, Sevens'
    ``agent: SPEC``): its agent name and the file it reads."""
    from evoplay.recipes import load_recipe

    text = load_recipe(folder.recipe).report(folder)
    found = re.findall(r"\b(gp|weights|specimen)\((?:path=)?([^()',]+)\)", text)
    assert found, f"no player spec in the report of {folder.path}:\n{text}"
    name, file = found[-1]
    return name, Path(file).resolve()


@pytest.mark.parametrize("run", sorted(RUNS))
def test_every_recipes_finished_run_is_played_as_evoplay_play_plays_it(recipe_client, recipe_runs, run):
    recipe, game = RUNS[run]
    detail = recipe_client.get("/api/run", params={"path": run}).json()
    assert detail["finished"] and detail["has_best"] and detail["recipe"] == recipe
    opponent = detail["opponent"]
    assert "why_not" not in opponent, opponent
    assert opponent["game"] == game
    # the same agent on the same best.json as the report's own line, the file named inside the runs folder
    name, file = report_spec(RunFolder.open(recipe_runs / run))
    page = re.fullmatch(r"(\w+)\((?:path=)?([^()]+)\)", opponent["agent"])
    assert page and page.group(1) == name and (recipe_runs / page.group(2)).resolve() == file
    assert detail["notation"], "a finished run's page shows its best agent"
    r = recipe_client.post("/api/games", json={"game": opponent["game"], "opponent": opponent["agent"],
                                               "seat": "second"})
    assert r.status_code == 200, r.text
    view = r.json()
    while not any(m["player"] >= 0 and m["player"] != view["you"] for m in view["moves"]):  # until the best moves
        assert view["your_turn"], view
        view = recipe_client.post(f"/api/games/{view['id']}/move",
                                  json={"action": view["legal"][0]["action"], "ply": view["ply"]}).json()
    listed = {r["path"]: r for r in recipe_client.get("/api/opponents", params={"game": game}).json()["runs"]}
    assert listed[run]["agent"] == opponent["agent"]


def test_a_ga_runs_page_shows_its_weights(recipe_client):
    detail = recipe_client.get("/api/run", params={"path": "ga-hexapawn"}).json()
    weights = next(n for n in detail["notation"] if n["label"].startswith("weights ("))
    assert weights["text"].startswith("cell_00 ") and "mobility " in weights["text"]
    assert detail["scores"]["game"] == "games/hexapawn.py:Hexapawn"


def test_a_sevens_runs_levels_are_offered_and_play(recipe_client):
    opponent = recipe_client.get("/api/run", params={"path": "sevens-1"}).json()["opponent"]
    assert [lvl["level"] for lvl in opponent["levels"]] == ["easy", "medium"]
    assert opponent["levels"][0]["agent"] == "specimen(level=easy,computer=sevens-1/levels.json)"
    r = recipe_client.post("/api/games", json={"game": opponent["game"], "opponent": opponent["levels"][0]["agent"],
                                               "seat": "2"})
    assert r.status_code == 200, r.text
    assert r.json()["opponent"].startswith("specimen(")


@pytest.fixture
def elsewhere(tmp_path):
    """Runs whose game file lies outside the runs folder (a real ga run beside its Hexapawn file, as
    ``evoplay evolve ga --game hexapawn.py:Hexapawn`` leaves it, and a gp best.json naming a file that leaves a
    marker when imported), beside a Kalah run that works."""
    root = tmp_path / "runs"
    root.mkdir()
    shutil.copy(HEXAPAWN, tmp_path / "hexapawn.py")
    marker = tmp_path / "IMPORTED"
    (tmp_path / "mine.py").write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('imported')\n",
                                      encoding="utf-8")
    make_mancala_run(root)
    folder = RunFolder.create(root / "gp-mine", "gp", load_config("gp", None, {"game": f"{tmp_path / 'mine.py'}:Mine"}))
    folder.write_json("best.json", {"format": "evoplay-gp-program/1", "game": f"{tmp_path / 'mine.py'}:Mine",
                                    "program": {"opcodes": [1], "args": [0], "consts": [0.0]}, "primitive_set": {}})
    folder.write_json("finished.json", {"generations": 0, "stopped": "0 generations run"})
    return root, tmp_path, marker


def test_a_run_whose_game_lies_elsewhere_breaks_no_endpoint(elsewhere):
    root, outside, marker = elsewhere
    evolve_run(root, "ga", "ga-hexapawn", str(outside / "hexapawn.py") + ":Hexapawn")
    with TestClient(make_app(root), raise_server_exceptions=False) as c:
        kalah = c.get("/api/opponents", params={"game": "kalah"})
        assert kalah.status_code == 200, kalah.text
        assert [r["path"] for r in kalah.json()["runs"]] == ["mancala-1"] and kalah.json()["unplayable"] == []
        every = c.get("/api/opponents").json()
        why = {r["path"]: r["why_not"] for r in every["unplayable"]}
        assert set(why) == {"ga-hexapawn", "gp-mine"}
        assert why["ga-hexapawn"].startswith("its game file hexapawn.py lies outside the runs folder")
        hexapawn = c.get("/api/opponents", params={"game": "hexapawn.py:Hexapawn"}).json()
        assert [r["path"] for r in hexapawn["unplayable"]] == ["ga-hexapawn"] and hexapawn["runs"] == []
        listed = {r["path"]: r for r in c.get("/api/runs").json()["runs"]}
        assert "why_not" in listed["ga-hexapawn"]["opponent"] and "agent" in listed["mancala-1"]["opponent"]
        for run in ("ga-hexapawn", "gp-mine"):
            detail = c.get("/api/run", params={"path": run})
            assert detail.status_code == 200 and "why_not" in detail.json()["opponent"]
            assert c.get("/api/run/log", params={"path": run}).status_code == 200
            folder = RunFolder.open(root / run)
            for name in ("best.py", "best.lua"):
                folder.file(name).unlink(missing_ok=True)
            export = c.get("/api/run/export", params={"path": run, "lang": "python"})
            assert export.status_code == 403, export.text
            assert "cannot be exported here: its game file" in export.json()["error"]
        assert str(outside) not in json.dumps(listed) + json.dumps(every)
    assert not marker.exists(), "the export imported a game file outside the runs folder"


def test_a_best_json_no_player_reads_is_listed_with_why(client, runs_root):
    make_mancala_run(runs_root, "odd").write_json("best.json", {"format": "something-else/1", "game": "kalah"})
    make_mancala_run(runs_root, "odder").write_json("best.json", {"format": ["a", "list"], "kind": {}})
    every = client.get("/api/opponents").json()
    assert [r["path"] for r in every["runs"]] == ["mancala-1"]
    assert [r["path"] for r in every["unplayable"]] == ["odd", "odder"]
    assert all(r["why_not"].startswith("its best.json is no player evoplay knows") for r in every["unplayable"])


def _minutes_run(root, name: str, generations: int, seconds: float, finished: str | None = None):
    folder = RunFolder.create(root / name, "ga", load_config("ga", None, {"minutes": 3.0, "generations": 1000}))
    for g in range(generations):
        folder.log({"generation": g, "best": 0.5, "mean": 0.3, "worst": 0.1, "mean_size": 21.0, "games": 88,
                    "seconds": seconds})
    if finished:
        folder.write_json("finished.json", {"generations": generations, "stopped": finished})
    return folder


def test_a_time_budget_runs_progress_is_in_minutes(client, runs_root):
    _minutes_run(runs_root, "ga-live", 20, 3.0)  # one minute of three spent: the 1000-generation cap is far
    live = client.get("/api/run", params={"path": "ga-live"}).json()["progress"]
    assert live["text"] == "20 generations logged; 1.0 of 3 min spent, 2.0 min left"
    assert "1000" not in live["text"] and live["unit"] == "minutes"
    stopped = "the time budget of 3 min was spent after 51 generations"
    _minutes_run(runs_root, "ga-done", 51, 3.6, stopped)
    done = client.get("/api/run/log", params={"path": "ga-done", "since": 51}).json()["progress"]
    assert done["text"] == f"stopped: {stopped}" and done["finished"]
    listed = {r["path"]: r for r in client.get("/api/runs").json()["runs"]}
    assert listed["ga-live"]["progress"]["short"] == "1.0 / 3 min (20 generations)"
    assert listed["mancala-1"]["progress"]["text"] == "3 generations run"  # a mark without 'stopped'


def test_a_cap_that_comes_first_is_counted_in_generations(client, runs_root):
    _minutes_run(runs_root, "ga-short", 4, 1.0)
    folder = RunFolder.open(runs_root / "ga-short")
    text = folder.file("config.toml").read_text().replace("generations = 1000", "generations = 10")
    folder.file("config.toml").write_text(text)
    progress = client.get("/api/run", params={"path": "ga-short"}).json()["progress"]
    assert progress["text"] == "4 / 10 generations logged (0.1 of 3 min spent)"
