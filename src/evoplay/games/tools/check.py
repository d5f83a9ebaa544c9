"""``evoplay check-game``: play seeded random games and report every promise of the game API a game breaks."""
from __future__ import annotations

import math
import pickle
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from evoplay.errors import GameError, IllegalActionError, SpecError
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, Game, sample_chance
from evoplay.games.tools.guard import HookTimedOut, unguarded


@dataclass
class Problem:
    """One broken promise: which rule, a message saying what was seen and what would be right, and how often."""

    rule: str
    message: str
    count: int = 1


@dataclass
class CheckReport:
    """What ``check_game`` saw: the problems (empty when the game keeps every promise) and a summary."""

    spec: str
    games: int
    seed: int
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what is allowed but will hurt an evolved player
    played: int = 0  # games played to the end
    moves: int = 0
    lengths: list[int] = field(default_factory=list)
    chance_nodes: int = 0
    simultaneous_nodes: int = 0
    num_players: int = 0
    num_features: int | None = None
    board: str = ""  # Game.board_planes(), as "planes x rows x columns" ('': none)
    kernels: str = ""  # what the comparison of the game's kernels with its State found ('': no kernels)
    shared_cell: str = ""  # the first two legal moves seen on one grid cell ('': none); allowed, noted
    shared_cell_positions: int = 0  # positions where legal moves share a cell
    engine: str = ""  # which engine plays an openspiel: game ('': another game)
    against: str = ""  # what --against-openspiel found ('': not asked)
    mean_returns: list[float] = field(default_factory=list)
    seconds: float = 0.0
    returns_sum: np.ndarray | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> list[tuple[str, str]]:
        """(figure, value) rows for a table."""
        rows = [
            ("game", self.spec),
            *([("engine", self.engine)] if self.engine else []),
            ("players", str(self.num_players)),
            ("features", "-" if self.num_features is None else str(self.num_features)),
            ("random games played", f"{self.played} of {self.games} (seed {self.seed})"),
        ]
        if self.lengths:
            rows.append(("moves per game", f"{min(self.lengths)} to {max(self.lengths)}, mean {np.mean(self.lengths):.1f}"))
        rows.append(("chance nodes / simultaneous moves", f"{self.chance_nodes} / {self.simultaneous_nodes}"))
        if self.mean_returns:
            rows.append(("mean returns by seat", ", ".join(f"{r:+.3f}" for r in self.mean_returns)))
        if self.board:
            rows.append(("board of planes (Game.board_planes())", self.board))
        if self.kernels:
            rows.append(("Numba kernels (Game.kernels())", self.kernels))
        if self.shared_cell:
            rows.append(("legal moves sharing a grid cell",
                         f"{self.shared_cell}, at {self.shared_cell_positions} position(s); allowed: evoplay serve "
                         f"asks which of them you mean when you click that cell"))
        if self.against:
            rows.append(("held to OpenSpiel (--against-openspiel)", self.against))
        if self.moves:
            rows.append(("time per move (checks included)", f"{1e6 * self.seconds / self.moves:.0f} us"))
        return rows


class _Abort(Exception):
    """Stops the current game after a hook raised (the problem is already recorded)."""


class _Stop(BaseException):
    """Stops the whole check after a hook ran past its time limit (recorded): every further call of it could take
    as long again. A BaseException, so the checks' own ``except Exception`` let it pass."""


class _Checker:
    def __init__(self, game: Game, report: CheckReport):
        self.game = game
        self.report = report
        self._by_rule: dict[str, Problem] = {}
        self.custom_str = type(game.new_initial_state(0)).__str__ is not object.__str__
        try:
            distinct = game.num_distinct_actions()
        except Exception:  # noqa: BLE001 - a missing num_distinct_actions is not the actions' rule's business
            distinct = None
        self.distinct = distinct if type(distinct) is int and distinct > 0 else None

    # --- recording -------------------------------------------------------------------------------------------
    def problem(self, rule: str, message: str) -> None:
        if rule in self._by_rule:
            self._by_rule[rule].count += 1
            return
        p = Problem(rule, message)
        self._by_rule[rule] = p
        self.report.problems.append(p)

    def call(self, where: str, hook: str, fn, *args):
        """Call a hook of the game; an exception becomes a problem naming the hook and the move."""
        try:
            return fn(*args)
        except _Abort:
            raise
        except HookTimedOut as err:  # the guard's watchdog stopped a looping hook: the check ends here
            self.problem(f"timeout:{hook}", f"{err} ({where})")
            raise _Stop from None
        except GameError as err:  # the guard named the hook (a hook that exits: SystemExit, os._exit)
            self.problem(f"exception:{hook}", f"{err} ({where})")
            raise _Abort from None
        except Exception as err:  # noqa: BLE001 - anything a user's hook raises is reported
            self.problem(f"exception:{hook}", f"{hook} raised {type(err).__name__}: {err} ({where})")
            raise _Abort from None

    def check_actions(self, player, legal, where: str) -> None:
        """Legal actions (and chance outcomes) are distinct numbers; a player's in 0..num_distinct_actions()-1 (a
        chance node's outcomes are numbered as the game numbers them: OpenSpiel numbers a die's faces
        0..MaxChanceOutcomes()-1, past the players' actions)."""
        for p, actions in enumerate(legal if player == SIMULTANEOUS else (legal,)):
            whose = f"legal_actions({p})" if player == SIMULTANEOUS else "legal_actions()"
            if len(set(actions)) != len(actions):
                seen: set = set()
                twice = next(a for a in actions if a in seen or seen.add(a))
                self.problem("actions-distinct", f"{whose} lists {twice} more than once ({where}); list each legal "
                                                 f"action once")
            if self.distinct is not None and player != CHANCE:
                outside = [a for a in actions if not 0 <= a < self.distinct]
                if outside:
                    self.problem("actions-range", f"{whose} holds {outside[0]}, outside 0..{self.distinct - 1} "
                                                  f"({where}); actions are numbered 0 .. num_distinct_actions() - 1 "
                                                  f"(num_distinct_actions() is {self.distinct})")

    # --- one state ---------------------------------------------------------------------------------------------
    def snapshot(self, state, where: str):
        """What the API shows of a state: to compare a state with itself later, or with a replay."""
        n = self.game.num_players
        player = self.call(where, "current_player()", state.current_player)
        if player == SIMULTANEOUS:
            legal = tuple(tuple(self.call(where, f"legal_actions({p})", state.legal_actions, p)) for p in range(n))
        else:
            legal = tuple(self.call(where, "legal_actions()", state.legal_actions))
        returns = tuple(self.call(where, "returns()", state.returns))
        text = self.call(where, "str(state)", str, state) if self.custom_str else ""
        return player, legal, returns, text

    def check_features(self, state, names, where: str) -> None:
        if names is None:
            return
        for p in range(self.game.num_players):
            f = self.call(where, f"features({p})", state.features, p)
            try:
                arr = np.asarray(f, dtype=np.float64)
            except (TypeError, ValueError):
                self.problem("features-type", f"features({p}) returned {type(f).__name__} that is not a vector of "
                                              f"numbers ({where}); return a float64 NumPy array")
                continue
            if arr.shape != (len(names),):
                self.problem("features-length", f"features({p}) has shape {arr.shape} but feature_names() names "
                                                 f"{len(names)} numbers ({where}); return one number per name")
            elif not np.isfinite(arr).all():
                bad = [names[i] for i in np.flatnonzero(~np.isfinite(arr))[:3]]
                self.problem("features-finite", f"features({p}) is not finite at {', '.join(bad)} ({where}); "
                                                 f"features must be finite numbers (no NaN or infinity)")

    def check_returns(self, returns, where: str) -> None:
        n = self.game.num_players
        if len(returns) != n:
            self.problem("returns-length", f"returns() has {len(returns)} numbers for {n} players ({where}); "
                                            f"return one number per player")
        elif not all(isinstance(r, (int, float, np.integer, np.floating)) and math.isfinite(r) for r in returns):
            self.problem("returns-finite", f"returns() is {list(returns)!r} ({where}); return finite numbers")

    def illegal_probe(self, state, player, legal, where: str) -> None:
        """Apply an action that is not legal to a clone: the state must refuse it with IllegalActionError."""
        try:
            distinct = int(self.game.num_distinct_actions())
        except Exception:  # noqa: BLE001 - a missing num_distinct_actions is not this rule's business
            distinct = 0
        if player == SIMULTANEOUS:
            pool = set(legal[0])
        else:
            pool = set(legal)
        outside = [a for a in range(max(distinct, max(pool, default=-1) + 2)) if a not in pool]
        bad = outside[0] if outside else -1
        probe = self.call(where, "clone()", state.clone)
        try:
            if player == SIMULTANEOUS:
                joint = [bad] + [lg[0] for lg in legal[1:]]
                probe.apply_actions(joint)
                shown = f"apply_actions({joint})"
            else:
                probe.apply_action(bad)
                shown = f"apply_action({bad})"
        except IllegalActionError:
            return
        except HookTimedOut as err:
            self.problem("timeout:apply_action", f"{err} ({where})")
            raise _Stop from None
        except Exception as err:  # noqa: BLE001
            self.problem("illegal-error-type",
                         f"an illegal action {bad} raised {type(err).__name__}: {err} ({where}); raise "
                         f"evoplay.errors.IllegalActionError (State.apply_action does when a game implements only "
                         f"the _legal_actions/_apply_action hooks)")
            return
        legal_text = list(legal[0]) if player == SIMULTANEOUS else list(legal)
        self.problem("illegal-accepted",
                     f"an illegal action was accepted: {shown} while player {0 if player == SIMULTANEOUS else player}'s "
                     f"legal actions are {legal_text} ({where}); apply_action must raise IllegalActionError (implement "
                     f"the _apply_action hook and let State.apply_action check legality)")

    def check_clone(self, state, before, player, legal, rng, where: str) -> None:
        """A clone equals the state, and playing on the clone leaves the state as it was."""
        copy = self.call(where, "clone()", state.clone)
        if copy is state:
            self.problem("clone", f"clone() returned the state itself ({where}); return a new, independent state")
            return
        if self.snapshot(copy, where) != before:
            self.problem("clone-equal", f"clone() differs from the state it copies ({where}): current player, legal "
                                        f"actions, returns or str() differ; copy every field")
            return
        if player == SIMULTANEOUS:
            self.call(where, "apply_actions", copy.apply_actions, [lg[int(rng.integers(len(lg)))] for lg in legal])
        else:
            self.call(where, "apply_action", copy.apply_action, legal[int(rng.integers(len(legal)))])
        if self.snapshot(state, where) != before:
            self.problem("clone", f"clone() is not independent: a move on the clone changed the original ({where}); "
                                  f"copy mutable fields (lists, arrays) in clone() instead of sharing them")

    def check_strings(self, state, player, legal, where: str) -> None:
        if player in (SIMULTANEOUS, CHANCE):
            return
        for a in legal:
            text = self.call(where, "action_to_string", state.action_to_string, a)
            try:
                back = state.string_to_action(text)
            except HookTimedOut as err:
                self.problem("timeout:string_to_action", f"{err} ({where})")
                raise _Stop from None
            except Exception as err:  # noqa: BLE001
                self.problem("action-strings", f"string_to_action({text!r}) raised {type(err).__name__}: {err} "
                                               f"({where}); it must read what action_to_string({a}) writes")
                return
            if back != a:
                self.problem("action-strings", f"action_to_string({a}) is {text!r}, which string_to_action reads as "
                                               f"{back!r} ({where}); give each legal action its own text")
                return

    # --- one game ----------------------------------------------------------------------------------------------
    def play(self, seed: int, index: int, names, max_moves: int, full: bool):
        """One seeded random game with every check (``full``) or none; returns its trace, or None if aborted."""
        game, n = self.game, self.game.num_players
        rng = np.random.default_rng(seed)
        probe_rng = np.random.default_rng([seed, 1])  # the checks' own choices: the game's stay as in the replay
        trace = []
        where = f"game {index}, seed {seed}, at the start"
        try:
            state = self.call(where, "new_initial_state", game.new_initial_state, seed)
            for move in range(max_moves + 1):
                where = f"game {index}, seed {seed}, move {move}"
                before = self.snapshot(state, where)
                player, legal, returns, _ = before
                if full:
                    self.check_returns(returns, where)
                    self.check_features(state, names, where)
                if player == TERMINAL:
                    trace.append(("end", returns))
                    if full:
                        self.check_terminal(state, legal, where)
                        self.report.lengths.append(move)
                        self.report.played += 1
                        self.report.returns_sum += np.asarray(returns[:n] + (0.0,) * (n - len(returns)), np.float64)
                    return trace
                if move == max_moves:
                    self.problem("never-ends", f"a random game did not end within {max_moves} moves ({where}); a game "
                                               f"must reach a terminal state (or raise --max-moves)")
                    return None
                if not (0 <= player < n or player in (CHANCE, SIMULTANEOUS)):
                    self.problem("player", f"current_player() is {player} ({where}); use 0..{n - 1}, CHANCE (-1), "
                                           f"SIMULTANEOUS (-2) or TERMINAL (-4)")
                    return None
                if player == SIMULTANEOUS:
                    empty = [p for p, lg in enumerate(legal) if not lg]
                    if empty:
                        self.problem("no-legal", f"a simultaneous move gives player(s) {empty} no legal actions "
                                                 f"({where}); give every player an action (a pass) or end the game")
                        return None
                elif not legal and player == CHANCE:
                    self.problem("no-legal", f"a chance node has no outcomes ({where}); chance_outcomes() must list "
                                             f"the outcomes with their probabilities, and the legal actions at a "
                                             f"chance node are those outcomes (or end the game: TERMINAL, -4)")
                    return None
                elif not legal:
                    self.problem("no-legal", f"a non-terminal state has no legal actions for player {player} "
                                             f"({where}); end the game (current_player() returns TERMINAL, -4) when "
                                             f"no one can move, or give the player a pass action")
                    return None
                if full:
                    self.check_actions(player, legal, where)
                    self.moves_checked(state, before, probe_rng, where)
                if player == CHANCE:
                    self.report.chance_nodes += full
                    outcomes = self.call(where, "chance_outcomes()", state.chance_outcomes)
                    if full:
                        self.check_chance(outcomes, legal, where)
                    action = self.call(where, "chance_outcomes()", sample_chance, state, rng)
                    self.call(where, "apply_action", state.apply_action, action)
                    trace.append((player, legal, action))
                elif player == SIMULTANEOUS:
                    self.report.simultaneous_nodes += full
                    joint = [lg[int(rng.integers(len(lg)))] for lg in legal]
                    self.call(where, "apply_actions", state.apply_actions, joint)
                    trace.append((player, legal, tuple(joint)))
                else:
                    action = legal[int(rng.integers(len(legal)))]
                    self.call(where, "apply_action", state.apply_action, action)
                    seen = tuple(self.call(where, f"features({player})", state.features, player)) if names else ()
                    trace.append((player, legal, action, seen))
                if full:
                    self.report.moves += 1
        except _Abort:
            return None
        return None

    def moves_checked(self, state, before, rng, where: str) -> None:
        player, legal = before[0], before[1]
        self.check_clone(state, before, player, legal, rng, where)
        if player != CHANCE:
            self.illegal_probe(state, player, legal, where)
        self.check_strings(state, player, legal, where)
        self.check_grid(state, player, legal, where)

    def check_grid(self, state, player, legal, where: str) -> None:
        """A grid (``State.grid``) is rows of one character a cell, all as long; every move it places is on it."""
        rows = self.call(where, "grid()", state.grid)
        if rows is None:
            return
        if (not isinstance(rows, (list, tuple)) or not rows or not all(isinstance(r, str) for r in rows)
                or len({len(r) for r in rows}) != 1 or not rows[0]):
            self.problem("grid", f"grid() returned {str(rows)[:60]!r} ({where}); return a list of strings of equal "
                                 f"length, one character a cell, the top row first")
            return
        height, width = len(rows), len(rows[0])
        if player < 0:
            return
        placed = []
        for a in legal:
            cell = self.call(where, f"action_cell({a})", state.action_cell, a)
            if cell is None:
                continue
            r, c = cell if isinstance(cell, (tuple, list)) and len(cell) == 2 else (-1, -1)
            if not (isinstance(c, int) and 0 <= c < width and (r is None or isinstance(r, int) and 0 <= r < height)):
                self.problem("grid", f"action_cell({a}) is {cell!r}, off the {height} x {width} grid ({where}); return "
                                     f"(row, column) counted from the top left, (None, column), or None")
                return
            placed.append((a, r, c))
        if self.game.perfect_information:  # the browser draws a clickable board for these games only
            self.note_shared_cell(state, placed, where)

    def note_shared_cell(self, state, placed, where: str) -> None:
        """Two legal moves on one cell (or a column's move and a cell of that column) are allowed; the report
        notes the first such pair and counts the positions, since a click on that cell must then ask which."""
        for i, (a, r, c) in enumerate(placed):
            other = next((b for b, r2, c2 in placed[i + 1:] if c2 == c and (r2 == r or r is None or r2 is None)),
                         None)
            if other is None:
                continue
            self.report.shared_cell_positions += 1
            if not self.report.shared_cell:
                at = f"column {c}" if r is None else f"grid()[{r}][{c}]"
                texts = [self.call(where, "action_to_string", state.action_to_string, x) for x in (a, other)]
                self.report.shared_cell = f"{texts[0]} and {texts[1]} both on {at} ({where})"
            return

    def check_terminal(self, state, legal, where: str) -> None:
        if legal:
            self.problem("terminal-legal", f"a terminal state has legal actions {list(legal)} ({where}); "
                                           f"legal_actions() must be empty once current_player() is TERMINAL (-4)")
        probe = self.call(where, "clone()", state.clone)
        try:
            probe.apply_action(0)
        except IllegalActionError:
            return
        except HookTimedOut as err:
            self.problem("timeout:apply_action", f"{err} ({where})")
            raise _Stop from None
        except Exception as err:  # noqa: BLE001
            self.problem("terminal-apply", f"apply_action on a finished game raised {type(err).__name__}: {err} "
                                           f"({where}); raise IllegalActionError")
            return
        self.problem("terminal-apply", f"apply_action(0) on a finished game was accepted ({where}); a terminal "
                                       f"state must refuse every action with IllegalActionError")

    def check_chance(self, outcomes, legal, where: str) -> None:
        probs = [p for _, p in outcomes]
        if not outcomes or abs(sum(probs) - 1.0) > 1e-6 or min(probs) < 0:
            self.problem("chance-outcomes", f"chance_outcomes() {outcomes!r} are not probabilities summing to 1 "
                                            f"({where})")
        elif sorted(a for a, _ in outcomes) != sorted(legal):
            self.problem("chance-outcomes", f"chance_outcomes() actions {sorted(a for a, _ in outcomes)} differ from "
                                            f"legal_actions() {sorted(legal)} at a chance node ({where})")


def check_game(game: Game | str, games: int = 200, seed: int = 0, max_moves: int = 10_000,
               against_openspiel: bool = False) -> CheckReport:
    """Play ``games`` seeded random games of ``game`` and check the API's promises at every move: legal actions,
    illegal actions refused, clone independence, terminal states, returns, features, action strings, and the
    same seed giving the same game. Game 0 is played from ``seed`` itself (the seed a run's error names), the
    others from seeds derived from it. ``against_openspiel``: also play as many seeded random games of a port of
    an OpenSpiel game side by side with pyspiel (evoplay.games.ports.against). Returns a report; ``report.ok``
    when no promise was broken."""
    with unguarded():  # the game's hooks as written: each broken promise is named by its own rule below (the
        # guard's time limit, SystemExit and os._exit still apply: a looping hook is named within its limit)
        return _check_game(game, games, seed, max_moves, against_openspiel)


def _check_game(game: Game | str, games: int, seed: int, max_moves: int,
                against_openspiel: bool = False) -> CheckReport:
    from evoplay.games import load_game
    from evoplay.games.tools.openspiel import engine_note
    from evoplay.games.ports.against import refusal

    if isinstance(game, str):
        game = load_game(game)
    if against_openspiel and refusal(game):
        raise SpecError(refusal(game))
    report = CheckReport(game.spec, games, seed, num_players=int(game.num_players), engine=engine_note(game))
    report.returns_sum = np.zeros(report.num_players)
    start = time.perf_counter()
    try:
        checker = _Checker(game, report)
    except GameError as err:  # the first state could not be made: a hook raised, looped or exited
        report.problems.append(Problem("exception:new_initial_state", str(err)))
        return report
    try:
        _check_games(game, games, seed, max_moves, against_openspiel, report, checker)
    except HookTimedOut as err:  # a looping hook outside a game's moves (feature names, the spec, the kernels)
        checker.problem("timeout", str(err))
    except _Stop:
        pass
    report.seconds = time.perf_counter() - start
    return report


def _check_games(game, games, seed, max_moves, against_openspiel, report, checker) -> None:
    from evoplay.seeds import derive_seed
    from evoplay.games.ports.against import against_openspiel as side_by_side

    names = check_names(game, checker)
    report.num_features = None if names is None else len(names)
    if names is not None:
        check_board(game, len(names), report, checker)
    check_spec(game, checker)
    comparison = kernel_comparison(game, checker)
    for g in range(games):
        game_seed = seed if g == 0 else derive_seed(seed, g)  # game 0 starts from the seed itself: a run's broken
        # game names its seed, and check-game --seed S starts there
        trace = checker.play(game_seed, g, names, max_moves, full=True)
        if trace is None:
            continue
        if comparison is not None:
            try:
                comparison.replay(game_seed, g, trace)
            except HookTimedOut:
                raise
            except Exception as err:  # noqa: BLE001 - a user's kernel that fails is reported, not raised
                checker.problem("kernels", f"a kernel raised {type(err).__name__}: {err} (game {g}, seed "
                                           f"{game_seed}); run the kernels on encode(state) of a State")
                comparison = None
        again = checker.play(game_seed, g, names, max_moves, full=False)
        if again is not None and again != trace:
            move = next((i for i, (a, b) in enumerate(zip(trace, again)) if a != b), min(len(trace), len(again)))
            checker.problem("nondeterministic",
                            f"the same seed gave different games: game {g}, seed {game_seed}, replayed with the same "
                            f"choices, differs from move {move}; draw every random number from the seed passed to "
                            f"new_initial_state (no global random, time or set order)")
    if report.played and not max(report.lengths):
        report.warnings.append(f"every game was over before anyone moved (its first state is terminal): there is "
                               f"nothing to play or learn; the game's parameters may not make a playable game")
    elif names and report.ok and game.num_players > 1:
        warning = seat_blind(game, seed)
        if warning:
            report.warnings.append(warning)
    if comparison is not None:
        report.kernels = comparison.summary()
    if against_openspiel:
        held = side_by_side(game, games, seed, max_moves=max_moves)
        report.against = held.summary()
        if not held.ok:
            checker.problem("against-openspiel", f"the port {report.against}")
    if report.played:
        report.mean_returns = [float(x) / report.played for x in report.returns_sum]


def kernel_comparison(game: Game, checker: _Checker):
    """The comparison of the game's kernels with its State (evoplay.games.tools.check_kernels), or None when the game
    gives no kernels (or its ``kernels()`` fails: a problem)."""
    from evoplay.games.tools.check_kernels import KernelComparison
    from evoplay.games.kernels import kernels_of

    try:
        kernels = kernels_of(game)
    except HookTimedOut:
        raise
    except Exception as err:  # noqa: BLE001
        checker.problem("kernels", f"kernels() raised {type(err).__name__}: {err}")
        return None
    return None if kernels is None else KernelComparison(game, kernels, checker.problem)


def check_board(game: Game, count: int, report: CheckReport, checker) -> None:
    """``Game.board_planes()``, when the game gives one: its cells must be its ``count`` features."""
    try:
        shape = game.board_planes()
    except HookTimedOut:
        raise
    except Exception as err:  # noqa: BLE001 - a user's hook that fails is reported, not raised
        checker.problem("board_planes", f"board_planes() raised {type(err).__name__}: {err}")
        return
    if shape is None:
        return
    dims = [int(n) for n in shape] if isinstance(shape, (tuple, list)) else []
    if len(dims) != 3 or min(dims) < 1 or dims[0] * dims[1] * dims[2] != count:
        checker.problem("board_planes", f"board_planes() gave {shape!r}; give (planes, rows, columns) whose product is "
                                        f"the {count} features, or None when the features are not a board")
        return
    size = f"{dims[0]} x {dims[1]} x {dims[2]}"
    report.board = (f"{size}: evolved players can read its neighbouring cell pairs (evolve ga races them: "
                    f"player.pair_race)" if dims[0] <= 4 else size)


def seat_blind(game: Game, seed: int, games: int = 20) -> str:
    """A warning when no feature depends on the seat: ``features(p)`` is the same for every player at every
    position of ``games`` random games, so a program or weights reading them cannot tell which seat they play."""
    from evoplay.games.tools.seat_view import tensors_agree

    if not tensors_agree(game, lambda state, p: np.asarray(state.features(p), dtype=np.float64), seed, games):
        return ""
    return (f"no feature depends on the seat: features(p) is the same for every player at every position of {games} "
            f"random games, so an evolved player cannot tell its own pieces from its opponent's by them alone. "
            f"Evolved players also read the free features (seat, my_turn, ...; evoplay.agents.feature_view), but "
            f"features seen from the player's side (its pieces first, the board turned to its side) learn faster")


def check_names(game: Game, checker: _Checker):
    """``feature_names()``: a list of distinct strings, or a problem (None: features cannot be checked)."""
    try:
        names = game.feature_names()
    except HookTimedOut:
        raise
    except Exception as err:  # noqa: BLE001
        checker.problem("feature-names", f"feature_names() raised {type(err).__name__}: {err}")
        return None
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        checker.problem("feature-names", f"feature_names() returned {type(names).__name__}; return a list of strings")
        return None
    dup = sorted(n for n, times in Counter(names).items() if times > 1)
    if dup:
        checker.problem("feature-names", f"feature_names() repeats {', '.join(dup[:5])}; give each number its own name")
    if game.num_features() != len(names):
        checker.problem("feature-names", f"num_features() is {game.num_features()} but feature_names() has "
                                         f"{len(names)} names; drop the num_features override")
    return list(names)


def check_spec(game: Game, checker: _Checker) -> None:
    """The spec rebuilds an equal game, and the game pickles (worker processes receive games that way)."""
    from evoplay.games import load_game

    try:
        again = load_game(game.spec)
        if again != game or type(again) is not type(game):
            checker.problem("spec", f"load_game({game.spec!r}) builds a different game; keep Game.spec canonical")
        copy = pickle.loads(pickle.dumps(game))  # a round trip of our own bytes, as a worker process receives it
        if copy != game:
            checker.problem("spec", f"a pickled game comes back different ({game.spec!r})")
    except HookTimedOut:
        raise
    except Exception as err:  # noqa: BLE001
        checker.problem("spec", f"load_game({game.spec!r}) or pickling the game failed: {type(err).__name__}: {err}; "
                                f"worker processes rebuild a game from its spec")
