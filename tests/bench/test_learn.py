"""evoplay bench learn: how its matchups count, how the issue's targets are judged, and its refusal of a typo."""
from __future__ import annotations

import pytest

from evoplay.bench.learn import SUITE, Matchup, bench_learn, equal_time, evolve, figures, short_name
from evoplay.errors import ConfigError, SpecError


def test_a_matchup_counts_draws_half_and_gives_a_wilson_interval():
    m = Matchup("random", wins=6, draws=2, losses=2, own_ms=[90.0, 110.0], their_ms=[1.0, 3.0])
    row = m.to_dict()
    assert row["games"] == 10 and row["win_rate"] == 0.7
    lo, hi = row["ci95"]
    assert lo < 0.7 < hi and 0.0 <= lo and hi <= 1.0
    assert row["ms_per_move"] == 100.0 and row["opponent_ms_per_move"] == 2.0  # the mean CPU a move


def _results(mcts_rates: list[float], names=None) -> dict:
    def row(label, rate):
        wins = round(20 * rate)
        return Matchup(label, wins=wins, losses=20 - wins, own_ms=[100.0], their_ms=[100.0]).to_dict() | {
            "spec": label}

    return {name: {"generations": 10, "matchups": {"random": row("random", 1.0),
                                                   "alphabeta(depth=2)": row("alphabeta(depth=2)", 0.7),
                                                   "mcts": row("mcts", rate)}}
            for name, rate in zip(names or [n for n, _ in SUITE], mcts_rates)}


def test_the_targets_are_judged_per_game_and_mcts_over_the_suite():
    four = figures(_results([0.6, 0.5, 0.55, 0.9, 0.2, 0.1]))
    met = {f.name: f.met for f in four}
    assert met["othello6 vs random"] is True
    assert met["othello6 vs alphabeta(depth=2)"] is False  # 70 % is under 75 %
    assert met["othello6 vs mcts"] is None  # judged over the suite
    assert four[-1].value == 4 and four[-1].met is True
    three = figures(_results([0.6, 0.45, 0.55, 0.9, 0.2, 0.1]))
    assert three[-1].value == 3 and three[-1].met is False
    part = figures(_results([0.6, 0.5]))  # not the whole suite: the count is shown, not judged
    assert part[-1].met is None
    # six games of a user's choosing: counted, but the 4-of-6 target is the suite's
    other = figures(_results([0.6] * 6, names=["oware", "clobber", "a", "b", "c", "d"]))
    assert other[-1].value == 6 and other[-1].met is None and other[-1].target == "of 6"
    named = {f.name: f for f in other}
    assert named["oware vs mcts"].met is True and named["oware vs mcts"].target == ">= 50 %"


def test_a_mistyped_suite_game_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(SpecError, match="connect_four"):
        bench_learn(quick=True, out=str(tmp_path), only="conect_four")
    assert not any(tmp_path.iterdir())


def test_games_named_on_the_command_line_get_their_own_run_folders_and_typos_are_refused(tmp_path):
    assert short_name("openspiel:clobber(rows=5,columns=5)") == "clobber_rows5_columns5"
    assert short_name("games/my_game.py:Mine") == "my_game_Mine"
    assert short_name("kalah") == "kalah"
    with pytest.raises(SpecError, match="oware"):
        bench_learn(quick=True, specs=["openspiel:owaree"], out=str(tmp_path))
    with pytest.raises(SpecError, match="--only"):
        bench_learn(quick=True, specs=["kalah"], out=str(tmp_path), only="pig")
    with pytest.raises(SpecError, match="name each game once"):
        bench_learn(quick=True, specs=["kalah", "kalah"], out=str(tmp_path))
    assert not any(tmp_path.iterdir())


def test_an_mcts_matchup_off_the_champions_time_is_played_again_with_its_simulations_refitted():
    played = []

    def replay(opponent):
        played.append(opponent)
        return Matchup("mcts", wins=1, own_ms=[70.0], their_ms=[72.0])
    slow = Matchup("mcts", wins=0, own_ms=[70.0], their_ms=[91.0])
    matchup, opponent = equal_time(slow, "openspiel_mcts(simulations=1000)", replay, log=lambda text: None)
    assert played == ["openspiel_mcts(simulations=769)"] and opponent == played[0] and matchup.wins == 1
    close = Matchup("mcts", own_ms=[70.0], their_ms=[75.0])  # within 15 %: kept
    assert equal_time(close, "openspiel_mcts(simulations=1000)", replay)[1] == "openspiel_mcts(simulations=1000)"
    assert equal_time(slow, "uct(ms=100,clock=cpu)", replay)[1] == "uct(ms=100,clock=cpu)"  # a time budget already
    assert len(played) == 1


def test_a_rerun_of_some_games_keeps_the_other_games_rows_in_results_json(tmp_path, monkeypatch):
    import json

    from evoplay.bench import learn as bench

    (tmp_path / "results.json").write_text(json.dumps({"othello6": {"kept": True}, "kalah": {"old": True}}))

    def fake_evolve(spec, minutes, folder, workers, seed=0, settings=None):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "log.jsonl").write_text(json.dumps({"ladder": "random"}) + "\n")
        (folder / "best.json").write_text(json.dumps({"play": {"ms": 100.0}}))
        return folder / "best.json"
    monkeypatch.setattr(bench, "evolve", fake_evolve)
    monkeypatch.setattr(bench, "calibrated_mcts", lambda *a, **k: "random")
    monkeypatch.setattr(bench, "play_matchup", lambda *a, **k: Matchup("x", wins=1, own_ms=[1.0], their_ms=[1.0]))
    results = bench.learn(0.1, 1, tmp_path, workers=1, names=("kalah",), log=lambda text: None)
    written = json.loads((tmp_path / "results.json").read_text())
    assert set(results) == {"kalah"} and written["othello6"] == {"kept": True}
    assert written["kalah"]["matchups"]["random"]["wins"] == 1  # this call's row replaces the old one


def test_settings_change_the_defaults_and_a_folder_of_other_settings_is_refused(tmp_path):
    with pytest.raises(SpecError, match="sets the game"):
        bench_learn(quick=True, specs=["kalah"], out=str(tmp_path), settings=("game=kalah",))
    with pytest.raises(ConfigError, match="unknown key 'nope'"):
        bench_learn(quick=True, specs=["kalah"], out=str(tmp_path), settings=("nope=1",))
    assert not any(tmp_path.iterdir())
    quick = {"population": 6, "genome.start": "zero", "report.games": 1, "report.playoff": 0,
             "report.play_games": 0}
    best = evolve("openspiel:tic_tac_toe", 0.002, tmp_path / "ttt", 1, settings=quick)
    assert best.exists()
    assert evolve("openspiel:tic_tac_toe", 0.002, tmp_path / "ttt", 1, settings=quick) == best  # reused
    with pytest.raises(SpecError, match="population = 6, not 8"):
        evolve("openspiel:tic_tac_toe", 0.002, tmp_path / "ttt", 1, settings={**quick, "population": 8})
