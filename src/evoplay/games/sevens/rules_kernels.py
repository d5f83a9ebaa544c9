"""The rules of Sevens as Numba kernels over the int16 state array: the deal, legal cards, feature rows, random games.

The moves themselves (``apply_card``, ``is_playable``, ``next_active``...) are the ``register_jitable`` functions
of ``rules``, compiled into these kernels from the one source the Python reference runs. The kernels here are the
parts written another way for speed; tests/games/test_sevens.py plays thousands of games through both and holds
them equal to ``rules.reference_deal``, ``reference_legal`` and ``reference_features``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from evoplay.games.base import TERMINAL
from evoplay.games.sevens.rules import (
    CARDS, HAND, HIGH, LOW, OWNER, PHASE, PLACE, PLAYERS, RANKS, RECEIVER, SEND, SEVEN_OF_HEARTS, STATE_SIZE, TO_MOVE,
    TURNS, apply_card, beyond, gap_to_row, is_playable, next_active, seat_deck,
)


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
    seat_deck(s, deck, players)


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
            if beyond(rank, r):
                o = s[base + r - 1]
                if o == p:
                    mine += 1
                elif o >= 0:
                    others += 1
        gap = gap_to_row(rank, low, high)
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
