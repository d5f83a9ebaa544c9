"""The rules of Sevens (Sjuan, Fan Tan) for 3 to 8 players in plain Python: deal, legal cards, moves, features, returns.

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

The moves (``apply_card`` and what it calls) are written once, as ``register_jitable`` functions: run by Python
over a list they are the reference, and the kernels of ``rules_kernels`` compile the same source over the int16
array. The kernels have their own code only where speed wants another algorithm (the uint64 shuffle, legal cards
written into an array, the feature rows of a whole batch of candidates); ``reference_deal``,
``reference_legal`` and ``reference_features`` here are what tests/games/test_sevens.py holds them equal to.
"""
from __future__ import annotations

from numba.extending import register_jitable

from evoplay.errors import IllegalActionError
from evoplay.games.base import TERMINAL

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
    seat_deck(s, deck, players)
    return s


# --------------------------------------------------------------------------------------------------------------
# The moves: one source for the Python reference (over a list) and the kernels (compiled over the int16 array).
# --------------------------------------------------------------------------------------------------------------


@register_jitable
def seat_deck(s, deck, players):
    """Deal the shuffled ``deck`` over ``players`` seats into the zeroed state ``s``; the seven of hearts opens."""
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


@register_jitable
def is_playable(s, card):
    """A seven of a suit with no row yet, or the card just below or just above its suit's row."""
    suit = card // RANKS
    rank = card % RANKS + 1
    low = s[LOW + suit]
    if low == 0:
        return rank == 7
    return rank == low - 1 or rank == s[HIGH + suit] + 1


@register_jitable
def can_play(s, player):
    """Does ``player`` hold a playable card? Only the (at most two) open ends of each suit can be playable, so it
    looks at those instead of all 52 cards (a test holds it equal to checking every card)."""
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


@register_jitable
def next_active(s, p, step):
    """The nearest seat from ``p`` in direction ``step`` (+1 left, -1 right) that still holds cards."""
    n = s[PLAYERS]
    q = (p + step + n) % n
    while s[HAND + q] == 0:
        q = (q + step + n) % n
    return q


@register_jitable
def begin_turn(s, p):
    """``p``'s turn: they play if they can, else the previous player sends them a card."""
    if can_play(s, p):
        s[TO_MOVE] = p
        s[PHASE] = PLAY
        s[RECEIVER] = -1
    else:
        s[TO_MOVE] = next_active(s, p, -1)
        s[PHASE] = SEND
        s[RECEIVER] = p


@register_jitable
def finish_if_empty(s, p):
    """An empty hand takes the next finishing place."""
    if s[HAND + p] == 0:
        s[PLACE + p] = s[FINISHED]
        s[FINISHED] += 1


@register_jitable
def end_if_over(s):
    """With one player left holding cards, give them the last place, end the game and return True."""
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


@register_jitable
def put_on_row(s, card):
    """Put ``card`` on the table: it starts its suit's row (a seven) or extends the row at one end."""
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


@register_jitable
def apply_card(s, card):
    """Apply the mover's card in place: play it (play phase) or send it to the receiver (send phase)."""
    p = s[TO_MOVE]
    if s[PHASE] == PLAY:
        put_on_row(s, card)
        s[HAND + p] -= 1
        finish_if_empty(s, p)
        if end_if_over(s):
            return
        s[TURNS] += 1
        begin_turn(s, next_active(s, p, 1))
    else:
        r = s[RECEIVER]
        s[OWNER + card] = r
        s[HAND + p] -= 1
        s[HAND + r] += 1
        finish_if_empty(s, p)
        if end_if_over(s):
            return
        if is_playable(s, card):
            s[TO_MOVE] = r
            s[PHASE] = PLAY
            s[RECEIVER] = -1
        else:
            s[TURNS] += 1
            begin_turn(s, next_active(s, r, 1))


@register_jitable
def beyond(rank, r):
    """Is rank ``r`` beyond ``rank``, away from seven (held back by it)? A seven holds back its whole suit."""
    return (rank > 7 and r > rank) or (rank < 7 and r < rank) or (rank == 7 and r != 7)


@register_jitable
def gap_to_row(rank, low, high):
    """The cards of its suit that must be played before a card of ``rank`` is playable (0: playable now)."""
    if low == 0:
        return abs(rank - 7)
    if rank > high:
        return rank - high - 1
    return low - rank - 1


# --------------------------------------------------------------------------------------------------------------
# The reference of what the kernels compute their own way: legal cards and feature rows, card by card.
# --------------------------------------------------------------------------------------------------------------


def reference_legal(s: list[int]) -> list[int]:
    """The legal cards of the player to move, ascending: playable cards (play) or any own card (send)."""
    p = s[TO_MOVE]
    if p == TERMINAL:
        return []
    if s[PHASE] == SEND:
        return [c for c in range(CARDS) if s[OWNER + c] == p]
    if all(s[LOW + k] == 0 for k in range(SUITS)):
        return [SEVEN_OF_HEARTS]  # the opening
    return [c for c in range(CARDS) if s[OWNER + c] == p and is_playable(s, c)]


def reference_features(s: list[int], card: int) -> list[float]:
    """The feature row (``FEATURES``) the player to move sees for candidate ``card``."""
    p = s[TO_MOVE]
    n = s[PLAYERS]
    suit, rank = card_suit(card), card_rank(card)
    low, high = s[LOW + suit], s[HIGH + suit]
    held = [suit * RANKS + r - 1 for r in range(1, RANKS + 1) if beyond(rank, r)]
    mine_beyond = sum(1 for c in held if s[OWNER + c] == p)
    others_beyond = sum(1 for c in held if s[OWNER + c] >= 0 and s[OWNER + c] != p)
    gap = gap_to_row(rank, low, high)
    playable = sum(1 for c in range(CARDS) if s[OWNER + c] == p and is_playable(s, c))
    after = list(s)
    if s[PHASE] == PLAY:
        put_on_row(after, card)
        other = next_active(s, p, 1)
    else:
        after[OWNER + card] = s[RECEIVER]
        other = s[RECEIVER]
    blocked = sum(1 for c in range(CARDS) if after[OWNER + c] == p and not is_playable(after, c))
    min_hand = min(s[HAND + q] for q in range(n) if q != p and s[HAND + q] > 0)
    return [
        float(s[TURNS] // n), float(abs(rank - 7)), float(mine_beyond), float(blocked), float(s[HAND + p]),
        float(s[HAND + other]), float(rank == 1 or rank == 13), float(gap), float(others_beyond),
        float(playable), float(min_hand),
    ]


def returns(s) -> list[float]:
    """Per seat: 1 for first place down to -1 for last, linear in the finishing place (0 while running)."""
    n = s[PLAYERS]
    if s[TO_MOVE] != TERMINAL:
        return [0.0] * n
    return [1.0 - 2.0 * s[PLACE + p] / (n - 1) for p in range(n)]
