"""The m,n,k threat search: kernels equal to the plain-Python reference, the exact rules, the genome, the agent."""
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import load_game, make_agent
from evoplay.agents.weights import genome_agent, weights_document
from evoplay.games.mnk.genome import GenomeAgent
from evoplay.errors import SpecError
from evoplay.games.mnk import search as search_mnk
from evoplay.games.mnk import threat_player as P
from evoplay.games.mnk import threats as T

BOARDS = [(5, 5, 4), (3, 3, 3), (6, 5, 4), (4, 4, 3)]


def _record(game, rng) -> dict:
    schema = P.threat_schema(game.m, game.n, game.k)
    return schema.decode(schema.random(1, rng)[0])


def _position(game, rng, plies: int):
    """A non-terminal position after up to ``plies`` random moves (fewer if the game would end)."""
    state = game.new_initial_state()
    for _ in range(plies):
        legal = state.legal_actions()
        trial = state.clone()
        trial.apply_action(int(legal[int(rng.integers(len(legal)))]))
        if trial.current_player() < 0:
            break
        state = trial
    return state


def _kernel_arrays(board, geometry):
    cnt = np.zeros((geometry.windows.shape[0], 2), np.int64)
    for c, v in enumerate(board):
        if v:
            for i in range(geometry.cells[c, 0]):
                cnt[geometry.cells[c, 1 + i], v - 1] += 1
    size = len(board)
    return cnt, np.full(size, -1, np.int64), np.empty(size, np.int64)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(0, 2**32 - 1), st.integers(0, 30))
def test_rules_evaluation_and_order_kernels_equal_the_reference(mnk, seed, plies):
    game = load_game(f"mnk(m={mnk[0]},n={mnk[1]},k={mnk[2]})")
    rng = np.random.default_rng(seed)
    state = _position(game, rng, plies)
    record = _record(game, rng)
    player = P.ThreatPlayer(game, record, streaks="live" if seed % 2 else "all")
    geo = player.geometry
    board = np.ascontiguousarray(state._board)
    ref_board = [int(v) for v in board]
    windows = [[int(c) for c in w] for w in geo.windows]
    cnt, made, out = _kernel_arrays(board, geo)
    empties = ref_board.count(0)
    for who in (0, 1):
        found = T.threat_cells(board, cnt, geo.windows, who, out)
        assert list(out[:found]) == T.reference_threat_cells(ref_board, windows, who)
        found = T.fork_cells(board, cnt, geo.windows, who, made, out)
        assert list(out[:found]) == T.reference_fork_cells(ref_board, windows, who)
        assert (made == -1).all()
        want = T.reference_rules(ref_board, windows, who, empties)
        settled, got = T.rules(board, cnt, geo.windows, who, empties, made, out)
        assert (settled, got) == ((True, want[1]) if want and want[0] == "value" else
                                  (False, want[1] if want else -1))
        assert T.evaluate(board, cnt, geo.windows, who, player.seed_params, player.threat_params, made, out) == \
            T.reference_evaluate(ref_board, who, windows, player.seed_params, player.threat_params)
        scores = np.empty(len(board), np.int64)
        count = T.order(board, cnt, geo.cells, who, -1, out, scores)
        assert list(out[:count]) == T.reference_order(ref_board, windows, who)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(0, 2**32 - 1), st.integers(0, 12), st.sampled_from([1, 60, 700]))
def test_search_kernel_equals_the_reference_move_depth_nodes_and_value(mnk, seed, plies, budget):
    game = load_game(f"mnk(m={mnk[0]},n={mnk[1]},k={mnk[2]})")
    rng = np.random.default_rng(seed)
    state = _position(game, rng, plies)
    player = P.ThreatPlayer(game, _record(game, rng), nodes=budget)
    got = player.choose(state._board, state.current_player())
    want = T.reference_deepen(state._board, state.current_player(), player.geometry.windows, player.seed_params,
                              player.threat_params, budget)
    assert got == want
    assert state._board[got[0]] == 0


def test_cell_windows_lists_every_window_through_a_cell():
    windows = search_mnk.line_windows(5, 5, 4)
    cells = T.cell_windows(windows, 25)
    for c in range(25):
        assert sorted(cells[c, 1:1 + cells[c, 0]]) == [w for w, cs in enumerate(windows) if c in cs]
    assert cells[12, 0] == 8  # the centre: 2 windows in its row, 2 in its column, 2 on each diagonal


def _board(rows: list[str]) -> list[int]:
    """Rows from the top (row n) down, as the game prints: '.', 'X', 'O'."""
    return [".XO".index(ch) for row in reversed(rows) for ch in row]


def test_rules_win_block_lose_and_fork():
    windows = [[int(c) for c in w] for w in search_mnk.line_windows(5, 5, 4)]
    # X has three in row 1 (a1 b1 c1): X to move wins on d1; O to move must block d1.
    board = _board([".....", ".....", ".....", "OO...", "XXX.."])
    assert T.reference_rules(board, windows, 0, board.count(0)) == ("value", T.WIN + board.count(0) - 1)
    assert T.reference_rules(board, windows, 1, board.count(0)) == ("forced", 3)
    # X has b1 c1 d1 with a1 and e1 open: two threat cells, O to move loses.
    board = _board([".....", ".....", "O....", "OO...", ".XXX."])
    assert T.reference_threat_cells(board, windows, 0) == [0, 4]
    assert T.reference_rules(board, windows, 1, board.count(0)) == ("value", -(T.WIN + board.count(0) - 2))
    # X has b1 c1: d1 makes a1 and e1 threats at once (a fork), and X to move wins in three plies.
    board = _board([".....", ".....", ".....", "O....", ".XX.."])
    assert 3 in T.reference_fork_cells(board, windows, 0)
    assert T.reference_rules(board, windows, 0, board.count(0)) == ("value", T.WIN + board.count(0) - 3)


def test_the_genome_extends_the_seed_without_its_depth():
    schema = P.threat_schema(5, 5, 4)
    names = schema.names
    assert "search_depth" not in names
    assert names[-6:] == ["open1m", "open2m", "open1w", "open2w", "fork_w", "scale_open"]
    assert schema.length == 26 * 8 + 6 * 8


def test_weights_agent_plays_a_threat_genome_and_finds_the_win(tmp_path):
    game = load_game("mnk(m=5,n=5,k=4)")
    rng = np.random.default_rng(3)
    schema = P.threat_schema(5, 5, 4)
    bits = schema.random(1, rng)[0]
    path = tmp_path / "best.json"
    path.write_text(json.dumps(weights_document(game, schema, bits, nodes=2000, streaks="live")))
    agent = make_agent(f"weights({path})", game)
    assert isinstance(agent, GenomeAgent) and agent.threat is not None and agent.threat.nodes == 2000
    state = game.state_from_board(_board([".....", ".....", ".....", "OO...", "XXX.."]), 0)
    assert agent.step(state) == 3
    with pytest.raises(SpecError, match="node budget"):
        genome_agent(game, schema.decode(bits), nodes=-1)



def test_the_threats_config_evolves_the_extended_genome_and_the_seed_config_refuses_a_node_budget():
    from evoplay.errors import ConfigError
    from evoplay.evolve.config import load_config
    from evoplay.recipes.mnk import make

    evo = make(load_config("mnk", "threats"))
    assert evo.schema.names == P.threat_schema(5, 5, 4).names
    agent = evo.agent(evo.schema.random(1, np.random.default_rng(0))[0], "g0.0")
    assert agent.threat is not None and agent.threat.nodes == evo.config["search"]["nodes"]
    with pytest.raises(ConfigError, match="search.evaluation"):
        make({"search": {"evaluation": "deep"}})
    with pytest.raises(ConfigError, match="node budget"):
        make({"search": {"nodes": 100}})


def test_champion_plays_5_5_4_only_and_the_benchmark_measures_it():
    from evoplay.bench import strength

    game = load_game("mnk(m=5,n=5,k=4)")
    agent = make_agent("champion", game)
    assert agent.threat is not None
    state = game.new_initial_state(0)
    assert agent.step(state) in state.legal_actions()
    with pytest.raises(SpecError, match="5,5,4|m=5,n=5,k=4"):
        make_agent("champion", "mnk(m=3,n=3,k=3)")
    for quick in (True, False):
        (_, _, _), (spec, players, opponents) = strength.lineup(quick)
        assert spec == strength.MNK and players[0] == "champion"
    assert "champion" in opponents  # the full run also plays the champion against itself


def test_prove_finds_the_won_fork_and_a_won_opening():
    game = load_game("mnk(m=5,n=5,k=4)")
    player = P.ThreatPlayer(game, _record(game, np.random.default_rng(2)))
    # X to move with b1 c1 and a1 d1 e1 empty: d1 forks, X wins in three plies.
    assert P.prove(_board([".....", ".....", ".....", "O....", ".XX.."]), 0, player, 1000) == (1, 3)
    # The benchmark's opening 0 (X b2, O d2): X wins in 7 plies, as a plain 7-ply alpha-beta confirms.
    board = _board([".....", ".....", ".....", ".X.O.", "....."])
    assert P.prove(board, 0, player, 200_000) == (1, 7)
    values, _, _ = search_mnk.search(np.array(board, np.int8), 0, 7, 5, 5, 4, search_mnk.EVAL_LINES,
                                     search_mnk.default_line_weights(4), search_mnk.line_windows(5, 5, 4))
    assert values.max() == search_mnk.WIN + 25 - 2 - 7
    # Tic-tac-toe from the empty board is a draw: no win to prove.
    ttt = load_game("mnk(m=3,n=3,k=3)")
    assert P.prove([0] * 9, 0, P.ThreatPlayer(ttt, _record(ttt, np.random.default_rng(1))), 100_000) == (0, 0)
