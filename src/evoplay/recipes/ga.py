"""The ``ga`` recipe: evolve the weights of a linear evaluation for any game that gives features
(``evoplay evolve ga --game SPEC``).

Two genomes (``[genome] kind``):

- ``"bits"`` (seed 001's GA): one signed ``bits``-bit field per feature, ``w0`` .. ``w{n-1}`` (the weight is its
  value / 2**(bits-1)), plus an optional ``depth`` field (``evoplay.ga.Schema``); genomes breed by elitism,
  parent selection, crossover and per-bit flip mutation (``evoplay.ga``);
- ``"real"``: one real weight per feature, searched by CMA-ES (``evoplay.ga.cmaes``, pycma), which adapts the
  step size and the correlations between weights from the ranking of each generation.

Either way the genomes are scored by ``evoplay.evolve.fitness`` and ``weights(best.json)`` plays the champion.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import ConfigError
from evoplay.evolve.selection import select_parents
from evoplay.ga import GENOME_FORMAT, Field, Schema, crossover, flip_mutation
from evoplay.recipes import generic, run_report

FORMAT = GENOME_FORMAT
KINDS = ("bits", "real")
STARTS = ("zero", "outcomes", "search")
CMA_KEY = 0xC3A  # the CMA-ES generator's key in the run seed's derivation


def feature_schema(n_features: int, bits: int, depth_bits: int = 0, names=None) -> Schema:
    """One signed weight field per feature (``w<i>``, its help the feature's name) and an optional depth field."""
    from evoplay.agents.feature_player import weight_field

    if not 2 <= bits <= 16:
        raise ConfigError(f"genome.bits = {bits}; use 2..16")
    if not 0 <= depth_bits <= 3:
        raise ConfigError(f"genome.depth_bits = {depth_bits}; use 0..3 (searches of up to 8 plies)")
    fields = [Field(weight_field(i), bits, low=-(1 << (bits - 1)), help=str(names[i]) if names else "")
              for i in range(n_features)]
    if depth_bits:
        fields.append(Field("depth", depth_bits, help="search plies - 1"))
    return Schema(fields)


class GAEvolution(generic.GenericEvolution):
    recipe = "ga"

    def __init__(self, config: dict):
        super().__init__(config)
        g = config["genome"]
        self.kind = g.get("kind", "bits")
        if self.kind not in KINDS:
            raise ConfigError(f"genome.kind = {self.kind!r}; use bits (seed 001's bit strings) or real (CMA-ES)")
        self.bits, self.depth_bits = int(g["bits"]), int(g["depth_bits"])
        names = self.view.names()
        self.schema = feature_schema(len(names), self.bits, self.depth_bits, names)
        self.scale = 1.0 / (1 << (self.bits - 1))
        self._cma = None
        if self.kind == "real":
            if self.depth_bits:
                raise ConfigError("genome.depth_bits is for bit-string genomes; a real genome searches "
                                  "player.depth plies (or within player.nodes)")
            from evoplay.arena.match import derive_seed
            from evoplay.ga.cmaes import CmaSearch

            self.cma_args = (len(names), float(g.get("sigma", 0.5)), self.population,
                             derive_seed(self.seed, CMA_KEY))
            CmaSearch(*self.cma_args)  # checks the population and the step size now
            self.warm = (str(g.get("start", "zero")), int(g.get("start_games", 1000)), int(g.get("start_rounds", 2)))
            if self.warm[0] not in STARTS:
                raise ConfigError(f"genome.start = {self.warm[0]!r}; use zero (CMA-ES from zero weights), outcomes "
                                  f"(from weights fitted to the outcomes of seeded games) or search (fitted to the "
                                  f"values of the search that plays them)")
            if self.warm[1] < 1 or not 1 <= self.warm[2] <= 10:
                raise ConfigError("genome.start_games must be >= 1 and genome.start_rounds 1..10")
            self.search_start = {"games": int(g.get("search_games", 200)), "nodes": int(g.get("search_nodes", 300)),
                                 "mix": float(g.get("search_mix", 0.5)), "share": float(g.get("search_share", 0.25))}
            if self.search_start["games"] < 1 or self.search_start["nodes"] < 1:
                raise ConfigError("genome.search_games and genome.search_nodes must be >= 1")
            if not 0 <= self.search_start["mix"] <= 1 or not 0 < self.search_start["share"] <= 0.8:
                raise ConfigError("genome.search_mix must be 0..1 (0: the search's values, 1: the outcomes) and "
                                  "genome.search_share 0..0.8 (of minutes)")
        b = config["breeding"]
        crossover(b["crossover"])
        if b["selection"] not in ("tournament", "roulette"):
            raise ConfigError(f"breeding.selection = {b['selection']!r}; use tournament or roulette")
        if not 0 <= b["elites"] < self.population:
            raise ConfigError(f"breeding.elites = {b['elites']}; use 0..population-1")
        if self.fitness_spec.parsimony != "none":
            raise ConfigError("fitness.parsimony is for programs; a genome has no size (use \"none\")")

    # --- CMA-ES: the strategy lives here, its history in the run's state (rebuilt by replay on resume) -----------
    def cma(self, state: dict):
        from evoplay.ga.cmaes import CmaSearch

        history = state["cma_history"]
        if self._cma is None or len(self._cma.history) != len(history):
            self._cma = CmaSearch.replay(*self.search_args(state), history, x0=state.get("cma_x0"))
            if not np.array_equal(self._cma.ask(), state["population"]):
                raise ConfigError("the checkpoint's population is not the one its CMA-ES history gives; the run's "
                                  "config or evoplay changed since it was written: start a new run")
        return self._cma

    def search_args(self, state: dict) -> tuple:
        """CMA-ES's arguments for this run: from a warm start the first step size is ``sigma`` times the start's
        root-mean-square weight (the fit sets the scale the weights live on; an absolute step would drown its
        direction), from zero it is ``sigma`` itself."""
        n, sigma, popsize, seed = self.cma_args
        x0 = state.get("cma_x0")
        if x0 is not None:
            rms = float(np.sqrt(np.mean(np.square(x0))))
            if rms > 0.0:
                sigma *= rms
        return n, sigma, popsize, seed

    def playoff_extras(self, state: dict) -> list[tuple[object, str, int]]:
        """Beside the best of the last generations, the playoff weighs CMA-ES's mean (its estimate of the best
        weights, which no generation plays) and the warm start, so evolution can never ship worse than its start."""
        if self.kind != "real" or not state.get("cma_history"):
            return []
        extras = [(self.cma(state).mean, "mean", len(state["cma_history"]))]
        if state.get("cma_x0") is not None:
            extras.append((np.asarray(state["cma_x0"], dtype=np.float64), "start", 0))
        return extras

    def start(self, rng):
        if self.kind != "real":
            return super().start(rng)
        from evoplay.ga.cmaes import CmaSearch

        self._cma = CmaSearch(*self.cma_args)
        state = super().start(rng)
        state["cma_history"] = []
        if self.warm[0] == "outcomes":
            state["cma_x0"] = None  # fitted in the first generation, whose time it counts in
        return state

    def step(self, state: dict, generation: int, executor):
        self.use_view(state)
        if self.kind == "real" and "cma_x0" in state and state["cma_x0"] is None:
            from evoplay.ga.cmaes import CmaSearch
            from evoplay.evolve.warm_start import fit_outcomes

            how, games, rounds = self.warm
            if how == "search":
                from evoplay.evolve.warm_start import fit_search

                minutes = float(self.config.get("minutes", 0) or 0)
                s = self.search_start
                state["cma_x0"] = fit_search(self.game, self.view, self.cma_args[3] + 1, s["games"], rounds,
                                             s["nodes"], mix=s["mix"], start_games=games,
                                             seconds=60.0 * minutes * s["share"] if minutes else None)
            else:
                from evoplay.evolve.warm_start import OUTCOMES_SHARE

                minutes = float(self.config.get("minutes", 0) or 0)
                state["cma_x0"] = fit_outcomes(self.game, self.view, self.cma_args[3] + 1, games, rounds,
                                               seconds=60.0 * minutes * OUTCOMES_SHARE if minutes else None)
            self._cma = CmaSearch(*self.search_args(state), x0=state["cma_x0"])
            state["population"] = self._cma.ask()
        return super().step(state, generation, executor)

    def unevaluated(self, state: dict):
        """What ships when no generation was evaluated: the warm start where the first generation fitted one, else
        CMA-ES's mean (the start's own estimate of the best weights), or a bit-string run's first genome."""
        if self.kind == "real":
            if state.get("cma_x0") is not None:
                return np.asarray(state["cma_x0"], dtype=np.float64)
            return self.cma(state).mean
        return super().unevaluated(state)

    def new_population(self, rng):
        if self.kind == "real":
            return self._cma.ask()
        return self.schema.random(self.population, rng)

    def next_population(self, state: dict, res):
        if self.kind != "real":
            return super().next_population(state, res)
        cma = self.cma(state)
        cma.tell(state["population"], res.selection)
        state["cma_history"] = [np.asarray(h) for h in cma.history]
        return cma.ask()

    def weights(self, genome) -> tuple[np.ndarray, int]:
        """A genome's weight vector and the plies it searches."""
        from evoplay.agents.feature_player import decode_weights

        pl = self.config["player"]
        if self.kind == "real":
            return np.asarray(genome, dtype=np.float64), pl["depth"]
        params = self.schema.decode(genome)
        depth = params["depth"] + 1 if self.depth_bits else pl["depth"]
        return decode_weights(params, len(self.view), self.scale), depth

    def agent(self, genome, name: str):
        from evoplay.agents.feature_player import linear_agent

        weights, depth = self.weights(genome)
        pl = self.config["player"]
        return linear_agent(self.game, weights, pl["policy"], depth, pl["opponents"], name, view=self.view,
                            budget=self.train_budget)

    def size(self, genome) -> int:
        return len(genome) if self.kind == "real" else self.schema.length

    def breed(self, population, fitness, rng):
        b = self.config["breeding"]
        fitness = np.asarray(fitness, dtype=np.float64)
        order = np.argsort(-fitness, kind="stable")
        elites = population[order[: b["elites"]]].copy()
        weights = fitness - fitness.min() if b["selection"] == "roulette" else fitness
        pairs = select_parents(weights, len(population) - len(elites), rng, b["selection"], b["tournament_size"],
                               b["distinct_parents"])
        cross = crossover(b["crossover"])
        children = np.array([cross(population[i], population[j], rng) for i, j in pairs], dtype=np.uint8)
        children, _ = flip_mutation(children.reshape(-1, self.schema.length), b["mutation_rate"], rng)
        return np.concatenate([elites, children]).astype(np.uint8)

    def document(self, genome) -> dict:
        pl = self.config["player"]
        doc = {"format": FORMAT, "game": self.game.spec, "features": self.view.names(), "policy": pl["policy"],
               "opponents": pl["opponents"]}
        if self.train_budget:
            doc["nodes"] = self.train_budget.nodes
        if self.kind == "real":
            return {**doc, "weights": [float(w) for w in genome], "depth": int(pl["depth"])}
        params = self.schema.decode(genome)
        return {**doc, "schema": self.schema.to_list(), "genome": Schema.to_string(genome), "params": params,
                "weight_scale": self.scale, "depth": params["depth"] + 1 if self.depth_bits else pl["depth"]}


def make(config: dict, **options) -> GAEvolution:
    return generic.configured("ga", GAEvolution, config, options)


def report(folder) -> str:
    return run_report.report(folder, "ga")


export = run_report.export
