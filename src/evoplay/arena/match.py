"""One game between seated agents, and the seed derivation that makes every game reproducible anywhere."""
from __future__ import annotations

import functools
from dataclasses import asdict, dataclass

import numpy as np

from evoplay.errors import GameError, IllegalActionError, SpecError
from evoplay.games.base import CHANCE, SIMULTANEOUS, TERMINAL, Game, sample_chance
from evoplay.games.tools.guard import in_game
from evoplay.games.kernels import play_state
from evoplay.seeds import derive_seed  # noqa: F401 - the arena's seeds (evoplay.arena.derive_seed)


@dataclass
class GameRecord:
    """What one game produced: who sat where, the returns and scores per seat, its length and seed."""

    seats: tuple[int, ...]  # agent index in the tournament for each seat
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    moves: int
    seed: int

    def to_dict(self) -> dict:
        return asdict(self)


#: the key of a game's opening moves in its seed derivation (chance is key 0, the seats 1, 2, ...)
OPENING_KEY = 1 << 20


def play_opening(state, plies: int, seed: int):
    """Play ``plies`` uniformly random moves (chance outcomes by their probabilities; at a simultaneous node a
    random action for every player) from ``state``, drawn from ``seed`` alone, stopping early at the end of the
    game. The same seed gives the same opening whoever then plays it (the fitness's common random numbers)."""
    rng = np.random.default_rng(derive_seed(seed, OPENING_KEY))
    for _ in range(plies):
        player = state.current_player()
        if player == TERMINAL:
            return
        if player == CHANCE:
            state.apply_action(sample_chance(state, rng))
            continue  # a chance outcome is not a ply
        if player == SIMULTANEOUS:
            joint = []
            for p in range(state.game.num_players):
                legal = state.legal_actions(p)
                joint.append(int(legal[int(rng.integers(len(legal)))]) if legal else 0)
            state.apply_actions(joint)
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[int(rng.integers(len(legal)))]))


#: moves before a game counts as one that never ends, unless the game says otherwise (``move_limit``)
MAX_MOVES = 100_000


def move_limit(game: Game) -> int:
    """The moves a game may last: its ``max_moves`` parameter when it has one (a spec can set it), else its
    ``max_moves`` attribute, else ``MAX_MOVES``."""
    limit = game.params.get("max_moves") if isinstance(getattr(game, "params", None), dict) else None
    return int(limit or getattr(game, "max_moves", None) or MAX_MOVES)


def never_ended(max_moves: int) -> GameError:
    """The error of a game that has not ended within ``max_moves`` moves (the arena's, the warm start's)."""
    return GameError(f"the game did not end within {max_moves} moves (a game that never ends?); give the game a "
                     f"move limit, a max_moves parameter or attribute, if it may rightly last longer")


def _names_the_move(play):
    """A GameError raised while ``play`` (play_game) runs says at which move and in the game of which seed, and
    how to check the game from that seed; the move is play_game's own count when it broke (read from its frame,
    so the move loop needs no bookkeeping of its own)."""

    @functools.wraps(play)
    def named(game, agents, seed, *args, **kwargs):
        try:
            return play(game, agents, seed, *args, **kwargs)
        except GameError as err:
            if getattr(err, "seed", None) is not None:
                raise
            tb, move = err.__traceback__, None
            while tb is not None:
                if tb.tb_frame.f_code is play.__code__:
                    move = tb.tb_frame.f_locals.get("moves")
                tb = tb.tb_next
            raise in_game(err, game.spec, seed, move) from None

    return named


@_names_the_move
def play_game(game: Game, agents, seed: int, max_moves: int | None = None, openings: int = 0, on_chance=None,
              on_kernels: bool = False):
    """Play one game; ``agents[p]`` moves for seat p. Each agent is restarted with a seed derived from ``seed``.

    Chance nodes are resolved here with a generator seeded from ``seed`` (key 0; the agents get keys 1, 2, ...),
    so a game's chance events are the same on every executor; ``on_chance(state, outcome)``, if given, hears each
    one before it is applied (``evoplay play`` shows the die). ``openings`` > 0 first plays that many random
    plies (``play_opening``). ``on_kernels`` plays the game on its kernels where it gives them and every agent
    reads the State API alone (evoplay.games.kernels.play_state: the same game, faster). Returns the final state.
    An agent that answers with an illegal action raises IllegalActionError naming it. A game that breaks (a user's
    game: see evoplay.games.tools.guard) or does not end within ``max_moves`` (default: ``move_limit(game)``) raises
    GameError naming the move and the seed.
    """
    if max_moves is None:
        max_moves = move_limit(game)
    if len(agents) != game.num_players:
        raise SpecError(f"{game.spec} is for {game.num_players} players; got {len(agents)} agents")
    state = game.new_initial_state(seed)
    if on_kernels:
        state = play_state(state, agents)
    for seat, agent in enumerate(agents):
        agent.restart(derive_seed(seed, seat + 1), seat)
    if openings:
        play_opening(state, openings, seed)
    chance_rng = None
    moves = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            state.returns(), state.scores()  # read here, where a broken game's error names this move and seed
            return state
        if moves >= max_moves:
            raise never_ended(max_moves)
        if player == CHANCE:
            if chance_rng is None:
                chance_rng = np.random.default_rng(derive_seed(seed, 0))
            outcome = sample_chance(state, chance_rng)
            if on_chance is not None:
                on_chance(state, outcome)
            state.apply_action(outcome)
        elif player == SIMULTANEOUS:
            joint = [agent.step(state) for agent in agents]
            try:
                state.apply_actions(joint)
            except IllegalActionError as err:
                names = ", ".join(f"seat {p}: {a.name}" for p, a in enumerate(agents))
                raise IllegalActionError(f"agents ({names}): {err}") from None
        else:
            action = agents[player].step(state)
            try:
                state.apply_action(action)
            except IllegalActionError as err:
                raise IllegalActionError(f"agent {agents[player].name} in seat {player}: {err}") from None
        moves += 1


def play_record(game: Game, agents, seats: tuple[int, ...], seed: int, openings: int = 0) -> GameRecord:
    """Play one game with ``agents[seats[p]]`` in seat p (after ``openings`` random plies) and return its record
    (on the game's kernels where ``play_game`` may use them)."""
    state = play_game(game, [agents[i] for i in seats], seed, openings=openings, on_kernels=True)
    moves = len(getattr(state, "history", ())) or 0
    return GameRecord(tuple(seats), tuple(state.returns()), tuple(state.scores()), moves, seed)
