"""The command line: listings, matches and tournaments, play in the terminal, benchmarks, errors with exit 2."""
import json

from click.testing import CliRunner

from evoplay.cli import main


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_lists_games_and_agents():
    assert "kalah" in run("games").output and "mnk" in run("games").output
    out = run("agents").output
    assert "alphabeta" in out and "random" in out and "human" in out


def test_match_json_is_reproducible():
    a = run("match", "kalah", "random", "alphabeta(depth=3)", "--games", "4", "--seed", "9", "--json",
            "--backend", "serial")
    b = run("match", "kalah", "random", "alphabeta(depth=3)", "--games", "4", "--seed", "9", "--json",
            "--workers", "2")
    assert a.exit_code == 0 and json.loads(a.output) == json.loads(b.output)
    data = json.loads(a.output)
    assert data["games"] == 4 and data["agents"][1]["wins"] == 4


def test_tournament_default_agents_on_kalah():
    r = run("tournament", "kalah", "--games", "1", "--workers", "2")
    assert r.exit_code == 0
    for name in ("random", "alphabeta(depth=2)", "alphabeta(depth=8)"):
        assert name in r.output


def test_tournament_json_same_on_one_and_two_workers():
    args = ("tournament", "mnk", "random", "alphabeta(depth=1)", "alphabeta(schedule=empty_cells)", "--games", "2",
            "--json")
    assert json.loads(run(*args, "--workers", "1").output) == json.loads(run(*args, "--workers", "2").output)


def test_errors_exit_2_and_name_the_choices():
    r = run("tournament", "kalha", "random", "random")
    assert r.exit_code == 2 and "unknown game 'kalha' (did you mean 'kalah'?)" in r.output
    assert "known:" in r.output and "mnk" in r.output
    r = run("match", "kalah", "random", "alphabeta(dept=3)")
    assert r.exit_code == 2 and "did you mean 'depth'" in r.output
    r = run("match", "kalah", "random", "random", "--backend", "threads")
    assert r.exit_code == 2 and "known: serial, process, ray" in r.output
    r = run("bench", "engins")
    assert r.exit_code == 2 and "did you mean 'engines'" in r.output
    r = run("evolve", "mancalla")
    assert r.exit_code == 2 and "unknown recipe" in r.output


def test_play_kalah_in_the_terminal():
    moves = "\n".join(["abc", "3"] + ["1", "2", "3", "4", "5", "6"] * 30) + "\n"
    r = run("play", "kalah", "--vs", "alphabeta(depth=2)", input=moves)
    assert r.exit_code == 0
    assert "'abc' is not a pit" in r.output
    assert ("you win" in r.output) or ("wins" in r.output) or ("draw" in r.output)


def test_play_mnk_quit():
    r = run("play", "mnk", "--vs", "alphabeta(depth=2)", "--seat", "second", input="c3\nquit\n")
    assert r.exit_code == 0 and "you stopped the game" in r.output


def test_bench_quick_json():
    r = run("bench", "engines", "--quick", "--json")
    data = json.loads(r.output)
    names = [f["name"] for f in data[0]["figures"]]
    assert any("Kalah random playouts" in n for n in names)
    assert all(f["reference"] and f["value"] > 0 for f in data[0]["figures"])


def test_a_round_robin_table_fits_80_columns_and_tells_repeated_agents_apart():
    from rich.console import Console

    from evoplay.agents import make_agent
    from evoplay.arena import round_robin
    from evoplay.cli.games import _results_table
    from evoplay.games import load_game

    game = load_game("mnk(m=3,n=3,k=3)")
    result = round_robin(game, [make_agent(s, game) for s in ("random", "random", "alphabeta(depth=2)")], 2, 0)
    assert result.labels() == ["random #1", "random #2", "alphabeta(depth=2)"]
    assert [a["name"] for a in result.to_dict()["agents"]] == result.labels()
    console = Console(width=80, record=True)
    console.print(_results_table(result, "round robin"))
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "random #1" in text and "random #2" in text and "…" not in text
    import re

    rows = [line for line in text.splitlines() if line.strip().startswith(("random", "alphabeta"))]
    assert len(rows) == 3 and all(re.search(r" \d\.\d\d-\d\.\d\d ", row) for row in rows)  # whole intervals


def _bar_text(minutes, log=()):
    from types import SimpleNamespace

    from rich.console import Console

    from evoplay.cli.runs import _RunBar

    folder = SimpleNamespace(recipe="ga", config={"minutes": minutes, "generations": 1000}, read_log=lambda: list(log))
    bar = _RunBar(folder, 1000)
    prog = bar.progress()
    bar.update(len(log), 1000, log[-1] if log else None)
    for g in range(len(log), 51):
        bar.update(g + 1, 1000, {"generation": g, "best": 0.5, "seconds": 3.0})
    console = Console(width=100, record=True)
    console.print(prog.get_renderable())
    return console.export_text()


def test_a_run_with_a_time_budget_shows_its_minutes_spent_and_left_not_generations_of_a_cap():
    import re

    text = _bar_text(3)  # 51 generations of 3 s: 2.55 of 3 minutes spent, 27 s left
    assert "2.5/3 min" in text or "2.6/3 min" in text
    assert re.search(r"0:2[67] left", text) and "generation 51" in text
    assert "1000" not in text and "eta" not in text
    resumed = _bar_text(3, [{"generation": g, "best": 0.4, "seconds": 3.0} for g in range(40)])
    assert "2.5/3 min" in resumed or "2.6/3 min" in resumed  # the generations before the resume count once


def test_a_run_without_a_time_budget_shows_generations_and_their_eta():
    text = _bar_text(0)
    assert "51/1000" in text and "eta" in text and " min," not in text


def test_output_is_as_wide_as_the_terminal_or_columns_or_100_columns_when_piped():
    from evoplay.cli.common import console_width

    assert console_width(True, {"COLUMNS": "80"}) is None  # a terminal: rich asks it (or reads COLUMNS)
    assert console_width(False, {"COLUMNS": "80"}) == 80
    assert console_width(False, {}) == 100
    assert console_width(False, {"COLUMNS": "wide"}) == 100 and console_width(False, {"COLUMNS": "0"}) == 100


def _listing(command, columns):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns:
        env["COLUMNS"] = str(columns)
    done = subprocess.run([sys.executable, "-m", "evoplay.cli", command], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_agents_read_at_80_columns_with_their_parameters_one_a_line():
    lines = _listing("agents", 80)
    assert max(len(line) for line in lines) <= 80 and len(lines) < 250  # 359 lines of a 3-column table before
    text = "\n".join(lines)
    assert "alphabeta - minimax with alpha-beta pruning" in text
    assert "    clock wall or cpu; empty (the default): the file's own, else wall - what ms" in text
    assert "default ," not in text and "one of ," not in text


def test_piped_listings_are_100_columns_wide_without_columns():
    lines = _listing("games", None)
    assert max(len(line) for line in lines) <= 100 and any(len(line) > 80 for line in lines)
    assert "kalah - Kalah (mancala)" in "\n".join(lines)
