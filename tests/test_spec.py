"""Spec strings: parsing, typed parameters, and error messages that name what would be right."""
import pytest

from evoplay.errors import SpecError
from evoplay.spec import Param, Registry, parse_spec


def test_parse_forms():
    assert parse_spec("kalah").name == "kalah"
    p = parse_spec(" kalah( pits = 6 , empty_capture=true ) ")
    assert p.name == "kalah" and p.kwargs == {"pits": "6", "empty_capture": "true"}
    p = parse_spec("gp(runs/a-1/best.json)")
    assert p.args == ("runs/a-1/best.json",)
    p = parse_spec("weights(best.json, depth=3)")
    assert p.args == ("best.json",) and p.kwargs == {"depth": "3"}


@pytest.mark.parametrize("text,match", [
    ("", "empty"),
    ("kalah(pits=6", "must end with"),
    ("kalah)", "without"),
    ("kal ah", "not a name"),
    ("kalah(pits=6,,seeds=4)", "empty argument"),
    ("kalah(pits=6,pits=5)", "twice"),
    ("gp(depth=2, file.json)", "positional argument"),
])
def test_parse_errors(text, match):
    with pytest.raises(SpecError, match=match):
        parse_spec(text)


def _registry():
    r = Registry("thing")
    r.register("widget", lambda **kw: kw, (Param("path", str), Param("size", int, 3), Param("ratio", float, 0.5),
                                         Param("flag", bool, False)))
    return r


def test_registry_types_defaults_and_positional():
    _, values = _registry().resolve("widget(here.json, size=+4, ratio=1, flag=yes)")
    assert values == {"size": 4, "ratio": 1.0, "flag": True, "path": "here.json"}


@pytest.mark.parametrize("text,match", [
    ("wigdet", r"unknown thing 'wigdet' \(did you mean 'widget'\?\); known: widget"),
    ("widget(x, sise=2)", r"no parameter 'sise' \(did you mean 'size'\?\)"),
    ("widget(x, size=٣)", "not an integer"),  # non-ASCII digits are refused
    ("widget(x, size=2.5)", "not an integer"),
    ("widget(x, flag=perhaps)", "true or false"),
    ("widget", "needs parameter 'path'"),
    ("widget(a, 1, 2, 3, 4)", "at most 4 arguments"),
])
def test_registry_errors(text, match):
    with pytest.raises(SpecError, match=match):
        _registry().resolve(text)


def test_an_empty_default_reads_as_what_it_means_and_no_choice_prints_blank():
    p = Param("clock", str, "", "what ms measures", ("", "wall", "cpu"), empty="the file's own, else wall")
    assert p.describe() == "clock: wall or cpu; empty (the default): the file's own, else wall - what ms measures"
    assert Param("mode", str, "a", "how", ("a", "b", "c")).describe() == "mode: a, b or c, default a - how"
    assert Param("file", str, help="a run").describe() == "file: a string, required - a run"
    assert Param("depth", int, 0).describe() == "depth: an integer, default 0"


def test_every_parameter_with_an_empty_default_says_what_empty_means():
    from evoplay.agents import AGENTS, register_game_players
    from evoplay.games import GAMES, load_game

    for name in GAMES.names():  # the players a game's own package offers (Sevens' specimen) join the agents
        register_game_players(type(load_game(name)))
    params = [(e.name, p) for registry in (AGENTS, GAMES) for e in registry.entries() for p in e.params]
    assert any(p.default == "" for _, p in params)
    for owner, p in params:
        text = p.describe()
        assert "default ," not in text and ", ," not in text and "one of ," not in text, (owner, text)
        if p.default == "":
            assert p.empty, f"{owner}: parameter {p.name} has an empty default; say what it means (Param(empty=...))"
