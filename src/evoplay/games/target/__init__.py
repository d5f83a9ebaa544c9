"""The target-number game, one package: draws, rules and the exact solver (``game``), the expression parser
(``parser``), the time-limited GA player (``ga`` over ``trees``) and the terminal game (``terminal``)."""
