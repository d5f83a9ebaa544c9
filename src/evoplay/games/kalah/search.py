"""Alpha-beta search for Kalah with a switchable leaf: one Numba kernel and the plain-Python reference it must
match node for node.

Minimax (not negamax) because an extra move keeps the same player on move; every sowing is a ply. A leaf (a
finished game, or a position at the depth horizon) is valued from the root player's side by the evaluation that
the arguments ``weights`` and ``program`` choose; Numba compiles one specialisation per choice, so no search pays
for the evaluations it does not use:

- material (both None): the root player's store minus the opponent's: at a finished game the true final margin,
  at the horizon the current store difference;
- weights (``weights`` given, int64): ``search_weights``' evaluation, the weighted feature differences at the
  horizon and ``WIN`` plus the margin at a finished game;
- program (``program`` given): an evolved program (``evoplay.games.kalah.program_player``, policy ``kalah_search``) reads the
  row [the board in the root's view (``mover_view``), 1 if the root is to move else 0, the plies from the root]
  at the horizon; a finished game is worth ``WIN_SCALE`` x the final margin. In the kernels ``program`` is the
  tuple (opcodes, args, consts, start, end, row, stack) of the program and its scratch (``row`` exactly
  2*pits+4 numbers), handed untouched to ``program_leaf`` (a tuple of arrays unpacked or passed through an
  inlined function is reference counted at every leaf; one argument, not seven, keeps the other searches'
  recursive calls lean); in the reference a ``Program``. Values are float64 then, int64 otherwise.

Children are visited in pit order and only a strictly better value replaces the best, so ties go to the lowest
pit; at the root the first legal pit stands until a strictly better one comes (so a program valuing every
position NaN still moves).

A node budget (``nodes`` = [count, budget], material and weights leaves) cuts a search off: once the count
passes the budget no further child is searched, and the caller, seeing ``count > budget``, drops the search's
values. A deadline sets the budget to 0 from another thread while the kernel runs (``search(deadline=...)``).
Without a budget it is the largest int64, which no search reaches.
"""
from __future__ import annotations

import math

import numpy as np
from numba import boolean, float64, int8, int32, int64, njit, types

from evoplay.interrupt import NO_BUDGET, run_search
from evoplay.games.alphabeta import backup, child_alpha, reference_backup, reference_child_alpha
from evoplay.games.base import TERMINAL
from evoplay.games.kalah import search_weights
from evoplay.games.kalah.game import reference_sow, sow
from evoplay.games.kalah.search_weights import margin, reference_margin
from evoplay.gp.interpreter import evaluate_with_stack, reference_evaluate

INF = 1 << 40
WIN_SCALE = 1e6  # a finished game's store margin x this, so a known result outweighs any program's leaf value
INTERRUPTIBLE_DEPTH = 12

# --------------------------------------------------------------------------------------------------------------
# Reference.
# --------------------------------------------------------------------------------------------------------------


def mover_view(board, player: int, pits: int) -> list[int]:
    """The board turned so ``player`` owns indices 0..pits-1 and the store at ``pits``."""
    b = [int(x) for x in board]
    return b if player == 0 else b[pits + 1:] + b[: pits + 1]


def reference_leaf(board, to_move: int, root: int, ply: int, pits: int, weights=None, program=None):
    """The value of a finished position (``to_move`` TERMINAL) or of one at the depth horizon ``ply`` plies below
    the root (see the module docstring)."""
    if program is not None:
        if to_move == TERMINAL:
            return WIN_SCALE * reference_margin(board, root, pits)
        row = [float(x) for x in mover_view(board, root, pits)] + [1.0 if to_move == root else 0.0, float(ply)]
        return reference_evaluate(program, row)
    if weights is None:
        return reference_margin(board, root, pits)
    return search_weights.reference_leaf(board, root, pits, weights, to_move == TERMINAL)


def reference_value(board, player: int, root: int, depth: int, alpha, beta, pits: int, empty_capture: bool,
                    nodes: list[int], weights=None, program=None, ply: int = 1, values=None, exact_ties: bool = False):
    """Fail-soft alpha-beta value of a non-terminal ``board`` with ``player`` to move, ``ply`` plies below the
    root, seen from ``root``.

    With ``values`` (a list of ``pits`` numbers) ``board`` is the root itself (``player`` is ``root``, the window
    unbounded): every legal pit's value is written there (exact for the best and, with ``exact_ties``, for every
    pit tied with it: their window is opened by one; upper bounds for the others) and the first best pit is
    returned instead of the value.

    ``nodes`` is [count] or [count, budget]: with a budget, no child is searched once the count has passed it."""
    nodes[0] += 1
    inf = math.inf if program is not None else INF
    maximizing = player == root
    best = -inf if maximizing else inf
    best_pit = -1
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if len(nodes) > 1 and nodes[0] > nodes[1]:
            break  # the budget is spent: the caller drops this search
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = reference_sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            nodes[0] += 1
            value = reference_leaf(child, nxt, root, ply + 1, pits, weights, program)
        else:
            low = reference_child_alpha(values is not None, exact_ties, alpha, inf)
            value = reference_value(child, nxt, root, depth - 1, low, beta, pits, empty_capture, nodes, weights,
                                    program, ply + 1)
        if values is not None:
            values[pit] = value
            if best_pit < 0 or value > best:  # the root's first legal pit stands until a strictly better one
                best, best_pit = value, pit
        best, alpha, beta = reference_backup(maximizing, value, best, alpha, beta)
        if alpha >= beta:
            break
    return best if values is None else best_pit


def reference_root_values(board, player: int, depth: int, pits: int, empty_capture: bool, exact_ties: bool,
                          weights=None, program=None, budget: int = NO_BUDGET) -> tuple[list, int, int]:
    """The root's ``reference_value``: the values of the pits (minus infinity for the empty ones), the first best
    pit and the node count (past ``budget`` when the budget cut the search off)."""
    inf = math.inf if program is not None else INF
    values = [-inf] * pits
    nodes = [0, budget]
    best_pit = reference_value([int(x) for x in board], player, player, depth, -inf, inf, pits, empty_capture,
                               nodes, weights, program, 0, values, exact_ties)
    return values, best_pit, nodes[0]


# --------------------------------------------------------------------------------------------------------------
# Kernels. The recursive kernel has explicit signatures: without them, cache=True breaks on reload.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def view_row(board, player, pits, row):
    """Kernel of ``mover_view``: writes the board turned to ``player`` into ``row[:2*pits+2]``."""
    size = 2 * pits + 2
    shift = 0 if player == 0 else pits + 1
    for i in range(size):
        j = i + shift
        if j >= size:
            j -= size
        row[i] = board[j]


@njit(cache=True)
def program_leaf(board, to_move, root, ply, pits, program):
    """Kernel of ``reference_leaf`` with a program."""
    if to_move == TERMINAL:
        return WIN_SCALE * np.float64(margin(board, root, pits))
    opcodes, args, consts, start, end, row, stack = program
    size = 2 * pits + 2
    view_row(board, root, pits, row)
    row[size] = 1.0 if to_move == root else 0.0
    row[size + 1] = ply
    return evaluate_with_stack(opcodes, args, consts, start, end, row, stack)


@njit(cache=True, inline="always")
def leaf(board, to_move, root, pits, weights):
    """Kernel of ``reference_leaf`` without a program: Numba prunes the branch of the leaf not given (the program
    leaf is ``program_leaf``, called, not inlined)."""
    if weights is None:
        return margin(board, root, pits)
    return search_weights.leaf(board, root, pits, weights, to_move == TERMINAL)


@njit(cache=True, inline="always")
def infinity(program):
    """The bound beyond every value: ``INF`` (int64) for material and weights, inf for a program (float64)."""
    if program is None:
        return np.int64(INF)
    return np.inf


def _signatures(root: bool):
    """One specialisation per leaf (material, weights, program), for the root (``values`` given; returns the best
    pit) or for the inner nodes (``values`` None; returns the node's value). The program search counts no nodes
    (``nodes`` None): nothing reads them, and the array cost reference counting at every node."""
    head = (int8[:, ::1], int64, int64, int64, int64)
    none = types.none
    program = types.Tuple((int32[::1], int32[::1], float64[::1], int64, int64, float64[::1], float64[::1]))
    out = []
    for nodes, weights, leaf_program, value in ((int64[::1], none, none, int64),
                                                (int64[::1], int64[::1], none, int64),
                                                (none, none, program, float64)):
        values, result = (value[::1], int64) if root else (none, value)
        out.append(result(*head, value, value, int64, boolean, nodes, weights, leaf_program, values, boolean))
    return out


def search_value(boards, ply, player, root, depth, alpha, beta, pits, empty_capture, nodes, weights, program, values,
                 exact_ties):
    """Kernel of ``reference_value``; ``boards[ply]`` holds the position, deeper rows are scratch space. Compiled
    twice: ``search_value`` for the inner nodes, from which Numba prunes the root's bookkeeping (``values is not
    None``), and ``search_root_value`` for the root, which calls ``search_value`` (a specialisation calling
    another of its own dispatcher would not load back from the cache)."""
    if nodes is not None:
        nodes[0] += 1
    inf = infinity(program)
    board = boards[ply]
    child = boards[ply + 1]
    maximizing = player == root
    best = -inf if maximizing else inf
    best_pit = -1
    base = 0 if player == 0 else pits + 1
    for pit in range(pits):
        if nodes is not None and nodes[0] > nodes[1]:
            break  # the node budget is spent: the caller drops this search
        if board[base + pit] == 0:
            continue
        for i in range(2 * pits + 2):
            child[i] = board[i]
        nxt = sow(child, player, pit, pits, empty_capture)
        if nxt == TERMINAL or depth == 1:
            if nodes is not None:
                nodes[0] += 1
            if program is None:
                value = leaf(child, nxt, root, pits, weights)
            else:
                value = program_leaf(child, nxt, root, ply + 1, pits, program)
        else:
            low = child_alpha(values is not None, exact_ties, alpha, inf)
            value = search_value(boards, ply + 1, nxt, root, depth - 1, low, beta, pits, empty_capture, nodes,
                                 weights, program, None, exact_ties)
        if values is not None:
            values[pit] = value
            if best_pit < 0 or value > best:
                best = value
                best_pit = pit
        best, alpha, beta = backup(maximizing, value, best, alpha, beta)
        if alpha >= beta:
            break
    if values is not None:
        return best_pit
    return best


search_value = njit(_signatures(root=False), cache=True)(search_value)
search_root_value = njit(_signatures(root=True), cache=True)(search_value.py_func)


@njit(cache=True, inline="always")
def search_root(board, player, depth, pits, empty_capture, exact_ties, boards, nodes, values, weights, program):
    """Kernel of ``reference_root_values``: fills ``values`` per pit, adds the nodes to ``nodes[0]`` (unless None;
    ``nodes[1]`` is the budget) and returns the first best pit. ``boards``: at least depth + 1 rows of scratch."""
    for i in range(2 * pits + 2):
        boards[0, i] = board[i]
    inf = infinity(program)
    for i in range(pits):
        values[i] = -inf
    return search_root_value(boards, 0, player, player, depth, -inf, inf, pits, empty_capture, nodes, weights,
                             program, values, exact_ties)


_ROOT_ARGS = (int8[::1], int64, int64, int64, boolean, boolean, int64[::1], int8[:, ::1])


@njit(cache=True, inline="always")
def budgeted_root(board, player, depth, pits, empty_capture, exact_ties, values, boards, weights, nodes):
    best_pit = search_root(board, player, depth, pits, empty_capture, exact_ties, boards, nodes, values, weights,
                           None)
    return best_pit, nodes[0]


@njit(
    [types.Tuple((int64, int64))(*_ROOT_ARGS, types.none), types.Tuple((int64, int64))(*_ROOT_ARGS, int64[::1])],
    cache=True, nogil=True,
)
def root_values(board, player, depth, pits, empty_capture, exact_ties, values, boards, weights):
    """The material or weights search from a position: fills ``values`` per pit; returns (first best pit,
    nodes)."""
    nodes = np.zeros(2, np.int64)
    nodes[1] = NO_BUDGET
    return budgeted_root(board, player, depth, pits, empty_capture, exact_ties, values, boards, weights, nodes)


@njit(
    [types.Tuple((int64, int64))(*_ROOT_ARGS, types.none, int64[::1]),
     types.Tuple((int64, int64))(*_ROOT_ARGS, int64[::1], int64[::1])],
    cache=True, nogil=True,
)
def root_values_within(board, player, depth, pits, empty_capture, exact_ties, values, boards, weights, nodes):
    """``root_values`` counting into the caller's ``nodes`` = [count, budget] and cut off once the count passes
    the budget (which another thread may lower while it runs)."""
    return budgeted_root(board, player, depth, pits, empty_capture, exact_ties, values, boards, weights, nodes)


@njit(cache=True)
def program_search(opcodes, args, consts, start, end, board, player, pits, empty_capture, depth, boards, row, stack):
    """The pit of the search with the program ``opcodes[start:end]`` at the leaves (``evoplay.games.kalah.program_player``'s
    ``kalah_search``): ``boards`` int8[:, ::1] of at least depth + 1 rows of 2*pits+2 scratch, ``row`` float64[::1]
    of exactly 2*pits+4, ``stack`` float64[::1] of at least ``end - start``."""
    values = np.empty(pits, np.float64)
    program = (opcodes, args, consts, np.int64(start), np.int64(end), row, stack)
    return search_root(board, player, depth, pits, empty_capture, False, boards, None, values, None, program)


def search(board: np.ndarray, player: int, depth: int, pits: int, empty_capture: bool, exact_ties: bool = False,
           weights=None, nodes: np.ndarray | None = None, deadline=None):
    """Run the material or weights kernel from a position: returns (values per pit, first best pit, nodes
    searched). ``nodes``: an int64 array [count, budget] the search counts into and is cut off by; ``deadline``:
    a function giving a ``time.perf_counter()`` deadline (or None), read while the search runs, which sets the
    budget to 0 once passed (see ``evoplay.interrupt.run_until``). A search cut off leaves
    ``nodes[0] > nodes[1]``, and its values and pit mean nothing."""
    values = np.empty(pits, np.int64)
    boards = np.empty((depth + 2, 2 * pits + 2), np.int8)
    w = None if weights is None else np.ascontiguousarray(weights, dtype=np.int64)
    args = (np.ascontiguousarray(board, dtype=np.int8), player, depth, pits, empty_capture, exact_ties, values,
            boards, w)
    # From depth 12 one search takes a quarter of a second or more: run it where Ctrl-C can stop the wait.
    best, count = run_search(root_values, root_values_within, args, depth >= INTERRUPTIBLE_DEPTH, nodes, deadline)
    return values, int(best), int(count)
