"""``evoplay bench kernel``: a game's kernels against its plain-Python rules, measured in one run.

examples/othello6_kernel.py is examples/othello6.py (the same Python State) plus Numba kernels of the same rules
(Game.kernels()); every search then runs inside Numba. Timed in alternation, on the same seeds:

- **random playouts**: whole games from the start, every move uniformly random: the kernels in one Numba loop
  (evoplay.search.rollout.random_playouts) against the plain game's State (clone, legal_actions, apply_action);
- **one move of a 2-ply evolved evaluation**: a weight vector over the 42 features and the free features, scaled
  as a GA run scales them, searched 2 plies deep (a ``weights`` player) at positions of random games; the moves
  chosen are the same on both;
- **a generation of ``evolve ga``**: the ga recipe's default config (its 2-ply players against the first rung
  of its ladder), one generation on one core; the fitness records are the same on both.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from evoplay.bench import BenchResult, Figure, load_note, random_positions, register_benchmark
from evoplay.bench.generic import alternate

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
FAST = f"{EXAMPLES / 'othello6_kernel.py'}:Othello"
PLAIN = f"{EXAMPLES / 'othello6.py'}:Othello"


def kernel_playout_rate(game, count: int, seed: int = 0) -> float:
    """Random games per second played by the game's kernels in one Numba loop."""
    from evoplay.games.kernels import kernels_of, specialise

    k = kernels_of(game)
    rollout = specialise("evoplay.search.rollout", k)
    root = k.position(game.new_initial_state(seed))
    scratch = (np.zeros(k.actions, np.int8), np.zeros(k.actions), np.zeros(k.players))
    rollout.random_playouts(k.params, root, 2, seed, np.empty_like(root), scratch)  # compiled before timing
    start = time.perf_counter()
    rollout.random_playouts(k.params, root, count, seed, np.empty_like(root), scratch)
    return count / (time.perf_counter() - start)


def state_playout_rate(game, count: int, seed: int = 0) -> float:
    """Random games per second through the game's State: clone, legal_actions, apply_action."""
    rng = np.random.default_rng(seed)
    root = game.new_initial_state(seed)
    start = time.perf_counter()
    for _ in range(count):
        s = root.clone()
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])
    return count / (time.perf_counter() - start)


def evaluation_player(game):
    """A 2-ply weights player over the game's features and the free ones, scaled from random games."""
    from evoplay.agents.feature_view import FeatureView, measure_scales
    from evoplay.agents.feature_player import linear_agent

    scales = measure_scales(game, True, seed=1)
    weights = np.random.default_rng(2).uniform(-1, 1, len(scales))
    return linear_agent(game, weights, "search", 2, view=FeatureView(game, True, scales))


def move_seconds(game, positions, moves: list) -> float:
    """Mean seconds of one move of the evaluation player over ``positions`` (the moves chosen go to ``moves``)."""
    agent = evaluation_player(game)
    agent.step(positions[0])  # compiled before timing
    moves.clear()
    start = time.perf_counter()
    for state in positions:  # one game's moves: the agent restarts per game, not per move
        moves.append(agent.step(state))
    return (time.perf_counter() - start) / len(positions)


def generation_seconds(spec: str, records: list, warm_start: bool = True) -> float:
    """Seconds of one generation of ``evolve ga`` with its default config on one core (its log record to
    ``records``); without ``warm_start`` the genomes start from zero weights (``genome.start = "zero"``), so the
    generation is its fitness games alone, not also the warm start's seeded games."""
    from evoplay.arena import make_executor
    from evoplay.recipes import ga

    config = {"game": spec, "generations": 1}
    if not warm_start:
        config["genome"] = {"start": "zero"}
    evolution = ga.make(config)
    state = evolution.start(np.random.default_rng(0))
    with make_executor("serial", 1) as executor:
        start = time.perf_counter()
        _, record = evolution.step(state, 0, executor)
        seconds = time.perf_counter() - start
    records.append({k: record[k] for k in ("best", "mean", "worst", "games", "best_wdl")})
    return seconds


@register_benchmark("kernel", "a game's Numba kernels against its plain-Python rules (examples/othello6_kernel.py "
                              "vs examples/othello6.py): random playouts, a 2-ply evolved move, an evolve ga generation")
def bench_kernel(quick: bool = False) -> BenchResult:
    from evoplay.games import load_game

    res = BenchResult("kernel", command="evoplay bench kernel")
    load_before = load_note()
    fast, plain = load_game(FAST), load_game(PLAIN)
    rounds = 3 if quick else 5

    n_fast, n_plain = (2000, 60) if quick else (20000, 300)
    k_rate, p_rate = alternate(lambda: kernel_playout_rate(fast, n_fast), lambda: state_playout_rate(plain, n_plain),
                               rounds)
    res.figures.append(Figure("random playouts per second (whole games from the start)", k_rate, "/s",
                              ">= 30x the plain game", k_rate >= 30 * p_rate, p_rate, "plain Python (State API)",
                              note=f"median of {rounds} alternating rounds"))

    positions = random_positions(plain, 10 if quick else 40, 5)
    fast_positions = [_same_position(fast, s) for s in positions]
    fast_moves, plain_moves = [], []
    k_move, p_move = alternate(lambda: move_seconds(fast, fast_positions, fast_moves),
                               lambda: move_seconds(plain, positions, plain_moves), rounds)
    res.figures.append(Figure("one move of a 2-ply evolved evaluation (weights over 48 scaled features)",
                              k_move * 1e3, "ms", ">= 20x the plain game", p_move >= 20 * k_move, p_move * 1e3,
                              "ms plain Python", higher_is_better=False,
                              note=f"{len(positions)} positions; same moves: {fast_moves == plain_moves}"))

    fast_records, plain_records = [], []
    if quick:
        # The first generation of the default config is mostly its warm start (1000 seeded games, a minute and
        # more of plain Python on either game), too long for a first look: a quick run times the generation's
        # fitness games alone, from zero weights, after one untimed generation has compiled the fast side.
        generation_seconds(FAST, [], warm_start=False)
        k_gen, p_gen = alternate(lambda: generation_seconds(FAST, fast_records, warm_start=False),
                                 lambda: generation_seconds(PLAIN, plain_records, warm_start=False), 1)
        name = "a generation's fitness games of evolve ga (its default config from zero weights: no warm start)"
    else:
        k_gen, p_gen = alternate(lambda: generation_seconds(FAST, fast_records),
                                 lambda: generation_seconds(PLAIN, plain_records), 2)
        name = "one generation of evolve ga (its default config)"
    res.figures.append(Figure(name, k_gen, "s", ">= 10x the plain game", p_gen >= 10 * k_gen, p_gen,
                              "s plain Python", higher_is_better=False,
                              note=f"one core; same fitness records: {fast_records == plain_records}"))
    res.figures.append(Figure("load average (1 min) at the end", _load(), "", note=f"at the start: {load_before}"))
    return res


def _same_position(game, state):
    """``state``'s position as a state of ``game`` (the kernel example has the plain example's State)."""
    copy = state.clone()
    copy.game = game
    return copy


def _load() -> float:
    import os

    return os.getloadavg()[0]
