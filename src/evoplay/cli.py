"""The ``evoplay`` command line: a thin layer that parses arguments and calls the library."""
from __future__ import annotations

import json
import sys
from contextlib import contextmanager

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from evoplay.compiling import CompileColumn, in_progress_bar, watch_compiles
from evoplay.errors import CheckpointError, ConfigError, EvoplayError, SpecError

# Outside a terminal (pipes, files, CI) tables get room instead of the 80-column default.
console = Console(stderr=True, width=None if sys.stderr.isatty() else 140)
out = Console(width=None if sys.stdout.isatty() else 140)

DEFAULT_KALAH_AGENTS = ("random", "alphabeta(depth=2)", "alphabeta(depth=4)", "alphabeta(depth=8)")


class _Group(click.Group):
    """Turns evoplay's errors into one clear line: exit 2 for bad input (specs, configs), 1 for the rest."""

    def invoke(self, ctx):
        try:
            with watch_compiles(console):  # a first run's Numba compiles show as a status, never a silent wait
                return super().invoke(ctx)
        except (SpecError, ConfigError) as err:
            print_error(err)
            sys.exit(2)
        except EvoplayError as err:
            print_error(err)
            sys.exit(1)
        except OSError as err:  # a file the user named, a read-only folder, a full disk: the path and the cause
            where = f"{err.filename}: " if getattr(err, "filename", None) else ""
            print_error(f"{where}{err.strerror or err}")
            sys.exit(2)
        except KeyboardInterrupt:
            print_error("interrupted (a run continues from its last checkpoint with: evoplay resume DIR)")
            sys.exit(130)


def print_error(err: BaseException) -> None:
    """One line on stderr; the message is escaped so text in [brackets] (an extra, a range) prints whole."""
    console.print(f"[bold red]error:[/] {escape(str(err))}", highlight=False, soft_wrap=True)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="evoplay")
def main():
    """evoplay: evolve game-playing AI, play against it, and measure it."""


@contextmanager
def progress_bar(description: str, enabled: bool = True):
    """A rich progress bar on stderr; yields ``update(done, total)``."""
    if not enabled:
        yield lambda done, total: None
        return
    with in_progress_bar(), Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("eta"), TimeRemainingColumn(), CompileColumn(), console=console, transient=False,
    ) as prog:
        task = prog.add_task(description, total=None)

        def update(done, total):
            prog.update(task, completed=done, total=total)

        yield update


def _game(spec: str):
    from evoplay.games import load_game

    return load_game(spec)


# ---------------------------------------------------------------------------------------------------------------
# Listing.
# ---------------------------------------------------------------------------------------------------------------


@main.command()
def games():
    """List the games and their parameters."""
    from evoplay.games import GAMES, load_installed_games

    load_installed_games()
    table = Table(title="games (also: path/file.py:Class, openspiel:NAME)", show_lines=True)
    table.add_column("game", style="bold")
    table.add_column("description")
    table.add_column("parameters")
    for e in GAMES.entries():
        table.add_row(e.name, e.help, "\n".join(p.describe() for p in e.params) or "-")
    out.print(table)


@main.command()
@click.option("--game", "game_spec", default=None,
              help="only what can play this game (e.g. openspiel:connect_four); the rest say why they cannot")
def agents(game_spec):
    """List the agents and their parameters (with --game: which of them can play that game)."""
    from evoplay.agents import AGENTS, refusal

    game = _game(game_spec) if game_spec else None
    entries = AGENTS.entries()
    reasons = {e.name: refusal(e.name, game) for e in entries} if game else {}
    table = Table(title=f"agents for {escape(game.spec)}" if game else "agents", show_lines=True)
    table.add_column("agent", style="bold")
    table.add_column("description")
    table.add_column("parameters")
    for e in entries:
        if not reasons.get(e.name):
            table.add_row(e.name, escape(e.help), escape("\n".join(p.describe() for p in e.params) or "-"))
    out.print(table)
    refused = [(name, why) for name, why in reasons.items() if why]
    if refused:
        table = Table(title=f"cannot play {escape(game.spec)}", show_lines=True)
        table.add_column("agent", style="bold")
        table.add_column("why not")
        for name, why in refused:
            table.add_row(name, escape(why))
        out.print(table)


@main.command("check-game")
@click.argument("game")
@click.option("--games", "n_games", type=int, default=200, show_default=True, help="random games to play")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--max-moves", type=int, default=10_000, show_default=True, help="moves before a game counts as endless")
def check_game_command(game, n_games, seed, max_moves):
    """Play seeded random games of GAME and report every broken promise of the game API (exit 2 if any)."""
    from evoplay.games.check import check_game

    if n_games < 1:
        raise SpecError(f"--games {n_games}: play at least 1 game")
    report = check_game(game, n_games, seed, max_moves)
    table = Table(title=f"check-game {escape(report.spec)}")
    table.add_column("figure")
    table.add_column("value")
    for name, value in report.summary():
        table.add_row(name, escape(value))
    out.print(table)
    if report.ok:
        out.print("[green]all promises hold[/]: legal and illegal actions, clone, terminal states, returns, "
                  "features, action strings, same seed same game", highlight=False)
        return
    out.print(f"[bold red]{len(report.problems)} broken promise(s):[/]", highlight=False)
    for p in report.problems:
        times = f" [dim](seen {p.count} times)[/]" if p.count > 1 else ""
        out.print(f"- {escape(p.message)}{times}", highlight=False)
    sys.exit(2)


# ---------------------------------------------------------------------------------------------------------------
# Playing.
# ---------------------------------------------------------------------------------------------------------------


@main.command()
@click.argument("game")
@click.option("--vs", "opponent", default=None,
              help="the agent you play (default alphabeta(depth=4); Sevens: a level easy/medium/hard/expert or an "
                   "agent spec, default expert, one per other seat)")
@click.option("--seat", default="first", show_default=True, help="your seat: first, second, or a seat number from 0")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--tick-ms", type=float, default=150.0, show_default=True,
              help="simultaneous games (tron, gems): milliseconds per tick; your key in a tick is your move")
def play(game, opponent, seat, seed, tick_ms):
    """Play GAME in the terminal against an agent (type 'quit' to stop; tron and gems run in real time)."""
    from evoplay.agents import make_agent
    from evoplay.agents.human import Announcer, HumanAgent, HumanQuit
    from evoplay.arena import play_game

    def say(line):
        out.print(line, highlight=False, markup=False)

    g = _game(game)
    n = g.num_players
    you = {"first": 0, "second": 1}.get(seat)
    if you is None:
        if not (seat.isascii() and seat.isdigit()):
            raise SpecError(f"--seat {seat!r}: use first, second or a seat number 0..{n - 1}")
        you = int(seat)
    if not 0 <= you < n:
        raise SpecError(f"--seat {seat}: {g.spec} has seats 0..{n - 1}")
    if g.name in ("tron", "gems"):
        _play_realtime(g, opponent, you, seed, tick_ms)
        return
    if g.name == "sevens":
        from evoplay.games.sevens.agents import sevens_table, sevens_verdict

        seats, bot_name = sevens_table(g, opponent, you, say)
    else:  # every move of the computer is shown, extra turns included
        seats = [Announcer(make_agent(opponent or "alphabeta(depth=4)", g), say) for _ in range(n)]
        bot_name = seats[0].name
        seats[you] = HumanAgent(g)
    out.print(f"[bold]{escape(g.spec)}[/]: you are player {you}, against {escape(bot_name)}")
    try:
        state = play_game(g, seats, seed)
    except HumanQuit as err:
        say(str(err))
        return
    if g.name == "sevens":
        say(f"\n{state.render(you)}")
        out.print(f"[bold]{escape(sevens_verdict(state, you))}[/]")
        return
    out.print(f"\n{state}", highlight=False, markup=False)
    ret, scores = state.returns(), state.scores()
    if n == 2:
        verdict = "you win" if ret[you] > ret[1 - you] else ("a draw" if ret[you] == ret[1 - you] else f"{bot_name} wins")
        out.print(f"[bold]{escape(verdict)}[/] (scores: you {scores[you]:g}, {escape(bot_name)} {scores[1 - you]:g})")
        return
    top = [p for p in range(n) if ret[p] == max(ret)]
    verdict = ("you win" if top == [you] else "you share first place" if you in top
               else f"player {top[0]} wins" if len(top) == 1 else f"players {', '.join(map(str, top))} share first place")
    shown = ", ".join(("you" if p == you else f"player {p}") + f" {scores[p]:g}" for p in range(n))
    out.print(f"[bold]{verdict}[/] (scores: {escape(shown)})", highlight=False)


def _results_table(result, title: str) -> Table:
    from evoplay.arena import wilson_interval

    table = Table(title=escape(title))
    table.add_column("agent", no_wrap=True)
    for col in ("games", "wins", "draws", "losses", "win rate", "95 % CI", "mean score", "5w+d-4l"):
        table.add_column(col, justify="right")
    stats = result.stats()
    order = sorted(range(len(stats)), key=lambda i: -stats[i].win_rate())
    for i in order:
        s = stats[i]
        lo, hi = wilson_interval(s.wins + 0.5 * s.draws, s.games)
        table.add_row(
            escape(result.names[i]), str(s.games), str(s.wins), str(s.draws), str(s.losses), f"{s.win_rate():.3f}",
            f"{lo:.3f}-{hi:.3f}", f"{s.score / max(1, s.games):.2f}", f"{s.fitness():g}",
        )
    return table


def _executor_options(fn):
    fn = click.option("--workers", type=int, default=None, help="worker processes (default: all cores)")(fn)
    fn = click.option("--backend", default="process", show_default=True, help="serial, process or ray")(fn)
    fn = click.option("--address", default=None, help="address of an existing Ray cluster (with --backend ray)")(fn)
    return fn


@main.command()
@click.argument("game")
@click.argument("spec_a")
@click.argument("spec_b")
@click.option("--games", "n_games", type=int, default=2, show_default=True, help="games, seats alternating")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print the results as JSON")
@_executor_options
def match(game, spec_a, spec_b, n_games, seed, as_json, workers, backend, address):
    """Play GAMES games between two agents, half with each in the first seat."""
    from evoplay.agents import make_agent
    from evoplay.arena import make_executor
    from evoplay.arena import match as play_match

    g = _game(game)
    a, b = make_agent(spec_a, g), make_agent(spec_b, g)
    if n_games < 1:
        raise SpecError(f"--games {n_games}: play at least 1 game")
    with make_executor(backend, workers, address) as ex, progress_bar(f"{g.spec} match", not as_json) as upd:
        result = play_match(g, a, b, n_games, seed, ex, upd)
    if as_json:
        click.echo(result.to_json())
    else:
        out.print(_results_table(result, f"{a.name} vs {b.name} on {g.spec}, seed {seed}"))


@main.command()
@click.argument("game")
@click.argument("specs", nargs=-1)
@click.option("--games", "n_games", type=int, default=2, show_default=True,
              help="games per ordered pair (each pair meets in both seats)")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print the results as JSON")
@_executor_options
def tournament(game, specs, n_games, seed, as_json, workers, backend, address):
    """Round robin: every agent plays every other in both seats. Without SPECS, the built-in agents on Kalah."""
    from evoplay.agents import make_agent
    from evoplay.arena import make_executor, round_robin

    g = _game(game)
    if not specs:
        if g.name != "kalah" and g.name != "mnk":
            raise SpecError(f"name the agents for {g.spec}, e.g. evoplay tournament {game} random random")
        specs = DEFAULT_KALAH_AGENTS if g.name == "kalah" else ("random", "alphabeta(depth=2)", "alphabeta(schedule=seed001)")
    if len(specs) < 2:
        raise SpecError("a tournament needs at least two agents")
    if n_games < 1:
        raise SpecError(f"--games {n_games}: play at least 1 game per pair")
    agents_ = [make_agent(s, g) for s in specs]
    with make_executor(backend, workers, address) as ex, progress_bar(f"{g.spec} round robin", not as_json) as upd:
        result = round_robin(g, agents_, n_games, seed, ex, upd)
    if as_json:
        click.echo(result.to_json())
    else:
        out.print(_results_table(result, f"round robin on {g.spec}: {n_games} game(s) per ordered pair, seed {seed}"))


# ---------------------------------------------------------------------------------------------------------------
# Evolution runs.
# ---------------------------------------------------------------------------------------------------------------


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


def _run_with_progress(module, folder, backend, workers, address, executor=None):
    """Run (or continue) the evolution in ``folder`` under a progress bar; ``executor``: one already open (evolve
    opens it before making the run folder, so a backend that cannot start leaves no folder behind)."""
    from contextlib import nullcontext

    from evoplay.arena import make_executor
    from evoplay.evolve import run_evolution

    evo = module.make(folder.config, **folder.meta.get("options", {}))
    opened = nullcontext(executor) if executor is not None else make_executor(backend, workers, address)
    with opened as ex, in_progress_bar(), Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[best]}"),
        TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(), CompileColumn(), console=console,
    ) as prog:
        task = prog.add_task(f"{folder.recipe} generations", total=evo.generations, best="")

        def update(done, total, record):
            best = f"best {record['best']:.4g}" if record and "best" in record else ""
            prog.update(task, completed=done, total=total, best=best)

        # The final tables (the best against held-out opponents) can take longer than the generations did: the
        # bar says so while its clock keeps running.
        finishing = _Finishing(evo, lambda: prog.update(task, description=f"{folder.recipe}: final tables"))
        run_evolution(finishing, folder, ex, update)
    console.print(f"[green]run finished[/]: {escape(str(folder.path))}", soft_wrap=True)
    out.print(module.report(folder), markup=False, soft_wrap=True)


class _EvolveCommand(click.Command):
    """``evolve --help`` ends with the recipes and the variants each ships (read when the help is shown)."""

    def format_epilog(self, ctx, formatter):
        from evoplay.evolve.config import shipped_variants
        from evoplay.recipes import RECIPES

        rows = [(name, "variants: " + (", ".join(shipped_variants(name)) or "none")) for name in sorted(RECIPES)]
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
@click.option("--generations", type=int, default=None)
@click.option("--population", type=int, default=None)
@click.option("--seed", type=int, default=None)
@click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE", help="override a config key (repeatable)")
@click.option("--levels", is_flag=True, help="(sevens) evolve the difficulty levels and write computer.lua/.py")
@click.option("--game", "game_spec", default=None, metavar="SPEC",
              help="(gp, ga) the game: a built-in, path/file.py:Class or openspiel:NAME")
@click.option("--vs", "vs_specs", multiple=True, metavar="SPEC",
              help="(gp, ga) a fixed opponent of the fitness games (repeatable; replaces the config's)")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="run folder (default runs/RECIPE-SEED-TIME, or runs/RECIPE_VARIANT-SEED-TIME with --config)")
@_executor_options
def evolve(recipe, config_path, generations, population, seed, assignments, levels, game_spec, vs_specs, out_dir,
           workers, backend, address):
    """Evolve players with RECIPE; the run folder gets the config, log, checkpoints, best agent and plots."""
    import time

    from evoplay.evolve import RunFolder, load_config
    from evoplay.evolve.config import parse_assignment
    from evoplay.recipes import find_key, load_recipe

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
    for text in assignments:
        key, value = parse_assignment(text)
        overrides[find_key(base, key)] = value
    config = load_config(recipe, None, overrides, base=base)
    options = {"levels": True} if levels else {}
    module.make(config, **options)  # validate before creating the folder
    label = _run_label(recipe, config_path, levels)
    out_path = out_dir or f"runs/{label}-{config.get('seed', 0)}-{time.strftime('%Y%m%d-%H%M%S')}"
    from evoplay.arena import make_executor

    with make_executor(backend, workers, address) as ex:  # a backend that cannot start stops before the folder
        folder = RunFolder.create(out_path, recipe, config, options)
        path = escape(str(folder.path))
        console.print(f"run folder: [bold]{path}[/] (resume with: evoplay resume {path})", highlight=False,
                      soft_wrap=True)
        _run_with_progress(module, folder, backend, workers, address, executor=ex)


@main.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@_executor_options
def resume(run_dir, workers, backend, address):
    """Continue a run that was stopped; it ends as it would have without the stop."""
    from evoplay.evolve import RunFolder
    from evoplay.recipes import load_recipe

    try:
        folder = RunFolder.open(run_dir)
    except CheckpointError as err:  # not a run folder (or not one this evoplay reads): bad input, as elsewhere
        print_error(err)
        sys.exit(2)
    if folder.finished:
        module = load_recipe(folder.recipe)
        if not folder.file("best.json").exists():
            console.print(f"{escape(str(folder.path))} has finished but its outputs are missing; writing them again")
            _rewrite(module, folder, backend, workers, address)
        else:
            console.print(f"{escape(str(folder.path))} has finished already; its report:", soft_wrap=True)
        out.print(module.report(folder), markup=False, soft_wrap=True)
        return
    _run_with_progress(load_recipe(folder.recipe), folder, backend, workers, address)


def _rewrite(module, folder, backend="serial", workers=None, address=None):
    from evoplay.arena import make_executor
    from evoplay.evolve.loop import rewrite_outputs

    with make_executor(backend, workers, address) as ex:
        rewrite_outputs(module.make(folder.config, **folder.meta.get("options", {})), folder, ex)


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
        _rewrite(module, folder)
        console.print(f"rewrote the outputs of {folder.path}", markup=False)
    else:
        verify_folder(folder, module.make(folder.config, **folder.meta.get("options", {})).generations)
        if folder.finished and not folder.file("best.json").exists():
            raise CheckpointError(f"{folder.file('best.json')} is missing although the run has finished; write "
                                  f"the outputs again with: evoplay report --rewrite {folder.path}")
    out.print(module.report(folder), markup=False, soft_wrap=True)


@main.command()
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--lang", type=click.Choice(["python", "lua"]), default="python", show_default=True)
def export(run_dir, lang):
    """Write the run's best agent as Python or Lua source; prints the file's path."""
    from evoplay.evolve import RunFolder
    from evoplay.recipes import load_recipe

    folder = RunFolder.open(run_dir)
    path = load_recipe(folder.recipe).export(folder, lang)
    click.echo(str(path))


@main.command()
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--runs", "runs_dir", type=click.Path(file_okay=False), default="runs", show_default=True,
              help="the run folders the pages list and play against (nothing outside it can be named)")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to bind; the default is reachable from this machine only")
def serve(port, runs_dir, host):
    """Play every game and watch runs in the browser: a local web app (prints the address to open)."""
    from evoplay.serve import serve as run_server

    if not 0 < port < 65536:
        raise SpecError(f"--port {port}: choose a port 1..65535, e.g. 8000")
    run_server(runs_dir, host, port, say=lambda line: console.print(escape(line), highlight=False))


# ---------------------------------------------------------------------------------------------------------------
# Benchmarks.
# ---------------------------------------------------------------------------------------------------------------


@main.command()
@click.argument("names", nargs=-1)
@click.option("--quick", is_flag=True, help="smaller samples: every benchmark in under a minute in all, a first look")
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON")
def bench(names, quick, as_json):
    """Measure evoplay against its references and targets (all benchmarks, or the NAMES given).

    Each benchmark's table is printed as it finishes; Ctrl-C keeps the finished ones (exit code 130)."""
    import time

    from evoplay.bench import load_all, load_note
    from evoplay.spec import suggest

    registry = load_all()
    chosen = list(names) or list(registry)
    for n in chosen:
        if n not in registry:
            raise SpecError(f"unknown benchmark '{n}'{suggest(n, registry)}; known: {', '.join(registry)}")
    results = []
    start = time.perf_counter()
    try:
        for i, n in enumerate(chosen):
            if not as_json:
                console.print(f"running {n} ({i + 1} of {len(chosen)}{', quick' if quick else ''}): "
                              f"{registry[n].help}", style="dim", markup=False, highlight=False)
            t0 = time.perf_counter()
            r = registry[n].run(quick)
            results.append(r)
            if not as_json:
                out.print(_bench_table(r, time.perf_counter() - t0))
    except KeyboardInterrupt:
        done = ", ".join(r.name for r in results) or "none"
        if as_json:
            click.echo(json.dumps([r.to_dict() for r in results], indent=2))
        print_error(f"interrupted: {len(results)} of {len(chosen)} benchmark(s) finished ({done})")
        sys.exit(130)
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in results], indent=2))
    else:
        console.print(f"{len(results)} benchmark(s) in {time.perf_counter() - start:.0f} s; {load_note()}",
                      style="dim", markup=False, highlight=False)


def _bench_table(r, seconds: float) -> Table:
    table = Table(title=escape(f"{r.name}  ({r.command}, {seconds:.0f} s)"))
    for col in ("figure", "evoplay", "reference (same run)", "speed-up", "target", "met"):
        table.add_column(col, justify="left" if col in ("figure", "reference (same run)") else "right")
    for f in r.figures:
        ref = f"{_fmt(f.reference)} {f.reference_name}" if f.reference is not None else (f.note or "-")
        ratio = f"{f.ratio:,.1f}x" if f.ratio is not None else "-"
        met = "-" if f.met is None else ("[green]yes[/]" if f.met else "[red]no[/]")
        table.add_row(escape(f.name), escape(f"{_fmt(f.value)} {f.unit}"), escape(ref), ratio, escape(f.target or "-"),
                      met)
    return table


# ---------------------------------------------------------------------------------------------------------------
# The target-number game (seed 004).
# ---------------------------------------------------------------------------------------------------------------


@main.command()
@click.argument("numbers", nargs=-1, type=int, required=True)
@click.option("--target", "-t", type=int, required=True, help="the number to reach")
@click.option("--python", "use_python", is_flag=True, help="use the plain-Python reference solver")
def solve(numbers, target, use_python):
    """The best value NUMBERS reach for --target (+ - * /, each number once, all results positive integers)."""
    from evoplay.games.target.solver import reference_solve
    from evoplay.games.target.solver import solve as solve_draw

    sol = (reference_solve if use_python else solve_draw)(numbers, target)
    out.print(f"{sol.expression} = {sol.value}", highlight=False)
    out.print("exact" if sol.exact else f"off by {sol.distance}: no expression comes closer (proven by exhaustive search)",
              highlight=False)


@main.command()
@click.option("--time", "seconds", type=float, default=60.0, show_default=True, help="seconds per round")
@click.option("--level", type=click.IntRange(1, 5), default=3, show_default=True,
              help="CPU strength: 1 beginner, 2 casual, 3 club, 4 expert, 5 master")
@click.option("--seed", type=int, default=None, help="fixed seed for the draws (default: random)")
@click.option("--rounds", type=int, default=1, show_default=True, help="rounds, with a running score")
@click.option("--mode", type=click.Choice(["mojbroj", "countdown"]), default="mojbroj", show_default=True,
              help="Moj broj draws (the seed's) or Countdown cards")
@click.option("--large", type=click.IntRange(0, 4), default=None, help="Countdown: how many large numbers")
@click.option("--reveal", is_flag=True, help="show the CPU's numbers in its live status (the seed's view)")
def target(seconds, level, seed, rounds, mode, large, reveal):
    """Play the target-number game (Moj broj / Countdown) against the genetic CPU player."""
    from evoplay.games.target.terminal import play

    play(rounds, seconds, level, seed, mode, large, reveal)


# ---------------------------------------------------------------------------------------------------------------
# Sevens (seed 000): the ladder of difficulty levels.
# ---------------------------------------------------------------------------------------------------------------


@main.command("sevens-ladder")
@click.option("--computer", default=None, type=click.Path(dir_okay=False),
              help="a run's levels.json or run folder (default: the levels shipped with evoplay)")
@click.option("--games", "n_games", type=int, default=10_000, show_default=True,
              help="games per ordered pairing (one player against two copies of another)")
@click.option("--rounds", type=int, default=100, show_default=True,
              help="rating rounds: each plays every 3 distinct players in every seat order once")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out", "out_file", default=None, type=click.Path(dir_okay=False), help="also write the Markdown here")
@_executor_options
def sevens_ladder(computer, n_games, rounds, seed, out_file, workers, backend, address):
    """Sevens levels against each other, the heuristic and random: win rates with 95 % CIs and openskill ratings."""
    from pathlib import Path

    from evoplay.arena import make_executor
    from evoplay.games.sevens.ladder import ladder_report, prepare_ladder

    players, command = prepare_ladder(computer, n_games, rounds, seed)
    with make_executor(backend, workers, address) as ex:
        text = ladder_report(players, n_games, rounds, seed, ex, command)
    if out_file:
        Path(out_file).write_text(text + "\n", encoding="utf-8")
    click.echo(text)


# ---------------------------------------------------------------------------------------------------------------
# Real-time play of simultaneous-move games (tron, gems).
# ---------------------------------------------------------------------------------------------------------------


def _play_realtime(g, opponent, you, seed, tick_ms):
    from evoplay.agents import make_agent
    from evoplay.agents.human import HumanQuit
    from evoplay.agents.human_realtime import KeyReader, play_realtime

    bot = make_agent(opponent or "rs(budget_ms=40,depth=10)", g)
    if not sys.stdin.isatty():
        raise SpecError(f"{g.spec} is played in real time and needs a terminal for its keys (stdin is not one)")
    try:
        with KeyReader() as keys:
            state = play_realtime(g, bot, you, seed, tick_ms, keys.read)
    except HumanQuit as err:
        out.print(str(err), markup=False)
        return
    ret, scores = state.returns(), state.scores()
    verdict = "you win" if ret[you] > ret[1 - you] else ("a draw" if ret[you] == ret[1 - you] else f"{bot.name} wins")
    name = escape(bot.name)
    out.print(f"[bold]{escape(verdict)}[/] (scores: you {scores[you]:g}, {name} {scores[1 - you]:g})", highlight=False)


def _fmt(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 1e6:
        return f"{v / 1e6:,.2f} M"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.3g}"


if __name__ == "__main__":  # pragma: no cover
    main()
