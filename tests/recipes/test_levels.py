"""Difficulty levels of the gp and ga recipes on any game (``evolve gp|ga --levels``): candidates kept in the run's
state, the closing round robin, levels.json's contract, ``level(RUN,NAME)``, the report's ladder, resume."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from evoplay.agents import make_agent
from evoplay.errors import ConfigError, SpecError
from evoplay.evolve import RunFolder, load_config, run_evolution
from evoplay.recipes import levels as lv
from evoplay.recipes import load_recipe

GAME = "mnk(m=3,n=3,k=3)"
#: a run as small as it goes: five generations of four, one game a pairing, a node budget (reproducible moves)
SMALL = {"game": GAME, "generations": 5, "population": 4, "minutes": 0.0, "fitness.games": 1, "report.games": 1,
         "report.play_games": 0, "play.ms": 0.0, "play.nodes": 40, "levels.games": 1, "levels.candidates": 5,
         "genome.start_games": 20, "program.base_games": 20}


def small_config(recipe: str, **more):
    values = {k: v for k, v in SMALL.items() if k.split(".")[0] in load_config(recipe)}
    return load_config(recipe, None, {**values, **more})


def levels_run(path, recipe: str, stop_after: int | None = None, **more) -> RunFolder:
    config = small_config(recipe, **more)
    folder = RunFolder.create(path, recipe, config, {"levels": True})
    run_evolution(load_recipe(recipe).make(config, levels=True), folder, stop_after=stop_after)
    return folder


def played(label: str, best: dict) -> dict:
    """How a candidate plays: as best.json, or the champion within a share of its nodes (of 40: 1, 4 and 12)."""
    return {**best["play"], "nodes": {"at 1 % of its budget": 1, "at 10 % of its budget": 4,
                                      "at 30 % of its budget": 12}.get(label, best["play"]["nodes"])}


@pytest.fixture(scope="module", params=["ga", "gp"])
def run(request, tmp_path_factory):
    # gp: programs alone (with a fitted base the constant 0 wins these few generations: one candidate, kept once)
    more = {"program.base": "none"} if request.param == "gp" else {}
    return levels_run(tmp_path_factory.mktemp(request.param) / "run", request.param, **more)


def test_levels_json_keeps_its_contract_and_its_players_are_best_json_documents(run):
    levels = json.loads(run.file("levels.json").read_text(encoding="utf-8"))
    names = list(levels)
    assert names == ["easy", "medium", "hard", "expert"][: len(names) - 1] + ["expert"] and len(names) >= 2
    best = run.read_json("best.json")
    for k, (name, e) in enumerate(levels.items()):
        assert {"player", "rating", "sigma", "generation", "beats_below"} <= set(e)
        assert e["player"] == f"levels/{name}.json" and (run.path / e["player"]).is_file()
        assert isinstance(e["rating"], float) and e["sigma"] > 0 and isinstance(e["generation"], int)
        assert (e["beats_below"] is None) == (k == 0)
        doc = json.loads((run.path / e["player"]).read_text(encoding="utf-8"))
        assert doc["format"] == best["format"] and doc["game"] == best["game"]
        assert doc["play"] == played(e["candidate"], best)
        assert doc["features"] == best["features"]
    top = json.loads((run.path / levels["expert"]["player"]).read_text(encoding="utf-8"))
    assert top == {**best, "level": "expert"}  # the top level is the run's champion, exactly as best.json
    assert levels["expert"]["generation"] == best["generation"]
    # each level is rated above the one below it, or at least scored half its games against it
    for lower, upper in zip(names, names[1:]):
        assert levels[upper]["rating"] >= levels[lower]["rating"] or levels[upper]["beats_below"] >= 0.5


def test_the_round_robin_plays_every_candidate_as_best_json_plays(run):
    table = json.loads(run.file("levels/round_robin.json").read_text(encoding="utf-8"))
    labels = [c["label"] for c in table["candidates"]]
    # levels.candidates = 5: the first generation, the champion within 1, 10 and 30 % of its nodes, the champion
    assert labels == ["g0", "at 1 % of its budget", "at 10 % of its budget", "at 30 % of its budget", "champion"]
    assert table["played"] == len(labels) * (len(labels) - 1)  # levels.games = 1: every ordered pair once
    best = run.read_json("best.json")
    for c in table["candidates"]:
        doc = json.loads((run.path / c["player"]).read_text(encoding="utf-8"))
        assert doc["play"] == played(c["label"], best)


@pytest.mark.parametrize("level", ["easy", "expert"])
def test_level_plays_the_levels_file_as_gp_or_weights_does(run, level):
    kind = "gp" if run.recipe == "gp" else "weights"
    agent = make_agent(f"level({run.path},{level})", GAME)
    same = make_agent(f"{kind}({run.path / 'levels' / (level + '.json')})", GAME)
    assert agent.spec == f"level(run={run.path},level={level})"
    assert agent.describe() == same.describe()
    state = agent.game.new_initial_state()
    for seat in (0, 1):
        agent.restart(3, seat)
        same.restart(3, seat)
        assert agent.step(state.clone()) == same.step(state.clone())
        state.apply_action(state.legal_actions()[0])


def test_level_errors_name_the_levels_there_are(run, tmp_path):
    with pytest.raises(SpecError, match=r"has no level 'nightmare'; its levels: easy, .*expert"):
        make_agent(f"level({run.path},nightmare)", GAME)
    with pytest.raises(SpecError, match="has no levels.json"):
        make_agent(f"level({tmp_path},easy)", GAME)
    with pytest.raises(SpecError, match="no run folder"):
        make_agent(f"level({tmp_path / 'nowhere'},easy)", GAME)
    (tmp_path / "levels.json").write_text(json.dumps({"easy": {"player": "../best.json"}}), encoding="utf-8")
    with pytest.raises(SpecError, match="outside the run folder"):
        make_agent(f"level({tmp_path},easy)", GAME)
    (tmp_path / "levels.json").write_text(json.dumps({"easy": {"info": {}}}), encoding="utf-8")
    with pytest.raises(SpecError, match="names no player file"):
        make_agent(f"level({tmp_path},easy)", GAME)


def test_the_report_prints_the_ladder(run):
    text = load_recipe(run.recipe).report(run)
    levels = json.loads(run.file("levels.json").read_text(encoding="utf-8"))
    assert "| level | candidate | generation | rating (mu ± sigma) | against the level below |" in text
    for name, e in levels.items():
        below = "-" if e["beats_below"] is None else f"{100 * e['beats_below']:.0f} % of {e['games']} games"
        assert f"| {name} | {e['candidate']} | {e['generation']} | {e['rating']:.2f} ± {e['sigma']:.2f} | {below} |" \
            in text
    assert f"--vs 'level({run.path},expert)'" in text


def test_the_report_says_plainly_when_levels_are_not_65_percent_apart(run, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(run.path, copy)
    folder = RunFolder.open(copy)
    levels = json.loads(folder.file("levels.json").read_text(encoding="utf-8"))
    names = list(levels)
    shares = [None, 0.55, 0.9, 0.8][: len(names)]
    for name, share in zip(names, shares):
        levels[name]["beats_below"] = share
    folder.file("levels.json").write_text(json.dumps(levels), encoding="utf-8")
    text = load_recipe(folder.recipe).report(folder)
    assert f"short of 65 % between neighbours: {names[1]} scores 55 % against {names[0]}" in text
    levels[names[1]]["beats_below"] = 0.7
    folder.file("levels.json").write_text(json.dumps(levels), encoding="utf-8")
    assert "short of" not in load_recipe(folder.recipe).report(folder)
    two = {"easy": levels[names[0]], "expert": levels["expert"]}
    folder.file("levels.json").write_text(json.dumps(two), encoding="utf-8")
    assert ("2 levels, not the 4 configured: the candidates gave no more (left out: medium, hard)"
            in load_recipe(folder.recipe).report(folder))


def test_a_resumed_run_keeps_its_candidates_and_makes_the_same_levels(tmp_path):
    whole = levels_run(tmp_path / "whole", "ga")
    parts = levels_run(tmp_path / "parts", "ga", stop_after=3)
    generation, state = RunFolder.open(parts.path).load_checkpoint()
    assert generation == 3 and [c["generation"] for c in state["level_candidates"]] == [0, 1, 2]
    config = small_config("ga")
    run_evolution(load_recipe("ga").make(config, levels=True), RunFolder.open(parts.path))
    _, done = RunFolder.open(parts.path).load_checkpoint()
    assert [c["generation"] for c in done["level_candidates"]] == [0, 1, 2, 3, 4]
    assert parts.read_json("levels.json") == whole.read_json("levels.json")
    for name in parts.read_json("levels.json"):
        assert parts.read_json(f"levels/{name}.json") == whole.read_json(f"levels/{name}.json")


def test_without_levels_a_run_keeps_no_candidates_and_writes_no_levels(tmp_path):
    config = small_config("gp", generations=2)
    folder = RunFolder.create(tmp_path / "run", "gp", config)
    state = run_evolution(load_recipe("gp").make(config), folder)
    assert "level_candidates" not in state
    assert not folder.file("levels.json").exists() and not folder.file("levels").exists()
    assert "levels (" not in load_recipe("gp").report(folder)


def test_kept_generations_grow_by_half():
    assert lv.kept_generations(30) == [0, 1, 2, 3, 4, 6, 9, 13, 19, 28]
    assert [g for g in range(30) if lv.keeps(g)] == [0, 1, 2, 3, 4, 6, 9, 13, 19, 28]
    assert lv.spread(list(range(10)), 4) == [0, 3, 6, 9] and lv.spread([1, 2], 4) == [1, 2]


def _shares(strength: list[float]) -> np.ndarray:
    """Round-robin shares of players of these strengths: i scores s_i / (s_i + s_j) against j."""
    s = np.array(strength)
    share = s[:, None] / (s[:, None] + s[None, :])
    np.fill_diagonal(share, np.nan)
    return share


def test_pick_gives_levels_each_beating_the_one_below_and_the_champion_on_top():
    # strengths 1, 1.1, 2, 2.2, 4, 16 and the champion 8 (not the strongest): 1 < 2 < 4 < 8 is the one chain whose
    # every step scores two thirds; any other has a smaller step
    strength = [1, 1.1, 2, 2.2, 4, 16, 8]
    share = _shares(strength)
    chain, weakest = lv.pick(4, share, np.array(strength, dtype=float), top=6)
    assert chain == [0, 2, 4, 6] and weakest == pytest.approx(2 / 3)
    # three levels: the widest steps there are, still ending at the champion
    chain, weakest = lv.pick(3, share, np.array(strength, dtype=float), top=6)
    assert chain[-1] == 6 and weakest == pytest.approx(max(min(share[b, a] for a, b in zip(c, c[1:]))
                                                           for c in ([0, 2, 6], [0, 3, 6], [0, 4, 6], [1, 4, 6])))
    # candidates too close for 65 %: the best-separated ladder all the same, and how far apart it is
    close = [1, 1.5, 2, 3]
    chain, weakest = lv.pick(4, _shares(close), np.array(close, dtype=float), top=3)
    assert chain == [0, 1, 2, 3] and weakest == pytest.approx(2 / 3.5)


def test_the_ladder_trusts_many_games_more_than_a_few():
    # 0 beat 1 in 2 games of 2, and 2 beat 1 in 9 of 10: as the level below the champion (3, who beats both), 2 is
    # the surer step
    share = np.array([[np.nan, 1.0, 0.4, 0.1], [0.0, np.nan, 0.1, 0.2], [0.6, 0.9, np.nan, 0.15],
                      [0.9, 0.8, 0.85, np.nan]])
    games = np.array([[0, 2, 10, 10], [2, 0, 10, 10], [10, 10, 0, 10], [10, 10, 10, 0]])
    mu = np.array([20.0, 15.0, 21.0, 30.0])
    assert lv.pick(3, share, mu, top=3)[0] == [1, 0, 3]  # raw shares: 100 % beats 90 %
    assert lv.pick(3, lv.steadier(share, games), mu, top=3)[0] == [1, 2, 3]
    assert lv.steadier(share, games)[0, 1] == pytest.approx(0.75) and np.isnan(lv.steadier(share, games)[0, 0])


def test_pick_with_fewer_candidates_or_unmeasured_pairs_gives_fewer_levels():
    share = _shares([1, 3, 9])
    chain, weakest = lv.pick(4, share, np.array([1.0, 3, 9]), top=2)
    assert chain == [0, 1, 2] and weakest == pytest.approx(0.75)
    assert lv.level_names(["easy", "medium", "hard", "expert"], 3) == ["easy", "medium", "expert"]
    share[1, 0] = share[0, 1] = np.nan  # never met
    chain, _ = lv.pick(3, share, np.array([1.0, 3, 9]), top=2)
    assert len(chain) == 2 and chain[-1] == 2
    assert lv.pick(4, np.full((1, 1), np.nan), np.array([25.0]), top=0) == ([0], 1.0)


def test_pair_shares_and_ratings_from_records():
    from evoplay.arena.match import GameRecord

    records = [GameRecord((0, 1), (1.0, -1.0), (0, 0), 5, 1), GameRecord((1, 0), (0.0, 0.0), (0, 0), 9, 2),
               GameRecord((1, 0), (-1.0, 1.0), (0, 0), 7, 3)]
    share, games = lv.pair_shares(records, 3)
    assert share[0, 1] == pytest.approx(2.5 / 3) and share[1, 0] == pytest.approx(0.5 / 3)
    assert games[0, 1] == 3 and math.isnan(share[0, 2]) and games[0, 2] == 0
    mu, sigma = lv.ratings(records, 3, seed=0)
    assert mu[0] > 25.0 > mu[1] and mu[2] == 25.0 and sigma[2] > sigma[0]


def test_bad_level_settings_say_what_is_wrong():
    ga = load_recipe("ga")
    for key, value, words in (("levels.names", ["easy", "easy"], "levels.names"), ("levels.beats", 0.3, "0.5..1"),
                              ("levels.candidates", 1, "levels.candidates"), ("levels.budgets", [2.0], "budgets"),
                              ("levels.games", 0, "levels.games"), ("levels.closing", 0.8, "levels.closing")):
        with pytest.raises(ConfigError, match=words):
            ga.make(load_config("ga", None, {key: value}), levels=True)
    ga.make(load_config("ga", None, {"levels.names": ["easy", "easy"]}))  # without --levels the table is not read
    with pytest.raises(ConfigError, match="--levels only"):
        ga.make(load_config("ga", None), fast=True)


def test_levels_keep_a_larger_closing_share_of_the_time_budget():
    evo = load_recipe("gp").make(load_config("gp", None, {"levels.closing": 0.4}), levels=True)
    assert evo.closing_share == 0.4
    assert not hasattr(load_recipe("gp").make(load_config("gp", None)), "closing_share")


def test_a_round_robin_of_a_three_seat_game_seats_every_ordered_pair_with_a_third():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent.parent / "agents"))
    from three_moves import ThreeMoves

    game = ThreeMoves(lambda moves: [float(m) for m in moves])  # a 1 wins, a 0 loses, whoever plays it
    agents = [make_agent(f"random(seed={k})", game) for k in range(4)]
    records = lv.round_robin(game, agents, rounds=1, seed=5, openings=0)
    assert len(records) == 4 * 3 and all(len(set(r.seats)) == 3 for r in records)
    assert sorted(r.seats[:2] for r in records) == sorted((a, b) for a in range(4) for b in range(4) if a != b)
    share, games = lv.pair_shares(records, 4)
    assert games.sum() == 12 * 6 and (games == games.T).all()
    off = ~np.eye(4, dtype=bool)
    assert np.allclose((share + share.T)[off], 1.0)
    assert lv.round_robin(game, agents, rounds=1, seed=5, openings=0) == records  # seeded


def test_later_rounds_play_again_the_pairs_close_in_the_ratings():
    from evoplay.games import load_game
    from evoplay.seeds import derive_seed

    game = load_game(GAME)
    agents = [make_agent(s, game) for s in ("random", "alphabeta(depth=1)", "alphabeta(depth=2)", "alphabeta(depth=9)")]
    first = lv.round_robin(game, agents, rounds=1, seed=2, openings=1, near=1)
    records = lv.round_robin(game, agents, rounds=2, seed=2, openings=1, near=1)
    assert records[:12] == first and len(first) == 12  # the first round: every ordered pair
    mu, _ = lv.ratings(first, 4, seed=derive_seed(2, 1))  # the ratings round 1 is paired by
    place = {a: k for k, a in enumerate(sorted(range(4), key=lambda a: (mu[a], a)))}
    again = {frozenset(r.seats) for r in records[12:]}
    assert len(records) == 12 + 6 and all(abs(place[a] - place[b]) == 1 for a, b in map(tuple, again))
    assert len(lv.round_robin(game, agents, rounds=2, seed=2, openings=1, near=0)) == 24  # 0: every pair again


def test_a_raced_run_keeps_candidates_in_each_setting_and_the_winners_make_the_levels(tmp_path):
    folder = levels_run(tmp_path / "race", "ga", game="openspiel:tic_tac_toe", generations=6,
                        **{"player.pair_race": 0.3})
    _, state = folder.load_checkpoint()
    assert [[c["generation"] for c in arm["level_candidates"]] for arm in state["arms"]] == [[0, 1, 2, 3], [0, 1]]
    winner = ["without pair features", "with pair features"].index(folder.read_json("best.json")["race"]["winner"])
    levels = folder.read_json("levels.json")
    assert list(levels)[-1] == "expert" and len(levels) >= 2
    features = folder.read_json("best.json")["features"]
    for e in levels.values():  # every level reads the winning setting's features
        assert json.loads((folder.path / e["player"]).read_text(encoding="utf-8"))["features"] == features
    assert any(name.startswith("pair[") for name in features) == (winner == 1)


def test_candidates_of_a_champion_shipped_as_uct_play_as_uct_each_on_its_own_scale(run):
    from evoplay.agents.feature_player import document_agent

    _, state = run.load_checkpoint()
    evo = load_recipe(run.recipe).make(run.config, levels=True)
    evo.use_view(state)
    best = run.read_json("best.json")
    shipped = {**best, "play": {"search": "uct", "ms": 5.0, "prior": True, "leaf": "rollouts", "spread": 1.25}}
    players = lv.candidates(evo, state, shipped, best["generation"], lv.LevelsSpec({"candidates": 6}))
    assert [p["label"] for p in players][-4:] == ["at 1 % of its budget", "at 10 % of its budget",
                                                 "at 30 % of its budget", "champion"]
    for p in players:
        play = p["doc"]["play"]
        assert play["search"] == "uct" and play["prior"] and play["leaf"] == "rollouts"
        if p["label"].startswith("g"):  # another evaluation: its own scale, measured as the play check measures
            measured = document_agent(evo.game, {**p["doc"], "play": {k: v for k, v in play.items() if k != "spread"}},
                                      "x").evaluator.score.__self__.spread
            assert play["spread"] == pytest.approx(measured) and play["ms"] == 5.0
        else:  # the champion's evaluation, within its budget or a share of it
            assert play["spread"] == 1.25 and play["ms"] in (0.05, 0.5, 1.5, 5.0)
        assert document_agent(evo.game, p["doc"], p["label"]).describe().startswith("Monte Carlo tree search")


def test_play_and_match_take_a_level_and_a_bad_one_exits_2(run):
    from click.testing import CliRunner

    from evoplay.cli import main

    def cli(*args, input=None):
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    r = cli("match", GAME, f"level({run.path},easy)", f"level({run.path},expert)", "--games", "2", "--json",
            "--backend", "serial")
    assert r.exit_code == 0, r.output
    assert [a["name"] for a in json.loads(r.output)["agents"]] == [f"level(run={run.path},level=easy)",
                                                                    f"level(run={run.path},level=expert)"]
    r = cli("play", GAME, "--vs", f"level({run.path},hard)", "--seat", "second", input="quit\n")
    assert r.exit_code == 0 and "you stopped the game" in r.output
    r = cli("play", GAME, "--vs", f"level({run.path},nightmare)", input="quit\n")
    assert r.exit_code == 2 and "its levels: easy" in r.output
