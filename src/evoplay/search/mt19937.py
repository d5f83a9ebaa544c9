"""Python's ``random.Random`` inside Numba: the same numbers from the same state, so a search written once in
Python and once as a kernel draws alike (the ``uct`` agent's two paths).

A generator's state is ``random.Random.getstate()``'s 624 words and position, carried as a uint32 array of 625
numbers (``state_of`` takes it from a ``random.Random``, ``restore`` puts it back); the kernels advance it in
place. ``random`` is ``Random.random()`` (53 bits from two 32-bit words), ``randbelow(n)`` is the draw
``Random.shuffle`` and ``Random.randrange`` make, ``shuffle`` is ``Random.shuffle``. The algorithm is
Matsumoto and Nishimura's MT19937, as CPython's ``_random`` module implements it.
"""
from __future__ import annotations

import random as _random

import numpy as np
from numba import njit

N, M = 624, 397
MATRIX_A, UPPER, LOWER = 0x9908B0DF, 0x80000000, 0x7FFFFFFF
MASK = 0xFFFFFFFF


def state_of(rng: _random.Random) -> np.ndarray:
    """``rng``'s state as the kernels carry it: its 624 words, then its position."""
    version, words, gauss = rng.getstate()
    return np.array(words, dtype=np.uint32)


def restore(rng: _random.Random, state: np.ndarray) -> None:
    """Put a state the kernels advanced back into ``rng`` (its next draws continue from there)."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(state.tolist()), gauss))  # Python ints: 20x faster than one int() a word


@njit(cache=True)
def _twist(state):
    for kk in range(N):
        y = (np.int64(state[kk]) & UPPER) | (np.int64(state[(kk + 1) % N]) & LOWER)
        value = np.int64(state[(kk + M) % N]) ^ (y >> 1)
        if y & 1:
            value ^= MATRIX_A
        state[kk] = value & MASK
    state[N] = 0


@njit(cache=True)
def next_word(state):
    """The next 32-bit output (CPython's ``genrand_uint32``)."""
    if state[N] >= N:
        _twist(state)
    y = np.int64(state[state[N]])
    state[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK


@njit(cache=True)
def random(state):
    """``Random.random()``: a float in [0, 1) from 53 random bits."""
    a = next_word(state) >> 5
    b = next_word(state) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def randbelow(state, n):
    """``Random._randbelow(n)``: a uniform integer in [0, n) by rejection from ``n.bit_length()`` bits
    (``n`` < 2**32)."""
    if n <= 0:
        return 0
    k = 0
    while (n >> k) > 0:
        k += 1
    r = next_word(state) >> (32 - k)
    while r >= n:
        r = next_word(state) >> (32 - k)
    return r


@njit(cache=True)
def shuffle(state, values, count):
    """``Random.shuffle`` of ``values[:count]`` in place."""
    for i in range(count - 1, 0, -1):
        j = randbelow(state, i + 1)
        values[i], values[j] = values[j], values[i]
