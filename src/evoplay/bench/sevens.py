"""Sevens benchmarks (seed 000's targets): 1000 games of one specimen against two others on one core, and one
generation of a population of 100 on 2 workers, each beside a reference measured in the same run."""
from __future__ import annotations

import time

import numpy as np

from evoplay.bench import BenchResult, Figure, load_note, median_time, register_benchmark


def _population(n: int, seed: int = 0):
    """Specimens at least as big as evolved ones: full trees of depth 3-4 (15-31 nodes per tree)."""
    from evoplay.games.sevens.agents import sevens_primitive_set
    from evoplay.recipes.sevens import random_population

    return random_population(sevens_primitive_set(), np.random.default_rng(seed), n, "full", 3, 4)


def _python_games(population, games: int, seed: int) -> None:
    """The same match played move by move in Python: State objects, agents, the interpreter per decision."""
    from evoplay.games.sevens.agents import SevensSpecimenAgent, Specimen, sevens_primitive_set
    from evoplay.arena import play_game
    from evoplay.games import load_game

    game = load_game("sevens(players=3)")
    pset = sevens_primitive_set()
    agents = [SevensSpecimenAgent(game, Specimen(p, s, pset)) for p, s in population[:3]]
    for g in range(games):
        seats = [agents[(g + k) % 3] for k in range(3)]
        play_game(game, seats, seed + g)


@register_benchmark("sevens", "Sevens: 1000 games of a specimen vs two others (1 core); a generation of 100 (2 workers)")
def bench_sevens(quick: bool = False) -> BenchResult:
    from evoplay.arena.executors import ProcessExecutor, SerialExecutor
    from evoplay.evolve import load_config
    from evoplay.games.sevens.batch_play import Lineup
    from evoplay.recipes.sevens import SevensEvolution

    res = BenchResult("sevens", command="evoplay bench sevens")
    population = _population(100)
    sizes = [p.size + s.size for p, s in population]

    # 1. One individual against two others, seats rotating: 1000 games in one kernel call on one core.
    lineup = Lineup(population[:3])
    games = 1000
    seats = np.array([[(g + k) % 3 for k in range(3)] for g in range(games)], np.int64)
    seeds = np.random.default_rng(1).integers(0, 2**63, size=games, dtype=np.uint64)
    lineup.play(3, seeds[:2], seats[:2], True)  # compile
    cpu = []

    def kernel():
        c = time.process_time()
        lineup.play(3, seeds, seats, True)
        cpu.append(time.process_time() - c)

    t = median_time(kernel, 3 if quick else 9)
    py_games = 20 if quick else 60
    py_cpu = []

    def python_loop():
        c0 = time.process_time()
        _python_games(population, py_games, 5)
        py_cpu.append(time.process_time() - c0)

    _python_games(population, 1, 4)  # the first game loads and compiles what the loop needs, as the kernel's did
    median_time(python_loop, 1 if quick else 3)
    tp = float(np.median(py_cpu)) * games / py_games
    c = float(np.median(cpu))
    res.figures.append(Figure(
        "1000 games, one specimen vs two others: CPU time of the one core", c, "s", "<= 0.2 s", c <= 0.2, tp,
        f"s CPU, Python loop (State + agents), scaled from {py_games} games", higher_is_better=False))
    res.figures.append(Figure(
        "the same, wall time on the shared machine", t, "s", "", None,
        note=f"trees of {min(sizes)}-{max(sizes)} nodes per specimen; {load_note()}"))

    # 2. One generation (breed + 33,400 games + the best against the heuristic) of a population of 100.
    config = load_config("sevens", overrides={"generations": 3})
    evo = SevensEvolution(config)
    rng = np.random.default_rng(0)
    state = evo.start(rng)
    state["population"] = population
    state, _ = evo.step(state, 0, SerialExecutor())  # generation 0: ranks the population (and compiles)
    snapshot = state

    def generation(executor):
        import copy

        s = copy.deepcopy(snapshot)
        t0 = time.perf_counter()
        evo.step(s, 1, executor)
        return time.perf_counter() - t0

    reps = 1 if quick else 3
    with ProcessExecutor(2) as ex:
        if quick:  # start the pool (workers forked warm: generation 0 compiled everything here) with no games
            ex.map(int, [0, 0])
        else:
            generation(ex)  # start the pool
        parallel = float(np.median([generation(ex) for _ in range(reps)]))
    serial = float(np.median([generation(SerialExecutor()) for _ in range(reps)]))
    res.figures.append(Figure(
        "one generation, population 100, 1000 games each (2 workers)", parallel, "s", "<= 60 s", parallel <= 60,
        serial, "s the same on 1 core (serial)", higher_is_better=False,
        note=f"{load_note()}"))
    return res
