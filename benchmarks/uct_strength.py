"""uct against OpenSpiel's C++ MCTSBot at the same number of simulations on connect four (docs/anygame.md).

Both searches use UCT constant 2, one random rollout per leaf and the solver; each game starts from two random
plies (the same openings in both seats, bench.strength's ``pairing``). Prints uct's wins/draws/losses in each seat,
the total with a 95 % Wilson interval of its score, and each side's median CPU time per move.

    python benchmarks/uct_strength.py [simulations (1000)] [games per seat (20)] [game (openspiel:connect_four)]"""
import os
import sys

from evoplay import load_game, make_agent
from evoplay.arena.tournament import wilson_interval
from evoplay.bench.strength import pairing

if __name__ == "__main__":
    sims = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    per_seat = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    game = load_game(sys.argv[3] if len(sys.argv) > 3 else "openspiel:connect_four")
    ours = make_agent(f"uct(simulations={sims},uct_c=2,rollouts=1,solve=true)", game)
    theirs = make_agent(f"openspiel_mcts(simulations={sims},uct_c=2,rollouts=1,solve=true)", game)
    print(f"{game.spec}: {ours.spec} vs {theirs.spec}, {per_seat} games a seat; load {os.getloadavg()[0]:.2f}",
          flush=True)
    results = pairing(game, ours, theirs, per_seat, seed=1)
    for seat, r in zip(("first", "second"), results):
        print(f"uct moving {seat}: W/D/L {r.wdl()}, uct {r.ms(r.own_times):.1f} ms a move, "
              f"OpenSpiel {r.ms(r.opponent_times):.1f} ms a move", flush=True)
    w, d, l = (sum(getattr(r, k) for r in results) for k in ("wins", "draws", "losses"))
    low, high = wilson_interval(w + 0.5 * d, w + d + l)
    print(f"uct in all: W/D/L {w}/{d}/{l}, score {(w + 0.5 * d) / (w + d + l):.3f} (95 % CI {low:.3f}-{high:.3f}); "
          f"load at the end {os.getloadavg()[0]:.2f}")
