"""Sevens speed targets of seed 000: 1000 games on one core, a generation of 100 on two."""
from evoplay.cli import main

main(["bench", "sevens"])
