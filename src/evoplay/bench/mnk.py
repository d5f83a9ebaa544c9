"""Seed 001's Figure 6 here: n identical 5,5,4 games and a full round of 32 GA players, serial vs parallel."""
from __future__ import annotations

import os
import statistics
import time

import numpy as np

from evoplay.bench import BenchResult, Figure, load_note, register_benchmark

SEED_TABLE = {8: (19.33, 27.26), 16: (36.08, 77.60), 32: (67.29, 178.45)}  # n: (parallel s, serial s), 8 processes


def _players(game, count: int, seed: int, depth: int | None = None):
    from evoplay.agents.weights import genome_agent
    from evoplay.games.mnk.search import mnk_schema

    schema = mnk_schema(game.m, game.n, game.k)
    rng = np.random.default_rng(seed)
    out = []
    for i, bits in enumerate(schema.random(count, rng)):
        record = schema.decode(bits)
        if depth is not None:
            record["search_depth"] = depth
        out.append(genome_agent(game, record, spec=f"genome{i}"))
    return out


def _cpu_seconds(pids) -> float:
    """User + system CPU seconds used so far by the processes ``pids`` (Linux /proc; 0 where unreadable)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


def _worker_pids(executor) -> list[int]:
    pool = getattr(executor, "_pool", None)
    return list(getattr(pool, "_processes", {}) or {}) if pool is not None else []


def _backends(workers: int) -> list[str]:
    out = ["process"]
    try:
        import ray  # noqa: F401

        out.append("ray")
    except ImportError:
        pass
    return out


@register_benchmark("mnk", "the 5,5,4 GA's Figure 6: n identical games and a 992-game round, serial vs 2 workers")
def bench_mnk(quick: bool = False) -> BenchResult:
    """Each size is timed serial then parallel back to back, ``repeats`` times; medians and their ratio.

    The identical games are between two fixed genomes (seeded) searching to the seed's full schedule
    (search_depth 7), so every game runs to the end of the board as the seed's did. Games go through the arena
    (``play_schedule`` on the executor), exactly as the recipe's round robins do; the pool is started and warm
    before timing (Star-P's processes were running too), and its start is reported separately.
    """
    from evoplay.arena import make_executor, play_schedule, round_robin
    from evoplay.arena.tournament import Pairing
    from evoplay.games import load_game

    game = load_game("mnk(m=5,n=5,k=4)")
    workers = 2
    repeats = 1 if quick else 5
    sizes = (8, 16) if quick else (8, 16, 32)
    pair = _players(game, 2, seed=2026, depth=7)
    res = BenchResult("mnk", command="evoplay bench mnk")

    def identical(n, executor=None):
        return play_schedule(game, pair, [Pairing((0, 1), n, (0, 0, 1))], seed=1, executor=executor)

    identical(1)  # compile in this process first (as a run would)
    for backend in (["process"] if quick else _backends(workers)):  # quick: no Ray (its start alone takes 10 s+)
        loads = [load_note()]
        start = time.perf_counter()
        ex = make_executor(backend, workers)
        identical(2 * workers, ex)  # start the pool and its workers
        pool_start = time.perf_counter() - start
        try:
            for n in sizes:
                serial_t, parallel_t, serial_cores, parallel_cores = [], [], [], []
                for _ in range(repeats):
                    c = time.process_time()
                    t = time.perf_counter()
                    r1 = identical(n)
                    serial_t.append(time.perf_counter() - t)
                    serial_cores.append((time.process_time() - c) / serial_t[-1])
                    pids = _worker_pids(ex)
                    c = _cpu_seconds(pids) + time.process_time()
                    t = time.perf_counter()
                    r2 = identical(n, ex)
                    parallel_t.append(time.perf_counter() - t)
                    parallel_cores.append((_cpu_seconds(pids) + time.process_time() - c) / parallel_t[-1])
                    if r1.records != r2.records:
                        raise AssertionError(f"{backend} executor changed the results of the identical games")
                s, p = statistics.median(serial_t), statistics.median(parallel_t)
                seed_p, seed_s = SEED_TABLE[n]
                target = "<= 0.55" if n == 32 else ""
                # On a shared machine the ratio depends on how much CPU the workers were given: report the cores
                # each side actually got (CPU seconds / wall seconds; the parent's and, for a process pool, the
                # workers' from /proc).
                cores = (f"; cores used: serial {statistics.median(serial_cores):.2f}, parallel "
                         f"{statistics.median(parallel_cores):.2f}" if _worker_pids(ex) else "")
                res.figures.append(Figure(
                    f"n = {n} identical games, {backend} ({workers} workers) / serial", p / s, "ratio", target,
                    (p / s <= 0.55) if n == 32 else None,
                    note=f"serial {s:.3f} s, parallel {p:.3f} s; seed (8 procs): {seed_p / seed_s:.2f} "
                         f"({seed_s:.2f} s / {seed_p:.2f} s){cores}",
                ))
            loads.append(load_note())

            players = _players(game, 32, seed=1)
            rr_repeats = 1 if quick else 3
            serial_t, parallel_t = [], []
            for rep in range(rr_repeats):
                t = time.perf_counter()
                r1 = round_robin(game, players, 1, seed=5, round_key=rep)
                serial_t.append(time.perf_counter() - t)
                t = time.perf_counter()
                r2 = round_robin(game, players, 1, seed=5, executor=ex, round_key=rep)
                parallel_t.append(time.perf_counter() - t)
                if r1.records != r2.records:
                    raise AssertionError(f"{backend} executor changed the results of the round robin")
            s, p = statistics.median(serial_t), statistics.median(parallel_t)
            res.figures.append(Figure(
                f"full round: 32 random genomes, {len(r1.records)} games, {backend} ({workers} workers)", p, "s",
                "<= 60 s", p <= 60.0, s, "serial",
                note=f"ratio {p / s:.2f}",
            ))
            loads.append(load_note())
        finally:
            ex.close()
        res.figures.append(Figure(f"{backend} pool start ({workers} workers, warm-up games included)", pool_start,
                                  "s", note=f"load during the run: {' | '.join(loads)}"))
    return res
