"""What the ``gp`` and ``ga`` recipes share: the generation step over evoplay.evolve.fitness, the hall of fame,
the champion, best.json, the champion's fresh games, the report and the exports."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from evoplay.errors import ConfigError, SpecError
from evoplay.evolve.fitness import FitnessSpec, evaluate_population, strength

LANGUAGES = ("python", "lua")


def load_game_of(config: dict):
    from evoplay.games import load_game

    try:
        game = load_game(config["game"])
        game.feature_names()
    except SpecError as err:
        raise ConfigError(f"game: {err}") from None
    return game


def check_player(config: dict) -> None:
    from evoplay.agents.program import MAX_DEPTH, OPPONENTS, POLICIES

    p = config["player"]
    if p["policy"] not in POLICIES:
        raise ConfigError(f"player.policy = {p['policy']!r}; use one of {', '.join(POLICIES)}")
    if p["opponents"] not in OPPONENTS:
        raise ConfigError(f"player.opponents = {p['opponents']!r}; use one of {', '.join(OPPONENTS)}")
    if not 1 <= p["depth"] <= MAX_DEPTH:
        raise ConfigError(f"player.depth = {p['depth']}; use 1..{MAX_DEPTH}")
    if config["population"] < 2 or config["generations"] < 1:
        raise ConfigError("population must be >= 2 and generations >= 1")


class GenericEvolution:
    """A generational evolution of feature players. Subclasses give ``new_population(rng)``,
    ``agent(individual, name)``, ``size(individual)``, ``breed(population, fitness, rng)`` and
    ``document(individual)`` (the best.json of an individual)."""

    recipe = "generic"

    def __init__(self, config: dict):
        check_player(config)
        self.config = config
        self.game = load_game_of(config)
        self.fitness_spec = FitnessSpec.from_config(config["fitness"], self.game)
        self.generations = int(config["generations"])
        self.population = int(config["population"])
        self.seed = int(config.get("seed", 0))
        r = config["report"]
        self.report_specs = list(dict.fromkeys(list(self.fitness_spec.opponents) + list(r["opponents"])))
        from evoplay.agents import make_agent

        for s in r["opponents"]:
            try:
                make_agent(s, self.game)
            except SpecError as err:
                raise ConfigError(f"report.opponents: {err}") from None

    # --- the loop -------------------------------------------------------------------------------------------
    def start(self, rng: np.random.Generator) -> dict:
        return {"population": self.new_population(rng), "rng": rng, "hall": [], "best": None}

    def step(self, state: dict, generation: int, executor) -> tuple[dict, dict]:
        pop = state["population"]
        rng = state["rng"]
        agents = [self.agent(ind, f"g{generation}.{i}") for i, ind in enumerate(pop)]
        hall = [self.agent(ind, f"hall {k}") for k, ind in enumerate(state["hall"])]
        sizes = [self.size(ind) for ind in pop]
        res = evaluate_population(self.game, agents, self.fitness_spec, self.seed, generation, executor, hall,
                                  sizes)
        fit = res.fitness
        best = int(np.argmax(fit))
        summary = res.summary(best)
        if state["best"] is None or fit[best] >= state["best"]["fitness"]:
            state["best"] = {"individual": pop[best].copy(), "fitness": float(fit[best]), "generation": generation,
                             "summary": summary}
        if self.fitness_spec.hall_of_fame:
            state["hall"] = (state["hall"] + [pop[best].copy()])[-self.fitness_spec.hall_of_fame:]
        record = {"best": float(fit[best]), "mean": float(fit.mean()), "worst": float(fit.min()),
                  "best_score": float(res.score[best]), "mean_size": float(np.mean(sizes)),
                  "max_size": int(np.max(sizes)), "games": int(res.games.sum()),
                  "best_wdl": [summary["wins"], summary["draws"], summary["losses"]],
                  "opponents": summary["opponents"]}
        state["population"] = self.breed(pop, fit, rng)
        return state, record

    def finish(self, state: dict, folder) -> None:
        from evoplay.evolve.plots import plot_log

        best = state["best"]
        champion = self.agent(best["individual"], "champion")
        games = int(self.config["report"]["games"])
        final = strength(self.game, champion, self.report_specs, games, self.seed + 7919) if games else {}
        doc = self.document(best["individual"])
        doc.update(recipe=self.recipe, seed=self.seed, generation=best["generation"], fitness=best["fitness"],
                   during_run=best["summary"], final=final)
        folder.write_json("best.json", doc)
        plot_log(folder, f"{self.recipe} on {self.game.spec}")


def final_table(final: dict) -> str:
    lines = ["| opponent | games | wins | draws | losses | win rate (draws half) |", "| --- | --- | --- | --- | --- | --- |"]
    for name, r in final.items():
        lines.append(f"| {name} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | "
                     f"{100 * r['win_rate']:.1f} % |")
    return "\n".join(lines)


def report(folder, recipe: str) -> str:
    log = folder.read_log()
    c = folder.config
    lines = [f"run {folder.path}: recipe {recipe}, game {c['game']}, population {c['population']}, "
             f"policy {c['player']['policy']}" + (f" (depth {c['player']['depth']})"
                                                  if c['player']['policy'] == "search" else "")]
    if not log:
        return lines[0] + "\nno generation has finished yet"
    last = log[-1]
    lines.append(f"generations: {len(log)}; last: best {last['best']:.4g}, mean {last['mean']:.4g}, worst "
                 f"{last['worst']:.4g}, mean size {last['mean_size']:.1f}, {last['games']} games, "
                 f"{last['seconds']:.1f} s")
    if folder.file("best.json").exists():
        doc = folder.read_json("best.json")
        lines.append(f"champion: generation {doc['generation']}, fitness {doc['fitness']:.4g} -> "
                     f"{folder.file('best.json')}")
        if doc.get("notation"):
            lines.append(f"  program ({doc['size']} nodes): {doc['notation']}")
        if doc.get("final"):
            lines.append("its strength in fresh games, every seat:")
            lines.append(final_table(doc["final"]))
        kind = "gp" if recipe == "gp" else "weights"
        game = doc["game"] if "(" not in doc["game"] else f"'{doc['game']}'"
        lines.append(f"play it: evoplay play {game} --vs '{kind}({folder.file('best.json')})'")
        lines.append(f"export it: evoplay export {folder.path} --lang python")
        lines.append(f"plots: {folder.file('fitness.png')}, {folder.file('size.png')}")
    else:
        lines.append(f"the run has not finished: evoplay resume {folder.path}")
    return "\n".join(lines)


def export(folder, lang: str) -> Path:
    """The champion as a standalone Python player (its evaluation over the feature vector and ``choose(state)``),
    or for a built-in game the evaluation function in Lua."""
    from evoplay.gp.export import feature_player_python, feature_value_lua

    if lang not in LANGUAGES:
        raise SpecError(f"unknown language '{lang}'; known: {', '.join(LANGUAGES)}")
    doc = folder.read_json("best.json")
    if lang == "python":
        return folder.write_text("best.py", feature_player_python(doc))
    if ".py:" in doc["game"] or doc["game"].startswith("openspiel:"):
        raise SpecError("Lua export is for the built-in games (their rules exist in Lua form); export a file or "
                        "OpenSpiel game's player with --lang python")
    return folder.write_text("best.lua", feature_value_lua(doc))


def configured(recipe: str, evolution_class, config: dict, options: dict):
    """A generic recipe's Evolution: ``config`` merged over the recipe's defaults (``make`` of gp and ga)."""
    from evoplay.evolve.config import load_config, merge

    if options.get("levels"):
        raise ConfigError("--levels is for the sevens recipe")
    return evolution_class(merge(load_config(recipe), config, f"the {recipe} config"))
