"""Fitness for any game, composed from a config table: fixed opponents, a hall of fame, a round robin; scored
by win/draw/loss weights or by score margin; with the seeds' parsimony terms.

The config table (``[fitness]`` of the ``gp`` and ``ga`` recipes)::

    opponents = ["random"]   # agent specs; every candidate plays each in every seat, ``games`` games per seat
    games = 4
    hall_of_fame = 0         # earlier champions kept (0: none); every candidate plays each of them too
    hall_games = 2           # games per seat against each member
    round_robin = 0          # games per ordered pair inside the population (seed 001's tournament; 0: none)
    scoring = "wdl"          # "wdl": win/draw/loss points; "margin": own score minus the best other score
    win = 1.0                # seed 001's 5 / 1 / -4 is win = 5, draw = 1, loss = -4
    draw = 0.5
    loss = 0.0
    parsimony = "none"       # "seed000": score - coefficient x max(0, size - free); "seed003": max(floor,
    free = 20                #   factor x score - size); see evoplay.evolve.bloat
    coefficient = 0.0004
    factor = 100.0
    floor = 1.0

A candidate's score is the mean of its points over all its games (so schedules of any size compare); its
fitness is the score after parsimony. Every game's seed is ``derive_seed(run seed, generation, source, i, j,
seat, game)`` and the games are played by ``evoplay.arena.tournament.play_schedule``, which cuts them into a few
tasks per worker: the same run seed gives the same fitness on every executor and worker count.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

from evoplay.arena.tournament import Pairing, play_schedule
from evoplay.errors import ConfigError, SpecError
from evoplay.evolve.bloat import PARSIMONY, apply_parsimony

SCORINGS = ("wdl", "margin")
# The source of a game, part of its seed key.
OPPONENT, HALL, ROUND_ROBIN = 1, 2, 3
WIN, DRAW, LOSS = 0, 1, 2

DEFAULTS = {
    "opponents": ["random"], "games": 4, "hall_of_fame": 0, "hall_games": 2, "round_robin": 0, "scoring": "wdl",
    "win": 1.0, "draw": 0.5, "loss": 0.0, "parsimony": "none", "free": 20, "coefficient": 0.0004, "factor": 100.0,
    "floor": 1.0,
}


@dataclass(frozen=True)
class FitnessSpec:
    """What a candidate plays and how its games are scored (see the module docstring)."""

    opponents: tuple[str, ...] = ("random",)
    games: int = 4
    hall_of_fame: int = 0
    hall_games: int = 2
    round_robin: int = 0
    scoring: str = "wdl"
    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    parsimony: str = "none"
    free: int = 20
    coefficient: float = 0.0004
    factor: float = 100.0
    floor: float = 1.0

    @classmethod
    def from_config(cls, table: dict, game=None) -> "FitnessSpec":
        unknown = set(table) - set(DEFAULTS)
        if unknown:
            raise ConfigError(f"[fitness]: unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(DEFAULTS)}")
        values = {**DEFAULTS, **table}
        spec = cls(tuple(values["opponents"]), int(values["games"]), int(values["hall_of_fame"]),
                   int(values["hall_games"]), int(values["round_robin"]), str(values["scoring"]),
                   float(values["win"]), float(values["draw"]), float(values["loss"]), str(values["parsimony"]),
                   int(values["free"]), float(values["coefficient"]), float(values["factor"]), float(values["floor"]))
        spec.check(game)
        return spec

    def check(self, game=None) -> None:
        if self.scoring not in SCORINGS:
            raise ConfigError(f"fitness.scoring = {self.scoring!r}; use one of {', '.join(SCORINGS)}")
        if self.parsimony not in PARSIMONY:
            raise ConfigError(f"fitness.parsimony = {self.parsimony!r}; use one of {', '.join(PARSIMONY)}")
        for name in ("games", "hall_of_fame", "hall_games", "round_robin"):
            if getattr(self, name) < 0:
                raise ConfigError(f"fitness.{name} = {getattr(self, name)} must be >= 0")
        if not (self.opponents and self.games) and not self.hall_of_fame and not self.round_robin:
            raise ConfigError("fitness plays no games: give opponents (and games >= 1), a hall_of_fame or a "
                              "round_robin")
        if self.opponents and not self.games:
            raise ConfigError("fitness.opponents are given but fitness.games = 0; give games >= 1 per seat")
        if game is not None:
            from evoplay.agents import make_agent

            for s in self.opponents:
                try:
                    make_agent(s, game)
                except SpecError as err:
                    raise ConfigError(f"fitness.opponents: {err}") from None
            if self.round_robin and game.num_players != 2:
                raise ConfigError(f"fitness.round_robin is for two-player games; {game.spec} seats "
                                  f"{game.num_players}: use opponents or a hall_of_fame")

    def to_config(self) -> dict:
        d = {k: getattr(self, k) for k in DEFAULTS}
        d["opponents"] = list(self.opponents)
        return d


@dataclass
class FitnessResult:
    """Per candidate: fitness (after parsimony), score (mean points), W/D/L, and W/D/L per opponent name."""

    fitness: np.ndarray
    score: np.ndarray
    wins: np.ndarray
    draws: np.ndarray
    losses: np.ndarray
    games: np.ndarray
    by_opponent: dict[str, np.ndarray] = field(default_factory=dict)  # name -> (candidates, 3) W/D/L

    def summary(self, i: int) -> dict:
        return {"fitness": float(self.fitness[i]), "score": float(self.score[i]), "wins": int(self.wins[i]),
                "draws": int(self.draws[i]), "losses": int(self.losses[i]),
                "opponents": {k: [int(x) for x in v[i]] for k, v in self.by_opponent.items()}}


def outcome(returns, seat: int) -> int:
    """WIN, DRAW or LOSS of ``seat``: a win is the single highest return, a draw a shared highest (two players:
    the sign of the return)."""
    r = returns[seat]
    if len(returns) == 2:
        return WIN if r > 0 else (DRAW if r == 0 else LOSS)
    best = max(returns)
    if r < best:
        return LOSS
    return WIN if list(returns).count(best) == 1 else DRAW


def points(spec: FitnessSpec, returns, scores, seat: int) -> float:
    if spec.scoring == "margin":
        others = [s for p, s in enumerate(scores) if p != seat]
        return float(scores[seat] - max(others))
    return (spec.win, spec.draw, spec.loss)[outcome(returns, seat)]


def _seatings(candidate: int, others: list[int], players: int):
    """Each seat for ``candidate``, the others (copies of one opponent) in the remaining seats, in order."""
    for seat in range(players):
        rest = iter(others)
        yield seat, tuple(candidate if p == seat else next(rest) for p in range(players))


def schedule(spec: FitnessSpec, n: int, players: int, generation: int, opponent_slots: list[list[int]],
             hall_slots: list[list[int]]) -> list[Pairing]:
    """The pairings of one generation: candidates 0..n-1 against the opponents' and hall members' agent slots
    (``players - 1`` copies each), and the round robin among themselves."""
    out = []
    for i in range(n):
        for o, slots in enumerate(opponent_slots):
            for seat, seats in _seatings(i, slots, players):
                out.append(Pairing(seats, spec.games, (generation, OPPONENT, i, o, seat)))
        for h, slots in enumerate(hall_slots):
            for seat, seats in _seatings(i, slots, players):
                out.append(Pairing(seats, spec.hall_games, (generation, HALL, i, h, seat)))
    if spec.round_robin:
        for i in range(n):
            for j in range(n):
                if i != j:
                    out.append(Pairing((i, j), spec.round_robin, (generation, ROUND_ROBIN, i, j)))
    return out


def evaluate_population(game, candidates, spec: FitnessSpec, seed: int, generation: int, executor=None,
                        hall=(), sizes=None, progress=None) -> FitnessResult:
    """Play one generation's games and score every candidate (agents, in population order).

    ``hall`` holds agents of earlier champions (the recipe keeps the last ``spec.hall_of_fame``); ``sizes`` the
    program sizes for parsimony (None: no size, parsimony is skipped)."""
    from evoplay.agents import make_agent

    n = len(candidates)
    players = game.num_players
    agents = list(candidates)
    names: list[str] = []

    def seat_copies(make) -> list[int]:
        slots = []
        for _ in range(players - 1):
            slots.append(len(agents))
            agents.append(make())
        return slots

    opponent_slots = [seat_copies(lambda s=s: make_agent(s, game)) for s in spec.opponents] if spec.games else []
    names += list(spec.opponents) if spec.games else []
    hall = list(hall) if spec.hall_games else []
    hall_slots = [seat_copies(lambda h=h: copy.deepcopy(h)) for h in hall]
    pairings = schedule(spec, n, players, generation, opponent_slots, hall_slots)
    result = play_schedule(game, agents, pairings, seed, executor, progress)

    slot_owner = {}
    for o, slots in enumerate(opponent_slots):
        for s in slots:
            slot_owner[s] = names[o]
    for s_list in hall_slots:
        for s in s_list:
            slot_owner[s] = "hall of fame"
    total = np.zeros(n)
    games = np.zeros(n, dtype=np.int64)
    wdl = np.zeros((n, 3), dtype=np.int64)
    by_opponent = {name: np.zeros((n, 3), dtype=np.int64) for name in dict.fromkeys(slot_owner.values())}
    if spec.round_robin:
        by_opponent["round robin"] = np.zeros((n, 3), dtype=np.int64)
    for rec in result.records:
        for seat, who in enumerate(rec.seats):
            if who >= n:
                continue
            o = outcome(rec.returns, seat)
            total[who] += points(spec, rec.returns, rec.scores, seat)
            games[who] += 1
            wdl[who, o] += 1
            other = next((a for a in rec.seats if a != who), who)
            by_opponent[slot_owner.get(other, "round robin")][who, o] += 1
    score = np.divide(total, games, out=np.zeros(n), where=games > 0)
    if sizes is None or spec.parsimony == "none":
        fitness = score.copy()
    else:
        params = ({"free": spec.free, "coefficient": spec.coefficient} if spec.parsimony == "seed000"
                  else {"factor": spec.factor, "floor": spec.floor})
        fitness = apply_parsimony(spec.parsimony, score, np.asarray(sizes), **params)
    return FitnessResult(np.asarray(fitness, dtype=np.float64), score, wdl[:, WIN], wdl[:, DRAW], wdl[:, LOSS],
                         games, by_opponent)


def strength(game, agent, opponent_specs, games_per_seat: int, seed: int, executor=None) -> dict:
    """W/D/L and win rate of one agent against each spec in every seat (a champion's report)."""
    spec = FitnessSpec(tuple(opponent_specs), games_per_seat, 0, 0, 0)
    res = evaluate_population(game, [agent], spec, seed, generation=1 << 20, executor=executor)
    out = {}
    for name in opponent_specs:
        w, d, l_ = (int(x) for x in res.by_opponent[name][0])
        g = w + d + l_
        out[name] = {"wins": w, "draws": d, "losses": l_, "games": g,
                     "win_rate": round((w + 0.5 * d) / g, 4) if g else 0.0}
    return out
