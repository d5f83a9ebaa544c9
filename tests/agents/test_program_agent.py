"""Feature players on any game: programs and weights as move scorers and search leaves, files and their checks."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from evoplay import gp
from evoplay.agents import make_agent
from evoplay.agents.feature_player import (
    feature_identifiers, game_primitive_set, linear_agent, program_agent,
)
from evoplay.arena.tournament import match
from evoplay.errors import SpecError
from evoplay.games import load_game
from evoplay.gp.primitives import ABS, FEATURE, NEG
from evoplay.gp.program import Program
from evoplay.recipes.gp import program_document

TAKE_AWAY = str(Path(__file__).with_name("take_away.py")) + ":TakeAway"

# -(abs(pile mod 4)): the after-state with a multiple of 4 left is best -- the perfect strategy of the game
PERFECT = Program([NEG, ABS, FEATURE], [0, 0, 1], [0.0, 0.0, 0.0])


def test_move_scorer_plays_the_perfect_strategy_on_a_file_game():
    game = load_game(TAKE_AWAY)
    agent = program_agent(game, PERFECT)
    for pile in range(5, 16):
        if pile % 4 == 0:
            continue
        s = game.new_initial_state()
        s.pile = pile
        assert (pile - (agent.step(s) + 1)) % 4 == 0
    result = match(game, agent, make_agent("random", game), games=40, seed=3)
    stats = result.stats()
    # from 15 stones the first player wins with perfect play; second, it wins whenever random slips once
    assert stats[0].by_seat[0] == [20, 0, 0]
    assert stats[0].wins >= 36


def test_search_policy_finds_the_same_moves_and_takes_wins():
    game = load_game(TAKE_AWAY)
    zero = Program([0], [1], [0.0])  # a constant: only the search itself knows anything
    searcher = program_agent(game, zero, policy="search", depth=4)
    s = game.new_initial_state()
    s.pile = 3
    assert searcher.step(s) == 2  # take all three and win
    s.pile = 6
    assert searcher.step(s) == 1  # leave 4: every reply loses within the horizon
    weights = linear_agent(game, [0.0, -1.0, 0.0], policy="search", depth=1)
    s.pile = 7
    assert weights.step(s) == 2


def test_ties_are_broken_by_the_agent_seed_reproducibly():
    game = load_game(TAKE_AWAY)
    agent = program_agent(game, Program([0], [1], [0.0]))
    s = game.new_initial_state()
    picks = []
    for seed in range(20):
        agent.restart(seed, 0)
        picks.append(agent.step(s))
    assert set(picks) == {0, 1, 2}
    again = []
    for seed in range(20):
        agent.restart(seed, 0)
        again.append(agent.step(s))
    assert again == picks


def test_openspiel_game_takes_the_immediate_win_and_plays_legal_games():
    game = load_game("openspiel:tic_tac_toe")
    pset = game_primitive_set(game)
    program = gp.population(pset, np.random.default_rng(1), 1, max_depth=3)[0]
    for policy, depth in (("move", 1), ("search", 2)):
        agent = program_agent(game, program, policy=policy, depth=depth)
        s = game.new_initial_state(0)
        for a in (0, 3, 1, 4):  # x x . / o o . / . . .: x to move wins at cell 2
            s.apply_action(a)
        assert agent.step(s) == 2
        result = match(game, agent, make_agent("random", game), games=6, seed=1)
        assert len(result.records) == 6


def test_simultaneous_game_after_states_use_the_noop():
    game = load_game("tron(w=8,h=8)")
    weights = np.zeros(game.num_features())
    weights[game.feature_names().index("my_free")] = 1.0
    agent = linear_agent(game, weights, policy="move")
    s = game.new_initial_state(0)
    agent.restart(0, 1)
    action = agent.step(s)
    assert action in s.legal_actions(1)


def test_feature_identifiers_are_unique_identifiers():
    names = feature_identifiers(["obs[0,1]", "obs[0,1]", "1st", "random", "pile"])
    assert all(n.isidentifier() for n in names)
    assert len(set(names)) == 5
    assert names[-1] == "pile"


# --- files -------------------------------------------------------------------------------------------------------


def write_doc(tmp_path, game, program=PERFECT, **changes) -> str:
    pset = game_primitive_set(game)
    doc = program_document(game, program, pset, "move", 1, "noop")
    doc.update(changes)
    path = tmp_path / "best.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_gp_file_plays_the_game_it_records(tmp_path):
    game = load_game(TAKE_AWAY)
    path = write_doc(tmp_path, game)
    agent = make_agent(f"gp({path})", game)
    s = game.new_initial_state()
    assert agent.step(s) == 2  # 15 - 3 = 12


def test_gp_file_on_another_game_is_a_clear_error(tmp_path):
    path = write_doc(tmp_path, load_game(TAKE_AWAY))
    with pytest.raises(SpecError, match="was evolved for .*take_away.py:TakeAway, not mnk"):
        make_agent(f"gp({path})", "mnk(m=3,n=3,k=3)")


def test_gp_file_with_renamed_features_names_the_first_difference(tmp_path):
    game = load_game(TAKE_AWAY)
    path = write_doc(tmp_path, game, features=["pile", "pile_mod_3", "one"])
    with pytest.raises(SpecError, match="feature 1 as 'pile_mod_3' but .* names it 'pile_mod_4'"):
        make_agent(f"gp({path})", game)
    path = write_doc(tmp_path, game, features=["pile", "one"])
    with pytest.raises(SpecError, match="reads 2 features but .* gives 3"):
        make_agent(f"gp({path})", game)


def write_weights_doc(tmp_path):
    """A ga-recipe weights file for tic-tac-toe: 9 four-bit weights, a 2-ply search."""
    from evoplay.recipes.ga import feature_schema

    game = load_game("mnk(m=3,n=3,k=3)")
    schema = feature_schema(9, 4)
    bits = schema.random(1, np.random.default_rng(0))[0]
    doc = {"format": "evoplay-weights/1", "game": game.spec, "schema": schema.to_list(),
           "genome": "".join(map(str, bits)), "features": game.feature_names(), "weight_scale": 0.125,
           "policy": "search", "depth": 2}
    path = tmp_path / "w.json"
    path.write_text(json.dumps(doc))
    return game, path


def test_weights_file_of_other_size_is_a_clear_error(tmp_path):
    game, path = write_weights_doc(tmp_path)
    agent = make_agent(f"weights({path})", game)
    assert agent.depth == 2
    with pytest.raises(SpecError, match="reads 9 features but mnk\\(m=4,n=4,k=3\\) gives 16"):
        make_agent(f"weights({path})", "mnk(m=4,n=4,k=3)")


def test_kalah_program_plays_other_capture_rule_with_a_warning(tmp_path, capsys):
    from evoplay.games.kalah.program_player import program_document as kalah_document

    program = Program([FEATURE], [0], [0.0])
    doc = kalah_document(program, gp.seed003_primitive_set(), "kalah", "kalah_pit")
    path = tmp_path / "k.json"
    path.write_text(json.dumps(doc))
    agent = make_agent(f"gp({path})", "kalah(empty_capture=false)")
    assert "rules differ" in capsys.readouterr().err
    assert "rules differ" in agent.note
    s = agent.game.new_initial_state()
    assert agent.step(s) in s.legal_actions()
    with pytest.raises(SpecError, match="not kalah\\(pits=4"):
        make_agent(f"gp({path})", "kalah(pits=4,seeds=4)")


def test_scorer_kernels_equal_their_references():
    from evoplay.agents.feature_player import LinearScorer, ProgramScorer

    game = load_game("openspiel:tic_tac_toe")
    pset = game_primitive_set(game, functions=("add", "sub", "mul", "div", "min", "max", "if_lt"))
    rng = np.random.default_rng(4)
    rows = rng.normal(size=(30, game.num_features())) * 1e4
    rows[3, :] = np.nan
    for program in gp.population(pset, rng, 40, max_depth=6):
        scorer = ProgramScorer(program)
        np.testing.assert_array_equal(scorer(rows), scorer.reference(rows))
    weights = LinearScorer(rng.normal(size=game.num_features()) * 1e6)
    np.testing.assert_allclose(weights(rows), weights.reference(rows), rtol=1e-12)
    assert weights(rows)[3] == 0.0 and np.abs(weights(rows)).max() <= 1e8


def test_same_game_other_parameters_plays_with_a_warning(tmp_path, capsys):
    path = write_doc(tmp_path, load_game(TAKE_AWAY))
    agent = make_agent(f"gp({path})", TAKE_AWAY + "(stones=9)")
    assert "rules differ" in capsys.readouterr().err
    assert "rules differ" in agent.describe()
    s = agent.game.new_initial_state()
    assert agent.step(s) == 0  # 9 - 1 = 8, a multiple of 4


def test_depth_overrides_the_files_search_depth_and_is_refused_for_a_move_scorer(tmp_path):
    game, path = write_weights_doc(tmp_path)
    assert make_agent(f"weights({path},depth=5)", game).depth == 5
    assert make_agent(f"weights({path})", game).depth == 2
    scorer = write_doc(tmp_path, load_game(TAKE_AWAY))  # policy "move"
    with pytest.raises(SpecError, match="depth=3 is for a searching player; this file's policy is 'move'"):
        make_agent(f"gp({scorer},depth=3)", TAKE_AWAY)
    assert make_agent(f"gp({scorer})", TAKE_AWAY).policy == "move"
