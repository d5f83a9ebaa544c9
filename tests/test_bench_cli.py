"""evoplay bench prints each benchmark's table as it finishes and keeps the finished ones when interrupted."""
import json

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
