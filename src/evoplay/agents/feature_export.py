"""The feature players' standalone forms: a ``gp`` or ``ga`` champion (a program or a weight vector over a game's
features, evoplay.agents.program) as a Python player of the game's own State, or its evaluation in Lua."""
from __future__ import annotations

import inspect

from evoplay.agents.feature_view import free_features, pair_counts
from evoplay.gp.export import to_lua, to_python
from evoplay.gp.primitives import PrimitiveSet
from evoplay.gp.program import Program

_PLAYER_TEMPLATE = '''
# ----------------------------------------------------------------------------------------------------------------
# Choosing a move. Needs only the game's own file: ``state`` is a state of its class (evoplay's game API).
# ----------------------------------------------------------------------------------------------------------------
GAME = {game!r}
FEATURES = {features!r}
POLICY = {policy!r}  # "move": the best after-state; "search": alpha-beta with evaluate() at the leaves
DEPTH = {depth!r}
FREE_FEATURES = {free!r}  # the six free features follow the game's own (seat, my_turn, ...)
PAIR_BOARD = {board!r}  # (planes, rows, columns): the counts of neighbouring cell pairs follow (None: not read)
SCALES = {scales!r}  # each feature is multiplied by its scale before evaluate() reads it (None: unscaled)
TERMINAL_SCALE = 1e9
EVAL_LIMIT = 1e8

{free_source}
{pair_source}

def read(state, player):
    """The numbers evaluate() reads: state.features(player), the free features, the pair counts, each times its
    scale."""
    own = [float(x) for x in state.features(player)]
    row = list(own)
    if FREE_FEATURES:
        row += free_features(state, player)
    if PAIR_BOARD is not None:
        row += pair_counts(own, *PAIR_BOARD)
    if SCALES is not None:
        row = [x * s for x, s in zip(row, SCALES)]
    return row


def value(features):
    """The evaluation of one feature vector (len(FEATURES) numbers, as state.features(player) gives them)."""
    v = float(evaluate(features))
    if v != v:
        return 0.0
    return min(EVAL_LIMIT, max(-EVAL_LIMIT, v))


def _child(state, action, player):
    child = state.clone()
    if child.current_player() == -2:  # simultaneous: the others play their no-op (their last legal action)
        joint = []
        for q in range(child.game.num_players):
            legal = child.legal_actions(q)
            joint.append(action if q == player else (legal[-1] if legal else 0))
        child.apply_actions(joint)
    else:
        child.apply_action(action)
    return child


def _search(state, player, depth, alpha, beta):
    if state.is_terminal():
        return state.returns()[player] * (TERMINAL_SCALE + depth)
    if depth == 0:
        return value(read(state, player))
    if state.current_player() == -1:  # chance: the expectation
        outcomes = state.chance_outcomes()
        total = 0.0
        for action, p in outcomes:
            child = state.clone()
            child.apply_action(action)
            total += p * _search(child, player, depth, float("-inf"), float("inf"))
        return total / sum(p for _, p in outcomes)
    mover = state.current_player()
    maximise = mover == player or mover == -2
    actions = state.legal_actions(player) if mover == -2 else state.legal_actions()
    best = float("-inf") if maximise else float("inf")
    for a in actions:
        v = _search(_child(state, a, player), player, depth - 1, alpha, beta)
        if maximise:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def choose(state, player=None):
    """The action the evolved player picks at ``state`` for ``player`` (default: the player to move); ties go to
    the first legal action (evoplay's agent breaks them with a seeded draw instead)."""
    if player is None:
        player = state.current_player()
    actions = state.legal_actions(player) if state.current_player() == -2 else state.legal_actions()
    best, best_value = None, None
    for a in actions:
        child = _child(state, a, player)
        if POLICY == "move":
            v = child.returns()[player] * TERMINAL_SCALE if child.is_terminal() else value(read(child, player))
        else:
            v = _search(child, player, DEPTH - 1, float("-inf"), float("inf"))
        if best_value is None or v > best_value:
            best, best_value = a, v
    return best


if __name__ == "__main__":
    import sys

    print(f"an evolved player of {{GAME}} over {{len(FEATURES)}} features; import this file and call choose(state)")
    if len(sys.argv) > 1:
        print(value([float(x) for x in sys.argv[1:]]))
'''


def _linear_python(weights, names) -> str:
    terms = "\n".join(f"    {w!r},  # {n}" for w, n in zip(weights, names))
    return ("WEIGHTS = [\n" + terms + "\n]\n\n\ndef evaluate(features):\n"
            '    """The weighted sum of the features."""\n'
            "    return sum(w * f for w, f in zip(WEIGHTS, features))\n")


def _doc_weights(doc: dict) -> list[float]:
    if "weights" in doc:  # a real-valued genome (CMA-ES)
        return [float(w) for w in doc["weights"]]
    scale = float(doc.get("weight_scale", 1.0))
    return [float(doc["params"][f"w{i}"]) * scale for i in range(len(doc["features"]))]


def _pair_board(doc: dict) -> tuple[int, int, int] | None:
    """The board a champion counted pairs on (None when it read no pair counts), from its game."""
    if not doc.get("pair_features"):
        return None
    from evoplay.agents.feature_view import pair_board
    from evoplay.games import load_game

    return pair_board(load_game(doc["game"]))


def feature_player_python(doc: dict) -> str:
    """Python source of a generic champion (a ``best.json`` of the gp or ga recipe): ``evaluate(features)``, the
    program or weighted sum over the feature vector, and ``choose(state)``, its move (policy and depth as it
    played), needing only the game's own file."""
    names = list(doc["features"])
    head = (f'"""An evolved evoplay player of {doc["game"]} (policy {doc["policy"]}, depth {doc.get("depth", 1)}).'
            f'\n\nevaluate(features) reads the {len(names)} numbers state.features(player) gives, in this order: '
            f'{", ".join(names[:12])}{" ..." if len(names) > 12 else ""}\n"""\n')
    if "program" in doc:
        program = Program.from_dict(doc["program"])
        pset = PrimitiveSet.from_dict(doc["primitive_set"])
        body = to_python(program, pset, "evaluate", "The evolved program over the feature vector.")
        body = body.split("\n", 1)[1]  # its own docstring gives way to the player's
    else:
        body = "\n" + _linear_python(_doc_weights(doc), names)
    free = bool(doc.get("free_features", False))
    free_source = inspect.getsource(free_features) if free else ""
    board = _pair_board(doc)
    pair_source = inspect.getsource(pair_counts) if board else ""
    tail = _PLAYER_TEMPLATE.format(game=doc["game"], features=names, policy=doc["policy"],
                                   depth=int(doc.get("depth", 1)), free=free, board=board,
                                   scales=doc.get("feature_scales"), free_source=free_source, pair_source=pair_source)
    return head + body + tail


def feature_value_lua(doc: dict) -> str:
    """Lua source of a generic champion's evaluation over the feature vector (a 1-based table): the game's own
    features, then the free features when the champion read them (evoplay.agents.feature_view), each multiplied
    by its scale inside."""
    names = list(doc["features"])
    if "program" in doc:
        program = Program.from_dict(doc["program"])
        pset = PrimitiveSet.from_dict(doc["primitive_set"])
        source = to_lua(program, pset, "evaluate", f"An evolved evoplay program of {doc['game']} over its "
                                                    f"{len(names)} features ({', '.join(names[:8])} ...)")
    else:
        weights = _doc_weights(doc)
        lines = [f"-- An evolved evoplay weight vector of {doc['game']}: evaluate(features) is the weighted sum",
                 "local WEIGHTS = {"]
        lines += [f"  {w!r}, -- {n}" for w, n in zip(weights, names)]
        lines += ["}", "local function evaluate(features)", "  local v = 0.0", "  for i = 1, #WEIGHTS do",
                  "    v = v + WEIGHTS[i] * features[i]", "  end", "  return v", "end", "return evaluate", ""]
        source = "\n".join(lines)
    scales = doc.get("feature_scales")
    if scales is None:
        return source
    head = [f"-- The evaluation reads the {len(names)} numbers below in this order (after the game's own features, the",
            "-- free features and the pair counts when the champion read them: evoplay.agents.feature_view);",
            "-- each is multiplied by its scale first.", "local SCALES = {"]
    head += [f"  {float(x)!r}, -- {n}" for x, n in zip(scales, names)]
    head += ["}", "local unscaled = (function()", source, "end)()", "return function(features)",
             "  local scaled = {}", "  for i = 1, #SCALES do", "    scaled[i] = features[i] * SCALES[i]", "  end",
             "  return unscaled(scaled)", "end", ""]
    return "\n".join(head)
