"""The target-number game, one package: draws and rules (``game``), the exact solver (``solver``), the expression
parser (``parser``), the time-limited GA player (``cpu_player`` over ``trees``: its own small GA, as its docstring
says why) and the terminal game (``terminal``)."""
