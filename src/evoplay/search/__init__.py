"""The search layer: searches written once for any game, below agents/ and above the game API (games/).

``alphabeta.py`` is the one alpha-beta of the games' own searches (a readable reference and its Numba kernel,
compiled per game and leaf over the hooks a game hands over) and the move choice every search player shares. A
game's package gives it its moves, rules and leaves (``games/kalah/search.py``, ``games/mnk/search.py``); the
players for any game in agents/ use it. Nothing here imports agents/ or names a game.
"""
