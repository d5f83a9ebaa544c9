"""Threat search for the m,n,k-game: seed 001's evaluation plus open-window features, under a node budget.

The player of issue 15 item 3 (5,5,4 without a loss to MCTS-10,000 at under 10 ms a move). Its genome is seed
001's (positional and streak weights, two scale factors; ``search_mnk.EVAL_SEED001``) without the 3-bit depth,
which the node budget replaces, extended by ``threat_fields``: weights of the *open windows* (k cells in a line
holding j stones of one player and none of the other; j = 1..k-2, separately for the player to move, ``open<j>m``,
and the player waiting, ``open<j>w``), of the waiting player's *fork cells* (``fork_w``: empty cells where one
stone would make two threats at once) and a scale factor ``scale_open``.

Rules the search applies at every node, exactly, before anything else (a *threat cell* of a player is an empty cell
completing k for them; it is the one empty cell of a window with k-1 of their stones and none of the other's):

- the player to move has a threat cell: they win on it (worth ``WIN`` plus the empty cells left after it);
- the waiting player has two or more threat cells: the player to move loses (one block cannot stop both);
- the waiting player has exactly one: the player to move must block it; that forced move is searched without
  spending depth (a forced-move extension, which lets a horizon of 4 see a chain of threats to its end);
- neither has one and the player to move has a fork cell: they win in three plies.

Otherwise the node is searched (or, at the horizon, evaluated) by negamax alpha-beta: values are seen from the
player to move; the evaluation is seed 001's sum from the mover's side plus ``scale_open`` times (the mover's open
windows weighted by ``open<j>m`` minus the waiting player's weighted by ``open<j>w``) minus ``scale_open`` times
``fork_w`` per fork cell of the waiting player. Moves are ordered: the transposition table's move, then by a fixed
score of the windows through the cell (``order_score``), ties to the lower cell. A transposition table of
``TT_SIZE`` entries (Zobrist keys, always replaced) lives for one move.

Iterative deepening at the root runs depth 1, 2, ... with the previous iteration's best move first, until the
nodes reach the budget: the iteration running then stops at once (nothing it left unfinished enters the table),
and its best move counts when a root move was searched to the end in it (the previous best, searched first, or
one that beat it; when no iteration finished a root move, under a budget too small for one, the move ordered
first is played unsearched). A proven value ends the search, and so does an iteration that evaluated no position at its
horizon and took nothing from the table (the game below the root was searched to its end). Only a strictly
better value replaces the best move: ties go to the move searched first. The root plays a won threat cell, a
forced block or a winning fork at once, without searching.

A Numba kernel plays it; ``reference_deepen`` is the plain-Python reference, equal move, depth and node count
for node count (tests/games/test_mnk_threats.py). The genome and the player that plays it are in
``threat_player.py``.
"""
from __future__ import annotations

import numpy as np
from numba import int8, int64, njit, types

from evoplay.games.mnk import search as search_mnk
from evoplay.games.mnk.search import INF, WIN, evaluate_seed001, line_windows
from evoplay.search.alphabeta import probe, reference_probe, reference_store, store

PROVEN = WIN // 2  # a value beyond this is a finished game's
MAX_DEPTH = 64
TT_BITS = 16
TT_SIZE = 1 << TT_BITS
NODES, HORIZON, HITS, LIMIT, STOPPED = range(5)  # the counters of one iteration, its node limit, a stop flag
_ZOBRIST_SEED = 15_0554


def cell_windows(windows: np.ndarray, size: int) -> np.ndarray:
    """For every cell the windows through it, as a (size, most + 1) array: a count, then the window indices."""
    lists = [[] for _ in range(size)]
    for w, cells in enumerate(windows):
        for c in cells:
            lists[int(c)].append(w)
    most = max((len(x) for x in lists), default=0)
    out = np.zeros((size, most + 1), dtype=np.int64)
    for c, ws in enumerate(lists):
        out[c, 0] = len(ws)
        out[c, 1 : 1 + len(ws)] = ws
    return out


def zobrist(size: int) -> np.ndarray:
    """Zobrist keys: one per (cell, mark 0..2) and, in row ``size``, one for the second player to move."""
    return np.random.default_rng(_ZOBRIST_SEED).integers(1, 1 << 62, size=(size + 1, 3), dtype=np.int64)


# --------------------------------------------------------------------------------------------------------------
# Reference: every quantity recounted from the board.
# --------------------------------------------------------------------------------------------------------------


def reference_counts(board, windows) -> list[list[int]]:
    """Stones of X and of O in every window."""
    return [[sum(1 for c in w if board[c] == 1), sum(1 for c in w if board[c] == 2)] for w in windows]


def reference_threat_cells(board, windows, who: int) -> list[int]:
    """The distinct threat cells of player ``who`` (0 or 1), in the order their windows come."""
    k = len(windows[0])
    out = []
    for w, (x, o) in zip(windows, reference_counts(board, windows)):
        own, other = (x, o) if who == 0 else (o, x)
        if own == k - 1 and other == 0:
            cell = next(int(c) for c in w if board[c] == 0)
            if cell not in out:
                out.append(cell)
    return out


def reference_fork_cells(board, windows, who: int) -> list[int]:
    """The empty cells where a stone of ``who`` makes two or more distinct threat cells (of the windows with k-2 of
    their stones and none of the other's), ascending."""
    k = len(windows[0])
    made: dict[int, set[int]] = {}
    for w, (x, o) in zip(windows, reference_counts(board, windows)):
        own, other = (x, o) if who == 0 else (o, x)
        if own == k - 2 and other == 0:
            a, b = [int(c) for c in w if board[c] == 0]
            made.setdefault(a, set()).add(b)
            made.setdefault(b, set()).add(a)
    return sorted(c for c, threats in made.items() if len(threats) >= 2)


def reference_evaluate(board, mover: int, windows, seed_params, threat_params) -> int:
    """The horizon value for ``mover`` (neither player having a threat cell)."""
    k = int(threat_params[0])
    total = search_mnk.reference_evaluate(board, mover, search_mnk.EVAL_SEED001, seed_params, windows)
    for x, o in reference_counts(board, windows):
        own, other = (x, o) if mover == 0 else (o, x)
        if other == 0:
            total += int(threat_params[1 + own])
        if own == 0:
            total -= int(threat_params[1 + k + other])
    return total - int(threat_params[1 + 2 * k]) * len(reference_fork_cells(board, windows, 1 - mover))


def reference_order_score(board, windows, mover: int, cell: int) -> int:
    """Kernel-equal ``order_score``: per window through ``cell``, 2^(2a+1) for a window free of the opponent
    (a: the mover's stones) plus 2^(2b) for one free of the mover (b: the opponent's)."""
    total = 0
    for w, (x, o) in zip(windows, reference_counts(board, windows)):
        if cell not in [int(c) for c in w]:
            continue
        own, other = (x, o) if mover == 0 else (o, x)
        if other == 0:
            total += 1 << (2 * own + 1)
        if own == 0:
            total += 1 << (2 * other)
    return total


def reference_order(board, windows, mover: int, first: int = -1) -> list[int]:
    """The empty cells in search order: ``first`` (when empty), then by ``order_score`` descending, then index."""
    cells = [c for c in range(len(board)) if board[c] == 0 and c != first]
    cells.sort(key=lambda c: (-reference_order_score(board, windows, mover, c), c))
    return ([first] if first >= 0 and board[first] == 0 else []) + cells


def reference_rules(board, windows, mover: int, empties: int):
    """The exact rules of a node: ("value", v) when settled, ("forced", cell) for a forced block, else None."""
    if reference_threat_cells(board, windows, mover):
        return "value", WIN + empties - 1
    theirs = reference_threat_cells(board, windows, 1 - mover)
    if len(theirs) >= 2:
        return "value", -(WIN + empties - 2)
    if theirs:
        return "forced", theirs[0]
    if reference_fork_cells(board, windows, mover):
        return "value", WIN + empties - 3
    return None


def reference_key(board, mover: int, keys) -> int:
    key = 0
    for cell, mark in enumerate(board):
        key ^= int(keys[cell, mark])
    if mover == 1:
        key ^= int(keys[len(board), 0])
    return key


def reference_value(board, mover, depth, alpha, beta, empties, windows, seed_params, threat_params, keys, table,
                    counts) -> int:
    """Negamax value of a non-terminal ``board`` for ``mover``; ``table`` a list of [key, depth, flag, value, move]."""
    counts[NODES] += 1
    if counts[NODES] > counts[LIMIT]:
        counts[STOPPED] = 1
        return 0
    rule = reference_rules(board, windows, mover, empties)
    if rule is not None and rule[0] == "value":
        return rule[1]
    forced = rule[1] if rule is not None else -1
    if depth <= 0 and forced < 0:
        counts[HORIZON] += 1
        return reference_evaluate(board, mover, windows, seed_params, threat_params)
    key = reference_key(board, mover, keys)
    first, hit, v = reference_probe(table, key, depth, alpha, beta)
    if hit:
        counts[HITS] += 1
        return v
    alpha0 = alpha
    moves = [forced] if forced >= 0 else reference_order(board, windows, mover, first)
    child_depth = depth if forced >= 0 else depth - 1
    best, best_move = -INF, -1
    for cell in moves:
        board[cell] = mover + 1
        if empties == 1:
            value = 0
        else:
            value = -reference_value(board, 1 - mover, child_depth, -beta, -alpha, empties - 1, windows, seed_params,
                                     threat_params, keys, table, counts)
        board[cell] = 0
        if counts[STOPPED]:
            return 0
        if value > best:
            best, best_move = value, cell
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    reference_store(table, key, depth, best, alpha0, beta, best_move)
    return best


def reference_root(board, mover, depth, empties, first, windows, seed_params, threat_params, keys, table, counts):
    """One iteration at the root (no rule settles it): (best cell, its value), the best of the root moves searched
    to the end when the node limit stopped it ((-1, -INF) if none was)."""
    counts[NODES] += 1
    alpha, best = -INF, -1
    for cell in reference_order(board, windows, mover, first):
        board[cell] = mover + 1
        if empties == 1:
            value = 0
        else:
            value = -reference_value(board, 1 - mover, depth - 1, -INF, -alpha, empties - 1, windows, seed_params,
                                     threat_params, keys, table, counts)
        board[cell] = 0
        if counts[STOPPED]:
            break
        if value > alpha:
            alpha, best = value, cell
    return best, alpha


def reference_deepen(board, mover: int, windows, seed_params, threat_params, budget: int,
                     max_depth: int = MAX_DEPTH) -> tuple[int, int, int, int]:
    """The readable search of a non-terminal position: (cell, depth of the iteration that chose it, nodes spent,
    its value for ``mover``); depth 0 when a rule chose the cell, and then value 0 for a forced block (unsearched)."""
    board = [int(v) for v in board]
    windows = [[int(c) for c in w] for w in windows]
    empties = board.count(0)
    rule = reference_rules(board, windows, mover, empties)
    if rule is not None:
        if rule[0] == "forced":
            return rule[1], 0, 1, 0
        mine = reference_threat_cells(board, windows, mover)
        theirs = reference_threat_cells(board, windows, 1 - mover)
        return (mine or theirs or reference_fork_cells(board, windows, mover))[0], 0, 1, rule[1]
    keys = zobrist(len(board))
    table = [[0, 0, 0, 0, 0] for _ in range(TT_SIZE)]
    spent = value = 0
    best = depth = -1
    for d in range(1, max_depth + 1):
        counts = [0, 0, 0, max(budget - spent, 1), 0]
        cell, top = reference_root(board, mover, d, empties, best, windows, seed_params, threat_params, keys, table,
                                   counts)
        spent += min(counts[NODES], counts[LIMIT])
        if cell >= 0:
            best, depth, value = cell, d, top
        if counts[STOPPED] or spent >= budget or abs(top) >= PROVEN or (counts[HORIZON] == 0 and counts[HITS] == 0):
            break
    if best < 0:  # a budget too small for one root move: the move ordered first, unsearched
        best, depth = reference_order(board, windows, mover)[0], 0
    return best, depth, spent, value


# --------------------------------------------------------------------------------------------------------------
# Kernels: the window counts are kept up to date move by move; the rules and the evaluation read them.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def threat_cells(board, cnt, windows, who, out):
    """Kernel of ``reference_threat_cells``: writes the cells into ``out``, returns how many."""
    k = windows.shape[1]
    found = 0
    for w in range(windows.shape[0]):
        if cnt[w, who] == k - 1 and cnt[w, 1 - who] == 0:
            for i in range(k):
                c = windows[w, i]
                if board[c] == 0:
                    seen = False
                    for j in range(found):
                        if out[j] == c:
                            seen = True
                            break
                    if not seen:
                        out[found] = c
                        found += 1
                    break
    return found


@njit(cache=True, inline="always")
def fork_cells(board, cnt, windows, who, made, out):
    """Kernel of ``reference_fork_cells`` (ascending cells into ``out``, returns how many); ``made`` is scratch of
    one entry a cell, all -1 on entry and on return."""
    k = windows.shape[1]
    size = board.shape[0]
    found = 0
    for w in range(windows.shape[0]):
        if cnt[w, who] == k - 2 and cnt[w, 1 - who] == 0:
            a = -1
            b = -1
            for i in range(k):
                c = windows[w, i]
                if board[c] == 0:
                    if a < 0:
                        a = c
                    else:
                        b = c
            for side in range(2):
                cell = a if side == 0 else b
                other = b if side == 0 else a
                if made[cell] == -1:
                    made[cell] = other
                elif made[cell] != other:
                    made[cell] = -2  # two distinct threats: a fork
    for c in range(size):
        if made[c] == -2:
            out[found] = c
            found += 1
        made[c] = -1
    return found


@njit(cache=True, inline="always")
def evaluate(board, cnt, windows, mover, seed_params, threat_params, made, out):
    """Kernel of ``reference_evaluate``."""
    k = windows.shape[1]
    total = evaluate_seed001(board, mover, seed_params)
    for w in range(windows.shape[0]):
        own = cnt[w, mover]
        other = cnt[w, 1 - mover]
        if other == 0:
            total += threat_params[1 + own]
        if own == 0:
            total -= threat_params[1 + k + other]
    forks = fork_cells(board, cnt, windows, 1 - mover, made, out)
    return total - threat_params[1 + 2 * k] * forks


@njit(cache=True, inline="always")
def order_score(cnt, cells, mover, cell):
    """Kernel of ``reference_order_score``; ``cells`` is ``cell_windows``."""
    total = np.int64(0)
    for i in range(cells[cell, 0]):
        w = cells[cell, 1 + i]
        own = cnt[w, mover]
        other = cnt[w, 1 - mover]
        if other == 0:
            total += np.int64(1) << (2 * own + 1)
        if own == 0:
            total += np.int64(1) << (2 * other)
    return total


@njit(cache=True, inline="always")
def order(board, cnt, cells, mover, first, out, scores):
    """Kernel of ``reference_order``: writes the cells into ``out``, returns how many."""
    count = 0
    start = 0
    if first >= 0 and board[first] == 0:
        out[0] = first
        count = 1
        start = 1
    for c in range(board.shape[0]):
        if board[c] != 0 or c == first:
            continue
        s = order_score(cnt, cells, mover, c)
        i = count
        while i > start and scores[i - 1] < s:  # insertion sort: descending score, ascending cell among equals
            out[i] = out[i - 1]
            scores[i] = scores[i - 1]
            i -= 1
        out[i] = c
        scores[i] = s
        count += 1
    return count


@njit(cache=True, inline="always")
def place(board, cnt, cells, cell, mark):
    """Put ``mark`` (1 or 2) on ``cell``, or take it off with ``mark`` negative, keeping the window counts."""
    who = (mark if mark > 0 else -mark) - 1
    step = 1 if mark > 0 else -1
    board[cell] = mark if mark > 0 else 0
    for i in range(cells[cell, 0]):
        cnt[cells[cell, 1 + i], who] += step


@njit(cache=True, inline="always")
def rules(board, cnt, windows, mover, empties, made, out):
    """Kernel of ``reference_rules``: (settled, value or forced cell); not settled with -1: no rule applies."""
    if threat_cells(board, cnt, windows, mover, out) > 0:
        return True, np.int64(WIN + empties - 1)
    theirs = threat_cells(board, cnt, windows, 1 - mover, out)
    if theirs >= 2:
        return True, -np.int64(WIN + empties - 2)
    if theirs == 1:
        return False, np.int64(out[0])
    if fork_cells(board, cnt, windows, mover, made, out) > 0:
        return True, np.int64(WIN + empties - 3)
    return False, np.int64(-1)


_VALUE_ARGS = (int8[::1], int64[:, ::1], int64, int64, int64, int64, int64, int64, int64, int64[:, ::1],
               int64[:, ::1], int64[::1], int64[::1], int64[:, ::1], int64[:, ::1], int64[:, ::1], int64[:, ::1],
               int64[::1], int64[::1])


@njit(int64(*_VALUE_ARGS), cache=True)
def search_value(board, cnt, mover, depth, alpha, beta, empties, ply, key, windows, cells, seed_params,
                 threat_params, keys, table, moves, scores, made, counts):
    """Kernel of ``reference_value``; ``moves[ply]`` and ``scores[ply]`` are this node's scratch rows."""
    counts[0] += 1
    if counts[0] > counts[3]:
        counts[4] = 1
        return np.int64(0)
    out = moves[ply]
    settled, got = rules(board, cnt, windows, mover, empties, made, out)
    if settled:
        return got
    forced = got
    if depth <= 0 and forced < 0:
        counts[1] += 1
        return evaluate(board, cnt, windows, mover, seed_params, threat_params, made, out)
    first, hit, v = probe(table, key, depth, alpha, beta)
    if hit:
        counts[2] += 1
        return v
    alpha0 = alpha
    if forced >= 0:
        out[0] = forced
        count = 1
        child_depth = depth
    else:
        count = order(board, cnt, cells, mover, first, out, scores[ply])
        child_depth = depth - 1
    size = board.shape[0]
    best = -INF
    best_move = -1
    for i in range(count):
        cell = out[i]
        if empties == 1:
            value = np.int64(0)
        else:
            place(board, cnt, cells, cell, mover + 1)
            child_key = key ^ keys[cell, 0] ^ keys[cell, mover + 1] ^ keys[size, 0]
            value = -search_value(board, cnt, 1 - mover, child_depth, -beta, -alpha, empties - 1, ply + 1, child_key,
                                  windows, cells, seed_params, threat_params, keys, table, moves, scores, made,
                                  counts)
            place(board, cnt, cells, cell, -(mover + 1))
            if counts[4]:
                return np.int64(0)
        if value > best:
            best = value
            best_move = cell
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    store(table, key, depth, best, alpha0, beta, best_move)
    return best


@njit(types.UniTuple(int64, 4)(int8[::1], int64, int64[:, ::1], int64[:, ::1], int64[::1], int64[::1], int64,
                               int64, int64[:, ::1]), cache=True, nogil=True)
def deepen(board_in, mover, windows, cells, seed_params, threat_params, budget, max_depth, keys):
    """Kernel of ``reference_deepen``: returns (cell, depth, nodes, value)."""
    size = board_in.shape[0]
    board = board_in.copy()
    cnt = np.zeros((windows.shape[0], 2), np.int64)
    empties = 0
    key = np.int64(0)
    for c in range(size):
        key ^= keys[c, board[c]]
        if board[c] == 0:
            empties += 1
        else:
            for i in range(cells[c, 0]):
                cnt[cells[c, 1 + i], board[c] - 1] += 1
    if mover == 1:
        key ^= keys[size, 0]
    moves = np.empty((size + 2, size), np.int64)
    scores = np.empty((size + 2, size), np.int64)
    made = np.full(size, -1, np.int64)
    out = moves[0]
    settled, got = rules(board, cnt, windows, mover, empties, made, out)
    if settled or got >= 0:
        if not settled:
            return got, 0, 1, 0
        if threat_cells(board, cnt, windows, mover, out) > 0 or threat_cells(board, cnt, windows, 1 - mover, out) > 0:
            return out[0], 0, 1, got
        fork_cells(board, cnt, windows, mover, made, out)
        return out[0], 0, 1, got
    table = np.zeros((TT_SIZE, 5), np.int64)
    counts = np.zeros(5, np.int64)
    spent = np.int64(0)
    best = np.int64(-1)
    depth = np.int64(-1)
    top = np.int64(0)
    root_moves = np.empty(size, np.int64)
    root_scores = np.empty(size, np.int64)
    for d in range(1, max_depth + 1):
        counts[:] = 0
        counts[3] = max(budget - spent, 1)
        counts[0] += 1
        count = order(board, cnt, cells, mover, best, root_moves, root_scores)
        alpha = -INF
        found = np.int64(-1)
        for i in range(count):
            cell = root_moves[i]
            if empties == 1:
                value = np.int64(0)
            else:
                place(board, cnt, cells, cell, mover + 1)
                child_key = key ^ keys[cell, 0] ^ keys[cell, mover + 1] ^ keys[size, 0]
                value = -search_value(board, cnt, 1 - mover, d - 1, -INF, -alpha, empties - 1, 1, child_key, windows,
                                      cells, seed_params, threat_params, keys, table, moves, scores, made, counts)
                place(board, cnt, cells, cell, -(mover + 1))
                if counts[4]:
                    break
            if value > alpha:
                alpha = value
                found = cell
        spent += min(counts[0], counts[3])
        if found >= 0:
            best = found
            depth = d
            top = alpha
        if counts[4] or spent >= budget or alpha >= PROVEN or alpha <= -PROVEN or (counts[1] == 0 and counts[2] == 0):
            break
    if best < 0:
        order(board, cnt, cells, mover, -1, root_moves, root_scores)
        best = root_moves[0]
        depth = 0
    return best, depth, spent, top


class Geometry:
    """The arrays of one board the kernel reads: windows, the windows through each cell, Zobrist keys."""

    def __init__(self, m: int, n: int, k: int):
        self.m, self.n, self.k = m, n, k
        self.windows = np.ascontiguousarray(line_windows(m, n, k), dtype=np.int64)
        self.cells = cell_windows(self.windows, m * n)
        self.keys = zobrist(m * n)


def search(board, mover: int, geometry: Geometry, seed_params, threat_params, budget: int,
           max_depth: int = MAX_DEPTH) -> tuple[int, int, int, int]:
    """Run the kernel from a non-terminal position: (cell, depth of the iteration that chose it, nodes spent, its
    value for ``mover``)."""
    if not 1 <= max_depth <= MAX_DEPTH:
        raise ValueError(f"max_depth={max_depth}; use 1..{MAX_DEPTH}")
    cell, depth, nodes, value = deepen(np.ascontiguousarray(board, dtype=np.int8), int(mover), geometry.windows,
                                geometry.cells, np.ascontiguousarray(seed_params, dtype=np.int64),
                                np.ascontiguousarray(threat_params, dtype=np.int64), int(budget), int(max_depth),
                                geometry.keys)
    return int(cell), int(depth), int(nodes), int(value)
