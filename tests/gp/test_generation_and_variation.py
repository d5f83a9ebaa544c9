"""Random trees and the genetic operations: depths, probabilities, limits and what each operation may change."""
import numpy as np
import pytest

from evoplay import gp
from evoplay.errors import SpecError
from evoplay.gp.primitives import ADD, ARITY, CONST, EPHEMERAL, FEATURE, NEG, SUB
from evoplay.gp.variation import has_randomness, reads_features

SEED003 = gp.seed003_primitive_set()  # 4 functions, 14 integer terminals


def leaf_depths(p):
    return set(p.node_depths()[ARITY[p.opcodes] == 0].tolist())


def consts_only(*functions):
    """A set whose only terminals are the integers 5 and 6 (so a regrown part never reads a feature)."""
    return gp.PrimitiveSet("c", n_features=2).add_functions(*functions).add_integers(5, 6)


# -- generation -------------------------------------------------------------------------------------------


def test_grow_chooses_a_function_with_the_functions_share_of_all_entries():
    rng = np.random.default_rng(0)
    roots = [gp.grow(SEED003, rng, 1).size > 1 for _ in range(4000)]
    assert np.mean(roots) == pytest.approx(4 / 18, abs=0.025)  # 4 functions among 18 entries


def test_grow_function_probability_zero_stops_at_min_depth_and_one_reaches_max_depth():
    rng = np.random.default_rng(1)
    for _ in range(20):
        assert leaf_depths(gp.grow(SEED003, rng, 5, 2, function_probability=0.0)) == {2}
        assert leaf_depths(gp.grow(SEED003, rng, 4, 0, function_probability=1.0)) == {4}
        assert leaf_depths(gp.population(SEED003, rng, 1, "grow", 1, 3, function_probability=1.0)[0]) == {3}
    for bad in (-0.1, 1.5):
        with pytest.raises(SpecError) as err:
            gp.grow(SEED003, rng, 3, function_probability=bad)
        assert str(err.value) == f"function_probability={bad} must be in [0, 1]"
    with pytest.raises(SpecError) as err:
        gp.grow(SEED003, rng, -1)
    assert str(err.value) == "max_depth=-1 must be >= 0"


def test_ramped_cycles_depths_in_pairs_alternating_grow_and_full():
    rng = np.random.default_rng(2)
    pop = gp.ramped(SEED003, rng, 24, 2, 4)
    want = [2, 2, 3, 3, 4, 4] * 4
    for k, (p, d) in enumerate(zip(pop, want)):
        if k % 2:
            assert leaf_depths(p) == {d}  # full
        else:
            assert 1 <= p.depth() <= d  # grow: at least one function, at most d
    grown = [p for p in pop[0::2]]
    assert any(p.depth() == 1 for p in grown)  # grow trees may stop right under the root
    assert any(len(leaf_depths(p)) > 1 for p in grown)  # and are not full trees


def test_population_methods_and_defaults():
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    assert gp.population(SEED003, a, 12) == gp.ramped(SEED003, b, 12, 1, 6)  # ramped, depths 1..6
    full = gp.population(SEED003, np.random.default_rng(4), 200, "full")
    assert {p.depth() for p in full} == {1, 2, 3, 4, 5, 6}
    assert all(len(leaf_depths(p)) == 1 for p in full)
    assert {p.depth() for p in gp.population(SEED003, np.random.default_rng(5), 60, "full", 2, 3)} == {2, 3}
    with pytest.raises(SpecError) as err:
        gp.population(SEED003, a, 3, "half")
    assert str(err.value) == "unknown generation method 'half'; known: grow, full, ramped"


def test_depth_limits_accept_0_to_64_and_refuse_the_rest():
    rng = np.random.default_rng(6)
    assert gp.population(SEED003, rng, 2, "grow", 0, 0)[0].size == 1
    assert len(gp.ramped(SEED003, rng, 2, 3, 3)) == 2
    assert len(gp.population(SEED003, rng, 1, "grow", 0, 64, function_probability=0.0)) == 1
    for lo, hi in ((-1, 3), (4, 3), (0, 65)):
        with pytest.raises(SpecError) as err:
            gp.population(SEED003, rng, 1, "grow", lo, hi)
        assert str(err.value) == f"depths {lo}..{hi}: use 0 <= min_depth <= max_depth <= 64"


# -- variation --------------------------------------------------------------------------------------------


def test_pick_node_internal_bias_one_takes_functions_and_zero_takes_leaves():
    p = gp.parse_notation("(neg [(f0)]) + (abs [(f1)])")
    rng = np.random.default_rng(7)
    assert {gp.pick_node(p, rng, 1.0) for _ in range(50)} == {0, 1, 3}
    assert {gp.pick_node(p, rng, 0.0) for _ in range(50)} == {2, 4}
    assert {gp.pick_node(p, rng) for _ in range(200)} == {0, 1, 2, 3, 4}
    unary = gp.parse_notation("neg [(f0)]")
    assert {gp.pick_node(unary, rng, 1.0) for _ in range(30)} == {0}


def test_crossover_passes_the_internal_bias_to_both_parents():
    a = gp.parse_notation("(f0) + (f1)")
    b = gp.parse_notation("neg [(f2)]")
    for seed in range(20):
        rng = np.random.default_rng(seed)
        assert gp.crossover(a, b, rng, internal_bias=1.0) == b  # both roots are the only function nodes
        assert gp.crossover_pair(a, b, rng, internal_bias=1.0) == (b, a)


def test_subtree_mutation_replaces_a_whole_subtree_by_default():
    p = gp.parse_notation("(f0) + (f1)")
    pset = consts_only("sub")
    depths = set()
    for seed in range(60):
        child = gp.subtree_mutation(p, pset, np.random.default_rng(seed))
        if child.opcodes[0] == ADD:  # a leaf was replaced: the other feature is still there
            assert reads_features(child)
        depths.add(child.depth() if child.opcodes[0] != ADD else child.depth() - 1)
    assert max(depths) == 2  # a new tree is at most 2 deep (seed 000)
    from_leaf = {gp.subtree_mutation(gp.parse_notation("f0"), pset, np.random.default_rng(s)).depth() for s in range(40)}
    assert from_leaf == {0, 1, 2}  # grown (the default method), not full
    leafy = gp.subtree_mutation(gp.parse_notation("f0"), pset, np.random.default_rng(0), 0)
    assert leafy.size == 1 and leafy.opcodes[0] == CONST  # depth 0: one new terminal
    assert {gp.subtree_mutation(gp.parse_notation("f0"), pset, np.random.default_rng(s), 2, method="full").depth()
            for s in range(5)} == {2}


def test_subtree_mutation_keep_node_keeps_the_operation_and_regrows_its_children():
    pset = consts_only("sub")
    kept_binary = kept_unary = 0
    for seed in range(80):
        rng = np.random.default_rng(seed)
        child = gp.subtree_mutation(gp.parse_notation("(f0) + (f1)"), pset, rng, 1, keep_node=True)
        if child.opcodes[0] == ADD and not reads_features(child):
            assert child.depth() == 1  # the kept node's children are regrown at most max_depth - 1 deep
            assert child.args[0] == 0 and child.consts[0] == 0.0  # the kept node itself is unchanged
            kept_binary += 1
        unary = gp.subtree_mutation(gp.parse_notation("neg [(f0)]"), pset, rng, 1, keep_node=True)
        if unary.opcodes[0] == NEG and unary.size == 2 and not reads_features(unary):
            kept_unary += 1
        leaf = gp.subtree_mutation(gp.parse_notation("f0"), pset, rng, 1, keep_node=True)
        assert not reads_features(leaf)  # a chosen leaf is always replaced
    # a unary root is kept half the time (then gets a terminal); its leaf is regrown as a terminal 2/3 of the time
    assert kept_binary > 0 and kept_unary / 80 == pytest.approx(0.5 + 0.5 * 2 / 3, abs=0.12)


def test_subtree_mutation_refuses_bad_arguments():
    rng = np.random.default_rng(0)
    p = gp.parse_notation("f0")
    with pytest.raises(SpecError) as err:
        gp.subtree_mutation(p, SEED003, rng, -1)
    assert str(err.value) == "subtree mutation max_depth=-1 must be >= 0"
    with pytest.raises(SpecError) as err:
        gp.subtree_mutation(p, SEED003, rng, 2, method="half")
    assert str(err.value) == "subtree mutation method 'half': use grow or full"


def test_point_mutation_keeps_arity_and_rate_bounds():
    pset = gp.PrimitiveSet("p", n_features=2).add_functions("add", "sub", "mul", "neg").add_ephemeral("k", -1, 1)
    p = gp.Program([ADD, CONST, CONST], [0, EPHEMERAL, EPHEMERAL], [0.0, 5.0, 6.0])
    rng = np.random.default_rng(8)
    assert gp.point_mutation(p, pset, rng, rate=0.0) == p
    every = gp.point_mutation(p, pset, rng, rate=1.0)
    assert every.consts[1] != 5.0 and every.consts[2] != 6.0  # every leaf redrawn from [-1, 1]
    roots = {int(gp.point_mutation(p, pset, np.random.default_rng(s)).opcodes[0]) for s in range(60)}
    assert roots == {ADD, SUB, gp.FUNCTIONS["mul"]}  # binary stays binary; it does change
    for bad in (-0.5, 1.5):
        with pytest.raises(SpecError) as err:
            gp.point_mutation(p, pset, rng, rate=bad)
        assert str(err.value) == f"point mutation rate={bad} must be in [0, 1]"


def test_constant_mutation_multiplies_by_two_to_a_uniform_power():
    p = gp.Program([ADD, CONST, ADD, CONST, CONST], [0, EPHEMERAL, 0, EPHEMERAL, EPHEMERAL],
                   [0.0, 1.5, 0.0, -3.0, 0.25])
    one = gp.constant_mutation(p, np.random.default_rng(9))
    assert int(np.sum(one.consts != p.consts)) == 1  # one constant by default
    rng = np.random.default_rng(9)
    rng.integers(3)
    u = rng.uniform(-1.0, 1.0, 1)
    i = int(np.flatnonzero(one.consts != p.consts)[0])
    assert one.consts[i] == p.consts[i] * 2.0 ** u[0]
    every = gp.constant_mutation(p, np.random.default_rng(10), all_constants=True)
    u = np.random.default_rng(10).uniform(-1.0, 1.0, 3)
    assert every.consts[[1, 3, 4]].tolist() == (p.consts[[1, 3, 4]] * 2.0 ** u).tolist()


def test_randomness_and_feature_reads_are_detected():
    assert has_randomness(gp.parse_notation("(random) + (1)"))
    assert not has_randomness(gp.parse_notation("(f0) + (1)"))
    assert reads_features(gp.parse_notation("(f0) + (1)"))
    assert not reads_features(gp.parse_notation("(random) + (1)"))
