"""Target-number game measurements: solver speed, the full enumeration of all draws, GA success vs the exact solver.

``evoplay bench target`` measures the solver against the plain-Python subset search in one run and the GA's
success on a sample. The long measurements behind docs/target.md are subcommands of this module::

    python -m evoplay.bench.target enumerate                 # every Moj broj draw (or --mode countdown)
    python -m evoplay.bench.target ga --config target_seed --draws 1000 --time 1 --out FILE.jsonl
    python -m evoplay.bench.target levels --draws 300
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import factorial

import numpy as np

from evoplay.arena import derive_seed
from evoplay.bench import BenchResult, Figure, register_benchmark
from evoplay.games.target.game import COUNTDOWN_LARGE, LARGE, MEDIUM, SMALL, TARGET_RANGE, make_draw
from evoplay.games.target.solver import Solver, distances_to_targets, reference_solve


def draws(count: int, seed: int, mode: str = "mojbroj"):
    """The i-th draw of a measurement comes from derive_seed(seed, i): the same draws for every configuration."""
    return [make_draw(derive_seed(seed, i), mode) for i in range(count)]


# --------------------------------------------------------------------------------------------------------------
# Solver speed.
# --------------------------------------------------------------------------------------------------------------


def solver_times(sample, repeats: int = 3) -> np.ndarray:
    """Seconds per draw of the Numba solver (best of ``repeats`` per draw, to drop scheduler noise)."""
    solver = Solver()
    arrays = [np.asarray(d.numbers, np.int64) for d in sample]
    solver.best_value(arrays[0], sample[0].target)  # compile / load the cache
    out = np.empty(len(sample))
    for i, (arr, d) in enumerate(zip(arrays, sample)):
        best = float("inf")
        for _ in range(repeats):
            t = time.perf_counter()
            solver.best_value(arr, d.target)
            best = min(best, time.perf_counter() - t)
        out[i] = best
    return out


def python_times(sample) -> np.ndarray:
    out = np.empty(len(sample))
    for i, d in enumerate(sample):
        t = time.perf_counter()
        reference_solve(d.numbers, d.target)
        out[i] = time.perf_counter() - t
    return out


# --------------------------------------------------------------------------------------------------------------
# GA success rates.
# --------------------------------------------------------------------------------------------------------------


def ga_rates(config, sample, seed: int, out=None, progress=None) -> dict:
    """Run the GA on every draw of ``sample``; compare with the exact solver. Returns the summary."""
    from evoplay.games.target.cpu_player import TargetGA

    solver = Solver()
    hits = exact_hits = exact_draws = 0
    seconds, gens = [], []
    ga = TargetGA(config)
    for i, d in enumerate(sample):
        best = solver.solve(d.numbers, d.target)
        r = ga.solve(d.numbers, d.target, seed=derive_seed(seed, i, 1))
        ok = r.distance == best.distance
        hits += ok
        exact_draws += best.exact
        exact_hits += ok and best.exact
        seconds.append(r.seconds)
        gens.append(r.generations)
        if out is not None:
            out.write(json.dumps({"draw": i, "numbers": d.numbers, "target": d.target, "best": best.value,
                                  "ga": r.value, "ga_expression": r.expression, "hit": ok,
                                  "generations": r.generations, "seconds": round(r.seconds, 4),
                                  "restarts": r.restarts}) + "\n")
            out.flush()
        if progress is not None:
            progress(i + 1, len(sample), hits)
    n = len(sample)
    return {"draws": n, "best_reached": hits, "rate": hits / n, "exact_draws": exact_draws,
            "exact_reached": exact_hits, "mean_seconds": statistics.fmean(seconds),
            "median_generations": statistics.median(gens)}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, c - h), min(1.0, c + h)


# --------------------------------------------------------------------------------------------------------------
# Full enumeration.
# --------------------------------------------------------------------------------------------------------------


def _multinomial(counts) -> int:
    total = factorial(sum(counts))
    for c in counts:
        total //= factorial(c)
    return total


def mojbroj_multisets():
    """Every distinct Moj broj number multiset with its weight: the number of ordered draws giving it."""
    for small in combinations_with_replacement(SMALL, 4):
        w = _multinomial(Counter(small).values())  # of the 9^4 ordered draws of the four small numbers
        for m in MEDIUM:
            for big in LARGE:
                yield small + (m, big), w


def countdown_multisets():
    """Every distinct Countdown selection (six of the 24 cards) with the number of card sets giving it."""
    cards = list(range(20)) + [20, 21, 22, 23]
    values = [n for n in range(1, 11) for _ in range(2)] + list(COUNTDOWN_LARGE)
    weights: Counter = Counter()
    for combo in combinations(cards, 6):
        weights[tuple(sorted(values[c] for c in combo))] += 1
    yield from weights.items()


def enumerate_all(mode: str = "mojbroj", progress=None) -> dict:
    """Solve every distinct number set once (all reachable values) and score all 900 targets against it."""
    solver = Solver()
    sets = list(mojbroj_multisets() if mode == "mojbroj" else countdown_multisets())
    lo, hi = TARGET_RANGE
    maxd = 64
    hist = np.zeros(maxd + 1, np.float64)  # weight of (draw, target) pairs by best distance (capped)
    exact_by_target = np.zeros(hi - lo + 1, np.float64)
    worst = []  # (distance, numbers, target)
    total_weight = 0
    t0 = time.perf_counter()
    for k, (numbers, w) in enumerate(sets):
        reach = solver.reachable(numbers)
        d = distances_to_targets(reach.astype(np.int64), lo, hi)
        np.add.at(hist, np.minimum(d, maxd), w)
        exact_by_target += (d == 0) * w
        total_weight += w
        j = int(np.argmax(d))
        worst.append((int(d[j]), numbers, lo + j))
        if progress is not None and k % 200 == 0:
            progress(k, len(sets))
    seconds = time.perf_counter() - t0
    pairs = total_weight * (hi - lo + 1)
    within = {k: float(hist[: k + 1].sum() / pairs) for k in (0, 1, 2, 5, 10)}
    share_by_target = exact_by_target / total_weight
    order = np.argsort(share_by_target, kind="stable")
    worst.sort(key=lambda x: -x[0])
    mean_distance = float((hist * np.arange(maxd + 1)).sum() / pairs)
    return {
        "mode": mode, "number_sets": len(sets), "weight": total_weight, "targets": hi - lo + 1,
        "within": within, "mean_distance": mean_distance, "seconds": seconds,
        "hardest_targets": [(lo + int(i), float(share_by_target[i])) for i in order[:10]],
        "easiest_targets": [(lo + int(i), float(share_by_target[i])) for i in order[::-1][:5]],
        "hardest_draws": [(dist, list(nums), t) for dist, nums, t in worst[:10]],
    }


def format_enumeration(r: dict) -> str:
    unit = "ordered draws (9^4 x 3 x 4)" if r["mode"] == "mojbroj" else "card sets (C(24,6))"
    lines = [f"{r['mode']}: {r['number_sets']:,} distinct number sets = {r['weight']:,} {unit}, x {r['targets']} "
             f"targets; enumerated in {r['seconds']:.1f} s", "",
             "| best value within | share of all draws |", "| --- | --- |"]
    for k, v in r["within"].items():
        lines.append(f"| {'exact' if k == 0 else k} | {100 * v:.3f} % |")
    lines.append(f"\nmean distance of the best value: {r['mean_distance']:.4f}\n")
    lines += ["| hardest targets | share of draws solvable exactly |", "| --- | --- |"]
    lines += [f"| {t} | {100 * s:.2f} % |" for t, s in r["hardest_targets"]]
    lines += ["", "| hardest draws (numbers -> target) | best distance |", "| --- | --- |"]
    lines += [f"| {' '.join(map(str, nums))} -> {t} | {d} |" for d, nums, t in r["hardest_draws"]]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------------------
# The benchmark and the command line.
# --------------------------------------------------------------------------------------------------------------


@register_benchmark("target", "target-number solver vs the plain-Python subset search; GA vs the exact solver")
def bench_target(quick: bool = False) -> BenchResult:
    from evoplay.games.target.cpu_player import TargetGAConfig

    res = BenchResult("target", command="evoplay bench target")
    sample = draws(200 if quick else 1000, 2026)
    # quick: the solver once per draw, as the Python search is timed (on a busy machine a best of 3 would dodge the
    # waits for a CPU that the Python side cannot), and the Python search on every draw of the sample (200 draws
    # take a few seconds), so the ratio compares the same draws timed the same way; a full run samples 100 of 1000
    t = solver_times(sample, repeats=1 if quick else 3)
    py = python_times(sample if quick else sample[:100])
    timed = "once per draw" if quick else "best of 3 per draw"
    res.figures.append(Figure(f"solver mean time per draw ({timed})", t.mean() * 1e3, "ms", "<= 1 ms",
                              t.mean() * 1e3 <= 1.0, py.mean() * 1e3, "plain-Python subset search",
                              higher_is_better=False))
    res.figures.append(Figure(f"solver worst time over {len(sample)} draws", t.max() * 1e3, "ms", "<= 5 ms",
                              t.max() * 1e3 <= 5.0, py.max() * 1e3, f"plain-Python worst of {len(py)}",
                              higher_is_better=False))
    # the improved GA usually stops within the first generations, so 1000 draws are cheap; the seed's GA
    # spends its whole second on a third of the draws, so it gets a smaller sample here (docs/target.md has 1000)
    budget = 0.25 if quick else 1.0
    for name, cfg, n in (("seed GA", TargetGAConfig.seed(time_limit=budget, clock="cpu"), 10 if quick else 100),
                         ("improved GA", TargetGAConfig.improved(time_limit=budget, clock="cpu"),
                          100 if quick else 1000)):
        r = ga_rates(cfg, draws(n, 2026), 2026)
        target = ("at 1 s: >= 99.5 %" if quick else ">= 99.5 %") if name == "improved GA" else ""
        met = (100 * r["rate"] >= 99.5) if name == "improved GA" and not quick else None
        lo, hi = wilson(r["best_reached"], n)
        res.figures.append(Figure(f"{name}: draws at the best value, {n} draws x {budget:g} s CPU",
                                  100 * r["rate"], "%", target, met,
                                  note=f"95 % CI {100 * lo:.1f}-{100 * hi:.1f} %; mean {r['mean_seconds']:.3f} s/draw"))
    return res


def _cli(argv=None) -> int:
    from evoplay.games.target.cpu_player import LEVELS, TargetGAConfig, level_config, load_recipe

    p = argparse.ArgumentParser(prog="python -m evoplay.bench.target", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("enumerate", help="every draw, every target: shares solvable within 0/1/2/5/10")
    e.add_argument("--mode", default="mojbroj", choices=("mojbroj", "countdown"))
    e.add_argument("--json", action="store_true")
    g = sub.add_parser("ga", help="GA success rate against the exact solver")
    g.add_argument("--config", default="target_improved", help="recipe name (target_seed, target_improved)")
    g.add_argument("--draws", type=int, default=1000)
    g.add_argument("--time", type=float, default=1.0, help="CPU seconds per draw")
    g.add_argument("--seed", type=int, default=2026)
    g.add_argument("--out", default=None, help="JSON lines, one per draw")
    lv = sub.add_parser("levels", help="success rate of each strength level")
    lv.add_argument("--draws", type=int, default=300)
    lv.add_argument("--seed", type=int, default=2026)
    a = p.parse_args(argv)
    if a.cmd == "enumerate":
        r = enumerate_all(a.mode, lambda k, n: print(f"  {k}/{n}", file=sys.stderr, flush=True))
        print(json.dumps(r) if a.json else format_enumeration(r))
        return 0
    if a.cmd == "ga":
        cfg = load_recipe(a.config)
        cfg = TargetGAConfig.from_dict({**cfg.to_dict(), "time_limit": a.time, "clock": "cpu"})
        sample = draws(a.draws, a.seed)
        out = open(a.out, "w") if a.out else None
        t0 = time.time()

        def progress(k, n, hits):
            if k % 50 == 0 or k == n:
                print(f"  {k}/{n} draws, {hits} at the best value, {time.time() - t0:.0f} s", file=sys.stderr,
                      flush=True)

        r = ga_rates(cfg, sample, a.seed, out, progress)
        lo, hi = wilson(r["best_reached"], r["draws"])
        r.update(config=a.config, time=a.time, seed=a.seed, ci95=[lo, hi], wall_seconds=time.time() - t0)
        print(json.dumps(r))
        return 0
    sample = draws(a.draws, a.seed)
    print("| level | configuration | CPU budget | draws at the best value | exact draws hit | mean s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for level, (name, budget, help_) in LEVELS.items():
        r = ga_rates(level_config(level, clock="cpu"), sample, a.seed)
        print(f"| {level} ({help_}) | {name} | {budget:g} s | {100 * r['rate']:.1f} % | "
              f"{r['exact_reached']}/{r['exact_draws']} | {r['mean_seconds']:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(_cli())
