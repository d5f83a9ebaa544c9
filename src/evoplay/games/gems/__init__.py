"""Gems, one package: the rules (``game``: Python reference, Numba kernels, Game/State, rendering)."""
