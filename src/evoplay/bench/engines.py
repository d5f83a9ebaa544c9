"""Engine benchmarks of the foundation: Kalah and 5,5,4 playouts, alpha-beta speed (each Kalah leaf, and the
any-game alpha-beta beside Kalah's own), the parallel round robin."""
from __future__ import annotations

import time

import numpy as np

from evoplay.bench import BenchResult, Figure, load_note, median_time, register_benchmark


def _python_kalah_playouts(board, pits, count, seed):
    from evoplay.games.base import TERMINAL
    from evoplay.games.kalah.game import reference_legal_actions, reference_sow

    rng = np.random.default_rng(seed)
    for _ in range(count):
        b = list(int(x) for x in board)
        p = 0
        while p != TERMINAL:
            legal = reference_legal_actions(b, p, pits)
            p = reference_sow(b, p, legal[int(rng.integers(len(legal)))], pits, True)


def _python_mnk_playouts(m, n, k, count, seed):
    from evoplay.games.base import TERMINAL
    from evoplay.games.mnk.game import reference_play

    rng = np.random.default_rng(seed)
    for _ in range(count):
        b = [0] * (m * n)
        p = 0
        while p != TERMINAL:
            free = [i for i, v in enumerate(b) if v == 0]
            p, _ = reference_play(b, p, free[int(rng.integers(len(free)))], m, n, k)


def _openspiel_anchors(quick: bool):
    """OpenSpiel's mancala from Python, measured here: (random playouts per second, depth-8 alpha-beta seconds).
    None when pyspiel is not installed."""
    try:
        import pyspiel
        from open_spiel.python.algorithms.minimax import alpha_beta_search
    except ImportError:
        return None
    game = pyspiel.load_game("mancala")
    rng = np.random.default_rng(0)

    def playouts(count):
        for _ in range(count):
            s = game.new_initial_state()
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[int(rng.integers(len(legal)))])

    count = 200 if quick else 1000
    rate = count / median_time(lambda: playouts(count), 3)

    def store_difference(state):
        board = state.observation_tensor(0)
        return board[7] - board[0]

    root = game.new_initial_state()
    seconds = median_time(lambda: alpha_beta_search(game, root, store_difference, 8, 0), 3)
    return rate, seconds


def _leaf_figures(res: BenchResult, board, reps: int) -> None:
    """The same alpha-beta kernel with its two other leaves: a GA genome's feature weights and a GP program
    (policy ``kalah_search``), each against the Python reference at a shallower depth."""
    from evoplay import gp
    from evoplay.games.kalah import search as search_kalah

    weights = np.array([3, 1, -2, 4, 2], np.float64)
    values = np.empty(6, np.float64)
    boards = np.empty((11, 14), np.int8)
    nodes = search_kalah.weights_values(board, 0, 9, 6, True, weights, values)[1]
    t = median_time(lambda: search_kalah.weights_values(board, 0, 9, 6, True, weights, values), reps)
    ref_nodes = [0]

    def python_weights():
        ref_nodes[0] = search_kalah.reference_root_values(list(board), 0, 5, 6, True, False, weights)[2]

    tp = median_time(python_weights, 3)
    res.figures.append(Figure("Kalah alpha-beta with the weights leaf, nodes per second (depth 9)", nodes / t, "/s",
                              "", None, ref_nodes[0] / tp, "Python reference (depth 5)"))

    pset = gp.PrimitiveSet("search", n_features=16).add_functions("add", "sub", "if_lt", "value_at", "max")
    pset.add_integers(0, 15)
    program = gp.grow(pset, np.random.default_rng(3), 6, function_probability=0.6)
    row, stack = np.empty(16), np.empty(program.size)
    depth = 6
    args = (program.opcodes, program.args, program.consts, 0, program.size, board, 0, 6, True, depth, boards, row,
            stack)
    search_kalah.program_search(*args)
    t = median_time(lambda: search_kalah.program_search(*args), reps)
    nodes = search_kalah.reference_root_values(list(board), 0, depth, 6, True, False, program=program)[2]

    def python_program():
        ref_nodes[0] = search_kalah.reference_root_values(list(board), 0, 3, 6, True, False, program=program)[2]

    tp = median_time(python_program, 3)
    res.figures.append(Figure(f"Kalah alpha-beta with a GP program leaf, nodes per second (depth {depth})",
                              nodes / t, "/s", "", None, ref_nodes[0] / tp, "Python reference (depth 3)"))


def _any_game_figure(res: BenchResult, reps: int) -> None:
    """The players' alpha-beta for any game with kernels (evoplay.search.minimax_kernel), material leaf, depth 8
    from 30 positions of random Kalah games, against Kalah's own players' search on the same positions (the same
    alpha-beta given Kalah's own leaf, ``Kernels.leaf``: a finished game worth its margin, the root's window not
    opened for ties)."""
    from evoplay.games import load_game
    from evoplay.games.kalah import search as search_kalah
    from evoplay.search.minimax_kernel import SCORE, KernelSearch, make_leaf

    game = load_game("kalah")
    rng = np.random.default_rng(0)
    states = []
    while len(states) < 30:
        state = game.new_initial_state()
        for _ in range(6):
            if not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(int(legal[int(rng.integers(len(legal)))]))
        if not state.is_terminal():
            states.append(state)
    search, leaf = KernelSearch(game), make_leaf(SCORE)
    boards = [(np.asarray(s._board, np.int8), s.current_player()) for s in states]
    values = np.empty(6, np.float64)
    counts = {"any": 0, "own": 0}

    def any_game():
        stats = {}
        for state in states:
            search.search(state, state.current_player(), 8, leaf, stats=stats)
        counts["any"] = stats["nodes"]

    def own():
        counts["own"] = sum(search_kalah.material_values(board, player, 8, 6, True, values)[1]
                            for board, player in boards)

    any_game(), own()  # compile
    t_any, t_own = median_time(any_game, reps, 0.3), median_time(own, reps, 0.3)
    res.figures.append(Figure("any-game alpha-beta on Kalah, nodes per second (material leaf, depth 8, "
                              "30 positions), against Kalah's own", counts["any"] / t_any, "/s", "", None,
                              counts["own"] / t_own, "/s Kalah's own alpha-beta"))


@register_benchmark("engines", "Kalah and 5,5,4 engines and alpha-beta: Numba kernels against the Python reference")
def bench_engines(quick: bool = False) -> BenchResult:
    from evoplay.games.kalah import search as search_kalah
    from evoplay.games import load_game
    from evoplay.games.kalah import game as kalah_mod
    from evoplay.games.mnk import game as mnk_mod

    res = BenchResult("engines", command="evoplay bench engines")
    reps = 3 if quick else 7

    kalah = load_game("kalah")
    board = kalah.initial_board()
    kalah_mod.random_playouts(board, 0, 6, True, 10, 1)  # compile
    n = 20_000 if quick else 100_000
    t = median_time(lambda: kalah_mod.random_playouts(board, 0, 6, True, n, 1), reps)
    py_n = 300 if quick else 1000
    tp = median_time(lambda: _python_kalah_playouts(board, 6, py_n, 1), 3)
    res.figures.append(Figure("Kalah random playouts per second", n / t, "/s", ">= 400,000", n / t >= 400_000,
                              py_n / tp, "Python reference"))

    depth = 10
    values = np.empty(6, np.float64)
    nodes = search_kalah.material_values(board, 0, depth, 6, True, values)[1]
    t = median_time(lambda: search_kalah.material_values(board, 0, depth, 6, True, values), reps)
    ref_nodes = [0]

    def python_search():
        _, _, ref_nodes[0] = search_kalah.reference_root_values(list(board), 0, 6, 6, True, False)

    tp = median_time(python_search, 3)
    res.figures.append(Figure("Kalah alpha-beta nodes per second (depth 10 from the start)", nodes / t, "/s",
                              ">= 20 M", nodes / t >= 20e6, ref_nodes[0] / tp, "Python reference (depth 6)"))

    t = median_time(lambda: search_kalah.material_values(board, 0, 8, 6, True, values), 21)
    tp = median_time(lambda: search_kalah.reference_root_values(list(board), 0, 8, 6, True, False), 3)
    res.figures.append(Figure("Kalah depth-8 move from the initial position", t * 1e3, "ms", "<= 2 ms",
                              t * 1e3 <= 2.0, tp * 1e3, "ms Python reference", higher_is_better=False))

    _leaf_figures(res, board, reps)
    _any_game_figure(res, reps)

    anchors = _openspiel_anchors(quick)
    if anchors is not None:
        os_playouts, os_depth8 = anchors
        kalah_std = load_game("kalah(empty_capture=false)").initial_board()
        n = 20_000 if quick else 100_000
        t = median_time(lambda: kalah_mod.random_playouts(kalah_std, 0, 6, False, n, 1), reps)
        res.figures.append(Figure("standard Kalah random playouts per second, against OpenSpiel mancala",
                                  n / t, "/s", "", None, os_playouts, "/s OpenSpiel from Python"))
        t = median_time(lambda: search_kalah.material_values(kalah_std, 0, 8, 6, False, values), 21)
        res.figures.append(Figure("standard Kalah depth-8 move, against OpenSpiel's Python alpha-beta", t * 1e3, "ms",
                                  "", None, os_depth8 * 1e3, "ms OpenSpiel alpha_beta_search",
                                  higher_is_better=False))

    empty = np.zeros(25, np.int8)
    mnk_mod.random_playouts(empty, 0, 5, 5, 4, 10, 1)
    n = 20_000 if quick else 100_000
    t = median_time(lambda: mnk_mod.random_playouts(empty, 0, 5, 5, 4, n, 1), reps)
    py_n = 300 if quick else 1000
    tp = median_time(lambda: _python_mnk_playouts(5, 5, 4, py_n, 1), 3)
    res.figures.append(Figure("5,5,4 random playouts per second", n / t, "/s", ">= 300,000", n / t >= 300_000,
                              py_n / tp, "Python reference"))
    return res


@register_benchmark("arena", "round robin of 8 alphabeta(depth=4) agents on Kalah: process executor on 2 workers vs serial")
def bench_arena(quick: bool = False) -> BenchResult:
    from evoplay.agents import make_agent
    from evoplay.arena import make_executor, round_robin
    from evoplay.games import load_game

    game = load_game("kalah")
    agents = [make_agent("alphabeta(depth=4,random_ties=true)", game) for _ in range(8)]
    games_per_pair = 2 if quick else 10
    round_robin(game, agents[:2], 1, seed=0)  # compile in this process first (as a run would)

    def serial():
        return round_robin(game, agents, games_per_pair, seed=7)

    serial_times, process_times, cold_times = [], [], []
    reps = 1 if quick else 3
    for _ in range(reps):
        t = time.perf_counter()
        r1 = serial()
        serial_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        with make_executor("process", 2) as ex:
            r2 = round_robin(game, agents, games_per_pair, seed=7, executor=ex)
            cold_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            r3 = round_robin(game, agents, games_per_pair, seed=7, executor=ex)
            process_times.append(time.perf_counter() - t)
        assert r1.records == r2.records == r3.records, "process executor changed the results"
    s, p, c = (float(np.median(x)) for x in (serial_times, process_times, cold_times))
    games = 8 * 7 * games_per_pair
    res = BenchResult("arena", command="evoplay bench arena")
    res.figures.append(Figure(f"round robin, {games} games: process (2 workers, pool running) / serial wall time",
                              p / s, "ratio", "<= 0.6", p / s <= 0.6, note=f"serial {s:.2f} s, process {p:.2f} s"))
    res.figures.append(Figure("the same including the pool's start", c / s, "ratio", "", None,
                              note=f"process with start {c:.2f} s; {load_note()}"))
    return res
