"""The player's expression in the target-number game: a lexer and a recursive-descent parser that keep positions.

Three kinds of error, each with a message and a caret under the place (``err.caret()``):

- ``TargetSyntaxError``: an unknown character, a missing operator or operand, unbalanced brackets, an empty input;
- ``TargetInputError``: a number that was not drawn, or one used more often than drawn;
- ``TargetArithmeticError``: a result that is not a positive integer, a division that is not exact, division by 0.

Only ASCII digits make numbers (Python's ``int()`` also takes other scripts' digits; the game must not). For
comfort ``x``, ``×`` and ``·`` also mean ``*``, ``:`` and ``÷`` mean ``/`` (``:`` is how division is written in
Serbian schools, where the seed's game comes from), ``−`` means ``-``, and ``[ ]`` are brackets too.
The grammar::

    expression := term (("+" | "-") term)*
    term       := factor (("*" | "/") factor)*
    factor     := number | "(" expression ")"
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from evoplay.errors import EvoplayError
from evoplay.games.target.game import ADD, DIV, MUL, SUB, format_expr

_OPERATORS = {"+": ADD, "-": SUB, "\u2212": SUB, "*": MUL, "x": MUL, "X": MUL, "\u00d7": MUL, "\u00b7": MUL,
              "/": DIV, ":": DIV, "\u00f7": DIV}
_OPEN, _CLOSE = "([", ")]"
_SPACE = " \t"
_MAX_DIGITS = 9  # a longer number cannot have been drawn; it is reported without converting it
# Far beyond any answer (a draw has six numbers), and low enough that the recursive parser and evaluator never
# come near Python's recursion limit: past these an expression gets a caret message, not a RecursionError.
MAX_NESTING = 50
MAX_NUMBERS = 64

NUMBER, OPERATOR, LPAREN, RPAREN, END = "number", "operator", "(", ")", "end"


class ExpressionError(EvoplayError, ValueError):
    """A mistake in the player's expression at ``position`` (0-based) of ``text``."""

    kind = "expression"

    def __init__(self, message: str, text: str, position: int, width: int = 1):
        super().__init__(message)
        self.message = message
        self.text = text
        self.position = max(0, min(position, len(text)))
        self.width = max(1, width)

    def caret(self, indent: str = "") -> str:
        """The input and a caret line under the place of the error."""
        return f"{indent}{self.text}\n{indent}{' ' * self.position}{'^' * self.width}"

    def __str__(self) -> str:
        return f"{self.kind} error at column {self.position + 1}: {self.message}"


class TargetSyntaxError(ExpressionError):
    kind = "syntax"


class TargetInputError(ExpressionError):
    kind = "input"


class TargetArithmeticError(ExpressionError):
    kind = "arithmetic"


@dataclass(frozen=True)
class Token:
    type: str
    position: int
    end: int
    value: int = 0  # a number's value, or an operator's code
    digits: str = ""


def tokens(text: str):
    """Yield the tokens of ``text``, ending with an END token; raise TargetSyntaxError at an unknown character."""
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in _SPACE:
            i += 1
        if i >= n:
            yield Token(END, n, n)
            return
        c = text[i]
        if c in _OPEN:
            yield Token(LPAREN, i, i + 1)
            i += 1
        elif c in _CLOSE:
            yield Token(RPAREN, i, i + 1)
            i += 1
        elif c in _OPERATORS:
            yield Token(OPERATOR, i, i + 1, _OPERATORS[c])
            i += 1
        elif "0" <= c <= "9":
            j = i
            while j < n and "0" <= text[j] <= "9":
                j += 1
            digits = text[i:j]
            value = int(digits) if len(digits) <= _MAX_DIGITS else -1
            yield Token(NUMBER, i, j, value, digits)
            i = j
        else:
            hint = " (only the digits 0-9 make numbers)" if c.isdigit() or c.isnumeric() else ""
            raise TargetSyntaxError(
                f"unknown character {c!r}{hint}; use numbers, + - * / and brackets", text, i)


# A parsed node keeps its place: ("num", value, start, end) or ("op", code, left, right, position).


class Parser:
    """Recursive descent over the tokens of one expression."""

    def __init__(self, text: str):
        self.text = text
        self._tokens = tokens(text)
        self.token = next(self._tokens)
        self.depth = 0
        self.numbers = 0

    def _advance(self) -> Token:
        tok = self.token
        self.token = next(self._tokens)
        return tok

    def parse(self):
        if self.token.type == END:
            raise TargetSyntaxError("empty expression; type one such as 75 * 9 + 3", self.text, 0)
        node = self._expression()
        tok = self.token
        if tok.type == RPAREN:
            raise TargetSyntaxError("')' without a matching '('", self.text, tok.position)
        if tok.type == NUMBER:
            raise TargetSyntaxError("missing operator before this number (+ - * /)", self.text, tok.position,
                                    tok.end - tok.position)
        if tok.type == LPAREN:
            raise TargetSyntaxError("missing operator before '('", self.text, tok.position)
        return node

    def _chain(self, operand, operators):
        """operand (op operand)*, left-associative, for the operators of one precedence level."""
        node = operand()
        while self.token.type == OPERATOR and self.token.value in operators:
            op = self._advance()
            node = ("op", op.value, node, operand(), op.position)
        return node

    def _expression(self):
        return self._chain(self._term, (ADD, SUB))

    def _term(self):
        return self._chain(self._factor, (MUL, DIV))

    def _factor(self):
        tok = self.token
        if tok.type == NUMBER:
            self.numbers += 1
            if self.numbers > MAX_NUMBERS:
                raise TargetSyntaxError(f"too many numbers: an expression holds at most {MAX_NUMBERS} "
                                        "(a draw has six)", self.text, tok.position, tok.end - tok.position)
            self._advance()
            return ("num", tok.value, tok.position, tok.end, tok.digits)
        if tok.type == LPAREN:
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise TargetSyntaxError(f"brackets nested more than {MAX_NESTING} deep", self.text, tok.position)
            node = self._bracketed(tok)
            self.depth -= 1
            return node
        return self._not_a_factor(tok)

    def _bracketed(self, tok: Token):
        """The bracketed expression that starts at ``tok`` (an opening bracket)."""
        self._advance()
        if self.token.type == RPAREN:
            raise TargetSyntaxError("empty brackets; put an expression inside", self.text, self.token.position)
        node = self._expression()
        if self.token.type != RPAREN:
            where = self.token.position
            if self.token.type == END:
                raise TargetSyntaxError(f"missing ')' to close the '(' at column {tok.position + 1}",
                                        self.text, where)
            raise TargetSyntaxError(f"missing operator or ')' (to close the '(' at column {tok.position + 1})",
                                    self.text, where, max(1, self.token.end - where))
        self._advance()
        return node

    def _not_a_factor(self, tok: Token):
        if tok.type == END:
            raise TargetSyntaxError("the expression ends too early; a number or '(' is missing", self.text,
                                    tok.position)
        if tok.type == OPERATOR:
            sym = self.text[tok.position]
            if tok.value == SUB:
                msg = "a number or '(' is missing before '-' (there are no negative numbers)"
            else:
                msg = f"a number or '(' is missing before {sym!r}"
            raise TargetSyntaxError(msg, self.text, tok.position)
        raise TargetSyntaxError("')' where a number or '(' should be", self.text, tok.position)


@dataclass(frozen=True)
class ParsedExpression:
    """A checked expression: its value and its tree (evoplay.games.target.game form)."""

    text: str
    value: int
    expr: object

    @property
    def canonical(self) -> str:
        return format_expr(self.expr)


def parse_expression(text: str, numbers=None) -> ParsedExpression:
    """Parse, check and evaluate the player's expression.

    With ``numbers`` (the draw), each number must be one that was drawn, used at most as often as drawn. Syntax is
    checked first over the whole input, then the numbers left to right, then the arithmetic in evaluation order.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_expression takes a string, not {type(text).__name__}")
    tree = Parser(text).parse()
    if numbers is not None:
        _check_numbers(tree, text, numbers)
    value, expr = _evaluate(tree, text)
    return ParsedExpression(text, value, expr)


def _number_nodes(node, out):
    if node[0] == "num":
        out.append(node)
    else:
        _number_nodes(node[2], out)
        _number_nodes(node[3], out)
    return out


def _check_numbers(tree, text, numbers) -> None:
    drawn = Counter(int(n) for n in numbers)
    shown = " ".join(str(n) for n in numbers)
    left = Counter(drawn)
    for _, value, start, end, digits in _number_nodes(tree, []):
        if len(digits) > 1 and digits[0] == "0":
            raise TargetInputError(f"{digits} has a leading zero; write the number as drawn", text, start, end - start)
        if value not in drawn:
            label = digits if value < 0 else str(value)
            raise TargetInputError(f"{label} was not drawn; the numbers are {shown}", text, start, end - start)
        if left[value] == 0:
            times = {1: "once", 2: "twice"}.get(drawn[value], f"{drawn[value]} times")
            raise TargetInputError(f"{value} is used more often than it was drawn ({times})", text, start, end - start)
        left[value] -= 1


def _evaluate(node, text):
    if node[0] == "num":
        if node[1] < 0:
            raise TargetInputError(f"{node[4]} is too large a number", text, node[2], node[3] - node[2])
        if node[1] == 0:
            raise TargetArithmeticError("0 is not a positive integer; every number and result must be", text,
                                        node[2])
        return node[1], node[1]
    _, op, left, right, pos = node
    a, ea = _evaluate(left, text)
    if op == DIV and right[0] == "num" and right[1] == 0:
        raise TargetArithmeticError(f"{a} / 0: division by zero", text, pos)
    b, eb = _evaluate(right, text)
    if op == ADD:
        return a + b, (op, ea, eb)
    if op == SUB:
        if a <= b:
            raise TargetArithmeticError(
                f"{a} - {b} = {a - b}: every intermediate result must be a positive integer", text, pos)
        return a - b, (op, ea, eb)
    if op == MUL:
        return a * b, (op, ea, eb)
    if a % b:
        raise TargetArithmeticError(f"{a} / {b} is not a whole number", text, pos)
    return a // b, (op, ea, eb)


__all__ = ["ExpressionError", "ParsedExpression", "TargetArithmeticError", "TargetInputError", "TargetSyntaxError",
           "parse_expression", "tokens"]
