"""Sevens, one package: the rules (``game``: Python reference, Numba kernels, Game/State, features, rendering), whole
games in one kernel (``kernels``), its players and levels (``agents``, ``levels.json``)."""
