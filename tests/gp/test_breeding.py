"""Breeding plans: seed 000's split plan applies each operation to the right ranks; Koza's step keeps its rules."""
import numpy as np
import pytest

from evoplay import gp
from evoplay.errors import SpecError
from evoplay.gp.primitives import ADD, CONST, EPHEMERAL, FEATURE

PSET = gp.PrimitiveSet("b", n_features=3).add_functions("add", "sub").add_features("x", "y", "z") \
    .add_ephemeral("k", -1.0, 1.0)


def ranked_programs(n):
    """n distinct programs ``(x) + (k_i)`` with one ephemeral constant each, best first."""
    return [gp.Program([ADD, FEATURE, CONST], [0, 0, EPHEMERAL], [0.0, 0.0, 1.0 + i]) for i in range(n)]


def is_constant_mutation_of(child, parent):
    if child.opcodes.tolist() != parent.opcodes.tolist() or child.args.tolist() != parent.args.tolist():
        return False
    changed = np.flatnonzero(child.consts != parent.consts)
    return len(changed) == 1 and 0.5 <= child.consts[changed[0]] / parent.consts[changed[0]] <= 2.0


def test_split_counts_refuse_empty_negative_and_unbalanced_plans():
    with pytest.raises(SpecError) as err:
        gp.split_counts(10, {})
    assert str(err.value) == "a split plan needs at least one operation share"
    with pytest.raises(SpecError, match=r"split shares must be >= 0 and add up to 1, got .* \(sum 0.5\)"):
        gp.split_counts(10, {"clone": 0.5})
    with pytest.raises(SpecError, match="must be >= 0"):
        gp.split_counts(10, {"clone": 1.5, "constant": -0.5})
    assert gp.split_counts(10, {"clone": 1.0, "crossover": 0.0}) == {"clone": 10, "crossover": 0}
    assert gp.split_counts(3, {"clone": 1 / 3, "constant": 1 / 3, "subtree": 1 / 3}) == \
        {"clone": 1, "constant": 1, "subtree": 1}  # a sum off by float rounding is still 1


def test_split_breed_applies_each_operation_to_the_best_of_the_ranking():
    ranked = ranked_programs(20)  # seed 000's plan: 2 clones, 9 constant, 5 subtree (4.5 rounded up), 4 crossover
    assert gp.split_counts(20, gp.SEED000_SPLITS) == {"clone": 2, "constant": 9, "subtree": 5, "crossover": 4}
    new = gp.split_breed(ranked, PSET, np.random.default_rng(0))
    assert len(new) == 20
    assert new[:2] == ranked[:2]
    assert all(is_constant_mutation_of(new[2 + i], ranked[i]) for i in range(9))
    for i in range(5):  # subtree mutation of ranked[i]: the rest of the tree is kept, new parts <= 2 deep
        assert new[11 + i].depth() <= 3 and not is_constant_mutation_of(new[11 + i], ranked[i])
    for i in range(4):  # crossover between two of the best 4: every constant comes from them
        consts = set(new[16 + i].consts[new[16 + i].opcodes == CONST].tolist())
        assert consts <= {1.0, 2.0, 3.0, 4.0}


def test_split_breed_accepts_seed_names_and_point_mutation():
    ranked = ranked_programs(6)
    new = gp.split_breed(ranked, PSET, np.random.default_rng(1), {"constant_mutation": 0.5, "tree_mutation": 0.5})
    assert all(is_constant_mutation_of(new[i], ranked[i]) for i in range(3))
    point = gp.split_breed(ranked, PSET, np.random.default_rng(2), {"point": 1.0})
    for child, parent in zip(point, ranked):  # same shape, at most one node changed
        assert child.size == parent.size
        assert sum(a != b or c != d for a, b, c, d in zip(child.opcodes, parent.opcodes, child.consts,
                                                          parent.consts)) <= 1
    assert any(c != p for c, p in zip(point, ranked))
    with pytest.raises(SpecError) as err:
        gp.split_breed(ranked, PSET, np.random.default_rng(0), {"clone": 0.5, "swap": 0.5})
    assert str(err.value) == ("unknown split operation(s) ['swap']; known: clone, constant, subtree, crossover, "
                              "point, constant_mutation, tree_mutation")


def test_split_breed_mutation_depth_bounds_new_subtrees():
    ranked = [gp.parse_notation("x", PSET)] * 10
    for seed in range(10):
        new = gp.split_breed(ranked, PSET, np.random.default_rng(seed), {"subtree": 1.0}, mutation_depth=1)
        assert max(p.depth() for p in new) <= 1
    deep = [p.depth() for s in range(10)
            for p in gp.split_breed(ranked, PSET, np.random.default_rng(s), {"subtree": 1.0})]
    assert max(deep) == 2  # the default depth is seed 000's 2


def test_split_breed_of_tuples_changes_one_tree_per_operation():
    play = ranked_programs(12)
    send = [gp.parse_notation("(y) - (z)", PSET)] * 12
    ranked = [(p, s) for p, s in zip(play, send)]
    new = gp.split_breed(ranked, PSET, np.random.default_rng(3), {"clone": 0.25, "constant": 0.25,
                                                                  "subtree": 0.25, "crossover": 0.25})
    assert all(isinstance(t, tuple) and len(t) == 2 for t in new)
    assert new[:3] == ranked[:3]
    for i in range(3):  # constant mutation: only the play tree has a mutable constant
        assert is_constant_mutation_of(new[3 + i][0], play[i]) and new[3 + i][1] == send[i]
    for i in range(6):  # subtree mutation and crossover change one tree and keep the other
        child = new[6 + i]
        assert child[0] == ranked[i % 3][0] or child[1] == ranked[i % 3][1]
    for i in range(3):  # crossover's donor is one of the best 3 and gives the same tree
        child = new[9 + i]
        consts = set(child[0].consts[child[0].opcodes == CONST].tolist())
        assert consts <= {1.0, 2.0, 3.0}
        assert set(child[1].opcodes.tolist()) <= {gp.FUNCTIONS["sub"], FEATURE}


def test_constant_mutation_of_tuples_picks_a_tree_by_its_share_of_constants():
    three = gp.Program([ADD, CONST, ADD, CONST, CONST], [0, EPHEMERAL, 0, EPHEMERAL, EPHEMERAL],
                       [0.0, 1.0, 0.0, 2.0, 3.0])
    one = gp.Program([CONST], [EPHEMERAL], [5.0])
    none = gp.parse_notation("x", PSET)
    rng = np.random.default_rng(4)
    picked = []
    for _ in range(400):
        (a, b), = gp.split_breed([(three, one)], PSET, rng, {"constant": 1.0})
        picked.append(0 if a != three else 1)
        assert (a == three) != (b == one)
    assert np.mean(np.array(picked) == 0) == pytest.approx(0.75, abs=0.07)
    (a, b), = gp.split_breed([(none, one)], PSET, rng, {"constant": 1.0})
    assert a == none and b != one
    assert gp.split_breed([(none, none)], PSET, rng, {"constant": 1.0}) == [(none, none)]


def test_koza_breed_defaults_are_seed_003s():
    pset = gp.seed003_primitive_set()
    n = 200
    pop = [gp.parse_notation("(0) + (0)", pset), gp.parse_notation("(1) - (1)", pset)] + \
        [gp.parse_notation(f"value at [({i % 14})]", pset) for i in range(n - 2)]
    fit = np.zeros(n)
    fit[5], fit[6] = 2.0, 1.0
    calls = []

    def parents_then_donors(f, k, r):  # every parent is pop[0], every donor pop[1]
        calls.append(k)
        return np.full(k, len(calls) - 1)

    new = gp.koza_breed(pop, fit, pset, np.random.default_rng(0), parents_then_donors)
    assert calls == [n - 1, n - 1] and len(new) == n
    assert new[0] == pop[5] and new[1] != pop[6]  # one elite
    unchanged = sum(p == pop[0] for p in new[1:])
    assert 8 <= unchanged <= 35  # 90 % crossover: about 20 of 199 children are plain copies
    consts = [set(p.consts[p.opcodes == CONST].tolist()) for p in new[1:]]
    assert sum(not c <= {0.0, 1.0} for c in consts) <= 5  # 0.5 % mutation: about one child
    with pytest.raises(SpecError) as err:
        gp.koza_breed(pop, fit[:3], pset, np.random.default_rng(0), parents_then_donors)
    assert str(err.value) == "3 fitness values for 200 programs"


def test_koza_breed_copies_the_elites_in_order_and_never_returns_a_parent_object():
    pset = gp.seed003_primitive_set()
    pop = [gp.parse_notation(f"({i}) + ({i % 14})", pset) for i in range(40)]

    def uniform(f, k, r):
        return r.integers(len(f), size=k)

    kept = gp.koza_breed(pop, np.zeros(40), pset, np.random.default_rng(0), uniform, crossover_rate=0.0,
                         mutation_rate=0.0, elites=5)
    assert kept[:5] == pop[:5]  # equal fitness: the earlier program first (a stable sort)
    assert all(p in pop for p in kept)
    assert all(p is not q for p in kept for q in pop)  # copies, never the parents themselves
    two = gp.koza_breed(pop, np.arange(40.0), pset, np.random.default_rng(0), uniform, elites=2)
    assert two[:2] == [pop[39], pop[38]]


def test_koza_breed_mutation_regrows_children_up_to_the_mutation_depth():
    pset = gp.seed003_primitive_set()
    pop = [gp.parse_notation("(1) + (2)", pset)] * 6
    fit = np.ones(6)

    def uniform(f, k, r):
        return r.integers(len(f), size=k)

    grown = []
    for seed in range(30):
        new = gp.koza_breed(pop, fit, pset, np.random.default_rng(seed), uniform, crossover_rate=0.0,
                            mutation_rate=1.0, mutation_depth=1)
        grown += new[1:]
        # keep_node (the default): a chosen root keeps its '+' and gets two new leaves
        assert all(p.depth() <= 2 for p in new)
    assert any(p.opcodes[0] == ADD and p != pop[0] and p.depth() == 1 for p in grown)
    assert all(p.opcodes[0] == ADD for p in grown)  # a mutated root keeps its operation


def test_koza_breed_rejected_children_become_copies_of_their_parent():
    pset = gp.seed003_primitive_set()
    pop = [gp.parse_notation(f"({i}) + ({i})", pset) for i in range(8)]

    def uniform(f, k, r):
        return r.integers(len(f), size=k)

    new = gp.koza_breed(pop, np.arange(8.0), pset, np.random.default_rng(1), uniform, crossover_rate=1.0,
                        accept=lambda p: False)
    assert all(p in pop for p in new)
    taken = gp.koza_breed(pop, np.arange(8.0), pset, np.random.default_rng(1), uniform, crossover_rate=1.0,
                          accept=lambda p: True)
    assert any(p not in pop for p in taken)
    # accept is asked only about new children: a plain copy is never refused
    seen = []
    gp.koza_breed(pop, np.arange(8.0), pset, np.random.default_rng(1), uniform, crossover_rate=0.0,
                  mutation_rate=0.0, accept=lambda p: seen.append(p) or True)
    assert seen == []


def test_split_breed_is_the_operators_applied_in_rank_order_with_one_generator():
    ranked = ranked_programs(8)
    got = gp.split_breed(ranked, PSET, np.random.default_rng(11), {"constant": 0.5, "crossover": 0.5})
    rng = np.random.default_rng(11)
    want = [gp.constant_mutation(ranked[i], rng) for i in range(4)]
    for i in range(4):  # crossover draws its donor among the best 4, then the two subtrees
        donor = ranked[int(rng.integers(4))]
        want.append(gp.crossover(ranked[i], donor, rng))
    assert got == want
    pairs = [(p, gp.parse_notation("(y) - (z)", PSET)) for p in ranked_programs(4)]
    got = gp.split_breed(pairs, PSET, np.random.default_rng(12), {"clone": 0.5, "subtree": 0.5})
    rng = np.random.default_rng(12)
    want = list(pairs[:2])  # clones draw nothing
    for i in range(2):
        k = int(rng.integers(2))
        trees = list(pairs[i])
        trees[k] = gp.subtree_mutation(trees[k], PSET, rng, 2)
        want.append(tuple(trees))
    assert got == want


def test_koza_breed_elites_keep_the_earlier_of_equal_fitness():
    pset = gp.seed003_primitive_set()
    pop = [gp.parse_notation(f"({i % 14}) + ({i // 14})", pset) for i in range(100)]
    fit = np.array([1.0, 0, 1, 0, 1, 0, 1, 1, 0, 1] * 10)

    def uniform(f, k, r):
        return r.integers(len(f), size=k)

    new = gp.koza_breed(pop, fit, pset, np.random.default_rng(0), uniform, crossover_rate=0.0, mutation_rate=0.0,
                        elites=30)
    best = [i for i in range(100) if fit[i] == 1.0][:30]
    assert new[:30] == [pop[i] for i in best]
