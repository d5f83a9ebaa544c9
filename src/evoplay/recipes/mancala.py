"""Seed 003's Mancala GP: programs that pick Kalah pits, evolved against an 8-ply minimax (and, beyond the
seed, against a pool of opponents).

Fitness (seed 003's Koza tableau): the program's score (seeds in its store at the end) moving first plus its
score moving second against the ``depth``-ply minimax (run 1); run 2 takes ``max(1, 100 x that sum - nodes)``.
``fitness.kind = "pool"`` plays instead minimax at several depths, a fixed sample of random programs and the
run's hall of fame (the best program of recent generations), in both seats, and scores 2 x the mean score per
opponent group (so 96 is a clean sweep, as in the seed's sum of two games). With ``pool.openings`` the minimax
games are played from the start and from that many openings too (a fixed sample of positions a few random
sowings into a game): one deterministic line per seat and depth is easy to overfit, varied positions are not.
``program.seeds`` (programs in the seed's notation) come first in the initial population: the default config
starts from the store difference at the leaves of a 4-ply search; seed 003's own set-up is ``mancala_run2.toml``.

The program reads the board from the mover's side and picks the pit by the rule in ``evoplay.games.kalah.program_player``:
floor(value) mod 6, and when that pit is empty the next non-empty pit counter-clockwise.

Speed: a whole GP-vs-minimax game is one Numba kernel, and the minimax's decisions are memoised for the run and
shared by the workers (``evoplay.games.kalah.minimax``, over ``evoplay.memo``). Fitness of a program
against fixed opponents depends on the program only, so duplicates are evaluated once (``evolve.score_cache``).
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from evoplay import gp
from evoplay.games.kalah.program_player import POLICIES, policy_features, program_document
from evoplay.arena import derive_seed
from evoplay.errors import ConfigError, SpecError
from evoplay.evolve import selection
from evoplay.evolve.selection import SELECTIONS
from evoplay.evolve.bloat import SizeDepthLimit, apply_parsimony
from evoplay.evolve.config import config_game, require
from evoplay.evolve.reports import SEAT_TABLE_HEAD, fitness_stats, seat_row, seat_summary
from evoplay.evolve.score_cache import ScoreCache
from evoplay.agents.program_file import load_program
from evoplay.games.base import TERMINAL
from evoplay.gp.primitives import FEATURE
from evoplay.games.kalah.export import document_player, policy_rule
from evoplay.games.kalah.game import reference_sow
from evoplay.games.kalah.minimax import MAX_DEPTH, KalahArena

# The seed's two Figure-5 programs, in its notation (run 1: scores 27/25; run 2: 41/25 per the seed).
SEED_RUN1 = (
    "((value at [(if (9) < (value at [(value at [((8) - ((2) - (6)))])]) do (10) else do (value at [(if (3) < (4) do "
    "(value at [(9)]) else do ((4) - ((1) + (value at [(13)]))))]))]) + ((if (value at [((value at [(13)]) + (value "
    "at [(value at [((13) + (3))])]))]) < (((10) - (3)) - ((if (value at [((6) + (value at [(value at [((13) + (3))])"
    "]))]) < (((10) - (3)) - (2)) do ((10) - (6)) else do ((13) - (value at [(value at [(value at [(3)])])]))) - (3)))"
    " do ((10) - (6)) else do ((13) - (value at [(value at [(value at [(3)])])]))) - (3)))"
)
SEED_RUN2 = (
    "(((value at [(value at [(value at [(value at [(value at [(((value at [(value at [(value at [(value at [(value "
    "at [(value at [(7)])])])])])]) - (value at [((0) - (value at [(value at [((value at [(value at [(7)])]) + ((value "
    "at [((0) - (value at [(5)]))]) + ((3) + ((value at [(7)]) + (10)))))])]))])) + (value at [(value at [((value at "
    "[(value at [(value at [(value at [(7)])])])]) + ((value at [(13)]) + ((value at [((0) - (value at [(5)]))]) + "
    "(10))))])]))])])])])]) - (value at [((0) - (value at [(5)]))])) + (value at [(value at [((value at [(value at "
    "[(7)])]) + ((value at [((value at [(7)]) + (10))]) + ((3) + ((value at [((6) + (6))]) + (10)))))])]))"
)


FITNESS_STATS = ("best", "mean", "median", "worst")
OPENING_KEY = 100  # score-cache keys of games from an opening: depth + OPENING_KEY x (opening + 1); depths are <= 30
FITNESS_KINDS = ("minimax", "pool")
INIT_METHODS = ("grow", "full", "ramped")


def _check(config: dict) -> None:
    require(config["population"] >= 2, f"population = {config['population']}: use at least 2")
    require(config["generations"] >= 1, f"generations = {config['generations']}: use at least 1")
    p = config["program"]
    require(set(p["functions"]) <= set(gp.FUNCTIONS),
            f"program.functions = {p['functions']}: known functions are {', '.join(gp.FUNCTIONS)}")
    require(len(p["integers"]) == 2 and p["integers"][0] <= p["integers"][1],
            f"program.integers = {p['integers']}: give [low, high], e.g. [0, 13]")
    require(p["init_method"] in INIT_METHODS,
            f"program.init_method = {p['init_method']!r}; use one of {', '.join(INIT_METHODS)}")
    require(0 <= p["init_min_depth"] <= p["init_max_depth"] <= 64,
            "program.init_min_depth <= program.init_max_depth <= 64 is required")
    require(0.0 <= p["init_function_probability"] <= 1.0,
            "program.init_function_probability must be in [0, 1] (0 = functions' share of all primitives)")
    require(p["policy"] in POLICIES, f"program.policy = {p['policy']!r}; use one of {', '.join(POLICIES)}")
    require(1 <= p["search_depth"] <= 12, f"program.search_depth = {p['search_depth']}: use 1..12")
    require(p["max_size"] >= 0 and p["max_depth"] >= 0,
            "program.max_size and max_depth must be >= 0 (0: unlimited)")
    require(all(isinstance(t, str) for t in p["seeds"]),
            f"program.seeds = {p['seeds']!r}: give a list of programs in the seed's notation, e.g. "
            "[\"(value at [(6)]) - (value at [(13)])\"]")
    require(len(p["seeds"]) <= config["population"],
            f"program.seeds: {len(p['seeds'])} programs for a population of {config['population']}")
    b = config["breeding"]
    require(b["selection"] in SELECTIONS,
            f"breeding.selection = {b['selection']!r}; use one of {', '.join(SELECTIONS)}")
    require(0 <= b["crossover"] <= 1 and 0 <= b["mutation"] <= 1,
            "breeding.crossover and mutation are probabilities")
    require(0 <= b["elites"] < config["population"], "breeding.elites must be in 0..population-1")
    require(b["tournament_size"] >= 1, "breeding.tournament_size must be >= 1")
    require(b["mutation_max_depth"] >= 0, "breeding.mutation_max_depth must be >= 0")
    f = config["fitness"]
    require(f["kind"] in FITNESS_KINDS, f"fitness.kind = {f['kind']!r}; use one of {', '.join(FITNESS_KINDS)}")
    require(1 <= f["minimax_depth"] <= MAX_DEPTH, f"fitness.minimax_depth must be in 1..{MAX_DEPTH}")
    require(f["parsimony"] in ("none", "seed003"),
            f"fitness.parsimony = {f['parsimony']!r}; use 'none' or 'seed003'")
    pool = config["pool"]
    require(all(1 <= d <= MAX_DEPTH for d in pool["minimax_depths"]),
            f"pool.minimax_depths must be in 1..{MAX_DEPTH}")
    require(pool["random_programs"] >= 0 and pool["hall_of_fame"] >= 0, "pool sizes must be >= 0")
    require(0 <= pool["openings"] <= 1000, f"pool.openings = {pool['openings']}: use 0 (none) to 1000")
    require(1 <= pool["opening_plies"] <= 20, f"pool.opening_plies = {pool['opening_plies']}: use 1..20")
    require(min(pool["minimax_weight"], pool["random_weight"], pool["hall_of_fame_weight"],
                pool["second_seat_weight"]) >= 0, "pool weights must be >= 0")
    r = config["report"]
    require(r["random_programs"] >= 1, "report.random_programs must be >= 1")
    require(all(1 <= d <= MAX_DEPTH for d in r["heldout_depths"]),
            f"report.heldout_depths must be in 1..{MAX_DEPTH}")


def _game(config: dict):
    game = config_game(config)
    if game.name != "kalah":  # the recipe of seed 003: Kalah's program policies and minimax opponent
        raise ConfigError(f"game = {config['game']!r}: the mancala recipe plays kalah(...)")
    if game.pits > 6 or 2 * game.pits * game.seeds > 127:
        raise ConfigError(f"game = {config['game']!r}: the memo key fits kalah with pits <= 6")
    return game


def primitive_set(config: dict, n_features: int) -> gp.PrimitiveSet:
    p = config["program"]
    pset = gp.PrimitiveSet("mancala", n_features=n_features)
    try:
        pset.add_functions(*p["functions"])
        pset.add_integers(int(p["integers"][0]), int(p["integers"][1]))
    except SpecError as err:
        raise ConfigError(f"[program]: {err}") from None
    return pset.validate()


def openings(game, n: int, plies: int, seed: int) -> list[np.ndarray]:
    """``n`` distinct positions ``plies`` random sowings into a game (every sowing a ply, an extra move too), none
    of them over, each with the first player to move: a position where the second player moves is turned
    around (the two sides swapped), which the rules' symmetry makes the same position."""
    rng = np.random.default_rng(seed)
    pits = game.pits
    out, seen = [], set()
    misses = 0  # draws in a row that found no new position: a few hundred means the plies reach no more
    while len(out) < n and misses < 500:
        misses += 1
        board = ([game.seeds] * pits + [0]) * 2
        player = 0
        for _ in range(plies):
            own = range(0, pits) if player == 0 else range(pits + 1, 2 * pits + 1)
            legal = [i for i, b in enumerate(board[own.start:own.stop]) if b > 0]
            player = reference_sow(board, player, legal[int(rng.integers(len(legal)))], pits, game.empty_capture)
            if player == TERMINAL:
                break
        if player == TERMINAL:
            continue
        if player == 1:
            board = board[pits + 1:] + board[: pits + 1]
        if tuple(board) not in seen:
            seen.add(tuple(board))
            out.append(np.array(board, np.int8))
            misses = 0
    if len(out) < n:
        raise ConfigError(f"pool.openings = {n}: only {len(out)} different positions are {plies} random sowings "
                          f"into {game.spec}; ask for fewer openings or more plies")
    return out


def seed_population(pset, config: dict) -> list:
    """``program.seeds`` parsed: the programs a run starts with before its random ones."""
    out = []
    for i, text in enumerate(config["program"]["seeds"]):
        try:
            out.append(gp.parse_notation(text, pset))
        except SpecError as err:
            raise ConfigError(f"program.seeds[{i}] = {text[:80]!r}: {err}") from None
        wide = [int(a) for op, a in zip(out[-1].opcodes, out[-1].args) if op == FEATURE and a >= pset.n_features]
        if wide:
            raise ConfigError(f"program.seeds[{i}] = {text[:80]!r}: reads feature f{wide[0]} but policy "
                              f"{config['program']['policy']} gives f0..f{pset.n_features - 1}")
    return out


def random_programs(pset, config: dict, n: int, seed) -> list:
    """``n`` random programs made like the initial population (``seed``: an int or a Generator)."""
    p = config["program"]
    rng = np.random.default_rng(seed)  # a Generator comes back unaltered
    return gp.population(pset, rng, n, p["init_method"], p["init_min_depth"], p["init_max_depth"],
                         p["init_function_probability"] or None)


class MancalaGP:
    """Seed 003's generational GP (see the module docstring); ``start``/``step``/``finish`` for run_evolution."""

    def __init__(self, config: dict):
        _check(config)
        self.config = config
        self.game = _game(config)
        self.pits = self.game.pits
        self.policy = config["program"]["policy"]
        self.pset = primitive_set(config, policy_features(self.policy, self.pits))
        self.seeds = seed_population(self.pset, config)
        self.generations = int(config["generations"])
        self.population_size = int(config["population"])
        p = config["program"]
        self.limit = SizeDepthLimit(p["max_size"], p["max_depth"])
        self.search_depth = int(config["program"]["search_depth"])
        self.arena = KalahArena(self.pits, self.game.seeds, self.game.empty_capture, policy=self.policy,
                                search_depth=self.search_depth)
        self.executor = None  # the run's executor, remembered by step() for finish()
        self.cache = ScoreCache()  # depth -> program -> its scores against that minimax
        seed = int(config.get("seed", 0))
        pool = config["pool"]
        self.pool_randoms = (random_programs(self.pset, config, pool["random_programs"], derive_seed(seed, 31))
                             if config["fitness"]["kind"] == "pool" else [])
        self.openings = (openings(self.game, pool["openings"], pool["opening_plies"], derive_seed(seed, 37))
                         if config["fitness"]["kind"] == "pool" else [])

    def scores_vs_minimax(self, programs, depth: int, executor, use_cache: bool = True,
                          opening: int | None = None) -> np.ndarray:
        """(n, 2): each program's score moving first and moving second against the ``depth``-ply minimax, from
        the start or from opening number ``opening`` (of ``self.openings``)."""
        board = None if opening is None else self.openings[opening]

        def play(unique):
            return self.arena.minimax_both_seats(unique, depth, executor, board)[:, :, 0]

        # The cache knows an opponent by an int: the depth, plus OPENING_KEY x (k + 1) from opening k.
        key = depth if opening is None else depth + OPENING_KEY * (opening + 1)
        return self.cache.scores(programs, key, play, use_cache)

    def pool_scores(self, programs, hall, executor) -> tuple[np.ndarray, np.ndarray, int]:
        """Pool fitness before parsimony: 2 x the weighted mean score per opponent group; also the scores
        against the training minimax (for the log) and the number of games played."""
        pool = self.config["pool"]
        n = len(programs)
        groups = []
        games = 0
        train = self.scores_vs_minimax(programs, self.config["fitness"]["minimax_depth"], executor)
        minimax_means = []
        for d in pool["minimax_depths"]:
            s = train if d == self.config["fitness"]["minimax_depth"] else self.scores_vs_minimax(programs, d, executor)
            minimax_means.append(self._seats(s[:, 0], s[:, 1]))
            games += 2 * n
            for k in range(len(self.openings)):
                s = self.scores_vs_minimax(programs, d, executor, opening=k)
                minimax_means.append(self._seats(s[:, 0], s[:, 1]))
                games += 2 * n
        if minimax_means and pool["minimax_weight"] > 0:
            groups.append((pool["minimax_weight"], np.mean(minimax_means, axis=0)))
        for weight, opponents in ((pool["random_weight"], self.pool_randoms), (pool["hall_of_fame_weight"], hall)):
            if weight <= 0 or not opponents:
                continue
            first, _, second, _ = self.arena.both_seats(programs, opponents, executor)
            means = self._seats(first.mean(axis=1), second.mean(axis=1))
            games += 2 * n * len(opponents)
            groups.append((weight, means))
        total = sum(w for w, _ in groups) or 1.0
        fitness = 2.0 * sum(w * m for w, m in groups) / total
        return fitness, train, games

    def _seats(self, first, second):
        """The pool's mean of a score moving first and one moving second (``pool.second_seat_weight``)."""
        w = self.config["pool"]["second_seat_weight"]
        return (first + w * second) / (1.0 + w)

    def evaluate(self, programs, hall, executor) -> tuple[np.ndarray, np.ndarray, int]:
        """(fitness, scores vs the training minimax (n, 2), games played)."""
        f = self.config["fitness"]
        sizes = np.array([p.size for p in programs])
        if f["kind"] == "minimax":
            before = self.cache.size(f["minimax_depth"])
            scores = self.scores_vs_minimax(programs, f["minimax_depth"], executor)
            raw = scores.sum(axis=1).astype(np.float64)
            games = 2 * (self.cache.size(f["minimax_depth"]) - before)
        else:
            raw, scores, games = self.pool_scores(programs, hall, executor)
        return apply_parsimony(f["parsimony"], raw, sizes), scores, games

    def start(self, rng: np.random.Generator) -> dict:
        # program.seeds first (none in seed 003's configs: the same random population as before they existed).
        pop = self.seeds + random_programs(self.pset, self.config, self.population_size - len(self.seeds), rng)
        return {"rng": rng, "population": pop, "hall_of_fame": [], "best": None, "history": []}

    def select(self, fitness, k, rng):
        b = self.config["breeding"]
        return selection.select(b["selection"], fitness, k, rng, b["tournament_size"])

    def step(self, state: dict, generation: int, executor) -> tuple[dict, dict]:
        self.executor = executor  # finish() plays the final tables on it too
        t0 = time.perf_counter()
        self.cache.restore(state.get("score_cache"))
        memo = self.arena.memo
        decisions0, distinct0 = memo.decisions, memo.distinct
        pop = state["population"]
        fitness, scores, games = self.evaluate(pop, state["hall_of_fame"], executor)
        sizes = np.array([p.size for p in pop])
        best = int(np.argmax(fitness))
        best_program = pop[best]
        state["best"] = {"program": best_program, "fitness": float(fitness[best]),
                         "first": int(scores[best, 0]), "second": int(scores[best, 1]), "generation": generation}
        state["history"].append({k: v for k, v in state["best"].items() if k != "program"}
                                | {"size": best_program.size})
        hof = self.config["pool"]["hall_of_fame"]
        if hof and all(best_program != h for h in state["hall_of_fame"]):
            state["hall_of_fame"] = (state["hall_of_fame"] + [best_program])[-hof:]
        record = fitness_stats(fitness) | {
            "best_first": int(scores[best, 0]), "best_second": int(scores[best, 1]),
            "best_score": int(scores[best].sum()), "mean_score": float(scores.sum(axis=1).mean()),
            "best_size": int(best_program.size), "mean_size": float(sizes.mean()), "max_size": int(sizes.max()),
            "evaluations": int(games), "unique": len({p.key() for p in pop}),
            "memo_hits": (memo.decisions - decisions0) - (memo.distinct - distinct0),
            "searches": memo.distinct - distinct0,
            "eval_seconds": round(time.perf_counter() - t0, 4),
        }
        if generation < self.generations - 1:
            b = self.config["breeding"]
            state["population"] = gp.koza_breed(
                pop, fitness, self.pset, state["rng"], self.select, b["crossover"], b["mutation"],
                b["mutation_max_depth"], b["elites"], b["mutation_keeps_node"],
                self.limit.accepts if self.limit.active else None,
            )
        state["score_cache"] = self.cache.encode()  # a resumed run plays (and counts) the same games
        return state, record

    def finish(self, state: dict, folder) -> None:
        write_results(self, state, folder)


def make(config: dict, **options) -> MancalaGP:
    """The evolution for a config; keys the config lacks (a run folder from an older evoplay) take run 2's values,
    which were the default's until the default became the searching pool variant (so no seeded programs and no
    openings: an old run resumes as it began)."""
    from evoplay.evolve.config import default_config_text, merge, parse_toml

    if options:
        raise ConfigError(f"the mancala recipe takes no options ({', '.join(options)} given)")
    defaults = parse_toml(default_config_text("mancala", "run2"), "the mancala run2 config")
    return MancalaGP(merge(defaults, config, "the run's config"))


def generalisation(evo: MancalaGP, players: dict, executor=None) -> dict:
    """Seed 003's Figure 10: each player (the minimax, or a program) against the same random programs, mean
    scores moving first and second; also wins/draws/losses."""
    from evoplay.arena.executors import SerialExecutor

    executor = executor or SerialExecutor()
    cfg = evo.config
    n = cfg["report"]["random_programs"]
    opponents = random_programs(evo.pset, cfg, n, derive_seed(int(cfg.get("seed", 0)), 1000))
    table = {}
    for name, player in players.items():
        if player == "minimax":
            table[name] = seat_summary(*evo.arena.minimax_vs_programs(opponents, cfg["fitness"]["minimax_depth"],
                                                                      executor))
        else:
            table[name] = seat_summary(*(a[0] for a in evo.arena.both_seats([player], opponents, executor)))
    return {"random_programs": n, "seed": derive_seed(int(cfg.get("seed", 0)), 1000), "players": table}


def heldout(evo: MancalaGP, program, executor=None) -> dict:
    """The program against opponents it never trained on: alpha-beta at the report's depths (one game per seat;
    both are deterministic) and random programs of another seed."""
    from evoplay.arena.executors import SerialExecutor

    executor = executor or SerialExecutor()
    cfg = evo.config

    def vs_minimax(depth):
        (first, second), = evo.arena.minimax_both_seats([program], depth, executor)
        return seat_summary(first[:1], first[1:], second[:1], second[1:])

    rows = {f"alphabeta(depth={d})": vs_minimax(d) for d in cfg["report"]["heldout_depths"]}
    train = vs_minimax(cfg["fitness"]["minimax_depth"])
    n = cfg["report"]["random_programs"]
    opponents = random_programs(evo.pset, cfg, n, derive_seed(int(cfg["report"]["heldout_seed"]), 2000))
    rows[f"{n} random programs (seed {cfg['report']['heldout_seed']})"] = seat_summary(
        *(a[0] for a in evo.arena.both_seats([program], opponents, executor)))
    return {"training minimax": train, "heldout": rows}


def write_results(evo: MancalaGP, state: dict, folder) -> None:
    from evoplay.evolve.plots import plot_columns, plot_log

    best = state["best"]
    program = best["program"]
    simple = gp.simplify(program, evo.pset)
    players = {"minimax": "minimax", "best": program}
    executor = getattr(evo, "executor", None)
    gen = generalisation(evo, players, executor)
    held = heldout(evo, program, executor)
    doc = program_document(
        program, evo.pset, evo.game.spec, policy=evo.policy, recipe="mancala", fitness=best["fitness"],
        generation=best["generation"], score_first=best["first"], score_second=best["second"],
        minimax_depth=evo.config["fitness"]["minimax_depth"], simplified=gp.to_notation(simple, evo.pset),
        simplified_size=simple.size, pit_rule=policy_rule(evo.policy, evo.search_depth), search_depth=evo.search_depth)
    folder.write_json("best.json", doc)
    folder.write_json("hall_of_fame.json", [p.to_dict() for p in state["hall_of_fame"]])
    folder.write_json("generalisation.json", gen)
    folder.write_json("heldout.json", held)
    for lang in gp.LANGUAGES:
        export(folder, lang)
    log = folder.read_log()
    plot_log(folder, f"mancala ({evo.config['fitness']['kind']} fitness)")
    plot_columns(folder.file("best_score.png"), "Score1 + Score2 of each generation's best (seed's Figure 6)", log,
                 {"best_score": "best program"}, "seeds won in both games")
    plot_columns(folder.file("fitness_stats.png"), "fitness statistics (seed's Figures 8, 9)", log,
                 {k: k for k in FITNESS_STATS}, "fitness")


def report(folder) -> str:
    cfg = folder.config
    log = folder.read_log()
    lines = [f"run {folder.path}: recipe mancala, {cfg['fitness']['kind']} fitness "
             f"(parsimony {cfg['fitness']['parsimony']}), population {cfg['population']}, "
             f"{len(log)}/{cfg['generations']} generations"]
    if log:
        last = log[-1]
        lines.append(f"last generation: best fitness {last['best']:g}, mean {last['mean']:.1f}, mean size "
                     f"{last['mean_size']:.1f}")
    if not folder.file("best.json").exists():
        lines.append(f"the run has not finished: evoplay resume {folder.path}")
        return "\n".join(lines)
    doc = folder.read_json("best.json")
    lines += [
        f"best program ({doc['size']} nodes, generation {doc['generation']}, fitness {doc['fitness']:g}):",
        f"  {doc['notation']}",
        f"simplified ({doc['simplified_size']} nodes): {doc['simplified']}",
        f"against the {doc['minimax_depth']}-ply minimax: {doc['score_first']}-{48 - doc['score_first']} moving first, "
        f"{doc['score_second']}-{48 - doc['score_second']} moving second (the seed's best: 41-7 and 25-23)",
    ]
    if folder.file("generalisation.json").exists():
        g = folder.read_json("generalisation.json")
        lines += ["", f"against the same {g['random_programs']} random programs (seed's Figure 10: minimax 39/37, "
                  "run 1 25/24, run 2 23/22):", SEAT_TABLE_HEAD.format(what="player")]
        lines += [seat_row(name, s) for name, s in g["players"].items()]
    if folder.file("heldout.json").exists():
        h = folder.read_json("heldout.json")
        lines += ["", "the best program against opponents it never trained on:",
                  SEAT_TABLE_HEAD.format(what="opponent"), seat_row("training minimax", h["training minimax"])]
        lines += [seat_row(name, s) for name, s in h["heldout"].items()]
    lines += ["", f"play it: evoplay play kalah --vs 'gp({folder.file('best.json')})'",
              f"source: {folder.file('best.py')}, {folder.file('best.lua')}",
              f"plots: {folder.file('fitness.png')}, {folder.file('size.png')}, {folder.file('best_score.png')}, "
              f"{folder.file('fitness_stats.png')}"]
    return "\n".join(lines)


def export(folder, lang: str) -> Path:
    """The run's best program as a standalone Python or Lua player (``evoplay.games.kalah.export``)."""
    if lang not in gp.LANGUAGES:
        raise SpecError(f"unknown language '{lang}'; known: {', '.join(gp.LANGUAGES)}")
    text = document_player(*load_program(folder.file("best.json")), lang)
    return folder.write_text("best.py" if lang == "python" else "best.lua", text)


def seed_programs() -> dict:
    """The seed's two published best programs, parsed."""
    pset = gp.kalah_primitive_set()
    return {"seed run 1": gp.parse_notation(SEED_RUN1, pset), "seed run 2": gp.parse_notation(SEED_RUN2, pset)}


def compare_runs(run_dirs, out_dir, labels=None) -> list[Path]:
    """The seed's Figures 6-9 for several runs on shared axes: best Score1 + Score2 per generation
    (figure6.png), mean program size (figure7.png) and each run's fitness statistics (figure8_9.png)."""
    from evoplay.evolve.plots import compare_runs as compare

    return compare(run_dirs, out_dir, labels, {
        "figure6.png": ("best program's Score1 + Score2 per generation (seed's Figure 6)", "best_score",
                        "seeds won in both games"),
        "figure7.png": ("mean program size per generation (seed's Figure 7)", "mean_size", "nodes"),
    }, ("figure8_9.png", "fitness statistics per generation (seed's Figures 8 and 9)", FITNESS_STATS, "fitness"))
