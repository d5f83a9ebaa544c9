"""``evoplay`` commands that list, check and play games: games, agents, check-game, play, match, tournament."""
from __future__ import annotations

import sys
from contextlib import contextmanager

import click
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from evoplay.cli.common import _game, console, executor_options, main, out
from evoplay.compiling import CompileColumn, in_progress_bar
from evoplay.errors import SpecError
from evoplay.spec import parse_seat

#: the agent a person plays at the terminal when neither they nor the game (Game.default_opponent) name one
DEFAULT_OPPONENT = "alphabeta(depth=4)"
REALTIME_OPPONENT = "rs(budget_ms=40,depth=10)"


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


# ---------------------------------------------------------------------------------------------------------------
# Listing.
# ---------------------------------------------------------------------------------------------------------------


@main.command()
@click.argument("spec", required=False)
def games(spec):
    """List the games and their parameters, and the OpenSpiel games evoplay has kernel ports of (with SPEC: which
    engine plays that game)."""
    from evoplay.games import GAMES, load_installed_games
    from evoplay.games.tools.openspiel import engine_note
    from evoplay.games.ports import port_table

    if spec:
        g = _game(spec)
        note = engine_note(g) or f"not an OpenSpiel game: its own rules ({type(g).__name__})"
        out.print(f"[bold]{escape(g.spec)}[/]: {escape(note)}", highlight=False)
        return
    load_installed_games()
    out.print(_entries("games (also: path/file.py:Class, openspiel:NAME)", "game", GAMES.entries()))
    table = Table(title="OpenSpiel games on evoplay's kernel ports (engine=openspiel: OpenSpiel's own)", show_lines=True)
    table.add_column("game", style="bold")
    table.add_column("the port plays")
    for name, plays in port_table():
        table.add_row(escape(name), escape(plays))
    out.print(table)


@main.command()
@click.option("--game", "game_spec", default=None,
              help="only what can play this game (e.g. openspiel:connect_four); the rest say why they cannot")
def agents(game_spec):
    """List the agents and their parameters (with --game: which of them can play that game)."""
    from evoplay.agents import AGENTS, refusal, register_game_players

    game = _game(game_spec) if game_spec else None
    if game is not None:
        register_game_players(type(game))  # the agents its own package offers (Game.players)
    entries = AGENTS.entries()
    reasons = {e.name: refusal(e.name, game) for e in entries} if game else {}
    out.print(_entries(f"agents for {game.spec}" if game else "agents", "agent",
                       [e for e in entries if not reasons.get(e.name)]))
    refused = [(name, why) for name, why in reasons.items() if why]
    if refused:
        table = Table(title=f"cannot play {escape(game.spec)}", show_lines=True)
        table.add_column("agent", style="bold")
        table.add_column("why not")
        for name, why in refused:
            table.add_row(name, escape(why))
        out.print(table)


#: below this many columns a listing of games or agents prints each as a paragraph, not as a table's row
WIDE_LISTING = 120


def _entries(title: str, kind: str, entries, width: int | None = None):
    """Games or agents with their parameters: a table of three columns on a wide terminal; on a narrower one each
    entry as its name and description, then its parameters one a line, indented (a third column would leave the
    description a few letters wide)."""
    from rich.console import Group
    from rich.text import Text

    if (width or out.width) >= WIDE_LISTING:
        table = Table(title=escape(title), show_lines=True)
        table.add_column(kind, style="bold")
        table.add_column("description")
        table.add_column("parameters")
        for e in entries:
            table.add_row(Text(e.name), Text(e.help), Text("\n".join(p.describe() for p in e.params) or "-"))
        return table
    import textwrap

    width = width or out.width
    parts = [Text(title, style="bold"), Text("")]
    for e in entries:
        head = Text(textwrap.fill(f"{e.name} - {e.help}", width, subsequent_indent="  ", break_on_hyphens=False))
        head.stylize("bold", 0, len(e.name))
        parts.append(head)
        described = [p.describe().split(": ", 1) for p in e.params]
        pad = max((len(name) for name, _ in described), default=0) + 1
        for name, what in described:
            parts.append(Text(textwrap.fill(f"{name.ljust(pad)}{what}", width, initial_indent="    ",
                                            subsequent_indent=" " * (4 + pad), break_on_hyphens=False)))
        parts.append(Text(""))
    return Group(*parts)


@main.command("check-game")
@click.argument("game")
@click.option("--games", "n_games", type=int, default=200, show_default=True, help="random games to play")
@click.option("--seed", type=int, default=0, show_default=True,
              help="seed of the first random game (each game after it has its own)")
@click.option("--max-moves", type=int, default=10_000, show_default=True, help="moves before a game counts as endless")
@click.option("--against-openspiel", is_flag=True,
              help="(a port of an OpenSpiel game) also play as many seeded random games through the port and pyspiel "
                   "side by side, stopping at the first difference")
def check_game_command(game, n_games, seed, max_moves, against_openspiel):
    """Play seeded random games of GAME and report every broken promise of the game API (exit 2 if any)."""
    from evoplay.games.tools.check import check_game

    if n_games < 1:
        raise SpecError(f"--games {n_games}: play at least 1 game")
    report = check_game(game, n_games, seed, max_moves, against_openspiel)
    table = Table(title=f"check-game {escape(report.spec)}")
    table.add_column("figure")
    table.add_column("value")
    for name, value in report.summary():
        table.add_row(name, escape(value))
    out.print(table)
    for warning in report.warnings:
        out.print(f"[yellow]warning:[/] {escape(warning)}", highlight=False)
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
@click.option("--seed", type=int, default=0, show_default=True,
              help="seed of the game (chance, the opponent's random choices)")
@click.option("--tick-ms", type=float, default=150.0, show_default=True,
              help="simultaneous games (tron, gems): milliseconds per tick; your key in a tick is your move")
def play(game, opponent, seat, seed, tick_ms):
    """Play GAME in the terminal against an agent (type 'quit' to stop; tron and gems run in real time)."""
    from evoplay.agents.human import HumanQuit
    from evoplay.arena import play_game

    def say(line):
        out.print(line, highlight=False, markup=False)

    g = _game(game)
    n = g.num_players
    you = parse_seat(seat, n, "--seat", g.spec)
    if g.view == "grid":  # simultaneous moves on a grid: played in real time
        _play_realtime(g, opponent, you, seed, tick_ms)
        return
    seats, bot_name = table_seats(g, opponent, you, say)
    out.print(f"[bold]{escape(g.spec)}[/]: you are player {you}, against {escape(bot_name)}")
    def chance(state, outcome):  # the die rolled (hidden-information games keep their deals to themselves)
        say(f"chance: {state.action_to_string(outcome)}")

    try:
        state = play_game(g, seats, seed, on_chance=chance if g.perfect_information else None)
    except HumanQuit as err:
        say(str(err))
        return
    own = state.verdict(you)
    if own is not None:  # the game's own words (Sevens: the finishing order), after what the person's seat sees
        say(f"\n{state.render(you) if hasattr(state, 'render') else state}")
        out.print(f"[bold]{escape(own)}[/]")
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
    """W/D/L, win rate with its 95 % interval, mean score and 5w+d-4l per agent, best first; fits 80 columns
    (a long agent name folds, the numbers never do)."""
    from rich import box

    from evoplay.arena import wilson_interval

    table = Table(title=escape(title), box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
                  caption="W/D/L: wins, draws, losses; score: mean game score", caption_justify="left")
    table.add_column("agent", overflow="fold")
    for col in ("games", "W", "D", "L", "win rate", "95 % CI", "score", "5w+d-4l"):
        table.add_column(col, justify="right", no_wrap=True)
    stats = result.stats()
    labels = result.labels()
    order = sorted(range(len(stats)), key=lambda i: -stats[i].win_rate())
    for i in order:
        s = stats[i]
        lo, hi = wilson_interval(s.wins + 0.5 * s.draws, s.games)
        table.add_row(
            escape(labels[i]), str(s.games), str(s.wins), str(s.draws), str(s.losses), f"{s.win_rate():.3f}",
            f"{lo:.2f}-{hi:.2f}", f"{s.score / max(1, s.games):.2f}", f"{s.fitness():g}",
        )
    return table


@main.command()
@click.argument("game")
@click.argument("spec_a")
@click.argument("spec_b")
@click.option("--games", "n_games", type=int, default=2, show_default=True, help="games, seats alternating")
@click.option("--seed", type=int, default=0, show_default=True,
              help="seed of the games (the same seed plays the same games)")
@click.option("--json", "as_json", is_flag=True, help="print the results as JSON")
@executor_options
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
@click.option("--seed", type=int, default=0, show_default=True,
              help="seed of the games (the same seed plays the same games)")
@click.option("--json", "as_json", is_flag=True, help="print the results as JSON")
@executor_options
def tournament(game, specs, n_games, seed, as_json, workers, backend, address):
    """Round robin: every agent plays every other in both seats. Without SPECS, the built-in agents on Kalah."""
    from evoplay.agents import make_agent
    from evoplay.arena import make_executor, round_robin

    g = _game(game)
    if not specs:
        if not g.tournament_agents:
            raise SpecError(f"name the agents for {g.spec}, e.g. evoplay tournament {game} random random")
        specs = g.tournament_agents
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


def _play_realtime(g, opponent, you, seed, tick_ms):
    from evoplay.agents import make_agent
    from evoplay.agents.human import HumanQuit
    from evoplay.agents.human_realtime import KeyReader, play_realtime

    bot = make_agent(opponent or g.default_opponent or REALTIME_OPPONENT, g)
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


def table_seats(game, opponent: str | None, you: int, say) -> tuple[list, str]:
    """The seats of a game with a person in seat ``you`` and ``opponent`` in every other (a level name of the game's
    ``levels``, or any agent spec; default the game's ``default_opponent``, else alphabeta(depth=4)), each telling
    the person its moves (the game's ``narrator``, else "<agent> plays <move>", extra turns included); and the
    opponent's name."""
    from evoplay.agents import make_agent
    from evoplay.agents.human import Announcer, HumanAgent

    spec = opponent or game.default_opponent or DEFAULT_OPPONENT
    spec = game.levels.get(spec, spec)
    seats = []
    name = spec
    for p in range(game.num_players):
        if p == you:
            seats.append(HumanAgent(game))
        else:
            bot = make_agent(spec, game)
            name = bot.name
            seats.append(game.narrator(bot, you, say) or Announcer(bot, say))
    return seats, name
