"""Seed 001's Figure 6 on this machine: serial vs parallel 5,5,4 games and a full GA round."""
from evoplay.cli import main

main(["bench", "mnk"])
