"""Seed 001's genetic algorithm: round-robin tournaments of alpha-beta players whose evaluation is a genome.

One round: every competitor plays every other once in each seat (n(n-1) games on the arena, so results do
not depend on the executor); fitness = 5 x wins + draws - 4 x losses; competitors with fitness <= 0 are
removed; each empty place gets a child of two survivors drawn with probability proportional to fitness
(uniform crossover); then every bit of every competitor flips with probability 0.01. The run stops after
``generations`` rounds or when every game of ``convergence.draw_rounds`` consecutive rounds was a draw.

Edge cases, decided here:

- every competitor culled: impossible with the seed's fitness (a decisive game adds 5 - 4 = 1 to the
  population's total, a draw 1 + 1 = 2, so the total is positive and someone survives), but possible with other
  ``[fitness]`` weights or thresholds. Then the whole population is replaced by children of parents drawn
  uniformly from it: the round kept no one, and no one was better than another.
- a single survivor: both parents are that survivor, so every child is its clone until mutation changes it.
- all fitness equal: above the threshold, nobody is removed, no child is born and mutation alone changes the
  population (the seed fills only empty places); at or below it, the case above.
- parents: drawn with replacement across children; a child's two parents are distinct competitors when two or
  more survived (``breeding.distinct_parents``).

Beyond the seed, ``fitness.hosts`` adds fixed opponents (e.g. ``alphabeta(depth=2,random_ties=true)``) that
every competitor also plays ``fitness.host_games`` times each round; those results count in its fitness (the
"host" idea of coevolution: a yardstick the population cannot drift away from). Host losses are not balanced
by anyone's wins, so with hosts everyone can be culled: the rule above applies.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from evoplay.errors import ConfigError, SpecError
from evoplay.evolve.config import config_game, require, require_agents
from evoplay.evolve.reports import progression_markdown, score, wdl_markdown
from evoplay.evolve.selection import select_parents
from evoplay.ga import crossover, flip_mutation


def evaluation_name(config: dict) -> str:
    """``search.evaluation``: "alphabeta" (the genome's evaluation under alpha-beta; its old name "seed001" still
    works) or "threats" (the genome extended by open windows and forks, under the threat search)."""
    name = config["search"].get("evaluation", "alphabeta")
    return "alphabeta" if name == "seed001" else name


def _game_and_schema(config: dict):
    """The run's game, its genome evaluation (``Game.players["genome"]``) and the genome schema it evolves."""
    game = config_game(config)
    genome = game.player("genome")
    if genome is None:
        raise ConfigError(f"game = {config['game']!r}: the GA evolves a genome of a game's own evaluation, so it "
                          f"plays mnk(...) or kalah(...)")
    return game, genome, genome.schema(game, config["genome"]["fields"], evaluation_name(config))


def _check(config: dict) -> None:
    require(config["population"] >= 2, f"population = {config['population']}: a round robin needs at least 2")
    require(config["generations"] >= 1, f"generations = {config['generations']}: run at least 1 round")
    b = config["breeding"]
    crossover(b["crossover"])
    require(b["selection"] in ("roulette", "tournament"),
            f"breeding.selection = {b['selection']!r}; use \"roulette\" or \"tournament\"")
    require(b["tournament_size"] >= 1, f"breeding.tournament_size = {b['tournament_size']}; use 1 or more")
    require(0.0 <= b["mutation_rate"] <= 1.0, f"breeding.mutation_rate = {b['mutation_rate']}; a probability 0..1")
    from evoplay.games.mnk.search import SCHEDULE_ALIASES, SCHEDULES

    schedule = dict(SCHEDULE_ALIASES).get(config["search"]["schedule"], config["search"]["schedule"])
    require(schedule in SCHEDULES, f"search.schedule = {config['search']['schedule']!r}; use "
            + " or ".join(f'"{s}"' for s in SCHEDULES))
    require(config["search"]["depth"] >= 1, "search.depth: use 1 or more")
    require(config["search"].get("nodes", 0) >= 0, "search.nodes: use 0 (search to the depth) or a node budget")
    evaluation = evaluation_name(config)
    require(evaluation in ("alphabeta", "threats"),
            f"search.evaluation = {config['search'].get('evaluation')!r}; use \"alphabeta\" or \"threats\"")
    require(not config["search"].get("nodes", 0) or str(config["game"]).startswith("kalah") or evaluation == "threats",
            f"search.nodes = {config['search'].get('nodes')}: a node budget is for Kalah and m,n,k threat runs; an "
            "m,n,k run of the seed's evaluation uses 0")
    require(config["search"]["streaks"] in ("all", "live"),
            f"search.streaks = {config['search']['streaks']!r}; use \"all\" (the seed's) or \"live\"")
    require(config["convergence"]["draw_rounds"] >= 0, "convergence.draw_rounds: use 0 (never) or more")
    bl = config["baselines"]
    require(bl["every"] >= 0 and bl["games"] >= 0, "baselines.every and baselines.games must be 0 or more")
    require(bl["games"] % 2 == 0, f"baselines.games = {bl['games']}: use an even number (half in each seat)")
    require(bl["choose"] in ("baselines",
            "last"), f"baselines.choose = {bl['choose']!r}; use \"baselines\" or \"last\"")
    require(bl["final_games"] >= 0 and bl["final_games"] % 2 == 0,
            f"baselines.final_games = {bl['final_games']}: use an even number (half in each seat), 0 for none")
    hg = config["fitness"]["host_games"]
    require(hg >= 0 and hg % 2 == 0, f"fitness.host_games = {hg}: use an even number (half in each seat), 0 for none")


class MnkGA:
    """The evolution object of the recipe (see evoplay.evolve.loop)."""

    def __init__(self, config: dict):
        _check(config)
        self.config = config
        self.game, self.genome, self.schema = _game_and_schema(config)
        self.generations = int(config["generations"])
        self.population = int(config["population"])
        self.seed = int(config.get("seed", 0))
        self.baseline_specs = list(config["baselines"]["agents"])
        self.host_specs = list(config["fitness"]["hosts"])
        require_agents({"baselines.agents": self.baseline_specs, "fitness.hosts": self.host_specs}, self.game)

    # --- agents ---------------------------------------------------------------------------------------------
    def agent(self, bits, name: str):
        s = self.config["search"]
        return self.genome.agent(self.game, self.schema.decode(bits), schedule=s["schedule"],
                                 random_ties=s["random_ties"], depth=s["depth"], streaks=s["streaks"], spec=name,
                                 nodes=s.get("nodes", 0))

    def fitness(self, wins, draws, losses) -> np.ndarray:
        f = self.config["fitness"]
        return f["win"] * np.asarray(wins) + f["draw"] * np.asarray(draws) + f["loss"] * np.asarray(losses)

    def results_against(self, champion, pool, names, per_seat, seed, executor=None, round_key=0) -> dict:
        """The champion's wins, draws, losses and fitness against each agent of ``pool`` (a gauntlet)."""
        from evoplay.arena import gauntlet

        table = gauntlet(self.game, [champion], pool, per_seat, seed=seed, executor=executor,
                         round_key=round_key).pair_table()
        out = {}
        for j, name in enumerate(names):
            w, d, l_ = (int(x) for x in table[0, j + 1])
            out[name] = {"wins": w, "draws": d, "losses": l_, "fitness": int(self.fitness(w, d, l_))}
        return out

    # --- the loop -------------------------------------------------------------------------------------------
    def start(self, rng: np.random.Generator) -> dict:
        return {"population": self.schema.random(self.population, rng), "rng": rng, "draw_streak": 0,
                "initial_best": None, "best": None}

    def done(self, state: dict) -> bool:
        rounds = self.config["convergence"]["draw_rounds"]
        return rounds > 0 and state["draw_streak"] >= rounds

    def step(self, state: dict, generation: int, executor) -> tuple[dict, dict]:
        from evoplay.arena import round_robin

        pop = state["population"]
        rng: np.random.Generator = state["rng"]
        agents = [self.agent(bits, f"g{generation}.{i}") for i, bits in enumerate(pop)]
        result = round_robin(self.game, agents, 1, seed=self.seed, executor=executor, round_key=generation)
        stats = result.stats()
        wins, draws, losses = (np.array([getattr(s, k) for s in stats]) for k in ("wins", "draws", "losses"))
        host_record = {}
        if self.host_specs and self.config["fitness"]["host_games"]:
            hw, hd, hl = self._host_games(agents, generation, executor)
            wins, draws, losses = wins + hw, draws + hd, losses + hl
            host_games = int((hw + hd + hl).sum())
            host_record = {"host_games": host_games, "host_wins": int(hw.sum()), "host_draws": int(hd.sum()),
                           "host_losses": int(hl.sum())}
        fit = self.fitness(wins, draws, losses)
        games = len(result.records)
        drawn = sum(1 for r in result.records if r.returns[0] == 0)
        first_wins = sum(1 for r in result.records if r.returns[0] > 0)
        best = int(np.argmax(fit))
        best_bits = pop[best].copy()
        if state["initial_best"] is None:
            state["initial_best"] = best_bits.copy()
        state["best"] = {
            "genome": best_bits, "round": generation, "fitness": int(fit[best]),
            "wins": int(wins[best]), "draws": int(draws[best]), "losses": int(losses[best]),
        }
        record = {
            "best": int(fit[best]), "mean": float(fit.mean()), "worst": int(fit.min()),
            "games": games, "draw_share": drawn / games if games else 0.0,
            "first_seat_wins": first_wins, "mean_moves": float(np.mean([r.moves for r in result.records])),
            "mean_depth": float(np.mean([a.genome_depth for a in agents])),
            "best_params": self.schema.decode(best_bits),
            **host_record,
        }
        record["baselines"] = self._baselines(state, generation, executor)
        state["draw_streak"] = state["draw_streak"] + 1 if games and drawn == games else 0

        new_pop, info = breed(pop, fit, self.config, rng)
        state["population"] = new_pop
        record.update(info)
        record["draw_streak"] = state["draw_streak"]
        return state, record

    def _host_games(self, agents, generation: int, executor):
        """Every competitor against every host (fixed agents, never bred), half the games in each seat."""
        from evoplay.agents import make_agent
        from evoplay.arena import gauntlet

        hosts = [make_agent(spec, self.game) for spec in self.host_specs]
        per_seat = self.config["fitness"]["host_games"] // 2
        result = gauntlet(self.game, agents, hosts, per_seat, seed=self.seed + 101, executor=executor,
                          round_key=generation)
        table = result.pair_table()[: len(agents), len(agents):]  # competitor x host x (w, d, l)
        totals = table.sum(axis=1)
        return totals[:, 0], totals[:, 1], totals[:, 2]

    def _baselines(self, state: dict, generation: int, executor) -> dict:
        from evoplay.agents import make_agent

        bl = self.config["baselines"]
        if not bl["every"] or not bl["games"] or generation % bl["every"] != 0:
            return {}
        champion = self.agent(state["best"]["genome"], "round best")
        groups = [(list(self.baseline_specs), [make_agent(s, self.game) for s in self.baseline_specs], bl["games"])]
        if bl["initial_best"]:
            # Two deterministic players play the same game every time: one game per seat says it all.
            per_seat = bl["games"] // 2 if self.config["search"]["random_ties"] else 1
            groups.append((["initial best"], [self.agent(state["initial_best"], "initial best")], 2 * per_seat))
        out = {}
        for key, (names, pool, games) in enumerate(groups):
            out.update(self.results_against(champion, pool, names, games // 2, self.seed + 1 + key, executor,
                                            generation))
        return out

    def finish(self, state: dict, folder) -> None:
        write_results(self, state, folder)


def breed(pop: np.ndarray, fit: np.ndarray, config: dict, rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    """Cull, fill the empty places with children, mutate everyone; returns the new population and counts."""
    b = config["breeding"]
    threshold = config["fitness"]["cull_at_or_below"]
    survivors = np.flatnonzero(fit > threshold)
    empty = np.flatnonzero(fit <= threshold)
    new = pop.copy()
    if len(empty):
        if len(survivors):
            parents_pool, weights = survivors, fit[survivors].astype(np.float64) - threshold
        else:  # everyone culled: no one was kept and no one was better; parents uniformly from everyone
            parents_pool, weights = np.arange(len(pop)), np.zeros(len(pop))
        pairs = select_parents(weights, len(empty), rng, b["selection"], b["tournament_size"],
                               b["distinct_parents"])
        cross = crossover(b["crossover"])
        for place, (i, j) in zip(empty, parents_pool[pairs]):
            new[place] = cross(pop[i], pop[j], rng)
    new, flips = flip_mutation(new, b["mutation_rate"], rng)
    return new, {"survivors": int(len(survivors)), "children": int(len(empty)), "mutations": flips}


def make(config: dict, **options) -> MnkGA:
    """The evolution of a resolved config; keys a config lacks (a run folder made by an older evoplay) take
    today's defaults, which leave the seed's algorithm as it was."""
    from evoplay.evolve.config import load_config, merge

    if options.get("levels"):
        raise ConfigError("--levels is for the gp, ga and sevens recipes; the mnk recipe has no difficulty levels")
    return MnkGA(merge(load_config("mnk"), config, "the mnk config"))


def choose_champion(evo: MnkGA, state: dict, log: list[dict]) -> dict:
    """The genome a run hands back (``baselines.choose``).

    "baselines": of the rounds' best genomes, the one that scored the highest fitness (5w + d - 4l) against
    the fixed baselines in its round (ties: the later round); the round-robin fitness alone is relative to a
    drifting population, the baselines are a fixed yardstick. "last": the best of the last round, as the seed
    would have it. Either way ``final_strength`` then measures it afresh on new seeds.
    """
    last = state["best"]
    choice = {"genome": last["genome"], "round": last["round"], "fitness": last["fitness"], "chosen_by": "last",
              "wins": last["wins"], "draws": last["draws"], "losses": last["losses"]}
    if evo.config["baselines"]["choose"] != "baselines":
        return choice
    scored = [r for r in log if r.get("baselines") and "best_params" in r]
    if not scored:
        return choice

    def score(r):
        return sum(v["fitness"] for k, v in r["baselines"].items() if k != "initial best")

    pick = max(scored, key=lambda r: (score(r), r["generation"]))
    if pick["generation"] == last["round"]:
        return dict(choice, chosen_by="baselines")
    return {"genome": evo.schema.encode(pick["best_params"]), "round": pick["generation"], "fitness": pick["best"],
            "chosen_by": "baselines", "baseline_fitness": score(pick)}


def final_strength(evo: MnkGA, state: dict, genome) -> dict:
    """The chosen genome against every baseline in ``baselines.final_games`` fresh games (new seeds)."""
    from evoplay.agents import make_agent

    games = evo.config["baselines"]["final_games"]
    if not games:
        return {}
    names = list(evo.baseline_specs)
    pool = [make_agent(spec, evo.game) for spec in names]
    if evo.config["baselines"]["initial_best"] and state["initial_best"] is not None:
        names.append("initial best")
        pool.append(evo.agent(state["initial_best"], "initial best"))
    champion = evo.agent(genome, "best")
    out = {}
    for j, (name, agent) in enumerate(zip(names, pool)):
        deterministic = name == "initial best" and not evo.config["search"]["random_ties"]
        per_seat = 1 if deterministic else games // 2
        out.update(evo.results_against(champion, [agent], [name], per_seat, evo.seed + 7919, round_key=j))
    return out


def write_results(evo: MnkGA, state: dict, folder) -> None:
    from evoplay.agents.weights import weights_document
    from evoplay.evolve.plots import plot_bars, plot_columns, plot_log, plot_series

    s = evo.config["search"]

    def document(genome, **extra):
        return weights_document(evo.game, evo.schema, genome, schedule=s["schedule"], streaks=s["streaks"],
                                depth=s["depth"], nodes=s.get("nodes", 0), **extra)

    log = folder.read_log()
    best = choose_champion(evo, state, log)
    final = final_strength(evo, state, best["genome"])
    extra = {k: v for k, v in best.items() if k != "genome"}
    folder.write_json("best.json", document(best["genome"], **extra, final=final, recipe="mnk", seed=evo.seed))
    last = state["best"]
    folder.write_json("last_best.json", document(last["genome"], round=last["round"], fitness=last["fitness"]))
    if state["initial_best"] is not None:
        folder.write_json("initial_best.json", document(state["initial_best"], round=0))
    folder.write_text("progression.md", progression_markdown(log))
    plot_log(folder, f"{evo.game.spec}: fitness of the round robin")
    plot_columns(folder.file("draws.png"), f"{evo.game.spec}: share of drawn games per round", log,
                 {"draw_share": "draw share"}, "share of games")
    names = sorted({n for r in log for n in r.get("baselines", {})})
    if names:
        series = {n: [score(r["baselines"][n]) for r in log if n in r.get("baselines", {})] for n in names}
        bx = [r["generation"] for r in log if r.get("baselines")]
        plot_series(folder.file("baselines.png"), f"{evo.game.spec}: the round's best against the baselines", bx,
                    series, "score (wins + draws / 2) per game")
    params, title = evo.schema.decode(best["genome"]), f"best genome (round {best['round']}, fitness {best['fitness']})"
    draw = getattr(evo.genome, "draw", None)  # a picture of its own (the m,n,k board), else bars
    if draw is not None:
        draw(evo.game, params, folder.file("best.png"), title)
    else:
        plot_bars(folder.file("best.png"), f"{evo.game.spec}: {title}", params)


def report(folder) -> str:
    log = folder.read_log()
    lines = [f"run {folder.path}: recipe mnk, game {folder.config['game']}, population {folder.config['population']}"]
    if not log:
        return lines[0] + "\nno round has finished yet"
    last = log[-1]
    lines.append(f"rounds played: {len(log)}; last round: best {last['best']}, mean {last['mean']:.1f}, "
                 f"worst {last['worst']}, draws {100 * last['draw_share']:.0f} %, {last['games']} games, "
                 f"{last['seconds']:.1f} s")
    if folder.file("best.json").exists():
        doc = folder.read_json("best.json")
        wdl = f" ({doc['wins']}/{doc['draws']}/{doc['losses']} W/D/L)" if "wins" in doc else ""
        lines.append(f"best genome: round {doc['round']}, round-robin fitness {doc['fitness']}{wdl}, chosen by "
                     f"{doc.get('chosen_by', 'last')} -> {folder.file('best.json')}")
        lines.append("  " + ", ".join(f"{k}={v}" for k, v in doc["params"].items()))
        if doc.get("final"):
            lines.append(f"its strength in fresh games (chosen by: {doc.get('chosen_by', 'last')}):")
            lines.append(wdl_markdown(doc["final"]))
        game = doc["game"] if "(" not in doc["game"] else f"'{doc['game']}'"
        lines.append(f"play it: evoplay play {game} --vs 'weights({folder.file('best.json')})'")
        lines.append(f"pictures: {folder.file('best.png')}, {folder.file('fitness.png')}, "
                     f"{folder.file('draws.png')}, {folder.file('baselines.png')}")
    else:
        lines.append(f"the run has not finished: evoplay resume {folder.path}")
    lines.append("progression of each round's best against the baselines (W/D/L, fitness 5w+d-4l):")
    lines.append(progression_markdown(log))
    return "\n".join(lines)


def export(folder, lang: str) -> Path:
    """The best genome as a standalone Python or Lua player: its parameters, evaluation and alpha-beta (its game's
    genome evaluation writes it: ``evoplay.games.mnk.export``, ``evoplay.games.kalah.export``).

    The exported ``choose_move`` picks the same move as ``weights(best.json)`` (ties to the lowest action).
    """
    from evoplay.agents.weights import game_genome, load_weights
    from evoplay.games import load_game
    from evoplay.gp import LANGUAGES

    if lang not in LANGUAGES:
        raise SpecError(f"unknown language '{lang}'; known: {', '.join(LANGUAGES)}")
    doc = load_weights(folder.file("best.json"))
    game = load_game(doc["game"])
    text = game_genome(game).export(game, doc, lang)
    return folder.write_text("best.py" if lang == "python" else "best.lua", text)
