"""Alpha-beta search for the m,n,k-game: the one alpha-beta (``evoplay.search.minimax_kernel`` over the m,n,k
kernels) given the m,n,k evaluations as the game's own leaf (``k_leaf``, bound as ``Kernels.leaf`` in the copy its
players compile), with the plain-Python reference it must match node for node (``reference_root_values``:
``evoplay.search.minimax_own`` over the m,n,k State).

Values are seen from the root player. A won position is worth ``WIN`` plus the number of empty cells left (a
quicker win is better), a lost one the negative of that, a full board 0. At the depth horizon the position is
scored by an evaluation chosen by ``eval_kind`` with its integer ``params``:

- ``EVAL_LINES`` (0): line counts. Every window of k cells in a row, column or diagonal that holds stones of
  one player only scores ``params[c]`` for that player, c being its number of stones (default 10^(c-1)).

- ``EVAL_SEED001`` (1): the evaluation parameters of seed 001's genome, packed by ``seed001_params``: a weight
  per occupied cell (the positional weight of the cell's symmetry class and the stone's owner, times the
  positional scale factor) plus, for every maximal run of 1..k-1 consecutive stones of one owner along a row or
  column (h) or a diagonal (d), the streak weight of its owner, direction class and length, times the streak
  scale factor. The total is the first player's (X) sum minus the second's (O), negated when the root is O.
  A flag in the parameters restricts the streaks to live runs, those that can still grow to k (evoplay's
  variant; the seed counts every run).
  k in a row is the fixed value ``WIN`` (the terminal value below), beyond any sum of the 8-bit parameters.

Cells are visited in index order and only a strictly better value replaces the best: ties go to the lowest cell.

A node budget (``nodes`` = [count, budget]) cuts a search off: once the count passes the budget no further child
is searched, and the caller, seeing ``count > budget``, drops the search's values. A deadline sets the budget to 0
from another thread while the kernel runs (``search(deadline=...)``). Without a budget it is the largest int64,
which no search reaches.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from numba import int64, njit
from numba.typed import Dict

from evoplay.errors import SpecError
from evoplay.interrupt import NO_BUDGET
from evoplay.games.base import TERMINAL
from evoplay.games.mnk.game import DIRECTIONS, direction
from evoplay.games.kernels import specialise
from evoplay.search import minimax_game, minimax_own
from evoplay.search.leaf_kernel import GAME, Leaf
from evoplay.search.minimax_budget import COUNTERS, LIMIT
from evoplay.search.minimax_kernel import ENTRY

INF = 1 << 40
WIN = 1 << 30
INTERRUPTIBLE_DEPTH = 5
EVAL_LINES = 0
EVAL_SEED001 = 1

SEED001_SCHEDULE = ((20, 2), (13, 3), (10, 4), (9, 5), (0, 7))  # (at least this many empty cells, depth)


def schedule_depth(empties: int, schedule=SEED001_SCHEDULE) -> int:
    """The seed's depth schedule: 20-25 empty squares depth 2, 13-19: 3, 10-12: 4, 9: 5, 8 or fewer: 7."""
    for threshold, depth in schedule:
        if empties >= threshold:
            return depth
    return schedule[-1][1]


SCHEDULES = ("none", "empty_cells")  # the depth by empty cells (seed 001's), or none
#: the old names of the schedules, still read: "seed001" was the empty-cells schedule's name
SCHEDULE_ALIASES = (("seed001", "empty_cells"),)


def schedule_name(name: str, who: str) -> str:
    """The schedule ``name`` stands for (an old name gives the new one); SpecError naming ``who`` if unknown."""
    name = dict(SCHEDULE_ALIASES).get(name, name)
    if name not in SCHEDULES:
        raise SpecError(f"{who}: unknown schedule '{name}'; known: {', '.join(SCHEDULES)}")
    return name


def line_windows(m: int, n: int, k: int) -> np.ndarray:
    """All windows of k cells in a line, as a (windows, k) int64 array of cell indices."""
    out = []
    for r in range(n):
        for c in range(m):
            for dr, dc in DIRECTIONS:
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < n and 0 <= cc < m for rr, cc in cells):
                    out.append([rr * m + cc for rr, cc in cells])
    return np.array(out, dtype=np.int64).reshape(-1, k)


def default_line_weights(k: int) -> np.ndarray:
    return np.array([0] + [10 ** (c - 1) for c in range(1, k + 1)], dtype=np.int64)


def position_classes(m: int, n: int) -> tuple[np.ndarray, list[str]]:
    """The board's symmetry classes of cells (seed 001's Figure 2 on 5x5) and their names.

    A cell's class is its (row band, column band): how far it lies from the nearest edge along each axis, 1 at
    the edge. Mirroring a row or a column keeps both bands; on a square board the transpose swaps them, so the
    pair is sorted there. On 5x5 that gives the seed's six classes 11, 12, 13, 22, 23, 33. Returns the class
    index of every cell (row-major, as the game's actions) and the class names in order.
    """
    keys = []
    for r in range(n):
        for c in range(m):
            a, b = min(r, n - 1 - r) + 1, min(c, m - 1 - c) + 1
            keys.append(tuple(sorted((a, b))) if m == n else (a, b))
    order = sorted(set(keys))
    wide = any(x >= 10 for key in order for x in key)
    names = [f"{a}_{b}" if wide else f"{a}{b}" for a, b in order]
    index = {key: i for i, key in enumerate(order)}
    return np.array([index[key] for key in keys], dtype=np.int64), names


SEED001_HEADER = 4  # m, n, k, live_only


def seed001_params(m: int, n: int, k: int, positional_x, positional_o, streak_hv_x, streak_d_x, streak_hv_o,
                   streak_d_o, scale_positional: int, scale_streak: int, live_only: bool = False) -> np.ndarray:
    """Pack seed 001's evaluation parameters for ``EVAL_SEED001``.

    ``positional_*`` hold one weight per class of ``position_classes(m, n)``; ``streak_*`` one weight per run
    length 1..k-1 (rows and columns: hv, diagonals: d), for the first player (x) and the second (o). The scale
    factors are multiplied in here, so the kernel only adds. With ``live_only`` a run counts only when it can
    still grow to k: the cells around it along its line that are empty or its owner's leave room for k (the
    seed counts every run; this is evoplay's variant). Layout: m, n, k, live_only, X's weight per cell, O's
    weight per cell, then for X-hv, X-d, O-hv, O-d a block of k entries indexed by run length (entry 0 unused).
    """
    classes, names = position_classes(m, n)
    size = m * n
    for label, weights, want in (
        ("positional_x", positional_x, len(names)), ("positional_o", positional_o, len(names)),
        ("streak_hv_x", streak_hv_x, k - 1), ("streak_d_x", streak_d_x, k - 1),
        ("streak_hv_o", streak_hv_o, k - 1), ("streak_d_o", streak_d_o, k - 1),
    ):
        if len(weights) != want:
            raise ValueError(f"{label} needs {want} weights for mnk({m},{n},{k}), got {len(weights)}")
    out = np.zeros(SEED001_HEADER + 2 * size + 4 * k, dtype=np.int64)
    out[:4] = (m, n, k, int(bool(live_only)))
    pos_x = np.asarray(positional_x, dtype=np.int64) * int(scale_positional)
    pos_o = np.asarray(positional_o, dtype=np.int64) * int(scale_positional)
    out[4 : 4 + size] = pos_x[classes]
    out[4 + size : 4 + 2 * size] = pos_o[classes]
    base = 4 + 2 * size
    for block, weights in enumerate((streak_hv_x, streak_d_x, streak_hv_o, streak_d_o)):
        out[base + block * k + 1 : base + (block + 1) * k] = np.asarray(weights, dtype=np.int64) * int(scale_streak)
    return out


# --------------------------------------------------------------------------------------------------------------
# Reference.
# --------------------------------------------------------------------------------------------------------------


def reference_evaluate(board, root: int, eval_kind: int, params, windows) -> int:
    if eval_kind == EVAL_SEED001:
        return _reference_seed001(board, root, params)
    if eval_kind != EVAL_LINES:
        raise ValueError(f"the reference has no evaluation kind {eval_kind}")
    total = 0
    own, opp = root + 1, 2 - root
    for window in windows:
        a = sum(1 for cell in window if board[cell] == own)
        b = sum(1 for cell in window if board[cell] == opp)
        if b == 0 and a > 0:
            total += int(params[a])
        elif a == 0 and b > 0:
            total -= int(params[b])
    return total


def _reference_seed001(board, root: int, params) -> int:
    m, n, k, live_only = (int(x) for x in params[:4])
    size = m * n
    streak_base = 4 + 2 * size
    totals = [0, 0]  # X, O
    for cell in range(size):
        owner = board[cell] - 1
        if owner < 0:
            continue
        totals[owner] += int(params[4 + owner * size + cell])
        row, col = divmod(cell, m)
        for d, (dr, dc) in enumerate(DIRECTIONS):
            pr, pc = row - dr, col - dc
            if 0 <= pr < n and 0 <= pc < m and board[pr * m + pc] == owner + 1:
                continue  # not the first stone of its run
            length = 0
            r, c = row, col
            while 0 <= r < n and 0 <= c < m and board[r * m + c] == owner + 1:
                length += 1
                r, c = r + dr, c + dc
            if live_only:
                room = length  # cells of the line around the run that its owner could still fill
                for sign, (sr, sc) in ((1, (r, c)), (-1, (pr, pc))):
                    while room < k and 0 <= sr < n and 0 <= sc < m and board[sr * m + sc] in (0, owner + 1):
                        room += 1
                        sr, sc = sr + sign * dr, sc + sign * dc
                if room < k:
                    continue
            if length < k:
                block = owner * 2 + (0 if d < 2 else 1)
                totals[owner] += int(params[streak_base + block * k + length])
    value = totals[0] - totals[1]
    return value if root == 0 else -value


def reference_root_values(board, player, depth, m, n, k, eval_kind, params, windows, exact_ties,
                          budget=NO_BUDGET):
    """The search in plain Python (``minimax_own.root_values`` over the m,n,k State with ``reference_leaf``): the
    values of the cells (minus ``INF`` for the occupied ones), the first best cell and the node count (past
    ``budget`` when the budget cut the search off)."""
    from evoplay.games.mnk.game import MnkGame, MnkState

    state = MnkState(MnkGame(m=m, n=n, k=k), np.array([int(v) for v in board], np.int8), int(player), -1)
    actions, values, best, nodes = minimax_own.root_values(
        state, depth, lambda s, root, ply: reference_leaf(s, root, eval_kind, params, windows), exact_ties,
        None if budget >= NO_BUDGET else budget)
    out = [-INF] * (m * n)
    for a, v in zip(actions, values):
        out[a] = int(v)
    return out, best, nodes


def reference_leaf(state, root: int, eval_kind: int, params, windows) -> int:
    """A finished game's value (by the empty cells left) or the evaluation of ``state`` from ``root``'s side."""
    if state.current_player() == TERMINAL:
        return _terminal_value(state._winner, root, state.empties())
    return reference_evaluate([int(v) for v in state._board], root, eval_kind, params, windows)


def _terminal_value(winner: int, root: int, empties_left: int) -> int:
    if winner < 0:
        return 0
    return WIN + empties_left if winner == root else -(WIN + empties_left)


# --------------------------------------------------------------------------------------------------------------
# Kernels.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def evaluate(board, root, eval_kind, params, windows):
    """Kernel of ``reference_evaluate``."""
    if eval_kind == EVAL_SEED001:
        return evaluate_seed001(board, root, params)
    total = np.int64(0)
    own = root + 1
    opp = 2 - root
    nwin, k = windows.shape
    for w in range(nwin):
        a = 0
        b = 0
        for i in range(k):
            v = board[windows[w, i]]
            if v == own:
                a += 1
            elif v == opp:
                b += 1
        if b == 0 and a > 0:
            total += params[a]
        elif a == 0 and b > 0:
            total -= params[b]
    return total


@njit(cache=True)
def evaluate_seed001(board, root, params):
    """Kernel of ``_reference_seed001``: positional weights plus streak weights, X minus O, from the root."""
    m = params[0]
    n = params[1]
    k = params[2]
    live_only = params[3] != 0
    size = m * n
    streak_base = 4 + 2 * size
    x_total = np.int64(0)
    o_total = np.int64(0)
    for cell in range(size):
        mark = board[cell]
        if mark == 0:
            continue
        owner = mark - 1
        value = params[4 + owner * size + cell]
        row = cell // m
        col = cell - row * m
        for d in range(4):
            dr, dc = direction(d)
            pr = row - dr
            pc = col - dc
            if 0 <= pr < n and 0 <= pc < m and board[pr * m + pc] == mark:
                continue
            length = 0
            r = row
            c = col
            while 0 <= r < n and 0 <= c < m and board[r * m + c] == mark:
                length += 1
                r += dr
                c += dc
            if live_only:
                room = length
                sr = r
                sc = c
                while room < k and 0 <= sr < n and 0 <= sc < m:
                    v = board[sr * m + sc]
                    if v != 0 and v != mark:
                        break
                    room += 1
                    sr += dr
                    sc += dc
                sr = pr
                sc = pc
                while room < k and 0 <= sr < n and 0 <= sc < m:
                    v = board[sr * m + sc]
                    if v != 0 and v != mark:
                        break
                    room += 1
                    sr -= dr
                    sc -= dc
                if room < k:
                    continue
            if length < k:
                block = owner * 2 + (0 if d < 2 else 1)
                value += params[streak_base + block * k + length]
        if owner == 0:
            x_total += value
        else:
            o_total += value
    if root == 0:
        return x_total - o_total
    return o_total - x_total


@njit(cache=True, inline="always")
def terminal_value(winner, root, empties_left):
    if winner < 0:
        return np.int64(0)
    if winner == root:
        return np.int64(WIN + empties_left)
    return -np.int64(WIN + empties_left)


@njit(cache=True, inline="always")
def k_leaf(params, position, root, ply, leaf, row, stack):
    """The m,n,k-game's own leaf, bound as ``Kernels.leaf`` in its own players' copy of the one alpha-beta
    (``kernels``): ``reference_leaf`` of the position (the cells, then the player to move or TERMINAL, the empty cells, the winner), the evaluation
    ``leaf.index`` (EVAL_LINES, EVAL_SEED001) with its ``params`` as the Leaf's ``args`` and the line windows
    (``line_windows``, flattened) as its ``slots``."""
    size = params[0] * params[1]
    if position[size] == TERMINAL:
        return np.float64(terminal_value(np.int64(position[size + 2]), root, np.int64(position[size + 1])))
    return np.float64(evaluate(position, root, leaf.index, leaf.args, leaf.slots.reshape((-1, params[2]))))


def kernels():
    """The m,n,k-game's kernels with its own leaf (``k_leaf``) bound: the game's own players' copy of the one
    alpha-beta (any m, n, k: a search takes the game's own ``params``)."""
    from evoplay.games.mnk.game import MnkGame

    return replace(MnkGame().kernels(), leaf=k_leaf)


_root_values_within = specialise("evoplay.search.minimax_game", kernels()).root_values_within


@njit(cache=True, nogil=True)
def search_within(board, player, depth, m, n, k, eval_kind, params, windows, exact_ties, values, counters):
    """The search as ``search`` runs it: ``root_values_within`` from (``board``, ``player``) with the evaluation
    ``eval_kind`` (its ``params``, the ``windows`` of ``line_windows``), the values (int64) into ``values``."""
    size = m * n
    position = np.empty(size + 3, np.int16)
    empties = 0
    for c in range(size):
        position[c] = board[c]
        if board[c] == 0:
            empties += 1
    position[size] = player
    position[size + 1] = empties
    position[size + 2] = -1
    empty_f, empty_i = np.zeros(0, np.float64), np.zeros(0, np.int64)
    leaf = Leaf(np.int64(GAME), False, np.int64(eval_kind), False, empty_f, empty_f, empty_i, params, empty_f,
                np.int64(0), np.zeros(8, np.int64), windows.reshape(windows.size))
    return _root_values_within(np.array([m, n, k], np.int64), position, player, depth, leaf, exact_ties, values, -INF,
                               2, 1, Dict.empty(int64, ENTRY), counters)


@njit(cache=True, nogil=True)
def search_plain(board, player, depth, m, n, k, eval_kind, params, windows, exact_ties, values):
    """``search_within`` without a budget."""
    counters = np.zeros(COUNTERS, np.int64)
    counters[LIMIT] = NO_BUDGET  # (minimax_budget's counters)
    return search_within(board, player, depth, m, n, k, eval_kind, params, windows, exact_ties, values, counters)


def search(board, player, depth, m, n, k, eval_kind, params, windows, exact_ties=False, nodes=None, deadline=None):
    """Run the one alpha-beta (``evoplay.search.minimax_kernel``) with the m,n,k leaf from a position: returns
    (values per cell, int64, first best cell, nodes searched); ``nodes`` and ``deadline`` as
    ``minimax_game.run_game_search`` takes them."""
    values = np.empty(m * n, np.int64)
    args = (np.asarray(board), int(player), int(depth), int(m), int(n), int(k), int(eval_kind),
            np.ascontiguousarray(params, dtype=np.int64), np.ascontiguousarray(windows, dtype=np.int64),
            bool(exact_ties), values)
    # From depth 5 on an open board one search takes a tenth of a second or more: run it where Ctrl-C can stop it.
    best, count = minimax_game.run_game_search(search_plain, search_within, args, nodes, deadline,
                                                 depth >= INTERRUPTIBLE_DEPTH)
    return values, int(best), int(count)


# --------------------------------------------------------------------------------------------------------------
# Seed 001's genome for the m,n,k-game: its fields, and the parameters of EVAL_SEED001 they decode to.
# --------------------------------------------------------------------------------------------------------------

WEIGHT_BITS = 8
DEPTH_BITS = 3


def mnk_schema(m: int = 5, n: int = 5, k: int = 4) -> Schema:
    """Seed 001's genome for an m x n board and k in a row, in the seed's order.

    Positional weights ``sq<class>x`` then ``sq<class>o`` (classes from ``position_classes``),
    streak weights ``h<L>x``, ``h<L>o``, ``d<L>x``, ``d<L>o`` for L = 1..k-1, ``scale_sq``, ``scale_cons``
    (8 bits each) and ``search_depth`` (3 bits). On 5,5,4: 12 + 12 + 2 eight-bit fields + 3 bits = 211 bits.
    """
    from evoplay.ga import DEPTH_FIELD, Field, Schema

    if k < 2:
        raise SpecError(f"the seed-001 genome needs k >= 2 (streaks of 1..k-1 stones); got k={k}")
    _, classes = position_classes(m, n)
    fields = [Field(f"sq{c}{p}", WEIGHT_BITS, help=f"positional weight of class {c} for {p.upper()}")
              for p in "xo" for c in classes]
    for kind, where in (("h", "row or column"), ("d", "diagonal")):
        for p in "xo":
            fields += [Field(f"{kind}{length}{p}", WEIGHT_BITS, help=f"{p.upper()} run of {length} along a {where}")
                       for length in range(1, k)]
    fields += [
        Field("scale_sq", WEIGHT_BITS, help="scale factor of the positional weights"),
        Field("scale_cons", WEIGHT_BITS, help="scale factor of the streak weights"),
        Field(DEPTH_FIELD, DEPTH_BITS, help="search depth (the seed's schedule caps it; 0 plays as 1)"),
    ]
    return Schema(fields)


STREAKS = ("all", "live")


def mnk_search_params(record: dict, m: int, n: int, k: int, streaks: str = "all") -> np.ndarray:
    """Pack a decoded seed-001 genome into the ``EVAL_SEED001`` parameters of ``evoplay.games.mnk.search``.

    ``streaks="all"`` counts every run as the seed does; ``"live"`` only runs that can still grow to k.
    """
    if streaks not in STREAKS:
        raise SpecError(f"weights: streaks={streaks!r}; use one of {', '.join(STREAKS)}")
    _, classes = position_classes(m, n)
    runs = range(1, k)
    return seed001_params(
        m, n, k,
        [record[f"sq{c}x"] for c in classes], [record[f"sq{c}o"] for c in classes],
        [record[f"h{r}x"] for r in runs], [record[f"d{r}x"] for r in runs],
        [record[f"h{r}o"] for r in runs], [record[f"d{r}o"] for r in runs],
        record["scale_sq"], record["scale_cons"], live_only=streaks == "live",
    )
