"""The m,n,k-game, one package: the rules (``game``: Python reference, Numba kernels, Game/State, features,
rendering) and its alpha-beta search with seed 001's evaluation (``search``)."""
