"""Transposition tables of the built-in games' searches: probing and storing an entry, readable and as kernels.

A table is ``size`` entries (a power of two) of five integers, [key, depth, flag, value, move]: the slot of a key
is ``key & (size - 1)``, every store replaces the slot, and key 0 marks an empty entry. The flag says what the
value is: ``EXACT``, a ``LOWER`` bound (the search failed high) or an ``UPPER`` bound (it failed low). The
readable form is a list of lists (the plain-Python references), the kernel form an int64 array.
"""
from __future__ import annotations

import numpy as np
from numba import njit

EXACT, LOWER, UPPER = 0, 1, 2
KEY, DEPTH, FLAG, VALUE, MOVE = range(5)  # the columns of an entry


def reference_probe(table: list, key: int, depth: int, alpha: int, beta: int) -> tuple[int, bool, int]:
    """(the entry's move or -1, whether its value settles the node, that value) for a node searched to ``depth``
    within (``alpha``, ``beta``)."""
    entry = table[key & (len(table) - 1)]
    if entry[KEY] != key:
        return -1, False, 0
    v, flag = entry[VALUE], entry[FLAG]
    hit = entry[DEPTH] >= depth and (flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha))
    return entry[MOVE], hit, v if hit else 0


def reference_store(table: list, key: int, depth: int, best: int, alpha0: int, beta0: int, move: int) -> None:
    """Store a node's ``best`` value found within the window (``alpha0``, ``beta0``) it was searched in."""
    flag = UPPER if best <= alpha0 else (LOWER if best >= beta0 else EXACT)
    table[key & (len(table) - 1)] = [key, depth, flag, best, move]


@njit(cache=True, inline="always")
def probe(table, key, depth, alpha, beta):
    """Kernel of ``reference_probe``."""
    slot = key & (table.shape[0] - 1)
    if table[slot, KEY] != key:
        return np.int64(-1), False, np.int64(0)
    v = table[slot, VALUE]
    flag = table[slot, FLAG]
    settles = flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)
    if table[slot, DEPTH] >= depth and settles:
        return table[slot, MOVE], True, v
    return table[slot, MOVE], False, np.int64(0)


@njit(cache=True, inline="always")
def store(table, key, depth, best, alpha0, beta0, move):
    """Kernel of ``reference_store``."""
    slot = key & (table.shape[0] - 1)
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta0:
        flag = LOWER
    table[slot, KEY] = key
    table[slot, DEPTH] = depth
    table[slot, FLAG] = flag
    table[slot, VALUE] = best
    table[slot, MOVE] = move
