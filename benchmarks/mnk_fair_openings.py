"""The 5,5,4 champion against MCTS-10,000 on the benchmark's two-ply openings that are not lost (docs/strength.md):
the first 20 of ``evoplay bench strength``'s openings that ``threat_player.prove`` does not prove a first-player win,
20 games a seat, W/D/L and the champion's CPU time a move. About 2 minutes.

    python benchmarks/mnk_fair_openings.py ["champion(nodes=10000)"]    (default: champion, its own budget)"""
import sys

from evoplay import load_game, make_agent
from evoplay.arena.match import derive_seed
from evoplay.bench.strength import SeatResult, opening, play_from
from evoplay.games.mnk.threat_player import prove

if __name__ == "__main__":
    game = load_game("mnk(m=5,n=5,k=4)")
    spec = sys.argv[1] if len(sys.argv) > 1 else "champion"
    champion, mcts = make_agent(spec, game), make_agent("openspiel_mcts(simulations=10000)", game)
    print(spec, flush=True)
    fair, index = [], 0
    while len(fair) < 20:
        if prove(opening(game, 0, index)._board, 0, champion._threat, 5_000_000)[0] != 1:
            fair.append(index)
        index += 1
    print("openings", fair, flush=True)
    for seat in (0, 1):
        result = SeatResult()
        for index in fair:
            agents = [champion, mcts] if seat == 0 else [mcts, champion]
            for p, agent in enumerate(agents):
                agent.restart(derive_seed(0, index, p + 1), p)
            times: list[list[float]] = [[], []]
            ret = play_from(opening(game, 0, index), agents, times).returns()[seat]
            result.wins += ret > 0
            result.draws += ret == 0
            result.losses += ret < 0
            result.own_times += times[seat]
        print(f"moving {('first', 'second')[seat]}: {result.wdl()}, median {result.ms(result.own_times):.2f} ms, "
              f"largest {1000 * max(result.own_times):.1f} ms a move", flush=True)
