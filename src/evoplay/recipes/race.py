"""Racing two settings of a generic recipe (``player.pair_race``): each evolves its own population for a share of
the run's budget, a playoff between their best picks one, and that one runs on for the rest of the budget.

What a game needs is not known before it is tried: on a board, the counts of neighbouring cell pairs
(``player.pair_features``) make breakthrough's evaluation much stronger and connect four's weaker. The race
spends ``pair_race`` of the budget (of ``minutes``, or of ``generations`` when there is no time limit) on each
setting, the two taking turns by the time each has used, so the slower one is not cut short. Then each setting's
candidates, the best of its last generation and, for CMA-ES, its mean, play ``report.playoff_games`` games a
seat against each other and the top rungs either has reached, with common random numbers; the setting of the
winner goes on, from where it was (its population, CMA-ES state, ladder and hall), and ships its champion as a
run of that setting would. Without a board there is nothing to race and the recipe runs as it is.
"""
from __future__ import annotations

import time

import numpy as np

from evoplay.errors import ConfigError
from evoplay.evolve.fitness import FitnessSpec, evaluate_population

RACE_KEY = 0x7ACE  # the second setting's random generator in the run seed's derivation
ARMS = ("without pair features", "with pair features")


def check_share(share: float) -> None:
    if not 0.0 <= share <= 0.5:
        raise ConfigError(f"player.pair_race = {share:g}; give the share of the budget each setting evolves for "
                          f"before the playoff, 0..0.5 (0: no race)")


def raced(evolution_class, config: dict):
    """``evolution_class(config)``, or a Race of it without and with pair features when ``player.pair_race`` > 0,
    pair features are not forced on and the game has a board they can be counted on."""
    from evoplay.agents.feature_view import pair_board

    share = float(config["player"].get("pair_race", 0.0))
    check_share(share)
    plain = evolution_class(config)
    if (not share or config["player"].get("pair_features") or config["player"].get("line_features")
            or pair_board(plain.game) is None):
        return plain
    paired = evolution_class({**config, "player": {**config["player"], "pair_features": True}})
    return Race([plain, paired], share)


class Race:
    """The loop's Evolution for a race (module docstring): ``arms``, the evolution without and with pair features,
    of the same recipe and game; arm 0 uses the run's random generator, arm 1 one derived from its seed."""

    def __init__(self, arms: list, share: float):
        self.arms = arms
        self.share = share
        first = arms[0]
        self.config, self.game, self.seed, self.recipe = first.config, first.game, first.seed, first.recipe
        self.generations = first.generations
        self.minutes = float(first.config.get("minutes", 0) or 0)
        self.executor = None

    # --- the loop -------------------------------------------------------------------------------------------
    def start(self, rng: np.random.Generator) -> dict:
        from evoplay.arena.match import derive_seed

        states = [arm.start(rng if k == 0 else np.random.default_rng(derive_seed(self.seed, RACE_KEY + k)))
                  for k, arm in enumerate(self.arms)]
        return {"arms": states, "spent": [0.0] * len(self.arms), "steps": [0] * len(self.arms), "winner": None}

    def racing(self, state: dict) -> bool:
        """Whether some setting has not had its share yet (and no winner has been picked)."""
        if state["winner"] is not None:
            return False
        if self.minutes:
            return min(state["spent"]) < self.share * 60.0 * self.minutes
        return min(state["steps"]) < max(1, round(self.share * self.generations))

    @staticmethod
    def unraced(state: dict) -> bool:
        """Whether ``state`` is a run's that started without a race (a run folder of an evoplay before it): such a
        run goes on as it started, as the first setting alone."""
        return "arms" not in state

    def step(self, state: dict, generation: int, executor) -> tuple[dict, dict]:
        self.executor = executor
        if self.unraced(state):
            return self.arms[0].step(state, generation, executor)
        decided = None
        if state["winner"] is None and not self.racing(state):
            decided = self.decide(state, executor)
        if state["winner"] is None:
            key = state["spent"] if self.minutes else state["steps"]
            k = int(np.argmin(key))  # the setting that has used the least, the first on a tie
        else:
            k = state["winner"]
        start = time.perf_counter()
        state["arms"][k], record = self.arms[k].step(state["arms"][k], state["steps"][k], executor)
        state["spent"][k] += time.perf_counter() - start
        state["steps"][k] += 1
        record = {**record, "setting": ARMS[k]}
        if decided:
            record["race"] = decided
        return state, record

    def unevaluated(self, state: dict):
        """What ships when the first generation (the first setting's) was stopped by the time budget: that
        setting's start (the loop's ``unevaluated``)."""
        return self.arms[0].unevaluated(state if self.unraced(state) else state["arms"][0])

    def closing_seconds(self, state: dict, workers: int) -> float:
        """What the closing of the setting that ships (the first while the race runs) needs: its own estimate."""
        if self.unraced(state):
            return self.arms[0].closing_seconds(state, workers)
        k = state["winner"] if state["winner"] is not None else 0
        return self.arms[k].closing_seconds(state["arms"][k], workers)

    def decide(self, state: dict, executor) -> dict:
        """The playoff that ends the race: each setting's candidates against each other and the top rungs; the
        winner's setting is kept in ``state["winner"]``. Returns what the choice rests on."""
        agents, owners, labels = [], [], []
        played = [k for k, steps in enumerate(state["steps"]) if steps]
        if len(played) < 2:  # a run that ended before every setting had a generation: the one that had goes on
            state["winner"] = played[0] if played else 0
            return {"winner": ARMS[state["winner"]], "steps": list(state["steps"]),
                    "seconds": [round(s, 1) for s in state["spent"]], "playoff": {}}
        for k in played:
            arm, arm_state = self.arms[k], state["arms"][k]
            arm.use_view(arm_state)
            for individual, label in self.candidates(arm, arm_state):
                labels.append(f"{ARMS[k]}: {label}")
                agents.append(arm.agent(individual, labels[-1]))
                owners.append(k)
        res = evaluate_population(self.game, agents, self.playoff_spec(state), self.seed + 7368787, 0, executor)
        best = int(np.argmax(res.fitness))
        state["winner"] = owners[best]
        return {"winner": labels[best].split(":")[0], "steps": list(state["steps"]),
                "seconds": [round(s, 1) for s in state["spent"]],
                "playoff": {label: round(float(f), 4) for label, f in zip(labels, res.fitness)}}

    @staticmethod
    def candidates(arm, arm_state: dict) -> list[tuple[object, str]]:
        """A setting's entries in the race's playoff: the best of its last generation and what its search holds
        as best without having played it (CMA-ES's mean)."""
        entries = arm_state.get("champions") or []
        last = entries[-1]["individual"] if entries else (arm_state["best"] or {}).get("individual")
        out = [(last, "last best")] if last is not None else []
        return out + [(ind, label) for ind, label, _ in arm.playoff_extras(arm_state) if label == "mean"]

    def playoff_spec(self, state: dict) -> FitnessSpec:
        """The race's games: ``report.playoff_games`` a seat against each other and the top rungs of the setting
        that climbed highest, with common random numbers (the champion's playoff, evoplay.recipes.generic)."""
        top = max(int(s.get("ladder", 0)) for s in state["arms"])
        return self.arms[0].playoff_spec({"ladder": top}, int(self.config["report"]["playoff_games"]))

    def finish(self, state: dict, folder) -> None:
        if self.unraced(state):
            self.arms[0].executor = self.executor
            return self.arms[0].finish(state, folder)
        decided = None
        if state["winner"] is None:  # the run ended inside the race: the playoff picks from what there is
            decided = self.decide(state, self.executor)
        k = state["winner"]
        arm = self.arms[k]
        arm.executor = self.executor
        arm.finish(state["arms"][k], folder)
        doc = folder.read_json("best.json")
        doc["race"] = decided or self.logged_race(folder)
        folder.write_json("best.json", doc)

    @staticmethod
    def logged_race(folder) -> dict | None:
        for record in folder.read_log():
            if "race" in record:
                return record["race"]
        return None
