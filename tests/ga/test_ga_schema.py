"""The GA engine's genome schemas: encoding, decoding and the checks on a user's fields."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay.errors import ConfigError
from evoplay.ga import Field, Schema


@st.composite
def schemas_and_records(draw):
    n = draw(st.integers(1, 8))
    fields = [Field(f"f{i}", draw(st.integers(1, 12)), draw(st.integers(-50, 50))) for i in range(n)]
    schema = Schema(fields)
    record = {f.name: draw(st.integers(f.low, f.high)) for f in fields}
    return schema, record


@settings(max_examples=60, deadline=None)
@given(schemas_and_records())
def test_encode_then_decode_gives_the_record_back(pair):
    schema, record = pair
    bits = schema.encode(record)
    assert bits.shape == (schema.length,) and set(np.unique(bits)) <= {0, 1}
    assert schema.decode(bits) == record
    assert schema.decode(schema.from_string(Schema.to_string(bits))) == record


@settings(max_examples=50, deadline=None)
@given(schemas_and_records(), st.integers(0, 2**32 - 1))
def test_decode_many_matches_decoding_each_genome(pair, seed):
    schema, _ = pair
    pop = schema.random(7, np.random.default_rng(seed))
    many = schema.decode_many(pop)
    for row, bits in zip(many, pop):
        assert list(row) == list(schema.decode(bits).values())


def test_most_significant_bit_first_and_low_offset():
    schema = Schema([Field("a", 8), Field("b", 3, low=-4)])
    bits = schema.encode({"a": 200, "b": -1})
    assert Schema.to_string(bits) == "11001000" + "011"
    assert schema.field("b").high == 3
    assert schema.slice("b") == slice(8, 11)


def test_from_list_reads_the_toml_form_and_round_trips():
    items = [{"name": "store", "bits": 6, "low": -32}, {"name": "search_depth", "bits": 3, "low": 1, "help": "d"}]
    schema = Schema.from_list(items)
    assert schema.length == 9 and schema.names == ["store", "search_depth"]
    assert Schema.from_list(schema.to_list()) == schema


@pytest.mark.parametrize(
    "items, words",
    [
        ([], "non-empty list"),
        ([{"name": "a"}], "needs both 'name' and 'bits'"),
        ([{"name": "a", "bits": 0}], "bits=0"),
        ([{"name": "a", "bits": 99}], "1..62"),
        ([{"name": "a b", "bits": 3}], "identifier"),
        ([{"name": "a", "bits": 3}, {"name": "a", "bits": 2}], "appears twice"),
        ([{"name": "a", "bits": 3, "width": 2}], "unknown key(s) width"),
        ([{"name": "a", "bits": 3, "low": 1.5}], "low=1.5"),
        (["a:3"], "must be a table"),
    ],
)
def test_bad_fields_are_explained(items, words):
    with pytest.raises(ConfigError, match=None) as err:
        Schema.from_list(items)
    assert words in str(err.value)


def test_encode_checks_the_record():
    schema = Schema([Field("a", 2), Field("b", 2)])
    with pytest.raises(ConfigError, match="missing: b"):
        schema.encode({"a": 1})
    with pytest.raises(ConfigError, match="out of range 0..3"):
        schema.encode({"a": 4, "b": 0})
    with pytest.raises(ConfigError, match="4 bits"):
        schema.decode_many(np.zeros((2, 5), np.uint8))
    with pytest.raises(ConfigError, match="0 or 1"):
        schema.decode(np.array([0, 2, 0, 1]))
    with pytest.raises(ConfigError, match="string of 4"):
        schema.from_string("01")
