"""The sevens recipe: the split plan, the rotation schedule, the fitness, a whole small run with levels, resuming,
and the Python and Lua exports choosing exactly the interpreter's cards over thousands of decisions."""
import importlib.util
import json

import numpy as np
import pytest

from evoplay import load_game
from evoplay.games.sevens.agents import Specimen, sevens_primitive_set
from evoplay.errors import ConfigError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.games.sevens.rules import FEATURES
from evoplay.gp.generate import grow
from evoplay.gp.interpreter import best_row, seed_random
from evoplay.games.sevens import export as E
from evoplay.recipes import sevens as R


def _config(**overrides):
    return load_config("sevens", overrides=overrides)


def test_default_config_is_the_seeds_plan():
    cfg = _config()
    b = cfg["breeding"]
    assert (b["clone"], b["constant_mutation"], b["tree_mutation"], b["crossover"]) == (0.10, 0.45, 0.225, 0.225)
    assert b["mutation_depth"] == 2
    assert cfg["fitness"] == {"games": 1000, "size_free": 20, "size_penalty": 0.0004, "heuristic_share": 0.0}
    assert cfg["levels"]["generations"] == {"easy": 0, "medium": 1, "hard": 11, "expert": 111}
    assert cfg["primitives"]["functions"] == ["add", "mul"]
    evo = R.make(cfg, levels=True)
    assert evo.generations == 112  # generations 0..111


@pytest.mark.parametrize("key,value,match", [
    ("breeding.clone", 0.2, "add up to 1"),
    ("game.players", 2, "3 to 8"),
    ("population", 2, "at least game.players"),
    ("primitives.functions", ["add", "value_at"], "not available"),
    ("primitives.features", ["rounds", "luck"], "unknown feature"),
    ("init.method", "bushy", "grow, full or ramped"),
    ("fitness.games", 0, ">= 1"),
])
def test_bad_configs_say_what_is_wrong(key, value, match):
    with pytest.raises(ConfigError, match=match):
        R.make(_config(**{key: value}))


def test_levels_need_enough_generations():
    with pytest.raises(ConfigError, match="generations >= 111"):
        R.make(_config(generations=20), levels=True)
    R.make(_config(generations=20))  # without --levels a short run is fine


def test_rotation_schedule_seats_everyone_once_per_seat_each_round():
    rng = np.random.default_rng(0)
    n, players, games = 10, 3, 30
    seats = R.rotation_schedule(n, players, games, rng)
    assert seats.shape == (n * games // players, players)
    for r in range(games // players):
        block = seats[r * n:(r + 1) * n]
        for p in range(players):
            assert sorted(block[:, p]) == list(range(n))
        assert all(len(set(row)) == players for row in block.tolist())


def test_heuristic_share_gives_guest_seats_to_the_heuristic_only():
    rng = np.random.default_rng(2)
    n, players = 12, 3
    seats = R.rotation_schedule(n, players, 60, rng, heuristic_share=0.5)
    share = (seats == n).mean()
    assert 0.25 < share < 0.42  # two of three seats, each with probability 0.5
    for r in range(20):
        block = seats[r * n:(r + 1) * n]
        assert sorted(block[:, r % players]) == list(range(n)), "each individual keeps its own seat every round"


def test_fitness_is_the_seeds_formula():
    f = R.fitness_of([50, 50, 10], [100, 100, 100], [20, 45, 3])
    assert f.tolist() == pytest.approx([0.5, 0.5 - 25 * 0.0004, 0.1])


def test_split_plan_counts_and_operations():
    pset = sevens_primitive_set()
    rng = np.random.default_rng(1)
    ranked = [(grow(pset, rng, 3), grow(pset, rng, 3)) for _ in range(40)]
    shares = {"clone": 0.10, "constant_mutation": 0.45, "tree_mutation": 0.225, "crossover": 0.225}
    children = R.breed(ranked, pset, rng, shares, 2)
    assert len(children) == 40
    # 4 clones of the 4 best, in order; then 18 constant mutations of the 18 best (same shapes, signs kept)
    for i in range(4):
        assert children[i][0] == ranked[i][0] and children[i][1] == ranked[i][1]
    for i in range(18):
        for new, old in zip(children[4 + i], ranked[i]):
            assert np.array_equal(new.opcodes, old.opcodes)
            assert (np.sign(new.consts) == np.sign(old.consts)).all()
            ratio = np.abs(new.consts[old.consts != 0] / old.consts[old.consts != 0])
            assert ((ratio >= 0.5 - 1e-12) & (ratio <= 2 + 1e-12)).all()
    # tree mutations change at most one tree of each of the 9 best
    for i in range(9):
        play, send = children[22 + i]
        assert play == ranked[i][0] or send == ranked[i][1]


def _small_config(tmp_path, generations=3):
    return _config(population=9, generations=generations, seed=4, **{
        "fitness.games": 30, "monitor.heuristic_games": 30,
        "levels.generations.easy": 0, "levels.generations.medium": 1, "levels.generations.hard": 2,
        "levels.generations.expert": generations, "levels.candidates": 3, "levels.games": 30,
    })


def test_a_small_run_writes_levels_exports_and_resumes_identically(tmp_path):
    cfg = _small_config(tmp_path)
    whole = RunFolder.create(tmp_path / "whole", "sevens", cfg, {"levels": True})
    run_evolution(R.make(cfg, levels=True), whole)
    for name in ("best.json", "best.py", "best.lua", "levels.json", "computer.py", "computer.lua", "fitness.png"):
        assert whole.file(name).is_file(), name
    levels = json.loads(whole.file("levels.json").read_text())
    assert [levels[k]["info"]["generation"] for k in ("easy", "medium", "hard", "expert")] == [0, 1, 2, 3]
    assert levels["easy"]["info"]["recheck_against"] == "its generation"
    assert levels["expert"]["info"]["recheck_against"] == "two copies of hard"
    assert 1 <= levels["hard"]["info"]["rank"] <= 3
    log = whole.read_log()
    assert [r["generation"] for r in log] == [0, 1, 2, 3]
    assert all(r["games"] == 9 * 30 // 3 for r in log)
    assert "level expert" in R.report(whole)
    assert R.export(whole, "lua").name == "computer.lua"

    parts = RunFolder.create(tmp_path / "parts", "sevens", cfg, {"levels": True})
    run_evolution(R.make(cfg, levels=True), parts, stop_after=2)
    run_evolution(R.make(cfg, levels=True), RunFolder.open(tmp_path / "parts"))

    def strip(rows):
        return [{k: v for k, v in r.items() if k not in ("seconds", "games_seconds")} for r in rows]

    assert strip(parts.read_log()) == strip(log)
    assert parts.file("computer.lua").read_text() == whole.file("computer.lua").read_text()


def test_process_executor_gives_the_serial_results():
    from evoplay.arena.executors import ProcessExecutor

    pset = sevens_primitive_set()
    population = [(grow(pset, np.random.default_rng(k), 3), grow(pset, np.random.default_rng(k + 99), 3))
                  for k in range(6)]
    serial = R.evaluate_population(population, 3, 60, np.random.default_rng(3))
    with ProcessExecutor(2) as ex:
        parallel = R.evaluate_population(population, 3, 60, np.random.default_rng(3), ex)
    assert all((a == b).all() for a, b in zip(serial, parallel))


# --------------------------------------------------------------------------------------------------------------
# The exports choose the interpreter's cards.
# --------------------------------------------------------------------------------------------------------------


def _export_specimens():
    pset = sevens_primitive_set(E.EXPORTABLE_FUNCTIONS, random=True)
    rng = np.random.default_rng(2024)
    out = {}
    for k, name in enumerate(("easy", "medium", "hard", "expert")):
        out[name] = Specimen(grow(pset, rng, 2 + k), grow(pset, rng, 2 + k), pset, {"generation": k})
    return out


def _decisions(count, seed=0):
    """(context, feature rows) of ``count`` decisions with 2+ candidates from random games of 3-8 players."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        players = int(rng.integers(3, 9))
        state = load_game(f"sevens(players={players})").new_initial_state(int(rng.integers(2**63)))
        while not state.is_terminal() and len(out) < count:
            legal = state.legal_actions()
            if len(legal) > 1:
                out.append((state.phase(), state.card_features(legal)))
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return out


def _interpreter_choice(specimen, context, rows, seed):
    tree = specimen.play if context == "play" else specimen.send
    seed_random(seed)
    stack = np.empty(tree.size, np.float64)
    return int(best_row(tree.opcodes, tree.args, tree.consts, 0, tree.size, np.ascontiguousarray(rows), stack))


def test_python_export_chooses_the_interpreters_cards(tmp_path):
    specimens = _export_specimens()
    path = tmp_path / "computer.py"
    path.write_text(E.computer_source(specimens, "python"))
    spec = importlib.util.spec_from_file_location("computer_under_test", path)
    computer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(computer)
    assert set(computer.FUNCTIONS) == set(specimens)
    checked = 0
    for k, (context, rows) in enumerate(_decisions(2500)):
        envs = [dict(zip(FEATURES, map(float, r))) for r in rows]
        for name, specimen in specimens.items():
            expected = _interpreter_choice(specimen, context, rows, k)
            computer.set_random(np.random.RandomState(k).random_sample)  # Numba's generator, same seed
            assert computer.choose(name, context, envs) == expected, (name, context, k)
            checked += 1
    assert checked == 10_000


def test_lua_export_chooses_the_interpreters_cards(tmp_path):
    lupa = pytest.importorskip("lupa", reason="the Lua check needs lupa (pip install 'evoplay[lua]')")
    specimens = _export_specimens()
    lua = lupa.LuaRuntime(unpack_returned_tuples=True)
    computer = lua.execute(E.computer_source(specimens, "lua"))
    checked = 0
    for k, (context, rows) in enumerate(_decisions(1500, seed=1)):
        envs = lua.table_from([lua.table_from(dict(zip(FEATURES, map(float, r)))) for r in rows])
        for name, specimen in specimens.items():
            expected = _interpreter_choice(specimen, context, rows, k)
            computer.set_random(np.random.RandomState(k).random_sample)
            assert computer.choose(name, context, envs) - 1 == expected, (name, context, k)
            checked += 1
    assert checked == 6000


def test_computer_py_from_the_levels_plays_the_levels_cards_on_seeded_games(tmp_path):
    """The shipped levels written out as computer.py (the export path a run takes) choose, game after seeded game,
    every card the in-process levels choose: the same random stream feeds both, seeded once per game."""
    from evoplay.games.sevens.agents import SevensSpecimenAgent, level_specimen, load_levels

    levels = load_levels()
    path = tmp_path / "computer.py"
    path.write_text(E.computer_source(E.level_specimens(levels), "python"))
    spec = importlib.util.spec_from_file_location("computer_from_levels", path)
    computer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(computer)
    names = list(levels)
    decisions = 0
    for seed in range(120):
        players = 3 + seed % 6
        game = load_game(f"sevens(players={players})")
        seat_level = [names[(seed + p) % len(names)] for p in range(players)]
        agents = [SevensSpecimenAgent(game, level_specimen(name)) for name in seat_level]
        ours, theirs = game.new_initial_state(seed), game.new_initial_state(seed)
        seed_random(seed)
        computer.set_random(np.random.RandomState(seed).random_sample)
        while not ours.is_terminal():
            legal = ours.legal_actions()
            card = agents[ours.current_player()].step(ours)
            if len(legal) > 1:
                envs = [dict(zip(FEATURES, map(float, r))) for r in theirs.card_features(legal)]
                k = computer.choose(seat_level[theirs.current_player()], theirs.phase(), envs)
                assert legal[k] == card, (seed, len(ours.history))
                decisions += 1
            ours.apply_action(card)
            theirs.apply_action(card)
    assert decisions > 3000


def test_ladder_command_prints_tables_ratings_and_its_command(tmp_path):
    from click.testing import CliRunner

    from evoplay.cli import main

    pytest.importorskip("openskill", reason="ratings need openskill (pip install 'evoplay[ratings]')")
    specimens = _export_specimens()
    for k, s in enumerate(specimens.values()):
        s.info.update(generation=k, win_ratio=0.4)
    path = tmp_path / "levels.json"
    path.write_text(json.dumps({name: s.to_dict() for name, s in specimens.items()}))
    out_file = tmp_path / "ladder.md"
    result = CliRunner().invoke(main, ["sevens-ladder", "--computer", str(path), "--games", "60", "--rounds", "1",
                                       "--workers", "1", "--out", str(out_file)])
    assert result.exit_code == 0, result.output
    text = out_file.read_text()
    assert "Made by `evoplay sevens-ladder" in text
    assert "| **expert** |" in text and "| expert vs heuristic |" in text and "| medium vs easy |" in text
    assert "openskill" in text and text.count("\n| ") >= 6 + 6 + 6
    bad = CliRunner().invoke(main, ["sevens-ladder", "--computer", str(tmp_path / "none.py")])
    assert bad.exit_code == 2 and "does not exist" in bad.output


def test_top_level_heuristic_check_changes_nothing_but_the_top_level(tmp_path):
    base = _small_config(tmp_path)
    checked = load_config("sevens", overrides={**{k: v for k, v in _flat(base).items()},
                                               "levels.top_heuristic_games": 40})
    runs = []
    for name, cfg in (("plain", base), ("checked", checked)):
        folder = RunFolder.create(tmp_path / name, "sevens", cfg, {"levels": True})
        run_evolution(R.make(cfg, levels=True), folder)
        runs.append((json.loads(folder.file("levels.json").read_text()), folder.read_log()))
    (plain, plain_log), (top, top_log) = runs
    for level in ("easy", "medium", "hard"):
        assert plain[level]["play"] == top[level]["play"] and plain[level]["send"] == top[level]["send"]
    assert [r["best"] for r in plain_log] == [r["best"] for r in top_log]
    assert "heuristic_win_ratio" in top["expert"]["info"] and "heuristic_win_ratio" not in plain["expert"]["info"]


def _flat(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and k != "generations":
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out
