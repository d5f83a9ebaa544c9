"""The champions evoplay ships inside a game's package: ``champion.json``, a genome document the game's own genome
evaluation plays (``Game.players["genome"]``), read by the ``champion`` agent (docs/strength.md)."""
from __future__ import annotations

import json
from importlib import resources

from evoplay.errors import SpecError, warn
from evoplay.ga import GENOME_FORMAT, Schema


def champion_document(package: str) -> dict:
    """The ``champion.json`` shipped in ``package`` (a dotted package name)."""
    with resources.as_file(resources.files(package).joinpath("champion.json")) as path:
        doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") != GENOME_FORMAT:
        raise SpecError(f"champion: the shipped {package}/champion.json is not an evoplay weights file")
    return doc


def shipped_champion(game, package: str, spec: str = "champion", nodes: int = 0):
    """The champion of ``package`` playing ``game``: its genome under the game's genome evaluation, within its own
    node budget or ``nodes`` > 0 instead (a weaker or stronger player)."""
    if nodes < 0:
        raise SpecError(f"champion: nodes={nodes}; use 0 (the champion's own budget) or a node budget > 0")
    doc = champion_document(package)
    schema = Schema.from_list(doc["schema"], f"champion {package}/champion.json")
    record = schema.decode(schema.from_string(doc["genome"]))
    agent = game.player("genome").agent(game, record, nodes=nodes or int(doc["nodes"]),
                                        streaks=doc.get("streaks", "all"), spec=spec)
    agent.note = ""
    if doc["game"] != game.spec:  # its evaluation reads any board of the game; say so when the rules are others
        agent.note = f"champion: evolved under {doc['game']}; playing {game.spec}, whose rules differ"
        warn(agent.note)
    return agent
