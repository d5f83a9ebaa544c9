"""Sevens, one package: the rules in plain Python (``rules``) and as Numba kernels (``rules_kernels``), the game API
(``game``), terminal rendering (``render``), whole games in one kernel (``batch_play``), its players and levels
(``agents``, ``levels.json``), the ladder of levels (``ladder``) and the computer.py/.lua export (``export``)."""
