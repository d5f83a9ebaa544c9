"""Speed on a user's game: a GP evolution's games per second beside the game's own random playouts, and the share
of a GP player's move spent in evoplay (features, program, policy) against the game's own work."""
from __future__ import annotations

import time

import numpy as np

from evoplay.bench import BenchResult, Figure, load_note, random_positions, register_benchmark

GAMES = ("examples/othello6.py:Othello", "openspiel:connect_four")


def _game_spec(spec: str) -> str:
    """The example game's path from the working directory, or from the source tree evoplay is installed from."""
    from pathlib import Path

    if not spec.startswith("examples/") or Path(spec.split(":")[0]).is_file():
        return spec
    root = Path(__file__).resolve().parents[3]
    return str(root / spec)


def random_playouts(game, count: int, seed: int) -> tuple[float, int]:
    """Seconds and moves of ``count`` uniformly random games through the game API (the game's own cost)."""
    rng = np.random.default_rng(seed)
    moves = 0
    start = time.perf_counter()
    for g in range(count):
        s = game.new_initial_state(g)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])
            moves += 1
    return time.perf_counter() - start, moves


def move_breakdown(agent, states, repeats: int = 5) -> dict:
    """Seconds per move of a GP move scorer: the whole ``step``; the features of the after-states (the game's own
    ``features()`` code); stacking them into one array; the interpreter call; choosing the best with a seeded tie."""
    from evoplay.agents.feature_player import choose_best

    children = [agent.after_states(s, s.current_player(), s.legal_actions()) for s in states]
    players = [s.current_player() for s in states]
    rows = [agent.rows(c, p) for c, p in zip(children, players)]
    values = [agent.score_rows(r) for r in rows]
    rng = np.random.default_rng(0)

    def best_of(fn):
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return min(times) / len(states)

    def whole():
        for s in states:
            agent.step(s)

    def game_work():
        # The game's own code in a GP move: a clone and an apply_action per legal action.
        for s in states:
            for a in s.legal_actions():
                c = s.clone()
                c.apply_action(a)

    def features():
        for c, p in zip(children, players):
            for x in c:
                x.features(p)

    def stacked():
        for c, p in zip(children, players):
            agent.rows(c, p)

    def program():
        for r in rows:
            agent.score_rows(r)

    def choose():
        for v in values:
            choose_best(v, rng)

    agent.restart(0, 0)
    whole()  # warm the interpreter
    t_features = best_of(features)
    return {"step": best_of(whole), "features": t_features, "stacking": max(0.0, best_of(stacked) - t_features),
            "program": best_of(program), "choose": best_of(choose), "game": best_of(game_work),
            "actions": sum(len(s.legal_actions()) for s in states) / len(states)}


def one_game(spec: str, quick: bool, res: BenchResult) -> None:
    from evoplay.evolve import load_config
    from evoplay.games import load_game
    from evoplay.recipes.gp import make

    game = load_game(_game_spec(spec))
    name = game.spec.rsplit("/", 1)[-1]
    count = 20 if quick else 100
    seconds, moves = random_playouts(game, count, 1)
    random_rate = count / seconds
    step_us = 1e6 * seconds / moves

    config = load_config("gp", None, {"game": game.spec, "population": 10 if quick else 20, "generations": 1,
                                      "fitness.games": 2 if quick else 4})
    evo = make(config)
    state = evo.start(np.random.default_rng(0))
    from evoplay.arena.executors import SerialExecutor

    evo.step(evo.start(np.random.default_rng(1)), 0, SerialExecutor())  # warm the interpreter
    start = time.perf_counter()
    state, record = evo.step(state, 0, SerialExecutor())
    gp_seconds = time.perf_counter() - start
    gp_rate = record["games"] / gp_seconds
    res.figures.append(Figure(
        f"{name}: GP evolution games/s (population {config['population']} vs random, 1 core)", gp_rate, "games/s",
        reference=random_rate, reference_name="the game's own random playouts, same run",
        note=f"{record['games']} games in {gp_seconds:.2f} s; random playouts: {count} games, "
             f"{step_us:.1f} us per move; {load_note()}"))

    agent = evo.agent(state["population"][0], "bench")
    b = {k: v if k == "actions" else 1e6 * v
         for k, v in move_breakdown(agent, random_positions(game, 40 if quick else 150, 2)).items()}
    own = b["stacking"] + b["program"] + b["choose"]
    added = b["features"] + own
    res.figures.append(Figure(
        f"{name}: what evoplay adds to a GP move (features, stacking, program, choice) / the game's own work in it",
        added / b["game"], "x", target="<= 0.5", met=added / b["game"] <= 0.5, higher_is_better=False,
        note=f"per move ({b['actions']:.1f} legal actions on average): features {b['features']:.1f} us + stacking "
             f"{b['stacking']:.1f} + program {b['program']:.1f} + choice {b['choose']:.1f} = {added:.1f} us, against "
             f"the game's clone + apply_action of every after-state, {b['game']:.1f} us"))
    res.figures.append(Figure(
        f"{name}: evoplay's own part of a GP move (stacking, program, choice) / the game's step", own / step_us,
        "x", higher_is_better=False,
        note=f"a stricter reading (one move's overhead against a single step): stacking {b['stacking']:.1f} us + program {b['program']:.1f} us (one interpreter call) + "
             f"choice {b['choose']:.1f} us = {own:.1f} us; the game's step (legal actions + apply in random "
             f"playouts) {step_us:.1f} us"))
    res.figures.append(Figure(
        f"{name}: the after-states' features() per GP move / the game's step", b["features"] / step_us, "x",
        higher_is_better=False,
        note=f"{b['features']:.1f} us per move: the game's own features() code, once per legal move; the whole "
             f"step of the GP player {b['step']:.1f} us"))


@register_benchmark("anygame", "a user's Python game and openspiel:connect_four (or the games named after it): GP "
                               "evolution games/s beside the game's random playouts; evoplay's share of a move",
                    takes_games=True)
def bench_anygame(quick: bool = False, games: list[str] | None = None) -> BenchResult:
    res = BenchResult("anygame", command="evoplay bench anygame" + "".join(f" {g}" for g in games or ()))
    for spec in games or GAMES:
        one_game(spec, quick, res)
    return res
