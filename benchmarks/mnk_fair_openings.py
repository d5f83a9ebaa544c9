"""The 5,5,4 champion against MCTS-10,000 on held openings (docs/strength.md): the first 20 of ``evoplay bench
strength``'s openings that ``threat_player.prove`` does not prove a first-player win, 20 games a seat, W/D/L and
the champion's CPU time a move, the median and the largest. About 2-4 minutes; the benchmark's last row plays the
same games, this script also prints the largest move and takes another champion budget.

    python benchmarks/mnk_fair_openings.py ["champion(nodes=12000)"]    (default: champion, its own budget)"""
import sys

from evoplay import load_game, make_agent
from evoplay.bench.strength import MNK, held_openings, pairing

if __name__ == "__main__":
    spec = sys.argv[1] if len(sys.argv) > 1 else "champion"
    game = load_game(MNK)
    indices = held_openings(game, 20)
    print(spec, "on openings", indices, flush=True)
    results = pairing(game, make_agent(spec, game), make_agent("openspiel_mcts(simulations=10000)", game), 20,
                      indices=indices)
    for seat, result in zip(("first", "second"), results):
        print(f"moving {seat}: {result.wdl()}, median {result.ms(result.own_times):.2f} ms, "
              f"largest {1000 * max(result.own_times):.1f} ms a move", flush=True)
