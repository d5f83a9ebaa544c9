"""The target game's expression errors, word for word, with their column and the width of their caret."""
import pytest

from evoplay.games.target.parser import MAX_NESTING, MAX_NUMBERS, parse_expression

DRAW = [3, 7, 9, 1, 15, 75]
ONLY_DIGITS = "use numbers, + - * / and brackets"


@pytest.mark.parametrize("text, draw, message, width", [
    ("", DRAW, "syntax error at column 1: empty expression; type one such as 75 * 9 + 3", 1),
    ("3 + a", DRAW, f"syntax error at column 5: unknown character 'a'; {ONLY_DIGITS}", 1),
    ("3 + \u00b2", DRAW, f"syntax error at column 5: unknown character '\u00b2' (only the digits 0-9 make numbers); "
                         f"{ONLY_DIGITS}", 1),
    ("3 4", DRAW, "syntax error at column 3: missing operator before this number (+ - * /)", 1),
    ("3 75", DRAW, "syntax error at column 3: missing operator before this number (+ - * /)", 2),
    ("(3 + 7", DRAW, "syntax error at column 7: missing ')' to close the '(' at column 1", 1),
    ("1 + (3 + 7 75)", DRAW, "syntax error at column 12: missing operator or ')' (to close the '(' at column 5)", 2),
    ("3 + 7)", DRAW, "syntax error at column 6: ')' without a matching '('", 1),
    ("3 ) 7", DRAW, "syntax error at column 3: ')' without a matching '('", 1),
    ("3 * ()", DRAW, "syntax error at column 6: empty brackets; put an expression inside", 1),
    ("3 +", DRAW, "syntax error at column 4: the expression ends too early; a number or '(' is missing", 1),
    ("-3 + 7", DRAW, "syntax error at column 1: a number or '(' is missing before '-' (there are no negative numbers)",
     1),
    ("3 * \u22127", DRAW, "syntax error at column 5: a number or '(' is missing before '-' (there are no negative "
                          "numbers)", 1),
    ("3 * / 7", DRAW, "syntax error at column 5: a number or '(' is missing before '/'", 1),
    ("3 * \u00f7 7", DRAW, "syntax error at column 5: a number or '(' is missing before '\u00f7'", 1),
    ("3 + (+ 7)", DRAW, "syntax error at column 6: a number or '(' is missing before '+'", 1),
    ("3 * )", DRAW, "syntax error at column 5: ')' where a number or '(' should be", 1),
    ("3 (7)", DRAW, "syntax error at column 3: missing operator before '('", 1),
    ("23 + 7", DRAW, "input error at column 1: 23 was not drawn; the numbers are 3 7 9 1 15 75", 2),
    ("7 + 7", DRAW, "input error at column 5: 7 is used more often than it was drawn (once)", 1),
    ("9 + 9 + 9", [9, 9], "input error at column 9: 9 is used more often than it was drawn (twice)", 1),
    ("9 + 9 + 9 + 9", [9, 9, 9], "input error at column 13: 9 is used more often than it was drawn (3 times)", 1),
    ("07 + 3", DRAW, "input error at column 1: 07 has a leading zero; write the number as drawn", 2),
    ("1234567890 + 3", DRAW, "input error at column 1: 1234567890 was not drawn; the numbers are 3 7 9 1 15 75", 10),
    ("1234567890 + 3", None, "input error at column 1: 1234567890 is too large a number", 10),
    ("3 - 7", DRAW, "arithmetic error at column 3: 3 - 7 = -4: every intermediate result must be a positive integer",
     1),
    ("(9 + 1) - (7 + 3)", DRAW, "arithmetic error at column 9: 10 - 10 = 0: every intermediate result must be a "
                                "positive integer", 1),
    ("75 / 7", DRAW, "arithmetic error at column 4: 75 / 7 is not a whole number", 1),
    ("5 / 0", None, "arithmetic error at column 3: 5 / 0: division by zero", 1),
    ("2 * 0", None, "arithmetic error at column 5: 0 is not a positive integer; every number and result must be", 1),
])
def test_each_error_is_one_line_with_its_column_and_caret(text, draw, message, width):
    with pytest.raises(Exception) as info:
        parse_expression(text, draw)
    err = info.value
    assert str(err) == message
    column = int(message.split("column ")[1].split(":")[0])
    assert err.caret("  ") == f"  {text}\n  {' ' * (column - 1)}{'^' * width}"


def test_the_limits_on_nesting_and_numbers_are_exact():
    deepest = "(" * MAX_NESTING + "3" + ")" * MAX_NESTING
    assert parse_expression(deepest).value == 3
    with pytest.raises(Exception) as info:
        parse_expression("(" + deepest + ")")
    assert str(info.value) == f"syntax error at column {MAX_NESTING + 1}: brackets nested more than 50 deep"
    most = " + ".join(["1"] * MAX_NUMBERS)
    assert parse_expression(most).value == MAX_NUMBERS
    with pytest.raises(Exception) as info:
        parse_expression(most + " + 12")
    assert str(info.value) == (f"syntax error at column {len(most) + 4}: too many numbers: an expression holds at "
                               f"most 64 (a draw has six)")
    assert info.value.caret().endswith("^^")
    with pytest.raises(TypeError) as info:
        parse_expression(75)
    assert str(info.value) == "parse_expression takes a string, not int"


def test_spaces_and_tabs_separate_tokens_and_values_are_exact():
    result = parse_expression("\t75 *\t9 + 3 ", [75, 9, 3])
    assert result.value == 678 and result.canonical == "75 * 9 + 3" and result.text == "\t75 *\t9 + 3 "
    assert parse_expression("75 - 9 - 3").value == 63 and parse_expression("75 / 15 / 5").value == 1
    assert type(parse_expression("75 / 15").value) is int  # exact division gives an int, never a float
    assert parse_expression("3 - 1", [3, 1]).value == 2
