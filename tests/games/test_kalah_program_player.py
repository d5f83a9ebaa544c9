"""Kalah's program player (gp(FILE) on Kalah): the pit rule (kernel against reference), program files, and the exported player's agreement."""
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import gp
from evoplay.agents import make_agent
from evoplay.agents.program_file import load_program
from evoplay.games.kalah.program_player import (
    MOVE_SCORES, SEARCH, reference_search, mover_view, program_choice, program_document, program_pit, reference_move, reference_pit,
)
from evoplay.arena import play_game
from evoplay.errors import SpecError
from evoplay.games import load_game

PSET = gp.seed003_primitive_set()


def test_pit_rule_wraps_and_skips_empty_pits_counter_clockwise():
    board = [4, 0, 0, 3, 0, 0, 5, 1, 1, 1, 1, 1, 1, 9]
    for text, pit in [("3", 3), ("(0) - (1)", 0), ("1", 3), ("(13) - (4)", 3), ("4", 0), ("12", 0), ("6", 0)]:
        assert reference_pit(gp.parse_notation(text, PSET), board, 0, 6) == pit, text
    # seen from player 1 the board turns: its pits are 7..12 and 'value at [(6)]' reads its own store (9).
    assert mover_view(board, 1, 6)[:7] == [1, 1, 1, 1, 1, 1, 9]
    assert reference_pit(gp.parse_notation("value at [(6)]", PSET), board, 1, 6) == 3


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), player=st.integers(0, 1))
def test_pit_kernel_matches_reference(seed, player):
    rng = np.random.default_rng(seed)
    program = gp.grow(PSET, rng, 5, function_probability=0.5)
    board = rng.integers(0, 6, 14).astype(np.int8)
    board[(0 if player == 0 else 7) + int(rng.integers(6))] += 1  # the mover has a move
    row, stack = np.empty(14), np.empty(program.size)
    got = program_pit(program.opcodes, program.args, program.consts, 0, program.size, board, player, 6, row, stack)
    assert got == reference_pit(program, board.tolist(), player, 6)


MOVE_PSET = gp.PrimitiveSet("move", n_features=16).add_functions("add", "sub", "if_lt", "value_at", "max")
MOVE_PSET.add_integers(0, 15)


def _kernel_choice(policy, seed, player, empty_capture, depth, most_seeds):
    """(the kernel's pit, the program, the board) for a random program of MOVE_PSET on a random board."""
    rng = np.random.default_rng(seed)
    program = gp.grow(MOVE_PSET, rng, 5, function_probability=0.5)
    board = rng.integers(0, most_seeds, 14).astype(np.int8)
    board[(0 if player == 0 else 7) + int(rng.integers(6))] += 1  # the mover has a move
    row, stack, work = np.empty(16), np.empty(program.size), np.empty(14, np.int8)
    got = program_choice(policy, program.opcodes, program.args, program.consts, 0, program.size, board, player,
                         6, empty_capture, row, stack, work, depth, np.empty((depth + 1, 14), np.int8))
    return got, program, board.tolist()


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), player=st.integers(0, 1), empty_capture=st.booleans())
def test_move_scores_kernel_matches_reference(seed, player, empty_capture):
    got, program, board = _kernel_choice(MOVE_SCORES, seed, player, empty_capture, 1, 6)
    assert got == reference_move(program, board, player, 6, empty_capture)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), player=st.integers(0, 1), empty_capture=st.booleans(),
       depth=st.integers(1, 3))
def test_search_kernel_matches_reference(seed, player, empty_capture, depth):
    got, program, board = _kernel_choice(SEARCH, seed, player, empty_capture, depth, 5)
    assert got == reference_search(program, board, player, 6, empty_capture, depth)


def test_search_with_the_store_difference_plays_like_alphabeta():
    from evoplay.agents import make_agent

    # value at [(6)] - value at [(13)] is alpha-beta's own evaluation: the same search must pick the same pit
    program = gp.parse_notation("(value at [(6)]) - (value at [(13)])", MOVE_PSET)
    game = load_game("kalah")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    ab = make_agent("alphabeta(depth=3)", game)
    for _ in range(30):
        if state.is_terminal():
            break
        p = state.current_player()
        assert reference_search(program, state.board().tolist(), p, 6, True, 3) == ab.step(state)
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_move_scores_reads_the_position_after_each_move():
    board = [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]
    # own store after the move: pit 2 (third from the left) ends in the store and earns another turn
    assert reference_move(gp.parse_notation("value at [(6)]", MOVE_PSET), board, 0, 6, True) == 2
    assert reference_move(gp.parse_notation("value at [(14)]", MOVE_PSET), board, 0, 6, True) == 2
    assert reference_move(gp.parse_notation("value at [(15)]", MOVE_PSET), board, 0, 6, True) == 5


def write_program(tmp_path, text, game="kalah"):
    doc = program_document(gp.parse_notation(text, PSET), PSET, game)
    path = tmp_path / "best.json"
    path.write_text(json.dumps(doc))
    return path


def test_gp_agent_from_file_plays_full_games(tmp_path):
    path = write_program(tmp_path, "((9) - (8)) + (value at [(3)])")
    game = load_game("kalah")
    agent = make_agent(f"gp({path})", game)
    assert agent.spec == f"gp(file={path})" or str(path) in agent.spec
    for seat in (0, 1):
        agents = [agent, make_agent("random", game)] if seat == 0 else [make_agent("random", game), agent]
        state = play_game(game, agents, seed=seat)
        assert state.is_terminal()
    # the folder works too, and the program reads back unchanged
    program, pset, doc = load_program(tmp_path)
    assert gp.to_notation(program) == "((9) - (8)) + (value at [(3)])" and doc["policy"] == "kalah_pit"


def test_gp_agent_errors_say_what_is_wrong(tmp_path):
    with pytest.raises(SpecError, match="does not exist"):
        make_agent(f"gp({tmp_path / 'nope.json'})", "kalah")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(SpecError, match="not an evoplay program file"):
        make_agent(f"gp({bad})", "kalah")
    path = write_program(tmp_path, "3")
    with pytest.raises(SpecError, match="evolved for kalah"):
        make_agent(f"gp({path})", "kalah(pits=4,seeds=3)")
    with pytest.raises(SpecError, match="kalah"):
        make_agent(f"gp({path})", "mnk")


def _choice(policy, program, board, player=0):
    if policy == "kalah_pit":
        return reference_pit(program, board, player, 6)
    if policy == "kalah_move":
        return reference_move(program, board, player, 6, True)
    return reference_search(program, board, player, 6, True, 2)


@pytest.mark.parametrize("policy", ["kalah_pit", "kalah_move", "kalah_search"])
def test_exported_python_player_chooses_the_agents_pits(policy):
    from evoplay.games.kalah.export import python_player

    rng = np.random.default_rng(11)
    game = load_game("kalah")
    pset = PSET if policy == "kalah_pit" else MOVE_PSET
    for _ in range(5):
        program = gp.grow(pset, rng, 6, function_probability=0.5)
        ns: dict = {}
        exec(python_player(program, pset, 6, policy, True, 2), ns)
        state = game.new_initial_state()
        opponent = make_agent("random", game)
        opponent.restart(3, 1)
        while not state.is_terminal():
            p = state.current_player()
            if p == 0:
                pit = _choice(policy, program, state.board().tolist())
                assert ns["choose_pit"](state.board_from_mover().tolist()) == pit
            else:
                pit = opponent.step(state)
            state.apply_action(pit)


@pytest.mark.parametrize("policy", ["kalah_pit", "kalah_move", "kalah_search"])
def test_exported_lua_player_chooses_the_agents_pits(policy):
    lupa = pytest.importorskip("lupa")
    from evoplay.games.kalah.export import lua_player

    rng = np.random.default_rng(12)
    pset = PSET if policy == "kalah_pit" else MOVE_PSET
    for _ in range(5):
        program = gp.grow(pset, rng, 6, function_probability=0.5)
        lua = lupa.LuaRuntime()
        module = lua.execute(lua_player(program, pset, 6, policy, True, 2))
        for _ in range(10):
            board = rng.integers(0, 6, 14)
            board[int(rng.integers(6))] += 1
            want = _choice(policy, program, board.tolist())
            assert module.choose_pit(lua.table_from(board.tolist())) == want + 1
