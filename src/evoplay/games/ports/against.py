"""A port held to OpenSpiel: seeded random games through the port's Python rules, its kernels and pyspiel side by
side, stopping at the first difference (``evoplay check-game openspiel:NAME --against-openspiel``).

At every position of every game the three must agree on the player to move, whether the game is over, the legal
actions (in OpenSpiel's order; the kernels list theirs in increasing order, so OpenSpiel's must be increasing too),
the returns and each player's observation tensor (the Python rules' ``tensor``, and the features of both the rules
and the kernels against OpenSpiel's tensor made relative to the seat); the rules' ``str(state)`` and the string of
the action played must be OpenSpiel's, and the kernels' position must be ``encode`` of the rules' State. At a chance
node the three must give the same outcomes with the same probabilities (the rules' ``chance_outcomes``, the
kernels' ``chance``). A random game picks its moves from the legal actions, and a chance node's outcome by its
probability, with a generator seeded from the game's seed (game 0 is played from the seed itself, the others from
``derive_seed(seed, game)``), and plays the one action drawn on all three, so a difference names the seed that
replays it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from evoplay.errors import SpecError
from evoplay.games.base import CHANCE
from evoplay.games.ports.base import PortState


@dataclass
class Difference:
    """The first difference: where (game, seed, move, the actions played before it) and what."""

    game: int
    seed: int
    move: int
    what: str  # "current player", "terminal", "legal actions", "chance outcomes", "returns", "observation tensor",
    #            "action string", "text", "position"
    engine: str  # "Python rules" or "kernels"
    message: str
    actions: list[int] = field(default_factory=list)

    def __str__(self) -> str:
        shown = self.actions if len(self.actions) <= 40 else ["..."] + self.actions[-40:]
        return (f"{self.what} differ{'s' if self.what in ('text', 'position') else ''}: {self.message} (game "
                f"{self.game}, seed {self.seed}, move {self.move}, after the actions {shown})")


@dataclass
class SideBySide:
    """What ``against_openspiel`` saw: the games and moves compared, and the first difference (None: none)."""

    spec: str
    games: int = 0
    moves: int = 0
    through: tuple[str, ...] = ()
    difference: Difference | None = None
    seconds: float = 0.0
    lengths: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.difference is None

    def summary(self) -> str:
        if self.difference is not None:
            return f"differs from OpenSpiel: {self.difference}"
        longest = f", {min(self.lengths)} to {max(self.lengths)} moves a game" if self.lengths else ""
        return (f"equal to OpenSpiel (pyspiel) at {self.moves} moves of {self.games} seeded random games{longest}, "
                f"through the {' and the '.join(self.through)}")


def refusal(game) -> str:
    """Why ``game`` cannot be held to OpenSpiel ('' when it can: it is played by an evoplay port)."""
    if getattr(game, "engine", "") == "port":
        return ""
    engine = getattr(game, "engine_note", "") if game.spec.startswith("openspiel:") else ""
    return (f"{game.spec} is not played by an evoplay port ({engine or 'it is not an OpenSpiel game'}); "
            f"--against-openspiel holds a port to OpenSpiel: give openspiel:NAME of a game evoplay ports")


class _Stop(Exception):
    pass


def against_openspiel(game, games: int = 2000, seed: int = 0, kernels: bool = True, text: bool = True,
                      max_moves: int = 100_000) -> SideBySide:
    """Play ``games`` seeded random games of the port ``game`` (a spec or a loaded game) through its Python rules,
    its kernels (``kernels``) and pyspiel side by side; stop at the first difference (``report.difference``).
    ``text``: compare ``str(state)`` with OpenSpiel's too."""
    from evoplay.games import load_game
    from evoplay.games.kernels import kernels_of
    from evoplay.seeds import derive_seed

    if isinstance(game, str):
        game = load_game(game)
    if refusal(game):
        raise SpecError(refusal(game))
    k = kernels_of(game) if kernels else None
    report = SideBySide(game.spec, through=("Python rules",) + (("kernels",) if kernels else ()))
    index = game.seat_index
    observer = game.adapter._observer
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed if g == 0 else derive_seed(seed, g)
        try:
            report.lengths.append(_one_game(game, k, index, observer, g, game_seed, text, max_moves, report))
        except _Stop:
            break
        report.games += 1
    report.seconds = time.perf_counter() - start
    return report


def _one_game(game, k, index, observer, g: int, game_seed: int, text: bool, max_moves: int,
              report: SideBySide) -> int:
    rng = np.random.default_rng(game_seed)
    ours = game.new_initial_state(game_seed)
    theirs = game.pyspiel_game.new_initial_state()
    actions: list[int] = []
    pos = None
    if k is not None:
        pos = k.new_position()
        k.initial(k.params, pos, game_seed)

    def differ(what: str, engine: str, message: str):
        report.difference = Difference(g, game_seed, len(actions), what, engine, message, list(actions))
        raise _Stop

    for move in range(max_moves + 1):
        _same(game, k, index, observer, ours, theirs, pos, text, differ)
        legal = theirs.legal_actions()
        if theirs.is_terminal() or not legal:  # over, or a player who cannot move (all three agree: compared)
            return move
        player = theirs.current_player()
        if player == CHANCE:  # an outcome with its probability, drawn once and played on all three
            outcomes = theirs.chance_outcomes()
            probs = np.array([p for _, p in outcomes], dtype=np.float64)
            action = int(outcomes[int(rng.choice(len(outcomes), p=probs / probs.sum()))][0])
        else:
            action = int(legal[int(rng.integers(len(legal)))])
        want = theirs.action_to_string(player, action)
        have = ours.action_to_string(action)
        if have != want:
            differ("action string", "Python rules", f"OpenSpiel writes action {action} as {want!r}, the port as "
                                                    f"{have!r}")
        theirs.apply_action(action)
        ours._apply_action(action)  # legal: the legal actions were just found equal
        if pos is not None:
            k.apply(k.params, pos, action)
        actions.append(action)
        report.moves += 1
    differ("terminal", "Python rules", f"OpenSpiel's game did not end within {max_moves} moves")
    return max_moves


def _same(game, k, index, observer, ours, theirs, pos, text: bool, differ) -> None:
    """Compare the three at one position; ``differ(what, engine, message)`` stops at the first difference."""
    player = theirs.current_player()
    terminal = theirs.is_terminal()
    if ours.current_player() != player:
        differ("current player", "Python rules", f"OpenSpiel's is {player}, the port's {ours.current_player()}")
    if ours.is_terminal() != terminal:
        differ("terminal", "Python rules", f"OpenSpiel's state is {'' if terminal else 'not '}terminal, the "
                                           f"port's is{'' if ours.is_terminal() else ' not'}")
    legal = [int(a) for a in theirs.legal_actions()] if not terminal else []
    mine = ours.legal_actions()
    if mine != legal:
        differ("legal actions", "Python rules", f"OpenSpiel's are {legal}, the port's {mine}")
    chance = player == CHANCE
    outcomes = [(int(a), float(p)) for a, p in theirs.chance_outcomes()] if chance else []
    if chance and ours.chance_outcomes() != outcomes:
        differ("chance outcomes", "Python rules", f"OpenSpiel's are {outcomes}, the port's {ours.chance_outcomes()}")
    returns = [float(r) for r in theirs.returns()]
    if ours.returns() != returns:
        differ("returns", "Python rules", f"OpenSpiel's are {returns}, the port's {ours.returns()}")
    if text and str(ours) != str(theirs):
        differ("text", "Python rules", f"OpenSpiel prints the state as {str(theirs)!r}, the port as {str(ours)!r}")
    tensors = [_tensor(theirs, p, observer) for p in range(game.num_players)]
    own_features = type(ours).features is not PortState.features  # the base's are the tensor's, made relative
    for p, tensor in enumerate(tensors):
        got = ours.tensor(p)
        if not np.array_equal(got, tensor):
            differ("observation tensor", "Python rules", f"player {p}'s {_first(got, tensor, game)}")
        want = tensor if index is None else tensor[index[p]]
        if own_features and not np.array_equal(ours.features(p), want):
            differ("observation tensor", "Python rules", f"player {p}'s features are not OpenSpiel's tensor made "
                                                         f"relative to the seat")
    if k is None:
        return
    if not np.array_equal(pos, ours.encode()):
        differ("position", "kernels", f"the kernels' position {pos.tolist()} is not encode() of the rules' State "
                                      f"{ours.encode().tolist()}")
    if int(k.mover(k.params, pos)) != player:
        differ("current player", "kernels", f"OpenSpiel's is {player}, the kernels' {int(k.mover(k.params, pos))}")
    if chance:  # the kernels' legal and moves list no player's actions here: the chance kernel gives the outcomes
        have = [] if k.chance is None else k.chance_of(pos)
        if have != [(a, p) for a, p in outcomes if p > 0]:
            differ("chance outcomes", "kernels", f"OpenSpiel's are {outcomes}, the kernels' {have}")
        for p in range(game.num_players):
            if k.legal_actions(pos, p):
                differ("legal actions", "kernels", f"at a chance node the kernels list player {p}'s actions "
                                                   f"{k.legal_actions(pos, p)}")
        if getattr(k, "moves", None) is not None and k.moves_of(pos):
            differ("legal actions", "kernels", f"at a chance node the moves kernel lists {k.moves_of(pos)}")
    else:
        have = k.legal_actions(pos, player) if player >= 0 else k.legal_actions(pos, 0) + k.legal_actions(pos, 1)
        if have != legal:
            differ("legal actions", "kernels", f"OpenSpiel's are {legal}, the kernels' {have}")
        if getattr(k, "moves", None) is not None and k.moves_of(pos) != legal:
            differ("legal actions", "kernels", f"OpenSpiel's are {legal}, the moves kernel lists {k.moves_of(pos)}")
    if k.returns_of(pos) != returns:
        differ("returns", "kernels", f"OpenSpiel's are {returns}, the kernels' {k.returns_of(pos)}")
    for p, tensor in enumerate(tensors):
        want = tensor if index is None else tensor[index[p]]
        got = k.features_of(pos, p)
        if not np.array_equal(got, want):
            i = int(np.flatnonzero(got != want)[0])
            differ("observation tensor", "kernels", f"player {p}'s features differ at {game.feature_names()[i]}: "
                                                    f"{got[i]} where OpenSpiel's tensor made relative to the seat "
                                                    f"holds {want[i]}")


def _tensor(theirs, player: int, observer) -> np.ndarray:
    """OpenSpiel's observation tensor of ``player``, flat (through the adapter's observer where it has one)."""
    if observer is not None:
        observer.set_from(theirs, player)
        return observer.tensor.astype(np.float64).reshape(-1)
    return np.asarray(theirs.observation_tensor(player), dtype=np.float64)


def _first(got: np.ndarray, want: np.ndarray, game) -> str:
    if got.shape != want.shape:
        return f"observation tensor has {got.size} numbers, OpenSpiel's {want.size}"
    i = int(np.flatnonzero(got != want)[0])
    return f"observation tensor differs at {game.feature_names()[i]}: {got[i]} where OpenSpiel's holds {want[i]}"


__all__ = ["Difference", "SideBySide", "against_openspiel", "refusal"]
