"""uct guided by an evolved evaluation: its speed on the kernel path, and its strength against OpenSpiel's MCTSBot.

The evaluation is linear weights over the game's features and the free features (scaled as a run scales them),
fitted to the outcomes of greedy self-play games (evoplay.evolve.warm_start.fit_outcomes), written as a best.json
into a temporary folder (or read from ``--value FILE``, a gp or ga run's best.json). The guided players:

- ``prior``: random rollouts to the end, PUCT over the evaluation's softmax prior (``uct(value=F,prior=true,cut=1000)``);
- ``value``: no rollout, the evaluation scores each leaf, PUCT over its prior (``uct(value=F,prior=true)``);
- ``cut4``: four random plies, then the evaluation, PUCT over its prior (``uct(value=F,prior=true,cut=4)``).

``rate``: simulations a second (CPU time of this thread) of the guided uct on the game's kernels, the same search
through the State, evoplay's plain uct (random rollouts, kernels) and OpenSpiel's C++ MCTSBot (random rollouts), in
this process, on the opening and positions of random games.

``strength``: each player with ``--ms`` of CPU a move against OpenSpiel's MCTSBot with its simulations fitted to
the same CPU a move (evoplay.bench.learn's ``calibrated_mcts``, pilot games one a seat), ``--games`` games a seat,
beside plain ``uct(ms=...,clock=cpu)`` with random rollouts the same way. Prints the load beside each figure.

    python benchmarks/guided_uct.py rate [GAME ...]
    python benchmarks/guided_uct.py strength [--ms 100] [--games 20] [--players plain,prior,value] [GAME ...]

GAME defaults to openspiel:connect_four and openspiel:hex(board_size=5).
"""
import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

GAMES = ("openspiel:connect_four", "openspiel:hex(board_size=5)")
PLAYERS = {
    "plain": "",
    "prior": "value={file},prior=true,cut=1000",
    "value": "value={file},prior=true",
    "cut4": "value={file},prior=true,cut=4",
}
CLOCK = time.thread_time


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def fitted_document(spec: str, seed: int = 0, games: int = 1000) -> dict:
    """A ga best.json of weights fitted to the outcomes of ``games`` greedy games a round (two rounds)."""
    from evoplay import load_game
    from evoplay.agents.feature_view import FeatureView, measure_scales
    from evoplay.evolve.warm_start import fit_outcomes
    from evoplay.ga import GENOME_FORMAT

    game = load_game(spec)
    view = FeatureView(game, True, measure_scales(game, True, seed))
    weights = fit_outcomes(game, view, seed, games=games)
    return {"format": GENOME_FORMAT, "game": game.spec, **view.document(), "weights": weights.tolist(),
            "policy": "move"}


def value_file(spec: str, folder: Path, given: str) -> str:
    if given:
        return given
    started = time.perf_counter()
    doc = fitted_document(spec)
    path = folder / (spec.replace(":", "_").replace("(", "_").replace(")", "").replace("=", "") + ".json")
    path.write_text(json.dumps(doc))
    print(f"{spec}: weights fitted to greedy games' outcomes in {time.perf_counter() - started:.0f} s ({load()})",
          flush=True)
    return str(path)


def uct_rate(agent, states, kernel: bool) -> float:
    from evoplay.bench.ports import simulation_rate

    if not kernel:
        agent._kernel = None  # the same search through the State
    return simulation_rate(agent, states)


def rates(spec: str, file: str, simulations: int = 2000, positions: int = 8) -> None:
    from evoplay import load_game, make_agent
    from evoplay.bench import random_positions
    from evoplay.bench.ports import mcts_rate

    game = load_game(spec)
    states = [game.new_initial_state(0)] + random_positions(game, positions - 1, 1, max_moves=12)
    theirs = [s.pyspiel_state for s in states] if hasattr(states[0], "pyspiel_state") else None
    rows = [("plain uct, kernels", "uct(simulations={n})", True, simulations)]
    for name in ("prior", "value"):
        extra = PLAYERS[name].format(file=file)
        rows.append((f"guided uct ({name}), kernels", f"uct(simulations={{n}},{extra})", True, simulations))
        rows.append((f"guided uct ({name}), State", f"uct(simulations={{n}},{extra})", False, simulations // 20))
    for label, template, kernel, n in rows:
        agent = make_agent(template.format(n=n), game)
        uct_rate(agent, states[:1], kernel)  # compiled and warmed before timing
        measured = statistics.median(uct_rate(agent, states, kernel) for _ in range(3))
        print(f"{spec}: {label}: {measured:,.0f} simulations/s ({load()})", flush=True)
    if theirs is not None:
        cpp = statistics.median(mcts_rate(game.pyspiel_game, theirs, simulations) for _ in range(3))
        print(f"{spec}: OpenSpiel's C++ MCTSBot (random rollouts): {cpp:,.0f} simulations/s ({load()})", flush=True)


class Serial:
    """bench.learn's executor, one game after another in this process."""

    map = staticmethod(map)


def strength(spec: str, file: str, ms: float, games: int, players: list[str]) -> None:
    from evoplay.bench.learn import calibrated_mcts, play_matchup

    for name in players:
        extra = PLAYERS[name].format(file=file)
        player = f"uct(ms={ms:g},clock=cpu{',' + extra if extra else ''})"
        opponent = calibrated_mcts(spec, player, ms, Serial(), seed=5)
        m = play_matchup(spec, player, opponent, name, games, 7, Serial())
        low, high = m.interval()
        print(f"{spec}: {name} uct vs {opponent}: W/D/L {m.wins}/{m.draws}/{m.losses}, score {m.rate:.3f} "
              f"(95 % {low:.2f}-{high:.2f}); CPU a move {statistics.fmean(m.own_ms):.0f} ms vs "
              f"{statistics.fmean(m.their_ms):.0f} ms ({load()})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("rate", "strength"))
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--ms", type=float, default=100.0, help="CPU ms a move (strength)")
    parser.add_argument("--games-a-seat", dest="per_seat", type=int, default=20, help="games a seat (strength)")
    parser.add_argument("--players", default="plain,prior,value", help=f"of {', '.join(PLAYERS)} (strength)")
    parser.add_argument("--value", default="", help="a gp or ga best.json instead of fitted weights")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for spec in args.games:
            file = value_file(spec, Path(folder), args.value)
            if args.what == "rate":
                rates(spec, file)
            else:
                strength(spec, file, args.ms, args.per_seat, args.players.split(","))


if __name__ == "__main__":
    main()
