"""The GA engine's operators: crossovers and per-bit mutation (parent selection: evoplay.evolve.selection)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay.errors import ConfigError
from evoplay.evolve.selection import select_parents
from evoplay.ga import (
    crossover,
    flip_mutation,
    one_point_crossover,
    two_point_crossover,
    uniform_crossover,
)

genome_pairs = st.tuples(st.integers(1, 300), st.integers(0, 2**32 - 1))


def _parents(n, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, n, dtype=np.uint8), rng.integers(0, 2, n, dtype=np.uint8), rng


@settings(max_examples=100, deadline=None)
@given(genome_pairs)
def test_every_child_bit_comes_from_a_parent_at_its_place(pair):
    a, b, rng = _parents(*pair)
    for op in (uniform_crossover, one_point_crossover, two_point_crossover):
        child = op(a, b, rng)
        assert child.dtype == np.uint8 and child.shape == a.shape
        assert ((child == a) | (child == b)).all()


@settings(max_examples=60, deadline=None)
@given(genome_pairs)
def test_point_crossovers_cut_into_segments(pair):
    n, seed = pair
    # Complementary parents show where the child switches from one to the other.
    a = np.zeros(n, np.uint8)
    b = np.ones(n, np.uint8)
    rng = np.random.default_rng(seed)
    one = one_point_crossover(a, b, rng)
    two = two_point_crossover(a, b, rng)
    if n >= 2:
        cut = int(np.argmax(one))
        assert 1 <= cut < n and (one[:cut] == 0).all() and (one[cut:] == 1).all()
    if n >= 3:
        changes = np.flatnonzero(np.diff(two.astype(int)))
        assert len(changes) == 2 and two[0] == 0 and two[-1] == 0


def test_uniform_crossover_takes_half_the_bits_from_each_parent():
    rng = np.random.default_rng(7)
    a, b = np.zeros(20_000, np.uint8), np.ones(20_000, np.uint8)
    share = uniform_crossover(a, b, rng).mean()
    assert 0.48 < share < 0.52


def test_flip_mutation_rate_and_count():
    rng = np.random.default_rng(3)
    pop = np.zeros((100, 211), np.uint8)
    same, flips = flip_mutation(pop, 0.0, rng)
    assert flips == 0 and (same == pop).all()
    inverted, flips = flip_mutation(pop, 1.0, rng)
    assert flips == pop.size and (inverted == 1).all()
    mutated, flips = flip_mutation(pop, 0.01, rng)
    assert flips == int(mutated.sum())
    assert 150 < flips < 270  # 211 expected: 0.01 of 21,100 bits
    with pytest.raises(ConfigError, match="probability per bit"):
        flip_mutation(pop, 1.5, rng)


def test_crossover_by_name():
    assert crossover("uniform") is uniform_crossover
    with pytest.raises(ConfigError, match="did you mean 'two_point'"):
        crossover("two_points")
    with pytest.raises(ConfigError, match="same length"):
        uniform_crossover(np.zeros(3), np.zeros(4), np.random.default_rng(0))


def test_roulette_parents_are_proportional_and_distinct():
    rng = np.random.default_rng(11)
    pairs = select_parents([0.0, 10.0, 30.0, 0.0], 4000, rng)
    assert (pairs[:, 0] != pairs[:, 1]).all()
    first = np.bincount(pairs[:, 0], minlength=4) / 4000
    assert first[0] == 0 and first[3] == 0
    assert 0.22 < first[1] < 0.28 and 0.72 < first[2] < 0.78  # 10/40 and 30/40
    # The second parent is drawn from the others: with only two of positive fitness it is the other one.
    assert set(map(tuple, pairs.tolist())) <= {(1, 2), (2, 1)}


def test_single_candidate_is_paired_with_itself_and_zero_fitness_is_uniform():
    rng = np.random.default_rng(0)
    assert (select_parents([5.0], 3, rng) == 0).all()
    pairs = select_parents(np.zeros(4), 2000, rng)
    assert set(np.unique(pairs)) == {0, 1, 2, 3}
    same = select_parents([1.0, 1.0], 50, rng, distinct=False)
    assert (same[:, 0] == same[:, 1]).any()


def test_tournament_parents_prefer_the_fitter():
    rng = np.random.default_rng(5)
    pairs = select_parents([1.0, 2.0, 3.0, 4.0], 2000, rng, method="tournament", tournament_size=3)
    counts = np.bincount(pairs[:, 0], minlength=4)
    assert counts[3] > counts[2] > counts[1] > counts[0]
    with pytest.raises(ConfigError, match="known: roulette, tournament"):
        select_parents([1.0], 1, rng, method="rank")
