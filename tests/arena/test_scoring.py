"""The arena's scoring and schedules, on hand-made game records: outcomes, tables, the JSON report, seeds."""
import json

import numpy as np
import pytest

from evoplay import load_game, make_agent
from evoplay.arena import derive_seed, gauntlet, match, round_robin, wilson_interval
from evoplay.arena.executors import Executor
from evoplay.arena.match import GameRecord
from evoplay.arena.tournament import (
    AgentStats, Pairing, TournamentResult, gauntlet_pairings, match_pairings, play_schedule, round_robin_pairings,
)
from evoplay.errors import SpecError

# a beats b, a and b draw, c beats a, c beats b; d never plays
RECORDS = [
    GameRecord((0, 1), (1.0, -1.0), (30.0, 18.0), 40, 11),
    GameRecord((1, 0), (0.0, 0.0), (24.0, 24.0), 50, 12),
    GameRecord((0, 2), (-1.0, 1.0), (10.0, 38.0), 30, 13),
    GameRecord((2, 1), (1.0, -1.0), (40.0, 8.0), 20, 14),
]
RESULT = TournamentResult(["a", "b", "c", "d"], RECORDS, 9)


def test_stats_count_outcomes_per_seat_and_scores_for_and_against():
    a, b, c, d = RESULT.stats()
    assert (a.wins, a.draws, a.losses, a.by_seat) == (1, 1, 1, {0: [1, 0, 1], 1: [0, 1, 0]})
    assert (b.wins, b.draws, b.losses, b.by_seat) == (0, 1, 2, {0: [0, 1, 0], 1: [0, 0, 2]})
    assert (c.wins, c.draws, c.losses, c.by_seat) == (2, 0, 0, {0: [1, 0, 0], 1: [1, 0, 0]})
    assert (a.score, a.score_against) == (64.0, 80.0)
    assert (b.score, b.score_against) == (50.0, 94.0)
    assert (c.score, c.score_against) == (78.0, 18.0)
    assert (d.games, d.by_seat) == (0, {})


def test_a_game_of_more_seats_has_one_winner_or_shares_the_draw():
    recs = [GameRecord((0, 1, 2), (-1.0, 1.0, 1.0), (0.0, 5.0, 5.0), 9, 1),  # 1 and 2 share the best: draws
            GameRecord((2, 0, 1), (2.0, 0.5, -1.0), (9.0, 3.0, 1.0), 9, 2)]  # 2 alone best: a win, others lose
    a, b, c = TournamentResult(["a", "b", "c"], recs, 0).stats()
    assert (a.wins, a.draws, a.losses) == (0, 0, 2)
    assert (b.wins, b.draws, b.losses) == (0, 1, 1)
    assert (c.wins, c.draws, c.losses) == (1, 1, 0)
    assert c.by_seat == {2: [0, 1, 0], 0: [1, 0, 0]}
    assert a.score_against == 10.0 + 10.0


def test_fitness_is_seed_001s_and_win_rate_counts_half_draws():
    s = AgentStats(wins=2, draws=3, losses=1)
    assert s.games == 6
    assert s.fitness() == 5 * 2 + 3 - 4 * 1
    assert s.fitness(win=3, draw=0.5, loss=-1) == 6 + 1.5 - 1
    assert s.win_rate() == (2 + 1.5) / 6
    assert AgentStats().win_rate() == 0.0


def test_pair_table_counts_each_pair_from_both_sides_and_skips_games_of_more_seats():
    recs = [GameRecord((0, 1, 2), (1.0, 0.0, 0.0), (1.0, 0.0, 0.0), 3, 15)] + RECORDS + RECORDS[:1]
    table = TournamentResult(["a", "b", "c", "d"], recs, 9).pair_table()
    assert table.shape == (4, 4, 3) and table.dtype == np.int64
    assert table[0, 1].tolist() == [2, 1, 0] and table[1, 0].tolist() == [0, 1, 2]
    assert table[0, 2].tolist() == [0, 0, 1] and table[2, 0].tolist() == [1, 0, 0]
    assert table[2, 1].tolist() == [1, 0, 0] and table[1, 2].tolist() == [0, 0, 1]
    assert table[3].sum() == 0 and table.sum() == 2 * (len(RECORDS) + 1)


def test_report_dict_and_json():
    want = {
        "seed": 9, "games": 4, "agents": [
            {"name": "a", "wins": 1, "draws": 1, "losses": 1, "games": 3, "win_rate": 0.5,
             "ci95": [0.125331, 0.874669], "fitness": 2, "mean_score": 21.333333,
             "by_seat": {"0": {"wins": 1, "draws": 0, "losses": 1}, "1": {"wins": 0, "draws": 1, "losses": 0}}},
            {"name": "b", "wins": 0, "draws": 1, "losses": 2, "games": 3, "win_rate": 0.166667,
             "ci95": [0.017652, 0.690018], "fitness": -7, "mean_score": 16.666667,
             "by_seat": {"0": {"wins": 0, "draws": 1, "losses": 0}, "1": {"wins": 0, "draws": 0, "losses": 2}}},
            {"name": "c", "wins": 2, "draws": 0, "losses": 0, "games": 2, "win_rate": 1.0,
             "ci95": [0.342372, 1.0], "fitness": 10, "mean_score": 39.0,
             "by_seat": {"0": {"wins": 1, "draws": 0, "losses": 0}, "1": {"wins": 1, "draws": 0, "losses": 0}}},
            {"name": "d", "wins": 0, "draws": 0, "losses": 0, "games": 0, "win_rate": 0.0,
             "ci95": [0.0, 1.0], "fitness": 0, "mean_score": 0.0, "by_seat": {}},
        ],
    }
    assert RESULT.to_dict() == want
    text = RESULT.to_json()
    assert json.loads(text) == want
    assert text.startswith('{\n  "seed": 9,\n  "games": 4,\n  "agents": [\n    {\n      "name": "a"')
    assert list(want["agents"][0]["by_seat"]) == list(RESULT.to_dict()["agents"][0]["by_seat"])


def test_wilson_interval_matches_the_published_values_and_stays_in_0_1():
    lo, hi = wilson_interval(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson_interval(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    assert wilson_interval(5, 5)[1] == 1.0  # the formula gives 1 + 1e-16 here
    assert wilson_interval(0, 5)[0] == 0.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo99, hi99 = wilson_interval(50, 100, z=2.576)  # a 99 % interval is wider
    assert (round(lo99, 4), round(hi99, 4)) == (0.3753, 0.6247)


def test_pairings_and_their_seed_keys():
    assert round_robin_pairings(3, 2, round_key=7) == [
        Pairing((0, 1), 2, (7, 0, 1)), Pairing((0, 2), 2, (7, 0, 2)), Pairing((1, 0), 2, (7, 1, 0)),
        Pairing((1, 2), 2, (7, 1, 2)), Pairing((2, 0), 2, (7, 2, 0)), Pairing((2, 1), 2, (7, 2, 1))]
    three = round_robin_pairings(4, 1, round_key=2, seats=3)
    assert len(three) == 24 and three[0] == Pairing((0, 1, 2), 1, (2, 0, 1, 2))
    assert three[-1] == Pairing((3, 2, 1), 1, (2, 3, 2, 1))
    assert round_robin_pairings(3, 1, seats=3)[0] == Pairing((0, 1, 2), 1, (0, 0, 1, 2))
    with pytest.raises(SpecError) as err:
        round_robin_pairings(2, 1, seats=3)
    assert str(err.value) == ("a round robin of a 3-seat game needs at least 3 agents (got 2); the same spec may "
                              "be given more than once")
    assert match_pairings(5) == [Pairing((0, 1), 3, (0, 0, 1)), Pairing((1, 0), 2, (0, 1, 0))]
    assert match_pairings(4) == [Pairing((0, 1), 2, (0, 0, 1)), Pairing((1, 0), 2, (0, 1, 0))]
    assert match_pairings(1) == [Pairing((0, 1), 1, (0, 0, 1))]
    assert gauntlet_pairings(2, 2, 3, round_key=4) == [
        Pairing((0, 2), 3, (4, 0, 2)), Pairing((2, 0), 3, (4, 2, 0)), Pairing((0, 3), 3, (4, 0, 3)),
        Pairing((3, 0), 3, (4, 3, 0)), Pairing((1, 2), 3, (4, 1, 2)), Pairing((2, 1), 3, (4, 2, 1)),
        Pairing((1, 3), 3, (4, 1, 3)), Pairing((3, 1), 3, (4, 3, 1))]


TTT = load_game("mnk(m=3,n=3,k=3)")


class RecordingExecutor(Executor):
    """A parallel executor played in this process, remembering the task sizes it was given."""

    name = "recording"

    def __init__(self, workers, warm):
        self.workers = workers
        self.warm = warm
        self.sizes = []

    @property
    def needs_warmup(self):
        return self.warm

    def map(self, fn, items, on_done=None):
        self.sizes = [len(t.games) for t in items]
        return super().map(fn, items, on_done)


def test_match_and_gauntlet_seed_each_game_from_its_pairing_key():
    agents = [make_agent("random", TTT), make_agent("random", TTT)]
    res = match(TTT, *agents, games=3, seed=5)
    assert [(r.seats, r.seed) for r in res.records] == [
        ((0, 1), derive_seed(5, 0, 0, 1, 0)), ((0, 1), derive_seed(5, 0, 0, 1, 1)), ((1, 0), derive_seed(5, 0, 1, 0, 0))]
    seen = []
    ex = RecordingExecutor(2, warm=False)
    res = gauntlet(TTT, agents[:1], agents[1:], games_per_pair=2, seed=3, round_key=6, executor=ex,
                   progress=lambda done, total: seen.append((done, total)))
    assert [(r.seats, r.seed) for r in res.records] == [
        ((0, 1), derive_seed(3, 6, 0, 1, 0)), ((0, 1), derive_seed(3, 6, 0, 1, 1)),
        ((1, 0), derive_seed(3, 6, 1, 0, 0)), ((1, 0), derive_seed(3, 6, 1, 0, 1))]
    assert ex.sizes == [1, 1, 1, 1] and seen == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]
    assert gauntlet(TTT, agents[:1], agents[1:], seed=3).records[0].seed == derive_seed(3, 0, 0, 1, 0)
    seen.clear()
    match(TTT, *agents, games=2, seed=5, executor=RecordingExecutor(1, warm=False),
          progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 2), (1, 2), (2, 2)]


def test_a_parallel_schedule_warms_up_on_one_game_then_cuts_the_rest_into_tasks_per_worker():
    agents = [make_agent("random", TTT), make_agent("random", TTT)]
    pairings = round_robin_pairings(2, 10)
    serial = play_schedule(TTT, agents, pairings, seed=1)
    seen = []
    ex = RecordingExecutor(2, warm=True)
    res = play_schedule(TTT, agents, pairings, seed=1, executor=ex, progress=lambda d, t: seen.append((d, t)))
    assert res.records == serial.records
    assert sum(ex.sizes) == 19 and len(ex.sizes) == 8  # 2 workers x 4 tasks each, after the warm-up game
    assert seen[:2] == [(0, 20), (1, 20)] and seen[-1] == (20, 20)
    ex = RecordingExecutor(3, warm=False)
    play_schedule(TTT, agents, pairings, seed=1, executor=ex, tasks_per_worker=2)
    assert ex.sizes == [3, 3, 4, 3, 3, 4]  # contiguous, as even as whole games allow
    empty = play_schedule(TTT, agents, [], seed=1, progress=lambda d, t: seen.append((d, t)))
    assert (empty.records, empty.names, seen[-1]) == ([], ["random", "random"], (0, 0))


def test_two_seat_schedules_name_themselves_in_the_error():
    game = load_game("sevens(players=3)")
    a, b = make_agent("random", game), make_agent("random", game)
    for play, what in ((lambda: match(game, a, b), "a match"), (lambda: gauntlet(game, [a], [b]), "a gauntlet")):
        with pytest.raises(SpecError) as err:
            play()
        assert str(err.value) == (f"{what} seats two agents, but sevens(players=3) has 3 seats; play a round robin "
                                  f"(evoplay tournament sevens(players=3) A B C ...), which seats every ordering "
                                  f"of distinct agents")


def test_defaults_one_game_per_pairing_seed_0_round_0():
    assert round_robin_pairings(2) == [Pairing((0, 1), 1, (0, 0, 1)), Pairing((1, 0), 1, (0, 1, 0))]
    assert gauntlet_pairings(1, 1, 2) == [Pairing((0, 1), 2, (0, 0, 1)), Pairing((1, 0), 2, (0, 1, 0))]
    agents = [make_agent("random", TTT), make_agent("random", TTT)]
    want = [((0, 1), derive_seed(0, 0, 0, 1, 0)), ((1, 0), derive_seed(0, 0, 1, 0, 0))]
    for res in (round_robin(TTT, agents), match(TTT, *agents), gauntlet(TTT, agents[:1], agents[1:]),
                play_schedule(TTT, agents, round_robin_pairings(2))):
        assert [(r.seats, r.seed) for r in res.records] == want
        assert res.seed == 0


def test_every_schedule_plays_on_the_executor_it_is_given():
    agents = [make_agent("random", TTT), make_agent("random", TTT)]
    for play in (lambda ex: round_robin(TTT, agents, 2, seed=4, executor=ex),
                 lambda ex: match(TTT, *agents, games=4, seed=4, executor=ex)):
        ex = RecordingExecutor(2, warm=False)
        res = play(ex)
        assert sum(ex.sizes) == 4 and res.seed == 4


def test_serial_play_reports_progress_after_each_game_up_to_64_steps():
    agents = [make_agent("random", TTT), make_agent("random", TTT)]
    seen = []
    play_schedule(TTT, agents, round_robin_pairings(2, 10), seed=2, progress=lambda d, t: seen.append(d))
    assert seen == list(range(21))
    seen.clear()
    play_schedule(TTT, agents, round_robin_pairings(2, 50), seed=2, progress=lambda d, t: seen.append(d))
    assert len(seen) == 1 + 64 and seen[-1] == 100  # 100 games in 64 tasks


def test_a_parallel_executor_is_not_used_for_a_single_game_and_warms_up_on_the_first_of_two():
    agents = [make_agent("random", TTT), make_agent("random", TTT)]
    one = RecordingExecutor(2, warm=True)
    play_schedule(TTT, agents, match_pairings(1), seed=3, executor=one)
    assert one.sizes == [1]  # one game: played as one task, nothing to warm up for
    two = RecordingExecutor(2, warm=True)
    res = play_schedule(TTT, agents, match_pairings(2), seed=3, executor=two)
    assert two.sizes == [1] and len(res.records) == 2  # the first game warmed up here, the second on the pool
    none = RecordingExecutor(2, warm=False)
    play_schedule(TTT, agents, match_pairings(6), seed=3, executor=none, tasks_per_worker=0)
    assert none.sizes == [6]  # fewer than one task per worker still makes one task
