"""A gp or ga champion's best.py is the agent: short seeded runs on a built-in, file and OpenSpiel games, exported
and played beside their agents at 100 %; the exported file's own command line, and its refusals; a file that
carries evoplay's code refuses to be written when that code needs what the file lacks."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from evoplay.agents.export_check import ModulePlayer, side_by_side
from evoplay.agents.feature_player import FeatureAgent, document_agent
from evoplay.cli import main
from evoplay.errors import SpecError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.games import load_game
from evoplay.games.standalone import missing_names
from evoplay.recipes import load_recipe
from evoplay.recipes.export_check import check_export, languages

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SMALL = {"generations": 2, "population": 6, "minutes": 0, "report.games": 1, "report.play_games": 0,
         "report.playoff": 0, "fitness.games": 1, "fitness.rounds": 1}


def evolved(tmp_path: Path, recipe: str, game: str, **changes) -> RunFolder:
    """A short seeded run of ``recipe`` on ``game``, finished."""
    overrides = dict(SMALL, game=game, **changes)
    if recipe == "ga":
        overrides["genome.start"] = "zero"
    config = load_config(recipe, None, overrides)
    folder = RunFolder.create(tmp_path / recipe, recipe, config)
    run_evolution(load_recipe(recipe).make(config), folder)
    return folder


def checked(folder: RunFolder, positions: int = 150, nodes: int = 150) -> list:
    """The export's check in every language the run writes: each result's line."""
    results = check_export(folder, languages(folder), positions, nodes, say=lambda line: None)
    assert results and all(r.positions == positions for r in results)
    return [r.line() for r in results]


@pytest.mark.parametrize("recipe,game,changes", [
    ("gp", "mnk(m=3,n=3,k=3)", {}),  # deepening within 100 ms: checked within 150 nodes
    ("ga", "kalah(pits=4,seeds=3)", {"player.policy": "search", "player.depth": 2, "play.ms": 0}),  # fixed depth
    ("gp", "tron(w=6,h=6)", {"player.opponents": "sample", "play.ms": 0, "play.nodes": 200}),  # sampled others
    ("gp", f"{EXAMPLES / 'othello6.py'}:Othello", {"program.base_games": 40}),  # a base fitted (plain Python: few games)
    ("ga", f"{EXAMPLES / 'nim.py'}:Nim", {}),
])
def test_the_exported_player_chooses_the_agents_moves(tmp_path, recipe, game, changes):
    folder = evolved(tmp_path, recipe, game, **changes)
    lines = checked(folder)
    assert all("(100.0 %)" in line for line in lines), lines
    # Python, and Lua and JavaScript where evoplay has the game's host interface in them (m,n,k, Kalah, the examples)
    hosted = game.startswith(("mnk", "kalah")) or "othello6.py" in game or "nim.py" in game
    assert [line.split(",")[0] for line in lines] == (["python", "lua", "js"] if hosted else ["python"]), lines


@pytest.mark.parametrize("game", ["openspiel:tic_tac_toe", "openspiel:kuhn_poker", "openspiel:pig(winscore=15)"])
def test_an_openspiel_games_exported_player_plays_on_pyspiel_as_the_agent_does(tmp_path, game):
    pytest.importorskip("pyspiel", reason="OpenSpiel games need open_spiel")
    folder = evolved(tmp_path, "ga", game)
    lines = checked(folder, positions=100)
    assert lines == [line for line in lines if "(100.0 %)" in line] and len(lines) == 1, lines


def _run(path: Path, *args: str, block_evoplay: bool = True) -> subprocess.CompletedProcess:
    """``python path args`` with evoplay made unimportable (the file must not need it)."""
    block = "import sys; sys.modules['evoplay'] = None; " if block_evoplay else "import sys; "
    code = block + f"import runpy; sys.argv = {[path.name, *args]!r}; runpy.run_path({str(path)!r}, run_name='__main__')"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=path.parent)


def test_a_built_in_games_export_runs_without_evoplay_and_its_command_line_refuses_bad_arguments(tmp_path):
    folder = evolved(tmp_path, "gp", "mnk(m=3,n=3,k=3)")
    path = load_recipe("gp").export(folder, "python")
    text = path.read_text()
    assert "import evoplay" not in text and "from evoplay" not in text
    played = _run(path, "play", "--games", "2", "--nodes", "50")
    assert played.returncode == 0 and "of 2 games against a random player" in played.stdout, played.stderr
    moved = _run(path, "move", "4", "a1", "--nodes", "50")
    assert moved.returncode == 0 and moved.stdout.strip().endswith(")"), moved.stderr
    for args, says in [((), "usage:"), (("1", "2", "3"), "unknown command '1'; use play or move"),
                       (("move", "4", "4"), "is not legal"), (("play", "--games", "x"), "--games needs a whole"),
                       (("play", "--depth", "3"), "unknown option --depth"), (("move", "zz"), "is not a cell"),
                       (("move", *"0 3 1 4 2".split()), "the game is over"), (("play", "7"), "options only")]:
        refused = _run(path, *args)
        assert refused.returncode == 2 and says in refused.stderr and "usage:" in refused.stderr, (args, refused)


def test_an_openspiel_games_export_runs_on_pyspiel_without_evoplay(tmp_path):
    pytest.importorskip("pyspiel", reason="OpenSpiel games need open_spiel")
    folder = evolved(tmp_path, "ga", "openspiel:tic_tac_toe")
    path = load_recipe("ga").export(folder, "python")
    played = _run(path, "play", "--games", "2", "--nodes", "50")
    assert played.returncode == 0 and "of 2 games" in played.stdout, played.stderr


def test_a_file_games_export_finds_the_game_file_from_its_own_folder(tmp_path):
    folder = evolved(tmp_path, "ga", f"{EXAMPLES / 'nim.py'}:Nim")
    path = load_recipe("ga").export(folder, "python")
    relative = re.search(r"^GAME_FILE = '([^']+)'", path.read_text(), re.M).group(1)
    assert not Path(relative).is_absolute() and (path.parent / relative).resolve() == (EXAMPLES / "nim.py").resolve()
    moved = _run(path, "move", "2", "--nodes", "50", block_evoplay=False)
    assert moved.returncode == 0 and moved.stdout.strip(), moved.stderr


def test_the_check_sees_a_player_that_searches_less(tmp_path):
    """The old export searched a fixed depth where the agent deepened within its budget; the check must see that
    kind of difference."""
    folder = evolved(tmp_path, "gp", "mnk(m=3,n=3,k=3)")
    path = load_recipe("gp").export(folder, "python")
    spec = importlib.util.spec_from_file_location("exported_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game = load_game("mnk(m=3,n=3,k=3)")
    doc = folder.read_json("best.json")
    from evoplay.agents.feature_player import agent_from_program_document

    agent = agent_from_program_document(game, doc, "agent", "agent", ms=0, nodes=300)
    same = side_by_side(game, agent, ModulePlayer(module, 0, 300), "same budget", 150)
    less = side_by_side(game, agent, ModulePlayer(module, 0, 1), "one ply", 150)
    assert same.share == 1.0 and less.share < 1.0 and less.first_difference


def _needs_something_new(self):
    return SOMETHING_NEW_IN_EVOPLAY  # noqa: F821 - what the exported file does not define


def test_the_export_refuses_when_the_players_code_needs_what_the_file_lacks(tmp_path, monkeypatch):
    folder = evolved(tmp_path, "gp", "mnk(m=3,n=3,k=3)")
    monkeypatch.setattr(FeatureAgent, "_needs_something_new", _needs_something_new, raising=False)
    with pytest.raises(SpecError, match="SOMETHING_NEW_IN_EVOPLAY"):
        load_recipe("gp").export(folder, "python")


def test_missing_names_reads_annotations_and_bodies():
    assert missing_names("def f():\n    return g\n") == ["g"]
    assert missing_names("def f(x: Foo) -> int:\n    return x\n") == ["Foo"]  # annotations are evaluated
    assert missing_names("import math\nclass A:\n    k = 1\n    def f(self):\n        return math.pi + len([])\n") == []


def test_the_export_command_checks_and_refuses(tmp_path):
    folder = evolved(tmp_path, "gp", "mnk(m=3,n=3,k=3)")
    runner = CliRunner()
    result = runner.invoke(main, ["export", str(folder.path), "--check", "--lang", "python", "--positions", "40",
                                  "--nodes", "100"])
    assert result.exit_code == 0, result.output
    assert "within 100 nodes a move instead" in result.output
    assert "python, best.py: 40 of 40 moves equal to the agent's (100.0 %)" in result.output
    refused = runner.invoke(main, ["export", str(folder.path), "--check", "--positions", "0"])
    assert refused.exit_code == 2 and "--positions 0" in refused.output


def test_the_player_is_the_documents(tmp_path):
    """What the file records is what document_agent builds: policy, depth, budget, view."""
    folder = evolved(tmp_path, "ga", "kalah(pits=4,seeds=3)", **{"play.ms": 0, "play.nodes": 120})
    path = load_recipe("ga").export(folder, "python")
    spec = importlib.util.spec_from_file_location("exported_document", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    agent = document_agent(load_game("kalah(pits=4,seeds=3)"), folder.read_json("best.json"), "agent")
    player = module.Player(0)
    assert (player.policy, player.depth, player.opponents) == (agent.policy, agent.depth, agent.opponents)
    assert (player.budget.nodes, player.budget.seconds) == (agent.budget.nodes, agent.budget.seconds) == (120, 0.0)
    assert module.FEATURES == agent.view.names()
    assert module.View(module.GAME).scales.tolist() == agent.view.scales.tolist()
