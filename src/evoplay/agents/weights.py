"""``weights(FILE)``: the player of an evolved genome document (a run's best.json), for any game.

A genome document holds a genome, its schema, the game it was evolved for and how it plays. A genome of one
weight per feature (the ``ga`` recipe's) plays any game with features (``evoplay.agents.feature_player``); any other
genome is the game's own evaluation, which the game plays through ``Game.players["genome"]`` (seed 001's genome
and the 5,5,4 threat genome: evoplay.games.mnk.genome; Kalah's feature weights: evoplay.games.kalah.genome). FILE
is the JSON a run writes (``best.json``) or a run folder.
"""
from __future__ import annotations

import json
from pathlib import Path

from evoplay.errors import SpecError
from evoplay.ga import DEPTH_FIELD, GENOME_FORMAT, Schema

FORMAT = GENOME_FORMAT


# --------------------------------------------------------------------------------------------------------------
# The portable JSON form.
# --------------------------------------------------------------------------------------------------------------


def weights_document(game, schema: Schema, bits, **extra) -> dict:
    """The JSON form of a genome for ``game``: its schema, bit string and decoded parameters, plus ``extra``."""
    bits = schema.check(bits)[0]
    return {
        "format": FORMAT,
        "game": game.spec,
        "schema": schema.to_list(),
        "genome": Schema.to_string(bits),
        "params": schema.decode(bits),
        **extra,
    }


def load_weights(path: str | Path) -> dict:
    """Read and check a weights JSON (or ``best.json`` inside a run folder)."""
    from evoplay.games.tools.sources import resolve_file

    p = resolve_file(path, "weights: file")
    if p.is_dir():
        p = p / "best.json"
    if not p.is_file():
        raise SpecError(f"weights: no file {str(p)!r}; give the best.json of a run (or the run folder)")
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SpecError(f"weights: {str(p)!r} is not a weights JSON file ({err})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SpecError(f"weights: {str(p)!r} is not an evoplay weights file (its 'format' is not {FORMAT!r})")
    real = "weights" in doc and "features" in doc  # the ga recipe's real-valued genome (CMA-ES)
    for key in ("game",) if real else ("game", "schema", "genome"):
        if key not in doc:
            raise SpecError(f"weights: {str(p)!r} lacks '{key}'")
    from evoplay.games.tools.sources import located_document

    doc = located_document(doc, p.parent)  # a file game named relative to the weights file's folder
    if not real:
        schema = Schema.from_list(doc["schema"], f"weights file {str(p)!r}")
        doc["params"] = schema.decode(schema.from_string(doc["genome"]))
    doc["path"] = str(p)
    return doc


# --------------------------------------------------------------------------------------------------------------
# The game's own genome evaluation.
# --------------------------------------------------------------------------------------------------------------


def game_genome(game):
    """The game's own genome evaluation (``Game.players["genome"]``); SpecError for a game without one."""
    genome = game.player("genome")
    if genome is None:
        raise SpecError(f"weights: {game.spec} has no genome evaluation of its own; a genome of one weight per "
                        f"feature (the ga recipe's) plays any game with features")
    return genome


def genome_agent(game, record: dict, **options):
    """The player of a decoded genome ``record`` of ``game``'s own evaluation (options: schedule, random_ties,
    seed, depth, streaks, spec, nodes)."""
    return game_genome(game).agent(game, record, **options)


def from_file(game, path: str, schedule: str = "empty_cells", random_ties: bool = False, seed: int = 0,
              spec: str | None = None, depth: int = 0, ms: float = -1, nodes: int = -1,
              clock: str = ""):
    """The agent of a weights JSON, checked to be for ``game``; it evaluates streaks as the run did. ``depth`` > 0
    searches that many plies instead of the genome's or the file's depth (a game's own schedule may still cap it)."""
    from evoplay.games import load_game

    doc = load_weights(path)
    if "features" in doc:  # a genome of feature weights (the ga recipe): any game that gives those features
        from evoplay.agents.feature_player import shipped_agent

        return shipped_agent(game, doc, f"weights: {doc['path']}", spec or "weights", depth, ms, nodes, clock)
    if ms != -1 or nodes != -1 or clock:
        raise SpecError(f"weights: {doc['path']} is a genome of {game.spec}'s own evaluation, which searches by "
                        f"its own depth or node budget; ms= and nodes= are for the ga recipe's feature weights")
    if depth < 0:
        raise SpecError(f"weights: depth={depth}; give the plies to search (0: the genome's own)")
    made_for = load_game(doc["game"])
    if made_for != game:
        raise SpecError(f"weights: {doc['path']} was evolved for {made_for.spec}, not {game.spec}")
    streaks = doc.get("streaks", "all")  # which runs the streak weights count (the game's genome checks it)
    record = dict(doc["params"])
    if depth:
        record[DEPTH_FIELD] = depth
    return genome_agent(game, record, schedule=schedule, random_ties=random_ties, seed=seed,
                        depth=int(doc.get("depth", 4)), streaks=streaks, spec=spec, nodes=int(doc.get("nodes", 0)))
