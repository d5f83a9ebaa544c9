"""Kalah's memoised minimax and whole games of GP programs against it (Numba), with their plain-Python reference.

The minimax (``games.kalah.search.material_values``, first best pit) is deterministic, so its decision is memoised by
(position, player, depth) through ``evoplay.memo``: each worker process keeps its memo between calls,
every task returns the entries it added, and the next call's tasks carry them to every worker. ``KalahArena``
plays batches of program-vs-minimax and program-vs-program games on an executor; the programs pick pits by a
policy of ``evoplay.games.kalah.program_player``. ``reference_vs_minimax`` and ``reference_programs`` are the same games in plain
Python, the reference the kernels are tested against.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.kalah.program_player import (
    POLICIES, POLICY_CODES, program_choice, reference_move, reference_pit, reference_search,
)
from evoplay.memo import (
    SharedMemo, log_decision, merge_log, new_log, new_memo, program_tasks, task_log, worker_memo,
)
from evoplay.errors import ConfigError
from evoplay.games.base import TERMINAL
from evoplay.games.kalah.game import reference_sow, sow
from evoplay.games.kalah.search import material_values, reference_root_values

MAX_DEPTH = 30  # the memo key holds depth * 2 + player in 7 bits


@njit(cache=True, inline="always")
def position_key(board, player, depth):
    """The memo key of a position: (depth, player, the first player's side) and the second player's side, 7 bits
    per pit (so pits <= 6 and at most 127 seeds)."""
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
    positions. stats: hits, searches."""
    key = position_key(board, player, depth)
    if key in memo:
        stats[0] += 1
        pit = memo[key]
        searched = 0
    else:
        stats[1] += 1
        pit, nodes = material_values(board, player, depth, pits, empty_capture, values)
        memo[key] = pit
        searched = 1
    log_decision(log, log_n, key, pit, searched)
    return pit


@njit(cache=True)
def game_buffers(starts, ends, pits, search_depth):
    """A game of programs' work arrays: the board, the policies' scratch board and search tree, a feature row
    and the interpreter's stack (as long as the pool's longest program)."""
    size = 2 * pits + 2
    longest = 1
    for k in range(starts.shape[0]):
        longest = max(longest, ends[k] - starts[k])
    return (np.empty(size, np.int8), np.empty(size, np.int8), np.empty((search_depth + 1, size), np.int8),
            np.empty(size + 2, np.float64), np.empty(longest, np.float64))


@njit(cache=True)
def play_vs_minimax(policy, search_depth, opcodes, args, consts, starts, ends, programs, seats, depths, board0, pits,
                    empty_capture, memo, log, log_n, stats, out):
    """Game g: program ``programs[g]`` of the pool in seat ``seats[g]`` against the ``depths[g]``-ply minimax.
    ``out[g]`` = (program's store, minimax's store) at the end. ``policy``: a code of ``program_player.POLICY_CODES``."""
    size = 2 * pits + 2
    work, scratch, tree, row, stack = game_buffers(starts, ends, pits, search_depth)
    values = np.empty(pits, np.float64)
    deepest = 1
    for g in range(depths.shape[0]):
        deepest = max(deepest, depths[g])
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
    work, scratch, tree, row, stack = game_buffers(starts, ends, pits, search_depth)
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


# --------------------------------------------------------------------------------------------------------------
# The same games in plain Python (the reference the kernels are tested against, and the DEAP-style baseline).
# --------------------------------------------------------------------------------------------------------------


def reference_vs_minimax(program, seat: int, depth: int, pits: int = 6, seeds: int = 4, empty_capture: bool = True,
                         choose=None, policy: str = "kalah_pit", search_depth: int = 1,
                         board=None) -> tuple[int, int]:
    """(program's store, minimax's store) of one game in pure Python, from the start or from ``board`` (the first
    player to move). ``choose(view)`` may replace the program (a compiled Python function of the mover's view, as
    a DEAP user would write)."""
    board = ([seeds] * pits + [0]) * 2 if board is None else [int(b) for b in board]
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
# Tasks for the executor (module-level so worker processes can run them) and the arena that plays them.
# --------------------------------------------------------------------------------------------------------------


def memo_key(pits: int, empty_capture: bool) -> tuple:
    """The process memo of the Kalah minimax for a board shape and capture rule."""
    return ("kalah minimax", int(pits), bool(empty_capture))


def minimax_task(task: dict) -> dict:
    """Play a batch of program-vs-minimax games; merges the shared memo entries first, returns the new ones."""
    memo = worker_memo(memo_key(task["pits"], task["empty_capture"]), task.get("shared"))
    n = len(task["programs"])
    out = np.zeros((n, 2), np.int64)
    seeds = int(task["board"][: task["pits"]].sum())
    # Room for every minimax decision of the batch (a game has far fewer than this many moves).
    log, log_n = new_log(n * max(512, 8 * task["pits"] * seeds))
    stats = np.zeros(2, np.int64)
    ops, args, consts, starts, ends = task["pool"]
    play_vs_minimax(task["policy"], task["search_depth"], ops, args, consts, starts, ends, task["programs"],
                    task["seats"], task["depths"], task["board"], task["pits"], task["empty_capture"], memo, log,
                    log_n, stats, out)
    return dict(task_log(log, log_n, f"the minimax in {n} games"), out=out, hits=int(stats[0]),
                searches=int(stats[1]))


def programs_task(task: dict) -> np.ndarray:
    n = len(task["first"])
    out = np.zeros((n, 2), np.int64)
    ops, args, consts, starts, ends = task["pool"]
    play_programs(task["policy"], task["search_depth"], ops, args, consts, starts, ends, task["first"],
                  task["second"], task["board"], task["pits"], task["empty_capture"], out)
    return out


class KalahArena:
    """Plays batches of GP programs' Kalah games on an executor, keeping and sharing the minimax memo."""

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
        self.memo = SharedMemo(memo_key(pits, empty_capture))

    def _common(self) -> dict:
        return dict(board=self.board, policy=self.policy, search_depth=self.search_depth, pits=self.pits,
                    empty_capture=self.empty_capture)

    def vs_minimax(self, programs: list, program_index, seats, depths, executor, board=None) -> np.ndarray:
        """(program's store, minimax's store) for each game (program_index[g] in seat seats[g]), from the start or
        from ``board`` (an absolute board, the first player to move: an opening)."""
        program_index = np.asarray(program_index, np.int64)
        if len(program_index) == 0:
            return np.zeros((0, 2), np.int64)
        common = dict(self._common(), shared=self.memo.shared)
        if board is not None:
            common["board"] = np.asarray(board, np.int8)
        tasks = program_tasks(programs, {"programs": program_index},
                              {"seats": np.asarray(seats, np.int64), "depths": np.asarray(depths, np.int64)},
                              common, self.chunk_games, executor)
        if getattr(executor, "needs_warmup", False):
            # Compile here before the pool starts: forked workers inherit the code (Ray's load the cache this
            # writes), so a first run compiles the kernels once instead of once in every worker at the same time.
            first = tasks[0]
            minimax_task(dict(first, programs=first["programs"][:0], seats=first["seats"][:0],
                              depths=first["depths"][:0], shared=None))
            merge_log(new_memo(), np.zeros((0, 3), np.int64), 0)
        results = executor.map(minimax_task, tasks)
        self.memo.absorb(results)
        return np.concatenate([r["out"] for r in results])

    def programs(self, programs: list, first, second, executor) -> np.ndarray:
        """(seat 0's store, seat 1's store) for programs[first[g]] against programs[second[g]]."""
        first = np.asarray(first, np.int64)
        if len(first) == 0:
            return np.zeros((0, 2), np.int64)
        tasks = program_tasks(programs, {"first": first, "second": np.asarray(second, np.int64)}, {},
                              self._common(), 4000, executor)
        return np.concatenate(executor.map(programs_task, tasks))

    def minimax_both_seats(self, programs: list, depth: int, executor, board=None) -> np.ndarray:
        """(n, 2, 2): each program against the ``depth``-ply minimax moving first, then second (from the start or
        from ``board``); the last axis is (program's store, minimax's store)."""
        n = len(programs)
        res = self.vs_minimax(programs, np.repeat(np.arange(n), 2), np.tile([0, 1], n), np.full(2 * n, depth),
                              executor, board)
        return res.reshape(n, 2, 2)

    def both_seats(self, programs: list, opponents: list, executor) -> tuple[np.ndarray, ...]:
        """Every program against every opponent program, once in each seat: four (n, m) arrays, the program's
        and the opponent's stores when the program moved first, then the same when it moved second."""
        n, m = len(programs), len(opponents)
        prog = np.repeat(np.arange(n), m)
        opp = n + np.tile(np.arange(m), n)
        res = self.programs(list(programs) + list(opponents), np.concatenate([prog, opp]),
                            np.concatenate([opp, prog]), executor)
        first, second = res[: n * m].reshape(n, m, 2), res[n * m:].reshape(n, m, 2)
        return first[:, :, 0], first[:, :, 1], second[:, :, 1], second[:, :, 0]

    def minimax_vs_programs(self, opponents: list, depth: int, executor) -> tuple[np.ndarray, ...]:
        """The ``depth``-ply minimax against each opponent program in both seats (program-vs-minimax games seen
        the other way): the minimax's and the opponent's stores moving first, then the same moving second."""
        n = len(opponents)
        res = self.vs_minimax(opponents, np.concatenate([np.arange(n), np.arange(n)]),
                              np.concatenate([np.ones(n, np.int64), np.zeros(n, np.int64)]), np.full(2 * n, depth),
                              executor)
        return res[:n, 1], res[:n, 0], res[n:, 1], res[n:, 0]  # programs sat second first: the minimax moved first
