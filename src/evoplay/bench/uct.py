"""uct's simulations per second against OpenSpiel's MCTSBot, in Python and in C++, on the same positions.

``evoplay bench uct`` runs, on the opening and on positions reached by random moves, the same search three ways
(UCT constant 2, one random rollout per leaf, the solver on, no tree kept between moves):

- evoplay's ``uct`` through the game API (on OpenSpiel games through evoplay's adapter, which checks every action);
- OpenSpiel's Python ``MCTSBot`` (open_spiel/python/algorithms/mcts.py) on the bare pyspiel state, or on the
  user's game's own State for ``examples/othello6.py`` (the bot only asks for the pyspiel names that State has);
- OpenSpiel's C++ ``MCTSBot`` on the pyspiel state (OpenSpiel games only: it cannot search a Python game).

Simulations per second are the simulations the search ran (it stops early at a proven root) over the time it took;
the three are timed in alternation, median of rounds, so the ratios hold under the machine's load.
"""
from __future__ import annotations

import os
import statistics
import time
from types import SimpleNamespace

import numpy as np

from evoplay.search.uct import UCT_C  # noqa: F401 - bench.ports reads it here too
from evoplay.bench import BenchResult, Figure, load_note, random_positions, register_benchmark

GAMES = (  # (spec, title, simulations per search, random plies at most to reach the positions)
    ("openspiel:tic_tac_toe", "tic-tac-toe", 2000, 2),
    ("openspiel:connect_four", "connect four", 2000, 12),
    ("examples/othello6.py:Othello", "othello6 (plain Python)", 300, 12),
)


class PyspielView:
    """What OpenSpiel's Python MCTSBot asks of a game (its type and best return), for an evoplay game whose States
    already carry the pyspiel names (current_player, legal_actions, apply_action, clone, returns...)."""

    def __init__(self, game):
        import pyspiel

        self.game = game
        self._type = SimpleNamespace(reward_model=pyspiel.GameType.RewardModel.TERMINAL,
                                     dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL)

    def get_type(self):
        return self._type

    def max_utility(self):
        return self.game.max_utility()


def uct_rate(game, states, simulations: int) -> float:
    """Simulations per second of ``uct`` searching each of ``states``."""
    from evoplay.agents import make_agent

    agent = make_agent(f"uct(simulations={simulations},uct_c={UCT_C})", game)
    done, start = 0, time.perf_counter()
    for i, state in enumerate(states):
        agent.restart(i, state.current_player())
        agent.step(state)
        done += agent.last_root.explore_count
    return done / (time.perf_counter() - start)


def openspiel_python_rate(game, states, simulations: int) -> float:
    """Simulations per second of OpenSpiel's Python MCTSBot on the pyspiel states (or the game's own States)."""
    from open_spiel.python.algorithms import mcts

    wrapped = hasattr(game, "pyspiel_game")
    view = game.pyspiel_game if wrapped else PyspielView(game)
    done, start = 0, time.perf_counter()
    for i, state in enumerate(states):
        rng = np.random.RandomState(i)
        bot = mcts.MCTSBot(view, UCT_C, simulations, mcts.RandomRolloutEvaluator(1, rng), solve=True,
                           random_state=rng)
        done += bot.mcts_search(state.pyspiel_state if wrapped else state).explore_count
    return done / (time.perf_counter() - start)


def openspiel_cpp_rate(game, states, simulations: int) -> float:
    """Simulations per second of OpenSpiel's C++ MCTSBot on the pyspiel states."""
    import pyspiel

    done, start = 0, time.perf_counter()
    for i, state in enumerate(states):
        bot = pyspiel.MCTSBot(game.pyspiel_game, pyspiel.RandomRolloutEvaluator(1, i), UCT_C, simulations, 1000,
                              True, i, False)
        done += bot.mcts_search(state.pyspiel_state).explore_count
    return done / (time.perf_counter() - start)


def rates(spec: str, positions: int, rounds: int, simulations: int, plies: int,
          warm: bool = False) -> dict[str, float]:
    """Median simulations per second of each search on the opening and ``positions - 1`` random positions;
    ``warm``: each search runs once on the opening before the timed rounds (a single round would otherwise time
    a first run's compiling)."""
    from evoplay.bench.anygame import _game_spec
    from evoplay.games import load_game

    game = load_game(_game_spec(spec))
    states = [game.new_initial_state(0)] + random_positions(game, positions - 1, 1, max_moves=plies)
    runs = {"uct": uct_rate, "python": openspiel_python_rate}
    if hasattr(game, "pyspiel_game"):
        runs["c++"] = openspiel_cpp_rate
    measured: dict[str, list[float]] = {name: [] for name in runs}
    for run in runs.values() if warm else ():
        run(game, states[:1], min(simulations, 50))
    for _ in range(rounds):
        for name, run in runs.items():
            measured[name].append(run(game, states, simulations))
    return {name: statistics.median(xs) for name, xs in measured.items()}


@register_benchmark("uct", "uct's simulations/s against OpenSpiel's MCTSBot in Python and in C++ (tic-tac-toe, "
                           "connect four, othello6)")
def bench_uct(quick: bool = False) -> BenchResult:
    res = BenchResult("uct", command="evoplay bench uct")
    rounds, positions = (1, 3) if quick else (3, 8)
    load_before = load_note()
    for spec, title, simulations, plies in GAMES:
        sims = simulations // 4 if quick else simulations
        found = rates(spec, positions, rounds, sims, plies, warm=quick)
        note = f"{positions} positions x {sims} simulations, median of {rounds}"
        res.figures.append(Figure(f"{title}: uct simulations/s", found["uct"], "/s", reference=found["python"],
                                  reference_name="OpenSpiel's Python MCTSBot", note=note))
        if "c++" in found:
            res.figures.append(Figure(f"{title}: uct simulations/s", found["uct"], "/s", reference=found["c++"],
                                      reference_name="OpenSpiel's C++ MCTSBot", note=note))
    res.figures.append(Figure("load average (1 min) at the end", os.getloadavg()[0], "",
                              note=f"at the start: {load_before}"))
    return res
