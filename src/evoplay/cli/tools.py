"""``evoplay`` commands of benchmarks and the seed games' own tools: bench, solve, target, sevens-ladder."""
from __future__ import annotations

import json
import sys

import click
from rich.markup import escape
from rich.table import Table

from evoplay.cli.common import console, executor_options, main, out, print_error
from evoplay.errors import SpecError


@main.command()
@click.argument("names", nargs=-1)
@click.option("--quick", is_flag=True,
              help="smaller samples, a first look: the same ratios, no figure judged against a full run's target")
@click.option("--json", "as_json", is_flag=True, help="print the figures as JSON")
@click.option("--minutes", type=float, default=None, help="(learn) minutes of evolution per game (default 10)")
@click.option("--games", "games_per_seat", type=int, default=None,
              help="(learn) games per seat against each yardstick (default 20)")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="(learn) the folder of its run folders and results.json (default runs/bench-learn); a finished "
                   "run there is reused, an unfinished one resumed")
@click.option("--only", "only", default=None, metavar="NAMES",
              help="(learn) some of its games, comma-separated (othello6,connect_four,breakthrough5,hex5,pig,kalah,"
                   "dots_and_boxes3,clobber5,oware,pentago)")
@click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE",
              help="(learn) evolve with this ga config key changed (repeatable), e.g. --set genome.sigma=0.5")
@click.option("--seeds", default=None, metavar="SEEDS",
              help="(learn) run every game with each of these seeds, e.g. 0,1,2: the median and the spread")
@click.option("--time-scaling", "time_scaling", is_flag=True,
              help="(learn) also play the champion with 4x its time a move against itself")
@click.option("--recipe", default=None, type=click.Choice(["ga", "gp"]), help="(learn) the recipe (default ga)")
def bench(names, quick, as_json, minutes, games_per_seat, out_dir, only, assignments, seeds, time_scaling, recipe):
    """Measure evoplay against its references and targets (all benchmarks, or the NAMES given). A benchmark that
    takes games (anygame) measures the game specs that follow its name: evoplay bench anygame my.py:MyGame.
    `learn` (an hour and more) runs only when named: evoplay bench learn --minutes 10.

    Each benchmark's table is printed as it finishes; Ctrl-C keeps the finished ones (exit code 130)."""
    import time

    from evoplay.bench import load_all, load_note, run_benchmark

    registry = load_all()
    chosen, games = _bench_names(list(names), registry)
    given = {"minutes": minutes, "games": games_per_seat, "out": out_dir, "only": only,
             "settings": tuple(assignments) or None, "seeds": seeds, "time_scaling": time_scaling or None, "recipe": recipe}
    for key, value in given.items():
        if value is not None and not any(key in registry[n].options for n in chosen):
            takers = ", ".join(n for n in registry if key in registry[n].options) or "none"
            flag = {"settings": "set", "time_scaling": "time-scaling"}.get(key, key)
            raise SpecError(f"--{flag} is for the benchmarks that take it ({takers}), not {', '.join(chosen)}")
    if minutes is not None and minutes <= 0:
        raise SpecError(f"--minutes {minutes:g}: give the minutes of evolution per game (> 0)")
    if games_per_seat is not None and games_per_seat < 1:
        raise SpecError(f"--games {games_per_seat}: give at least 1 game per seat")
    results = []
    start = time.perf_counter()
    try:
        for i, n in enumerate(chosen):
            if not as_json:
                console.print(f"running {n} ({i + 1} of {len(chosen)}{', quick' if quick else ''}): "
                              f"{registry[n].help}", style="dim", markup=False, highlight=False)
            t0 = time.perf_counter()
            extra = {k: v for k, v in given.items() if v is not None and k in registry[n].options}
            r = run_benchmark(registry[n], quick, games.get(n), **extra)
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


def _bench_names(names: list[str], registry) -> tuple[list[str], dict[str, list[str]]]:
    """The benchmarks to run and, for those that take games, the game specs named after them."""
    from evoplay.spec import suggest

    chosen: list[str] = []
    games: dict[str, list[str]] = {}
    for n in names:
        if n in registry:
            chosen.append(n)
        elif chosen and registry[chosen[-1]].takes_games:
            games.setdefault(chosen[-1], []).append(n)
        else:
            takers = ", ".join(b for b in registry if registry[b].takes_games)
            raise SpecError(f"unknown benchmark '{n}'{suggest(n, registry)}; known: {', '.join(registry)} "
                            f"(a game spec goes after a benchmark that measures games: {takers})")
    return chosen or [n for n in registry if not registry[n].long], games


#: below this many columns a benchmark's figures print as short paragraphs, not as a table of wrapped rows
WIDE = 120


def _bench_table(r, seconds: float, width: int | None = None):
    """A benchmark's figures: a table on a wide terminal; on a narrow one (80 columns) each figure as a line of its
    name and an indented line of its value, reference, speed-up and target."""
    from rich.console import Group
    from rich.text import Text

    title = f"{r.name}  ({r.command}, {seconds:.0f} s)"
    width = width or out.width
    if width < WIDE:
        import textwrap

        def wrapped(text: str, indent: int, style: str = "") -> Text:  # a long line goes on indented under itself
            return Text(textwrap.fill(text, width, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                                      break_on_hyphens=False), style=style)

        parts = [Text(title, style="bold")]
        for f in r.figures:
            ref = f"; {_fmt(f.reference)} {f.reference_name}" if f.reference is not None else ""
            ratio = f" ({f.ratio:,.1f}x)" if f.ratio is not None else ""
            target = f"; target {f.target}: {_met(r, f)}" if f.target and (f.met is not None or r.quick) else ""
            parts.append(wrapped(f.name, 0))
            parts.append(wrapped(f"{_fmt(f.value)} {f.unit}{ref}{ratio}{target}".rstrip(), 4))
            if f.reference is None and f.note:
                parts.append(wrapped(f.note, 4, "dim"))
        return Group(*parts, Text(""))
    table = Table(title=escape(title))
    for col in ("figure", "evoplay", "reference (same run)", "speed-up", "target", "met"):
        table.add_column(col, justify="left" if col in ("figure", "reference (same run)") else "right")
    for f in r.figures:
        ref = f"{_fmt(f.reference)} {f.reference_name}" if f.reference is not None else (f.note or "-")
        ratio = f"{f.ratio:,.1f}x" if f.ratio is not None else "-"
        met = {"yes": "[green]yes[/]", "no": "[red]no[/]"}.get(_met(r, f), _met(r, f))
        table.add_row(escape(f.name), escape(f"{_fmt(f.value)} {f.unit}"), escape(ref), ratio, escape(f.target or "-"),
                      met)
    return table


def _met(r, f) -> str:
    """Whether a figure met its target: yes, no, "-" (no target), or a quick run's "quick, not judged"."""
    from evoplay.bench import NOT_JUDGED

    if r.quick and f.target:
        return NOT_JUDGED
    return "-" if f.met is None else ("yes" if f.met else "no")


def _fmt(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 1e6:
        return f"{v / 1e6:,.2f} M"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.3g}"


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
@click.option("--seed", type=int, default=0, show_default=True,
              help="seed of the games (the same seed gives the same table)")
@click.option("--out", "out_file", default=None, type=click.Path(dir_okay=False), help="also write the Markdown here")
@executor_options
def sevens_ladder(computer, n_games, rounds, seed, out_file, workers, backend, address):
    """Sevens levels against each other, the heuristic and random: win rates with 95 % CIs and openskill ratings."""
    from pathlib import Path

    from evoplay.arena import make_executor
    from evoplay.recipes.sevens_ladder import ladder_report, prepare_ladder

    players, command = prepare_ladder(computer, n_games, rounds, seed)
    with make_executor(backend, workers, address) as ex:
        text = ladder_report(players, n_games, rounds, seed, ex, command)
    if out_file:
        Path(out_file).write_text(text + "\n", encoding="utf-8")
    click.echo(text)
