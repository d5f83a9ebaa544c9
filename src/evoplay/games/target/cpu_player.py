"""The target-number game's genetic CPU player (seed 004): the article's, and an improved configuration.

A chromosome is an expression tree whose leaves index the six drawn numbers (each index at most once); a node is
an int (a leaf: the number's position) or a tuple ``(op, left, right)``. Its value uses the seed's lenient
division: a division by zero or a division that is not exact returns its left operand, as if not performed
(``TngDiv``). After every change a tree is *reduced* (an operation whose value equals that of one of its
sub-expressions is replaced by it: invalid divisions, neutral operands ``x*1``, ``x+0``, ..., and deeper ones such as
``(a+b)-b``; the narrower neutral-operand reading is an option) and *normalised* (the operands of a chain of
``+`` or of ``*`` are sorted by value into one left-deep chain), so different encodings of the same expression collapse into one (``TngReduceTree``, ``TngNormalizeTree``).
Fitness is ``1 / (1 + |target - value|)``, in (0, 1], 1 for an exact hit (the article example's
``TngFitnessOperation``; other readings are options).

The seed's algorithm (``CpuPlayer``): population 32; each generation roulette-wheel selects 8 distinct parents,
simple coupling makes 8 offspring (pairs in order, crossover 80 %, otherwise a copy), each offspring is mutated
with probability 30 % and the mutation is kept only when it improves the fitness; the offspring replace the worst
8 chromosomes, and offspring already in the population are not inserted. It stops at an exact hit or at the time
limit; an observer sees each generation's best and the population.

A general GP engine (evoplay.gp) has no lenient division, no reduction/normalisation and no number-use repair, so
the trees here are a small dedicated representation (evoplay.games.target.trees; see docs/target.md).
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Callable

import numpy as np

from evoplay.errors import ConfigError
from evoplay.games.target.game import format_expr
from evoplay.games.target.trees import (  # noqa: F401 - the GA's tree operations, also read from here
    OPS,
    lenient,
    tree_value,
    tidy,
    value_tree,
    leaf_indices,
    legal_expression,
    _subtrees,
    _replace_at,
    random_tree,
    _build,
    crossover,
    mutate,
    neighbours,
    _parts,
    _leaf_mask,
    desired_value,
    semantic_mutation,
    graft_nearest,
    small_library,
)
FITNESS_KINDS = ("inverse", "relative", "ratio")


# --------------------------------------------------------------------------------------------------------------
# Configuration.
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetGAConfig:
    """The GA's parameters. The field defaults are the article's setting (``TargetGAConfig() == seed()``, read
    from target_seed.toml); ``improved()`` is the configuration measured in docs/target.md (target_improved.toml)."""

    population: int = 32
    parents: int = 8  # selected per generation (distinct)
    offspring: int = 8  # produced per generation; they replace the worst
    crossover_rate: float = 0.8
    mutation_rate: float = 0.3
    mutation_improve_only: bool = True  # keep a mutation only when it improves the fitness
    selection: str = "roulette"  # roulette | gal_roulette (Genetic Algorithm Library's wheel) | tournament
    tournament_size: int = 3
    restart_after: int = 0  # generations without progress before the population is re-seeded (0: never)
    local_search: bool = False  # try every single-node change of each new best (a 1-step hill climb)
    semantic_rate: float = 0.0  # chance per offspring of the semantic-backpropagation mutation
    semantic_all_nodes: bool = False  # try the semantic graft at every node and keep the best
    semantic_choices: int = 1  # the graft takes one of this many nearest library subtrees (when none is exact)
    library_size: int = 0  # the semantic graft also draws on every expression over up to this many numbers (0..3)
    restart_keep_best: bool = True  # a restart keeps the best chromosome in the new population
    time_limit: float = 1.0  # seconds of search
    max_generations: int = 0  # also stop after this many generations (0: no limit); with it a run is reproducible
    clock: str = "wall"  # wall | cpu (thread CPU time: immune to a loaded machine)
    fitness: str = "inverse"  # inverse: 1/(1+d)^p | relative: 1 - d/t (clipped above 0) | ratio: t/(t+d)
    fitness_power: float = 1.0  # p of the inverse fitness
    initial_numbers: str = "subset"  # initial trees over a random subset of the numbers, or "all" six
    reduction: str = "subexpression"  # neutral: invalid divisions and neutral operands | subexpression: any
    #   operation whose value equals one of its sub-expressions' is replaced by it (the article's wording)
    duplicates: str = "indices"  # offspring already in the population: the same tree of number positions
    #   ("indices") or the same expression over the numbers' values ("values": equal numbers are one)
    mutation_accept_equal: bool = False  # with mutation_improve_only, also keep a mutation that leaves the
    #   fitness unchanged (Genetic Algorithm Library rejects only a mutation that makes it worse)

    def __post_init__(self):
        problems = []
        if self.population < 2:
            problems.append(f"population={self.population} (at least 2)")
        if not 2 <= self.parents <= self.population:
            problems.append(f"parents={self.parents} (2..population)")
        if not 1 <= self.offspring <= self.population - 1:
            problems.append(f"offspring={self.offspring} (1..population-1)")
        for name in ("crossover_rate", "mutation_rate", "semantic_rate"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                problems.append(f"{name}={getattr(self, name)} (0..1)")
        if self.selection not in ("roulette", "gal_roulette", "tournament"):
            problems.append(f"selection={self.selection!r} (roulette, gal_roulette or tournament)")
        if self.tournament_size < 1:
            problems.append(f"tournament_size={self.tournament_size} (at least 1)")
        if not 0 <= self.library_size <= 4:
            problems.append(f"library_size={self.library_size} (0..4)")
        if self.max_generations < 0:
            problems.append(f"max_generations={self.max_generations} (0 or more)")
        if self.restart_after < 0:
            problems.append(f"restart_after={self.restart_after} (0 or more)")
        if not self.time_limit > 0:
            problems.append(f"time_limit={self.time_limit} (seconds, > 0)")
        if self.fitness not in FITNESS_KINDS:
            problems.append(f"fitness={self.fitness!r} ({', '.join(FITNESS_KINDS)})")
        if not self.fitness_power > 0:
            problems.append(f"fitness_power={self.fitness_power} (> 0)")
        if self.initial_numbers not in ("subset", "all"):
            problems.append(f"initial_numbers={self.initial_numbers!r} (subset or all)")
        if self.duplicates not in ("indices", "values"):
            problems.append(f"duplicates={self.duplicates!r} (indices or values)")
        if self.reduction not in ("neutral", "subexpression"):
            problems.append(f"reduction={self.reduction!r} (neutral or subexpression)")
        if self.clock not in ("wall", "cpu"):
            problems.append(f"clock={self.clock!r} (wall or cpu)")
        if problems:
            raise ConfigError("target GA config: bad " + "; ".join(problems))

    @classmethod
    def seed(cls, **changes) -> "TargetGAConfig":
        return replace(load_recipe("target_seed"), **changes)

    @classmethod
    def improved(cls, **changes) -> "TargetGAConfig":
        return replace(load_recipe("target_improved"), **changes)

    @classmethod
    def from_dict(cls, d: dict) -> "TargetGAConfig":
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(d) - set(known))
        if unknown:
            raise ConfigError(f"target GA config: unknown key(s) {', '.join(unknown)}; valid: {', '.join(known)}")
        out = {}
        for k, v in d.items():
            want = type(getattr(cls(), k))
            if want is float and isinstance(v, int) and not isinstance(v, bool):
                v = float(v)
            if not isinstance(v, want) or (want is int and isinstance(v, bool)):
                raise ConfigError(f"target GA config: {k}={v!r} should be {want.__name__}")
            out[k] = v
        return cls(**out)

    def to_dict(self) -> dict:
        return asdict(self)


def load_recipe(name: str) -> TargetGAConfig:
    """A configuration from src/evoplay/recipes/<name>.toml (``target_seed``, ``target_improved``)."""
    import tomllib

    path = Path(__file__).resolve().parents[2] / "recipes" / f"{name}.toml"
    if not path.exists():
        raise ConfigError(f"no target GA recipe '{name}' ({path} does not exist); known: target_seed, target_improved")
    with open(path, "rb") as fh:
        return TargetGAConfig.from_dict(tomllib.load(fh).get("ga", {}))


# --------------------------------------------------------------------------------------------------------------
# The algorithm.
# --------------------------------------------------------------------------------------------------------------


@dataclass
class Chromosome:
    tree: object
    value: int
    fitness: float
    parts: list | None = None  # (value, leaf mask, subtree) of its subtrees, for the semantic mutation
    nodes: list | None = None  # its _subtrees, kept while it lives in the population
    key: object = None  # what the population's duplicate check compares (the tree, or its values)

    def __post_init__(self):
        if self.key is None:
            self.key = self.tree

    def subtrees(self) -> list:
        if self.nodes is None:
            self.nodes = _subtrees(self.tree)
        return self.nodes


@dataclass
class GAResult:
    """What a search found: the best chromosome, its legal expression and value, and how long it took."""

    value: int
    target: int
    expr: object  # expression over the drawn values (evoplay.games.target.game form), valid under the real rules
    generations: int
    evaluations: int
    seconds: float
    restarts: int = 0

    @property
    def distance(self) -> int:
        return abs(self.value - self.target)

    @property
    def expression(self) -> str:
        return format_expr(self.expr)


Observer = Callable[[int, Chromosome, list], None]


def _by_fitness(c: Chromosome) -> float:
    return -c.fitness


def fitness_of(value: int, target: int, kind: str = "inverse", power: float = 1.0) -> float:
    """The fitness, in (0, 1], 1 for an exact hit: ``inverse`` 1 / (1 + |t - n|)^p, ``relative`` 1 - |t - n| / t
    (clipped at 1e-6 above 0), ``ratio`` t / (t + |t - n|)."""
    d = abs(target - value)
    if kind == "inverse":
        return 1.0 / (1.0 + d) ** power
    if kind == "relative":
        return max(1.0 - d / target, 1e-6)
    return target / (target + d)


class TargetGA:
    """One search for one draw: ``TargetGA(config).solve(numbers, target, seed, observer)``."""

    def __init__(self, config: TargetGAConfig | None = None):
        self.config = config or TargetGAConfig.seed()
        self.stop_requested = False
        self._memo: dict = {}  # raw tree -> (tidy tree, value), for one draw

    def _make(self, tree, numbers, target) -> Chromosome:
        known = self._memo.get(tree)
        if known is None:
            if len(self._memo) > 200_000:
                self._memo.clear()
            out = self._tidy(tree, numbers)
            key = value_tree(out[0], numbers) if self.config.duplicates == "values" else out[0]
            known = self._memo[tree] = (out[0], out[1], key)
        cfg = self.config
        return Chromosome(known[0], known[1], fitness_of(known[1], target, cfg.fitness, cfg.fitness_power),
                          key=known[2])

    def _tidy(self, tree, numbers):
        if self.config.reduction == "neutral":
            return tidy(tree, numbers)
        # a normalised chain can expose a new reduction ((a + b) + c) - c: repeat to the fixed point
        while True:
            out = tidy(tree, numbers, True)
            if out[0] == tree:
                return out
            tree = out[0]

    def solve(self, numbers, target: int, seed: int = 0, observer: Observer | None = None) -> GAResult:
        cfg = self.config
        numbers = tuple(int(x) for x in numbers)
        n = len(numbers)
        rng = np.random.default_rng(seed)
        self._memo = {}
        clock = time.thread_time if cfg.clock == "cpu" else time.perf_counter
        start = clock()
        evaluations = 0
        restarts = 0

        def fresh_population(keep=()):
            nonlocal evaluations
            pop = list(keep)
            keys = {c.key for c in pop}
            tries = 0
            while len(pop) < cfg.population and tries < 50 * cfg.population:
                tries += 1
                c = self._make(random_tree(rng, n, cfg.initial_numbers == "all"), numbers, target)
                evaluations += 1
                if c.key not in keys:
                    keys.add(c.key)
                    pop.append(c)
            pop.sort(key=lambda c: -c.fitness)
            return pop, keys

        static = small_library(numbers, cfg.library_size) if cfg.library_size and cfg.semantic_rate > 0 else None
        pop, keys = fresh_population()
        best = pop[0]
        leader = best.fitness  # the population's best fitness: restarts follow its progress
        generation = 0
        stale = 0
        if observer is not None:
            observer(generation, best, pop)
        limit = cfg.max_generations or -1
        while (best.fitness < 1.0 and not self.stop_requested and clock() - start < cfg.time_limit
               and generation != limit):
            generation += 1
            parents = self._select(rng, pop)
            if cfg.semantic_rate > 0.0:
                libraries = [static, self._library(pop, numbers)] if static else [self._library(pop, numbers)]
            children = []
            for k in range(cfg.offspring):
                mother = parents[(2 * (k // 2) + (k % 2)) % len(parents)]
                father = parents[(2 * (k // 2) + 1 - (k % 2)) % len(parents)]
                if rng.random() < cfg.crossover_rate:
                    child = self._make(crossover(rng, mother.tree, father.tree, n, mother.subtrees(),
                                                 father.subtrees()), numbers, target)
                    evaluations += 1
                else:
                    child = mother
                if rng.random() < cfg.mutation_rate:
                    mutant = self._make(mutate(rng, child.tree, n, child.subtrees()), numbers, target)
                    evaluations += 1
                    if (not cfg.mutation_improve_only or mutant.fitness > child.fitness
                            or cfg.mutation_accept_equal and mutant.fitness == child.fitness):
                        child = mutant
                if cfg.semantic_rate > 0.0 and rng.random() < cfg.semantic_rate:
                    if cfg.semantic_all_nodes:
                        # every node's graft is tried and the best kept
                        base = child
                        for path, node, _ in _subtrees(base.tree):
                            tree = graft_nearest(base.tree, path, node, numbers, target, libraries)
                            if tree is not base.tree:
                                cand = self._make(tree, numbers, target)
                                evaluations += 1
                                if child is base or cand.fitness > child.fitness:
                                    child = cand
                    else:
                        tree = semantic_mutation(rng, child.tree, numbers, target, libraries, cfg.semantic_choices)
                        if tree is not child.tree:
                            child = self._make(tree, numbers, target)
                            evaluations += 1
                children.append(child)
            fresh = []
            for child in children:
                if child.key not in keys:
                    keys.add(child.key)
                    fresh.append(child)
            if fresh:
                # the offspring replace the worst chromosomes (the population is sorted best first)
                for worst in pop[len(pop) - len(fresh):]:
                    keys.discard(worst.key)
                del pop[len(pop) - len(fresh):]
                pop.extend(fresh)
                pop.sort(key=_by_fitness)
            if pop[0].fitness > leader:
                leader = pop[0].fitness
                stale = 0
                if cfg.local_search and leader < 1.0:
                    self._climb(pop[0], numbers, target, n, pop, keys)
                    evaluations += self._climb_evals
                    leader = pop[0].fitness
            else:
                stale += 1
            if pop[0].fitness > best.fitness:
                best = pop[0]
            if cfg.restart_after and stale >= cfg.restart_after and best.fitness < 1.0:
                pop, keys = fresh_population([best] if cfg.restart_keep_best else [])
                leader = pop[0].fitness
                restarts += 1
                stale = 0
            if observer is not None:
                observer(generation, best, pop)
        elapsed = clock() - start
        answer = self._answer(best, pop, numbers)
        value = answer[1]
        return GAResult(value, target, answer[0], generation, evaluations, elapsed, restarts)

    def _climb(self, best: Chromosome, numbers, target, n, pop, keys) -> Chromosome:
        """Hill climb by single-node changes from ``best`` while it improves; the result joins the population."""
        self._climb_evals = 0
        current = best
        while current.fitness < 1.0:
            step = None
            for t in neighbours(current.tree, n):
                c = self._make(t, numbers, target)
                self._climb_evals += 1
                if c.fitness > (step or current).fitness:
                    step = c
            if step is None:
                break
            current = step
        if current is not best and current.key not in keys:
            keys.add(current.key)
            worst = pop.pop()
            keys.discard(worst.key)
            pop.append(current)
            pop.sort(key=lambda c: -c.fitness)
        return current

    @staticmethod
    def _library(pop, numbers):
        """Every subtree of the population with its value and numbers, sorted by value."""
        entries = []
        for c in pop:
            if c.parts is None:
                c.parts = []
                _parts(c.tree, numbers, c.parts)
            entries.extend(c.parts)
        entries.extend((v, 1 << i, i) for i, v in enumerate(numbers))
        entries.sort(key=lambda e: e[0])
        return entries, [e[0] for e in entries]

    def _select(self, rng, pop):
        cfg = self.config
        if cfg.selection == "tournament":
            out = []
            for _ in range(cfg.parents):
                idx = rng.integers(len(pop), size=cfg.tournament_size)
                out.append(pop[int(idx.min())])  # the population is sorted best first
            return out
        if cfg.selection == "gal_roulette":
            return [pop[i] for i in gal_roulette([c.fitness for c in pop], cfg.parents, rng)]
        # roulette wheel without duplicates (GaSelectDuplicatesParams(false, 8))
        # by successive draws proportional to fitness (Efraimidis & Spirakis's keys u^(1/w): the same law as
        # spinning the wheel again after each pick, in one vector operation)
        weights = np.array([c.fitness for c in pop])
        k = min(cfg.parents, len(pop))
        keys = rng.random(len(pop)) ** (1.0 / weights)
        chosen = np.argpartition(-keys, k - 1)[:k]
        return [pop[int(i)] for i in chosen]

    @staticmethod
    def _answer(best: Chromosome, pop, numbers):
        """The best chromosome with a positive value, as a legal expression (a single number at worst)."""
        for c in sorted([best] + pop, key=lambda c: -c.fitness):
            expr = legal_expression(c.tree, numbers)
            if expr is not None:
                return expr, c.value
        m = max(numbers)
        return m, m


def gal_roulette(fitness, k: int, rng: np.random.Generator) -> list[int]:
    """k distinct indices by Genetic Algorithm Library 1.x's roulette wheel (GaSelectRouletteWheel) over a
    population sorted best first: each spin draws r uniformly in [0, total - 1) (so while the total fitness is
    below 1 the wheel always stops at the top), walks the cumulative fitness from the best until it reaches r,
    and takes the chromosome after the one it stopped on; a chromosome already taken is replaced by the nearest
    one not yet taken (above first, then below). The chosen indices come back best first, so simple coupling
    pairs the best two parents, then the next two (the library's selection group is sorted)."""
    size = len(fitness)
    cum = np.cumsum(fitness)
    span = float(cum[-1]) - 1.0
    taken: list[int] = []
    seen = set()
    for _ in range(min(k, size)):
        r = rng.random() * span
        i = 0 if r <= 0 else min(int(np.searchsorted(cum, r)) + 1, size - 1)
        if i in seen:
            lo, hi = i - 1, i + 1
            while True:
                if lo >= 0:
                    if lo not in seen:
                        i = lo
                        break
                    lo -= 1
                if hi < size:
                    if hi not in seen:
                        i = hi
                        break
                    hi += 1
        seen.add(i)
        taken.append(i)
    return sorted(taken)  # the library keeps the selected parents as a group sorted by fitness


def solve_ga(numbers, target: int, config: TargetGAConfig | None = None, seed: int = 0,
             observer: Observer | None = None) -> GAResult:
    """Run the GA once on a draw."""
    return TargetGA(config).solve(numbers, target, seed, observer)


# Strength levels of the CPU opponent: (recipe, seconds of search, name). Measured in docs/target.md.
LEVELS = {
    1: ("target_seed", 0.01, "beginner"),
    2: ("target_seed", 0.05, "casual"),
    3: ("target_seed", 0.3, "club"),
    4: ("target_improved", 0.1, "expert"),
    5: ("target_improved", 1.0, "master"),
}


def level_config(level: int, clock: str = "wall") -> TargetGAConfig:
    """The configuration of strength ``level`` (1..5)."""
    if level not in LEVELS:
        raise ConfigError(f"level {level}: choose one of {', '.join(map(str, LEVELS))} "
                          f"({', '.join(f'{k} {v[2]}' for k, v in LEVELS.items())})")
    recipe, seconds, _ = LEVELS[level]
    return replace(load_recipe(recipe), time_limit=seconds, clock=clock)
