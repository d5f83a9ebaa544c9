"""Does a player get stronger with its time against a fixed yardstick? Each budget against one referee.

``evoplay bench learn --time-scaling`` plays the 400 ms player against the 100 ms one: where both play a game well,
most games are decided by the opening and that matchup stays near 50 % although the longer search is the stronger
one. This script holds the referee fixed instead: the player SPEC (a spec with ``{ms}`` in it, e.g.
``weights(runs/bench-learn/connect_four/best.json,clock=cpu,ms={ms})``) at each of ``--ms`` against the same
``--referee``, ``--games`` a seat, from openings of two random plies as bench learn's time matchup plays them (its
``play_matchup``, the same seeds for every budget): ::

    python benchmarks/referee_scaling.py openspiel:connect_four \\
        "weights(runs/bench-learn/connect_four/best.json,clock=cpu,ms={ms})" --ms 100,400 \\
        --referee "uct(ms=800,clock=cpu)" --games 20

Prints each budget's wins/draws/losses against the referee, its score and its CPU ms a move, with the load.
"""
import argparse
import os
import statistics

from evoplay.arena import make_executor
from evoplay.bench.learn import OPENING_PLIES, play_matchup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game spec")
    parser.add_argument("player", help="the player's agent spec, with {ms} where its budget goes")
    parser.add_argument("--ms", default="100,400", help="the budgets to try, comma-separated")
    parser.add_argument("--referee", default="uct(ms=800,clock=cpu)", help="the fixed opponent's agent spec")
    parser.add_argument("--games", type=int, default=20, help="games a seat")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if "{ms}" not in args.player:
        parser.error(f"the player spec {args.player!r} has no {{ms}}: write it where the budget goes, e.g. "
                     f"weights(best.json,clock=cpu,ms={{ms}})")
    with make_executor("process" if args.workers > 1 else "serial", args.workers) as ex:
        for ms in args.ms.split(","):
            spec = args.player.replace("{ms}", ms.strip())
            m = play_matchup(args.game, spec, args.referee, "referee", args.games, args.seed, ex, OPENING_PLIES)
            own = statistics.median(m.own_ms) if m.own_ms else 0.0
            print(f"{spec} against {args.referee}: {m.wins}/{m.draws}/{m.losses} = {100 * m.rate:.1f} % of "
                  f"{m.games} games, {own:.0f} ms a move (median; load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
