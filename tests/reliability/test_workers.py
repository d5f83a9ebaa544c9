"""Pool workers die with their parent, and a task whose worker died runs again (with the same result)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from evoplay.arena.executors import MAX_ATTEMPTS, ProcessExecutor, WorkerLostError

ROOT = str(Path(__file__).resolve().parents[2])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie waiting for its (dead) parent's reaper counts as gone
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _square_or_die(task):
    """Square x; die (SIGKILL on itself) the first ``deaths`` times the task runs, counted in a marker folder."""
    x, deaths, marker = task
    if deaths:
        runs = len(os.listdir(marker))
        open(os.path.join(marker, f"{x}-{runs}"), "w").close()
        if runs < deaths:
            os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.01)
    return x * x


def test_a_task_whose_worker_died_runs_again_with_the_same_result(tmp_path):
    marker = tmp_path / "m"
    marker.mkdir()
    tasks = [(x, 1 if x == 5 else 0, str(marker)) for x in range(12)]
    with ProcessExecutor(2) as ex:
        assert ex.map(_square_or_die, tasks) == [x * x for x in range(12)]
        assert ex.map(_square_or_die, [(3, 0, "")]) == [9]  # the pool works on after the loss


def test_a_task_that_kills_its_worker_every_time_is_an_error_naming_it(tmp_path):
    marker = tmp_path / "m"
    marker.mkdir()
    with ProcessExecutor(2) as ex, pytest.raises(WorkerLostError, match=f"task 0 of 1 .* {MAX_ATTEMPTS} times"):
        ex.map(_square_or_die, [(4, 99, str(marker))])


def _orphans_after_kill(workers: int, rounds: int) -> tuple[int, int]:
    """(workers seen, workers alive 3 s after their parent was killed with SIGKILL), over ``rounds`` parents."""
    seen = left = 0
    for _ in range(rounds):
        parent = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
            import os, sys, time
            sys.path.insert(0, {ROOT!r})
            from evoplay.arena.executors import ProcessExecutor
            ex = ProcessExecutor({workers})
            ex.map(abs, list(range({workers} * 4)))  # the pool is up
            print(" ".join(str(p) for p in ex._pool._processes), flush=True)
            ex.map(time.sleep, [30] * {workers})
        """)], stdout=subprocess.PIPE)
        pids = [int(p) for p in parent.stdout.readline().split()]
        time.sleep(0.2)  # the workers are in their 30 s tasks
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.time() + 3
        while any(_alive(p) for p in pids) and time.time() < deadline:
            time.sleep(0.05)
        seen += len(pids)
        left += sum(_alive(p) for p in pids)
        for p in pids:
            if _alive(p):
                os.kill(p, signal.SIGKILL)
    return seen, left


def test_workers_exit_when_their_parent_is_killed():
    seen, left = _orphans_after_kill(2, 1)
    assert seen == 2 and left == 0


@pytest.mark.slow
def test_no_orphans_over_many_kills():
    seen, left = _orphans_after_kill(2, 8)
    assert seen == 16 and left == 0



@pytest.mark.slow
def test_ray_tasks_keep_their_own_errors_and_name_a_task_that_loses_its_worker_every_time():
    pytest.importorskip("ray", reason="needs Ray")
    from evoplay.arena.executors import RayExecutor

    # Builtins, so Ray's workers can unpickle the functions without this test module.
    with RayExecutor(1) as ex:
        assert ex.map(abs, [-1, -2]) == [1, 2]
        with pytest.raises(ValueError, match="invalid literal"):
            ex.map(int, ["x"])
        with pytest.raises(WorkerLostError, match=f"task 0 of 1 .* lost with its Ray worker or node "
                                                  f"{MAX_ATTEMPTS + 1} times"):
            ex.map(os._exit, [3])


def test_a_worker_killed_between_maps_is_replaced():
    """Before, the next map's submit raised BrokenProcessPool outside the retry (evolve crashed between
    generations)."""
    with ProcessExecutor(2) as ex:
        assert ex.map(abs, [-1, -2, -3]) == [1, 2, 3]
        for pid in list(ex._pool._processes):
            os.kill(pid, signal.SIGKILL)
        deadline = time.time() + 10
        while any(_alive(p) for p in ex._pool._processes) and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)  # the pool's manager thread notices and marks the pool broken
        assert ex.map(abs, [-4, -5, -6]) == [4, 5, 6]


def test_a_run_goes_on_when_a_worker_dies_between_generations(tmp_path):
    from evoplay.evolve.loop import run_evolution
    from evoplay.evolve.runs import RunFolder

    from .toy import Toy

    straight = RunFolder.create(tmp_path / "straight", "toy", {"seed": 3, "generations": 6})
    run_evolution(Toy(6), straight)
    folder = RunFolder.create(tmp_path / "killed", "toy", {"seed": 3, "generations": 6})
    with ProcessExecutor(2) as ex:
        run_evolution(Toy(6), folder, ex, stop_after=3)
        for pid in list(ex._pool._processes):
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.3)
        run_evolution(Toy(6), folder, ex)
    strip = lambda log: [{k: v for k, v in r.items() if k != "seconds"} for r in log]  # noqa: E731
    assert strip(folder.read_log()) == strip(straight.read_log())
    assert folder.read_json("best.json") == straight.read_json("best.json")
