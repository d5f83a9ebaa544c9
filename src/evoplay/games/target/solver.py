"""The exact solver of the target-number game: the best value a draw reaches and one expression reaching it.

It is a dynamic programme over the 63 non-empty subsets of the six numbers: the set of values each
subset reaches (deduplicated), built from pairs of disjoint smaller subsets, with one back-pointer per value so an
expression can be rebuilt. A value equal to one of its operands (``x * 1``, ``x / 1``, ``2y - y``, ``y*y / y``) is
not stored: it is already reached by a smaller subset, so the union over all subsets is unchanged. The full set is
only scanned, never stored. ``reference_solve`` is the same search in plain Python (dicts); ``solve`` is a Numba
kernel with an open-addressing hash table; a property test holds them equal.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from evoplay.games.target.game import ADD, DIV, MUL, NUMBER, SUB, check_draw, format_expr


@dataclass(frozen=True)
class Solution:
    """The best value a draw reaches, its distance from the target and one expression reaching it."""

    value: int
    target: int
    expr: object

    @property
    def distance(self) -> int:
        return abs(self.value - self.target)

    @property
    def exact(self) -> bool:
        return self.value == self.target

    @property
    def expression(self) -> str:
        return format_expr(self.expr)

    def __str__(self) -> str:
        tail = "exact" if self.exact else f"off by {self.distance}"
        return f"{self.expression} = {self.value} ({tail})"


def better(value: int, best: int, target: int) -> bool:
    """The solver's order: closer to the target first, then the smaller value (so ties resolve the same way)."""
    d, bd = abs(value - target), abs(best - target)
    return d < bd or (d == bd and value < best)


# --------------------------------------------------------------------------------------------------------------
# Plain-Python reference solver.
# --------------------------------------------------------------------------------------------------------------


def _combine(x: int, y: int):
    """The results worth keeping of x op y with x >= y (see the module docstring): (op, value) pairs."""
    yield ADD, x + y
    if x > y and x - y != y:
        yield SUB, x - y
    if y != 1:
        yield MUL, x * y
        if x % y == 0 and x // y != y:
            yield DIV, x // y


def reference_reachable(numbers, stop_at: int | None = None) -> dict[int, dict[int, object]]:
    """Every subset's reachable values (mask -> {value: expression}) in plain Python; the full set included.
    With ``stop_at``, it returns early once that value is reached (the rest of the table is then partial)."""
    n = len(numbers)
    full = (1 << n) - 1
    table: dict[int, dict[int, object]] = {1 << i: {numbers[i]: numbers[i]} for i in range(n)}
    for mask in sorted(range(1, full + 1), key=lambda m: (bin(m).count("1"), m)):
        if mask in table:
            continue
        values: dict[int, object] = {}
        low = mask & -mask
        sub = (mask - 1) & mask
        while sub:
            if sub & low:
                for a, ea in table[sub].items():
                    for b, eb in table[mask ^ sub].items():
                        x, ex, y, ey = (a, ea, b, eb) if a >= b else (b, eb, a, ea)
                        for op, v in _combine(x, y):
                            if v not in values:
                                values[v] = (op, ex, ey)
                                if v == stop_at:
                                    table[mask] = values
                                    return table
            sub = (sub - 1) & mask
        table[mask] = values
    return table


def reference_solve(numbers, target: int) -> Solution:
    """The exact solver in plain Python: best value over all subsets (closest, then smaller), with an expression."""
    numbers, target = check_draw(numbers, target)
    best, best_expr = None, None
    if target in numbers:
        return Solution(target, target, target)
    for values in reference_reachable(numbers, stop_at=target).values():
        for v, e in values.items():
            if best is None or better(v, best, target):
                best, best_expr = v, e
    return Solution(best, target, best_expr)


# --------------------------------------------------------------------------------------------------------------
# Numba solver.
# --------------------------------------------------------------------------------------------------------------

_HASH_MULT = np.uint64(0x9E3779B97F4A7C15)
STATUS_DONE, STATUS_FULL = 0, 1
BITMAP_SIZE = 2048  # values < 2048 recorded by reachable(); any target 100..999 is nearer some value below it


@njit(cache=True)
def _popcount(m):
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@njit(cache=True)
def _find_or_insert(table, bits, values, v, count):
    """Slot of value v in the open-addressing table (entries are indices into ``values``; -1 is empty)."""
    h = (np.uint64(v) * _HASH_MULT) >> np.uint64(64 - bits)
    mask = (1 << bits) - 1
    slot = np.int64(h)
    while True:
        e = table[slot]
        if e < 0:
            return slot, False
        if values[e] == v:
            return slot, True
        slot = (slot + 1) & mask


@njit(cache=True)
def _clear(table, bits, values, first, used):
    """Empty the table of entries first..used-1. Linear probing needs the reverse insertion order: each entry's
    probe chain then still holds every earlier entry, so each is found where it was put."""
    for e in range(used - 1, first - 1, -1):
        slot, found = _find_or_insert(table, bits, values, values[e], used)
        if found:
            table[slot] = -1


@njit(cache=True)
def solve_kernel(numbers, n, target, collect, values, left, right, ops, start, stop, table, bits, bitmap):
    """Subset DP over ``numbers[:n]``; see the module docstring.

    Stored entry i has value ``values[i]``; ``ops[i]`` is 0 for a number (``left[i]`` its position) or the
    operation, with ``left[i]``/``right[i]`` the entries of its operands (larger first). Subset ``mask`` owns
    entries ``start[mask]:stop[mask]``. Without ``collect`` it stops at an exact hit; with it, it marks every
    reachable value below ``len(bitmap)`` in ``bitmap``. Returns (status, kind, entry, op, l, r, value): status 1
    means ``values`` was too small; kind 0 means the best is stored entry ``entry``, kind 1 that it is
    ``values[l] op values[r]`` over the full set (not stored).
    """
    full = (1 << n) - 1
    cap = values.shape[0]
    tsize = 1 << bits
    limit = tsize // 2
    nbm = bitmap.shape[0]
    used = 0
    best_v = np.int64(-1)
    best_kind, best_entry, best_op, best_l, best_r = 0, -1, 0, -1, -1
    for i in range(n):
        m = 1 << i
        values[used] = numbers[i]
        ops[used] = 0
        left[used] = i
        right[used] = -1
        start[m] = used
        stop[m] = used + 1
        v = values[used]
        if collect and v < nbm:
            bitmap[v] = 1
        if best_v < 0 or abs(v - target) < abs(best_v - target) or (abs(v - target) == abs(best_v - target) and v < best_v):
            best_v, best_kind, best_entry = v, 0, used
        used += 1
        if v == target and not collect:
            return 0, best_kind, best_entry, best_op, best_l, best_r, best_v
    for size in range(2, n + 1):
        for mask in range(1, full + 1):
            if _popcount(mask) != size:
                continue
            store = mask != full
            first = used
            low = mask & (-mask)
            sub = (mask - 1) & mask
            while sub:
                if sub & low:
                    other = mask ^ sub
                    for ia in range(start[sub], stop[sub]):
                        a = values[ia]
                        for ib in range(start[other], stop[other]):
                            b = values[ib]
                            if a >= b:
                                x, y, ix, iy = a, b, ia, ib
                            else:
                                x, y, ix, iy = b, a, ib, ia
                            for op in range(1, 5):
                                if op == 1:
                                    v = x + y
                                elif op == 2:
                                    if x <= y or x - y == y:
                                        continue
                                    v = x - y
                                elif op == 3:
                                    if y == 1:
                                        continue
                                    v = x * y
                                else:
                                    if y == 1 or x % y != 0 or x // y == y:
                                        continue
                                    v = x // y
                                if store:
                                    slot, found = _find_or_insert(table, bits, values, v, used)
                                    if found:
                                        continue
                                    if used >= cap or used - first >= limit:
                                        return 1, best_kind, best_entry, best_op, best_l, best_r, best_v
                                    table[slot] = used
                                    values[used] = v
                                    ops[used] = op
                                    left[used] = ix
                                    right[used] = iy
                                    entry = used
                                    used += 1
                                else:
                                    entry = -1
                                if collect and v < nbm:
                                    bitmap[v] = 1
                                dv, db = abs(v - target), abs(best_v - target)
                                if dv < db or (dv == db and v < best_v):
                                    best_v = v
                                    if store:
                                        best_kind, best_entry = 0, entry
                                    else:
                                        best_kind, best_op, best_l, best_r = 1, op, ix, iy
                                    if v == target and not collect:
                                        # clear the table before leaving: it is reused by the next call
                                        _clear(table, bits, values, first, used)
                                        return 0, best_kind, best_entry, best_op, best_l, best_r, best_v
                sub = (sub - 1) & mask
            start[mask] = first
            stop[mask] = used
            if store:
                _clear(table, bits, values, first, used)
    return 0, best_kind, best_entry, best_op, best_l, best_r, best_v


class Solver:
    """The exact solver with its work arrays (reuse one instance for many draws; not thread-safe)."""

    def __init__(self, capacity: int = 1 << 18, bits: int = 17):
        self._alloc(capacity, bits)
        self.bitmap = np.zeros(BITMAP_SIZE, np.uint8)

    def _alloc(self, capacity: int, bits: int) -> None:
        self.capacity, self.bits = capacity, bits
        self.values = np.empty(capacity, np.int64)
        self.left = np.empty(capacity, np.int32)
        self.right = np.empty(capacity, np.int32)
        self.ops = np.empty(capacity, np.int8)
        self.start = np.zeros(64, np.int32)
        self.stop = np.zeros(64, np.int32)
        self.table = np.full(1 << bits, -1, np.int32)

    def _run(self, numbers: np.ndarray, target: int, collect: bool):
        while True:
            res = solve_kernel(numbers, len(numbers), target, collect, self.values, self.left, self.right, self.ops,
                               self.start, self.stop, self.table, self.bits, self.bitmap)
            if res[0] == STATUS_DONE:
                return res
            self.table.fill(-1)
            self._alloc(self.capacity * 4, self.bits + 2)

    def solve(self, numbers, target: int) -> Solution:
        """Best value of the draw and one expression reaching it (closest to ``target``, then the smaller)."""
        numbers, target = check_draw(numbers, target)
        arr = np.asarray(numbers, np.int64)
        _, kind, entry, op, l, r, value = self._run(arr, target, False)
        if kind == 0:
            expr = self._expr(entry)
        else:
            expr = (int(op), self._expr(l), self._expr(r))
        return Solution(int(value), target, expr)

    def best_value(self, numbers: np.ndarray, target: int) -> int:
        """Only the best value (no expression, no checks): the fast path of benchmarks."""
        return int(self._run(numbers, target, False)[6])

    def reachable(self, numbers) -> np.ndarray:
        """Sorted values below 2048 that the numbers reach (enough to score every target 100..999)."""
        arr = np.asarray(numbers, np.int64)
        self.bitmap[:] = 0
        self._run(arr, 0, True)
        return np.flatnonzero(self.bitmap)

    def _expr(self, entry: int):
        op = int(self.ops[entry])
        if op == NUMBER:
            return int(self.values[entry])
        return (op, self._expr(int(self.left[entry])), self._expr(int(self.right[entry])))


_SOLVER: Solver | None = None


def solve(numbers, target: int) -> Solution:
    """The exact solver (Numba): ``solve([3, 7, 9, 1, 15, 75], 847)``."""
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = Solver()
    return _SOLVER.solve(numbers, target)


@njit(cache=True)
def distances_to_targets(reachable, lo, hi):
    """For each target lo..hi, the distance to the nearest value in sorted ``reachable``."""
    out = np.empty(hi - lo + 1, np.int64)
    j = 0
    m = reachable.shape[0]
    for t in range(lo, hi + 1):
        while j + 1 < m and reachable[j + 1] <= t:
            j += 1
        d = abs(reachable[j] - t)
        if j + 1 < m and reachable[j + 1] - t < d:
            d = reachable[j + 1] - t
        out[t - lo] = d
    return out
