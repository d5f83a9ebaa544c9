"""Seed 003's Mancala GP speed: a 512-program generation against DEAP-style Python, the full run 2, the GP interpreter."""
from evoplay.cli import main

main(["bench", "mancala", "gp"])
