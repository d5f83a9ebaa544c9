"""The agents a game's own package offers (``Game.players``): registered by name the way entry points are, built by
their entry, refused on other games; a generic agent name takes the game's own meaning (alphabeta, champion)."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from evoplay import load_game
from evoplay.agents import make_agent
from evoplay.agents.alphabeta import AlphaBetaAgent
from evoplay.cli import main
from evoplay.errors import SpecError
from evoplay.games.base import Game

DICE = f"{Path(__file__).with_name('dice_race.py')}:DiceRace(players=2,goal=6)"


def test_a_games_own_agent_is_built_from_its_package_and_plays_only_that_game():
    game = load_game(DICE)
    agent = make_agent("cautious(action=0)", game)
    assert type(agent).__name__ == "Cautious" and agent.spec == "cautious(action=0)"
    state = game.new_initial_state()
    state.apply_action(2)  # a roll of 3
    assert agent.step(state) == 0
    with pytest.raises(SpecError, match="agent 'cautious' cannot play kalah: it plays dice_race only"):
        make_agent("cautious", load_game("kalah"))


def test_evoplay_agents_lists_a_games_own_agents():
    result = CliRunner().invoke(main, ["agents", "--game", DICE])
    assert result.exit_code == 0, result.output
    assert "cautious" in result.output and "always the same action" in result.output


def test_a_generic_name_takes_the_games_own_meaning():
    assert type(make_agent("alphabeta", load_game("kalah"))).__name__ == "KalahAlphaBeta"
    assert isinstance(make_agent("alphabeta", load_game(DICE)), AlphaBetaAgent)  # no search of its own
    with pytest.raises(SpecError, match="evoplay ships no champion for"):
        make_agent("champion", load_game(DICE))
    with pytest.raises(SpecError, match="plays mnk\\(m=5,n=5,k=4\\) only"):
        make_agent("champion", load_game("mnk(m=3,n=3,k=3)"))


def test_a_reference_that_does_not_load_says_how_to_write_one():
    class Broken(Game):
        players = {"oops": "evoplay.games.no_such_module:THING"}

    with pytest.raises(SpecError, match="Broken.players\\['oops'\\] = 'evoplay.games.no_such_module:THING' cannot be "
                                        "loaded.*'package.module:attribute'"):
        Broken.player("oops")
    assert Broken.player("missing") is None
