"""Kalah, one package: the rules (``game``: Python reference, Numba kernels, Game/State, features, rendering), its
alpha-beta searches (``search``, ``search_weights``, ``deepening``) and the shipped champion (``champion.json``)."""
