"""Scores of programs against fixed deterministic opponents, cached by program for a run and kept in checkpoints.

Against a fixed deterministic opponent a program's scores depend on the program only: each distinct program is
played once per opponent (``scores``), duplicates in a population and survivors of earlier generations are
answered from the cache, and a checkpoint keeps the cache (``encode``/``restore``) so that a resumed run plays,
and counts, exactly the games the uninterrupted one plays.

A program is known by a 16-byte BLAKE2b digest of its arrays (``program_digest``), not by the arrays: a run of
seed 003's tableau meets some 60,000 programs, many of them hundreds of nodes, and a checkpoint rewritten every
generation must stay small (about 2 MB, not 150). Two different programs share a digest with a probability near
n^2 / 2^129: never, in practice.
"""
from __future__ import annotations

import hashlib
from itertools import islice
from typing import Callable

import numpy as np

DIGEST_BYTES = 16


def program_digest(program) -> bytes:
    """The 16-byte digest a program is cached under (equal programs, equal digests)."""
    return hashlib.blake2b(program.key(), digest_size=DIGEST_BYTES).digest()


class ScoreCache:
    """opponent (an int, e.g. a minimax depth) -> program digest -> its tuple of scores."""

    def __init__(self, width: int = 2):
        self.width = width
        self.tables: dict[int, dict[bytes, tuple]] = {}
        # opponent -> (digests (n, 16) uint8, scores (n, width) int64) of the first n entries, grown as entries come
        self._encoded: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def size(self, opponent: int) -> int:
        """How many programs' scores against ``opponent`` are known."""
        return len(self.tables.get(opponent, ()))

    def clear(self) -> None:
        self.tables.clear()
        self._encoded.clear()

    def scores(self, programs, opponent: int, play: Callable[[list], np.ndarray], use_cache: bool = True):
        """(n, width) scores of ``programs`` against ``opponent``; ``play(distinct_programs)`` returns the
        (m, width) scores of the programs not yet known (each distinct program once)."""
        out = np.zeros((len(programs), self.width), np.int64)
        todo: dict[bytes, int] = {}
        unique = []
        cache = self.tables.setdefault(opponent, {}) if use_cache else {}
        keys = [program_digest(prog) for prog in programs]
        for i, k in enumerate(keys):
            if k in cache:
                out[i] = cache[k]
            elif k not in todo:
                todo[k] = len(unique)
                unique.append(programs[i])
        if unique:
            scores = play(unique)
            for k, j in todo.items():
                cache[k] = tuple(int(s) for s in scores[j])
            for i, k in enumerate(keys):
                j = todo.get(k)
                if j is not None:
                    out[i] = scores[j]
        return out

    def encode(self) -> dict:
        """The cache as arrays (for a checkpoint): per opponent, the digests (n, 16) and the scores (n, width).
        Entries are only ever added, so each call converts only those added since the last."""
        out = {}
        for opponent, cache in self.tables.items():
            digests, scores = self._encoded.get(opponent, (np.empty((0, DIGEST_BYTES), np.uint8),
                                                           np.empty((0, self.width), np.int64)))
            new = list(islice(cache.items(), len(digests), None))
            if new:
                digests = np.concatenate([digests, np.frombuffer(b"".join(k for k, _ in new), np.uint8)
                                          .reshape(len(new), DIGEST_BYTES)])
                scores = np.concatenate([scores, np.array([v for _, v in new], np.int64).reshape(len(new), self.width)])
                self._encoded[opponent] = (digests, scores)
            small = scores.size == 0 or np.abs(scores).max() < 2**15  # game scores: int16 halves a quarter of it
            out[str(opponent)] = {"digests": digests, "scores": scores.astype(np.int16) if small else scores}
        return out

    def restore(self, saved: dict | None) -> None:
        """Take a checkpoint's cache back, unless this one already holds scores (the run went on in-process).
        A checkpoint of an older evoplay keyed programs by their whole arrays (``keys``, ``ends``): those keys are
        digested as they come back."""
        if saved is None or self.tables:
            return
        for opponent, table in saved.items():
            if "digests" in table:
                keys = [bytes(row) for row in np.asarray(table["digests"], np.uint8)]
            else:
                raw = table["keys"].tobytes()
                starts = np.concatenate([[0], table["ends"][:-1]]).astype(np.int64)
                keys = [hashlib.blake2b(raw[a:b], digest_size=DIGEST_BYTES).digest()
                        for a, b in zip(starts, table["ends"])]
            self.tables[int(opponent)] = {k: tuple(int(x) for x in s) for k, s in zip(keys, table["scores"])}
