"""The feature players' kernel path: a FeatureAgent (a GP program or weight vector) moving through its game's
kernels (evoplay.search.minimax_kernel) with the same results as through the State.

A ``FeatureAgent`` takes this path by itself when its game hands over kernels with features (``Game.kernels()``;
the view's free features and board counts -- pairs or line patterns -- are computed inside the kernels too),
moves one player at a time and hides nothing, and its scorer is a ``ProgramScorer`` or a ``LinearScorer`` (a
scorer class says which by its ``kernel_leaf``): the
move scorer (policy ``move``), the fixed-depth search (policy ``search``) and the iterative deepening within a
budget (with its transposition table, kept from move to move and emptied by ``restart``) then run inside Numba.
The values are those of the State path to the last bit, so the same ties are drawn from the agent's generator
and a game replays exactly from its seed on either path.
"""
from __future__ import annotations

import numpy as np

from evoplay.search.minimax import Budget
from evoplay.search.leaf_kernel import LINEAR, PROGRAM, make_leaf
from evoplay.search.minimax_kernel import KernelSearch, new_table, supports


def kernel_path(agent) -> "KernelPath | None":
    """The kernel path of ``agent`` (a FeatureAgent), or None when it moves through the State: its scorer must
    say which leaf it is (``kernel_leaf``: "program" for a ProgramScorer, "linear" for a LinearScorer)."""
    game = agent.game
    if not supports(game) or type(agent.scorer).__dict__.get("kernel_leaf") is None:
        return None
    search = KernelSearch(game)
    view = agent.view
    if search.kernels.features is None or len(view) != search.kernels.n_features + 6 * view.free + view.pair_count:
        return None
    return KernelPath(agent, search)


class KernelPath:
    """What a FeatureAgent needs of the kernels: its leaf, its searches, and its transposition table."""

    def __init__(self, agent, search: KernelSearch):
        self.search_kernels = search
        scorer = agent.scorer
        if scorer.kernel_leaf == "program":
            self.leaf = make_leaf(PROGRAM, True, view=agent.view, program=scorer.program, weights=scorer.base)
        else:
            self.leaf = make_leaf(LINEAR, True, view=agent.view, weights=scorer.weights)
        self.table = None  # made at the first search within a budget

    def __getstate__(self):
        d = dict(self.__dict__)
        d["table"] = None  # a worker starts its games with an empty table (restart empties it anyway)
        return d

    def restart(self) -> None:
        if self.table is not None:
            self.table.clear()

    def search(self, state, player: int, depth: int, budget: Budget | None = None, stats: dict | None = None):
        """``minimax.search`` with the agent's leaves (the table kept between moves under a budget)."""
        if budget and self.table is None:
            self.table = new_table()
        return self.search_kernels.search(state, player, depth, self.leaf, budget, self.table, stats)

    def move_values(self, state, player: int) -> tuple[list[int], np.ndarray]:
        """The policy ``move``: every legal action and its after-state's value (FeatureAgent.move_values)."""
        return self.search_kernels.after_values(state, player, self.leaf)
