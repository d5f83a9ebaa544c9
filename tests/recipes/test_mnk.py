"""The mnk recipe (seed 001's GA): breeding edge cases, config checks, the convergence test, a run that resumes
exactly after a stop, and round robins that do not depend on the executor."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from evoplay.arena.executors import ProcessExecutor, SerialExecutor
from evoplay.cli import main
from evoplay.errors import ConfigError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.recipes import load_recipe
from evoplay.recipes import mnk as M


def _config(**changes):
    config = load_config("mnk")
    config.update(generations=2, population=4)
    config["baselines"]["games"] = 2
    config["baselines"]["final_games"] = 4
    for key, value in changes.items():
        table, _, name = key.rpartition(".")
        (config[table] if table else config)[name] = value
    return config


def test_default_config_is_the_seed():
    config = load_config("mnk")
    assert config["population"] == 32 and config["game"] == "mnk(m=5,n=5,k=4)"
    assert (config["fitness"]["win"], config["fitness"]["draw"], config["fitness"]["loss"]) == (5, 1, -4)
    assert config["fitness"]["cull_at_or_below"] == 0
    assert config["breeding"]["selection"] == "roulette" and config["breeding"]["crossover"] == "uniform"
    assert config["breeding"]["mutation_rate"] == 0.01 and config["search"]["schedule"] == "empty_cells"
    evo = M.make(config)
    assert evo.schema.length == 211


def _rng():
    return np.random.default_rng(0)


def test_breed_replaces_the_culled_with_children_of_survivors():
    config = _config(**{"breeding.mutation_rate": 0.0})
    pop = np.array([[0] * 8, [1] * 8, [0, 1] * 4, [1, 0] * 4], np.uint8)
    new, info = M.breed(pop, np.array([5, 0, 3, -2]), config, _rng())
    assert info == {"survivors": 2, "children": 2, "mutations": 0}
    assert (new[0] == pop[0]).all() and (new[2] == pop[2]).all()  # survivors keep their places
    for child in new[[1, 3]]:  # children of competitors 0 and 2, bit by bit
        assert ((child == pop[0]) | (child == pop[2])).all()


def test_breed_single_survivor_fills_with_its_clones():
    config = _config(**{"breeding.mutation_rate": 0.0})
    pop = np.random.default_rng(1).integers(0, 2, (5, 30), dtype=np.uint8)
    new, info = M.breed(pop, np.array([-3, 7, 0, -1, -9]), config, _rng())
    assert info["survivors"] == 1 and info["children"] == 4
    assert (new == pop[1]).all()


def test_breed_all_equal_fitness_only_mutates():
    config = _config()
    pop = np.zeros((6, 200), np.uint8)
    new, info = M.breed(pop, np.full(6, 10), config, _rng())
    assert info["children"] == 0 and info["survivors"] == 6
    assert info["mutations"] == int(new.sum()) > 0  # 0.01 of 1200 bits


def test_breed_everyone_culled_draws_parents_uniformly():
    config = _config(**{"breeding.mutation_rate": 0.0})
    pop = np.array([[0] * 10, [1] * 10, [0] * 10], np.uint8)
    used_the_worst = False
    for seed in range(10):
        new, info = M.breed(pop, np.array([0, -4, 0]), config, np.random.default_rng(seed))
        assert info["survivors"] == 0 and info["children"] == 3
        used_the_worst |= bool(new.any())  # only competitor 1 (fitness -4) has 1-bits to give
    assert used_the_worst


def test_seed_fitness_never_culls_everyone():
    # A decisive game adds 5 - 4 = 1 to the total fitness, a draw 1 + 1 = 2: someone is always above 0.
    evo = M.make(_config())
    rng = np.random.default_rng(3)
    n = 5
    for _ in range(300):
        wins, draws, losses = np.zeros(n, int), np.zeros(n, int), np.zeros(n, int)
        for i in range(n):
            for j in range(n):
                if i != j:
                    outcome = rng.integers(0, 3)  # first seat wins, draw, second seat wins
                    if outcome == 1:
                        draws[[i, j]] += 1
                    else:
                        winner, loser = (i, j) if outcome == 0 else (j, i)
                        wins[winner] += 1
                        losses[loser] += 1
        fitness = evo.fitness(wins, draws, losses)
        assert fitness.sum() == (wins.sum() + draws.sum()) and (fitness > 0).any()


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"population": 1}, "at least 2"),
        ({"breeding.crossover": "three_point"}, "unknown crossover"),
        ({"breeding.selection": "rank"}, "roulette"),
        ({"breeding.mutation_rate": 2.0}, "0..1"),
        ({"search.streaks": "open"}, "live"),
        ({"game": "kalah"}, "needs a genome"),
        ({"game": "tron"}, "mnk(...) or kalah(...)"),
        ({"game": "mnk(m=5"}, "game = "),
        ({"baselines.agents": ["alphabeta(depht=2)"]}, "baselines.agents"),
        ({"baselines.games": 3}, "even"),
        ({"fitness.hosts": ["minimax"]}, "fitness.hosts"),
        ({"fitness.host_games": 3}, "fitness.host_games = 3"),
        ({"genome.fields": [{"name": "store", "bits": 4}]}, "for Kalah"),
    ],
)
def test_config_errors_say_what_is_right(changes, words):
    with pytest.raises(ConfigError) as err:
        M.make(_config(**changes))
    assert words in str(err.value)


def test_kalah_schema_checks_feature_names():
    fields = [{"name": "stones", "bits": 4}]
    with pytest.raises(ConfigError, match="not a Kalah feature; known: store, seeds"):
        M.make(_config(game="kalah", **{"genome.fields": fields}))
    shipped = load_config("mnk", M.Path(M.__file__).with_name("mnk_kalah.toml"))
    evo = M.make(shipped)
    assert evo.schema.names == ["store", "seeds", "empty", "extra", "capture", "search_depth"]


def test_run_resumes_exactly_after_a_stop_and_leaves_a_playable_best(tmp_path, monkeypatch):
    config = _config(generations=2, population=4)
    straight = RunFolder.create(tmp_path / "a", "mnk", config)
    run_evolution(M.make(config), straight)
    stopped = RunFolder.create(tmp_path / "b", "mnk", config)
    run_evolution(M.make(config), stopped, stop_after=1)
    assert not stopped.finished
    monkeypatch.setattr(M, "write_results", lambda evo, state, folder: None)  # the pictures are drawn above
    run_evolution(M.make(RunFolder.open(stopped.path).config), RunFolder.open(stopped.path))

    def strip(log):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in log]

    assert strip(straight.read_log()) == strip(stopped.read_log())
    (g1, s1), (g2, s2) = straight.load_checkpoint(), stopped.load_checkpoint()
    assert g1 == g2 == 2 and (s1["population"] == s2["population"]).all()
    assert (s1["best"]["genome"] == s2["best"]["genome"]).all() and s1["best"]["fitness"] == s2["best"]["fitness"]
    assert s1["rng"].bit_generator.state == s2["rng"].bit_generator.state
    doc = json.loads(straight.file("best.json").read_text())
    assert doc["chosen_by"] == "baselines" and set(doc["final"]) == {"random", "alphabeta(depth=2,random_ties=true)",
                                                                       "initial best"}
    assert sum(doc["final"]["random"][k] for k in ("wins", "draws", "losses")) == 4
    assert sum(doc["final"]["initial best"][k] for k in ("wins", "draws", "losses")) == 2  # deterministic pair
    for name in ("last_best.json", "best.png", "fitness.png", "draws.png", "baselines.png", "progression.md", "initial_best.json"):
        assert straight.file(name).exists(), name
    log = straight.read_log()
    assert [r["games"] for r in log] == [12, 12]  # n(n-1)
    assert set(log[0]["baselines"]) == {"random", "alphabeta(depth=2,random_ties=true)", "initial best"}
    text = load_recipe("mnk").report(straight)
    assert "best genome" in text and "weights(" in text
    r = CliRunner().invoke(main, ["match", "mnk", f"weights({straight.path})", "random", "--games", "2", "--json",
                                  "--backend", "serial"], catch_exceptions=False)
    assert r.exit_code == 0 and json.loads(r.output)["games"] == 2


def test_convergence_stops_after_r_rounds_of_draws(tmp_path, monkeypatch):
    # Tic-tac-toe between identical deep searchers is always a draw: the test holds after draw_rounds rounds.
    config = _config(generations=10, population=3, game="mnk(m=3,n=3,k=3)", **{
        "breeding.mutation_rate": 0.0, "convergence.draw_rounds": 2, "search.schedule": "none",
        "baselines.every": 0})
    evo = M.make(config)
    record = evo.schema.decode(np.zeros(evo.schema.length, np.uint8))
    record.update(search_depth=7, sq22x=9, sq22o=9, sq12x=3, sq12o=3, scale_sq=1, scale_cons=1, h2x=5, h2o=5,
                  d2x=5, d2o=5)
    genome = evo.schema.encode(record)

    class Identical(M.MnkGA):
        def start(self, rng):
            state = super().start(rng)
            state["population"] = np.tile(genome, (3, 1))
            return state

    monkeypatch.setattr(M, "write_results", lambda evo, state, folder: None)  # no pictures needed here
    folder = RunFolder.create(tmp_path / "r", "mnk", config)
    run_evolution(Identical(config), folder)
    log = folder.read_log()
    assert len(log) == 2 and all(r["draw_share"] == 1.0 for r in log) and log[-1]["draw_streak"] == 2


def test_round_robin_results_do_not_depend_on_the_executor():
    config = _config(population=6)
    evo = M.make(config)
    state = evo.start(np.random.default_rng(9))
    from evoplay.arena import round_robin

    agents = [evo.agent(bits, f"g{i}") for i, bits in enumerate(state["population"])]
    serial = round_robin(evo.game, agents, 1, seed=4, executor=SerialExecutor(), round_key=2)
    with ProcessExecutor(2) as ex:
        parallel = round_robin(evo.game, agents, 1, seed=4, executor=ex, round_key=2)
    assert serial.records == parallel.records and len(serial.records) == 30


def test_cli_evolve_and_report(tmp_path):
    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["evolve", "mnk", "--generations", "1", "--population", "3", "--out", str(out),
                                  "--backend", "serial", "--set", "baselines.games=2", "--set",
                                  "baselines.final_games=2"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["report", str(out)], catch_exceptions=False)
    assert "best genome" in r.output
    r = CliRunner().invoke(main, ["evolve", "mnk", "--set", "breeding.crossover=uniformm", "--out",
                                  str(tmp_path / "x")])
    assert r.exit_code == 2 and "did you mean 'uniform'" in r.output


def _positions(game, count, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        s = game.new_initial_state()
        for _ in range(int(rng.integers(0, 14))):
            legal = s.legal_actions()
            trial = s.clone()
            trial.apply_action(legal[int(rng.integers(len(legal)))])
            if trial.is_terminal():
                break
            s = trial
        out.append(s)
    return out


@pytest.mark.parametrize("config_changes", [{}, {"search.streaks": "live"}, {"game": "kalah"}])
def test_exports_choose_the_agents_moves(tmp_path, config_changes):
    from evoplay.agents.weights import weights_document

    changes = dict(config_changes)
    if changes.get("game") == "kalah":
        shipped = load_config("mnk", M.Path(M.__file__).with_name("mnk_kalah.toml"))
        config = shipped
        config["search"]["depth"] = 3
    else:
        config = _config(**changes)
    evo = M.make(config)
    folder = RunFolder.create(tmp_path / "r", "mnk", config)
    bits = evo.schema.random(1, np.random.default_rng(8))[0]
    if evo.game.name == "kalah":  # keep the Python reference quick: a shallow genome depth
        record = evo.schema.decode(bits)
        record["search_depth"] = 3
        bits = evo.schema.encode(record)
    folder.write_json("best.json", weights_document(evo.game, evo.schema, bits, streaks=config["search"]["streaks"],
                                                    schedule="empty_cells", depth=3, round=0, fitness=1))
    agent = evo.agent(bits, "best")
    namespace: dict = {}
    exec(compile(M.export(folder, "python").read_text(), "best.py", "exec"), namespace)
    lupa = pytest.importorskip("lupa")
    lua = lupa.LuaRuntime()
    module = lua.execute(M.export(folder, "lua").read_text())
    for s in _positions(evo.game, 12, 5):
        board = s.board().tolist()
        expected = agent.step(s)
        assert namespace["choose_move"](board, s.current_player()) == expected
        assert module.choose_move(lua.table_from(board), s.current_player()) == expected
    with pytest.raises(Exception, match="unknown language"):
        M.export(folder, "rust")


def test_hosts_count_in_the_fitness():
    config = _config(population=3, **{"fitness.hosts": ["random"], "fitness.host_games": 4, "baselines.every": 0})
    evo = M.make(config)
    state = evo.start(np.random.default_rng(2))
    state, record = evo.step(state, 0, SerialExecutor())
    assert record["games"] == 6 and record["host_games"] == 12  # 3 competitors x 1 host x 4 games
    assert record["host_wins"] + record["host_draws"] + record["host_losses"] == 12
    # The population's total fitness: the round robin's (1 per decisive game, 2 per draw) plus the host games'.
    round_robin_total = record["games"] * (1 + record["draw_share"])
    host_total = 5 * record["host_wins"] + record["host_draws"] - 4 * record["host_losses"]
    assert record["mean"] * 3 == pytest.approx(round_robin_total + host_total)


def test_champion_is_the_round_best_that_did_best_against_the_baselines():
    evo = M.make(_config())
    rng = np.random.default_rng(1)
    genomes = evo.schema.random(3, rng)

    def round_record(g, bits, vs_random):
        return {"generation": g, "best": 10 + g, "best_params": evo.schema.decode(bits),
                "baselines": {"random": {"fitness": vs_random}, "initial best": {"fitness": 99}}}

    log = [round_record(0, genomes[0], 20), round_record(1, genomes[1], 50), round_record(2, genomes[2], 50)]
    state = {"best": {"genome": genomes[2], "round": 2, "fitness": 12, "wins": 1, "draws": 0, "losses": 0}}
    log[2]["baselines"]["random"]["fitness"] = 30
    chosen = M.choose_champion(evo, state, log)
    assert chosen["round"] == 1 and (chosen["genome"] == genomes[1]).all() and chosen["baseline_fitness"] == 50
    log[2]["baselines"]["random"]["fitness"] = 50  # a tie goes to the later round, here the last one
    assert M.choose_champion(evo, state, log)["round"] == 2
    evo.config["baselines"]["choose"] = "last"
    log[2]["baselines"]["random"]["fitness"] = 0
    assert M.choose_champion(evo, state, log)["chosen_by"] == "last"
