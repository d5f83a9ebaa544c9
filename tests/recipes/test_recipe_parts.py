"""The parts the seed recipes share: the opponent memo's chunks, pools and logs, the score cache, the report
tables and the Kalah export template's parts."""
import numpy as np
import pytest

from evoplay import gp
from evoplay import memo as memo_module
from evoplay.arena.executors import SerialExecutor
from evoplay.evolve.reports import fitness_stats, seat_summary, wdl
from evoplay.evolve.score_cache import ScoreCache

PSET = gp.seed003_primitive_set()


@pytest.mark.parametrize("n,size,workers", [(1, 64, 1), (10, 3, 1), (10, 64, 4), (7, 0, 2), (100, 64, 2)])
def test_chunks_cover_every_game_once_with_a_task_per_worker(n, size, workers):
    bounds = memo_module.chunks(n, size, workers)
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    assert all(a < b for a, b in bounds) and all(b == c for (_, b), (c, _) in zip(bounds, bounds[1:]))
    assert len(bounds) >= min(n, workers)


def test_tasks_carry_only_their_programs_renumbered():
    rng = np.random.default_rng(3)
    programs = [gp.grow(PSET, rng, 4, function_probability=0.5) for _ in range(9)]
    first, second = np.array([8, 2, 2, 5, 0]), np.array([1, 8, 3, 3, 7])
    tasks = memo_module.program_tasks(programs, {"first": first, "second": second}, {"tag": np.arange(5)},
                                      {"board": np.zeros(14)}, 2, SerialExecutor())
    seen = 0
    for task in tasks:
        ops, args, consts, starts, ends = task["pool"]
        n = len(task["first"])
        for g in range(n):
            for local, wanted in ((task["first"][g], first[seen + g]), (task["second"][g], second[seen + g])):
                a, b = starts[local], ends[local]
                assert (ops[a:b] == programs[wanted].opcodes).all()
        assert (task["tag"] == np.arange(seen, seen + n)).all() and task["board"].shape == (14,)
        assert len(starts) == len(np.unique(np.concatenate([first[seen:seen + n], second[seen:seen + n]])))
        seen += n
    assert seen == 5


def test_distinct_rows_counts_like_unique():
    rows = np.random.default_rng(1).integers(0, 4, (200, 2))
    assert memo_module.distinct_rows(rows) == len(np.unique(rows, axis=0))
    assert memo_module.distinct_rows(np.zeros((0, 2), np.int64)) == 0


def test_a_shared_memo_merges_what_the_tasks_searched():
    key = ("test memo", 1)
    memo_module.clear_memos()
    shared = memo_module.SharedMemo(key)
    results = [{"log": np.array([[1, 2, 3], [4, 5, 6]]), "decided": np.array([[1, 2], [4, 5], [1, 2]]), "hits": 1,
                "searches": 2},
               {"log": np.zeros((0, 3), np.int64), "decided": np.array([[4, 5]]), "hits": 1, "searches": 0}]
    shared.absorb(results)
    assert dict(memo_module.process_memo(key)) == {(1, 2): 3, (4, 5): 6}
    assert (shared.decisions, shared.distinct, shared.hits, shared.searches) == (4, 2, 2, 2)  # (1, 2) and (4, 5), twice each
    assert len(shared.shared) == 2 and len(shared.__getstate__()["shared"]) == 0
    worker = memo_module.worker_memo(("another", 1), shared.shared)
    assert dict(worker) == {(1, 2): 3, (4, 5): 6}
    log, log_n = memo_module.new_log(1)
    log_n[0] = 2
    with pytest.raises(RuntimeError, match="more than the log holds"):
        memo_module.task_log(log, log_n, "a test")
    memo_module.clear_memos()


def test_the_score_cache_plays_each_new_program_once_and_survives_a_checkpoint():
    rng = np.random.default_rng(2)
    programs = [gp.grow(PSET, rng, 4, function_probability=0.5) for _ in range(4)]
    played = []

    def play(unique):
        played.append(len(unique))
        return np.array([[p.size, 2 * p.size] for p in unique])

    cache = ScoreCache()
    population = programs + programs[:2]
    out = cache.scores(population, 3, play)
    assert played == [len({p.key() for p in programs})]
    assert (out[:, 0] == [p.size for p in population]).all() and (out[:, 1] == 2 * out[:, 0]).all()
    cache.scores(programs, 3, play)
    assert len(played) == 1 and cache.size(3) == len({p.key() for p in programs})
    restored = ScoreCache()
    restored.restore(cache.encode())
    assert restored.tables == cache.tables
    assert (restored.scores(population, 3, play) == out).all() and len(played) == 1
    cache.scores(programs, 3, play, use_cache=False)
    assert len(played) == 2


def test_the_score_cache_checkpoints_digests_grows_them_and_reads_an_older_checkpoints_whole_keys():
    from evoplay.evolve import checkpoint
    from evoplay.evolve.score_cache import DIGEST_BYTES

    rng = np.random.default_rng(5)
    programs = [gp.grow(PSET, rng, 6, function_probability=0.9) for _ in range(30)]

    def play(unique):
        return np.array([[p.size, -p.size] for p in unique])

    cache = ScoreCache()
    cache.scores(programs[:10], 8, play)
    first = cache.encode()["8"]
    assert first["digests"].shape == (cache.size(8), DIGEST_BYTES) and first["scores"].shape == (cache.size(8), 2)
    cache.scores(programs, 8, play)
    grown = cache.encode()["8"]
    assert (grown["digests"][: len(first["digests"])] == first["digests"]).all() and len(grown["digests"]) == cache.size(8)
    # through a real checkpoint file and back
    _, state = checkpoint.loads(checkpoint.dumps({"format": 1}, {"cache": cache.encode()}), "test")
    back = ScoreCache()
    back.restore(state["cache"])
    assert back.tables == cache.tables
    # a checkpoint of an older evoplay: the programs' whole arrays as keys
    keys = [p.key() for p in dict.fromkeys(programs)]
    old = {"8": {"keys": np.frombuffer(b"".join(keys), np.uint8).copy(), "ends": np.cumsum([len(k) for k in keys]),
                 "scores": play(list(dict.fromkeys(programs)))}}
    older = ScoreCache()
    older.restore(old)
    assert older.tables == cache.tables


def test_report_tables():
    assert fitness_stats([1.0, 3.0, 2.0]) == {"best": 3.0, "mean": 2.0, "worst": 1.0, "median": 2.0,
                                              "std": pytest.approx(np.std([1, 3, 2]))}
    assert wdl([3, 2, 1], [1, 2, 3]) == [1, 1, 1]
    s = seat_summary([30, 20], [18, 28], [25], [23])
    assert s["first"] == 25.0 and s["second_opponent"] == 23.0 and s["first_wdl"] == [1, 0, 1]


def test_the_kalah_template_has_every_part_the_players_use():
    from evoplay.games.kalah import export

    for lang in export.LANGUAGES:
        body, parts = export.template(lang)
        assert "${evaluation}" in body and "${choose}" in body
        assert {"program_leaf", "weighted_features", "choose_move"} | set(export._ENTRY.values()) == set(parts)
