"""How much better any player of pig can do than a given one: the optimal policy against it.

Pig (OpenSpiel's, on evoplay's port) is solved: Neller and Presser ("Optimal Play of the Dice Game Pig", The UMAP
Journal 25(1), 2004) compute, by value iteration, the chance P(i, j, k) that the player to move wins with score
``i`` against ``j`` and ``k`` points this turn. The optimal player rolls where rolling gives the higher chance.
No player, however long it thinks, beats a given one by more than the optimal player does: that score is the
ceiling of "the 400 ms player against the 100 ms one" (``evoplay bench learn --time-scaling``) for that 100 ms
player. This script solves the game, checks the solution (the first player's chance with both optimal, 53.06 % in
the paper for 100 points and a six-sided die), and plays the optimal player against each SPEC, ``--games`` a seat
on ``--workers`` processes, seeded: ::

    python benchmarks/pig_ceiling.py "weights(runs/bench-learn/pig/best.json,clock=cpu)" --games 100
    python benchmarks/pig_ceiling.py "uct(ms=100,clock=cpu)" "alphabeta(depth=2)" --games 50

Prints each SPEC's games against the optimal player and the optimal player's score, with the load.
"""
import argparse
import os
import time
from multiprocessing import Pool

import numpy as np
from numba import njit

from evoplay.arena.match import derive_seed
from evoplay.games import load_game
from evoplay.games.agent import Agent
from evoplay.games.base import CHANCE, TERMINAL, sample_chance

ROLL, STOP = 0, 1  # OpenSpiel's pig actions


@njit(cache=True)
def solve(goal, faces, tolerance):
    """Value iteration (in place) for P[i, j, k], the mover's chance to win with score i, the opponent's j and k
    this turn (i + k < goal), rolling a die of ``faces`` whose 1 ends the turn with nothing; until no value moves
    by more than ``tolerance``. Returns P and the sweeps it took."""
    p = np.zeros((goal, goal, goal))
    sweeps = 0
    while True:
        sweeps += 1
        change = 0.0
        for i in range(goal - 1, -1, -1):
            for j in range(goal - 1, -1, -1):
                for k in range(goal - i - 1, -1, -1):
                    roll = (1.0 - p[j, i, 0]) / faces
                    for face in range(2, faces + 1):
                        roll += (1.0 if i + k + face >= goal else p[i, j, k + face]) / faces
                    stop = 1.0 - p[j, i + k, 0] if i + k < goal and k > 0 else 0.0
                    best = max(roll, stop)
                    change = max(change, abs(best - p[i, j, k]))
                    p[i, j, k] = best
        if change < tolerance:
            return p, sweeps


def rolls(p, goal, faces, i, j, k) -> bool:
    """Does the optimal player roll at (i, j, k)?"""
    if i + k >= goal:
        return False
    roll = (1.0 - p[j, i, 0]) / faces + sum((1.0 if i + k + f >= goal else p[i, j, k + f]) / faces
                                            for f in range(2, faces + 1))
    stop = 1.0 - p[j, i + k, 0] if k > 0 else 0.0
    return roll > stop


class OptimalPig(Agent):
    """Neller and Presser's optimal player of two-player pig, from the solved table ``p``."""

    spec = "optimal"

    def __init__(self, game, p):
        super().__init__(game)
        self.p = p

    def step(self, state):
        me = state.current_player()
        i, j, k = state.points[me], state.points[1 - me], state.turn_total
        legal = state.legal_actions()
        wanted = ROLL if rolls(self.p, self.game.win_score, self.game.dice_outcomes, i, j, k) else STOP
        return wanted if wanted in legal else legal[0]


_TABLE = {}


def _game(task):
    """One seeded game: the optimal player in ``seat``, the agent of ``spec`` in the other; its returns."""
    from evoplay.agents import make_agent

    game_spec, spec, seed, seat = task
    game = load_game(game_spec)
    if game_spec not in _TABLE:
        _TABLE[game_spec] = solve(game.win_score, game.dice_outcomes, 1e-9)[0]
    agents = [OptimalPig(game, _TABLE[game_spec]), make_agent(spec, game)]
    if seat:
        agents.reverse()
    state = game.new_initial_state(seed)
    for s, agent in enumerate(agents):
        agent.restart(derive_seed(seed, s + 1), s)
    chance = np.random.default_rng(derive_seed(seed, 0))
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, chance))
        else:
            state.apply_action(agents[state.current_player()].step(state))
    returns = state.returns()
    return returns[seat] - returns[1 - seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="+", help="agent specs to play against the optimal player")
    parser.add_argument("--game", default="openspiel:pig", help="a two-player pig (default: OpenSpiel's)")
    parser.add_argument("--games", type=int, default=50, help="games a seat")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = load_game(args.game)
    start = time.process_time()
    p, sweeps = solve(game.win_score, game.dice_outcomes, 1e-9)
    print(f"{args.game}: solved in {sweeps} sweeps, {time.process_time() - start:.1f} s CPU; both optimal, the "
          f"first player wins {100 * p[0, 0, 0]:.2f} %")
    for spec in args.specs:
        tasks = [(args.game, spec, derive_seed(args.seed, g), seat) for g in range(args.games) for seat in (0, 1)]
        with Pool(args.workers) as pool:
            margins = pool.map(_game, tasks)
        w, d = sum(m > 0 for m in margins), sum(m == 0 for m in margins)
        lost = len(margins) - w - d
        print(f"optimal against {spec}: {w}/{d}/{lost}, the optimal player scores "
              f"{100 * (w + d / 2) / len(margins):.1f} % of {len(margins)} games (load {os.getloadavg()[0]:.1f})",
              flush=True)


if __name__ == "__main__":
    main()
