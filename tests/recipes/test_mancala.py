"""The Mancala recipe: its game kernels against the Python reference, the memo, configs, a run that resumes
identically."""
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import gp
from evoplay.arena.executors import ProcessExecutor, SerialExecutor
from evoplay.errors import ConfigError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.recipes import load_recipe
from evoplay.memo import clear_memos
from evoplay.games.kalah import minimax as K
from evoplay.recipes import mancala as M

PSET = gp.seed003_primitive_set()


def small_config(**changes):
    """Seed 003's run 2 (the seed's pit rule and minimax fitness), small."""
    overrides = {"population": 16, "generations": 3, "fitness.minimax_depth": 3, "report.random_programs": 30,
                 "report.heldout_depths": [2, 4], "pool.random_programs": 4, "pool.minimax_depths": [1, 3]}
    overrides.update(changes)
    return load_config("mancala", overrides=overrides, base=M_variant("run2"))


MOVE_PSET = gp.PrimitiveSet("move", n_features=16).add_functions("add", "sub", "if_lt", "value_at").add_integers(0, 15)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(1, 3),
       policy=st.sampled_from(["kalah_pit", "kalah_move", "kalah_search"]), empty_capture=st.booleans())
def test_game_kernels_match_the_python_reference(seed, depth, policy, empty_capture):
    rng = np.random.default_rng(seed)
    pset = PSET if policy == "kalah_pit" else MOVE_PSET
    programs = [gp.grow(pset, rng, 6, function_probability=0.5) for _ in range(3)]
    arena = K.KalahArena(6, 4, empty_capture, policy=policy, search_depth=2)
    ex = SerialExecutor()
    res = arena.vs_minimax(programs, [0, 0, 1, 1, 2, 2], [0, 1] * 3, [depth] * 6, ex)
    for g in range(6):
        assert tuple(res[g]) == K.reference_vs_minimax(programs[g // 2], g % 2, depth, empty_capture=empty_capture,
                                                       policy=policy, search_depth=2)
    res = arena.programs(programs, [0, 1, 2], [1, 2, 0], ex)
    for g, (a, b) in enumerate([(0, 1), (1, 2), (2, 0)]):
        assert tuple(res[g]) == K.reference_programs(programs[a], programs[b], empty_capture=empty_capture,
                                                     policy=policy, search_depth=2)


def test_memo_never_changes_results_and_is_shared_between_calls():
    rng = np.random.default_rng(5)
    programs = [gp.grow(PSET, rng, 6, function_probability=0.5) for _ in range(12)]
    idx, seats, depths = np.repeat(np.arange(12), 2), np.tile([0, 1], 12), np.full(24, 4)
    clear_memos()
    arena = K.KalahArena(6, 4, True, chunk_games=5)
    cold = arena.vs_minimax(programs, idx, seats, depths, SerialExecutor())
    searches = arena.memo.searches
    assert len(arena.memo.shared) == searches > 0  # every search is logged for the other workers
    warm = arena.vs_minimax(programs, idx, seats, depths, SerialExecutor())
    assert arena.memo.searches == searches  # the second pass is all memo hits
    np.testing.assert_array_equal(cold, warm)
    with ProcessExecutor(2) as ex:
        np.testing.assert_array_equal(
            K.KalahArena(6, 4, True, chunk_games=7).vs_minimax(programs, idx, seats, depths, ex), cold)


def test_configs_ship_with_the_seeds_tableau_and_bad_values_are_named():
    for variant, parsimony in (("run1", "none"), ("run2", "seed003")):
        cfg = load_config("mancala", overrides=None, base=M_variant(variant))
        assert (cfg["population"], cfg["generations"], cfg["fitness"]["parsimony"]) == (512, 150, parsimony)
        assert cfg["breeding"]["crossover"] == 0.9 and cfg["breeding"]["mutation"] == 0.005
        assert cfg["program"]["functions"] == ["if_lt", "add", "sub", "value_at"]
        assert cfg["program"]["integers"] == [0, 13]
        assert cfg["breeding"]["mutation_max_depth"] == 20 and cfg["program"]["init_max_depth"] == 16
    assert load_config("mancala", base=M_variant("pool"))["fitness"]["kind"] == "pool"
    with pytest.raises(ConfigError, match="breeding.selection"):
        M.make(small_config(**{"breeding.selection": "rank"}))
    with pytest.raises(ConfigError, match="mancala recipe plays kalah"):
        M.make(small_config(game="mnk"))
    with pytest.raises(ConfigError, match="known functions"):
        M.make(small_config(**{"program.functions": ["add", "pow"]}))


def M_variant(name):
    from evoplay.evolve.config import default_config_text, parse_toml

    return parse_toml(default_config_text("mancala", name), name)


def test_seed_programs_parse_and_score_against_the_minimax():
    programs = M.seed_programs()
    assert programs["seed run 2"].size == 80  # "only has a total of 80 nodes"
    assert not programs["seed run 2"].uses(gp.FUNCTIONS["if_lt"])  # "doesn't use the if_<_do_else_ operator"
    arena = K.KalahArena(6, 4, True)
    res = arena.vs_minimax(list(programs.values()), [0, 0, 1, 1], [0, 1, 0, 1], [2] * 4, SerialExecutor())
    assert (res.sum(axis=1) == 48).all()


def run(tmp_path, name, config, stop_after=None, executor=None):
    folder = RunFolder.create(tmp_path / name, "mancala", config) if stop_after is not None or not (
        tmp_path / name).exists() else RunFolder.open(tmp_path / name)
    run_evolution(M.make(config), folder, executor or SerialExecutor(), stop_after=stop_after)
    return folder


@pytest.mark.slow
def test_a_killed_run_resumes_to_the_same_result_and_writes_everything(tmp_path):
    config = small_config(generations=4)
    whole = run(tmp_path, "whole", config)
    part = run(tmp_path, "part", config, stop_after=2)
    assert not part.finished
    with ProcessExecutor(2) as ex:  # resumed with another executor and worker count
        run_evolution(M.make(config), RunFolder.open(part.path), ex)
    # Every logged number equals the uninterrupted run's, the counters too (timings aside).
    strip = [{k: v for k, v in r.items() if k not in ("seconds", "eval_seconds")} for r in whole.read_log()]
    assert strip == [{k: v for k, v in r.items() if k not in ("seconds", "eval_seconds")} for r in part.read_log()]
    a, b = json.loads(whole.file("best.json").read_text()), json.loads(part.file("best.json").read_text())
    assert a["program"] == b["program"] and a["score_first"] == b["score_first"]
    for name in ("best.py", "best.lua", "fitness.png", "size.png", "best_score.png", "fitness_stats.png",
                 "generalisation.json", "heldout.json", "hall_of_fame.json"):
        assert whole.file(name).exists(), name
    text = load_recipe("mancala").report(whole)
    assert "against the 3-ply minimax" in text and "| minimax |" in text and "alphabeta(depth=4)" in text
    ns: dict = {}
    exec(M.export(whole, "python").read_text(), ns)
    assert 0 <= ns["choose_pit"]([4] * 6 + [0] + [4] * 6 + [0]) < 6
    assert M.export(whole, "lua").read_text().rstrip().endswith("choose_pit = choose_pit }")


def test_pool_fitness_runs_and_logs_the_training_scores(tmp_path):
    config = small_config(**{"fitness.kind": "pool", "generations": 2, "pool.hall_of_fame": 2,
                             "program.policy": "kalah_move", "program.integers": [0, 15]})
    evo = M.make(config)
    state = evo.start(np.random.default_rng(0))
    for g in range(2):
        state, record = evo.step(state, g, SerialExecutor())
        assert 0 <= record["best"] and 0 <= record["best_first"] <= 48
    assert 1 <= len(state["hall_of_fame"]) <= 2
    weighted = M.make(small_config(**{"fitness.kind": "pool", "pool.second_seat_weight": 3.0}))
    assert weighted._seats(np.array([10.0]), np.array([30.0]))[0] == (10 + 3 * 30) / 4


def test_parsimony_matches_the_seeds_formula():
    from evoplay.evolve.bloat import SizeDepthLimit, seed000_parsimony, seed003_parsimony

    assert seed003_parsimony(30, 80).item() == 2920 and seed003_parsimony(0, 5).item() == 1
    assert seed000_parsimony(0.5, 120).item() == pytest.approx(0.5 - 0.0004 * 100)
    assert seed000_parsimony(0.5, 10).item() == 0.5
    limit = SizeDepthLimit(max_size=4)
    assert limit.accepts(gp.parse_notation("(1) + (2)", PSET)) and not limit.accepts(
        gp.parse_notation("((1) + (2)) + (3)", PSET))
    with pytest.raises(ConfigError):
        SizeDepthLimit(-1)


def test_the_search_config_is_the_seeds_fitness_at_the_leaves_of_a_six_ply_search():
    cfg = load_config("mancala", base=M_variant("search"))
    assert (cfg["program"]["policy"], cfg["program"]["search_depth"]) == ("kalah_search", 6)
    assert (cfg["fitness"]["kind"], cfg["fitness"]["minimax_depth"], cfg["fitness"]["parsimony"]) == (
        "minimax", 8, "seed003")
    assert (cfg["population"], cfg["generations"], cfg["seed"]) == (256, 60, 1)


def test_openings_are_distinct_positions_a_few_sowings_in_with_the_first_player_to_move():
    game = M.make(small_config()).game
    boards = M.openings(game, 6, 4, seed=3)
    assert len({tuple(b) for b in boards}) == 6
    start = [4] * 6 + [0] + [4] * 6 + [0]
    for b in boards:
        assert b.sum() == 48 and list(b) != start and b[:6].sum() > 0 and b[7:13].sum() > 0
    assert [list(b) for b in M.openings(game, 6, 4, seed=3)] == [list(b) for b in boards]  # seeded
    # One sowing from the start reaches six positions only (sowing pit 2 ends in the store: the first player
    # moves again), all of them turned around so that the first player is to move.
    one = M.openings(game, 6, 1, seed=0)
    assert sorted(tuple(b) for b in one) == sorted(
        tuple(turned) for turned in _one_sowing_positions())
    with pytest.raises(ConfigError, match="pool.openings = 7: only 6 different positions"):
        M.openings(game, 7, 1, seed=0)
    with pytest.raises(ConfigError, match="pool.opening_plies"):
        M.make(small_config(**{"pool.opening_plies": 0}))


def _one_sowing_positions():
    from evoplay.games.kalah.game import reference_sow

    for pit in range(6):
        board = [4] * 6 + [0] + [4] * 6 + [0]
        player = reference_sow(board, 0, pit, 6, True)
        yield board if player == 0 else board[7:] + board[:7]


def test_pool_fitness_plays_the_minimax_from_each_opening_too():
    config = small_config(**{"fitness.kind": "pool", "pool.openings": 2, "pool.random_programs": 0,
                             "pool.hall_of_fame": 0, "pool.minimax_depths": [2]})
    evo = M.make(config)
    assert len(evo.openings) == 2
    programs = M.random_programs(evo.pset, config, 4, 9)
    ex = SerialExecutor()
    fitness, _, games = evo.pool_scores(programs, [], ex)
    assert games == 3 * 2 * 4  # the start and two openings, both seats, four programs
    per_position = []
    for k in (None, 0, 1):
        s = evo.scores_vs_minimax(programs, 2, ex, opening=k)
        board = None if k is None else evo.openings[k]
        for i, program in enumerate(programs):
            for seat in (0, 1):
                assert s[i, seat] == K.reference_vs_minimax(program, seat, 2, board=board)[0]
        per_position.append(s.mean(axis=1))
    np.testing.assert_allclose(fitness, 2 * np.mean(per_position, axis=0))
    alone = M.make(small_config(**{"fitness.kind": "pool", "pool.random_programs": 0, "pool.hall_of_fame": 0,
                                   "pool.minimax_depths": [2]}))
    np.testing.assert_allclose(alone.pool_scores(programs, [], ex)[0], 2 * per_position[0])


STORE_DIFFERENCE = "(value at [(6)]) - (value at [(13)])"


def test_the_default_is_a_searching_pool_variant_seeded_with_the_store_difference():
    cfg = load_config("mancala")
    assert (cfg["program"]["policy"], cfg["program"]["search_depth"], cfg["fitness"]["kind"]) == (
        "kalah_search", 4, "pool")
    assert cfg["program"]["seeds"] == [STORE_DIFFERENCE] and cfg["pool"]["openings"] > 0
    assert 6 not in cfg["pool"]["minimax_depths"] and 10 not in cfg["pool"]["minimax_depths"]  # held out
    # The seed reads the searching player's store minus the opponent's: at the leaves of the default's search it
    # beats the 2-ply minimax moving first and moving second (read the other way round it would lose both).
    evo = M.make(cfg)
    seed = evo.seeds[0]
    (first, second), = evo.arena.minimax_both_seats([seed], 2, SerialExecutor())
    assert first[0] > 24 and second[0] > 24
    swapped = gp.parse_notation("(value at [(13)]) - (value at [(6)])", evo.pset)
    (first, second), = evo.arena.minimax_both_seats([swapped], 2, SerialExecutor())
    assert first[0] < 24 and second[0] < 24


def test_program_seeds_come_first_in_the_initial_population_and_bad_ones_are_named():
    config = small_config(**{"program.seeds": ["(value at [(6)]) - (value at [(13)])", "(3)"]})
    evo = M.make(config)
    pop = evo.start(np.random.default_rng(4))["population"]
    assert len(pop) == 16
    assert [gp.to_notation(p, evo.pset) for p in pop[:2]] == ["(value at [(6)]) - (value at [(13)])", "3"]
    rest = M.random_programs(evo.pset, config, 14, np.random.default_rng(4))
    assert [p.key() for p in pop[2:]] == [p.key() for p in rest]
    # Without seeds the population is what it always was (seed 003's runs are unchanged).
    plain = M.make(small_config())
    assert [p.key() for p in plain.start(np.random.default_rng(4))["population"]] == [
        p.key() for p in M.random_programs(plain.pset, small_config(), 16, np.random.default_rng(4))]
    with pytest.raises(ConfigError, match=r"program.seeds\[1\] = '\(value at \[\(6\)\]\) -': program text"):
        M.make(small_config(**{"program.seeds": ["(1)", "(value at [(6)]) -"]}))
    with pytest.raises(ConfigError, match=r"program.seeds\[0\].*'max', which primitive set"):
        M.make(small_config(**{"program.seeds": ["max [(1), (2)]"]}))
    with pytest.raises(ConfigError, match=r"program.seeds\[0\].*reads feature f20 but policy kalah_pit gives f0..f13"):
        M.make(small_config(**{"program.seeds": ["(f20) + (1)"]}))
    with pytest.raises(ConfigError, match="program.seeds: 3 programs for a population of 2"):
        M.make(small_config(population=2, **{"program.seeds": ["(1)", "(2)", "(3)"]}))


def test_a_config_from_before_seeds_and_openings_resumes_without_them():
    config = small_config(**{"fitness.kind": "pool"})
    del config["program"]["seeds"], config["pool"]["openings"], config["pool"]["opening_plies"]
    evo = M.make(config)
    assert evo.seeds == [] and evo.openings == []
