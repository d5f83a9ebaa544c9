"""Alpha-beta: the Numba search against the Python reference (values, best move, node counts), tie-breaking,
the seed-001 depth schedule, and strength sanity checks."""
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evoplay import load_game, make_agent
from evoplay.games.kalah import search as search_kalah
from evoplay.games.mnk import search as search_mnk
from evoplay.agents.human import HumanAgent, HumanQuit
from evoplay.errors import SpecError


def _random_kalah_position(rng_choices, empty_capture=True):
    game = load_game("kalah" if empty_capture else "kalah(empty_capture=false)")
    s = game.new_initial_state()
    for c in rng_choices:
        if s.is_terminal():
            break
        legal = s.legal_actions()
        trial = s.clone()
        trial.apply_action(legal[c % len(legal)])
        if trial.is_terminal():
            break
        s = trial
    return s


@given(choices=st.lists(st.integers(0, 100), max_size=40), depth=st.integers(1, 5), ties=st.booleans(),
       empty_capture=st.booleans())
def test_kalah_kernel_matches_reference(choices, depth, ties, empty_capture):
    s = _random_kalah_position(choices, empty_capture)
    if s.is_terminal():
        return
    board, player = s.board(), s.current_player()
    values, best, nodes = search_kalah.search(board, player, depth, 6, empty_capture, ties)
    ref_values, ref_best, ref_nodes = search_kalah.reference_root_values(
        board.tolist(), player, depth, 6, empty_capture, ties)
    assert best == ref_best and nodes == ref_nodes
    assert values.tolist() == ref_values


def _random_mnk_position(game, choices):
    s = game.new_initial_state()
    for c in choices:
        legal = s.legal_actions()
        trial = s.clone()
        trial.apply_action(legal[c % len(legal)])
        if trial.is_terminal():
            break
        s = trial
    return s


@given(choices=st.lists(st.integers(0, 1000), max_size=20), depth=st.integers(1, 3), ties=st.booleans())
def test_mnk_kernel_matches_reference(choices, depth, ties):
    game = load_game("mnk")
    s = _random_mnk_position(game, choices)
    windows = search_mnk.line_windows(5, 5, 4)
    params = search_mnk.default_line_weights(4)
    args = (s.current_player(), depth, 5, 5, 4, search_mnk.EVAL_LINES, params, windows)
    values, best, nodes = search_mnk.search(s.board(), *args, exact_ties=ties)
    ref_values, ref_best, ref_nodes = search_mnk.reference_root_values(s.board().tolist(), *args, ties)
    assert (best, nodes) == (ref_best, ref_nodes)
    assert values.tolist() == ref_values


def test_exact_ties_give_exact_values_for_every_tied_move():
    s = load_game("kalah").new_initial_state()
    full, _, _ = search_kalah.search(s.board(), 0, 4, 6, True, True)
    # Compare against a search of each child with a full window.
    for pit in s.legal_actions():
        child = s.clone()
        child.apply_action(pit)
        if child.is_terminal():
            continue
        # The child's exact value: its mover's best (the tie searched exactly), the store difference seen from 0.
        values, best, _ = search_kalah.reference_root_values(child.board().tolist(), child.current_player(), 3, 6,
                                                             True, True)
        v = values[best] if child.current_player() == 0 else -values[best]
        if full[pit] >= full.max():
            assert full[pit] == v  # a tied best move carries its exact value
        else:
            assert v < full.max()  # a worse move is worse in truth too
            assert full[pit] >= v  # and its root value is an upper bound (a fail-low keeps alpha)


def test_deterministic_ties_take_the_lowest_action_and_random_ties_are_seeded():
    game = load_game("mnk(m=3,n=3,k=3)")
    s = game.new_initial_state()
    det = make_agent("alphabeta(depth=2)", game)
    s.apply_action(4)  # X in the centre: O's four corners are symmetric, so they tie
    values, _ = det.root_values(s)
    tied = [a for a in s.legal_actions() if values[a] == values[s.legal_actions()].max()]
    assert tied == [0, 2, 6, 8]
    assert det.step(s) == 0  # the lowest of the tied actions, every time
    rnd = make_agent("alphabeta(depth=2,random_ties=true)", game)
    picks = set()
    for seed in range(30):
        rnd.restart(seed)
        picks.add(rnd.step(s))
    assert picks == {0, 2, 6, 8}
    rnd.restart(5)
    a = rnd.step(s)
    rnd.restart(5)
    assert rnd.step(s) == a


def test_alphabeta_takes_a_win_and_blocks_a_loss():
    game = load_game("mnk(m=3,n=3,k=3)")
    agent = make_agent("alphabeta(depth=3)", game)
    win = game.state_from_board([1, 1, 0, 2, 2, 0, 0, 0, 0], 0)
    assert agent.step(win) == 2
    block = game.state_from_board([1, 0, 0, 2, 2, 0, 1, 0, 0], 0)
    assert agent.step(block) == 5


def test_depth_8_beats_random_at_kalah():
    from evoplay.arena import match

    game = load_game("kalah")
    res = match(game, make_agent("alphabeta(depth=6)", game), make_agent("random", game), games=10, seed=3)
    assert res.stats()[0].wins == 10


def test_the_empty_cells_schedule_and_its_old_name():
    assert [search_mnk.schedule_depth(e) for e in (25, 20, 19, 13, 12, 10, 9, 8, 1)] == [2, 2, 3, 3, 4, 4, 5, 7, 7]
    game = load_game("mnk")
    agent = make_agent("alphabeta(schedule=empty_cells)", game)
    old = make_agent("alphabeta(schedule=seed001)", game)  # the old name means the same schedule
    assert old.spec == agent.spec == "alphabeta(schedule=empty_cells)"
    assert agent.depth_for(game.new_initial_state()) == 2
    capped = make_agent("alphabeta(schedule=empty_cells,depth=3)", game)
    s = game.state_from_board([1, 2] * 8 + [0] * 9, 0)
    assert agent.depth_for(s) == 5 and capped.depth_for(s) == 3


def test_alphabeta_errors():
    with pytest.raises(SpecError, match="schedule"):
        make_agent("alphabeta(schedule=seed001)", "kalah")
    with pytest.raises(SpecError, match="one of none, empty_cells"):
        make_agent("alphabeta(schedule=fast)", "mnk")
    with pytest.raises(SpecError, match="out of range"):
        make_agent("alphabeta(depth=99)", "kalah")


def test_human_agent_reprompts_until_a_legal_move():
    game = load_game("kalah")
    state = game.new_initial_state()
    out = io.StringIO()
    human = HumanAgent(game, io.StringIO("x\n9\n\n3\n"), out)
    assert human.step(state) == 2
    text = out.getvalue()
    assert "'x' is not a pit" in text and "'9' is not a pit" in text


def test_human_agent_quit_and_closed_input():
    game = load_game("mnk")
    with pytest.raises(HumanQuit):
        HumanAgent(game, io.StringIO("quit\n"), io.StringIO()).step(game.new_initial_state())
    with pytest.raises(HumanQuit):
        HumanAgent(game, io.StringIO(""), io.StringIO()).step(game.new_initial_state())


def test_unknown_agents_and_parameters():
    with pytest.raises(SpecError, match="did you mean 'alphabeta'"):
        make_agent("alphabet", "kalah")
    with pytest.raises(SpecError, match="no parameter 'dept'"):
        make_agent("alphabeta(dept=3)", "kalah")
