"""Random search as a yardstick for seed 003's GP (docs/mancala.md): the best of 50,000 random programs, made like
an initial population, against the 8-ply minimax moving first, moving second, and both summed."""
import numpy as np

from evoplay import gp
from evoplay.arena.executors import SerialExecutor
from evoplay.evolve.config import load_config
from evoplay.recipes import mancala

if __name__ == "__main__":
    evo = mancala.make(load_config("mancala"))
    rng = np.random.default_rng(123)
    best = {"first": 0, "second": 0, "sum": 0}
    for batch in range(50):
        programs = gp.population(evo.pset, rng, 1000, "grow", 1, 8, 0.45)
        s = evo.scores_vs_minimax(programs, 8, SerialExecutor(), use_cache=False)
        best = {"first": max(best["first"], int(s[:, 0].max())), "second": max(best["second"], int(s[:, 1].max())),
                "sum": max(best["sum"], int(s.sum(axis=1).max()))}
        print(f"{(batch + 1) * 1000} programs: best {best}", flush=True)
