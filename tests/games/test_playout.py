"""The random-game driver (games/playout.py): one seeded game, its decisions handed to the caller, as both the
feature scales' positions and the warm start's games play it."""
from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from evoplay.agents.feature_view import decisions
from evoplay.arena.match import never_ended
from evoplay.errors import GameError
from evoplay.evolve.warm_start import _one_game
from evoplay.games import load_game
from evoplay.games.base import SIMULTANEOUS
from evoplay.games.playout import playout, random_joint

BROKEN = Path(__file__).with_name("broken_games.py")


def _same(a, b, mover: int) -> bool:
    return np.array_equal(np.asarray(a.features(mover)), np.asarray(b.features(mover)))


@pytest.mark.parametrize("spec", ["kalah(pits=4,seeds=3)", "openspiel:pig(winscore=15)"])
def test_the_feature_scales_and_the_warm_start_record_the_same_positions_from_one_seed(spec):
    """A turn-based game (with chance nodes in pig) of one seed gives the same positions, moves and outcome through
    ``decisions`` (the feature scales) and the warm start's random game: one driver, one random stream."""
    game = load_game(spec)
    rng = np.random.default_rng(9)
    seed = int(rng.integers(1 << 31))  # what decisions(game, count, 9) draws first
    final, seen, moves = _one_game(game, None, 0.0, rng, seed, 2000)
    assert final.is_terminal() and len(seen) > 3
    found = decisions(game, len(seen), 9)  # exactly the first game's positions: no subsample
    assert [d.seed for d in found] == [seed] * len(seen)
    assert [d.move for d in found] == sorted(d.move for d in found) and found[-1].move < moves
    assert all(_same(d.state, s, d.mover) and d.state.current_player() == d.mover for d, s in zip(found, seen))
    again = []
    rng = np.random.default_rng(9)
    rng.integers(1 << 31)
    state, played = playout(game, seed, rng, 2000, lambda s, mover, move: again.append((mover, move)))
    assert played == moves and state.returns() == final.returns()
    assert again == [(d.mover, d.move) for d in found]


def test_at_a_simultaneous_node_the_joint_action_is_drawn_before_the_position_is_recorded():
    """The feature scales draw whose view they keep when ``record`` sees a simultaneous node; that draw comes after
    the players' actions, so the game played is the warm start's game of the same seed."""
    game = load_game("tron")
    rng = np.random.default_rng(4)
    taken = []  # (position, the generator's state when record saw it)
    playout(game, 77, rng, 40, lambda s, mover, move: taken.append((s.clone(), copy.deepcopy(rng.bit_generator.state))))
    assert len(taken) > 2 and all(s.current_player() == SIMULTANEOUS for s, _ in taken)
    before = np.random.default_rng(4).bit_generator.state
    for (position, at_record), (following, _) in zip(taken, taken[1:]):
        replay = np.random.default_rng()
        replay.bit_generator.state = before
        joint = random_joint(position, game.num_players, replay)
        assert replay.bit_generator.state == at_record  # the joint action was drawn before record saw the node
        position.apply_actions(joint)
        assert str(position) == str(following)
        before = at_record
    scaled = decisions(game, 3, 5, max_moves=40)
    assert {d.mover for d in scaled} <= set(range(game.num_players))  # a player's view, never SIMULTANEOUS


def test_a_chooser_picks_the_turn_based_moves():
    game = load_game(f"{BROKEN}:Nim(stones=9)")
    seen = []
    state, moves = playout(game, 0, np.random.default_rng(0), 100, lambda s, mover, move: seen.append(mover),
                           choose=lambda s, mover, legal, rng: max(legal))  # take 3 stones every move
    assert state.is_terminal() and moves == 3 and seen == [0, 1, 0] and state.returns() == [1.0, -1.0]


def test_a_game_that_never_ends_stops_quietly_or_raises_the_arenas_error_naming_game_seed_and_move():
    spec = f"{BROKEN}:Endless"
    game = load_game(spec)
    seen = []
    state, moves = playout(game, 3, np.random.default_rng(0), 25, lambda s, mover, move: seen.append(move))
    assert moves == 25 and seen == list(range(25)) and not state.is_terminal()
    with pytest.raises(GameError) as err:
        playout(game, 3, np.random.default_rng(0), 25, lambda s, mover, move: None, never_ends=never_ended)
    assert f"{spec}: at move 25 of the game with seed 3, the game did not end within 25 moves" in str(err.value)
    assert len(decisions(game, 30, 1, max_moves=20)) == 30  # the feature scales' games stop at max_moves
    with pytest.raises(GameError, match=r"at move 20 of the game with seed \d+, the game did not end within 20"):
        _one_game(game, None, 0.0, np.random.default_rng(1), 5, 20)  # the warm start's games must end


def test_a_hook_that_raises_is_named_with_the_game_seed_and_move():
    spec = f"{BROKEN}:Crashing"  # raises when a move is played from a heap of 5
    game = load_game(spec)
    with pytest.raises(GameError) as err:
        playout(game, 8, np.random.default_rng(2), 100, lambda s, mover, move: None,
                choose=lambda s, mover, legal, rng: 1)  # 9 -> 7 -> 5 -> raises at the third move
    assert str(err.value).startswith(f"{spec}: at move 2 of the game with seed 8, CrashingState._apply_action "
                                     f"raised KeyError")
    with pytest.raises(GameError, match=r"Crashing: at move \d+ of the game with seed \d+, CrashingState"):
        decisions(game, 50, 1)
