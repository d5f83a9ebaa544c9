"""The generational driver: runs a recipe's evolution generation by generation, logging and checkpointing.

A recipe's evolution object provides:

- ``generations``: how many generations to run;
- ``start(rng) -> state``: generation 0 (everything that must survive a kill lives in ``state``, including the
  random generator, so a resumed run continues exactly as an uninterrupted one would);
- ``step(state, generation, executor) -> (state, record)``: evaluate generation ``generation`` and breed the
  next; ``record`` holds the numbers to log (best, mean, worst fitness, sizes, evaluations...);
- ``finish(state, folder)``: write the best agent, exports, plots;
- optionally ``done(state) -> bool``: stop early (a convergence test).
"""
from __future__ import annotations

import time
from typing import Any, Callable, Protocol

import numpy as np

from evoplay.arena.executors import Executor, SerialExecutor
from evoplay.evolve.runs import RunFolder


class Evolution(Protocol):
    generations: int

    def start(self, rng: np.random.Generator) -> Any: ...

    def step(self, state: Any, generation: int, executor: Executor) -> tuple[Any, dict]: ...

    def finish(self, state: Any, folder: RunFolder) -> None: ...


Progress = Callable[[int, int, dict | None], None]


def run_seed(config: dict) -> int:
    seed = config.get("seed", 0)
    return int(seed)


def run_evolution(evo: Evolution, folder: RunFolder, executor: Executor | None = None,
                  progress: Progress | None = None, stop_after: int | None = None) -> Any:
    """Run (or resume) ``evo`` in ``folder``. Returns the final state.

    After each generation the log line is appended and then the checkpoint replaced atomically; a run killed
    between the two rewrites that generation's line on resume. ``stop_after`` ends the call after that many
    generations without finishing the run (to test resuming).
    """
    executor = executor or SerialExecutor()
    loaded = folder.load_checkpoint()
    if loaded is None:
        generation = 0
        state = evo.start(np.random.default_rng(run_seed(folder.config)))
        folder.save_checkpoint(0, state)
        folder.truncate_log(-1)
    else:
        generation, state = loaded
        folder.truncate_log(generation - 1)
    total = evo.generations
    if progress:
        last = folder.read_log()
        progress(generation, total, last[-1] if last else None)
    ran = 0
    done = getattr(evo, "done", None)
    while generation < total and not (done and generation > 0 and done(state)):
        if stop_after is not None and ran >= stop_after:
            return state
        start = time.perf_counter()
        state, record = evo.step(state, generation, executor)
        record = {"generation": generation, **record, "seconds": round(time.perf_counter() - start, 4)}
        folder.log(record)
        generation += 1
        folder.save_checkpoint(generation, state)
        ran += 1
        if progress:
            progress(generation, total, record)
    evo.finish(state, folder)
    folder.write_json("finished.json", {"generations": generation, "finished": time.time()})
    return state
