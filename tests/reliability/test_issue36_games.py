"""Issue 36, a user's game: check-game names a looping hook within the guard's limit (it hung), a hook that exits
(SystemExit, os._exit) is a broken game in one line naming it, a State subclass calling ``super().features()`` is
accepted, check-game refuses actions outside 0..num_distinct_actions()-1 and repeated ones, and feature names are
checked in linear time."""
from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from click.testing import CliRunner

from evoplay.cli import main
from evoplay.errors import GameError
from evoplay.games import load_game
from evoplay.games.tools.check import check_game

from . import broken_user_games as broken


def _check_game_cli(spec: str):
    return CliRunner().invoke(main, ["check-game", spec, "--games", "3"])


def test_check_game_names_a_looping_hook_within_its_time_limit(tmp_path):
    spec = broken.write(tmp_path, "loops")  # hook_seconds = 1
    done = []
    # before: it never ended (the states' hooks ran unguarded, the watchdog blind to them): a thread, so a hang fails
    worker = threading.Thread(target=lambda: done.append(_check_game_cli(spec)), daemon=True)
    start = time.monotonic()
    worker.start()
    worker.join(15)
    assert done, "check-game still running after 15 s"
    assert time.monotonic() - start < 5
    assert done[0].exit_code == 2, done[0].output
    assert "BrokenState._apply_action ran past its time limit of 1 s" in " ".join(done[0].output.split())


def test_check_game_reports_a_hook_that_raises_system_exit(tmp_path):
    done = _check_game_cli(broken.write(tmp_path, "exit"))  # before: exit 4, no word
    assert done.exit_code == 2, (done.exit_code, done.output)
    assert "BrokenState._apply_action raised SystemExit: 4" in done.output


EXITS = """
import sys
from evoplay.arena.match import play_game
from evoplay.agents import make_agent
from evoplay.errors import GameError
from evoplay.games import load_game
from evoplay.games.tools.check import check_game

report = check_game(sys.argv[1], games=2)
print("check-game:", " ".join(p.message for p in report.problems))
game = load_game(sys.argv[1])
try:
    play_game(game, [make_agent("random", game), make_agent("random", game)], seed=0)
except GameError as err:
    print("match:", err)
"""


def test_a_hook_calling_os_exit_is_a_broken_game_in_check_game_and_match(tmp_path):
    spec = broken.write(tmp_path, "os-exit")
    done = subprocess.run([sys.executable, "-c", EXITS, spec], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr)  # before: exit 3, no word
    lines = done.stdout.splitlines()
    assert lines[0].startswith("check-game: BrokenState._apply_action called os._exit(3)"), lines
    assert lines[1].startswith("match: ") and "BrokenState._apply_action called os._exit(3)" in lines[1], lines


SUBCLASS = '''
import numpy as np
from evoplay.games import Game, State


class Take(Game):
    name = "take"
    hook_seconds = 1.0

    def new_initial_state(self, seed=None):
        return {state}(self, 7, 0)

    def num_distinct_actions(self):
        return 3

    def feature_names(self):
        return {names}


class TakeState(State):
    def __init__(self, game, stones, player):
        self.game, self.stones, self.player = game, stones, player

    def current_player(self):
        return -4 if self.stones <= 0 else self.player

    def _legal_actions(self):
        return {legal}

    def _apply_action(self, action):
        self.stones -= action + 1
        self.player = 1 - self.player

    def returns(self):
        if self.stones > 0:
            return [0.0, 0.0]
        return [-1.0, 1.0] if self.player == 0 else [1.0, -1.0]

    def clone(self):
        return type(self)(self.game, self.stones, self.player)

    def features(self, player):
        return {features}


class MoreState(TakeState):
    def features(self, player):
        return np.append(super().features(player), float(self.stones % 2))
'''


def _take(tmp_path, state="TakeState", names='["stones", "mover"]',
          legal="[a for a in range(3) if a + 1 <= self.stones]",
          features="np.array([float(self.stones), float(self.player == player)])") -> str:
    path = tmp_path / "take_game.py"
    path.write_text(SUBCLASS.format(state=state, names=names, legal=legal, features=features), encoding="utf-8")
    return f"{path}:Take"


def test_a_state_subclass_calling_super_features_is_accepted_by_the_guard(tmp_path):
    game = load_game(_take(tmp_path, "MoreState", '["stones", "mover", "odd"]'))
    state = game.new_initial_state(0)
    # before: "TakeState.features returned shape (2,); feature_names() names 3 numbers": the inner call was checked
    # against the subclass's names
    assert list(state.features(0)) == [7.0, 1.0, 1.0]
    assert check_game(game, games=3).ok


def test_the_guard_still_checks_the_outer_call_of_a_subclass(tmp_path):
    game = load_game(_take(tmp_path, "MoreState", '["stones", "mover"]'))
    with pytest.raises(GameError, match=r"MoreState.features returned shape \(3,\); feature_names\(\) names 2"):
        game.new_initial_state(0).features(0)


def test_check_game_refuses_actions_outside_num_distinct_actions(tmp_path):
    report = check_game(_take(tmp_path, legal="[a for a in range(3) if a + 1 <= self.stones] + [5]"), games=2)
    # before: accepted (the docs say actions are 0 .. num_distinct_actions() - 1)
    assert [p.rule for p in report.problems] == ["actions-range"], report.problems
    assert "legal_actions() holds 5, outside 0..2" in report.problems[0].message


def test_check_game_refuses_a_legal_action_listed_twice(tmp_path):
    report = check_game(_take(tmp_path, legal="[0, 0] + [a for a in range(1, 3) if a + 1 <= self.stones]"), games=2)
    assert [p.rule for p in report.problems] == ["actions-distinct"], report.problems
    assert "legal_actions() lists 0 more than once" in report.problems[0].message


def test_check_game_of_a_game_with_100000_features_is_quick(tmp_path):
    game = load_game(_take(tmp_path, names='[f"f{i}" for i in range(100_000)]',
                           features="np.full(100_000, float(self.stones + player))"))
    start = time.perf_counter()
    report = check_game(game, games=2)
    assert time.perf_counter() - start < 5  # before: did not finish in 199 s (a count of each name in the list)
    assert report.ok and report.num_features == 100_000, report.problems
