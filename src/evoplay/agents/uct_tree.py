"""uct's tree: its nodes, their expansion, the UCT and PUCT selections, chance draws and the backup with the solver.

Nothing here calls a game method (evoplay.agents.uct's ``search`` drives the State and calls these; the kernel
search, evoplay.agents.kernel_uct, is the same logic over arrays). The rules are OpenSpiel's MCTSBot's, as the
docstring of evoplay.agents.uct gives them.
"""
from __future__ import annotations

import math
import random
from typing import Sequence

from evoplay.games.base import CHANCE


class SearchNode:
    """A position in the tree: ``action`` (what ``player`` played to reach it), the ``prior`` of that action,
    ``explore_count`` visits, ``total_reward`` (the sum of ``player``'s values over those visits), ``outcome``
    (every player's return once the position is proven, else None) and ``children``."""

    __slots__ = ("action", "player", "prior", "explore_count", "total_reward", "outcome", "children")

    def __init__(self, action: int | None, player: int, prior: float):
        self.action = action
        self.player = player
        self.prior = prior
        self.explore_count = 0
        self.total_reward = 0.0
        self.outcome: list[float] | None = None
        self.children: list[SearchNode] = []

    def uct_value(self, parent_explore_count: int, uct_c: float) -> float:
        """UCT: the mean reward plus ``uct_c * sqrt(ln(parent visits) / visits)``; infinite when unvisited."""
        if self.outcome is not None:
            return self.outcome[self.player]
        if self.explore_count == 0:
            return math.inf
        return self.total_reward / self.explore_count + uct_c * math.sqrt(
            math.log(parent_explore_count) / self.explore_count)

    def puct_value(self, parent_explore_count: int, uct_c: float) -> float:
        """PUCT (AlphaZero's): the mean reward plus ``uct_c * prior * sqrt(parent visits) / (visits + 1)``."""
        if self.outcome is not None:
            return self.outcome[self.player]
        return ((self.total_reward / self.explore_count if self.explore_count else 0.0)
                + uct_c * self.prior * math.sqrt(parent_explore_count) / (self.explore_count + 1))

    def sort_key(self) -> tuple[float, int, float]:
        """How the final move is chosen: a proven outcome for the mover (0 when unproven), then visits, then
        total reward. A proven win beats everything, a proven loss comes after every unproven move."""
        return (0.0 if self.outcome is None else self.outcome[self.player], self.explore_count, self.total_reward)

    def best_child(self) -> "SearchNode":
        """The child to play: the highest ``sort_key``, the first of equals."""
        return max(self.children, key=SearchNode.sort_key)

    def __repr__(self) -> str:
        mean = self.total_reward / self.explore_count if self.explore_count else 0.0
        return (f"SearchNode(action={self.action}, player={self.player}, prior={self.prior:.3f}, "
                f"visits={self.explore_count}, mean={mean:.3f}, outcome={self.outcome}, "
                f"children={len(self.children)})")


def expand(node: SearchNode, priors: Sequence[tuple[int, float]], player: int, rng: random.Random) -> None:
    """Give ``node`` one child per (action, prior) pair, moved by ``player``, in a shuffled order."""
    pairs = list(priors)
    rng.shuffle(pairs)
    node.children = [SearchNode(a, player, p) for a, p in pairs]


def select_uct(node: SearchNode, uct_c: float) -> SearchNode:
    """The child of ``node`` with the highest UCT value (``SearchNode.uct_value``), the first of equals: the first
    unvisited child when there is one."""
    sqrt = math.sqrt
    scale = uct_c * sqrt(math.log(node.explore_count))
    best, best_value = None, -math.inf
    for child in node.children:
        outcome = child.outcome
        if outcome is None:
            visits = child.explore_count
            if not visits:
                return child  # infinite value: no later child can beat it
            value = child.total_reward / visits + scale / sqrt(visits)
        else:
            value = outcome[child.player]
        if value > best_value:
            best, best_value = child, value
    return best


def select_puct(node: SearchNode, uct_c: float) -> SearchNode:
    """The child of ``node`` with the highest PUCT value (``SearchNode.puct_value``), the first of equals."""
    scale = uct_c * math.sqrt(node.explore_count)
    best, best_value = None, -math.inf
    for child in node.children:
        outcome = child.outcome
        if outcome is None:
            visits = child.explore_count
            value = (child.total_reward / visits if visits else 0.0) + scale * child.prior / (visits + 1)
        else:
            value = outcome[child.player]
        if value > best_value:
            best, best_value = child, value
    return best


def select_chance(node: SearchNode, u: float) -> SearchNode:
    """The chance outcome that a uniform draw ``u`` in [0, 1) picks, each child with its probability (prior)."""
    return sample_outcome([(child, child.prior) for child in node.children], u)


def sample_outcome(outcomes: Sequence[tuple], u: float):
    """The outcome a uniform draw ``u`` in [0, 1) picks from (outcome, probability) pairs."""
    u *= sum(p for _, p in outcomes)
    for outcome, p in outcomes:
        if u < p:
            return outcome
        u -= p
    return outcomes[-1][0]


def backup(path: list[SearchNode], values: list[float], solved: bool, max_utility: float | None) -> None:
    """Add one visit and ``values`` (every player's value of the leaf) to the nodes of ``path`` (root first),
    each node taking the value of the player who moved into it; with ``solved`` (the leaf is a proven outcome),
    carry proofs upwards while they hold (see the module's docstring)."""
    for i in range(len(path) - 1, -1, -1):
        node = path[i]
        who = node.player
        if who == CHANCE:  # a chance outcome counts for the player who moved into the chance node
            j = i - 1
            while path[j].player == CHANCE:
                j -= 1
            who = path[j].player
        node.total_reward += values[who]
        node.explore_count += 1
        if solved and node.children:
            children = node.children
            mover = children[0].player
            if mover == CHANCE:
                outcome = children[0].outcome
                if outcome is not None and all(c.outcome == outcome for c in children):
                    node.outcome = outcome
                else:
                    solved = False
            else:
                best, all_solved = None, True
                for child in children:
                    outcome = child.outcome
                    if outcome is None:
                        all_solved = False
                    elif best is None or outcome[mover] > best[mover]:
                        best = outcome
                if best is not None and (all_solved or best[mover] == max_utility):
                    node.outcome = best
                else:
                    solved = False


def tree_root(root, children) -> SearchNode:
    """A SearchNode and its children from records of their fields (the kernel search's ``Visit``s)."""
    def node(v):
        made = SearchNode(v.action, v.player, v.prior)
        made.explore_count, made.total_reward, made.outcome = v.explore_count, v.total_reward, v.outcome
        return made

    out = node(root)
    out.children = [node(c) for c in children]
    return out
