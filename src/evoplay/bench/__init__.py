"""The benchmark registry behind ``evoplay bench``: each benchmark measures evoplay against a reference in one run."""
from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass, field
from typing import Callable


@dataclass
class Figure:
    """One measured figure: evoplay's value, the reference measured in the same run, and the target."""

    name: str
    value: float
    unit: str
    target: str = ""
    met: bool | None = None
    reference: float | None = None
    reference_name: str = ""
    note: str = ""
    higher_is_better: bool = True

    @property
    def ratio(self) -> float | None:
        """How many times better evoplay is than the reference (rates: value / ref; times: ref / value)."""
        if self.reference in (None, 0) or self.value == 0:
            return None
        return self.value / self.reference if self.higher_is_better else self.reference / self.value

    def to_dict(self) -> dict:
        d = asdict(self)
        d["ratio"] = self.ratio
        # Benchmarks compute with NumPy; JSON wants plain numbers and booleans.
        for key in ("value", "reference", "ratio"):
            if d[key] is not None:
                d[key] = float(d[key])
        if d["met"] is not None:
            d["met"] = bool(d["met"])
        return d


@dataclass
class BenchResult:
    name: str
    figures: list[Figure] = field(default_factory=list)
    command: str = ""
    #: measured on ``--quick``'s smaller samples: a target is a full run's, so no figure is judged against it
    quick: bool = False

    def to_dict(self) -> dict:
        return {"name": self.name, "command": self.command, "quick": self.quick,
                "figures": [f.to_dict() for f in self.figures]}


#: what a quick run says where a full run says whether a target was met
NOT_JUDGED = "quick, not judged"


def run_benchmark(bench: Benchmark, quick: bool, specs: list[str] | None = None, **options) -> BenchResult:
    """Run one benchmark (on the game ``specs`` when it takes them, with the command-line ``options`` it reads:
    ``games`` among them is learn's games a seat, not these). A quick
    run's samples are too small to hold a full run's target: its figures keep their targets but are not judged
    (``met`` is None, the result is marked ``quick``), and its command says ``--quick``."""
    result = bench.run(quick, specs, **options) if specs else bench.run(quick, **options)
    if quick:
        result.quick = True
        for figure in result.figures:
            figure.met = None
        if "--quick" not in result.command:
            result.command = f"{result.command} --quick".strip()
    return result


@dataclass
class Benchmark:
    name: str
    run: Callable[..., BenchResult]  # run(quick) -> result; run(quick, games) when it takes games
    help: str
    takes_games: bool = False
    #: runs for a long time (an hour and more): only when named (``evoplay bench learn``), never in the default set
    long: bool = False
    #: options of ``evoplay bench`` it reads (``minutes``, ``out``...), passed as keyword arguments when given
    options: tuple[str, ...] = ()


BENCHMARKS: dict[str, Benchmark] = {}


def register_benchmark(name: str, help: str, takes_games: bool = False, long: bool = False,
                       options: tuple[str, ...] = ()):
    """Decorator: add ``fn(quick: bool) -> BenchResult`` to ``evoplay bench``; with ``takes_games``,
    ``fn(quick, games=None)`` measures the game specs given after its name (``evoplay bench anygame FILE:Class``);
    a ``long`` one runs only when named; ``options`` it takes as keyword arguments from the command line."""

    def wrap(fn):
        BENCHMARKS[name] = Benchmark(name, fn, help, takes_games, long, tuple(options))
        return fn

    return wrap


def load_all() -> dict[str, Benchmark]:
    """Import every benchmark module so they register themselves."""
    import importlib
    import pkgutil

    import evoplay.bench as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"evoplay.bench.{info.name}")
    return dict(sorted(BENCHMARKS.items()))


def load_note() -> str:
    """The machine's load average, to print beside timings taken on a shared machine."""
    import os

    try:
        one, five, _ = os.getloadavg()
        return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"
    except OSError:  # pragma: no cover
        return ""


def median_time(fn: Callable[[], object], repeats: int = 5, min_seconds: float = 0.0) -> float:
    """Median wall time of ``fn()`` over ``repeats`` calls (each call repeated until ``min_seconds``)."""
    times = []
    for _ in range(repeats):
        calls = 0
        start = time.perf_counter()
        while True:
            fn()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        times.append(elapsed / calls)
    return statistics.median(times)


def random_positions(game, count: int, seed: int, max_moves: int = 24) -> list:
    """``count`` non-terminal positions with a choice, each reached by 0..``max_moves`` uniformly random moves."""
    import numpy as np

    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state(int(rng.integers(1 << 30)))
        for _ in range(int(rng.integers(0, max_moves + 1))):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append(state)
    return found
