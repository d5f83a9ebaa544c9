"""Kalah's alpha-beta: the one alpha-beta (``evoplay.search.minimax_kernel``, over Kalah's kernels) given Kalah's
own leaves as the game's leaf hook (``k_leaf``, Kalah's ``Kernels.leaf``), with the plain-Python reference it must
match node for node (``reference_root_values``: ``evoplay.search.minimax_own`` over Kalah's State).

Minimax (not negamax) because an extra move keeps the same player on move; every sowing is a ply. A leaf (a
finished game, or a position at the depth horizon) is valued from the root player's side by the evaluation that
the arguments ``weights`` and ``program`` choose (the ``index`` of a ``Leaf`` of kind GAME: ``LEAF_MATERIAL``,
``LEAF_WEIGHTS``, ``LEAF_PROGRAM``):

- material (both None): the root player's store minus the opponent's: at a finished game the true final margin,
  at the horizon the current store difference;
- weights (``weights`` given, integers): ``search_weights``' evaluation, the weighted feature differences at the
  horizon and ``WIN`` plus the margin at a finished game;
- program (``program`` given): an evolved program (``evoplay.games.kalah.program_player``, policy ``kalah_search``)
  reads the row [the board in the root's view (``mover_view``), 1 if the root is to move else 0, the plies from
  the root] at the horizon; a finished game is worth ``WIN_SCALE`` x the final margin.

Every value is an integer but the program's (the kernel computes in float64, exactly); ``search`` returns the
material and weights values as int64. Children are visited in pit order and only a strictly better value
replaces the best, so ties go to the lowest pit; at the root the first legal pit stands until a strictly better
one comes (so a program valuing every position NaN still moves), and a child is searched within the window from
the best so far (``exact_ties``: opened by one, so that a pit tying the best comes back exact).

A node budget (``nodes`` = [count, budget], the root counted) cuts a search off: once the count passes the
budget no further node is searched, and the caller, seeing ``count > budget``, drops the search's values. A
deadline sets the budget to 0 from another thread while the kernel runs (``search(deadline=...)``). Without a
budget it is the largest int64, which no search reaches.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from numba import int64, njit
from numba.typed import Dict

from evoplay.games.base import TERMINAL
from evoplay.games.kalah import search_weights
from evoplay.games.kalah.game import KalahGame, KalahState
from evoplay.games.kalah.search_weights import margin, reference_margin
from evoplay.games.kernels import specialise
from evoplay.gp.interpreter import evaluate_with_stack, reference_evaluate
from evoplay.interrupt import NO_BUDGET
from evoplay.search import minimax_game, minimax_own
from evoplay.search.leaf_kernel import GAME, Leaf
from evoplay.search.minimax_budget import COUNTERS, LIMIT
from evoplay.search.minimax_kernel import ENTRY

INF = 1 << 40
WIN_SCALE = 1e6  # a finished game's store margin x this, so a known result outweighs any program's leaf value
INTERRUPTIBLE_DEPTH = 12
MAX_PITS = 20  # KalahGame's most pits a side

# --------------------------------------------------------------------------------------------------------------
# The plain-Python reference: evoplay.search.minimax_own over Kalah's State with ``reference_leaf``.
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


def reference_state(board, player: int, pits: int, empty_capture: bool) -> KalahState:
    """The State of (``board``, ``player``) under the rules (``pits``, ``empty_capture``), for the references."""
    game = KalahGame(pits=pits, seeds=1, empty_capture=empty_capture)
    return KalahState(game, np.array([int(x) for x in board[:2 * pits + 2]], np.int8), int(player))


def reference_order(board, player: int, pits: int, first: int = -1) -> list[int]:
    """``k_order``'s pits in plain Python: ``first`` (when legal), then the extra moves, then the others, each
    group from the store's end."""
    base = 0 if player == 0 else pits + 1
    open_pits = [pit for pit in range(pits - 1, -1, -1) if board[base + pit] > 0 and pit != first]
    extra = [pit for pit in open_pits if board[base + pit] % (2 * pits + 1) == pits - pit]
    return ([first] if first >= 0 and board[base + first] > 0 else []) + extra + [p for p in open_pits
                                                                                   if p not in extra]


def reference_root_values(board, player: int, depth: int, pits: int, empty_capture: bool, exact_ties: bool,
                          weights=None, program=None, budget: int = NO_BUDGET) -> tuple[list, int, int]:
    """The search in plain Python (``minimax_own.root_values`` with ``reference_leaf``): the values of the pits
    (minus infinity for the empty ones; integers but the program's), the first best pit and the node count (past
    ``budget`` when the budget cut the search off)."""
    state = reference_state(board, player, pits, empty_capture)
    actions, values, best, nodes = minimax_own.root_values(
        state, depth, lambda s, root, ply: reference_leaf(s._board, s.current_player(), root, ply, pits, weights,
                                                          program),
        exact_ties, None if budget >= NO_BUDGET else budget)
    out = [-math.inf if program is not None else -INF] * pits
    for a, v in zip(actions, values):
        out[a] = float(v) if program is not None else int(v)
    return out, best, nodes


# --------------------------------------------------------------------------------------------------------------
# The kernels: the one alpha-beta (evoplay.search.minimax_kernel) over Kalah's kernels with Kalah's own leaf.
# --------------------------------------------------------------------------------------------------------------

LEAF_MATERIAL, LEAF_WEIGHTS, LEAF_PROGRAM = 0, 1, 2  # Kalah's own leaves: the ``index`` of a ``Leaf`` of kind GAME


@njit(cache=True, inline="always")
def k_leaf(params, position, root, ply, leaf, row, stack):
    """Kalah's own leaf, bound as ``Kernels.leaf`` in its own players' copy of the one alpha-beta (``kernels``):
    ``reference_leaf`` of the position (the board, then the player to move or TERMINAL) ``ply`` plies below the
    root, ``leaf.index`` choosing the leaf (``weights`` as float64, the program as the Leaf's arrays), the program
    reading the first 2*pits+4 numbers of ``row``."""
    pits = params[0]
    to_move = np.int64(position[2 * pits + 2])
    kind = leaf.index
    if kind == LEAF_MATERIAL:
        return np.float64(margin(position, root, pits))
    if kind == LEAF_WEIGHTS:
        if to_move == TERMINAL:
            return np.float64(search_weights.terminal_value(position, root, pits))
        return np.float64(search_weights.evaluate(position, root, pits, leaf.weights))
    if to_move == TERMINAL:
        return WIN_SCALE * np.float64(margin(position, root, pits))
    size = 2 * pits + 2
    view_row(position, root, pits, row)
    row[size] = 1.0 if to_move == root else 0.0
    row[size + 1] = ply
    return evaluate_with_stack(leaf.opcodes, leaf.args, leaf.consts, 0, leaf.size, row[:size + 2], stack)


@njit(cache=True)
def k_hash(params, position):
    """The position's 64-bit FNV-1a hash (the board and the player to move): the transposition table's key of
    Kalah's own players (``deepening.py``)."""
    h = np.uint64(14695981039346656037)
    for i in range(2 * params[0] + 3):
        h = (h ^ np.uint64(np.int64(position[i]) & 0xFF)) * np.uint64(1099511628211)
    return np.int64(h)


@njit(cache=True)
def k_order(params, position, actions, n, first):
    """Kalah's own move order in a search with a table (``deepening.py``): ``first`` (the table's pit, when legal),
    then the pits whose sowing ends in the mover's store (an extra move), then the others, each group from the pit
    nearest the store, into ``actions``."""
    pits = params[0]
    base = 0 if position[2 * pits + 2] == 0 else pits + 1
    count = 0
    if first >= 0 and position[base + first] > 0:
        actions[0] = first
        count = 1
    for group in range(2):  # the extra moves, then the others
        for pit in range(pits - 1, -1, -1):
            seeds = np.int64(position[base + pit])
            if pit != first and seeds > 0 and (seeds % (2 * pits + 1) == pits - pit) == (group == 0):
                actions[count] = pit
                count += 1


def kernels():
    """Kalah's kernels with its own leaf (``k_leaf``), a hash (``k_hash``) and move order (``k_order``) bound: the
    game's own players' copy of the one alpha-beta (any pits and rules: a search takes the game's own
    ``params``)."""
    return replace(KalahGame().kernels(), leaf=k_leaf, leaf_width=2 * MAX_PITS + 4, state_hash=k_hash,
                   order=k_order)


KERNELS = kernels()
_root_values = specialise("evoplay.search.minimax_game", KERNELS).root_values
_root_values_within = specialise("evoplay.search.minimax_game", KERNELS).root_values_within


@njit(cache=True, inline="always")
def _leaf(kind, weights, opcodes, args, consts, size):
    """A ``Leaf`` of Kalah's own leaf ``kind`` inside a kernel."""
    empty_f = np.zeros(0, np.float64)
    return Leaf(np.int64(GAME), False, np.int64(kind), False, empty_f, weights, opcodes, args, consts, np.int64(size),
                np.zeros(8, np.int64), np.zeros(0, np.int64))


@njit(cache=True, inline="always")
def _root(board, player, depth, pits, empty_capture, leaf, values):
    """(first best pit, nodes) of the one alpha-beta's search from (``board``, ``player``) inside a kernel."""
    size = 2 * pits + 2
    position = np.empty(size + 1, np.int8)
    position[:size] = board[:size]
    position[size] = player
    params = np.array([pits, 1 if empty_capture else 0, 0], np.int64)
    return _root_values(params, position, player, depth, leaf, False, values, -math.inf, 2, size + 2,
                        Dict.empty(int64, ENTRY))


@njit(cache=True)
def material_values(board, player, depth, pits, empty_capture, values):
    """The material search from a position inside a kernel (the mancala recipes' minimax): (first best pit,
    nodes), the values (float64) into ``values``."""
    empty_f, empty_i = np.zeros(0, np.float64), np.zeros(0, np.int64)
    leaf = _leaf(LEAF_MATERIAL, empty_f, empty_i, empty_i, empty_f, 0)
    return _root(board, player, depth, pits, empty_capture, leaf, values)


@njit(cache=True)
def weights_values(board, player, depth, pits, empty_capture, weights, values):
    """The weights search (``weights`` float64) inside a kernel: (first best pit, nodes), the values into
    ``values``."""
    empty_f, empty_i = np.zeros(0, np.float64), np.zeros(0, np.int64)
    leaf = _leaf(LEAF_WEIGHTS, weights, empty_i, empty_i, empty_f, 0)
    return _root(board, player, depth, pits, empty_capture, leaf, values)


@njit(cache=True)
def program_search(opcodes, args, consts, start, end, board, player, pits, empty_capture, depth, boards, row, stack):
    """The pit of the search with the program ``opcodes[start:end]`` at the leaves (policy ``kalah_search`` of
    ``evoplay.games.kalah.program_player``); ``boards``, ``row`` and ``stack``: unused (the search keeps its own)."""
    values = np.empty(pits, np.float64)
    leaf = _leaf(LEAF_PROGRAM, np.zeros(0, np.float64), opcodes[start:end].astype(np.int64),
                 args[start:end].astype(np.int64), consts[start:end].copy(), end - start)
    return _root(board, player, depth, pits, empty_capture, leaf, values)[0]


@njit(cache=True, nogil=True)
def search_within(board, player, depth, pits, empty_capture, kind, weights, exact_ties, values, counters):
    """The material (``kind`` LEAF_MATERIAL) or weights search (float64 ``weights``) as ``search`` runs it:
    ``root_values_within`` from (``board``, ``player``), the values (int64) into ``values``."""
    empty_f, empty_i = np.zeros(0, np.float64), np.zeros(0, np.int64)
    size = 2 * pits + 2
    position = np.empty(size + 1, np.int8)
    position[:size] = board[:size]
    position[size] = player
    params = np.array([pits, 1 if empty_capture else 0, 0], np.int64)
    return _root_values_within(params, position, player, depth, _leaf(kind, weights, empty_i, empty_i, empty_f, 0),
                               exact_ties, values, -INF, 2, size + 2, Dict.empty(int64, ENTRY), counters)


@njit(cache=True, nogil=True)
def search_plain(board, player, depth, pits, empty_capture, kind, weights, exact_ties, values):
    """``search_within`` without a budget."""
    counters = np.zeros(COUNTERS, np.int64)
    counters[LIMIT] = NO_BUDGET  # (minimax_budget's counters)
    return search_within(board, player, depth, pits, empty_capture, kind, weights, exact_ties, values, counters)


def search(board: np.ndarray, player: int, depth: int, pits: int, empty_capture: bool, exact_ties: bool = False,
           weights=None, nodes: np.ndarray | None = None, deadline=None):
    """Run the material or weights search from a position: returns (values per pit, int64, first best pit, nodes
    searched); ``nodes`` and ``deadline`` as ``minimax_game.run_game_search`` takes them."""
    values = np.empty(pits, np.int64)
    kind, w = (LEAF_MATERIAL, _NO_WEIGHTS) if weights is None else (LEAF_WEIGHTS, np.asarray(weights, np.float64))
    args = (np.asarray(board, np.int8), int(player), int(depth), int(pits), bool(empty_capture), kind, w,
            bool(exact_ties), values)
    # From depth 12 one search takes a quarter of a second or more: run it where Ctrl-C can stop the wait.
    best, count = minimax_game.run_game_search(search_plain, search_within, args, nodes, deadline,
                                                 depth >= INTERRUPTIBLE_DEPTH)
    return values, int(best), int(count)


_NO_WEIGHTS = np.zeros(0, np.float64)
