"""Difficulty levels for the gp and ga recipes (``evoplay evolve gp|ga --levels``): candidates kept along the run,
a closing round robin among them rated with openskill, and the named levels picked so that each beats the one below.

The run keeps the best of generations 0, 1, 2, 3, 4, 6, 9, 13, 19, 28, ... (each about 1.5 times the last), so
whatever the run's length its early champions, those at about 1 %, 10 % and 30 % of it and the late ones are
there; they live in the run's state, so a killed run resumes with them. When the run ends, up to
``levels.candidates`` of them (spread over that list), the champion and the champion at shares of its play budget
(``levels.budgets``) are written as players (``levels/candidates/*.json``, best.json's format, each played exactly
as best.json plays: its search and budget) and play a round robin within the time the run has left, then, while
the time lasts, more rounds between those close in the ratings, where the ladder's steps are decided. openskill
(Plackett-Luce) rates them; of every chain of candidates ordered by rating that ends at the champion, the one
whose weakest step (the share of games a level scores against the one below, draws half, with one won and one
lost game added so that a few games weigh less than many) is largest becomes the levels, easiest first. When
no chain has every step at ``levels.beats`` (65 %), that is the best there is, and the report says so.

``levels.json`` in the run folder: ``{name: {"player": "levels/<name>.json", "rating": mu, "sigma": sigma,
"generation": g, "beats_below": share or null, "games": games against the level below, "candidate": label}}``,
easiest first; ``level(RUN,NAME)`` plays a level (evoplay.agents.level).
"""
from __future__ import annotations

import itertools
import json
import math
import time
from pathlib import Path

import numpy as np

from evoplay.errors import ConfigError, TimeBudgetSpent

LEVELS_FILE = "levels.json"
FOLDER = "levels"
TABLE_FILE = "levels/round_robin.json"
ROUND_ROBIN_KEY = 1299709  # the round robin's games in the run seed's derivation
RATING_KEY = 15485867  # the order the games are rated in
GROWTH = 1.5  # each kept generation about this many times the last
NEAR = 2  # after the first round the round robin plays again the pairs this many places apart in the ratings
MAX_CANDIDATES = 16
MAX_NAMES = 8
DEFAULTS = {"names": ["easy", "medium", "hard", "expert"], "beats": 0.65, "candidates": 7, "games": 10,
            "budgets": [0.01, 0.1, 0.3], "closing": 0.35, "share": 0.75}


class LevelsSpec:
    """The ``[levels]`` table of a gp or ga config, checked (defaults for a config written before it existed)."""

    def __init__(self, table: dict | None):
        t = {**DEFAULTS, **(table or {})}
        names = t["names"]
        if not isinstance(names, list) or not 1 <= len(names) <= MAX_NAMES or len(set(names)) != len(names) or \
                not all(isinstance(n, str) and n.isidentifier() for n in names):
            raise ConfigError(f"levels.names = {names!r}; give 1..{MAX_NAMES} different names, easiest first, each "
                              f"a word of letters, digits and _ (e.g. [\"easy\", \"medium\", \"hard\", \"expert\"])")
        self.names = list(names)
        self.beats = float(t["beats"])
        if not 0.5 <= self.beats < 1.0:
            raise ConfigError(f"levels.beats = {t['beats']}; give the share of games a level should score against the "
                              f"one below, 0.5..1 (0.65: 65 %)")
        self.candidates = int(t["candidates"])
        if not 2 <= self.candidates <= MAX_CANDIDATES:
            raise ConfigError(f"levels.candidates = {t['candidates']}; give 2..{MAX_CANDIDATES} (the players in the "
                              f"closing round robin, the champion included)")
        self.games = int(t["games"])
        if self.games < 1:
            raise ConfigError(f"levels.games = {t['games']}; give the round robin's games a pairing and seat, >= 1")
        budgets = t["budgets"]
        if not isinstance(budgets, list) or not all(isinstance(b, (int, float)) and 0 < b < 1 for b in budgets) \
                or len(budgets) >= self.candidates:
            raise ConfigError(f"levels.budgets = {budgets!r}; give shares of the champion's play budget, each "
                              f"between 0 and 1 (e.g. [0.1]; [] for none), fewer than levels.candidates")
        self.budgets = sorted({float(b) for b in budgets})
        self.closing = float(t["closing"])
        if not 0 <= self.closing <= 0.5:
            raise ConfigError(f"levels.closing = {t['closing']}; give the share of minutes kept for the closing "
                              f"playoff, round robin and tables with --levels, 0..0.5")
        self.share = float(t["share"])
        if not 0 < self.share <= 1:
            raise ConfigError(f"levels.share = {t['share']}; give the share of the closing time left after the play "
                              f"check that the round robin may take, 0..1")


def check_ratings() -> None:
    try:
        import openskill  # noqa: F401
    except ImportError:
        raise ConfigError("--levels rates the candidates with openskill: pip install 'evoplay[ratings]'") from None


def kept_generations(last: int) -> list[int]:
    """The generations up to ``last`` whose best the run keeps: 0, 1, 2, 3, 4, 6, 9, 13, 19, 28, ..."""
    out, g = [], 0
    while g <= last:
        out.append(g)
        g = max(g + 1, int(g * GROWTH))
    return out


def keeps(generation: int) -> bool:
    return generation in kept_generations(generation)


def spread(items: list, k: int) -> list:
    """``k`` of ``items`` spread evenly over the list, its first and last included (all of them when k covers it;
    the first alone when k is 1: the earliest generation, the furthest from the champion)."""
    if len(items) <= k:
        return list(items)
    if k == 1:
        return [items[0]]
    return [items[i] for i in sorted(set(np.round(np.linspace(0, len(items) - 1, k)).astype(int).tolist()))]


def with_budget(doc: dict, share: float) -> dict | None:
    """The player ``doc`` at ``share`` of its play budget (time and nodes), or None when it plays without one."""
    play = doc.get("play")
    if not isinstance(play, dict) or not (play.get("ms") or play.get("nodes")):
        return None
    smaller = dict(play)
    if smaller.get("ms"):
        smaller["ms"] = round(float(smaller["ms"]) * share, 3)
    if smaller.get("nodes"):
        smaller["nodes"] = max(1, int(round(int(smaller["nodes"]) * share)))
    return {**doc, "play": smaller}


def candidates(evo, state: dict, shipped: dict, champion_generation: int, spec: LevelsSpec) -> list[dict]:
    """The round robin's players, each ``{"label", "generation", "doc"}``: the kept generations' best (spread to
    fit ``levels.candidates``, those equal to an earlier one or the champion left out), the champion at the shares
    of its budget (smallest first) and the champion itself (last). Every document plays as ``shipped`` does."""
    from evoplay.agents.feature_player import document_agent, plays_uct

    def player(individual) -> dict:
        doc = evo.document(individual)
        doc.update(evo.view.document())
        if "play" in shipped:
            doc["play"] = {k: v for k, v in shipped["play"].items() if k != "spread"}
        return doc

    def measured(doc: dict) -> dict:
        if plays_uct(shipped) and "spread" in shipped["play"]:
            # its own evaluation's scale, measured once as the play check measured the champion's
            agent = document_agent(evo.game, doc, "level candidate")
            doc["play"]["spread"] = agent.evaluation_scale
        return doc

    def key(doc: dict) -> str:  # the player itself: its evaluation, search and budget
        play = {k: v for k, v in (doc.get("play") or {}).items() if k != "spread"}
        return json.dumps({**{k: v for k, v in doc.items() if k not in ("generation", "level")}, "play": play},
                          sort_keys=True, default=float)

    smaller = [{"label": f"at {100 * s:g} % of its budget", "generation": champion_generation,
                "doc": with_budget(shipped, s)} for s in spec.budgets]
    smaller = [c for c in smaller if c["doc"] is not None]
    seen = {key(shipped)}
    kept = []
    for entry in state.get("level_candidates", []):
        doc = player(entry["individual"])
        if key(doc) not in seen:
            seen.add(key(doc))
            kept.append({"label": f"g{entry['generation']}", "generation": int(entry["generation"]), "doc": doc})
    kept = [{**c, "doc": measured(c["doc"])} for c in spread(kept, spec.candidates - 1 - len(smaller))]
    # in the order the round robin pairs neighbours first: the generations, the smaller budgets, the champion
    return kept + smaller + [{"label": "champion", "generation": champion_generation, "doc": dict(shipped)}]


def round_robin(game, agents: list, rounds: int, seed: int, openings: int, executor=None,
                deadline: float | None = None, near: int = NEAR) -> list:
    """Games among ``agents``, in rounds: the first is a whole round robin, every ordered pair once (in a game of
    more seats, the others filled by seeded draws), the pairs of neighbouring agents first, then those two apart,
    and so on; each later round plays again the pairs at most ``near`` places apart in the ratings of the games so
    far, where the ladder's steps are decided (0: every pair every round). With a ``deadline`` (a ``time.time()``)
    no group of games starts that the games so far say would end past it, and a group that runs past it all the
    same is stopped within a game and left out; the first group always plays (within any time budget around the
    call: evoplay.arena.tournament.games_until). Returns the game records of the groups played."""
    from evoplay.arena.tournament import Pairing, games_until, play_schedule
    from evoplay.seeds import derive_seed

    n, seats = len(agents), game.num_players
    records: list = []
    per_game = 0.0
    played = 0
    spent = 0.0
    for r in range(rounds):
        place = list(range(n))  # the first round: the agents' own order
        if r and near:
            mu, _ = ratings(records, n, derive_seed(seed, r))
            place = [0] * n
            for k, i in enumerate(sorted(range(n), key=lambda i: (mu[i], i))):
                place[i] = k
        for gap in range(1, n if not r or not near else min(n, near + 1)):
            pairings = []
            for i, j in itertools.combinations(range(n), 2):
                if abs(place[i] - place[j]) != gap:
                    continue
                for a, b in ((i, j), (j, i)):
                    rng = np.random.default_rng(derive_seed(seed, r, a, b))
                    others = [x for x in range(n) if x not in (a, b)]
                    fill = (rng.permutation(others)[: seats - 2].tolist() if len(others) >= seats - 2
                            else rng.choice(n, seats - 2).tolist())
                    pairings.append(Pairing((a, b, *fill), 1, (r, a, b), openings))
            if played and deadline is not None and time.time() + per_game * len(pairings) > deadline:
                return records
            start = time.perf_counter()
            try:
                with games_until(deadline if played else None):
                    records += play_schedule(game, agents, pairings, seed, executor).records
            except TimeBudgetSpent:
                if not played:
                    raise
                return records
            spent += time.perf_counter() - start
            played += len(pairings)
            per_game = spent / played
    return records


def pair_shares(records, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(share, games): share[i, j] the points agent i scored against agent j in the games both sat in (a win 1, a
    draw half: a higher return than the other's, an equal one), NaN where they never met."""
    points = np.zeros((n, n))
    games = np.zeros((n, n), dtype=np.int64)
    for rec in records:
        for p, a in enumerate(rec.seats):
            for q, b in enumerate(rec.seats):
                if a == b:
                    continue
                games[a, b] += 1
                points[a, b] += 1.0 if rec.returns[p] > rec.returns[q] else (0.5 if rec.returns[p] == rec.returns[q]
                                                                              else 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(games > 0, points / np.maximum(games, 1), np.nan)
    return share, games


def ratings(records, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(mu, sigma) of every agent: openskill's Plackett-Luce over the games' finishing orders, no drift between
    games (the players do not change), the games in a seeded shuffled order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce(tau=0.0)
    rated = [model.rating() for _ in range(n)]
    for k in np.random.default_rng(seed).permutation(len(records)):
        rec = records[int(k)]
        if len(set(rec.seats)) < len(rec.seats):
            continue  # an agent against itself says nothing of either
        teams = model.rate([[rated[a]] for a in rec.seats], ranks=[-float(r) for r in rec.returns])
        for a, team in zip(rec.seats, teams):
            rated[a] = team[0]
    return np.array([r.mu for r in rated]), np.array([r.sigma for r in rated])


def steadier(share: np.ndarray, games: np.ndarray) -> np.ndarray:
    """The shares the ladder is picked on: pulled towards a half by one won and one lost game more (Laplace's rule
    of succession), so that 2 games won of 2 do not outweigh 9 of 10 when few games fit in the time."""
    with np.errstate(invalid="ignore"):
        return np.where(games > 0, (np.nan_to_num(share) * games + 1.0) / (games + 2.0), np.nan)


def pick(count: int, share: np.ndarray, mu: np.ndarray, top: int) -> tuple[list[int], float]:
    """The levels: ``count`` agents (fewer when there are fewer, or when no chain of that many was measured) in
    order of rating, ending at ``top``, whose smallest share against the level below is largest (ties: the higher
    ratings). Returns (the chain, easiest first; that smallest share, 1.0 for a single level)."""
    others = sorted((i for i in range(len(mu)) if i != top), key=lambda i: (mu[i], i))
    for k in range(min(count, len(mu)), 0, -1):
        best = None
        for lower in itertools.combinations(others, k - 1):
            chain = [*lower, top]
            steps = [share[b, a] for a, b in zip(chain, chain[1:])]
            if any(math.isnan(s) for s in steps):
                continue
            key = (min(steps, default=1.0), float(sum(mu[c] for c in chain)))
            if best is None or key > best[0]:
                best = (key, chain)
        if best is not None:
            return best[1], best[0][0]
    return [top], 1.0


def level_names(names: list[str], count: int) -> list[str]:
    """The names of ``count`` levels: the easiest names and the top one (the middle ones dropped)."""
    return names[: count - 1] + [names[-1]] if count < len(names) else list(names)


def measure(evo, state: dict, shipped: dict, champion_generation: int, spec: LevelsSpec, executor=None,
            deadline: float | None = None) -> dict:
    """The round robin among the candidates and the levels it gives (what :func:`write` writes)."""
    from evoplay.agents.feature_player import document_agent

    players = candidates(evo, state, shipped, champion_generation, spec)
    agents = [document_agent(evo.game, c["doc"], f"level candidate {c['label']}") for c in players]
    seed = evo.seed + ROUND_ROBIN_KEY
    try:
        records = (round_robin(evo.game, agents, spec.games, seed, evo.fitness_spec.openings, executor, deadline)
                   if len(agents) > 1 else [])
    except TimeBudgetSpent:  # the run's time budget ran out in the first games: the champion alone is a level
        records = []
    share, games = pair_shares(records, len(agents))
    mu, sigma = ratings(records, len(agents), seed + RATING_KEY)
    chain, _ = pick(len(spec.names), steadier(share, games), mu, len(agents) - 1)
    names = level_names(spec.names, len(chain))
    levels = {}
    for k, (name, c) in enumerate(zip(names, chain)):
        below = chain[k - 1] if k else None
        levels[name] = {"player": f"{FOLDER}/{name}.json", "rating": round(float(mu[c]), 3),
                        "sigma": round(float(sigma[c]), 3), "generation": players[c]["generation"],
                        "beats_below": None if below is None else round(float(share[c, below]), 4),
                        "games": None if below is None else int(games[c, below]), "candidate": players[c]["label"]}
    return {"levels": levels, "chosen": chain, "players": players,
            "table": {"candidates": [{"label": p["label"], "generation": p["generation"], "player":
                                      f"{FOLDER}/candidates/{file_name(p['label'])}.json", "rating": round(float(m), 3),
                                      "sigma": round(float(s), 3)} for p, m, s in zip(players, mu, sigma)],
                      "share": [[None if math.isnan(x) else round(float(x), 4) for x in row] for row in share],
                      "games": games.tolist(), "played": len(records)}}


def file_name(label: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in label).strip("_")


def write(folder, measured: dict, best: dict) -> None:
    """levels/candidates/*.json, levels/<name>.json (the top one: best.json itself), levels/round_robin.json and
    levels.json."""
    for p in measured["players"]:
        write_document(folder, f"{FOLDER}/candidates/{file_name(p['label'])}.json", p["doc"])
    top = list(measured["levels"])[-1]
    for (name, entry), c in zip(measured["levels"].items(), measured["chosen"]):
        doc = best if name == top else {**measured["players"][c]["doc"], "generation": entry["generation"]}
        write_document(folder, entry["player"], {**doc, "level": name})
    write_document(folder, TABLE_FILE, measured["table"])
    folder.write_json(LEVELS_FILE, measured["levels"])


def write_document(folder, name: str, doc: dict) -> Path:
    """A JSON document at ``name`` inside the run folder, a file game named relative to the document's own folder
    (as gp(FILE) and weights(FILE) read it)."""
    from evoplay.evolve.runs import atomic_write
    from evoplay.games.tools.sources import portable_document

    path = folder.file(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(portable_document(doc, path.parent), indent=2, default=_plain) + "\n"
    atomic_write(path, text.encode("utf-8"))
    return path


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON")


def ladder(folder) -> list[str]:
    """The report's lines on a run's levels (none when it has no levels.json of the gp and ga recipes)."""
    path = folder.file(LEVELS_FILE)
    if not path.is_file():
        return []
    try:
        levels = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        return [f"levels: {path} cannot be read ({err}); write it again with evoplay report --rewrite {folder.path}"]
    if not isinstance(levels, dict) or not all(isinstance(e, dict) and "player" in e for e in levels.values()):
        return [f"levels: {path} is not a table of levels with player files"]
    beats = LevelsSpec(folder.config.get("levels")).beats
    lines = [f"levels ({path}), easiest first:", "| level | candidate | generation | rating (mu ± sigma) | "
             "against the level below |", "| --- | --- | --- | --- | --- |"]
    short = []
    below = None
    for name, e in levels.items():
        share = e.get("beats_below")
        vs = "-" if share is None else f"{100 * share:.0f} % of {e.get('games', '?')} games"
        lines.append(f"| {name} | {e.get('candidate', '')} | {e.get('generation', '?')} | "
                     f"{e.get('rating', 0):.2f} ± {e.get('sigma', 0):.2f} | {vs} |")
        if share is not None and share < beats:
            short.append(f"{name} scores {100 * share:.0f} % against {below}")
        below = name
    if short:
        lines.append(f"short of {100 * beats:.0f} % between neighbours: {'; '.join(short)} (the best-separated "
                     f"ladder the candidates gave; a longer run, more levels.games or fewer levels.names separates "
                     f"them more)")
    configured = LevelsSpec(folder.config.get("levels")).names
    if len(levels) < len(configured):
        lines.append(f"{len(levels)} levels, not the {len(configured)} configured: the candidates gave no more "
                     f"(left out: {', '.join(n for n in configured if n not in levels)})")
    game = folder.config.get("game", "GAME")
    game = game if "(" not in game else f"'{game}'"
    lines.append(f"play a level: evoplay play {game} --vs 'level({folder.path},{list(levels)[-1]})'")
    return lines
