"""Seed 001's genome player: its evaluation kernel against the Python reference, the symmetry classes, the
depth rule, the Kalah feature-weight search, and ``weights(FILE)`` in the agent registry and the CLI."""
import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import load_game, make_agent
from evoplay.games.kalah import search as search_kalah
from evoplay.games.kalah import search_weights as search_kalah_weights
from evoplay.games.mnk import search as search_mnk
from evoplay.agents.weights import genome_agent, weights_document
from evoplay.games.mnk.genome import GenomeAgent
from evoplay.games.mnk.search import mnk_schema, mnk_search_params
from evoplay.arena import match
from evoplay.cli import main
from evoplay.errors import SpecError

CLASSES = ("11", "12", "13", "22", "23", "33")
SEED_NAMES = (
    [f"sq{c}x" for c in CLASSES] + [f"sq{c}o" for c in CLASSES]
    + ["h1x", "h2x", "h3x", "h1o", "h2o", "h3o", "d1x", "d2x", "d3x", "d1o", "d2o", "d3o"]
    + ["scale_sq", "scale_cons", "search_depth"]
)


def test_the_seed_genome_is_211_bits_in_the_seed_order():
    schema = mnk_schema(5, 5, 4)
    assert schema.length == 211
    assert schema.names == SEED_NAMES
    assert [f.bits for f in schema.fields] == [8] * 26 + [3]


def test_classes_on_5x5_are_figure_2():
    classes, names = search_mnk.position_classes(5, 5)
    figure2 = ["11 12 13 12 11", "12 22 23 22 12", "13 23 33 23 13", "12 22 23 22 12", "11 12 13 12 11"]
    assert [" ".join(names[c] for c in classes[r * 5:(r + 1) * 5]) for r in range(5)] == figure2


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12))
def test_classes_are_the_orbits_of_the_board_symmetries(m, n):
    classes, names = search_mnk.position_classes(m, n)
    grid = classes.reshape(n, m)
    assert (grid == grid[::-1]).all() and (grid == grid[:, ::-1]).all()
    if m == n:
        assert (grid == grid.T).all()
    assert sorted(set(classes.tolist())) == list(range(len(names)))
    # Orbits, not unions of them: a class's cells all have the same distances to the edges (up to the transpose).
    for c in range(len(names)):
        depths = {tuple(sorted((min(r, n - 1 - r), min(q, m - 1 - q)))) if m == n else (min(r, n - 1 - r),
                  min(q, m - 1 - q)) for r in range(n) for q in range(m) if grid[r, q] == c}
        assert len(depths) == 1


def _record(schema, rng):
    return schema.decode(schema.random(1, rng)[0])


@settings(max_examples=120, deadline=None)
@given(st.sampled_from([(5, 5, 4), (3, 3, 3), (6, 5, 4), (4, 7, 3), (7, 7, 5)]), st.integers(0, 2**32 - 1),
       st.sampled_from(["all", "live"]))
def test_seed001_evaluation_kernel_matches_reference(mnk, seed, streaks):
    m, n, k = mnk
    rng = np.random.default_rng(seed)
    record = _record(mnk_schema(m, n, k), rng)
    params = mnk_search_params(record, m, n, k, streaks)
    board = rng.choice(3, size=m * n, p=[0.4, 0.3, 0.3]).astype(np.int8)
    windows = np.zeros((0, k), np.int64)
    for root in (0, 1):
        fast = search_mnk.evaluate(board, root, search_mnk.EVAL_SEED001, params, windows)
        assert fast == search_mnk.reference_evaluate(board.tolist(), root, search_mnk.EVAL_SEED001, params, windows)
    assert search_mnk.evaluate(board, 0, search_mnk.EVAL_SEED001, params, windows) == -search_mnk.evaluate(
        board, 1, search_mnk.EVAL_SEED001, params, windows)


def _seed_record(**changes):
    record = {name: 0 for name in SEED_NAMES}
    record.update(changes)
    return record


def test_seed001_evaluation_by_hand():
    # X on a1 and b1, O on c3 (the centre). Weights chosen so every term is visible in the sum.
    record = _seed_record(sq11x=3, sq12x=5, sq33o=7, h1x=11, h2x=13, d1x=17, h1o=19, d1o=23,
                          scale_sq=2, scale_cons=10, search_depth=2)
    params = mnk_search_params(record, 5, 5, 4)
    board = np.zeros(25, np.int8)
    board[[0, 1]] = 1
    board[12] = 2
    # X: positional 2 * (3 + 5); runs: row a1-b1 (h2), columns a and b (2 x h1), four diagonal singletons (d1).
    x = 2 * (3 + 5) + 10 * (13 + 2 * 11 + 4 * 17)
    # O: positional 2 * 7; column and row singletons (2 x h1o), two diagonal singletons (2 x d1o).
    o = 2 * 7 + 10 * (2 * 19 + 2 * 23)
    windows = np.zeros((0, 4), np.int64)
    assert search_mnk.evaluate(board, 0, search_mnk.EVAL_SEED001, params, windows) == x - o
    assert search_mnk.evaluate(board, 1, search_mnk.EVAL_SEED001, params, windows) == o - x


def test_live_streaks_skip_runs_that_cannot_reach_k():
    record = _seed_record(h3x=100, scale_cons=1)
    board = np.zeros(25, np.int8)
    board[[0, 1, 2]] = 1  # a1 b1 c1
    windows = np.zeros((0, 4), np.int64)
    every = mnk_search_params(record, 5, 5, 4, "all")
    live = mnk_search_params(record, 5, 5, 4, "live")
    assert search_mnk.evaluate(board, 0, search_mnk.EVAL_SEED001, live, windows) == 100
    board[3] = 2  # O on d1 blocks the row: a1-c1 can no longer become four
    assert search_mnk.evaluate(board, 0, search_mnk.EVAL_SEED001, every, windows) == 100
    assert search_mnk.evaluate(board, 0, search_mnk.EVAL_SEED001, live, windows) == 0


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 1000), max_size=14), st.integers(1, 3), st.booleans(), st.integers(0, 2**32 - 1),
       st.sampled_from(["all", "live"]))
def test_seed001_search_kernel_matches_reference(choices, depth, ties, seed, streaks):
    game = load_game("mnk")
    s = game.new_initial_state()
    for c in choices:
        legal = s.legal_actions()
        trial = s.clone()
        trial.apply_action(legal[c % len(legal)])
        if trial.is_terminal():
            break
        s = trial
    params = mnk_search_params(_record(mnk_schema(), np.random.default_rng(seed)), 5, 5, 4, streaks)
    windows = np.zeros((0, 4), np.int64)
    args = (s.current_player(), depth, 5, 5, 4, search_mnk.EVAL_SEED001, params, windows, ties)
    values, best, nodes = search_mnk.search(s.board(), *args)
    ref_values, ref_best, ref_nodes = search_mnk.reference_root_values(s.board().tolist(), *args)
    assert (best, nodes) == (ref_best, ref_nodes)
    assert values.tolist() == ref_values


def test_depth_is_the_smaller_of_genome_and_schedule():
    game = load_game("mnk")
    state = game.new_initial_state()
    deep = genome_agent(game, _seed_record(search_depth=7))
    shallow = genome_agent(game, _seed_record(search_depth=0))
    free = genome_agent(game, _seed_record(search_depth=6), schedule="none")
    for cells, expected in ((0, 2), (6, 3), (14, 4), (16, 5), (17, 7)):  # 25, 19, 11, 9, 8 empty cells
        s = state.clone()
        for a in range(cells):
            s.apply_action([1, 3, 5, 7, 9, 11, 13, 17, 15, 19, 21, 23, 2, 6, 0, 24, 4][a])
        assert s.empties() == 25 - cells and not s.is_terminal()
        assert deep.depth_for(s) == expected
        assert shallow.depth_for(s) == 1  # depth 0 plays as 1
        assert free.depth_for(s) == 6


def test_the_player_takes_a_win_and_blocks_a_loss():
    game = load_game("mnk")
    agent = genome_agent(game, _seed_record(search_depth=2))
    s = game.state_from_board([1, 1, 1, 0, 0, 2, 2, 2, 0, 0] + [0] * 15, player=0)
    assert agent.step(s) == 3  # d1 completes a1-d1
    s = game.state_from_board([1, 0, 0, 0, 0, 2, 2, 2, 0, 0] + [1, 0, 0, 0, 0] + [0] * 10, player=0)
    assert agent.step(s) == 8  # O has a2 b2 c2: d2 is the only block


def test_genome_player_beats_random():
    game = load_game("mnk")
    record = _seed_record(sq22x=40, sq23x=40, sq33x=60, sq22o=40, sq23o=40, sq33o=60, h2x=20, h3x=90, d2x=20,
                          d3x=90, h2o=20, h3o=90, d2o=20, d3o=90, scale_sq=1, scale_cons=5, search_depth=7)
    result = match(game, genome_agent(game, record, spec="genome"), make_agent("random", game), games=10, seed=3)
    stats = result.stats()[0]
    assert stats.wins >= 9 and stats.losses == 0


@pytest.fixture
def best_file(tmp_path):
    game = load_game("mnk")
    schema = mnk_schema()
    bits = schema.random(1, np.random.default_rng(4))[0]
    path = tmp_path / "best.json"
    path.write_text(json.dumps(weights_document(game, schema, bits, streaks="live")))
    return path


def test_weights_file_agent(best_file, tmp_path):
    game = load_game("mnk")
    agent = make_agent(f"weights({best_file})", game)
    assert isinstance(agent, GenomeAgent) and agent.streaks == "live"
    assert agent.record == json.loads(best_file.read_text())["params"]
    assert make_agent(f"weights({tmp_path})", game).record == agent.record  # the run folder works too
    with pytest.raises(SpecError, match="evolved for mnk, not mnk\\(m=6"):
        make_agent(f"weights({best_file})", load_game("mnk(m=6)"))
    with pytest.raises(SpecError, match="no file"):
        make_agent(f"weights({tmp_path / 'nope.json'})", game)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(SpecError, match="not an evoplay weights file"):
        make_agent(f"weights({bad})", game)


def test_weights_in_match_and_play(best_file):
    runner = CliRunner()
    r = runner.invoke(main, ["match", "mnk", f"weights({best_file})", "random", "--games", "4", "--json",
                             "--backend", "serial"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["games"] == 4 and doc["agents"][0]["name"].startswith("weights(")
    r = runner.invoke(main, ["play", "mnk", "--vs", f"weights({best_file})", "--seat", "second"], input="quit\n",
                      catch_exceptions=False)
    assert r.exit_code == 0 and "X" in r.output and "stopped" in r.output


# --------------------------------------------------------------------------------------------------------------
# Kalah feature weights.
# --------------------------------------------------------------------------------------------------------------


def _kalah_position(choices):
    game = load_game("kalah")
    s = game.new_initial_state()
    for c in choices:
        legal = s.legal_actions()
        trial = s.clone()
        trial.apply_action(legal[c % len(legal)])
        if trial.is_terminal():
            break
        s = trial
    return s


def test_kalah_features_by_hand():
    # Player 0's pits 0..5, store 6; player 1's pits 7..12, store 13.
    board = [0, 3, 0, 1, 0, 1, 10, 4, 4, 4, 4, 4, 0, 8]
    # store 10; seeds 5; empty pits 0, 2, 4; pit 5 (1 seed) ends in the store; pit 1 (3 seeds) ends on pit 4,
    # which is empty and faces pit 7 (4 seeds): a capture. Pit 3 (1 seed) ends on the empty pit 4 too.
    assert search_kalah_weights.reference_features(board, 0, 6) == [10, 5, 3, 1, 2]
    weights = search_kalah_weights.feature_weights({"store": 2, "capture": 3, "search_depth": 5})
    assert weights.tolist() == [2, 0, 0, 0, 3]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 100), max_size=40), st.integers(1, 4), st.booleans(),
       st.lists(st.integers(-32, 31), min_size=5, max_size=5))
def test_kalah_weights_kernel_matches_reference(choices, depth, ties, weights):
    s = _kalah_position(choices)
    if s.is_terminal():
        return
    board, player = s.board(), s.current_player()
    w = np.array(weights, np.int64)
    assert search_kalah_weights.evaluate(board, player, 6, w) == search_kalah_weights.reference_evaluate(
        board.tolist(), player, 6, w.tolist())
    values, best, nodes = search_kalah.search(board, player, depth, 6, True, ties, w)
    ref = search_kalah.reference_root_values(board.tolist(), player, depth, 6, True, ties, w)
    assert (values.tolist(), best, nodes) == (ref[0], ref[1], ref[2])


def test_kalah_weights_agent_plays_with_its_genome_depth():
    game = load_game("kalah")
    agent = genome_agent(game, {"store": 10, "seeds": 1, "search_depth": 6})
    assert agent.depth_for(game.new_initial_state()) == 6
    result = match(game, agent, make_agent("random", game), games=6, seed=1)
    assert result.stats()[0].wins >= 5
