from evoplay.cli import main
main(["bench", "target"])
