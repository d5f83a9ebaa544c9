"""``evoplay`` commands of evolution runs and the web app: evolve, resume, report, export, serve."""
from __future__ import annotations

import sys

import click
from rich.markup import escape
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)
from rich.progress_bar import ProgressBar
from rich.text import Text

from evoplay.cli.common import RUNNING, console, executor_options, main, out, print_error
from evoplay.compiling import CompileColumn, in_progress_bar
from evoplay.errors import CheckpointError, SpecError


class _Finishing:
    """An evolution that calls ``on_finish()`` before its ``finish``; everything else is the evolution's own."""

    def __init__(self, evo, on_finish):
        self._evo = evo
        self._on_finish = on_finish

    def __getattr__(self, name):
        return getattr(self._evo, name)

    def finish(self, state, folder) -> None:
        self._on_finish()
        self._evo.finish(state, folder)


def _run_with_progress(module, folder, backend, workers, address, executor=None, began=None):
    """Run (or continue) the evolution in ``folder`` under a progress bar; ``executor``: one already open (evolve
    opens it before making the run folder, so a backend that cannot start leaves no folder behind); ``began``:
    when the command began, where a new run's start counts from (evoplay.evolve.run_evolution)."""
    from contextlib import nullcontext

    from evoplay.arena import make_executor
    from evoplay.evolve import run_evolution

    evo = module.make(folder.config, **folder.meta.get("options", {}))
    opened = nullcontext(executor) if executor is not None else make_executor(backend, workers, address)
    bar = _RunBar(folder, evo.generations)
    with opened as ex, in_progress_bar(), bar.progress() as prog:
        # The final tables (the best against held-out opponents) can take longer than the generations did: the
        # bar says so while its clock keeps running.
        finishing = _Finishing(evo, lambda: prog.update(bar.task, description=f"{folder.recipe}: final tables"))
        run_evolution(finishing, folder, ex, bar.update, began=began)
    if folder.repaired:
        console.print(f"repaired line(s) {', '.join(map(str, folder.repaired))} of {folder.file('log.jsonl')} from the "
                      f"checkpoint's copy (they were damaged or edited)", markup=False, soft_wrap=True)
    console.print(f"[green]run finished[/]: {escape(str(folder.path))}", soft_wrap=True)


class _RunBar:
    """The progress of a run in the units of its budget. A run with ``minutes`` is a bar over that time: the minutes
    its generations have spent, the time left and the generation it is at (its ``generations`` are a cap it may
    never reach, so neither their count nor an eta from them is shown); a run without one is a bar over its
    generations with their eta."""

    def __init__(self, folder, generations: int):
        self.folder, self.generations = folder, generations
        self.minutes = float(folder.config.get("minutes", 0) or 0)
        # the seconds its generations have taken, as the time budget counts them (every resume included)
        self.spent = sum(float(r.get("seconds", 0)) for r in folder.read_log())
        self.shown = None  # the generation last shown: a record is added to ``spent`` once
        self.prog = self.task = None

    def progress(self) -> Progress:
        if self.minutes:
            # The bar is drawn over the budget's seconds from the task's fields: a task with a total would stop its
            # clock once the generations had spent the budget, while the closing tables still run.
            columns = (TextColumn("[bold]{task.description}"), _BudgetBar(), _BudgetColumn(),
                       TextColumn("{task.fields[best]}"), TimeElapsedColumn(), CompileColumn())
            description, total = f"{self.folder.recipe}, {self.minutes:g} min", None
        else:
            columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("{task.fields[best]}"), TimeElapsedColumn(), TextColumn("eta"),
                       TimeRemainingColumn(), CompileColumn())
            description, total = f"{self.folder.recipe} generations", self.generations
        self.prog = Progress(*columns, console=console)
        self.task = self.prog.add_task(description, total=total, best="", told=_now(), spent=self.spent,
                                       budget=60.0 * self.minutes)
        return self.prog

    def update(self, done: int, total: int, record: dict | None) -> None:
        """run_evolution's progress callback: ``done`` generations of ``total``, the last one's log record."""
        best = f"best {record['best']:.4g}" if record and "best" in record else ""
        if record and record.get("ladder"):
            best += f" vs {record['ladder']}"
        if record and record.get("setting"):
            best += f" [{record['setting']}]"
        if not self.minutes:
            self.prog.update(self.task, completed=done, total=total, best=best)
            return
        if record and self.shown is not None and done > self.shown:
            self.spent += float(record.get("seconds", 0))
        self.shown = done
        self.prog.update(self.task, completed=done, spent=self.spent, told=_now(),
                         best=f"generation {done}" + (f", {best}" if best else ""))


def _now() -> float:
    import time

    return time.monotonic()


def _budget_spent(task) -> tuple[float, float]:
    """A time budget's seconds and those spent: the generations' so far and the one under way."""
    return task.fields["budget"], task.fields["spent"] + _now() - task.fields["told"]


class _BudgetBar(BarColumn):
    """A bar over a time budget."""

    def render(self, task) -> ProgressBar:
        budget, spent = _budget_spent(task)
        return ProgressBar(total=budget, completed=min(spent, budget), width=self.bar_width, style=self.style,
                           complete_style=self.complete_style, finished_style=self.finished_style)


class _BudgetColumn(ProgressColumn):
    """A time budget's minutes spent and the time left, counting down between generations."""

    def render(self, task) -> Text:
        budget, spent = _budget_spent(task)
        left = max(0.0, budget - spent)
        return Text(f"{min(spent, budget) / 60:.1f}/{budget / 60:g} min, {int(left // 60)}:{int(left % 60):02d} left",
                    style="progress.remaining")


class _Session:
    """Measures one command's wall and CPU time over a run (its worker processes included once they are
    joined) and records it in the run folder's timing.json, also when the run stops on an error or Ctrl-C."""

    def __init__(self, command: str):
        import time

        from evoplay.evolve.reports import cpu_seconds

        self.command = command
        self.folder = None
        self.start, self.cpu = time.perf_counter(), cpu_seconds()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        import time

        from evoplay.evolve.reports import cpu_seconds, record_session

        if self.folder is not None:
            try:
                record_session(self.folder, self.command, time.perf_counter() - self.start,
                               cpu_seconds() - self.cpu, (self.first, len(self.folder.read_log())))
            except (CheckpointError, OSError):  # the run's own error says more; the timing is not worth a second
                if exc[0] is None:
                    raise
        return False

    def running(self, folder) -> None:
        """The run folder this command works on (its log's length now: the generations run before)."""
        self.folder, self.first = folder, len(folder.read_log())
        RUNNING["folder"] = folder.path


def _print_report(module, folder) -> None:
    """The recipe's report, then what the run cost (timing.json)."""
    from evoplay.evolve.reports import timing_line

    out.print(module.report(folder), markup=False, soft_wrap=True)
    line = timing_line(folder)
    if line:
        out.print(line, markup=False, soft_wrap=True)


class _EvolveCommand(click.Command):
    """``evolve --help`` ends with the recipes and the variants each ships (read when the help is shown)."""

    def format_epilog(self, ctx, formatter):
        from evoplay.evolve.config import shipped_variants
        from evoplay.recipes import RECIPES, SUMMARIES

        rows = [(name, "variants: " + (", ".join(shipped_variants(name)) or "none") + f". {SUMMARIES.get(name, '')}")
                for name in sorted(RECIPES)]
        with formatter.section("Recipes (--config VARIANT runs a variant shipped with the recipe)"):
            formatter.write_dl(rows)
        super().format_epilog(ctx, formatter)


def _run_label(recipe: str, config_path: str | None, levels: bool) -> str:
    """The run folder's name before its seed and time: the recipe, then the variant or config file it ran."""
    from pathlib import Path

    label = recipe
    if config_path:
        stem = Path(config_path).name.removesuffix(".toml").removeprefix(f"{recipe}_")
        if stem and stem != recipe:
            label = f"{recipe}_{stem}"
    return f"{label}_levels" if levels else label


@main.command(cls=_EvolveCommand)
@click.argument("recipe")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
              help="a TOML file merged over the recipe's defaults (may say base = \"VARIANT\")")
@click.option("--generations", type=int, default=None,
              help="generations (mnk: rounds) to run, instead of the config's")
@click.option("--population", type=int, default=None, help="individuals per generation, instead of the config's")
@click.option("--seed", type=int, default=None,
              help="the run's seed (default: the config's, 1 for mancala); the same seed gives the same run")
@click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE", help="override a config key (repeatable)")
@click.option("--levels", is_flag=True, help="(gp, ga, sevens) also make difficulty levels, each beating the one "
              "below: levels.json in the run folder (gp, ga: play one with --vs 'level(RUN,hard)'; sevens: "
              "computer.lua/.py)")
@click.option("--game", "game_spec", default=None, metavar="SPEC",
              help="(gp, ga) the game: a built-in, path/file.py:Class or openspiel:NAME")
@click.option("--vs", "vs_specs", multiple=True, metavar="SPEC",
              help="(gp, ga) a fixed opponent of the fitness games (repeatable; replaces the config's ladder)")
@click.option("--minutes", type=float, default=None,
              help="(gp, ga) stop when the generations have taken this many minutes (resumable)")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="run folder (default runs/RECIPE-SEED-TIME, or runs/RECIPE_VARIANT-SEED-TIME with --config)")
@executor_options
def evolve(recipe, config_path, generations, population, seed, assignments, levels, game_spec, vs_specs, minutes,
           out_dir, workers, backend, address):
    """Evolve players with RECIPE; the run folder gets the config, log, checkpoints, best agent and plots."""
    import time

    from evoplay.evolve import RunFolder, load_config
    from evoplay.evolve.config import parse_assignment
    from evoplay.recipes import find_key, load_recipe

    began = time.time()  # --minutes is the whole command: making the evolution (its compiles) counts in its start
    session = _Session("evolve")
    module = load_recipe(recipe)
    base = load_config(recipe, config_path)
    overrides = {}
    for name, value in (("generations", generations), ("population", population), ("seed", seed)):
        if value is not None:
            overrides[find_key(base, name)] = value
    if game_spec is not None:
        overrides["game"] = game_spec
    if vs_specs:
        overrides[find_key(base, "fitness.opponents")] = list(vs_specs)
        if isinstance(base.get("fitness"), dict) and "ladder" in base["fitness"]:
            overrides["fitness.ladder"] = []  # fixed opponents replace the rising ladder
    if minutes is not None:
        if "minutes" not in base:
            raise SpecError(f"--minutes is for the gp and ga recipes; {recipe} runs for its generations")
        if minutes < 0:
            raise SpecError(f"--minutes {minutes:g}: give a time budget >= 0 (0: none)")
        overrides["minutes"] = float(minutes)
    for text in assignments:
        key, value = parse_assignment(text)
        overrides[find_key(base, key)] = value
    config = load_config(recipe, None, overrides, base=base)
    options = {"levels": True} if levels else {}
    module.make(config, **options)  # validate before creating the folder
    label = _run_label(recipe, config_path, levels)
    out_path = out_dir or f"runs/{label}-{config.get('seed', 0)}-{time.strftime('%Y%m%d-%H%M%S')}"
    from evoplay.arena import make_executor

    with session, make_executor(backend, workers, address) as ex:  # a backend that cannot start: no folder
        folder = RunFolder.create(out_path, recipe, config, options)
        session.running(folder)
        path = escape(str(folder.path))
        console.print(f"run folder: [bold]{path}[/] (resume with: evoplay resume {path})", highlight=False,
                      soft_wrap=True)
        _run_with_progress(module, folder, backend, workers, address, executor=ex, began=began)
    _print_report(module, folder)


@main.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@executor_options
def resume(run_dir, workers, backend, address):
    """Continue a run that was stopped; it ends as it would have without the stop."""
    from evoplay.evolve import RunFolder
    from evoplay.recipes import load_recipe

    try:
        folder = RunFolder.open(run_dir)
    except CheckpointError as err:  # not a run folder (or not one this evoplay reads): bad input, as elsewhere
        print_error(err)
        sys.exit(2)
    RUNNING["folder"] = folder.path
    if folder.finished:
        from evoplay.evolve.loop import verify_folder

        module = load_recipe(folder.recipe)
        # as report does: a finished run whose log, checkpoint and finish mark disagree is not reported as fine
        verify_folder(folder, module.make(folder.config, **folder.meta.get("options", {})).generations)
        if not folder.file("best.json").exists():
            console.print(f"{escape(str(folder.path))} has finished but its outputs are missing; writing them again")
            _rewrite(module, folder, backend, workers, address)
        else:
            console.print(f"{escape(str(folder.path))} has finished already; its report:", soft_wrap=True)
        _print_report(module, folder)
        return
    module = load_recipe(folder.recipe)
    with _Session("resume") as session:
        session.running(folder)
        _run_with_progress(module, folder, backend, workers, address)
    _print_report(module, folder)


def _rewrite(module, folder, backend="serial", workers=None, address=None):
    from evoplay.arena import make_executor
    from evoplay.evolve.loop import rewrite_outputs

    with make_executor(backend, workers, address) as ex:
        rewrite_outputs(module.make(folder.config, **folder.meta.get("options", {})), folder, ex)
    return folder.repaired


@main.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--rewrite", is_flag=True, help="write a finished run's outputs (best agent, exports, plots) again "
                                              "from its last checkpoint")
def report(run_dir, rewrite):
    """Show a run's results: the best agent, its scores and the plots' paths."""
    from evoplay.evolve import RunFolder
    from evoplay.evolve.loop import verify_folder
    from evoplay.recipes import load_recipe

    folder = RunFolder.open(run_dir)
    module = load_recipe(folder.recipe)
    if rewrite:
        repaired = _rewrite(module, folder)
        if repaired:
            console.print(f"repaired line(s) {', '.join(map(str, repaired))} of {folder.file('log.jsonl')} from the "
                          f"checkpoint's copy", markup=False, soft_wrap=True)
        console.print(f"rewrote the outputs of {folder.path}", markup=False)
    else:
        verify_folder(folder, module.make(folder.config, **folder.meta.get("options", {})).generations)
        if folder.finished and not folder.file("best.json").exists():
            raise CheckpointError(f"{folder.file('best.json')} is missing although the run has finished; write "
                                  f"the outputs again with: evoplay report --rewrite {folder.path}")
    _print_report(module, folder)


@main.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--lang", type=click.Choice(["python", "lua", "js"]), default=None,
              help="the language to write (js: JavaScript)  [default: python; with --check, every language the "
                   "recipe writes]")
@click.option("--check", is_flag=True, help="then play the written file beside the agent on positions of seeded games "
              "and print the share of equal moves (exit status 1 when any differs)")
@click.option("--positions", type=int, default=1000, show_default=True, help="--check: the positions compared")
@click.option("--nodes", type=int, default=None,
              help="--check: the node budget a move both play under when the champion plays within a time budget "
                   "[default: 1000]; --play: both play within this many nodes a move [default: as shipped]")
@click.option("--play", "play_game", is_flag=True, help="then play one whole game of the written Lua or JavaScript "
              "file (in lupa or node) against the Python agent of best.json, printing each move")
@click.option("--level", default=None, help="--play: the level the file plays  [default: the top level]")
@click.option("--seat", type=int, default=0, show_default=True, help="--play: the file's seat")
@click.option("--seed", type=int, default=0, show_default=True, help="--play: the game's seed")
def export(run_dir, lang, check, positions, nodes, play_game, level, seat, seed):
    """Write the run's best agent as Python, Lua or JavaScript source; prints the file's path (with --check, what it
    checked; with --play, the game)."""
    from evoplay.evolve import RunFolder
    from evoplay.recipes import load_recipe

    if play_game and (check or lang not in ("lua", "js")):
        raise SpecError("--play plays the Lua or JavaScript file against the Python agent: give --lang js or "
                        "--lang lua, without --check")
    if (check or play_game) and lang in ("lua", "js"):
        from evoplay.recipes.host_check import runtime_ready
        runtime_ready(lang)  # lupa or node is there before the run folder is read
    folder = RunFolder.open(run_dir)
    if not folder.finished:
        ran = len(folder.read_log())
        total = folder.config.get("generations")
        of = f" of {total}" if isinstance(total, int) else ""
        raise CheckpointError(f"{folder.path} has not finished ({ran}{of} generations ran), so it has no best agent "
                              f"to export yet; finish it with 'evoplay resume {folder.path}', then export")
    if play_game:
        if folder.recipe not in ("gp", "ga"):
            raise SpecError(f"--play is for the gp and ga recipes' players, not {folder.recipe!r}")
        from evoplay.recipes.host_check import play_game as play

        path = load_recipe(folder.recipe).export(folder, lang)
        click.echo(str(path))
        play(folder, lang, path, level, seat, seed, say=click.echo, nodes=nodes)
        return
    if not check:
        click.echo(str(load_recipe(folder.recipe).export(folder, lang or "python")))
        return
    from evoplay.recipes.export_check import check_export, languages

    results = check_export(folder, (lang,) if lang else languages(folder), positions, nodes or 1000,
                           say=click.echo)
    if any(r.equal < r.positions for r in results):
        sys.exit(1)


@main.command()
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--runs", "runs_dir", type=click.Path(file_okay=False), default="runs", show_default=True,
              help="the run folders the pages list and play against (nothing outside it can be named)")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to bind; the default is reachable from this machine only")
@click.option("--move-seconds", type=float, default=2.0, show_default=True,
              help="an agent's time for one move: its search stops then and plays its best move so far")
def serve(port, runs_dir, host, move_seconds):
    """Play every game and watch runs in the browser: a local web app (prints the address to open)."""
    from evoplay.serve import serve as run_server

    if not 0 < port < 65536:
        raise SpecError(f"--port {port}: choose a port 1..65535, e.g. 8000")
    run_server(runs_dir, host, port, say=lambda line: console.print(escape(line), highlight=False, soft_wrap=True),
               move_seconds=move_seconds)
    _exit_past_agents()


def _exit_past_agents() -> None:
    """End the process now if agents still think in the server's daemon threads: they would only slow the
    interpreter's own shutdown down (two searches on two cores cost it most of a second), and nothing waits for
    them any more."""
    import os
    import threading

    from evoplay.serve.workers import THREAD_NAME

    if any(t.name == THREAD_NAME and t.is_alive() for t in threading.enumerate()):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
