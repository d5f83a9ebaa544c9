"""The Sevens ladder (``evoplay sevens-ladder``): levels against each other, the heuristic and random, with 95 %
Wilson intervals for every pairing and openskill (Plackett-Luce) ratings from full finishing orders."""
from __future__ import annotations

import itertools
import shlex
import time
from pathlib import Path

import numpy as np

from evoplay.arena.match import derive_seed
from evoplay.errors import SpecError
from evoplay.games.sevens.agents import Specimen, load_levels
from evoplay.games.sevens.batch_play import Lineup, play_on


def prepare_ladder(computer: str | Path | None, games: int, rounds: int, seed: int) -> tuple[dict, str]:
    """Check the options before any game is played; returns the players and the command that reproduces the
    ladder (written from the options themselves, not argv: that may be a test runner's)."""
    if games < 1 or rounds < 1:
        raise SpecError(f"--games {games} and --rounds {rounds} must be >= 1")
    try:  # the ratings come after every game: a missing extra is said before the games, not after them
        import openskill  # noqa: F401
    except ImportError:
        raise SpecError("sevens-ladder's ratings need openskill: pip install 'evoplay[ratings]'") from None
    players = ladder_players(computer)
    command = f"evoplay sevens-ladder --games {games} --rounds {rounds} --seed {seed}"
    if computer:
        command += f" --computer {shlex.quote(str(computer))}"
    return players, command


def ladder_players(computer: str | Path | None = None) -> dict:
    """{name: player} for the ladder: random, the heuristic and every level of a levels.json (default: shipped)."""
    players = {"random": "random", "heuristic": "heuristic"}
    for name, d in load_levels(computer).items():
        sp = Specimen.from_dict(d, f"level {name}")
        players[name] = (sp.play, sp.send)
    return players


def pairing_table(players: dict, games: int, seed: int = 0, table_size: int = 3, executor=None) -> dict:
    """For every ordered pair (A, B): ``games`` games of one A against ``table_size - 1`` copies of B, A's seat
    rotating; returns {(A, B): (A's wins, games)}."""

    names = list(players)
    lineup = Lineup([players[n] for n in names])
    seeds_all, seats_all, keys = [], [], []
    for a, name_a in enumerate(names):
        for b, name_b in enumerate(names):
            if a == b:
                continue
            rng = np.random.default_rng(derive_seed(seed, a, b))
            seats = np.full((games, table_size), b, np.int64)
            seats[np.arange(games), np.arange(games) % table_size] = a
            seeds_all.append(rng.integers(0, 2**63, size=games, dtype=np.uint64))
            seats_all.append(seats)
            keys.append((name_a, name_b, a))
    seeds = np.concatenate(seeds_all)
    seats = np.concatenate(seats_all)
    places = play_on(executor, lineup, table_size, seeds, seats, until_first=True)
    out = {}
    for k, (name_a, name_b, a) in enumerate(keys):
        sl = slice(k * games, (k + 1) * games)
        won = (places[sl] == 0) & (seats[sl] == a)
        out[(name_a, name_b)] = (int(won.sum()), games)
    return out


def rating_games(players: dict, rounds: int, seed: int = 0, table_size: int = 3, executor=None):
    """Games between every ``table_size`` distinct players in every seat order, ``rounds`` times; returns
    (names, seats, places) with full finishing orders."""

    names = list(players)
    tables = [perm for combo in itertools.combinations(range(len(names)), table_size)
              for perm in itertools.permutations(combo)]
    seats = np.array(tables * rounds, np.int64)
    seeds = np.random.default_rng(derive_seed(seed, 999)).integers(0, 2**63, size=len(seats), dtype=np.uint64)
    places = play_on(executor, Lineup([players[n] for n in names]), table_size, seeds, seats, until_first=False)
    return names, seats, places


def openskill_ratings(names, seats, places, seed: int = 0) -> dict:
    """Plackett-Luce ratings (openskill) from finishing orders: {name: (mu, sigma)}.

    The players do not change between games, so the model gets no drift between games (tau = 0; openskill's
    default adds skill drift, which makes the last few hundred games decide the ratings) and the games are fed
    in a seeded shuffled order rather than schedule order."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise SpecError("ratings need openskill: pip install 'evoplay[ratings]'") from None
    model = PlackettLuce(tau=0.0)
    ratings = [model.rating(name=n) for n in names]
    order = np.random.default_rng(seed).permutation(len(seats))
    for table, place in zip(seats[order].tolist(), places[order].tolist()):
        teams = [[ratings[i]] for i in table]
        new = model.rate(teams, ranks=[p + 1 for p in place])
        for i, team in zip(table, new):
            ratings[i] = team[0]
    return {n: (r.mu, r.sigma) for n, r in zip(names, ratings)}


def ladder_report(players: dict, games: int, rounds: int, seed: int = 0, executor=None, command: str = "") -> str:
    """The ladder as Markdown: the pairing table with 95 % Wilson intervals, the verdicts, the ratings."""
    from evoplay.arena.tournament import wilson_interval

    names = list(players)
    t0 = time.perf_counter()
    table = pairing_table(players, games, seed, 3, executor)
    t1 = time.perf_counter()
    lines = []
    if command:
        lines += [f"Made by `{command}`.", ""]
    lines += [f"### Win rate of one player (row) against two copies of another (column), {games:,} games each",
              "", "Parity is 1/3. Cells: win rate (95 % Wilson interval).", "",
              "| one \\ two | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    ci = {}
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append("-")
                continue
            w, n = table[(a, b)]
            lo, hi = wilson_interval(w, n)
            ci[(a, b)] = (w / n, lo, hi)
            cells.append(f"{w / n:.3f} ({lo:.3f}-{hi:.3f})")
        lines.append(f"| **{a}** | " + " | ".join(cells) + " |")
    lines += ["", "### Does each player beat the one below it?", "",
              "A beats B when A's interval alone against two B lies wholly above B's interval alone against two A.",
              "", "| pairing | A vs B,B | B vs A,A | verdict |", "|---|---|---|---|"]
    levels = [n for n in names if n not in ("random", "heuristic")]
    chain = list(zip(["random"] + levels[:-1], levels))
    if levels:
        chain.append(("heuristic", levels[-1]))
    for lower, upper in chain:
        ua, ulo, uhi = ci[(upper, lower)]
        la, llo, lhi = ci[(lower, upper)]
        verdict = ("beats, intervals apart" if ulo > lhi else
                   "ahead, intervals overlap" if ua > la else "does not beat")
        lines.append(f"| {upper} vs {lower} | {ua:.3f} ({ulo:.3f}-{uhi:.3f}) | {la:.3f} ({llo:.3f}-{lhi:.3f}) "
                     f"| {verdict} |")
    r_names, seats, places = rating_games(players, rounds, seed, 3, executor)
    t2 = time.perf_counter()
    ratings = openskill_ratings(r_names, seats, places, seed)
    t3 = time.perf_counter()
    lines += ["", f"### openskill (Plackett-Luce) ratings from {len(seats):,} three-player games",
              "", "Every three distinct players in every seat order, full finishing orders, games in a shuffled order, "
              "no skill drift (tau = 0); ordinal = mu - 3 sigma.",
              "", "| player | mu | sigma | ordinal | mean place |", "|---|---|---|---|---|"]
    mean_place = {n: float(places[seats == i].mean()) + 1 for i, n in enumerate(r_names)}
    for n in sorted(r_names, key=lambda n: -(ratings[n][0] - 3 * ratings[n][1])):
        mu, sigma = ratings[n]
        lines.append(f"| {n} | {mu:.2f} | {sigma:.3f} | {mu - 3 * sigma:.2f} | {mean_place[n]:.3f} |")
    lines += ["", f"Wall time: pairings {t1 - t0:.1f} s, rating games {t2 - t1:.1f} s, rating updates {t3 - t2:.1f} s."]
    return "\n".join(lines)
