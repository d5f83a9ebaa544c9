"""Gems: the Numba kernels against the Python reference, scoring, blocking, seeded spawns, rendering."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import load_game
from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import SIMULTANEOUS, TERMINAL
from evoplay.games.forward import BODY, DRAW, RNG, SCORE, TICK, WINNER
from evoplay.games.gems.game import DOWN, GEM, LEFT, NIL, RIGHT, UP, WALL, reference_step


def _play_both(spec, seed, joint_actions):
    game = load_game(spec)
    state = game.new_initial_state(seed)
    ref = [int(x) for x in state.buf]
    for a0, a1 in joint_actions:
        if state.is_terminal():
            break
        reference_step(game.params_array, ref, a0, a1)
        state.apply_actions([a0, a1])
        assert ref == [int(x) for x in state.buf]
        _check_invariants(state)
    return state


def _check_invariants(state):
    g = state.game
    cells = g.width * g.height
    board = state.buf[BODY : BODY + cells]
    p0, p1 = state.positions()
    assert p0 != p1, "two players never share a cell"
    assert board[p0] != WALL and board[p1] != WALL
    assert board[p0] != GEM and board[p1] != GEM, "a gem under a player is collected"
    free = int((board == 0).sum()) - 2
    assert int((board == GEM).sum()) == min(g.gems, int((board == GEM).sum()) + free)


@settings(max_examples=120, deadline=None)
@given(
    w=st.integers(3, 11),
    h=st.integers(3, 9),
    ticks=st.integers(1, 80),
    gems=st.integers(1, 6),
    pillars=st.integers(0, 100),
    seed=st.integers(0, 2**31),
    joint=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=100),
)
def test_kernel_matches_reference_on_random_games(w, h, ticks, gems, pillars, seed, joint):
    gems = min(gems, w * h // 2)
    state = _play_both(f"gems(w={w},h={h},ticks={ticks},gems={gems},pillars={pillars})", seed, joint)
    assert sum(state.scores()) <= int(state.buf[TICK]) * 2


def test_thousands_of_seeded_random_games_agree_and_end_on_time():
    rng = np.random.default_rng(1)
    for g in range(300):
        ticks = int(rng.integers(5, 60))
        state = _play_both(f"gems(w=7,h=6,ticks={ticks})", g, rng.integers(0, 5, size=(ticks, 2)).tolist())
        assert state.is_terminal() and int(state.buf[TICK]) == ticks
        s0, s1 = state.scores()
        assert state.returns() == ([1.0, -1.0] if s0 > s1 else [-1.0, 1.0] if s1 > s0 else [0.0, 0.0])


def test_seeded_start_is_reproducible_symmetric_and_differs_by_seed():
    game = load_game("gems(w=9,h=9,pillars=60)")
    a, b, c = game.new_initial_state(4), game.new_initial_state(4), game.new_initial_state(5)
    assert (a.buf == b.buf).all()
    cells = game.width * game.height
    walls = a.buf[BODY : BODY + cells] == WALL
    assert (walls == walls[::-1]).all()
    assert int((a.buf[BODY : BODY + cells] == GEM).sum()) == game.gems
    assert (a.buf[BODY : BODY + cells] != c.buf[BODY : BODY + cells]).any() or a.buf[RNG] != c.buf[RNG]
    p0, p1 = a.positions()
    assert p0 == cells - 1 - p1 and a.current_player() == SIMULTANEOUS


def test_stepping_on_a_gem_scores_and_a_new_one_appears():
    game = load_game("gems(w=5,h=5,gems=1,pillars=0)")
    s = game.new_initial_state(0)
    cells = game.width * game.height
    board = s.buf[BODY : BODY + cells]
    gem = int(np.flatnonzero(board == GEM)[0])
    p0, _ = s.positions()
    # Walk A to the gem: first along the row, then the column.
    while s.positions()[0] != gem:
        p0 = s.positions()[0]
        r, c = divmod(p0, game.width)
        gr, gc = divmod(gem, game.width)
        a = RIGHT if gc > c else LEFT if gc < c else DOWN if gr > r else UP
        s.apply_actions([a, NIL])
        if s.positions()[0] == p0:  # blocked by B: wait a tick
            s.apply_actions([NIL, UP])
    assert s.scores()[0] == 1.0
    assert int((s.buf[BODY : BODY + cells] == GEM).sum()) == 1


def test_moves_into_walls_and_into_each_other_are_blocked():
    game = load_game("gems(w=3,h=3,gems=1,pillars=0)")
    s = game.new_initial_state(0)
    p0, p1 = s.positions()
    s.apply_actions([UP, DOWN])  # both into the border
    assert s.positions() == (p0, p1)
    # Put the players side by side and let them swap: blocked.
    s.buf[BODY + game.width * game.height] = game.width + 1
    s.buf[BODY + game.width * game.height + 1] = game.width + 2
    s.apply_actions([RIGHT, LEFT])
    assert s.positions() == (game.width + 1, game.width + 2)
    # Both onto the same cell: blocked.
    s.apply_actions([DOWN, NIL])
    s.apply_actions([RIGHT, DOWN])
    q0, q1 = s.positions()
    assert q0 != q1


def test_render_parse_and_errors():
    game = load_game("gems(w=5,h=4,ticks=3)")
    s = game.new_initial_state(1)
    assert "tick 0/3" in str(s) and "*" in str(s)
    assert s.string_to_action("a") == LEFT and s.string_to_action("stay") == NIL
    with pytest.raises(IllegalActionError, match="not a gems action"):
        s.string_to_action("north")
    with pytest.raises(IllegalActionError, match="apply_actions"):
        s.apply_action(1)
    for _ in range(3):
        s.apply_actions([NIL, NIL])
    assert s.current_player() == TERMINAL and "game over" in str(s)
    assert int(s.buf[WINNER]) == DRAW and s.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply_actions([NIL, NIL])
    with pytest.raises(SpecError, match="ticks"):
        load_game("gems(ticks=0)")
    with pytest.raises(SpecError, match="pillar"):
        load_game("gems(pillars=101)")
    assert int(s.buf[SCORE]) == 0
