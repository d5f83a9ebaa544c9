"""The game API every evoplay game follows: OpenSpiel's names over a Game and its States."""
from __future__ import annotations

import functools
import importlib
from typing import Any, Callable, Sequence

import numpy as np

from evoplay.errors import GameError, IllegalActionError, SpecError
from evoplay.games.naming import plain_spec

# OpenSpiel's special player ids.
CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4


class Game:
    """Rules and parameters of one game; ``new_initial_state`` starts a play of it.

    Subclasses set ``name``, ``num_players`` and implement ``new_initial_state``. ``spec`` is the canonical spec
    string that ``evoplay.load_game`` turns back into an equal game.
    """

    name: str = "game"
    num_players: int = 2
    params: dict[str, Any]
    # False when a state holds what some player may not see (cards in other hands): searches then play on
    # ``State.resample(player, rng)`` instead of the true state.
    perfect_information: bool = True
    #: The players only this game has, each a "module:attribute" reference as an entry point writes one (imported
    #: when first asked for, through ``player(name)``, so a game's rules never import its players). What each
    #: name means:
    #:
    #: - ``"alphabeta"``: ``f(game, depth, schedule, random_ties, seed, spec)``, the game's own search, which
    #:   ``alphabeta`` plays with its evaluation ``auto``;
    #: - ``"genome"``: a module of the game's own genome evaluation: ``schema(game, fields, evaluation)``,
    #:   ``agent(game, record, **options)``, ``export(game, doc, lang)`` (what ``weights(FILE)`` plays from a genome
    #:   document and the m,n,k GA recipe evolves);
    #: - ``"champion"``: an ``evoplay.games.agent.AgentEntry``, the strongest player shipped for the game;
    #: - ``"gp"``: ``f(game, program, pset, doc, where, spec, depth)``, a program of a policy of the game's own
    #:   (``program_agent``);
    #: - ``"narrator"``: ``f(agent, viewer, say)``, an agent that plays as ``agent`` does and tells the person in
    #:   seat ``viewer`` its moves in the game's words (``narrator``);
    #: - any other name: an ``AgentEntry``, an agent only this game has, listed and built under that name.
    players: dict[str, str] = {}
    #: the web app's drawing of the game, by name: one of the app's own for any game ("grid": a real-time game on a
    #: canvas) or one of the game's own, whose script and stylesheet the game's package holds (``view_file``); the
    #: page loads the script of that name, which draws ``State.view_fields``. None: a board from ``State.grid()``
    #: where the states give one, else the state's text
    view: str | None = None

    # --- what the web app and the terminal offer a person (each with a default that suits any game) ----------
    #: the agent a person plays when they name none (``evoplay serve``'s play page, ``evoplay play``); None: the
    #: page's ``random``, the terminal's ``alphabeta(depth=4)`` (``rs(budget_ms=40,depth=10)`` in real time)
    default_opponent: str | None = None
    #: the opponents the play page lists for the game (beside a free spec and the runs' best agents)
    suggested_opponents: tuple[str, ...] = ("random",)
    #: difficulty levels of the game's own: level name -> the agent spec that plays it; the play page and
    #: ``evoplay play --vs LEVEL`` take a level's name for its agent
    levels: dict[str, str] = {}
    #: the agents ``evoplay tournament GAME`` plays when none are named (empty: the command asks for them)
    tournament_agents: tuple[str, ...] = ()
    #: what the terminal writes before an action's string in "<agent> plays <move>", for a game whose action
    #: strings are bare numbers ("pit " makes "alphabeta(depth=4) plays pit 3")
    move_word: str = ""

    def __init__(self, spec: str | None = None, params: dict[str, Any] | None = None, **values):
        """``load_game`` passes the canonical ``spec`` and the checked ``params``. Called plainly --
        ``Othello()``, ``Othello(size=8)`` -- a game builds both from its class: the parameters' defaults with
        ``values`` over them, and the spec ``load_game`` would give (the registered name, or the class's file)."""
        if spec is None:
            spec, params = plain_spec(type(self), values)
        elif values:
            raise SpecError(f"{type(self).__name__}: give parameters either as params or as keywords, not both")
        self.spec = spec
        self.params = dict(params or {})

    def new_initial_state(self, seed: int | None = None) -> "State":
        raise NotImplementedError

    def num_distinct_actions(self) -> int:
        raise NotImplementedError

    def kernels(self):
        """The game's rules as Numba kernels over a position array (an ``evoplay.games.kernels.Kernels``), or None
        (the default): with them every search runs inside Numba on this game (see docs/your-game.md, "Make it
        fast"); without them searches play through the State."""
        return None

    def max_utility(self) -> float | None:
        """The highest return any player can get, when the game knows it (None: unknown). A search's solver
        (``uct(solve=true)``) proves a position won as soon as one move reaches it; without it, only once every
        move is proven."""
        return None

    def feature_names(self) -> list[str]:
        """The names of the numbers ``State.features(player)`` gives, in order: what a GP program or a weight
        vector reads. A game without features cannot be evolved for; the error says how to add them."""
        raise SpecError(
            f"game {self.spec!r} defines no features, so programs and weights cannot read it; give its Game a "
            f"feature_names() method returning a list of names and its State a features(player) method returning "
            f"that many numbers seen from player's side (see evoplay.games.base)"
        )

    def num_features(self) -> int:
        return len(self.feature_names())

    def board_planes(self) -> tuple[int, int, int] | None:
        """``(planes, rows, columns)`` when ``State.features(player)`` is a board flattened plane by plane: plane
        ``k``'s cell ``(r, c)`` at index ``(k * rows + r) * columns + c``, each number 1 where that plane holds
        the cell (a piece of some kind, an empty cell) and 0 elsewhere; None (the default) for any other features.
        Feature players then may also read the counts of neighbouring cell pairs
        (``evoplay.agents.feature_view.pair_counts``)."""
        return None

    @classmethod
    def player(cls, name: str):
        """What ``players[name]`` references, imported; None when the game has no player of that name."""
        ref = cls.players.get(name)
        if ref is None:
            return None
        module, _, attr = ref.partition(":")
        try:
            found = importlib.import_module(module)
            for part in filter(None, attr.split(".")):
                found = getattr(found, part)
        except (ImportError, AttributeError) as err:
            raise SpecError(f"{cls.__name__}.players[{name!r}] = {ref!r} cannot be loaded: {err}; write it "
                            f"as 'package.module:attribute'") from None
        return found

    def program_agent(self, program, pset, doc: dict, where: str, spec: str, depth: int = 0):
        """The player of an evolved program of a policy this game defines itself (``gp(FILE)`` with a policy
        other than the feature policies ``move`` and ``search``), or None when the game has no such policy:
        ``players["gp"]`` (Kalah's pit rule is one: ``evoplay.games.kalah.program_player``)."""
        own = self.player("gp")
        return None if own is None else own(self, program, pset, doc, where, spec, depth)

    def narrator(self, agent, viewer: int, say: Callable[[str], None]):
        """``agent`` wrapped to tell the person in seat ``viewer`` (through ``say``) each move it makes, in the game's
        own words (``players["narrator"]``: Sevens says a sent card to its receiver only); None (the default): the
        terminal's plain "<agent> plays <move>" lines."""
        own = self.player("narrator")
        return None if own is None else own(agent, viewer, say)

    @classmethod
    def run_player(cls, doc: dict, file: str, config: dict) -> tuple[str, str] | None:
        """How the browser plays a run's best.json ``doc`` (at ``file``, the run's config ``config``) of a kind only
        this game's runs write: (the agent spec, the game spec it plays). None (the default): the document is of
        a kind every game's runs write (a program, a genome), which evoplay plays without the game's help."""
        return None

    @classmethod
    def view_file(cls, suffix: str):
        """The file of the game's own drawing (``view``) with ``suffix``: ".js" its script (an ES module whose
        ``render(root, view, ctx)`` draws ``State.view_fields``), ".css" its stylesheet. The default: ``view.js``
        and ``view.css`` in the folder of the module that defines the class (a built-in game's package, the folder
        of a game file); None where there is no such file."""
        import sys
        from pathlib import Path

        where = getattr(sys.modules.get(cls.__module__), "__file__", None)
        if where is None:
            return None
        path = Path(where).with_name("view" + suffix)
        return path if path.is_file() else None

    def openspiel_twin(self):
        """OpenSpiel's equivalent of this game, for OpenSpiel's bots: (the pyspiel game's spec, our action to
        theirs ``f(action, player)``, theirs to ours), or one line saying why there is none (None: no twin)."""
        return None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def __repr__(self) -> str:
        return f"load_game({self.spec!r})"

    def __reduce__(self):
        # A game pickles as its class (by reference: a file game's module re-imports its file) and its canonical
        # spec and parameters, which rebuild an equal game.
        return (type(self), (self.spec, self.params))


class State:
    """A position of a game. Subclasses implement the narrow hooks ``_legal_actions``, ``_apply_action``,
    ``_action_to_string``, ``_string_to_action``; legality checks and terminal handling live here once."""

    game: Game
    #: True when the class brings its own checked ``legal_actions``/``apply_action`` but its hooks
    #: ``_legal_actions``/``_apply_action`` already list and play a turn-based mover's actions (searches,
    #: which only play actions the state listed, then call the hooks: :func:`search_moves`)
    fast_moves: bool = False

    # --- hooks -------------------------------------------------------------------------------------------
    def current_player(self) -> int:
        raise NotImplementedError

    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply_action(self, action: int) -> None:
        raise NotImplementedError

    def _action_to_string(self, action: int) -> str:
        return str(action)

    def _string_to_action(self, text: str) -> int:
        """Default: the legal action that ``action_to_string`` writes as ``text`` (any case), or its number."""
        legal = self.legal_actions(None if self.current_player() != SIMULTANEOUS else 0)
        written = {a: self._action_to_string(a) for a in legal}
        for a, w in written.items():
            if w == text:
                return a
        folded = [a for a, w in written.items() if w.lower() == text.lower()]
        if len(folded) == 1:
            return folded[0]
        body = text[1:] if text[:1] == "-" else text
        if body.isascii() and body.isdigit():
            return int(text)
        raise IllegalActionError(f"{text!r} is not an action here; type one of: {', '.join(written.values())}")

    def returns(self) -> list[float]:
        raise NotImplementedError

    def scores(self) -> list[float]:
        return self.returns()

    def clone(self) -> "State":
        raise NotImplementedError

    def features(self, player: int) -> np.ndarray:
        """``game.feature_names()``'s numbers (float64) as ``player`` sees this state: never more than it can see."""
        self.game.feature_names()  # raises the how-to error for a game without features
        raise NotImplementedError(f"{type(self).__name__}.features(player) is missing")

    def grid(self) -> list[str] | None:
        """The board for the browser to draw: rows of cell symbols, the top row first, one character a cell
        (``.`` an empty cell; each other character a kind of piece, drawn in its own colour). None (the default):
        the game has no grid, and the browser shows ``str(state)`` with a button per move."""
        return None

    def action_cell(self, action: int) -> tuple[int | None, int] | None:
        """Where on ``grid()`` a legal action is played: (row, column), the row counted from the top; (None,
        column) for a drop game's column (any cell of it plays the action); None: no cell (a pass gets a button).
        The default reads actions as cells numbered row by row from the top-left (a game with at least
        rows x columns actions), or as columns (a game with as many actions as columns)."""
        rows = self.grid()
        if not rows:
            return None
        height, width = len(rows), len(rows[0])
        n = self.game.num_distinct_actions()
        if n == width and height > 1:
            return (None, action) if 0 <= action < width else None
        if n >= height * width and 0 <= action < height * width:
            return divmod(action, width)
        return None

    def view_fields(self, player: int) -> dict:
        """What the web app's own drawing of the game (``Game.view``) reads of this state as seat ``player`` sees
        it: a dict of JSON values (Kalah's: the pits and stores of each side). Only a game that names a ``view``
        needs it; the others are drawn from ``grid()`` or their text."""
        raise GameError(f"{type(self.game).__name__}.view is {self.game.view!r}, but {type(self).__name__} has no "
                        f"view_fields(player) giving what that drawing reads; set view = None to draw the state's "
                        f"grid() or text")

    def why_illegal(self, action: int, player: int) -> str:
        """Why seat ``player`` may not play ``action`` here, in the game's words (the web app's answer to a
        refused move). The default names the move and the legal ones."""
        try:
            text = self.action_to_string(action)
        except Exception:  # an action the game cannot write: its number
            text = str(action)
        shown = ", ".join(self.action_to_string(a) for a in self.legal_actions(player))
        return f"{text} is not a legal move here; legal: {shown}"

    def move_kind(self) -> tuple[str | None, int]:
        """(kind, to) of the move the player to move makes, for a game whose moves are of several kinds: the kind's
        name and the seat the move goes to (-1: no seat). A move to a seat is seen by its mover and that seat only
        (the web app shows the others no more than its kind). The default: (None, -1), one kind of move."""
        return None, -1

    def verdict(self, player: int) -> str | None:
        """How a finished game went for seat ``player`` in the game's own words (Sevens: the finishing order), or
        None (the default): the web app and the terminal say who won from the returns."""
        return None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node (``current_player() == CHANCE``): the outcomes as (action, probability) pairs."""
        raise NotImplementedError(f"{type(self).__name__} has no chance nodes")

    def resample(self, player: int, rng: np.random.Generator) -> "State":
        """A state ``player`` cannot tell from this one, with what it cannot see drawn at random (determinised
        search). Perfect-information games return a clone."""
        if self.game.perfect_information:
            return self.clone()
        raise NotImplementedError(f"{type(self).__name__}.resample(player, rng) is missing for hidden information")

    # --- shared behaviour ------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.is_terminal():
            return []
        if player is not None and player != self.current_player():
            return []
        return self._legal_actions()

    def apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; no action can be applied ({self.game.spec})")
        legal = self._legal_actions()
        if action not in legal:
            shown = ", ".join(f"{a} ({self._action_to_string(a)})" for a in legal)
            raise IllegalActionError(
                f"action {action!r} is not legal for player {self.current_player()}; legal: {shown}"
            )
        self._apply_action(int(action))

    def apply_actions(self, actions: Sequence[int]) -> None:
        """Apply a joint action; turn-based games take the mover's entry and ignore the rest."""
        player = self.current_player()
        if player < 0:
            raise IllegalActionError(f"apply_actions needs a player to move; current player is {player}")
        self.apply_action(actions[player])

    def action_to_string(self, action: int, player: int | None = None) -> str:
        return self._action_to_string(int(action))

    def string_to_action(self, text: str, player: int | None = None) -> int:
        """Read an action written the way ``action_to_string`` writes it; raise IllegalActionError if unknown."""
        return self._string_to_action(text.strip())

    def winner(self) -> int | None:
        """The player with the highest return of a finished game, or None for a draw or a running game."""
        if not self.is_terminal():
            return None
        r = self.returns()
        best = max(r)
        top = [p for p, v in enumerate(r) if v == best]
        return top[0] if len(top) == 1 else None


@functools.cache
def search_moves(cls: type) -> tuple[Callable, Callable]:
    """(legal, apply) for a search at a turn-based decision node of a state of class ``cls``: ``legal(state)`` lists
    the mover's actions, ``apply(state, action)`` plays one of them. Where the class keeps State's checked
    ``legal_actions`` and ``apply_action`` (or says ``fast_moves``), these are its hooks ``_legal_actions`` and
    ``_apply_action``: a search only plays actions the state listed, so a second legality check is wasted."""
    fast = bool(getattr(cls, "fast_moves", False))
    legal = cls._legal_actions if fast or cls.legal_actions is State.legal_actions else cls.legal_actions
    apply = cls._apply_action if fast or cls.apply_action is State.apply_action else cls.apply_action
    return legal, apply


def sample_chance(state: State, rng: np.random.Generator) -> int:
    """Draw a chance node's outcome with its probability (the arena passes a generator seeded from the game's
    seed, so a game's chance events are the same on every executor)."""
    outcomes = state.chance_outcomes()
    probs = np.array([p for _, p in outcomes], dtype=np.float64)
    # rng.choice(len(outcomes), p=probs / probs.sum()) draws exactly this (one rng.random() against the normalised
    # cumulative sums, the first above it), at half its cost: a dice game draws at every other move
    cdf = (probs / probs.sum()).cumsum()
    cdf /= cdf[-1]
    return int(outcomes[int(cdf.searchsorted(rng.random(), side="right"))][0])


def first_decision(state: State, rng: np.random.Generator) -> State:
    """``state`` with its chance outcomes drawn by ``rng`` (``sample_chance``) until a player is to move or the game
    is over: where a game that starts with dice (or any chance node) has its first decision."""
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return state
