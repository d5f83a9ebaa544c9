"""The browser offers the difficulty levels of a gp or ga run (``evolve --levels``) as ``level(RUN,NAME)``, and
plays them."""
from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.recipes import load_recipe
from evoplay.serve.app import make_app


@pytest.fixture(scope="module")
def levels_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("levels") / "runs"
    root.mkdir()
    config = load_config("ga", None, {"game": "mnk(m=3,n=3,k=3)", "generations": 3, "population": 4,
                                      "minutes": 0.0, "fitness.games": 1, "report.games": 1, "report.play_games": 0,
                                      "play.ms": 0.0, "play.nodes": 30, "levels.games": 1, "levels.candidates": 4,
                                      "genome.start_games": 20})
    folder = RunFolder.create(root / "ga-levels", "ga", config, {"levels": True})
    run_evolution(load_recipe("ga").make(config, levels=True), folder)
    return root


def test_a_ga_runs_levels_are_offered_and_play(levels_root):
    names = list(json.loads((levels_root / "ga-levels" / "levels.json").read_text(encoding="utf-8")))
    with TestClient(make_app(levels_root)) as client:
        opponent = client.get("/api/run", params={"path": "ga-levels"}).json()["opponent"]
        assert [lvl["level"] for lvl in opponent["levels"]] == names
        assert [lvl["agent"] for lvl in opponent["levels"]] == [f"level(ga-levels,{n})" for n in names]
        listed = {r["path"]: r for r in client.get("/api/opponents", params={"game": "mnk"}).json()["runs"]}
        assert [lvl["agent"] for lvl in listed["ga-levels"]["levels"]] == [f"level(ga-levels,{n})" for n in names]
        r = client.post("/api/games", json={"game": opponent["game"], "opponent": opponent["levels"][0]["agent"],
                                            "seat": "second"})
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["opponent"] == f"level(run=ga-levels,level={names[0]})"
        assert any(m["player"] == 0 for m in view["moves"])  # the level moved first
        # a level the run does not have, or a run folder outside the runs folder, is refused with the reason
        bad = client.post("/api/games", json={"game": opponent["game"], "opponent": "level(ga-levels,nightmare)"})
        assert bad.status_code == 400 and "its levels: " + ", ".join(names) in bad.text
        outside = client.post("/api/games", json={"game": opponent["game"], "opponent": "level(../x,easy)"})
        assert outside.status_code in (400, 403) and "runs folder" in outside.text
