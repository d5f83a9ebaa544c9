"""Sevens players: the seed's Specimen (a play tree and a send tree) and the hand-written heuristic baseline.

Both choose a card the same way: the feature rows of the candidate cards (``evoplay.games.sevens.rules.FEATURES``,
computed from what the player to move may see) are scored and the highest value wins, the first card (lowest
card number) on ties. A Specimen scores with its ``play`` tree when it must play and its ``send`` tree when it
chooses the card to send; the heuristic uses a fixed formula. With one legal card nothing is evaluated.

A Specimen is built from a JSON file (``specimen(path=best.json)``, written by ``evoplay evolve sevens``) or
from a level of a ``levels.json`` written by ``evoplay evolve sevens --levels`` (``specimen(level=expert)``
reads the levels shipped with evoplay, ``specimen(level=hard,computer=runs/x/levels.json)`` a run's; the run
folder itself names its levels.json too). Levels are data: the ``computer.py``/``computer.lua`` exports are
written from them and never read back.
The uniformly random player is the generic ``random`` agent.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from evoplay.games.agent import Agent, AgentEntry
from evoplay.errors import SpecError
from evoplay.games.sevens.game import LEVELS, SPECIMEN_KIND
from evoplay.spec import Param

#: the levels evoplay ships (a run's levels.json from ``evoplay evolve sevens --levels``, copied here)
SHIPPED_LEVELS = Path(__file__).with_name("levels.json")


def sevens_primitive_set(functions=("add", "mul"), features=None, random: bool = True,
                         constants: tuple[float, float] | None = (-5.0, 5.0)):
    """The seed's alphabet: the Sevens features (all of ``FEATURES`` by default), ``random`` and ephemeral
    constants as terminals; ``+`` and ``*`` as functions (``sub``, ``min``, ``max``... by config)."""
    from evoplay.games.sevens.rules import FEATURES
    from evoplay.gp.primitives import PrimitiveSet

    pset = PrimitiveSet("sevens", n_features=len(FEATURES))
    pset.add_functions(*functions)
    chosen = FEATURES if features is None else tuple(features)
    for name in chosen:
        if name not in FEATURES:
            from evoplay.spec import suggest

            raise SpecError(f"unknown Sevens feature '{name}'{suggest(name, FEATURES)}; known: {', '.join(FEATURES)}")
        pset.add_feature(name, FEATURES.index(name))
    if random:
        pset.add_random()
    if constants is not None:
        pset.add_ephemeral("const", float(constants[0]), float(constants[1]))
    return pset.validate()


@dataclass
class Specimen:
    """The seed's individual: a ``play`` tree and a ``send`` tree over one primitive set."""

    play: object  # evoplay.gp.Program
    send: object
    pset: object  # evoplay.gp.PrimitiveSet
    info: dict = field(default_factory=dict)  # fitness, generation, level...

    @property
    def size(self) -> int:
        """Play size + send size: the number the seed's size penalty reads."""
        return int(self.play.size + self.send.size)

    def texts(self) -> tuple[str, str]:
        from evoplay.gp.notation import to_notation

        return to_notation(self.play, self.pset), to_notation(self.send, self.pset)

    def to_dict(self) -> dict:
        play_text, send_text = self.texts()
        return {
            "kind": SPECIMEN_KIND, "game": "sevens", "primitives": self.pset.to_dict(),
            "play": self.play.to_dict(), "send": self.send.to_dict(),
            "play_text": play_text, "send_text": send_text, "size": self.size, **{"info": self.info},
        }

    @classmethod
    def from_dict(cls, d: dict, where: str = "specimen") -> "Specimen":
        from evoplay.gp.primitives import FEATURE, PrimitiveSet
        from evoplay.gp.program import Program

        if not isinstance(d, dict) or d.get("kind") != SPECIMEN_KIND:
            raise SpecError(f"{where}: not a Sevens specimen (expected a JSON object with kind '{SPECIMEN_KIND}', "
                            "as written by evoplay evolve sevens)")
        try:
            pset = PrimitiveSet.from_dict(d["primitives"])
            play, send = Program.from_dict(d["play"]), Program.from_dict(d["send"])
        except KeyError as err:
            raise SpecError(f"{where}: missing field {err}; a specimen has primitives, play and send") from None
        for name, prog in (("play", play), ("send", send)):
            if int(np.max(np.where(prog.opcodes == FEATURE, prog.args, 0))) >= pset.n_features:
                raise SpecError(f"{where}: the {name} tree reads a feature beyond the {pset.n_features} of its set")
        return cls(play, send, pset, dict(d.get("info", {})))

    @classmethod
    def load(cls, path: str | Path) -> "Specimen":
        from evoplay.games.tools.sources import resolve_file

        p = resolve_file(path, "specimen file")
        if not p.is_file():
            raise SpecError(f"specimen file {str(p)!r} does not exist; give the best.json of a sevens run")
        try:
            d = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise SpecError(f"specimen file {str(p)!r} is not JSON: {err}") from None
        return cls.from_dict(d, str(p))


def load_levels(path: str | Path | None = None) -> dict[str, dict]:
    """{level: specimen dict} from a run's ``levels.json`` or its run folder (default: the shipped levels)."""
    from evoplay.games.tools.sources import resolve_file

    p = resolve_file(path, "levels file") if path else SHIPPED_LEVELS
    if p.is_dir():
        p = p / "levels.json"
    if not p.is_file():
        raise SpecError(f"levels file {str(p)!r} does not exist; write one with evoplay evolve sevens --levels and "
                        f"pass computer=RUN/levels.json (or the run folder)")
    if p.suffix == ".py":
        raise SpecError(f"{str(p)!r} is a generated computer.py (code, never read back); give the levels.json "
                        f"written beside it by 'evoplay evolve sevens --levels', or the run folder")
    try:
        levels = json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise SpecError(f"levels file {str(p)!r} is not JSON: {err}") from None
    if not isinstance(levels, dict) or not levels or not all(isinstance(v, dict) for v in levels.values()):
        raise SpecError(f"levels file {str(p)!r} is not a table of levels ({{\"easy\": {{...}}, ...}})")
    return levels


def level_specimen(level: str, computer: str | Path | None = None) -> Specimen:
    """The Specimen of a difficulty level (easy, medium, hard, expert) of a levels.json (default: the shipped)."""
    levels = load_levels(computer)
    if level not in levels:
        from evoplay.spec import suggest

        raise SpecError(f"unknown Sevens level '{level}'{suggest(level, levels)}; known: {', '.join(levels)}")
    spec = Specimen.from_dict(levels[level], f"level {level}")
    spec.info.setdefault("level", level)
    return spec


def _check_sevens(game, who: str) -> None:
    if getattr(game, "name", None) != "sevens":
        raise SpecError(f"agent '{who}' plays Sevens only, not {game.spec}; use it with sevens(players=N)")


class SevensHeuristicAgent(Agent):
    """The hand-written baseline (``evoplay.games.sevens.batch_play.heuristic_value``)."""

    spec = "sevens_heuristic"

    def __init__(self, game):
        _check_sevens(game, "sevens_heuristic")
        super().__init__(game)

    def step(self, state) -> int:
        from evoplay.games.sevens.batch_play import heuristic_choice

        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        rows = state.card_features(legal)
        return legal[int(heuristic_choice(rows, len(legal), state.phase() == "send"))]

    def explain(self, state, card: int) -> str:
        return _explain(state, card)


class SevensSpecimenAgent(Agent):
    """A Specimen at the table: the play tree values each playable card, the send tree each card it could send."""

    def __init__(self, game, specimen: Specimen, spec: str = "specimen"):
        _check_sevens(game, "specimen")
        super().__init__(game)
        self.specimen = specimen
        self.spec = spec
        self._stack = np.empty(max(specimen.play.size, specimen.send.size), np.float64)

    def restart(self, seed: int, seat: int = 0) -> None:
        from evoplay.gp.interpreter import seed_random

        self.seat = seat
        seed_random(int(seed) & 0xFFFFFFFF)

    def values(self, state, cards) -> np.ndarray:
        """The tree's value of each candidate card (play or send tree by the state's phase)."""
        from evoplay.gp.interpreter import evaluate_rows

        tree = self.specimen.send if state.phase() == "send" else self.specimen.play
        rows = state.card_features(cards)
        out = np.empty(len(cards), np.float64)
        evaluate_rows(tree.opcodes, tree.args, tree.consts, 0, tree.size, rows, out)
        return out

    def step(self, state) -> int:
        from evoplay.gp.interpreter import best_row

        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        tree = self.specimen.send if state.phase() == "send" else self.specimen.play
        rows = state.card_features(legal)
        return legal[int(best_row(tree.opcodes, tree.args, tree.consts, 0, tree.size, rows, self._stack))]

    def explain(self, state, card: int) -> str:
        return _explain(state, card)


def _explain(state, card: int) -> str:
    """One line on why a card was sent, from the features the sender saw (call before applying the send)."""
    from evoplay.games.sevens.rules import FEATURES, card_name

    row = state.card_features([card])[0]
    f = dict(zip(FEATURES, row))
    reasons = []
    if f["gap"] == 0:
        reasons.append("it is playable, so the receiver must play it at once")
    else:
        reasons.append(f"{int(f['gap'])} card{'s' if f['gap'] != 1 else ''} must go down before it is playable")
    if f["unblocks"] == 0:
        reasons.append("none of my cards wait behind it")
    else:
        reasons.append(f"{int(f['unblocks'])} of my cards wait behind it")
    if f["others_beyond"]:
        reasons.append(f"it holds back {int(f['others_beyond'])} card(s) of other players")
    return f"P{state.current_player()} sends {card_name(card)} to P{state.receiver()}: " + "; ".join(reasons)


def make_specimen_agent(game, spec: str = "specimen", path: str = "", level: str = "", computer: str = ""):
    """``specimen(path=best.json)`` or ``specimen(level=expert[,computer=computer.py])``."""
    _check_sevens(game, "specimen")
    if bool(path) == bool(level):
        raise SpecError("specimen needs either path=FILE.json (a run's best.json) or level=LEVEL "
                        f"({', '.join(LEVELS)}), e.g. specimen(level=expert)")
    specimen = Specimen.load(path) if path else level_specimen(level, computer or None)
    return SevensSpecimenAgent(game, specimen, spec)


# --------------------------------------------------------------------------------------------------------------
# A hand at the terminal: the table of agents for ``evoplay play sevens`` and the narration of the AI's moves.
# --------------------------------------------------------------------------------------------------------------


class Narrator(Agent):
    """Wraps an AI seat so a person at the table hears each of its moves: plays in full, sends to the person
    with a one-line reason, sends between AIs without the (hidden) card."""

    def __init__(self, inner: Agent, viewer: int, say):
        super().__init__(inner.game)
        self.inner = inner
        self.viewer = viewer
        self.say = say
        self.spec = inner.spec

    def restart(self, seed: int, seat: int = 0) -> None:
        self.seat = seat
        self.inner.restart(seed, seat)

    def step(self, state) -> int:
        from evoplay.games.sevens.rules import card_name

        card = self.inner.step(state)
        me = state.current_player()
        if state.phase() == "send":
            to = state.receiver()
            if to == self.viewer:
                explain = getattr(self.inner, "explain", None)
                line = explain(state, card) if explain else f"P{me} sends {card_name(card)} to P{to}"
                self.say(line.replace(f"to P{to}", "to you", 1))
            else:
                self.say(f"P{to} cannot play; P{me} sends them a card (only they see it)")
        else:
            left = state.hand_sizes()[me] - 1
            self.say(f"P{me} plays {card_name(card)}" + (" and is out!" if left == 0 else f" ({left} left)"))
        return card


def sevens_verdict(state, you: int) -> str:
    """``state.verdict(you)``: seat ``you``'s finishing place and the finishing order."""
    return state.verdict(you)


# --------------------------------------------------------------------------------------------------------------
# The agents only Sevens has, as SevensGame.players names them.
# --------------------------------------------------------------------------------------------------------------


def _sevens_only(game) -> str | None:
    return None if getattr(game, "name", None) == "sevens" else "it plays Sevens only"


HEURISTIC = AgentEntry(lambda game, spec: SevensHeuristicAgent(game), (), "Sevens: the hand-written baseline",
                       _sevens_only)
SPECIMEN = AgentEntry(
    make_specimen_agent,
    (
        Param("path", str, "", "best.json of a sevens run", empty="no file (give level instead)"),
        Param("level", str, "", "or a difficulty level: easy, medium, hard, expert",
              empty="no level (give path instead)"),
        Param("computer", str, "", "a run's levels.json or run folder", empty="the levels shipped with evoplay"),
    ),
    "Sevens: an evolved two-tree player (play and send trees), from a run or a difficulty level",
    _sevens_only,
)

