"""Executors that run batches of games: ``serial``, ``process`` (a process pool, the default) and ``ray``.

All three take the same tasks and return results in task order, so a run's results never depend on the backend
or the worker count: every game's seed is derived from the run seed and the game's place in the schedule.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Sequence

from evoplay.errors import EvoplayError, SpecError

BACKENDS = ("serial", "process", "ray")


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class Executor:
    """Runs ``fn(item)`` for each item and returns the results in item order."""

    name = "serial"
    workers = 1

    @property
    def needs_warmup(self) -> bool:
        """True while the workers have not started: code compiled in this process now reaches them (fork)."""
        return False

    def map(self, fn: Callable[[Any], Any], items: Sequence[Any], on_done: Callable[[int, Any], None] | None = None):
        results = []
        for i, item in enumerate(items):
            result = fn(item)
            results.append(result)
            if on_done:
                on_done(i, result)
        return results

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        return f"<{self.name} executor, {self.workers} worker(s)>"


class SerialExecutor(Executor):
    name = "serial"


class ProcessExecutor(Executor):
    """A process pool with an explicit multiprocessing context.

    On Linux the workers are forked, so they inherit the Numba code the parent compiled (the arena warms it by
    playing the first game in the parent); elsewhere they are spawned and load Numba's on-disk cache.
    The pool starts on first use and is kept until ``close``.
    """

    name = "process"

    def __init__(self, workers: int | None = None, context: str | None = None):
        self.workers = workers or available_cores()
        if self.workers < 1:
            raise SpecError(f"workers={self.workers}: use at least 1")
        self.context = context or ("fork" if sys.platform.startswith("linux") else "spawn")
        self._pool: ProcessPoolExecutor | None = None

    @property
    def needs_warmup(self) -> bool:
        return self._pool is None

    def _ensure(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=mp.get_context(self.context),
                                             initializer=_worker_init, initargs=(os.getpid(),))
        return self._pool

    def map(self, fn, items, on_done=None):
        """Run ``fn`` on every item. A worker that dies (killed, out of memory) at any moment loses only its
        tasks: they run again on a new pool (games are seeded, so the results are the same); a task whose run has
        killed its worker ``MAX_ATTEMPTS`` times is an error naming it. A pool that broke between two maps (a
        worker killed while idle) is replaced before its tasks are sent."""
        if not items:
            return []
        results: list[Any] = [None] * len(items)
        todo = list(range(len(items)))
        attempts = [0] * len(items)
        fresh = 0  # pools started in a row that broke before taking a task
        while todo:
            pool = self._ensure()
            futures: dict = {}
            try:
                for i in todo:
                    futures[pool.submit(fn, items[i])] = i
            except BrokenProcessPool:  # a worker died while the pool was idle: no task was running on it
                for fut in futures:
                    fut.cancel()
                self._discard_pool()
                fresh += 1
                if fresh >= MAX_ATTEMPTS:
                    raise WorkerLostError(f"{MAX_ATTEMPTS} new process pools in a row broke before running a task; "
                                          "worker processes cannot start here (memory? a process limit?)") from None
                continue
            fresh = 0
            pending = set(futures)
            lost: list[int] = []
            try:
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        i = futures[fut]
                        try:
                            results[i] = fut.result()
                        except BrokenProcessPool:
                            lost.append(i)
                            continue
                        if on_done:
                            on_done(i, results[i])
            except BaseException as err:
                for fut in pending:
                    fut.cancel()
                if isinstance(err, KeyboardInterrupt):
                    self._terminate()  # the workers ignore Ctrl-C; stop their tasks now instead of waiting
                raise
            if not lost:
                return results
            # The pool is broken: every unfinished task failed with it. Start a new one and run them again.
            self._discard_pool()
            for i in lost:
                attempts[i] += 1
                if attempts[i] >= MAX_ATTEMPTS:
                    raise WorkerLostError(
                        f"task {i} of {len(items)} ({getattr(fn, '__name__', fn)}) was running each of the "
                        f"{MAX_ATTEMPTS} times a worker process died (killed or out of memory); it is not retried again"
                    )
            todo = sorted(lost)
        return results

    def _terminate(self) -> None:
        if self._pool is not None:
            for proc in list((getattr(self._pool, "_processes", None) or {}).values()):
                proc.kill()
            self._discard_pool()

    def _discard_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


#: how many times a task may be running when its worker dies before it is an error (a lost node or a killed
#: worker costs a retry; a task that kills its worker every time is reported)
MAX_ATTEMPTS = 3


class WorkerLostError(EvoplayError):
    """A task's worker process died every time the task ran."""


def _worker_init(parent: int) -> None:
    """Make a pool worker die with its parent: the kernel's parent-death signal on Linux, and a watchdog thread
    (every platform) that ends the worker once its parent is gone. Ctrl-C is left to the parent."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the watchdog still works
            pass
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="evoplay-parent-watchdog", daemon=True).start()


class RayExecutor(Executor):
    """Ray tasks: a local Ray started for the run, or an existing cluster at ``address`` (``ray://...`` or
    ``host:port``). Needs the ``ray`` extra (``pip install "evoplay[ray]"``)."""

    name = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None):
        try:
            import ray
        except ImportError:
            raise SpecError(
                "backend 'ray' needs Ray: pip install 'evoplay[ray]' (or choose --backend process)"
            ) from None
        self._ray = ray
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        self._started_here = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
            if address:
                ray.init(address=address, **kwargs)
            else:
                ray.init(num_cpus=workers or available_cores(), **kwargs)
            self._started_here = True
        self.workers = workers or int(ray.cluster_resources().get("CPU", 1))
        # A task on a node that is lost runs again elsewhere (tasks are seeded, so the result is the same).
        self._remote = ray.remote(max_retries=MAX_ATTEMPTS, retry_exceptions=False)(_call_pickled)
        self._warm = False

    @property
    def needs_warmup(self) -> bool:
        # Ray's workers load Numba's on-disk cache; compiling here first, once, writes it.
        return not self._warm

    def map(self, fn, items, on_done=None):
        ray = self._ray
        self._warm = True
        # Tasks travel as pickled bytes: Ray would hand NumPy arrays over read-only (zero-copy), and kernels
        # with explicit signatures take writable arrays.
        refs = [self._remote.remote(pickle.dumps((fn, item), protocol=pickle.HIGHEST_PROTOCOL)) for item in items]
        index = {ref: i for i, ref in enumerate(refs)}
        results: list[Any] = [None] * len(items)
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                i = index[ref]
                try:
                    results[i] = ray.get(ref)
                except ray.exceptions.RayTaskError as err:  # the task itself raised: its own error
                    cause = getattr(err, "cause", None)
                    raise (cause if isinstance(cause, BaseException) else err) from None
                except ray.exceptions.RayError as err:  # its worker or node was lost every time it ran
                    raise WorkerLostError(
                        f"task {i} of {len(items)} ({getattr(fn, '__name__', fn)}) was lost with its Ray worker "
                        f"or node {MAX_ATTEMPTS + 1} times ({type(err).__name__}); check the cluster's nodes"
                    ) from None
                if on_done:
                    on_done(i, results[i])
        return results

    def close(self) -> None:
        if self._started_here and self._ray.is_initialized():
            self._ray.shutdown()
            self._started_here = False


def _call_pickled(payload: bytes):
    # The payload is one this process tree pickled a moment ago (RayExecutor.map sends it to its own workers);
    # no file or upload ever reaches here. Run folders are read by evolve.checkpoint, which never unpickles.
    fn, item = pickle.loads(payload)
    return fn(item)


def make_executor(backend: str = "process", workers: int | None = None, address: str | None = None) -> Executor:
    """Build an executor by name: ``serial``, ``process`` or ``ray``."""
    if backend not in BACKENDS:
        from evoplay.spec import suggest

        raise SpecError(f"unknown backend '{backend}'{suggest(backend, BACKENDS)}; known: {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise SpecError(f"workers={workers}: use at least 1")
    if address and backend != "ray":
        raise SpecError("--address is for the ray backend; add --backend ray")
    if backend == "serial" or (backend == "process" and workers == 1):
        return SerialExecutor()
    if backend == "process":
        return ProcessExecutor(workers)
    return RayExecutor(workers, address)
