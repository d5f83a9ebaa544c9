"""``rhea(budget_ms=40,...)``: the rolling horizon evolutionary algorithm of GVGAI's sample RHEA controller.

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

from evoplay.agents.generic_rollout import randint, reseed, uniform
from evoplay.agents.controller import ForwardModelAgent
from evoplay.agents.kernel_rollout import evaluate_sequence
from evoplay.errors import SpecError

USES = ("evoplay.agents.kernel_rollout",)  # compiled per game with the game's rollout kernels (evoplay.games.kernels)


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


class RheaAgent(ForwardModelAgent):
    kind = "rhea"

    def __init__(self, game, budget_ms: float = 40.0, depth: int = 10, population: int = 10, elitism: int = 1,
                 tournament: int = 2, mutation: int = 1, discount: float = 1.0, iterations: int = 0,
                 break_ms: float = 0.0, seed: int = 0, spec: str | None = None, clock: str = "wall",
                 model: str = "auto"):
        if not 1 <= depth <= 1000:
            raise SpecError(f"rhea: depth={depth} is out of range; use 1..1000")
        if not 2 <= population <= 10_000:
            raise SpecError(f"rhea: population={population} is out of range; use 2..10000")
        if not 0 <= elitism < population:
            raise SpecError(f"rhea: elitism={elitism} must be in 0..population-1 ({population - 1})")
        if not 1 <= tournament <= population:
            raise SpecError(f"rhea: tournament={tournament} must be in 1..population ({population})")
        if not 0 <= mutation <= depth:
            raise SpecError(f"rhea: mutation={mutation} (genes mutated per child) must be in 0..depth ({depth})")
        self.depth, self.population, self.elitism = int(depth), int(population), int(elitism)
        self.tournament, self.mutation = int(tournament), int(mutation)
        super().__init__(game, budget_ms, iterations, break_ms, discount, seed, spec, clock=clock, model=model)

    def _search(self, root, actions, seat, remaining, iterations):
        pop = np.empty((self.population, self.depth), np.int64)
        values = np.empty(self.population)
        search, params, work, scratch = self.search_of("evolve", root)
        per_gen = self.population - self.elitism
        state = {"init": True}

        def run(count: int) -> int:
            init = state["init"]
            budget = count - (self.population if init else 0)
            gens = max(0, budget // per_gen) if per_gen else 0
            state["init"] = False
            return search(params, root, seat, actions, self.depth, self.discount, pop, values, init, gens,
                          self.elitism, self.tournament, self.mutation, self._seed(), work, scratch)

        if iterations > 0:
            total = max(iterations, self.population)
            per_call = max(self.population + per_gen, self.slice_iterations(self.depth))
            n = run(min(total, per_call))
            while n < total and per_gen and not self.out_of_time():  # in slices: Ctrl-C is seen between them
                more = run(min(total - n, per_call - per_call % per_gen))
                if more <= 0:
                    break
                n += more
        else:
            # The first call creates the population; later calls breed whole generations.
            t = self._now()
            n = run(self.population)
            n += self.timed_batches(run, remaining, 0, per_gen, done=n, spent=self._now() - t)
        self.last_value = float(values[0])
        return int(actions[pop[0, 0]]), n
