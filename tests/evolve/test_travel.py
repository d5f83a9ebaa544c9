"""Runs and shipped files that travel: a run folder moved with its checkout, a run folder moved alone, and the
shipped Othello weights played from a copy of the checkout in another place."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from evoplay.agents import make_agent
from evoplay.arena import play_game
from evoplay.cli import main
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.games import load_game
from evoplay.recipes import load_recipe

REPO = Path(__file__).resolve().parents[2]
SMALL = ["--generations", "2", "--population", "6", "--set", "report.games=2", "--backend", "serial"]


def run_cli(*args) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def checkout(where: Path) -> Path:
    """A copy of the files a user's game and the shipped weights need, in the checkout's layout."""
    for rel, src in [("examples/othello6.py", REPO / "examples/othello6.py"),
                     ("docs/your-game/othello_weights.json", REPO / "docs/your-game/othello_weights.json"),
                     ("examples/take_away.py", REPO / "tests/agents/take_away.py")]:
        (where / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, where / rel)
    return where


def plays(agent_spec: str, game_spec: str) -> None:
    game = load_game(game_spec)
    state = play_game(game, [make_agent(agent_spec, game), make_agent("random", game)], seed=1)
    assert state.is_terminal()


def test_the_shipped_othello_weights_name_their_game_relative_to_themselves(tmp_path, monkeypatch):
    doc = json.loads((REPO / "docs/your-game/othello_weights.json").read_text())
    assert doc["game"] == "../../examples/othello6.py:Othello"
    moved = checkout(tmp_path / "a").rename(tmp_path / "b")
    monkeypatch.chdir(tmp_path)  # another folder than the checkout
    plays(f"weights({moved}/docs/your-game/othello_weights.json)", f"{moved}/examples/othello6.py:Othello")
    monkeypatch.chdir(moved)  # the commands of docs/your-game.md, from the checkout
    plays("weights(docs/your-game/othello_weights.json)", "examples/othello6.py:Othello")


def test_a_run_folder_moves_with_its_checkout(tmp_path, monkeypatch):
    co = checkout(tmp_path / "checkout")
    monkeypatch.chdir(co)
    text = run_cli("evolve", "gp", "--game", "examples/take_away.py:TakeAway", "--vs", "random", *SMALL,
                   "--out", "runs/x")
    # the run's cost as measured: one session of evolve, its wall and CPU time, in the report and timing.json
    sessions = json.loads((co / "runs/x/timing.json").read_text())
    assert [(s["command"], s["generations"]) for s in sessions] == [("evolve", [0, 2])]
    assert sessions[0]["wall_seconds"] > 0 and sessions[0]["cpu_seconds"] > 0
    assert "time: " in text and " of wall time, " in text and " of CPU (evoplay and its worker processes)" in text
    config_text = (co / "runs/x/config.toml").read_text()
    assert 'game = "../../examples/take_away.py:TakeAway"' in config_text
    assert json.loads((co / "runs/x/best.json").read_text())["game"] == "../../examples/take_away.py:TakeAway"
    # an unfinished run too: stopped after one generation
    config = load_config("ga", None, {"game": "examples/take_away.py:TakeAway", "generations": 2, "population": 6,
                                      "fitness.opponents": ["random"], "report.games": 2})
    folder = RunFolder.create(co / "runs/y", "ga", config)
    run_evolution(load_recipe("ga").make(folder.config), folder, stop_after=1)
    folder.release()

    moved = co.rename(tmp_path / "moved")
    monkeypatch.chdir(tmp_path)
    assert "time: " in run_cli("report", str(moved / "runs/x"))
    run_cli("resume", str(moved / "runs/y"))
    sessions = json.loads((moved / "runs/y/timing.json").read_text())
    assert [(s["command"], s["generations"]) for s in sessions] == [("resume", [1, 2])]  # the stop was in-process
    assert RunFolder.open(moved / "runs/x").config["game"] == f"{moved}/examples/take_away.py:TakeAway"
    game = f"{moved}/examples/take_away.py:TakeAway"
    plays(f"gp({moved}/runs/x/best.json)", game)
    plays(f"weights({moved}/runs/y/best.json)", game)
    assert Path(run_cli("export", str(moved / "runs/x"), "--lang", "python").strip()).is_file()


def test_a_run_folder_moves_alone(tmp_path, monkeypatch):
    co = checkout(tmp_path / "checkout")
    monkeypatch.chdir(co)
    run_cli("evolve", "gp", "--game", "examples/take_away.py:TakeAway", "--vs", "random", *SMALL, "--out", "runs/x")
    archive = tmp_path / "archive" / "old"
    archive.parent.mkdir()
    (co / "runs/x").rename(archive)
    monkeypatch.chdir(tmp_path)
    assert RunFolder.open(archive).config["game"] == f"{co}/examples/take_away.py:TakeAway"
    run_cli("report", str(archive))
    plays(f"gp({archive}/best.json)", f"{co}/examples/take_away.py:TakeAway")
