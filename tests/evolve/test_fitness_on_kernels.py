"""The fitness games of a game with kernels run on its kernels (evoplay.games.kernels.KernelState) and score every
candidate exactly as the same games through the game's own State: examples/othello6_kernel.py against
examples/othello6.py, the ga recipe's generation included."""
from pathlib import Path

import numpy as np

from evoplay.agents import make_agent
from evoplay.agents.base import Agent
from evoplay.agents.feature_player import linear_agent
from evoplay.arena.match import play_game
from evoplay.evolve.fitness import FitnessSpec, evaluate_population
from evoplay.games import load_game
from evoplay.games.kernels import KernelState, play_state
from evoplay.recipes import ga

ROOT = Path(__file__).resolve().parents[2]
FAST = f"{ROOT / 'examples' / 'othello6_kernel.py'}:Othello"
PLAIN = f"{ROOT / 'examples' / 'othello6.py'}:Othello"


def _candidates(game):
    rng = np.random.default_rng(4)
    return [linear_agent(game, rng.uniform(-1, 1, 42), "search", 2) for _ in range(4)]


def test_fitness_is_the_same_on_the_kernels_as_through_the_state():
    spec = FitnessSpec(("random", "alphabeta(depth=1,random_ties=true)"), games=2, round_robin=1, scoring="margin")
    fast, plain = load_game(FAST), load_game(PLAIN)
    a = evaluate_population(fast, _candidates(fast), spec, seed=3, generation=0)
    b = evaluate_population(plain, _candidates(plain), spec, seed=3, generation=0)
    assert a.fitness.tolist() == b.fitness.tolist() and a.by_opponent.keys() == b.by_opponent.keys()
    assert all((a.by_opponent[k] == b.by_opponent[k]).all() for k in a.by_opponent)


def test_a_ga_generation_on_the_kernels_logs_what_the_plain_game_logs():
    records = []
    for spec in (FAST, PLAIN):
        evolution = ga.make({"game": spec, "generations": 1, "population": 6})
        _, record = evolution.step(evolution.start(np.random.default_rng(0)), 0, None)
        records.append({k: record[k] for k in ("best", "mean", "worst", "games", "best_wdl", "opponents")})
    assert records[0] == records[1]


class _ReadsTheBoard(Agent):
    """An agent that reads an attribute of the game's own State (as a game-specific player may)."""

    def step(self, state):
        return state.legal[0] if state.legal else state.legal_actions()[0]


def test_games_run_on_the_kernels_only_when_every_agent_reads_the_state_api_alone():
    fast = load_game(FAST)
    random_agent = make_agent("random", fast)
    assert isinstance(play_state(fast.new_initial_state(), [random_agent, random_agent]), KernelState)
    assert not isinstance(play_state(fast.new_initial_state(), [random_agent, _ReadsTheBoard(fast)]), KernelState)
    assert not isinstance(play_state(load_game(PLAIN).new_initial_state(), [random_agent] * 2), KernelState)
    final = play_game(fast, [random_agent, _ReadsTheBoard(fast)], seed=1, on_kernels=True)
    assert not isinstance(final, KernelState) and final.is_terminal()
