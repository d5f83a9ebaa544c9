"""Fitness for any game, composed from a config table: fixed opponents or a rising ladder, a hall of fame, a round
robin; common random numbers and random openings; successive halving; scored by win/draw/loss weights, by score
margin or by a rating; with the seeds' parsimony terms.

The config table (``[fitness]`` of the ``gp`` and ``ga`` recipes)::

    opponents = ["random"]   # agent specs; every candidate plays each in every seat, ``games`` games per seat
    ladder = []              # when opponents = []: rungs that join one by one ("hall": the hall of fame)
    promote = 0.75           # the next rung joins when the best quarter scores this much against the top one
    promote_hall = 0.6       # the bar of the hall rung (its members are the last champions)
    rungs = 2                # how many of the top rungs joined are played
    games = 4
    crn = false              # common random numbers: every candidate of a generation meets the same games
    openings = 0             # random plies that start every game (drawn from the game's seed)
    racing = "none"          # "halving": successive halving, the better half plays the next round again
    rounds = 3               # rounds of halving (the first is everyone's)
    hall_of_fame = 0         # earlier champions kept (0: none); every candidate plays each of them too
    hall_games = 2           # games per seat against each member
    round_robin = 0          # games per ordered pair inside the population (seed 001's tournament; 0: none)
    scoring = "wdl"          # "wdl", "margin" (own score minus the best other), "auto" (margin where the game
                             # keeps a score during play, else wdl) or "rating" (an openskill rating)
    win = 1.0                # seed 001's 5 / 1 / -4 is win = 5, draw = 1, loss = -4
    draw = 0.5
    loss = 0.0
    parsimony = "none"       # "seed000": score - coefficient x max(0, size - free); "seed003": max(floor,
    free = 20                #   factor x score - size); see evoplay.evolve.bloat
    coefficient = 0.0004
    factor = 100.0
    floor = 1.0

A candidate's score is the mean of its points over all its games (so schedules of any size compare); its
fitness is the score after parsimony. The order breeding selects by (``FitnessResult.selection``) is the
fitness, or under halving the round a candidate reached and then its fitness, as ranks.

Every game's seed is ``derive_seed(run seed, generation, source, ...)``: with ``crn`` the key names the round,
the opponent, the seat and the game but not the candidate, so in one generation every candidate meets the same
openings, dice and opponent seeds, and a difference in score is a difference between candidates, not luck. The
games are played by ``evoplay.arena.tournament.play_schedule``, which cuts them into a few tasks per worker: the
same run seed gives the same fitness on every executor and worker count.

**The ladder** (:class:`Ladder`) starts at its first rung (say ``random``); after each generation, when the best
quarter of the candidates score ``promote`` or more (wins plus half the draws, per game) against the top rung
joined (``promote_hall`` against the hall of fame, whose members are the last champions), the next rung joins,
so the opponents rise with the population and the score never saturates. Of the
rungs joined, the top ``rungs`` are played. The rung ``hall`` is the hall of fame (its members count as one rung).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

from evoplay.arena.tournament import Pairing, play_schedule
from evoplay.errors import ConfigError, SpecError, TimeBudgetSpent
from evoplay.evolve.bloat import PARSIMONY, apply_parsimony

SCORINGS = ("wdl", "margin", "auto", "rating")
RACINGS = ("none", "halving")
HALL_RUNG = "hall"
# The source of a game, part of its seed key.
OPPONENT, HALL, ROUND_ROBIN = 1, 2, 3
COMMON = 1 << 16  # marks the keys of common random numbers (they name no candidate)
WIN, DRAW, LOSS = 0, 1, 2

DEFAULTS = {
    "opponents": ["random"], "ladder": [], "promote": 0.75, "promote_hall": 0.6, "rungs": 2, "games": 4, "crn": False, "openings": 0,
    "racing": "none", "rounds": 3, "hall_of_fame": 0, "hall_games": 2, "round_robin": 0, "scoring": "wdl",
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
    ladder: tuple[str, ...] = ()
    promote: float = 0.75
    rungs: int = 2
    promote_hall: float = 0.6
    crn: bool = False
    openings: int = 0
    racing: str = "none"
    rounds: int = 3

    @classmethod
    def from_config(cls, table: dict, game=None) -> "FitnessSpec":
        unknown = set(table) - set(DEFAULTS)
        if unknown:
            raise ConfigError(f"[fitness]: unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(DEFAULTS)}")
        v = {**DEFAULTS, **table}
        if v["opponents"]:
            v["ladder"] = []  # fixed opponents, when given, replace the ladder
        if game is not None and v["ladder"]:
            v["ladder"] = playable_rungs(list(v["ladder"]), game)
        spec = cls(tuple(v["opponents"]), int(v["games"]), int(v["hall_of_fame"]), int(v["hall_games"]),
                   int(v["round_robin"]), str(v["scoring"]), float(v["win"]), float(v["draw"]), float(v["loss"]),
                   str(v["parsimony"]), int(v["free"]), float(v["coefficient"]), float(v["factor"]),
                   float(v["floor"]), tuple(v["ladder"]), float(v["promote"]), int(v["rungs"]),
                   float(v["promote_hall"]), bool(v["crn"]), int(v["openings"]), str(v["racing"]), int(v["rounds"]))
        spec.check(game)
        return spec

    def check(self, game=None) -> None:
        if self.scoring not in SCORINGS:
            raise ConfigError(f"fitness.scoring = {self.scoring!r}; use one of {', '.join(SCORINGS)}")
        if self.racing not in RACINGS:
            raise ConfigError(f"fitness.racing = {self.racing!r}; use one of {', '.join(RACINGS)}")
        if self.parsimony not in PARSIMONY:
            raise ConfigError(f"fitness.parsimony = {self.parsimony!r}; use one of {', '.join(PARSIMONY)}")
        for name in ("games", "hall_of_fame", "hall_games", "round_robin", "openings"):
            if getattr(self, name) < 0:
                raise ConfigError(f"fitness.{name} = {getattr(self, name)} must be >= 0")
        if not 1 <= self.rounds <= 10:
            raise ConfigError(f"fitness.rounds = {self.rounds}; use 1..10 rounds of halving")
        if self.rungs < 1:
            raise ConfigError(f"fitness.rungs = {self.rungs}; play at least the top rung (1)")
        if not 0.5 < self.promote <= 1.0:
            raise ConfigError(f"fitness.promote = {self.promote}; give a score per game above 0.5 and at most 1 "
                              f"(0.75: the best quarter win three games in four against the top rung)")
        if not 0.5 < self.promote_hall <= 1.0:
            raise ConfigError(f"fitness.promote_hall = {self.promote_hall}; give a score per game above 0.5 and at "
                              f"most 1 (the hall holds the last champions, so a lower bar than promote: 0.6)")
        if self.ladder and not self.games:
            raise ConfigError("fitness.ladder is given but fitness.games = 0; give games >= 1 per seat")
        if HALL_RUNG in self.ladder and not self.hall_of_fame:
            raise ConfigError(f"fitness.ladder has a {HALL_RUNG!r} rung but hall_of_fame = 0; keep some champions "
                              f"(hall_of_fame = 4) or drop the rung")
        if self.ladder and self.ladder[0] == HALL_RUNG:
            raise ConfigError(f"fitness.ladder starts with {HALL_RUNG!r}, which is empty at the first generation; "
                              f"start with an agent such as \"random\"")
        if not (self.opponents and self.games) and not self.ladder and not self.hall_of_fame and not self.round_robin:
            raise ConfigError("fitness plays no games: give opponents (and games >= 1), a ladder, a hall_of_fame or "
                              "a round_robin")
        if self.opponents and not self.games:
            raise ConfigError("fitness.opponents are given but fitness.games = 0; give games >= 1 per seat")
        if game is not None:
            from evoplay.agents import make_agent

            for where, specs in (("opponents", self.opponents), ("ladder", self.ladder)):
                for s in specs:
                    if where == "ladder" and s == HALL_RUNG:
                        continue
                    try:
                        make_agent(s, game)
                    except SpecError as err:
                        raise ConfigError(f"fitness.{where}: {err}") from None
            if self.round_robin and game.num_players != 2:
                raise ConfigError(f"fitness.round_robin is for two-player games; {game.spec} seats "
                                  f"{game.num_players}: use opponents or a hall_of_fame")
        if self.scoring == "rating":
            try:
                import openskill  # noqa: F401
            except ImportError:
                raise ConfigError("fitness.scoring = \"rating\" needs openskill: pip install 'evoplay[ratings]'") \
                    from None

    def to_config(self) -> dict:
        d = {k: getattr(self, k) for k in DEFAULTS}
        d["opponents"] = list(self.opponents)
        d["ladder"] = list(self.ladder)
        return d

    def resolved_scoring(self, game) -> str:
        """``auto`` made concrete for ``game``: margin where it keeps a score during play, else wdl."""
        if self.scoring != "auto":
            return self.scoring
        return "margin" if keeps_score(game) else "wdl"


def playable_rungs(ladder: list[str], game) -> list[str]:
    """The rungs of ``ladder`` that can play ``game``: a known agent that refuses the game (``uct`` on a game with
    simultaneous moves, a search on hidden cards without ``resample``) is left out with a warning, so the default
    ladder fits every game; an unknown name or bad parameters stay errors."""
    import sys

    from evoplay.agents import AGENTS, refusal
    from evoplay.spec import parse_spec

    kept = []
    for rung in ladder:
        if rung != HALL_RUNG:
            try:
                name = parse_spec(rung, "agent").name
                AGENTS.entry(name)
                why = refusal(name, game)
            except SpecError:
                why = None  # the full check in FitnessSpec.check words the error
            if why:
                print(f"warning: fitness.ladder: the rung {rung!r} is left out: it cannot play {game.spec}: {why}",
                      file=sys.stderr)
                continue
        kept.append(rung)
    return kept


def keeps_score(game, seed: int = 0, positions: int = 60) -> bool:
    """True when ``state.scores()`` says something during play: some position of random games has a score
    that is not zero for every player (OpenSpiel's games only score at the end; Othello counts discs, Kalah
    its stores)."""
    from evoplay.agents.feature_view import decisions
    from evoplay.errors import GameError

    known = getattr(game, "_keeps_score", None)
    if known is not None:
        return known
    found = False
    for d in decisions(game, positions, seed):
        try:
            scores = d.state.scores()
        except GameError as err:
            raise d.named(err, game.spec) from None
        if any(float(s) != 0.0 for s in scores):
            found = True
            break
    game._keeps_score = found  # asked every generation: measured once per game object
    return found


@dataclass
class FitnessResult:
    """Per candidate: fitness (after parsimony), score (mean points), W/D/L, and W/D/L per opponent name;
    ``selection`` is what breeding ranks by (the fitness, or ranks under halving); ``rounds`` the round of
    halving each reached (0 without halving)."""

    fitness: np.ndarray
    score: np.ndarray
    wins: np.ndarray
    draws: np.ndarray
    losses: np.ndarray
    games: np.ndarray
    by_opponent: dict[str, np.ndarray] = field(default_factory=dict)  # name -> (candidates, 3) W/D/L
    selection: np.ndarray | None = None
    rounds: np.ndarray | None = None
    plies: float = 0.0  # the mean length of the games played, in moves

    def __post_init__(self):
        if self.selection is None:
            self.selection = self.fitness
        if self.rounds is None:
            self.rounds = np.zeros(len(self.fitness), dtype=np.int64)

    def best(self) -> int:
        """The index breeding ranks first."""
        return int(np.argmax(self.selection))

    def summary(self, i: int) -> dict:
        return {"fitness": float(self.fitness[i]), "score": float(self.score[i]), "wins": int(self.wins[i]),
                "draws": int(self.draws[i]), "losses": int(self.losses[i]),
                "opponents": {k: [int(x) for x in v[i]] for k, v in self.by_opponent.items()}}

    def win_rate(self, indices, opponent: str) -> tuple[float, int]:
        """Wins plus half the draws per game of ``indices`` against ``opponent``, pooled, and the games."""
        wdl = self.by_opponent.get(opponent)
        if wdl is None:
            return 0.0, 0
        w, d, l_ = (int(x) for x in wdl[list(indices)].sum(axis=0))
        g = w + d + l_
        return ((w + 0.5 * d) / g if g else 0.0), g


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


def points(spec: FitnessSpec, returns, scores, seat: int, scoring: str | None = None) -> float:
    """A game's points for ``seat`` under ``scoring`` (default the spec's; "auto" must be resolved first)."""
    scoring = scoring or spec.scoring
    if scoring == "margin":
        others = [s for p, s in enumerate(scores) if p != seat]
        return float(scores[seat] - max(others))
    return (spec.win, spec.draw, spec.loss)[outcome(returns, seat)]


def _seatings(candidate: int, others: list[int], players: int):
    """Each seat for ``candidate``, the others (copies of one opponent) in the remaining seats, in order."""
    for seat in range(players):
        rest = iter(others)
        yield seat, tuple(candidate if p == seat else next(rest) for p in range(players))


def schedule(spec: FitnessSpec, n, players: int, generation: int, opponent_slots: list[list[int]],
             hall_slots: list[list[int]], round_: int = 0) -> list[Pairing]:
    """The pairings of one round of a generation: the candidates ``n`` (a count, or the indices still racing)
    against the opponents' and hall members' agent slots (``players - 1`` copies each), and in the first round the
    round robin among all of them. Without ``crn`` and in the first round the keys are those of evoplay before
    halving existed (so earlier runs reproduce)."""
    alive = list(range(n)) if isinstance(n, int) else list(n)
    out = []

    def key(source: int, i: int, o: int, seat: int) -> tuple[int, ...]:
        if spec.crn:
            return (generation, source, COMMON, round_, o, seat)
        if round_:
            return (generation, source, i, o, seat, round_)
        return (generation, source, i, o, seat)

    for i in alive:
        for o, slots in enumerate(opponent_slots):
            for seat, seats in _seatings(i, slots, players):
                out.append(Pairing(seats, spec.games, key(OPPONENT, i, o, seat), spec.openings))
        for h, slots in enumerate(hall_slots):
            for seat, seats in _seatings(i, slots, players):
                out.append(Pairing(seats, spec.hall_games, key(HALL, i, h, seat), spec.openings))
    if spec.round_robin and round_ == 0:
        everyone = list(range(n)) if isinstance(n, int) else alive
        for i in everyone:
            for j in everyone:
                if i != j:  # a pair's games are its own, common numbers or not (it names two candidates)
                    out.append(Pairing((i, j), spec.round_robin, (generation, ROUND_ROBIN, i, j), spec.openings))
    return out


class _Tally:
    """Points, games and W/D/L per candidate, and per opponent name, as records come in."""

    def __init__(self, spec: FitnessSpec, n: int, slot_owner: dict[int, str], scoring: str):
        self.spec, self.n, self.slot_owner, self.scoring = spec, n, slot_owner, scoring
        self.total = np.zeros(n)
        self.games = np.zeros(n, dtype=np.int64)
        self.wdl = np.zeros((n, 3), dtype=np.int64)
        self.by_opponent = {name: np.zeros((n, 3), dtype=np.int64) for name in dict.fromkeys(slot_owner.values())}
        if spec.round_robin:
            self.by_opponent["round robin"] = np.zeros((n, 3), dtype=np.int64)
        self.records: list = []

    def add(self, records) -> None:
        n = self.n
        for rec in records:
            self.records.append(rec)
            for seat, who in enumerate(rec.seats):
                if who >= n:
                    continue
                o = outcome(rec.returns, seat)
                self.total[who] += points(self.spec, rec.returns, rec.scores, seat, self.scoring)
                self.games[who] += 1
                self.wdl[who, o] += 1
                other = next((a for a in rec.seats if a != who), who)
                self.by_opponent[self.slot_owner.get(other, "round robin")][who, o] += 1

    def score(self) -> np.ndarray:
        return np.divide(self.total, self.games, out=np.zeros(self.n), where=self.games > 0)


def _ratings(records, n: int, slot_owner: dict[int, str]) -> np.ndarray:
    """Each candidate's openskill rating (mu - 3 sigma) after the generation's games in schedule order; every
    copy of an opponent shares one rating, and everyone starts from openskill's defaults."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict = {}

    def rating(who):
        name = who if who < n else slot_owner.get(who, who)
        if name not in ratings:
            ratings[name] = model.rating()
        return name

    for rec in records:
        names = [rating(w) for w in rec.seats]
        if len(set(names)) < len(names):
            continue  # a candidate against itself tells nothing
        ranks = [-float(r) for r in rec.returns]
        teams = model.rate([[ratings[nm]] for nm in names], ranks=ranks)
        for nm, team in zip(names, teams):
            ratings[nm] = team[0]
    return np.array([ratings[i].ordinal() if i in ratings else 0.0 for i in range(n)])


def _ranks(keys: list[tuple]) -> np.ndarray:
    """0 for the lowest key, n - 1 for the highest (ties keep their population order)."""
    order = sorted(range(len(keys)), key=lambda i: (keys[i], -i))
    ranks = np.empty(len(keys), dtype=np.float64)
    ranks[order] = np.arange(len(keys), dtype=np.float64)
    return ranks


def evaluate_population(game, candidates, spec: FitnessSpec, seed: int, generation: int, executor=None,
                        hall=(), sizes=None, progress=None, opponents=None) -> FitnessResult:
    """Play one generation's games and score every candidate (agents, in population order).

    ``opponents`` are the specs played this generation (default ``spec.opponents``; the ladder's top rungs);
    ``hall`` holds agents of earlier champions (the recipe keeps the last ``spec.hall_of_fame``); ``sizes`` the
    program sizes for parsimony (None: no size, parsimony is skipped)."""
    from evoplay.agents import make_agent

    n = len(candidates)
    players = game.num_players
    agents = list(candidates)
    opponents = tuple(spec.opponents if opponents is None else opponents)

    def seat_copies(make) -> list[int]:
        slots = []
        for _ in range(players - 1):
            slots.append(len(agents))
            agents.append(make())
        return slots

    plays_opponents = bool(spec.games and opponents)
    opponent_slots = [seat_copies(lambda s=s: make_agent(s, game)) for s in opponents] if plays_opponents else []
    names = list(opponents) if plays_opponents else []
    hall = list(hall) if spec.hall_games else []
    hall_slots = [seat_copies(lambda h=h: copy.deepcopy(h)) for h in hall]
    slot_owner = {}
    for o, slots in enumerate(opponent_slots):
        for s in slots:
            slot_owner[s] = names[o]
    for s_list in hall_slots:
        for s in s_list:
            slot_owner[s] = "hall of fame"

    scoring = spec.resolved_scoring(game)
    tally = _Tally(spec, n, slot_owner, scoring)
    rounds = spec.rounds if spec.racing == "halving" else 1
    reached = np.zeros(n, dtype=np.int64)
    alive = list(range(n))
    per_candidate = (len(opponent_slots) * spec.games + len(hall_slots) * spec.hall_games) * players
    expected = sum(per_candidate * max(1, -(-n // (2 ** r))) for r in range(rounds))
    expected += spec.round_robin * n * (n - 1)
    done = 0

    def report(k, _total):
        if progress:
            progress(done + k, expected)

    for r in range(rounds):
        pairings = schedule(spec, n if r == 0 else alive, players, generation, opponent_slots, hall_slots, r)
        result = play_schedule(game, agents, pairings, seed, executor, report if progress else None)
        done += len(result.records)
        tally.add(result.records)
        reached[alive] = r
        if r + 1 < rounds:
            score = tally.score()
            keep = max(2, -(-len(alive) // 2))
            if keep >= len(alive):
                break
            alive = sorted(alive, key=lambda i: (-score[i], i))[:keep]
            alive.sort()

    score = tally.score()
    if scoring == "rating":
        score = _ratings(tally.records, n, slot_owner)
    if sizes is None or spec.parsimony == "none":
        fitness = score.copy()
    else:
        params = ({"free": spec.free, "coefficient": spec.coefficient} if spec.parsimony == "seed000"
                  else {"factor": spec.factor, "floor": spec.floor})
        fitness = apply_parsimony(spec.parsimony, score, np.asarray(sizes), **params)
    fitness = np.asarray(fitness, dtype=np.float64)
    selection = _ranks([(int(reached[i]), float(fitness[i])) for i in range(n)]) if rounds > 1 else fitness
    plies = float(np.mean([rec.moves for rec in tally.records])) if tally.records else 0.0
    return FitnessResult(fitness, score, tally.wdl[:, WIN], tally.wdl[:, DRAW], tally.wdl[:, LOSS], tally.games,
                         tally.by_opponent, selection, reached, plies)


# --------------------------------------------------------------------------------------------------------------
# The ladder.
# --------------------------------------------------------------------------------------------------------------


class Ladder:
    """Opponents that rise (see the module docstring): ``top`` is the index of the highest rung joined."""

    def __init__(self, spec: FitnessSpec, top: int = 0):
        self.spec = spec
        self.rungs = list(spec.ladder)
        self.top = int(top)

    def active(self) -> list[str]:
        """The rungs played this generation, highest last (the hall rung included when joined)."""
        lo = max(0, self.top - self.spec.rungs + 1)
        return self.rungs[lo:self.top + 1]

    def opponents(self) -> list[str]:
        """The active rungs that are agent specs (the hall rung is played through the hall of fame)."""
        return [r for r in self.active() if r != HALL_RUNG]

    def plays_hall(self) -> bool:
        return HALL_RUNG in self.active()

    def top_name(self) -> str:
        rung = self.rungs[self.top]
        return "hall of fame" if rung == HALL_RUNG else rung

    def climb(self, result: FitnessResult, hall_size: int) -> str:
        """Join the next rung when the best quarter beat the top one clearly; returns the rung joined, or ''."""
        if self.top + 1 >= len(self.rungs):
            return ""
        n = len(result.selection)
        best = np.argsort(-np.asarray(result.selection), kind="stable")[:max(1, n // 4)]
        rate, games = result.win_rate(best, self.top_name())
        bar = self.spec.promote_hall if self.rungs[self.top] == HALL_RUNG else self.spec.promote
        if games < 8 or rate < bar:
            return ""
        self.top += 1
        if self.rungs[self.top] == HALL_RUNG and not hall_size and self.top + 1 < len(self.rungs):
            self.top += 1  # an empty hall is no rung yet: the next one joins
        return self.rungs[self.top]


def strength(game, agent, opponent_specs, games_per_seat: int, seed: int, executor=None,
             deadline: float | None = None) -> dict:
    """W/D/L and win rate of one agent against each spec in every seat (a champion's report).

    With a ``deadline`` (a ``time.perf_counter()``: the time budget of the command that asks) the games are
    played in rounds, one game a seat against every opponent first, then twice as many each round, and no
    round starts that the rounds so far say would end past the deadline: fewer games, never a late answer. The
    first round always plays. Each round's games have seeds of their own, so the rounds played are the same
    games whatever the machine; only how many rounds fit depends on its speed. Inside ``games_until`` a round
    that runs past its end is dropped (the first included: then no games are reported)."""
    import time

    def tally(res, out):
        for name in opponent_specs:
            w, d, l_ = (int(x) for x in res.by_opponent[name][0])
            r = out.setdefault(name, {"wins": 0, "draws": 0, "losses": 0})
            r["wins"] += w
            r["draws"] += d
            r["losses"] += l_

    out: dict = {}
    if deadline is None:
        spec = FitnessSpec(tuple(opponent_specs), games_per_seat, 0, 0, 0)
        tally(evaluate_population(game, [agent], spec, seed, generation=1 << 20, executor=executor), out)
    else:
        played, size, index = 0, 1, 0
        while played < games_per_seat:
            size = min(size, games_per_seat - played)
            start = time.perf_counter()
            spec = FitnessSpec(tuple(opponent_specs), size, 0, 0, 0)
            try:
                res = evaluate_population(game, [agent], spec, seed, generation=(1 << 20) + index, executor=executor)
            except TimeBudgetSpent:  # games_until's end came first: the rounds played so far are the answer
                break
            tally(res, out)
            played, index = played + size, index + 1
            per_game = (time.perf_counter() - start) / size
            size *= 2
            if time.perf_counter() + per_game * min(size, games_per_seat - played) > deadline:
                break
    for r in out.values():
        g = r["wins"] + r["draws"] + r["losses"]
        r["games"] = g
        r["win_rate"] = round((r["wins"] + 0.5 * r["draws"]) / g, 4) if g else 0.0
    return out
