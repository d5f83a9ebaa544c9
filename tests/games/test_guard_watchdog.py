"""The hook watchdog (evoplay.games.tools.guard) stops a looping hook from the table of running calls alone: it never
reads another thread's stack (which crashed CPython 3.11 now and then), and a hook called inside another runs on
the outer call's clock."""
from __future__ import annotations

import sys
import time

import pytest

from evoplay.errors import GameError
from evoplay.games import Game, State
from evoplay.games.tools import guard


class Loop(Game):
    name = "loop"
    hook_seconds = 0.5

    def new_initial_state(self, seed=None):
        return LoopState(self)

    def num_distinct_actions(self):
        return 2

    def feature_names(self):
        return ["x"]


class LoopState(State):
    def __init__(self, game):
        self.game = game

    def current_player(self):
        return 0

    def _legal_actions(self):
        return [0, 1]

    def features(self, player=None):
        return [float(len(self.legal_actions()))]  # a hook calling a hook: timed as one call

    def _apply_action(self, action):
        while action == 1:  # never ends
            pass


def test_a_looping_hook_is_stopped_without_reading_any_threads_stack(monkeypatch):
    def refuse():
        raise AssertionError("the watchdog read the threads' stacks")

    monkeypatch.setattr(sys, "_current_frames", refuse)
    guard.guard_game(Loop)
    game = Loop()
    state = game.new_initial_state()
    assert state.features(0) == [2.0] and not guard._RUNNING  # the nested call left no entry behind
    started = time.monotonic()
    with pytest.raises(GameError, match=r"LoopState._apply_action ran past its time limit of 0.5 s"):
        state.apply_action(1)
    assert time.monotonic() - started < 30  # the loop would run for ever
    assert not guard._RUNNING
