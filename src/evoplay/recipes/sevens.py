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

Levels: the best individual of generations 0, 1, 11 and 111 are easy, medium, hard and expert.
``computer.py`` and ``computer.lua`` hold one play and one send function per level reading an ``env`` table of
the candidate card's features (``ENV_DOC``); the ``random`` terminal calls a replaceable generator, drawn in the
interpreter's order, so an export fed the interpreter's numbers chooses exactly the interpreter's cards.
"""
from __future__ import annotations

import json
import pprint
import time
from pathlib import Path

import numpy as np

from evoplay.errors import ConfigError, SpecError

LEVEL_NAMES = ("easy", "medium", "hard", "expert")
OPERATIONS = ("clone", "constant_mutation", "tree_mutation", "crossover")
EXPORTABLE_FUNCTIONS = ("add", "sub", "mul", "div", "min", "max", "neg", "abs", "if_lt")

#: what each env field means (the docstring of computer.py / comment of computer.lua, and docs/sevens.md)
ENV_DOC = {
    "rounds": "completed laps of turns so far (completed turns // number of players)",
    "distance": "the card's rank distance from seven (0 for a seven, 6 for an ace or a king)",
    "unblocks": "my other cards of the card's suit beyond it, away from seven: the cards it holds back for me",
    "blocked": "my other cards that are not playable after this move",
    "hand": "cards in my hand before the move",
    "next_hand": "cards in the hand of the player I send to (send) or of the next player (play)",
    "row_end": "1 if the card is an ace or a king (it ends its row), else 0",
    "gap": "cards that must be played before this one can be (0: playable now)",
    "others_beyond": "cards beyond it held by the other players: the cards it keeps blocked for them",
    "playable": "my playable cards before the move",
    "min_hand": "the smallest hand among the other players still in the game",
}


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
               f"primitives.functions: '{f}' is not available for Sevens; choose from {', '.join(EXPORTABLE_FUNCTIONS)}")
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


def _play_task(task):
    lineup, players, seeds, seats, until_first = task
    return lineup.play(players, seeds, seats, until_first)[0]


def play_on(executor, lineup, players: int, seeds: np.ndarray, seats: np.ndarray, until_first: bool = True,
            tasks_per_worker: int = 4) -> np.ndarray:
    """Places (games x seats) of a schedule, cut into contiguous tasks for ``executor`` (results in order)."""
    from evoplay.arena.executors import SerialExecutor

    lineup.play(players, seeds[:1], seats[:1], until_first)  # compile here before workers fork
    if executor is None or isinstance(executor, SerialExecutor) or executor.workers <= 1:
        return lineup.play(players, seeds, seats, until_first)[0]
    n_tasks = max(1, min(len(seeds), executor.workers * tasks_per_worker))
    bounds = np.linspace(0, len(seeds), n_tasks + 1).astype(int)
    tasks = [(lineup, players, seeds[a:b], seats[a:b], until_first) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    return np.concatenate(executor.map(_play_task, tasks), axis=0)


def evaluate_population(population, players: int, games: int, rng: np.random.Generator, executor=None,
                        heuristic_share: float = 0.0):
    """(wins, games played) per individual under the rotation schedule (games at each table count for every
    individual at it; the heuristic's seats count for nobody)."""
    from evoplay.games.sevens.batch_play import Lineup

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


def versus_heuristic(trees, players: int, games: int, seed: int) -> float:
    """Win ratio of one specimen against ``players - 1`` heuristic players, its seat rotating."""
    from evoplay.games.sevens.batch_play import Lineup

    lineup = Lineup([trees, "heuristic"])
    seats = np.ones((games, players), np.int64)
    seats[np.arange(games), np.arange(games) % players] = 0
    seeds = np.random.default_rng(seed).integers(0, 2**63, size=games, dtype=np.uint64)
    places, _ = lineup.play(players, seeds, seats, True)
    return float((places[seats == 0] == 0).mean())


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
        from evoplay.games.sevens.batch_play import Lineup

        ranked, rng, generation = state["ranked"], state["rng"], state["generation"]
        lv = self.config["levels"]
        k = min(int(lv["candidates"]), len(ranked))
        below = [other for other, g in self.level_generations.items() if g < generation and other in state["levels"]]
        below_name = max(below, key=lambda o: self.level_generations[o]) if below else None
        choice, rate = 0, float("nan")
        if k > 1:
            games = int(lv["games"])
            n = len(ranked)
            focus = np.repeat(np.arange(k), games)
            seat_of_focus = np.tile(np.arange(games) % self.players, k)
            if below_name is not None:
                below_sp = Specimen.from_dict(state["levels"][below_name])
                seats = np.full((k * games, self.players), k, np.int64)  # entry k: the level below
                pool = list(ranked[:k]) + [(below_sp.play, below_sp.send)]
                offset = 0
            else:
                seats = rng.integers(0, n, size=(k * games, self.players))
                pool = list(ranked) + list(ranked[:k])
                offset = n
            seats[np.arange(k * games), seat_of_focus] = offset + focus
            seeds = rng.integers(0, 2**63, size=len(seats), dtype=np.uint64)
            places = play_on(executor, Lineup(pool), self.players, seeds, seats)
            won = places[np.arange(len(seats)), seat_of_focus] == 0
            rates = np.bincount(focus, weights=won, minlength=k) / games
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
        from evoplay.games.sevens.batch_play import Lineup

        k = len(candidates)
        rng = np.random.default_rng(derive_seed(int(self.config.get("seed", 0)), generation, 7))
        focus = np.repeat(np.arange(k), games)
        seat_of_focus = np.tile(np.arange(games) % self.players, k)
        seats = np.full((k * games, self.players), k, np.int64)
        seats[np.arange(k * games), seat_of_focus] = focus
        seeds = rng.integers(0, 2**63, size=len(seats), dtype=np.uint64)
        places = play_on(executor, Lineup(list(candidates) + ["heuristic"]), self.players, seeds, seats)
        won = places[np.arange(len(seats)), seat_of_focus] == 0
        return np.bincount(focus, weights=won, minlength=k) / games

    def specimen(self, trees, generation: int, fitness: float, win_ratio: float, level: str | None = None):
        from evoplay.games.sevens.agents import Specimen

        info = {"generation": generation, "fitness": fitness, "win_ratio": win_ratio,
                "players": self.players, "games": int(self.config["fitness"]["games"])}
        if level:
            info["level"] = level
        return Specimen(trees[0].copy(), trees[1].copy(), self.pset, info)

    def finish(self, state: dict, folder) -> None:
        from evoplay.evolve.plots import plot_log

        best = self.specimen(state["ranked"][0], state["generation"], float(state["fitness"][0]),
                             float(state["win_ratio"][0]))
        folder.write_json("best.json", best.to_dict())
        folder.write_text("best.py", computer_source({"best": best}, "python"))
        folder.write_text("best.lua", computer_source({"best": best}, "lua"))
        if state["levels"]:
            folder.write_json("levels.json", state["levels"])
        if self.write_levels:
            specimens = _level_specimens(state["levels"])
            folder.write_text("computer.py", computer_source(specimens, "python"))
            folder.write_text("computer.lua", computer_source(specimens, "lua"))
        plot_log(folder, "sevens")


def make(config: dict, levels: bool = False, **options) -> SevensEvolution:
    if options:
        raise ConfigError(f"the sevens recipe takes the option --levels only, not {', '.join(options)}")
    return SevensEvolution(config, levels)


def _level_specimens(levels: dict) -> dict:
    from evoplay.games.sevens.agents import Specimen

    order = sorted(levels, key=lambda k: (levels[k]["info"].get("generation", 0), k))
    return {name: Specimen.from_dict(levels[name], f"level {name}") for name in order}


# --------------------------------------------------------------------------------------------------------------
# Export: computer.py and computer.lua, one play and one send function per level over an env table.
# --------------------------------------------------------------------------------------------------------------


def _expression(program, pset, lang: str) -> tuple[list[int], str]:
    """(the random nodes in the interpreter's draw order, the expression text) of one tree."""
    from evoplay.gp.notation import _deep
    from evoplay.gp.primitives import ABS, ADD, CONST, DIV, FEATURE, IF_LT, MAX, MIN, MUL, NEG, RANDOM, SUB

    _deep(program.size)
    ops, args, consts = program.opcodes, program.args, program.consts
    draws = [i for i in range(program.size - 1, -1, -1) if ops[i] == RANDOM]
    py = lang == "python"

    def num(c: float) -> str:
        text = repr(float(c))
        if text in ("inf", "-inf", "nan"):
            raise SpecError(f"cannot export the constant {text}")
        return f"({text})" if text.startswith("-") else text

    def node(i: int) -> tuple[str, int]:
        op = int(ops[i])
        if op == CONST:
            return num(consts[i]), i + 1
        if op == FEATURE:
            name = pset.feature_name(int(args[i]))
            return (f'env["{name}"]' if py else f"env.{name}"), i + 1
        if op == RANDOM:
            return f"r{i}", i + 1
        a, j = node(i + 1)
        if op == NEG:
            return f"(-{a})", j
        if op == ABS:
            return (f"abs({a})" if py else f"math.abs({a})"), j
        b, j = node(j)
        if op == ADD:
            return f"({a} + {b})", j
        if op == SUB:
            return f"({a} - {b})", j
        if op == MUL:
            return f"({a} * {b})", j
        if op == DIV:
            return f"_div({a}, {b})", j
        if op == MIN:
            return f"_min({a}, {b})", j
        if op == MAX:
            return f"_max({a}, {b})", j
        if op == IF_LT:
            c, j = node(j)
            d, j = node(j)
            return f"_if_lt({a}, {b}, {c}, {d})", j
        raise SpecError(f"cannot export opcode {op} to {lang}")

    return draws, node(0)[0]


def _env_doc_lines(prefix: str) -> list[str]:
    from evoplay.games.sevens.rules import FEATURES

    width = max(len(k) for k in FEATURES)
    return [f"{prefix}{k.ljust(width)}  {ENV_DOC[k]}" for k in FEATURES]


def computer_source(specimens: dict, lang: str) -> str:
    """``computer.py`` or ``computer.lua``: ``play_<level>(env)`` and ``send_<level>(env)`` per level."""
    from evoplay.gp.primitives import DIV_EPSILON

    if lang not in ("python", "lua"):
        raise SpecError(f"unknown export language '{lang}'; known: python, lua")
    names = list(specimens)
    for name in names:
        if not name.isidentifier():
            raise SpecError(f"level name {name!r} must be an identifier")
    header = [
        "Sevens players evolved by evoplay (seed 000's genetic programs): for each level, play_<level>(env) values",
        "a card the player could play and send_<level>(env) a card it could send to a player who cannot play;",
        "the player takes the card of highest value (the first candidate on ties; choose() does this).",
        "",
        "env holds the candidate card's features, seen by the player to move:",
        *_env_doc_lines("  "),
        "",
        "The `random` terminal calls the generator set by set_random (default: the language's own); each",
        "function draws its random numbers first, in the order evoplay's interpreter draws them.",
        "Levels: " + ", ".join(
            f"{n} (generation {specimens[n].info.get('generation', '?')}, win ratio "
            f"{specimens[n].info.get('win_ratio', float('nan')):.3f})" for n in names),
    ]
    if lang == "python":
        lines = ['"""' + header[0], *header[1:], '"""', "import random as _random_module", "",
                 "_random = _random_module.random", "", "",
                 "def set_random(fn):", '    """Use fn() -> float in [0, 1) for the `random` terminal."""',
                 "    global _random", "    _random = fn", "", "",
                 "def _div(a, b):", f"    return a / b if abs(b) >= {DIV_EPSILON!r} else 1.0", "", "",
                 "def _min(a, b):", "    return a if a < b else b", "", "",
                 "def _max(a, b):", "    return a if a > b else b", "", "",
                 "def _if_lt(a, b, c, d):", "    return c if a < b else d", ""]
        for name in names:
            sp = specimens[name]
            for kind, tree in (("play", sp.play), ("send", sp.send)):
                draws, body = _expression(tree, sp.pset, "python")
                lines += ["", f"def {kind}_{name}(env):"]
                lines += [f"    r{i} = _random()" for i in draws]
                lines += [f"    return {body}", ""]
        lines += ["", "FUNCTIONS = {" + ", ".join(f'"{n}": (play_{n}, send_{n})' for n in names) + "}", "", "",
                  "def choose(level, context, envs):",
                  '    """Index of the card to play (context "play") or send ("send") among candidate envs."""',
                  "    fn = FUNCTIONS[level][0 if context == \"play\" else 1]",
                  "    best, best_value = 0, None",
                  "    for k, env in enumerate(envs):",
                  "        v = fn(env)",
                  "        if v != v:  # NaN ranks below every number",
                  "            v = float(\"-inf\")",
                  "        if k == 0 or v > best_value:",
                  "            best, best_value = k, v",
                  "    return best", "", "",
                  "# The trees themselves, for evoplay's agents (specimen(level=...)) and for re-export.",
                  "LEVELS = " + pprint.pformat({n: {"specimen": specimens[n].to_dict()} for n in names}, width=116,
                                               sort_dicts=False), ""]
        return "\n".join(lines)
    lines = ["--[[ " + header[0], *header[1:], "", "Use: local computer = dofile('computer.lua');",
             "     local i = computer.choose('expert', 'play', {env1, env2, ...}) ]]", "local M = {}",
             "local random = math.random", "",
             "function M.set_random(fn) random = fn end", "",
             "local function _div(a, b)", f"  if math.abs(b) >= {DIV_EPSILON!r} then return a / b end",
             "  return 1.0", "end",
             "local function _min(a, b) if a < b then return a end return b end",
             "local function _max(a, b) if a > b then return a end return b end",
             "local function _if_lt(a, b, c, d) if a < b then return c end return d end", ""]
    for name in names:
        sp = specimens[name]
        for kind, tree in (("play", sp.play), ("send", sp.send)):
            draws, body = _expression(tree, sp.pset, "lua")
            lines += [f"function M.{kind}_{name}(env)"]
            lines += [f"  local r{i} = random()" for i in draws]
            lines += [f"  return {body}", "end", ""]
    lines += ["M.levels = {"]
    lines += [f"  {n} = {{play = M.play_{n}, send = M.send_{n}}}," for n in names]
    lines += ["}", "",
              "-- Index (1-based) of the card to play (context 'play') or send ('send') among candidate envs.",
              "function M.choose(level, context, envs)",
              "  local fn = M.levels[level][context]",
              "  local best, best_value = 1, nil",
              "  for k, env in ipairs(envs) do",
              "    local v = fn(env)",
              "    if v ~= v then v = -math.huge end  -- NaN ranks below every number",
              "    if k == 1 or v > best_value then best, best_value = k, v end",
              "  end",
              "  return best",
              "end", "", "return M", ""]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------------------
# Report and export of a run folder.
# --------------------------------------------------------------------------------------------------------------


def report(folder) -> str:
    from evoplay.games.sevens.agents import Specimen

    log = folder.read_log()
    lines = [f"sevens run {folder.path}: {len(log)} generation(s) logged"]
    if log:
        last = log[-1]
        secs = sum(r.get("seconds", 0.0) for r in log)
        lines.append(f"  last generation {last['generation']}: best fitness {last['best']:.4f} (win ratio "
                     f"{last['best_win_ratio']:.3f}, size {last['best_size']}), mean {last['mean']:.4f}; "
                     f"{secs:.1f} s in all, {secs / len(log):.2f} s per generation")
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

    ext = {"python": "py", "lua": "lua"}.get(lang)
    if ext is None:
        raise SpecError(f"unknown export language '{lang}'; known: python, lua")
    levels_path = folder.file("levels.json")
    if levels_path.is_file():
        specimens = _level_specimens(json.loads(levels_path.read_text(encoding="utf-8")))
        return folder.write_text(f"computer.{ext}", computer_source(specimens, lang))
    best_path = folder.file("best.json")
    if not best_path.is_file():
        raise SpecError(f"{folder.path} has no best.json yet; let the run finish (evoplay resume {folder.path})")
    return folder.write_text(f"best.{ext}", computer_source({"best": Specimen.load(best_path)}, lang))


# --------------------------------------------------------------------------------------------------------------
# The ladder: levels against each other, the heuristic and random, with confidence intervals and ratings.
# --------------------------------------------------------------------------------------------------------------


def ladder_players(computer: str | Path | None = None) -> dict:
    """{name: player} for the ladder: random, the heuristic and every level of a levels.json (default: shipped)."""
    from evoplay.games.sevens.agents import Specimen, load_levels

    players = {"random": "random", "heuristic": "heuristic"}
    for name, d in load_levels(computer).items():
        sp = Specimen.from_dict(d, f"level {name}")
        players[name] = (sp.play, sp.send)
    return players


def pairing_table(players: dict, games: int, seed: int = 0, table_size: int = 3, executor=None) -> dict:
    """For every ordered pair (A, B): ``games`` games of one A against ``table_size - 1`` copies of B, A's seat
    rotating; returns {(A, B): (A's wins, games)}."""
    from evoplay.arena.match import derive_seed
    from evoplay.games.sevens.batch_play import Lineup

    names = list(players)
    lineup = Lineup([players[n] for n in names])
    seeds_all, seats_all, keys = [], [], []
    for a, name_a in enumerate(names):
        for b, name_b in enumerate(names):
            if a == b:
                continue
            rng = np.random.default_rng(derive_seed(seed, a, b))
            seats = np.full((games, table_size), b, np.int64)
            seats[np.arange(games), np.arange(games) % table_size] = a
            seeds_all.append(rng.integers(0, 2**63, size=games, dtype=np.uint64))
            seats_all.append(seats)
            keys.append((name_a, name_b, a))
    seeds = np.concatenate(seeds_all)
    seats = np.concatenate(seats_all)
    places = play_on(executor, lineup, table_size, seeds, seats, until_first=True)
    out = {}
    for k, (name_a, name_b, a) in enumerate(keys):
        sl = slice(k * games, (k + 1) * games)
        won = (places[sl] == 0) & (seats[sl] == a)
        out[(name_a, name_b)] = (int(won.sum()), games)
    return out


def rating_games(players: dict, rounds: int, seed: int = 0, table_size: int = 3, executor=None):
    """Games between every ``table_size`` distinct players in every seat order, ``rounds`` times; returns
    (names, seats, places) with full finishing orders."""
    import itertools

    from evoplay.arena.match import derive_seed
    from evoplay.games.sevens.batch_play import Lineup

    names = list(players)
    tables = [perm for combo in itertools.combinations(range(len(names)), table_size)
              for perm in itertools.permutations(combo)]
    seats = np.array(tables * rounds, np.int64)
    seeds = np.random.default_rng(derive_seed(seed, 999)).integers(0, 2**63, size=len(seats), dtype=np.uint64)
    places = play_on(executor, Lineup([players[n] for n in names]), table_size, seeds, seats, until_first=False)
    return names, seats, places


def openskill_ratings(names, seats, places, seed: int = 0) -> dict:
    """Plackett-Luce ratings (openskill) from finishing orders: {name: (mu, sigma)}.

    The players do not change between games, so the model gets no drift between games (tau = 0; openskill's
    default adds skill drift, which makes the last few hundred games decide the ratings) and the games are fed
    in a seeded shuffled order rather than schedule order."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise SpecError("ratings need openskill: pip install 'evoplay[ratings]'") from None
    model = PlackettLuce(tau=0.0)
    ratings = [model.rating(name=n) for n in names]
    order = np.random.default_rng(seed).permutation(len(seats))
    for table, place in zip(seats[order].tolist(), places[order].tolist()):
        teams = [[ratings[i]] for i in table]
        new = model.rate(teams, ranks=[p + 1 for p in place])
        for i, team in zip(table, new):
            ratings[i] = team[0]
    return {n: (r.mu, r.sigma) for n, r in zip(names, ratings)}


def ladder_report(players: dict, games: int, rounds: int, seed: int = 0, executor=None, command: str = "") -> str:
    """The ladder as Markdown: the pairing table with 95 % Wilson intervals, the verdicts, the ratings."""
    from evoplay.arena.tournament import wilson_interval

    names = list(players)
    t0 = time.perf_counter()
    table = pairing_table(players, games, seed, 3, executor)
    t1 = time.perf_counter()
    lines = []
    if command:
        lines += [f"Made by `{command}`.", ""]
    lines += [f"### Win rate of one player (row) against two copies of another (column), {games:,} games each",
              "", "Parity is 1/3. Cells: win rate (95 % Wilson interval).", "",
              "| one \\ two | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    ci = {}
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append("-")
                continue
            w, n = table[(a, b)]
            lo, hi = wilson_interval(w, n)
            ci[(a, b)] = (w / n, lo, hi)
            cells.append(f"{w / n:.3f} ({lo:.3f}-{hi:.3f})")
        lines.append(f"| **{a}** | " + " | ".join(cells) + " |")
    lines += ["", "### Does each player beat the one below it?", "",
              "A beats B when A's interval alone against two B lies wholly above B's interval alone against two A.",
              "", "| pairing | A vs B,B | B vs A,A | verdict |", "|---|---|---|---|"]
    levels = [n for n in names if n not in ("random", "heuristic")]
    chain = list(zip(["random"] + levels[:-1], levels))
    if levels:
        chain.append(("heuristic", levels[-1]))
    for lower, upper in chain:
        ua, ulo, uhi = ci[(upper, lower)]
        la, llo, lhi = ci[(lower, upper)]
        verdict = "beats, intervals apart" if ulo > lhi else ("ahead, intervals overlap" if ua > la else "does not beat")
        lines.append(f"| {upper} vs {lower} | {ua:.3f} ({ulo:.3f}-{uhi:.3f}) | {la:.3f} ({llo:.3f}-{lhi:.3f}) "
                     f"| {verdict} |")
    r_names, seats, places = rating_games(players, rounds, seed, 3, executor)
    t2 = time.perf_counter()
    ratings = openskill_ratings(r_names, seats, places, seed)
    t3 = time.perf_counter()
    lines += ["", f"### openskill (Plackett-Luce) ratings from {len(seats):,} three-player games",
              "", "Every three distinct players in every seat order, full finishing orders, games in a shuffled order, "
              "no skill drift (tau = 0); ordinal = mu - 3 sigma.",
              "", "| player | mu | sigma | ordinal | mean place |", "|---|---|---|---|---|"]
    mean_place = {n: float(places[seats == i].mean()) + 1 for i, n in enumerate(r_names)}
    for n in sorted(r_names, key=lambda n: -(ratings[n][0] - 3 * ratings[n][1])):
        mu, sigma = ratings[n]
        lines.append(f"| {n} | {mu:.2f} | {sigma:.3f} | {mu - 3 * sigma:.2f} | {mean_place[n]:.3f} |")
    lines += ["", f"Wall time: pairings {t1 - t0:.1f} s, rating games {t2 - t1:.1f} s, rating updates {t3 - t2:.1f} s."]
    return "\n".join(lines)
