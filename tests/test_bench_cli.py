"""evoplay bench prints each benchmark's table as it finishes and keeps the finished ones when interrupted."""
import json
import re

import pytest
from click.testing import CliRunner

import evoplay.bench as bench
from evoplay.cli import main


def _fake_registry(calls):
    def first(quick):
        calls.append(("first", quick))
        return bench.BenchResult("first", [bench.Figure("a [bracketed] figure", 2.0, "x", "<= 3", True, 1.0, "ref")],
                                 "evoplay bench first")

    def second(quick):
        calls.append(("second", quick))
        raise KeyboardInterrupt

    return {"first": bench.Benchmark("first", first, "the first"), "second": bench.Benchmark("second", second, "ctrl-c")}


@pytest.fixture
def fake(monkeypatch):
    calls = []
    monkeypatch.setattr(bench, "load_all", lambda: _fake_registry(calls))
    return calls


def test_a_table_is_printed_before_the_next_benchmark_starts_and_ctrl_c_keeps_it(fake):
    result = CliRunner().invoke(main, ["bench", "--quick"])
    assert result.exit_code == 130
    text = result.output
    assert text.index("a [bracketed] figure") < text.index("running second")  # printed whole, as it finished
    assert "interrupted: 1 of 2 benchmark(s) finished (first)" in text
    assert fake == [("first", True), ("second", True)]


def test_json_keeps_the_finished_benchmarks_when_interrupted(fake):
    result = CliRunner().invoke(main, ["bench", "first", "second", "--json"])
    assert result.exit_code == 130
    data = json.loads(result.output[: result.output.rindex("]") + 1])
    assert [r["name"] for r in data] == ["first"] and data[0]["figures"][0]["ratio"] == 2.0


def test_the_quick_flag_reaches_every_benchmark_and_ends_with_the_time_and_load(monkeypatch):
    calls = []
    registry = _fake_registry(calls)
    del registry["second"]
    monkeypatch.setattr(bench, "load_all", lambda: registry)
    result = CliRunner().invoke(main, ["bench", "--quick"])
    assert result.exit_code == 0 and calls == [("first", True)]
    assert "1 benchmark(s) in" in result.output and "load average" in result.output


def test_a_benchmark_that_takes_games_measures_the_specs_after_its_name(monkeypatch):
    calls = []
    registry = _fake_registry(calls)

    def games(quick, games=None):
        calls.append(("games", quick, games))
        return bench.BenchResult("games", [bench.Figure("one", 1.0, "x")], "evoplay bench games")

    registry["games"] = bench.Benchmark("games", games, "takes games", takes_games=True)
    del registry["second"]
    monkeypatch.setattr(bench, "load_all", lambda: registry)
    result = CliRunner().invoke(main, ["bench", "games", "my.py:MyGame", "openspiel:tic_tac_toe", "first"])
    assert result.exit_code == 0, result.output
    assert calls == [("games", False, ["my.py:MyGame", "openspiel:tic_tac_toe"]), ("first", False)]
    result = CliRunner().invoke(main, ["bench", "first", "my.py:MyGame"])
    assert result.exit_code == 2
    assert "unknown benchmark 'my.py:MyGame'" in result.output and "measures games: games" in result.output


def test_a_narrow_terminal_gets_each_figure_as_two_short_lines():
    from rich.console import Console

    from evoplay.cli.tools import _bench_table

    r = bench.BenchResult("first", [bench.Figure("Kalah random playouts per second, one core", 438000.0, "/s",
                                                 ">= 400,000", True, 7400.0, "Python reference")], "evoplay bench x")
    console = Console(width=80, record=True)
    console.print(_bench_table(r, 3.0, width=80))
    lines = [line for line in console.export_text().splitlines() if line.strip()]
    assert lines[1] == "Kalah random playouts per second, one core"
    assert lines[2] == "    438,000 /s; 7,400 Python reference (59.2x); target >= 400,000: yes"
    assert all(len(line) <= 80 for line in lines)


def _judged_registry(calls):
    def sizes(quick):
        calls.append(quick)
        figures = [bench.Figure("playouts per second", 150.0, "/s", ">= 400", False, 1.5, "ref"),
                   bench.Figure("a move", 1.0, "ms", "<= 2 ms", True)]
        return bench.BenchResult("sizes", figures, "evoplay bench sizes")

    return {"sizes": bench.Benchmark("sizes", sizes, "a target met and one not")}


@pytest.mark.parametrize("width", [80, 140])
def test_a_quick_run_judges_no_figure_against_a_full_runs_target(monkeypatch, width):
    from rich.console import Console

    from evoplay.cli.tools import _bench_table

    calls = []
    monkeypatch.setattr(bench, "load_all", lambda: _judged_registry(calls))
    r = bench.run_benchmark(bench.load_all()["sizes"], True)
    assert r.quick and r.command == "evoplay bench sizes --quick" and [f.met for f in r.figures] == [None, None]
    console = Console(width=width, record=True)
    console.print(_bench_table(r, 1.0, width=width))
    text = console.export_text()
    assert text.count("quick, not judged") == 2 and ">= 400" in text and "100.0x" in text
    assert " no" not in text.replace("not judged", "") and "yes" not in text
    data = json.loads(CliRunner().invoke(main, ["bench", "--quick", "--json"]).output)
    assert data[0]["quick"] is True and [f["met"] for f in data[0]["figures"]] == [None, None]


def test_a_full_run_judges_its_figures(monkeypatch):
    calls = []
    monkeypatch.setattr(bench, "load_all", lambda: _judged_registry(calls))
    result = CliRunner().invoke(main, ["bench", "sizes", "--json"])
    data = json.loads(result.output)
    assert calls == [False] and data[0]["quick"] is False and [f["met"] for f in data[0]["figures"]] == [False, True]
    text = CliRunner().invoke(main, ["bench", "sizes"]).output
    assert "not judged" not in text and re.search(r"\bno\b", text) and re.search(r"\byes\b", text)


def test_a_long_figure_wraps_indented_under_itself_at_80_columns():
    from rich.console import Console

    from evoplay.cli.tools import _bench_table

    note = "per move (5.5 legal actions on average): features 53.6 us + stacking 62.7 + program 1.6 + choice 3.1"
    r = bench.BenchResult("x", [bench.Figure("what evoplay adds to a GP move (features, stacking, program, choice) / "
                                             "the game's own work in it", 0.51, "x", note=note)], "evoplay bench x")
    console = Console(width=80, record=True)
    console.print(_bench_table(r, 3.0, width=80))
    lines = [line for line in console.export_text().splitlines() if line.strip()]
    assert all(len(line) <= 80 for line in lines)
    assert [line[:6] for line in lines[1:]] == ["what e", "  game", "    0.", "    pe", "      "]


def test_learns_games_a_seat_reach_it_beside_the_game_specs(monkeypatch):
    """``--games`` (learn's games a seat) and the game specs named after ``learn`` are two things."""
    from evoplay import bench

    seen = {}

    def fake(quick, specs=None, **options):
        seen.update(specs=specs, **options)
        return bench.BenchResult("learn", [], "evoplay bench learn")
    monkeypatch.setattr(bench.load_all()["learn"], "run", fake)
    result = CliRunner().invoke(main, ["bench", "learn", "kalah", "--games", "3", "--seeds", "0,1"])
    assert result.exit_code == 0, result.output
    assert seen["specs"] == ["kalah"] and seen["games"] == 3 and seen["seeds"] == "0,1"
