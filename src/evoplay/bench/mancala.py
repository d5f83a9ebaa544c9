"""Mancala GP speed (issue 3): a generation of 512 programs against the 8-ply minimax, evoplay's kernels against a
DEAP-style pure-Python evaluation of the same programs and the same minimax, and the full seed run 2."""
from __future__ import annotations

import statistics
import tempfile
import time

import numpy as np

from evoplay.bench import BenchResult, Figure, load_note, register_benchmark


def _deap_style_fitness(program, pset, depth: int) -> int:
    """What a DEAP user writes: the tree compiled to a Python function (DEAP's ``gp.compile`` evaluates a
    string the same way), the game and the minimax in plain Python, no memo."""
    from evoplay import gp
    from evoplay.games.kalah.minimax import reference_vs_minimax

    ns: dict = {}
    exec(gp.to_python(program, pset), ns)
    func = ns["program"]

    def choose(view):
        v = func([float(x) for x in view])
        pit = int(np.floor(v)) % 6 if abs(v) < 2**53 else 0
        for _ in range(6):
            if view[pit] > 0:
                return pit
            pit = (pit + 1) % 6
        raise ValueError("no move")

    return sum(reference_vs_minimax(program, seat, depth, choose=choose)[0] for seat in (0, 1))


@register_benchmark("mancala", "the Mancala GP's fitness: a 512-program generation vs DEAP-style Python; full run 2")
def bench_mancala(quick: bool = False) -> BenchResult:
    from evoplay.arena.executors import ProcessExecutor, SerialExecutor
    from evoplay.memo import clear_memos
    from evoplay.evolve.config import default_config_text, parse_toml
    from evoplay.recipes import mancala as M

    res = BenchResult("mancala", command="evoplay bench mancala")
    config = parse_toml(default_config_text("mancala", "run2"), "mancala_run2")
    evo = M.make(config)
    state = evo.start(np.random.default_rng(config["seed"]))
    population = state["population"]
    depth = config["fitness"]["minimax_depth"]
    evo.arena.vs_minimax(population[:2], [0, 1], [0, 1], [depth, depth], SerialExecutor())  # compile

    def generation(executor):
        clear_memos()
        evo.cache.clear()
        evo.arena.memo.forget_shared()
        t = time.perf_counter()
        scores = evo.scores_vs_minimax(population, depth, executor)
        return time.perf_counter() - t, scores

    reps = 1 if quick else 3
    serial = [generation(SerialExecutor()) for _ in range(reps)]
    t_serial = statistics.median(t for t, _ in serial)
    scores = serial[0][1]
    t0 = time.perf_counter()
    evo.cache.clear()
    evo.scores_vs_minimax(population, depth, SerialExecutor())  # memo warm: later generations look like this
    t_warm = time.perf_counter() - t0

    par = []
    for _ in range(reps):  # a fresh pool each time, so the workers' memos start empty too
        clear_memos()  # before the fork: workers inherit the parent's memo
        with ProcessExecutor(2) as ex:
            ex.map(abs, [1, 2])  # start the workers (forked: they inherit the compiled kernels)
            par.append(generation(ex))
    t_par = statistics.median(t for t, _ in par)
    assert all((s == scores).all() for _, s in serial + par), "executors disagree"

    # The DEAP-style evaluation of a uniform sample of the same programs, extrapolated to 512.
    rng = np.random.default_rng(0)
    sample = rng.choice(len(population), size=3 if quick else 10, replace=False)
    t0 = time.perf_counter()
    deap_scores = [_deap_style_fitness(population[int(i)], evo.pset, depth) for i in sample]
    t_deap = (time.perf_counter() - t0) / len(sample) * len(population)
    assert deap_scores == [int(scores[int(i)].sum()) for i in sample], "the Python evaluation disagrees"

    # The kernel alone on the same sample, every game with an empty memo (no sharing between programs).
    t0 = time.perf_counter()
    for i in sample:
        clear_memos()
        evo.arena.vs_minimax([population[int(i)]], [0, 0], [0, 1], [depth, depth], SerialExecutor())
    t_nomemo = (time.perf_counter() - t0) / len(sample) * len(population)

    note = f"{len(sample)} of the 512 programs sampled for the Python side; {load_note()}"
    res.figures.append(Figure("generation of 512 programs vs the 8-ply minimax, 1 process, memo cold: speed-up over "
                              "DEAP-style Python", t_deap / t_serial, "x", ">= 50", t_deap / t_serial >= 50,
                              note=f"evoplay {t_serial:.2f} s, DEAP-style {t_deap:.0f} s (est.); {note}"))
    res.figures.append(Figure("the same on 2 worker processes", t_deap / t_par, "x", ">= 50", t_deap / t_par >= 50,
                              note=f"evoplay {t_par:.2f} s"))
    res.figures.append(Figure("the same with the memo warm (as in later generations)", t_deap / t_warm, "x", "", None,
                              note=f"evoplay {t_warm:.3f} s"))
    res.figures.append(Figure("kernel alone (empty memo for every program, no sharing)", t_deap / t_nomemo, "x", "",
                              None, note=f"evoplay {t_nomemo:.2f} s per 512"))

    if not quick:
        from evoplay.evolve import RunFolder, run_evolution

        with tempfile.TemporaryDirectory() as tmp, ProcessExecutor(2) as ex:
            clear_memos()
            folder = RunFolder.create(f"{tmp}/run2", "mancala", config)
            t0 = time.perf_counter()
            run_evolution(M.make(config), folder, ex)
            t_run = time.perf_counter() - t0
            best = folder.read_json("best.json")
        res.figures.append(Figure("full seed run 2 (512 x 150 generations, 2 workers, with the final report)",
                                  t_run / 60, "min", "<= 15", t_run / 60 <= 15,
                                  note=f"best {best['score_first']}/{best['score_second']}; {load_note()}",
                                  higher_is_better=False))
    return res


@register_benchmark("gp", "GP interpreter: batched Numba evaluation vs compiled Python (DEAP-style) and the reference")
def bench_gp(quick: bool = False) -> BenchResult:
    from evoplay import gp
    from evoplay.bench import median_time
    from evoplay.gp import interpreter as gpi

    pset = gp.PrimitiveSet("bench", n_features=8).add_functions("add", "sub", "mul", "div", "min", "max", "if_lt")
    pset.add_features(*[f"x{i}" for i in range(8)]).add_ephemeral("c", -1, 1)
    rng = np.random.default_rng(0)
    program = next(p for p in iter(lambda: gp.grow(pset, rng, 7, 2, 0.6), None) if 40 <= p.size <= 50)
    rows = rng.normal(size=(2000, 8))
    out = np.empty(len(rows))
    gpi.evaluate_rows(program.opcodes, program.args, program.consts, 0, program.size, rows, out)
    t = median_time(lambda: gpi.evaluate_rows(program.opcodes, program.args, program.consts, 0, program.size,
                                              rows, out), 5 if quick else 15)
    ns: dict = {}
    exec(gp.to_python(program, pset), ns)
    f = ns["program"]
    lists = rows.tolist()
    n_py = 500 if quick else 2000
    tp = median_time(lambda: [f(r) for r in lists[:n_py]], 3)
    res = BenchResult("gp", command="evoplay bench gp")
    nps = len(rows) * program.size / t
    res.figures.append(Figure(f"{program.size}-node program on 2000 rows (evaluate_rows): node evaluations per second",
                              nps, "/s", ">= 100 M (DESIGN.md: 120-136 M)", nps >= 100e6,
                              n_py * program.size / tp, "/s compiled Python function (DEAP-style)"))
    row = rows[0]
    gp.program_value(program, row)
    t1 = median_time(lambda: gpi.evaluate(program.opcodes, program.args, program.consts, 0, program.size, row), 5,
                     min_seconds=0.05)
    res.figures.append(Figure("one call on one row (from Python, call overhead included)", 1 / t1, "/s", "", None,
                              1 / median_time(lambda: f(lists[0]), 5, min_seconds=0.05), "/s compiled Python"))
    pop = gp.population(pset, rng, 512, "ramped", 2, 6)
    pool = gp.pack(pop)
    rows_small = rows[:32]
    out2 = np.empty((512, 32))
    gpi.evaluate_pool(*pool, rows_small, out2)
    tpool = median_time(lambda: gpi.evaluate_pool(*pool, rows_small, out2), 5)
    nodes = sum(p.size for p in pop) * 32
    res.figures.append(Figure("population of 512 on 32 rows (evaluate_pool): nodes per second", nodes / tpool, "/s",
                              "", None, note=f"{nodes / 32 / 512:.1f} nodes per program on average"))
    return res
