"""The evolved players' leaf value on a game's kernels: a position's feature row and its value, inside Numba.

A ``Leaf`` says how a position is valued: the score difference (alpha-beta's default), one named feature, or a
feature player's evaluation (a weight vector's dot product or a GP program) over the row ``FeatureView.row`` gives
(the game's features, the free features, the board counts -- pairs or line patterns -- and the per-run scales),
computed here with the same sums in the same order, so a value is the State path's to the last bit. ``evaluate``
is that value; the searches over a game's kernels read it: alpha-beta (evoplay.search.minimax_kernel) at its leaves
and for the policy ``move``, uct (evoplay.search.uct_kernel, handed this module as its leaf hook) for its evolved leaf
values and priors.

This module is compiled per game by ``evoplay.games.kernels.specialise``: the names ``game_*`` are that game's
kernels. A search module that calls ``evaluate`` names this module in its ``USES``, so that it calls this module's
copy for the same game.

Its references are the players' own Python, a layer above: ``FeatureView.row`` (evoplay.agents.feature_view) and
the scorers of evoplay.agents.feature_player (tests/agents/test_minimax_kernel.py holds both paths to the same values).
``line_patterns``, the pattern slots the view and these kernels both read, is written here, so that search/ imports
nothing above it.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from evoplay.games.base import SIMULTANEOUS
from evoplay.games.kernels import uncounted
from evoplay.gp.interpreter import evaluate_with_stack
from evoplay.search.minimax import clip_value

# The game's kernels and what it gives: bound per game by evoplay.games.kernels.specialise.
game_legal = game_apply = game_mover = game_returns = game_scores = game_features = game_state_hash = None
game_chance = game_initial = game_hide = game_leaf = None
HAS_FEATURES = HAS_HASH = HAS_CHANCE = SIMULTANEOUS_GAME = HAS_GAME_LEAF = False

#: the leaf kinds; GAME is the game's own leaf (``Kernels.leaf``, which reads the Leaf as it likes: ``index`` a
#: leaf of its own, ``weights``, the program's arrays), valuing finished positions as well, searched by alpha-beta
SCORE, FEATURE, LINEAR, PROGRAM, GAME = 0, 1, 2, 3, 4


class Leaf(NamedTuple):
    """How a leaf is valued: ``kind`` (SCORE, FEATURE, LINEAR, PROGRAM), ``batched`` (a depth-1 node's children
    together), ``index`` (FEATURE's feature), ``free``, ``scales``, ``board`` and ``slots`` (the feature view: the
    free features, the per-run scales, empty for none, and the board counts after them: ``board_spec``),
    ``weights`` (LINEAR) and the program's arrays (PROGRAM)."""

    kind: int
    batched: bool
    index: int
    free: bool
    scales: np.ndarray
    weights: np.ndarray
    opcodes: np.ndarray
    args: np.ndarray
    consts: np.ndarray
    size: int
    board: np.ndarray
    slots: np.ndarray


if __name__ != "evoplay.search.leaf_kernel":  # a copy compiled for one game (evoplay.games.kernels.specialise)
    from evoplay.search.leaf_kernel import Leaf  # noqa: F811  builds the one Leaf type the searches are typed over


NO_BOARD, PAIRS, LINES = 0, 1, 2  # board[0]: the view's counts over the board (evoplay.agents.feature_view)


def line_patterns(codes: int, length: int) -> tuple[np.ndarray, int]:
    """The pattern slot of every reading of ``length`` cells (``codes`` readings a cell): ``slot[index]`` where
    ``index = sum(code_i * codes**i)``; a reading and its reverse share a slot. Returns (slots, slot count)."""
    total = codes ** length
    slots = np.full(total, -1, np.int64)
    count = 0
    for index in range(total):
        if slots[index] >= 0:
            continue
        digits = [(index // codes ** i) % codes for i in range(length)]
        reverse = sum(c * codes ** i for i, c in enumerate(reversed(digits)))
        slots[index] = slots[reverse] = count
        count += 1
    return slots, count


def board_spec(view) -> tuple[np.ndarray, np.ndarray]:
    """A view's board counts for the kernels: ``board`` = [kind, planes, rows, columns, codes, length, slots a
    direction, counts in all] and the line patterns' ``slots`` (``line_patterns``)."""
    board = np.zeros(8, np.int64)
    if view is None or view.board is None:
        return board, np.zeros(0, np.int64)
    planes, rows, columns = view.board
    if view.lines:
        slots, count = line_patterns(view.codes, view.lines)
        board[:] = (LINES, planes, rows, columns, view.codes, view.lines, count, view.pair_count)
        return board, slots
    board[:] = (PAIRS, planes, rows, columns, 0, 2, 0, view.pair_count)
    return board, np.zeros(0, np.int64)


def make_leaf(kind: int, batched: bool = False, index: int = 0, view=None, weights=None, program=None) -> Leaf:
    """A ``Leaf`` from Python objects: ``view`` a FeatureView, ``weights`` a vector, ``program`` a gp Program."""
    empty_f, empty_i = np.zeros(0, np.float64), np.zeros(0, np.int64)
    scales = empty_f if view is None or view.scales is None else np.ascontiguousarray(view.scales, np.float64)
    free = bool(view is not None and view.free)
    w = empty_f if weights is None else np.ascontiguousarray(weights, np.float64)
    board, slots = board_spec(view)
    if program is None:
        return Leaf(kind, batched, index, free, scales, w, empty_i, empty_i, empty_f, 0, board, slots)
    return Leaf(kind, batched, index, free, scales, w, np.ascontiguousarray(program.opcodes, np.int64),
                np.ascontiguousarray(program.args, np.int64), np.ascontiguousarray(program.consts, np.float64),
                int(program.size), board, slots)


def room(kernels, leaf: Leaf) -> tuple[int, int]:
    """The sizes of the feature row and the program's stack ``evaluate`` works in for ``leaf`` on a game of
    ``kernels`` (the searches' scratch: uct reads them through its hooks, evoplay.search.uct_kernel)."""
    row = kernels.n_features + (6 if leaf.free else 0) + int(leaf.board[7]) if leaf.kind in (LINEAR, PROGRAM) else 1
    return row, max(leaf.size, 1)


@njit(cache=True, inline="always")
def uncounted_leaf(leaf):
    """``leaf`` with ``uncounted`` views of its arrays (evoplay.games.kernels), its caller holding the arrays: a
    search hands it on at every leaf without counting references to them (minimax_kernel, uct_kernel)."""
    return Leaf(leaf.kind, leaf.batched, leaf.index, leaf.free, uncounted(leaf.scales), uncounted(leaf.weights),
                uncounted(leaf.opcodes), uncounted(leaf.args), uncounted(leaf.consts), leaf.size, uncounted(leaf.board),
                uncounted(leaf.slots))


@njit(cache=True)
def score_difference(params, pos, player, scores):
    """alphabeta's default leaf: ``player``'s score minus the best other score (0 in a one-player game)."""
    game_scores(params, pos, scores)
    best = -math.inf
    for q in range(scores.shape[0]):
        if q != player and scores[q] > best:
            best = scores[q]
    return scores[player] - (best if scores.shape[0] > 1 else 0.0)


@njit(cache=True)
def board_counts(row, start, board, slots):
    """The view's counts over the board (``row[:planes * rows * columns]``, plane by plane) into ``row[start:]``:
    ``feature_view.pair_counts`` or ``feature_view.line_counts`` (the same sums in the same order)."""
    planes, rows, columns = board[1], board[2], board[3]
    k = start
    for d in range(4):  # E, S, SE, SW
        dr = 0 if d == 0 else 1
        dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
        if board[0] == PAIRS:
            for a in range(planes):
                for b in range(a, planes):
                    total = 0.0
                    for r in range(rows):
                        for c in range(columns):
                            r2, c2 = r + dr, c + dc
                            if 0 <= r2 < rows and 0 <= c2 < columns:
                                total += row[(a * rows + r) * columns + c] * row[(b * rows + r2) * columns + c2]
                                if a != b:
                                    total += row[(b * rows + r) * columns + c] * row[(a * rows + r2) * columns + c2]
                    row[k] = total
                    k += 1
            continue
        codes, length, count = board[4], board[5], board[6]
        for j in range(count):
            row[k + j] = 0.0
        for r in range(rows):
            for c in range(columns):
                r2, c2 = r + dr * (length - 1), c + dc * (length - 1)
                if 0 <= r2 < rows and 0 <= c2 < columns:
                    index, power = 0, 1
                    for i in range(length):
                        cell = (r + dr * i) * columns + c + dc * i
                        reading = codes - 1
                        for p in range(planes):
                            if row[p * rows * columns + cell] > 0.5:
                                reading = p
                                break
                        index += reading * power
                        power *= codes
                    row[k + slots[index]] += 1.0
        k += count


@njit(cache=True)
def view_row(params, pos, player, free, scales, board, slots, mask, scores, row):
    """``FeatureView.row``: the game's features, the free features with ``free``, the board counts (``board``),
    times ``scales`` (if any)."""
    counted = board[7]
    own = row.shape[0] - (6 if free else 0) - counted
    game_features(params, pos, player, row[:own])
    if counted:
        board_counts(row, row.shape[0] - counted, board, slots)
    if free:
        mover = game_mover(params, pos)
        mine = mover == player or mover == SIMULTANEOUS
        count = 0
        if mover == SIMULTANEOUS:
            count = game_legal(params, pos, player, mask)
        elif mover >= 0:
            count = game_legal(params, pos, mover, mask)
        game_scores(params, pos, scores)
        others = -math.inf
        for q in range(scores.shape[0]):
            if q != player and scores[q] > others:
                others = scores[q]
        row[own] = float(player)
        row[own + 1] = 1.0 if mine else 0.0
        row[own + 2] = float(count) if mine else 0.0
        row[own + 3] = 0.0 if (mine or mover < 0) else float(count)
        row[own + 4] = scores[player]
        row[own + 5] = others if scores.shape[0] > 1 else 0.0
    if scales.shape[0] > 0:
        for j in range(row.shape[0]):
            row[j] *= scales[j]


@njit(cache=True)
def program_value(opcodes, args, consts, size, row, stack, base):
    """A program's value of one feature row, clipped as ``clip_values``; with ``base`` weights (non-empty) the
    program adds its value to theirs, ``dot(base, row)``, and a program value that is NaN adds nothing."""
    p = evaluate_with_stack(opcodes, args, consts, 0, size, row, stack)
    if base.shape[0] == 0:
        return clip_value(p)
    if p != p:
        p = 0.0
    v = 0.0
    for j in range(base.shape[0]):
        v += base[j] * row[j]
    return clip_value(v + p)


@njit(cache=True)
def evaluate(params, pos, player, leaf, mask, scores, row, stack):
    """The leaf's value of ``pos`` from ``player``'s side, clipped."""
    kind = leaf.kind
    if kind == SCORE:
        return clip_value(score_difference(params, pos, player, scores))
    if kind == FEATURE:
        game_features(params, pos, player, row)
        return clip_value(row[leaf.index])
    view_row(params, pos, player, leaf.free, leaf.scales, leaf.board, leaf.slots, mask, scores, row)
    if kind == LINEAR:
        weights = leaf.weights
        v = 0.0
        for j in range(weights.shape[0]):
            v += weights[j] * row[j]
        return clip_value(v)
    return program_value(leaf.opcodes, leaf.args, leaf.consts, leaf.size, row, stack, leaf.weights)
