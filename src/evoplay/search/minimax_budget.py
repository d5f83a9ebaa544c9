"""The any-game alpha-beta kernel's bookkeeping (evoplay.search.minimax_kernel): the nodes a search visits counted
against its node budget and its clocks (``spend``, into a ``counters`` array), and its moves listed from a legal
mask and ordered as evoplay.search.minimax orders them (history scores, the transposition table's move first).
None of it reads a game, so it is compiled once, not per game."""
from __future__ import annotations

import math
import time

import numpy as np
from numba import njit, objmode

# counters[...]: nodes visited, the node limit, the deepest iteration finished, aborted (1), the next clock read,
# the positions a game's own leaf valued on the horizon (not finished), the values taken from the table
NODES, LIMIT, COMPLETED, ABORTED, CLOCK, HORIZON, HITS = range(7)
COUNTERS = 7  # a counters array's length
CLOCK_EVERY = 256  # nodes between two reads of the clock under a time budget
NO_LIMIT = np.iinfo(np.int64).max
NO_END = (math.inf, math.inf)  # no end on either clock


@njit(cache=True)
def clock(cpu):
    """``time.thread_time()`` with ``cpu``, else ``time.perf_counter()``."""
    with objmode(t="float64"):
        t = time.thread_time() if cpu else time.perf_counter()
    return t


@njit(cache=True, inline="always")
def spend(counters, deadline, count):
    """Count ``count`` nodes; past the budget (never in the first iteration) mark the search aborted.
    ``deadline`` holds the ends on the wall clock and on this thread's CPU clock (infinity: none). Inlined, with the
    budget's checks in ``budget_spent``: called at every node, a call of the whole cost a fifth of the search."""
    counters[NODES] += count
    if counters[COMPLETED] > 0:
        return budget_spent(counters, deadline)
    return counters[ABORTED] != 0


@njit(cache=True)
def budget_spent(counters, deadline):
    """``spend``'s checks after the first iteration: is the search aborted (marked now if past its budget)?"""
    if counters[ABORTED] == 0:
        if counters[NODES] > counters[LIMIT]:
            counters[ABORTED] = 1
        elif (deadline[0] < math.inf or deadline[1] < math.inf) and counters[NODES] >= counters[CLOCK]:
            counters[CLOCK] = counters[NODES] + CLOCK_EVERY
            if clock(False) > deadline[0] or (deadline[1] < math.inf and clock(True) > deadline[1]):
                counters[ABORTED] = 1
    return counters[ABORTED] != 0


@njit(cache=True)
def list_actions(mask, out):
    """The marked actions of ``mask`` into ``out`` in increasing order; their count."""
    n = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            out[n] = a
            n += 1
    return n


@njit(cache=True)
def sort_descending(items, n, keys):
    """Sort ``items[:n]`` by ``keys[item]``, highest first, keeping the order of equals (Python's stable sort)."""
    for i in range(1, n):
        item = items[i]
        key = keys[item]
        j = i - 1
        while j >= 0 and keys[items[j]] < key:
            items[j + 1] = items[j]
            j -= 1
        items[j + 1] = item


@njit(cache=True)
def order_actions(actions, n, history, first):
    """minimax's move ordering: by history score, highest first (stable), then ``first`` (the table's
    best action, -1 for none) at the front."""
    sort_descending(actions, n, history)
    if first >= 0 and actions[0] != first:
        at = -1
        for i in range(n):
            if actions[i] == first:
                at = i
                break
        if at > 0:
            for i in range(at, 0, -1):
                actions[i] = actions[i - 1]
            actions[0] = first
