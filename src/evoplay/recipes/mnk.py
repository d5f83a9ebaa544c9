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

import json
from pathlib import Path

import numpy as np

from evoplay.errors import ConfigError, SpecError
from evoplay.ga import Schema, crossover, flip_mutation, select_parents

SEAT_NAMES = ("first", "second")


# --------------------------------------------------------------------------------------------------------------
# Configuration.
# --------------------------------------------------------------------------------------------------------------


def _game_and_schema(config: dict):
    from evoplay.agents.weights import DEPTH_FIELD, mnk_schema
    from evoplay.games import load_game
    from evoplay.games.kalah.game import KalahGame
    from evoplay.games.mnk.game import MnkGame

    try:
        game = load_game(config["game"])
    except SpecError as err:
        raise ConfigError(f"game = {config['game']!r}: {err}") from None
    fields = config["genome"]["fields"]
    if isinstance(game, MnkGame):
        if fields:
            raise ConfigError(
                "genome.fields is for Kalah; an m,n,k run uses seed 001's genome for its board (leave it empty)"
            )
        if config["search"].get("evaluation", "seed001") == "threats":
            from evoplay.games.mnk.threats import threat_schema

            schema = threat_schema(game.m, game.n, game.k)  # the seed's genome plus open windows and forks
        else:
            schema = mnk_schema(game.m, game.n, game.k)
    elif isinstance(game, KalahGame):
        from evoplay.games.kalah.search_weights import FEATURES

        if not fields:
            raise ConfigError(
                "a Kalah run needs a genome: [[genome.fields]] tables with name (one of "
                f"{', '.join(FEATURES)}, {DEPTH_FIELD}), bits and low; see src/evoplay/recipes/mnk_kalah.toml"
            )
        schema = Schema.from_list(fields, "genome.fields")
        unknown = [n for n in schema.names if n not in FEATURES and n != DEPTH_FIELD]
        if unknown:
            raise ConfigError(
                f"genome.fields: {', '.join(unknown)} is not a Kalah feature; "
                f"known: {', '.join(FEATURES)} and {DEPTH_FIELD}"
            )
        if DEPTH_FIELD in schema.names:
            f = schema.field(DEPTH_FIELD)
            if f.low < 0 or f.high > 20:
                raise ConfigError(f"genome field {DEPTH_FIELD}: range {f.low}..{f.high}; keep it within 0..20")
    else:
        raise ConfigError(f"game = {config['game']!r}: the GA plays mnk(...) or kalah(...)")
    return game, schema


def _check(config: dict) -> None:
    def need(ok: bool, message: str):
        if not ok:
            raise ConfigError(message)

    need(config["population"] >= 2, f"population = {config['population']}: a round robin needs at least 2")
    need(config["generations"] >= 1, f"generations = {config['generations']}: run at least 1 round")
    b = config["breeding"]
    crossover(b["crossover"])
    need(b["selection"] in ("roulette", "tournament"),
         f"breeding.selection = {b['selection']!r}; use \"roulette\" or \"tournament\"")
    need(b["tournament_size"] >= 1, f"breeding.tournament_size = {b['tournament_size']}; use 1 or more")
    need(0.0 <= b["mutation_rate"] <= 1.0, f"breeding.mutation_rate = {b['mutation_rate']}; a probability 0..1")
    need(config["search"]["schedule"] in ("seed001", "none"),
         f"search.schedule = {config['search']['schedule']!r}; use \"seed001\" or \"none\"")
    need(config["search"]["depth"] >= 1, "search.depth: use 1 or more")
    need(config["search"].get("nodes", 0) >= 0, "search.nodes: use 0 (search to the depth) or a node budget")
    threats = config["search"].get("evaluation", "seed001") == "threats"
    need(config["search"].get("evaluation", "seed001") in ("seed001", "threats"),
         f"search.evaluation = {config['search'].get('evaluation')!r}; use \"seed001\" or \"threats\"")
    need(not config["search"].get("nodes", 0) or str(config["game"]).startswith("kalah") or threats,
         f"search.nodes = {config['search'].get('nodes')}: a node budget is for Kalah and m,n,k threat runs; an "
         "m,n,k run of the seed's evaluation uses 0")
    need(config["search"]["streaks"] in ("all", "live"),
         f"search.streaks = {config['search']['streaks']!r}; use \"all\" (the seed's) or \"live\"")
    need(config["convergence"]["draw_rounds"] >= 0, "convergence.draw_rounds: use 0 (never) or more")
    bl = config["baselines"]
    need(bl["every"] >= 0 and bl["games"] >= 0, "baselines.every and baselines.games must be 0 or more")
    need(bl["games"] % 2 == 0, f"baselines.games = {bl['games']}: use an even number (half in each seat)")
    need(bl["choose"] in ("baselines", "last"), f"baselines.choose = {bl['choose']!r}; use \"baselines\" or \"last\"")
    need(bl["final_games"] >= 0 and bl["final_games"] % 2 == 0,
         f"baselines.final_games = {bl['final_games']}: use an even number (half in each seat), 0 for none")
    hg = config["fitness"]["host_games"]
    need(hg >= 0 and hg % 2 == 0, f"fitness.host_games = {hg}: use an even number (half in each seat), 0 for none")


# --------------------------------------------------------------------------------------------------------------
# The evolution.
# --------------------------------------------------------------------------------------------------------------


class MnkGA:
    """The evolution object of the recipe (see evoplay.evolve.loop)."""

    def __init__(self, config: dict):
        _check(config)
        self.config = config
        self.game, self.schema = _game_and_schema(config)
        self.generations = int(config["generations"])
        self.population = int(config["population"])
        self.seed = int(config.get("seed", 0))
        from evoplay.agents import make_agent

        self.baseline_specs = list(config["baselines"]["agents"])
        self.host_specs = list(config["fitness"]["hosts"])
        for key, specs in (("baselines.agents", self.baseline_specs), ("fitness.hosts", self.host_specs)):
            for spec in specs:
                try:
                    make_agent(spec, self.game)
                except SpecError as err:
                    raise ConfigError(f"{key}: {err}") from None

    # --- agents ---------------------------------------------------------------------------------------------
    def agent(self, bits, name: str):
        from evoplay.agents.weights import WeightsAgent

        s = self.config["search"]
        return WeightsAgent(self.game, self.schema.decode(bits), schedule=s["schedule"],
                            random_ties=s["random_ties"], depth=s["depth"], streaks=s["streaks"], spec=name,
                            nodes=s.get("nodes", 0))

    def fitness(self, wins, draws, losses) -> np.ndarray:
        f = self.config["fitness"]
        return f["win"] * np.asarray(wins) + f["draw"] * np.asarray(draws) + f["loss"] * np.asarray(losses)

    # --- the loop -------------------------------------------------------------------------------------------
    def start(self, rng: np.random.Generator) -> dict:
        return {
            "population": self.schema.random(self.population, rng),
            "rng": rng,
            "draw_streak": 0,
            "initial_best": None,
            "best": None,
        }

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
        wins = np.array([s.wins for s in stats])
        draws = np.array([s.draws for s in stats])
        losses = np.array([s.losses for s in stats])
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
        from evoplay.arena import gauntlet

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
            result = gauntlet(self.game, [champion], pool, games // 2, seed=self.seed + 1 + key, executor=executor,
                              round_key=generation)
            table = result.pair_table()
            for j, name in enumerate(names):
                w, d, l_ = (int(x) for x in table[0, j + 1])
                out[name] = {"wins": w, "draws": d, "losses": l_, "fitness": int(self.fitness(w, d, l_))}
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
        raise ConfigError("--levels is for the sevens recipe; the mnk recipe has no difficulty levels")
    return MnkGA(merge(load_config("mnk"), config, "the mnk config"))


# --------------------------------------------------------------------------------------------------------------
# Results: best.json, progression tables, plots, the board picture.
# --------------------------------------------------------------------------------------------------------------


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
    from evoplay.arena import gauntlet

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
        result = gauntlet(evo.game, [champion], [agent], per_seat, seed=evo.seed + 7919, round_key=j)
        w, d, l_ = (int(x) for x in result.pair_table()[0, 1])
        out[name] = {"wins": w, "draws": d, "losses": l_, "fitness": int(evo.fitness(w, d, l_))}
    return out


def write_results(evo: MnkGA, state: dict, folder) -> None:
    from evoplay.agents.weights import weights_document
    from evoplay.evolve.plots import plot_log, plot_series

    log = folder.read_log()
    best = choose_champion(evo, state, log)
    final = final_strength(evo, state, best["genome"])
    extra = {k: v for k, v in best.items() if k != "genome"}
    doc = weights_document(
        evo.game, evo.schema, best["genome"], schedule=evo.config["search"]["schedule"],
        streaks=evo.config["search"]["streaks"], depth=evo.config["search"]["depth"],
        nodes=evo.config["search"].get("nodes", 0), **extra,
        final=final, recipe="mnk", seed=evo.seed,
    )
    folder.write_json("best.json", doc)
    last = state["best"]
    folder.write_json("last_best.json", weights_document(
        evo.game, evo.schema, last["genome"], schedule=evo.config["search"]["schedule"],
        streaks=evo.config["search"]["streaks"], depth=evo.config["search"]["depth"],
        nodes=evo.config["search"].get("nodes", 0), round=last["round"],
        fitness=last["fitness"]))
    if state["initial_best"] is not None:
        folder.write_json("initial_best.json", weights_document(
            evo.game, evo.schema, state["initial_best"], schedule=evo.config["search"]["schedule"],
            streaks=evo.config["search"]["streaks"], depth=evo.config["search"]["depth"],
            nodes=evo.config["search"].get("nodes", 0), round=0))
    folder.write_text("progression.md", progression_markdown(log))
    plot_log(folder, f"{evo.game.spec}: fitness of the round robin")
    xs = [r["generation"] for r in log]
    plot_series(folder.file("draws.png"), f"{evo.game.spec}: share of drawn games per round", xs,
                {"draw share": [r["draw_share"] for r in log]}, "share of games")
    names = sorted({n for r in log for n in r.get("baselines", {})})
    if names:
        series = {n: [_score(r["baselines"][n]) for r in log if n in r.get("baselines", {})] for n in names}
        bx = [r["generation"] for r in log if r.get("baselines")]
        plot_series(folder.file("baselines.png"), f"{evo.game.spec}: the round's best against the baselines", bx,
                    series, "score (wins + draws / 2) per game")
    draw_genome(evo.game, evo.schema.decode(best["genome"]), folder.file("best.png"),
                f"best genome (round {best['round']}, fitness {best['fitness']})")


def final_markdown(final: dict) -> str:
    """The chosen genome's fresh games against each baseline as a W/D/L table with the seed's fitness."""
    lines = ["| opponent | games | wins | draws | losses | 5w+d-4l | score |", "|---|---|---|---|---|---|---|"]
    for name, r in final.items():
        n = r["wins"] + r["draws"] + r["losses"]
        lines.append(f"| {name} | {n} | {r['wins']} | {r['draws']} | {r['losses']} | {r['fitness']:+d} | "
                     f"{_score(r):.2f} |")
    return "\n".join(lines) + "\n"


def _score(r: dict) -> float:
    n = r["wins"] + r["draws"] + r["losses"]
    return (r["wins"] + 0.5 * r["draws"]) / n if n else 0.0


def progression_markdown(log: list[dict]) -> str:
    """Per round: the round's fitness spread, draw share, and the best's W/D/L (fitness) against each baseline."""
    names = sorted({n for r in log for n in r.get("baselines", {})}, key=lambda n: (n == "initial best", n))
    head = ["round", "best", "mean", "worst", "draws", "survivors"] + names
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in log:
        cells = [str(r["generation"]), str(r["best"]), f"{r['mean']:.1f}", str(r["worst"]),
                 f"{100 * r['draw_share']:.0f} %", str(r.get("survivors", "-"))]
        for n in names:
            b = r.get("baselines", {}).get(n)
            cells.append(f"{b['wins']}/{b['draws']}/{b['losses']} ({b['fitness']:+d})" if b else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def draw_genome(game, params: dict, path: Path, title: str) -> Path:
    """The decoded parameters as a picture: seed 001's Figure 2 for m,n,k, a bar chart for Kalah weights."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evoplay.games.mnk.game import MnkGame

    if not isinstance(game, MnkGame):
        names = [n for n in params]
        fig, ax = plt.subplots(figsize=(6, 3.5), dpi=110)
        ax.barh(names, [params[n] for n in names], color="#4a7bb7")
        ax.axvline(0, color="black", linewidth=0.8)
        for i, n in enumerate(names):
            ax.text(params[n], i, f" {params[n]}", va="center")
        ax.set_title(f"{game.spec}: {title}")
        fig.tight_layout()
        fig.savefig(path)
        plt.close(fig)
        return path

    from evoplay.games.mnk.search import position_classes

    m, n, k = game.m, game.n, game.k
    classes, names = position_classes(m, n)
    fig, axes = plt.subplots(1, 3, figsize=(4.0 * 2 + 3.6, 4.9), dpi=110,
                             gridspec_kw={"width_ratios": [m, m, 3.6 * m / 4]})
    for ax, mark, label in ((axes[0], "x", "X (first player)"), (axes[1], "o", "O (second player)")):
        grid = np.array([params[f"sq{names[c]}{mark}"] for c in classes]).reshape(n, m)
        ax.imshow(grid, cmap="YlOrRd", vmin=0, vmax=255, origin="lower")  # row 1 at the bottom, as the game prints
        for r in range(n):
            for c in range(m):
                v = grid[r, c]
                ax.text(c, r + 0.22, names[classes[r * m + c]], ha="center", va="center", fontsize=8,
                        color="#ddd" if v > 170 else "#555")
                ax.text(c, r - 0.12, str(v), ha="center", va="center", fontsize=11, weight="bold",
                        color="white" if v > 170 else "black")
        ax.set_xticks(range(m), [chr(ord("a") + c) for c in range(m)])
        ax.set_yticks(range(n), [str(r + 1) for r in range(n)])
        ax.set_title(f"positional weights, {label}")
    ax = axes[2]
    ax.axis("off")
    rows = [["run", "h x", "h o", "d x", "d o"]]
    for length in range(1, k):
        rows.append([str(length)] + [str(params[f"{kind}{length}{p}"]) for kind in "hd" for p in "xo"])
    table = ax.table(cellText=rows, loc="upper center", cellLoc="center")
    table.scale(1, 1.5)
    depth_or_threats = (f"search_depth = {params['search_depth']}" if "search_depth" in params else
                        ", ".join(f"{f} = {params[f]}" for f in params if f.startswith(("open", "fork", "scale_open"))))
    ax.text(0.5, 0.35, f"scale_sq = {params['scale_sq']}\nscale_cons = {params['scale_cons']}\n"
            f"{depth_or_threats}\n{k} in a row: fixed win value",
            ha="center", va="top", transform=ax.transAxes, fontsize=10)
    ax.set_title("streak weights (h: row/column, d: diagonal)")
    fig.suptitle(f"{m},{n},{k}-game: {title}")
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))
    fig.savefig(path)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------------------------------------------
# Report and export.
# --------------------------------------------------------------------------------------------------------------


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
            lines.append(final_markdown(doc["final"]))
        game = doc["game"] if "(" not in doc["game"] else f"'{doc['game']}'"
        lines.append(f"play it: evoplay play {game} --vs 'weights({folder.file('best.json')})'")
        lines.append(f"pictures: {folder.file('best.png')}, {folder.file('fitness.png')}, "
                     f"{folder.file('draws.png')}, {folder.file('baselines.png')}")
    else:
        lines.append(f"the run has not finished: evoplay resume {folder.path}")
    lines.append("progression of each round's best against the baselines (W/D/L, fitness 5w+d-4l):")
    lines.append(progression_markdown(log))
    return "\n".join(lines)


LANGUAGES = ("python", "lua")


def export(folder, lang: str) -> Path:
    """The best genome as a standalone Python or Lua player: its parameters, evaluation and alpha-beta.

    The exported ``choose_move`` picks the same move as ``weights(best.json)`` (ties to the lowest action).
    """
    if lang not in LANGUAGES:
        raise SpecError(f"unknown language '{lang}'; known: {', '.join(LANGUAGES)}")
    from evoplay.agents.weights import load_weights
    from evoplay.games import load_game
    from evoplay.games.kalah.game import KalahGame

    doc = load_weights(folder.file("best.json"))
    game = load_game(doc["game"])
    if "scale_open" in doc["params"]:
        raise SpecError("export: the threat player (search.evaluation = \"threats\") has no standalone form; play "
                        "it with weights(best.json)")
    if isinstance(game, KalahGame):
        text = kalah_source(game, doc, lang)
    else:
        text = mnk_source(game, doc, lang)
    return folder.write_text("best.py" if lang == "python" else "best.lua", text)


def _mnk_tables(game, doc) -> dict:
    from evoplay.games.mnk.search import SEED001_SCHEDULE
    from evoplay.agents.weights import mnk_search_params

    m, n, k = game.m, game.n, game.k
    size = m * n
    packed = mnk_search_params(doc["params"], m, n, k, doc.get("streaks", "all")).tolist()
    base = 4 + 2 * size
    return {
        "m": m, "n": n, "k": k, "live": bool(packed[3]),
        "cells_x": packed[4:4 + size], "cells_o": packed[4 + size:base],
        # streak[owner][direction class][run length], entry 0 unused
        "streak": [[packed[base + (o * 2 + d) * k: base + (o * 2 + d + 1) * k] for d in range(2)] for o in range(2)],
        "depth": int(doc["params"]["search_depth"]),
        "schedule": [list(x) for x in SEED001_SCHEDULE] if doc.get("schedule", "seed001") == "seed001" else [],
    }


_MNK_PY = '''"""An evolved {m},{n},{k}-game player exported by evoplay (seed 001's GA): its evaluation and alpha-beta.

Board: a list of {size} cells in row-major order (row 1 first), 0 empty, 1 the first player (X), 2 the second
(O). ``choose_move(board, player)`` returns the cell to play (player 0 is X); cell = row * {m} + column.
Made by ``evoplay export`` from a genome of round {round} (fitness {fitness}); no dependencies.
"""
M, N, K = {m}, {n}, {k}
CELLS = ({cells_x!r}, {cells_o!r})  # positional weight x scale, per cell, for X and O
STREAK = {streak!r}  # [owner][0: row/column, 1: diagonal][run length] x scale
LIVE_ONLY = {live!r}  # count only runs that can still grow to K
GENOME_DEPTH = {depth}
SCHEDULE = {schedule!r}  # (at least this many empty cells, depth cap)
WIN = 1 << 30
INF = 1 << 40
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def evaluate(board, root):
    totals = [0, 0]
    for cell in range(M * N):
        mark = board[cell]
        if mark == 0:
            continue
        owner = mark - 1
        value = CELLS[owner][cell]
        row, col = divmod(cell, M)
        for d, (dr, dc) in enumerate(DIRECTIONS):
            pr, pc = row - dr, col - dc
            if 0 <= pr < N and 0 <= pc < M and board[pr * M + pc] == mark:
                continue
            length, r, c = 0, row, col
            while 0 <= r < N and 0 <= c < M and board[r * M + c] == mark:
                length, r, c = length + 1, r + dr, c + dc
            if LIVE_ONLY:
                room = length
                for sign, sr, sc in ((1, r, c), (-1, pr, pc)):
                    while room < K and 0 <= sr < N and 0 <= sc < M and board[sr * M + sc] in (0, mark):
                        room, sr, sc = room + 1, sr + sign * dr, sc + sign * dc
                if room < K:
                    continue
            if length < K:
                value += STREAK[owner][0 if d < 2 else 1][length]
        totals[owner] += value
    return totals[0] - totals[1] if root == 0 else totals[1] - totals[0]


def wins(board, cell):
    mark = board[cell]
    row, col = divmod(cell, M)
    for dr, dc in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < N and 0 <= c < M and board[r * M + c] == mark:
                run, r, c = run + 1, r + sign * dr, c + sign * dc
        if run >= K:
            return True
    return False


def value(board, player, root, depth, alpha, beta, empties):
    maximizing = player == root
    best = -INF if maximizing else INF
    for cell in range(M * N):
        if board[cell] != 0:
            continue
        board[cell] = player + 1
        if wins(board, cell):
            v = WIN + empties - 1 if player == root else -(WIN + empties - 1)
        elif empties - 1 == 0:
            v = 0
        elif depth == 1:
            v = evaluate(board, root)
        else:
            v = value(board, 1 - player, root, depth - 1, alpha, beta, empties - 1)
        board[cell] = 0
        if maximizing:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def search_depth(empties):
    depth = GENOME_DEPTH
    for threshold, cap in SCHEDULE:
        if empties >= threshold:
            depth = min(depth, cap)
            break
    return max(1, depth)


def choose_move(board, player):
    board = list(board)
    empties = board.count(0)
    depth = search_depth(empties)
    alpha, best_cell = -INF, -1
    for cell in range(M * N):
        if board[cell] != 0:
            continue
        board[cell] = player + 1
        if wins(board, cell):
            v = WIN + empties - 1
        elif empties - 1 == 0:
            v = 0
        elif depth == 1:
            v = evaluate(board, player)
        else:
            v = value(board, 1 - player, player, depth - 1, alpha, INF, empties - 1)
        board[cell] = 0
        if v > alpha:
            alpha, best_cell = v, cell
    return best_cell
'''

_MNK_LUA = '''-- An evolved {m},{n},{k}-game player exported by evoplay (seed 001's GA): its evaluation and alpha-beta.
-- Board: a table of {size} cells (index 1 = row 1, column a; row-major), 0 empty, 1 X (first player), 2 O.
-- choose_move(board, player) returns the 0-based cell to play (player 0 is X); cell = row * {m} + column.
-- Made by evoplay export from a genome of round {round} (fitness {fitness}).
local M, N, K = {m}, {n}, {k}
local CELLS = {{ {{ {cells_x_lua} }}, {{ {cells_o_lua} }} }}
local STREAK = {streak_lua}
local LIVE_ONLY = {live_lua}
local GENOME_DEPTH = {depth}
local SCHEDULE = {schedule_lua}
local WIN = 1 << 30
local INF = 1 << 40
local DIRECTIONS = {{ {{0, 1}}, {{1, 0}}, {{1, 1}}, {{1, -1}} }}

local function at(board, r, c) return board[r * M + c + 1] end
local function inside(r, c) return r >= 0 and r < N and c >= 0 and c < M end

local function evaluate(board, root)
  local totals = {{0, 0}}
  for cell = 0, M * N - 1 do
    local mark = board[cell + 1]
    if mark ~= 0 then
      local owner = mark - 1
      local value = CELLS[owner + 1][cell + 1]
      local row, col = cell // M, cell % M
      for d = 1, 4 do
        local dr, dc = DIRECTIONS[d][1], DIRECTIONS[d][2]
        local pr, pc = row - dr, col - dc
        if not (inside(pr, pc) and at(board, pr, pc) == mark) then
          local length, r, c = 0, row, col
          while inside(r, c) and at(board, r, c) == mark do
            length, r, c = length + 1, r + dr, c + dc
          end
          local live = true
          if LIVE_ONLY then
            local room = length
            local sr, sc = r, c
            while room < K and inside(sr, sc) and (at(board, sr, sc) == 0 or at(board, sr, sc) == mark) do
              room, sr, sc = room + 1, sr + dr, sc + dc
            end
            sr, sc = pr, pc
            while room < K and inside(sr, sc) and (at(board, sr, sc) == 0 or at(board, sr, sc) == mark) do
              room, sr, sc = room + 1, sr - dr, sc - dc
            end
            live = room >= K
          end
          if live and length < K then
            value = value + STREAK[owner + 1][d <= 2 and 1 or 2][length + 1]
          end
        end
      end
      totals[owner + 1] = totals[owner + 1] + value
    end
  end
  if root == 0 then return totals[1] - totals[2] end
  return totals[2] - totals[1]
end

local function wins(board, cell)
  local mark = board[cell + 1]
  local row, col = cell // M, cell % M
  for d = 1, 4 do
    local dr, dc = DIRECTIONS[d][1], DIRECTIONS[d][2]
    local run = 1
    for _, sign in ipairs({{1, -1}}) do
      local r, c = row + sign * dr, col + sign * dc
      while inside(r, c) and at(board, r, c) == mark do
        run, r, c = run + 1, r + sign * dr, c + sign * dc
      end
    end
    if run >= K then return true end
  end
  return false
end

local function value(board, player, root, depth, alpha, beta, empties)
  local maximizing = player == root
  local best = maximizing and -INF or INF
  for cell = 0, M * N - 1 do
    if board[cell + 1] == 0 then
      board[cell + 1] = player + 1
      local v
      if wins(board, cell) then
        v = (player == root) and (WIN + empties - 1) or -(WIN + empties - 1)
      elseif empties - 1 == 0 then
        v = 0
      elseif depth == 1 then
        v = evaluate(board, root)
      else
        v = value(board, 1 - player, root, depth - 1, alpha, beta, empties - 1)
      end
      board[cell + 1] = 0
      if maximizing then
        if v > best then best = v end
        if best > alpha then alpha = best end
      else
        if v < best then best = v end
        if best < beta then beta = best end
      end
      if alpha >= beta then break end
    end
  end
  return best
end

local function search_depth(empties)
  local depth = GENOME_DEPTH
  for _, step in ipairs(SCHEDULE) do
    if empties >= step[1] then
      if step[2] < depth then depth = step[2] end
      break
    end
  end
  if depth < 1 then depth = 1 end
  return depth
end

function choose_move(board, player)
  local b, empties = {{}}, 0
  for i = 1, M * N do
    b[i] = board[i]
    if b[i] == 0 then empties = empties + 1 end
  end
  local depth = search_depth(empties)
  local alpha, best_cell = -INF, -1
  for cell = 0, M * N - 1 do
    if b[cell + 1] == 0 then
      b[cell + 1] = player + 1
      local v
      if wins(b, cell) then
        v = WIN + empties - 1
      elseif empties - 1 == 0 then
        v = 0
      elseif depth == 1 then
        v = evaluate(b, player)
      else
        v = value(b, 1 - player, player, depth - 1, alpha, INF, empties - 1)
      end
      b[cell + 1] = 0
      if v > alpha then alpha, best_cell = v, cell end
    end
  end
  return best_cell
end

return {{ choose_move = choose_move, evaluate = evaluate }}
'''


def _lua_list(values) -> str:
    return "{ " + ", ".join(_lua_list(v) if isinstance(v, (list, tuple)) else str(v) for v in values) + " }"


def mnk_source(game, doc: dict, lang: str) -> str:
    t = _mnk_tables(game, doc)
    fields = dict(t, size=game.m * game.n, round=doc.get("round", "?"), fitness=doc.get("fitness", "?"))
    if lang == "python":
        fields["schedule"] = [tuple(x) for x in t["schedule"]]
        return _MNK_PY.format(**fields)
    fields.update(
        cells_x_lua=", ".join(map(str, t["cells_x"])), cells_o_lua=", ".join(map(str, t["cells_o"])),
        streak_lua=_lua_list(t["streak"]), live_lua="true" if t["live"] else "false",
        schedule_lua=_lua_list(t["schedule"]) if t["schedule"] else "{}",
    )
    return _MNK_LUA.format(**fields)


_KALAH_PY = '''"""An evolved Kalah player exported by evoplay (seed 001's GA over feature weights) with its alpha-beta.

Board: a list of {size} numbers: the first player's {pits} pits, their store, the second player's pits, their
store. ``choose_move(board, player)`` returns the pit (0..{last}, from the mover's left) to sow.
Made by ``evoplay export`` from a genome of round {round} (fitness {fitness}); no dependencies.
"""
PITS = {pits}
EMPTY_CAPTURE = {empty_capture!r}  # capture even when the opposite pit is empty
WEIGHTS = {weights!r}  # store, seeds, empty, extra, capture (own minus opponent's)
DEPTH = {depth}
WIN = 1 << 30
INF = 1 << 40


def sow(board, player, pit):
    """Play ``pit`` in place; return the next player, or -1 when the game is over."""
    size = 2 * PITS + 2
    own_store = PITS if player == 0 else 2 * PITS + 1
    opp_store = 2 * PITS + 1 if player == 0 else PITS
    index = pit if player == 0 else PITS + 1 + pit
    seeds, board[index] = board[index], 0
    while seeds > 0:
        index = (index + 1) % size
        if index != opp_store:
            board[index] += 1
            seeds -= 1
    first = 0 if player == 0 else PITS + 1
    if first <= index < first + PITS and board[index] == 1:
        opposite = 2 * PITS - index
        if EMPTY_CAPTURE or board[opposite] > 0:
            board[own_store] += board[opposite] + 1
            board[index] = board[opposite] = 0
    side0, side1 = sum(board[0:PITS]), sum(board[PITS + 1:2 * PITS + 1])
    if side0 == 0 or side1 == 0:
        board[PITS] += side0
        board[2 * PITS + 1] += side1
        for i in range(PITS):
            board[i] = board[PITS + 1 + i] = 0
        return -1
    return player if index == own_store else 1 - player


def features(board, player):
    base = 0 if player == 0 else PITS + 1
    opp_base = PITS + 1 if player == 0 else 0
    store = board[PITS] if player == 0 else board[2 * PITS + 1]
    seeds = empty = extra = capture = 0
    cycle = 2 * PITS + 1
    for pit in range(PITS):
        s = board[base + pit]
        seeds += s
        if s == 0:
            empty += 1
            continue
        to_store = PITS - pit
        if s % cycle == to_store % cycle:
            extra += 1
        elif s < to_store:
            land = pit + s
            if board[base + land] == 0 and board[opp_base + PITS - 1 - land] > 0:
                capture += 1
    return (store, seeds, empty, extra, capture)


def evaluate(board, root):
    mine, theirs = features(board, root), features(board, 1 - root)
    return sum(w * (a - b) for w, a, b in zip(WEIGHTS, mine, theirs))


def final(board, root):
    own, opp = (PITS, 2 * PITS + 1) if root == 0 else (2 * PITS + 1, PITS)
    margin = board[own] - board[opp]
    return 0 if margin == 0 else (WIN + margin if margin > 0 else -WIN + margin)


def value(board, player, root, depth, alpha, beta):
    maximizing = player == root
    best = -INF if maximizing else INF
    base = 0 if player == 0 else PITS + 1
    for pit in range(PITS):
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = sow(child, player, pit)
        if nxt == -1:
            v = final(child, root)
        elif depth == 1:
            v = evaluate(child, root)
        else:
            v = value(child, nxt, root, depth - 1, alpha, beta)
        if maximizing:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def choose_move(board, player):
    alpha, best_pit = -INF, -1
    base = 0 if player == 0 else PITS + 1
    for pit in range(PITS):
        if board[base + pit] == 0:
            continue
        child = list(board)
        nxt = sow(child, player, pit)
        if nxt == -1:
            v = final(child, player)
        elif DEPTH == 1:
            v = evaluate(child, player)
        else:
            v = value(child, nxt, player, DEPTH - 1, alpha, INF)
        if v > alpha:
            alpha, best_pit = v, pit
    return best_pit
'''

_KALAH_LUA = '''-- An evolved Kalah player exported by evoplay (seed 001's GA over feature weights) with its alpha-beta.
-- Board: a table of {size} numbers: the first player's {pits} pits, their store, the second player's pits, their
-- store (index 1 = the first player's leftmost pit). choose_move(board, player) returns the pit 0..{last}.
-- Made by evoplay export from a genome of round {round} (fitness {fitness}).
local PITS = {pits}
local EMPTY_CAPTURE = {empty_capture_lua}
local WEIGHTS = {{ {weights_lua} }}
local DEPTH = {depth}
local WIN = 1 << 30
local INF = 1 << 40

local function copy(board)
  local out = {{}}
  for i = 1, #board do out[i] = board[i] end
  return out
end

-- 0-based board positions, as in the Python export
local function get(b, i) return b[i + 1] end
local function set(b, i, v) b[i + 1] = v end

local function sow(b, player, pit)
  local size = 2 * PITS + 2
  local own_store = player == 0 and PITS or 2 * PITS + 1
  local opp_store = player == 0 and 2 * PITS + 1 or PITS
  local index = player == 0 and pit or PITS + 1 + pit
  local seeds = get(b, index)
  set(b, index, 0)
  while seeds > 0 do
    index = (index + 1) % size
    if index ~= opp_store then
      set(b, index, get(b, index) + 1)
      seeds = seeds - 1
    end
  end
  local first = player == 0 and 0 or PITS + 1
  if index >= first and index < first + PITS and get(b, index) == 1 then
    local opposite = 2 * PITS - index
    if EMPTY_CAPTURE or get(b, opposite) > 0 then
      set(b, own_store, get(b, own_store) + get(b, opposite) + 1)
      set(b, index, 0)
      set(b, opposite, 0)
    end
  end
  local side0, side1 = 0, 0
  for i = 0, PITS - 1 do
    side0 = side0 + get(b, i)
    side1 = side1 + get(b, PITS + 1 + i)
  end
  if side0 == 0 or side1 == 0 then
    set(b, PITS, get(b, PITS) + side0)
    set(b, 2 * PITS + 1, get(b, 2 * PITS + 1) + side1)
    for i = 0, PITS - 1 do
      set(b, i, 0)
      set(b, PITS + 1 + i, 0)
    end
    return -1
  end
  if index == own_store then return player end
  return 1 - player
end

local function features(b, player)
  local base = player == 0 and 0 or PITS + 1
  local opp_base = player == 0 and PITS + 1 or 0
  local store = player == 0 and get(b, PITS) or get(b, 2 * PITS + 1)
  local seeds, empty, extra, capture = 0, 0, 0, 0
  local cycle = 2 * PITS + 1
  for pit = 0, PITS - 1 do
    local s = get(b, base + pit)
    seeds = seeds + s
    if s == 0 then
      empty = empty + 1
    else
      local to_store = PITS - pit
      if s % cycle == to_store % cycle then
        extra = extra + 1
      elseif s < to_store then
        local land = pit + s
        if get(b, base + land) == 0 and get(b, opp_base + PITS - 1 - land) > 0 then
          capture = capture + 1
        end
      end
    end
  end
  return {{ store, seeds, empty, extra, capture }}
end

local function evaluate(b, root)
  local mine, theirs = features(b, root), features(b, 1 - root)
  local total = 0
  for f = 1, 5 do total = total + WEIGHTS[f] * (mine[f] - theirs[f]) end
  return total
end

local function final(b, root)
  local own, opp = PITS, 2 * PITS + 1
  if root == 1 then own, opp = opp, own end
  local margin = get(b, own) - get(b, opp)
  if margin == 0 then return 0 end
  if margin > 0 then return WIN + margin end
  return -WIN + margin
end

local function value(b, player, root, depth, alpha, beta)
  local maximizing = player == root
  local best = maximizing and -INF or INF
  local base = player == 0 and 0 or PITS + 1
  for pit = 0, PITS - 1 do
    if get(b, base + pit) ~= 0 then
      local child = copy(b)
      local nxt = sow(child, player, pit)
      local v
      if nxt == -1 then
        v = final(child, root)
      elseif depth == 1 then
        v = evaluate(child, root)
      else
        v = value(child, nxt, root, depth - 1, alpha, beta)
      end
      if maximizing then
        if v > best then best = v end
        if best > alpha then alpha = best end
      else
        if v < best then best = v end
        if best < beta then beta = best end
      end
      if alpha >= beta then break end
    end
  end
  return best
end

function choose_move(board, player)
  local alpha, best_pit = -INF, -1
  local base = player == 0 and 0 or PITS + 1
  for pit = 0, PITS - 1 do
    if get(board, base + pit) ~= 0 then
      local child = copy(board)
      local nxt = sow(child, player, pit)
      local v
      if nxt == -1 then
        v = final(child, player)
      elseif DEPTH == 1 then
        v = evaluate(child, player)
      else
        v = value(child, nxt, player, DEPTH - 1, alpha, INF)
      end
      if v > alpha then alpha, best_pit = v, pit end
    end
  end
  return best_pit
end

return {{ choose_move = choose_move, evaluate = evaluate }}
'''


def kalah_source(game, doc: dict, lang: str) -> str:
    from evoplay.games.kalah.search_weights import feature_weights

    params = doc["params"]
    weights = feature_weights(params).tolist()
    depth = max(1, int(params.get("search_depth", doc.get("depth", 4))))
    fields = dict(size=2 * game.pits + 2, pits=game.pits, last=game.pits - 1, round=doc.get("round", "?"),
                  fitness=doc.get("fitness", "?"), depth=depth, weights=tuple(weights),
                  empty_capture=bool(game.empty_capture))
    if lang == "python":
        return _KALAH_PY.format(**fields)
    fields.update(weights_lua=", ".join(map(str, weights)),
                  empty_capture_lua="true" if game.empty_capture else "false")
    return _KALAH_LUA.format(**fields)
