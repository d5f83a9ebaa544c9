"""A deterministic opponent's memo shared by worker processes: per-process memos, the logs tasks return, chunks.

A deterministic opponent (e.g. a fixed-depth minimax) makes the same decision in the same position every time,
so its decisions can be memoised for a whole run. Each worker process keeps its memo between calls
(``process_memo``); a kernel appends every decision it makes to a log (``log_decision``); a task returns the rows
it searched itself; the calling process merges them into its own memo and sends them with the next call's tasks
to every worker (``SharedMemo``). The memo is a cache: results never depend on it, on the worker count or on the
backend. What a run may log are counts that depend only on the games played: the decisions made and the
distinct positions among them (the searches a memo empty at the start of the call would make).

A memo maps a key of two int64 (a position packed by the game's kernel) to an int64 decision. Tasks carry
only the programs they play (``program_tasks``), so a task of a bloated population stays small.
"""
from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.typed import Dict

KEY_TYPE = types.UniTuple(types.int64, 2)
LOG_COLUMNS = 4  # key[0], key[1], decision, 1 if searched here (0: the memo answered)


def new_memo():
    """An empty memo: (two-int64 position key) -> decision."""
    return Dict.empty(key_type=KEY_TYPE, value_type=types.int64)


@njit(cache=True)
def merge_log(memo, entries, count):
    """Add the first ``count`` rows (key[0], key[1], decision) of ``entries`` to ``memo``."""
    for i in range(count):
        memo[(entries[i, 0], entries[i, 1])] = entries[i, 2]


@njit(cache=True, inline="always")
def log_decision(log, log_n, key, decision, searched):
    """Append a decision to ``log``; ``log_n[0]`` counts past the log's end, so an overflow is seen."""
    n = log_n[0]
    if n < log.shape[0]:
        log[n, 0] = key[0]
        log[n, 1] = key[1]
        log[n, 2] = decision
        log[n, 3] = searched
    log_n[0] = n + 1


_MEMOS: dict = {}


def process_memo(key):
    """This process's memo for ``key`` (an opponent and its game's shape), kept for the process's lifetime."""
    if key not in _MEMOS:
        _MEMOS[key] = new_memo()
    return _MEMOS[key]


def clear_memos() -> None:
    """Forget this process's memos (a benchmark's cold start; forked workers inherit what the parent holds)."""
    _MEMOS.clear()


def worker_memo(key, shared):
    """A task's first step: this process's memo for ``key`` with the entries other workers found merged in."""
    memo = process_memo(key)
    if shared is not None and len(shared):
        merge_log(memo, shared, len(shared))
    return memo


def new_log(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty decision log of ``rows`` rows and its counter."""
    return np.empty((rows, LOG_COLUMNS), np.int64), np.zeros(1, np.int64)


def task_log(log: np.ndarray, log_n: np.ndarray, what: str) -> dict:
    """What a task returns of its log: the rows it searched (for the other workers) and every decision's key."""
    if log_n[0] > len(log):
        raise RuntimeError(f"{what}: {log_n[0]} decisions, more than the log holds ({len(log)}); raise its size")
    decided = log[: log_n[0]]
    return {"log": decided[decided[:, 3] == 1, :3], "decided": decided[:, :2]}


def distinct_rows(rows: np.ndarray) -> int:
    """How many different (k1, k2) rows ``rows`` holds (a sort; 4x faster than np.unique(axis=0))."""
    if len(rows) == 0:
        return 0
    s = rows[np.lexsort((rows[:, 1], rows[:, 0]))]
    return 1 + int(np.count_nonzero((s[1:] != s[:-1]).any(axis=1)))


def chunks(n: int, size: int, workers: int) -> list[tuple[int, int]]:
    """[a, b) bounds splitting ``n`` games into tasks of about ``size`` games, at least one per worker."""
    count = max(1, min(-(-n // size) if size else 1, n))
    count = max(count, min(n, workers))
    bounds = np.linspace(0, n, count + 1).astype(int)
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def subpool(programs: list, *indices: np.ndarray):
    """Pack only the programs a task needs and renumber the games' program indices into that pool."""
    from evoplay import gp

    used, inverse = np.unique(np.concatenate(indices), return_inverse=True)
    pool = gp.pack([programs[int(i)] for i in used])
    out, start = [], 0
    for idx in indices:
        out.append(inverse[start:start + len(idx)].astype(np.int64))
        start += len(idx)
    return pool, out


def program_tasks(programs: list, indices: dict, per_game: dict, common: dict, size: int, executor) -> list[dict]:
    """One task per chunk of about ``size`` games: ``indices`` are per-game arrays of program indices, renumbered
    into the task's own ``pool`` under the same names; ``per_game`` arrays are sliced, ``common`` is copied."""
    n = len(next(iter(indices.values())))
    tasks = []
    for a, b in chunks(n, size, getattr(executor, "workers", 1)):
        pool, local = subpool(programs, *(v[a:b] for v in indices.values()))
        tasks.append(dict(common, pool=pool, **dict(zip(indices, local)),
                          **{k: v[a:b] for k, v in per_game.items()}))
    return tasks


class SharedMemo:
    """The calling process's side of a shared memo: what the last call's tasks searched (sent with the next
    tasks), merged into this process's memo, and the counters a run logs."""

    def __init__(self, key):
        self.key = key
        self.shared = np.zeros((0, 3), np.int64)  # entries found last time, sent to every worker next time
        self.hits = 0  # decisions the memos answered (depends on which worker had what)
        self.searches = 0
        self.decisions = 0  # decisions in the games played
        self.distinct = 0  # distinct positions among them, per call

    def absorb(self, results: list[dict]) -> None:
        """Merge the tasks' new entries into this process's memo and keep them for the next call's tasks."""
        logs = [r["log"] for r in results if len(r["log"])]
        self.shared = np.concatenate(logs) if logs else np.zeros((0, 3), np.int64)
        merge_log(process_memo(self.key), self.shared, len(self.shared))
        self.hits += sum(r["hits"] for r in results)
        self.searches += sum(r["searches"] for r in results)
        decided = np.concatenate([r["decided"] for r in results])
        self.decisions += len(decided)
        self.distinct += distinct_rows(decided)

    def forget_shared(self) -> None:
        """Drop the entries waiting to be sent (a benchmark's cold start)."""
        self.shared = np.zeros((0, 3), np.int64)

    def __getstate__(self):
        d = dict(self.__dict__)
        d["shared"] = np.zeros((0, 3), np.int64)
        return d
