"""Nim in a dozen lines: the README's bring-your-own-game example (take 1 to 3 stones; who takes the last wins)."""
from evoplay.games import TERMINAL, Game, State


class Nim(Game):
    def new_initial_state(self, seed=None): return NimState(self, 15, 0)
    def num_distinct_actions(self): return 3                      # action a takes a + 1 stones
    def feature_names(self): return ["stones", "stones_mod_4"]   # what evolved players read


class NimState(State):
    def __init__(self, game, stones, player): self.game, self.stones, self.player = game, stones, player
    def current_player(self): return TERMINAL if self.stones == 0 else self.player
    def _legal_actions(self): return [a for a in range(3) if a < self.stones]
    def _apply_action(self, a): self.stones, self.player = self.stones - a - 1, 1 - self.player
    def returns(self): return [0.0, 0.0] if self.stones else [-1.0 if p == self.player else 1.0 for p in (0, 1)]
    def clone(self): return NimState(self.game, self.stones, self.player)
    def features(self, player): return [self.stones, self.stones % 4]
