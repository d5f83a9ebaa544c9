"""Matches, round robins and gauntlets: schedules of seeded games played on an executor, and their results."""
from __future__ import annotations

import contextlib
import contextvars
import itertools
import json
import math
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from evoplay.arena.executors import Executor, SerialExecutor
from evoplay.arena.match import GameRecord, derive_seed, play_record
from evoplay.errors import SpecError, TimeBudgetSpent
from evoplay.games.base import Game


@dataclass(frozen=True)
class Pairing:
    """``games`` games with agent ``seats[p]`` in seat p; game g gets seed derive_seed(seed, *key, g) and starts
    with ``openings`` random plies drawn from that seed."""

    seats: tuple[int, ...]
    games: int
    key: tuple[int, ...]
    openings: int = 0


def round_robin_pairings(n: int, games_per_pair: int = 1, round_key: int = 0, seats: int = 2) -> list[Pairing]:
    """Every agent meets every other in both seats: n(n-1) x games_per_pair games (seed 001's tournament).

    For a game of more than two seats, every ordered seating of ``seats`` distinct agents is played, so each
    agent meets every group of others in every seat.
    """
    if seats == 2:
        return [
            Pairing((i, j), games_per_pair, (round_key, i, j))
            for i in range(n)
            for j in range(n)
            if i != j
        ]
    if n < seats:
        raise SpecError(f"a round robin of a {seats}-seat game needs at least {seats} agents (got {n}); "
                        f"the same spec may be given more than once")
    return [Pairing(order, games_per_pair, (round_key, *order)) for order in itertools.permutations(range(n), seats)]


def match_pairings(games: int) -> list[Pairing]:
    """Agents 0 and 1, ``games`` in all, half with each in the first seat (the first gets the odd one)."""
    first = (games + 1) // 2
    out = [Pairing((0, 1), first, (0, 0, 1))]
    if games - first:
        out.append(Pairing((1, 0), games - first, (0, 1, 0)))
    return out


def gauntlet_pairings(n_candidates: int, n_pool: int, games: int, round_key: int = 0) -> list[Pairing]:
    """Each candidate (indices 0..n_candidates-1) against each pool member (indices after them), both seats."""
    out = []
    for c in range(n_candidates):
        for q in range(n_pool):
            j = n_candidates + q
            out.append(Pairing((c, j), games, (round_key, c, j)))
            out.append(Pairing((j, c), games, (round_key, j, c)))
    return out


@dataclass
class AgentStats:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0  # sum of the game-specific scores (seeds in store...)
    score_against: float = 0.0
    by_seat: dict[int, list[int]] = field(default_factory=dict)  # seat -> [wins, draws, losses]

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def fitness(self, win: float = 5, draw: float = 1, loss: float = -4) -> float:
        """Seed 001's fitness, 5 x wins + draws - 4 x losses, by default."""
        return win * self.wins + draw * self.draws + loss * self.losses

    def win_rate(self) -> float:
        """Wins plus half the draws, per game."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


@dataclass
class TournamentResult:
    names: list[str]
    records: list[GameRecord]
    seed: int

    def labels(self) -> list[str]:
        """The agents' names for a table: a name given more than once (three ``random`` players) gets the
        agent's place in the list, ``random #1``, ``random #2``..., so its rows can be told apart."""
        repeated = {n for n in self.names if self.names.count(n) > 1}
        return [f"{n} #{i + 1}" if n in repeated else n for i, n in enumerate(self.names)]

    def stats(self) -> list[AgentStats]:
        out = [AgentStats() for _ in self.names]
        for rec in self.records:
            for seat, agent in enumerate(rec.seats):
                s = out[agent]
                r = rec.returns[seat]
                best = max(rec.returns)
                outcome = 0 if r == best and rec.returns.count(best) == 1 else (1 if r == best else 2)
                if len(rec.returns) == 2:
                    outcome = 0 if r > 0 else (1 if r == 0 else 2)
                if outcome == 0:
                    s.wins += 1
                elif outcome == 1:
                    s.draws += 1
                else:
                    s.losses += 1
                s.by_seat.setdefault(seat, [0, 0, 0])[outcome] += 1
                s.score += rec.scores[seat]
                s.score_against += sum(rec.scores) - rec.scores[seat]
        return out

    def pair_table(self) -> np.ndarray:
        """[i, j] = (wins, draws, losses) of agent i against agent j over all games between them."""
        n = len(self.names)
        table = np.zeros((n, n, 3), dtype=np.int64)
        for rec in self.records:
            if len(rec.seats) != 2:
                continue
            a, b = rec.seats
            ra = rec.returns[0]
            oa = 0 if ra > 0 else (1 if ra == 0 else 2)
            table[a, b, oa] += 1
            table[b, a, 2 - oa] += 1
        return table

    def to_dict(self) -> dict:
        stats = self.stats()
        return {
            "seed": self.seed,
            "games": len(self.records),
            "agents": [
                {
                    "name": name,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "games": s.games,
                    "win_rate": round(s.win_rate(), 6),
                    "ci95": [round(x, 6) for x in wilson_interval(s.wins + 0.5 * s.draws, s.games)],
                    "fitness": s.fitness(),
                    "mean_score": round(s.score / s.games, 6) if s.games else 0.0,
                    "by_seat": {str(k): {"wins": v[0], "draws": v[1], "losses": v[2]} for k, v in sorted(s.by_seat.items())},
                }
                for name, s in zip(self.labels(), stats)
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)


def _two_seats(game: Game, what: str) -> None:
    if game.num_players != 2:
        raise SpecError(
            f"{what} seats two agents, but {game.spec} has {game.num_players} seats; play a round robin "
            f"(evoplay tournament {game.spec} A B C ...), which seats every ordering of distinct agents"
        )


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (draws may count as half successes)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# --------------------------------------------------------------------------------------------------------------
# Playing a schedule.
# --------------------------------------------------------------------------------------------------------------


#: the wall-clock time (``time.time()``) past which no game of a schedule starts (None: no limit): games_until
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("evoplay_games_deadline", default=None)


@contextlib.contextmanager
def games_until(deadline: float | None):
    """Within the block, every schedule's games stop at ``deadline`` (a ``time.time()``; None: no limit, or the
    one set around it, whichever is sooner): a game that would start after it raises TimeBudgetSpent instead,
    in this process or in a worker (each task carries the deadline), so a generation or a closing phase that a
    time budget cannot afford is stopped within one game of its end, not run to its end."""
    outer = _DEADLINE.get()
    if deadline is not None and outer is not None:
        deadline = min(deadline, outer)
    token = _DEADLINE.set(deadline if deadline is not None else outer)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _past(deadline: float | None) -> None:
    if deadline is not None and time.time() > deadline:
        raise TimeBudgetSpent("the time budget ran out during the games")


@dataclass
class _Task:
    game: Game
    agents: list
    games: list[tuple[tuple[int, ...], int, int]]  # (seats, seed, opening plies)
    deadline: float | None = None  # no game starts after it (games_until)


def _run_task(task: _Task) -> list[GameRecord]:
    records = []
    for seats, seed, openings in task.games:
        _past(task.deadline)
        records.append(play_record(task.game, task.agents, seats, seed, openings))
    return records


def schedule_games(pairings: Sequence[Pairing], seed: int) -> list[tuple[tuple[int, ...], int, int]]:
    return [(p.seats, derive_seed(seed, *p.key, g), p.openings) for p in pairings for g in range(p.games)]


def play_schedule(
    game: Game,
    agents: Sequence,
    pairings: Sequence[Pairing],
    seed: int = 0,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    tasks_per_worker: int = 4,
) -> TournamentResult:
    """Play every game of ``pairings`` and return the records in schedule order.

    The games are cut into contiguous tasks, about ``tasks_per_worker`` per worker, so each task carries
    enough games (tens of milliseconds or more) to pay for its dispatch. Before a parallel executor's workers
    start, the first game is played here: that compiles (warms) the Numba code the forked workers inherit.
    Inside ``games_until(deadline)`` no game starts past the deadline: TimeBudgetSpent instead.
    """
    executor = executor or SerialExecutor()
    agents = list(agents)
    deadline = _DEADLINE.get()
    games = schedule_games(pairings, seed)
    total = len(games)
    done = 0
    records: list[GameRecord] = []
    if progress:
        progress(0, total)
    if not games:
        return TournamentResult([a.name for a in agents], [], seed)
    parallel = not isinstance(executor, SerialExecutor) and total > 1
    if parallel and executor.needs_warmup:
        records.append(_run_task(_Task(game, agents, games[:1], deadline))[0])
        done = 1
        if progress:
            progress(done, total)
        rest = games[1:]
    else:
        rest = games
    n_tasks = min(len(rest), max(1, executor.workers * tasks_per_worker)) if parallel else min(len(rest), 64)
    bounds = np.linspace(0, len(rest), n_tasks + 1).astype(int)
    tasks = [_Task(game, agents, rest[bounds[t] : bounds[t + 1]], deadline) for t in range(n_tasks)]

    def on_done(_i, result):
        nonlocal done
        done += len(result)
        if progress:
            progress(done, total)
        if done < total:
            _past(deadline)

    for chunk in executor.map(_run_task, tasks, on_done):
        records.extend(chunk)
    return TournamentResult([a.name for a in agents], records, seed)


def round_robin(game, agents, games_per_pair: int = 1, seed: int = 0, executor=None, progress=None, round_key=0):
    """Each agent against every other in both seats, ``games_per_pair`` games per ordered pair (per ordered
    seating of distinct agents in a game of more than two seats)."""
    pairings = round_robin_pairings(len(agents), games_per_pair, round_key, game.num_players)
    return play_schedule(game, agents, pairings, seed, executor, progress)


def match(game, agent_a, agent_b, games: int = 2, seed: int = 0, executor=None, progress=None):
    """``games`` games between two agents, seats alternating by halves."""
    _two_seats(game, "a match")
    return play_schedule(game, [agent_a, agent_b], match_pairings(games), seed, executor, progress)


def gauntlet(game, candidates, pool, games_per_pair: int = 1, seed: int = 0, executor=None, progress=None,
             round_key=0):
    """Each candidate against each member of a fixed pool, in both seats; pool members never meet."""
    _two_seats(game, "a gauntlet")
    agents = list(candidates) + list(pool)
    pairings = gauntlet_pairings(len(candidates), len(pool), games_per_pair, round_key)
    return play_schedule(game, agents, pairings, seed, executor, progress)
