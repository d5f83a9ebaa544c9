"""``python -m evoplay.cli``: the ``evoplay`` command."""
from evoplay.cli import main

main()
