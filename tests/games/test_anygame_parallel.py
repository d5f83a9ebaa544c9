"""File games and OpenSpiel games run on every executor (fork, spawn, Ray) with identical results."""
from __future__ import annotations

from pathlib import Path

import pytest

from evoplay.agents import make_agent
from evoplay.arena import make_executor, round_robin
from evoplay.arena.executors import ProcessExecutor
from evoplay.games import load_game

OTHELLO = Path(__file__).resolve().parents[2] / "examples" / "othello6.py"


def _round_robin(spec: str, executor=None, seed: int = 5):
    game = load_game(spec)
    agents = [make_agent(f"random(seed={i})", game) for i in range(3)]
    return round_robin(game, agents, games_per_pair=2, seed=seed, executor=executor).records


@pytest.mark.parametrize("spec", [f"{OTHELLO}:Othello", "openspiel:pig(winscore=15)"])
def test_same_results_serial_fork_and_spawn(spec):
    base = _round_robin(spec)
    assert len(base) == 12 and len({r.returns for r in base}) > 1
    executors = [make_executor("process", 1), ProcessExecutor(2, context="fork"), ProcessExecutor(2, context="spawn")]
    for ex in executors:
        with ex:
            assert _round_robin(spec, ex) == base, ex
    assert _round_robin(spec, seed=6) != base


def test_same_results_on_ray_for_a_file_game():
    pytest.importorskip("ray")
    spec = f"{OTHELLO}:Othello"
    base = _round_robin(spec)
    with make_executor("ray", 2) as ex:
        assert _round_robin(spec, ex) == base
