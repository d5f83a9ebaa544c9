"""The GP engine: interpreter kernels against the reference, generation, variation, notation, simplify, export."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import gp
from evoplay.errors import SpecError
from evoplay.gp import interpreter as gpi
from evoplay.gp.primitives import ARITY, CONST, EPHEMERAL, FEATURE

SEED003_RUN1 = (
    "((value at [(if (9) < (value at [(value at [((8) - ((2) - (6)))])]) do (10) else do (value at [(if (3) < (4) do "
    "(value at [(9)]) else do ((4) - ((1) + (value at [(13)]))))]))]) + ((if (value at [((value at [(13)]) + (value "
    "at [(value at [((13) + (3))])]))]) < (((10) - (3)) - ((if (value at [((6) + (value at [(value at [((13) + (3))])"
    "]))]) < (((10) - (3)) - (2)) do ((10) - (6)) else do ((13) - (value at [(value at [(value at [(3)])])]))) - (3)))"
    " do ((10) - (6)) else do ((13) - (value at [(value at [(value at [(3)])])]))) - (3)))"
)


def every_op_pset():
    pset = gp.PrimitiveSet("all", n_features=5)
    pset.add_functions("add", "sub", "mul", "div", "min", "max", "neg", "abs", "if_lt", "value_at")
    for i, name in enumerate(["a", "b", "c", "d", "e"]):
        pset.add_feature(name, i)
    pset.add_integers(0, 3)
    pset.add_ephemeral("k", -2.0, 2.0)
    return pset


PSETS = {"seed003": gp.seed003_primitive_set(), "all": every_op_pset()}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.sampled_from(sorted(PSETS)), depth=st.integers(0, 7))
def test_kernel_reference_simplified_and_exported_python_agree(seed, which, depth):
    pset = PSETS[which]
    rng = np.random.default_rng(seed)
    program = gp.grow(pset, rng, depth, function_probability=0.6)
    rows = rng.integers(-20, 20, (4, pset.n_features)).astype(np.float64)
    rows[0] = rng.normal(0, 10, pset.n_features)
    ns: dict = {}
    exec(gp.to_python(program, pset), ns)
    simple = gp.simplify(program, pset)
    assert simple.size <= program.size
    batch = gp.program_values(program, rows)
    for r, row in enumerate(rows):
        want = gp.reference_evaluate(program, row)
        got = gp.program_value(program, row)
        assert _same(got, want)
        assert _same(batch[r], got)
        assert _same(ns["program"](list(row)), want)
        s = gp.reference_evaluate(simple, row)
        # simplification may fold an inf - inf into a number, never the other way
        assert s == pytest.approx(want, rel=1e-9, abs=1e-9) or math.isnan(want)


def test_pool_and_best_row_match_single_evaluations():
    pset = PSETS["all"]
    rng = np.random.default_rng(3)
    programs = gp.population(pset, rng, 20, "ramped", 1, 5)
    rows = rng.normal(0, 5, (7, 5))
    ops, args, consts, starts, ends = gp.pack(programs)
    out = np.empty((20, 7))
    gpi.evaluate_pool(ops, args, consts, starts, ends, rows, out)
    stack = np.empty(int((ends - starts).max()))
    for k, p in enumerate(programs):
        np.testing.assert_array_equal(out[k], gp.program_values(p, rows))
        best = gpi.best_row(ops, args, consts, starts[k], ends[k], rows, stack)
        assert best == int(np.argmax(out[k]))
    assert [p.key() for p in gp.unpack(ops, args, consts, starts, ends)] == [p.key() for p in programs]


def test_random_terminal_is_seeded_and_drawn_in_reverse_order():
    pset = gp.PrimitiveSet("r", 0).add_functions("sub").add_random()
    p = gp.Program([gp.FUNCTIONS["sub"], 2, 2], [0, 0, 0], [0, 0, 0])
    gpi.seed_random(7)
    v1 = gp.program_value(p, np.zeros(0))
    gpi.seed_random(7)
    assert gp.program_value(p, np.zeros(0)) == v1
    draws = iter([0.25, 0.75])  # the interpreter draws the last node first
    assert gp.reference_evaluate(p, [], draw=lambda: next(draws)) == 0.75 - 0.25
    assert pset.validate() is pset


def test_value_at_wraps_floor_modulo():
    pset = gp.seed003_primitive_set()
    row = np.arange(14, dtype=float) * 10
    for text, index in [("value at [(3)]", 3), ("value at [((0) - (1))]", 13), ("value at [((13) + (3))]", 2)]:
        assert gp.program_value(gp.parse_notation(text, pset), row) == row[index]
    p = gp.Program([gp.FUNCTIONS["value_at"], CONST], [0, 0], [0, float("nan")])
    assert gp.program_value(p, row) == row[0] == gp.reference_evaluate(p, row)


def test_seed_notation_round_trips_the_seeds_figure5_program():
    pset = gp.seed003_primitive_set()
    program = gp.parse_notation(SEED003_RUN1, pset)
    assert gp.to_notation(program, wrap=True) == SEED003_RUN1
    assert gp.to_notation(gp.parse_notation("((9) - (8)) + (value at [(3)])", pset)) == "((9) - (8)) + (value at [(3)])"
    assert gp.to_notation(gp.simplify(gp.parse_notation("((9) - (8)) + (value at [(3)])", pset))) == \
        "(1) + (value at [(3)])"
    with pytest.raises(SpecError, match="expected"):
        gp.parse_notation("((9) - (8)", pset)
    with pytest.raises(SpecError, match="does not have"):
        gp.parse_notation("(1) * (2)", pset)


def test_primitive_set_validation_messages():
    pset = gp.PrimitiveSet("x", n_features=2)
    with pytest.raises(SpecError, match="unknown function 'ad'.*did you mean 'add'"):
        pset.add_function("ad")
    with pytest.raises(SpecError, match="n_features=2"):
        pset.add_feature("far", 5)
    with pytest.raises(SpecError, match="low=2.0 > high=1.0"):
        pset.add_ephemeral("k", 2, 1)
    with pytest.raises(SpecError, match="no terminals"):
        gp.grow(pset, np.random.default_rng(0), 3)
    with pytest.raises(SpecError, match="value_at reads the feature row"):
        gp.PrimitiveSet("y").add_function("value_at")
    pset.add_function("add").add_feature("f", 0).add_ephemeral("k", -1, 1).add_random()
    with pytest.raises(SpecError, match="already"):
        pset.add_function("add")
    again = gp.PrimitiveSet.from_dict(pset.to_dict())
    assert again.to_dict() == pset.to_dict()


def test_generation_respects_depths():
    pset = PSETS["all"]
    rng = np.random.default_rng(5)
    for d in range(0, 6):
        f = gp.full(pset, rng, d)
        assert f.depth() == d
        assert all(f.node_depths()[ARITY[f.opcodes] == 0] == d)
        assert gp.grow(pset, rng, d).depth() <= d
    pop = gp.ramped(pset, rng, 40, 2, 5)
    assert {p.depth() for p in pop[1::2]} == {2, 3, 4, 5}
    assert all(p.depth() >= 1 for p in gp.population(pset, rng, 50, "grow", 1, 4))
    with pytest.raises(SpecError, match="unknown generation method"):
        gp.population(pset, rng, 3, "half")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_variation_keeps_programs_well_formed_and_inputs_unchanged(seed):
    pset = PSETS["all"]
    rng = np.random.default_rng(seed)
    a, b = gp.population(pset, rng, 2, "ramped", 1, 5)
    a0, b0 = a.key(), b.key()
    for child in (gp.crossover(a, b, rng), *gp.crossover_pair(a, b, rng), gp.point_mutation(a, pset, rng),
                  gp.point_mutation(a, pset, rng, rate=0.5), gp.clone(a),
                  gp.subtree_mutation(a, pset, rng, 2), gp.subtree_mutation(a, pset, rng, 3, keep_node=True),
                  gp.crossover(a, b, rng, internal_bias=0.9)):
        child.check()
    assert (a.key(), b.key()) == (a0, b0)
    m = gp.subtree_mutation(gp.Program([CONST], [0], [1.0]), pset, rng, 2)
    assert m.depth() <= 2


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), value=st.floats(-100, 100).filter(lambda v: abs(v) > 1e-6))
def test_constant_mutation_scales_by_half_to_double_and_keeps_the_sign(seed, value):
    p = gp.Program([gp.FUNCTIONS["add"], CONST, CONST], [0, EPHEMERAL, 0], [0.0, value, 5.0])
    q = gp.constant_mutation(p, np.random.default_rng(seed))
    ratio = q.consts[1] / value
    assert 0.5 <= ratio <= 2.0
    assert q.consts[2] == 5.0  # a fixed terminal is never rescaled
    assert p.consts[1] == value


def _same(a: float, b: float) -> bool:
    """Equal numbers, or both NaN."""
    return a == b or (math.isnan(a) and math.isnan(b))


def test_constant_mutation_factor_is_log_uniform():
    rng = np.random.default_rng(0)
    p = gp.Program([CONST], [EPHEMERAL], [1.0])
    logs = np.log2([gp.constant_mutation(p, rng).consts[0] for _ in range(4000)])
    assert abs(logs.mean()) < 0.05 and abs(np.mean(logs < 0) - 0.5) < 0.04


def test_split_counts_and_split_breed():
    # 22.5 + 22.5 leave one offspring to the largest remainders; the tie goes to the operation named first.
    assert gp.split_counts(100, gp.SEED000_SPLITS) == {"clone": 10, "constant": 45, "subtree": 23, "crossover": 22}
    # 3.7 / 16.65 / 8.325 / 8.325: floors 3 + 16 + 8 + 8 = 35, the two largest remainders (0.7, 0.65) get one.
    assert gp.split_counts(37, gp.SEED000_SPLITS) == {"clone": 4, "constant": 17, "subtree": 8, "crossover": 8}
    with pytest.raises(SpecError, match="add up to 1"):
        gp.split_counts(10, {"clone": 0.5})
    pset = PSETS["all"]
    rng = np.random.default_rng(2)
    ranked = gp.population(pset, rng, 30, "ramped", 1, 4)
    new = gp.split_breed(ranked, pset, rng)
    assert len(new) == 30 and new[0] == ranked[0] and new[2] == ranked[2]  # the best 3 are cloned


def test_koza_breed_keeps_the_elite_and_applies_limits():
    pset = PSETS["seed003"]
    rng = np.random.default_rng(4)
    pop = gp.population(pset, rng, 40, "grow", 1, 6)
    fit = rng.random(40)

    def roulette(f, k, r):
        return r.choice(len(f), size=k, p=f / f.sum())

    new = gp.koza_breed(pop, fit, pset, rng, roulette, accept=lambda p: p.size <= 15)
    assert len(new) == 40 and new[0] == pop[int(np.argmax(fit))]
    assert all(p.size <= 15 or any(p == q for q in pop) for p in new)


def test_exports_name_the_feature_row_and_lua_is_one_based():
    pset = PSETS["all"]
    p = gp.parse_notation("(a) + (value at [(b)])", pset)
    lua = gp.to_lua(p, pset)
    assert "features[1]" in lua and "features[wrap(features[2]) + 1]" in lua and lua.rstrip().endswith("return program")
    with pytest.raises(SpecError, match="known: python, lua"):
        gp.export(p, pset, "c")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.sampled_from(sorted(PSETS)))
def test_exported_lua_computes_the_interpreters_value(seed, which):
    lupa = pytest.importorskip("lupa")
    lua = lupa.LuaRuntime()
    pset = PSETS[which]
    rng = np.random.default_rng(seed)
    program = gp.grow(pset, rng, 6, function_probability=0.6)
    func = lua.execute(gp.to_lua(program, pset))
    for _ in range(3):
        row = rng.integers(-20, 20, pset.n_features).astype(np.float64)
        want = gp.program_value(program, row)
        got = func(lua.table_from(row.tolist()))
        assert (math.isnan(got) and math.isnan(want)) or got == pytest.approx(want, rel=1e-12, abs=1e-12)


def test_interpreter_is_callable_from_another_numba_kernel():
    from numba import njit

    @njit
    def choose(opcodes, args, consts, starts, ends, k, rows):  # what a game's kernel does on its turn
        stack = np.empty(ends[k] - starts[k])
        best = gpi.best_row(opcodes, args, consts, starts[k], ends[k], rows, stack)
        return best, gpi.evaluate_with_stack(opcodes, args, consts, starts[k], ends[k], rows[best], stack)

    pset = PSETS["all"]
    programs = [gp.parse_notation("(a) - (b)", pset), gp.parse_notation("(b) * (c)", pset)]
    rows = np.array([[1.0, 2.0, 3.0, 0, 0], [5.0, 1.0, -1.0, 0, 0], [0.0, 4.0, 2.0, 0, 0]])
    pool = gp.pack(programs)
    assert choose(*pool, 0, rows) == (1, 4.0)
    assert choose(*pool, 1, rows) == (2, 8.0)


@pytest.mark.parametrize("rows, want", [
    ([[np.nan], [1.0], [0.5]], 1),  # a NaN first row loses to any number
    ([[1.0], [np.nan], [2.0]], 2),  # as does a NaN anywhere else
    ([[np.nan], [np.nan]], 0),  # all NaN: the first row
    ([[-np.inf], [np.nan], [-np.inf]], 0),  # NaN ties with -inf, and ties go to the first row
    ([[3.0], [3.0], [np.nan]], 0),
])
def test_best_row_ranks_nan_as_minus_infinity_in_every_row(rows, want):
    program = gp.Program([FEATURE], [0], [0.0])
    rows = np.array(rows, dtype=np.float64)
    stack = np.empty(4, np.float64)
    assert gpi.reference_best_row(program, rows) == want
    assert gpi.best_row(program.opcodes, program.args, program.consts, 0, program.size, rows, stack) == want
