"""Sevens (Sjuan, Fan Tan) for 3 to 8 players: a plain-Python reference of the rules and Numba kernels beside it.

The rules (docs/sevens.md writes them out for players):

* A 52-card deck is shuffled from the game's seed and dealt out as evenly as it goes: card k of the shuffled
  deck goes to seat ``k % players`` (with 52 cards and 3 players seat 0 gets 18 cards, seats 1 and 2 get 17).
* The holder of the seven of hearts opens with it. Play then passes to the left (seat + 1).
* A seven starts its suit's row on the table; the row then builds upwards 8, 9, 10, J, Q, K and downwards
  6, 5, ..., A one card at a time. A card is playable when it is the seven of a suit with no row yet, or the
  card just above or just below a row.
* A player who can play must play (any one playable card of their choice).
* A player who cannot play is *sent* a card by the previous player (the nearest seat to the right that still
  holds cards), who chooses which of their own cards to give: the seed's "send" decision. If the card received
  is playable the receiver plays it at once (their turn goes on); otherwise their turn ends. (This makes every
  lap of turns put at least one card on the table, so a game always ends.)
* A player who empties their hand -- by playing or by sending their last card -- finishes. The first to finish
  wins; play goes on for the finishing order until one player is left holding cards, who is last.

Hidden information: a player sees their own hand, the table, every player's hand size and the history of plays
and sends; who sent to whom is public, the card sent is seen only by the sender and the receiver
(``SevensState.observation``).

State layout (one int16 array of ``STATE_SIZE``; the Python reference uses a list with the same layout): 52
card owners (seat, or ``TABLE``), the low and high end of each suit's row (0: no row yet), hand sizes and
finishing places of up to 8 seats, then the player count, the player to move (or TERMINAL), the phase (play or
send), the receiver of a send, the completed turns and the number of finished players. Cards are numbered
``suit * 13 + rank - 1`` with suits clubs, diamonds, hearts, spades and ranks 1 (ace) to 13 (king).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from evoplay.errors import IllegalActionError, SpecError
from evoplay.games.base import TERMINAL, Game, State

# --------------------------------------------------------------------------------------------------------------
# Layout and card names.
# --------------------------------------------------------------------------------------------------------------

CARDS = 52
SUITS = 4
RANKS = 13
MAX_PLAYERS = 8
MIN_PLAYERS = 3
TABLE = -1
SEVEN_OF_HEARTS = 2 * RANKS + 6

OWNER = 0
LOW = 52
HIGH = 56
HAND = 60
PLACE = 68
PLAYERS = 76
TO_MOVE = 77
PHASE = 78
RECEIVER = 79
TURNS = 80
FINISHED = 81
STATE_SIZE = 82

PLAY = 0
SEND = 1

SUIT_SYMBOLS = "♣♦♥♠"
SUIT_LETTERS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# The features a player's trees see for one candidate card (the ``env`` table of the Lua export). The order is
# the column order of feature rows; docs/sevens.md describes each.
FEATURES = (
    "rounds",         # completed laps of turns (completed turns // players): the seed's env.rounds
    "distance",       # the card's rank distance from seven, 0..6
    "unblocks",       # my other cards of its suit beyond it (on its side of seven): the cards it holds back for me
    "blocked",        # my other cards that are not playable after this move
    "hand",           # cards in my hand before the move
    "next_hand",      # cards in the receiver's hand (send) or the next player's hand (play)
    "row_end",        # 1 if the card ends a row (an ace or a king), else 0
    "gap",            # cards that must be played before this one becomes playable (0: playable now)
    "others_beyond",  # cards beyond it held by other players: the cards it keeps blocked for them
    "playable",       # my playable cards before the move
    "min_hand",       # the smallest hand among the other players still in the game
)
NUM_FEATURES = len(FEATURES)
F_ROUNDS, F_DISTANCE, F_UNBLOCKS, F_BLOCKED, F_HAND, F_NEXT_HAND, F_ROW_END, F_GAP, F_OTHERS, F_PLAYABLE, \
    F_MIN_HAND = range(NUM_FEATURES)


def card_suit(card: int) -> int:
    return card // RANKS


def card_rank(card: int) -> int:
    return card % RANKS + 1


def card_name(card: int) -> str:
    """``7♥``, ``10♣``, ``K♠``."""
    return RANK_NAMES[card_rank(card) - 1] + SUIT_SYMBOLS[card_suit(card)]


def parse_card(text: str) -> int:
    """Read a card written rank then suit: ``7h``, ``7H``, ``7♥``, ``10c``, ``Ts``, ``qd``, ``As`` (or ``1s``)."""
    t = text.strip().upper().replace(" ", "")
    if len(t) >= 2:
        rank_text, suit_text = t[:-1], t[-1]
        suit = SUIT_LETTERS.find(suit_text) if suit_text in SUIT_LETTERS else SUIT_SYMBOLS.find(suit_text)
        if rank_text == "T":
            rank_text = "10"
        if rank_text == "1":
            rank_text = "A"
        if suit >= 0 and rank_text in RANK_NAMES:
            return suit * RANKS + RANK_NAMES.index(rank_text)
    raise IllegalActionError(
        f"{text!r} is not a card; write rank then suit, e.g. 7h, 10c, qs, Ad (suits c d h s or ♣ ♦ ♥ ♠)"
    )


# --------------------------------------------------------------------------------------------------------------
# The shuffle: splitmix64, written once for Python and once for Numba so both deal the same cards from a seed.
# --------------------------------------------------------------------------------------------------------------

_MASK64 = (1 << 64) - 1


def reference_splitmix(state: int) -> tuple[int, int]:
    """One splitmix64 step: (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def reference_deal(players: int, seed: int) -> list[int]:
    """The initial state (a list in the kernel layout) of a seeded deal."""
    s = [0] * STATE_SIZE
    deck = list(range(CARDS))
    rng = seed & _MASK64
    for i in range(CARDS - 1, 0, -1):
        rng, x = reference_splitmix(rng)
        j = x % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    for k, card in enumerate(deck):
        s[OWNER + card] = k % players
        s[HAND + k % players] += 1
    for p in range(MAX_PLAYERS):
        s[PLACE + p] = -1
    s[PLAYERS] = players
    s[RECEIVER] = -1
    s[TO_MOVE] = s[OWNER + SEVEN_OF_HEARTS]
    s[PHASE] = PLAY
    return s


# --------------------------------------------------------------------------------------------------------------
# Plain-Python reference rules over a list in the kernel layout. The kernels below must agree exactly.
# --------------------------------------------------------------------------------------------------------------


def reference_is_playable(s: list[int], card: int) -> bool:
    suit, rank = card_suit(card), card_rank(card)
    low, high = s[LOW + suit], s[HIGH + suit]
    if low == 0:
        return rank == 7
    return rank == low - 1 or rank == high + 1


def reference_can_play(s: list[int], player: int) -> bool:
    return any(s[OWNER + c] == player and reference_is_playable(s, c) for c in range(CARDS))


def reference_legal(s: list[int]) -> list[int]:
    """The legal cards of the player to move, ascending: playable cards (play) or any own card (send)."""
    p = s[TO_MOVE]
    if p == TERMINAL:
        return []
    if s[PHASE] == SEND:
        return [c for c in range(CARDS) if s[OWNER + c] == p]
    if all(s[LOW + k] == 0 for k in range(SUITS)):
        return [SEVEN_OF_HEARTS]  # the opening
    return [c for c in range(CARDS) if s[OWNER + c] == p and reference_is_playable(s, c)]


def _ref_next_active(s, p, step):
    n = s[PLAYERS]
    q = (p + step) % n
    while s[HAND + q] == 0:
        q = (q + step) % n
    return q


def _ref_begin_turn(s, p):
    if reference_can_play(s, p):
        s[TO_MOVE], s[PHASE], s[RECEIVER] = p, PLAY, -1
    else:
        s[TO_MOVE], s[PHASE], s[RECEIVER] = _ref_next_active(s, p, -1), SEND, p


def _ref_finish_if_empty(s, p):
    if s[HAND + p] == 0:
        s[PLACE + p] = s[FINISHED]
        s[FINISHED] += 1


def _ref_game_over(s) -> bool:
    n = s[PLAYERS]
    if n - s[FINISHED] > 1:
        return False
    for p in range(n):
        if s[PLACE + p] < 0:
            s[PLACE + p] = s[FINISHED]
            s[FINISHED] += 1
    s[TO_MOVE], s[PHASE], s[RECEIVER] = TERMINAL, PLAY, -1
    return True


def reference_apply(s: list[int], card: int) -> None:
    """Apply the mover's card in place: play it (play phase) or send it to the receiver (send phase)."""
    p = s[TO_MOVE]
    if s[PHASE] == PLAY:
        suit, rank = card_suit(card), card_rank(card)
        s[OWNER + card] = TABLE
        if s[LOW + suit] == 0:
            s[LOW + suit] = s[HIGH + suit] = rank
        elif rank < s[LOW + suit]:
            s[LOW + suit] = rank
        else:
            s[HIGH + suit] = rank
        s[HAND + p] -= 1
        _ref_finish_if_empty(s, p)
        if _ref_game_over(s):
            return
        s[TURNS] += 1
        _ref_begin_turn(s, _ref_next_active(s, p, 1))
    else:
        r = s[RECEIVER]
        s[OWNER + card] = r
        s[HAND + p] -= 1
        s[HAND + r] += 1
        _ref_finish_if_empty(s, p)
        if _ref_game_over(s):
            return
        if reference_is_playable(s, card):
            s[TO_MOVE], s[PHASE], s[RECEIVER] = r, PLAY, -1
        else:
            s[TURNS] += 1
            _ref_begin_turn(s, _ref_next_active(s, r, 1))


def reference_features(s: list[int], card: int) -> list[float]:
    """The feature row (``FEATURES``) the player to move sees for candidate ``card``."""
    p = s[TO_MOVE]
    n = s[PLAYERS]
    suit, rank = card_suit(card), card_rank(card)
    low, high = s[LOW + suit], s[HIGH + suit]
    # Cards beyond this one, away from seven; a seven holds back its whole suit.
    beyond = [suit * RANKS + r - 1 for r in range(1, RANKS + 1)
              if (rank > 7 and r > rank) or (rank < 7 and r < rank) or (rank == 7 and r != 7)]
    mine_beyond = sum(1 for c in beyond if s[OWNER + c] == p)
    others_beyond = sum(1 for c in beyond if s[OWNER + c] >= 0 and s[OWNER + c] != p)
    if low == 0:
        gap = abs(rank - 7)
    elif rank > high:
        gap = rank - high - 1
    else:
        gap = low - rank - 1
    playable = sum(1 for c in range(CARDS) if s[OWNER + c] == p and reference_is_playable(s, c))
    after = list(s)
    if s[PHASE] == PLAY:
        after[OWNER + card] = TABLE
        if low == 0:
            after[LOW + suit] = after[HIGH + suit] = rank
        elif rank < low:
            after[LOW + suit] = rank
        else:
            after[HIGH + suit] = rank
        other = _ref_next_active(s, p, 1)
    else:
        after[OWNER + card] = s[RECEIVER]
        other = s[RECEIVER]
    blocked = sum(1 for c in range(CARDS) if after[OWNER + c] == p and not reference_is_playable(after, c))
    min_hand = min(s[HAND + q] for q in range(n) if q != p and s[HAND + q] > 0)
    return [
        float(s[TURNS] // n), float(abs(rank - 7)), float(mine_beyond), float(blocked), float(s[HAND + p]),
        float(s[HAND + other]), float(rank == 1 or rank == 13), float(gap), float(others_beyond),
        float(playable), float(min_hand),
    ]


def reference_returns(s: list[int]) -> list[float]:
    """Per seat: 1 for first place down to -1 for last, linear in the finishing place (0 while running)."""
    n = s[PLAYERS]
    if s[TO_MOVE] != TERMINAL:
        return [0.0] * n
    return [1.0 - 2.0 * s[PLACE + p] / (n - 1) for p in range(n)]


# --------------------------------------------------------------------------------------------------------------
# Numba kernels: the same rules over the int16 state array.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def splitmix(rng):
    """Advance the one-element uint64 array ``rng`` and return the next 64-bit output (kernel of
    ``reference_splitmix``)."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def deal(s, players, seed):
    """Fill ``s`` with the seeded deal (kernel of ``reference_deal``)."""
    s[:] = 0
    deck = np.arange(CARDS)
    rng = np.empty(1, np.uint64)
    rng[0] = np.uint64(seed)
    for i in range(CARDS - 1, 0, -1):
        j = np.int64(splitmix(rng) % np.uint64(i + 1))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    for k in range(CARDS):
        seat = k % players
        s[OWNER + deck[k]] = seat
        s[HAND + seat] += 1
    for p in range(MAX_PLAYERS):
        s[PLACE + p] = -1
    s[PLAYERS] = players
    s[RECEIVER] = -1
    s[TO_MOVE] = s[OWNER + SEVEN_OF_HEARTS]
    s[PHASE] = PLAY


@njit(cache=True, inline="always")
def is_playable(s, card):
    suit = card // RANKS
    rank = card % RANKS + 1
    low = s[LOW + suit]
    if low == 0:
        return rank == 7
    return rank == low - 1 or rank == s[HIGH + suit] + 1


@njit(cache=True)
def can_play(s, player):
    # Only the (at most two) open ends of each suit can be playable: look at those instead of all 52 cards.
    for suit in range(SUITS):
        low = s[LOW + suit]
        base = OWNER + suit * RANKS
        if low == 0:
            if s[base + 6] == player:
                return True
        else:
            if low > 1 and s[base + low - 2] == player:
                return True
            high = s[HIGH + suit]
            if high < RANKS and s[base + high] == player:
                return True
    return False


@njit(cache=True)
def legal_cards(s, out):
    """Write the mover's legal cards (ascending) into ``out``; return how many (kernel of ``reference_legal``)."""
    p = s[TO_MOVE]
    if p == TERMINAL:
        return 0
    n = 0
    if s[PHASE] == SEND:
        for c in range(CARDS):
            if s[OWNER + c] == p:
                out[n] = c
                n += 1
        return n
    if s[LOW] == 0 and s[LOW + 1] == 0 and s[LOW + 2] == 0 and s[LOW + 3] == 0:
        out[0] = SEVEN_OF_HEARTS
        return 1
    for c in range(CARDS):
        if s[OWNER + c] == p and is_playable(s, c):
            out[n] = c
            n += 1
    return n


@njit(cache=True, inline="always")
def next_active(s, p, step):
    n = s[PLAYERS]
    q = (p + step + n) % n
    while s[HAND + q] == 0:
        q = (q + step + n) % n
    return q


@njit(cache=True, inline="always")
def _begin_turn(s, p):
    if can_play(s, p):
        s[TO_MOVE] = p
        s[PHASE] = PLAY
        s[RECEIVER] = -1
    else:
        s[TO_MOVE] = next_active(s, p, -1)
        s[PHASE] = SEND
        s[RECEIVER] = p


@njit(cache=True, inline="always")
def _finish_if_empty(s, p):
    if s[HAND + p] == 0:
        s[PLACE + p] = s[FINISHED]
        s[FINISHED] += 1


@njit(cache=True, inline="always")
def _game_over(s):
    n = s[PLAYERS]
    if n - s[FINISHED] > 1:
        return False
    for p in range(n):
        if s[PLACE + p] < 0:
            s[PLACE + p] = s[FINISHED]
            s[FINISHED] += 1
    s[TO_MOVE] = TERMINAL
    s[PHASE] = PLAY
    s[RECEIVER] = -1
    return True


@njit(cache=True)
def apply_card(s, card):
    """Apply the mover's card in place (kernel of ``reference_apply``)."""
    p = s[TO_MOVE]
    if s[PHASE] == PLAY:
        suit = card // RANKS
        rank = card % RANKS + 1
        s[OWNER + card] = TABLE
        if s[LOW + suit] == 0:
            s[LOW + suit] = rank
            s[HIGH + suit] = rank
        elif rank < s[LOW + suit]:
            s[LOW + suit] = rank
        else:
            s[HIGH + suit] = rank
        s[HAND + p] -= 1
        _finish_if_empty(s, p)
        if _game_over(s):
            return
        s[TURNS] += 1
        _begin_turn(s, next_active(s, p, 1))
    else:
        r = s[RECEIVER]
        s[OWNER + card] = r
        s[HAND + p] -= 1
        s[HAND + r] += 1
        _finish_if_empty(s, p)
        if _game_over(s):
            return
        if is_playable(s, card):
            s[TO_MOVE] = r
            s[PHASE] = PLAY
            s[RECEIVER] = -1
        else:
            s[TURNS] += 1
            _begin_turn(s, next_active(s, r, 1))


@njit(cache=True)
def features(s, cards, count, rows):
    """Fill ``rows[i]`` with the feature row of candidate ``cards[i]`` for i < count (kernel of
    ``reference_features``): one decision's batch for the GP interpreter."""
    p = s[TO_MOVE]
    n = s[PLAYERS]
    send = s[PHASE] == SEND
    other = s[RECEIVER] if send else next_active(s, p, 1)
    min_hand = 99
    for q in range(n):
        if q != p and s[HAND + q] > 0 and s[HAND + q] < min_hand:
            min_hand = s[HAND + q]
    # My cards that are not playable now, and my playable cards.
    playable = 0
    not_playable = 0
    for c in range(CARDS):
        if s[OWNER + c] == p:
            if is_playable(s, c):
                playable += 1
            else:
                not_playable += 1
    rounds = s[TURNS] // n
    hand = s[HAND + p]
    next_hand = s[HAND + other]
    for i in range(count):
        card = cards[i]
        suit = card // RANKS
        rank = card % RANKS + 1
        low = s[LOW + suit]
        high = s[HIGH + suit]
        base = OWNER + suit * RANKS
        mine = 0
        others = 0
        for r in range(1, RANKS + 1):
            if (rank > 7 and r > rank) or (rank < 7 and r < rank) or (rank == 7 and r != 7):
                o = s[base + r - 1]
                if o == p:
                    mine += 1
                elif o >= 0:
                    others += 1
        if low == 0:
            gap = abs(rank - 7)
        elif rank > high:
            gap = rank - high - 1
        else:
            gap = low - rank - 1
        # Blocked after the move: my cards other than this one that are not playable afterwards.
        if send:
            blocked = not_playable - (0 if gap == 0 else 1)
        else:
            # Playing this card opens the next card on its side (and, for a seven, both sides' neighbours);
            # it closes nothing else, so only the newly opened cards change status.
            blocked = not_playable
            if rank == 7 and low == 0:
                if s[base + 5] == p:
                    blocked -= 1
                if s[base + 7] == p:
                    blocked -= 1
            elif rank < 7 or (rank == 7 and low != 0):
                if rank > 1 and s[base + rank - 2] == p:
                    blocked -= 1
            else:
                if rank < RANKS and s[base + rank] == p:
                    blocked -= 1
        row = rows[i]
        row[0] = rounds
        row[1] = abs(rank - 7)
        row[2] = mine
        row[3] = blocked
        row[4] = hand
        row[5] = next_hand
        row[6] = 1.0 if (rank == 1 or rank == RANKS) else 0.0
        row[7] = gap
        row[8] = others
        row[9] = playable
        row[10] = min_hand


@njit(cache=True)
def random_games(players, count, seed, wins):
    """Play ``count`` games of uniformly random legal cards; add each game's winner to ``wins[seat]``."""
    s = np.empty(STATE_SIZE, np.int16)
    cards = np.empty(CARDS, np.int64)
    rng = np.empty(1, np.uint64)
    rng[0] = np.uint64(seed) ^ np.uint64(0x5DEECE66D)
    for g in range(count):
        deal(s, players, splitmix(rng))
        while s[TO_MOVE] != TERMINAL:
            k = legal_cards(s, cards)
            apply_card(s, cards[np.int64(splitmix(rng) % np.uint64(k))])
        for q in range(players):
            if s[PLACE + q] == 0:
                wins[q] += 1


# --------------------------------------------------------------------------------------------------------------
# The game and its state.
# --------------------------------------------------------------------------------------------------------------


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


class SevensGame(Game):
    name = "sevens"
    perfect_information = False  # the other hands are hidden

    def __init__(self, spec: str, params: dict):
        super().__init__(spec, params)
        self.players = int(params["players"])
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise SpecError(
                f"sevens: players={self.players} is out of range; Sevens is for {MIN_PLAYERS} to {MAX_PLAYERS} "
                f"players, e.g. sevens(players=4)"
            )
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

    def returns(self) -> list[float]:
        return reference_returns([int(x) for x in self._s])

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

    def __str__(self) -> str:
        p = self.current_player()
        return render(self, p if p >= 0 else None)


def render_row(low: int, high: int) -> str:
    cells = []
    for r in range(1, RANKS + 1):
        on = low != 0 and low <= r <= high
        cells.append(f"{RANK_NAMES[r - 1]:>2}" if on else " .")
    return " ".join(cells)


def render_hand(cards) -> str:
    by_suit = [[c for c in cards if card_suit(c) == k] for k in range(SUITS)]
    return "  ".join(" ".join(card_name(c) for c in group) for group in by_suit if group) or "(empty)"


def render(state: SevensState, viewer: int | None) -> str:
    """A terminal picture of the table, each player's hand size, and the viewer's own hand."""
    lines = ["table:"]
    for k, (low, high) in enumerate(state.rows()):
        lines.append(f"  {SUIT_SYMBOLS[k]} {render_row(low, high)}")
    sizes = state.hand_sizes()
    places = state.places()
    who = []
    for p in range(state.game.players):
        tag = "you" if p == viewer else f"P{p}"
        if places[p] >= 0 and sizes[p] == 0:
            who.append(f"{tag}: out ({_ordinal(places[p] + 1)})")
        else:
            who.append(f"{tag}: {sizes[p]} card{'s' if sizes[p] != 1 else ''}")
    lines.append("hands: " + ", ".join(who))
    to_move = state.current_player()

    def name(q: int) -> str:
        return "you" if q == viewer else f"P{q}"

    if to_move == TERMINAL:
        order = sorted(range(state.game.players), key=lambda q: places[q])
        lines.append("finishing order: " + ", ".join(name(q) for q in order))
    elif state.phase() == "send":
        lines.append(f"{name(state.receiver())} cannot play; {name(to_move)} must send them a card")
    else:
        lines.append(f"{name(to_move)} to play")
    if viewer is not None and viewer >= 0:
        lines.append(f"your hand: {render_hand(state.hand(viewer))}")
    return "\n".join(lines)


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"
