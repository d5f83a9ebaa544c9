"""rs, rhea, mcts and lookahead on games that hand over kernels: the kernel path plays the same games as the game
API path on a user's game (examples/othello6_kernel.py) and on a game with chance and three players."""
from pathlib import Path

import pytest

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.arena import play_game

ROOT = Path(__file__).resolve().parents[2]
FAST = f"{ROOT / 'examples' / 'othello6_kernel.py'}:Othello"
DICE = f"{Path(__file__).with_name('dice_race.py')}:DiceRace(players=3,goal=9)"


@pytest.mark.parametrize("name", ["rs", "rhea", "mcts", "lookahead"])
@pytest.mark.parametrize("spec", [FAST, DICE])
def test_the_kernel_path_plays_the_same_games_as_the_game_api(name, spec):
    game = load_game(spec)
    histories = []
    for model in ("auto", "api"):
        agents = [make_agent(f"{name}(iterations=40,discount=0.9,model={model})", game),
                  make_agent(f"mcts(iterations=30,model={model})", game)]
        if game.num_players == 3:
            agents.append(make_agent(f"rs(iterations=20,model={model})", game))
        assert agents[0].model == ("numba" if model == "auto" else "api")
        games = [play_game(game, agents, seed=7), play_game(game, agents[::-1], seed=8)]
        histories.append([list(s.history) for s in games])
    assert histories[0] == histories[1]
