"""The evolved players on a game of hidden information read only what their player sees: the 1-ply move policy and
the search value the after-states of determinisations, never the true state's hidden cards (a finished game's
result would tell them)."""
import numpy as np
import pytest

from evoplay.agents.feature_view import FeatureView
from evoplay.agents.feature_player import linear_agent
from evoplay.games.base import TERMINAL, Game, State


class Coin(Game):
    """Player 0 calls a coin it cannot see: action 0 or 1, a win when it matches. One move, then the game ends."""

    name = "coin"
    num_players = 2
    perfect_information = False

    def __init__(self):
        super().__init__("coin", {})

    def new_initial_state(self, seed=None):
        return CoinState(self, int(np.random.default_rng(seed).integers(2)), None)

    def num_distinct_actions(self):
        return 2

    def feature_names(self):
        return ["bias"]


class CoinState(State):
    def __init__(self, game, coin, call):
        self.game, self.coin, self.call = game, coin, call

    def current_player(self):
        return TERMINAL if self.call is not None else 0

    def _legal_actions(self):
        return [0, 1]

    def _apply_action(self, action):
        self.call = action

    def returns(self):
        won = 1.0 if self.call == self.coin else -1.0
        return [won, -won]

    def clone(self):
        return CoinState(self.game, self.coin, self.call)

    def features(self, player):
        return [1.0]

    def resample(self, player, rng):
        return CoinState(self.game, int(rng.integers(2)), self.call)  # the coin is what nobody sees


@pytest.mark.parametrize("policy", ["move", "search"])
def test_a_hidden_coin_is_not_read_through_the_result_of_a_finished_game(policy):
    game = Coin()
    agent = linear_agent(game, [0.0], policy, 1, view=FeatureView(game))
    wins = 0
    for seed in range(200):
        state = game.new_initial_state(seed)
        agent.restart(seed, 0)
        state.apply_action(agent.step(state))
        wins += state.returns()[0] > 0
    assert 60 <= wins <= 140  # a fair coin: about half; the true state's result would win all 200
