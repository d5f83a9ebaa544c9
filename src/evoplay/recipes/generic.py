"""What the ``gp`` and ``ga`` recipes share: the feature view, the generation step over evoplay.evolve.fitness (a
ladder of opponents, the hall of fame), the champion's playoff, best.json and the champion's fresh games
(a run's report and exports: evoplay.recipes.run_report)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from evoplay.agents.feature_view import MAX_LINE, FeatureView, measure_scales, pair_board
from evoplay.search.minimax import Budget
from evoplay.arena.tournament import games_until
from evoplay.errors import ConfigError, SpecError, TimeBudgetSpent
from evoplay.evolve.fitness import FitnessSpec, Ladder, evaluate_population, strength
from evoplay.recipes import levels

#: what a closing phase the run's time budget cut short records instead of its scores
STOPPED = "stopped by the time budget"
#: the closing's phases: the playoff may take this share of what is left of the budget, then the play check this
#: share of what is left after it, the tables the rest; the loop keeps room for this many rounds of the check
PLAYOFF_SHARE, CHECK_SHARE, CHECK_ROUNDS = 0.25, 0.7, 2.0
#: the least time a move the play check plays at when the time left cannot afford a round at play.ms
MIN_CHECK_MS = 5.0
#: when the play check also tries the champion as Monte Carlo tree search guided by its evaluation
UCT_CANDIDATES = ("kernels", "always", "never")
#: the uct candidate computes a position's prior (an evaluation of every move's after-state) at this visit of it,
#: uniform before: the prior is paid where the search comes back, and the simulations it costs stay few
#: (hex 6x6 against MCTS at equal CPU, 40 games: 47.5 % computed at every expansion, 57.5-67.5 % at visit 4-64)
PRIOR_VISITS = 16
#: the uct candidate's prior is the softmax of its evaluation's scores of the moves over a temperature fitted so that
#: the prior's entropy, averaged over random positions, is this share of a uniform choice's
#: (EvolvedEvaluation.temperature_for): one temperature in units of the scores' spread left one of Kalah's seeds a
#: near-uniform prior and another a sharp one (43.75 against 66 % against MCTS at equal CPU; the first at the
#: temperature of the second's entropy 70 %: docs/learning.md)
PRIOR_ENTROPY = 0.85
#: the play check ships the player as trained (a fixed shallow search that leaves its thinking time unused) only when
#: it won more of its games against the yardstick than the best searching candidate beyond chance: its lead over
#: this many standard errors (a one-sided two-proportion test at 5 %); a lead within the noise of a few games ships
#: the search, which gets stronger with its time
SAFETY_Z = 1.645


#: best.json's ``unevaluated``: why its individual has no fitness
UNEVALUATED = "the time budget ran out during the first generation, before its games ended"


def ship_label(labels: list[str], rate: np.ndarray, played: np.ndarray, score: np.ndarray) -> str:
    """The play check's choice among ``labels`` (the first the player as trained, the others searches that use the
    play budget) from each one's win rate against the yardstick (draws half) over ``played`` games and its score
    (which also counts the candidates' games against each other): the best search by its rate, then its score, then
    the later candidate (uct before alpha-beta: its leaves are random rollouts, which the evaluation's errors at the
    leaves of a deeper search do not reach, and it gets stronger with its time by construction; pig's seed-1
    champion, tied in the check, shipped as alpha-beta scored 30 % against MCTS at equal CPU and 52.5 % as uct);
    the player as trained instead only where it won clearly more (``SAFETY_Z``)."""
    search = min(range(1, len(labels)), key=lambda i: (-float(rate[i]), -float(score[i]), -i))
    n0, n1 = float(played[0]), float(played[search])
    if n0 and n1:
        pooled = (rate[0] * n0 + rate[search] * n1) / (n0 + n1)
        error = float(np.sqrt(pooled * (1.0 - pooled) * (1.0 / n0 + 1.0 / n1)))
        if rate[0] - rate[search] > SAFETY_Z * error and rate[0] > rate[search]:
            return labels[0]
    elif not (n0 or n1) and score[0] > score[search]:  # no games against a yardstick: the scores decide
        return labels[0]
    return labels[search]


def load_game_of(config: dict):
    from evoplay.games import load_game

    try:
        game = load_game(config["game"])
        game.feature_names()
    except SpecError as err:
        raise ConfigError(f"game: {err}") from None
    if over_at_start(game):
        raise ConfigError(f"game: {game.spec} is over before anyone moves (its first state is terminal, after any "
                          f"chance outcomes, from {START_SEEDS} seeds): there is nothing to learn; its parameters "
                          f"may not make a playable game (evoplay check-game shows its games)")
    return game


#: the seeds ``over_at_start`` starts a game from
START_SEEDS = 5


def over_at_start(game) -> bool:
    """Whether ``game`` is over before any player moves from every one of START_SEEDS seeded starts (its chance
    outcomes drawn up to its first decision): a spec whose parameters give no playable game (OpenSpiel accepts
    some such, e.g. a board too small for its pieces' starting rows)."""
    from evoplay.games.base import first_decision

    return all(first_decision(game.new_initial_state(seed), np.random.default_rng(seed)).is_terminal()
               for seed in range(START_SEEDS))


def check_player(config: dict) -> None:
    from evoplay.agents.feature_player import MAX_DEPTH, OPPONENTS, POLICIES, SEARCH_DEPTH_LIMIT

    p = config["player"]
    if p["policy"] not in POLICIES:
        raise ConfigError(f"player.policy = {p['policy']!r}; use one of {', '.join(POLICIES)}")
    if p["opponents"] not in OPPONENTS:
        raise ConfigError(f"player.opponents = {p['opponents']!r}; use one of {', '.join(OPPONENTS)}")
    deepest = SEARCH_DEPTH_LIMIT if p.get("nodes", 0) else MAX_DEPTH  # within a node budget: the deepest iteration
    if not 1 <= p["depth"] <= deepest:
        raise ConfigError(f"player.depth = {p['depth']}; use 1..{deepest}" + ("" if p.get("nodes", 0) else
                          f" (with player.nodes > 0 it caps the deepening, up to {SEARCH_DEPTH_LIMIT})"))
    if p.get("nodes", 0) < 0:
        raise ConfigError(f"player.nodes = {p['nodes']}; give a node budget per move >= 0 (0: the fixed depth)")
    play = config.get("play", {})
    if play.get("ms", 0) < 0 or play.get("nodes", 0) < 0:
        raise ConfigError("play.ms and play.nodes are budgets per move: give numbers >= 0 (0: none)")
    if play.get("uct", "kernels") not in UCT_CANDIDATES:
        raise ConfigError(f"play.uct = {play['uct']!r}; give one of {', '.join(UCT_CANDIDATES)} (when the play "
                          f"check also tries Monte Carlo tree search guided by the evaluation)")
    if config["population"] < 2 or config["generations"] < 1:
        raise ConfigError("population must be >= 2 and generations >= 1")
    if config.get("minutes", 0) < 0:
        raise ConfigError(f"minutes = {config['minutes']}; give the time budget in minutes (0: none)")
    if not 0 <= config.get("closing", 0) <= 0.5:
        raise ConfigError(f"closing = {config['closing']}; give the share of minutes kept for the closing playoff "
                          f"and tables, 0..0.5")
    report = config["report"]
    if report.get("play_games", 0) < 0:
        raise ConfigError(f"report.play_games = {report['play_games']}; give the games a seat that choose how the "
                          f"champion plays (0: within play's budget, unchecked)")
    if report.get("playoff", 0) < 0 or report.get("playoff_games", 1) < 1:
        raise ConfigError("report.playoff (champions in the playoff, 0: none) must be >= 0 and "
                          "report.playoff_games >= 1")


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
        from evoplay.agents import make_agent

        for s in r["opponents"]:
            try:
                make_agent(s, self.game)
            except SpecError as err:
                raise ConfigError(f"report.opponents: {err}") from None
        pl = config["player"]
        self.free_features = bool(pl.get("free_features", False))
        self.scale_features = bool(pl.get("scale_features", False))
        # pair counts or line patterns where the game's features are a board they can be counted on (else the
        # features as they are)
        board = pair_board(self.game) is not None
        self.line_features = int(pl.get("line_features", 0)) if board else 0
        if not 0 <= self.line_features <= MAX_LINE or self.line_features == 1:
            raise ConfigError(f"player.line_features = {self.line_features}; give the cells of a line pattern, "
                              f"2..{MAX_LINE} (0: none)")
        self.pair_features = bool(pl.get("pair_features", False)) and board and not self.line_features
        # The scales are measured when the run starts and kept in its state (use_view), so a resumed run reads
        # exactly what it read before, and a broken game is caught by the first generation, in its run folder.
        self.view = FeatureView(self.game, self.free_features, pairs=self.pair_features, lines=self.line_features)
        self.train_budget = Budget(nodes=int(pl["nodes"])) if pl.get("nodes", 0) else None
        play = dict(config.get("play", {}))
        self.play_uct = play.pop("uct", "kernels")
        self.play = {k: v for k, v in play.items() if v}
        self.levels = None  # the [levels] table with --levels (evoplay.recipes.levels), else None

    # --- the loop -------------------------------------------------------------------------------------------
    def use_view(self, state: dict) -> None:
        """Read features as the run does: scaled by the scales its state holds."""
        scales = state.get("feature_scales")
        if scales is not None and (self.view.scales is None or not np.array_equal(self.view.scales, scales)):
            self.view = FeatureView(self.game, self.free_features, scales, self.pair_features, self.view.lines,
                                    self.view.codes)

    def start(self, rng: np.random.Generator) -> dict:
        scales = (measure_scales(self.game, self.free_features, self.seed, pairs=self.pair_features,
                                 lines=self.line_features) if self.scale_features else None)
        self.use_view({"feature_scales": scales})
        state = {"population": self.new_population(rng), "rng": rng, "hall": [], "best": None}
        if scales is not None:
            state["feature_scales"] = scales
        self.compile_closing(state["population"][0])
        if self.fitness_spec.ladder:
            state["ladder"] = 0
        if self.config["report"].get("playoff", 0):
            state["champions"] = []
        return state

    def step(self, state: dict, generation: int, executor) -> tuple[dict, dict]:
        self.executor = executor  # the champion's playoff at the finish plays on it too
        self.use_view(state)
        pop = state["population"]
        spec = self.fitness_spec
        agents = [self.agent(ind, f"g{generation}.{i}") for i, ind in enumerate(pop)]
        ladder = Ladder(spec, state["ladder"]) if spec.ladder else None
        plays_hall = ladder.plays_hall() if ladder else True
        hall = [self.agent(ind, f"hall {k}") for k, ind in enumerate(state["hall"])] if plays_hall else []
        sizes = [self.size(ind) for ind in pop]
        res = evaluate_population(self.game, agents, spec, self.seed, generation, executor, hall, sizes,
                                  opponents=ladder.opponents() if ladder else None)
        fit = res.fitness
        best = res.best()
        summary = res.summary(best)
        if state["best"] is None or fit[best] >= state["best"]["fitness"]:
            state["best"] = {"individual": pop[best].copy(), "fitness": float(fit[best]), "generation": generation,
                             "summary": summary}
        if spec.hall_of_fame:
            state["hall"] = (state["hall"] + [pop[best].copy()])[-spec.hall_of_fame:]
        record = {"best": float(fit[best]), "mean": float(fit.mean()), "worst": float(fit.min()),
                  "best_score": float(res.score[best]), "mean_size": float(np.mean(sizes)),
                  "max_size": int(np.max(sizes)), "games": int(res.games.sum()),
                  "best_wdl": [summary["wins"], summary["draws"], summary["losses"]],
                  "opponents": summary["opponents"]}
        if ladder:
            record["ladder"] = ladder.top_name()
            joined = ladder.climb(res, len(state["hall"]))
            if joined:
                record["joined"] = joined
            state["ladder"] = ladder.top
        if self.levels is not None and levels.keeps(generation):  # a difficulty level's candidate
            entry = {"individual": pop[best].copy(), "generation": generation}
            state["level_candidates"] = state.get("level_candidates", []) + [entry]
        if "champions" in state:
            keep = int(self.config["report"]["playoff"])
            entry = {"individual": pop[best].copy(), "generation": generation, "fitness": float(res.fitness[best])}
            state["champions"] = (state["champions"] + [entry])[-keep:]
        state["plies"] = res.plies  # how long a game lasts now: what the closing's play check will cost
        state["population"] = self.next_population(state, res)
        return state, record

    def closing_seconds(self, state: dict, workers: int) -> float:
        """The seconds the closing needs so that its play check (the playoff's share of the closing first, then the
        check's of the rest: PLAYOFF_SHARE, CHECK_SHARE) can play CHECK_ROUNDS rounds at ``play.ms`` a move, from
        the mean length of the last generation's games; the loop keeps at least this for the closing (at most half
        the budget). 0 without a time budget a move or a play check."""
        if not int(self.config["report"].get("play_games", 0)):
            return 0.0
        ms = float(self.play.get("ms", 0) or 0)
        return CHECK_ROUNDS * self.check_round_seconds(state, workers, ms) / ((1.0 - PLAYOFF_SHARE) * CHECK_SHARE)

    def check_round_seconds(self, state: dict, workers: int, ms: float) -> float:
        """How long a round of the play check takes at ``ms`` a move, from the mean length of the last generation's
        games (0 before one was played, or without a time a move)."""
        plies = float(state.get("plies", 0.0))
        if not (ms and plies):
            return 0.0
        timed = 1 + (self.play_uct != "never")  # deepening and (where tried) uct play within the budget
        n = timed + 1  # and the champion as trained, which plays at once
        opponents = self.check_spec(state, 1).opponents
        mcts = sum(1 for o in opponents if o == self.check_mcts())  # the opponents that think ms a move too
        # a timed player moves in half of a game's plies, in two games (a seat each) a pairing: against each
        # opponent, and against each other candidate both ways
        moves = plies * (timed * len(opponents) + n * mcts + timed * (n - 1))
        return moves * ms / 1000.0 / max(1, workers)

    def playoff_extras(self, state: dict) -> list[tuple[object, str, int]]:
        """Individuals no generation played that the champion's playoff weighs too, as (individual, label, the
        generation it stands for)."""
        return []

    def next_population(self, state: dict, res) -> object:
        """The next generation bred from this one by what breeding selects on."""
        return self.breed(state["population"], res.selection, state["rng"])

    def unevaluated(self, state: dict) -> object:
        """What ships when the time budget ran out before a generation was evaluated (evolve.loop): the first
        individual of the population the start made."""
        return state["population"][0]

    def champion(self, state: dict, executor=None) -> tuple[object, dict]:
        """The individual to ship and what its choice rests on: the winner of a playoff among the best of the
        last generations (each against the others and the top rungs, the same games for all), or else the best
        fitness seen (or, when no generation was evaluated, ``unevaluated``: its fitness None)."""
        if state["best"] is None:
            return self.unevaluated(state), {"generation": 0, "fitness": None, "unevaluated": UNEVALUATED}
        entries = list(state.get("champions") or [])
        if len(entries) >= 2:
            entries += [{"individual": ind, "generation": generation, "label": label}
                        for ind, label, generation in self.playoff_extras(state)]
        best = state["best"]
        best_seen = best["individual"], {"generation": best["generation"], "fitness": best["fitness"],
                                         "during_run": best["summary"]}
        if len(entries) < 2:
            return best_seen
        labels = [e.get("label", f"g{e['generation']}") for e in entries]
        agents = [self.agent(e["individual"], label) for e, label in zip(entries, labels)]
        playoff = self.playoff_spec(state, int(self.config["report"]["playoff_games"]))
        try:
            res = evaluate_population(self.game, agents, playoff, self.seed + 104729, 0, executor)
        except TimeBudgetSpent:
            # the run's time budget ran out first: the best of the last generation ships (a fitness of an early
            # generation was measured against weaker opponents and says less)
            last = state["champions"][-1]
            if "fitness" not in last:  # a checkpoint from before the entries kept their fitness
                return best_seen[0], {**best_seen[1], "playoff": STOPPED}
            return last["individual"], {"generation": last["generation"], "fitness": last["fitness"],
                                        "playoff": STOPPED}
        winner = int(np.argmax(res.fitness))
        table = {label: round(float(res.fitness[i]), 4) for i, label in enumerate(labels)}
        chosen = {"generation": entries[winner]["generation"], "fitness": float(res.fitness[winner]),
                  "during_run": res.summary(winner), "playoff": table}
        if "label" in entries[winner]:
            chosen["chosen"] = labels[winner]
        return entries[winner]["individual"], chosen

    def playoff_spec(self, state: dict, games: int) -> FitnessSpec:
        """``games`` a seat against the top rungs (or the fixed opponents) and, in a two-player game, each other,
        with common random numbers: how the champion's playoff and the play check weigh their candidates."""
        spec = self.fitness_spec
        ladder = Ladder(spec, state.get("ladder", 0)) if spec.ladder else None
        opponents = tuple(ladder.opponents() if ladder else spec.opponents)
        return FitnessSpec(opponents, games, round_robin=games if self.game.num_players == 2 else 0,
                           scoring=spec.scoring, crn=True, openings=spec.openings, win=spec.win, draw=spec.draw,
                           loss=spec.loss)

    def check_mcts(self, ms: float | None = None) -> str | None:
        """The play check's yardstick: MCTS with random rollouts (evoplay's uct: UCT, OpenSpiel's constant, the
        solver on) within the champion's time a move (or ``ms``) on the same clock, where uct plays the game and
        ``play`` gives a time; else None (the check plays the top rungs)."""
        from evoplay.agents.uct import supports

        ms = float(self.play.get("ms", 0) or 0) if ms is None else ms
        if not ms or supports(self.game) is not None:
            return None
        return f"uct(ms={ms:g},clock={self.play.get('clock') or 'wall'})"

    def check_spec(self, state: dict, games: int, ms: float | None = None) -> FitnessSpec:
        """The play check's games: ``games`` a seat against MCTS within the same time a move (:meth:`check_mcts`;
        the strongest general player the time allows, and the one a search must beat to be worth its time), or
        where there is none the top rungs, and each other, with common random numbers."""
        spec = self.playoff_spec(state, games)
        mcts = self.check_mcts(ms)
        return spec if mcts is None else replace(spec, opponents=(mcts,))

    def compile_closing(self, individual) -> None:
        """Compile now what the play check plays and no generation does (the deepening search within ``play``'s
        budget, the uct candidate guided by an evaluation of the run's kind, their MCTS yardstick), each by a move
        of ``individual`` (any of the first population: a kernel's types are the kind's, not the values), where
        the start's time counts against the budget. A first compile on a fresh install takes a minute and more on
        a loaded machine, and a game of the closing cannot stop inside one: the closing, planned from the
        generations' games, would overrun by it. Cheap once Numba's cache holds them; nothing to do without a play
        check, or on a game without kernels (nothing to compile: a broken game of a user's breaks in a game of the
        run, where the error names the move and the seed)."""
        from evoplay.agents import make_agent
        from evoplay.agents.feature_player import document_agent

        if (not self.play.get("ms") or not self.config["report"].get("play_games", 0)
                or self.game.kernels() is None):
            return
        doc = {**self.document(individual), **self.view.document(), "play": dict(self.play, ms=1.0)}
        players = [document_agent(self.game, doc, "within the play budget")]
        uct = self.uct_candidate(doc, 1.0)
        if uct is not None:
            players.append(document_agent(self.game, uct, "uct within the play budget"))
        if self.check_mcts() is not None:
            players.append(make_agent("uct(simulations=2)", self.game))
        from evoplay.games.base import first_decision

        state = first_decision(self.game.new_initial_state(), np.random.default_rng(self.seed))
        if state.is_terminal():
            return
        for player in players:
            player.step(state.clone())

    def uct_candidate(self, doc: dict, ms: float | None = None) -> dict | None:
        """The document of the champion played as ``uct`` guided by its evaluation within ``play``'s time budget
        (each move's prior its evaluation's scores, random rollouts at the leaves: evoplay.agents.uct's
        ``guided_player``), when the play check is to try it (``play.uct``: "kernels", where the game's kernels
        run that search, as on OpenSpiel's ports; "always", where uct plays the game; "never"); else None."""
        from evoplay.agents.feature_player import document_agent
        from evoplay.agents.uct import supports

        if self.play_uct == "never" or not self.play.get("ms") or supports(self.game) is not None:
            return None
        candidate = dict(doc, play={"search": "uct", "ms": ms or self.play["ms"], "prior": True, "leaf": "rollouts",
                                    "prior_visits": PRIOR_VISITS,
                                    **({"clock": self.play["clock"]} if self.play.get("clock") else {})})
        agent = document_agent(self.game, candidate, "uct")
        if self.play_uct == "kernels" and not agent.on_kernels:
            return None
        # the evaluation's scale and the prior's temperature, measured once: what every later load reads
        candidate["play"]["spread"] = agent.evaluation_scale
        candidate["play"]["temperature"] = agent.evaluation.temperature_for(self.game, PRIOR_ENTROPY, seed=self.seed)
        return candidate

    def play_check(self, individual, doc: dict, state: dict, executor=None, seconds: float | None = None
                   ) -> dict | None:
        """How the champion plays best: as it was trained, by iterative deepening within ``play``'s budget, or
        (see :meth:`uct_candidate`) as Monte Carlo tree search guided by its evaluation within the same time: each
        plays ``report.play_games`` rounds of a game a seat against MCTS within the same time (:meth:`check_spec`)
        and the others (a time budget that runs out after a round decides by the rounds played, and the result says
        so); the search that does best against MCTS ships (its games against the other candidates break a tie: a
        candidate that beats a weak one is not thereby stronger against MCTS), the player as trained only where it
        won clearly more against MCTS (``ship_label``): a few games' lead is noise, and the search uses its time. Evolution weighs an
        evaluation at the training depth only, and one that ranks the moves of a shallow search well can rank
        the leaves of a deeper one badly (positions where different players move, after different dice); where
        the value of a position is a connection, random rollouts read it better than any sum of features. None
        when there is nothing to check (no play budget, or play_games = 0); else the scores by label, the label
        that ships and under ``uct`` the uct candidate's ``play`` (None without one).

        When ``seconds`` (what the check may take) cannot afford a round at ``play.ms`` a move, every player of the
        check (the candidates and MCTS) thinks the same smaller time, what a round can afford (at least
        MIN_CHECK_MS), and the result says so: the check compares the ways of searching at equal time, and what
        ships keeps ``play.ms``."""
        from evoplay.agents.feature_player import document_agent

        games = int(self.config["report"].get("play_games", 0))
        if not (self.play and games):
            return None
        ms = float(self.play.get("ms", 0) or 0)
        workers = int(getattr(executor, "workers", 1) or 1)
        need = self.check_round_seconds(state, workers, ms)
        check_ms = None
        if seconds is not None and need > 0.0 and need > 0.8 * seconds:  # need 0: no game played to plan by
            check_ms = round(max(MIN_CHECK_MS, ms * 0.8 * max(seconds, 0.0) / need), 1)
        checked = doc if check_ms is None else dict(doc, play=dict(doc["play"], ms=check_ms))
        labels = ["as trained", "within the play budget"]
        agents = [self.agent(individual, labels[0]), document_agent(self.game, checked, labels[1])]
        uct = self.uct_candidate(doc, check_ms)
        if uct is not None:
            labels.append("uct within the play budget")
            agents.append(document_agent(self.game, uct, labels[-1]))
            uct["play"]["ms"] = self.play["ms"]  # what ships thinks the play budget
        # a game a seat a round, every candidate in the same games (common random numbers), so that a time budget
        # that runs out decides by the rounds played rather than not at all
        total, rounds = np.zeros(len(agents)), 0
        against = list(self.check_spec(state, 1, check_ms).opponents)
        wdl = np.zeros((len(agents), len(against), 3), dtype=np.int64)  # each candidate's games against them
        try:
            for r in range(games):
                res = evaluate_population(self.game, agents, self.check_spec(state, 1, check_ms),
                                          self.seed + 15485863 + 7919 * r, 0, executor)
                total += res.fitness
                for k, opponent in enumerate(against):
                    if opponent in res.by_opponent:
                        wdl[:, k] += np.asarray(res.by_opponent[opponent], dtype=np.int64)
                rounds += 1
        except TimeBudgetSpent:  # the run's time budget ran out first
            if not rounds:  # not one round: the play budget ships, unchecked
                return {"scores": STOPPED, "shipped": labels[1], "uct": None}
        fitness = total / rounds
        # what ships is the search that does best against the yardstick (MCTS within the same time: what the player
        # must beat to be worth its time), unless the player as trained clearly does better (ship_label)
        played = wdl.sum(axis=(1, 2))
        rate = np.where(played > 0, (wdl[:, :, 0].sum(axis=1) + 0.5 * wdl[:, :, 1].sum(axis=1))
                        / np.maximum(played, 1), 0.0)
        shipped = ship_label(labels, rate, played, fitness)
        return {"scores": {label: round(float(f), 4) for label, f in zip(labels, fitness)},
                "shipped": shipped, "uct": uct["play"] if uct is not None else None, "rounds": rounds,
                "against": against,
                # wins/draws/losses against each of them, beside the scores that also count the candidates' games
                # against each other
                "wdl": {label: {o: [int(x) for x in wdl[i, k]] for k, o in enumerate(against)}
                        for i, label in enumerate(labels)},
                **({"ms": check_ms} if check_ms is not None else {}),
                **({"stopped": f"after {rounds} of {games} rounds by the time budget"} if rounds < games else {})}

    def report_opponents(self, state: dict) -> list[str]:
        """Whom the champion plays when the run ends: the fixed fitness opponents, the ladder's rungs up to the one
        it reached (not those above: a rung never met says nothing of the run, and an MCTS of thousands of
        simulations on a Python game would take hours after the time budget) and ``report.opponents``."""
        spec = self.fitness_spec
        reached = [x for x in spec.ladder[: int(state.get("ladder", 0)) + 1] if x != "hall"]
        return list(dict.fromkeys(list(spec.opponents) + reached + list(self.config["report"]["opponents"])))

    def finish(self, state: dict, folder) -> None:
        """Choose the champion, choose how it plays (the play check), then measure that player -- the one
        ``gp(best.json)`` / ``weights(best.json)`` loads, which ``play``, ``match``, the browser and the export
        play too -- in fresh games, within what is left of the run's time budget."""
        import time

        from evoplay.agents.feature_player import document_agent
        from evoplay.evolve.loop import time_left
        from evoplay.evolve.plots import plot_log

        left = time_left(folder)
        deadline = None if left is None else time.perf_counter() + left
        end = None if left is None else time.time() + left

        def share(fraction: float) -> float | None:
            """The wall-clock end of a phase that may take ``fraction`` of what is left of the time budget."""
            return None if end is None else time.time() + fraction * max(0.0, end - time.time())

        executor = getattr(self, "executor", None)
        self.use_view(state)
        with games_until(share(PLAYOFF_SHARE)):  # the playoff, then the play check, then the tables: each stops in time
            individual, chosen = self.champion(state, executor)
        doc = self.document(individual)
        doc.update(self.view.document())
        if self.play:
            doc["play"] = dict(self.play)
            check_end = share(CHECK_SHARE)
            with games_until(check_end):
                check = self.play_check(individual, doc, state, executor,
                                        None if check_end is None else check_end - time.time())
            if check:
                uct = check.pop("uct")
                chosen["play_check"] = check
                if check["shipped"] == "as trained":
                    del doc["play"]
                elif check["shipped"].startswith("uct"):
                    doc["play"] = uct
        shipped = document_agent(self.game, doc, "champion")
        measured = None
        if self.levels is not None:  # the levels' round robin: its share of what is left, the final table the rest
            with games_until(end):
                measured = levels.measure(self, state, doc, int(chosen["generation"]), self.levels, executor,
                                          share(self.levels.share))
        games = int(self.config["report"]["games"])
        with games_until(end):
            final = (strength(self.game, shipped, self.report_opponents(state), games, self.seed + 7919, executor,
                              deadline) if games else {})
        doc.update(recipe=self.recipe, seed=self.seed, **chosen, plays=shipped.describe(), final=final)
        folder.write_json("best.json", doc)
        if measured is not None:
            levels.write(folder, measured, doc)
        plot_log(folder, f"{self.recipe} on {self.game.spec}")


def configured(recipe: str, evolution_class, config: dict, options: dict):
    """A generic recipe's Evolution: ``config`` merged over the recipe's defaults (``make`` of gp and ga), or a
    race of it without and with pair features (``player.pair_race``, evoplay.recipes.race)."""
    from evoplay.evolve.config import load_config, merge
    from evoplay.recipes.race import raced

    unknown = sorted(set(options) - {"levels"})
    if unknown:
        raise ConfigError(f"the {recipe} recipe takes the option --levels only, not {', '.join(unknown)}")
    evo = raced(evolution_class, merge(load_config(recipe), config, f"the {recipe} config"))
    if options.get("levels"):  # every setting of a race keeps candidates: the one that runs on makes the levels
        spec = levels.LevelsSpec(evo.config.get("levels"))
        levels.check_ratings()
        if evo.game.num_players < 2:
            raise ConfigError(f"--levels measures the levels against each other, and {evo.game.spec} seats one "
                              f"player; run it without --levels")
        for arm in getattr(evo, "arms", [evo]):
            arm.levels = spec
        evo.closing_share = spec.closing
    return evo
