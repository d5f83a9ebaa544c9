"""Sevens for the game API: ``SevensGame`` and ``SevensState`` over the kernels, what each player may see, features.

The rules are in ``rules`` (docs/sevens.md writes them out for players), their kernels in ``rules_kernels``; the
state is the int16 array of ``rules.STATE_SIZE`` those kernels work on. ``render`` draws a state in the terminal.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evoplay.spec import Param
from evoplay.errors import SpecError
from evoplay.games.base import TERMINAL, Game, State
from evoplay.games.sevens.render import render
from evoplay.games.sevens.rules import (
    _MASK64, CARDS, HAND, HIGH, LOW, MAX_PLAYERS, MIN_PLAYERS, NUM_FEATURES, OWNER, PHASE, PLACE, RANK_NAMES,
    RECEIVER, SEND, STATE_SIZE, SUIT_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, TO_MOVE, TURNS, card_name, card_rank,
    card_suit, parse_card, returns,
)
from evoplay.games.sevens.rules_kernels import apply_card, deal, features, legal_cards


@dataclass(frozen=True)
class SevensObservation:
    """What ``player`` may see: their hand, the table, every hand's size, places, and the public history.

    ``history`` holds ``(kind, actor, target, card)`` with kind ``"play"`` or ``"send"``; a send's card is
    ``None`` unless this player sent or received it.
    """

    player: int
    players: int
    to_move: int
    phase: str  # "play", "send" or "over"
    receiver: int  # the player being sent a card (send phase), else -1
    hand: tuple[int, ...]
    rows: tuple[tuple[int, int], ...]  # (low, high) of each suit, (0, 0) for no row yet
    hand_sizes: tuple[int, ...]
    places: tuple[int, ...]  # finishing place (0 = first) or -1 while still playing
    rounds: int
    history: tuple[tuple[str, int, int, int | None], ...]


#: the difficulty levels evoplay ships (levels.json): ``specimen(level=LEVEL)`` plays one
LEVELS = ("easy", "medium", "hard", "expert")
#: the ``kind`` of a Sevens run's best.json (``evoplay.games.sevens.agents.Specimen``)
SPECIMEN_KIND = "sevens-specimen"


class SevensGame(Game):
    name = "sevens"
    players = {"sevens_heuristic": "evoplay.games.sevens.agents:HEURISTIC",
               "specimen": "evoplay.games.sevens.agents:SPECIMEN",
               "narrator": "evoplay.games.sevens.agents:Narrator"}
    view = "sevens"
    default_opponent = "expert"
    suggested_opponents = (*LEVELS, "sevens_heuristic", "random")
    levels = {level: f"specimen(level={level})" for level in LEVELS}
    summary = "Sevens (Sjuan, Fan Tan): build the suits out from the sevens; who cannot play is sent a card"
    parameters = (
        Param("players", int, 4, "players, 3 to 8", min=MIN_PLAYERS, max=MAX_PLAYERS, why="Sevens is for 3 to 8 players"),
    )
    perfect_information = False  # the other hands are hidden

    def __init__(self, spec: str | None = None, params: dict | None = None, **values):
        super().__init__(spec, params, **values)  # a plain call builds the default game
        params = self.params
        self.players = int(params["players"])
        self.num_players = self.players

    def num_distinct_actions(self) -> int:
        return CARDS

    def feature_names(self) -> list[str]:
        """What one player sees, seats counted from it (``seat_0`` is itself, ``seat_1`` the next to its left):
        ``hand_<card>`` 1 for each card in its hand, the ends of each suit's row (``low_<suit>``, ``high_<suit>``,
        0 while the suit has no row), each seat's hand size and finishing place (0 while playing, else 1 for
        first...), who is to move, whether it is a send and who receives it (as seat offsets, -1 for none), and
        the completed rounds. Never another player's cards."""
        names = [f"hand_{RANK_NAMES[card_rank(c) - 1]}{SUIT_LETTERS[card_suit(c)]}" for c in range(CARDS)]
        names += [f"{end}_{SUIT_NAMES[k]}" for k in range(SUITS) for end in ("low", "high")]
        names += [f"hand_size_seat_{q}" for q in range(self.players)]
        names += [f"place_seat_{q}" for q in range(self.players)]
        return names + ["to_move_seat", "send", "receiver_seat", "rounds"]

    @classmethod
    def run_player(cls, doc: dict, file: str, config: dict) -> tuple[str, str] | None:
        """A Sevens run's specimen plays through ``specimen(path=FILE)`` at the table the run trained at (its
        config's players)."""
        if doc.get("kind") != SPECIMEN_KIND:
            return None
        table = config.get("game")
        players = table.get("players", 4) if isinstance(table, dict) else 4
        game = f"sevens(players={players})" if isinstance(players, int) and players != 4 else "sevens"
        return f"specimen(path={file})", game

    def new_initial_state(self, seed: int | None = None) -> "SevensState":
        s = np.empty(STATE_SIZE, np.int16)
        deal(s, self.players, np.uint64(0 if seed is None else int(seed) & _MASK64))
        return SevensState(self, s)


class SevensState(State):
    __slots__ = ("game", "_s", "history")

    def __init__(self, game: SevensGame, s: np.ndarray):
        self.game = game
        self._s = s
        # (kind, actor, target, card): target is the receiver of a send, -1 for a play.
        self.history: list[tuple[str, int, int, int]] = []

    # --- the API ---------------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return int(self._s[TO_MOVE])

    def phase(self) -> str:
        """``"play"``, ``"send"`` (the mover chooses a card to give ``receiver()``) or ``"over"``."""
        if self.is_terminal():
            return "over"
        return "send" if self._s[PHASE] == SEND else "play"

    def receiver(self) -> int:
        """The player who could not play and is being sent a card (-1 outside the send phase)."""
        return int(self._s[RECEIVER])

    def _legal_actions(self) -> list[int]:
        out = np.empty(CARDS, np.int64)
        k = legal_cards(self._s, out)
        return [int(c) for c in out[:k]]

    def _apply_action(self, action: int) -> None:
        kind = "send" if self._s[PHASE] == SEND else "play"
        actor = int(self._s[TO_MOVE])
        target = int(self._s[RECEIVER]) if kind == "send" else -1
        apply_card(self._s, action)
        self.history.append((kind, actor, target, int(action)))

    def apply_action_unchecked(self, action: int) -> None:
        """Apply a known-legal card without validating it (agents' and the arena's fast path)."""
        self._apply_action(action)

    def _action_to_string(self, action: int) -> str:
        return card_name(action)

    def _string_to_action(self, text: str) -> int:
        return parse_card(text)

    def why_illegal(self, action: int, player: int) -> str:
        if not 0 <= action < CARDS:
            return f"{action} is not a card"
        if action not in self.hand(player):
            return f"{card_name(action)} is not in your hand"
        if self.phase() == "send":
            return "choose a card of yours to send"
        shown = ", ".join(card_name(c) for c in self.legal_actions(player))
        return (f"{card_name(action)} cannot go on the table yet: play a seven, or the card next to a row's end"
                f" ({shown})")

    def move_kind(self) -> tuple[str | None, int]:
        """("send", receiver) while the mover chooses a card to give, else ("play", -1)."""
        phase = self.phase()
        return phase, self.receiver() if phase == "send" else -1

    def verdict(self, player: int) -> str:
        """``player``'s finishing place and the finishing order ("you finished 2nd of 4 (finishing order: P1, you,
        P0, P2)")."""
        places = self.places()
        order = sorted(range(len(places)), key=lambda p: places[p])
        names = ", ".join("you" if p == player else f"P{p}" for p in order)
        k = places[player] + 1
        suffix = "st" if k == 1 else "nd" if k == 2 else "rd" if k == 3 else "th"
        head = "you win!" if k == 1 else f"you finished {k}{suffix} of {len(places)}"
        return f"{head} (finishing order: {names})"

    def returns(self) -> list[float]:
        return returns([int(x) for x in self._s])

    def scores(self) -> list[float]:
        """Finishing place per seat (1 = first) once the game is over, else cards in hand."""
        n = self.game.players
        if self.is_terminal():
            return [float(self._s[PLACE + p] + 1) for p in range(n)]
        return [float(self._s[HAND + p]) for p in range(n)]

    def clone(self) -> "SevensState":
        c = SevensState(self.game, self._s.copy())
        c.history = list(self.history)
        return c

    # --- what players see ----------------------------------------------------------------------------------
    def state_array(self) -> np.ndarray:
        """A copy of the whole state in the kernel layout (everything, hidden hands included)."""
        return self._s.copy()

    def hand(self, player: int) -> list[int]:
        return [c for c in range(CARDS) if self._s[OWNER + c] == player]

    def hand_sizes(self) -> list[int]:
        return [int(self._s[HAND + p]) for p in range(self.game.players)]

    def rows(self) -> list[tuple[int, int]]:
        return [(int(self._s[LOW + k]), int(self._s[HIGH + k])) for k in range(SUITS)]

    def places(self) -> list[int]:
        return [int(self._s[PLACE + p]) for p in range(self.game.players)]

    def rounds(self) -> int:
        return int(self._s[TURNS]) // self.game.players

    def observation(self, player: int | None = None) -> SevensObservation:
        """What ``player`` (default: the player to move) may see, and nothing else."""
        p = self.current_player() if player is None else int(player)
        if not 0 <= p < self.game.players:
            raise SpecError(f"sevens: no player {p} in a {self.game.players}-player game")
        history = tuple(
            (kind, actor, target, card if kind == "play" or p in (actor, target) else None)
            for kind, actor, target, card in self.history
        )
        return SevensObservation(
            player=p, players=self.game.players, to_move=self.current_player(), phase=self.phase(),
            receiver=self.receiver(), hand=tuple(self.hand(p)), rows=tuple(self.rows()),
            hand_sizes=tuple(self.hand_sizes()), places=tuple(self.places()), rounds=self.rounds(),
            history=history,
        )

    def card_features(self, cards) -> np.ndarray:
        """Feature rows (``FEATURES``) of the mover's candidate ``cards``: what the seed's trees see."""
        cards = np.asarray(cards, np.int64)
        rows = np.empty((len(cards), NUM_FEATURES), np.float64)
        features(self._s, cards, len(cards), rows)
        return rows

    def features(self, player: int) -> np.ndarray:
        """``SevensGame.feature_names`` as ``player`` sees this state: its own hand, never another's."""
        n = self.game.players
        if not 0 <= player < n:
            raise SpecError(f"sevens: no player {player} in a {n}-player game")
        s = self._s
        out = np.zeros(CARDS + 2 * SUITS + 2 * n + 4, np.float64)
        out[:CARDS] = s[OWNER : OWNER + CARDS] == player
        k = CARDS
        for suit in range(SUITS):
            out[k], out[k + 1] = s[LOW + suit], s[HIGH + suit]
            k += 2
        for q in range(n):
            seat = (player + q) % n
            out[k + q] = s[HAND + seat]
            out[k + n + q] = 0 if s[PLACE + seat] < 0 else s[PLACE + seat] + 1
        k += 2 * n
        to_move = int(s[TO_MOVE])
        out[k] = -1 if to_move == TERMINAL else (to_move - player) % n
        out[k + 1] = 1.0 if to_move != TERMINAL and s[PHASE] == SEND else 0.0
        out[k + 2] = -1 if s[RECEIVER] < 0 or to_move == TERMINAL else (int(s[RECEIVER]) - player) % n
        out[k + 3] = int(s[TURNS]) // n
        return out

    def resample(self, player: int, rng: np.random.Generator) -> "SevensState":
        """A state ``player`` cannot tell from this one: the cards it cannot see dealt at random over the other
        hands, each keeping its size. A card ``player`` sent stays with its receiver until the receiver sends a
        card (which could be that one); the card of a send ``player`` did not take part in is hidden (-1) in the
        copy's history."""
        n = self.game.players
        if not 0 <= player < n:
            raise SpecError(f"sevens: no player {player} in a {n}-player game")
        pinned: dict[int, int] = {}
        for kind, actor, target, card in self.history:
            if kind == "play":
                pinned.pop(card, None)
            elif actor == player:
                pinned[card] = target
            else:
                pinned = {c: q for c, q in pinned.items() if q != actor}
        owners = self._s[OWNER : OWNER + CARDS]
        hidden = [c for c in range(CARDS) if owners[c] >= 0 and owners[c] != player and c not in pinned]
        slots = [int(owners[c]) for c in hidden]  # each hidden card's seat, in card order: the hand sizes kept
        drawn = rng.permutation(len(hidden))
        s = self._s.copy()
        for c, j in zip(hidden, drawn):
            s[OWNER + c] = slots[j]
        copy = SevensState(self.game, s)
        copy.history = [
            (kind, actor, target, card if kind == "play" or player in (actor, target) else -1)
            for kind, actor, target, card in self.history
        ]
        return copy

    def render(self, viewer: int | None = None) -> str:
        """The table, the hand sizes and ``viewer``'s hand (never another player's)."""
        return render(self, viewer)

    def view_fields(self, player: int) -> dict:
        """The web app's Sevens table as ``player`` sees it: its hand, the rows, the hand sizes and places, the
        last moves (another pair's sent card hidden)."""
        obs = self.observation(player)

        def card(c):
            return {"card": c, "name": card_name(c), "rank": RANK_NAMES[card_rank(c) - 1], "suit": card_suit(c)}

        history = [{"kind": kind, "actor": actor, "to": target, "card": None if c is None else card(c)}
                   for kind, actor, target, c in obs.history[-12:]]
        return {"hand": [card(c) for c in obs.hand], "rows": [list(r) for r in obs.rows],
                "hand_sizes": list(obs.hand_sizes), "places": list(obs.places), "phase": obs.phase,
                "receiver": obs.receiver, "rounds": obs.rounds, "history": history,
                "suits": list(SUIT_SYMBOLS), "suit_names": list(SUIT_NAMES), "ranks": list(RANK_NAMES),
                "text": self.render(player)}

    def __str__(self) -> str:
        p = self.current_player()
        return render(self, p if p >= 0 else None)
