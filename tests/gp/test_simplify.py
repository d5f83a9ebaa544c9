"""Simplification: each rewrite rule fires where the module docstring says, and only there."""
import pytest

from evoplay import gp
from evoplay.gp.primitives import EPHEMERAL, FIXED


def pset(ephemeral: bool = True, n_features: int = 5):
    p = gp.PrimitiveSet("s", n_features=n_features)
    p.add_functions("add", "sub", "mul", "div", "min", "max", "neg", "abs", "if_lt", "value_at")
    for i, name in enumerate(["a", "b", "c", "d", "e"][:n_features]):
        p.add_feature(name, i)
    p.add_integers(0, 3)
    if ephemeral:
        p.add_ephemeral("k", -2.0, 2.0)
    return p.add_random()


PSET = pset()


@pytest.mark.parametrize("text, want", [
    ("(a) + (0)", "a"), ("(0) + (a)", "a"), ("(a) + (1)", "(a) + (1)"), ("(1) + (a)", "(1) + (a)"),
    ("(a) - (0)", "a"), ("(0) - (a)", "(0) - (a)"), ("(a) - (1)", "(a) - (1)"),
    ("(a) - (a)", "0"), ("(random) - (random)", "(random) - (random)"), ("(a) - (b)", "(a) - (b)"),
    ("(a) * (1)", "a"), ("(1) * (a)", "a"), ("(a) * (2)", "(a) * (2)"), ("(2) * (a)", "(2) * (a)"),
    ("(a) * (0)", "(a) * (0)"),  # NaN for an infinite a, so never folded
    ("(a) / (1)", "a"), ("(1) / (a)", "(1) / (a)"), ("(a) / (2)", "(a) / (2)"),
    ("min [(a), (a)]", "a"), ("max [(b), (b)]", "b"), ("max [(a), (b)]", "max [(a), (b)]"),
    ("min [(random), (random)]", "min [(random), (random)]"),
    ("neg [(neg [(a)])]", "a"), ("neg [(abs [(a)])]", "neg [(abs [(a)])]"), ("neg [(f9)]", "neg [(f9)]"),
    ("(1) + ((2) * (3))", "7"), ("(a) + ((2) - (2))", "a"), ("((a) * (1)) - ((1) * (a))", "0"),
    ("value at [(7)]", "value at [(2)]"), ("value at [(2)]", "value at [(2)]"),
    ("(a) + (value at [(-1)])", "(a) + (value at [(4)])"),
    ("if (1) < (2) do (a) else do (b)", "a"), ("if (2) < (1) do (a) else do (b)", "b"),
    ("if (1) < (1) do (a) else do (b)", "b"),
    ("if (1) < (2) do (a) else do (random)", "if (1) < (2) do (a) else do (random)"),
    ("if (1) < (2) do (random) else do (a)", "random"),
    ("if (a) < (a) do (b) else do (e)", "e"), ("if (random) < (random) do (b) else do (e)",
                                               "if (random) < (random) do (b) else do (e)"),
    ("if (a) < (a) do (random) else do (e)", "if (a) < (a) do (random) else do (e)"),
    ("if (a) < (b) do (c) else do (c)", "c"), ("if (random) < (b) do (c) else do (c)",
                                               "if (random) < (b) do (c) else do (c)"),
    ("if (a) < (random) do (c) else do (c)", "if (a) < (random) do (c) else do (c)"),
    ("if (a) < (b) do (random) else do (random)", "if (a) < (b) do (random) else do (random)"),
    ("if (a) < (b) do (c) else do (d)", "if (a) < (b) do (c) else do (d)"),
])
def test_each_rule_fires_only_where_it_keeps_the_value(text, want):
    assert gp.to_notation(gp.simplify(gp.parse_notation(text, PSET), PSET), PSET) == want


def test_folded_constants_are_mutable_only_when_the_set_has_ephemerals():
    folded = gp.simplify(gp.parse_notation("(1) + (2)", PSET), PSET)
    assert folded.args.tolist() == [EPHEMERAL] and folded.consts.tolist() == [3.0]
    plain = pset(ephemeral=False)
    assert gp.simplify(gp.parse_notation("(1) + (2)", plain), plain).args.tolist() == [FIXED]
    assert gp.simplify(gp.parse_notation("(1) + (2)")).args.tolist() == [FIXED]


def test_value_at_wraps_its_constant_index_by_the_row_length_and_keeps_its_kind():
    wrapped = gp.simplify(gp.parse_notation("value at [(-1)]", PSET), PSET)
    assert wrapped.consts.tolist() == [0.0, 4.0]
    assert wrapped.args.tolist() == [0, EPHEMERAL]  # -1 is no fixed constant of PSET, so it was ephemeral
    one = pset(n_features=1)
    assert gp.to_notation(gp.simplify(gp.parse_notation("value at [(3)]", one), one)) == "value at [(0)]"
    # without a primitive set the row length is unknown: nothing is wrapped
    assert gp.to_notation(gp.simplify(gp.parse_notation("value at [(7)]"))) == "value at [(7)]"
