"""Seed 000's recipe: two-tree GP players (play and send) for Sevens, the split breeding plan, difficulty levels
and their export to Lua and Python.

One generation (``SevensEvolution.step``): breed (from generation 1 on), then evaluate. Evaluation plays
``ceil(games / players)`` rounds; in each round every individual i meets i + d_1, ..., i + d_{players-1}
(offsets drawn afresh each round, modulo the population) at a table where i sits first, so each individual
plays once in every seat per round against changing opponents, and every game counts for all of its players:
``games`` rounded up to a multiple of ``players`` per individual. Whole games run in the Numba kernel
(``evoplay.games.sevens.batch_play.play_games``) with the trees evaluated by the GP interpreter; a game stops when
its first player empties their hand (only wins count). fitness = win ratio - 0.0004 x max(0, play size + send
size - 20). Breeding sorts by fitness (best first, ties by index) and emits, for each operation O in order, O of
the best ``split_O x N`` individuals: clones, constant mutations (one ephemeral constant of either tree scaled by
2**u, u uniform in [-1, 1], sign kept), tree mutations (the play or send tree, equally likely, gets a random
subtree of depth <= 2) and crossovers (the play or send tree takes a random subtree of the same tree of a donor
drawn from the same best ``split_O x N``, as ``evoplay.gp.breeding.split_breed`` does for single trees).

Levels: the best individual of generations 0, 1, 11 and 111 are easy, medium, hard and expert, written to
levels.json and, from it, to ``computer.py`` and ``computer.lua`` (``evoplay.games.sevens.export``).
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from evoplay.errors import ConfigError, SpecError
from evoplay.games.sevens.export import EXPORTABLE_FUNCTIONS

OPERATIONS = ("clone", "constant_mutation", "tree_mutation", "crossover")

# --------------------------------------------------------------------------------------------------------------
# Configuration.
# --------------------------------------------------------------------------------------------------------------


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise ConfigError(message)


def primitive_set_from_config(config: dict):
    from evoplay.games.sevens.agents import sevens_primitive_set
    from evoplay.games.sevens.rules import FEATURES

    prim = config["primitives"]
    for f in prim["functions"]:
        _check(f in EXPORTABLE_FUNCTIONS,
               f"primitives.functions: '{f}' is not available for Sevens; choose from "
               f"{', '.join(EXPORTABLE_FUNCTIONS)}")
    for f in prim["features"]:
        _check(f in FEATURES, f"primitives.features: unknown feature '{f}'; known: {', '.join(FEATURES)}")
    _check(len(set(prim["features"])) == len(prim["features"]), "primitives.features lists a feature twice")
    _check(prim["constant_low"] <= prim["constant_high"],
           f"primitives.constant_low={prim['constant_low']} must be <= constant_high={prim['constant_high']}")
    _check(bool(prim["features"]) or prim["random"] or prim["constants"],
           "primitives: the trees need at least one terminal (a feature, random or constants)")
    try:
        return sevens_primitive_set(tuple(prim["functions"]), tuple(prim["features"]), bool(prim["random"]),
                                    (prim["constant_low"], prim["constant_high"]) if prim["constants"] else None)
    except SpecError as err:
        raise ConfigError(f"primitives: {err}") from None


def validate(config: dict, levels: bool = False) -> dict:
    """Check every value's range; returns the level generations {name: generation}."""
    from evoplay.games.sevens.rules import MAX_PLAYERS, MIN_PLAYERS

    players = config["game"]["players"]
    _check(MIN_PLAYERS <= players <= MAX_PLAYERS, f"game.players={players}: Sevens is for {MIN_PLAYERS} to "
                                                  f"{MAX_PLAYERS} players")
    _check(config["population"] >= players,
           f"population={config['population']} must be at least game.players={players} (a table is filled from it)")
    _check(config["generations"] >= 0, f"generations={config['generations']} must be >= 0")
    _check(config["fitness"]["games"] >= 1, f"fitness.games={config['fitness']['games']} must be >= 1")
    _check(config["fitness"]["size_penalty"] >= 0, "fitness.size_penalty must be >= 0")
    _check(0.0 <= config["fitness"]["heuristic_share"] < 1.0, "fitness.heuristic_share must be in [0, 1)")
    b = config["breeding"]
    shares = [b[k] for k in OPERATIONS]
    _check(all(s >= 0 for s in shares) and abs(sum(shares) - 1.0) < 1e-9,
           f"breeding: clone + constant_mutation + tree_mutation + crossover must add up to 1 (got {sum(shares):g})")
    _check(b["mutation_depth"] >= 0, f"breeding.mutation_depth={b['mutation_depth']} must be >= 0")
    init = config["init"]
    _check(init["method"] in ("grow", "full", "ramped"), f"init.method='{init['method']}': use grow, full or ramped")
    _check(0 <= init["min_depth"] <= init["max_depth"],
           f"init: need 0 <= min_depth ({init['min_depth']}) <= max_depth ({init['max_depth']})")
    _check(config["monitor"]["heuristic_games"] >= 0, "monitor.heuristic_games must be >= 0")
    lv = config["levels"]["generations"]
    _check(bool(lv), "levels.generations needs at least one level, e.g. { easy = 0, expert = 111 }")
    for name, g in lv.items():
        _check(isinstance(g, int) and g >= 0, f"levels.generations.{name}={g!r} must be a generation number >= 0")
        _check(name.isidentifier(), f"levels.generations: level name {name!r} must be an identifier")
    _check(config["levels"]["candidates"] >= 1, "levels.candidates must be >= 1 (1: the best as ranked)")
    _check(config["levels"]["games"] >= 1, "levels.games must be >= 1")
    _check(config["levels"]["top_heuristic_games"] >= 0, "levels.top_heuristic_games must be >= 0")
    if levels:
        last = max(lv.values())
        _check(config["generations"] >= last,
               f"--levels needs generations >= {last} (the last level, {max(lv, key=lv.get)}); "
               f"got generations={config['generations']}")
    primitive_set_from_config(config)
    return dict(lv)


# --------------------------------------------------------------------------------------------------------------
# Evaluation: the rotation schedule and the kernel on an executor.
# --------------------------------------------------------------------------------------------------------------


def rotation_schedule(n: int, players: int, games: int, rng: np.random.Generator, heuristic_share: float = 0.0
                      ) -> np.ndarray:
    """Seats (table x seat) of ``ceil(games / players)`` rounds of ``n`` tables. In round r, table i seats
    individuals i, i + d_1, ..., i + d_{players-1} (mod n, distinct random offsets), turned so that i sits in seat
    r mod players: each individual sits once in every seat per round. With ``heuristic_share`` > 0 each seat but
    i's is given to the heuristic player (index n) with that probability."""
    rounds = -(-games // players)
    out = np.empty((rounds * n, players), np.int64)
    base = np.arange(n)
    for r in range(rounds):
        offsets = 1 + rng.choice(n - 1, size=players - 1, replace=False)
        block = np.empty((n, players), np.int64)
        block[:, 0] = base
        for k, d in enumerate(offsets):
            block[:, k + 1] = (base + d) % n
        block = np.roll(block, r % players, axis=1)
        if heuristic_share > 0:
            guest = rng.random((n, players)) < heuristic_share
            guest[:, r % players] = False
            block[guest] = n
        out[r * n:(r + 1) * n] = block
    return out


def evaluate_population(population, players: int, games: int, rng: np.random.Generator, executor=None,
                        heuristic_share: float = 0.0):
    """(wins, games played) per individual under the rotation schedule (games at each table count for every
    individual at it; the heuristic's seats count for nobody)."""
    from evoplay.games.sevens.batch_play import Lineup, play_on

    n = len(population)
    seats = rotation_schedule(n, players, games, rng, heuristic_share)
    seeds = rng.integers(0, 2**63, size=len(seats), dtype=np.uint64)
    places = play_on(executor, Lineup(list(population) + ["heuristic"]), players, seeds, seats)
    wins = np.bincount(seats[places == 0], minlength=n + 1)[:n]
    played = np.bincount(seats.ravel(), minlength=n + 1)[:n]
    return wins, played


def fitness_of(wins, played, sizes, size_free: int = 20, size_penalty: float = 0.0004) -> np.ndarray:
    """The seed's getFitness: win ratio - size_penalty x max(0, size - size_free) (evolve.bloat's seed-000 term)."""
    from evoplay.evolve.bloat import seed000_parsimony

    ratio = np.asarray(wins, np.float64) / np.maximum(1, np.asarray(played))
    return seed000_parsimony(ratio, sizes, size_free, size_penalty)


def focus_win_rates(executor, pool: list, focus: list, games: int, seats: np.ndarray,
                    rng: np.random.Generator) -> np.ndarray:
    """Win ratio of each player ``pool[focus[i]]`` in its ``games`` games (rows i*games... of ``seats``, which
    seat the others), alone at the table with its seat rotating; the games' seeds are drawn from ``rng``."""
    from evoplay.games.sevens.batch_play import Lineup, play_on

    k, players = len(focus), seats.shape[1]
    who = np.repeat(np.arange(k), games)
    seat_of_focus = np.tile(np.arange(games) % players, k)
    seats[np.arange(k * games), seat_of_focus] = np.asarray(focus)[who]
    seeds = rng.integers(0, 2**63, size=len(seats), dtype=np.uint64)
    places = play_on(executor, Lineup(pool), players, seeds, seats)
    won = places[np.arange(len(seats)), seat_of_focus] == 0
    return np.bincount(who, weights=won, minlength=k) / games


def versus_heuristic(trees, players: int, games: int, seed: int) -> float:
    """Win ratio of one specimen against ``players - 1`` heuristic players, its seat rotating."""
    seats = np.ones((games, players), np.int64)
    return float(focus_win_rates(None, [trees, "heuristic"], [0], games, seats, np.random.default_rng(seed))[0])


# --------------------------------------------------------------------------------------------------------------
# Breeding: seed 000's split plan over two-tree specimens.
# --------------------------------------------------------------------------------------------------------------


def breed(ranked, pset, rng: np.random.Generator, shares: dict, mutation_depth: int = 2):
    """The next population from ``ranked`` (best first): seed 000's split plan (``evoplay.gp.split_breed``) over
    two-tree specimens, the operations in the seed's order."""
    from evoplay.gp.breeding import split_breed

    return split_breed(ranked, pset, rng, {k: shares[k] for k in OPERATIONS}, mutation_depth)


def random_population(pset, rng: np.random.Generator, n: int, method: str, min_depth: int, max_depth: int):
    from evoplay.gp.generate import full, grow

    def one(k):
        if method == "grow" or (method == "ramped" and k % 2 == 0):
            d = max_depth if method == "grow" else min_depth + (k // 2) % (max_depth - min_depth + 1)
            return grow(pset, rng, d, min(min_depth, d))
        d = int(rng.integers(min_depth, max_depth + 1)) if method == "full" else \
            min_depth + (k // 2) % (max_depth - min_depth + 1)
        return full(pset, rng, d)

    return [(one(2 * k), one(2 * k + 1)) for k in range(n)]


# --------------------------------------------------------------------------------------------------------------
# The evolution object the run machinery drives.
# --------------------------------------------------------------------------------------------------------------


class SevensEvolution:
    """Seed 000's generational loop (see the module docstring); ``generations`` counts steps (config + 1)."""

    def __init__(self, config: dict, levels: bool = False):
        self.config = config
        self.level_generations = validate(config, levels)
        self.write_levels = levels
        self.pset = primitive_set_from_config(config)
        self.players = int(config["game"]["players"])
        self.generations = int(config["generations"]) + 1

    def start(self, rng: np.random.Generator) -> dict:
        init = self.config["init"]
        population = random_population(self.pset, rng, int(self.config["population"]), init["method"],
                                       int(init["min_depth"]), int(init["max_depth"]))
        return {"population": population, "rng": rng, "ranked": None, "fitness": None, "win_ratio": None,
                "levels": {}, "generation": -1}

    def step(self, state: dict, generation: int, executor) -> tuple[dict, dict]:
        cfg = self.config
        rng = state["rng"]
        if generation > 0:
            b = cfg["breeding"]
            state["population"] = breed(state["ranked"], self.pset, rng, b, int(b["mutation_depth"]))
        population = state["population"]
        t0 = time.perf_counter()
        wins, played = evaluate_population(population, self.players, int(cfg["fitness"]["games"]), rng, executor,
                                           float(cfg["fitness"]["heuristic_share"]))
        seconds_games = time.perf_counter() - t0
        sizes = np.array([p.size + s.size for p, s in population])
        f = cfg["fitness"]
        fitness = fitness_of(wins, played, sizes, int(f["size_free"]), float(f["size_penalty"]))
        order = np.argsort(-fitness, kind="stable")
        state["ranked"] = [population[int(i)] for i in order]
        state["fitness"] = fitness[order]
        state["win_ratio"] = (wins / np.maximum(1, played))[order]
        state["generation"] = generation
        best = state["ranked"][0]
        for name, g in self.level_generations.items():
            if g == generation:
                state["levels"][name] = self.pick_level(state, name, executor).to_dict()
        record = {
            "best": float(fitness[order[0]]), "mean": float(fitness.mean()), "worst": float(fitness[order[-1]]),
            "best_win_ratio": float(state["win_ratio"][0]), "best_size": int(sizes[order[0]]),
            "mean_size": float(sizes.mean()), "max_size": int(sizes.max()), "games": int(played.sum() // self.players),
            "games_seconds": round(seconds_games, 4),
        }
        games = int(cfg["monitor"]["heuristic_games"])
        if games:
            record["best_vs_heuristic"] = versus_heuristic(best, self.players, games, int(rng.integers(2**31)))
        return state, record

    def pick_level(self, state: dict, name: str, executor):
        """The level's specimen, from this generation's best ``levels.candidates`` (1: the best as ranked, the
        seed's choice). With more candidates each gets a second look of ``levels.games`` games alone against two
        copies of the level below (the lowest level: against two members of its generation drawn at random),
        and the one winning most becomes the level: a larger sample than the ranking's 1000 games (the best of
        100 noisy win ratios is usually a lucky one), aimed at what a level must do, beat the one below."""
        from evoplay.games.sevens.agents import Specimen

        ranked, rng, generation = state["ranked"], state["rng"], state["generation"]
        lv = self.config["levels"]
        k = min(int(lv["candidates"]), len(ranked))
        below = [other for other, g in self.level_generations.items() if g < generation and other in state["levels"]]
        below_name = max(below, key=lambda o: self.level_generations[o]) if below else None
        choice, rate = 0, float("nan")
        if k > 1:
            if below_name is not None:
                below_sp = Specimen.from_dict(state["levels"][below_name])
                seats = np.full((k * int(lv["games"]), self.players), k, np.int64)  # entry k: the level below
                pool, offset = list(ranked[:k]) + [(below_sp.play, below_sp.send)], 0
            else:
                seats = rng.integers(0, len(ranked), size=(k * int(lv["games"]), self.players))
                pool, offset = list(ranked) + list(ranked[:k]), len(ranked)
            rates = focus_win_rates(executor, pool, list(range(offset, offset + k)), int(lv["games"]), seats, rng)
            score = rates
            top = generation == max(self.level_generations.values())
            h_games = int(lv["top_heuristic_games"])
            if top and h_games > 0:
                h_rates = self._versus_heuristic(ranked[:k], h_games, generation, executor)
                score = np.minimum(rates, h_rates)
            choice = int(np.argmax(score))
            rate = float(rates[choice])
        sp = self.specimen(ranked[choice], generation, float(state["fitness"][choice]),
                           float(state["win_ratio"][choice]), name)
        sp.info["rank"] = choice + 1
        if k > 1:
            sp.info.update(candidates=k, recheck_games=int(lv["games"]), recheck_win_ratio=rate,
                           recheck_against=f"two copies of {below_name}" if below_name else "its generation")
            if score is not rates:
                sp.info.update(heuristic_games=h_games, heuristic_win_ratio=float(h_rates[choice]))
        return sp

    def _versus_heuristic(self, candidates, games: int, generation: int, executor) -> np.ndarray:
        """Each candidate's win ratio alone against two heuristic players. Its games draw from their own
        generator (derived from the run seed and the generation), so switching this check on changes no other
        random number of the run: the populations and the lower levels stay exactly as without it."""
        from evoplay.arena.match import derive_seed

        k = len(candidates)
        rng = np.random.default_rng(derive_seed(int(self.config.get("seed", 0)), generation, 7))
        seats = np.full((k * games, self.players), k, np.int64)
        return focus_win_rates(executor, list(candidates) + ["heuristic"], list(range(k)), games, seats, rng)

    def specimen(self, trees, generation: int, fitness: float, win_ratio: float, level: str | None = None):
        from evoplay.games.sevens.agents import Specimen

        info = {"generation": generation, "fitness": fitness, "win_ratio": win_ratio,
                "players": self.players, "games": int(self.config["fitness"]["games"])}
        if level:
            info["level"] = level
        return Specimen(trees[0].copy(), trees[1].copy(), self.pset, info)

    def finish(self, state: dict, folder) -> None:
        from evoplay.evolve.plots import plot_log
        from evoplay.games.sevens.export import LANGUAGES, level_specimens, write_export

        best = self.specimen(state["ranked"][0], state["generation"], float(state["fitness"][0]),
                             float(state["win_ratio"][0]))
        folder.write_json("best.json", best.to_dict())
        for lang in LANGUAGES:
            write_export(folder, "best", {"best": best}, lang)
        if state["levels"]:
            folder.write_json("levels.json", state["levels"])
        if self.write_levels:
            specimens = level_specimens(state["levels"])
            for lang in LANGUAGES:
                write_export(folder, "computer", specimens, lang)
        plot_log(folder, "sevens")


def make(config: dict, levels: bool = False, **options) -> SevensEvolution:
    if options:
        raise ConfigError(f"the sevens recipe takes the option --levels only, not {', '.join(options)}")
    return SevensEvolution(config, levels)


# --------------------------------------------------------------------------------------------------------------
# Report and export of a run folder.
# --------------------------------------------------------------------------------------------------------------


def report(folder) -> str:
    from evoplay.games.sevens.agents import Specimen

    log = folder.read_log()
    lines = [f"sevens run {folder.path}: {len(log)} generation(s) logged"]
    if log:
        last = log[-1]
        lines.append(f"  last generation {last['generation']}: best fitness {last['best']:.4f} (win ratio "
                     f"{last['best_win_ratio']:.3f}, size {last['best_size']}), mean {last['mean']:.4f}")
        if "best_vs_heuristic" in last:
            lines.append(f"  the best against two heuristic players: win ratio {last['best_vs_heuristic']:.3f} "
                         f"(1/{folder.config['game']['players']} = parity)")
    best_path = folder.file("best.json")
    if best_path.is_file():
        best = Specimen.load(best_path)
        play, send = best.texts()
        lines += [f"  best play tree: {play}", f"  best send tree: {send}", f"  agent: specimen(path={best_path})"]
    levels_path = folder.file("levels.json")
    if levels_path.is_file():
        levels = json.loads(levels_path.read_text(encoding="utf-8"))
        for name, d in sorted(levels.items(), key=lambda kv: kv[1]["info"]["generation"]):
            info = d["info"]
            lines.append(f"  level {name}: generation {info['generation']}, win ratio {info['win_ratio']:.3f}, "
                         f"size {d['size']}; play: {d['play_text']}; send: {d['send_text']}")
    for name in ("computer.py", "computer.lua", "fitness.png", "size.png"):
        if folder.file(name).is_file():
            lines.append(f"  {name}: {folder.file(name)}")
    return "\n".join(lines)


def export(folder, lang: str) -> Path:
    """Write computer.<ext> (all levels, when the run has them) or best.<ext> (the best specimen)."""
    from evoplay.games.sevens.agents import Specimen
    from evoplay.games.sevens.export import language_extension, level_specimens, write_export

    language_extension(lang)  # an unknown language is said before anything is read
    levels_path = folder.file("levels.json")
    if levels_path.is_file():
        return write_export(folder, "computer", level_specimens(json.loads(levels_path.read_text("utf-8"))), lang)
    best_path = folder.file("best.json")
    if not best_path.is_file():
        raise SpecError(f"{folder.path} has no best.json yet; let the run finish (evoplay resume {folder.path})")
    return write_export(folder, "best", {"best": Specimen.load(best_path)}, lang)
