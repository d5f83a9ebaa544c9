"""The ``gp`` recipe: evolve a GP player for any game that gives features (``evoplay evolve gp --game SPEC``).

Programs come from ``evoplay.gp`` (the game's primitive set: its features, ephemeral constants, the configured
functions), breed by seed 003's Koza step or seed 000's split plan under a size and depth limit
(``evoplay.evolve.bloat``), and are scored by ``evoplay.evolve.fitness``; ``gp(best.json)`` plays the champion.
"""
from __future__ import annotations

import numpy as np

from evoplay import gp
from evoplay.errors import ConfigError, SpecError
from evoplay.evolve.bloat import SizeDepthLimit
from evoplay.gp import program as gp_program
from evoplay.gp.primitives import CONST, EPHEMERAL
from evoplay.gp.program import PROGRAM_FORMAT
from evoplay.recipes import generic

FORMAT = PROGRAM_FORMAT
BASES = ("none", "outcomes")


class GPEvolution(generic.GenericEvolution):
    recipe = "gp"

    def __init__(self, config: dict):
        super().__init__(config)
        from evoplay.agents.program import game_primitive_set

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
            from evoplay.evolve.warm_start import fit_outcomes

            games, rounds = self.base_fit
            state["base"] = fit_outcomes(self.game, self.view, self.seed + 0xBA5E, games, rounds)
            self.base = state["base"]
        return super().step(state, generation, executor)

    # --- individuals ----------------------------------------------------------------------------------------
    def new_population(self, rng):
        p = self.config["program"]
        return gp.population(self.pset, rng, self.population, p["init_method"], p["init_min_depth"],
                             p["init_max_depth"])

    def agent(self, program, name: str):
        from evoplay.agents.program import program_agent

        pl = self.config["player"]
        return program_agent(self.game, program, pl["policy"], pl["depth"], pl["opponents"], name, view=self.view,
                             budget=self.train_budget, base=self.base)

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
        return doc


def program_document(game, program, pset, policy: str, depth: int, opponents: str) -> dict:
    """The JSON ``gp(FILE)`` reads for a feature program: the game spec, its feature names, the program."""
    return {"format": FORMAT, "game": game.spec, "policy": policy, "depth": int(depth), "opponents": opponents,
            "features": list(game.feature_names()), "primitive_set": pset.to_dict(), "program": program.to_dict(),
            "size": program.size, "notation": gp.to_notation(program, pset)}


def make(config: dict, **options) -> GPEvolution:
    return generic.configured("gp", GPEvolution, config, options)


def report(folder) -> str:
    return generic.report(folder, "gp")


export = generic.export
