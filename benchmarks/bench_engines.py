"""Kalah and 5,5,4 engine speed and alpha-beta against the Python references (issue 2's table)."""
from evoplay.cli import main

main(["bench", "engines", "arena"])
