"""Seed-003 notation: printing and parsing give back the same program, and bad text is refused at the right token."""
import re
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay import gp
from evoplay.errors import SpecError
from evoplay.gp.notation import format_number
from evoplay.gp.primitives import ABS, ADD, CONST, EPHEMERAL, FEATURE, FIXED, IF_LT, MAX, MIN, NEG, RANDOM, VALUE_AT


def every_op_pset(random: bool = True, ephemeral: bool = True):
    pset = gp.PrimitiveSet("all", n_features=5)
    pset.add_functions("add", "sub", "mul", "div", "min", "max", "neg", "abs", "if_lt", "value_at")
    for i, name in enumerate(["a", "b", "c", "d", "e"]):
        pset.add_feature(name, i)
    pset.add_integers(0, 3)
    if ephemeral:
        pset.add_ephemeral("k", -2.0, 2.0)
    if random:
        pset.add_random()
    return pset


PSET = every_op_pset()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(0, 6))
def test_printing_then_parsing_gives_back_the_same_program(seed, depth):
    program = gp.grow(PSET, np.random.default_rng(seed), depth, function_probability=0.6)
    text = gp.to_notation(program, PSET)
    back = gp.parse_notation(text, PSET)
    # the same tree to the bit: opcodes, arguments (feature index, fixed or ephemeral) and constants
    assert back == program
    assert gp.parse_notation(gp.to_notation(program, PSET, wrap=True), PSET) == program


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(0, 6))
def test_without_a_primitive_set_features_print_as_indices_and_numbers_parse_as_fixed(seed, depth):
    program = gp.grow(PSET, np.random.default_rng(seed), depth, function_probability=0.6)
    text = gp.to_notation(program)
    assert not re.search(r"\b[a-e]\b", text)  # no feature names, only f0..f4
    back = gp.parse_notation(text)
    assert back.opcodes.tolist() == program.opcodes.tolist()
    assert back.consts.tolist() == program.consts.tolist()
    want_args = np.where(program.opcodes == CONST, FIXED, program.args)
    assert back.args.tolist() == want_args.tolist()


def test_each_bracketed_function_and_leaf_parses_to_its_node():
    cases = {
        "min [(a), (b)]": [(MIN, 0, 0.0), (FEATURE, 0, 0.0), (FEATURE, 1, 0.0)],
        "max [(e), (2)]": [(MAX, 0, 0.0), (FEATURE, 4, 0.0), (CONST, FIXED, 2.0)],
        "neg [(c)]": [(NEG, 0, 0.0), (FEATURE, 2, 0.0)],
        "abs [(random)]": [(ABS, 0, 0.0), (RANDOM, 0, 0.0)],
        "value at [(0.5)]": [(VALUE_AT, 0, 0.0), (CONST, EPHEMERAL, 0.5)],
        "if (a) < (1) do (b) else do (-7)": [(IF_LT, 0, 0.0), (FEATURE, 0, 0.0), (CONST, FIXED, 1.0),
                                             (FEATURE, 1, 0.0), (CONST, EPHEMERAL, -7.0)],
        "(f3) + (d)": [(ADD, 0, 0.0), (FEATURE, 3, 0.0), (FEATURE, 3, 0.0)],
        "f12": [(FEATURE, 12, 0.0)],
    }
    for text, nodes in cases.items():
        p = gp.parse_notation(text, PSET)
        assert list(zip(p.opcodes.tolist(), p.args.tolist(), p.consts.tolist())) == nodes, text


def test_numbers_are_ephemeral_only_when_the_set_has_ephemerals_and_they_are_not_its_fixed_constants():
    with_eph = gp.parse_notation("(2) + (7)", PSET)
    assert with_eph.args.tolist() == [0, FIXED, EPHEMERAL]  # 2 is one of the integers 0..3, 7 is not
    plain = gp.parse_notation("(2) + (7)", every_op_pset(ephemeral=False))
    assert plain.args.tolist() == [0, FIXED, FIXED]
    assert gp.parse_notation("(2) + (7)").args.tolist() == [0, FIXED, FIXED]


def test_features_print_by_name_with_a_set_and_by_index_without():
    p = gp.parse_notation("(b) - (random)", PSET)
    assert gp.to_notation(p, PSET) == "(b) - (random)"
    assert gp.to_notation(p) == "(f1) - (random)"
    # an index the set does not name prints as f<index> and parses back to the same index
    q = gp.Program([FEATURE], [7], [0.0])
    assert gp.to_notation(q, PSET) == "f7"
    assert gp.parse_notation("f7", PSET) == q


def test_large_and_fractional_numbers_print_exactly():
    assert format_number(3.0) == "3"
    assert format_number(-3.0) == "-3"
    assert format_number(999999999999999.0) == "999999999999999"
    assert format_number(1e15) == "1000000000000000.0"  # from 1e15 on, integers print in float form
    assert format_number(2.5) == "2.5"
    for c in (1e15, -2.5e20, 0.1, 1 / 3):
        assert gp.parse_notation(format_number(c)).consts[0] == c


@pytest.mark.parametrize("text, pset, message", [
    ("((9) - (8)", None, "program text: expected ')' but found 'the end' at token 9 of '((9) - (8)'..."),
    ("(1) + ]", None, "program text: expected '(' but found ']' at token 5 of '(1) + ]'..."),
    ("min [(1), (2)", None, "program text: expected ']' but found 'the end' at token 10 of 'min [(1), (2)'..."),
    ("max [(1) (2)]", None, "program text: expected ',' but found '(' at token 6 of 'max [(1) (2)]'..."),
    ("neg [(1), (2)]", None, "program text: expected ']' but found ',' at token 6 of 'neg [(1), (2)]'..."),
    ("(9) -8", None, "program text: expected '(' but found '8' at token 5 of '(9) -8'..."),
    ("(1) $ (2)", None, "program text: cannot read '$ (2)' at character 5"),
    ("(1) $ 23456789012345678901234", None, "program text: cannot read '$ 234567890123456789' at character 5"),
    ("value at [(1)] -2", None, "program text: expected '(' but found '2' at token 9 of 'value at [(1)] -2'..."),
    ("value", None, "program text: unknown name 'value'; known: random, f0, f1, ... (feature indices)"),
    ("min", None, "program text: unknown name 'min'; known: random, f0, f1, ... (feature indices)"),
    ("5 [(1)]", None, "program text: unexpected '[' after the program (token 2)"),
    ("(1) + (2) (3)", None, "program text: unexpected '(' after the program (token 8)"),
    ("(1) + (2) + (3)", None, "program text: unexpected '+' after the program (token 8)"),
    ("a at [(1)]", PSET, "program text: unexpected 'at' after the program (token 2)"),
    ("", None, "program text: unexpected 'end of text' at token 1"),
    ("(1) + ,", None, "program text: expected '(' but found ',' at token 5 of '(1) + ,'..."),
    ("(1) + (])", None, "program text: unexpected ']' at token 6"),
    ("zz", PSET, "program text: unknown name 'zz'; known: random, a, b, c, d, e"),
    ("zz", None, "program text: unknown name 'zz'; known: random, f0, f1, ... (feature indices)"),
    ("(a) + (F1)", None, "program text: unknown name 'a'; known: random, f0, f1, ... (feature indices)"),
    ("(f1) + (F1)", None, "program text: unknown name 'F1'; known: random, f0, f1, ... (feature indices)"),
    ("min [(1), (2)]", gp.seed003_primitive_set(),
     "program uses 'min', which primitive set 'seed003' does not have (its functions: if_lt, add, sub, value_at)"),
])
def test_bad_text_is_refused_with_what_and_where(text, pset, message):
    with pytest.raises(SpecError) as err:
        gp.parse_notation(text, pset)
    assert str(err.value) == message


def test_a_long_text_is_quoted_up_to_60_characters():
    text = "(" + "(1) + " * 20 + "(2)"
    with pytest.raises(SpecError) as err:
        gp.parse_notation(text)
    assert str(err.value).endswith(f"of {text[:60]!r}...")
    assert len(text) > 61


def test_very_deep_programs_print_and_parse():
    depth = 3000  # far past Python's default recursion limit of 1000 frames
    program = gp.Program([NEG] * depth + [CONST], [0] * (depth + 1), [0.0] * depth + [4.0])
    text = gp.to_notation(program)
    assert text.startswith("neg [(neg [(") and text.count("neg") == depth
    assert gp.parse_notation(text) == program


def test_programs_deeper_than_the_default_recursion_limit_print_and_parse_from_a_fresh_limit():
    depth = 600  # about three frames per level: past Python's default limit of 1000 unless it is raised
    program = gp.Program([NEG] * depth + [CONST], [0] * (depth + 1), [0.0] * depth + [1.0])
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        assert gp.parse_notation(gp.to_notation(program)) == program
    finally:
        sys.setrecursionlimit(max(old, sys.getrecursionlimit()))
