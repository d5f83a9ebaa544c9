"""The rolling horizon evolutionary algorithm of GVGAI's sample RHEA controller, the search of ``rhea(...)``.

At every decision a population of ``population`` (10) random action sequences of length ``depth`` (10) is
created and evaluated like seed 002's random search (a rollout against a uniformly random opponent, valued by
the win/score heuristic); then generations are bred while time allows: the best ``elitism`` (1) sequences are
kept, every other place is filled by a child of two parents chosen by tournaments of ``tournament`` (2), made by
uniform crossover and ``mutation`` (1) point mutations (a gene redrawn uniformly), and evaluated once. Values
are not re-evaluated (the sample's default). The first action of the best sequence is played.

An iteration budget counts rollouts: the first population, then whole generations of population - elitism
evaluations while they fit.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.search.rollout import evaluate_sequence, randint, reseed, uncounted_arrays, uniform

USES = ("evoplay.search.rollout",)  # compiled per game with the game's rollout kernels (evoplay.games.kernels)


@njit(cache=True)
def _sort(pop, values):
    order = np.argsort(-values, kind="mergesort")  # stable: the older of equal sequences first
    pop[:] = pop[order]
    values[:] = values[order]


@njit(cache=True)
def _tournament(values, size):
    best = randint(values.shape[0])
    for _ in range(size - 1):
        other = randint(values.shape[0])
        if values[other] > values[best]:
            best = other
    return best


@njit(cache=True)
def evolve(params, root, seat, actions, depth, discount, pop, values, init, generations, elitism, tournament,
           mutation, seed, work, scratch):
    """Create and evaluate the population if ``init``; breed ``generations`` generations; return evaluations.

    ``pop`` holds gene indices into ``actions``; it is kept sorted by value, best first. A kernel per game, or
    over States (``on_states``).
    """
    params, root, work, scratch = uncounted_arrays(params, root, work, scratch)
    reseed(seed)
    size = pop.shape[0]
    n = actions.shape[0]
    seq = np.empty(depth, np.int64)
    evaluations = 0
    if init:
        for i in range(size):
            for d in range(depth):
                pop[i, d] = randint(n)
                seq[d] = actions[pop[i, d]]
            values[i] = evaluate_sequence(params, root, work, seat, seq, depth, discount, scratch)
            evaluations += 1
        _sort(pop, values)
    children = np.empty_like(pop)
    child_values = np.empty_like(values)
    for _ in range(generations):
        for i in range(elitism):
            children[i] = pop[i]
            child_values[i] = values[i]
        for i in range(elitism, size):
            a = _tournament(values, tournament)
            b = _tournament(values, tournament)
            for d in range(depth):
                children[i, d] = pop[a, d] if uniform() < 0.5 else pop[b, d]
            if n > 1:
                for _ in range(mutation):
                    children[i, randint(depth)] = randint(n)
            for d in range(depth):
                seq[d] = actions[children[i, d]]
            child_values[i] = evaluate_sequence(params, root, work, seat, seq, depth, discount, scratch)
            evaluations += 1
        pop[:] = children
        values[:] = child_values
        _sort(pop, values)
    return evaluations
