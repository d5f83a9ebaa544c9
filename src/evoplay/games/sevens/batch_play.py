"""Whole Sevens games inside one Numba kernel: GP specimens (play and send trees), the heuristic and random players.

``play_games`` deals and plays a batch of games without returning to Python: at every decision with more than
one legal card it fills the feature rows of the candidate cards (``rules_kernels.features``) and lets the seat's
player choose -- a GP specimen evaluates its play or send tree over the rows in one batch with the GP
interpreter (``evoplay.gp.interpreter.best_row``: highest value, first card on ties), the heuristic scores the
rows with its fixed formula, the random player draws a card. A decision with one legal card is played without
asking anybody (so it draws no random numbers). Each game reseeds Numba's generator (the ``random`` terminal
and the random player) from its own seed, so results never depend on how games are split into batches.

``reference_play_game`` is the same loop in Python over the reference rules (``rules``), for the tests.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import register_jitable

from evoplay.games.base import TERMINAL
from evoplay.games.sevens.rules import (
    CARDS, F_GAP, F_OTHERS, F_UNBLOCKS, NUM_FEATURES, PHASE, PLACE, SEND, STATE_SIZE, TO_MOVE, apply_card,
    reference_deal, reference_features, reference_legal,
)
from evoplay.games.sevens.rules_kernels import deal, features, legal_cards
from evoplay.gp.interpreter import best_row, seed_random

#: kinds of player in a game kernel
GP, RANDOM_PLAYER, HEURISTIC = 0, 1, 2
PLAYER_KINDS = {"gp": GP, "random": RANDOM_PLAYER, "heuristic": HEURISTIC}


# --------------------------------------------------------------------------------------------------------------
# The hand-written heuristic: a fixed formula over the same feature rows the trees see.
# --------------------------------------------------------------------------------------------------------------


@register_jitable
def heuristic_value(row, send):
    """Play: open the way for my own cards (2 x unblocks) and keep the others' cards blocked (- others_beyond).
    Send: give away the card I would be stuck with longest (gap) that holds back none of my own cards
    (- 2 x unblocks), and never a playable one (the receiver would play it at once: - 3 when gap is 0)."""
    if send:
        return row[F_GAP] - 2.0 * row[F_UNBLOCKS] - (3.0 if row[F_GAP] == 0 else 0.0)
    return 2.0 * row[F_UNBLOCKS] - row[F_OTHERS]


@njit(cache=True)
def heuristic_choice(rows, count, send):
    """Index of the candidate the heuristic picks (the first on ties)."""
    best = 0
    best_value = -np.inf
    for i in range(count):
        v = heuristic_value(rows[i], send)
        if v > best_value:
            best = i
            best_value = v
    return best


def reference_heuristic_choice(rows, send: bool) -> int:
    """The heuristic's pick in Python over a list of rows (the reference loop's)."""
    values = [heuristic_value(r, send) for r in rows]
    return values.index(max(values))


# --------------------------------------------------------------------------------------------------------------
# The game loop.
# --------------------------------------------------------------------------------------------------------------


@njit(cache=True)
def play_games(players, seeds, seats, kinds, opcodes, args, consts, play_start, play_end, send_start, send_end,
               until_first, places):
    """Play ``len(seeds)`` games; game g deals from ``seeds[g]`` with player ``seats[g, p]`` in seat p.

    Player k is of kind ``kinds[k]`` (GP, RANDOM_PLAYER or HEURISTIC); a GP player's trees are the slices
    ``[play_start[k], play_end[k])`` and ``[send_start[k], send_end[k])`` of the packed pool (opcodes, args,
    consts). ``places[g, p]`` receives seat p's finishing place (0 = first); with ``until_first`` a game stops
    when its first player finishes and the others' places are left at -1. Returns the number of decisions taken
    by a player (moves with more than one legal card).
    """
    s = np.empty(STATE_SIZE, np.int16)
    cards = np.empty(CARDS, np.int64)
    rows = np.empty((CARDS, NUM_FEATURES), np.float64)
    longest = 1
    for k in range(kinds.shape[0]):
        if kinds[k] == GP:
            longest = max(longest, play_end[k] - play_start[k], send_end[k] - send_start[k])
    stack = np.empty(longest, np.float64)
    decisions = 0
    for g in range(seeds.shape[0]):
        deal(s, players, seeds[g])
        seed_random(np.uint32(seeds[g] & np.uint64(0xFFFFFFFF)))
        while s[TO_MOVE] != TERMINAL:
            n = legal_cards(s, cards)
            choice = 0
            if n > 1:
                decisions += 1
                who = seats[g, s[TO_MOVE]]
                kind = kinds[who]
                send = s[PHASE] == SEND
                if kind == RANDOM_PLAYER:
                    choice = np.random.randint(n)
                else:
                    features(s, cards, n, rows)
                    if kind == HEURISTIC:
                        choice = heuristic_choice(rows, n, send)
                    elif send:
                        choice = best_row(opcodes, args, consts, send_start[who], send_end[who], rows[:n], stack)
                    else:
                        choice = best_row(opcodes, args, consts, play_start[who], play_end[who], rows[:n], stack)
            apply_card(s, cards[choice])
            if until_first and s[TO_MOVE] != TERMINAL:
                done = False
                for p in range(players):
                    if s[PLACE + p] == 0:
                        done = True
                if done:
                    break
        for p in range(players):
            places[g, p] = s[PLACE + p]
    return decisions


def reference_play_game(players: int, seed: int, choose) -> list[int]:
    """One game over the reference rules; ``choose(seat, send, cards, rows) -> index`` picks at each decision
    with more than one legal card. Returns each seat's finishing place."""
    s = reference_deal(players, seed)
    while s[TO_MOVE] != TERMINAL:
        legal = reference_legal(s)
        choice = 0
        if len(legal) > 1:
            rows = [reference_features(s, c) for c in legal]
            choice = choose(s[TO_MOVE], s[PHASE] == SEND, legal, rows)
        apply_card(s, legal[choice])
    return [s[PLACE + p] for p in range(players)]


# --------------------------------------------------------------------------------------------------------------
# Python-side helpers: pack players for the kernel, and cut a schedule of games into tasks for an executor.
# --------------------------------------------------------------------------------------------------------------


class Lineup:
    """Players packed for ``play_games``: each entry is ``"random"``, ``"heuristic"`` or a (play, send) pair of
    ``evoplay.gp.Program``."""

    def __init__(self, players):
        from evoplay.gp.program import pack

        self.kinds = np.empty(len(players), np.int64)
        programs = []
        for k, p in enumerate(players):
            if isinstance(p, str):
                if p not in ("random", "heuristic"):
                    raise ValueError(f"unknown Sevens player kind {p!r}; use 'random', 'heuristic' or trees")
                self.kinds[k] = PLAYER_KINDS[p]
            else:
                self.kinds[k] = GP
                programs.extend(p)
        ops, args, consts, starts, ends = pack(programs)
        self.opcodes, self.args, self.consts = ops, args, consts
        self.play_start = np.zeros(len(players), np.int64)
        self.play_end = np.zeros(len(players), np.int64)
        self.send_start = np.zeros(len(players), np.int64)
        self.send_end = np.zeros(len(players), np.int64)
        j = 0
        for k, p in enumerate(players):
            if self.kinds[k] == GP:
                self.play_start[k], self.play_end[k] = starts[j], ends[j]
                self.send_start[k], self.send_end[k] = starts[j + 1], ends[j + 1]
                j += 2
        if len(programs) == 0:  # the kernel still wants typed arrays
            self.opcodes = np.zeros(1, np.int32)
            self.args = np.zeros(1, np.int32)
            self.consts = np.zeros(1, np.float64)

    def play(self, players: int, seeds, seats, until_first: bool = False) -> tuple[np.ndarray, int]:
        """Places (games x seats) of the games ``seeds`` with ``seats[g, p]`` = lineup index in seat p."""
        seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
        seats = np.ascontiguousarray(seats, dtype=np.int64)
        places = np.empty((len(seeds), players), np.int64)
        decisions = play_games(players, seeds, seats, self.kinds, self.opcodes, self.args, self.consts,
                               self.play_start, self.play_end, self.send_start, self.send_end, until_first, places)
        return places, int(decisions)


def _play_task(task):
    lineup, players, seeds, seats, until_first = task
    return lineup.play(players, seeds, seats, until_first)[0]


def play_on(executor, lineup, players: int, seeds: np.ndarray, seats: np.ndarray, until_first: bool = True,
            tasks_per_worker: int = 4) -> np.ndarray:
    """Places (games x seats) of a schedule, cut into contiguous tasks for ``executor`` (results in order)."""
    lineup.play(players, seeds[:1], seats[:1], until_first)  # compile here before workers fork
    if executor is None or executor.workers <= 1:  # the serial executor has one worker
        return lineup.play(players, seeds, seats, until_first)[0]
    n_tasks = max(1, min(len(seeds), executor.workers * tasks_per_worker))
    bounds = np.linspace(0, len(seeds), n_tasks + 1).astype(int)
    tasks = [(lineup, players, seeds[a:b], seats[a:b], until_first) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    return np.concatenate(executor.map(_play_task, tasks), axis=0)
