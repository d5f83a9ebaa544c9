"""The generational driver: runs a recipe's evolution generation by generation, logging and checkpointing.

A recipe's evolution object provides:

- ``generations``: how many generations to run;
- ``start(rng) -> state``: generation 0 (everything that must survive a kill lives in ``state``, including the
  random generator, so a resumed run continues exactly as an uninterrupted one would);
- ``step(state, generation, executor) -> (state, record)``: evaluate generation ``generation`` and breed the
  next; ``record`` holds the numbers to log (best, mean, worst fitness, sizes, evaluations...);
- ``finish(state, folder)``: write the best agent, exports, plots;
- optionally ``done(state) -> bool``: stop early (a convergence test);
- optionally ``closing_share``: the share of ``minutes`` its ``finish`` needs when that is more than the config's
  ``closing``; and ``closing_seconds(state, workers)``: the seconds it needs, estimated from the run so far (the
  loop keeps the larger of the two, at most half the budget).
"""
from __future__ import annotations

import time
from typing import Any, Callable, Protocol

import numpy as np

from evoplay.arena.executors import Executor, SerialExecutor
from evoplay.arena.tournament import games_until
from evoplay.errors import CheckpointError, TimeBudgetSpent
from evoplay.evolve.runs import CHECKPOINT, FINISHED, LOG, OLD_CHECKPOINT, RunFolder

#: a run's generation stopped by its time budget: which, and the seconds it took (they count against the budget)
CUT = "cut.json"
#: the seconds the run's start took (a warm start's games, the first compile of the game's kernels): they count too
START = "start.json"


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
                  progress: Progress | None = None, stop_after: int | None = None, began: float | None = None
                  ) -> Any:
    """Run (or resume) ``evo`` in ``folder``. Returns the final state.

    The folder is locked for the whole call (a second process resuming it is refused). After each generation the
    log line is appended and then the checkpoint replaced atomically; a run killed between the two rewrites that
    generation's line on resume. On resume the checkpoint and the log must agree: a checkpoint at generation g
    needs log records 0..g-1. ``stop_after`` ends the call after that many generations without finishing the
    run (to test resuming).

    The start of a new run (``evo.start``, written to the folder as its seconds) counts from ``began`` (a
    ``time.time()``: when the command began, so that making ``evo`` counts too -- it compiles the game's searches
    for the ladder's opponents, a minute on a fresh install), or from now.

    A config with ``minutes`` > 0 also stops once the start and the generations logged have taken that much time
    (their ``seconds``, summed over every resume), less the share ``closing`` (0..0.5, default 0) it keeps for the
    recipe's ``finish`` (its closing playoff and tables, which read what is left from the log), and starts no
    generation that the last ones say would end past that; one that runs past it all the same (a ladder's
    stronger opponent, a loaded machine) is stopped within a game and does not count. The first generation runs
    to the budget's end (its closing share included) where the recipe gives ``unevaluated(state)``, the individual
    it ships when no generation was evaluated (a game of seconds a move can take longer than the budget in one
    generation); it is stopped there, and ``finish`` then ships that start. Else it always runs to its end. Why
    the run stopped is written to the finish mark (``stopped``).
    """
    executor = executor or SerialExecutor()
    minutes = float(folder.config.get("minutes", 0) or 0)
    closing = getattr(evo, "closing_share", None)  # a recipe option's own share (gp and ga --levels)
    closing = float(folder.config.get("closing", 0) or 0) if closing is None else max(
        float(closing), float(folder.config.get("closing", 0) or 0))
    limit = 60.0 * minutes * (1.0 - closing)
    reserve = getattr(evo, "closing_seconds", None)
    with folder.locked():
        total = evo.generations
        loaded = folder.load_checkpoint()
        if loaded is None:
            if folder.read_log():
                raise CheckpointError(
                    f"{folder.file(CHECKPOINT)} is missing but {folder.file(LOG)} holds generation records; "
                    "the run cannot continue without its checkpoint (start a new run)"
                )
            generation = 0
            began = time.time() if began is None else began
            state = evo.start(np.random.default_rng(run_seed(folder.config)))
            folder.truncate_log(-1)
            folder.write_json(START, {"seconds": round(max(0.0, time.time() - began), 4)})
            folder.save_checkpoint(0, state)
        else:
            generation, state = loaded
            _check_generation(folder, generation, total)
            # a damaged line is written again from the checkpoint's copy here, before any generation runs
            folder.check_log(generation, f"{folder.file(CHECKPOINT)} (at generation {generation})", repair=True)
            folder.truncate_log(generation - 1)
        if progress:
            last = folder.read_log()
            progress(generation, total, last[-1] if last else None)
        ran = 0
        done = getattr(evo, "done", None)
        unevaluated = getattr(evo, "unevaluated", None)  # what a recipe ships when no generation was evaluated
        spent = start_seconds(folder) + sum(float(r.get("seconds", 0.0)) for r in folder.read_log())
        stopped = f"{total} generations run"
        while generation < total:
            if done and generation > 0 and done(state):
                stopped = f"the recipe's convergence test held after {generation} generations"
                break
            if reserve is not None and minutes:  # what the recipe's closing says it needs, at most half the budget
                needs = reserve(state, getattr(executor, "workers", 1))
                limit = min(limit, max(30.0 * minutes, 60.0 * minutes - needs))
            # the first generation always starts (a run ships a champion), however long the start took; where the
            # recipe can ship its start unevaluated it is stopped at the budget's end (below)
            if minutes and generation > 0 and (spent >= limit or spent + _next_generation(folder) > limit):
                stopped = f"the time budget of {minutes:g} min was spent after {generation} generations"
                break
            if stop_after is not None and ran >= stop_after:
                return state
            start = time.perf_counter()
            # A generation the last ones said would fit but that runs past the budget is stopped at it (within a
            # game) and does not count: the run finishes from the checkpoint before it. The first runs to the
            # whole budget's end where the recipe can ship its start unevaluated (``unevaluated``), else to its end.
            cut_at = time.time() + (limit - spent) if minutes and generation > 0 else None
            if minutes and generation == 0 and unevaluated is not None:
                cut_at = time.time() + max(0.0, 60.0 * minutes - spent)
            try:
                with games_until(cut_at):
                    state, record = evo.step(state, generation, executor)
            except TimeBudgetSpent:
                seconds = time.perf_counter() - start
                folder.write_json(CUT, {"generation": generation, "seconds": round(seconds, 4)})
                if generation == 0:  # nothing evaluated: the start ships, as the step left it (a warm start fitted)
                    stopped = (f"the time budget of {minutes:g} min ran out during the first generation: its games "
                               f"were stopped after {seconds:.0f} s, and the start ships unevaluated")
                    break
                generation, state = folder.load_checkpoint()
                stopped = (f"the time budget of {minutes:g} min ran out during generation {generation + 1}: its "
                           f"games were stopped after {seconds:.0f} s and it does not count")
                break
            record = {"generation": generation, **record, "seconds": round(time.perf_counter() - start, 4)}
            folder.log(record)
            spent += record["seconds"]
            generation += 1
            folder.save_checkpoint(generation, state)
            ran += 1
            if progress:
                progress(generation, total, record)
        evo.finish(state, folder)
        folder.write_json(FINISHED, {"generations": generation, "finished": time.time(), "stopped": stopped})
    return state


def _next_generation(folder: RunFolder) -> float:
    """How long the next generation should take: the median of the last three (0 before the second, since the
    first carries the run's start-up)."""
    seconds = [float(r.get("seconds", 0.0)) for r in folder.read_log()[1:][-3:]]
    return float(np.median(seconds)) if seconds else 0.0


def start_seconds(folder: RunFolder) -> float:
    """The seconds the run's start took (0 for a run that began before they were kept)."""
    return float(folder.read_json(START)["seconds"]) if folder.file(START).exists() else 0.0


def time_left(folder: RunFolder) -> float | None:
    """Seconds of a run's time budget (``minutes``) its start and generations have not used (None: no budget):
    what its closing playoff and tables may take. A generation stopped by the budget (its CUT file) counts too."""
    minutes = float(folder.config.get("minutes", 0) or 0)
    if not minutes:
        return None
    cut = folder.read_json(CUT)["seconds"] if folder.file(CUT).exists() else 0.0
    spent = start_seconds(folder) + sum(float(r.get("seconds", 0.0)) for r in folder.read_log()) + float(cut)
    return max(0.0, 60.0 * minutes - spent)


def rewrite_outputs(evo: Evolution, folder: RunFolder, executor: Executor | None = None) -> Any:
    """Write a finished run's outputs (best agent, exports, plots) again from its last checkpoint: for a run
    whose outputs were deleted. The log and the checkpoint must agree, as on resume."""
    with folder.locked():
        if not folder.finished:
            raise CheckpointError(f"{folder.path} has not finished; 'evoplay resume {folder.path}' finishes it")
        loaded = folder.load_checkpoint()
        if loaded is None:
            raise CheckpointError(f"{folder.file(CHECKPOINT)} is missing; the outputs cannot be rewritten without it")
        generation, state = loaded
        _check_generation(folder, generation, evo.generations)
        try:
            finished = folder.read_json(FINISHED)
        except CheckpointError:  # a corrupt finish mark: written again below from the checkpoint's generation
            finished = None
        if finished is not None and (not isinstance(finished, dict) or finished.get("generations") != generation):
            raise CheckpointError(
                f"{folder.file(FINISHED)} says {finished.get('generations') if isinstance(finished, dict) else '?'} "
                f"generations but {folder.file(CHECKPOINT)} is at generation {generation}; they disagree"
            )
        records = folder.check_log(generation, f"{folder.file(CHECKPOINT)} (at generation {generation})",
                                   repair=True)
        if len(folder.read_log()) != len(records):
            folder.truncate_log(generation - 1)
        if hasattr(evo, "executor"):
            evo.executor = executor or SerialExecutor()
        evo.finish(state, folder)
        if finished is None:
            folder.write_json(FINISHED, {"generations": generation, "finished": time.time(),
                                         "stopped": f"{generation} generations run (the finish mark was corrupt and "
                                                    f"written again by report --rewrite)"})
    return state


def verify_folder(folder: RunFolder, generations: int) -> None:
    """Check a run folder's log, checkpoint and finish mark against each other (for report): raises
    CheckpointError saying what is inconsistent."""
    if not folder.file(CHECKPOINT).exists() and folder.file(OLD_CHECKPOINT).exists() and folder.finished:
        # A finished run of an older evoplay: its pickle is never read; the log is checked against the finish mark.
        finished = folder.read_json(FINISHED)
        count = finished.get("generations") if isinstance(finished, dict) else None
        if not isinstance(count, int):
            raise CheckpointError(f"{folder.file(FINISHED)} does not say how many generations ran")
        folder.check_log(count, f"{folder.file(FINISHED)}")
        return
    loaded = folder.load_checkpoint()
    if loaded is None:
        if folder.read_log():
            raise CheckpointError(f"{folder.file(CHECKPOINT)} is missing but {folder.file(LOG)} holds records")
        return
    generation, _ = loaded
    _check_generation(folder, generation, generations)
    folder.check_log(generation, f"{folder.file(CHECKPOINT)} (at generation {generation})")
    if folder.finished:
        finished = folder.read_json(FINISHED)
        if not isinstance(finished, dict) or finished.get("generations") != generation:
            raise CheckpointError(f"{folder.file(FINISHED)} and {folder.file(CHECKPOINT)} (generation {generation}) "
                                  "disagree on how many generations ran")


def _check_generation(folder: RunFolder, generation: int, total: int) -> None:
    if not 0 <= generation <= total:
        raise CheckpointError(
            f"{folder.file(CHECKPOINT)} says generation {generation}, outside 0..{total} of this run's config "
            f"(generations = {total}); the checkpoint does not belong to this run"
        )
