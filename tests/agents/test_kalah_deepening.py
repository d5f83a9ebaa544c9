"""Iterative deepening for Kalah under a node budget: kernel equal to the reference, budgets, proofs, agents."""
import numpy as np
import pytest

from evoplay.games.kalah import deepening as kd
from evoplay.games.kalah import search as search_kalah
from evoplay.agents import make_agent
from evoplay.games.kalah.search_weights import evaluate, reference_evaluate
from evoplay.agents.weights import genome_agent
from evoplay.errors import SpecError
from evoplay.games import load_game


def _positions(spec: str, count: int, seed: int):
    game = load_game(spec)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state(0)
        for _ in range(int(rng.integers(0, 45))):
            if state.current_player() < 0:
                break
            legal = state.legal_actions()
            state.apply_action(int(legal[int(rng.integers(len(legal)))]))
        if state.current_player() >= 0:
            out.append(state)
    return game, out


@pytest.mark.parametrize("spec", ["kalah(empty_capture=false)", "kalah", "kalah(pits=4,seeds=3)"])
def test_kernel_equals_reference_pit_depth_and_nodes(spec):
    game, states = _positions(spec, 25, 3)
    rng = np.random.default_rng(4)
    for state in states:
        weights = rng.integers(-8, 9, size=5)
        for budget in (1, 400, 6000):
            got = kd.search(state._board, state.current_player(), game.pits, game.empty_capture, weights, budget)
            want = kd.reference_search(state._board, state.current_player(), game.pits, game.empty_capture, weights,
                                       budget)
            assert got == want


def test_evaluate_kernel_equals_reference():
    game, states = _positions("kalah(empty_capture=false)", 60, 5)
    rng = np.random.default_rng(6)
    for state in states:
        weights = rng.integers(-20, 21, size=5).astype(np.int64)
        board = np.ascontiguousarray(state._board)
        for root in (0, 1):
            assert evaluate(board, root, game.pits, weights) == reference_evaluate(list(board), root, game.pits,
                                                                                   weights)


def test_order_puts_extra_moves_first_from_the_store_end():
    # pits 0..5 of the first player: pit 5 with 1 seed and pit 3 with 3 end in the store.
    board = [2, 0, 5, 3, 7, 1, 0] + [4] * 6 + [0]
    assert kd.reference_order(board, 0, 6) == [5, 3, 4, 2, 0]
    assert kd.reference_order(board, 0, 6, first=2) == [2, 5, 3, 4, 0]
    params = np.array([6, 0, 4], np.int64)
    for first, want in ((-1, [5, 3, 4, 2, 0]), (2, [2, 5, 3, 4, 0])):
        out = np.array([0, 2, 3, 4, 5], np.int64)  # the legal pits, as the search lists them
        search_kalah.k_order(params, np.array(board + [0], np.int8), out, 5, first)
        assert list(out) == want


def test_a_bigger_budget_searches_deeper_and_spends_within_reach_of_it():
    game, states = _positions("kalah(empty_capture=false)", 10, 7)
    weights = np.array([4, 1, 0, 1, 1])
    for state in states:
        small = kd.search(state._board, state.current_player(), 6, False, weights, 2000)
        big = kd.search(state._board, state.current_player(), 6, False, weights, 60000)
        assert big[1] >= small[1]
        # The rule only starts an iteration predicted to fit: a search spends at most a few budgets.
        assert big[2] <= 4 * 60000 or big[1] <= 2


def test_a_proven_win_stops_the_deepening_and_is_played():
    # The first player moves pit 5 (1 seed) into the store and then pit 4 (2 seeds): the last seed lands in
    # the store, the side is empty, and the game ends 30-18 with every other move losing or worse.
    board = [0, 0, 0, 0, 2, 1, 27] + [3, 3, 3, 3, 3, 3, 0]
    pit, depth, _ = kd.search(np.array(board, np.int8), 0, 6, False, np.array([1, 0, 0, 0, 0]), 10**9)
    ref = kd.reference_search(board, 0, 6, False, [1, 0, 0, 0, 0], 10**9)
    assert (pit, depth) == ref[:2]
    assert depth < kd.MAX_DEPTH  # stopped by the proof, not the depth cap
    assert pit in (4, 5)


def test_weights_agent_with_a_node_budget_plays_the_deepening_move():
    game, states = _positions("kalah(empty_capture=false)", 8, 9)
    record = {"store": 4, "seeds": 1, "empty": 0, "extra": 1, "capture": 1}
    agent = genome_agent(game, record, nodes=5000)
    for state in states:
        want = kd.search(state._board, state.current_player(), 6, False, [4, 1, 0, 1, 1], 5000)[0]
        assert agent.step(state) == want


def test_a_node_budget_on_mnk_is_refused():
    game = load_game("mnk(m=3,n=3,k=3)")
    from evoplay.games.mnk.search import mnk_schema

    record = mnk_schema(3, 3, 3).decode(np.zeros(len(mnk_schema(3, 3, 3)), np.uint8))
    with pytest.raises(SpecError, match="node budget"):
        genome_agent(game, record, nodes=100)


def test_champion_plays_kalah_and_refuses_other_games():
    game = load_game("kalah(empty_capture=false)")
    agent = make_agent("champion", game)
    state = game.new_initial_state(0)
    assert agent.step(state) in state.legal_actions()
    with pytest.raises(SpecError, match="champion"):
        make_agent("champion", "tron")


def test_champion_says_when_the_rules_differ_from_its_evolution(capsys):
    same = make_agent("champion", load_game("kalah(empty_capture=false)"))
    assert same.note == "" and "warning" not in capsys.readouterr().err
    other = make_agent("champion", load_game("kalah"))  # the seed's capture rule
    assert "rules differ" in other.note and "rules differ" in capsys.readouterr().err
    state = other.game.new_initial_state(0)
    assert other.step(state) in state.legal_actions()


@pytest.mark.parametrize("board, player, depth", [
    ([0, 0, 0, 3, 1, 0, 20] + [0, 0, 0, 1, 2, 0, 21], 1, 10),  # 7 seeds left, drawn with best play
    ([1, 0, 0, 0, 0, 2, 20] + [1, 0, 2, 0, 2, 1, 19], 0, 6),
    # a game whose deeper iterations took values from the table: stopped only by MAX_DEPTH, 64 plies, before the
    # entries of a subtree searched to its end were stored FINAL (holding at any depth, taking one not a hit)
    ([1, 1, 0, 0, 0, 1, 21] + [0, 2, 1, 0, 0, 0, 21], 0, 15),
])
def test_an_endgame_searched_to_its_end_stops_deepening(board, player, depth):
    # An iteration that valued no position on its horizon and took no value from the table has searched the whole
    # game below the root: the deepening stops there, neither proven nor out of budget (it went on to MAX_DEPTH).
    weights = [4, 1, 0, 1, 1]
    got = kd.search(np.array(board, np.int8), player, 6, False, np.array(weights), 10**6)
    assert got == kd.reference_search(board, player, 6, False, weights, 10**6)
    assert got[1] == depth < kd.MAX_DEPTH and got[2] < 1000
    shallower = kd.search(np.array(board, np.int8), player, 6, False, np.array(weights), 10**6, depth - 1)
    assert shallower[1] == depth - 1  # no iteration before it stopped the deepening
    assert kd.reference_search(board, player, 6, False, weights, 10**6, depth - 1)[1] == depth - 1
