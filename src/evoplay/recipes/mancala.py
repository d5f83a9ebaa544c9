"""Seed 003's Mancala GP: programs that pick Kalah pits, evolved against an 8-ply minimax (and, beyond the
seed, against a pool of opponents).

Fitness (seed 003's Koza tableau): the program's score (seeds in its store at the end) moving first plus its
score moving second against the ``depth``-ply minimax (run 1); run 2 takes ``max(1, 100 x that sum - nodes)``.
``fitness.kind = "pool"`` plays instead minimax at several depths, a fixed sample of random programs and the
run's hall of fame (the best program of recent generations), in both seats, and scores 2 x the mean score per
opponent group (so 96 is a clean sweep, as in the seed's sum of two games).

The program reads the board from the mover's side and picks the pit by the rule in ``evoplay.agents.gp``:
floor(value) mod 6, and when that pit is empty the next non-empty pit counter-clockwise.

Speed: a whole GP-vs-minimax game is one Numba kernel. The minimax is deterministic, so its decision is memoised
by (position, player, depth) for the whole run: each worker process keeps its memo between generations, every
task returns the entries it added, and the next generation's tasks carry all of them to every worker (the memo
is a cache: results never depend on it, on the worker count or on the backend). Fitness of a program against
fixed opponents depends on the program only, so duplicates are evaluated once.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from numba import njit, types
from numba.typed import Dict

from evoplay import gp
from evoplay.agents.gp import (
    POLICIES, POLICY_CODES, policy_features, program_choice, program_document, reference_move, reference_pit,
    reference_search,
)
from evoplay.games.kalah.search import reference_root_values, root_values
from evoplay.arena import derive_seed
from evoplay.errors import ConfigError, SpecError
from evoplay.evolve import selection
from evoplay.evolve.bloat import SizeDepthLimit, apply_parsimony
from evoplay.games.base import TERMINAL
from evoplay.games.kalah.game import reference_sow, sow

MAX_DEPTH = 30  # the memo key holds depth * 2 + player in 7 bits

# The seed's two Figure-5 programs, in its notation (run 1: scores 27/25; run 2: 41/25 per the seed).
SEED_RUN1 = (
    "((value at [(if (9) < (value at [(value at [((8) - ((2) - (6)))])]) do (10) else do (value at [(if (3) < (4) do "
    "(value at [(9)]) else do ((4) - ((1) + (value at [(13)]))))]))]) + ((if (value at [((value at [(13)]) + (value "
    "at [(value at [((13) + (3))])]))]) < (((10) - (3)) - ((if (value at [((6) + (value at [(value at [((13) + (3))])"
    "]))]) < (((10) - (3)) - (2)) do ((10) - (6)) else do ((13) - (value at [(value at [(value at [(3)])])]))) - (3)))"
    " do ((10) - (6)) else do ((13) - (value at [(value at [(value at [(3)])])]))) - (3)))"
)
SEED_RUN2 = (
    "(((value at [(value at [(value at [(value at [(value at [(((value at [(value at [(value at [(value at [(value "
    "at [(value at [(7)])])])])])]) - (value at [((0) - (value at [(value at [((value at [(value at [(7)])]) + ((value "
    "at [((0) - (value at [(5)]))]) + ((3) + ((value at [(7)]) + (10)))))])]))])) + (value at [(value at [((value at "
    "[(value at [(value at [(value at [(7)])])])]) + ((value at [(13)]) + ((value at [((0) - (value at [(5)]))]) + "
    "(10))))])]))])])])])]) - (value at [((0) - (value at [(5)]))])) + (value at [(value at [((value at [(value at "
    "[(7)])]) + ((value at [((value at [(7)]) + (10))]) + ((3) + ((value at [((6) + (6))]) + (10)))))])]))"
)

# --------------------------------------------------------------------------------------------------------------
# Kernels: the memoised minimax and whole games.
# --------------------------------------------------------------------------------------------------------------

KEY_TYPE = types.UniTuple(types.int64, 2)


def new_memo():
    """An empty memo: (position key) -> pit chosen by the minimax."""
    return Dict.empty(key_type=KEY_TYPE, value_type=types.int64)


@njit(cache=True, inline="always")
def position_key(board, player, depth):
    size = board.shape[0]
    half = size // 2
    k1 = np.int64(depth * 2 + player)
    for i in range(half):
        k1 = k1 * 128 + board[i]
    k2 = np.int64(0)
    for i in range(half, size):
        k2 = k2 * 128 + board[i]
    return (k1, k2)


@njit(cache=True)
def minimax_pit(board, player, depth, pits, empty_capture, memo, log, log_n, stats, values, boards):
    """The ``depth``-ply minimax's pit (first best; the alpha-beta kernel gives the same move as plain minimax),
    looked up in ``memo`` or searched and added. Every decision is appended to ``log`` (key, pit, 1 if searched
    here): the searched rows are shared with the other workers, all of them count the generation's distinct
    positions. ``log_n`` counts past the log's end, so an overflow is seen. stats: hits, searches."""
    key = position_key(board, player, depth)
    if key in memo:
        stats[0] += 1
        pit = memo[key]
        searched = 0
    else:
        stats[1] += 1
        pit, nodes = root_values(board, player, depth, pits, empty_capture, False, values, boards, None)
        memo[key] = pit
        searched = 1
    n = log_n[0]
    if n < log.shape[0]:
        log[n, 0] = key[0]
        log[n, 1] = key[1]
        log[n, 2] = pit
        log[n, 3] = searched
    log_n[0] = n + 1
    return pit


@njit(cache=True)
def play_vs_minimax(policy, search_depth, opcodes, args, consts, starts, ends, programs, seats, depths, board0, pits,
                    empty_capture, memo, log, log_n, stats, out):
    """Game g: program ``programs[g]`` of the pool in seat ``seats[g]`` against the ``depths[g]``-ply minimax.
    ``out[g]`` = (program's store, minimax's store) at the end. ``policy``: a code of ``agents.gp.POLICY_CODES``."""
    size = 2 * pits + 2
    work = np.empty(size, np.int8)
    scratch = np.empty(size, np.int8)
    tree = np.empty((search_depth + 1, size), np.int8)
    row = np.empty(size + 2, np.float64)
    longest = 1
    for k in range(starts.shape[0]):
        if ends[k] - starts[k] > longest:
            longest = ends[k] - starts[k]
    stack = np.empty(longest, np.float64)
    values = np.empty(pits, np.int64)
    deepest = 1
    for g in range(depths.shape[0]):
        if depths[g] > deepest:
            deepest = depths[g]
    boards = np.empty((deepest + 2, size), np.int8)
    for g in range(programs.shape[0]):
        k = programs[g]
        seat = seats[g]
        for i in range(size):
            work[i] = board0[i]
        # Typed int64 from the start: a literal 0 would compile program_choice and minimax_pit a second time, for
        # Literal[int](0), and a first run would pay for both.
        player = np.int64(0)
        while player != TERMINAL:
            if player == seat:
                pit = program_choice(policy, opcodes, args, consts, starts[k], ends[k], work, player, pits,
                                     empty_capture, row, stack, scratch, search_depth, tree)
            else:
                pit = minimax_pit(work, player, depths[g], pits, empty_capture, memo, log, log_n, stats, values,
                                  boards)
            player = sow(work, player, pit, pits, empty_capture)
        own = pits if seat == 0 else 2 * pits + 1
        opp = 2 * pits + 1 if seat == 0 else pits
        out[g, 0] = work[own]
        out[g, 1] = work[opp]


@njit(cache=True)
def play_programs(policy, search_depth, opcodes, args, consts, starts, ends, first, second, board0, pits,
                  empty_capture, out):
    """Game g: program ``first[g]`` (seat 0) against program ``second[g]`` (seat 1) of one pool;
    ``out[g]`` = (seat 0's store, seat 1's store)."""
    size = 2 * pits + 2
    work = np.empty(size, np.int8)
    scratch = np.empty(size, np.int8)
    tree = np.empty((search_depth + 1, size), np.int8)
    row = np.empty(size + 2, np.float64)
    longest = 1
    for k in range(starts.shape[0]):
        if ends[k] - starts[k] > longest:
            longest = ends[k] - starts[k]
    stack = np.empty(longest, np.float64)
    for g in range(first.shape[0]):
        for i in range(size):
            work[i] = board0[i]
        player = np.int64(0)  # not a literal: see play_vs_minimax
        while player != TERMINAL:
            k = first[g] if player == 0 else second[g]
            pit = program_choice(policy, opcodes, args, consts, starts[k], ends[k], work, player, pits,
                                 empty_capture, row, stack, scratch, search_depth, tree)
            player = sow(work, player, pit, pits, empty_capture)
        out[g, 0] = work[pits]
        out[g, 1] = work[2 * pits + 1]


@njit(cache=True)
def merge_log(memo, entries, count):
    for i in range(count):
        memo[(entries[i, 0], entries[i, 1])] = entries[i, 2]


# --------------------------------------------------------------------------------------------------------------
# The same games in plain Python (the reference the kernels are tested against, and the DEAP-style baseline).
# --------------------------------------------------------------------------------------------------------------


def reference_vs_minimax(program, seat: int, depth: int, pits: int = 6, seeds: int = 4, empty_capture: bool = True,
                         choose=None, policy: str = "kalah_pit", search_depth: int = 1) -> tuple[int, int]:
    """(program's store, minimax's store) of one game in pure Python. ``choose(view)`` may replace the program
    (a compiled Python function of the mover's view, as a DEAP user would write)."""
    board = ([seeds] * pits + [0]) * 2
    player = 0
    while player != TERMINAL:
        if player == seat:
            if choose is None:
                pit = _reference_choice(policy, program, board, player, pits, empty_capture, search_depth)
            else:
                view = board if player == 0 else board[pits + 1:] + board[: pits + 1]
                pit = choose(view)
        else:
            _, pit, _ = reference_root_values(board, player, depth, pits, empty_capture, False)
        player = reference_sow(board, player, pit, pits, empty_capture)
    own, opp = (pits, 2 * pits + 1) if seat == 0 else (2 * pits + 1, pits)
    return board[own], board[opp]


def _reference_choice(policy, program, board, player, pits, empty_capture, search_depth=1):
    if policy == "kalah_pit":
        return reference_pit(program, board, player, pits)
    if policy == "kalah_move":
        return reference_move(program, board, player, pits, empty_capture)
    return reference_search(program, board, player, pits, empty_capture, search_depth)


def reference_programs(a, b, pits: int = 6, seeds: int = 4, empty_capture: bool = True,
                       policy: str = "kalah_pit", search_depth: int = 1) -> tuple[int, int]:
    board = ([seeds] * pits + [0]) * 2
    player = 0
    while player != TERMINAL:
        pit = _reference_choice(policy, a if player == 0 else b, board, player, pits, empty_capture, search_depth)
        player = reference_sow(board, player, pit, pits, empty_capture)
    return board[pits], board[2 * pits + 1]


# --------------------------------------------------------------------------------------------------------------
# Tasks for the executor (module-level so worker processes can run them).
# --------------------------------------------------------------------------------------------------------------

_MEMOS: dict = {}


def process_memo(pits: int, empty_capture: bool):
    """This process's memo for a board shape and capture rule (kept for the process's lifetime)."""
    key = (pits, bool(empty_capture))
    if key not in _MEMOS:
        _MEMOS[key] = new_memo()
    return _MEMOS[key]


def minimax_task(task: dict) -> dict:
    """Play a batch of program-vs-minimax games; merges the shared memo entries first, returns the new ones."""
    memo = process_memo(task["pits"], task["empty_capture"])
    shared = task.get("shared")
    if shared is not None and len(shared):
        merge_log(memo, shared, len(shared))
    n = len(task["programs"])
    out = np.zeros((n, 2), np.int64)
    seeds = int(task["board"][: task["pits"]].sum())
    # Room for every minimax decision of the batch (a game has far fewer than this many moves).
    log = np.empty((n * max(512, 8 * task["pits"] * seeds), 4), np.int64)
    log_n = np.zeros(1, np.int64)
    stats = np.zeros(2, np.int64)
    ops, args, consts, starts, ends = task["pool"]
    play_vs_minimax(task["policy"], task["search_depth"], ops, args, consts, starts, ends, task["programs"],
                    task["seats"], task["depths"],
                    task["board"], task["pits"], task["empty_capture"], memo, log, log_n, stats, out)
    if log_n[0] > len(log):
        raise RuntimeError(f"the minimax made {log_n[0]} decisions in {n} games, more than its log holds "
                           f"({len(log)}); raise the log's size in minimax_task")
    decided = log[: log_n[0]]
    return {"out": out, "log": decided[decided[:, 3] == 1, :3], "decided": decided[:, :2],
            "hits": int(stats[0]), "searches": int(stats[1])}


def programs_task(task: dict) -> np.ndarray:
    n = len(task["first"])
    out = np.zeros((n, 2), np.int64)
    ops, args, consts, starts, ends = task["pool"]
    play_programs(task["policy"], task["search_depth"], ops, args, consts, starts, ends, task["first"],
                  task["second"], task["board"],
                  task["pits"],
                  task["empty_capture"], out)
    return out


def _distinct_rows(rows: np.ndarray) -> int:
    """How many different (k1, k2) rows ``rows`` holds (a sort; 4x faster than np.unique(axis=0))."""
    if len(rows) == 0:
        return 0
    s = rows[np.lexsort((rows[:, 1], rows[:, 0]))]
    return 1 + int(np.count_nonzero((s[1:] != s[:-1]).any(axis=1)))


class Arena:
    """Plays batches of games on an executor, keeping and sharing the minimax memo."""

    def __init__(self, pits: int, seeds: int, empty_capture: bool, chunk_games: int = 64, policy: str = "kalah_pit",
                 search_depth: int = 1):
        if policy not in POLICIES:
            raise ConfigError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
        self.policy = POLICY_CODES[policy]
        self.search_depth = int(search_depth)
        self.pits = pits
        self.seeds = seeds
        self.empty_capture = empty_capture
        self.board = np.array(([seeds] * pits + [0]) * 2, dtype=np.int8)
        self.chunk_games = chunk_games
        self.shared = np.zeros((0, 3), np.int64)  # entries found last time, sent to every worker next time
        self.hits = 0  # decisions this process's and the workers' memos answered (depends on their history)
        self.searches = 0
        self.decisions = 0  # minimax decisions in the games played
        self.distinct = 0  # distinct positions among them, per call: searches a memo empty at the start would make

    def vs_minimax(self, programs: list, program_index, seats, depths, executor) -> np.ndarray:
        """(program's store, minimax's store) for each game (program_index[g] in seat seats[g])."""
        program_index = np.asarray(program_index, np.int64)
        seats = np.asarray(seats, np.int64)
        depths = np.asarray(depths, np.int64)
        n = len(program_index)
        if n == 0:
            return np.zeros((0, 2), np.int64)
        chunks = _chunks(n, self.chunk_games, getattr(executor, "workers", 1))
        tasks = []
        for a, b in chunks:
            pool, (local,) = _subpool(programs, program_index[a:b])
            tasks.append(dict(pool=pool, programs=local, seats=seats[a:b], depths=depths[a:b], board=self.board,
                              policy=self.policy, search_depth=self.search_depth, pits=self.pits,
                              empty_capture=self.empty_capture, shared=self.shared))
        if getattr(executor, "needs_warmup", False):
            # Compile here before the pool starts: forked workers inherit the code (Ray's load the cache this
            # writes), so a first run compiles the kernels once instead of once in every worker at the same time.
            first = tasks[0]
            minimax_task(dict(first, programs=first["programs"][:0], seats=first["seats"][:0],
                              depths=first["depths"][:0], shared=None))
            merge_log(new_memo(), np.zeros((0, 3), np.int64), 0)
        results = executor.map(minimax_task, tasks)
        memo = process_memo(self.pits, self.empty_capture)
        logs = [r["log"] for r in results if len(r["log"])]
        self.shared = np.concatenate(logs) if logs else np.zeros((0, 3), np.int64)
        merge_log(memo, self.shared, len(self.shared))
        self.hits += sum(r["hits"] for r in results)
        self.searches += sum(r["searches"] for r in results)
        # What the run logs: counts that depend only on the games played, not on which worker's memo had what.
        decided = np.concatenate([r["decided"] for r in results])
        self.decisions += len(decided)
        self.distinct += _distinct_rows(decided)
        return np.concatenate([r["out"] for r in results])

    def programs(self, programs: list, first, second, executor) -> np.ndarray:
        """(seat 0's store, seat 1's store) for programs[first[g]] against programs[second[g]]."""
        first = np.asarray(first, np.int64)
        second = np.asarray(second, np.int64)
        n = len(first)
        if n == 0:
            return np.zeros((0, 2), np.int64)
        chunks = _chunks(n, 4000, getattr(executor, "workers", 1))
        tasks = []
        for a, b in chunks:
            pool, (f, s) = _subpool(programs, first[a:b], second[a:b])
            tasks.append(dict(pool=pool, first=f, second=s, board=self.board, pits=self.pits, policy=self.policy,
                              search_depth=self.search_depth, empty_capture=self.empty_capture))
        return np.concatenate(executor.map(programs_task, tasks))

    def __getstate__(self):
        d = dict(self.__dict__)
        d["shared"] = np.zeros((0, 3), np.int64)
        return d


def _subpool(programs: list, *indices: np.ndarray):
    """Pack only the programs a task needs (so a task of a bloated population stays small) and renumber the
    games' program indices into that pool."""
    used, inverse = np.unique(np.concatenate(indices), return_inverse=True)
    pool = gp.pack([programs[int(i)] for i in used])
    out, start = [], 0
    for idx in indices:
        out.append(inverse[start:start + len(idx)].astype(np.int64))
        start += len(idx)
    return pool, out


def _chunks(n: int, size: int, workers: int) -> list[tuple[int, int]]:
    count = max(1, min(-(-n // size) if size else 1, n))
    count = max(count, min(n, workers))
    bounds = np.linspace(0, n, count + 1).astype(int)
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


# --------------------------------------------------------------------------------------------------------------
# Configuration.
# --------------------------------------------------------------------------------------------------------------

SELECTIONS = ("roulette", "tournament")
FITNESS_KINDS = ("minimax", "pool")
INIT_METHODS = ("grow", "full", "ramped")


def _check(config: dict) -> None:
    def need(ok, message):
        if not ok:
            raise ConfigError(message)

    need(config["population"] >= 2, f"population = {config['population']}: use at least 2")
    need(config["generations"] >= 1, f"generations = {config['generations']}: use at least 1")
    p = config["program"]
    need(set(p["functions"]) <= set(gp.FUNCTIONS),
         f"program.functions = {p['functions']}: known functions are {', '.join(gp.FUNCTIONS)}")
    need(len(p["integers"]) == 2 and p["integers"][0] <= p["integers"][1],
         f"program.integers = {p['integers']}: give [low, high], e.g. [0, 13]")
    need(p["init_method"] in INIT_METHODS,
         f"program.init_method = {p['init_method']!r}; use one of {', '.join(INIT_METHODS)}")
    need(0 <= p["init_min_depth"] <= p["init_max_depth"] <= 64,
         "program.init_min_depth <= program.init_max_depth <= 64 is required")
    need(0.0 <= p["init_function_probability"] <= 1.0,
         "program.init_function_probability must be in [0, 1] (0 = functions' share of all primitives)")
    need(p["policy"] in POLICIES, f"program.policy = {p['policy']!r}; use one of {', '.join(POLICIES)}")
    need(1 <= p["search_depth"] <= 12, f"program.search_depth = {p['search_depth']}: use 1..12")
    need(p["max_size"] >= 0 and p["max_depth"] >= 0, "program.max_size and max_depth must be >= 0 (0: unlimited)")
    b = config["breeding"]
    need(b["selection"] in SELECTIONS,
         f"breeding.selection = {b['selection']!r}; use one of {', '.join(SELECTIONS)}")
    need(0 <= b["crossover"] <= 1 and 0 <= b["mutation"] <= 1, "breeding.crossover and mutation are probabilities")
    need(0 <= b["elites"] < config["population"], "breeding.elites must be in 0..population-1")
    need(b["tournament_size"] >= 1, "breeding.tournament_size must be >= 1")
    need(b["mutation_max_depth"] >= 0, "breeding.mutation_max_depth must be >= 0")
    f = config["fitness"]
    need(f["kind"] in FITNESS_KINDS, f"fitness.kind = {f['kind']!r}; use one of {', '.join(FITNESS_KINDS)}")
    need(1 <= f["minimax_depth"] <= MAX_DEPTH, f"fitness.minimax_depth must be in 1..{MAX_DEPTH}")
    need(f["parsimony"] in ("none", "seed003"), f"fitness.parsimony = {f['parsimony']!r}; use 'none' or 'seed003'")
    pool = config["pool"]
    need(all(1 <= d <= MAX_DEPTH for d in pool["minimax_depths"]), f"pool.minimax_depths must be in 1..{MAX_DEPTH}")
    need(pool["random_programs"] >= 0 and pool["hall_of_fame"] >= 0, "pool sizes must be >= 0")
    need(min(pool["minimax_weight"], pool["random_weight"], pool["hall_of_fame_weight"],
             pool["second_seat_weight"]) >= 0,
         "pool weights must be >= 0")
    r = config["report"]
    need(r["random_programs"] >= 1, "report.random_programs must be >= 1")
    need(all(1 <= d <= MAX_DEPTH for d in r["heldout_depths"]), f"report.heldout_depths must be in 1..{MAX_DEPTH}")


def _game(config: dict):
    from evoplay.games import load_game
    from evoplay.games.kalah.game import KalahGame

    try:
        game = load_game(config["game"])
    except SpecError as err:
        raise ConfigError(f"game = {config['game']!r}: {err}") from None
    if not isinstance(game, KalahGame):
        raise ConfigError(f"game = {config['game']!r}: the mancala recipe plays kalah(...)")
    if game.pits > 6 or 2 * game.pits * game.seeds > 127:
        raise ConfigError(f"game = {config['game']!r}: the memo key fits kalah with pits <= 6")
    return game


def primitive_set(config: dict, n_features: int) -> gp.PrimitiveSet:
    p = config["program"]
    pset = gp.PrimitiveSet("mancala", n_features=n_features)
    try:
        pset.add_functions(*p["functions"])
        pset.add_integers(int(p["integers"][0]), int(p["integers"][1]))
    except SpecError as err:
        raise ConfigError(f"[program]: {err}") from None
    return pset.validate()


def random_programs(pset, config: dict, n: int, seed: int) -> list:
    """``n`` random programs made like the initial population (the seed's generalisation opponents)."""
    p = config["program"]
    rng = np.random.default_rng(seed)
    return gp.population(pset, rng, n, p["init_method"], p["init_min_depth"], p["init_max_depth"],
                         p["init_function_probability"] or None)


# --------------------------------------------------------------------------------------------------------------
# The evolution.
# --------------------------------------------------------------------------------------------------------------


class MancalaGP:
    """Seed 003's generational GP (see the module docstring); ``start``/``step``/``finish`` for run_evolution."""

    def __init__(self, config: dict):
        _check(config)
        self.config = config
        self.game = _game(config)
        self.pits = self.game.pits
        self.policy = config["program"]["policy"]
        self.pset = primitive_set(config, policy_features(self.policy, self.pits))
        self.generations = int(config["generations"])
        self.population_size = int(config["population"])
        p = config["program"]
        self.limit = SizeDepthLimit(p["max_size"], p["max_depth"])
        self.search_depth = int(config["program"]["search_depth"])
        self.arena = Arena(self.pits, self.game.seeds, self.game.empty_capture, policy=self.policy,
                           search_depth=self.search_depth)
        self.executor = None  # the run's executor, remembered by step() for finish()
        # depth -> program -> its scores against that minimax (deterministic, so a pure cache)
        self._cache: dict[int, dict[bytes, tuple[int, int]]] = {}
        seed = int(config.get("seed", 0))
        pool = config["pool"]
        self.pool_randoms = (random_programs(self.pset, config, pool["random_programs"], derive_seed(seed, 31))
                             if config["fitness"]["kind"] == "pool" else [])

    # -- evaluation ---------------------------------------------------------------------------------------------

    def scores_vs_minimax(self, programs, depth: int, executor, use_cache: bool = True) -> np.ndarray:
        """(n, 2): each program's score moving first and moving second against the ``depth``-ply minimax."""
        out = np.zeros((len(programs), 2), np.int64)
        todo: dict[bytes, int] = {}
        unique = []
        cache = self._cache.setdefault(depth, {}) if use_cache else {}
        for i, prog in enumerate(programs):
            k = prog.key()
            if k in cache:
                out[i] = cache[k]
            elif k not in todo:
                todo[k] = len(unique)
                unique.append(prog)
        if unique:
            m = len(unique)
            res = self.arena.vs_minimax(unique, np.repeat(np.arange(m), 2), np.tile([0, 1], m),
                                        np.full(2 * m, depth), executor)
            scores = res[:, 0].reshape(m, 2)
            for k, j in todo.items():
                cache[k] = (int(scores[j, 0]), int(scores[j, 1]))
            for i, prog in enumerate(programs):
                j = todo.get(prog.key())
                if j is not None:
                    out[i] = scores[j]
        return out

    def pool_scores(self, programs, hall, executor) -> tuple[np.ndarray, np.ndarray, int]:
        """Pool fitness before parsimony: 2 x the weighted mean score per opponent group; also the scores
        against the training minimax (for the log) and the number of games played."""
        pool = self.config["pool"]
        n = len(programs)
        groups = []
        games = 0
        train = self.scores_vs_minimax(programs, self.config["fitness"]["minimax_depth"], executor)
        minimax_means = []
        for d in pool["minimax_depths"]:
            s = train if d == self.config["fitness"]["minimax_depth"] else self.scores_vs_minimax(programs, d, executor)
            minimax_means.append(self._seats(s[:, 0], s[:, 1]))
            games += 2 * n
        if minimax_means and pool["minimax_weight"] > 0:
            groups.append((pool["minimax_weight"], np.mean(minimax_means, axis=0)))
        for weight, opponents in ((pool["random_weight"], self.pool_randoms), (pool["hall_of_fame_weight"], hall)):
            if weight <= 0 or not opponents:
                continue
            means = self.mean_scores_vs_programs(programs, opponents, executor)
            games += 2 * n * len(opponents)
            groups.append((weight, means))
        total = sum(w for w, _ in groups) or 1.0
        fitness = 2.0 * sum(w * m for w, m in groups) / total
        return fitness, train, games

    def mean_scores_vs_programs(self, programs, opponents, executor) -> np.ndarray:
        """Each program's mean score over games against every opponent program, in both seats."""
        n, m = len(programs), len(opponents)
        everyone = list(programs) + list(opponents)
        prog = np.repeat(np.arange(n), m)
        opp = n + np.tile(np.arange(m), n)
        res = self.arena.programs(everyone, np.concatenate([prog, opp]), np.concatenate([opp, prog]), executor)
        first = res[: n * m, 0].reshape(n, m)
        second = res[n * m:, 1].reshape(n, m)
        return self._seats(first.mean(axis=1), second.mean(axis=1))

    def _seats(self, first, second):
        """The pool's mean of a score moving first and one moving second (``pool.second_seat_weight``)."""
        w = self.config["pool"]["second_seat_weight"]
        return (first + w * second) / (1.0 + w)

    def evaluate(self, programs, hall, executor) -> tuple[np.ndarray, np.ndarray, int]:
        """(fitness, scores vs the training minimax (n, 2), games played)."""
        f = self.config["fitness"]
        sizes = np.array([p.size for p in programs])
        if f["kind"] == "minimax":
            before = len(self._cache.get(f["minimax_depth"], ()))
            scores = self.scores_vs_minimax(programs, f["minimax_depth"], executor)
            raw = scores.sum(axis=1).astype(np.float64)
            games = 2 * (len(self._cache[f["minimax_depth"]]) - before)
        else:
            raw, scores, games = self.pool_scores(programs, hall, executor)
        return apply_parsimony(f["parsimony"], raw, sizes), scores, games

    # -- the loop -----------------------------------------------------------------------------------------------

    def start(self, rng: np.random.Generator) -> dict:
        p = self.config["program"]
        pop = gp.population(self.pset, rng, self.population_size, p["init_method"], p["init_min_depth"],
                            p["init_max_depth"], p["init_function_probability"] or None)
        return {"rng": rng, "population": pop, "hall_of_fame": [], "best": None, "history": []}

    def select(self, fitness, k, rng):
        b = self.config["breeding"]
        if b["selection"] == "roulette":
            return selection.roulette(fitness, k, rng)
        return selection.tournament(fitness, k, b["tournament_size"], rng)

    def step(self, state: dict, generation: int, executor) -> tuple[dict, dict]:
        self.executor = executor  # finish() plays the final tables on it too
        t0 = time.perf_counter()
        self._restore_cache(state)
        decisions0, distinct0 = self.arena.decisions, self.arena.distinct
        pop = state["population"]
        fitness, scores, games = self.evaluate(pop, state["hall_of_fame"], executor)
        sizes = np.array([p.size for p in pop])
        best = int(np.argmax(fitness))
        best_program = pop[best]
        state["best"] = {"program": best_program, "fitness": float(fitness[best]),
                         "first": int(scores[best, 0]), "second": int(scores[best, 1]), "generation": generation}
        state["history"].append({k: v for k, v in state["best"].items() if k != "program"}
                                | {"size": best_program.size})
        hof = self.config["pool"]["hall_of_fame"]
        if hof and all(best_program != h for h in state["hall_of_fame"]):
            state["hall_of_fame"] = (state["hall_of_fame"] + [best_program])[-hof:]
        record = {
            "best": float(fitness[best]), "mean": float(fitness.mean()), "worst": float(fitness.min()),
            "median": float(np.median(fitness)), "std": float(fitness.std()),
            "best_first": int(scores[best, 0]), "best_second": int(scores[best, 1]),
            "best_score": int(scores[best].sum()), "mean_score": float(scores.sum(axis=1).mean()),
            "best_size": int(best_program.size), "mean_size": float(sizes.mean()), "max_size": int(sizes.max()),
            "evaluations": int(games), "unique": len({p.key() for p in pop}),
            "memo_hits": (self.arena.decisions - decisions0) - (self.arena.distinct - distinct0),
            "searches": self.arena.distinct - distinct0,
            "eval_seconds": round(time.perf_counter() - t0, 4),
        }
        if generation < self.generations - 1:
            b = self.config["breeding"]
            state["population"] = gp.koza_breed(
                pop, fitness, self.pset, state["rng"], self.select, b["crossover"], b["mutation"],
                b["mutation_max_depth"], b["elites"], b["mutation_keeps_node"],
                self.limit.accepts if self.limit.active else None,
            )
        state["score_cache"] = self._encode_cache()
        return state, record

    # -- what a checkpoint keeps beyond the population: the scores cache, so a resumed run plays (and counts)
    #    exactly the games the uninterrupted one plays

    def _encode_cache(self) -> dict:
        out = {}
        for depth, cache in self._cache.items():
            keys = list(cache)
            out[str(depth)] = {
                "keys": np.frombuffer(b"".join(keys), np.uint8).copy(),
                "ends": np.cumsum([len(k) for k in keys], dtype=np.int64),
                "scores": np.array([cache[k] for k in keys], np.int64).reshape(len(keys), 2),
            }
        return out

    def _restore_cache(self, state: dict) -> None:
        saved = state.get("score_cache")
        if saved is None or self._cache:
            return
        for depth, table in saved.items():
            raw = table["keys"].tobytes()
            starts = np.concatenate([[0], table["ends"][:-1]]).astype(np.int64)
            self._cache[int(depth)] = {raw[a:b]: (int(s[0]), int(s[1]))
                                       for a, b, s in zip(starts, table["ends"], table["scores"])}

    def finish(self, state: dict, folder) -> None:
        write_results(self, state, folder)


def make(config: dict, **options) -> MancalaGP:
    """The evolution for a config; keys the config lacks (a run folder from an older evoplay) take the defaults."""
    from evoplay.evolve.config import default_config_text, merge, parse_toml

    if options:
        raise ConfigError(f"the mancala recipe takes no options ({', '.join(options)} given)")
    defaults = parse_toml(default_config_text("mancala"), "the mancala default config")
    return MancalaGP(merge(defaults, config, "the run's config"))


# --------------------------------------------------------------------------------------------------------------
# Results: best.json, exports, plots, the generalisation and held-out tables.
# --------------------------------------------------------------------------------------------------------------


def generalisation(evo: MancalaGP, players: dict, executor=None) -> dict:
    """Seed 003's Figure 10: each player (the minimax, or a program) against the same random programs, mean
    scores moving first and second; also wins/draws/losses."""
    from evoplay.arena.executors import SerialExecutor

    executor = executor or SerialExecutor()
    cfg = evo.config
    n = cfg["report"]["random_programs"]
    opponents = random_programs(evo.pset, cfg, n, derive_seed(int(cfg.get("seed", 0)), 1000))
    table = {}
    for name, player in players.items():
        if player == "minimax":
            depth = cfg["fitness"]["minimax_depth"]
            # The minimax in a seat against each random program: a program-vs-minimax game seen the other way.
            res = evo.arena.vs_minimax(opponents, np.concatenate([np.arange(n), np.arange(n)]),
                                       np.concatenate([np.ones(n, np.int64), np.zeros(n, np.int64)]),
                                       np.full(2 * n, depth), executor)
            first_own, first_opp = res[:n, 1], res[:n, 0]  # opponent program sat second: minimax moved first
            second_own, second_opp = res[n:, 1], res[n:, 0]
        else:
            everyone = [player] + opponents
            idx = np.arange(1, n + 1)
            res = evo.arena.programs(everyone, np.concatenate([np.zeros(n, np.int64), idx]),
                                     np.concatenate([idx, np.zeros(n, np.int64)]), executor)
            first_own, first_opp = res[:n, 0], res[:n, 1]
            second_own, second_opp = res[n:, 1], res[n:, 0]
        table[name] = _summary(first_own, first_opp, second_own, second_opp)
    return {"random_programs": n, "seed": derive_seed(int(cfg.get("seed", 0)), 1000), "players": table}


def heldout(evo: MancalaGP, program, executor=None) -> dict:
    """The program against opponents it never trained on: alpha-beta at the report's depths (one game per seat;
    both are deterministic) and random programs of another seed."""
    from evoplay.arena.executors import SerialExecutor

    executor = executor or SerialExecutor()
    cfg = evo.config
    rows = {}
    for d in cfg["report"]["heldout_depths"]:
        res = evo.arena.vs_minimax([program], [0, 0], [0, 1], [d, d], executor)
        rows[f"alphabeta(depth={d})"] = _summary(res[:1, 0], res[:1, 1], res[1:, 0], res[1:, 1])
    res = evo.arena.vs_minimax([program], [0, 0], [0, 1], [cfg["fitness"]["minimax_depth"]] * 2, executor)
    train = _summary(res[:1, 0], res[:1, 1], res[1:, 0], res[1:, 1])
    n = cfg["report"]["random_programs"]
    seed = derive_seed(int(cfg["report"]["heldout_seed"]), 2000)
    opponents = random_programs(evo.pset, cfg, n, seed)
    everyone = [program] + opponents
    idx = np.arange(1, n + 1)
    res = evo.arena.programs(everyone, np.concatenate([np.zeros(n, np.int64), idx]),
                             np.concatenate([idx, np.zeros(n, np.int64)]), executor)
    rows[f"{n} random programs (seed {cfg['report']['heldout_seed']})"] = _summary(
        res[:n, 0], res[:n, 1], res[n:, 1], res[n:, 0])
    return {"training minimax": train, "heldout": rows}


def _summary(first_own, first_opp, second_own, second_opp) -> dict:
    def wdl(own, opp):
        own, opp = np.asarray(own), np.asarray(opp)
        return [int((own > opp).sum()), int((own == opp).sum()), int((own < opp).sum())]

    return {"first": float(np.mean(first_own)), "second": float(np.mean(second_own)),
            "first_opponent": float(np.mean(first_opp)), "second_opponent": float(np.mean(second_opp)),
            "first_wdl": wdl(first_own, first_opp), "second_wdl": wdl(second_own, second_opp)}


def write_results(evo: MancalaGP, state: dict, folder) -> None:
    from evoplay.evolve.plots import plot_log, plot_series

    best = state["best"]
    program = best["program"]
    simple = gp.simplify(program, evo.pset)
    players = {"minimax": "minimax", "best": program}
    executor = getattr(evo, "executor", None)
    gen = generalisation(evo, players, executor)
    held = heldout(evo, program, executor)
    doc = program_document(
        program, evo.pset, evo.game.spec, policy=evo.policy, recipe="mancala", fitness=best["fitness"],
        generation=best["generation"],
        score_first=best["first"], score_second=best["second"], minimax_depth=evo.config["fitness"]["minimax_depth"],
        simplified=gp.to_notation(simple, evo.pset), simplified_size=simple.size,
        pit_rule={"kalah_pit": "pit = floor(value) mod pits; if empty, the next non-empty pit counter-clockwise",
                  "kalah_move": "the legal pit whose resulting position the program values most",
                  "kalah_search": f"alpha-beta {evo.search_depth} plies deep with the program at the leaves",
                  }[evo.policy],
        search_depth=evo.search_depth,
    )
    folder.write_json("best.json", doc)
    folder.write_json("hall_of_fame.json", [p.to_dict() for p in state["hall_of_fame"]])
    folder.write_json("generalisation.json", gen)
    folder.write_json("heldout.json", held)
    folder.write_text("best.py", python_player(program, evo.pset, evo.pits, evo.policy, evo.game.empty_capture,
                                               evo.search_depth))
    folder.write_text("best.lua", lua_player(program, evo.pset, evo.pits, evo.policy, evo.game.empty_capture,
                                             evo.search_depth))
    log = folder.read_log()
    plot_log(folder, f"mancala ({evo.config['fitness']['kind']} fitness)")
    xs = [r["generation"] for r in log]
    plot_series(folder.file("best_score.png"), "Score1 + Score2 of each generation's best (seed's Figure 6)", xs,
                {"best program": [r["best_score"] for r in log]}, "seeds won in both games")
    plot_series(folder.file("fitness_stats.png"), "fitness statistics (seed's Figures 8, 9)", xs,
                {k: [r[k] for r in log] for k in ("best", "mean", "median", "worst")}, "fitness")


def python_player(program, pset, pits: int, policy: str = "kalah_pit", empty_capture: bool = True,
                  search_depth: int = 1) -> str:
    """The program as Python plus ``choose_pit(board_from_mover)`` applying the policy's rule."""
    head = gp.to_python(program, pset, doc="An evolved Mancala (Kalah) player from evoplay's seed-003 recipe.")
    doc = (f"    \"\"\"The pit (0..{pits - 1} from the mover's left) for a board of {2 * pits + 2} numbers seen from\n"
           f"    the mover: its pits, its store, the opponent's pits (in sowing order), their store.\"\"\"\n")
    if policy == "kalah_pit":
        return head + (
            f"\n\ndef choose_pit(board):\n{doc}"
            f"    value = program([float(x) for x in board])\n"
            f"    pit = math.floor(value) % {pits} if abs(value) < 2.0 ** 53 else 0\n"
            f"    for _ in range({pits}):\n"
            f"        if board[pit] > 0:\n"
            f"            return pit\n"
            f"        pit = (pit + 1) % {pits}\n"
            f"    raise ValueError('the mover has no seeds: the game is over')\n"
        )
    if policy == "kalah_search":
        return head + _PY_SEARCH.format(pits=pits, capture=bool(empty_capture), depth=search_depth, doc=doc)
    return head + (
        f"\n\nPITS = {pits}\nEMPTY_CAPTURE = {bool(empty_capture)}\n\n\n"
        f"def sow(board, pit):\n"
        f"    \"\"\"Play ``pit`` for the mover (pits 0..PITS-1) in place; True when the mover moves again.\"\"\"\n"
        f"    size = 2 * PITS + 2\n"
        f"    index, seeds = pit, board[pit]\n"
        f"    board[pit] = 0\n"
        f"    while seeds > 0:\n"
        f"        index = (index + 1) % size\n"
        f"        if index == size - 1:\n"
        f"            continue\n"
        f"        board[index] += 1\n"
        f"        seeds -= 1\n"
        f"    if index < PITS and board[index] == 1:\n"
        f"        opposite = 2 * PITS - index\n"
        f"        if EMPTY_CAPTURE or board[opposite] > 0:\n"
        f"            board[PITS] += board[opposite] + 1\n"
        f"            board[index] = board[opposite] = 0\n"
        f"    own, other = sum(board[:PITS]), sum(board[PITS + 1:size - 1])\n"
        f"    if own == 0 or other == 0:\n"
        f"        board[PITS] += own\n"
        f"        board[size - 1] += other\n"
        f"        for i in range(PITS):\n"
        f"            board[i] = board[PITS + 1 + i] = 0\n"
        f"        return False\n"
        f"    return index == PITS\n\n\n"
        f"def choose_pit(board):\n{doc}"
        f"    best, best_value = None, None\n"
        f"    for pit in range(PITS):\n"
        f"        if board[pit] == 0:\n"
        f"            continue\n"
        f"        child = [int(x) for x in board]\n"
        f"        again = sow(child, pit)\n"
        f"        value = program([float(x) for x in child] + [1.0 if again else 0.0, float(pit)])\n"
        f"        if best is None or value > best_value:\n"
        f"            best, best_value = pit, value\n"
        f"    if best is None:\n"
        f"        raise ValueError('the mover has no seeds: the game is over')\n"
        f"    return best\n"
    )


def lua_player(program, pset, pits: int, policy: str = "kalah_pit", empty_capture: bool = True,
               search_depth: int = 1) -> str:
    """The program as Lua plus ``choose_pit(board)`` (board[1..2*pits+2] seen from the mover; returns 1..pits)."""
    src = gp.to_lua(program, pset, doc="An evolved Mancala (Kalah) player from evoplay's seed-003 recipe.")
    body = src.rsplit("return program", 1)[0]
    size = 2 * pits + 2
    if policy == "kalah_pit":
        return body + (
            f"-- board[1..{size}] seen from the mover; returns the pit 1..{pits} from the mover's left\n"
            f"local function choose_pit(board)\n"
            f"  local value = program(board)\n"
            f"  local pit = 0\n"
            f"  if math.abs(value) < 2.0 ^ 53 then pit = math.floor(value) % {pits} end\n"
            f"  for _ = 1, {pits} do\n"
            f"    if board[pit + 1] > 0 then return pit + 1 end\n"
            f"    pit = (pit + 1) % {pits}\n"
            f"  end\n"
            f"  error('the mover has no seeds: the game is over')\n"
            f"end\n"
            f"return {{program = program, choose_pit = choose_pit}}\n"
        )
    capture = "true" if empty_capture else "false"
    if policy == "kalah_search":
        return body + _LUA_SEARCH.replace("{pits}", str(pits)).replace("{size}", str(size)).replace(
            "{capture}", capture).replace("{depth}", str(search_depth))
    return body + (
        f"local PITS, SIZE, EMPTY_CAPTURE = {pits}, {size}, {capture}\n"
        f"-- play pit (0-based) for the mover on board[1..SIZE] in place; true when the mover moves again\n"
        f"local function sow(board, pit)\n"
        f"  local index, seeds = pit, board[pit + 1]\n"
        f"  board[pit + 1] = 0\n"
        f"  while seeds > 0 do\n"
        f"    index = (index + 1) % SIZE\n"
        f"    if index ~= SIZE - 1 then\n"
        f"      board[index + 1] = board[index + 1] + 1\n"
        f"      seeds = seeds - 1\n"
        f"    end\n"
        f"  end\n"
        f"  if index < PITS and board[index + 1] == 1 then\n"
        f"    local opposite = 2 * PITS - index\n"
        f"    if EMPTY_CAPTURE or board[opposite + 1] > 0 then\n"
        f"      board[PITS + 1] = board[PITS + 1] + board[opposite + 1] + 1\n"
        f"      board[index + 1], board[opposite + 1] = 0, 0\n"
        f"    end\n"
        f"  end\n"
        f"  local own, other = 0, 0\n"
        f"  for i = 1, PITS do own = own + board[i]; other = other + board[PITS + 1 + i] end\n"
        f"  if own == 0 or other == 0 then\n"
        f"    board[PITS + 1] = board[PITS + 1] + own\n"
        f"    board[SIZE] = board[SIZE] + other\n"
        f"    for i = 1, PITS do board[i] = 0; board[PITS + 1 + i] = 0 end\n"
        f"    return false\n"
        f"  end\n"
        f"  return index == PITS\n"
        f"end\n"
        f"-- board[1..SIZE] seen from the mover; returns the pit 1..PITS from the mover's left\n"
        f"local function choose_pit(board)\n"
        f"  local best, best_value = nil, nil\n"
        f"  for pit = 0, PITS - 1 do\n"
        f"    if board[pit + 1] > 0 then\n"
        f"      local child = {{}}\n"
        f"      for i = 1, SIZE do child[i] = board[i] end\n"
        f"      local again = sow(child, pit)\n"
        f"      child[SIZE + 1] = again and 1.0 or 0.0\n"
        f"      child[SIZE + 2] = pit\n"
        f"      local value = program(child)\n"
        f"      if best == nil or value > best_value then best, best_value = pit, value end\n"
        f"    end\n"
        f"  end\n"
        f"  if best == nil then error('the mover has no seeds: the game is over') end\n"
        f"  return best + 1\n"
        f"end\n"
        f"return {{program = program, choose_pit = choose_pit}}\n"
    )


_PY_SEARCH = """

PITS = {pits}
EMPTY_CAPTURE = {capture}
DEPTH = {depth}
WIN_SCALE = 1e6


def sow(board, player, pit):
    \"\"\"Play ``pit`` for ``player`` (0: the searching player, 1: its opponent) in place; the next player to move,
    or None when the game is over.\"\"\"
    size = 2 * PITS + 2
    own_store, opp_store = (PITS, size - 1) if player == 0 else (size - 1, PITS)
    index = pit if player == 0 else PITS + 1 + pit
    seeds = board[index]
    board[index] = 0
    while seeds > 0:
        index = (index + 1) % size
        if index == opp_store:
            continue
        board[index] += 1
        seeds -= 1
    first = 0 if player == 0 else PITS + 1
    if first <= index < first + PITS and board[index] == 1:
        opposite = 2 * PITS - index
        if EMPTY_CAPTURE or board[opposite] > 0:
            board[own_store] += board[opposite] + 1
            board[index] = board[opposite] = 0
    side0, side1 = sum(board[:PITS]), sum(board[PITS + 1:size - 1])
    if side0 == 0 or side1 == 0:
        board[PITS] += side0
        board[size - 1] += side1
        for i in range(PITS):
            board[i] = board[PITS + 1 + i] = 0
        return None
    return player if index == own_store else 1 - player


def leaf(board, to_move, ply):
    if to_move is None:
        return WIN_SCALE * (board[PITS] - board[2 * PITS + 1])
    return program([float(x) for x in board] + [1.0 if to_move == 0 else 0.0, float(ply)])


def value(board, to_move, depth, ply, alpha, beta):
    maximizing = to_move == 0
    best = -math.inf if maximizing else math.inf
    base = 0 if to_move == 0 else PITS + 1
    for pit in range(PITS):
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = sow(child, to_move, pit)
        if nxt is None or depth == 1:
            v = leaf(child, nxt, ply + 1)
        else:
            v = value(child, nxt, depth - 1, ply + 1, alpha, beta)
        if maximizing:
            best = v if v > best else best
            alpha = best if best > alpha else alpha
        else:
            best = v if v < best else best
            beta = best if best < beta else beta
        if alpha >= beta:
            break
    return best


def choose_pit(board):
{doc}    best, best_value = None, -math.inf
    for pit in range(PITS):
        if board[pit] == 0:
            continue
        child = [int(x) for x in board]
        nxt = sow(child, 0, pit)
        if nxt is None or DEPTH == 1:
            v = leaf(child, nxt, 1)
        else:
            v = value(child, nxt, DEPTH - 1, 1, best_value, math.inf)
        if best is None or v > best_value:
            best, best_value = pit, v
    if best is None:
        raise ValueError("the mover has no seeds: the game is over")
    return best
"""

_LUA_SEARCH = """local PITS, SIZE, EMPTY_CAPTURE, DEPTH, WIN_SCALE = {pits}, {size}, {capture}, {depth}, 1e6
-- play pit (0-based) for player (0: the searching player, 1: its opponent) on board[1..SIZE] in place;
-- returns the next player, or nil when the game is over
local function sow(board, player, pit)
  local own_store, opp_store = PITS, SIZE - 1
  if player == 1 then own_store, opp_store = SIZE - 1, PITS end
  local index = pit
  if player == 1 then index = PITS + 1 + pit end
  local seeds = board[index + 1]
  board[index + 1] = 0
  while seeds > 0 do
    index = (index + 1) % SIZE
    if index ~= opp_store then
      board[index + 1] = board[index + 1] + 1
      seeds = seeds - 1
    end
  end
  local first = 0
  if player == 1 then first = PITS + 1 end
  if index >= first and index < first + PITS and board[index + 1] == 1 then
    local opposite = 2 * PITS - index
    if EMPTY_CAPTURE or board[opposite + 1] > 0 then
      board[own_store + 1] = board[own_store + 1] + board[opposite + 1] + 1
      board[index + 1], board[opposite + 1] = 0, 0
    end
  end
  local side0, side1 = 0, 0
  for i = 1, PITS do side0 = side0 + board[i]; side1 = side1 + board[PITS + 1 + i] end
  if side0 == 0 or side1 == 0 then
    board[PITS + 1] = board[PITS + 1] + side0
    board[SIZE] = board[SIZE] + side1
    for i = 1, PITS do board[i] = 0; board[PITS + 1 + i] = 0 end
    return nil
  end
  if index == own_store then return player end
  return 1 - player
end
local function copy(board)
  local out = {}
  for i = 1, SIZE do out[i] = board[i] end
  return out
end
local function leaf(board, to_move, ply)
  if to_move == nil then return WIN_SCALE * (board[PITS + 1] - board[SIZE]) end
  local row = copy(board)
  row[SIZE + 1] = (to_move == 0) and 1.0 or 0.0
  row[SIZE + 2] = ply
  return program(row)
end
local function value(board, to_move, depth, ply, alpha, beta)
  local maximizing = to_move == 0
  local best = maximizing and -math.huge or math.huge
  local base = (to_move == 0) and 0 or PITS + 1
  for pit = 0, PITS - 1 do
    if board[base + pit + 1] > 0 then
      local child = copy(board)
      local nxt = sow(child, to_move, pit)
      local v
      if nxt == nil or depth == 1 then v = leaf(child, nxt, ply + 1)
      else v = value(child, nxt, depth - 1, ply + 1, alpha, beta) end
      if maximizing then
        if v > best then best = v end
        if best > alpha then alpha = best end
      else
        if v < best then best = v end
        if best < beta then beta = best end
      end
      if alpha >= beta then break end
    end
  end
  return best
end
-- board[1..SIZE] seen from the mover; returns the pit 1..PITS from the mover's left
local function choose_pit(board)
  local best, best_value = nil, -math.huge
  for pit = 0, PITS - 1 do
    if board[pit + 1] > 0 then
      local child = copy(board)
      local nxt = sow(child, 0, pit)
      local v
      if nxt == nil or DEPTH == 1 then v = leaf(child, nxt, 1)
      else v = value(child, nxt, DEPTH - 1, 1, best_value, math.huge) end
      if best == nil or v > best_value then best, best_value = pit, v end
    end
  end
  if best == nil then error('the mover has no seeds: the game is over') end
  return best + 1
end
return {program = program, choose_pit = choose_pit}
"""


def _fmt_row(name: str, s: dict) -> str:
    return (f"| {name} | {s['first']:.1f} - {s['first_opponent']:.1f} | {s['second']:.1f} - {s['second_opponent']:.1f}"
            f" | {'/'.join(map(str, s['first_wdl']))} | {'/'.join(map(str, s['second_wdl']))} |")


def report(folder) -> str:
    cfg = folder.config
    log = folder.read_log()
    lines = [f"run {folder.path}: recipe mancala, {cfg['fitness']['kind']} fitness "
             f"(parsimony {cfg['fitness']['parsimony']}), population {cfg['population']}, "
             f"{len(log)}/{cfg['generations']} generations"]
    if log:
        secs = sum(r.get("seconds", 0) for r in log)
        last = log[-1]
        lines.append(f"last generation: best fitness {last['best']:g}, mean {last['mean']:.1f}, mean size "
                     f"{last['mean_size']:.1f}; {secs:.0f} s of evolution")
    if not folder.file("best.json").exists():
        lines.append(f"the run has not finished: evoplay resume {folder.path}")
        return "\n".join(lines)
    doc = folder.read_json("best.json")
    lines += [
        f"best program ({doc['size']} nodes, generation {doc['generation']}, fitness {doc['fitness']:g}):",
        f"  {doc['notation']}",
        f"simplified ({doc['simplified_size']} nodes): {doc['simplified']}",
        f"against the {doc['minimax_depth']}-ply minimax: {doc['score_first']}-{48 - doc['score_first']} moving first, "
        f"{doc['score_second']}-{48 - doc['score_second']} moving second (the seed's best: 41-7 and 25-23)",
    ]
    if folder.file("generalisation.json").exists():
        g = folder.read_json("generalisation.json")
        lines += ["", f"against the same {g['random_programs']} random programs (seed's Figure 10: minimax 39/37, "
                  "run 1 25/24, run 2 23/22):",
                  "| player | moving first (own - opp) | moving second | W/D/L first | W/D/L second |",
                  "| --- | --- | --- | --- | --- |"]
        lines += [_fmt_row(name, s) for name, s in g["players"].items()]
    if folder.file("heldout.json").exists():
        h = folder.read_json("heldout.json")
        lines += ["", "the best program against opponents it never trained on:",
                  "| opponent | moving first (own - opp) | moving second | W/D/L first | W/D/L second |",
                  "| --- | --- | --- | --- | --- |", _fmt_row("training minimax", h["training minimax"])]
        lines += [_fmt_row(name, s) for name, s in h["heldout"].items()]
    lines += ["", f"play it: evoplay play kalah --vs 'gp({folder.file('best.json')})'",
              f"source: {folder.file('best.py')}, {folder.file('best.lua')}",
              f"plots: {folder.file('fitness.png')}, {folder.file('size.png')}, {folder.file('best_score.png')}, "
              f"{folder.file('fitness_stats.png')}"]
    return "\n".join(lines)


def export(folder, lang: str) -> Path:
    from evoplay.agents.gp import load_program

    if lang not in gp.LANGUAGES:
        raise SpecError(f"unknown language '{lang}'; known: {', '.join(gp.LANGUAGES)}")
    program, pset, doc = load_program(folder.file("best.json"))
    from evoplay.games import load_game

    game = load_game(doc["game"])
    maker = python_player if lang == "python" else lua_player
    text = maker(program, pset, game.pits, doc["policy"], game.empty_capture, int(doc.get("search_depth", 1)))
    return folder.write_text("best.py" if lang == "python" else "best.lua", text)


def seed_programs() -> dict:
    """The seed's two published best programs, parsed."""
    pset = gp.seed003_primitive_set()
    return {"seed run 1": gp.parse_notation(SEED_RUN1, pset), "seed run 2": gp.parse_notation(SEED_RUN2, pset)}


def dumps(obj) -> str:
    return json.dumps(obj, indent=2)


def compare_runs(run_dirs, out_dir, labels=None) -> list[Path]:
    """The seed's Figures 6-9 for several runs on shared axes: best Score1 + Score2 per generation
    (figure6.png), mean program size (figure7.png) and each run's fitness statistics (figure8_9.png)."""
    from evoplay.evolve import RunFolder
    from evoplay.evolve.plots import plot_series

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    folders = [RunFolder.open(d) for d in run_dirs]
    labels = labels or [f.path.name for f in folders]
    logs = [f.read_log() for f in folders]
    longest = max(len(log) for log in logs)
    xs = list(range(longest))
    written = [
        plot_series(out / "figure6.png", "best program's Score1 + Score2 per generation (seed's Figure 6)", xs,
                    {lab: [r["best_score"] for r in log] for lab, log in zip(labels, logs)}, "seeds won in both games"),
        plot_series(out / "figure7.png", "mean program size per generation (seed's Figure 7)", xs,
                    {lab: [r["mean_size"] for r in log] for lab, log in zip(labels, logs)}, "nodes"),
    ]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(logs), figsize=(5.5 * len(logs), 4), dpi=110, squeeze=False)
    for ax, lab, log in zip(axes[0], labels, logs):
        for key in ("best", "mean", "median", "worst"):
            ax.plot([r["generation"] for r in log], [r[key] for r in log], label=key, linewidth=1.4)
        ax.set_title(f"{lab}: fitness statistics")
        ax.set_xlabel("generation")
        ax.set_ylabel("fitness")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle("fitness statistics per generation (seed's Figures 8 and 9)")
    fig.tight_layout()
    fig.savefig(out / "figure8_9.png")
    plt.close(fig)
    written.append(out / "figure8_9.png")
    return written
