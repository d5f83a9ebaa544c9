"""``champion``: the strongest evolved player evoplay ships for a game, read from the game's package.

Kalah (``games/kalah/champion.json``): the genome of ``evoplay evolve mnk --config kalah_champion`` (feature
weights of ``evoplay.games.kalah.search_weights``), searched by iterative deepening within the file's node budget
(``evoplay.games.kalah.deepening``); it plays any Kalah, its weights having been evolved on standard Kalah.
The 5,5,4-game (``games/mnk/champion.json``): the genome of ``evoplay evolve mnk --config threats`` (seed 001's
genome extended by open windows and forks), searched by the threat search within the file's node budget
(``evoplay.games.mnk.threats``); it plays 5,5,4 only, its positional weights being the 5x5 board's.
docs/strength.md gives each champion's run and its measured strength against OpenSpiel's MCTS.
"""
from __future__ import annotations

from importlib import resources

from evoplay.errors import SpecError

#: game name -> the shipped file (inside the evoplay package)
FILES = {"kalah": ("evoplay.games.kalah", "champion.json"), "mnk": ("evoplay.games.mnk", "champion.json")}


def champion_path(game_name: str):
    """The shipped champion file of a game, as an importlib resource."""
    package, name = FILES[game_name]
    return resources.files(package).joinpath(name)


def supports(game) -> str | None:
    from evoplay.games.kalah.game import KalahGame
    from evoplay.games.mnk.game import MnkGame

    if isinstance(game, KalahGame):
        return None
    if isinstance(game, MnkGame):
        return None if (game.m, game.n, game.k) == (5, 5, 4) else "the m,n,k champion plays mnk(m=5,n=5,k=4) only"
    return f"evoplay ships a champion for {', '.join(sorted(FILES))} only"


def make_champion(game, spec: str = "champion", nodes: int = 0):
    """The champion of ``game``; ``nodes`` > 0 replaces the file's node budget (a weaker or stronger player)."""
    from evoplay.agents.weights import FORMAT, WeightsAgent
    from evoplay.ga import Schema

    why = supports(game)
    if why:
        raise SpecError(f"champion cannot play {game.spec}: {why}")
    if nodes < 0:
        raise SpecError(f"champion: nodes={nodes}; use 0 (the champion's own budget) or a node budget > 0")
    import json

    with resources.as_file(champion_path(game.name)) as path:
        doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") != FORMAT:
        raise SpecError(f"champion: the shipped {FILES[game.name]} is not an evoplay weights file")
    schema = Schema.from_list(doc["schema"], f"champion {FILES[game.name]}")
    record = schema.decode(schema.from_string(doc["genome"]))
    agent = WeightsAgent(game, record, nodes=nodes or int(doc["nodes"]), streaks=doc.get("streaks", "all"), spec=spec)
    agent.note = ""
    if game.name == "kalah" and doc["game"] != game.spec:  # the features read any Kalah board; say so when the
        # rules are others
        from evoplay.agents.program import warn

        agent.note = f"champion: evolved under {doc['game']}; playing {game.spec}, whose rules differ"
        warn(agent.note)
    return agent
