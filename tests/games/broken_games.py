"""A small correct game (take-away Nim) and copies of it that each break one promise of the game API.

Loaded by path in tests/games/test_check_game.py, as a user's file would be (``broken_games.py:ClassName``).
"""
import random

import numpy as np

from evoplay.errors import IllegalActionError
from evoplay.games import Game, State
from evoplay.spec import Param


class Nim(Game):
    """Take 1 to 3 stones; who takes the last stone wins."""

    name = "nim"
    parameters = (Param("stones", int, 9, "stones at the start"),)
    state_class = None  # set below

    def new_initial_state(self, seed=None):
        return type(self).state_class(self, [self.params["stones"]], 0)

    def num_distinct_actions(self):
        return 3

    def feature_names(self):
        return ["stones", "mover"]


class NimState(State):
    def __init__(self, game, heap, player):
        self.game, self.heap, self.player = game, heap, player

    def current_player(self):
        return -4 if self.heap[0] == 0 else self.player

    def _legal_actions(self):
        return [a for a in range(3) if a + 1 <= self.heap[0]]

    def _apply_action(self, action):
        self.heap[0] -= action + 1
        self.player = 1 - self.player

    def _action_to_string(self, action):
        return f"take{action + 1}"

    def returns(self):
        if self.heap[0]:
            return [0.0, 0.0]
        return [-1.0, 1.0] if self.player == 0 else [1.0, -1.0]

    def clone(self):
        return type(self)(self.game, list(self.heap), self.player)

    def features(self, player):
        return np.array([float(self.heap[0]), float(self.player == player)])

    def __str__(self):
        return f"{self.heap[0]} stones, player {self.player} to move"


Nim.state_class = NimState


def _game(state_cls, **overrides):
    """A Nim whose states are ``state_cls`` (and whose Game methods are ``overrides``)."""
    return type(state_cls.__name__.replace("State", ""), (Nim,), {"state_class": state_cls, **overrides})


class AcceptsIllegalState(NimState):
    def apply_action(self, action):
        self._apply_action(action)  # no legality check


class SharedCloneState(NimState):
    def clone(self):
        return type(self)(self.game, self.heap, self.player)  # the list is shared


class TerminalLegalState(NimState):
    def legal_actions(self, player=None):
        return [0] if self.is_terminal() else super().legal_actions(player)


class StuckState(NimState):
    def _legal_actions(self):
        return [] if self.heap[0] == 4 else super()._legal_actions()


class EmptyChanceState(NimState):
    """At 4 stones a chance node comes whose chance_outcomes() lists nothing."""

    def current_player(self):
        return -1 if self.heap[0] == 4 else super().current_player()

    def _legal_actions(self):
        return [] if self.heap[0] == 4 else super()._legal_actions()

    def chance_outcomes(self):
        return []


class OffGridState(NimState):
    """A one-row grid of its heap, but the moves are placed on a second row that does not exist."""

    def grid(self):
        return ["." * 9]

    def action_cell(self, action):
        return (1, action)


class LongReturnsState(NimState):
    def returns(self):
        return super().returns() + [0.0]


class ShortFeaturesState(NimState):
    def features(self, player):
        return np.array([float(self.heap[0])])


class NanFeaturesState(NimState):
    def features(self, player):
        return np.array([float(self.heap[0]), np.nan])


class AppliesAfterEndState(NimState):
    def apply_action(self, action):
        if self.is_terminal():
            return
        super().apply_action(action)


class CrashingState(NimState):
    def _apply_action(self, action):
        if self.heap[0] == 5:
            raise KeyError("no such heap")
        super()._apply_action(action)


class EndlessState(NimState):
    def _apply_action(self, action):
        self.player = 1 - self.player  # never takes a stone


class SameStringsState(NimState):
    def _action_to_string(self, action):
        return "take"


AcceptsIllegal = _game(AcceptsIllegalState)
SharedClone = _game(SharedCloneState)
TerminalLegal = _game(TerminalLegalState)
Stuck = _game(StuckState)
EmptyChance = _game(EmptyChanceState)
OffGrid = _game(OffGridState)
LongReturns = _game(LongReturnsState)
ShortFeatures = _game(ShortFeaturesState)
NanFeatures = _game(NanFeaturesState)
AppliesAfterEnd = _game(AppliesAfterEndState)
Crashing = _game(CrashingState)
Endless = _game(EndlessState)
SameStrings = _game(SameStringsState)
RepeatedNames = _game(NimState, feature_names=lambda self: ["stones", "stones"])


class Unseeded(Nim):
    """The heap size comes from the global random module, not from the seed."""

    def new_initial_state(self, seed=None):
        return NimState(self, [random.randint(5, 30)], 0)


class NoFeatures(Game):
    """A game whose author has not written features yet (the base class's how-to error)."""

    name = "nofeatures"

    def new_initial_state(self, seed=None):
        return PlainState(self, [3], 0)

    def num_distinct_actions(self):
        return 3


class PlainState(NimState):
    def features(self, player):
        return State.features(self, player)


class NotAGame:
    pass


class IllegalErrorType(Nim):
    state_class = None


class WrongErrorState(NimState):
    def apply_action(self, action):
        if action not in self._legal_actions():
            raise ValueError("nope")
        super().apply_action(action)


IllegalErrorType.state_class = WrongErrorState


class WrongBoard(Nim):
    """Says its two features are a board of eight cells."""

    def board_planes(self):
        return (2, 2, 2)


class TwoCellBoard(Nim):
    """Its two features read as one row of two cells, one plane (a board pair features can count on)."""

    def board_planes(self):
        return (1, 1, 2)
