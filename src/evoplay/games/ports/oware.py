"""OpenSpiel's oware, ported: its rules in plain Python beside the same rules as Numba kernels.

As open_spiel/games/oware/oware.cc, with its parameters ``num_houses_per_player`` and ``num_seeds_per_house``. The
houses are numbered counterclockwise, player 0's first (0..H-1), then player 1's (H..2H-1); action ``a`` sows the
mover's ``a``-th house (OpenSpiel writes it ``A``.. for player 0, ``a``.. for player 1), one seed a house
counterclockwise, never into the house sown from. A last seed in the opponent's row that makes 2 or 3 captures that
house and the opponent's houses before it while they hold 2 or 3, unless that would take every seed of the
opponent (a grand slam: nothing is captured). A player whose opponent has no seeds must sow into the opponent's
row. The game ends when a player has captured more than half the seeds (or both half), when a player cannot move,
or when a board (the player to move, the scores and the houses) comes back since the last capture: then each
player collects the seeds of its own row. OpenSpiel plays at most 1,000 moves (``kMaxGameLength``: pyspiel refuses
the next one); the port ends a game that reaches them as a draw (returns 0, as OpenSpiel's returns stand there),
the board as it is. More seeds captured wins (returns 1 and -1). The observation tensor is the houses' seeds and the
two scores, each a share of all the seeds (float32, as OpenSpiel keeps it), the same for both players.

The kernels' position (int64) is the houses, the scores, the player to move (or TERMINAL), the moves played, how
the game ended (0 not yet, 1 by the rules, 2 at the move limit) and the boards seen since the last capture, each
one number, times 2, plus the player to move (the scores are the same on all of them: only a capture changes them,
and it clears the list). The number is the houses but the last (which holds the seeds left) as the digits of a
number in base seeds-in-all + 1 where that fits in 63 bits (a seed a house on 7 houses a player or more, up to 4
on 6 (OpenSpiel's default), 11 on 5, 57 on 4, 900 on 3), which ``apply`` updates by the houses a move changes; else
the houses ranked among all ways to share their seeds (the combinatorial number system), summed anew each move.
"""
from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np
from numba import njit

from evoplay.games.ports.base import (TERMINAL, PortGame, PortState, encode_state, mix, seat_features, totals_returned,
                                     totals_returns)

MIN_CAPTURE, MAX_CAPTURE = 2, 3
MAX_MOVES = 1000  # OpenSpiel's kMaxGameLength: pyspiel plays no move after this many
RUNNING, BY_RULES, AT_LIMIT = 0, 1, 2  # how the game ended
HEADER = 6  # the position's numbers after the houses: two scores, mover, moves, ended, boards seen
RANK_LIMIT = 2 ** 62  # a board's number (rank * 2 + player) must stay below this
DIGITS_LIMIT = 2 ** 63  # a board's number (its digits * 2 + player) must stay below this (an int64)


def board_count(houses: int, seeds: int) -> int:
    """How many boards share ``seeds`` seeds among ``houses`` houses, each with either player to move."""
    return 2 * comb(seeds + houses - 1, houses - 1)


def digits_fit(houses: int, seeds: int) -> bool:
    """Do the boards of ``houses`` houses and ``seeds`` seeds in all number by their digits (base seeds + 1, every
    house but the last), with the player to move, below ``DIGITS_LIMIT``?"""
    return 2 * (seeds + 1) ** (houses - 1) <= DIGITS_LIMIT


def digits(houses: tuple[int, ...], base: int) -> int:
    """The houses but the last as the digits of a number in ``base``, the first house the lowest digit."""
    return sum(seeds * base ** i for i, seeds in enumerate(houses[:-1]))


@lru_cache(maxsize=1 << 16)
def rank(houses: tuple[int, ...]) -> int:
    """The houses' rank among all ways to share their seeds: the bars between them in stars and bars are an
    increasing sequence b_0 < b_1 < ..., numbered by the combinatorial number system (sum of C(b_i, i + 1))."""
    total, out = 0, 0
    for i, seeds in enumerate(houses[:-1]):
        total += seeds
        out += comb(total + i, i + 1)
    return out


# --- the rules, plain Python ---------------------------------------------------------------------------------
class OwareState(PortState):
    def __init__(self, game):
        super().__init__(game)
        self.seeds = [game.per_house] * (2 * game.houses)
        self.score = [0, 0]
        self.player = 0
        self.moves = 0
        self.ended = RUNNING
        self.seen = [self.board()]  # OpenSpiel's boards_since_last_capture_, in the order they came

    def board(self) -> tuple[int, ...]:
        """OpenSpiel's ``OwareBoard``: the player to move, the scores, the houses."""
        return (self.player, *self.score, *self.seeds)

    def decided(self) -> bool:
        """OpenSpiel's ``IsTerminal``: a player has more than half the seeds, or both have half."""
        half = self.game.total // 2
        return self.score[0] > half or self.score[1] > half or self.score[0] == self.score[1] == half

    def current_player(self) -> int:
        return TERMINAL if self.ended else self.player

    def moves_of(self, player: int) -> list[int]:
        """OpenSpiel's ``LegalActions`` for ``player`` (of a game not decided)."""
        h = self.game.houses
        lower, upper = player * h, player * h + h - 1
        if sum(self.seeds[(1 - player) * h:(2 - player) * h]) == 0:  # the opponent must be given seeds
            return [house - lower for house in range(lower, upper + 1) if self.seeds[house] - (upper - house) > 0]
        return [house - lower for house in range(lower, upper + 1) if self.seeds[house] > 0]

    def _legal_actions(self) -> list[int]:
        return self.moves_of(self.player)

    def sow(self, house: int) -> int:
        """Sow ``house``'s seeds counterclockwise, skipping it; the house the last seed fell in."""
        seeds = self.seeds
        left, seeds[house], at = seeds[house], 0, house
        while left:
            at = (at + 1) % len(seeds)
            if at != house:
                seeds[at] += 1
                left -= 1
        return at

    def grand_slam(self, house: int) -> bool:
        """Would capturing from ``house`` take every seed of its row? (No house beyond it holds seeds and every
        house before it would be captured.)"""
        h = self.game.houses
        lower = house // h * h
        return (all(self.seeds[i] == 0 for i in range(house + 1, lower + h))
                and all(MIN_CAPTURE <= self.seeds[i] <= MAX_CAPTURE for i in range(lower, house + 1)))

    def capture_from(self, house: int) -> int:
        lower = house // self.game.houses * self.game.houses
        captured = 0
        for i in range(house, lower - 1, -1):
            if not MIN_CAPTURE <= self.seeds[i] <= MAX_CAPTURE:
                break
            captured += self.seeds[i]
            self.seeds[i] = 0
        self.score[self.player] += captured
        return captured

    def collect(self) -> None:
        """OpenSpiel's ``CollectAndTerminate``: each player takes the seeds of its own row."""
        h = self.game.houses
        for house, seeds in enumerate(self.seeds):
            self.score[house // h] += seeds
        self.seeds = [0] * len(self.seeds)

    def _do_apply_action(self, action: int) -> None:
        h = self.game.houses
        last = self.sow(self.player * h + action)
        if last // h != self.player and not self.grand_slam(last) and self.capture_from(last) > 0:
            self.seen = []  # captured seeds never come back: no earlier board can return
        self.player = 1 - self.player
        self.moves += 1
        board = self.board()
        if board in self.seen:  # a board seen since the last capture: the game ends
            self.collect()
        else:
            self.seen.append(board)
        if self.decided() or not self.moves_of(self.player):
            self.collect()
            self.ended = BY_RULES
        elif self.moves == MAX_MOVES:
            self.ended = AT_LIMIT

    def returns(self) -> list[float]:
        if self.ended != BY_RULES:
            return [0.0, 0.0]
        return totals_returns(*self.score)

    def observation(self, player: int) -> list[float]:
        shares = self.game.shares
        return [shares[n] for n in self.seeds] + [shares[n] for n in self.score]

    def action_string(self, player: int, action: int) -> str:
        return chr((ord("A") if player == 0 else ord("a")) + action)

    def transposition_key(self):
        return (self.current_player(), tuple(self.seeds), tuple(self.score), self.moves,
                frozenset((b[0], *b[3:]) for b in self.seen))

    def encode(self) -> np.ndarray:
        m = len(self.seeds)
        out = np.zeros(self.game.position_size, np.int64)
        out[:m + HEADER] = self.seeds + self.score + [self.current_player(), self.moves, self.ended, len(self.seen)]
        out[m + HEADER:m + HEADER + len(self.seen)] = [self.game.number(b) for b in self.seen]
        return out

    def __str__(self) -> str:
        h, over = self.game.houses, self.current_player() == TERMINAL

        def score(player: int) -> str:
            playing = " [PLAYING]" if not over and self.player == player else ""
            return f"Player {player} score = {self.score[player]}{playing}\n"

        return ("[FINISHED]\n" if over else "") + score(1) + "".join(
            [f"{chr(ord('a') + a):>3}" for a in range(h - 1, -1, -1)] + ["\n"]
            + [f"{self.seeds[house]:>3}" for house in range(2 * h - 1, h - 1, -1)] + ["\n"]
            + [f"{self.seeds[house]:>3}" for house in range(h)] + ["\n"]
            + [f"{chr(ord('A') + a):>3}" for a in range(h)] + ["\n"]) + score(0)


# --- the same rules as kernels ---------------------------------------------------------------------------------
# params: houses a player (h), seeds in all (n), the houses the board's number sums anew each move (0 when it is the
# houses' digits, which apply updates; else all but the last), then from WEIGHTS on: each house's digit weight times 2
# (the last house 0; all 0 when the number is the rank: 2h numbers), their running sums (the k-th: houses 0..k-1;
# 2h + 1 numbers), the whole laps of k seeds (k // (2h - 1), for k = 0..n) and 2 * C(total + i, i + 1) for house i and
# total = 0..n (all 0 when the number is the digits).
WEIGHTS = 3


@njit(cache=True, inline="always")
def layout(params):
    """(houses a player, all houses, seeds in all, the index of the scores, of the mover, of the moves, of how the
    game ended, of the number of boards seen, of the first of them)."""
    h = params[0]
    m = 2 * h
    return h, m, params[1], m, m + 2, m + 3, m + 4, m + 5, m + HEADER


@njit(cache=True)
def initial(params, state, seed):
    h, m, total, at_score, at_mover, at_moves, at_ended, at_count, at_seen = layout(params)
    state[:] = 0
    for house in range(m):
        state[house] = total // m
    state[at_count] = 1
    state[at_seen] = board_number(params, state, 0, m - 1)


@njit(cache=True)
def mover(params, state):
    return np.int64(state[layout(params)[4]])


@njit(cache=True, inline="always")
def board_number(params, state, player, houses):
    """The board's number in the list of boards seen, summed over the first ``houses`` houses (all but the last: the
    whole number): the houses' digits or their rank (the sum of C(total + i, i + 1), total the seeds up to house i),
    times 2 (the tables hold them doubled), plus the player to move."""
    m = 2 * params[0]
    row = params[1] + 1
    at = WEIGHTS + 2 * m + 1 + row  # the ranks (after the weights, their sums and the laps)
    total = 0
    out = np.int64(player)
    for i in range(houses):
        total += state[i]
        out += params[WEIGHTS + i] * state[i] + params[at + total]
        at += row
    return out


# No loop of the kernels below leaves by ``break``, no call of a helper sits alone in a branch and no integer
# division can raise: each of these makes Numba keep atomic reference counts of the position on every call (it cannot
# prove them needless there), which cost more than an oware move. The helpers are small enough for LLVM to inline.
@njit(cache=True)
def must_feed(params, state, player):
    """Has ``player``'s opponent no seeds (so ``player`` must sow into the opponent's row)?"""
    house = (1 - player) * params[0]
    end = house + params[0]
    while house < end and state[house] == 0:
        house += 1
    return house == end


@njit(cache=True)
def can_sow(state, house, upper, feed):
    """May the mover sow ``house`` (its row ends at ``upper``)? It holds seeds, and when the opponent must be fed,
    enough of them to reach the opponent's row."""
    return state[house] > upper - house if feed else state[house] > 0


@njit(cache=True)
def sowable(params, state, player, out):
    """OpenSpiel's LegalActions for ``player``, listed in ``out``; how many."""
    h = params[0]
    lower = player * h
    upper = lower + h - 1
    feed = must_feed(params, state, player)
    n = 0
    for house in range(lower, upper + 1):  # each house written, kept by counting it: no branch to mispredict
        out[n] = house - lower
        n += can_sow(state, house, upper, feed)
    return n


@njit(cache=True)
def stuck(params, state, player):
    """Has ``player`` no legal move?"""
    house = player * params[0]
    upper = house + params[0] - 1
    feed = must_feed(params, state, player)
    while house <= upper and not can_sow(state, house, upper, feed):
        house += 1
    return house > upper


@njit(cache=True)
def legal(params, state, player, mask):
    moving = state[layout(params)[4]] == player
    side = player if moving else 0  # a player not to move (or TERMINAL) has no legal action: row 0 is read
    h = params[0]
    lower = side * h
    upper = lower + h - 1
    feed = must_feed(params, state, side)
    n = 0
    for house in range(lower, upper + 1):  # every action's entry written: no mask to clear first
        ok = can_sow(state, house, upper, feed) and moving
        mask[house - lower] = ok
        n += ok
    return n


@njit(cache=True)
def moves(params, state, out):
    player = state[layout(params)[4]]
    if player < 0:
        return 0
    return sowable(params, state, player, out)


@njit(cache=True)
def decided(first, second, total):
    """OpenSpiel's IsTerminal, from the two scores: a player has more than half the seeds, or both have half."""
    half = total // 2
    return first > half or second > half or (first == half and second == half)


@njit(cache=True)
def capturable(seeds):
    return MIN_CAPTURE <= seeds <= MAX_CAPTURE


@njit(cache=True)
def apply(params, state, action):
    h, m, total, at_score, at_mover, at_moves, at_ended, at_count, at_seen = layout(params)
    weight, sown, laps_of = WEIGHTS, WEIGHTS + m, WEIGHTS + 2 * m + 1  # see board_number and the params above
    player = state[at_mover]
    count = state[at_count]
    last = state[at_seen + count - 1]  # the board before the move (a running game has seen one at least)
    house = player * h + action
    left = state[house]
    laps = params[laps_of + left]  # each whole lap sows one seed in every other house
    rest = left - laps * (m - 1)  # then one a house after the one sown from: fewer than the other houses
    # Every house is written, the ones sown into found by their distance after the house sown from (which is m - 1
    # after itself, never below rest): loops of fixed length, no branch on the seeds to mispredict.
    for i in range(m):
        after = i - house - 1
        after += m * (after < 0)
        state[i] += laps + (after < rest)
    state[house] = 0
    end = house + rest
    stop = min(end, m - 1) + 1
    wrapped = max(end - m + 1, 0)
    # how the digits change (all 0 when the number is the rank): the house emptied, the laps, the rest
    moved = (-left * params[weight + house] + laps * (params[sown + m] - params[weight + house])
             + params[sown + stop] - params[sown + house + 1] + params[sown + wrapped])
    at = end - (rest == 0)  # the house of the last seed: after a whole number of laps, the one before the sown one
    at += m * (at < 0) - m * (at >= m)
    lower = 0 if at < h else h
    if lower != player * h and capturable(state[at]):  # the last seed made 2 or 3 in the opponent's row
        # a grand slam (nothing captured): no seeds beyond the last house, and every house up to it capturable
        beyond = at + 1
        while beyond < lower + h and state[beyond] == 0:
            beyond += 1
        first = lower  # (stays at lower when seeds lie beyond: then no grand slam)
        while beyond == lower + h and first <= at and capturable(state[first]):
            first += 1
        if first <= at:
            captured = 0
            i = at
            while i >= lower and capturable(state[i]):
                captured += state[i]
                moved -= state[i] * params[weight + i]
                state[i] = 0
                i -= 1
            # captured seeds (2 at least) never come back: no earlier board can return
            state[at_score + player] += captured
            for i in range(count):
                state[at_seen + i] = 0
            count = 0
            state[at_count] = 0
    # the board's number: the last board's digits moved by the houses changed (params[2] == 0), or the rank summed
    # anew (params[2] houses)
    player = 1 - player
    state[at_moves] += 1
    number = board_number(params, state, player, params[2]) + (params[2] == 0) * (last - (1 - player) + moved)
    i = count - 2  # the boards seen alternate players: only every other one can be this one
    while i >= 0 and state[at_seen + i] != number:
        i -= 2
    repeated = i >= 0
    if not repeated:
        state[at_seen + count] = number
        state[at_count] = count + 1
    blocked = stuck(params, state, player)  # asked every move: a call left to a branch counts references
    if repeated or blocked or decided(state[at_score], state[at_score + 1], total):
        for i in range(m):  # each player collects the seeds of its own row
            state[at_score + (i >= h)] += state[i]
            state[i] = 0
        state[at_ended] = BY_RULES
    elif state[at_moves] == MAX_MOVES:
        state[at_ended] = AT_LIMIT
    state[at_mover] = TERMINAL if state[at_ended] != RUNNING else player


@njit(cache=True)
def returns(params, state, out):
    h, m, total, at_score, at_mover, at_moves, at_ended, at_count, at_seen = layout(params)
    out[0] = 0.0
    out[1] = 0.0
    if state[at_ended] == BY_RULES:
        totals_returned(state[at_score], state[at_score + 1], out)


@njit(cache=True)
def observation(params, state, player, out):
    total = params[1]
    for i in range(2 * params[0] + 2):
        out[i] = np.float32(state[i] / total)


@njit(cache=True)
def features(params, state, player, out):
    seat_features(observation, params, state, player, out)


@njit(cache=True)
def state_hash(params, state):
    h, m, total, at_score, at_mover, at_moves, at_ended, at_count, at_seen = layout(params)
    out = mix(np.int64(state[at_mover]) + 16) ^ mix(np.int64(state[at_moves]) * 64 + 7)
    for i in range(m + 2):
        out ^= mix((np.int64(i) + 1) * 4096 + np.int64(state[i]))
    for i in range(state[at_count]):  # the boards seen, as a set: the order they came in does not count
        out ^= mix(np.int64(state[at_seen + i]) ^ np.int64(1 << 62))
    return np.int64(out)


# --- the game ----------------------------------------------------------------------------------------------------
class Oware(PortGame):
    """OpenSpiel's oware, ported (num_houses_per_player, num_seeds_per_house)."""

    openspiel_name = "oware"
    plays = ("num_houses_per_player and num_seeds_per_house, 1 or more each while the boards number under 2^62 "
             "(6 houses: up to 18 seeds a house; 4: up to 176; 8: up to 6)")

    @classmethod
    def refuses(cls, settings: dict) -> str | None:
        houses, per_house = settings["num_houses_per_player"], settings["num_seeds_per_house"]
        if houses < 1 or per_house < 1:
            return (f"num_houses_per_player={houses}, num_seeds_per_house={per_house}: the port plays 1 or more of "
                    f"each")
        if board_count(2 * houses, 2 * houses * per_house) >= RANK_LIMIT:
            return (f"num_houses_per_player={houses}, num_seeds_per_house={per_house}: the port numbers each board "
                    f"it has seen in one 64-bit number, and {2 * houses} houses of {2 * houses * per_house} seeds "
                    f"have too many boards; fewer seeds or houses fit")
        return None

    def setup(self, settings: dict) -> None:
        self.houses, self.per_house = int(settings["num_houses_per_player"]), int(settings["num_seeds_per_house"])
        self.total = 2 * self.houses * self.per_house
        # the observation tensor's numbers: n seeds as a share of all, rounded to float32 as OpenSpiel keeps them
        self.shares = [float(np.float32(n / self.total)) for n in range(self.total + 1)]
        self.position_size = 2 * self.houses + HEADER + MAX_MOVES + 1
        self.by_digits = digits_fit(2 * self.houses, self.total)  # else each board is numbered by its rank

    def number(self, board: tuple[int, ...]) -> int:
        """The kernels' number of a board (the player to move, the scores, the houses)."""
        houses = board[3:]
        return (digits(houses, self.total + 1) if self.by_digits else rank(houses)) * 2 + board[0]

    def new_initial_state(self, seed: int | None = None) -> OwareState:
        return OwareState(self)

    def kernels(self):
        m, digit, ranked = 2 * self.houses, int(self.by_digits), int(not self.by_digits)
        weights = [digit * 2 * (self.total + 1) ** i for i in range(m - 1)] + [0]
        sown = [sum(weights[:k]) for k in range(m + 1)]
        ranks = [ranked * 2 * comb(total + i, i + 1) for i in range(m - 1) for total in range(self.total + 1)]
        laps = [k // (m - 1) for k in range(self.total + 1)]
        params = [self.houses, self.total, ranked * (m - 1)] + weights + sown + laps + ranks
        return self.port_kernels(size=self.position_size, encode=encode_state, legal=legal, apply=apply,
                                 mover=mover, returns=returns, features=features, initial=initial,
                                 state_hash=state_hash, moves=moves, params=params, dtype=np.int64)
