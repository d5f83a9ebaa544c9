"""Pinned moves of rs, rhea, mcts and lookahead: seeded games on kernel games (both paths) and plain-Python games.

The moves were recorded before the controllers' two texts (a Numba kernel and a copy over the State) became one
text; a change that alters which moves a seeded controller chooses, on either path, fails here. Regenerate only
for a change of behaviour meant as such, in its own commit: ``python tests/agents/test_pinned_controllers.py``.
"""
import json
import sys
from pathlib import Path

import pytest

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.arena import play_game

HERE = Path(__file__).resolve().parent
PINNED = HERE / "pinned" / "controllers.json"
CONTROLLERS = ("rs", "rhea", "mcts", "lookahead")
KERNEL_GAMES = ("tron(w=6,h=6)", "gems(w=5,h=5,ticks=12)", "kalah(pits=4,seeds=3)", "mnk(m=4,n=4,k=3)",
                f"{HERE / 'dice_race.py'}:DiceRace(players=3,goal=9)")  # chance, three players
PLAIN_GAMES = (  # no kernels: the game API alone
    f"{HERE / 'take_away.py'}:TakeAway(stones=11)",        # turn-based, a user's file
    "openspiel:goofspiel(num_cards=4,engine=openspiel)",  # simultaneous
    "sevens",                                             # four players, hidden hands (a determinisation a rollout)
)
CASES = [(name, spec, model) for name in CONTROLLERS for spec in KERNEL_GAMES for model in ("auto", "api")] + [
    (name, spec, "api") for name in CONTROLLERS for spec in PLAIN_GAMES]


def key(name: str, spec: str, model: str) -> str:
    return f"{name} {spec.replace(str(HERE), 'tests/agents')} {model}"


def histories(name: str, spec: str, model: str) -> list[list[int]]:
    """Two seeded games (a different seat each) of ``name`` against a seeded rs, the moves of each."""
    game = load_game(spec)
    budget = "iterations=12" if name == "lookahead" else "iterations=40"
    agent = make_agent(f"{name}({budget},discount=0.9,seed=3,model={model})", game)
    others = [make_agent(f"rs(iterations=20,seed={4 + i},model={model})", game) for i in range(game.num_players - 1)]
    games = []
    for seed, seats in ((7, [agent] + others), (8, others + [agent])):
        state = play_game(game, seats, seed=seed)
        games.append(json.loads(json.dumps(list(state.history), default=int)))  # joint actions: lists
    return games


@pytest.mark.parametrize("name, spec, model", CASES, ids=[key(*c) for c in CASES])
def test_a_seeded_controller_plays_the_pinned_moves(name, spec, model):
    pinned = json.loads(PINNED.read_text())
    assert histories(name, spec, model) == pinned[key(name, spec, model)]


if __name__ == "__main__":
    lines = [f"{json.dumps(key(*c))}: {json.dumps(histories(*c), separators=(',', ':'))}" for c in CASES]
    PINNED.write_text("{\n" + ",\n".join(lines) + "\n}\n")  # a case a line
    print(f"wrote {len(CASES)} cases to {PINNED}", file=sys.stderr)
