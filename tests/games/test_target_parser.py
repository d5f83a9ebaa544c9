"""The player's expression: lexer and parser positions, the three kinds of error, ASCII digits, fuzzing."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evoplay.games.target import game as T
from evoplay.games.target.parser import (ExpressionError, TargetArithmeticError, TargetInputError,
                                         TargetSyntaxError, parse_expression, tokens)

DRAW = [3, 7, 9, 1, 15, 75]


def test_values_and_precedence():
    assert parse_expression("(75 + 15 * 3 + 1) * 7", DRAW).value == 847
    assert parse_expression("75 - 15 - 9", DRAW).value == 51  # left to right
    assert parse_expression("75 / 15 * 3", DRAW).value == 15
    assert parse_expression(" [ 9 + 1 ] x 7 : 7 ", [9, 1, 7, 7]).value == 10  # friendly symbols
    assert parse_expression("3 \u00d7 7 \u2212 1", DRAW).canonical == "3 * 7 - 1"


@pytest.mark.parametrize("text, kind, position, words", [
    ("", TargetSyntaxError, 0, "empty expression"),
    ("   ", TargetSyntaxError, 0, "empty expression"),
    ("3 + a", TargetSyntaxError, 4, "unknown character 'a'"),
    ("3 4", TargetSyntaxError, 2, "missing operator"),
    ("(3 + 7", TargetSyntaxError, 6, "missing ')'"),
    ("3 + 7)", TargetSyntaxError, 5, "without a matching '('"),
    ("3 * ()", TargetSyntaxError, 5, "empty brackets"),
    ("3 +", TargetSyntaxError, 3, "ends too early"),
    ("-3 + 7", TargetSyntaxError, 0, "no negative numbers"),
    ("3 (7)", TargetSyntaxError, 2, "missing operator before '('"),
    ("23 + 7", TargetInputError, 0, "23 was not drawn"),
    ("7 + 7", TargetInputError, 4, "used more often than it was drawn (once)"),
    ("07 + 3", TargetInputError, 0, "leading zero"),
    ("3 - 7", TargetArithmeticError, 2, "must be a positive integer"),
    ("(1 - 3) * 9", TargetArithmeticError, 3, "must be a positive integer"),
    ("75 / 7", TargetArithmeticError, 3, "not a whole number"),
])
def test_errors_say_what_and_where(text, kind, position, words):
    with pytest.raises(kind) as info:
        parse_expression(text, DRAW)
    err = info.value
    assert err.position == position
    assert words in str(err)
    line, caret = err.caret().split("\n")
    assert line == text and caret.index("^") == position


def test_division_by_zero_without_a_draw():
    with pytest.raises(TargetArithmeticError, match="division by zero"):
        parse_expression("5 / 0")
    with pytest.raises(TargetArithmeticError, match="positive"):
        parse_expression("0")
    assert parse_expression("123 * 2").value == 246  # no draw: every number allowed


@pytest.mark.parametrize("digit", ["\u0663", "\u06f3", "\uff13", "\u0969", "\u00b3", "\U0001d7d1"])
def test_only_ascii_digits_make_numbers(digit):
    with pytest.raises(TargetSyntaxError, match="only the digits 0-9") as err:
        parse_expression(f"7 + {digit}", DRAW)
    assert err.value.position == 4  # the caret points at the foreign digit


def test_tokens_keep_positions():
    toks = list(tokens(" 15*(3 + 75)"))
    assert [(t.type, t.position) for t in toks] == [
        ("number", 1), ("operator", 3), ("(", 4), ("number", 5), ("operator", 7), ("number", 9), (")", 11),
        ("end", 12)]


def _trees(numbers):
    leaves = st.sampled_from(numbers)
    return st.recursive(leaves, lambda sub: st.tuples(st.sampled_from([1, 2, 3, 4]), sub, sub), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(_trees([1, 2, 3, 5, 7, 10, 25, 100]))
def test_printed_expressions_parse_back_to_their_value(expr):
    text = T.format_expr(expr)
    value = T.evaluate(expr)
    if value is None:
        with pytest.raises(TargetArithmeticError):
            parse_expression(text)
    else:
        parsed = parse_expression(text)
        assert parsed.value == value
        assert T.evaluate(parsed.expr) == value


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(), max_size=40) | st.text(alphabet="0123456789+-*/() x:[]\u0663", max_size=30))
def test_no_string_crashes_the_parser(text):
    try:
        parsed = parse_expression(text, DRAW)
    except ExpressionError as err:
        assert 0 <= err.position <= len(text)
        err.caret()
    else:
        assert parsed.value > 0 and T.uses_only(parsed.expr, DRAW)


def fuzz_inputs(count: int, seed: int):
    """Generated inputs: mutations of valid expressions, random strings over the expression alphabet and beyond."""
    rng = random.Random(seed)
    alphabet = "0123456789+-*/()[] x:\u00d7\u2212\u0663\uff13\t\n\x00\u00e9"
    for _ in range(count):
        kind = rng.random()
        if kind < 0.4:
            expr = rng.choice([1, 3, 7, 9, 15, 75])
            for _ in range(rng.randint(0, 5)):
                expr = (rng.randint(1, 4), expr, rng.choice([1, 3, 7, 9, 15, 75])) if rng.random() < 0.5 else \
                    (rng.randint(1, 4), rng.choice([1, 3, 7, 9, 15, 75]), expr)
            s = list(T.format_expr(expr))
            for _ in range(rng.randint(0, 3)):
                op = rng.random()
                pos = rng.randrange(len(s) + 1)
                if op < 0.4:
                    s.insert(pos, rng.choice(alphabet))
                elif op < 0.7 and s:
                    del s[min(pos, len(s) - 1)]
                elif s:
                    s[min(pos, len(s) - 1)] = rng.choice(alphabet)
            yield "".join(s)
        elif kind < 0.8:
            yield "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))
        else:
            yield "".join(chr(rng.randint(0, 0x10FFFF if rng.random() < 0.3 else 0x7F)) for _ in range(rng.randint(0, 20)))


def test_fuzz_100k_generated_inputs_nothing_crashes():
    outcomes = {"ok": 0, "syntax": 0, "input": 0, "arithmetic": 0}
    n = 0
    for text in fuzz_inputs(100_000, 2026):
        n += 1
        try:
            parsed = parse_expression(text, DRAW)
        except ExpressionError as err:
            outcomes[err.kind] += 1
            assert 0 <= err.position <= len(text)
        else:
            outcomes["ok"] += 1
            assert T.evaluate(parsed.expr) == parsed.value
    assert n == 100_000
    assert all(v > 100 for v in outcomes.values()), outcomes  # the generator reaches every outcome
