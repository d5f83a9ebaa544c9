"""A small, quick evolution for the reliability tests: run as a script it creates or resumes a run folder.

``python toy.py DIR [GENERATIONS] [SLEEP]`` runs (or resumes) a bit-string GA in DIR, sleeping SLEEP seconds per
generation so a test can kill it at random moments. Its state holds what recipes keep: a random Generator,
arrays, a tuple, a nested dict and a float, so a checkpoint round trip exercises them all.
"""
from __future__ import annotations

import sys
import time

import numpy as np

from evoplay.evolve.loop import run_evolution
from evoplay.evolve.runs import RunFolder
from evoplay.evolve.selection import tournament

RECIPE = "toy"


class Toy:
    def __init__(self, generations: int = 12, sleep: float = 0.0):
        self.generations = generations
        self.sleep = sleep

    def start(self, rng):
        return {"rng": rng, "pop": rng.integers(0, 2, size=(16, 24)).astype(np.int8),
                "best": None, "history": [], "pair": (0, 0.0)}

    def step(self, state, generation, executor):
        rng, pop = state["rng"], state["pop"]
        fit = pop.sum(axis=1).astype(np.int64)
        fit = np.asarray(executor.map(int, list(fit)))
        parents = pop[tournament(fit, len(pop), 3, rng)]
        flips = (rng.random(parents.shape) < 0.05).astype(np.int8)
        best = int(np.argmax(fit))
        state.update(pop=parents ^ flips, best={"bits": pop[best].copy(), "fitness": int(fit[best])},
                     pair=(generation, float(fit.mean())))
        state["history"].append(int(fit.max()))
        if self.sleep:
            time.sleep(self.sleep)
        return state, {"best": int(fit.max()), "mean": float(fit.mean()), "worst": int(fit.min()),
                       "draw": float(rng.random())}

    def finish(self, state, folder):
        folder.write_json("best.json", {"bits": state["best"]["bits"].tolist(), "fitness": state["best"]["fitness"]})


def open_or_create(path, generations: int) -> RunFolder:
    try:
        return RunFolder.open(path)
    except Exception:
        return RunFolder.create(path, RECIPE, {"seed": 3, "generations": generations})


if __name__ == "__main__":
    folder_path = sys.argv[1]
    gens = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    pause = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    run_evolution(Toy(gens, pause), open_or_create(folder_path, gens))
