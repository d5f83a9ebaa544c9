"""The plain-Python reference of the games' own players' searches (evoplay.search.minimax_game): minimax's search
through the State (evoplay.search.minimax) given the game's own leaf, which the kernels must match node for node.

The game's leaf ``leaf(state, root, ply)`` values a finished position as well as one on the horizon, ``ply`` plies
below the root (no clipping: the game's own values); the game may add its own transposition key
``key(state)`` and move order ``order(state, actions, first) -> list`` (``Kernels.state_hash``, ``Kernels.order``).
No chance nodes: every level below the root is a ply.
"""
from __future__ import annotations

import numpy as np

from evoplay.search.minimax import _OutOfBudget, _Search


class _OwnSearch(_Search):
    def __init__(self, player: int, leaf, exact_ties: bool, table: dict | None = None, key=None, order=None,
                 limit: int | None = None):
        super().__init__(player, 0, None, None, table=table, history={} if table is not None else None)
        self.own_leaf, self.exact, self.key_of, self.order = leaf, exact_ties, key, order
        self.top = 0  # the depth of the iteration running: a node ``depth`` plies from its horizon is top - depth in
        self.horizon = 0  # the positions valued on the horizon (not finished)
        if limit is not None:  # a fixed-depth search cut off past ``limit`` nodes
            self.completed, self.node_limit = 1, limit

    def terminal(self, state, depth: int) -> float:
        return self.own_leaf(state, self.player, self.top - depth)

    def leaf(self, state) -> float:
        self.horizon += 1
        return self.own_leaf(state, self.player, self.top)

    def key(self, state):
        return self.key_of(state) if self.key_of is not None else None

    def horizon_mark(self):
        return self.horizon + self.hits

    def ordered(self, actions: list[int], first, state) -> list[int]:
        if self.order is None:
            return super().ordered(actions, first, state)
        return self.order(state, actions, -1 if first is None else first)

    def iteration(self, children: list, depth: int) -> np.ndarray:
        self.top = depth
        return super().iteration(children, depth)


def _children(state) -> tuple[list[int], list]:
    actions = state.legal_actions()
    children = []
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        children.append(child)
    return actions, children


def root_values(state, depth: int, leaf, exact_ties: bool = False, budget: int | None = None):
    """``minimax_game.root_values_within``'s reference from ``state`` (its mover the root): (the legal actions, their
    values, the first best action, the nodes searched counting the root). ``budget``: cut off once the nodes pass
    it (then the count is past it and the values mean nothing)."""
    player = state.current_player()
    s = _OwnSearch(player, leaf, exact_ties, limit=None if budget is None else max(budget - 1, 0))
    actions, children = _children(state)
    try:
        values = s.iteration(children, depth)
    except _OutOfBudget:
        values = np.zeros(len(actions))
    best = 0
    for i in range(1, len(actions)):
        if values[i] > values[best]:
            best = i
    return actions, values, actions[best], s.nodes + 1


def deepen(state, max_depth: int, leaf, budget: int, proven: float, key=None, order=None) -> tuple[int, int, int]:
    """``minimax_game.deepen``'s reference from ``state``: (the best action, the depth of the last iteration, the
    nodes spent), stopping, as it does, after an iteration that valued no position on its horizon and took no value
    from the table but a ``FINAL`` one."""
    s = _OwnSearch(state.current_player(), leaf, False, {}, key, order)
    actions, children = _children(state)
    order_of = list(range(len(actions)))
    values = np.zeros(len(actions))
    spent = previous = depth = 0
    for d in range(1, max_depth + 1):
        before = s.nodes
        s.horizon = s.hits = 0
        values[order_of] = s.iteration([children[i] for i in order_of], d)
        order_of = sorted(order_of, key=lambda i: -values[i])
        nodes = s.nodes - before + 1  # the root counted
        spent += nodes
        depth = d
        top = values[order_of[0]]
        if top >= proven or top <= -proven or (s.horizon == 0 and s.hits == 0):
            break
        if spent + nodes * nodes // max(previous, 1) > budget:
            break
        previous = nodes
    return actions[order_of[0]], depth, spent
