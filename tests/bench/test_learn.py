"""evoplay bench learn: how its matchups count, how the issue's targets are judged, and its refusal of a typo."""
from __future__ import annotations

import pytest

from evoplay.bench.learn import SUITE, Matchup, bench_learn, figures
from evoplay.errors import SpecError


def test_a_matchup_counts_draws_half_and_gives_a_wilson_interval():
    m = Matchup("random", wins=6, draws=2, losses=2, own_ms=[90.0, 110.0], their_ms=[1.0, 3.0])
    row = m.to_dict()
    assert row["games"] == 10 and row["win_rate"] == 0.7
    lo, hi = row["ci95"]
    assert lo < 0.7 < hi and 0.0 <= lo and hi <= 1.0
    assert row["ms_per_move"] == 100.0 and row["opponent_ms_per_move"] == 2.0  # the mean CPU a move


def _results(mcts_rates: list[float]) -> dict:
    def row(label, rate):
        wins = round(20 * rate)
        return Matchup(label, wins=wins, losses=20 - wins, own_ms=[100.0], their_ms=[100.0]).to_dict() | {
            "spec": label}

    return {name: {"generations": 10, "matchups": {"random": row("random", 1.0),
                                                   "alphabeta(depth=2)": row("alphabeta(depth=2)", 0.7),
                                                   "mcts": row("mcts", rate)}}
            for (name, _), rate in zip(SUITE, mcts_rates)}


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


def test_a_mistyped_suite_game_is_refused_before_anything_runs(tmp_path):
    with pytest.raises(SpecError, match="connect_four"):
        bench_learn(quick=True, out=str(tmp_path), only="conect_four")
    assert not any(tmp_path.iterdir())
