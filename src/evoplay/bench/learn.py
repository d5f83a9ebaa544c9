"""``evoplay bench learn``: what evolution with the defaults buys on six games, against three yardsticks.

For each game of the suite (a user's file, four OpenSpiel games, Kalah) it runs ``evoplay evolve ga --game GAME
--minutes N`` with every other setting at its default (a run folder per game under ``--out``; a finished one is
reused, an unfinished one resumed), then plays the champion, as ``weights(best.json)`` plays it (iterative
deepening within its play budget, 100 ms a move by default, unless the run's play check found that it plays better
as trained), against

- ``random``;
- ``alphabeta(depth=2)``, a 2-ply search over the game's own score (``scores()``);
- MCTS at equal CPU time per move (the champion's budget measured on its thread's CPU clock, so a busy machine
  takes nothing from either side): OpenSpiel's C++ MCTSBot (``openspiel_mcts``, random rollouts, the solver on)
  on games it plays, its simulations set so that its mean move takes as long as the champion's (first from
  positions of random games, then fitted in pilot games against the champion); evoplay's ``uct`` with the same
  time budget on the others;

``games`` games in each seat. It reports win rates (draws count half) with 95 % Wilson intervals and the mean
CPU milliseconds a move of each side, and checks the issue's targets: every game at least 95 % against random,
at least 75 % against the 2-ply search, at least 50 % against MCTS on four of the six games.
"""
from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from evoplay.bench import BenchResult, Figure, load_note, random_positions, register_benchmark

SUITE = (  # (short name, game spec)
    ("othello6", "examples/othello6.py:Othello"),
    ("connect_four", "openspiel:connect_four"),
    ("breakthrough5", "openspiel:breakthrough(rows=5,columns=5)"),
    ("hex5", "openspiel:hex(board_size=5)"),
    ("pig", "openspiel:pig"),
    ("kalah", "kalah"),
)
TARGETS = {"random": 0.95, "alphabeta(depth=2)": 0.75, "mcts": 0.50}
MCTS_GAMES_NEEDED = 4  # of the six


@dataclass
class Matchup:
    """The champion against one opponent, both seats."""

    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    own_ms: list[float] = field(default_factory=list)
    their_ms: list[float] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        from evoplay.arena.tournament import wilson_interval

        return wilson_interval(self.wins + 0.5 * self.draws, self.games)

    def to_dict(self) -> dict:
        lo, hi = self.interval()
        return {"opponent": self.opponent, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "games": self.games, "win_rate": round(self.rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
                "ms_per_move": round(statistics.fmean(self.own_ms), 2) if self.own_ms else None,
                "opponent_ms_per_move": round(statistics.fmean(self.their_ms), 2) if self.their_ms else None}


def suite_spec(spec: str) -> str | None:
    """A suite game's spec as this checkout can load it (the example file lives beside the package's source);
    None when the example is not here (an installed evoplay without its checkout)."""
    if not spec.startswith("examples/"):
        return spec
    path_part, cls = spec.rsplit(":", 1)
    for root in (Path.cwd(), Path(__file__).resolve().parents[3]):
        candidate = root / path_part
        if candidate.is_file():
            return f"{candidate}:{cls}"
    return None


def evolve(spec: str, minutes: float, folder: Path, workers: int, seed: int = 0, settings: dict | None = None
           ) -> Path:
    """The ga recipe's defaults (but ``settings``, dotted config keys) on ``spec`` for ``minutes`` in ``folder``
    (created, resumed, or reused when finished); returns its best.json."""
    from evoplay.arena import make_executor
    from evoplay.errors import SpecError
    from evoplay.evolve import RunFolder, load_config, run_evolution
    from evoplay.recipes import load_recipe

    module = load_recipe("ga")
    settings = dict(settings or {})
    if (folder / "run.json").exists():
        run = RunFolder.open(folder)
        for key, value in settings.items():
            recorded = run.config
            for part in key.split("."):
                recorded = recorded.get(part) if isinstance(recorded, dict) else None
            if recorded != value:
                raise SpecError(f"{folder} holds a run with {key} = {recorded!r}, not {value!r}; give another "
                                f"--out for these settings")
    else:
        config = load_config("ga", None, {"game": spec, "minutes": float(minutes), "seed": seed, **settings})
        # (a seed among the settings, --set seed=N, replaces the default one)
        run = RunFolder.create(folder, "ga", config)
    if not run.finished:
        with make_executor("process" if workers > 1 else "serial", workers) as ex:
            run_evolution(module.make(run.config), run, ex)
    return run.file("best.json")


def mcts_spec(game, ms: float, seed: int = 0) -> str:
    """MCTS with ``ms`` of CPU a move: OpenSpiel's C++ bot with its simulations calibrated on this machine where it
    can play the game, else evoplay's ``uct`` with a time budget."""
    from evoplay.agents import make_agent, refusal

    if refusal("openspiel_mcts", game) is None:
        probe = 2000
        agent = make_agent(f"openspiel_mcts(simulations={probe})", game)
        spent = 0.0
        # positions from every stage of a game: a search costs less as the game nears its end
        positions = [s for s in random_positions(game, 48, seed + 17, max_moves=40) if s.current_player() >= 0]
        for i, state in enumerate(positions[:24]):
            agent.restart(i, state.current_player())
            start = time.thread_time()
            agent.step(state)
            spent += time.thread_time() - start
        per_simulation = spent / (probe * len(positions[:24]))
        simulations = max(10, int(round(ms / 1000.0 / max(per_simulation, 1e-9))))
        return f"openspiel_mcts(simulations={simulations})"
    return f"uct(ms={ms:g},clock=cpu)"


#: pilot games (one a seat) that fit OpenSpiel's simulations to the champion's time, at most, and how close
PILOTS, CLOSE_ENOUGH = 4, 0.15
#: times the MCTS matchup is played again with its simulations refitted when its mean CPU a move was not close
REFITS = 2


def calibrated_mcts(game_spec: str, champion: str, ms: float, executor, seed: int = 0) -> str:
    """``mcts_spec``, then fitted in pilot games against the champion (one a seat, at most ``PILOTS`` times):
    OpenSpiel's simulations scaled until its mean CPU a move is within 15 % of the champion's own in the same games
    (which can be under ``ms``: a forced move, for one, is played at once).
    The mean, not the median: the solver ends some searches early (a proven position), so a median of short moves
    would hide long ones and hand MCTS far more time in all than the champion gets."""
    from evoplay.games import load_game

    spec = mcts_spec(load_game(game_spec), ms, seed)
    if not spec.startswith("openspiel_mcts"):
        return spec
    simulations = int(spec.split("=")[1].rstrip(")"))
    for pilot_round in range(PILOTS):
        pilot = play_matchup(game_spec, champion, f"openspiel_mcts(simulations={simulations})", "pilot", 1,
                             seed + 99 + pilot_round, executor)
        if not (pilot.their_ms and pilot.own_ms):
            break
        target, measured = statistics.fmean(pilot.own_ms), statistics.fmean(pilot.their_ms)
        if abs(measured - target) <= CLOSE_ENOUGH * target:
            break
        simulations = max(10, int(round(simulations * min(4.0, max(0.25, target / max(measured, 1e-3))))))
    return f"openspiel_mcts(simulations={simulations})"


def equal_time(matchup: Matchup, opponent: str, replay, log=print) -> tuple[Matchup, str]:
    """The MCTS matchup at equal CPU a move: while OpenSpiel's mean CPU a move in ``matchup`` is more than 15 %
    from the champion's (the pilot games are few, and the solver ends some searches early), its simulations are
    scaled by the ratio and the matchup played again by ``replay(opponent)``, at most ``REFITS`` times. Returns
    the last matchup played and its opponent."""
    for _ in range(REFITS):
        if not (opponent.startswith("openspiel_mcts(simulations=") and matchup.own_ms and matchup.their_ms):
            break
        target, measured = statistics.fmean(matchup.own_ms), statistics.fmean(matchup.their_ms)
        if abs(measured - target) <= CLOSE_ENOUGH * target:
            break
        simulations = int(opponent.split("=")[1].rstrip(")"))
        simulations = max(10, int(round(simulations * target / max(measured, 1e-3))))
        log(f"MCTS spent {measured:.1f} ms a move to the champion's {target:.1f}: again with {simulations} "
            f"simulations")
        opponent = f"openspiel_mcts(simulations={simulations})"
        matchup = replay(opponent)
    return matchup, opponent


def _timed_game(task) -> tuple[list[float], list[float], list[int]]:
    """One seeded game of agent specs: its returns and the CPU milliseconds of each move of seat 0 and of seat 1."""
    from evoplay.agents import make_agent
    from evoplay.arena.match import derive_seed
    from evoplay.games import load_game
    from evoplay.games.base import CHANCE, TERMINAL, sample_chance

    game_spec, specs, seed = task
    game = load_game(game_spec)
    agents = [make_agent(s, game) for s in specs]
    state = game.new_initial_state(seed)
    for seat, agent in enumerate(agents):
        agent.restart(derive_seed(seed, seat + 1), seat)
    chance = np.random.default_rng(derive_seed(seed, 0))
    times: list[list[float]] = [[] for _ in agents]
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return list(state.returns()), times[0], times[1]
        if player == CHANCE:
            state.apply_action(sample_chance(state, chance))
            continue
        start = time.thread_time()
        action = agents[player].step(state)
        times[player].append(1000.0 * (time.thread_time() - start))
        state.apply_action(action)


def play_matchup(game_spec: str, champion: str, opponent: str, label: str, games: int, seed: int,
                 executor) -> Matchup:
    """``games`` games in each seat; seeds from ``seed`` (the same for every opponent)."""
    from evoplay.arena.match import derive_seed

    tasks = []
    for seat in (0, 1):
        for g in range(games):
            specs = (champion, opponent) if seat == 0 else (opponent, champion)
            tasks.append((game_spec, specs, derive_seed(seed, seat, g)))
    result = Matchup(label)
    for (_, specs, _), (returns, t0, t1) in zip(tasks, executor.map(_timed_game, tasks)):
        seat = 0 if specs[0] == champion else 1
        mine, theirs = returns[seat], returns[1 - seat]
        if mine > theirs:
            result.wins += 1
        elif mine < theirs:
            result.losses += 1
        else:
            result.draws += 1
        result.own_ms += t0 if seat == 0 else t1
        result.their_ms += t1 if seat == 0 else t0
    return result


def short_name(spec: str) -> str:
    """A run folder's name for a game spec: ``openspiel:clobber(rows=5,columns=5)`` -> ``clobber_rows5_columns5``,
    ``games/mine.py:Mine`` -> ``mine_Mine``."""
    import re

    if spec.startswith("openspiel:"):
        spec = spec[len("openspiel:"):]
    elif ".py:" in spec:
        path, cls = spec.rsplit(":", 1)
        spec = f"{Path(path).stem}_{cls}"
    return re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9]+", "_", spec.replace("=", ""))).strip("_") or "game"


def learn(minutes: float = 10.0, games: int = 20, out: str | Path = "runs/bench-learn", workers: int = 2,
          names: tuple[str, ...] | None = None, log=print, suite=SUITE, settings: dict | None = None) -> dict:
    """Evolve on every game of ``suite`` ((name, spec) pairs; the issue's six by default, or ``names`` of them)
    with the defaults but ``settings`` (dotted config keys of the ga recipe) and measure the champions; returns
    the results by game."""
    from evoplay.arena import make_executor

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    results = {}
    kept = _earlier_results(out / "results.json")  # the rows of games this call does not play stay in the file
    for name, raw in suite:
        if names and name not in names:
            continue
        spec = suite_spec(raw)
        if spec is None:
            log(f"{name}: {raw} is not in this checkout; skipped")
            continue
        start = time.perf_counter()
        log(f"{name}: evolving for {minutes:g} min ({load_note()})")
        best = evolve(spec, minutes, out / name, workers, settings=settings)
        doc = json.loads(best.read_text(encoding="utf-8"))
        # as best.json says it plays: deepening within its budget or, when the run's play check found that worse,
        # as trained (in a millisecond or so, so MCTS gets as little)
        ms = float((doc.get("play") or {}).get("ms", 1.0))
        champion = f"weights({best},clock=cpu)"
        rows = {}
        with make_executor("process" if workers > 1 else "serial", workers) as ex:
            mcts = calibrated_mcts(spec, champion, ms, ex)
            for label, opponent in (("random", "random"), ("alphabeta(depth=2)", "alphabeta(depth=2)"),
                                    ("mcts", mcts)):
                log(f"{name}: champion against {opponent}, {games} games a seat")
                matchup = play_matchup(spec, champion, opponent, label, games, 2026, ex)
                if label == "mcts":
                    matchup, opponent = equal_time(matchup, opponent, lambda o: play_matchup(
                        spec, champion, o, label, games, 2026, ex), lambda text: log(f"{name}: {text}"))
                rows[label] = matchup.to_dict()
                rows[label]["spec"] = opponent
        log_lines = [json.loads(x) for x in (out / name / "log.jsonl").read_text().splitlines() if x.strip()]
        results[name] = {"game": raw, "generations": len(log_lines), "ladder": log_lines[-1].get("ladder", ""),
                         "minutes": minutes, "settings": dict(settings or {}), "matchups": rows,
                         "seconds": round(time.perf_counter() - start, 1),
                         "load": load_note()}
        kept.pop(name, None)
        (out / "results.json").write_text(json.dumps({**kept, **results}, indent=1) + "\n", encoding="utf-8")
    return results


def _earlier_results(path: Path) -> dict:
    """The results an earlier call wrote to ``path`` (nothing when there are none or they cannot be read)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def figures(results: dict) -> list[Figure]:
    """The issue's targets as figures: one row per game and yardstick, then the MCTS count."""
    out = []
    beat_mcts = 0
    in_suite = {n for n, _ in SUITE}
    for name, r in results.items():
        for label, row in r["matchups"].items():
            target = TARGETS[label]
            met = row["win_rate"] >= target
            over_suite = label == "mcts" and name in in_suite  # a named game's MCTS row is judged on its own
            if label == "mcts":
                beat_mcts += met
            if over_suite:
                met = None  # judged over the suite below
            lo, hi = row["ci95"]
            out.append(Figure(f"{name} vs {row['spec']}", 100 * row["win_rate"], "% won",
                              f">= {100 * target:.0f} %" + (" on 4 of 6 games" if over_suite else ""), met,
                              note=f"{row['wins']}/{row['draws']}/{row['losses']}, 95 % CI {100 * lo:.0f}-"
                                   f"{100 * hi:.0f} %, {row['ms_per_move']} vs {row['opponent_ms_per_move']} ms a "
                                   f"move, {r['generations']} generations"))
    if results:
        whole_suite = set(results) == in_suite  # the 4-of-6 target is the suite's
        out.append(Figure("games won against MCTS at equal time", beat_mcts, "games",
                          ">= 4 of 6" if whole_suite else f"of {len(results)}",
                          beat_mcts >= MCTS_GAMES_NEEDED if whole_suite else None))
    return out


@register_benchmark("learn", "evolve with the defaults on six games (or the game specs named after it), then play "
                             "random, alphabeta(depth=2) and MCTS at equal time (--quick: 0.5 min a game, 4 games a "
                             "seat; full: 10 min, 20)",
                    takes_games=True, long=True, options=("minutes", "games", "out", "only", "settings"))
def bench_learn(quick: bool, specs: list[str] | None = None, minutes: float | None = None, games: int | None = None,
                out: str | None = None, only: str | None = None, settings: tuple[str, ...] | None = None
                ) -> BenchResult:
    """The suite, or ``specs``: games named on the command line (``evoplay bench learn openspiel:oware``), measured
    the same way, to see what the defaults do on a game they were not tuned for. ``settings`` (``--set KEY=VALUE``)
    change the ga recipe's defaults for every game, to measure a setting the same way."""
    import sys

    from evoplay.errors import SpecError
    from evoplay.evolve.config import load_config, parse_assignment
    from evoplay.recipes import find_key
    from evoplay.spec import suggest

    changes = {}
    if settings:
        base = load_config("ga", None)
        for text in settings:
            key, value = parse_assignment(text)
            changes[find_key(base, key)] = value
        for key in ("game", "minutes"):
            if key in changes:
                raise SpecError(f"--set {key}: bench learn sets the game (the suite or the specs named) and the "
                                f"minutes (--minutes) itself")
        load_config("ga", None, changes)  # a wrong key or value is refused before anything runs
    minutes = minutes if minutes is not None else (0.5 if quick else 10.0)
    games = games if games is not None else (4 if quick else 20)
    names = tuple(n.strip() for n in only.split(",")) if only else None
    if specs:
        if names:
            raise SpecError("--only picks games of the suite; with game specs named, leave it out")
        from evoplay.games import load_game

        suite = []
        for spec in specs:
            load_game(spec)  # a typo is refused before anything runs
            suite.append((short_name(spec), spec))
        if len({n for n, _ in suite}) < len(suite):
            raise SpecError(f"the games named share a run folder name ({', '.join(n for n, _ in suite)}); name each "
                            f"game once")
        default_out = "bench-learn-games-quick" if quick else "bench-learn-games"
    else:
        suite = SUITE
        default_out = "bench-learn-quick" if quick else "bench-learn"
        known = [n for n, _ in SUITE]
        for n in names or ():
            if n not in known:
                raise SpecError(f"--only: no suite game '{n}'{suggest(n, known)}; the suite: {', '.join(known)}")
    out_path = Path(out) if out else Path("runs") / default_out
    results = learn(minutes, games, out_path, names=names, log=lambda text: print(text, file=sys.stderr),
                    suite=suite, settings=changes)
    command = (f"evoplay bench learn{' --quick' if quick else ''} --minutes {minutes:g} --games {games}"
               + (f" --only {only}" if only else "") + "".join(f" --set {t}" for t in settings or ())
               + "".join(f" '{s}'" for s in specs or ()))
    return BenchResult("learn", figures(results), command)
