"""The seed recipes' exports checked against their agents (``evoplay export RUN --check``): short seeded runs of
mancala (the pit rule of seed 003's run 2 and a searching program), mnk (5,5,4 and Kalah genomes) and sevens
(every level), each exported in Python and Lua and playing the agent's moves on 100 % of the positions; their
files' command lines."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.evolve.config import default_config_text, parse_toml
from evoplay.recipes import load_recipe
from evoplay.recipes.export_check import check_export

pytest.importorskip("lupa", reason="the Lua exports are checked through lupa (pip install lupa)")


def finished(tmp_path: Path, recipe: str, config: dict, **options) -> RunFolder:
    folder = RunFolder.create(tmp_path / recipe, recipe, config, options or None)
    run_evolution(load_recipe(recipe).make(config, **options), folder)
    return folder


def all_equal(folder: RunFolder, positions: int = 200) -> list[str]:
    results = check_export(folder, ("python", "lua"), positions, say=lambda line: None)
    lines = [r.line() for r in results]
    assert {r.label.split(",")[0] for r in results} == {"python", "lua"}, lines
    assert all(r.positions == positions and r.equal == positions for r in results), lines
    return lines


def mancala_config(**changes):
    overrides = {"population": 16, "generations": 2, "fitness.minimax_depth": 3, "report.random_programs": 20,
                 "report.heldout_depths": [2], "pool.random_programs": 4, "pool.minimax_depths": [1, 3]}
    overrides.update(changes)
    return load_config("mancala", overrides=overrides, base=parse_toml(default_config_text("mancala", "run2"), "run2"))


@pytest.mark.parametrize("changes", [{}, {"program.policy": "kalah_search", "program.integers": [0, 15]}])
def test_mancala_exports_play_the_programs_moves(tmp_path, changes):
    all_equal(finished(tmp_path, "mancala", mancala_config(**changes)))


@pytest.mark.parametrize("kalah", [False, True])
def test_mnk_exports_play_the_genomes_moves(tmp_path, kalah):
    config = (load_config("mnk", Path(load_recipe("mnk").__file__).with_name("mnk_kalah.toml")) if kalah
              else load_config("mnk"))
    config.update(generations=2, population=4)
    config["baselines"]["games"] = 2
    if not kalah:
        config["baselines"]["final_games"] = 2
    all_equal(finished(tmp_path, "mnk", config), positions=120)


def test_sevens_exports_play_every_levels_cards(tmp_path):
    config = load_config("sevens", overrides={
        "population": 9, "generations": 3, "seed": 4, "fitness.games": 30, "monitor.heuristic_games": 30,
        "levels.generations.easy": 0, "levels.generations.medium": 1, "levels.generations.hard": 2,
        "levels.generations.expert": 3, "levels.candidates": 3, "levels.games": 30})
    lines = all_equal(finished(tmp_path, "sevens", config, levels=True))
    assert sum("level expert" in line for line in lines) == 2  # each level, in each language


def _run(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=300)


def test_the_seed_exports_command_lines_play_and_refuse(tmp_path):
    mancala = finished(tmp_path, "mancala", mancala_config())
    path = load_recipe("mancala").export(mancala, "python")
    played = _run(path, "play", "--games", "4")
    assert played.returncode == 0 and "of 4 games against a random player" in played.stdout, played.stderr
    moved = _run(path, "move", "1", *"4 4 4 4 4 4 0 4 4 4 4 4 4 0".split())
    assert moved.returncode == 0 and moved.stdout.startswith("pit "), moved.stderr
    for args, says in [(("1", "2", "3"), "unknown command '1'"), (("move", "1", "4", "4"), "move takes PLAYER and 14"),
                       (("move", "2", *["4"] * 14), "PLAYER 2"), (("play", "--games"), "--games needs"),
                       (("move", "0", *["0"] * 6, "20", *["4"] * 6, "4"), "the game is over there")]:
        refused = _run(path, *args)
        assert refused.returncode == 2 and says in refused.stderr and "usage:" in refused.stderr, (args, refused)
    config = load_config("sevens", overrides={"population": 6, "generations": 1, "fitness.games": 6,
                                              "monitor.heuristic_games": 6})
    sevens = finished(tmp_path, "sevens", config)
    computer = load_recipe("sevens").export(sevens, "python")
    levels = _run(computer, "levels").stdout.strip().split(", ")
    assert levels and levels[0] == "easy"  # the generations the run reached (0 and 1)
    refused = _run(computer, "choose", levels[0], "play", "[{}]")
    assert refused.returncode == 2 and "candidate 0 lacks the number 'rounds'" in refused.stderr
