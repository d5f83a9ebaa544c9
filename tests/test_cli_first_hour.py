"""What a new user meets first: evolve --help lists the recipes and variants, a variant's run folder is named after
it, resume refuses a folder that is not a run with exit code 2, and the compile note only shows while compiling."""
import os

from click.testing import CliRunner

from evoplay.cli import main
from evoplay.cli.runs import _run_label
from evoplay.compiling import NOTE, CompileState
from evoplay.evolve.config import shipped_variants


def test_evolve_help_lists_every_recipe_with_its_variants():
    result = CliRunner().invoke(main, ["evolve", "--help"])
    assert result.exit_code == 0
    text = result.output
    assert "Recipes (--config VARIANT" in text
    for recipe in ("mancala", "mnk", "sevens"):
        line = next(line for line in text.splitlines() if line.strip().startswith(recipe + " "))
        for variant in shipped_variants(recipe):
            assert variant in line
    assert "pool_move" in text and "kalah" in text


def test_a_variant_run_is_named_after_the_variant():
    assert _run_label("mancala", None, False) == "mancala"
    assert _run_label("mancala", "pool_move", False) == "mancala_pool_move"
    assert _run_label("mancala", "src/evoplay/recipes/mancala_pool_move.toml", False) == "mancala_pool_move"
    assert _run_label("mnk", "my-tuning.toml", False) == "mnk_my-tuning"
    assert _run_label("sevens", None, True) == "sevens_levels"


def test_evolve_makes_the_variant_named_folder(tmp_path):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(main, [
            "evolve", "mancala", "--config", "run1", "--generations", "1", "--population", "6", "--backend", "serial",
            "--set", "report.random_programs=5", "--set", "report.heldout_depths=[2]"])
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, result.output
    (folder,) = os.listdir(tmp_path / "runs")
    assert folder.startswith("mancala_run1-") and f"resume with: evoplay resume runs/{folder}" in result.output


def test_resume_of_a_folder_that_is_not_a_run_exits_2(tmp_path):
    for target in (tmp_path / "nothing", tmp_path):
        result = CliRunner().invoke(main, ["resume", str(target)])
        assert result.exit_code == 2 and "is not a run folder" in result.output
        assert result.output.count("\n") == 1


def test_the_compile_note_shows_only_while_a_compile_runs_and_counts_from_the_first():
    now = [100.0]
    state = CompileState(clock=lambda: now[0])
    assert state.note() == "" and not state.active
    assert state.start() and not state.start()  # a kernel compiling the kernels it calls: one compile
    now[0] = 112.4
    assert state.note() == f"{NOTE}: 12 s"
    assert not state.end() and state.end() and state.note() == ""
    now[0] = 120.0
    assert state.start() and state.note() == f"{NOTE}: 20 s" and state.compiles == 2


def test_a_compile_shows_the_status_on_a_terminal_and_nothing_elsewhere():
    import io

    from numba import njit
    from rich.console import Console

    from evoplay.compiling import watch_compiles

    def compile_something(k):
        @njit  # no cache: always a compile
        def f(x):
            return x * k + 1

        return f(3)

    screen = io.StringIO()
    with watch_compiles(Console(file=screen, force_terminal=True, width=100)) as state:
        assert compile_something(2) == 7
    assert state.compiles >= 1 and NOTE in screen.getvalue()

    log = io.StringIO()
    with watch_compiles(Console(file=log, force_terminal=False)) as state:
        assert compile_something(5) == 16
    assert state.compiles >= 1 and log.getvalue() == ""


def test_a_run_folder_with_brackets_is_printed_whole_in_every_hint(tmp_path):
    out = tmp_path / "runs" / "try[ratings]"
    result = CliRunner().invoke(main, [
        "evolve", "mancala", "--generations", "1", "--population", "6", "--backend", "serial", "--out", str(out),
        "--set", "report.random_programs=5", "--set", "report.heldout_depths=[2]"])
    assert result.exit_code == 0, result.output
    assert f"evoplay resume {out}" in result.output and f"run finished: {out}" in result.output
    assert f"gp({out}/best.json)" in result.output  # the report's 'play it' line


def test_the_progress_bar_column_shows_the_compile_briefly_and_only_while_it_runs():
    from evoplay.compiling import STATE, CompileColumn

    saved = (STATE.first_start, STATE.depth, STATE.clock)
    try:
        STATE.clock = lambda: 50.0
        STATE.first_start, STATE.depth = 42.0, 1
        assert CompileColumn().render(None).plain == "compiling (first run only) 8 s"
        STATE.depth = 0
        assert CompileColumn().render(None).plain == ""
    finally:
        STATE.first_start, STATE.depth, STATE.clock = saved


def test_a_compile_under_another_live_display_does_not_break_it():
    import io

    from numba import njit
    from rich.console import Console
    from rich.progress import Progress

    from evoplay.compiling import watch_compiles

    screen = Console(file=io.StringIO(), force_terminal=True, width=100)
    with watch_compiles(screen) as state, Progress(console=screen):  # a live display the watch does not know of

        @njit
        def g(x):
            return x - 1

        assert g(3) == 2
    assert state.compiles >= 1
