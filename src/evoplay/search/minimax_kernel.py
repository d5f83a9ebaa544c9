"""Alpha-beta over a game's kernels: evoplay.search.minimax inside Numba, compiled once per game.

The same search as ``minimax.search`` (its docstring gives the rules) for a turn-based game of perfect information
that hands over kernels (evoplay.games.kernels): the same nodes in the same order, counted alike, every value by the
same arithmetic, so it returns what the search through the State returns, node budget included; a node's position
is a row of a stack of arrays, the transposition table keyed by the game's ``state_hash``.

The leaf (a ``Leaf`` of evoplay.search.leaf_kernel: the score difference, one named feature, or a feature player's
evaluation) is scored one leaf at a time or, ``batched``, for all the children of a depth-1 node together (no
pruning at the last ply, as the feature players search). ``after_values`` scores each legal move's after-state
(the feature players' policy ``move``).

**A game's own players** (Kalah's searches and iterative deepening, m,n,k's: entries in evoplay.search.minimax_game)
are this search given the game's own leaf: a ``Leaf`` of kind GAME valued by the game's ``Kernels.leaf``
(``game_leaf``, given the plies from the root), finished positions included, those on the horizon counted into
``counters[HORIZON]`` (values taken from the table into ``HITS``, but an entry's stored ``FINAL``: no horizon and
no such hit below it, the whole game there searched, it holds at any depth); with a table the game's
``Kernels.order`` (where given) orders the moves instead of the history.

Compiled per game by ``evoplay.games.kernels.specialise`` (``game_*`` that game's kernels, ``USES`` its leaf).

Speed: ``value`` loops over a stack of frames on ``uncounted`` views of its arrays (Numba's reference counts were
three quarters of its time), a depth-1 node valuing its children in place: Kalah depth 8 21 M nodes a CPU second.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit, types
from numba.np import numpy_support
from numba.typed import Dict

from evoplay.games.base import CHANCE, TERMINAL
from evoplay.games.kernels import Kernels, kernels_of, specialise, uncounted
# FEATURE, SCORE and make_leaf are the leaf's names, not used here: a caller may take them beside the search's.
from evoplay.search.leaf_kernel import (FEATURE, GAME, LINEAR, PROGRAM, SCORE, Leaf, clip_value,  # noqa: F401
                                       evaluate, make_leaf, score_difference, uncounted_leaf)
from evoplay.search.minimax import EXACT, FINAL, LOWER, TABLE_LIMIT, TERMINAL_SCALE, UPPER, Budget
from evoplay.search.minimax_budget import (ABORTED, COMPLETED, COUNTERS, HITS, HORIZON, LIMIT, NO_END, NO_LIMIT, NODES,
                                           list_actions, order_actions, sort_descending, spend)

# The game's kernels and what it gives: bound per game by evoplay.games.kernels.specialise.
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = game_leaf = game_order = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = HAS_GAME_LEAF = HAS_GAME_ORDER = False
USES = ("evoplay.search.leaf_kernel",)  # the leaf, compiled for the same game

#: rows of the position stack beyond the depth: chance nodes take a row but no ply of the depth
CHANCE_ROWS = 24
ENTRY = types.Tuple((types.int64, types.float64, types.int64, types.int64))  # depth, value, flag, best action


# --- small kernels ----------------------------------------------------------------------------------------------
@njit(cache=True)
def terminal_value(params, pos, player, depth, scores):
    """A finished game's value: the true result, ``returns[player] * (TERMINAL_SCALE + plies left)``."""
    game_returns(params, pos, scores)
    return scores[player] * (TERMINAL_SCALE + depth)


# --- the search ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def frontier(params, ply, player, maximise, n, work, leaf, counters, deadline):
    """All the children of a depth-1 node valued as leaves (terminal ones exactly); their best for the mover."""
    positions, masks, actions, probs, scores, row, stack = work
    if spend(counters, deadline, n):
        return 0.0
    node = positions[ply]
    child = positions[ply + 1]
    best = -math.inf if maximise else math.inf
    mask = masks[ply + 1]
    for i in range(n):
        child[:] = node
        game_apply(params, child, actions[ply, i])
        mover = game_mover(params, child)  # leaf_value's rules written out, as in ``value``
        if mover == TERMINAL:
            v = terminal_value(params, child, player, 0, scores)
        elif HAS_CHANCE and mover == CHANCE:
            v = chance_value(params, ply + 1, player, work, leaf, counters, deadline)
            if counters[ABORTED]:
                return 0.0
        else:
            v = evaluate(params, child, player, leaf, mask, scores, row, stack)
        if maximise:
            if v > best:
                best = v
        elif v < best:
            best = v
    return best


@njit(cache=True)
def outcomes(params, node, p):
    """The chance node ``node``'s outcome probabilities into ``p`` (by action); returns their sum."""
    game_chance(params, node, p)
    mass = 0.0
    for a in range(p.shape[0]):
        if p[a] > 0:
            mass += p[a]
    return mass


def chance_value(params, ply, player, work, leaf, counters, deadline):
    """The value of the chance node at row ``ply`` on the search's horizon (its visit already counted): the
    expectation over its outcomes, each valued as a leaf (``minimax``'s ``_Search.chance_leaf``); 0 once the
    budget aborted the search."""
    positions, masks, actions, probs, scores, row, stack = work
    if ply + 1 >= positions.shape[0]:
        raise RuntimeError("kernel alpha-beta: more chance nodes in a row than its position stack holds")
    node = positions[ply]
    child = positions[ply + 1]
    p = probs[ply]
    mass = outcomes(params, node, p)
    total = 0.0
    for a in range(p.shape[0]):
        if p[a] > 0:
            if spend(counters, deadline, 1):
                return 0.0
            child[:] = node
            game_apply(params, child, a)
            mover = game_mover(params, child)
            if mover == TERMINAL:
                v = terminal_value(params, child, player, 0, scores)
            elif mover == CHANCE:
                v = chance_value(params, ply + 1, player, work, leaf, counters, deadline)
                if counters[ABORTED]:
                    return 0.0
            elif HAS_GAME_LEAF and leaf.kind == GAME:
                v = game_leaf(params, child, player, ply + 1, leaf, row, stack)
            elif leaf.kind == SCORE:  # the material leaf without handing the Leaf's arrays on: 1.5x the nodes
                v = clip_value(score_difference(params, child, player, scores))
            else:
                v = evaluate(params, child, player, leaf, masks[ply + 1], scores, row, stack)
            total += p[a] * v
    return total / mass


@njit(cache=True)
def leaf_value(params, ply, player, work, leaf, counters, deadline):
    """The value of the position at row ``ply`` on the search's horizon, its visit already counted: a finished
    game's true result, a chance node's expectation (dice pending are not a leaf), else the leaf evaluation."""
    positions, masks, actions, probs, scores, row, stack = work
    pos = positions[ply]
    mover = game_mover(params, pos)
    if mover == TERMINAL:
        return terminal_value(params, pos, player, 0, scores)
    if HAS_CHANCE and mover == CHANCE:
        return chance_value(params, ply, player, work, leaf, counters, deadline)
    return evaluate(params, pos, player, leaf, masks[ply], scores, row, stack)


@njit(cache=True, inline="always")
def backup(maximise, v, action, best, best_action, alpha, beta):
    """A child's value ``v`` (by ``action``) backed up into its node: a strictly better value replaces the best (the
    highest for a maximising node, which raises ``alpha``; else the lowest, lowering ``beta``)."""
    if maximise:
        if v > best:
            best = v
            best_action = action
        if best > alpha:
            alpha = best
    else:
        if v < best:
            best = v
            best_action = action
        if best < beta:
            beta = best
    return best, best_action, alpha, beta


@njit(cache=True, inline="always")
def uncounted_work(work):
    """``work`` as ``uncounted`` views (evoplay.games.kernels), its caller holding the arrays."""
    positions, masks, actions, probs, scores, row, stack = work
    return (uncounted(positions), uncounted(masks), uncounted(actions), uncounted(probs), uncounted(scores),
            uncounted(row), uncounted(stack))


# value's states: a node entered, its next child searched, its search finished, its value handed to its parent
ENTER, NEXT, DONE, BACK = 0, 1, 2, 3
# the columns of value's saved frames: integers, then floats
F_DEPTH, F_BEST_ACTION, F_AT, F_COUNT, F_MAXIMISE, F_KEY, F_KEYED, F_CHANCE, F_MARK = range(9)
F_ALPHA, F_BETA, F_ALPHA0, F_BETA0, F_BEST, F_TOTAL, F_MASS = range(7)


@njit(cache=True)
def value(params, ply, player, depth, alpha, beta, work, leaf, counters, deadline, table, use_table, history):
    """The alpha-beta value of ``work``'s position row ``ply`` searched ``depth`` plies, from ``player``'s side
    (minimax's ``_Search.value``); 0 once the budget aborted the search.

    A loop over an explicit stack of frames, one per row below ``ply`` (a chance node takes a row as a move does),
    not recursion: the same nodes, order and arithmetic at twice the speed. It works on ``uncounted`` views of its
    arguments (held by its caller): Numba otherwise counted references around every kernel call, three quarters of
    the search's time. ``state`` says what the loop does next at row ``ply``: ENTER the node there (its visit
    counted, a leaf or finished game valued at once), search its NEXT child (a search node's action ``at``, a chance
    node's outcome after ``at``), its search is DONE (the table stored), or hand its value ``v`` BACK to the row
    above. Once aborted it returns 0 at once, storing nothing."""
    params, counters, deadline, history = uncounted(params), uncounted(counters), uncounted(deadline), uncounted(history)
    work, leaf = uncounted_work(work), uncounted_leaf(leaf)
    positions, masks, actions, probs, scores, row, stack = work
    rows = positions.shape[0]
    top = ply
    ints = np.empty((rows, 9), np.int64)
    floats = np.empty((rows, 7), np.float64)
    batched = leaf.batched
    material = leaf.kind == SCORE
    own_leaf = HAS_GAME_LEAF and leaf.kind == GAME  # the game's own leaf values finished positions too
    # the frame of the node at row ``ply``
    maximise = False
    chance = False
    at = 0
    n = 0
    best_action = np.int64(0)
    key = np.int64(0)
    keyed = False
    mark = np.int64(0)  # HORIZON + HITS when the node's search began (``FINAL`` entries)
    alpha0 = alpha
    beta0 = beta
    best = 0.0
    total = 0.0
    mass = 1.0
    v = 0.0
    state = ENTER
    while True:
        if state == ENTER:
            if spend(counters, deadline, 1):
                return 0.0
            node = positions[ply]
            mover = game_mover(params, node)
            state = BACK
            if own_leaf and (mover == TERMINAL or (depth <= 0 and mover != CHANCE)):
                v = game_leaf(params, node, player, ply, leaf, row, stack)
                counters[HORIZON] += mover != TERMINAL
            elif mover == TERMINAL:
                v = terminal_value(params, node, player, depth, scores)
            elif depth <= 0 and mover != CHANCE:
                v = evaluate(params, node, player, leaf, masks[ply], scores, row, stack)
            else:
                if ply + 1 >= rows:
                    raise RuntimeError("kernel alpha-beta: more chance nodes in a row than its position stack holds")
                if mover == CHANCE:
                    chance = True
                    mass = outcomes(params, node, probs[ply])
                    total = 0.0
                    at = -1
                    state = NEXT
                else:
                    chance = False
                    maximise = mover == player
                    n = game_legal(params, node, mover, masks[ply])
                    own = actions[ply]
                    list_actions(masks[ply], own)
                    if depth == 1 and batched:
                        v = frontier(params, ply, player, maximise, n, work, leaf, counters, deadline)
                        if counters[ABORTED]:
                            return 0.0
                    else:
                        key = np.int64(0)
                        keyed = False
                        hit = False
                        first = -1
                        if use_table:
                            if HAS_HASH:
                                key = game_state_hash(params, node)
                                keyed = True
                                if key in table:
                                    stored_depth, stored, flag, stored_action = table[key]
                                    if stored_depth >= depth and (flag == EXACT or (flag == LOWER and stored >= beta)
                                                                  or (flag == UPPER and stored <= alpha)):
                                        v = stored
                                        hit = True
                                        counters[HITS] += stored_depth < FINAL
                                    first = stored_action
                            if not hit and HAS_GAME_ORDER:  # the game's own order (Kalah's players)
                                game_order(params, node, own, n, first)
                            elif not hit:
                                order_actions(own, n, history, first)
                        if not hit:
                            alpha0 = alpha
                            beta0 = beta
                            mark = counters[HORIZON] + counters[HITS]
                            best = -math.inf if maximise else math.inf
                            best_action = own[0]
                            at = 0
                            state = NEXT
        elif state == NEXT:
            node = positions[ply]
            child = positions[ply + 1]
            if chance:
                state = BACK
                v = total / mass
                at += 1
                while at < probs.shape[1]:
                    if probs[ply, at] > 0:
                        for j in range(node.shape[0]):
                            child[j] = node[j]
                        game_apply(params, child, at)
                        state = ENTER
                        break
                    at += 1
                if state == ENTER:  # search the outcome with the full window, the same depth
                    ints[ply, F_DEPTH] = depth
                    ints[ply, F_AT] = at
                    ints[ply, F_CHANCE] = 1
                    floats[ply, F_ALPHA] = alpha
                    floats[ply, F_BETA] = beta
                    floats[ply, F_TOTAL] = total
                    floats[ply, F_MASS] = mass
                    ply += 1
                    alpha = -math.inf
                    beta = math.inf
                continue
            state = DONE
            while at < n:
                a = actions[ply, at]
                for j in range(node.shape[0]):
                    child[j] = node[j]
                game_apply(params, child, a)
                if depth > 1:
                    state = ENTER
                    break
                # A leaf child is valued here, as ``leaf_value`` would, without a call: most nodes are leaves.
                if spend(counters, deadline, 1):
                    return 0.0
                mover_after = game_mover(params, child)
                if own_leaf and mover_after != CHANCE:
                    w = game_leaf(params, child, player, ply + 1, leaf, row, stack)
                    counters[HORIZON] += mover_after != TERMINAL
                elif mover_after == TERMINAL:
                    w = terminal_value(params, child, player, 0, scores)
                elif HAS_CHANCE and mover_after == CHANCE:
                    w = chance_value(params, ply + 1, player, work, leaf, counters, deadline)
                    if counters[ABORTED]:
                        return 0.0
                elif material:  # the material leaf without handing the Leaf's arrays on: 1.5x the nodes
                    w = clip_value(score_difference(params, child, player, scores))
                else:
                    w = evaluate(params, child, player, leaf, masks[ply + 1], scores, row, stack)
                # (leaf_value's rules written out: a call handing it ``work`` cost a quarter of the search's time)
                best, best_action, alpha, beta = backup(maximise, w, a, best, best_action, alpha, beta)
                if alpha >= beta:
                    if use_table:
                        history[a] += depth * depth
                    break
                at += 1
            if state == ENTER:  # search the child one ply shallower within the node's window
                ints[ply, F_DEPTH] = depth
                ints[ply, F_BEST_ACTION] = best_action
                ints[ply, F_AT] = at
                ints[ply, F_COUNT] = n
                ints[ply, F_MAXIMISE] = maximise
                ints[ply, F_KEY] = key
                ints[ply, F_KEYED] = keyed
                ints[ply, F_CHANCE] = 0
                ints[ply, F_MARK] = mark
                floats[ply, F_ALPHA] = alpha
                floats[ply, F_BETA] = beta
                floats[ply, F_ALPHA0] = alpha0
                floats[ply, F_BETA0] = beta0
                floats[ply, F_BEST] = best
                ply += 1
                depth -= 1
        elif state == DONE:
            if keyed:
                if len(table) >= TABLE_LIMIT:
                    table.clear()
                flag = EXACT
                if best <= alpha0:
                    flag = UPPER
                elif best >= beta0:
                    flag = LOWER
                whole = own_leaf and counters[HORIZON] + counters[HITS] == mark  # the whole game below searched
                table[key] = (np.int64(FINAL if whole else depth), best, np.int64(flag), np.int64(best_action))
            v = best
            state = BACK
        else:  # BACK: ``v`` is the value of the node at row ``ply``
            if ply == top:
                return v
            ply -= 1
            depth = ints[ply, F_DEPTH]
            at = ints[ply, F_AT]
            alpha = floats[ply, F_ALPHA]
            beta = floats[ply, F_BETA]
            if ints[ply, F_CHANCE] != 0:
                chance = True
                total = floats[ply, F_TOTAL] + probs[ply, at] * v
                mass = floats[ply, F_MASS]
                state = NEXT
                continue
            chance = False
            best_action = ints[ply, F_BEST_ACTION]
            n = ints[ply, F_COUNT]
            maximise = ints[ply, F_MAXIMISE] != 0
            key = ints[ply, F_KEY]
            keyed = ints[ply, F_KEYED] != 0
            mark = ints[ply, F_MARK]
            alpha0 = floats[ply, F_ALPHA0]
            beta0 = floats[ply, F_BETA0]
            best = floats[ply, F_BEST]
            a = actions[ply, at]
            best, best_action, alpha, beta = backup(maximise, v, a, best, best_action, alpha, beta)
            if alpha >= beta:
                if use_table:
                    history[a] += depth * depth
                state = DONE
            else:
                at += 1
                state = NEXT


def value_signature(kernels: Kernels):
    """``value``'s explicit signature for a game: a recursive kernel loads from Numba's cache only with one."""
    positions = types.Array(numpy_support.from_dtype(np.dtype(kernels.dtype)), 2, "C")
    f2, i2, i1 = types.Array(types.float64, 2, "C"), types.Array(types.int64, 2, "C"), types.Array(types.int8, 2, "C")
    f1, n1 = types.Array(types.float64, 1, "C"), types.Array(types.int64, 1, "C")
    work = types.Tuple((positions, i1, i2, f2, f1, f1, f1))
    leaf = types.NamedTuple((types.int64, types.boolean, types.int64, types.boolean, f1, f1, n1, n1, f1, types.int64,
                             n1, n1), Leaf)
    return types.float64(n1, types.int64, types.int64, types.int64, types.float64, types.float64, work, leaf, n1,
                         f1, types.DictType(types.int64, ENTRY), types.boolean, n1)


def chance_value_signature(kernels: Kernels):
    """``chance_value``'s explicit signature (``value``'s arguments without the depth, window and table)."""
    a = value_signature(kernels).args
    return types.float64(a[0], a[1], a[2], a[6], a[7], a[8], a[9])


#: the recursive kernel, compiled per game with this signature (evoplay.games.kernels.specialise)
RECURSIVE = {"chance_value": chance_value_signature}


@njit(cache=True)
def iteration(params, player, children, order, n, depth, out, work, leaf, counters, deadline, table, use_table,
              history, exact):
    """The values of the root's children ``children[order[:n]]`` searched ``depth`` plies from the root, into
    ``out`` (minimax's ``iteration``: with ``exact`` the window opened just below the best so far, so a child that
    ties it comes back exact; else from the best, as the games' own players search); False if aborted. The first
    child's value is the best until a strictly better one comes (a NaN first stands)."""
    positions, masks, actions, probs, scores, row, stack = work
    if depth == 1 and leaf.batched:
        spend(counters, deadline, n)
        if counters[ABORTED]:
            return False
        for i in range(n):
            positions[1, :] = children[order[i]]
            out[i] = leaf_value(params, 1, player, work, leaf, counters, deadline)
            if counters[ABORTED]:
                return False
        return True
    best = -math.inf
    for i in range(n):
        alpha = best
        if exact:
            alpha = np.nextafter(best, -math.inf) if best > -math.inf else -math.inf
        elif not best > -math.inf:  # a NaN best
            alpha = -math.inf
        positions[1, :] = children[order[i]]
        v = value(params, 1, player, depth - 1, alpha, math.inf, work, leaf, counters, deadline, table, use_table,
                  history)
        if counters[ABORTED]:
            return False
        out[i] = v
        if i == 0 or v > best:
            best = v
    return True


@njit(cache=True)
def search(params, root, player, depth, deepen, leaf, counters, deadline, table, use_table, root_actions, values,
           work, exact=True):
    """minimax's ``search`` from ``root`` (``player`` to move): the legal actions into ``root_actions``,
    their values into ``values``; returns how many. With ``deepen`` (a budget) iterative deepening to ``depth``
    (``counters[COMPLETED]`` the deepest finished), else one search of ``depth`` plies, cut off by the budget only
    when ``counters[COMPLETED]`` is set on entry (a game's own player's fixed-depth search under a deadline).
    ``exact`` False: the root's window is not opened for ties (see ``iteration``)."""
    positions, masks, actions, probs, scores, row, stack = work
    n = game_legal(params, root, player, masks[0])
    list_actions(masks[0], root_actions)
    children = np.empty((n, root.shape[0]), root.dtype)
    for i in range(n):
        children[i, :] = root
        game_apply(params, children[i], root_actions[i])
    history = np.zeros(masks.shape[1], np.int64)
    order = np.arange(n)
    found = np.zeros(n, np.float64)  # (a search cut off leaves some unset)
    if not deepen:
        iteration(params, player, children, order, n, depth, found, work, leaf, counters, deadline, table,
                  use_table, history, exact)
        values[:n] = found
        return n
    for d in range(1, depth + 1):
        if not iteration(params, player, children, order, n, d, found, work, leaf, counters, deadline, table,
                         use_table, history, exact):
            break
        for i in range(n):
            values[order[i]] = found[i]
        counters[COMPLETED] = d
        sort_descending(order, n, values)
        known = True
        for i in range(n):
            if abs(values[i]) < TERMINAL_SCALE:
                known = False
                break
        if known:
            break
    return n


@njit(cache=True)
def after_values(params, root, player, leaf, root_actions, values, work):
    """The feature players' policy ``move``: each legal action's after-state scored by the leaf from
    ``player``'s side (all of them, as the State path scores them in one call), a finished game by its true
    result x TERMINAL_SCALE; returns how many actions."""
    positions, masks, actions, probs, scores, row, stack = work
    n = game_legal(params, root, player, masks[0])
    list_actions(masks[0], root_actions)
    child = positions[1]
    counters = np.zeros(COUNTERS, np.int64)
    counters[LIMIT] = NO_LIMIT
    deadline = np.array(NO_END)
    for i in range(n):
        child[:] = root
        game_apply(params, child, root_actions[i])
        values[i] = leaf_value(params, 1, player, work, leaf, counters, deadline)
    return n


# --- Python's side --------------------------------------------------------------------------------------------------
def new_table():
    """An empty transposition table for ``KernelSearch.search`` (kept by the caller between moves)."""
    return Dict.empty(key_type=types.int64, value_type=ENTRY)


def supports(game) -> bool:
    """Does this search cover ``game`` (kernels, one player at a time, nothing hidden)?"""
    k = kernels_of(game)
    return k is not None and not k.simultaneous and game.perfect_information


class KernelSearch:
    """``minimax.search`` for one game through its kernels (the game must pass ``supports``)."""

    def __init__(self, game):
        self.game = game
        self.kernels: Kernels = kernels_of(game)
        self.compiled = specialise(__name__, self.kernels)
        self._work: dict = {}
        self._unused_table = new_table()  # passed where no table is kept (nothing is stored in it)
        self._actions = np.zeros(self.kernels.actions, np.int64)  # a search's legal actions and values
        self._values = np.zeros(self.kernels.actions, np.float64)

    def __getstate__(self):
        return {"game": self.game}

    def __setstate__(self, state):
        self.__init__(state["game"])

    def work(self, depth: int, leaf: Leaf):
        """The scratch arrays of a search ``depth`` plies deep with ``leaf`` (made once per shape)."""
        k = self.kernels
        width = k.n_features + ((6 if leaf.free else 0) + int(leaf.board[7]) if leaf.kind in (LINEAR, PROGRAM)
                                else 0)
        if leaf.kind == GAME:
            width = k.leaf_width
        shape = (depth, width, leaf.size)
        made = self._work.get(shape)
        if made is None:
            rows = depth + 2 + CHANCE_ROWS
            made = (np.zeros((rows, k.size), k.dtype), np.zeros((rows, k.actions), np.int8),
                    np.zeros((rows, k.actions), np.int64), np.zeros((rows, k.actions), np.float64),
                    np.zeros(k.players), np.zeros(width), np.zeros(max(leaf.size, 1)))
            self._work = {shape: made}
        return made

    def search(self, state, player: int, depth: int, leaf: Leaf, budget: Budget | None = None, table=None,
               stats: dict | None = None) -> tuple[list[int], np.ndarray]:
        """minimax.search(state, player, depth, ...) through the kernels: the legal actions and their
        values (``table`` from ``new_table()``, used with a budget as the State path uses its dict)."""
        k = self.kernels
        counters = np.zeros(COUNTERS, np.int64)
        counters[LIMIT] = budget.nodes if budget and budget.nodes else NO_LIMIT
        deepen = bool(budget)
        use_table = deepen and table is not None
        ends = np.array(budget.ends() if deepen else NO_END)
        n = self.compiled.search(k.params, k.position(state), player, depth, deepen, leaf, counters, ends,
                                 table if use_table else self._unused_table, use_table, self._actions, self._values,
                                 self.work(depth, leaf))
        if stats is not None:
            stats["nodes"] = stats.get("nodes", 0) + int(counters[NODES])
            stats["depth"] = int(counters[COMPLETED]) if deepen else depth
        return self._actions[:n].tolist(), self._values[:n].copy()

    def after_values(self, state, player: int, leaf: Leaf) -> tuple[list[int], np.ndarray]:
        """The policy ``move``'s values of every legal action (see ``after_values``)."""
        k = self.kernels
        n = self.compiled.after_values(k.params, k.position(state), player, leaf, self._actions, self._values,
                                       self.work(1, leaf))
        return self._actions[:n].tolist(), self._values[:n].copy()
