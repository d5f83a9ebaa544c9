from evoplay.cli import main

main(["bench", "controllers"])
