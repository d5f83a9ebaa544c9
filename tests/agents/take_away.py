"""A user's game for the tests: take 1, 2 or 3 stones from one pile; who takes the last stone wins."""
import time

import numpy as np

from evoplay.games.base import TERMINAL, Game, State
from evoplay.spec import Param


class TakeAway(Game):
    name = "take_away"
    num_players = 2
    parameters = (Param("stones", int, 15, "stones in the pile at the start"),)

    def new_initial_state(self, seed=None):
        return TakeAwayState(self, int(self.params.get("stones", 15)), 0)

    def num_distinct_actions(self):
        return 3

    def feature_names(self):
        return ["pile", "pile_mod_4", "one"]


class TakeAwayState(State):
    def __init__(self, game, pile, player, last=None):
        self.game, self.pile, self.player, self.last = game, pile, player, last
        self.history = []

    def current_player(self):
        return TERMINAL if self.pile == 0 else self.player

    def _legal_actions(self):
        return [a for a in (0, 1, 2) if a + 1 <= self.pile]

    def _apply_action(self, action):
        self.pile -= action + 1
        self.last = self.player
        self.player = 1 - self.player
        self.history.append(action)

    def _action_to_string(self, action):
        return str(action + 1)

    def _string_to_action(self, text):
        return int(text) - 1

    def returns(self):
        if self.pile:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.last == 0 else [-1.0, 1.0]

    def features(self, player):
        return np.array([self.pile, self.pile % 4, 1.0], dtype=np.float64)

    def clone(self):
        s = TakeAwayState(self.game, self.pile, self.player, self.last)
        s.history = list(self.history)
        return s


class SlowTakeAway(TakeAway):
    """TakeAway whose every move in a game takes a millisecond (a search's copies move at full speed): a generation
    of a few dozen games outlasts a budget of a few hundredths of a second on any machine."""

    name = "slow_take_away"

    def new_initial_state(self, seed=None):
        return SlowTakeAwayState(self, int(self.params.get("stones", 15)), 0)


class SlowTakeAwayState(TakeAwayState):
    def _apply_action(self, action):
        time.sleep(0.001)
        TakeAwayState._apply_action(self, action)
