"""Bit-string genomes: the schema's limits and messages, and the operators' boundary cases and draws."""
import numpy as np
import pytest

from evoplay.errors import ConfigError
from evoplay.evolve.selection import roulette, select_parents
from evoplay.ga import operators as ops
from evoplay.ga.schema import Field, Schema

SCHEMA = Schema([Field("a", 3), Field("b", 4, low=-8)])


def message(call):
    with pytest.raises((ConfigError, KeyError)) as err:
        call()
    return str(err.value) if isinstance(err.value, ConfigError) else err.value.args[0]


# -- schema -----------------------------------------------------------------------------------------------


def test_field_bits_are_an_integer_in_1_to_62():
    assert Field("x", 62).high == 2**62 - 1
    for bits in (0, 63, True, 2.0):
        assert message(lambda: Field("x", bits)) == f"genome field 'x': bits={bits!r}; use an integer in 1..62"
    assert message(lambda: Field("x", 2, low=True)) == "genome field 'x': low=True must be an integer"
    assert message(lambda: Field("2x", 2)) == "genome field name '2x' must be an identifier such as 'h2x' or 'store'"


def test_schema_refuses_empty_duplicate_and_foreign_entries():
    assert message(lambda: Schema([])) == "a genome schema needs at least one field"
    assert message(lambda: Schema([Field("a", 1), Field("a", 2)])) == \
        "genome field 'a' appears twice; field names must be unique"
    assert message(lambda: Schema([Field("a", 1), ("b", 2)])) == \
        "genome schema entries must be Field objects, got ('b', 2)"


def test_from_list_reads_tables_and_fields_and_names_the_bad_entry():
    s = Schema.from_list([Field("a", 3), {"name": "b", "bits": 4, "low": -8}, {"name": "c", "bits": 2}])
    assert s.fields == (Field("a", 3), Field("b", 4, -8), Field("c", 2))
    assert s.to_list() == [{"name": "a", "bits": 3}, {"name": "b", "bits": 4, "low": -8}, {"name": "c", "bits": 2}]
    assert Schema.from_list([{"name": "h", "bits": 1, "help": "why"}]).to_list() == \
        [{"name": "h", "bits": 1, "help": "why"}]
    assert message(lambda: Schema.from_list([])) == \
        'genome schema: give a non-empty list of fields like {name = "store", bits = 6}'
    assert message(lambda: Schema.from_list([{"name": "a", "bits": 1}, 7], where="[genome]")) == \
        "[genome]: field 2 must be a table with name and bits, got 7"
    assert message(lambda: Schema.from_list([{"name": "a", "bits": 1}, {"name": "b", "bit": 1, "lo": 0}])) == \
        "genome schema: field 2 has unknown key(s) bit, lo; valid keys: name, bits, low, help"
    assert message(lambda: Schema.from_list([{"name": "a", "bits": 1}, {"name": "b"}])) == \
        "genome schema: field 2 needs both 'name' and 'bits', got {'name': 'b'}"


def test_encode_refuses_records_that_do_not_fit_and_decode_inverts_it():
    bits = SCHEMA.encode({"a": 5, "b": -8})
    assert bits.dtype == np.uint8 and SCHEMA.to_string(bits) == "1010000"
    assert SCHEMA.decode(bits) == {"a": 5, "b": -8}
    assert SCHEMA.decode(SCHEMA.encode({"a": 7, "b": 7})) == {"a": 7, "b": 7}
    assert message(lambda: SCHEMA.encode({"a": 1})) == "a genome record must give exactly the schema's fields; missing: b"
    assert message(lambda: SCHEMA.encode({})) == "a genome record must give exactly the schema's fields; missing: a, b"
    assert message(lambda: SCHEMA.encode({"a": 1, "b": 0, "c": 2, "d": 3})) == \
        "a genome record must give exactly the schema's fields; unknown: c, d"
    assert message(lambda: SCHEMA.encode({"b": 0, 3: 1})) == \
        "a genome record must give exactly the schema's fields; missing: a; unknown: 3"
    assert message(lambda: SCHEMA.encode({"a": 8, "b": 0})) == "genome field 'a' = 8 is out of range 0..7"
    assert message(lambda: SCHEMA.encode({"a": 1, "b": -9})) == "genome field 'b' = -9 is out of range -8..7"
    assert message(lambda: SCHEMA.encode({"a": True, "b": 0})) == "genome field 'a' = True is out of range 0..7"
    assert message(lambda: SCHEMA.field("c")) == "no genome field 'c'; fields: a, b"
    assert SCHEMA.field("b") == Field("b", 4, -8)


def test_wide_fields_decode_exactly_as_int64():
    wide = Schema([Field("w", 62), Field("v", 2, low=-1)])
    ones = np.ones((3, 64), dtype=np.uint8)
    values = wide.decode_many(ones)
    assert values.dtype == np.int64 and values[0].tolist() == [2**62 - 1, 2]
    assert wide.decode(wide.encode({"w": 2**62 - 2, "v": -1})) == {"w": 2**62 - 2, "v": -1}


def test_check_accepts_one_genome_and_refuses_other_shapes_and_values():
    one = SCHEMA.check([1, 0, 1, 0, 0, 0, 0])
    assert one.shape == (1, 7) and one.dtype == np.uint8
    assert message(lambda: SCHEMA.check(np.zeros((2, 6)))) == \
        "genomes of this schema have 7 bits; got an array of shape (2, 6)"
    assert message(lambda: SCHEMA.check([[0, 1, 2, 0, 0, 0, 0]])) == "a genome holds bits: every entry must be 0 or 1"


def test_random_genomes_are_bits_and_text_round_trips():
    pop = SCHEMA.random(50, np.random.default_rng(0))
    assert pop.shape == (50, 7) and pop.dtype == np.uint8 and set(np.unique(pop).tolist()) == {0, 1}
    assert SCHEMA.to_string(pop[:1]) == SCHEMA.to_string(pop[0])  # one genome given as a (1, length) array
    bits = SCHEMA.from_string("101 0011")
    assert bits.tolist() == [1, 0, 1, 0, 0, 1, 1]
    assert message(lambda: SCHEMA.from_string("1010")) == \
        "a genome of this schema is a string of 7 characters 0/1; got 4"
    assert message(lambda: SCHEMA.from_string("10100x1")) == \
        "a genome of this schema is a string of 7 characters 0/1; got 7"


def test_describe_equality_and_hash():
    assert SCHEMA.describe() == "a:3, b:4@-8"
    same = Schema([Field("a", 3), Field("b", 4, low=-8)])
    assert SCHEMA == same and hash(SCHEMA) == hash(same) and len({SCHEMA, same}) == 1
    assert SCHEMA != Schema([Field("a", 3)]) and SCHEMA != "a:3, b:4@-8"


# -- operators --------------------------------------------------------------------------------------------


def test_crossovers_return_uint8_children_and_handle_the_shortest_genomes():
    rng = np.random.default_rng(1)
    for name in ("uniform", "one_point", "two_point"):
        child = ops.crossover(name)([0, 1, 1, 0], [1, 1, 0, 0], rng)
        assert child.dtype == np.uint8
    for _ in range(10):
        assert ops.one_point_crossover([0, 0], [1, 1], rng).tolist() == [0, 1]  # the only cut is after bit 1
        assert ops.two_point_crossover([0, 0, 0], [1, 1, 1], rng).tolist() == [0, 1, 0]  # cuts 1 and 2
    assert ops.one_point_crossover([1], [0], rng).tolist() == [1]
    assert message(lambda: ops.crossover("two-point")) == \
        "unknown crossover 'two-point' (did you mean 'two_point'?); known: uniform, one_point, two_point"


def test_flip_mutation_returns_uint8_and_counts_flips():
    pop, flips = ops.flip_mutation([[0, 1, 0], [1, 1, 1]], 1.0, np.random.default_rng(0))
    assert pop.dtype == np.uint8 and pop.tolist() == [[1, 0, 1], [0, 0, 0]] and flips == 6
    same, none = ops.flip_mutation([0, 1, 0], 0.0, np.random.default_rng(0))
    assert same.tolist() == [0, 1, 0] and none == 0


def test_select_parents_draws_one_roulette_number_per_parent():
    fitness = np.array([1.0, 2.0, 3.0, 4.0])
    pairs = select_parents(fitness, 5, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    want = []
    for _ in range(5):  # the definition: a roulette draw, then one among the others
        first = int(roulette(fitness, 1, rng)[0])
        others = np.array([i for i in range(4) if i != first])
        want.append([first, int(others[roulette(fitness[others], 1, rng)[0]])])
    assert pairs.tolist() == want
    rng = np.random.default_rng(4)
    same = [[int(roulette(fitness, 1, rng)[0]), int(roulette(fitness, 1, rng)[0])] for _ in range(5)]
    assert select_parents(fitness, 5, np.random.default_rng(4), distinct=False).tolist() == same


def test_two_candidates_always_pair_with_each_other_and_one_pairs_with_itself():
    pairs = select_parents([1.0, 1.0], 50, np.random.default_rng(5))
    assert {tuple(p) for p in pairs.tolist()} == {(0, 1), (1, 0)}
    assert select_parents([2.0], 3, np.random.default_rng(5)).tolist() == [[0, 0]] * 3


def test_tournament_selection_defaults_to_pairs():
    fitness = np.arange(4.0)
    pairs = select_parents(fitness, 3000, np.random.default_rng(6), method="tournament", distinct=False)
    # the worst wins a 2-entrant tournament only when drawn twice: 1/16 (a 3-entrant one: 1/64)
    assert np.mean(pairs == 0) == pytest.approx(1 / 16, abs=0.015)


def test_select_parents_refuses_empty_or_non_vector_fitness_and_unknown_methods():
    rng = np.random.default_rng(0)
    assert message(lambda: select_parents([], 1, rng)) == "parent selection needs at least one candidate"
    assert message(lambda: select_parents([[1.0, 2.0]], 1, rng)) == "parent selection needs at least one candidate"
    assert message(lambda: select_parents([1.0], 1, rng, method="roulete")) == \
        "unknown selection 'roulete' (did you mean 'roulette'?); known: roulette, tournament"
