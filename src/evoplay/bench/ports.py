"""``evoplay bench ports``: each port of an OpenSpiel game against OpenSpiel itself, measured in one run.

For every port (evoplay.games.ports) on its default parameters, timed in alternation (median of rounds), in CPU
seconds of the measuring thread (``time.thread_time``: OpenSpiel's C++ runs in the thread that calls it, and on a
shared machine wall time would count the other sessions' work too):

- **random playouts a second**: whole games from the start, every move uniformly random, in one Numba loop over
  the port's kernels (``PortGame.random_playouts``: its ``moves`` and ``apply``) against pyspiel driven from Python
  (clone, legal_actions, apply_action on OpenSpiel's C++ state; the way a Python search uses OpenSpiel). Target:
  20x.
- **uct simulations a second**: evoplay's ``uct`` (on the port's kernels: evoplay.search.uct_kernel) against
  OpenSpiel's C++ ``MCTSBot`` in the same process, the same search (UCT constant 2, one random rollout a leaf, the
  solver on) on the same positions (the opening and positions of random games). Target: 0.8 of MCTSBot's.
- **a 2-ply evolved move**: a ``weights`` player (one weight per feature and free feature, scaled as a GA run
  scales them) searching 2 plies, on the port (its kernels) against the same player on
  ``engine=openspiel`` (OpenSpiel's implementation through its Python API); the moves chosen are the same.
"""
from __future__ import annotations

import os
import random
import statistics
import time

from evoplay.bench import BenchResult, Figure, load_note, random_positions, register_benchmark
from evoplay.bench.generic import alternate
from evoplay.bench.kernel import evaluation_player
from evoplay.bench.uct import UCT_C

CLOCK = time.thread_time  # CPU seconds of this thread

PORTS = (  # (spec, title, simulations per uct search, random plies at most to reach its positions)
    ("openspiel:tic_tac_toe", "tic-tac-toe", 2000, 2),
    ("openspiel:connect_four", "connect four", 2000, 12),
    ("openspiel:breakthrough", "breakthrough 8x8", 2000, 20),
    ("openspiel:hex", "hex 11x11", 2000, 20),
    ("openspiel:clobber", "clobber 5x6", 2000, 8),
    ("openspiel:othello", "othello 8x8", 2000, 20),
    ("openspiel:pentago", "pentago", 2000, 10),
    ("openspiel:dots_and_boxes", "dots and boxes 2x2", 2000, 4),
    ("openspiel:oware", "oware", 2000, 20),
    ("openspiel:mancala", "mancala (Kalah)", 2000, 10),
    ("openspiel:pig", "pig (dice to 100)", 2000, 30),
)


def pyspiel_playout_rate(pyspiel_game, count: int, seed: int = 0) -> float:
    """Random games per second of OpenSpiel's C++ state driven from Python: clone, legal_actions, apply_action (at
    a chance node, chance_outcomes and an outcome drawn with its probability)."""
    rng = random.Random(seed)
    root = pyspiel_game.new_initial_state()
    start = CLOCK()
    for _ in range(count):
        s = root.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
                continue
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    return count / (CLOCK() - start)


def port_playout_rate(port, count: int, seed: int = 0) -> float:
    """Random games per second of the port's own playout loop inside Numba."""
    start = CLOCK()
    port.random_playouts(count, seed)
    return count / (CLOCK() - start)


def mcts_rate(pyspiel_game, theirs: list, simulations: int) -> float:
    """Simulations per second of OpenSpiel's C++ MCTSBot searching each pyspiel state of ``theirs``."""
    import pyspiel

    done, start = 0, CLOCK()
    for i, state in enumerate(theirs):
        bot = pyspiel.MCTSBot(pyspiel_game, pyspiel.RandomRolloutEvaluator(1, i), UCT_C, simulations, 1000, True, i,
                              False)
        done += bot.mcts_search(state).explore_count
    return done / (CLOCK() - start)


def uct_rate(game, states: list, simulations: int) -> float:
    """Simulations per second of evoplay's ``uct`` searching each of ``states`` (on the port's kernels)."""
    from evoplay.agents import make_agent

    return simulation_rate(make_agent(f"uct(simulations={simulations},uct_c={UCT_C})", game), states)


def simulation_rate(agent, states: list) -> float:
    """Simulations per second (CPU time of this thread) of a ``uct`` agent searching each of ``states``."""
    done, start = 0, CLOCK()
    for i, state in enumerate(states):
        agent.restart(i, state.current_player())
        agent.step(state)
        done += agent.last_root.explore_count
    return done / (CLOCK() - start)


def move_seconds(game, positions: list, moves: list) -> float:
    """Mean seconds of one move of the 2-ply evaluation player over ``positions`` (the moves chosen to
    ``moves``)."""
    agent = evaluation_player(game)
    agent.step(positions[0])  # compiled before timing
    moves.clear()
    start = CLOCK()
    for state in positions:
        moves.append(agent.step(state))
    return (CLOCK() - start) / len(positions)


def decisions(game, count: int, seed: int, plies: int) -> list:
    """``random_positions`` where a player decides (a chance node's dice are no decision of a search): the first
    ``count`` of them, the very positions ``random_positions`` gives in a game without chance."""
    return [s for s in random_positions(game, 3 * count, seed, max_moves=plies) if s.current_player() >= 0][:count]


def sized(count: float, seconds: float, rate: float) -> int:
    """How many of something a rate measured once makes last about ``seconds``."""
    return max(int(count), int(rate * seconds))


def port_figures(spec: str, title: str, simulations: int, plies: int, quick: bool) -> list[Figure]:
    """The three figures of one port (compiled before anything is timed)."""
    from evoplay.games import load_game
    from evoplay.games.tools.openspiel import with_engine

    port, own = load_game(with_engine(spec, "port")), load_game(with_engine(spec, "openspiel"))
    rounds = 3 if quick else 5
    seconds = 0.3 if quick else 1.0
    figures = []

    # random playouts: each side sized to run about `seconds` a round
    port.random_playouts(2)  # compiled before timing
    n_port = sized(50, seconds, port_playout_rate(port, 200))
    n_py = sized(5, seconds, pyspiel_playout_rate(port.pyspiel_game, 20))
    k_rate, p_rate = alternate(lambda: port_playout_rate(port, n_port), lambda: pyspiel_playout_rate(
        port.pyspiel_game, n_py), rounds)
    figures.append(Figure(f"{title}: random playouts/s (port's kernels)", k_rate, "/s", ">= 20x pyspiel",
                          k_rate >= 20 * p_rate, p_rate, "pyspiel from Python",
                          note=f"whole games from the start, median of {rounds} alternating rounds, CPU time"))

    # uct against OpenSpiel's C++ MCTSBot on the same positions
    positions = 3 if quick else 8
    sims = simulations // 4 if quick else simulations
    states = [port.new_initial_state(0)] + decisions(port, positions - 1, 1, plies)
    theirs = [s.pyspiel_state for s in states]
    uct_rate(port, states[:1], 50)  # compiled before timing
    ours, cpp = [], []
    for _ in range(rounds):
        ours.append(uct_rate(port, states, sims))
        cpp.append(mcts_rate(port.pyspiel_game, theirs, sims))
    u, c = statistics.median(ours), statistics.median(cpp)
    figures.append(Figure(f"{title}: uct simulations/s (port's kernels)", u, "/s", ">= 0.8x MCTSBot", u >= 0.8 * c,
                          c, "OpenSpiel's C++ MCTSBot, same process",
                          note=f"{positions} positions x {sims} simulations, median of {rounds} alternating rounds, "
                               f"CPU time"))

    # a 2-ply evolved move: the port's kernels against OpenSpiel's Python API
    at = decisions(port, 6 if quick else 20, 5, plies)
    replayed = [_replayed(own, s.history) for s in at]
    port_moves, own_moves = [], []
    k_move, p_move = alternate(lambda: move_seconds(port, at, port_moves),
                               lambda: move_seconds(own, replayed, own_moves), 1 if quick else 3)
    figures.append(Figure(f"{title}: one 2-ply evolved move (weights player)", k_move * 1e3, "ms", "",
                          None, p_move * 1e3, "ms on engine=openspiel (Python API)", higher_is_better=False,
                          note=f"{len(at)} positions, CPU time; same moves: {port_moves == own_moves}"))
    return figures


def _replayed(game, history):
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


@register_benchmark("ports", "each port of an OpenSpiel game against OpenSpiel: random playouts/s against pyspiel "
                             "from Python, uct simulations/s against OpenSpiel's C++ MCTSBot, a 2-ply evolved move "
                             "against the same through OpenSpiel's Python API")
def bench_ports(quick: bool = False) -> BenchResult:
    res = BenchResult("ports", command="evoplay bench ports")
    load_before = load_note()
    for spec, title, simulations, plies in PORTS:
        res.figures.extend(port_figures(spec, title, simulations, plies, quick))
    res.figures.append(Figure("load average (1 min) at the end", os.getloadavg()[0], "",
                              note=f"at the start: {load_before}"))
    return res


__all__ = ["PORTS", "bench_ports", "mcts_rate", "port_figures", "pyspiel_playout_rate", "simulation_rate", "uct_rate"]
