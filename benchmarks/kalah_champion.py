"""The Kalah champion's figures in docs/strength.md: its nodes and depth a move over the strength benchmark's 40
games against MCTS-1,000 (seed 0), its rows of the benchmark's table (seed 0: MCTS-1,000, MCTS-10,000 and
``alphabeta(depth=8)``, 20 games a seat, as ``evoplay bench strength`` plays them) and its 20-game samples against
MCTS-10,000 on the benchmark's seeds 1 and 2. About a minute of CPU.

    python benchmarks/kalah_champion.py ["champion(nodes=12000)"]    (default: champion, its own budget)"""
import sys

import numpy as np

from evoplay import load_game, make_agent
from evoplay.bench.strength import KALAH, markdown_table, pairing
from evoplay.games.kalah import deepening

MCTS_10K = "openspiel_mcts(simulations=10000)"


def nodes_and_depth(game, spec: str) -> None:
    """Every deepening search of ``spec``'s moves against MCTS-1,000: its nodes and its last iteration's depth."""
    searched = []
    inner = deepening.search

    def search(*args, **kwargs):
        found = inner(*args, **kwargs)
        searched.append(found[1:])
        return found

    deepening.search = search
    try:
        pairing(game, make_agent(spec, game), make_agent("openspiel_mcts(simulations=1000)", game), 20, 0)
    finally:
        deepening.search = inner
    depth = np.array([d for d, _ in searched])
    nodes = np.array([n for _, n in searched])
    print(f"{len(searched)} moves: nodes median {np.median(nodes):,.0f}, 90th percentile "
          f"{np.percentile(nodes, 90):,.0f}, largest {nodes.max():,}; depth median {np.median(depth):.0f}, 10th "
          f"percentile {np.percentile(depth, 10):.0f}, at the cap ({deepening.MAX_DEPTH}) {(depth == deepening.MAX_DEPTH).sum()}",
          flush=True)


if __name__ == "__main__":
    spec = sys.argv[1] if len(sys.argv) > 1 else "champion"
    game = load_game(KALAH)
    nodes_and_depth(game, spec)
    rows = []
    for opponent in ("openspiel_mcts(simulations=1000)", MCTS_10K, "alphabeta(depth=8)"):
        first, second = pairing(game, make_agent(spec, game), make_agent(opponent, game), 20, 0)
        rows.append({"game": KALAH, "player": spec, "opponent": opponent, "first": first.to_dict(),
                     "second": second.to_dict()})
    print(markdown_table(rows), flush=True)
    for seed in (1, 2):
        first, second = pairing(game, make_agent(spec, game), make_agent(MCTS_10K, game), 20, seed)
        print(f"seed {seed} against {MCTS_10K}: {first.wdl()} moving first, {second.wdl()} moving second", flush=True)
