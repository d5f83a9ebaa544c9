"""The search layer: searches written once for any game, below agents/ and above the game API (games/).

Each search is a readable reference beside its Numba kernels, under one naming rule: ``X.py`` is the reference and
``X_kernel.py`` its kernels where the two are modules apart; where one module holds both and they would share a name,
the Python one is ``reference_NAME``. ``minimax.py`` and ``minimax_kernel.py``, the one alpha-beta, for any game
(iterative deepening within a budget), with ``leaf_kernel.py``, the evolved players' leaf value inside Numba;
``minimax_game.py`` enters it for the games' own players with the game's own leaf (``games/kalah/search.py``,
``games/kalah/deepening.py``, ``games/mnk/search.py``), ``minimax_own.py`` their reference; ``alphabeta.py``, the
move choice those players share and m,n,k's fixed table; ``uct.py`` and
``uct_kernel.py``, closed-loop MCTS (the leaf a player's hook, ``mt19937.py`` its random numbers inside Numba); the
rollout controllers' ``rs.py``, ``rhea.py``, ``mcts.py`` and ``lookahead.py`` over ``rollout.py``. The players in
agents/ run them. Nothing here imports agents/ or names a game.
"""
