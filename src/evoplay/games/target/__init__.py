"""The target-number game, one package: draws and rules (``game``), the exact solver (``solver``), the expression
parser (``parser``), the time-limited GA player (``ga`` over ``trees``) and the terminal game (``terminal``)."""
