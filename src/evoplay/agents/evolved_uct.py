"""``uct(value=FILE)``: Monte Carlo tree search guided by a gp or ga run's evolved evaluation (its best.json): the
evaluators evoplay.search.uct's search reads, built from the document -- rollouts cut and scored by the evaluation,
and its scores of the moves as a prior."""
from __future__ import annotations

from evoplay.agents.uct import EvolvedEvaluation
from evoplay.errors import SpecError
from evoplay.games.base import Game
from evoplay.search.uct import CutRolloutEvaluator, Evaluator, PriorEvaluator


def evaluation_agent(game: Game, doc: dict, where: str):
    """The FeatureAgent of an in-memory gp or ga best.json document, read for its evaluation; SpecError (naming
    ``where``) for a document that is not one or whose evaluation is the game's own."""
    from evoplay.agents.feature_player import POLICIES, agent_from_program_document, agent_from_weights_document

    if not isinstance(doc, dict) or "game" not in doc:
        raise SpecError(f"uct: value={where} is not a run's best.json (no 'game'); give the best.json of a gp or ga "
                        f"run (or the run folder)")
    own = SpecError(f"uct: value={where} plays {game.spec} by the game's own evaluation; value= takes a gp or ga "
                    f"best.json whose evaluation reads the game's features")
    if "program" in doc:
        if doc.get("policy") not in POLICIES:
            raise own
        return agent_from_program_document(game, doc, f"uct: value={where}", "value", ms=0)
    if "features" not in doc:
        raise own
    return agent_from_weights_document(game, doc, f"uct: value={where}", "value", ms=0)


def _document(file: str) -> dict:
    """A gp or ga best.json (or its run folder) read and checked by its recipe's loader."""
    import json

    from evoplay.games.tools.sources import resolve_file

    path = resolve_file(file, "uct: value")
    if path.is_dir():
        path = path / "best.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise SpecError(f"uct: value={file}: not a run's best.json ({err}); give the best.json of a gp or ga run "
                        f"(or the run folder)") from None
    if isinstance(doc, dict) and "program" in doc:
        from evoplay.agents.program_file import load_program

        return load_program(str(path))[2]
    from evoplay.agents.weights import load_weights

    return load_weights(str(path))


def evolved_evaluator_from_document(game: Game, doc: dict, cut: int = 0, prior: bool = False, rollouts: int = 1,
                                    where: str = "best.json", prior_visits: int = 1,
                                    temperature: float = 1.0) -> Evaluator:
    """MCTS's evaluator from an in-memory gp or ga best.json document (``where`` names it in errors): rollouts
    cut after ``cut`` random plies and scored by its evaluation (0: the leaf itself) and, with ``prior``, a softmax
    prior over its scores of the moves over ``temperature`` (for PUCT), computed at a position's
    ``prior_visits``-th visit. On a game with kernels whose features it reads (pairs and line
    patterns included) ``uct`` runs it inside Numba; elsewhere through the State."""
    evaluation = EvolvedEvaluation(game, evaluation_agent(game, doc, where))
    inner = CutRolloutEvaluator(evaluation.value, cut, rollouts)
    return (PriorEvaluator(evaluation.move_scores, temperature, inner, prior_visits=prior_visits) if prior
            else inner)


def evolved_evaluator(game: Game, file: str, cut: int = 0, prior: bool = False, rollouts: int = 1,
                      prior_visits: int = 1, temperature: float = 1.0) -> Evaluator:
    """``evolved_evaluator_from_document`` of a gp or ga run's best.json file (or the run folder)."""
    return evolved_evaluator_from_document(game, _document(file), cut, prior, rollouts, where=file,
                                           prior_visits=prior_visits, temperature=temperature)
