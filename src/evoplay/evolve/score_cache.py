"""Scores of programs against fixed deterministic opponents, cached by program for a run and kept in checkpoints.

Against a fixed deterministic opponent a program's scores depend on the program only: each distinct program is
played once per opponent (``scores``), duplicates in a population and survivors of earlier generations are
answered from the cache, and a checkpoint keeps the cache (``encode``/``restore``) so that a resumed run plays,
and counts, exactly the games the uninterrupted one plays.
"""
from __future__ import annotations

from typing import Callable

import numpy as np


class ScoreCache:
    """opponent (an int, e.g. a minimax depth) -> program key (bytes) -> its tuple of scores."""

    def __init__(self, width: int = 2):
        self.width = width
        self.tables: dict[int, dict[bytes, tuple]] = {}

    def size(self, opponent: int) -> int:
        """How many programs' scores against ``opponent`` are known."""
        return len(self.tables.get(opponent, ()))

    def clear(self) -> None:
        self.tables.clear()

    def scores(self, programs, opponent: int, play: Callable[[list], np.ndarray], use_cache: bool = True):
        """(n, width) scores of ``programs`` against ``opponent``; ``play(distinct_programs)`` returns the
        (m, width) scores of the programs not yet known (each distinct program once)."""
        out = np.zeros((len(programs), self.width), np.int64)
        todo: dict[bytes, int] = {}
        unique = []
        cache = self.tables.setdefault(opponent, {}) if use_cache else {}
        for i, prog in enumerate(programs):
            k = prog.key()
            if k in cache:
                out[i] = cache[k]
            elif k not in todo:
                todo[k] = len(unique)
                unique.append(prog)
        if unique:
            scores = play(unique)
            for k, j in todo.items():
                cache[k] = tuple(int(s) for s in scores[j])
            for i, prog in enumerate(programs):
                j = todo.get(prog.key())
                if j is not None:
                    out[i] = scores[j]
        return out

    def encode(self) -> dict:
        """The cache as arrays (for a checkpoint)."""
        out = {}
        for opponent, cache in self.tables.items():
            keys = list(cache)
            out[str(opponent)] = {
                "keys": np.frombuffer(b"".join(keys), np.uint8).copy(),
                "ends": np.cumsum([len(k) for k in keys], dtype=np.int64),
                "scores": np.array([cache[k] for k in keys], np.int64).reshape(len(keys), self.width),
            }
        return out

    def restore(self, saved: dict | None) -> None:
        """Take a checkpoint's cache back, unless this one already holds scores (the run went on in-process)."""
        if saved is None or self.tables:
            return
        for opponent, table in saved.items():
            raw = table["keys"].tobytes()
            starts = np.concatenate([[0], table["ends"][:-1]]).astype(np.int64)
            self.tables[int(opponent)] = {raw[a:b]: tuple(int(x) for x in s)
                                          for a, b, s in zip(starts, table["ends"], table["scores"])}
