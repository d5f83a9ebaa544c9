"""Tron: the Numba kernel against the Python reference, the crash rules, symmetry, rendering and parsing."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import load_game
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import SIMULTANEOUS
from evoplay.games.forward import BODY, DRAW, PHASE, SCORE, WINNER
from evoplay.games.tron.game import DOWN, LEFT, NIL, RIGHT, UP, reference_step


def _play_both(spec, seed, joint_actions):
    """Play one game through the kernel (via the state) and the reference side by side; return the state."""
    game = load_game(spec)
    state = game.new_initial_state(seed)
    ref = [int(x) for x in state.buf]
    for a0, a1 in joint_actions:
        if state.is_terminal():
            break
        reference_step(game.params_array, ref, a0, a1)
        state.apply_actions([a0, a1])
        assert ref == [int(x) for x in state.buf]
    return state


@settings(max_examples=150, deadline=None)
@given(
    w=st.integers(4, 12),
    h=st.integers(3, 10),
    obstacles=st.integers(0, 8),
    seed=st.integers(0, 2**31),
    joint=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=150),
)
def test_kernel_matches_reference_on_random_games(w, h, obstacles, seed, joint):
    state = _play_both(f"tron(w={w},h={h},obstacles={min(obstacles, w * h // 4)})", seed, joint)
    cells = state.game.width * state.game.height
    board = state.buf[BODY : BODY + cells]
    # Scores are trail lengths: the trail cells of each player.
    assert state.scores() == [float((board == 2).sum()), float((board == 3).sum())]


def test_thousands_of_seeded_random_games_agree_and_end():
    rng = np.random.default_rng(0)
    for g in range(600):
        w, h = int(rng.integers(4, 14)), int(rng.integers(3, 12))
        spec = f"tron(w={w},h={h},obstacles={min(int(rng.integers(0, 5)), w * h // 4)})"
        state = _play_both(spec, g, rng.integers(0, 5, size=(400, 2)).tolist())
        assert state.is_terminal(), "every tron game ends: each tick fills a cell"


def test_head_on_collision_is_a_draw():
    game = load_game("tron(w=5,h=3)")
    s = game.new_initial_state()
    # Row 2 (the middle interior row) holds both cycles, facing each other on a 5-wide row: A at column 1+1=2.
    while not s.is_terminal():
        s.apply_actions([NIL, NIL])
    assert int(s.buf[WINNER]) == DRAW and s.returns() == [0.0, 0.0]


def test_crashing_into_a_wall_loses_and_the_other_wins():
    game = load_game("tron(w=12,h=12)")  # A starts on row 6, heading right; B on row 7, heading left
    s = game.new_initial_state()
    s.apply_actions([UP, NIL])
    for _ in range(4):
        s.apply_actions([NIL, NIL])
    assert not s.is_terminal()  # A is on row 1, under the top wall
    s.apply_actions([NIL, NIL])
    assert s.is_terminal() and s.winner() == 1 and s.returns() == [-1.0, 1.0]
    assert s.scores() == [6.0, 7.0]  # A's crash leaves no new cell


def test_reverse_keeps_going_straight():
    game = load_game("tron(w=10,h=10)")
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_actions([LEFT, RIGHT])  # the reverse of both headings
    b.apply_actions([NIL, NIL])
    assert (a.buf == b.buf).all()


def test_one_crash_loses():
    game = load_game("tron(w=10,h=10)")
    s = game.new_initial_state()
    s.apply_actions([UP, NIL])
    s.apply_actions([DOWN, NIL])  # reverse: straight on, fine
    s.apply_actions([RIGHT, NIL])
    s.apply_actions([DOWN, NIL])  # into its own trail? no: down from the new cell is fresh
    assert not s.is_terminal()
    s.apply_actions([LEFT, NIL])  # left runs into its own trail
    assert s.is_terminal() and s.returns() == [-1.0, 1.0] and s.winner() == 1


def test_start_is_point_symmetric_and_obstacles_do_not_favour_a_seat():
    game = load_game("tron(w=11,h=9,obstacles=10)")
    s = game.new_initial_state(5)
    cells = game.width * game.height
    board = s.buf[BODY : BODY + cells]
    walls = board == 1
    assert (walls == walls[::-1]).all()
    h0, h1 = s.heads()
    assert h0 == cells - 1 - h1
    assert s.current_player() == SIMULTANEOUS and s.scores() == [1.0, 1.0]
    assert (s.buf == game.new_initial_state(5).buf).all()


def test_mirrored_play_mirrors_the_outcome():
    """Seat symmetry: swapping the players' (mirrored) actions swaps the result."""
    mirror = {UP: DOWN, DOWN: UP, LEFT: RIGHT, RIGHT: LEFT, NIL: NIL}
    rng = np.random.default_rng(3)
    game = load_game("tron(w=9,h=9)")
    for _ in range(50):
        s = game.new_initial_state()
        while not s.is_terminal():
            a = int(rng.integers(5))
            s.apply_actions([a, mirror[a]])
        assert s.returns() == [0.0, 0.0] and s.scores()[0] == s.scores()[1]


def test_render_parse_and_errors():
    game = load_game("tron(w=6,h=4)")
    s = game.new_initial_state()
    text = str(s)
    assert "A" in text and "B" in text and text.splitlines()[0] == "#" * 8
    assert s.string_to_action("w") == UP and s.string_to_action("Right") == RIGHT
    assert s.action_to_string(LEFT) == "left"
    with pytest.raises(IllegalActionError, match="not a tron action"):
        s.string_to_action("jump")
    with pytest.raises(IllegalActionError, match="apply_actions"):
        s.apply_action(0)
    with pytest.raises(IllegalActionError, match="one action per player"):
        s.apply_actions([0, 7])
    with pytest.raises(SpecError, match="out of range"):
        load_game("tron(w=2)")
    assert s.legal_actions(0) == [0, 1, 2, 3, 4] and s.legal_actions() == [0, 1, 2, 3, 4]
    c = s.clone()
    c.apply_actions([UP, UP])
    assert int(s.buf[SCORE]) == 1 and int(c.buf[SCORE]) == 2 and int(s.buf[PHASE]) == SIMULTANEOUS
