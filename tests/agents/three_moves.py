"""A three-player game for the tests: players 0, 1 and 2 move once each, in turn, choosing 0 or 1; the returns of
the three choices are whatever ``payoff(moves)`` the game is given."""
from evoplay.games.base import TERMINAL, Game, State


class ThreeMoves(Game):
    name = "three_moves"
    num_players = 3

    def __init__(self, payoff):
        super().__init__("three_moves", {})
        self.payoff = payoff

    def new_initial_state(self, seed=None):
        return ThreeMovesState(self, [])


class ThreeMovesState(State):
    def __init__(self, game, moves):
        self.game, self.moves = game, list(moves)

    def current_player(self):
        return TERMINAL if len(self.moves) == 3 else len(self.moves)

    def _legal_actions(self):
        return [0, 1]

    def _apply_action(self, action):
        self.moves.append(action)

    def returns(self):
        return list(self.game.payoff(self.moves)) if len(self.moves) == 3 else [0.0, 0.0, 0.0]

    def clone(self):
        return ThreeMovesState(self.game, self.moves)
