"""``evoplay check-game`` on a game that gives kernels: its kernels against its own Python State, move by move.

Every seeded random game the checker plays is replayed through the kernels (``Game.kernels()``, see
evoplay.games.kernels): after each move the position must be what ``encode`` makes of the State, and ``mover``,
``legal``, ``returns``, ``scores``, ``features`` (every player's), ``chance`` and ``initial`` must say what the
State says, exactly (the searches compare values, so a difference in the last bit changes a move), and the
State must list legal actions and chance outcomes in increasing action order, as the kernels do. Equal
``transposition_key()`` values must get equal ``state_hash`` numbers, and two different keys sharing a number
are reported too (a search's table would mix the two positions).
"""
from __future__ import annotations

import numpy as np

from evoplay.games.base import CHANCE, SIMULTANEOUS
from evoplay.games.kernels import Kernels


class KernelComparison:
    """Compares one game's kernels with its State over the games the checker plays; ``problem(rule, message)``
    records what differs (the checker's own recorder)."""

    def __init__(self, game, kernels: Kernels, problem):
        self.game, self.kernels, self.problem = game, kernels, problem
        self.hashes: dict = {}  # transposition key -> hash
        self.keys: dict = {}  # hash -> transposition key
        self.moves = 0
        self.games = 0

    def replay(self, seed: int, index: int, trace) -> None:
        """Play ``trace`` (the checker's record of one game: (player, legal, action, ...) per move, then
        ("end", returns)) on a new State and on the kernels side by side; stop at the first difference."""
        k = self.kernels
        state = self.game.new_initial_state(seed)
        pos = k.position(state)
        where = f"game {index}, seed {seed}, at the start"
        if k.initial is not None:
            start = k.new_position()
            k.initial(k.params, start, seed)
            if not np.array_equal(start, pos):
                self.problem("kernels-initial", f"initial(params, state, {seed}) gives {_shown(start, pos)} ({where}); "
                                                f"it must give encode(new_initial_state({seed}))")
                return
        for move, step in enumerate(trace):
            where = f"game {index}, seed {seed}, move {move}"
            if not self.same(state, pos, where):
                return
            if step[0] == "end":
                self.games += 1
                return
            player, action = step[0], step[2]
            if player == SIMULTANEOUS:
                state.apply_actions(list(action))
                k.apply(k.params, pos, k.joint(action))
            else:
                state.apply_action(action)
                k.apply(k.params, pos, action)
            encoded = k.position(state)
            if not np.array_equal(encoded, pos):
                self.problem("kernels-apply", f"after apply(params, state, {action}) the position is "
                                              f"{_shown(pos, encoded)} ({where}); it must be encode(state) of the "
                                              f"State after the same move")
                return
            self.moves += 1

    def same(self, state, pos, where: str) -> bool:
        """Does every kernel say what the State says at this position? Records the first difference."""
        k = self.kernels
        player = state.current_player()
        got = int(k.mover(k.params, pos))
        if got != player:
            self.problem("kernels-mover", f"mover gives {got} where current_player() is {player} ({where})")
            return False
        for p in range(self.game.num_players):
            want = (state.legal_actions(p) if player == SIMULTANEOUS
                    else (state.legal_actions() if p == player else []))
            have = k.legal_actions(pos, p)
            if sorted(int(a) for a in want) != have:
                self.problem("kernels-legal", f"legal(params, state, {p}, mask) marks {have} where the State's legal "
                                              f"actions for player {p} are {sorted(want)} ({where}); mark those (none "
                                              f"for a player who does not move)")
                return False
            if [int(a) for a in want] != have:
                self.problem("kernels-order", f"the State lists player {p}'s legal actions as {list(want)} ({where}); "
                                              f"list them in increasing order, as the kernels do (a search and a "
                                              f"random player pick by that order, so both ways must agree)")
                return False
        for name, kernel_values, state_values in (("returns", k.returns_of(pos), state.returns()),
                                                  ("scores", k.scores_of(pos), state.scores())):
            if list(map(float, state_values)) != kernel_values:
                self.problem(f"kernels-{name}", f"{name}(params, state, out) gives {kernel_values} where the State's "
                                                f"{name}() is {list(state_values)} ({where}); they must be equal "
                                                f"exactly")
                return False
        if k.features is not None:
            for p in range(self.game.num_players):
                want = np.asarray(state.features(p), dtype=np.float64)
                have = k.features_of(pos, p)
                if want.shape != have.shape or not np.array_equal(want, have):
                    i = _first_difference(want, have)
                    self.problem("kernels-features", f"features(params, state, {p}, out) differs from the State's "
                                                     f"features({p}) at {i} ({where}): {_pair(have, want, i)}; they "
                                                     f"must be equal exactly (n_features = "
                                                     f"{len(self.game.feature_names())})")
                    return False
        if player == CHANCE:
            want = [(int(a), float(p)) for a, p in state.chance_outcomes()]
            if k.chance is None:
                self.problem("kernels-chance", f"the game reaches a chance node ({where}) but its Kernels give no "
                                               f"chance kernel; give chance(params, state, probs)")
                return False
            have = k.chance_of(pos)
            if have != sorted(want):
                self.problem("kernels-chance", f"chance(params, state, probs) gives {have} where chance_outcomes() "
                                               f"is {want} ({where})")
                return False
            if have != want:
                self.problem("kernels-order", f"chance_outcomes() lists {want} ({where}); list the outcomes in "
                                              f"increasing action order, as the kernels do (a chance outcome is "
                                              f"drawn by that order, so both ways must agree)")
                return False
        if k.state_hash is not None:
            return self.same_hash(state, pos, where)
        return True

    def same_hash(self, state, pos, where: str) -> bool:
        hook = getattr(state, "transposition_key", None)
        if hook is None:
            self.problem("kernels-hash", f"the Kernels give state_hash but the State has no transposition_key(); "
                                         f"give both (the searches keep a table only where both agree) or neither")
            return False
        key = hook()
        number = int(self.kernels.state_hash(self.kernels.params, pos))
        seen = self.hashes.setdefault(key, number)
        if seen != number:
            self.problem("kernels-hash", f"state_hash gives {number} for a transposition key it gave {seen} before "
                                         f"({where}); equal keys need equal numbers")
            return False
        other = self.keys.setdefault(number, key)
        if other != key:
            self.problem("kernels-hash", f"state_hash gives {number} to two positions with different transposition "
                                         f"keys ({where}); a search's table would take one for the other")
            return False
        return True

    def summary(self) -> str:
        return f"equal to the State at {self.moves} moves of {self.games} games"


def _first_difference(a: np.ndarray, b: np.ndarray) -> int:
    if a.shape != b.shape:
        return min(len(a), len(b))
    return int(np.flatnonzero(a != b)[0])


def _pair(have: np.ndarray, want: np.ndarray, i: int) -> str:
    left = f"{have[i]!r}" if i < len(have) else "nothing"
    right = f"{want[i]!r}" if i < len(want) else "nothing"
    return f"{left} instead of {right}"


def _shown(pos: np.ndarray, want: np.ndarray) -> str:
    diff = [int(i) for i in np.flatnonzero(pos != want)[:6]]
    cells = ", ".join(f"[{i}] {int(pos[i])} (the State's {int(want[i])})" for i in diff)
    return f"{pos.tolist()}, differing at {cells}"

