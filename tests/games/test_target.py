"""The target-number game: draws, rules, the exact solver (Numba kernel held equal to the Python reference)."""
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay.errors import SpecError
from evoplay.games.target import game as T
from evoplay.games.target import solver as TS


def test_mojbroj_draws_follow_the_seed():
    for seed in range(200):
        d = T.make_draw(seed)
        assert len(d.numbers) == 6
        assert all(1 <= n <= 9 for n in d.numbers[:4])
        assert d.numbers[4] in (10, 15, 20) and d.numbers[5] in (25, 50, 75, 100)
        assert 100 <= d.target <= 999
    d = T.make_draw(5)  # pinned: the same seed draws the same numbers and target everywhere
    assert (d.numbers, d.target) == ((7, 8, 1, 8, 15, 75), 667)
    assert len({T.make_draw(s) for s in range(50)}) > 45


def test_countdown_draws_take_cards_without_replacement():
    for seed in range(200):
        d = T.make_draw(seed, "countdown", large=seed % 5)
        assert sum(n in (25, 50, 75, 100) for n in d.numbers) == seed % 5
        counts = Counter(d.numbers)
        assert all(counts[n] <= (1 if n >= 25 else 2) for n in counts)
    with pytest.raises(SpecError, match="0..4"):
        T.make_draw(1, "countdown", large=5)
    with pytest.raises(SpecError, match="known: mojbroj, countdown"):
        T.make_draw(1, "slagalica")


def test_known_answers():
    s = TS.solve([3, 7, 9, 1, 15, 75], 847)
    assert s.exact and T.evaluate(s.expr) == 847 and T.uses_only(s.expr, [3, 7, 9, 1, 15, 75])
    s = TS.solve([1, 1, 1, 1, 10, 25], 999)
    assert (s.value, s.distance) == (1000, 1)  # 999 = 37 * 27 is out of reach of these numbers
    assert TS.reference_solve([1, 1, 1, 1, 10, 25], 999).value == 1000
    with pytest.raises(SpecError, match="1 to 6 numbers"):
        TS.solve([1, 2, 3, 4, 5, 6, 7], 100)


def test_rules_reject_non_positive_and_inexact_steps():
    assert T.evaluate((T.SUB, 3, 3)) is None
    assert T.evaluate((T.DIV, 7, 2)) is None
    assert T.evaluate((T.MUL, (T.SUB, 9, 3), (T.DIV, 8, 4))) == 12
    assert T.format_expr((T.SUB, 9, (T.SUB, 5, 2))) == "9 - (5 - 2)"
    assert T.format_expr((T.MUL, (T.ADD, 1, 2), (T.DIV, 8, 4))) == "(1 + 2) * (8 / 4)"


draws = st.tuples(
    st.lists(st.sampled_from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 25, 50, 75, 100]), min_size=1, max_size=6),
    st.integers(1, 1200),
)


@settings(max_examples=150, deadline=None)
@given(draws)
def test_numba_solver_equals_the_python_reference(draw):
    numbers, target = draw
    fast = TS.solve(numbers, target)
    ref = TS.reference_solve(numbers, target)
    assert fast.value == ref.value
    for sol in (fast, ref):
        assert T.evaluate(sol.expr) == sol.value
        assert T.uses_only(sol.expr, numbers)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 100), min_size=1, max_size=6))
def test_reachable_values_equal_the_reference_sets(numbers):
    ref = set()
    for values in TS.reference_reachable(numbers).values():
        ref.update(v for v in values if v < TS.BITMAP_SIZE)
    assert set(TS.Solver().reachable(numbers).tolist()) == ref


def test_distances_to_targets_match_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(20):
        reach = np.unique(rng.integers(1, 2048, size=int(rng.integers(1, 300))))
        d = TS.distances_to_targets(reach.astype(np.int64), 100, 999)
        brute = [min(abs(int(v) - t) for v in reach) for t in range(100, 1000)]
        assert d.tolist() == brute


def test_solver_grows_its_work_arrays_when_a_draw_needs_more():
    small = TS.Solver(capacity=64, bits=6)
    assert small.solve([100, 75, 50, 25, 9, 8], 917).value == TS.reference_solve([100, 75, 50, 25, 9, 8], 917).value
    assert small.capacity > 64


def test_enumeration_weights_cover_every_ordered_draw():
    from evoplay.bench.target import mojbroj_multisets

    sets = list(mojbroj_multisets())
    assert len(sets) == 495 * 12
    assert sum(w for _, w in sets) == 9 ** 4 * 12


def test_the_hash_table_is_left_empty_for_the_next_draw():
    # linear probing: entries must be removed in reverse insertion order, or stale ones survive
    solver = TS.Solver()
    for numbers in ([100, 75, 50, 25, 9, 8], [9, 9, 8, 7, 20, 100], [3, 7, 9, 1, 15, 75]):
        solver.reachable(numbers)
        assert (solver.table >= 0).sum() == 0
        solver.solve(numbers, 999)
        assert (solver.table >= 0).sum() == 0
