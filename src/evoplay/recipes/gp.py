"""The ``gp`` recipe: evolve a GP player for any game that gives features (``evoplay evolve gp --game SPEC``).

Programs come from ``evoplay.gp`` (the game's primitive set: its features, ephemeral constants, the configured
functions), breed by seed 003's Koza step or seed 000's split plan under a size and depth limit
(``evoplay.evolve.bloat``), and are scored by ``evoplay.evolve.fitness``; ``gp(best.json)`` plays the champion.

With ``program.base = "outcomes"`` every program adds its value to a linear evaluation shared by the population,
first fitted to the outcomes of seeded games (``evoplay.evolve.warm_start``), then (``program.base_tune``) retuned
by CMA-ES (``evoplay.ga.cmaes``) as the ``ga`` recipe tunes its weights: every ``base_tune``-th generation, after the
programs are scored, CMA-ES's samples of the base play the generation's games (the same fitness spec, opponents,
hall and seeds: common random numbers) under the generation's best program, and the base moves to CMA-ES's mean.
The mean, not the best sample: it recombines the better half of the samples, where the best is the luckiest of a
few games each, and a base that moves by CMA-ES's adapted step leaves the programs bred over it their meaning.
The strategy's history lives in the run's state (rebuilt by replay on resume), and the base in best.json's
``base_weights``.
"""
from __future__ import annotations

import numpy as np

from evoplay import gp
from evoplay.errors import ConfigError, SpecError
from evoplay.evolve.bloat import SizeDepthLimit
from evoplay.gp import program as gp_program
from evoplay.gp.primitives import CONST, EPHEMERAL
from evoplay.gp.program import PROGRAM_FORMAT
from evoplay.recipes import generic, run_report

FORMAT = PROGRAM_FORMAT
BASES = ("none", "outcomes")
BASE_CMA_KEY = 0xBA5C  # the base's CMA-ES generator's key in the run seed's derivation
#: the valid ranges of the base's tuning keys
MAX_BASE_TUNE, BASE_POPULATION, MAX_BASE_SIGMA = 1000, (4, 256), 10.0


class GPEvolution(generic.GenericEvolution):
    recipe = "gp"

    def __init__(self, config: dict):
        super().__init__(config)
        from evoplay.agents.feature_player import game_primitive_set

        p = config["program"]
        consts = p["constants"]
        if consts and (len(consts) != 2 or consts[0] > consts[1]):
            raise ConfigError(f"program.constants = {consts!r}; give [low, high] or [] for none")
        try:
            self.pset = game_primitive_set(self.game, tuple(p["functions"]), tuple(consts) if consts else None,
                                           names=self.view.names())
            self.limit = SizeDepthLimit(int(p["max_size"]), int(p["max_depth"]))
            gp.population(self.pset, np.random.default_rng(0), 1, p["init_method"], p["init_min_depth"],
                          p["init_max_depth"])
        except SpecError as err:
            raise ConfigError(f"program: {err}") from None
        self.base_kind = str(p.get("base", "none"))
        if self.base_kind not in BASES:
            raise ConfigError(f"program.base = {self.base_kind!r}; use outcomes (each program adds its value to a "
                              f"linear evaluation fitted to the outcomes of seeded games) or none")
        self.base_fit = (int(p.get("base_games", 1000)), int(p.get("base_rounds", 2)))
        if self.base_fit[0] < 1 or not 1 <= self.base_fit[1] <= 10:
            raise ConfigError("program.base_games must be >= 1 and program.base_rounds 1..10")
        self.base = None  # the fitted weights, once the first generation has fitted them (kept in the state)
        self.base_tune = int(p.get("base_tune", 0))
        if not 0 <= self.base_tune <= MAX_BASE_TUNE:
            raise ConfigError(f"program.base_tune = {self.base_tune}; give how often CMA-ES retunes the base, every "
                              f"1..{MAX_BASE_TUNE} generations (0: never)")
        self.base_population = int(p.get("base_population", 12))
        lo, hi = BASE_POPULATION
        if not lo <= self.base_population <= hi:
            raise ConfigError(f"program.base_population = {self.base_population}; give the bases CMA-ES tries a "
                              f"tuning, {lo}..{hi}")
        self.base_sigma = float(p.get("base_sigma", 0.3))
        if not 0.0 < self.base_sigma <= MAX_BASE_SIGMA:
            raise ConfigError(f"program.base_sigma = {self.base_sigma:g}; give CMA-ES's first step, a share of the "
                              f"fitted base's rms weight, in (0, {MAX_BASE_SIGMA:g}]")
        if self.base_kind != "outcomes":
            self.base_tune = 0  # no base, nothing to tune
        self._base_cma = None  # the base's CMA-ES, rebuilt from the state's history (base_search)
        self.base_tunings = 0
        self._leader = None  # the program the base is tuned under: the best of the generation being stepped
        b = config["breeding"]
        if b["plan"] not in ("koza", "split"):
            raise ConfigError(f"breeding.plan = {b['plan']!r}; use koza or split")
        if b["selection"] not in ("tournament", "roulette"):
            raise ConfigError(f"breeding.selection = {b['selection']!r}; use tournament or roulette")
        if not 0 <= b["elites"] < self.population:
            raise ConfigError(f"breeding.elites = {b['elites']}; use 0..population-1")
        self.splits = {k: float(b[f"split_{k}"]) for k in ("clone", "constant", "subtree", "crossover")}
        if b["plan"] == "split":
            try:
                gp.split_counts(self.population, self.splits)
            except SpecError as err:
                raise ConfigError(f"breeding.split_*: {err}") from None

    # --- the base evaluation ---------------------------------------------------------------------------------
    def use_view(self, state: dict) -> None:
        super().use_view(state)
        base = state.get("base")
        self.base = None if base is None else np.asarray(base, dtype=np.float64)
        self.base_tunings = len(state["base_cma"]["history"]) if state.get("base_cma") else 0

    def start(self, rng):
        state = super().start(rng)
        if self.base_kind == "outcomes":
            state["base"] = None  # fitted in the first generation, whose time it counts in
            # a program of the constant 0 plays the base alone: elitism then never ships worse than the fit
            state["population"][0] = gp_program.leaf(CONST, EPHEMERAL, 0.0)
        return state

    def step(self, state: dict, generation: int, executor):
        self.use_view(state)
        if "base" in state and state["base"] is None:
            from evoplay.evolve.warm_start import OUTCOMES_SHARE, fit_outcomes

            games, rounds = self.base_fit
            minutes = float(self.config.get("minutes", 0) or 0)
            state["base"] = fit_outcomes(self.game, self.view, self.seed + 0xBA5E, games, rounds,
                                         seconds=60.0 * minutes * OUTCOMES_SHARE if minutes else None)
            self.base = state["base"]
            if self.base_tune:
                state["base_cma"] = {"x0": state["base"].copy(), "history": []}
        ladder, hall = state.get("ladder"), list(state["hall"])
        state, record = super().step(state, generation, executor)
        if self.base_tune:
            tuned = generation % self.base_tune == 0
            record["base_best"] = self.tune_base(state, generation, executor, ladder, hall) if tuned else None
            record["base_step"] = self.base_search(state).step_size
        return state, record

    def next_population(self, state: dict, res):
        self._leader = state["population"][res.best()].copy()
        return super().next_population(state, res)

    def base_search(self, state: dict):
        """The base's CMA-ES: from the fitted base, its first step ``base_sigma`` times that base's rms weight (the
        fit sets the scale the weights live on), rebuilt by replaying the state's history when it is not the one
        this object holds (a resumed run, a generation cut by the time budget)."""
        from evoplay.ga.cmaes import CmaSearch
        from evoplay.seeds import derive_seed

        tune = state["base_cma"]
        history = tune["history"]
        if self._base_cma is None or len(self._base_cma.history) != len(history):
            x0 = np.asarray(tune["x0"], dtype=np.float64)
            rms = float(np.sqrt(np.mean(np.square(x0))))
            sigma = self.base_sigma * (rms if rms > 0.0 else 1.0)
            self._base_cma = CmaSearch.replay(len(x0), sigma, self.base_population,
                                              derive_seed(self.seed, BASE_CMA_KEY), history, x0=x0)
            if history and not np.array_equal(self._base_cma.mean, state["base"]):
                raise ConfigError("the checkpoint's base is not the one its CMA-ES history gives; the run's config "
                                  "or evoplay changed since it was written: start a new run")
        return self._base_cma

    def tune_base(self, state: dict, generation: int, executor, ladder: int | None, hall: list) -> float:
        """One CMA-ES generation of the base under the generation's best program: its samples play the games the
        generation's programs played (the fitness spec, the rungs and hall they met, the same seeds), then the base
        moves to CMA-ES's mean. The best sample's fitness."""
        from evoplay.evolve.fitness import Ladder, evaluate_population

        search = self.base_search(state)
        samples = search.ask()
        spec = self.fitness_spec
        rungs = Ladder(spec, ladder) if spec.ladder else None
        plays_hall = rungs.plays_hall() if rungs else True
        hall_agents = [self.agent(ind, f"hall {k}") for k, ind in enumerate(hall)] if plays_hall else []
        agents = [self.agent(self._leader, f"g{generation}.base{i}", base=row) for i, row in enumerate(samples)]
        res = evaluate_population(self.game, agents, spec, self.seed, generation, executor, hall_agents,
                                  opponents=rungs.opponents() if rungs else None)
        search.tell(samples, res.selection)
        state["base_cma"] = {"x0": state["base_cma"]["x0"], "history": [np.asarray(h) for h in search.history]}
        state["base"] = search.mean.copy()
        self.base, self.base_tunings = state["base"], len(search.history)
        return float(np.max(res.fitness))

    # --- individuals ----------------------------------------------------------------------------------------
    def new_population(self, rng):
        p = self.config["program"]
        return gp.population(self.pset, rng, self.population, p["init_method"], p["init_min_depth"],
                             p["init_max_depth"])

    def agent(self, program, name: str, base=None):
        """The player of ``program`` over ``base`` (default the run's base, if any)."""
        from evoplay.agents.feature_player import program_agent

        pl = self.config["player"]
        return program_agent(self.game, program, pl["policy"], pl["depth"], pl["opponents"], name, view=self.view,
                             budget=self.train_budget, base=self.base if base is None else base)

    def size(self, program) -> int:
        return program.size

    def select(self, fitness, k, rng):
        from evoplay.evolve.selection import roulette, tournament

        b = self.config["breeding"]
        if b["selection"] == "tournament":
            return tournament(fitness, k, b["tournament_size"], rng)
        return roulette(np.asarray(fitness) - np.min(fitness), k, rng)

    def breed(self, population, fitness, rng):
        b = self.config["breeding"]
        if b["plan"] == "koza":
            return gp.koza_breed(population, fitness, self.pset, rng, self.select, b["crossover_rate"],
                                 b["mutation_rate"], b["mutation_depth"], b["elites"], keep_node=False,
                                 accept=self.limit.accepts if self.limit.active else None)
        order = np.argsort(-np.asarray(fitness), kind="stable")
        ranked = [population[int(i)] for i in order]
        children = gp.split_breed(ranked, self.pset, rng, self.splits, b["mutation_depth"])
        # A child over the limits is replaced by a copy of its parent (split_breed's operation O takes the parents
        # ranked[0..count_O) in order, the operations in the order of the shares).
        parents = [i for count in gp.split_counts(len(ranked), self.splits).values() for i in range(count)]
        return [c if self.limit.accepts(c) else ranked[parents[k]].copy() for k, c in enumerate(children)]

    def document(self, program) -> dict:
        pl = self.config["player"]
        doc = program_document(self.game, program, self.pset, pl["policy"], pl["depth"], pl["opponents"])
        if self.train_budget:
            doc["nodes"] = self.train_budget.nodes
        if self.base is not None:
            doc["base_weights"] = [float(w) for w in self.base]
            if self.base_tune:
                doc["base_tunings"] = self.base_tunings  # CMA-ES's generations over the fitted base
        return doc


def program_document(game, program, pset, policy: str, depth: int, opponents: str) -> dict:
    """The JSON ``gp(FILE)`` reads for a feature program: the game spec, its feature names, the program."""
    return {"format": FORMAT, "game": game.spec, "policy": policy, "depth": int(depth), "opponents": opponents,
            "features": list(game.feature_names()), "primitive_set": pset.to_dict(), "program": program.to_dict(),
            "size": program.size, "notation": gp.to_notation(program, pset)}


def make(config: dict, **options) -> GPEvolution:
    return generic.configured("gp", GPEvolution, config, options)


def report(folder) -> str:
    return run_report.report(folder, "gp")


export = run_report.export
