"""The controllers on any game: rollouts per second of the generic ``rs`` against the game's own random playouts.

``evoplay bench generic`` measures, on positions reached by random play, the depth-10 rollouts per second of
``rs(model=api)`` (the game API path of evoplay.search.rollout) on

- the plain-Python example game ``examples/othello6.py:Othello``, against that game's own random playouts (clone,
  then up to 10 uniformly random legal moves through its State API, nothing else);
- ``openspiel:connect_four``, against OpenSpiel's own random playouts driven from Python on the pyspiel state
  (``clone``, ``legal_actions``, ``apply_action``: the C++ game without evoplay's adapter);
- standard Kalah, against the same controller on its Numba kernels (what a game with kernels gets).

Each pair is timed in alternation in one run (median of rounds), so the ratio holds under the machine's load.
"""
from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import numpy as np

from evoplay.bench import BenchResult, Figure, load_note, random_positions, register_benchmark

DEPTH = 10
EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "othello6.py"


def rs_rate(game, states, rollouts: int, model: str) -> float:
    """Rollouts per second of ``rs(iterations=rollouts,model=...)`` deciding at each of ``states``."""
    from evoplay.agents import make_agent

    agent = make_agent(f"rs(iterations={rollouts},model={model})", game)
    start, done = time.perf_counter(), 0
    for i, state in enumerate(states):
        agent.restart(i, state.current_player())
        agent.step(state)
        done += agent.last_evaluations
    return done / (time.perf_counter() - start)


def api_playout_rate(states, rollouts: int, seed: int = 0, unwrap=lambda state: state) -> float:
    """Depth-10 uniformly random playouts per second through the State API alone (the game's own cost):
    clone, then legal_actions / apply_action, nothing else. ``unwrap`` picks the object played on."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for state in states:
        root = unwrap(state)
        for _ in range(rollouts):
            s = root.clone()
            for _ in range(DEPTH):
                if s.is_terminal():
                    break
                legal = s.legal_actions()
                s.apply_action(legal[int(rng.integers(len(legal)))])
    return len(states) * rollouts / (time.perf_counter() - start)


def pyspiel_playout_rate(states, rollouts: int, seed: int = 0) -> float:
    """Depth-10 uniformly random playouts per second on the wrapped pyspiel states, driven from Python."""
    return api_playout_rate(states, rollouts, seed, unwrap=lambda state: state.pyspiel_state)


def alternate(a, b, rounds: int) -> tuple[float, float]:
    """Medians of ``a()`` and ``b()`` timed in alternation."""
    xs, ys = [], []
    for _ in range(rounds):
        xs.append(a())
        ys.append(b())
    return statistics.median(xs), statistics.median(ys)


@register_benchmark("generic", "the controllers through the game API: generic rs rollouts/s vs the game's own "
                               "random playouts (othello6, connect_four, Kalah)")
def bench_generic(quick: bool = False) -> BenchResult:
    from evoplay.games import load_game

    res = BenchResult("generic", command="evoplay bench generic")
    rounds = 3 if quick else 5
    n_pos = 6 if quick else 20
    rollouts = 50 if quick else 200
    load_before = load_note()

    # (game, title, the game's own playouts, what they are); each pair timed in alternation
    pairs = [("openspiel:connect_four", "openspiel:connect_four", pyspiel_playout_rate,
              "OpenSpiel's random playouts from Python (pyspiel state)")]
    if EXAMPLE.is_file():
        pairs.insert(0, (f"{EXAMPLE}:Othello", "othello6 (plain Python)", api_playout_rate,
                         "the game's own random playouts (State API)"))
    for seed, (spec, title, own_rate, own_name) in enumerate(pairs, start=1 if EXAMPLE.is_file() else 2):
        game = load_game(spec)
        states = random_positions(game, n_pos, seed)
        rs, own = alternate(lambda: rs_rate(game, states, rollouts, "api"),
                            lambda: own_rate(states, rollouts), rounds)
        res.figures.append(Figure(f"{title}: generic rs rollouts/s (depth {DEPTH})", rs, "/s", reference=own,
                                  reference_name=own_name,
                                  note=f"{n_pos} positions x {rollouts} rollouts, median of {rounds}"))

    game = load_game("kalah(empty_capture=false)")
    states = random_positions(game, n_pos, 3)
    api, fast = alternate(lambda: rs_rate(game, states, rollouts, "api"),
                          lambda: rs_rate(game, states, rollouts * 20, "auto"), rounds)
    res.figures.append(Figure("Kalah: generic rs rollouts/s (model=api)", api, "/s", reference=fast,
                              reference_name="the same rs on its Numba kernels (what a game with kernels gets)"))
    res.figures.append(Figure("load average (1 min) at the end", os.getloadavg()[0], "",
                              note=f"at the start: {load_before}"))
    return res
