"""The ``ga`` recipe: evolve the weights of a linear evaluation for any game that gives features
(``evoplay evolve ga --game SPEC``).

The genome (``evoplay.ga.Schema``) is one signed ``bits``-bit field per feature, ``w0`` .. ``w{n-1}`` (the weight
is its value / 2**(bits-1)), plus an optional ``depth`` field; genomes breed by elitism, parent selection,
crossover and per-bit flip mutation (``evoplay.ga``), and are scored by ``evoplay.evolve.fitness``;
``weights(best.json)`` plays the champion.
"""
from __future__ import annotations

import numpy as np

from evoplay.errors import ConfigError
from evoplay.ga import Field, Schema, crossover, flip_mutation, select_parents
from evoplay.recipes import generic

FORMAT = "evoplay-weights/1"


def feature_schema(n_features: int, bits: int, depth_bits: int = 0, names=None) -> Schema:
    """One signed weight field per feature (``w<i>``, its help the feature's name) and an optional depth field."""
    from evoplay.agents.program import weight_field

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
        self.bits, self.depth_bits = int(g["bits"]), int(g["depth_bits"])
        self.schema = feature_schema(self.game.num_features(), self.bits, self.depth_bits, self.game.feature_names())
        self.scale = 1.0 / (1 << (self.bits - 1))
        b = config["breeding"]
        crossover(b["crossover"])
        if b["selection"] not in ("tournament", "roulette"):
            raise ConfigError(f"breeding.selection = {b['selection']!r}; use tournament or roulette")
        if not 0 <= b["elites"] < self.population:
            raise ConfigError(f"breeding.elites = {b['elites']}; use 0..population-1")
        if self.fitness_spec.parsimony != "none":
            raise ConfigError("fitness.parsimony is for programs; a genome has no size (use \"none\")")

    def new_population(self, rng):
        return self.schema.random(self.population, rng)

    def agent(self, bits, name: str):
        from evoplay.agents.program import decode_weights, linear_agent

        params = self.schema.decode(bits)
        pl = self.config["player"]
        depth = params["depth"] + 1 if self.depth_bits else pl["depth"]
        weights = decode_weights(params, self.game.num_features(), self.scale)
        return linear_agent(self.game, weights, pl["policy"], depth, pl["opponents"], name)

    def size(self, bits) -> int:
        return self.schema.length

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

    def document(self, bits) -> dict:
        pl = self.config["player"]
        params = self.schema.decode(bits)
        return {"format": FORMAT, "game": self.game.spec, "schema": self.schema.to_list(),
                "genome": Schema.to_string(bits), "params": params, "features": list(self.game.feature_names()),
                "weight_scale": self.scale, "policy": pl["policy"], "opponents": pl["opponents"],
                "depth": params["depth"] + 1 if self.depth_bits else pl["depth"]}


def make(config: dict, **options) -> GAEvolution:
    return generic.configured("ga", GAEvolution, config, options)


def report(folder) -> str:
    return generic.report(folder, "ga")


export = generic.export
